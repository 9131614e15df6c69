package designer_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func mustPattern(t *testing.T, d designer.Design, id string) designer.Pattern {
	t.Helper()
	p, _, ok := d.PatternByID(id)
	if !ok {
		t.Fatalf("no pattern %q", id)
	}
	return p
}

func patternIDs(d designer.Design) []string {
	var ids []string
	for _, p := range d.Patterns {
		ids = append(ids, p.ID)
	}
	return ids
}

func TestAddPattern(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "at the end", Change: designer.AddPattern{Type: "W", Description: "Close a department", Entities: []string{"Department"}}, Check: func(t *testing.T, before, after designer.Design) {
			p := after.Patterns[len(after.Patterns)-1]
			want := designer.Pattern{ID: "ap17", Number: 17, Type: designer.Write, Description: "Close a department", Status: designer.StatusOpen, Entities: []string{"Department"}}
			if !reflect.DeepEqual(p, want) {
				t.Errorf("added %+v, want %+v", p, want)
			}
		}},
		{Name: "after a pattern", Change: designer.AddPattern{After: "ap3"}, Check: func(t *testing.T, _, after designer.Design) {
			if ids := patternIDs(after); !slices.Equal(ids[:5], []string{"ap1", "ap2", "ap3", "ap17", "ap4"}) {
				t.Errorf("order = %v", ids)
			}
			if p := after.Patterns[3]; p.Number != 17 || p.Type != "" || p.Status != designer.StatusOpen {
				t.Errorf("added %+v", p)
			}
		}},
		{Name: "after the last", Change: designer.AddPattern{After: "ap16"}, Check: func(t *testing.T, _, after designer.Design) {
			if ids := patternIDs(after); ids[len(ids)-1] != "ap17" {
				t.Errorf("order = %v", ids)
			}
		}},
		{Name: "unknown after", Change: designer.AddPattern{After: "ap99"}, Field: "after"},
		{Name: "bad type", Change: designer.AddPattern{Type: "query"}, Field: "type"},
		{Name: "unknown entity", Change: designer.AddPattern{Entities: []string{"Employee", "Ordr"}}, Field: "entities"},
		{Name: "bad description", Change: designer.AddPattern{Description: "a\x01"}, Field: "description"},
	})
	first, err := designer.AddPattern{Description: "First"}.Apply(designer.Normalize(designer.Design{Name: "x"}))
	if err != nil {
		t.Fatal(err)
	}
	if p := first.Patterns[0]; p.ID != "ap1" || p.Number != 1 {
		t.Errorf("first pattern = %+v, want ap1 numbered 1", p)
	}
}

func TestSetPatternField(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		field, value string
		want         func(designer.Pattern) any
		wantValue    any
	}{
		{"number", "17", func(p designer.Pattern) any { return p.Number }, 17},
		{"number", "#40", func(p designer.Pattern) any { return p.Number }, 40},
		{"number", "1", func(p designer.Pattern) any { return p.Number }, 1},
		{"description", "Get the profile\n", func(p designer.Pattern) any { return p.Description }, "Get the profile"},
		{"type", "W", func(p designer.Pattern) any { return p.Type }, designer.Write},
		{"type", "Read", func(p designer.Pattern) any { return p.Type }, designer.Read},
		{"type", "None", func(p designer.Pattern) any { return p.Type }, ""},
		{"peak_rps", "1,200", func(p designer.Pattern) any { return p.PeakRPS }, f(1200)},
		{"peak_rps", "500 RPS", func(p designer.Pattern) any { return p.PeakRPS }, f(500)},
		{"peak_rps", "", func(p designer.Pattern) any { return p.PeakRPS }, (*float64)(nil)},
		{"avg_rps", "0.5", func(p designer.Pattern) any { return p.AvgRPS }, f(0.5)},
		{"attributes", " emp_no, first_name,, last_name ,emp_no", func(p designer.Pattern) any { return p.Attributes }, []string{"emp_no", "first_name", "last_name"}},
		{"attributes", "", func(p designer.Pattern) any { return p.Attributes }, []string(nil)},
		{"latency_slo", "<10 ms p99", func(p designer.Pattern) any { return p.LatencySLO }, "<10 ms p99"},
		{"consistency", "strongly consistent", func(p designer.Pattern) any { return p.Consistency }, designer.Strong},
		{"consistency", "Eventual", func(p designer.Pattern) any { return p.Consistency }, designer.Eventual},
		{"consistency", "", func(p designer.Pattern) any { return p.Consistency }, ""},
		{"result_bound", "one item", func(p designer.Pattern) any { return p.ResultBound }, "one item"},
		{"item_size_band", "<1 KB", func(p designer.Pattern) any { return p.SizeBand }, "<1 KB"},
		{"key_notes", "needs emp_no", func(p designer.Pattern) any { return p.KeyNotes }, "needs emp_no"},
		{"considerations", "cache it", func(p designer.Pattern) any { return p.Considerations }, "cache it"},
		{"status", "⚠️", func(p designer.Pattern) any { return p.Status }, designer.StatusAtRisk},
		{"status", "solved", func(p designer.Pattern) any { return p.Status }, designer.StatusSolved},
		{"status", "❌", func(p designer.Pattern) any { return p.Status }, designer.StatusOutside},
		{"entities", "Department, Employee", func(p designer.Pattern) any { return p.Entities }, []string{"Department", "Employee"}},
		{"entities", "", func(p designer.Pattern) any { return p.Entities }, []string(nil)},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{
			Name:   fmt.Sprintf("%s=%q", tt.field, tt.value),
			Change: designer.SetPatternField{ID: "ap1", Field: tt.field, Value: tt.value},
			Check: func(t *testing.T, before, after designer.Design) {
				if got := tt.want(mustPattern(t, after, "ap1")); !reflect.DeepEqual(got, tt.wantValue) {
					t.Errorf("%s = %#v, want %#v", tt.field, got, tt.wantValue)
				}
				for i := 1; i < len(after.Patterns); i++ {
					if !reflect.DeepEqual(after.Patterns[i], before.Patterns[i]) {
						t.Errorf("pattern %s changed too", after.Patterns[i].ID)
					}
				}
			},
		})
	}
	for _, r := range []struct{ field, value string }{
		{"number", "2"}, {"number", "0"}, {"number", "one"}, {"number", "1.5"},
		{"type", "query"}, {"peak_rps", "fast"}, {"peak_rps", "-3"}, {"avg_rps", "lots"},
		{"attributes", "a, b\x00c"}, {"consistency", "linearizable"}, {"status", "done-ish"}, {"status", ""},
		{"entities", "Employee, Ordr"}, {"description", "bad \x1b"}, {"latency_slo", strings.Repeat("x", designer.MaxTextLen+1)},
	} {
		cases = append(cases, designertest.ChangeCase{
			Name:   fmt.Sprintf("refuses %s=%.60q", r.field, r.value),
			Change: designer.SetPatternField{ID: "ap1", Field: r.field, Value: r.value},
			Field:  r.field,
		})
	}
	cases = append(cases,
		designertest.ChangeCase{Name: "unknown field", Change: designer.SetPatternField{ID: "ap1", Field: "colour", Value: "red"}, Field: "field"},
		designertest.ChangeCase{Name: "mapping is not a field", Change: designer.SetPatternField{ID: "ap1", Field: "mapping", Value: "x"}, Field: "field"},
		designertest.ChangeCase{Name: "unknown id", Change: designer.SetPatternField{ID: "ap99", Field: "peak_rps", Value: "5"}, Field: "id"},
	)
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestSetPatternField_messages(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	for _, tt := range []struct {
		change designer.SetPatternField
		want   string
	}{
		{designer.SetPatternField{ID: "ap1", Field: "peak_rps", Value: "fast"}, `peak_rps: "fast" is not a number of requests per second from 0 to 1,000,000,000,000,000`},
		{designer.SetPatternField{ID: "ap1", Field: "number", Value: "4"}, `number: 4 is already used by pattern 4 "Show a department with the people who have managed it"`},
		{designer.SetPatternField{ID: "ap1", Field: "entities", Value: "Ordr"}, `entities: no entity named "Ordr"`},
	} {
		_, err := tt.change.Apply(d)
		if err == nil || err.Error() != tt.want {
			t.Errorf("error = %v\nwant    %s", err, tt.want)
		}
	}
}

func TestSetPatternField_numberChangeFollowsIndexReferences(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	got, err := designer.SetPatternField{ID: "ap3", Field: "number", Value: "30"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if n := got.Tables[0].GSIs[0].PatternAttributes[0].Pattern; n != 30 {
		t.Errorf("EmployeesByDepartment pattern_attributes names pattern %d, want 30", n)
	}
	if n := d.Tables[0].GSIs[0].PatternAttributes[0].Pattern; n != 3 {
		t.Errorf("the original design was changed")
	}
	// Lists that changed are copies; the rest are shared.
	if &got.Tables[0] == &d.Tables[0] || &got.Tables[0].GSIs[0] == &d.Tables[0].GSIs[0] {
		t.Errorf("changed lists are shared with the original")
	}
	if &got.Tables[0].GSIs[1].PatternAttributes[0] != &d.Tables[0].GSIs[1].PatternAttributes[0] {
		t.Errorf("an index the change does not touch was copied")
	}
}

func TestDeleteAndMovePattern(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "delete", Change: designer.DeletePattern{ID: "ap2"}, Check: func(t *testing.T, before, after designer.Design) {
			if ids := patternIDs(after); len(ids) != 15 || slices.Contains(ids, "ap2") {
				t.Errorf("ids = %v", ids)
			}
		}},
		{Name: "delete unknown", Change: designer.DeletePattern{ID: "ap2 "}, Field: "id"},
		{Name: "move to the top", Change: designer.MovePattern{ID: "ap16", To: 0}, Check: func(t *testing.T, _, after designer.Design) {
			if ids := patternIDs(after); ids[0] != "ap16" || ids[1] != "ap1" || after.Patterns[0].Number != 16 {
				t.Errorf("ids = %v", ids)
			}
		}},
		{Name: "move clamped", Change: designer.MovePattern{ID: "ap1", To: 100}, Check: func(t *testing.T, _, after designer.Design) {
			if ids := patternIDs(after); ids[15] != "ap1" {
				t.Errorf("ids = %v", ids)
			}
		}},
		{Name: "move unknown", Change: designer.MovePattern{ID: "nope", To: 1}, Field: "id"},
	})
}

func TestRenumberPatterns_followsIndexReferences(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	// Move pattern 7 (read through EmployeesByTitle) to the top and 3 (EmployeesByDepartment) to
	// the end, then renumber: 7 becomes 1, 3 becomes 16.
	d, err := designer.MovePattern{ID: "ap7", To: 0}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = designer.MovePattern{ID: "ap3", To: 99}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	before := designertest.MustMarshal(t, d)
	got, err := designer.RenumberPatterns{}.Apply(d)
	designertest.AssertUnchanged(t, before, d)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range got.Patterns {
		if p.Number != i+1 {
			t.Errorf("pattern %s numbered %d at position %d", p.ID, p.Number, i)
		}
	}
	if p := mustPattern(t, got, "ap7"); p.Number != 1 {
		t.Errorf("ap7 = %d", p.Number)
	}
	gsis := got.Tables[0].GSIs
	if n := gsis[0].PatternAttributes[0].Pattern; n != 16 {
		t.Errorf("EmployeesByDepartment now names pattern %d, want 16", n)
	}
	if n := gsis[1].PatternAttributes[0].Pattern; n != 1 {
		t.Errorf("EmployeesByTitle now names pattern %d, want 1", n)
	}
	if err := designer.Check(got); err != nil {
		t.Error(err)
	}
}

func TestRenumberPatterns_duplicateNumbersGoToTheFirst(t *testing.T) {
	t.Parallel()
	d := designer.Normalize(designer.Design{Name: "x",
		Patterns: []designer.Pattern{{Number: 5}, {Number: 5}, {Number: 2}},
		Tables: []designer.Table{{Name: "T", PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.S}, GSIs: []designer.Index{{
			Name: "G", PatternAttributes: []designer.PatternAttributes{{Pattern: 5}, {Pattern: 2}, {Pattern: 9}},
		}}}},
	})
	got, err := designer.RenumberPatterns{}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	var refs []int
	for _, pa := range got.Tables[0].GSIs[0].PatternAttributes {
		refs = append(refs, pa.Pattern)
	}
	if !slices.Equal(refs, []int{1, 3, 9}) {
		t.Errorf("references = %v, want [1 3 9]: 5 → the first pattern numbered 5, 2 → 3, unknown 9 kept", refs)
	}
}

func TestPatternChanges_describe(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d, err := designer.MovePattern{ID: "ap4", To: 0}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		change  designer.Change
		summary string
		history string
	}{
		{designer.SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500"}, "Set pattern ap4's peak RPS to 500", "Set pattern 4's peak RPS to 500"},
		{designer.SetPatternField{ID: "ap4", Field: "peak_rps", Value: ""}, "Cleared pattern ap4's peak RPS", "Cleared pattern 4's peak RPS"},
		{designer.SetPatternField{ID: "ap4", Field: "description", Value: "x"}, "Edited pattern ap4's description", "Edited pattern 4's description"},
		{designer.DeletePattern{ID: "ap4"}, "Deleted pattern ap4", "Deleted pattern 4"},
		{designer.MovePattern{ID: "ap4", To: 2}, "Moved pattern ap4 to position 3", "Moved pattern 4 to position 3"},
		{designer.AddPattern{Description: "Get user profile"}, `Added pattern "Get user profile"`, `Added pattern "Get user profile"`},
		{designer.SetPatternField{ID: "gone", Field: "status", Value: "✅"}, "Set pattern gone's status to ✅", "Set pattern gone's status to ✅"},
	}
	for _, tt := range tests {
		if got := tt.change.Summary(); got != tt.summary {
			t.Errorf("Summary() = %q, want %q", got, tt.summary)
		}
		if got := designer.Describe(tt.change, d); got != tt.history {
			t.Errorf("Describe() = %q, want %q", got, tt.history)
		}
	}
}

func TestChanges_pathsUseIDsAndNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		change designer.Change
		want   []designer.Path
	}{
		{designer.SetPatternField{ID: "ap4", Field: "peak_rps"}, []designer.Path{"access_patterns/ap4/peak_rps"}},
		{designer.SetPatternField{ID: "ap4", Field: "number"}, []designer.Path{"access_patterns/ap4", "tables"}},
		{designer.SetRelationshipField{ID: "r2", Field: "kind"}, []designer.Path{"relationships/r2/kind"}},
		{designer.SetAggregateField{ID: "ag1", Field: "decision"}, []designer.Path{"aggregates/ag1/decision"}},
		{designer.DeleteConsolidation{ID: "c1"}, []designer.Path{"consolidations/c1"}},
		{designer.SetConsideration{Field: "sparse_gsis"}, []designer.Path{"considerations/sparse_gsis"}},
		{designer.AddAttribute{Entity: "User", Name: "email"}, []designer.Path{"entities/User"}},
		{designer.SetEntityGap{Entity: "User", Gap: designer.GapNoRead}, []designer.Path{"entities/User"}},
		{designer.SetEntityDescription{Entity: "User"}, []designer.Path{"entities/User"}},
		{designer.RenumberPatterns{}, []designer.Path{"access_patterns", "tables"}},
		{designer.DeleteEntity{Entity: "User"}, []designer.Path{"entities/User", "relationships", "access_patterns", "aggregates", "consolidations"}},
		{designer.RenameEntity{Entity: "User", To: "Customer"}, []designer.Path{"entities/User", "entities/Customer", "relationships", "access_patterns", "aggregates", "consolidations", "tables", "diagrams/entities/entity:User", "diagrams/entities/entity:Customer"}},
		{designer.MoveAttribute{Entity: "User", Attribute: "a"}, []designer.Path{"entities/User"}},
		{designer.AddRelationship{From: "User", To: "Order"}, []designer.Path{"relationships"}},
		{designer.AddPattern{After: "ap1"}, []designer.Path{"access_patterns"}},
		{designer.AddAggregate{EntityA: "User", EntityB: "Order"}, []designer.Path{"aggregates"}},
		{designer.AddConsolidation{Parent: "User", Child: "Order"}, []designer.Path{"consolidations"}},
	}
	for _, tt := range tests {
		if got := tt.change.Paths(); !slices.Equal(got, tt.want) {
			t.Errorf("%T.Paths() = %q, want %q", tt.change, got, tt.want)
		}
	}
}
