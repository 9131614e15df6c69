package server

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// A facilitator opens the history, looks at the design as it was before a rename, and restores
// that revision: it becomes the newest, and the rename stays in the history.
func TestBrowser_historyViewAndRestoreARevision(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	createDesign(t, ctx, base, "Orders service", "Ada")
	typeOver(t, ctx, "#field-name-input", "Orders v2")
	do(t, ctx, "wait for the rename to save",
		chromedp.WaitVisible(chromedp.CSS("#field-name [data-testid=field-saved]")))

	do(t, ctx, "open the history",
		chromedp.Click(chromedp.CSS("[data-testid=step-history]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=history]")),
	)
	rows := get(t, ctx, "count the revisions", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=revision-row]").length`))
	if rows != 2 {
		t.Fatalf("the history lists %d revisions, want 2 (created, renamed)", rows)
	}
	if got := textOf(t, ctx, "[data-testid=revision-row] [data-testid=revision-summary]"); !strings.Contains(got, "Orders v2") {
		t.Fatalf("the newest entry reads %q, want the rename", got)
	}
	if got := textOf(t, ctx, "[data-testid=revision-row] [data-testid=revision-author]"); got != "Ada" {
		t.Fatalf("the newest entry is by %q, want Ada", got)
	}

	// Revision 1 was made before Ada gave her name: it is in a group of its own, closed.
	do(t, ctx, "open the group of revision 1 and view it",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-revision="1"]').closest("details").querySelector("summary").click()`),
		chromedp.Click(chromedp.CSS(`[data-revision="1"] [data-testid=view-revision]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=past-banner]")),
	)
	if got := textOf(t, ctx, "[data-testid=past-banner]"); !strings.Contains(got, "Revision 1 of 2") || !strings.Contains(got, "read-only") {
		t.Fatalf("the banner reads %q", got)
	}
	if got := textOf(t, ctx, "[data-testid=design-title]"); got != "Orders service" {
		t.Fatalf("revision 1 shows the name %q, want the name before the rename", got)
	}
	if get(t, ctx, "look for edit controls", chromedp.Evaluate[bool](`document.querySelector("#main input[name=value], #main textarea, #field-name-input") !== null`)) {
		t.Fatal("a past revision shows edit controls")
	}

	// The restore asks for confirmation (hx-confirm opens the browser's dialog): accept it.
	go func() {
		for ev, err := range chromedp.Events(ctx, page.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			if !strings.Contains(ev.Message, "Restore revision 1") {
				t.Errorf("the confirmation reads %q", ev.Message)
			}
			if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
				return
			}
		}
	}()
	do(t, ctx, "restore revision 1 from its banner",
		chromedp.Click(chromedp.CSS("[data-testid=past-banner] [data-testid=restore-revision]")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=history] [data-revision="3"]`)),
	)
	if got := textOf(t, ctx, `[data-revision="3"] [data-testid=revision-summary]`); got != "Restored revision 1" {
		t.Fatalf("the newest entry reads %q, want the restore", got)
	}
	if got := textOf(t, ctx, "[data-testid=design-title]"); got != "Orders service" {
		t.Fatalf("after the restore the top bar shows %q, want the name of revision 1", got)
	}
	if got := textOf(t, ctx, `[data-revision="2"] [data-testid=revision-summary]`); !strings.Contains(got, "Orders v2") {
		t.Fatalf("the rename left the history: %q", got)
	}
}
