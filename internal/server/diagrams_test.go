package server

import (
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/diagram"
)

// The Entities step draws the entity diagram: a box per entity linking to its card, a line per
// relationship linking to its row, and the picture in words.
func TestEntitiesStep_showsTheEntityDiagram(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, _ := a.design(created.EditToken)
	rec := a.request(http.MethodGet, "/d/"+created.EditToken+"/entities", "", nil)
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `id="entity-diagram"`) {
		t.Fatalf("entities step: %d, no entity diagram", rec.Code)
	}
	for _, e := range d.Entities {
		want := `href="/d/` + created.EditToken + `/entities#` + entityElemID(e.Name) + `" class="dg-node dg-entity" data-node="` + diagram.EntityNodeID(e.Name) + `"`
		if !strings.Contains(body, want) {
			t.Errorf("no box for %s linking to its card (%s)", e.Name, want)
		}
	}
	for _, r := range d.Relationships {
		if !strings.Contains(body, `data-edge="rel:`+r.ID+`" aria-label="Relationship `+r.From+` to `+r.To) {
			t.Errorf("no line for relationship %s", r.ID)
		}
	}
	if !strings.Contains(body, `data-testid="entity-diagram-text"`) || !strings.Contains(body, "Aggregate (item collection): Employee, DepartmentAssignment") {
		t.Errorf("the diagram in words is missing or lacks the aggregate")
	}
}

// The Tables step draws the model map: a box per table and index linking to its card, a box per
// pattern linking to its Mapping card, opened.
func TestTablesStep_showsTheModelMap(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	// Patterns 13 and 14 keep a CAP003 warning the example's trade-offs explain, which draws them
	// red; without them nothing of the example is.
	for _, id := range []string{"ap14", "ap13"} {
		if w := a.postChange(created.EditToken, `{"kind": "delete_pattern", "change": {"id": "`+id+`"}}`); w.Code != http.StatusOK {
			t.Fatalf("delete %s: %d %s", id, w.Code, w.Body)
		}
	}
	d, _ := a.design(created.EditToken)
	body := a.request(http.MethodGet, "/d/"+created.EditToken+"/tables", "", nil).Body.String()
	if !strings.Contains(body, `id="model-map"`) {
		t.Fatal("no model map on the Tables step")
	}
	base := "/d/" + created.EditToken
	for _, want := range []string{
		`href="` + base + `/tables?table=Employee#table-Employee" class="dg-node dg-table" data-node="table:Employee"`,
		`class="dg-node dg-index" data-node="index:Employee/EmployeesByDepartment"`,
		`href="` + base + `/mapping?open=` + d.Patterns[0].ID + `#map-` + d.Patterns[0].ID + `" class="dg-node dg-pattern" data-node="pattern:` + d.Patterns[0].ID + `"`,
		`PK = &lt;emp_no&gt;`,
		`Download SVG`, `data-png="` + base + `/diagrams/model_map.svg"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the model map lacks %s", want)
		}
	}
	if strings.Contains(body, "dg-pattern dg-bad") || strings.Contains(body, "dg-edge dg-w1 dg-bad") {
		t.Errorf("the example has a red pattern; every verdict of it passes")
	}
	// Present mode shows it large.
	if body := a.request(http.MethodGet, base+"/tables?present=1", "", nil).Body.String(); !strings.Contains(body, `class="card diagram diagram-large"`) {
		t.Errorf("Present mode does not draw the model map large")
	}
}

// A pattern whose verdict fails, or at which an error finding points, is drawn red with why.
func TestModelMap_marksAFailingPatternRed(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, _ := a.design(created.EditToken)
	p := d.Patterns[0]
	if rec := a.postChange(created.EditToken, `{"kind": "set_pattern_field", "change": {"id": "`+p.ID+`", "field": "peak_rps", "value": ""}}`); rec.Code != http.StatusOK {
		t.Fatalf("clear the RPS: %d %s", rec.Code, rec.Body)
	}
	body := a.request(http.MethodGet, "/d/"+created.EditToken+"/tables", "", nil).Body.String()
	if !strings.Contains(body, `class="dg-node dg-pattern dg-bad" data-node="pattern:`+p.ID+`" aria-label="#1 `) || !strings.Contains(body, "REQ001") {
		t.Errorf("pattern 1 without RPS is not red with its finding")
	}
	if !strings.Contains(body, `class="dg-edge dg-w1 dg-bad" data-edge="use:`+p.ID+`&gt;`) {
		t.Errorf("pattern 1's line is not red")
	}
}

// Each diagram downloads as an SVG file of its own, without links, by the edit or the view link.
func TestDiagramDownload(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	for _, token := range []string{created.EditToken, created.ViewToken} {
		for _, kind := range designer.DiagramKinds {
			rec := a.request(http.MethodGet, "/d/"+token+"/diagrams/"+kind+".svg", "", nil)
			body := rec.Body.String()
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/svg+xml" ||
				!strings.HasPrefix(rec.Header().Get("Content-Disposition"), "attachment; filename=") {
				t.Fatalf("%s: %d %v", kind, rec.Code, rec.Header())
			}
			if !strings.HasPrefix(body, `<?xml`) || !strings.Contains(body, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.Contains(body, "HR employees") {
				t.Errorf("%s: not a standalone SVG titled with the design: %.200s", kind, body)
			}
			if strings.Contains(body, "<a ") || strings.Contains(body, token) {
				t.Errorf("%s: the file links back into the app", kind)
			}
			if !strings.Contains(body, `data-node="table:Employee"`) && !strings.Contains(body, `data-node="entity:Employee"`) {
				t.Errorf("%s: no Employee box", kind)
			}
		}
	}
	for _, bad := range []string{"sketch.svg", "entities.png", "entities"} {
		if rec := a.request(http.MethodGet, "/d/"+created.EditToken+"/diagrams/"+bad, "", nil); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, rec.Code)
		}
	}
}

// A moved box redraws its diagram on a page of that step, and nothing on the other step.
func TestRefresh_aMovedBoxIsItsDiagramAlone(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	edit := "/d/" + created.EditToken
	_, rev := a.design(created.EditToken)
	a.request(http.MethodGet, edit+"/entities", "", nil) // the page draws revision rev
	if rec := a.postChange(created.EditToken, `{"kind": "move_diagram_node", "change": {"diagram": "entities", "node": "entity:Employee", "x": 900, "y": 40}}`); rec.Code != http.StatusOK {
		t.Fatalf("move: %d %s", rec.Code, rec.Body)
	}
	rec := a.refreshStep(edit+"/entities", rev)
	if rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), `id="entity-diagram"`) {
		t.Fatalf("want the entity diagram alone: %v", rec.Header())
	}
	for _, step := range []string{"/tables", "/patterns", ""} {
		if rec := a.refreshStep(edit+step, rev); rec.Header().Get(fragmentsHeader) != "0" {
			t.Errorf("%s: want the side panel alone, got %v", step, rec.Header())
		}
	}
	// A table's note changes nothing of the map; an index's key does.
	_, rev = a.design(created.EditToken)
	a.request(http.MethodGet, edit+"/tables", "", nil)
	a.hx(edit+"/tables/field", "table", "Employee", "field", "purpose", "value", "People")
	if rec := a.refreshStep(edit+"/tables?table=Employee", rev); rec.Header().Get(fragmentsHeader) != "1" || strings.Contains(rec.Body.String(), `id="model-map"`) {
		t.Errorf("a table's note: want its cell alone, got %v", rec.Header())
	}
	_, rev = a.design(created.EditToken)
	if rec := a.postChange(created.EditToken, `{"kind": "move_diagram_node", "change": {"diagram": "model_map", "node": "table:Employee", "x": 900, "y": 40}}`); rec.Code != http.StatusOK {
		t.Fatalf("move: %d %s", rec.Code, rec.Body)
	}
	if rec := a.refreshStep(edit+"/tables?table=Employee", rev); rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), `id="model-map"`) {
		t.Errorf("a moved table: want the model map, got %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) != "0" {
		t.Errorf("the entities step shows no model map: %v", rec.Header())
	}
}

// The gallery's thumbnail of an example is its model map without links.
func TestModelMapThumbnail(t *testing.T) {
	t.Parallel()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	c, err := modelMapThumbnail(d, "thumb-hr")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, `id="thumb-hr-arrow"`) || !strings.Contains(svg, `data-node="table:Employee"`) ||
		!strings.Contains(svg, "Model map of HR employees") || strings.Contains(svg, "<a ") {
		t.Errorf("thumbnail: %.300s", svg)
	}
}
