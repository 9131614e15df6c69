package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The list keeps the 20 designs opened last: opening another drops the oldest.
func TestBrowser_recentDesignsKeepTwenty(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	orders := createOver(t, base, `{"name": "Orders service"}`)
	do(t, ctx, "open the start page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=new-design-form]")))
	// Twenty designs opened an hour ago and before, the oldest last.
	get(t, ctx, "fill the list", chromedp.Evaluate[bool](`(() => {
		const list = [];
		for (let i = 0; i < 20; i++) list.push({href: "/d/" + "old" + String(i).padStart(19, "0"), name: "Old " + i, kind: "view", at: Date.now() - (i + 1) * 3600e3});
		localStorage.setItem("dynaloom-designs", JSON.stringify(list));
		return true;
	})()`))
	do(t, ctx, "open Orders service", chromedp.Navigate(base+"/d/"+orders.ViewToken), chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")))
	do(t, ctx, "go to the start page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
	names := get(t, ctx, "read the names", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("[data-testid=opened-link]")).map(a => a.textContent)`))
	if len(names) != 20 || names[0] != "Orders service" || names[19] != "Old 18" || strings.Contains(strings.Join(names, "|"), "Old 19") {
		t.Fatalf("the list holds %q, want Orders service and Old 0 to Old 18", names)
	}
}
