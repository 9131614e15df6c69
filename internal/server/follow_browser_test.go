package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Follow me carries more than the step: the projector, on a smaller screen, shows the row the
// facilitator is in on the access patterns, the table tab she opens, and on the Mapping step the
// card of pattern 12 she opens and scrolls to, open and at the top of its window.
func TestBrowser_followMeCarriesTheTabTheCardAndTheScroll(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, _ := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	edit, view := base+"/d/"+created.EditToken, base+"/d/"+created.ViewToken
	openAndJoin(t, alice, edit+"/patterns", "Alice")

	projector, _ := newIsolatedTab(t, alice)
	do(t, projector, "open the projector window at 1280×720",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(view+"?present=1"),
		chromedp.WaitVisible(chromedp.CSS("#live.presenting")),
	)
	waitUntil(t, projector, "the projector to see Alice", `!!document.querySelector("[data-testid=presence-chip][data-name=Alice]")`)
	do(t, alice, "lead", chromedp.Click(chromedp.CSS("[data-testid=follow-me]")))
	waitForPath(t, projector, "the projector to follow to the access patterns", "/patterns")

	// The row Alice types in, far down the grid, comes into the projector's view, marked.
	const row9 = `document.querySelector("tr[data-number='9']")`
	do(t, alice, "focus pattern 9's description", chromedp.Focus(chromedp.CSS("tr[data-number='9'] [id$='-description']")))
	waitAcross(t, projector, "pattern 9's row in view and marked", row9+` && `+row9+`.classList.contains("is-followed") && `+inView(row9))

	// A table tab other than the first.
	do(t, alice, "open the tables step", chromedp.Click(chromedp.CSS("[data-testid=step-tables]")), chromedp.WaitVisible(chromedp.CSS("nav.tabs")))
	second := get(t, alice, "find the second table's tab", chromedp.Evaluate[string](`document.querySelectorAll("nav.tabs a")[1].getAttribute("data-testid")`))
	table := get(t, alice, "read its name", chromedp.Evaluate[string](`document.querySelectorAll("nav.tabs a")[1].textContent.trim()`))
	do(t, alice, "open the second table", chromedp.Click(chromedp.CSS("[data-testid="+second+"]")), chromedp.WaitVisible(chromedp.CSS("[data-testid="+second+"][aria-current=page]")))
	waitAcross(t, projector, "the projector to show table "+table, `new URL(location.href).searchParams.get("table") === `+jsString(table)+
		` && new URL(location.href).searchParams.get("present") === "1" && !!document.querySelector("[data-testid=`+second+`][aria-current=page]")`)

	// Pattern 12's card, opened and scrolled to the top of Alice's window.
	do(t, alice, "open the mapping step", chromedp.Click(chromedp.CSS("[data-testid=step-mapping]")), chromedp.WaitVisible(chromedp.CSS("details.mapping")))
	waitForPath(t, projector, "the projector to follow to mapping", "/mapping")
	card := get(t, alice, "find pattern 12's card", chromedp.Evaluate[string](
		`[...document.querySelectorAll("details.mapping")].find(d => d.querySelector(".count").textContent.trim() === "12").id`))
	do(t, alice, "open pattern 12's card and scroll to it",
		chromedp.Click(chromedp.CSS("#"+card+" > summary")),
		chromedp.WaitVisible(chromedp.CSS("#"+card+" [data-testid=operation]")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("`+card+`").scrollIntoView({block: "start"})`),
	)
	el := `document.getElementById("` + card + `")`
	waitAcross(t, projector, "pattern 12's card open, loaded, at the top of the projector",
		el+` && `+el+`.open && !!`+el+`.querySelector("[data-testid=operation]") && `+el+`.classList.contains("is-followed") && `+
			el+`.getBoundingClientRect().top >= -2 && `+el+`.getBoundingClientRect().top < innerHeight / 4`)
	if open := get(t, projector, "read the projector's URL", chromedp.Evaluate[string](`location.search`)); !strings.Contains(open, "present=1") {
		t.Fatalf("the projector left presentation mode: %s", open)
	}
	// The projector stays live: an edit of pattern 12 reaches its card, which stays open, marked
	// and in view.
	changeAs(t, base, created.EditToken, "Bo", "set_pattern_field", `{"id": "ap12", "field": "description", "value": "Record a pay rise"}`)
	waitUntil(t, projector, "the edit to reach pattern 12's card, still open and marked", el+`.querySelector(".mapping-title").textContent === "Record a pay rise" && `+
		el+`.open && `+el+`.classList.contains("is-followed") && `+el+`.getBoundingClientRect().top < innerHeight / 4 && `+el+`.getBoundingClientRect().bottom > 0`)
}

// inView is a JavaScript condition: the element el (an expression) shows in the window.
func inView(el string) string {
	return `(r => r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1)(` + el + `.getBoundingClientRect())`
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// waitAcross waits for a JavaScript condition on a tab that navigates by itself, asking again on
// the page it lands on (a poll does not outlive the page it started on).
func waitAcross(t *testing.T, ctx context.Context, what, js string) {
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
	t.Fatalf("wait for %s: not so within %s", what, stepTimeout)
}

// The projector follows the facilitator through every step of the method, in presentation mode,
// and stays live on each: a change made meanwhile by someone else (the design's name) reaches it
// without a reload.
func TestBrowser_projectorFollowsThroughEveryStepAndStaysLive(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, _ := newBrowser(t)
	created := createOver(t, base, `{"example": "hr-employees"}`)
	edit, view := base+"/d/"+created.EditToken, base+"/d/"+created.ViewToken
	openAndJoin(t, alice, edit, "Alice")
	projector, _ := newIsolatedTab(t, alice)
	do(t, projector, "open the projector window at 1920×1080",
		chromedp.EmulateViewport(1920, 1080),
		chromedp.Navigate(view+"?present=1"),
		chromedp.WaitVisible(chromedp.CSS("#live.presenting")),
	)
	waitUntil(t, projector, "the projector to see Alice", `!!document.querySelector("[data-testid=presence-chip][data-name=Alice]")`)
	do(t, alice, "lead", chromedp.Click(chromedp.CSS("[data-testid=follow-me]")))
	for i, st := range steps[1:] {
		do(t, alice, "open "+st.label, chromedp.Click(chromedp.CSS("[data-testid=step-"+st.id+"]")))
		waitForPath(t, projector, "the projector to follow to "+st.label, st.path)
		name := fmt.Sprintf("HR employees, seen on %s (%d)", st.label, i)
		changeAs(t, base, created.EditToken, "Bo", "set_name", `{"name": `+jsString(name)+`}`)
		waitAcross(t, projector, "Bo's new name on the projector at "+st.label, `document.querySelector("[data-testid=design-title]").textContent.trim() === `+jsString(name)+
			` && location.pathname.endsWith(`+jsString(st.path)+`) && new URL(location.href).searchParams.get("present") === "1"`)
	}
}
