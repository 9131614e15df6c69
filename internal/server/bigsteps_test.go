package server

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"dynaloom/internal/storage"
)

// bigTableDesign is a design with one table of n sample items of 16 attributes and 5 GSIs. The
// first 300 items share one partition, longer than a page; the rest fall into partitions of a few
// items each.
func bigTableDesign(n int) string {
	var items []string
	for i := 1; i <= n; i++ {
		pk := "BIG"
		if i > 300 {
			pk = fmt.Sprintf("P%04d", i%1900)
		}
		var b strings.Builder
		fmt.Fprintf(&b, `{"id": "i%d", "item": {"pk": {"S": "%s"}, "sk": {"N": "%d"}, "status": {"S": "S%d"}, "total": {"N": "%d.5"}`, i, pk, i, i%7, i)
		for a := 0; a < 12; a++ {
			fmt.Fprintf(&b, `, "a%02d": {"S": "value %d of %d"}`, a, a, i)
		}
		b.WriteString(`}}`)
		items = append(items, b.String())
	}
	var ix []string
	for g := 0; g < 5; g++ {
		ix = append(ix, fmt.Sprintf(`{"name": "By%d", "partition_key": [{"name": "status", "type": "S"}], "sort_key": [{"name": "a%02d", "type": "S"}], "projection": {"type": "ALL"}}`, g, g))
	}
	return `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "pk", "type": "S"}, "sort_key": {"name": "sk", "type": "N"},
		"attributes": [{"name": "status", "type": "S"}, {"name": "total", "type": "N"}],
		"gsis": [` + strings.Join(ix, ",") + `], "items": [` + strings.Join(items, ",") + `]}]}`
}

// bigMappingDesign is a design with n access patterns, each mapped to a Query of one partition of
// a table of 2,000 items; every third pattern records the items it expects, and every fifth a
// wrong expectation.
func bigMappingDesign(n int) string {
	var items []string
	for i := 1; i <= 2000; i++ {
		items = append(items, fmt.Sprintf(`{"id": "i%d", "item": {"pk": {"S": "P%03d"}, "sk": {"N": "%d"}, "status": {"S": "S%d"}}}`, i, i%400, i, i%7))
	}
	var pats []string
	for p := 1; p <= n; p++ {
		part := fmt.Sprintf("P%03d", p%400)
		expected := ""
		switch {
		case p%5 == 0:
			expected = `, "expected": [{"pk": {"S": "NOPE"}, "sk": {"N": "1"}}]`
		case p%3 == 0:
			var keys []string
			for i := 1; i <= 2000; i++ {
				if fmt.Sprintf("P%03d", i%400) == part {
					keys = append(keys, fmt.Sprintf(`{"pk": {"S": "%s"}, "sk": {"N": "%d"}}`, part, i))
				}
			}
			expected = `, "expected": [` + strings.Join(keys, ",") + `]`
		}
		pats = append(pats, fmt.Sprintf(`{"number": %d, "description": "Orders of customer %d, oldest first", "type": "read", "peak_rps": 10, "avg_rps": 2,
			"mapping": {"operations": [{"op": "Query", "table": "Orders", "key_condition": "pk = :p", "values": {":p": {"S": "%s"}}%s}]}}`, p, p, part, expected))
	}
	return `{"name": "Shop", "access_patterns": [` + strings.Join(pats, ",") + `], "tables": [{"name": "Orders", "partition_key": {"name": "pk", "type": "S"}, "sort_key": {"name": "sk", "type": "N"},
		"items": [` + strings.Join(items, ",") + `]}]}`
}

// maxPageBytes is what issue 14 allows one page of a big step.
const maxPageBytes = 1 << 20

// pageAt reads "Page n of m" from a pager.
var pageAt = regexp.MustCompile(`Page <strong>(\d+)</strong> of (\d+)`)

// The Tables step of a table of 10,000 items is a page under 1 MB, and paging through it, next by
// next, shows every item exactly once; no partition is cut across pages unless it alone is longer
// than a page, and a cut one says so on both sides.
func TestTablesStep_10000ItemsArePagedUnderAMegabyteEach(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(bigTableDesign(10000))
	first := a.request(http.MethodGet, "/d/"+c.EditToken+"/tables", "", nil)
	if first.Code != http.StatusOK || first.Body.Len() > maxPageBytes {
		t.Fatalf("the Tables step at 10,000 items answers %d with %d bytes; at most %d", first.Code, first.Body.Len(), maxPageBytes)
	}
	if !strings.Contains(first.Body.String(), "of 10000 items") {
		t.Fatal("the first page does not say how many items there are")
	}
	last := a.request(http.MethodGet, "/d/"+c.EditToken+"/tables?table=Orders&page=9999", "", nil)
	at := pageAt.FindStringSubmatch(last.Body.String())
	if last.Body.Len() > maxPageBytes || at == nil || at[1] != at[2] || !strings.Contains(last.Body.String(), "–10000 of 10000 items") {
		t.Fatalf("a page past the end (%d bytes) does not show the last page: %q", last.Body.Len(), at)
	}
}

// Paging through a table, next by next, shows every item exactly once; no partition is cut across
// pages unless it alone is longer than a page, and a cut one says so on both sides. Every page
// sorts the whole table, so the quick tier walks 2,000 items and the full tier 10,000.
func TestTablesStep_pagingShowsEveryItemOnceAndKeepsPartitionsWhole(t *testing.T) {
	t.Parallel()
	n := 10000
	if testing.Short() {
		n = 2000
	}
	t.Logf("walking the pages of %d items", n)
	a := newTestApp(t)
	c := a.createJSON(bigTableDesign(n))
	d, _ := a.design(c.EditToken)
	dc := &designContext{ID: "test", Token: c.EditToken, Access: storage.EditAccess, Record: storage.Record{Design: d, Revision: 1}}
	table := d.Tables[0]
	seen := map[string]int{}
	partitionPages := map[string]int{}
	spot := tablesSpot{path: "/d/" + c.EditToken + "/tables", table: "Orders"}
	pages := 0
	for {
		g := itemGrid(dc, table, spot, gridState{})
		pages++
		if g.Pager.Page != pages {
			t.Fatalf("following next links reached page %d, which says it is page %d", pages, g.Pager.Page)
		}
		rows := 0
		for i, grp := range g.Groups {
			partitionPages[grp.Partition]++
			if i > 0 && grp.Continued || i < len(g.Groups)-1 && grp.Continues {
				t.Fatalf("page %d: partition %q is marked cut in the middle of the page", pages, grp.Partition)
			}
			for _, r := range grp.Rows {
				seen[r.ItemID]++
				rows++
			}
		}
		if rows > itemsPerPage || rows == 0 {
			t.Fatalf("page %d shows %d rows; a page holds 1 to %d", pages, rows, itemsPerPage)
		}
		if g.Pager.Last-g.Pager.First+1 != rows {
			t.Fatalf("page %d says it shows items %d–%d but holds %d rows", pages, g.Pager.First, g.Pager.Last, rows)
		}
		if g.Pager.Next == "" {
			break
		}
		next, err := url.Parse(g.Pager.Next)
		if err != nil {
			t.Fatal(err)
		}
		spot = spotFrom(next.Path, next.Query())
	}
	if len(seen) != n {
		t.Fatalf("paging through %d pages showed %d different items, want all %d", pages, len(seen), n)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("item %s shows on %d pages", id, n)
		}
	}
	for partition, n := range partitionPages {
		if n > 1 && partition != "BIG" {
			t.Errorf("partition %q of a few items is cut across %d pages", partition, n)
		}
	}
	if partitionPages["BIG"] != 6 {
		t.Errorf("the partition of 300 items spans %d pages, want 6 of %d", partitionPages["BIG"], itemsPerPage)
	}

}

// The Mapping step of 500 mapped patterns is a page under 1 MB of collapsed cards, each with its
// verdict; opening one card loads its operations and results, and nothing else.
func TestMappingStep_500PatternsAreCollapsedCardsUnderAMegabyte(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(bigMappingDesign(500))
	base := "/d/" + c.EditToken
	rec := a.request(http.MethodGet, base+"/mapping", "", nil)
	page := rec.Body.String()
	if rec.Code != http.StatusOK || len(page) > maxPageBytes {
		t.Fatalf("the Mapping step at 500 patterns answers %d with %d bytes; at most %d", rec.Code, len(page), maxPageBytes)
	}
	doc := parseHTML(t, page)
	verdicts := map[string]int{}
	cards := 0
	for _, n := range elements(doc, "details", "span", "section") {
		switch {
		case attr(n, "data-testid") == "mapping":
			cards++
			if hasAttr(n, "open") {
				t.Fatalf("card %s is open; cards come collapsed", attr(n, "id"))
			}
		case attr(n, "data-testid") == "mapping-verdict":
			verdicts[attr(n, "data-verdict")]++
		case attr(n, "data-testid") == "operation":
			t.Fatal("a collapsed card carries its operations")
		}
	}
	// Every fifth pattern expects an item it does not get, every third (not fifth) what it gets.
	if cards != 500 || verdicts["fail"] != 100 || verdicts["pass"] != 133 || verdicts[""] != 267 {
		t.Fatalf("%d cards with verdicts %v; want 500 cards, 100 failing, 133 proved, 267 unproved", cards, verdicts)
	}
	d, _ := a.design(c.EditToken)
	// A finding about pattern 5's result links to its card, opened.
	five := d.Patterns[4].ID
	if want := `href="` + base + `/mapping?open=` + five + `#` + elemID("map", five) + `"`; !strings.Contains(page, want) {
		t.Fatalf("no finding links to pattern 5's card opened (%s)", want)
	}
	p := d.Patterns[2]
	card := a.request(http.MethodGet, base+"/mapping?card="+p.ID, "", nil, "HX-Request", "true").Body.String()
	if !strings.HasPrefix(card, `<details class="card mapping" id="`+elemID("map", p.ID)+`"`) || !strings.Contains(card, " open ") && !strings.Contains(card, " open>") {
		t.Fatalf("the card's detail is not the open card: %.200s", card)
	}
	if !strings.Contains(card, `data-testid="operation"`) || !strings.Contains(card, "✓ Returns what the team expects.") || strings.Contains(card, "mapping-summary\" id") {
		t.Fatalf("the open card lacks its operation and result: %.400s", card)
	}
	opened := a.request(http.MethodGet, base+"/mapping?open="+p.ID, "", nil).Body.String()
	if n := strings.Count(opened, `data-testid="operation"`); n != 1 {
		t.Fatalf("the step with one card opened shows %d operations, want that card's one", n)
	}
	for _, viewer := range []string{"/d/" + c.ViewToken + "/mapping?card=" + p.ID, base + "/mapping?card=" + p.ID + "&present=1"} {
		card := a.request(http.MethodGet, viewer, "", nil, "HX-Request", "true").Body.String()
		if !strings.Contains(card, `data-testid="operation"`) || strings.Contains(card, "hx-post") {
			t.Fatalf("%s: the card is not the open card, read-only: %.300s", viewer, card)
		}
	}
	if rec := a.request(http.MethodGet, base+"/mapping?card=nope", "", nil); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "pattern") {
		t.Fatalf("an unknown card answers %d: %.200s", rec.Code, rec.Body)
	}
}

func hasAttr(n *html.Node, name string) bool {
	for _, a := range n.Attr {
		if a.Key == name {
			return true
		}
	}
	return false
}

// The anchors of the two benchmarks below: the same steps of a design small enough that paging
// and collapsing change nothing, one page of items and ten patterns. A big step costs near its
// anchor when its cost follows what it shows, not what the design holds.
func BenchmarkTablesStep50(b *testing.B)    { benchStep(b, bigTableDesign(itemsPerPage), "/tables") }
func BenchmarkMappingStep10(b *testing.B)   { benchStep(b, bigMappingDesign(10), "/mapping") }
func BenchmarkTablesStep10000(b *testing.B) { benchStep(b, bigTableDesign(10000), "/tables") }
func BenchmarkMappingStep500(b *testing.B)  { benchStep(b, bigMappingDesign(500), "/mapping") }

// benchStep is one GET of a step of design, handled the whole way through echo.
func benchStep(b *testing.B, design, step string) {
	a := newTestApp(b)
	c := a.createJSON(design)
	path := "/d/" + c.EditToken + step
	for b.Loop() {
		if rec := a.request(http.MethodGet, path, "", nil); rec.Code != http.StatusOK {
			b.Fatalf("%s: %d", step, rec.Code)
		}
	}
}

// "Go to item" opens the page holding the item with the key values typed and marks its row; a
// key no item has is explained on the field that holds it.
func TestTablesStep_goToItemOpensItsPageOrNamesTheField(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(bigTableDesign(500))
	base := "/d/" + c.EditToken + "/tables?table=Orders"
	page := a.request(http.MethodGet, base+"&go_pk=P0420&go_sk=420", "", nil, "HX-Request", "true", "HX-Target", elemID("items", "Orders"))
	body := page.Body.String()
	if page.Header().Get("X-Dynaloom-Revision") != "" {
		t.Fatal("an answer that swaps only the grid names a revision; the live refresh would take the whole page as up to date")
	}
	at := pageAt.FindStringSubmatch(body)
	if at == nil || at[1] == "1" {
		t.Fatalf("going to item P0420/420 shows page %q; it is past the first page", at)
	}
	row := regexp.MustCompile(`<tr id="` + elemID("row", "Orders", "i420") + `" class="[^"]*is-target[^"]*"`)
	if !row.MatchString(body) || !strings.Contains(body, `id="`+itemCellID("Orders", "i420", "pk")+`" name="value" value="P0420"`) {
		t.Fatal("the page does not hold item i420's row marked as the one asked for")
	}
	if !regexp.MustCompile(`id="` + itemCellID("Orders", "i420", "pk") + `"[^>]*autofocus`).MatchString(body) {
		t.Fatal("the first cell of the row asked for does not take the focus")
	}
	if push := page.Header().Get("HX-Push-Url"); push != "/d/"+c.EditToken+"/tables?page="+at[1]+"&table=Orders" {
		t.Fatalf("the address bar is set to %q, not the page the item is on", push)
	}
	for _, tc := range []struct{ query, field, message string }{
		{"&go_pk=NOPE", "go_pk", `pk: no item of Orders has the partition key &#34;NOPE&#34;`},
		{"&go_pk=P0420&go_sk=7", "go_sk", `sk: partition &#34;P0420&#34; of Orders has no item with the sort key &#34;7&#34;`},
		{"&go_pk=+", "go_pk", "pk: give the partition key value of the item to go to"},
	} {
		body := a.request(http.MethodGet, base+tc.query, "", nil).Body.String()
		if !strings.Contains(body, `data-testid="goto-error">`+tc.message+`</p>`) {
			t.Errorf("%s: the go-to form does not say %q", tc.query, tc.message)
		}
		if !regexp.MustCompile(`name="` + tc.field + `"[^>]*aria-invalid="true"`).MatchString(body) {
			t.Errorf("%s: the field %s is not marked invalid", tc.query, tc.field)
		}
	}
	// A finding's link to an item opens the page holding it.
	d, _ := a.design(c.EditToken)
	href := itemHref(&designContext{Token: c.EditToken, Record: storage.Record{Design: d}}, "Orders", "i460")
	if body := a.request(http.MethodGet, strings.Split(href, "#")[0], "", nil).Body.String(); !strings.Contains(body, `data-item="i460"`) {
		t.Fatalf("the item link %s does not open the page holding i460", href)
	}
}

// Edits on a later page answer with the page the change left the grid on: a key edit with the
// page the row moved to, a paste with the page holding the first pasted row, focused; the
// address bar follows.
func TestTablesStep_editsAnswerWithThePageTheyLeaveTheGridOn(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(bigTableDesign(500))
	base := "/d/" + c.EditToken
	current := "http://example.com" + base + "/tables?table=Orders&page=3"
	key := a.request(http.MethodPost, base+"/items/cell", "application/x-www-form-urlencoded",
		strings.NewReader("table=Orders&id=i5&attribute=pk&value=P0499"), "HX-Request", "true", "HX-Current-URL", current)
	if key.Code != http.StatusOK {
		t.Fatalf("key edit: %d %s", key.Code, key.Body)
	}
	body := key.Body.String()
	if !strings.HasPrefix(body, `<section class="card items" id="`+elemID("items", "Orders")+`"`) || !strings.Contains(body, `data-item="i5"`) {
		t.Fatal("the key edit's answer is not the grid page holding the moved row")
	}
	moved := pageAt.FindStringSubmatch(body)
	if got := key.Header().Get("HX-Replace-Url"); moved == nil || got != base+"/tables?page="+moved[1]+"&table=Orders" {
		t.Fatalf("after the key edit the address bar is set to %q; the grid shows page %q", got, moved)
	}

	var tsv strings.Builder
	tsv.WriteString("pk\tsk\tstatus\n")
	for i := range 120 {
		fmt.Fprintf(&tsv, "A%03d\t%d\tNEW\n", i, i)
	}
	paste := a.request(http.MethodPost, base+"/items/paste?table=Orders", "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"text": {tsv.String()}}.Encode()), "HX-Request", "true", "HX-Current-URL", current)
	body = paste.Body.String()
	if paste.Code != http.StatusOK || !strings.Contains(body, "of 620 items") {
		t.Fatalf("paste: %d, the grid does not count 620 items", paste.Code)
	}
	// A000 sorts before BIG and the P partitions: the first pasted row is on page 1.
	if at := pageAt.FindStringSubmatch(body); at == nil || at[1] != "1" {
		t.Fatalf("after the paste the grid shows page %q, not the page of the first pasted row", at)
	}
	if !regexp.MustCompile(`value="A000"[^>]*autofocus`).MatchString(body) {
		t.Fatal("the first pasted row does not take the focus")
	}
	if got := paste.Header().Get("HX-Replace-Url"); got != base+"/tables?table=Orders" {
		t.Fatalf("after the paste the address bar is set to %q", got)
	}
}

// The view link and the projector page through the items read-only, their links staying on the
// view link and in the projector's mode.
func TestTablesStep_viewLinkAndProjectorPageToo(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(bigTableDesign(500))
	for _, tc := range []struct{ path, next string }{
		{"/d/" + c.ViewToken + "/tables?table=Orders&page=2", "/d/" + c.ViewToken + "/tables?page=3&amp;table=Orders"},
		{"/d/" + c.EditToken + "/tables?table=Orders&page=2&present=1", "/d/" + c.EditToken + "/tables?page=3&amp;present=1&amp;table=Orders"},
	} {
		body := a.request(http.MethodGet, tc.path, "", nil).Body.String()
		if at := pageAt.FindStringSubmatch(body); at == nil || at[1] != "2" {
			t.Fatalf("%s shows page %q", tc.path, at)
		}
		if strings.Contains(body, "hx-post") {
			t.Fatalf("%s has editing controls", tc.path)
		}
		if !strings.Contains(body, `href="`+tc.next+`"`) {
			t.Fatalf("%s: the next page link is not %s", tc.path, tc.next)
		}
	}
}
