package server

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A comment on a pattern, from the keyboard: the button opens the thread panel, the count follows
// the thread, and resolving it brings the count back to nothing.
func TestBrowser_commentOnAPatternReplyAndResolve(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	editURL, _ := createDesign(t, ctx, base, "Orders", "Ada")
	const badge = "[data-testid=pattern-row] [data-testid=comment-badge]"
	do(t, ctx, "add an access pattern",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.Click(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.WaitVisible(chromedp.CSS(badge)),
	)
	count := func() string {
		return get(t, ctx, "read the comment count", chromedp.AttributeValue(chromedp.CSS(badge), "data-count")).Value
	}
	if n := count(); n != "0" {
		t.Fatalf("a new pattern's comment button counts %s", n)
	}

	do(t, ctx, "open the pattern's comments with the keyboard",
		chromedp.Focus(chromedp.CSS(badge)),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=comments-thread] [data-testid=comment-new] textarea")),
	)
	waitUntil(t, ctx, "the comments panel to be open with the new-comment box focused",
		`document.querySelector("#comments-panel").matches(":popover-open") && document.activeElement && document.activeElement.closest("[data-testid=comment-new]") !== null`)
	do(t, ctx, "write a comment",
		chromedp.KeyEvent("Is this read <hot>?"),
		chromedp.Click(chromedp.CSS("[data-testid=comment-new-submit]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=comment-body]")),
	)
	if got := textOf(t, ctx, "[data-testid=comment-body]"); got != "Is this read <hot>?" {
		t.Errorf("the comment reads %q", got)
	}
	waitUntil(t, ctx, "the count to become 1", `document.querySelector("`+badge+`").dataset.count === "1"`)
	if got := textOf(t, ctx, badge+" [data-testid=comment-count]"); got != "1" {
		t.Errorf("the button shows %q, want 1", got)
	}

	do(t, ctx, "reply",
		chromedp.SendKeys(chromedp.CSS("[data-testid=comment-reply] textarea"), "Yes, at month end."),
		chromedp.Click(chromedp.CSS("[data-testid=comment-reply-submit]")),
	)
	waitUntil(t, ctx, "the reply to show", `document.querySelectorAll("[data-testid=comment-body]").length === 2`)
	waitUntil(t, ctx, "the count to become 2", `document.querySelector("`+badge+`").dataset.count === "2"`)

	do(t, ctx, "resolve the thread",
		chromedp.Click(chromedp.CSS("[data-testid=comment-resolve]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=comment-thread][data-resolved=true]")),
	)
	waitUntil(t, ctx, "the count to become 0", `document.querySelector("`+badge+`").dataset.count === "0"`)
	waitUntil(t, ctx, "the button to show no number", `document.querySelector("`+badge+` [data-testid=comment-count]") === null`)

	do(t, ctx, "close the panel with Escape",
		chromedp.KeyEvent(kb.Escape),
	)
	waitUntil(t, ctx, "the panel to close", `!document.querySelector("#comments-panel").matches(":popover-open")`)
	do(t, ctx, "reload and see the count kept", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(badge)))
	if n := count(); n != "0" {
		t.Errorf("after a reload the count is %s, want 0", n)
	}
}
