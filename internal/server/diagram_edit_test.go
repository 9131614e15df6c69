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
	t.Parallel()
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
	t.Parallel()
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

// Reset layout takes away the positions given on one diagram, offered only where a box was placed
// by hand and the page can edit; nothing to reset, an unknown diagram and the view link are
// refused and change nothing; undo gives the positions back.
func TestResetDiagramLayout(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	edit := "/d/" + created.EditToken
	tablesPage := func() string { return a.getAs("Ada", edit+"/tables") }
	if strings.Contains(tablesPage(), `data-testid="model-map-reset"`) {
		t.Errorf("a model map nobody arranged offers Reset layout")
	}
	for _, move := range [][]string{
		{"diagram", "model_map", "node", "table:Department", "x", "500", "y", "40"},
		{"diagram", "model_map", "node", "index:Employee/EmployeesByTitle", "x", "300", "y", "40"},
		{"diagram", "entities", "node", "entity:Department", "x", "812", "y", "-40"},
	} {
		if rec := a.postAs("Ada", edit+"/diagrams/move", move...); rec.Code != http.StatusOK {
			t.Fatalf("move %v: %d %s", move, rec.Code, rec.Body)
		}
	}
	if !strings.Contains(tablesPage(), `data-testid="model-map-reset"`) {
		t.Fatalf("the arranged model map offers no Reset layout")
	}
	if view := a.request(http.MethodGet, "/d/"+created.ViewToken+"/tables", "", nil).Body.String(); strings.Contains(view, "-reset") {
		t.Errorf("the view link offers Reset layout")
	}
	if rec := a.request(http.MethodPost, "/d/"+created.ViewToken+"/diagrams/reset", formType, strings.NewReader(form("diagram", "model_map")),
		"HX-Request", "true", "Cookie", participantCookie+"=Eve"); rec.Code != http.StatusForbidden {
		t.Errorf("reset with the view link: %d, want 403", rec.Code)
	}
	_, rev := a.design(created.EditToken)

	rec := a.request(http.MethodPost, edit+"/diagrams/reset", formType, strings.NewReader(form("diagram", "model_map")),
		"HX-Request", "true", "Cookie", participantCookie+"=Ada", "HX-Current-URL", "http://example.test"+edit+"/tables")
	if rec.Code != http.StatusOK {
		t.Fatalf("reset: %d %s", rec.Code, rec.Body)
	}
	if body := rec.Body.String(); !strings.Contains(body, `id="model-map"`) || strings.Contains(body, `data-testid="model-map-reset"`) {
		t.Errorf("the answer does not carry the model map laid out again, without Reset layout")
	}
	d, now := a.design(created.EditToken)
	if now != rev+1 || len(d.Pins(designer.ModelMap)) != 0 || d.Pins(designer.EntityDiagram)["entity:Department"] != (designer.Point{X: 812, Y: -40}) {
		t.Fatalf("after the reset: revision %d (want %d), model map pins %v (want none), entity diagram pins %v (want kept)",
			now, rev+1, d.Pins(designer.ModelMap), d.Pins(designer.EntityDiagram))
	}
	if got, want := a.revisions(created.EditToken)[0].Summary, "Reset the layout of the model map (2 boxes placed by hand)"; got != want {
		t.Errorf("history line %q, want %q", got, want)
	}

	for _, tc := range []struct{ diagram, says string }{
		{"model_map", "laid out automatically already"},
		{"sketch", "sketch"},
	} {
		rec := a.postAs("Ada", edit+"/diagrams/reset", "diagram", tc.diagram)
		if body := rec.Body.String(); rec.Code < 400 || rec.Code >= 500 || !strings.Contains(body, "diagram:") || !strings.Contains(body, tc.says) {
			t.Errorf("reset of %s: %d, want a refusal naming the diagram and saying %s: %.300s", tc.diagram, rec.Code, tc.says, body)
		}
	}
	if _, after := a.design(created.EditToken); after != now {
		t.Errorf("refused resets changed the design: revision %d, want %d", after, now)
	}

	if rec := a.postAs("Ada", edit+"/history/undo"); rec.Code != http.StatusOK {
		t.Fatalf("undo: %d %s", rec.Code, rec.Body)
	}
	d, _ = a.design(created.EditToken)
	if got := d.Pins(designer.ModelMap); len(got) != 2 || got["table:Department"] != (designer.Point{X: 500, Y: 40}) {
		t.Errorf("after undo the model map pins are %v, want both back", got)
	}
}
