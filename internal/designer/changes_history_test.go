package designer_test

import (
	"fmt"
	"slices"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// Undoing a change with UndoChange gives the same design as never having made it, when the
// changes made after it touch other parts: for every kind of part a change can touch.
func TestUndoChange_equalsTheHistoryWithoutTheChange(t *testing.T) {
	t.Parallel()
	notes := designer.SetOverviewField{Field: "notes", Value: "Written after the undone change."}
	cases := []struct {
		undone designer.Change
		later  designer.Change
	}{
		{designer.SetName{Name: "Payroll"}, notes},
		{designer.SetOverviewField{Field: "domain", Value: "HR"}, notes},
		{designer.SetOverviewField{Field: "notes", Value: "first"}, designer.SetName{Name: "Payroll"}},
		{designer.AddEntity{Name: "Office"}, notes},
		{designer.SetAttributeType{Entity: "Department", Attribute: "dept_no", Type: designer.N}, notes},
		{designer.DeleteEntity{Entity: "TitleRecord"}, notes},
		{designer.SetRelationshipField{ID: "r2", Field: "max_count", Value: "1200"}, notes},
		// A count with its unit, and an entity's figures with their units and sources.
		{designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: "4 per year"}, notes},
		{designer.SetEntityField{Entity: "Employee", Field: "count", Value: "300000"}, notes},
		{designer.SetEntityField{Entity: "Employee", Field: "growth", Value: "40 per month"}, notes},
		{designer.SetEntityField{Entity: "Employee", Field: "retention", Value: "7 years"}, notes},
		{designer.SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500"}, designer.SetPatternField{ID: "ap5", Field: "peak_rps", Value: "9"}},
		{designer.SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500"}, designer.SetPatternField{ID: "ap4", Field: "description", Value: "Same row, other field"}},
		{designer.SetOperationField{Pattern: "ap3", Index: 0, Field: "filter", Value: "#n = :n"}, designer.SetPatternField{ID: "ap3", Field: "latency_slo", Value: "20 ms"}},
		{designer.SetRelationshipField{ID: "r2", Field: "notes", Value: "Checked"}, designer.SetRelationshipField{ID: "r2", Field: "max_count", Value: "30"}},
		{designer.SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "purpose", Value: "By title"}, designer.SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "capacity_notes", Value: "Low"}},
		{designer.SetTableField{Table: "Employee", Field: "billing_mode", Value: "provisioned"}, designer.SetTableField{Table: "Employee", Field: "purpose", Value: "People"}},
		{designer.DeletePattern{ID: "ap2"}, designer.SetPatternField{ID: "ap5", Field: "latency_slo", Value: "20 ms"}},
		{designer.AddPattern{Description: "List offices"}, notes},
		{designer.MovePattern{ID: "ap16", To: 0}, notes},
		{designer.SetAggregateField{ID: "ag1", Field: "justification", Value: "Read together"}, notes},
		{designer.SetConsideration{Field: "hot_partitions", Value: "Development holds 30 %."}, notes},
		{designer.SetProse{Field: "trade_offs", Value: "Salaries apart."}, designer.SetProse{Field: "design_philosophy", Value: "Employee first."}},
		{designer.SetCapacityField{Field: "target_utilization", Value: "50"}, designer.SetCapacityField{Field: "horizon_months", Value: "24"}},
		{designer.SetTableField{Table: "Employee", Field: "purpose", Value: "People"}, designer.SetTableField{Table: "Department", Field: "purpose", Value: "Units"}},
		{designer.RenameTable{Table: "TitleHistory", To: "Titles"}, notes},
		{designer.DeleteTable{Table: "TitleHistory"}, designer.SetTableField{Table: "Employee", Field: "purpose", Value: "People"}},
		{designer.SetIndexProjection{Table: "Employee", Index: "EmployeesByTitle", Type: designer.Include, Attributes: []string{"first_name"}}, designer.SetTableField{Table: "Department", Field: "purpose", Value: "Units"}},
		{designer.DeleteIndex{Table: "Employee", Index: "EmployeesByDepartment"}, designer.SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "purpose", Value: "By title"}},
		{designer.SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "salary", Text: "19.99"}, designer.SetItemCell{Table: "SalaryHistory", ID: "s10001b", Attribute: "salary", Text: "5"}},
		{designer.SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "note", Text: "new"}, notes},
		{designer.DeleteItems{Table: "TitleHistory", IDs: []string{"t10001a"}}, designer.SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "salary", Text: "5"}},
		{designer.AddItem{Table: "TitleHistory", Item: designer.Item{"emp_no": designer.Num("10099"), "from_date": designer.Str("2024-01-01")}}, notes},
		{designer.AddComment{Target: "tables/Employee", Author: "Ada", At: "2025-01-01T10:00:00Z", Body: "Why this key?"}, notes},
		{designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 40, Y: 60}, notes},
		{designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 40, Y: 60}, designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "index:Employee/EmployeesByTitle", X: 5, Y: 5}},
		{designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Employee", X: 1, Y: 2}, designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Department", X: 300, Y: 2}},
	}
	// A reset is undone on a design where the boxes had been placed before it.
	placed := []designer.Change{
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 40, Y: 60},
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Employee", X: 1, Y: 2},
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "pattern:ap4", X: 9, Y: 9},
	}
	resets := []struct {
		undone designer.Change
		later  designer.Change
	}{
		{designer.ResetDiagramLayout{Diagram: designer.ModelMap}, notes},
		{designer.ResetDiagramLayout{Diagram: designer.ModelMap}, designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Department", X: 5, Y: 5}},
		{designer.ResetDiagramLayout{Diagram: designer.EntityDiagram}, designer.ResetDiagramLayout{Diagram: designer.ModelMap}},
	}
	for i, tc := range resets {
		t.Run(fmt.Sprintf("reset_%d", i), func(t *testing.T) {
			base := designertest.ApplyAll(t, designertest.HRDesign(t), placed...)
			withIt := designertest.ApplyAll(t, base, tc.undone, tc.later)
			without := designertest.ApplyAll(t, base, tc.later)
			got, err := designer.UndoChange{Before: base, Revision: 5, Undone: designer.Describe(tc.undone, base), Touched: tc.undone.Paths()}.Apply(withIt)
			if err != nil {
				t.Fatalf("undo: %v", err)
			}
			if diffs := designer.Diff(designer.Normalize(without), got); len(diffs) > 0 {
				t.Errorf("undoing the reset left %d differences from never making it; first: %s", len(diffs), diffLine(diffs[0]))
			}
		})
	}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%d_%s", i, tc.undone.Kind()), func(t *testing.T) {
			base := designertest.HRDesign(t)
			withIt := designertest.ApplyAll(t, base, tc.undone, tc.later)
			without := designertest.ApplyAll(t, base, tc.later)
			before := designertest.MustMarshal(t, withIt)
			got, err := designer.UndoChange{Before: base, Revision: 2, Undone: designer.Describe(tc.undone, base), Touched: tc.undone.Paths()}.Apply(withIt)
			if err != nil {
				t.Fatalf("undo %s: %v", tc.undone.Kind(), err)
			}
			designertest.AssertUnchanged(t, before, withIt)
			if diffs := designer.Diff(designer.Normalize(without), got); len(diffs) > 0 {
				t.Errorf("undoing %s left %d differences from never making it; first: %s", tc.undone.Kind(), len(diffs), diffLine(diffs[0]))
			}
		})
	}
}

// A table or index whose name holds a slash, beside one named as its first part, is restored
// alone: its path is read against the designs' names.
func TestUndoChange_namesHoldingSlashes(t *testing.T) {
	t.Parallel()
	// No change gives such names (DynamoName refuses them), but an imported design may hold them.
	base := designertest.HRDesign(t)
	base.Tables = slices.Clone(base.Tables)
	for i, t := range base.Tables {
		switch t.Name {
		case "Department":
			base.Tables[i].Name = "Org"
		case "Employee":
			base.Tables[i].Name = "Org/Employee"
			base.Tables[i].GSIs = slices.Clone(t.GSIs)
			for j, ix := range t.GSIs {
				if ix.Name == "EmployeesByTitle" {
					base.Tables[i].GSIs[j].Name = "By/Title"
				}
			}
		}
	}
	for i, tc := range []struct{ undone, later designer.Change }{
		{designer.SetIndexField{Table: "Org/Employee", Index: "By/Title", Field: "purpose", Value: "By title"},
			designer.SetTableField{Table: "Org", Field: "purpose", Value: "Units"}},
		{designer.SetTableField{Table: "Org/Employee", Field: "purpose", Value: "People"},
			designer.SetTableField{Table: "Org", Field: "purpose", Value: "Units"}},
		{designer.SetTableField{Table: "Org", Field: "purpose", Value: "Units"},
			designer.SetTableField{Table: "Org/Employee", Field: "purpose", Value: "People"}},
	} {
		withIt := designertest.ApplyAll(t, base, tc.undone, tc.later)
		without := designertest.ApplyAll(t, base, tc.later)
		got, err := designer.UndoChange{Before: base, Revision: 5, Undone: tc.undone.Summary(), Touched: tc.undone.Paths()}.Apply(withIt)
		if err != nil {
			t.Fatalf("%d: undo: %v", i, err)
		}
		if diffs := designer.Diff(designer.Normalize(without), got); len(diffs) > 0 {
			t.Errorf("%d: undoing %s left %d differences; first: %s", i, tc.undone.Summary(), len(diffs), diffLine(diffs[0]))
		}
	}
}

func TestUndoChange_refuses(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	designertest.RunChangeCases(t, d, []designertest.ChangeCase{
		{Name: "the first revision", Change: designer.UndoChange{Before: d, Revision: 1, Touched: []designer.Path{"name"}}, Field: "revision"},
		{Name: "an unknown path", Change: designer.UndoChange{Before: d, Revision: 3, Touched: []designer.Path{"colours/blue"}}, Field: "paths"},
		{Name: "an unknown part of a table", Change: designer.UndoChange{Before: d, Revision: 3, Touched: []designer.Path{"tables/Employee/shelves"}}, Field: "paths"},
	})
}

func TestUndoChange_summaryAndPaths(t *testing.T) {
	t.Parallel()
	c := designer.UndoChange{Revision: 7, Undone: `Renamed the design to "Payroll"`, Touched: []designer.Path{"name"}}
	if got := c.Summary(); got != `Undid revision 7: Renamed the design to "Payroll"` {
		t.Errorf("Summary = %q", got)
	}
	if got := c.Paths(); len(got) != 1 || got[0] != "name" {
		t.Errorf("Paths = %q, want the undone change's", got)
	}
}
