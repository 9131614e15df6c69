package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// recentRow is one design of the start page's list as the browser shows it.
type recentRow struct{ Name, Title, Kind, Href string }

const recentRows = `Array.from(document.querySelectorAll("[data-testid=opened-design]")).map(li => ({
	Name: li.querySelector("[data-testid=opened-link]").textContent,
	Title: li.querySelector("[data-testid=opened-link]").title,
	Kind: li.querySelector("[data-testid=opened-kind]").textContent,
	Href: li.querySelector("[data-testid=opened-link]").getAttribute("href")}))`

// A facilitator finds the workshop again on the start page: the designs this browser opened,
// newest first, by the name they have now (a rename seen live, or on the next visit), with the
// kind of link; a past revision counts as opening its design; one click forgets an entry, for
// good; a name is text, never markup.
func TestBrowser_recentDesignsKeepTheirNamesAndForgetInAClick(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	const markup = "<img src=x onerror=alert(1)>"
	_, token := createDesign(t, ctx, base, markup, "Ada")
	orders := createOver(t, base, `{"name": "Orders service"}`)
	ordersView := "/d/" + orders.ViewToken

	// On a step, which records the design's link (/d/<token>) as well.
	do(t, ctx, "open Orders service with its view link", chromedp.Navigate(base+ordersView+"/patterns"), chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")))
	changeAs(t, base, orders.EditToken, "Bob", "set_name", `{"name": "Orders service v2"}`)
	waitUntil(t, ctx, "the live rename to reach the top bar", `document.querySelector("[data-testid=design-title]").textContent.trim() === "Orders service v2"`)
	waitUntil(t, ctx, "the live rename to reach the list while the page stays open",
		`JSON.parse(localStorage.getItem("dynaloom-designs")).some(d => d.href === `+jsString(ordersView)+` && d.name === "Orders service v2")`)

	home := func(what string) []recentRow {
		t.Helper()
		do(t, ctx, what, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
		return get(t, ctx, "read the list", chromedp.Evaluate[[]recentRow](recentRows))
	}
	expect := func(got []recentRow, want ...recentRow) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("the start page lists %+v, want %+v", got, want)
		}
		for i := range want {
			want[i].Title = want[i].Name
			if got[i] != want[i] {
				t.Fatalf("row %d is %+v, want %+v", i+1, got[i], want[i])
			}
		}
	}
	expect(home("go to the start page"),
		recentRow{Name: "Orders service v2", Kind: "view link", Href: ordersView},
		recentRow{Name: markup, Kind: "edit link", Href: "/d/" + token})
	if n := get(t, ctx, "look for markup in the list", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=opened-list] img").length`)); n != 0 {
		t.Fatal("a design's name became markup in the list")
	}

	// Renamed while nobody here looked, the design shows its new name once it is opened again.
	const checkout = "Checkout <b>v2</b>"
	changeAs(t, base, token, "Bob", "set_name", `{"name": "Checkout <b>v2</b>"}`)
	do(t, ctx, "open the renamed design again", chromedp.Navigate(base+"/d/"+token), chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")))
	expect(home("go to the start page after the visit"),
		recentRow{Name: checkout, Kind: "edit link", Href: "/d/" + token},
		recentRow{Name: "Orders service v2", Kind: "view link", Href: ordersView})

	// A past revision, which shows the name before the rename, lists the design's link by its
	// name of now.
	do(t, ctx, "open Orders service, then revision 1 of the renamed design",
		chromedp.Navigate(base+ordersView), chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")),
		chromedp.Navigate(base+"/d/"+token+"/history/1/patterns"), chromedp.WaitVisible(chromedp.CSS("[data-testid=past-banner]")))
	// The page may be drawn again as it hears of the newer revision: ask for its title, not a node.
	waitUntil(t, ctx, "revision 1 to show the name before the rename", `document.querySelector("[data-testid=design-title]").textContent.trim() === `+jsString(markup))
	expect(home("go to the start page after the past revision"),
		recentRow{Name: checkout, Kind: "edit link", Href: "/d/" + token},
		recentRow{Name: "Orders service v2", Kind: "view link", Href: ordersView})

	do(t, ctx, "forget Orders service",
		chromedp.Click(chromedp.CSS(`[data-testid=forget-design][data-forget="`+ordersView+`"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-forget="`+ordersView+`"]`)))
	do(t, ctx, "reload the start page", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
	expect(get(t, ctx, "read the list", chromedp.Evaluate[[]recentRow](recentRows)),
		recentRow{Name: checkout, Kind: "edit link", Href: "/d/" + token})
}

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
