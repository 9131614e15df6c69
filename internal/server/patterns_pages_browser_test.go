package server

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// Enter on the last row of a page of patterns opens the next page at its first row, in the same
// column, and Shift+Enter there goes back to the previous page's last row; the address follows.
func TestBrowser_enterPastAPageOfPatternsTurnsThePage(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, errs := newBrowser(t)
	raw, err := designer.MarshalJSON(designertest.Large(designertest.Size{Tables: 1, Items: 10, Patterns: 60}))
	if err != nil {
		t.Fatal(err)
	}
	created := createOver(t, base, string(raw))
	openAndJoin(t, ctx, base+"/d/"+created.EditToken+"/patterns", "Ada")

	do(t, ctx, "press Enter in the description of pattern 50",
		chromedp.WaitVisible(chromedp.CSS(`tr[data-number="50"] textarea`)),
		chromedp.Focus(chromedp.CSS(`tr[data-number="50"] textarea`)),
		chromedp.KeyEvent(kb.Enter),
	)
	waitUntil(t, ctx, "page 2 with pattern 51's description focused",
		`document.activeElement && document.activeElement.closest('tr[data-number="51"]') !== null &&
		 document.activeElement.tagName === "TEXTAREA" && location.search.includes("page=2")`)
	if n := get(t, ctx, "count the rows", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=pattern-row]").length`)); n != 10 {
		t.Fatalf("page 2 shows %d patterns, want 10", n)
	}

	do(t, ctx, "press Shift+Enter there", chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)))
	waitUntil(t, ctx, "page 1 with pattern 50's description focused",
		`document.activeElement && document.activeElement.closest('tr[data-number="50"]') !== null && location.search.includes("page=1")`)
	errs.check(t, "the page")
}
