package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// A box posted to a new place is saved as its pin, and the answer carries the diagram redrawn
// around it; a place that is not a number, or a diagram that does not exist, is refused naming
// the field, and nothing changes. Read-only, the diagram offers no editing.
func TestMoveDiagramNode(t *testing.T) {
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	edit := "/d/" + created.EditToken
	_, rev := a.design(created.EditToken)
	rec := a.request(http.MethodPost, edit+"/diagrams/move", formType,
		strings.NewReader(form("diagram", "entities", "node", "entity:Department", "x", "812.34", "y", "-40", "base_revision", strconv.FormatInt(rev, 10))),
		"HX-Request", "true", "HX-Current-URL", "http://example.test"+edit+"/entities")
	if rec.Code != http.StatusOK {
		t.Fatalf("move: %d %s", rec.Code, rec.Body)
	}
	if body := rec.Body.String(); !strings.Contains(body, `id="entity-diagram"`) || !strings.Contains(body, `hx-swap-oob="true"`) {
		t.Errorf("the answer does not carry the entity diagram redrawn")
	}
	d, now := a.design(created.EditToken)
	if got, want := d.Pins(designer.EntityDiagram)["entity:Department"], (designer.Point{X: 812.3, Y: -40}); got != want || now != rev+1 {
		t.Errorf("saved %+v at revision %d, want %+v at %d", got, now, want, rev+1)
	}
	for _, tc := range []struct {
		field  string
		values []string
	}{
		{"x", []string{"diagram", "entities", "node", "entity:Department", "x", "left", "y", "0"}},
		{"y", []string{"diagram", "entities", "node", "entity:Department", "x", "1", "y", "NaN"}},
		{"diagram", []string{"diagram", "pictures", "node", "entity:Department", "x", "1", "y", "1"}},
		{"node", []string{"diagram", "entities", "node", "", "x", "1", "y", "1"}},
		{"x", []string{"diagram", "entities", "node", "entity:Department", "x", "1e9", "y", "1"}},
	} {
		rec := a.hx(edit+"/diagrams/move", tc.values...)
		if rec.Code < 400 || rec.Code >= 500 || !strings.Contains(rec.Body.String(), tc.field+":") {
			t.Errorf("%v: %d, want a refusal naming %s: %s", tc.values, rec.Code, tc.field, rec.Body.String()[:min(rec.Body.Len(), 300)])
		}
	}
	if _, after := a.design(created.EditToken); after != now {
		t.Errorf("refused moves changed the design: revision %d, want %d", after, now)
	}
	// Read-only, the diagram offers nothing to drag, draw or add.
	view := a.request(http.MethodGet, "/d/"+created.ViewToken+"/entities", "", nil).Body.String()
	for _, editing := range []string{"data-move=", "data-connect=", "data-connect-from=", "entity-diagram-add-entity", "entity-diagram-hint"} {
		if strings.Contains(view, editing) {
			t.Errorf("the read-only entities step has %s", editing)
		}
	}
	if page := a.request(http.MethodGet, edit+"/entities", "", nil).Body.String(); !strings.Contains(page, `data-connect-from="Employee"`) || !strings.Contains(page, `data-move="`+edit+`/diagrams/move"`) {
		t.Errorf("the editable entities step offers no drag or handle")
	}
}

// Moving boxes reads in words wherever the change is told — the history page, the API's list of
// revisions, the undo hint and the undo's answer: "Moved Department on the entity diagram", never
// the diagram's node id or the coordinates.
func TestMoveDiagramNode_historyTellsTheMoveInWords(t *testing.T) {
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	edit := "/d/" + created.EditToken
	for _, move := range [][]string{
		{"diagram", "model_map", "node", "index:Employee/EmployeesByTitle", "x", "300", "y", "40"},
		{"diagram", "model_map", "node", "table:Department", "x", "500", "y", "40"},
		{"diagram", "entities", "node", "entity:Department", "x", "812", "y", "-40"},
	} {
		if rec := a.postAs("Ada", edit+"/diagrams/move", move...); rec.Code != http.StatusOK {
			t.Fatalf("move %v: %d %s", move, rec.Code, rec.Body)
		}
	}
	want := []string{
		"Moved Department on the entity diagram",
		"Moved table Department on the model map",
		"Moved index EmployeesByTitle of table Employee on the model map",
	}
	revs := a.revisions(created.EditToken)
	for i, w := range want {
		if got := revs[i].Summary; got != w {
			t.Errorf("revision %d reads %q, want %q", revs[i].Revision, got, w)
		}
	}
	page := a.getAs("Ada", edit+"/history")
	for _, w := range append(want, "Your last change: Moved Department on the entity diagram") {
		if !strings.Contains(page, w) {
			t.Errorf("the history page lacks %q", w)
		}
	}
	for _, raw := range []string{"Moved entity:", "Moved table:", "Moved index:", "to (812, -40)"} {
		if strings.Contains(page, raw) {
			t.Errorf("the history page still tells a move with %q", raw)
		}
	}
	rec := a.postAs("Ada", edit+"/history/undo")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Moved Department on the entity diagram.") {
		t.Errorf("the undo's answer does not say in words what it undid: %d %s", rec.Code, rec.Body.String()[:min(rec.Body.Len(), 300)])
	}
	if got := a.revisions(created.EditToken)[0].Summary; !strings.HasSuffix(got, ": Moved Department on the entity diagram") {
		t.Errorf("the undo's history line = %q", got)
	}
}
