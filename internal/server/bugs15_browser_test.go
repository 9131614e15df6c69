package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A structural table edit (a sort key added, a key type changed, a rename) reloads the Tables step;
// the page stays live through it: its event stream keeps the tab, the others stay in its presence
// list, and a later edit by someone else still arrives.
func TestBrowser_aStructuralTableEditKeepsThePageLive(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}]}`)
	page := base + "/d/" + created.EditToken + "/tables?table=Orders"
	alice, _ := newBrowser(t)
	openAndJoin(t, alice, page, "Alice")
	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, page, "Bob")
	do(t, alice, "open the table", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#"+elemID("tf", "Orders", "sk_name"))))
	do(t, bob, "open the table", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#"+elemID("tf", "Orders", "sk_name"))))
	waitUntil(t, alice, "Bob to be here", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)

	stillLive := func(what string, edit func()) {
		t.Helper()
		// The page counts its edits until each is answered and swapped in, told by the request
		// itself (htmx's own events are lost once an answer removed the field that sent them): the
		// next step must not start while an answer may still redraw the step under it.
		do(t, alice, "mark the page and count its edits", chromedp.Evaluate[chromedp.Void](`window.notReloaded = true;
			window.editsOpen = 0;
			if (!window.countingEdits) {
				window.countingEdits = true;
				document.addEventListener("htmx:beforeRequest", function (ev) {
					if (ev.detail.requestConfig.verb === "get") return;
					window.editsOpen++;
					ev.detail.xhr.addEventListener("loadend", function () { setTimeout(function () { window.editsOpen--; }, 0); });
				});
			}`))
		edit()
		waitUntil(t, alice, "every edit of "+what+" to be answered", `window.editsOpen === 0`)
		// Answers that landed out of order leave the page a refresh behind, which it then asks
		// for; the next step must not start until the page shows the design's newest revision.
		rev := currentRevision(t, base, created.EditToken)
		waitUntil(t, alice, "the page to show revision "+rev+" after "+what, `document.documentElement.dataset.shownRevision === "`+rev+`" && !document.querySelector(".htmx-request")`)
		if !get(t, alice, "read the mark", chromedp.Evaluate[bool](`window.notReloaded === true`)) {
			t.Fatalf("after %s the browser loaded the page anew; the step should be drawn again in place", what)
		}
		for _, el := range get(t, alice, "read the event streams' addresses", chromedp.Evaluate[[]string](
			`Array.from(document.querySelectorAll("[sse-connect]"), el => el.getAttribute("sse-connect"))`)) {
			if !hasTab(el) {
				t.Fatalf("after %s the page's event stream is %q, without its tab", what, el)
			}
		}
		waitUntil(t, alice, "Bob still shown here after "+what, `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	}
	purpose := "#" + elemID("tf", "Orders", "purpose")
	stillLive("adding a sort key", func() {
		typeOver(t, alice, "#"+elemID("tf", "Orders", "sk_name"), "placed_at")
		waitUntil(t, alice, "the step drawn with the sort key", `!!document.querySelector("#`+elemID("tf", "Orders", "sk_type")+`") && document.querySelector("#`+elemID("tf", "Orders", "sk_name")+`").value === "placed_at"`)
	})
	waitUntil(t, bob, "Bob to see the sort key", `document.querySelector("#`+elemID("tf", "Orders", "sk_name")+`").value === "placed_at"`)
	openNotes(t, bob)
	typeOver(t, bob, purpose, "One order per customer purchase")
	waitUntil(t, alice, "Bob's later edit to reach Alice", `document.querySelector("`+purpose+`").value === "One order per customer purchase"`)

	stillLive("changing a key type", func() {
		// Two changes leave before the first answer lands, so the second's field is gone when its
		// own answer comes: the page must still count it as answered.
		do(t, alice, "make the partition key a number, twice in quick succession", chromedp.SetValue(chromedp.CSS("#"+elemID("tf", "Orders", "pk_type")), "N"),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("#`+elemID("tf", "Orders", "pk_type")+`").dispatchEvent(new Event("change", {bubbles: true}))`))
		waitUntil(t, alice, "the step drawn with the new type", `document.querySelector("#`+elemID("tf", "Orders", "pk_type")+` option[selected]").value === "N"`)
	})
	stillLive("renaming the table", func() {
		typeOver(t, alice, "#"+elemID("tf", "Orders", "name"), "Purchases")
		waitUntil(t, alice, "the step drawn for the new name", `!!document.querySelector("#`+elemID("tf", "Purchases", "name")+`")`)
	})
	purpose = "#" + elemID("tf", "Purchases", "purpose")
	waitUntil(t, bob, "Bob to see the new name among the tables", `!!document.querySelector("[data-testid=table-tab-`+elemID("t", "Purchases")+`]")`)
	do(t, bob, "open the renamed table", chromedp.Click(chromedp.CSS("[data-testid=table-tab-"+elemID("t", "Purchases")+"]")), chromedp.WaitReady(chromedp.CSS(purpose)))
	openNotes(t, bob)
	typeOver(t, bob, purpose, "Every purchase, paid or not")
	waitUntil(t, alice, "Bob's edit after the rename to reach Alice", `document.querySelector("`+purpose+`").value === "Every purchase, paid or not"`)
}

// currentRevision is the design's newest revision, as its API tells it.
func currentRevision(t *testing.T, base, token string) string {
	t.Helper()
	resp, err := http.Get(base + "/api/designs/" + token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		Revision int64 `json:"revision"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil || d.Revision == 0 {
		t.Fatalf("the design's revision: %v (status %d)", err, resp.StatusCode)
	}
	return strconv.FormatInt(d.Revision, 10)
}

// hasTab reports whether an event stream's address names the page's tab, which /events requires.
func hasTab(address string) bool {
	u, err := url.Parse(address)
	return err == nil && u.Query().Get("tab") != ""
}

// openNotes opens the tables' notes, where a table's purpose is written.
func openNotes(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, "open the notes", chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("details.notes").forEach(d => d.open = true)`))
}

// After Add, the new-entity and new-attribute boxes are empty and keep the focus, so the next
// name typed is a name of its own, not appended to the last one.
func TestBrowser_addingEntitiesAndAttributesClearsTheirBoxes(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop"}`)
	page := base + "/d/" + created.EditToken + "/entities"
	ctx, _ := newBrowser(t)
	openAndJoin(t, ctx, page, "Alice")
	do(t, ctx, "open the entities", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("[data-testid=new-entity-name]")))
	names := func(css string) []string {
		return get(t, ctx, "read "+css, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("`+css+`"), el => el.value)`))
	}
	for i, name := range []string{"Customer", "Order"} {
		do(t, ctx, "add the entity "+name,
			chromedp.SendKeys(chromedp.CSS("[data-testid=new-entity-name]"), name+kb.Enter),
			chromedp.WaitVisible(chromedp.CSS("#ent-"+strconv.Itoa(i)+"-name")))
		waitUntil(t, ctx, "the entity "+name+" in the list", `document.querySelector("#ent-`+strconv.Itoa(i)+`-name").value === "`+name+`"`)
		if got := names("[data-testid=new-entity-name]"); len(got) != 1 || got[0] != "" {
			t.Fatalf("after adding %s the new-entity box holds %q, want it empty", name, got)
		}
	}
	for _, attr := range []string{"customer_id", "email"} {
		do(t, ctx, "add the attribute "+attr,
			chromedp.SendKeys(chromedp.CSS("#ent-0-new-attribute"), attr+kb.Enter))
		waitUntil(t, ctx, "the attribute "+attr+" on Customer", `Array.from(document.querySelectorAll("#`+entityElemID("Customer")+` [data-testid=attribute] input[type=text]"), el => el.value).includes("`+attr+`")`)
		if got := get(t, ctx, "read the new attribute box", chromedp.Evaluate[string](`document.querySelector("#ent-0-new-attribute").value`)); got != "" {
			t.Fatalf("after adding %s the new-attribute box holds %q, want it empty", attr, got)
		}
	}
	got := get(t, ctx, "read Customer's attributes", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#`+entityElemID("Customer")+` [data-testid=attribute] input[type=text]"), el => el.value)`))
	if strings.Join(got, ",") != "customer_id,email" {
		t.Fatalf("Customer's attributes are %q, want customer_id and email", got)
	}
}

// fifteenPatterns is a design in the requirement phase: one entity, fifteen patterns with every
// requirement given (one writes, the rest read), and no table yet.
func fifteenPatterns() string {
	var ps []string
	for n := 1; n <= 15; n++ {
		typ := "read"
		if n == 1 {
			typ = "write"
		}
		ps = append(ps, fmt.Sprintf(`{"number": %d, "description": "Pattern number %d", "type": %q, "peak_rps": 50, "avg_rps": 10,
			"latency_slo": "<20 ms p99", "consistency": "eventual", "result_bound": "1 item", "item_size_band": "<1 KB", "entities": ["Order"]}`, n, n, typ))
	}
	return `{"name": "Shop", "entities": [{"name": "Order", "attributes": [{"name": "order_id", "type": "S"}]}],
		"access_patterns": [` + strings.Join(ps, ",") + `]}`
}

// A design of fifteen patterns and no table is not "all clear": the side panel and the Validation
// step say that nothing serves the patterns yet, and link to the Tables step.
func TestBrowser_patternsWithoutTablesAreNotAllClear(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, fifteenPatterns())
	ctx, _ := newBrowser(t)
	openAndJoin(t, ctx, base+"/d/"+created.EditToken+"/validation", "Alice")
	do(t, ctx, "open the Validation step", chromedp.Navigate(base+"/d/"+created.EditToken+"/validation"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=all-findings]")))
	page := textOf(t, ctx, "main") + " " + textOf(t, ctx, "#aside")
	if strings.Contains(page, "Every rule is satisfied") {
		t.Fatal("a design of fifteen patterns and no table says every rule is satisfied")
	}
	finding := textOf(t, ctx, "#aside [data-code=MAP013]")
	if !strings.Contains(finding, "15 access patterns and no table yet") {
		t.Fatalf("the side panel's MAP013 says %q, want it to count the fifteen patterns nothing serves", finding)
	}
	do(t, ctx, "follow the finding", chromedp.Click(chromedp.CSS("#aside [data-code=MAP013] a")), chromedp.WaitVisible(chromedp.CSS("[data-testid=step-tables][aria-current=page]")))
}

// A relationship's counts take a decimal average and a count with its unit, show them back as
// typed, and keep them in the design and the requirements document; a fractional maximum is
// refused on its cell, saying why.
func TestBrowser_relationshipCountsTakeDecimalsAndUnits(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "entities": [{"name": "Customer", "attributes": []}, {"name": "Order", "attributes": []}],
		"relationships": [{"id": "r1", "from": "Customer", "to": "Order", "kind": "1:M"}]}`)
	page := base + "/d/" + created.EditToken + "/entities"
	ctx, errs := newBrowser(t)
	errs.expectFailedRequest(http.StatusUnprocessableEntity, "/relationships/field")
	openAndJoin(t, ctx, page, "Alice")
	avg, maxCount := "#"+elemID("relf", "r1", "avg_count"), "#"+elemID("relf", "r1", "max_count")
	do(t, ctx, "open the entities", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(avg)))

	typeOver(t, ctx, avg, "1.6")
	waitUntil(t, ctx, "the average saved", `document.querySelector("`+avg+`").getAttribute("value") === "1.6"`)
	typeOver(t, ctx, avg, "4 per year")
	waitUntil(t, ctx, "the average with its unit saved", `document.querySelector("`+avg+`").getAttribute("value") === "4 per year"`)
	typeOver(t, ctx, maxCount, "2.5")
	do(t, ctx, "see the fractional maximum refused", chromedp.WaitVisible(chromedp.CSS(maxCount+"-cell [data-testid=cell-error]")))
	if msg := textOf(t, ctx, maxCount+"-cell [data-testid=cell-error]"); !strings.Contains(msg, "whole number") {
		t.Fatalf("a maximum of 2.5 is refused with %q; want it to say a maximum is a whole number", msg)
	}
	typeOver(t, ctx, maxCount, "12 per year")
	waitUntil(t, ctx, "the maximum with its unit saved", `document.querySelector("`+maxCount+`").getAttribute("value") === "12 per year"`)

	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(avg)))
	got := get(t, ctx, "read the counts", chromedp.Evaluate[string](`document.querySelector("`+avg+`").value + " | " + document.querySelector("`+maxCount+`").value`))
	if got != "4 per year | 12 per year" {
		t.Fatalf("after a reload the counts read %q", got)
	}
	res, err := http.Get(base + "/api/designs/" + created.EditToken + "/export/requirements-md")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	md := string(body)
	if !strings.Contains(md, "1:Many (avg 4 per year, max 12 per year)") {
		t.Fatalf("the requirements document does not carry the counts with their units:\n%s", md)
	}
}

// A GSI added through the form projects its keys only unless ALL is chosen, and the form says why.
func TestBrowser_aNewIndexProjectsKeysOnly(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}]}`)
	page := base + "/d/" + created.EditToken + "/tables?table=Orders"
	ctx, _ := newBrowser(t)
	openAndJoin(t, ctx, page, "Alice")
	do(t, ctx, "open the table", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("[data-testid=add-index-form]")))
	if hint := textOf(t, ctx, "[data-testid=add-index-hint]"); !strings.Contains(hint, "Project only what you query") {
		t.Fatalf("the index form says %q; want it to say a new index projects only what is queried", hint)
	}
	do(t, ctx, "add a GSI as it comes",
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] [name=name]"), "ByStatus"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] [name=partition_key]"), "status:S"),
		chromedp.Click(chromedp.CSS("[data-testid=add-index]")),
		chromedp.WaitVisible(chromedp.CSS("#"+elemID("index", "Orders", "ByStatus"))))
	res, err := http.Get(base + "/api/designs/" + created.EditToken)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		Tables []struct {
			GSIs []struct {
				Name       string `json:"name"`
				Projection struct {
					Type string `json:"type"`
				} `json:"projection"`
			} `json:"gsis"`
		} `json:"tables"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Tables) != 1 || len(doc.Tables[0].GSIs) != 1 || doc.Tables[0].GSIs[0].Projection.Type != "KEYS_ONLY" {
		t.Fatalf("the new GSI is %+v; want ByStatus projecting KEYS_ONLY", doc.Tables)
	}
}

// An index's items left out are named by their key values, as the grid shows them, and the
// sparse finding names them the same way: never by the design's item ids (i2).
func TestBrowser_itemsLeftOutOfAnIndexAreNamedByTheirKeys(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"},
		"gsis": [{"name": "ByStatus", "partition_key": [{"name": "status", "type": "S"}], "projection": {"type": "KEYS_ONLY"}}],
		"items": [{"item": {"order_id": {"S": "o-1001"}, "status": {"S": "PAID"}}}, {"item": {"order_id": {"S": "o-1002"}}}]}]}`)
	page := base + "/d/" + created.EditToken + "/tables?table=Orders"
	ctx, _ := newBrowser(t)
	openAndJoin(t, ctx, page, "Alice")
	do(t, ctx, "open the table", chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS("[data-testid=index-excluded]")),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("[data-testid=index-excluded]").open = true`))
	left := textOf(t, ctx, "[data-testid=index-excluded] li")
	if !strings.Contains(left, "o-1002") || strings.Contains(left, "i2") {
		t.Fatalf("the item left out of ByStatus reads %q; want it named by its key o-1002, not its id", left)
	}
	finding := textOf(t, ctx, "#aside [data-code=MOD017]")
	if !strings.Contains(finding, `order_id = "o-1002"`) || strings.Contains(finding, "i2") {
		t.Fatalf("the sparse finding reads %q; want the item named by its key", finding)
	}
}

// A history diff names what changed in words a person knows ("operation 1, value :c"), not by
// the design's paths (mapping.operations[0].values.:c).
func TestBrowser_historyDiffNamesFieldsInWords(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	doc := func(value string) string {
		return `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}],
			"access_patterns": [{"id": "ap1", "number": 1, "description": "Get an order", "type": "read",
			"mapping": {"operations": [{"op": "GetItem", "table": "Orders", "key_condition": "order_id = :c", "values": {":c": {"S": "` + value + `"}}}]}}]}`
	}
	created := createOver(t, base, doc("o-1"))
	req, err := http.NewRequest(http.MethodPut, base+"/api/designs/"+created.EditToken, strings.NewReader(doc("o-2")))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("If-Match", "1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PUT: %d", res.StatusCode)
	}
	ctx, _ := newBrowser(t)
	page := base + "/d/" + created.EditToken + "/history/diff?from=1&to=2"
	openAndJoin(t, ctx, page, "Alice")
	do(t, ctx, "open the diff", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("[data-testid=diff-field]")))
	field := textOf(t, ctx, "[data-testid=diff-field] th")
	if field != "operation 1, value :c" {
		t.Fatalf("the diff names the changed field %q; want \"operation 1, value :c\"", field)
	}
}
