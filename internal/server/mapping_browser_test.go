package server

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// mappingDesign is one table of orders and one read pattern to prove against them: customer c1 has
// two open orders and a shipped one, customer c2 one open order.
const mappingDesign = `{"name": "Orders",
	"access_patterns": [{"number": 1, "description": "Open orders of a customer", "type": "read", "peak_rps": 50, "avg_rps": 10}],
	"tables": [{"name": "Orders", "partition_key": {"name": "customer", "type": "S"}, "sort_key": {"name": "order_date", "type": "S"},
		"attributes": [{"name": "status", "type": "S"}],
		"items": [
			{"id": "o1", "item": {"customer": {"S": "c1"}, "order_date": {"S": "2026-01-05"}, "status": {"S": "OPEN"}}},
			{"id": "o2", "item": {"customer": {"S": "c1"}, "order_date": {"S": "2026-02-10"}, "status": {"S": "SHIPPED"}}},
			{"id": "o3", "item": {"customer": {"S": "c1"}, "order_date": {"S": "2026-03-15"}, "status": {"S": "OPEN"}}},
			{"id": "o4", "item": {"customer": {"S": "c2"}, "order_date": {"S": "2026-01-20"}, "status": {"S": "OPEN"}}}]}]}`

// A new user proves a pattern in the Mapping step: maps it to a Query, meets DynamoDB's
// reserved-word error and fixes it, marks the items it must return by clicking them, and sees the
// verdict and the findings turn, without a reload, when someone else changes a sample item.
func TestBrowser_mapAPatternMarkItsResultAndSeeAnItemEditBreakIt(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, mappingDesign)
	editURL := base + "/d/" + created.EditToken
	const pid = "ap1" // the id the first pattern of a new design is given
	card := "#" + elemID("map", pid)
	field := func(name string) string { return "#" + elemID("opf", pid, "0", name) }

	ada, _ := newBrowser(t)
	openAndJoin(t, ada, editURL+"/mapping", "Ada")
	if at := get(t, ada, "read the location", chromedp.Location()); !strings.HasSuffix(at, "/mapping") {
		t.Fatalf("after joining Ada is at %s, not back on the Mapping step", at)
	}
	do(t, ada, "open the pattern's card",
		chromedp.Click(chromedp.CSS(card+" [data-testid=mapping-summary]")),
		chromedp.WaitVisible(chromedp.CSS(card+" [data-testid=add-operation]")),
	)
	do(t, ada, "add an operation",
		chromedp.Click(chromedp.CSS(card+" [data-testid=add-operation]")),
		chromedp.WaitVisible(chromedp.CSS(field("op"))),
	)
	choose(t, ada, field("table"), "Orders")
	typeOver(t, ada, field("key_condition"), "customer = :c")
	typeOver(t, ada, field("values"), ":c=c1, :open=OPEN")
	typeOver(t, ada, field("filter"), "status = :open")
	waitUntil(t, ada, "DynamoDB's reserved-word error", `document.querySelector("`+card+`").textContent.includes("reserved keyword: status")`)

	typeOver(t, ada, field("names"), "#s=status")
	typeOver(t, ada, field("filter"), "#s = :open")
	waitUntil(t, ada, "the Query's result", `document.querySelector("`+card+` [data-testid=result]").textContent.includes("2 returned · 3 read")`)
	const returned = `[data-testid=result-row].returned`
	if n := get(t, ada, "count returned rows", chromedp.Evaluate[int](`document.querySelectorAll("`+card+` `+returned+`").length`)); n != 2 {
		html := get(t, ada, "dump", chromedp.Evaluate[string](`document.querySelector("`+card+`").outerHTML`))
		t.Fatalf("%d rows are marked returned, want c1's two open orders\n%s", n, html)
	}

	// Mark both returned orders as what the pattern must return, one click each.
	for i := range 2 {
		do(t, ada, "mark a returned order as expected",
			chromedp.Click(chromedp.CSS(card+" "+returned+":not(.expected) [data-testid=toggle-expected]")),
		)
		waitUntil(t, ada, "the mark to be saved", `document.querySelectorAll("`+card+` `+returned+`.expected").length === `+itoa(i+1))
	}
	waitUntil(t, ada, "the verdict to pass", `!!document.querySelector("`+card+` [data-testid=result][data-verdict=pass]")`)
	waitUntil(t, ada, "the card's summary to say it is proved", `document.querySelector("`+card+` [data-testid=mapping-verdict]").textContent.trim() === "✓ proved"`)
	if at := get(t, ada, "read the location", chromedp.Location()); !strings.HasSuffix(at, "/mapping?open="+pid) {
		t.Fatalf("with the card open the address is %s; it should list the open card", at)
	}
	do(t, ada, "mark the page", chromedp.Evaluate[chromedp.Void](`window.dynaloomNoReload = true`))

	// Bob ships order o3 in the Tables step.
	bob, _ := newIsolatedTab(t, ada)
	openAndJoin(t, bob, editURL+"/tables", "Bob")
	do(t, bob, "see the item grid", chromedp.WaitVisible(chromedp.CSS("[data-testid=item-grid]")))
	typeOver(t, bob, "#"+itemCellID("Orders", "o3", "status"), "SHIPPED")

	waitUntil(t, ada, "Ada's verdict to fail", `!!document.querySelector("`+card+` [data-testid=result][data-verdict=fail]")`)
	if got := textOf(t, ada, card+" [data-testid=mapping-verdict]"); got != "✗ fails" {
		t.Fatalf("after the edit the card's summary says %q, want ✗ fails", got)
	}
	if got := textOf(t, ada, card+" [data-testid=result] .result-summary"); !strings.Contains(got, "1 returned · 3 read") {
		t.Fatalf("after the edit the result says %q, want 1 returned of 3 read", got)
	}
	waitUntil(t, ada, "the MAP009 finding in the panel", `document.querySelector("[data-testid=findings]").textContent.includes("MAP009")`)
	if !get(t, ada, "read the mark", chromedp.Evaluate[bool](`window.dynaloomNoReload === true`)) {
		t.Fatal("Ada's page reloaded; the result should change in place")
	}
}

// choose picks an option of a select the way a change from the keyboard or mouse does, and waits
// for htmx to finish the save it starts.
func choose(t *testing.T, ctx context.Context, css, value string) {
	t.Helper()
	do(t, ctx, "choose "+value+" in "+css,
		chromedp.SetValue(chromedp.CSS(css), value),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("`+css+`").dispatchEvent(new Event("change", {bubbles: true}))`),
	)
	waitUntil(t, ctx, "the choice to be saved", `document.querySelectorAll(".htmx-request").length === 0 && document.querySelector("`+css+`").value === "`+value+`"`)
}
