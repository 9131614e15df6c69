package server

import (
	"dynaloom/internal/live"

	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"dynaloom/internal/designer"
)

// Two people in one design, each in their own browser context: an edit in one appears in the
// other without a reload; edits of different cells of one row both survive; an edit of the cell
// someone else is typing in offers that person the choice instead of overwriting.
func TestBrowser_twoParticipantsEditOneDesignLive(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, _ := newBrowser(t)
	editURL, _ := createDesign(t, alice, base, "Orders", "Alice")
	do(t, alice, "add a pattern",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.Click(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.WaitVisible(chromedp.CSS("tr[data-number='1'] [id$='-description']")),
	)

	bob, _ := newIsolatedTab(t, alice)
	do(t, bob, "join as Bob",
		chromedp.Navigate(editURL),
		chromedp.SendKeys(chromedp.CSS("[data-testid=participant-name]"), "Bob"),
		chromedp.Click(chromedp.CSS("[data-testid=participant-save]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")),
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS("tr[data-number='1'] [id$='-description']")),
	)
	waitUntil(t, alice, "Alice to see two people here", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	waitUntil(t, bob, "Bob to see Alice here", `!!document.querySelector("[data-testid=presence-chip][data-name=Alice]")`)

	const desc, peak = "tr[data-number='1'] [id$='-description']", "tr[data-number='1'] [id$='-peak_rps']"
	typeOver(t, alice, desc, "Look up an order by id")
	waitUntil(t, bob, "Alice's description to reach Bob", `document.querySelector("`+desc+`").value === "Look up an order by id"`)

	// Presence: what Alice has focused is marked on Bob's screen with her name.
	do(t, alice, "focus the peak RPS cell", chromedp.Focus(chromedp.CSS(peak)))
	waitUntil(t, bob, "Bob to see Alice on the peak cell", `(document.querySelector("`+peak+`").closest("[data-editor]") || {}).dataset?.editor === "Alice"`)

	// Different cells of the same row: Alice is typing in one while Bob saves another.
	do(t, alice, "start typing a description",
		chromedp.Focus(chromedp.CSS(desc)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent("Get one order by its id"),
	)
	typeOver(t, bob, peak, "450")
	waitUntil(t, alice, "Bob's peak RPS to reach Alice while she types", `document.querySelector("`+peak+`").value === "450"`)
	if got := get(t, alice, "read Alice's description", chromedp.Evaluate[string](`document.activeElement.value`)); got != "Get one order by its id" {
		t.Fatalf("Alice's unsaved text became %q when Bob's edit arrived", got)
	}
	do(t, alice, "finish typing", chromedp.KeyEvent(kb.Tab))
	waitUntil(t, bob, "Alice's description to reach Bob", `document.querySelector("`+desc+`").value === "Get one order by its id"`)
	do(t, bob, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(desc)))
	got := get(t, bob, "read the row", chromedp.Evaluate[string](`document.querySelector("`+desc+`").value + "|" + document.querySelector("`+peak+`").value`))
	if got != "Get one order by its id|450" {
		t.Fatalf("after both edits the row holds %q, want both edits", got)
	}

	// The same cell: Bob saves over the description Alice is typing in; Alice chooses.
	do(t, alice, "start typing over the description",
		chromedp.Focus(chromedp.CSS(desc)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent("Alice's wording"),
	)
	typeOver(t, bob, desc, "Bob's wording")
	do(t, alice, "see the conflict choice", chromedp.WaitVisible(chromedp.CSS("[data-testid=conflict]")))
	if msg := textOf(t, alice, "[data-testid=conflict]"); !strings.Contains(msg, "Bob") || !strings.Contains(msg, "Bob's wording") {
		t.Fatalf("the conflict says %q; want who changed it and to what", msg)
	}
	do(t, alice, "keep hers", chromedp.Click(chromedp.CSS("[data-testid=conflict-keep]")))
	waitUntil(t, bob, "Alice's choice to reach Bob", `document.querySelector("`+desc+`").value === "Alice's wording"`)
}

// The facilitator leads: a participant's page follows to the step the facilitator opens, and the
// projector window opened with Present is read-only, shows the view link only, and follows too.
func TestBrowser_followMeAndPresent(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, _ := newBrowser(t)
	editURL, editToken := createDesign(t, alice, base, "Orders", "Alice")
	bob, _ := newIsolatedTab(t, alice)
	do(t, bob, "join as Bob",
		chromedp.Navigate(editURL),
		chromedp.SendKeys(chromedp.CSS("[data-testid=participant-name]"), "Bob"),
		chromedp.Click(chromedp.CSS("[data-testid=participant-save]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")),
	)
	presentHref := get(t, alice, "read the Present link", chromedp.Evaluate[string](`document.querySelector("[data-testid=present-link]").href`))
	if strings.Contains(presentHref, editToken) || !strings.Contains(presentHref, "present=1") {
		t.Fatalf("the Present link %q must use the view link", presentHref)
	}
	projector, _ := newIsolatedTab(t, alice)
	do(t, projector, "open the projector window",
		chromedp.Navigate(presentHref),
		chromedp.WaitVisible(chromedp.CSS("#live.presenting")),
	)
	if n := get(t, projector, "count fields", chromedp.Evaluate[int](`document.querySelectorAll("#main input, #main textarea, #main select").length`)); n != 0 {
		t.Fatalf("the projector window has %d editable fields", n)
	}
	if html := get(t, projector, "read the page", chromedp.Evaluate[string](`document.documentElement.outerHTML`)); strings.Contains(html, editToken) {
		t.Fatal("the projector window contains the edit token")
	}

	// The projector is no participant: Alice sees Bob and herself, and no "Guest".
	waitUntil(t, projector, "the projector to see Alice and Bob", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	waitUntil(t, alice, "two people here", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	time.Sleep(2 * live.PresenceEvery)
	if n := get(t, alice, "count the chips", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=presence-chip]").length`)); n != 2 {
		t.Fatalf("with the projector open Alice sees %d people, want 2 (the projector is no participant)", n)
	}
	do(t, alice, "lead", chromedp.Click(chromedp.CSS("[data-testid=follow-me]")))
	waitUntil(t, bob, "Bob to see that he follows Alice", `!document.getElementById("follow-state").hidden && document.querySelector("#follow-state .follow-text").textContent === "Following Alice"`)
	// Bob is typing when Alice moves on: he stays until he leaves the field and it is saved.
	const domain = "[data-testid=field-overview-domain] textarea"
	do(t, bob, "start typing the domain", chromedp.Focus(chromedp.CSS(domain)), chromedp.KeyEvent("Online shop"))
	do(t, alice, "open the tables step", chromedp.Click(chromedp.CSS("[data-testid=step-tables]")))
	waitForPath(t, projector, "the projector to follow to the tables step", "/tables")
	time.Sleep(300 * time.Millisecond)
	if got := get(t, bob, "read Bob's field", chromedp.Evaluate[string](`location.pathname + " " + document.activeElement.value`)); strings.Contains(got, "/tables") || !strings.HasSuffix(got, "Online shop") {
		t.Fatalf("Bob was typing, yet his page is at %q", got)
	}
	do(t, bob, "leave the field", chromedp.KeyEvent(kb.Tab))
	waitForPath(t, bob, "Bob to follow to the tables step once his text is saved", "/tables")
	if html := get(t, bob, "read the overview", chromedp.Evaluate[string](`fetch(location.pathname.replace(/\/tables$/, "")).then(r => r.text())`, chromedp.EvalAwaitPromise)); !strings.Contains(html, "Online shop") {
		t.Fatal("Bob's text was lost when he followed")
	}
	if !strings.Contains(get(t, projector, "read the projector URL", chromedp.Location()), "present=1") {
		t.Fatal("the projector left presentation mode when it followed")
	}
	// Bob stops following; Alice moves on without him.
	do(t, bob, "stop following", chromedp.WaitVisible(chromedp.CSS("[data-testid=follow-toggle]")), chromedp.Click(chromedp.CSS("[data-testid=follow-toggle]")))
	do(t, alice, "open the mapping step", chromedp.Click(chromedp.CSS("[data-testid=step-mapping]")))
	waitForPath(t, projector, "the projector to follow to mapping", "/mapping")
	if path := get(t, bob, "read Bob's URL", chromedp.Location()); !strings.HasSuffix(path, "/tables") {
		t.Fatalf("Bob stopped following but is at %s", path)
	}
}

// waitForPath waits until a tab, which navigates by itself, is at a path ending in suffix.
func waitForPath(t *testing.T, ctx context.Context, what, suffix string) {
	t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for time.Now().Before(deadline) {
		step, cancel := context.WithTimeout(ctx, lookTimeout)
		loc, err := chromedp.Run(step, chromedp.Evaluate[string](`location.pathname`))
		cancel()
		if err == nil && strings.HasSuffix(loc, suffix) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("wait for %s: the tab is not at …%s", what, suffix)
}

// An edit reaches the others as the one cell it changed: Bob's page asks for what changed since
// the revision it shows and gets that cell and the side panel, not the step, while the text he is
// typing in another cell stays as he left it.
func TestBrowser_anEditReachesOthersAsTheCellItChanged(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, _ := newBrowser(t)
	editURL, _ := createDesign(t, alice, base, "Orders", "Alice")
	const first, second = "tr[data-number='1'] [id$='-description']", "tr[data-number='2'] [id$='-description']"
	do(t, alice, "add two patterns",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.Click(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.WaitVisible(chromedp.CSS(first)),
		chromedp.Click(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.WaitVisible(chromedp.CSS(second)),
	)
	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, editURL+"/patterns", "Bob")
	do(t, bob, "open the patterns and note what each refresh is answered with",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS(second)),
		recordRefreshes("/patterns"),
		chromedp.Focus(chromedp.CSS(second)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent("Bob is typing this"),
	)
	waitUntil(t, alice, "Bob to be here", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	before := get(t, bob, "read Bob's revision", chromedp.Evaluate[string](`document.getElementById("aside").dataset.revision`))

	typeOver(t, alice, first, "Look up an order by id")
	waitUntil(t, bob, "Alice's description to reach Bob", `document.querySelector("`+first+`").value === "Look up an order by id"`)
	waitUntil(t, bob, "the side panel to move on", `document.getElementById("aside").dataset.revision !== "`+before+`"`)
	if got := get(t, bob, "read Bob's text", chromedp.Evaluate[string](`document.activeElement.value`)); got != "Bob is typing this" {
		t.Fatalf("Bob's unsaved text became %q when Alice's edit arrived", got)
	}
	onlyParts(t, bob)
	do(t, bob, "finish typing", chromedp.KeyEvent(kb.Tab))
	waitUntil(t, alice, "Bob's description to reach Alice", `document.querySelector("`+second+`").value === "Bob is typing this"`)
}

// In a crowd the top bar shows 12 chips and counts the others, and its page keeps both right from
// the changes its stream sends as people come and go: what it shows is what a reload shows.
func TestBrowser_presenceInACrowdFollowsComingsAndGoings(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, _ := newBrowser(t)
	editURL, token := createDesign(t, alice, base, "Orders", "Alice")
	do(t, alice, "open the patterns", chromedp.Navigate(editURL+"/patterns"), chromedp.WaitVisible(chromedp.CSS("[data-testid=presence-chip]")))
	const crowd = 16
	streams := make([]*sseClient, crowd)
	for i := range streams {
		streams[i] = openStream(t, fmt.Sprintf("%s/d/%s/events?step=patterns&tab=crowd%016d", base, token, i), "Cookie", participantCookie+"=Viewer%20"+fmt.Sprintf("%02d", i))
	}
	const shown = `Array.from(document.querySelectorAll("#presence > li")).map(li => li.dataset.name || li.querySelector("[aria-hidden]").textContent)`
	waitUntil(t, alice, "12 chips and the count of 5 more", `(() => { const l = `+shown+`; return l.length === 13 && l[12] === "+5"; })()`)
	names := get(t, alice, "read the chips", chromedp.Evaluate[[]string](shown))
	if names[0] != "Alice" || !slices.IsSorted(names[1:12]) {
		t.Fatalf("chips %v: want Alice, then the others in order", names)
	}
	for _, s := range streams[:10] {
		s.resp.Body.Close()
	}
	waitUntil(t, alice, "7 chips and no count", `(() => { const l = `+shown+`; return l.length === 7 && !l.some(n => n.startsWith("+")); })()`)
	before := get(t, alice, "read the chips", chromedp.Evaluate[[]string](shown))
	do(t, alice, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("[data-testid=presence-chip]")))
	waitUntil(t, alice, "the list after the reload", `document.querySelectorAll("#presence > li").length === 7`)
	if after := get(t, alice, "read the chips", chromedp.Evaluate[[]string](shown)); !slices.Equal(before, after) {
		t.Fatalf("the page showed %v, a reload shows %v", before, after)
	}
}

// An item's cell edited on the Tables step reaches another participant on that table as the cell,
// its row's size and the index grids, not the step redrawn.
func TestBrowser_anItemCellReachesOthersInParts(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"example": "hr-employees"}`)
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	tb := d.Tables[0]
	cell := "#" + itemCellID(tb.Name, tb.Items[0].ID, "first_name")
	page := base + "/d/" + created.EditToken + "/tables?table=" + url.QueryEscape(tb.Name)
	alice, _ := newBrowser(t)
	openAndJoin(t, alice, page, "Alice")
	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, page, "Bob")
	do(t, bob, "open the table and note what each refresh is answered with",
		chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.CSS(cell)),
		recordRefreshes("/tables"),
	)
	waitUntil(t, alice, "Bob to be here", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	typeOver(t, alice, cell, "Ama")
	waitUntil(t, bob, "Alice's cell to reach Bob", `document.querySelector("`+cell+`").value === "Ama"`)
	onlyParts(t, bob)
}

// An operation's notes edited in a Mapping card reach another participant who has that card open
// as the card alone, morphed in with the new value.
func TestBrowser_anOperationEditReachesOthersAsItsCard(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"example": "hr-employees"}`)
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	p := d.Patterns[0]
	field := "#" + elemID("opf", p.ID, "0", "notes")
	page := base + "/d/" + created.EditToken + "/mapping?open=" + url.QueryEscape(p.ID)
	alice, _ := newBrowser(t)
	openAndJoin(t, alice, page, "Alice")
	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, page, "Bob")
	do(t, bob, "open the card and note what each refresh is answered with",
		chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.CSS(field)),
		recordRefreshes("/mapping"),
	)
	waitUntil(t, alice, "Bob to be here", `document.querySelectorAll("[data-testid=presence-chip]").length === 2`)
	typeOver(t, alice, field, "One GetItem on the profile")
	waitUntil(t, bob, "Alice's notes to reach Bob", `document.querySelector("`+field+`").value === "One GetItem on the profile"`)
	if open := get(t, bob, "read the card", chromedp.Evaluate[bool](`document.getElementById("`+elemID("map", p.ID)+`").open`)); !open {
		t.Fatal("Bob's card closed when Alice's edit arrived")
	}
	onlyParts(t, bob)
}

// recordRefreshes makes the page note how each of its refreshes of the step at path was answered:
// the number of parts, or "whole step".
func recordRefreshes(path string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`window.refreshAnswers = [];
		document.addEventListener("htmx:afterRequest", function (ev) {
			var at = ev.detail.pathInfo.requestPath.split("?")[0];
			if (ev.detail.requestConfig.verb === "get" && at.endsWith("` + path + `"))
				window.refreshAnswers.push(ev.detail.xhr.getResponseHeader("X-Dynaloom-Fragments") || "whole step");
		});`)
}

// onlyParts fails the test unless the page refreshed, and every refresh was answered in parts.
func onlyParts(t *testing.T, ctx context.Context) {
	t.Helper()
	answers := get(t, ctx, "read the refresh answers", chromedp.Evaluate[[]string](`window.refreshAnswers`))
	if len(answers) == 0 || slices.Contains(answers, "whole step") {
		t.Fatalf("the page refreshed with %v, want parts only", answers)
	}
}
