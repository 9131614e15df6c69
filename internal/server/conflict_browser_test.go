package server

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// One person, one display name, two tabs on the same field. The first tab's event stream is held
// up, so it saves from the revision it began at without having seen the second tab's save: the
// server refuses it as a conflict, the page offers the choice, and "keep mine" saves it.
func TestBrowser_twoTabsOfOneNameSavingOneFieldGetTheConflictChoice(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	first, firstErrs := newBrowser(t)
	editURL, _ := createDesign(t, first, base, "Orders", "Sam")
	const desc = "tr[data-number='1'] [id$='-description']"
	do(t, first, "add a pattern",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.Click(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.WaitVisible(chromedp.CSS(desc)),
	)
	// A stream that never connects stands for a slow network: this tab learns of no other change,
	// and the server does not know the tab is here.
	firstErrs.expectFailedRequest(400, "/presence")
	firstErrs.expectFailedRequest(409, "/patterns/field")
	if _, err := chromedp.Call(first, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/events?*"}}}); err != nil {
		t.Fatalf("hold up the first tab's event stream: %v", err)
	}
	do(t, first, "reload the first tab",
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS(desc)),
	)

	// A new tab of the same browser context: the same cookies, so the same name, but its own
	// session storage, so its own tab id.
	secondErrs := &pageErrors{}
	second, cancel := chromedp.NewContext(first, chromedp.WithListener(secondErrs.listen))
	t.Cleanup(cancel)
	// The first run binds the tab's life to the context it runs with: not a step's.
	if err := chromedp.Do(second); err != nil {
		t.Fatalf("open a second tab: %v", err)
	}
	t.Cleanup(func() { secondErrs.check(t, "second tab") })
	do(t, second, "open the patterns in a second tab, as the same person",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS(desc)),
	)
	if got := textOf(t, second, "[data-testid=participant]"); !strings.Contains(got, "Sam") {
		t.Fatalf("the second tab is %q, want Sam", got)
	}

	do(t, first, "start typing in the first tab",
		chromedp.Focus(chromedp.CSS(desc)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent("First tab's wording"),
	)
	typeOver(t, second, desc, "Second tab's wording")
	waitUntil(t, second, "the second tab's save to answer", `document.querySelector("[data-testid=aside]").dataset.revision === "3"`)

	do(t, first, "leave the field and see the conflict choice",
		chromedp.KeyEvent(kb.Tab),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=conflict]")),
	)
	if msg := textOf(t, first, "[data-testid=conflict]"); !strings.Contains(msg, "Sam") || !strings.Contains(msg, "First tab's wording") {
		t.Fatalf("the conflict says %q; want who changed it and what this tab typed", msg)
	}
	do(t, first, "keep mine",
		chromedp.Click(chromedp.CSS("[data-testid=conflict-keep]")),
		chromedp.WaitNotPresent(chromedp.CSS("[data-testid=conflict]")),
	)
	waitUntil(t, second, "the kept wording to reach the second tab", `document.querySelector("`+desc+`").value === "First tab's wording"`)
	do(t, first, "reload the first tab", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(desc)))
	if got := get(t, first, "read the description", chromedp.Evaluate[string](`document.querySelector("`+desc+`").value`)); got != "First tab's wording" {
		t.Fatalf("after keep mine the description is %q", got)
	}
}
