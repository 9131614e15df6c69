package designer

import (
	"fmt"
	"testing"
)

// Undoing a change with UndoChange gives the same design as never having made it, when the
// changes made after it touch other parts: for every kind of part a change can touch.
func TestUndoChange_equalsTheHistoryWithoutTheChange(t *testing.T) {
	t.Parallel()
	notes := SetOverviewField{Field: "notes", Value: "Written after the undone change."}
	cases := []struct {
		undone Change
		later  Change
	}{
		{SetName{Name: "Payroll"}, notes},
		{SetOverviewField{Field: "domain", Value: "HR"}, notes},
		{SetOverviewField{Field: "notes", Value: "first"}, SetName{Name: "Payroll"}},
		{AddEntity{Name: "Office"}, notes},
		{SetAttributeType{Entity: "Department", Attribute: "dept_no", Type: N}, notes},
		{DeleteEntity{Entity: "TitleRecord"}, notes},
		{SetRelationshipField{ID: "r2", Field: "max_count", Value: "1200"}, notes},
		{SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500"}, SetPatternField{ID: "ap5", Field: "peak_rps", Value: "9"}},
		{SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500"}, SetPatternField{ID: "ap4", Field: "description", Value: "Same row, other field"}},
		{SetOperationField{Pattern: "ap3", Index: 0, Field: "filter", Value: "#n = :n"}, SetPatternField{ID: "ap3", Field: "latency_slo", Value: "20 ms"}},
		{SetRelationshipField{ID: "r2", Field: "notes", Value: "Checked"}, SetRelationshipField{ID: "r2", Field: "max_count", Value: "30"}},
		{SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "purpose", Value: "By title"}, SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "capacity_notes", Value: "Low"}},
		{SetTableField{Table: "Employee", Field: "billing_mode", Value: "provisioned"}, SetTableField{Table: "Employee", Field: "purpose", Value: "People"}},
		{DeletePattern{ID: "ap2"}, SetPatternField{ID: "ap5", Field: "latency_slo", Value: "20 ms"}},
		{AddPattern{Description: "List offices"}, notes},
		{MovePattern{ID: "ap16", To: 0}, notes},
		{SetAggregateField{ID: "ag1", Field: "justification", Value: "Read together"}, notes},
		{SetConsideration{Field: "hot_partitions", Value: "Development holds 30 %."}, notes},
		{SetTableField{Table: "Employee", Field: "purpose", Value: "People"}, SetTableField{Table: "Department", Field: "purpose", Value: "Units"}},
		{RenameTable{Table: "TitleHistory", To: "Titles"}, notes},
		{DeleteTable{Table: "TitleHistory"}, SetTableField{Table: "Employee", Field: "purpose", Value: "People"}},
		{SetIndexProjection{Table: "Employee", Index: "EmployeesByTitle", Type: Include, Attributes: []string{"first_name"}}, SetTableField{Table: "Department", Field: "purpose", Value: "Units"}},
		{DeleteIndex{Table: "Employee", Index: "EmployeesByDepartment"}, SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "purpose", Value: "By title"}},
		{SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "salary", Text: "19.99"}, SetItemCell{Table: "SalaryHistory", ID: "s10001b", Attribute: "salary", Text: "5"}},
		{SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "note", Text: "new"}, notes},
		{DeleteItems{Table: "TitleHistory", IDs: []string{"t10001a"}}, SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "salary", Text: "5"}},
		{AddItem{Table: "TitleHistory", Item: Item{"emp_no": Num("10099"), "from_date": Str("2024-01-01")}}, notes},
		{AddComment{Target: "tables/Employee", Author: "Ada", At: "2025-01-01T10:00:00Z", Body: "Why this key?"}, notes},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%d_%s", i, tc.undone.Kind()), func(t *testing.T) {
			base := hrDesign(t)
			withIt := applyAll(t, base, tc.undone, tc.later)
			without := applyAll(t, base, tc.later)
			before := mustMarshal(t, withIt)
			got, err := UndoChange{Before: base, Revision: 2, Undone: Describe(tc.undone, base), Touched: tc.undone.Paths()}.Apply(withIt)
			if err != nil {
				t.Fatalf("undo %s: %v", tc.undone.Kind(), err)
			}
			assertUnchanged(t, before, withIt)
			if diffs := Diff(Normalize(without), got); len(diffs) > 0 {
				t.Errorf("undoing %s left %d differences from never making it; first: %s", tc.undone.Kind(), len(diffs), diffLine(diffs[0]))
			}
		})
	}
}

func TestUndoChange_refuses(t *testing.T) {
	t.Parallel()
	d := hrDesign(t)
	before := mustMarshal(t, d)
	_, err := UndoChange{Before: d, Revision: 1, Touched: []string{"name"}}.Apply(d)
	wantValidationError(t, err, "revision")
	_, err = UndoChange{Before: d, Revision: 3, Touched: []string{"colours/blue"}}.Apply(d)
	wantValidationError(t, err, "paths")
	_, err = UndoChange{Before: d, Revision: 3, Touched: []string{"tables/Employee/shelves"}}.Apply(d)
	wantValidationError(t, err, "paths")
	assertUnchanged(t, before, d)
}

func TestUndoChange_summaryAndPaths(t *testing.T) {
	t.Parallel()
	c := UndoChange{Revision: 7, Undone: `Renamed the design to "Payroll"`, Touched: []string{"name"}}
	if got := c.Summary(); got != `Undid revision 7: Renamed the design to "Payroll"` {
		t.Errorf("Summary = %q", got)
	}
	if got := c.Paths(); len(got) != 1 || got[0] != "name" {
		t.Errorf("Paths = %q, want the undone change's", got)
	}
}
