package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"dynaloom/internal/designer"
)

// A new user opens each example from the home page's gallery as it shows it (title, model map,
// what it teaches, the button), answers the name prompt, and finds the example's tables with their sample
// items on the Tables step.
func TestBrowser_galleryOpensEveryExampleAtItsTables(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	examples := designer.Examples()
	tab, _ := newBrowserWithin(t, browserTestTimeout+time.Duration(len(examples))*15*time.Second)
	for i, ex := range examples {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		card := "[data-testid=example-" + ex.ID + "]"
		do(t, tab, "open the home page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(card)))
		if got := textOf(t, tab, card+" h3"); got != ex.Title {
			t.Errorf("card %s is titled %q, want %q", ex.ID, got, ex.Title)
		}
		teaches := get(t, tab, "read what "+ex.ID+" teaches", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll(`+strconv.Quote(card+" [data-testid=example-teaches] li")+`)].map(li => li.textContent.trim())`))
		if !slices.Equal(teaches, ex.Teaches) {
			t.Errorf("card %s teaches %q, want %q", ex.ID, teaches, ex.Teaches)
		}
		if got := textOf(t, tab, card+" [data-testid=example-figures]"); !strings.HasPrefix(got, fmt.Sprintf("%d table", len(d.Tables))) {
			t.Errorf("card %s figures %q do not start with its %d tables", ex.ID, got, len(d.Tables))
		}
		waitUntil(t, tab, ex.ID+"'s model map drawn in its card", `(() => {
			const img = document.querySelector(`+strconv.Quote(card+" [data-testid=example-thumbnail]")+`);
			img?.scrollIntoView();
			return !!img && img.complete && img.naturalWidth > 0;
		})()`)
		do(t, tab, "start from "+ex.ID, chromedp.Click(chromedp.CSS(card+" [data-testid=start-example]")),
			chromedp.WaitVisible(chromedp.CSS("[data-testid=design-title]")))
		if i == 0 {
			do(t, tab, "answer the name prompt",
				chromedp.SendKeys(chromedp.CSS("[data-testid=participant-name]"), "Noor"),
				chromedp.Click(chromedp.CSS("[data-testid=participant-save]")),
				chromedp.WaitNotPresent(chromedp.CSS("[data-testid=name-prompt]")),
			)
		}
		if got := textOf(t, tab, "[data-testid=design-title]"); got != ex.Title {
			t.Errorf("starting from %s opened a design called %q", ex.ID, got)
		}
		do(t, tab, "go to the Tables step of "+ex.ID, chromedp.Click(chromedp.CSS("[data-testid=step-tables]")),
			chromedp.WaitVisible(chromedp.CSS("[data-testid=table]")))
		tabs := get(t, tab, "read the table tabs", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('nav.tabs a')].map(a => a.textContent.trim())`))
		var want []string
		for _, tb := range d.Tables {
			want = append(want, tb.Name)
		}
		if !slices.Equal(tabs, want) {
			t.Errorf("%s: the Tables step shows the tables %q, want %q", ex.ID, tabs, want)
		}
		if got, want := textOf(t, tab, "[data-testid=item-count]"), strconv.Itoa(len(d.Tables[0].Items)); got != want {
			t.Errorf("%s: table %s shows %s sample items, want %s", ex.ID, d.Tables[0].Name, got, want)
		}
	}
}

// The gallery's buttons are reached with the keyboard, and the focused one is outlined.
func TestBrowser_galleryButtonShowsKeyboardFocus(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	tab, _ := newBrowser(t)
	do(t, tab, "open the home page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("[data-testid=gallery]")))
	for range 40 {
		if get(t, tab, "ask what has focus", chromedp.Evaluate[bool](`document.activeElement.matches('[data-testid=start-example]')`)) {
			break
		}
		do(t, tab, "press Tab", chromedp.KeyEvent(kb.Tab))
	}
	focused := get(t, tab, "read the focused button", chromedp.Evaluate[map[string]string](`(() => {
		const el = document.activeElement, s = getComputedStyle(el);
		return {testid: el.dataset.testid || "", name: el.textContent.replace(/\s+/g, " ").trim(), outline: s.outlineStyle, width: s.outlineWidth};
	})()`))
	if focused["testid"] != "start-example" {
		t.Fatalf("40 presses of Tab never reached a gallery button; focus is on %v", focused)
	}
	first := designer.Examples()[0]
	if want := "Start from this example: " + first.Title; focused["name"] != want {
		t.Errorf("the first gallery button reads %q, want %q", focused["name"], want)
	}
	if focused["outline"] != "solid" || focused["width"] == "0px" {
		t.Errorf("the focused gallery button has outline %s %s, want a visible one", focused["outline"], focused["width"])
	}
}
