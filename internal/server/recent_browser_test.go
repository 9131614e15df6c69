package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The list keeps the 20 designs opened last: opening another drops the oldest. Each says when it
// was opened: how long ago within the week, the date after that.
func TestBrowser_recentDesignsKeepTwenty(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	orders := createOver(t, base, `{"name": "Orders service"}`)
	do(t, ctx, "open the start page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=new-design-form]")))
	// Twenty designs opened a day ago and before, the oldest last.
	get(t, ctx, "fill the list", chromedp.Evaluate[bool](`(() => {
		const list = [];
		for (let i = 0; i < 20; i++) list.push({href: "/d/" + "old" + String(i).padStart(19, "0"), name: "Old " + i, kind: "view", at: Date.now() - (i + 1) * 86400e3});
		localStorage.setItem("dynaloom-designs", JSON.stringify(list));
		return true;
	})()`))
	do(t, ctx, "open Orders service", chromedp.Navigate(base+"/d/"+orders.ViewToken), chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")))
	do(t, ctx, "go to the start page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
	names := get(t, ctx, "read the names", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("[data-testid=opened-link]")).map(a => a.textContent)`))
	if len(names) != 20 || names[0] != "Orders service" || names[19] != "Old 18" || strings.Contains(strings.Join(names, "|"), "Old 19") {
		t.Fatalf("the list holds %q, want Orders service and Old 0 to Old 18", names)
	}
	when := get(t, ctx, "read when each was opened", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("[data-testid=opened-at]")).map(el => el.textContent)`))
	day := get(t, ctx, "read the day of Old 18", chromedp.Evaluate[int](`new Date(Date.now() - 19 * 86400e3).getDate()`))
	if when[0] != "opened just now" || when[1] != "opened 1 day ago" || when[6] != "opened 6 days ago" ||
		strings.Contains(when[19], "ago") || !strings.Contains(when[19], " "+strconv.Itoa(day)) {
		t.Fatalf("the designs say they were opened %q", when)
	}
}
