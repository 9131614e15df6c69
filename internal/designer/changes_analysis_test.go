package designer

import (
	"reflect"
	"testing"
)

func TestAggregateChanges(t *testing.T) {
	t.Parallel()
	agg := func(check func(*testing.T, AggregateAnalysis)) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			a, _, ok := after.AggregateByID("ag1")
			if !ok {
				t.Fatal("ag1 is gone")
			}
			check(t, a)
		}
	}
	yes, no := true, false
	pct := func(v float64) *float64 { return &v }
	runChangeCases(t, []changeCase{
		{name: "add", change: AddAggregate{EntityA: "Department", EntityB: "Employee"}, check: func(t *testing.T, _, after Design) {
			a := after.Aggregates[len(after.Aggregates)-1]
			if a.ID != "ag5" || a.EntityA != "Department" || a.EntityB != "Employee" {
				t.Errorf("added %+v", a)
			}
		}},
		{name: "add unknown", change: AddAggregate{EntityA: "Department", EntityB: "Emp"}, field: "entity_b"},
		{name: "add unknown first", change: AddAggregate{EntityA: "Dept", EntityB: "Employee"}, field: "entity_a"},
		{name: "add same twice", change: AddAggregate{EntityA: "Employee", EntityB: "Employee"}, field: "entity_b"},
		{name: "add existing pair reversed", change: AddAggregate{EntityA: "SalaryRecord", EntityB: "Employee"}, field: "entity_b"},
		{name: "correlation with %", change: SetAggregateField{ID: "ag1", Field: "correlation_pct", Value: "45%"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if !reflect.DeepEqual(a.CorrelationPct, pct(45)) {
				t.Errorf("correlation = %v", a.CorrelationPct)
			}
		})},
		{name: "clear both_pct", change: SetAggregateField{ID: "ag1", Field: "both_pct", Value: ""}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if a.BothPct != nil {
				t.Errorf("both = %v", *a.BothPct)
			}
		})},
		{name: "only_a and only_b", change: SetAggregateField{ID: "ag1", Field: "only_b_pct", Value: "12.5"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if *a.OnlyBPct != 12.5 || *a.OnlyAPct != 78 {
				t.Errorf("only b %v only a %v", *a.OnlyBPct, *a.OnlyAPct)
			}
		})},
		{name: "combined kb", change: SetAggregateField{ID: "ag1", Field: "combined_kb", Value: "2.5 KB"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if *a.CombinedKB != 2.5 {
				t.Errorf("kb = %v", *a.CombinedKB)
			}
		})},
		{name: "bounded false", change: SetAggregateField{ID: "ag1", Field: "bounded", Value: "false"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if !reflect.DeepEqual(a.Bounded, &no) {
				t.Errorf("bounded = %v", a.Bounded)
			}
		})},
		{name: "child independent yes", change: SetAggregateField{ID: "ag1", Field: "child_independent", Value: "Yes"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if !reflect.DeepEqual(a.Identifying.ChildIndependent, &yes) {
				t.Errorf("child independent = %v", a.Identifying.ChildIndependent)
			}
		})},
		{name: "parent id known unanswered", change: SetAggregateField{ID: "ag1", Field: "parent_id_known", Value: ""}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if a.Identifying.ParentIDKnown != nil {
				t.Errorf("parent id known = %v", *a.Identifying.ParentIDKnown)
			}
		})},
		{name: "separate table planned", change: SetAggregateField{ID: "ag1", Field: "separate_table_planned", Value: "no"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if !reflect.DeepEqual(a.Identifying.SeparateTablePlanned, &no) {
				t.Errorf("planned = %v", a.Identifying.SeparateTablePlanned)
			}
		})},
		{name: "decision as the seed words it", change: SetAggregateField{ID: "ag1", Field: "decision", Value: "Single Item Aggregate"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if a.Decision != SingleItem {
				t.Errorf("decision = %q", a.Decision)
			}
		})},
		{name: "text fields", change: SetAggregateField{ID: "ag1", Field: "update_patterns", Value: "Rarely"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if a.Updates != "Rarely" {
				t.Errorf("updates = %q", a.Updates)
			}
		})},
		{name: "entity_b", change: SetAggregateField{ID: "ag1", Field: "entity_b", Value: "TitleRecord"}, check: agg(func(t *testing.T, a AggregateAnalysis) {
			if a.EntityB != "TitleRecord" {
				t.Errorf("entity b = %q", a.EntityB)
			}
		})},
		{name: "percentage over 100", change: SetAggregateField{ID: "ag1", Field: "correlation_pct", Value: "140%"}, field: "correlation_pct"},
		{name: "percentage not a number", change: SetAggregateField{ID: "ag1", Field: "both_pct", Value: "most"}, field: "both_pct"},
		{name: "negative size", change: SetAggregateField{ID: "ag1", Field: "combined_kb", Value: "-1"}, field: "combined_kb"},
		{name: "tri-state nonsense", change: SetAggregateField{ID: "ag1", Field: "bounded", Value: "maybe"}, field: "bounded"},
		{name: "unknown decision", change: SetAggregateField{ID: "ag1", Field: "decision", Value: "one big table"}, field: "decision"},
		{name: "unknown entity", change: SetAggregateField{ID: "ag1", Field: "entity_a", Value: "Ordr"}, field: "entity_a"},
		{name: "unknown field", change: SetAggregateField{ID: "ag1", Field: "identifying", Value: "yes"}, field: "field"},
		{name: "unknown id", change: SetAggregateField{ID: "ag9", Field: "decision", Value: ""}, field: "id"},
		{name: "delete", change: DeleteAggregate{ID: "ag2"}, check: func(t *testing.T, before, after Design) {
			if _, _, ok := after.AggregateByID("ag2"); ok || len(after.Aggregates) != len(before.Aggregates)-1 {
				t.Errorf("ag2 not deleted")
			}
		}},
		{name: "delete unknown", change: DeleteAggregate{ID: "ag9"}, field: "id"},
	})
}

func TestConsolidationChanges(t *testing.T) {
	t.Parallel()
	review := func(check func(*testing.T, ConsolidationReview)) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			r, _, ok := after.ConsolidationByID("c1")
			if !ok {
				t.Fatal("c1 is gone")
			}
			check(t, r)
		}
	}
	runChangeCases(t, []changeCase{
		{name: "add", change: AddConsolidation{Parent: "Employee", Child: "TitleRecord"}, check: func(t *testing.T, _, after Design) {
			r := after.Consolidations[len(after.Consolidations)-1]
			if r.ID != "c4" || r.Parent != "Employee" || r.Child != "TitleRecord" {
				t.Errorf("added %+v", r)
			}
		}},
		{name: "add unknown parent", change: AddConsolidation{Parent: "Emp", Child: "TitleRecord"}, field: "parent"},
		{name: "add unknown child", change: AddConsolidation{Parent: "Employee", Child: "Title"}, field: "child"},
		{name: "add existing", change: AddConsolidation{Parent: "Employee", Child: "SalaryRecord"}, field: "child"},
		{name: "overlap", change: SetConsolidationField{ID: "c1", Field: "overlap_pct", Value: "45 %"}, check: review(func(t *testing.T, r ConsolidationReview) {
			if *r.OverlapPct != 45 {
				t.Errorf("overlap = %v", *r.OverlapPct)
			}
		})},
		{name: "identifying unanswered", change: SetConsolidationField{ID: "c1", Field: "identifying", Value: ""}, check: review(func(t *testing.T, r ConsolidationReview) {
			if r.Identifying != nil {
				t.Errorf("identifying = %v", *r.Identifying)
			}
		})},
		{name: "bounded", change: SetConsolidationField{ID: "c1", Field: "bounded", Value: "no"}, check: review(func(t *testing.T, r ConsolidationReview) {
			if r.Bounded == nil || *r.Bounded {
				t.Errorf("bounded = %v", r.Bounded)
			}
		})},
		{name: "decision", change: SetConsolidationField{ID: "c1", Field: "decision", Value: "Consolidate"}, check: review(func(t *testing.T, r ConsolidationReview) {
			if r.Decision != Consolidate {
				t.Errorf("decision = %q", r.Decision)
			}
		})},
		{name: "relationship text", change: SetConsolidationField{ID: "c1", Field: "relationship", Value: "1:M (bounded)"}, check: review(func(t *testing.T, r ConsolidationReview) {
			if r.Relationship != "1:M (bounded)" {
				t.Errorf("relationship = %q", r.Relationship)
			}
		})},
		{name: "child", change: SetConsolidationField{ID: "c1", Field: "child", Value: "TitleRecord"}, check: review(func(t *testing.T, r ConsolidationReview) {
			if r.Child != "TitleRecord" {
				t.Errorf("child = %q", r.Child)
			}
		})},
		{name: "bad overlap", change: SetConsolidationField{ID: "c1", Field: "overlap_pct", Value: "-3"}, field: "overlap_pct"},
		{name: "bad decision", change: SetConsolidationField{ID: "c1", Field: "decision", Value: "both"}, field: "decision"},
		{name: "unknown parent", change: SetConsolidationField{ID: "c1", Field: "parent", Value: "Ordr"}, field: "parent"},
		{name: "unknown field", change: SetConsolidationField{ID: "c1", Field: "notes", Value: "x"}, field: "field"},
		{name: "unknown id", change: SetConsolidationField{ID: "c9", Field: "decision"}, field: "id"},
		{name: "delete", change: DeleteConsolidation{ID: "c3"}, check: func(t *testing.T, _, after Design) {
			if _, _, ok := after.ConsolidationByID("c3"); ok {
				t.Errorf("c3 not deleted")
			}
		}},
		{name: "delete unknown", change: DeleteConsolidation{ID: "c9"}, field: "id"},
	})
}

func TestSetConsideration(t *testing.T) {
	t.Parallel()
	var cases []changeCase
	for _, field := range ConsiderationFields {
		f := field.Key
		cases = append(cases, changeCase{name: f, change: SetConsideration{Field: f, Value: f + "\r\nnotes "}, check: func(t *testing.T, before, after Design) {
			if got := after.Considerations.Field(f); got != f+"\nnotes" {
				t.Errorf("%s = %q", f, got)
			}
			for _, other := range ConsiderationFields {
				if other.Key != f && after.Considerations.Field(other.Key) != before.Considerations.Field(other.Key) {
					t.Errorf("%s changed too", other.Key)
				}
			}
		}})
	}
	cases = append(cases,
		changeCase{name: "unknown", change: SetConsideration{Field: "trade_offs", Value: "x"}, field: "field"},
		changeCase{name: "control character", change: SetConsideration{Field: "sparse_gsis", Value: "\x07"}, field: "considerations/sparse_gsis"},
	)
	runChangeCases(t, cases)
}

func TestAnalysisChanges_describe(t *testing.T) {
	t.Parallel()
	d := hrDesign(t)
	tests := []struct {
		change  Change
		history string
	}{
		{SetAggregateField{ID: "ag1", Field: "correlation_pct", Value: "45%"}, "Set the access correlation of aggregate Employee + SalaryRecord to 45%"},
		{SetAggregateField{ID: "ag1", Field: "justification", Value: "why"}, "Edited the justification of aggregate Employee + SalaryRecord"},
		{SetConsolidationField{ID: "c2", Field: "decision", Value: ""}, "Cleared the decision of consolidation Employee → DepartmentAssignment"},
		{DeleteAggregate{ID: "ag4"}, "Deleted aggregate Department + DepartmentManager"},
		{SetRelationshipField{ID: "r1", Field: "max_count", Value: "400"}, "Set the maximum count of relationship Department → Employee to 400"},
		{DeleteRelationship{ID: "r1"}, "Deleted relationship Department → Employee"},
		{SetConsideration{Field: "hot_partitions", Value: "x"}, "Edited the design considerations on hot partitions"},
		{AddEntity{Name: "Order"}, `Added entity "Order"`},
		{RenameEntity{Entity: "User", To: "Customer"}, `Renamed entity "User" to "Customer"`},
	}
	for _, tt := range tests {
		if got := Describe(tt.change, d); got != tt.history {
			t.Errorf("Describe(%T) = %q, want %q", tt.change, got, tt.history)
		}
	}
}
