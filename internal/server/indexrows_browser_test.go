package server

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// An item cell edit changes an index grid as little as it changed the index: an attribute that
// is no key of the index changes the item's row in place (the grid itself stays, in the editor's
// tab and in a second tab watching), and an index key moves the item's entry to where the index
// now sorts it, in both tabs.
func TestBrowser_itemEditChangesItsIndexRowAndMovesItsEntry(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, errs := newBrowser(t)
	t.Cleanup(func() { errs.check(t, "the editor's tab") })
	editURL, _ := createDesign(t, ctx, base, "Orders", "Ada")
	do(t, ctx, "add a table",
		chromedp.Navigate(editURL+"/tables"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=new-table-name]"), "Orders"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=new-table-pk]"), "order_id"),
		chromedp.Click(chromedp.CSS("[data-testid=add-table]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=item-grid]")),
	)
	do(t, ctx, "add a GSI on status, sorted by order, projecting everything",
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] input[name=name]"), "ByStatus"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] input[name=partition_key]"), "status:S"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] input[name=sort_key]"), "order_id:S"),
		chromedp.SetValue(chromedp.CSS("[data-testid=add-index-projection]"), "ALL"),
		chromedp.Click(chromedp.CSS("[data-testid=add-index]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=index-grid][data-index=ByStatus]")),
	)
	do(t, ctx, "paste four orders",
		chromedp.SetValue(chromedp.CSS("[data-testid=paste-text]"), "order_id\tstatus\ttotal\nO1\tOPEN\t10\nO2\tSHIPPED\t20\nO3\tOPEN\t30\nO4\tSHIPPED\t40\n"),
		chromedp.Click(chromedp.CSS("[data-testid=paste-submit]")),
	)
	const grid = `document.querySelector("[data-testid=index-grid][data-index=ByStatus]")`
	// Each entry as the grid shows it: status, order_id, total.
	const entries = `Array.from(` + grid + `.querySelectorAll("[data-testid=index-row]")).map(r => Array.from(r.cells).slice(0, 3).map(c => c.textContent).join(" "))`
	waitUntil(t, ctx, "four entries in ByStatus", entries+`.length === 4`)

	// A second tab of the same person watches the step.
	secondErrs := &pageErrors{}
	second, cancel := chromedp.NewContext(ctx, chromedp.WithListener(secondErrs.listen))
	t.Cleanup(cancel)
	if err := chromedp.Do(second); err != nil {
		t.Fatalf("open a second tab: %v", err)
	}
	t.Cleanup(func() { secondErrs.check(t, "the second tab") })
	do(t, second, "open the tables step in a second tab",
		chromedp.Navigate(editURL+"/tables"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=index-grid][data-index=ByStatus]")),
	)
	tabs := []struct {
		name string
		ctx  context.Context
	}{{"the editor's tab", ctx}, {"the second tab", second}}
	mark := grid + `.dynaloomKept = true`
	for _, tab := range tabs {
		do(t, tab.ctx, "mark the grid in "+tab.name, chromedp.Evaluate[chromedp.Void](mark))
	}
	// See waits until every tab shows the entries want, and reports whether each kept its grid.
	see := func(what string, want []string) (kept []bool) {
		t.Helper()
		js := `JSON.stringify(` + entries + `) === ` + "`" + `["` + strings.Join(want, `","`) + `"]` + "`"
		for _, tab := range tabs {
			wait, cancel := context.WithTimeout(tab.ctx, stepTimeout)
			_, err := chromedp.Run(wait, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(stepTimeout)))
			cancel()
			if err != nil {
				t.Fatalf("%s in %s: %v; it shows %v, want %v", what, tab.name, err, get(t, tab.ctx, "read the entries", chromedp.Evaluate[[]string](entries)), want)
			}
			kept = append(kept, get(t, tab.ctx, "look at the grid in "+tab.name, chromedp.Evaluate[bool](grid+`.dynaloomKept === true`)))
		}
		return kept
	}
	cell := func(order, attr string) string {
		return get(t, ctx, "find "+attr+" of "+order, chromedp.Evaluate[string](`(() => {
			const row = Array.from(document.querySelectorAll("[data-testid=item-row]")).find(r => r.querySelector("input").value === "`+order+`");
			return "#" + CSS.escape(row.querySelector("input[aria-label^='`+attr+` of item']").id) })()`))
	}

	// total is no key of ByStatus: O3's row changes where it is, and the grid around it stays.
	typeOver(t, ctx, cell("O3", "total"), "99")
	if kept := see("O3's new total", []string{"OPEN O1 10", "OPEN O3 99", "SHIPPED O2 20", "SHIPPED O4 40"}); !slices.Equal(kept, []bool{true, true}) {
		t.Errorf("a total edited redrew the whole index grid (kept in the editor's tab, the second: %v); want its row alone", kept)
	}
	// status is ByStatus's partition key: O1 moves from the first entry to the last.
	typeOver(t, ctx, cell("O1", "status"), "WAITING")
	see("O1 moved to the end", []string{"OPEN O3 99", "SHIPPED O2 20", "SHIPPED O4 40", "WAITING O1 10"})
	// And back to the front, past every other entry.
	typeOver(t, ctx, cell("O1", "status"), "ARCHIVED")
	see("O1 moved to the front", []string{"ARCHIVED O1 10", "OPEN O3 99", "SHIPPED O2 20", "SHIPPED O4 40"})
	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("[data-testid=index-grid][data-index=ByStatus]")))
	if got := get(t, ctx, "read the entries after a reload", chromedp.Evaluate[[]string](entries)); !slices.Equal(got, []string{"ARCHIVED O1 10", "OPEN O3 99", "SHIPPED O2 20", "SHIPPED O4 40"}) {
		t.Fatalf("after a reload ByStatus shows %v", got)
	}
}
