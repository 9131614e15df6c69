package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The home page lists the designs opened in this browser, newest first, with the kind of link
// each was opened with; forgetting one drops it for good; the list is drawn from the browser's
// own storage, so neither the server's page nor any request carries the links.
func TestBrowser_homeListsTheDesignsOpenedInThisBrowser(t *testing.T) {
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	orders := createOver(t, base, `{"name": "Orders <b>v2</b>"}`)
	hr := createOver(t, base, `{"example": "hr-employees"}`)
	hrName := hr.Name

	do(t, ctx, "open the home page of a browser that has opened nothing", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=new-design-form]")))
	if get(t, ctx, "is the list shown", chromedp.Evaluate[bool](`!document.querySelector("[data-testid=opened-designs]").hidden`)) {
		t.Fatal("a browser that opened no design shows a list of designs")
	}

	openAndJoin(t, ctx, base+"/d/"+orders.EditToken, "Ada")
	do(t, ctx, "open the HR design with its view link", chromedp.Navigate(base+"/d/"+hr.ViewToken+"/patterns"), chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")))

	var mu sync.Mutex
	var leaks []string
	home, stopListening := context.WithCancel(ctx)
	defer stopListening()
	if err := chromedp.Listen(home, func(ev any) {
		if req, ok := ev.(*network.EventRequestWillBeSent); ok {
			for _, tok := range []string{orders.EditToken, hr.ViewToken} {
				if strings.Contains(req.Request.URL, tok) || strings.Contains(fmt.Sprint(req.Request.Headers), tok) {
					mu.Lock()
					leaks = append(leaks, req.Request.URL)
					mu.Unlock()
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "go home", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
	type row struct{ Name, Kind, At, Href string }
	const rows = `Array.from(document.querySelectorAll("[data-testid=opened-design]")).map(li => ({
		Name: li.querySelector("[data-testid=opened-link]").textContent,
		Kind: li.querySelector("[data-testid=opened-kind]").textContent,
		At: li.querySelector("[data-testid=opened-at]").textContent,
		Href: li.querySelector("[data-testid=opened-link]").getAttribute("href")}))`
	got := get(t, ctx, "read the list", chromedp.Evaluate[[]row](rows))
	want := []row{
		{hrName, "view link", "opened just now", "/d/" + hr.ViewToken},
		{"Orders <b>v2</b>", "edit link", "opened just now", "/d/" + orders.EditToken},
	}
	if len(got) != len(want) {
		t.Fatalf("the home page lists %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d is %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := get(t, ctx, "count markup in the list", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=opened-list] b").length`)); n != 0 {
		t.Fatal("a design's name became markup in the list")
	}

	// The server's home page knows nothing of them.
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(page), orders.EditToken) || strings.Contains(string(page), hr.ViewToken) || strings.Contains(string(page), "Orders &lt;b&gt;") {
		t.Fatal("the server's home page holds a link or a name of a design this browser opened")
	}

	do(t, ctx, "forget the HR design",
		chromedp.Click(chromedp.CSS(`[data-testid=forget-design][data-forget="/d/`+hr.ViewToken+`"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-forget="/d/`+hr.ViewToken+`"]`)),
	)
	do(t, ctx, "reload the home page", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
	if got := get(t, ctx, "read the list", chromedp.Evaluate[[]row](rows)); len(got) != 1 || got[0].Href != "/d/"+orders.EditToken {
		t.Fatalf("after forgetting the HR design the list is %+v", got)
	}
	stopListening()
	do(t, ctx, "open the design from the list", chromedp.Click(chromedp.CSS("[data-testid=opened-link]")), chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")))
	if title := textOf(t, ctx, "[data-testid=design-title]"); title != "Orders <b>v2</b>" {
		t.Fatalf("the link opened %q", title)
	}
	do(t, ctx, "go home and forget them all",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=forget-all]")),
		chromedp.Click(chromedp.CSS("[data-testid=forget-all]")),
		chromedp.WaitNotVisible(chromedp.CSS("[data-testid=opened-designs]")),
	)
	mu.Lock()
	defer mu.Unlock()
	for _, u := range leaks {
		t.Errorf("the home page sent a link from its list: %s", u)
	}
}
