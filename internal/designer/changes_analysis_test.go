package designer_test

import (
	"reflect"
	"slices"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestAggregateChanges(t *testing.T) {
	t.Parallel()
	agg := func(check func(*testing.T, designer.AggregateAnalysis)) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			a, _, ok := after.AggregateByID("ag1")
			if !ok {
				t.Fatal("ag1 is gone")
			}
			check(t, a)
		}
	}
	yes, no := true, false
	pct := func(v float64) *float64 { return &v }
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "add", Change: designer.AddAggregate{EntityA: "Department", EntityB: "Employee"}, Check: func(t *testing.T, _, after designer.Design) {
			a := after.Aggregates[len(after.Aggregates)-1]
			if a.ID != "ag5" || a.EntityA != "Department" || a.EntityB != "Employee" {
				t.Errorf("added %+v", a)
			}
		}},
		{Name: "add unknown", Change: designer.AddAggregate{EntityA: "Department", EntityB: "Emp"}, Field: "entity_b"},
		{Name: "add unknown first", Change: designer.AddAggregate{EntityA: "Dept", EntityB: "Employee"}, Field: "entity_a"},
		{Name: "add same twice", Change: designer.AddAggregate{EntityA: "Employee", EntityB: "Employee"}, Field: "entity_b"},
		{Name: "add existing pair reversed", Change: designer.AddAggregate{EntityA: "SalaryRecord", EntityB: "Employee"}, Field: "entity_b"},
		{Name: "correlation with %", Change: designer.SetAggregateField{ID: "ag1", Field: "correlation_pct", Value: "45%"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if !reflect.DeepEqual(a.CorrelationPct, pct(45)) {
				t.Errorf("correlation = %v", a.CorrelationPct)
			}
		})},
		{Name: "clear both_pct", Change: designer.SetAggregateField{ID: "ag1", Field: "both_pct", Value: ""}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if a.BothPct != nil {
				t.Errorf("both = %v", *a.BothPct)
			}
		})},
		{Name: "only_a and only_b", Change: designer.SetAggregateField{ID: "ag1", Field: "only_b_pct", Value: "12.5"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if *a.OnlyBPct != 12.5 || *a.OnlyAPct != 78 {
				t.Errorf("only b %v only a %v", *a.OnlyBPct, *a.OnlyAPct)
			}
		})},
		{Name: "combined kb", Change: designer.SetAggregateField{ID: "ag1", Field: "combined_kb", Value: "2.5 KB"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if *a.CombinedKB != 2.5 {
				t.Errorf("kb = %v", *a.CombinedKB)
			}
		})},
		{Name: "bounded false", Change: designer.SetAggregateField{ID: "ag1", Field: "bounded", Value: "false"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if !reflect.DeepEqual(a.Bounded, &no) {
				t.Errorf("bounded = %v", a.Bounded)
			}
		})},
		{Name: "child independent yes", Change: designer.SetAggregateField{ID: "ag1", Field: "child_independent", Value: "Yes"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if !reflect.DeepEqual(a.Identifying.ChildIndependent, &yes) {
				t.Errorf("child independent = %v", a.Identifying.ChildIndependent)
			}
		})},
		{Name: "parent id known unanswered", Change: designer.SetAggregateField{ID: "ag1", Field: "parent_id_known", Value: ""}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if a.Identifying.ParentIDKnown != nil {
				t.Errorf("parent id known = %v", *a.Identifying.ParentIDKnown)
			}
		})},
		{Name: "separate table planned", Change: designer.SetAggregateField{ID: "ag1", Field: "separate_table_planned", Value: "no"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if !reflect.DeepEqual(a.Identifying.SeparateTablePlanned, &no) {
				t.Errorf("planned = %v", a.Identifying.SeparateTablePlanned)
			}
		})},
		{Name: "decision as the seed words it", Change: designer.SetAggregateField{ID: "ag1", Field: "decision", Value: "Single Item Aggregate"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if a.Decision != designer.SingleItem {
				t.Errorf("decision = %q", a.Decision)
			}
		})},
		{Name: "text fields", Change: designer.SetAggregateField{ID: "ag1", Field: "update_patterns", Value: "Rarely"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if a.Updates != "Rarely" {
				t.Errorf("updates = %q", a.Updates)
			}
		})},
		{Name: "entity_b", Change: designer.SetAggregateField{ID: "ag1", Field: "entity_b", Value: "TitleRecord"}, Check: agg(func(t *testing.T, a designer.AggregateAnalysis) {
			if a.EntityB != "TitleRecord" {
				t.Errorf("entity b = %q", a.EntityB)
			}
		})},
		{Name: "percentage over 100", Change: designer.SetAggregateField{ID: "ag1", Field: "correlation_pct", Value: "140%"}, Field: "correlation_pct"},
		{Name: "percentage not a number", Change: designer.SetAggregateField{ID: "ag1", Field: "both_pct", Value: "most"}, Field: "both_pct"},
		{Name: "negative size", Change: designer.SetAggregateField{ID: "ag1", Field: "combined_kb", Value: "-1"}, Field: "combined_kb"},
		{Name: "tri-state nonsense", Change: designer.SetAggregateField{ID: "ag1", Field: "bounded", Value: "maybe"}, Field: "bounded"},
		{Name: "unknown decision", Change: designer.SetAggregateField{ID: "ag1", Field: "decision", Value: "one big table"}, Field: "decision"},
		{Name: "unknown entity", Change: designer.SetAggregateField{ID: "ag1", Field: "entity_a", Value: "Ordr"}, Field: "entity_a"},
		{Name: "unknown field", Change: designer.SetAggregateField{ID: "ag1", Field: "identifying", Value: "yes"}, Field: "field"},
		{Name: "unknown id", Change: designer.SetAggregateField{ID: "ag9", Field: "decision", Value: ""}, Field: "id"},
		{Name: "delete", Change: designer.DeleteAggregate{ID: "ag2"}, Check: func(t *testing.T, before, after designer.Design) {
			if _, _, ok := after.AggregateByID("ag2"); ok || len(after.Aggregates) != len(before.Aggregates)-1 {
				t.Errorf("ag2 not deleted")
			}
		}},
		{Name: "delete unknown", Change: designer.DeleteAggregate{ID: "ag9"}, Field: "id"},
	})
}

func TestConsolidationChanges(t *testing.T) {
	t.Parallel()
	review := func(check func(*testing.T, designer.ConsolidationReview)) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			r, _, ok := after.ConsolidationByID("c1")
			if !ok {
				t.Fatal("c1 is gone")
			}
			check(t, r)
		}
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "add", Change: designer.AddConsolidation{Parent: "Employee", Child: "TitleRecord"}, Check: func(t *testing.T, _, after designer.Design) {
			r := after.Consolidations[len(after.Consolidations)-1]
			if r.ID != "c4" || r.Parent != "Employee" || r.Child != "TitleRecord" {
				t.Errorf("added %+v", r)
			}
		}},
		{Name: "add unknown parent", Change: designer.AddConsolidation{Parent: "Emp", Child: "TitleRecord"}, Field: "parent"},
		{Name: "add unknown child", Change: designer.AddConsolidation{Parent: "Employee", Child: "Title"}, Field: "child"},
		{Name: "add existing", Change: designer.AddConsolidation{Parent: "Employee", Child: "SalaryRecord"}, Field: "child"},
		{Name: "overlap", Change: designer.SetConsolidationField{ID: "c1", Field: "overlap_pct", Value: "45 %"}, Check: review(func(t *testing.T, r designer.ConsolidationReview) {
			if *r.OverlapPct != 45 {
				t.Errorf("overlap = %v", *r.OverlapPct)
			}
		})},
		{Name: "identifying unanswered", Change: designer.SetConsolidationField{ID: "c1", Field: "identifying", Value: ""}, Check: review(func(t *testing.T, r designer.ConsolidationReview) {
			if r.Identifying != nil {
				t.Errorf("identifying = %v", *r.Identifying)
			}
		})},
		{Name: "bounded", Change: designer.SetConsolidationField{ID: "c1", Field: "bounded", Value: "no"}, Check: review(func(t *testing.T, r designer.ConsolidationReview) {
			if r.Bounded == nil || *r.Bounded {
				t.Errorf("bounded = %v", r.Bounded)
			}
		})},
		{Name: "decision", Change: designer.SetConsolidationField{ID: "c1", Field: "decision", Value: "Consolidate"}, Check: review(func(t *testing.T, r designer.ConsolidationReview) {
			if r.Decision != designer.Consolidate {
				t.Errorf("decision = %q", r.Decision)
			}
		})},
		{Name: "relationship text", Change: designer.SetConsolidationField{ID: "c1", Field: "relationship", Value: "1:M (bounded)"}, Check: review(func(t *testing.T, r designer.ConsolidationReview) {
			if r.Relationship != "1:M (bounded)" {
				t.Errorf("relationship = %q", r.Relationship)
			}
		})},
		{Name: "child", Change: designer.SetConsolidationField{ID: "c1", Field: "child", Value: "TitleRecord"}, Check: review(func(t *testing.T, r designer.ConsolidationReview) {
			if r.Child != "TitleRecord" {
				t.Errorf("child = %q", r.Child)
			}
		})},
		{Name: "bad overlap", Change: designer.SetConsolidationField{ID: "c1", Field: "overlap_pct", Value: "-3"}, Field: "overlap_pct"},
		{Name: "bad decision", Change: designer.SetConsolidationField{ID: "c1", Field: "decision", Value: "both"}, Field: "decision"},
		{Name: "unknown parent", Change: designer.SetConsolidationField{ID: "c1", Field: "parent", Value: "Ordr"}, Field: "parent"},
		{Name: "unknown field", Change: designer.SetConsolidationField{ID: "c1", Field: "notes", Value: "x"}, Field: "field"},
		{Name: "unknown id", Change: designer.SetConsolidationField{ID: "c9", Field: "decision"}, Field: "id"},
		{Name: "delete", Change: designer.DeleteConsolidation{ID: "c3"}, Check: func(t *testing.T, _, after designer.Design) {
			if _, _, ok := after.ConsolidationByID("c3"); ok {
				t.Errorf("c3 not deleted")
			}
		}},
		{Name: "delete unknown", Change: designer.DeleteConsolidation{ID: "c9"}, Field: "id"},
	})
}

func TestSetConsideration(t *testing.T) {
	t.Parallel()
	var cases []designertest.ChangeCase
	for _, field := range designer.ConsiderationFields {
		f := field.Key
		cases = append(cases, designertest.ChangeCase{Name: f, Change: designer.SetConsideration{Field: f, Value: f + "\r\nnotes "}, Check: func(t *testing.T, before, after designer.Design) {
			if got := after.Considerations.Field(f); got != f+"\nnotes" {
				t.Errorf("%s = %q", f, got)
			}
			for _, other := range designer.ConsiderationFields {
				if other.Key != f && after.Considerations.Field(other.Key) != before.Considerations.Field(other.Key) {
					t.Errorf("%s changed too", other.Key)
				}
			}
		}})
	}
	cases = append(cases,
		designertest.ChangeCase{Name: "unknown", Change: designer.SetConsideration{Field: "trade_offs", Value: "x"}, Field: "field"},
		designertest.ChangeCase{Name: "control character", Change: designer.SetConsideration{Field: "sparse_gsis", Value: "\x07"}, Field: "considerations/sparse_gsis"},
	)
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestSetProse(t *testing.T) {
	t.Parallel()
	get := func(d designer.Design, key string) string {
		f, _ := designer.FieldNamed(designer.ProseFields, key)
		return f.Get(d.Prose)
	}
	var cases []designertest.ChangeCase
	for _, field := range designer.ProseFields {
		f := field.Key
		cases = append(cases, designertest.ChangeCase{Name: f, Change: designer.SetProse{Field: f, Value: f + "\r\n- a line "}, Check: func(t *testing.T, before, after designer.Design) {
			if got := get(after, f); got != f+"\n- a line" {
				t.Errorf("%s = %q", f, got)
			}
			for _, other := range designer.ProseFields {
				if other.Key != f && get(after, other.Key) != get(before, other.Key) {
					t.Errorf("%s changed too", other.Key)
				}
			}
			if !slices.Equal(after.Prose.Sections, before.Prose.Sections) {
				t.Errorf("the kept sections changed")
			}
		}})
	}
	cases = append(cases,
		designertest.ChangeCase{Name: "unknown", Change: designer.SetProse{Field: "hot_partitions", Value: "x"}, Field: "field"},
		designertest.ChangeCase{Name: "control character", Change: designer.SetProse{Field: "trade_offs", Value: "\x07"}, Field: "prose/trade_offs"},
	)
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestAnalysisChanges_describe(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	tests := []struct {
		change  designer.Change
		history string
	}{
		{designer.SetAggregateField{ID: "ag1", Field: "correlation_pct", Value: "45%"}, "Set the access correlation of aggregate Employee + SalaryRecord to 45%"},
		{designer.SetAggregateField{ID: "ag1", Field: "justification", Value: "why"}, "Edited the justification of aggregate Employee + SalaryRecord"},
		{designer.SetConsolidationField{ID: "c2", Field: "decision", Value: ""}, "Cleared the decision of consolidation Employee → DepartmentAssignment"},
		{designer.DeleteAggregate{ID: "ag4"}, "Deleted aggregate Department + DepartmentManager"},
		{designer.SetRelationshipField{ID: "r1", Field: "max_count", Value: "400"}, "Set the maximum count of relationship Department → Employee to 400"},
		{designer.DeleteRelationship{ID: "r1"}, "Deleted relationship Department → Employee"},
		{designer.SetConsideration{Field: "hot_partitions", Value: "x"}, "Edited the design considerations on hot partitions"},
		{designer.SetProse{Field: "trade_offs", Value: "x"}, "Edited the data model's trade-offs"},
		{designer.AddEntity{Name: "Order"}, `Added entity "Order"`},
		{designer.RenameEntity{Entity: "User", To: "Customer"}, `Renamed entity "User" to "Customer"`},
	}
	for _, tt := range tests {
		if got := designer.Describe(tt.change, d); got != tt.history {
			t.Errorf("Describe(%T) = %q, want %q", tt.change, got, tt.history)
		}
	}
}
