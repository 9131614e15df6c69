package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// liveUpdateBound is the longest a browser test lets an edit take to show on another page.
const liveUpdateBound = 5 * time.Second

// Tried as a new user would: paste 10,000 rows into a table, scroll, walk to the next page with
// the arrow key, go to an item by its key, edit its key cell, and see a second person's page show
// the edit (within a second on a quiet machine; the test logs how long).
func TestBrowser_paste10000RowsPageGoToAnItemAndEditItsKey(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "tables": [{"name": "Orders",
		"partition_key": {"name": "customer", "type": "S"}, "sort_key": {"name": "order", "type": "S"}}]}`)
	tablesURL := base + "/d/" + created.EditToken + "/tables"
	ada, _ := newBrowser(t)
	openAndJoin(t, ada, tablesURL, "Ada")

	// Five orders a customer: ten customers fill a page of 50 rows.
	var tsv strings.Builder
	tsv.WriteString("customer\torder\ttotal\n")
	for i := range 10000 {
		fmt.Fprintf(&tsv, "C%04d\tO%05d\t%d.50\n", i/5, i, i)
	}
	do(t, ada, "paste 10,000 rows",
		chromedp.SetValue(chromedp.CSS("[data-testid=paste-text]"), tsv.String()),
		chromedp.Click(chromedp.CSS("[data-testid=paste-submit]")),
	)
	waitUntil(t, ada, "10,000 items counted", `document.querySelector("[data-testid=item-count]").textContent === "10000"`)
	if at := textOf(t, ada, "[data-testid=item-grid] [data-testid=page-at]"); !strings.Contains(at, "Page 1 of 200") || !strings.Contains(at, "1–50 of 10000 items") {
		t.Fatalf("after the paste the grid says %q, want page 1 of 200, items 1–50", at)
	}
	if n := get(t, ada, "count rows", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=item-row]").length`)); n != 50 {
		t.Fatalf("the page shows %d rows, want 50", n)
	}
	if id := get(t, ada, "read the focus", chromedp.Evaluate[string](`document.activeElement.value`)); id != "C0000" {
		t.Fatalf("after the paste the focus is on %q, want the first pasted row's first cell", id)
	}

	// Scroll to the page's last row and walk down past it: the next page opens at its first row.
	do(t, ada, "scroll to the last row and press the down arrow",
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.body.scrollHeight)`),
		chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll("[data-testid=item-row]")).at(-1).querySelectorAll("input")[1].focus()`),
		chromedp.KeyEvent(kb.ArrowDown),
	)
	waitUntil(t, ada, "page 2 with its first row's order cell focused",
		`document.activeElement.value === "O00050" && location.search.includes("page=2")`)

	do(t, ada, "go to customer C0420's order O02102",
		chromedp.SendKeys(chromedp.CSS("[data-testid=goto-pk]"), "C0420"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=goto-sk]"), "O02102"),
		chromedp.Click(chromedp.CSS("[data-testid=goto-submit]")),
	)
	waitUntil(t, ada, "the item's row focused on page 43",
		`document.activeElement.value === "C0420" && document.activeElement.closest("tr").classList.contains("is-target") && location.search.includes("page=43")`)
	item := get(t, ada, "read the item's id", chromedp.Evaluate[string](`document.activeElement.closest("tr").dataset.item`))
	do(t, ada, "ask for an item no one has",
		chromedp.SetValue(chromedp.CSS("[data-testid=goto-pk]"), "C9999"),
		chromedp.Click(chromedp.CSS("[data-testid=goto-submit]")),
	)
	waitUntil(t, ada, "the go-to message naming the field", `(document.querySelector("[data-testid=goto-error]") || {}).textContent === 'customer: no item of Orders has the partition key "C9999"'`)

	bob, _ := newIsolatedTab(t, ada)
	openAndJoin(t, bob, tablesURL+"?table=Orders&page=43", "Bob")
	skCell := "#" + itemCellID("Orders", item, "order")
	do(t, bob, "see the item on Bob's page", chromedp.WaitVisible(chromedp.CSS(skCell)))

	// Both pages note the time by the same clock: Ada's when her save leaves the page (she has left
	// the cell), Bob's when his cell shows the new value.
	do(t, bob, "watch the cell", chromedp.Evaluate[chromedp.Void](`window.seenAt = 0;
		window.watch = setInterval(() => { const el = document.querySelector("`+skCell+`");
			if (el && el.value === "O02104x") { window.seenAt = Date.now(); clearInterval(window.watch) } }, 5)`))
	do(t, ada, "watch the save", chromedp.Evaluate[chromedp.Void](`window.sentAt = 0;
		document.addEventListener("htmx:beforeRequest", ev => { if (ev.detail.requestConfig.verb === "post" && !window.sentAt) window.sentAt = Date.now() })`))
	typeOver(t, ada, skCell, "O02104x")
	waitUntil(t, bob, "Bob's page to show the edit", `window.seenAt > 0`)
	sentAt := get(t, ada, "read when Ada's save left", chromedp.Evaluate[int64](`window.sentAt`))
	seenAt := get(t, bob, "read when Bob saw it", chromedp.Evaluate[int64](`window.seenAt`))
	took := time.Duration(seenAt-sentAt) * time.Millisecond
	t.Logf("Ada's key edit showed on Bob's page %v after her save left her page", took)
	// The aim is within a second, which this shows on a quiet machine (the log says how long it
	// took). Under the race detector on a loaded machine it has taken 1.4 s, so only a page stuck for
	// seconds fails here.
	if took > liveUpdateBound {
		t.Fatalf("Ada's key edit showed on Bob's page %v after her save left her page; want well within %v", took, liveUpdateBound)
	}
	waitUntil(t, ada, "Ada's grid to show the moved row", `document.querySelector("`+skCell+`").getAttribute("value") === "O02104x"`)
	order := get(t, bob, "read the partition's order on Bob's page", chromedp.Evaluate[string](
		`Array.from(document.querySelectorAll("tbody[data-partition=C0420] [data-testid=item-row]")).map(r => r.querySelectorAll("input")[1].value).join(" ")`))
	if order != "O02100 O02101 O02103 O02104 O02104x" {
		t.Fatalf("Bob's page lists C0420's orders as %q; the edited one sorts last", order)
	}
}
