package designer_test

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestMoveDiagramNode(t *testing.T) {
	t.Parallel()
	moved := designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Employee", X: 310, Y: 42.5}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "pins the node", Change: moved, Check: func(t *testing.T, before, after designer.Design) {
			if got := after.Pins(designer.ModelMap)["table:Employee"]; got != (designer.Point{X: 310, Y: 42.5}) {
				t.Errorf("pin = %+v, want (310, 42.5)", got)
			}
			if len(before.Diagrams) != 0 {
				t.Errorf("the design it was applied to changed: %+v", before.Diagrams)
			}
			if len(after.Pins(designer.EntityDiagram)) != 0 {
				t.Errorf("the other diagram got pins: %+v", after.Pins(designer.EntityDiagram))
			}
		}},
		{Name: "unknown diagram", Change: designer.MoveDiagramNode{Diagram: "sketch", Node: "table:Employee"}, Field: "diagram", Err: `"sketch"`},
		{Name: "no node", Change: designer.MoveDiagramNode{Diagram: designer.EntityDiagram}, Field: "node", Err: "node id"},
		{Name: "control character", Change: designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:\x00"}, Field: "node"},
		{Name: "too far", Change: designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 1, Y: 2e6}, Field: "y", Err: "100000"},
		{Name: "no such table", Change: designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Nope", X: 1, Y: 2}, Field: "node", Err: `no box "table:Nope"`},
		{Name: "an entity on the model map", Change: designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "entity:Employee", X: 1, Y: 2}, Field: "node", Err: "model map"},
		{Name: "no such index", Change: designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "index:Employee/Nope", X: 1, Y: 2}, Field: "node"},
		{Name: "no such pattern", Change: designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "pattern:nope", X: 1, Y: 2}, Field: "node"},
	})
}

// A move of a box the diagram does not draw is refused as a new edit (CheckChange), but one stored
// before that check existed still replays: Apply places it, and the pin is simply not used.
func TestMoveDiagramNode_storedMovesOfBoxesNotDrawnStillReplay(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	move := designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Gone", X: 1, Y: 2}
	designertest.WantValidationError(t, designer.CheckChange(move, d), "node")
	after, err := move.Apply(d)
	if err != nil {
		t.Fatalf("replaying the stored move: %v", err)
	}
	if after.Pins(designer.ModelMap)["table:Gone"] != (designer.Point{X: 1, Y: 2}) {
		t.Errorf("the replayed move was not kept: %+v", after.Diagrams)
	}
}

func TestMoveDiagramNode_movingAgainKeepsTheOtherPins(t *testing.T) {
	t.Parallel()
	d := designertest.ApplyAll(t, designertest.HRDesign(t),
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 1, Y: 2},
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Department", X: 3, Y: 4},
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 5, Y: 6},
	)
	want := map[string]designer.Point{"entity:Employee": {X: 5, Y: 6}, "entity:Department": {X: 3, Y: 4}}
	got := d.Pins(designer.EntityDiagram)
	if len(got) != len(want) || got["entity:Employee"] != want["entity:Employee"] || got["entity:Department"] != want["entity:Department"] {
		t.Errorf("pins = %+v, want %+v", got, want)
	}
}

func TestDiagrams_designJSON(t *testing.T) {
	t.Parallel()
	plain := string(designertest.MustMarshal(t, designertest.HRDesign(t)))
	if strings.Contains(plain, `"diagrams"`) {
		t.Errorf("a design nobody arranged writes a diagrams member")
	}
	d := designertest.ApplyAll(t, designertest.HRDesign(t), designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 1.5, Y: 2})
	data := designertest.MustMarshal(t, d)
	if compact := strings.Join(strings.Fields(string(data)), ""); !strings.Contains(compact, `"diagrams":{"entities":{"entity:Employee":{"x":1.5,"y":2}}}`) {
		t.Errorf("design-json lacks the pin:\n%s", data)
	}
	var back designer.Design
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Pins(designer.EntityDiagram)["entity:Employee"] != (designer.Point{X: 1.5, Y: 2}) {
		t.Errorf("read back %+v", back.Diagrams)
	}
	bad := designer.Normalize(back)
	bad.Diagrams = designer.Diagrams{"sketch": {"x": {}}}
	if err := designer.Check(bad); err == nil || !strings.Contains(err.Error(), "diagrams/sketch/x/diagram") {
		t.Errorf("Check of an unknown diagram = %v, want an error naming diagrams/sketch/x/diagram", err)
	}
}

// The history says which box moved in words a participant uses, never the diagram's node id or
// the coordinates.
func TestMoveDiagramNode_historySaysWhichBoxInWords(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	tests := []struct {
		change  designer.MoveDiagramNode
		summary string
		history string
	}{
		{designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 240, Y: 120},
			"Moved Employee on the entity diagram", "Moved Employee on the entity diagram"},
		{designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Employee", X: 1, Y: 2},
			"Moved table Employee on the model map", "Moved table Employee on the model map"},
		{designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "index:Employee/EmployeesByTitle", X: 1, Y: 2},
			"Moved index EmployeesByTitle of table Employee on the model map", "Moved index EmployeesByTitle of table Employee on the model map"},
		{designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "pattern:ap4", X: 1, Y: 2},
			"Moved pattern ap4 on the model map", "Moved pattern 4 on the model map"},
		{designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "lane:7", X: 1, Y: 2},
			"Moved lane:7 on the model map", "Moved lane:7 on the model map"},
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

func TestResetDiagramLayout(t *testing.T) {
	t.Parallel()
	placed := designertest.ApplyAll(t, designertest.HRDesign(t),
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 1, Y: 2},
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Employee", X: 3, Y: 4},
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "index:Employee/EmployeesByTitle", X: 5, Y: 6},
	)
	designertest.RunChangeCases(t, placed, []designertest.ChangeCase{
		{Name: "drops the model map's positions only", Change: designer.ResetDiagramLayout{Diagram: designer.ModelMap}, Check: func(t *testing.T, before, after designer.Design) {
			if got := after.Pins(designer.ModelMap); len(got) != 0 {
				t.Errorf("model map pins left: %+v", got)
			}
			if got := after.Pins(designer.EntityDiagram)["entity:Employee"]; got != (designer.Point{X: 1, Y: 2}) {
				t.Errorf("the entity diagram's pin = %+v, want it kept at (1, 2)", got)
			}
			if len(before.Pins(designer.ModelMap)) != 2 {
				t.Errorf("the design it was applied to changed: %+v", before.Diagrams)
			}
		}},
		{Name: "unknown diagram", Change: designer.ResetDiagramLayout{Diagram: "sketch"}, Field: "diagram", Err: `"sketch"`},
		{Name: "no diagram", Change: designer.ResetDiagramLayout{}, Field: "diagram", Err: `""`},
	})
	// The last diagram reset leaves a design that writes no diagrams member, as one never arranged.
	plain := designertest.ApplyAll(t, placed, designer.ResetDiagramLayout{Diagram: designer.ModelMap}, designer.ResetDiagramLayout{Diagram: designer.EntityDiagram})
	if data := string(designertest.MustMarshal(t, plain)); strings.Contains(data, `"diagrams"`) {
		t.Errorf("a design with every layout reset writes a diagrams member")
	}
	designertest.RunChangeCases(t, plain, []designertest.ChangeCase{
		{Name: "nothing placed by hand", Change: designer.ResetDiagramLayout{Diagram: designer.EntityDiagram}, Field: "diagram", Err: "laid out automatically already"},
	})
	c := designer.ResetDiagramLayout{Diagram: designer.ModelMap}
	if got, want := designer.Describe(c, placed), "Reset the layout of the model map (2 boxes placed by hand)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if got, want := c.Summary(), "Reset the layout of the model map"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	if got := c.Paths(); len(got) != 1 || got[0] != "diagrams/model_map" {
		t.Errorf("Paths = %q", got)
	}
}

// A renamed table, index or entity keeps the place people gave its box, and undoing the rename
// puts the box back under its old name.
func TestRenames_keepTheBoxesWherePeoplePutThem(t *testing.T) {
	t.Parallel()
	base := designertest.ApplyAll(t, designertest.HRDesign(t),
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Employee", X: 1, Y: 2},
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "index:Employee/EmployeesByTitle", X: 3, Y: 4},
		designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Department", X: 5, Y: 6},
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 7, Y: 8},
	)
	for _, tc := range []struct {
		rename designer.Change
		kind   string
		want   map[string]designer.Point
	}{
		{designer.RenameTable{Table: "Employee", To: "Staff"}, designer.ModelMap, map[string]designer.Point{
			"table:Staff": {X: 1, Y: 2}, "index:Staff/EmployeesByTitle": {X: 3, Y: 4}, "table:Department": {X: 5, Y: 6}}},
		{designer.RenameIndex{Table: "Employee", Index: "EmployeesByTitle", To: "ByTitle"}, designer.ModelMap, map[string]designer.Point{
			"table:Employee": {X: 1, Y: 2}, "index:Employee/ByTitle": {X: 3, Y: 4}, "table:Department": {X: 5, Y: 6}}},
		{designer.RenameEntity{Entity: "Employee", To: "Worker"}, designer.EntityDiagram, map[string]designer.Point{
			"entity:Worker": {X: 7, Y: 8}}},
	} {
		after := designertest.ApplyAll(t, base, tc.rename)
		if got := after.Pins(tc.kind); !maps.Equal(got, tc.want) {
			t.Errorf("%s: pins %v, want %v", tc.rename.Summary(), got, tc.want)
		}
		undone := designertest.ApplyAll(t, after, designer.UndoChange{Before: base, Revision: 6, Undone: tc.rename.Summary(), Touched: tc.rename.Paths()})
		for _, kind := range designer.DiagramKinds {
			if got, want := undone.Pins(kind), base.Pins(kind); !maps.Equal(got, want) {
				t.Errorf("%s undone: %s pins %v, want %v", tc.rename.Summary(), kind, got, want)
			}
		}
	}
}
