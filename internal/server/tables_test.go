package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// tableDesign is a design with one table, a sparse GSI on status and n items; every third item has
// no status.
func tableDesign(n, gsis int) string {
	var items []string
	for i := 1; i <= n; i++ {
		status := fmt.Sprintf(`, "status": {"S": "S%d"}`, i%7)
		if i%3 == 0 {
			status = ""
		}
		items = append(items, fmt.Sprintf(`{"id": "i%d", "item": {"pk": {"S": "P%03d"}, "sk": {"N": "%d"}, "total": {"N": "%d.5"}%s}}`, i, i%40, i, i, status))
	}
	var ix []string
	for g := 0; g < gsis; g++ {
		ix = append(ix, fmt.Sprintf(`{"name": "ByStatus%d", "partition_key": [{"name": "status", "type": "S"}], "sort_key": [{"name": "sk", "type": "N"}], "projection": {"type": "INCLUDE", "attributes": ["total"]}, "sparse": true}`, g))
	}
	return `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "pk", "type": "S"}, "sort_key": {"name": "sk", "type": "N"},
		"attributes": [{"name": "status", "type": "S"}, {"name": "total", "type": "N"}],
		"gsis": [` + strings.Join(ix, ",") + `], "items": [` + strings.Join(items, ",") + `]}]}`
}

type itemsAnswer struct {
	Items []struct {
		Item      map[string]map[string]any `json:"item"`
		SizeBytes int                       `json:"size_bytes"`
	} `json:"items"`
}

func TestAPI_tableAndIndexItems(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(tableDesign(9, 1))
	var table itemsAnswer
	rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/tables/Orders/items", "", nil)
	if err := json.Unmarshal(rec.Body.Bytes(), &table); err != nil || rec.Code != 200 || len(table.Items) != 9 {
		t.Fatalf("table items: %d %v %s", rec.Code, err, rec.Body)
	}
	// Key order: pk as strings (P001 < P002 …), then sk numerically.
	if first := table.Items[0].Item["pk"]["S"]; first != "P001" {
		t.Fatalf("first item pk = %v", first)
	}
	// pk "P001" (4+4 = 8... name 2 + value 4) + sk (2 + number) + total (5 + number) + status (6 + 2): sizes are positive and differ with content.
	for _, it := range table.Items {
		if it.SizeBytes <= 0 {
			t.Fatalf("size %d", it.SizeBytes)
		}
	}
	var index itemsAnswer
	rec = a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/tables/Orders/indexes/ByStatus0/items", "", nil)
	if err := json.Unmarshal(rec.Body.Bytes(), &index); err != nil || len(index.Items) != 6 {
		t.Fatalf("index items: %d %s", len(index.Items), rec.Body)
	}
	for i, it := range index.Items {
		if _, ok := it.Item["status"]; !ok {
			t.Fatal("an item without the index key is in the index")
		}
		for name := range it.Item {
			if name != "pk" && name != "sk" && name != "status" && name != "total" {
				t.Fatalf("unprojected attribute %s in the index", name)
			}
		}
		if i > 0 && index.Items[i-1].Item["status"]["S"].(string) > it.Item["status"]["S"].(string) {
			t.Fatal("index entries are not in index-key order")
		}
	}
	for _, path := range []string{"/tables/Nope/items", "/tables/Orders/indexes/Nope/items"} {
		if rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+path, "", nil); rec.Code != http.StatusNotFound {
			t.Fatalf("%s: %d", path, rec.Code)
		}
	}
}

func TestTables_cellEditAnswersWithCellSizeAndIndexGrids(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(tableDesign(6, 1))
	base := "/d/" + c.EditToken
	rec := a.hx(base+"/items/cell", "table", "Orders", "id", "i3", "attribute", "status", "value", "NEW")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `value="NEW"`) {
		t.Fatalf("cell edit: %d %s", rec.Code, body)
	}
	if !strings.Contains(body, `-index-grids" aria-label="Index views" hx-swap-oob="true"`) || !strings.Contains(body, `data-item="i3" data-testid="index-row"`) {
		t.Fatal("the answer does not carry the recomputed index grid with the item now in it")
	}
	bad := a.hx(base+"/items/cell", "table", "Orders", "id", "i3", "attribute", "total", "value", "abc")
	if bad.Code != http.StatusUnprocessableEntity || !strings.Contains(bad.Body.String(), "not a number") {
		t.Fatalf("bad number: %d %s", bad.Code, bad.Body)
	}
	key := a.hx(base+"/items/cell", "table", "Orders", "id", "i3", "attribute", "pk", "value", "P999")
	if key.Code != http.StatusOK || !strings.Contains(key.Body.String(), `data-testid="item-grid"`) {
		t.Fatalf("key edit should answer with the whole grid: %d", key.Code)
	}
	if page := a.request(http.MethodGet, base+"/tables", "", nil); page.Code != 200 || !strings.Contains(page.Body.String(), "P999") {
		t.Fatalf("tables page: %d", page.Code)
	}
	if rec := a.hx("/d/"+c.ViewToken+"/items/cell", "table", "Orders", "id", "i3", "attribute", "status", "value", "X"); rec.Code != http.StatusForbidden {
		t.Fatalf("view token edit: %d", rec.Code)
	}
}

// The side panel in an edit's answer is its revision alone when the edit changed nothing else it
// shows and the page showed the revision before; otherwise the whole panel: a new finding, or a
// page whose base revision is older (it may not have the findings in between).
func TestTables_cellEditAnswersWithThePanelWhereItChanged(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(tableDesign(12, 1))
	base := "/d/" + c.EditToken
	if page := a.request(http.MethodGet, base+"/tables", "", nil); page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `Revision <span id="aside-revision" data-testid="revision">1</span>`) {
		t.Fatalf("tables page: %d, or its side panel does not show revision 1", page.Code)
	}
	edit := func(item, attr, value string, more ...string) (string, string) {
		t.Helper()
		rec := a.hx(base+"/items/cell", append([]string{"table", "Orders", "id", item, "attribute", attr, "value", value}, more...)...)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `value="`+value+`"`) {
			t.Fatalf("edit of %s of %s: %d %.300s", attr, item, rec.Code, rec.Body)
		}
		return rec.Body.String(), rec.Header().Get("X-Dynaloom-Revision")
	}
	body, rev := edit("i2", "total", "8", "base_revision", "1")
	if want := `<span id="aside-revision" data-testid="revision" data-revision="` + rev + `" hx-swap-oob="true">` + rev + `</span>`; !strings.Contains(body, want) || strings.Contains(body, `id="aside"`) {
		t.Errorf("a total edited changed nothing in the side panel but its revision: want %s alone, got %.2000s", want, body)
	}
	if body, _ := edit("i4", "total", "9"); !strings.Contains(body, `data-testid="revision" data-revision=`) || strings.Contains(body, `id="aside"`) {
		t.Errorf("without a base revision, the page is taken to show the revision before: want the revision alone, got %.2000s", body)
	}
	findings := func() int {
		var v struct{ Findings []any }
		rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/validation", "", nil)
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return len(v.Findings)
	}
	was := findings()
	// MOD011: the text null, in a string attribute, where the attribute should be absent.
	body, _ = edit("i5", "status", "null")
	if now := findings(); now == was || !strings.Contains(body, `id="aside"`) || !strings.Contains(body, strconv.Itoa(now)) {
		t.Errorf("a new finding (%d, were %d) must bring the whole side panel: %.2000s", now, was, body)
	}
	_, rev = edit("i6", "total", "10")
	older, _ := strconv.Atoi(rev)
	if body, _ := edit("i7", "total", "11", "base_revision", strconv.Itoa(older-1)); !strings.Contains(body, `id="aside"`) || strings.Contains(body, `data-revision="`+strconv.Itoa(older+1)+`" hx-swap-oob`) {
		t.Errorf("a page two revisions behind must get the whole side panel: %.2000s", body)
	}
}

// With the revision before the edit held (the page was open), the answer carries only the index
// grids the edit changed, each swapped on its own: not the grid of an index whose page does not
// show the item, and the grid of one whose page shows it before or after.
func TestTables_cellEditAnswersWithTheIndexGridsItChanged(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(tableDesign(120, 1))
	base := "/d/" + c.EditToken
	if page := a.request(http.MethodGet, base+"/tables", "", nil); page.Code != http.StatusOK {
		t.Fatalf("tables page: %d", page.Code)
	}
	var index itemsAnswer
	rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/tables/Orders/indexes/ByStatus0/items", "", nil)
	if err := json.Unmarshal(rec.Body.Bytes(), &index); err != nil || len(index.Items) <= indexRowsPerPage {
		t.Fatalf("index items: %d entries (%v), want more than a page", len(index.Items), err)
	}
	// Item i of tableDesign has sort key i.
	id := func(entry int) string { return "i" + index.Items[entry].Item["sk"]["N"].(string) }
	first, last := id(0), id(len(index.Items)-1)
	grid := `data-testid="index-grid" data-index="ByStatus0" hx-swap-oob="true"`
	edit := func(item, attr, value string) string {
		t.Helper()
		rec := a.hx(base+"/items/cell", "table", "Orders", "id", item, "attribute", attr, "value", value)
		if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, `value="`+value+`"`) || !strings.Contains(body, `data-testid="item-size"`) {
			t.Fatalf("edit of %s of %s: %d %.300s", attr, item, rec.Code, body)
		}
		return rec.Body.String()
	}
	if body := edit(last, "total", "7"); strings.Contains(body, `data-testid="index-grid"`) || strings.Contains(body, `-index-grids"`) {
		t.Errorf("an edit of an item the index's first page does not show sent its grid again")
	}
	// total is no key of the index: the entry stays where it was, and its row is all that changed.
	row := `<template><tr id="` + elemID("ixrow", "Orders", "ByStatus0", first) + `" data-item="` + first + `" data-testid="index-row" hx-swap-oob="true"><td>`
	if body := edit(first, "total", "8"); !strings.Contains(body, row) || !strings.Contains(body, `<td>8</td>`) || strings.Contains(body, `data-testid="index-grid"`) || strings.Contains(body, `-index-grids"`) {
		t.Errorf("an edit of an item on the index's first page did not send that entry's row alone")
	}
	if body := edit(last, "status", "A"); !strings.Contains(body, grid) || !strings.Contains(body, `data-item="`+last+`" data-testid="index-row"`) {
		t.Errorf("an item moved onto the index's first page is not in the grid sent")
	}
	if body := edit(last, "status", "Z"); !strings.Contains(body, grid) || strings.Contains(body, `data-item="`+last+`" data-testid="index-row"`) {
		t.Errorf("an item moved off the index's first page is still in the grid sent")
	}
	// Someone looks at the index's second page; an item moves from the first page past the
	// second, so every entry of the second page shifts by one although the item is on it neither
	// before nor after.
	big := a.createJSON(tableDesign(200, 1)) // three pages of index entries
	bigBase := "/d/" + big.EditToken
	if page := a.request(http.MethodGet, bigBase+"/tables?table=Orders&index=ByStatus0&ipage=2", "", nil); page.Code != http.StatusOK {
		t.Fatalf("tables page: %d", page.Code)
	}
	rec = a.request(http.MethodGet, "/api/designs/"+big.ViewToken+"/tables/Orders/indexes/ByStatus0/items", "", nil)
	if err := json.Unmarshal(rec.Body.Bytes(), &index); err != nil || len(index.Items) <= 2*indexRowsPerPage {
		t.Fatalf("index items: %d entries (%v), want more than two pages", len(index.Items), err)
	}
	moved := id(0)
	page2 := a.request(http.MethodPost, bigBase+"/items/cell", formType,
		strings.NewReader(form("table", "Orders", "id", moved, "attribute", "status", "value", "Z")),
		"HX-Request", "true", "HX-Current-URL", "http://example.test"+bigBase+"/tables?table=Orders&index=ByStatus0&ipage=2")
	body := page2.Body.String()
	if page2.Code != http.StatusOK || !strings.Contains(body, grid) || strings.Contains(body, `data-item="`+moved+`" data-testid="index-row"`) {
		t.Errorf("an item that moved past the index page shown did not send that page's grid, shifted: %d %.300s", page2.Code, body)
	}
	if shifted := id(indexRowsPerPage + 1); !strings.Contains(body, `data-item="`+shifted+`" data-testid="index-row"`) {
		t.Errorf("the second page sent does not start one entry later (no %s)", shifted)
	}
}

// BenchmarkItemCellEdit1000x5 is one cell edit on a table of 1,000 items with 5 GSIs, handled the
// whole way: routing, the change, the durable write, validation, the five index views and the
// rendered answer.
func BenchmarkItemCellEdit1000x5(b *testing.B) {
	a := newTestApp(b)
	c := a.createJSON(string(designertest.MustMarshal(b, designertest.Large(designertest.Size{Tables: 1, Items: 1000, GSIs: 5}))))
	path := "/d/" + c.EditToken + "/items/cell"
	for i := 0; b.Loop(); i++ {
		rec := a.hx(path, "table", "Table00", "id", "i500", "attribute", "status", "value", fmt.Sprint("S", i%9))
		if rec.Code != http.StatusOK {
			b.Fatalf("edit: %d %s", rec.Code, rec.Body.String()[:200])
		}
	}
}

// BenchmarkItemCellPipeline1000x5 is what issue 4 budgets at 10 ms: one cell edit on a table of
// 1,000 items with 5 GSIs — apply the change, recompute the index views, run the findings and render
// the answer (cell, index grids, live panel) — without HTTP and without the SQLite write, which
// BenchmarkItemCellEdit1000x5 adds.
func BenchmarkItemCellPipeline1000x5(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 1, Items: 1000, GSIs: 5})
	dc := &designContext{ID: "bench", Token: "token", Access: storage.EditAccess, Record: storage.Record{Design: d, Revision: 1}}
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		value := fmt.Sprint("S", i%9)
		next, err := designer.SetItemCell{Table: "Table00", ID: "i500", Attribute: "status", Text: value}.Apply(dc.Record.Design)
		if err != nil {
			b.Fatal(err)
		}
		dc.Record.Design = next
		answer, err := itemCellPart(tablesSpot{path: "/d/token/tables", table: "Table00"}, "Table00", "i500", "status", value)(dc, nil)
		if _, reloads := answer.(reload); err != nil || reloads {
			b.Fatalf("no answer: %v", err)
		}
		if err := templ.Join(answer, templates.AsideView(asideModel(dc), true)).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTables_generatorAndPerPatternCellsAndGeneration(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop", "access_patterns": [{"number": 4, "description": "Orders by status"}],
		"tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}, "attributes": [{"name": "status", "type": "S"}],
		"gsis": [{"name": "ByStatus", "partition_key": [{"name": "status", "type": "S"}], "projection": {"type": "ALL"}}]}]}`)
	base := "/d/" + c.EditToken
	if rec := a.hx(base+"/tables/attributes/field", "table", "Orders", "attribute", "status", "field", "generator", "value", "dice"); rec.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(rec.Body.String(), "not a generator") {
		t.Fatalf("bad generator: %d %s", rec.Code, rec.Body)
	}
	if rec := a.hx(base+"/tables/attributes/field", "table", "Orders", "attribute", "status", "field", "generator", "value", "one_of OPEN|SHIPPED"); rec.Code != http.StatusOK {
		t.Fatalf("generator: %d %s", rec.Code, rec.Body)
	}
	if rec := a.hx(base+"/tables/indexes/field", "table", "Orders", "index", "ByStatus", "field", "pattern_attributes", "value", "4: status"); rec.Code != http.StatusOK {
		t.Fatalf("per-pattern attributes: %d %s", rec.Code, rec.Body)
	}
	gen := a.request(http.MethodPost, base+"/items/generate?table=Orders", formType, strings.NewReader(form("count", "12", "seed", "7")), "HX-Request", "true")
	if gen.Code != http.StatusOK {
		t.Fatalf("generate: %d %s", gen.Code, gen.Body)
	}
	d, _ := a.design(c.EditToken)
	tbl := d.Tables[0]
	if len(tbl.Items) != 12 || len(tbl.GSIs[0].PatternAttributes) != 1 {
		t.Fatalf("items %d, pattern attributes %+v", len(tbl.Items), tbl.GSIs[0].PatternAttributes)
	}
	for _, it := range tbl.Items {
		if s := it.Item["status"].S; s != "OPEN" && s != "SHIPPED" {
			t.Fatalf("generated status %q is not one of the listed values", s)
		}
	}
}

func TestAPI_createFromDataModelMarkdown(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	md := "# DynamoDB Data Model\n\n## Table Designs\n\n### Orders Table\n\n| order_id | status | total |\n|---|---|---|\n| O1 | OPEN | 10 |\n| O2 | | 12 |\n\n" +
		"- **Purpose**: orders\n- **Partition Key**: order_id - unique\n- **Sort Key**: None\n- **Attributes**: order_id (String), status (String), total (Number)\n\n" +
		"| status | order_id |\n|---|---|\n| OPEN | O1 |\n\n### ByStatus GSI\n- **Partition Key**: status\n- **Projection**: KEYS_ONLY\n- **Sparse**: status\n"
	rec := a.request(http.MethodPost, "/api/designs", "multipart/form-data; boundary=XX", strings.NewReader(
		"--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"dynamodb_data_model.md\"\r\n\r\n"+md+"\r\n--XX--\r\n"))
	if rec.Code != http.StatusCreated {
		t.Fatalf("import: %d %s", rec.Code, rec.Body)
	}
	var created createdDesign
	json.Unmarshal(rec.Body.Bytes(), &created)
	var index itemsAnswer
	got := a.request(http.MethodGet, "/api/designs/"+created.ViewToken+"/tables/Orders/indexes/ByStatus/items", "", nil)
	if err := json.Unmarshal(got.Body.Bytes(), &index); err != nil || got.Code != 200 || len(index.Items) != 1 {
		t.Fatalf("index view after import: %d %s", got.Code, got.Body)
	}
	if total := index.Items[0].Item["total"]; total != nil {
		t.Fatal("a KEYS_ONLY index carries a non-key attribute")
	}
}
