package server

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// No step of the HR example scrolls the page sideways at the projector and laptop sizes, in the
// workspace or in Present mode: wide grids scroll inside their own frame, or (the access patterns,
// presenting) reflow into cards. (An absolutely placed, visually hidden label in a wide grid once
// pushed the Tables step 1,400 pixels past the window; Present mode's larger type pushed it 79.)
// Present mode shows the content only: no rails, no instructions, no forms, buttons or fields (the
// ticks of a previewed document's checklist are content).
func TestBrowser_noStepScrollsThePageSideways(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	openAndJoin(t, ctx, base+"/d/"+created.EditToken, "Ada")
	for _, size := range [][2]int64{{1280, 720}, {1400, 900}, {1920, 1080}} {
		for _, presenting := range []bool{false, true} {
			for _, st := range steps {
				url, what := base+"/d/"+created.EditToken+st.path, fmt.Sprintf("%s at %d×%d", st.label, size[0], size[1])
				if presenting {
					url, what = base+"/d/"+created.ViewToken+st.path+"?present=1", what+" presenting"
				}
				do(t, ctx, "open "+what,
					chromedp.EmulateViewport(size[0], size[1]),
					chromedp.Navigate(url),
					chromedp.WaitVisible(chromedp.CSS("#workspace")),
				)
				wide := get(t, ctx, "measure "+what, chromedp.Evaluate[int](`document.scrollingElement.scrollWidth - innerWidth`))
				if wide > 0 {
					t.Errorf("%s: the page scrolls %d pixels sideways", what, wide)
				}
				if !presenting {
					continue
				}
				shown := get(t, ctx, "look for what Present mode leaves out on "+what, chromedp.Evaluate[[]string](`[...document.querySelectorAll(
					"nav.steps, aside.aside, .main > header > p, #main form, #main button, #main input:not(.markdown *), #main select, #main textarea:not(.offscreen), [data-testid=presence-chip], [data-testid=share-button]")]
					.filter(el => el.getClientRects().length > 0)
					.map(el => el.tagName.toLowerCase() + (el.className ? "." + String(el.className).trim().split(/\s+/).join(".") : ""))`))
				if len(shown) > 0 {
					t.Errorf("%s shows more than the content: %v", what, shown)
				}
				if st.id == "patterns" {
					// Every field of every pattern is on the screen's width: the rows are cards.
					cut := get(t, ctx, "measure the patterns on "+what, chromedp.Evaluate[int](
						`[...document.querySelectorAll(".patterns-grid td")].filter(td => td.getBoundingClientRect().right > innerWidth).length`))
					if cut > 0 {
						t.Errorf("%s: %d pattern fields lie past the window's right edge", what, cut)
					}
				}
			}
		}
	}
}

// At 1280×720 the access-patterns grid needs the rails' width: they fold by themselves, and the
// columns a room reads first (number, description, rates, type, entities, status) are shown whole.
// A rail the person opens from the keyboard stays open across a reload; the other stays folded
// through a live refresh; and a step whose grid fits gives the folded rail back.
func TestBrowser_railsFoldForTheGridAndThePersonsChoiceHolds(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	openAndJoin(t, ctx, base+"/d/"+created.EditToken, "Ada")
	do(t, ctx, "open the access patterns at 1280×720",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(base+"/d/"+created.EditToken+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS(".patterns-grid")),
	)
	folded := func(rail string) string {
		return `document.getElementById("workspace").classList.contains("` + rail + `-folded") &&
			document.querySelector("[data-testid=fold-` + rail + `]").getAttribute("aria-expanded") === "false"`
	}
	waitUntil(t, ctx, "both rails folded by themselves", folded("steps")+" && "+folded("aside"))
	const keyColumnsWhole = `(() => { const box = document.querySelector("#patterns .table-scroll").getBoundingClientRect();
		return [...document.querySelectorAll(".patterns-grid thead th")].slice(0, 7).map(th => th.textContent.trim() + (th.getBoundingClientRect().right <= box.right + 1 ? "" : " (cut)")).join(", ") })()`
	if got, want := get(t, ctx, "read the key columns", chromedp.Evaluate[string](keyColumnsWhole)), "#, Description, Peak RPS, Avg RPS, Type, Entities, Status"; got != want {
		t.Errorf("the first columns at 1280×720 are %q; want %q, each shown whole", got, want)
	}

	// Tab from the top bar's last button reaches the steps rail's, which opens it from the keyboard.
	do(t, ctx, "tab from the share button", chromedp.Focus(chromedp.CSS("[data-testid=share-button]")), chromedp.KeyEvent(kb.Tab))
	if id := get(t, ctx, "read the focus", chromedp.Evaluate[string](`document.activeElement.dataset.testid || document.activeElement.tagName`)); id != "fold-steps" {
		t.Fatalf("Tab after the share button reaches %s, want the steps rail's button", id)
	}
	for _, rail := range []string{"steps", "aside"} {
		button := "[data-testid=fold-" + rail + "]"
		do(t, ctx, "reach the "+rail+" rail's button from the keyboard", chromedp.Focus(chromedp.CSS(button)))
		if outline := get(t, ctx, "read its focus outline", chromedp.Evaluate[string](
			`document.activeElement.matches(":focus-visible") ? getComputedStyle(document.activeElement).outlineStyle : "no focus-visible"`)); outline == "none" || outline == "no focus-visible" {
			t.Errorf("the %s rail's button has no visible focus (%s)", rail, outline)
		}
	}
	do(t, ctx, "open the steps rail with Enter", chromedp.Focus(chromedp.CSS("[data-testid=fold-steps]")), chromedp.KeyEvent(kb.Enter))
	waitUntil(t, ctx, "the steps rail open", `!document.getElementById("workspace").classList.contains("steps-folded") &&
		document.querySelector("[data-testid=fold-steps]").getAttribute("aria-expanded") === "true"`)
	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(".patterns-grid")))
	waitUntil(t, ctx, "the steps open as chosen, the panel folded for the grid", "!("+folded("steps")+") && "+folded("aside"))

	// Someone else's edit redraws the step (and the side panel) live: the panel stays folded.
	rev := get(t, ctx, "read the revision shown", chromedp.Evaluate[string](`document.getElementById("aside").getAttribute("data-revision")`))
	changeAs(t, base, created.EditToken, "Bo", "set_pattern_field", `{"id": "ap1", "field": "description", "value": "Open a profile"}`)
	waitUntil(t, ctx, "the edit to arrive", `document.getElementById("aside").getAttribute("data-revision") !== "`+rev+`" && document.getElementById("ap-ap1-description").value === "Open a profile"`)
	if !get(t, ctx, "see the panel after a live refresh", chromedp.Evaluate[bool](folded("aside"))) {
		t.Fatal("the side panel came back after a live refresh, though the grid still needs its width")
	}
	do(t, ctx, "open the overview", chromedp.Navigate(base+"/d/"+created.EditToken), chromedp.WaitVisible(chromedp.CSS("#workspace")))
	waitUntil(t, ctx, "the panel back on a step that fits", "!("+folded("aside")+")")
}
