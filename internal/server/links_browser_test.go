package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A link reached the wrong people: the facilitator replaces it from the Share popover, and only
// the new link opens the design.
func TestBrowser_replaceTheViewLinkAndTheEditLinkFromTheSharePopover(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	editURL, editToken := createDesign(t, ctx, base, "Orders service", "Ada")

	openShareDialog(t, ctx)
	oldView := get(t, ctx, "read the view link", chromedp.Value(chromedp.CSS("[data-testid=view-link]")))
	do(t, ctx, "ask for a new view link",
		chromedp.Click(chromedp.CSS("[data-testid=rotate-view] summary")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=rotate-view-confirm]")),
	)
	if got := textOf(t, ctx, "[data-testid=rotate-view]"); !strings.Contains(got, "Everyone using the old view link loses access") {
		t.Fatalf("the confirmation says %q, not that the old link stops working", got)
	}
	do(t, ctx, "confirm the new view link",
		chromedp.Click(chromedp.CSS("[data-testid=rotate-view-confirm]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=share-notice]")),
	)
	newView := get(t, ctx, "read the new view link", chromedp.Value(chromedp.CSS("[data-testid=view-link]")))
	if newView == oldView || !strings.HasPrefix(newView, base+"/d/") || strings.Contains(newView, editToken) {
		t.Fatalf("after replacing it the view link is %q (was %q)", newView, oldView)
	}
	if !get(t, ctx, "check the popover", chromedp.Evaluate[bool](`document.querySelector("[data-testid=share-dialog]").matches(":popover-open")`)) {
		t.Fatal("the Share popover closed when the view link was replaced")
	}

	viewer, viewerErrs := newIsolatedTab(t, ctx)
	viewerErrs.expectFailedRequest(404, strings.TrimPrefix(oldView, base))
	do(t, viewer, "open the old view link",
		chromedp.Navigate(oldView),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=error-page]")),
	)
	if got := textOf(t, viewer, "[data-testid=error-page] h1"); got != "This link does not open a design" {
		t.Fatalf("the old view link shows %q", got)
	}
	do(t, viewer, "open the new view link",
		chromedp.Navigate(newView),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")),
	)
	if got := textOf(t, viewer, "[data-testid=design-title]"); got != "Orders service" {
		t.Fatalf("the new view link shows %q", got)
	}

	// A new edit link moves the facilitator's page to it.
	do(t, ctx, "ask for a new edit link",
		chromedp.Click(chromedp.CSS("[data-testid=rotate-edit] summary")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=rotate-edit-confirm]")),
		chromedp.Click(chromedp.CSS("[data-testid=rotate-edit-confirm]")),
	)
	// Polling in the page would fail as it navigates: ask for the address until it changes.
	var newEdit string
	for deadline := time.Now().Add(stepTimeout); newEdit == "" || newEdit == editURL; {
		if time.Now().After(deadline) {
			t.Fatalf("the page stayed at %q after a new edit link was made", editURL)
		}
		time.Sleep(50 * time.Millisecond)
		callCtx, cancel := context.WithTimeout(ctx, lookTimeout)
		newEdit, _ = chromedp.Run(callCtx, chromedp.Location())
		cancel()
	}
	do(t, ctx, "wait for the new edit page", chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")))
	if !editPath.MatchString(strings.TrimPrefix(newEdit, base)) || newEdit == editURL {
		t.Fatalf("after a new edit link the browser is at %q", newEdit)
	}
	openShareDialog(t, ctx)
	if got := get(t, ctx, "read the edit link", chromedp.Value(chromedp.CSS("[data-testid=edit-link]"))); got != newEdit {
		t.Fatalf("the Share popover shows the edit link %q, want the page's %q", got, newEdit)
	}
	if got := get(t, ctx, "read the view link", chromedp.Value(chromedp.CSS("[data-testid=view-link]"))); got != newView {
		t.Fatalf("a new edit link changed the view link to %q", got)
	}
	viewerErrs.expectFailedRequest(404, strings.TrimPrefix(editURL, base))
	do(t, viewer, "open the old edit link",
		chromedp.Navigate(editURL),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=error-page]")),
	)
}
