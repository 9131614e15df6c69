package server

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// refreshStep asks for a step as a page's live refresh does: by htmx, naming the revision shown.
func (a *testApp) refreshStep(path string, since int64) *httptest.ResponseRecorder {
	a.t.Helper()
	rec := a.request(http.MethodGet, path, "", nil, "HX-Request", "true", sinceHeader, strconv.FormatInt(since, 10))
	if rec.Code != http.StatusOK {
		a.t.Fatalf("refresh %s: %d %s", path, rec.Code, rec.Body)
	}
	return rec
}

// One pattern field changed: the other pages get that cell, out of band, and the side panel —
// a few kilobytes — instead of the step.
func TestRefresh_patternFieldChangeAnswersItsCellOnly(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	whole := a.request(http.MethodGet, "/d/"+created.EditToken+"/patterns", "", nil, "HX-Request", "true")
	if rec := a.hx("/d/"+created.EditToken+"/patterns/field", "id", d.Patterns[1].ID, "field", "description", "value", "Find <b>employees</b> by manager"); rec.Code != http.StatusOK {
		t.Fatalf("edit: %d %s", rec.Code, rec.Body)
	}

	for _, token := range []string{created.EditToken, created.ViewToken} {
		rec := a.refreshStep("/d/"+token+"/patterns", rev)
		body := rec.Body.String()
		if rec.Header().Get(fragmentsHeader) != "1" || rec.Header().Get("HX-Reswap") != "none" {
			t.Fatalf("headers %v, want one part and no main swap", rec.Header())
		}
		if rec.Header().Get("X-Dynaloom-Revision") != strconv.FormatInt(rev+1, 10) {
			t.Fatalf("answer names revision %q, want %d", rec.Header().Get("X-Dynaloom-Revision"), rev+1)
		}
		if !strings.Contains(body, "Find &lt;b&gt;employees&lt;/b&gt; by manager") || strings.Contains(body, "<b>") {
			t.Fatalf("the new value is missing or not escaped: %s", body)
		}
		cellID := patternCellID(d.Patterns[1].ID, "description")
		if token == created.EditToken {
			cellID += "-cell"
		}
		if !strings.Contains(body, `id="`+cellID+`" hx-swap-oob="morph"`) || !strings.Contains(body, `data-testid="aside" hx-swap-oob="true"`) {
			t.Fatalf("want the cell %s and the side panel out of band: %s", cellID, body)
		}
		if strings.Contains(body, `id="workspace"`) || strings.Count(body, `hx-swap-oob=`) != 2 {
			t.Fatalf("the answer holds more than the cell and the panel: %s", body)
		}
		if len(body)*5 > whole.Body.Len() {
			t.Fatalf("parts answer %d bytes, the whole step %d: want at most a fifth", len(body), whole.Body.Len())
		}
	}
	// A comment on the pattern is its comment button.
	if rec := a.hx("/d/"+created.EditToken+"/comments", "target", "access_patterns/"+d.Patterns[1].ID, "body", "Which index?"); rec.Code != http.StatusOK {
		t.Fatalf("comment: %d %s", rec.Code, rec.Body)
	}
	rec := a.refreshStep("/d/"+created.EditToken+"/patterns", rev)
	if rec.Header().Get(fragmentsHeader) != "2" || !strings.Contains(rec.Body.String(), `data-testid="comment-badge"`) {
		t.Fatalf("after a comment: %v %s", rec.Header(), rec.Body)
	}
}

// Whatever a step cannot draw in parts is drawn whole: a renumbering, a deleted pattern, a step
// without parts, a page too far behind, and a page that does not say what it shows.
func TestRefresh_fallsBackToTheWholeStep(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	a.hx(edit+"/patterns/field", "id", d.Patterns[0].ID, "field", "description", "value", "parts")
	wholeStep := func(what string, rec *httptest.ResponseRecorder) {
		t.Helper()
		if rec.Header().Get(fragmentsHeader) != "" || rec.Header().Get("HX-Reswap") != "" || !strings.Contains(rec.Body.String(), `id="workspace"`) {
			t.Fatalf("%s: want the whole step, got headers %v", what, rec.Header())
		}
	}
	if rec := a.refreshStep(edit+"/patterns", rev); rec.Header().Get(fragmentsHeader) != "1" {
		t.Fatalf("a description change should be a part: %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/tables", rev); rec.Header().Get(fragmentsHeader) == "" || strings.Contains(rec.Body.String(), `id="workspace"`) {
		t.Fatalf("the tables step shows a pattern in its model map only: want parts, got %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) != "0" || !strings.Contains(rec.Body.String(), `id="aside"`) {
		t.Fatalf("the entities step shows no pattern: want the side panel alone, got %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/mapping", rev); rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), `id="`+elemID("map", d.Patterns[0].ID)+`"`) {
		t.Fatalf("the mapping step shows the pattern's description on its card: want that card, got %v", rec.Header())
	}
	wholeStep("no revision named", a.request(http.MethodGet, edit+"/patterns", "", nil, "HX-Request", "true"))
	wholeStep("a revision ahead of the design", a.refreshStep(edit+"/patterns", rev+5))

	a.hx(edit+"/patterns/field", "id", d.Patterns[0].ID, "field", "number", "value", "40")
	wholeStep("a renumbered pattern", a.refreshStep(edit+"/patterns", rev))
	wholeStep("a renumbered pattern, after the part", a.refreshStep(edit+"/patterns", rev+1))

	_, now := a.design(created.EditToken)
	a.hx(edit+"/patterns/delete", "id", d.Patterns[2].ID)
	wholeStep("a deleted pattern", a.refreshStep(edit+"/patterns", now))

	_, now = a.design(created.EditToken)
	for i := range maxFragmentRevisions + 1 {
		a.hx(edit+"/patterns/field", "id", d.Patterns[0].ID, "field", "description", "value", "v"+strconv.Itoa(i))
	}
	wholeStep("a page far behind", a.refreshStep(edit+"/patterns", now))
	if rec := a.refreshStep(edit+"/patterns", now+1); rec.Header().Get(fragmentsHeader) != "1" {
		t.Fatalf("within the bound, many changes of one cell are that cell once: %v", rec.Header())
	}
}

// An entity's attribute, an aggregate analysis's figure, a relationship's field and a
// consolidation review's field are each their own part.
func TestRefresh_entityCardAndAggregateFigure(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	ent := d.Entities[0]
	if rec := a.hx(edit+"/attributes/add", "entity", ent.Name, "name", "nickname", "type", "S"); rec.Code != http.StatusOK {
		t.Fatalf("add attribute: %d %s", rec.Code, rec.Body)
	}
	rec := a.refreshStep(edit+"/entities", rev)
	body := rec.Body.String()
	// The entity diagram counts the attribute too.
	if rec.Header().Get(fragmentsHeader) != "2" || !strings.Contains(body, `id="`+entityElemID(ent.Name)+`"`) || !strings.Contains(body, "nickname") ||
		!strings.Contains(body, `id="entity-diagram"`) {
		t.Fatalf("want %s's card with its new attribute, and the entity diagram: %v %.300s", ent.Name, rec.Header(), body)
	}
	if len(d.Aggregates) == 0 {
		t.Fatal("the example has no aggregate analysis to edit")
	}
	_, rev = a.design(created.EditToken)
	agg := d.Aggregates[0]
	if rec := a.hx(edit+"/aggregates/field", "id", agg.ID, "field", "correlation_pct", "value", "87"); rec.Code != http.StatusOK {
		t.Fatalf("aggregate: %d %s", rec.Code, rec.Body)
	}
	rec = a.refreshStep(edit+"/aggregates", rev)
	body = rec.Body.String()
	if rec.Header().Get(fragmentsHeader) != "3" || !strings.Contains(body, `value="87"`) || !strings.Contains(body, `data-testid="suggestion"`) ||
		!strings.Contains(body, `id="agg-`+agg.ID+`-scaffold"`) {
		t.Fatalf("want the figure, the suggestion and the scaffold offer: %v %s", rec.Header(), body)
	}

	// A relationship's notes and a consolidation review's field, each with what it feeds.
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/relationships/field", "id", d.Relationships[0].ID, "field", "notes", "value", "one manager each"); rec.Code != http.StatusOK {
		t.Fatalf("relationship: %d %s", rec.Code, rec.Body)
	}
	if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), "one manager each") {
		t.Fatalf("want the relationship's cell: %v %s", rec.Header(), rec.Body)
	}
	// A count names its unit too; still the cell, not the step.
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/relationships/field", "id", d.Relationships[0].ID, "field", "avg_count", "value", "4 per year"); rec.Code != http.StatusOK {
		t.Fatalf("relationship count: %d %s", rec.Code, rec.Body)
	}
	if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) == "" || !strings.Contains(rec.Body.String(), "4 per year") {
		t.Fatalf("want the count's cell: %v %s", rec.Header(), rec.Body)
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/consolidations/field", "id", d.Consolidations[0].ID, "field", "justification", "value", "kept apart"); rec.Code != http.StatusOK {
		t.Fatalf("consolidation: %d %s", rec.Code, rec.Body)
	}
	if rec := a.refreshStep(edit+"/aggregates", rev); rec.Header().Get(fragmentsHeader) != "2" || !strings.Contains(rec.Body.String(), "kept apart") {
		t.Fatalf("want the review's cell and suggestion: %v %s", rec.Header(), rec.Body)
	}
	if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) != "0" {
		t.Fatalf("the entities step shows no consolidation: %v", rec.Header())
	}
}

// An overview field is its field; the design's name is its field on the overview and the top
// bar's title on every step; a design consideration is its field on the aggregates step.
func TestRefresh_overviewFieldsNameAndConsiderations(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	edit := "/d/" + created.EditToken
	_, rev := a.design(created.EditToken)
	if rec := a.hx(edit+"/overview/domain", "value", "People & payroll"); rec.Code != http.StatusOK {
		t.Fatalf("overview: %d %s", rec.Code, rec.Body)
	}
	for _, step := range []string{"/tables", "/mapping", "/patterns"} {
		if rec := a.refreshStep(edit+step, rev); rec.Header().Get(fragmentsHeader) != "0" {
			t.Fatalf("%s shows nothing of the overview: %v", step, rec.Header())
		}
	}
	rec := a.refreshStep("/d/"+created.ViewToken, rev)
	if rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), `id="field-overview-domain" data-testid="field-overview-domain" hx-swap-oob="morph"`) ||
		!strings.Contains(rec.Body.String(), "People &amp; payroll") {
		t.Fatalf("want the domain field: %v %s", rec.Header(), rec.Body)
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/name", "name", "HR <core>"); rec.Code != http.StatusOK {
		t.Fatalf("name: %d %s", rec.Code, rec.Body)
	}
	rec = a.refreshStep(edit, rev)
	if rec.Header().Get(fragmentsHeader) != "2" || !strings.Contains(rec.Body.String(), `id="field-name"`) || !strings.Contains(rec.Body.String(), `id="design-title"`) ||
		strings.Contains(rec.Body.String(), "<core>") {
		t.Fatalf("want the name field and the title, escaped: %v %s", rec.Header(), rec.Body)
	}
	// A view link's overview has no name field to swap into: htmx would log a missing target.
	rec = a.refreshStep("/d/"+created.ViewToken, rev)
	if rec.Header().Get(fragmentsHeader) != "1" || strings.Contains(rec.Body.String(), `id="field-name"`) || !strings.Contains(rec.Body.String(), `id="design-title"`) {
		t.Fatalf("want the title only on a view link: %v %s", rec.Header(), rec.Body)
	}
	rec = a.refreshStep(edit+"/patterns", rev)
	if rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), "HR &lt;core&gt; · Dynaloom") {
		t.Fatalf("want the title on another step: %v %s", rec.Header(), rec.Body)
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/considerations/hot_partitions", "value", "Payroll day"); rec.Code != http.StatusOK {
		t.Fatalf("consideration: %d %s", rec.Code, rec.Body)
	}
	if rec := a.refreshStep(edit+"/aggregates", rev); rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), "Payroll day") {
		t.Fatalf("want the consideration's field: %v %s", rec.Header(), rec.Body)
	}
	if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) != "0" {
		t.Fatalf("the entities step shows no consideration: %v", rec.Header())
	}
}

// A step that shows nothing of what changed gets the side panel alone; one that might (the
// aggregates step lists the entities' names) is drawn whole.
func TestRefresh_aChangeAStepDoesNotShowCostsItTheSidePanel(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	if rec := a.hx(edit+"/overview/domain", "value", "People"); rec.Code != http.StatusOK {
		t.Fatalf("overview: %d", rec.Code)
	}
	if rec := a.hx(edit+"/items/cell", "table", d.Tables[0].Name, "id", d.Tables[0].Items[0].ID, "attribute", "first_name", "value", "Ama"); rec.Code != http.StatusOK {
		t.Fatalf("item cell: %d %s", rec.Code, rec.Body)
	}
	for _, step := range []string{"/patterns", "/entities", "/aggregates"} {
		rec := a.refreshStep(edit+step, rev)
		if rec.Header().Get(fragmentsHeader) != "0" || strings.Count(rec.Body.String(), "hx-swap-oob") != 1 {
			t.Fatalf("%s: want the side panel alone, got %v", step, rec.Header())
		}
	}
	if rec := a.refreshStep(edit, rev); rec.Header().Get(fragmentsHeader) != "1" {
		t.Fatalf("the overview shows its field and nothing of the item: %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/mapping", rev+1); rec.Header().Get(fragmentsHeader) != "" {
		t.Fatalf("/mapping shows the item: want it whole, got %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/tables", rev+1); rec.Header().Get(fragmentsHeader) != "3" || !strings.Contains(rec.Body.String(), `value="Ama"`) {
		t.Fatalf("/tables shows the item: want its cell, its size and the index grids, got %v", rec.Header())
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/entities/add", "name", "Badge"); rec.Code != http.StatusOK {
		t.Fatalf("add entity: %d", rec.Code)
	}
	if rec := a.refreshStep(edit+"/aggregates", rev); rec.Header().Get(fragmentsHeader) != "" {
		t.Fatalf("a new entity is a new choice on the aggregates step: want it whole, got %v", rec.Header())
	}
	if rec := a.refreshStep(edit+"/patterns", rev); rec.Header().Get(fragmentsHeader) != "0" {
		t.Fatalf("the patterns step shows no entity: %v", rec.Header())
	}
}

// An item's cell edited: a page on that table gets the cell and its row's size when the row is on
// its page, and those of the table's index grids the edit changed; a page on another table's tab gets the side
// panel alone. A key cell (the row may move), a new column, or a page whose revision is no longer
// held is drawn whole.
func TestRefresh_itemCellOnTheTablesStep(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	tb := d.Tables[0]
	// The page was drawn at rev, as a page that then hears of the change was.
	whole := a.request(http.MethodGet, edit+"/tables?table="+tb.Name, "", nil, "HX-Request", "true")
	item := tb.Items[0]
	if rec := a.hx(edit+"/items/cell", "table", tb.Name, "id", item.ID, "attribute", "first_name", "value", "Ama <i>"); rec.Code != http.StatusOK {
		t.Fatalf("item cell: %d %s", rec.Code, rec.Body)
	}
	rec := a.refreshStep(edit+"/tables?table="+tb.Name, rev)
	body := rec.Body.String()
	// The grids that project first_name show the new name in the item's row, which is sent alone
	// (first_name is no index key: the entry stays where it was); the others are left as they are.
	rows := strings.Count(body, `<template><tr id="`+elemID("ixrow", tb.Name))
	if grids := strings.Count(body, `data-testid="index-grid"`); grids != 0 {
		t.Fatalf("want the item's index rows alone, got %d whole grids", grids)
	}
	if rows == 0 || rows >= len(tb.GSIs)+len(tb.LSIs) || rec.Header().Get(fragmentsHeader) != strconv.Itoa(2+rows) || rec.Header().Get("HX-Reswap") != "none" {
		t.Fatalf("want the cell, the size and the item's row in the %d of %d index grids that changed, got %v", rows, len(tb.GSIs)+len(tb.LSIs), rec.Header())
	}
	for _, want := range []string{`id="` + itemCellID(tb.Name, item.ID, "first_name"), `value="Ama &lt;i&gt;"`, `id="` + elemID("size", tb.Name, item.ID) + `"`, `<td>Ama &lt;i&gt;</td>`, `id="aside"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("the answer lacks %s: %.2000s", want, body)
		}
	}
	if strings.Contains(body, `id="workspace"`) || strings.Contains(body, "<i>") || len(body) >= whole.Body.Len() {
		t.Fatalf("want parts, escaped, smaller than the step (%d of %d bytes)", len(body), whole.Body.Len())
	}
	if len(d.Tables) > 1 {
		other := a.refreshStep(edit+"/tables?table="+d.Tables[1].Name, rev)
		if other.Header().Get(fragmentsHeader) != "0" {
			t.Fatalf("another table's tab shows nothing of the item: %v", other.Header())
		}
	}

	wholeStep := func(what string, rec *httptest.ResponseRecorder) {
		t.Helper()
		if rec.Header().Get(fragmentsHeader) != "" || !strings.Contains(rec.Body.String(), `id="workspace"`) {
			t.Fatalf("%s: want the whole step, got %v", what, rec.Header())
		}
	}
	_, rev = a.design(created.EditToken)
	a.hx(edit+"/items/cell", "table", tb.Name, "id", item.ID, "attribute", tb.PartitionKey.Name, "value", "77777")
	wholeStep("a key cell", a.refreshStep(edit+"/tables?table="+tb.Name, rev))
	_, rev = a.design(created.EditToken)
	a.hx(edit+"/items/cell", "table", tb.Name, "id", item.ID, "attribute", "brand_new_column", "value", "x")
	wholeStep("a new column", a.refreshStep(edit+"/tables?table="+tb.Name, rev))
	a.srv.derived = nil
	_, rev = a.design(created.EditToken)
	a.hx(edit+"/items/cell", "table", tb.Name, "id", item.ID, "attribute", "first_name", "value", "Ada")
	wholeStep("a revision not held", a.refreshStep(edit+"/tables?table="+tb.Name, rev))
}

// A table's note and an index's note are each their cell on that table's tab, and nothing on
// another table's; a table's key redraws the step.
func TestRefresh_tableAndIndexNotes(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	tb := d.Tables[0]
	if len(tb.GSIs) == 0 || len(d.Tables) < 2 {
		t.Fatal("the example has no GSI on its first table, or one table only")
	}
	if rec := a.hx(edit+"/tables/field", "table", tb.Name, "field", "purpose", "value", "Employees & their <history>"); rec.Code != http.StatusOK {
		t.Fatalf("table note: %d %s", rec.Code, rec.Body)
	}
	rec := a.refreshStep(edit+"/tables?table="+tb.Name, rev)
	if rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), "Employees &amp; their &lt;history&gt;") {
		t.Fatalf("want the note's cell: %v %.500s", rec.Header(), rec.Body)
	}
	if rec := a.refreshStep(edit+"/tables?table="+d.Tables[1].Name, rev); rec.Header().Get(fragmentsHeader) != "0" {
		t.Fatalf("another table's tab: want the side panel alone, got %v", rec.Header())
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/tables/indexes/field", "table", tb.Name, "index", tb.GSIs[0].Name, "field", "purpose", "value", "Who works where"); rec.Code != http.StatusOK {
		t.Fatalf("index note: %d %s", rec.Code, rec.Body)
	}
	rec = a.refreshStep(edit+"/tables?table="+tb.Name, rev)
	if rec.Header().Get(fragmentsHeader) != "1" || !strings.Contains(rec.Body.String(), "Who works where") || strings.Contains(rec.Body.String(), `id="workspace"`) {
		t.Fatalf("want the index note's cell: %v", rec.Header())
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/tables/field", "table", tb.Name, "field", "ttl_attribute", "value", "expires_at"); rec.Code != http.StatusOK {
		t.Fatalf("ttl: %d %s", rec.Code, rec.Body)
	}
	if rec := a.refreshStep(edit+"/tables?table="+tb.Name, rev); rec.Header().Get(fragmentsHeader) != "" {
		t.Fatalf("a table's TTL attribute is not a note: want the whole step, got %v", rec.Header())
	}
}

// An operation's field edited reaches a page on the Mapping step as that pattern's card — open with
// the new value where the page has it open, collapsed with its verdict where not — and no other
// card; an item's cell, which any verdict may read, redraws the step.
func TestRefresh_mappingCard(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	p := d.Patterns[0]
	if len(p.Mapping.Operations) == 0 {
		t.Fatal("the example's first pattern has no operation")
	}
	if rec := a.hx(edit+"/mapping/field", "pattern", p.ID, "index", "0", "field", "notes", "value", "Reads the <profile> item"); rec.Code != http.StatusOK {
		t.Fatalf("operation field: %d %s", rec.Code, rec.Body)
	}
	card := `id="` + elemID("map", p.ID) + `"`
	open := a.refreshStep(edit+"/mapping?open="+p.ID, rev)
	body := open.Body.String()
	if open.Header().Get(fragmentsHeader) != "1" || !strings.Contains(body, card) || !strings.Contains(body, "Reads the &lt;profile&gt; item") || strings.Contains(body, "<profile>") {
		t.Fatalf("an open card: want it with the new notes, escaped: %v %.1500s", open.Header(), body)
	}
	if !strings.Contains(body, `hx-swap-oob="morph"`) || strings.Count(body, `data-testid="mapping"`) != 1 {
		t.Fatalf("want the one card, morphed in out of band: %.800s", body)
	}
	closed := a.refreshStep(edit+"/mapping", rev)
	if closed.Header().Get(fragmentsHeader) != "1" || !strings.Contains(closed.Body.String(), card) || strings.Contains(closed.Body.String(), "Reads the") {
		t.Fatalf("a collapsed card: want it collapsed, without its operations: %v", closed.Header())
	}
	_, rev = a.design(created.EditToken)
	tb := d.Tables[0]
	a.hx(edit+"/items/cell", "table", tb.Name, "id", tb.Items[0].ID, "attribute", "first_name", "value", "Ama")
	if rec := a.refreshStep(edit+"/mapping?open="+p.ID, rev); rec.Header().Get(fragmentsHeader) != "" {
		t.Fatalf("an item cell may change any verdict: want the whole step, got %v", rec.Header())
	}
}
