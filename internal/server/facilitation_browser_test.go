package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// The home page lists the designs opened in this browser, newest first, with the kind of link
// each was opened with; forgetting one drops it for good; the list is drawn from the browser's
// own storage, so neither the server's page nor any request carries the links.
func TestBrowser_homeListsTheDesignsOpenedInThisBrowser(t *testing.T) {
	t.Parallel()
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

	// The HR view link is replaced: opened with its new link, the design takes the old one's place.
	resp, err = http.Post(base+"/api/designs/"+hr.EditToken+"/tokens/rotate", "application/json", strings.NewReader(`{"which": "view"}`))
	if err != nil {
		t.Fatal(err)
	}
	var rotated struct {
		ViewToken string `json:"view_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rotated)
	resp.Body.Close()
	if err != nil || rotated.ViewToken == "" {
		t.Fatalf("rotate the view link: %v", err)
	}
	do(t, ctx, "open the HR design with its new view link and go home",
		chromedp.Navigate(base+"/d/"+rotated.ViewToken), chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")),
		chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=opened-designs]")))
	got = get(t, ctx, "read the list", chromedp.Evaluate[[]row](rows))
	if len(got) != 2 || got[0].Href != "/d/"+rotated.ViewToken || got[1].Href != "/d/"+orders.EditToken {
		t.Fatalf("after the view link was replaced the list is %+v", got)
	}
	do(t, ctx, "forget the HR design",
		chromedp.Click(chromedp.CSS(`[data-testid=forget-design][data-forget="/d/`+rotated.ViewToken+`"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-forget="/d/`+rotated.ViewToken+`"]`)),
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

// startBrowserAppAt is startBrowserApp over a database file the test can also open.
func startBrowserAppAt(t *testing.T) (url, dbPath string) {
	t.Helper()
	dbPath = filepath.Join(t.TempDir(), "test.db")
	app := newTestAppOn(t, dbPath, storage.Options{})
	ts := httptest.NewServer(app.srv.Handler())
	t.Cleanup(func() {
		app.srv.hub.Shutdown()
		ts.Close()
	})
	return ts.URL, dbPath
}

// changeAs applies one typed change through the API under a participant's name.
func changeAs(t *testing.T, base, token, who, kind, change string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/api/designs/"+token+"/changes", strings.NewReader(`{"kind": "`+kind+`", "change": `+change+`}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", participantCookie+"="+url.QueryEscape(who))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s by %s: %d %s", kind, who, resp.StatusCode, body)
	}
}

// A workshop's history reads as working periods and, in each, one line per person; a group
// opens to its revisions (fetched when it has too many to draw with the page), and restore and
// undo work from inside a group.
func TestBrowser_historyInWorkingPeriodsByPerson(t *testing.T) {
	t.Parallel()
	base, dbPath := startBrowserAppAt(t)
	created := createOver(t, base, `{"example": "hr-employees"}`)
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Patterns) < 7 || len(d.Entities) == 0 || len(d.Tables) == 0 {
		t.Fatal("the example lacks the patterns, an entity or a table this test edits")
	}
	pattern := func(n int) designer.Pattern {
		for _, p := range d.Patterns {
			if p.Number == n {
				return p
			}
		}
		t.Fatalf("the example has no pattern %d", n)
		return designer.Pattern{}
	}
	describe := func(who string, n int, text string) {
		changeAs(t, base, created.EditToken, who, "set_pattern_field", `{"id": "`+pattern(n).ID+`", "field": "description", "value": "`+text+`"}`)
	}
	entity, table := d.Entities[0].Name, d.Tables[0].Name
	// Yesterday's session: Carol reworded pattern 1 a hundred and five times, Bob described an entity.
	for i := range 105 {
		describe("Carol", 1, fmt.Sprintf("Draft %d", i))
	}
	changeAs(t, base, created.EditToken, "Bob", "set_entity_description", `{"entity": "`+entity+`", "description": "Someone on the payroll."}`)
	db, err := sql.Open("sqlite3", dbPath+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Move it all a day back: the store keeps the time of each change, and only the test may say
	// it was yesterday.
	if _, err := db.Exec(`UPDATE revisions SET at = strftime('%Y-%m-%dT%H:%M:%S', at, '-1 day') || substr(at, 20)`); err != nil {
		t.Fatal(err)
	}
	// Today's session: Ada works through patterns 3–7 and a table, Bob the entity again.
	for n := 3; n <= 7; n++ {
		describe("Ada", n, fmt.Sprintf("Pattern %d, reworded", n))
	}
	changeAs(t, base, created.EditToken, "Ada", "set_table_field", `{"table": "`+table+`", "field": "purpose", "value": "Everything about an employee."}`)
	changeAs(t, base, created.EditToken, "Bob", "set_entity_description", `{"entity": "`+entity+`", "description": "A person on the payroll."}`)

	ctx, _ := newBrowser(t)
	openAndJoin(t, ctx, base+"/d/"+created.EditToken+"/history", "Ada")
	do(t, ctx, "see the history", chromedp.WaitVisible(chromedp.CSS("[data-testid=revision-group]")))
	type group struct {
		Summary string
		Open    bool
		Rows    int
	}
	const groups = `Array.from(document.querySelectorAll("[data-testid=period]")).map(p => Array.from(p.querySelectorAll("[data-testid=revision-group]")).map(g => ({
		Summary: g.querySelector("[data-testid=group-summary]").textContent.trim(), Open: g.open, Rows: g.querySelectorAll("[data-testid=revision-row]").length})))`
	got := get(t, ctx, "read the groups", chromedp.Evaluate[[][]group](groups))
	want := [][]group{
		{{"Bob: 1 change to entity " + entity, true, 1}, {"Ada: 6 changes to patterns 3–7, table " + table, false, 6}},
		{{"Bob: 1 change to entity " + entity, false, 1}, {"Carol: 105 changes to pattern 1", false, 0}, {"Someone: created the design", false, 1}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the history shows\n%v\nwant\n%v", got, want)
	}
	if meta := textOf(t, ctx, "[data-testid=period-meta]"); meta != "7 changes by Bob and Ada" {
		t.Errorf("today's period reads %q", meta)
	}

	// Carol's group is too long to come with the page: opening it fetches its revisions, a
	// hundred at a time.
	const carol = `Array.from(document.querySelectorAll("[data-testid=revision-group]")).find(g => g.textContent.includes("Carol"))`
	do(t, ctx, "open Carol's group", chromedp.Evaluate[chromedp.Void](carol+`.querySelector("summary").click()`))
	waitUntil(t, ctx, "Carol's first hundred revisions", carol+`.querySelectorAll("[data-testid=revision-row]").length === 100`)
	do(t, ctx, "show the rest", chromedp.Evaluate[chromedp.Void](carol+`.querySelector("[data-testid=more-revisions]").click()`))
	waitUntil(t, ctx, "all 105 of Carol's revisions", carol+`.querySelectorAll("[data-testid=revision-row]").length === 105 && !`+carol+`.querySelector("[data-testid=more-revisions]")`)

	// A change by someone else redraws the history live: the group Ada opened stays open, with
	// its revisions fetched again.
	changeAs(t, base, created.EditToken, "Bob", "set_entity_description", `{"entity": "`+entity+`", "description": "Someone we pay."}`)
	waitUntil(t, ctx, "the history to show the new revision", `document.querySelector("#history-heading .count").textContent === "115"`)
	waitUntil(t, ctx, "Carol's group open with its revisions", carol+`.open && `+carol+`.querySelectorAll("[data-testid=revision-row]").length === 100`)

	// A longer pause joins the two sessions into one period: a day apart needs more than a day.
	do(t, ctx, "choose a pause of two hours", chromedp.SetValue(chromedp.CSS("[data-testid=gap]"), "120"))
	waitAcrossLoads(t, ctx, "the page to show the gap chosen", `location.search === "?gap=120" && document.querySelector("[data-testid=gap]")?.value === "120" && document.querySelectorAll("[data-testid=period]").length === 2`)

	// Restore from inside Ada's group, then undo it: both answer with the grouped history.
	go func() {
		for _, err := range chromedp.Events(ctx, page.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
				return
			}
		}
	}()
	n := created.Revision + 105 + 1 + 3 // Ada's description of pattern 5
	do(t, ctx, "open Ada's group and restore the revision after pattern 5",
		chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll("[data-testid=revision-group]")).find(g => g.textContent.includes("Ada:")).querySelector("summary").click()`),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-revision="%d"] [data-testid=restore-revision]`, n))),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=history-notice]")),
	)
	if got, want := textOf(t, ctx, "[data-testid=revision-group][open] [data-testid=group-summary]"), "Ada: 7 changes to the whole design, patterns 3–7, table "+table; got != want {
		t.Fatalf("after the restore the newest group reads %q, want %q", got, want)
	}
	if got := textOf(t, ctx, "[data-testid=revision-group][open] [data-testid=revision-row] [data-testid=revision-summary]"); got != fmt.Sprintf("Restored revision %d", n) {
		t.Fatalf("the newest revision reads %q", got)
	}
	do(t, ctx, "undo the restore", chromedp.Click(chromedp.CSS("[data-testid=undo-mine]")))
	waitUntil(t, ctx, "the undo in the newest group", `document.querySelector("[data-testid=revision-group][open] [data-testid=group-summary]").textContent.startsWith("Ada: 8 changes")`)
	if got, want := textOf(t, ctx, "[data-testid=revision-group][open] [data-testid=revision-row] [data-testid=revision-summary]"), fmt.Sprintf("Undid revision %d: Restored revision %d", n+6, n); got != want {
		t.Fatalf("the newest revision reads %q, want %q", got, want)
	}
}

// waitAcrossLoads waits for a JavaScript condition on a tab that is loading another page, which
// waitUntil cannot (its polling ends with the page it started on).
func waitAcrossLoads(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for time.Now().Before(deadline) {
		step, cancel := context.WithTimeout(ctx, lookTimeout)
		ok, err := chromedp.Run(step, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("wait for %s: %s never held", what, js)
}

// The facilitator walks the agenda: it lists the method's steps with the questions the design
// raises, and starting a step's timer takes them there while every page of the room — another
// participant, the projector, someone who joins later — shows the same countdown, paused and
// stopped with it.
func TestBrowser_agendaAndTheRoomsTimer(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, agendaDesign)
	alice, _ := newBrowser(t)
	bob, _ := newIsolatedTab(t, alice)
	projector, _ := newIsolatedTab(t, alice)
	openAndJoin(t, alice, base+"/d/"+created.EditToken+"/entities", "Alice")
	openAndJoin(t, bob, base+"/d/"+created.EditToken, "Bob")
	do(t, projector, "open the projector", chromedp.Navigate(base+"/d/"+created.ViewToken+"/entities?present=1"), chromedp.WaitReady(chromedp.CSS("#live")))
	for name, ctx := range map[string]context.Context{"Bob": bob, "the projector": projector} {
		if get(t, ctx, "look at the timer", chromedp.Evaluate[bool](`!document.getElementById("room-timer").hidden`)) {
			t.Fatalf("%s shows a timer before anyone started one", name)
		}
	}

	do(t, alice, "open the agenda",
		chromedp.Click(chromedp.CSS("[data-testid=agenda-button]")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=agenda-step][data-step=patterns] [data-testid=agenda-start]`)),
	)
	if got := textOf(t, alice, `[data-testid=agenda-step][data-step=patterns] [data-testid=agenda-questions]`); !strings.Contains(got, "Get an order") {
		t.Fatalf("the agenda's Access patterns step asks %q, want the question about pattern 1", got)
	}
	if cls := get(t, alice, "read the current step", chromedp.Evaluate[string](`document.querySelector("[data-testid=agenda-step].is-current").dataset.step`)); cls != "entities" {
		t.Fatalf("the agenda marks %q as the step shown, want entities", cls)
	}
	do(t, alice, "time-box the access patterns to 12 minutes",
		chromedp.SetValue(chromedp.CSS(`[data-step=patterns] [data-testid=agenda-minutes]`), "12"),
		chromedp.Click(chromedp.CSS(`[data-step=patterns] [data-testid=agenda-start]`)),
	)
	waitForPath(t, alice, "Alice to be taken to the access patterns", "/patterns")

	shows := func(ctx context.Context, who, step string) {
		t.Helper()
		waitUntil(t, ctx, who+" to show the timer of "+step, `(() => { const c = document.getElementById("room-timer");
			return !c.hidden && c.querySelector("[data-testid=timer-step]").textContent === "`+step+`" && /^1[12]:\d\d$/.test(c.querySelector("[data-testid=timer-clock]").textContent); })()`)
	}
	shows(bob, "Bob", "Access patterns")
	shows(projector, "the projector", "Access patterns")
	shows(alice, "Alice", "Access patterns")
	if !get(t, projector, "look at the projector's timer", chromedp.Evaluate[bool](`document.getElementById("room-timer").classList.contains("is-presenting") && getComputedStyle(document.getElementById("room-timer")).position === "fixed"`)) {
		t.Error("the projector's timer is not its large corner one")
	}
	first := textOf(t, bob, "[data-testid=timer-clock]")
	waitUntil(t, bob, "Bob's timer to count down", `document.querySelector("[data-testid=timer-clock]").textContent !== "`+first+`"`)

	carol, _ := newIsolatedTab(t, alice)
	do(t, carol, "Carol joins late with the view link", chromedp.Navigate(base+"/d/"+created.ViewToken+"/patterns"), chromedp.WaitReady(chromedp.CSS("#live")))
	shows(carol, "Carol", "Access patterns")

	do(t, alice, "pause the timer from the agenda",
		chromedp.Click(chromedp.CSS("[data-testid=agenda-button]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=timer-pause]")),
		chromedp.Click(chromedp.CSS("[data-testid=timer-pause]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=timer-resume]")),
	)
	for name, ctx := range map[string]context.Context{"Bob": bob, "the projector": projector, "Carol": carol} {
		waitUntil(t, ctx, name+" to show the timer paused", `document.querySelector("[data-testid=timer-step]").textContent === "Access patterns · paused"`)
	}
	paused := textOf(t, bob, "[data-testid=timer-clock]")
	time.Sleep(1200 * time.Millisecond)
	if now := textOf(t, bob, "[data-testid=timer-clock]"); now != paused {
		t.Fatalf("a paused timer went on from %s to %s", paused, now)
	}
	// The agenda walks on: the next step's time box in one click, and the facilitator is there.
	do(t, alice, "start the next step", chromedp.Click(chromedp.CSS("[data-testid=timer-next]")))
	waitForPath(t, alice, "Alice to be taken to the aggregates", "/aggregates")
	waitUntil(t, bob, "Bob to show the aggregates' time box", `document.querySelector("[data-testid=timer-step]").textContent === "Aggregates" && /^[78]:\d\d$/.test(document.querySelector("[data-testid=timer-clock]").textContent)`)
	do(t, alice, "stop it",
		chromedp.WaitVisible(chromedp.CSS("[data-testid=timer-clock]")),
		chromedp.Click(chromedp.CSS("[data-testid=agenda-button]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=timer-stop]")),
		chromedp.Click(chromedp.CSS("[data-testid=timer-stop]")),
		chromedp.WaitNotPresent(chromedp.CSS("[data-testid=agenda-timer]")))
	for name, ctx := range map[string]context.Context{"Alice": alice, "Bob": bob, "the projector": projector, "Carol": carol} {
		waitUntil(t, ctx, name+" to hide the timer", `document.getElementById("room-timer").hidden`)
	}
}
