package server

import (
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"dynaloom/internal/designer"
)

// Alice and Bob both on the Tables step: Alice makes the first table Standard-IA and Bob's select
// shows it without a reload. Then on the Access patterns step Alice gives a write pattern 4 failed
// conditions per 100 and Bob sees 4; a negative rate is refused on Alice's cell, and Bob keeps 4.
func TestBrowser_tableClassAndFailedConditionsReachAnotherTab(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, aliceErrs := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	d := designAt(t, base, created.EditToken)
	w := slices.IndexFunc(d.Patterns, func(p designer.Pattern) bool { return p.Type == designer.Write })
	if w < 0 || len(d.Tables) == 0 {
		t.Fatal("the example has no write pattern or no table")
	}
	edit := base + "/d/" + created.EditToken
	class := "#" + elemID("tf", d.Tables[0].Name, "table_class")

	openAndJoin(t, alice, edit+"/tables", "Alice")
	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/tables", "Bob")
	do(t, bob, "see the table class", chromedp.WaitVisible(chromedp.CSS(class)))
	if got := get(t, bob, "read the class", chromedp.Evaluate[string](`document.querySelector("`+class+`").selectedOptions[0].textContent`)); got != "Standard" {
		t.Fatalf("the table class reads %q before any edit, want Standard", got)
	}
	do(t, alice, "make the table Standard-IA", chromedp.SetValue(chromedp.CSS(class), designer.StandardIAClass),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("`+class+`").dispatchEvent(new Event("change", {bubbles: true}))`))
	waitUntil(t, bob, "Alice's table class to reach Bob", `document.querySelector("`+class+`").selectedOptions[0].textContent === "Standard-IA"`)

	rate := "#" + patternCellID(d.Patterns[w].ID, designer.PatternField.ConditionalFailurePct.Key)
	do(t, alice, "open the patterns", chromedp.Navigate(edit+"/patterns"), chromedp.WaitVisible(chromedp.CSS(rate)))
	do(t, bob, "open the patterns", chromedp.Navigate(edit+"/patterns"), chromedp.WaitVisible(chromedp.CSS(rate)))
	typeOver(t, alice, rate, "4")
	waitUntil(t, bob, "Alice's failed conditions to reach Bob", `document.querySelector("`+rate+`").value === "4"`)

	aliceErrs.expectFailedRequest(http.StatusUnprocessableEntity, "/patterns/field")
	typeOver(t, alice, rate, "-5")
	waitUntil(t, alice, "the refusal on Alice's cell", `(document.querySelector("`+rate+`-cell [data-testid=cell-error]") || {}).textContent?.includes("is not a percentage from 0 to 1000")`)
	if got := get(t, bob, "read Bob's rate", chromedp.Evaluate[string](`document.querySelector("`+rate+`").value`)); got != "4" {
		t.Errorf("after Alice's refused rate Bob's cell reads %q, want 4", got)
	}
	if got := designAt(t, base, created.EditToken).Patterns[w].ConditionalFailurePct; got == nil || *got != 4 {
		t.Errorf("the design holds a rate of %v after the refusal, want 4", got)
	}
}

// designAt reads a design through the API of the app at base.
func designAt(t *testing.T, base, token string) designer.Design {
	t.Helper()
	resp, err := http.Get(base + "/api/designs/" + token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	d, err := designer.ParseJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
