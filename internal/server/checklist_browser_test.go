package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// changeOver posts one typed change to a running server through the API.
func changeOver(t *testing.T, base, token, body string) {
	t.Helper()
	resp, err := http.Post(base+"/api/designs/"+token+"/changes", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("change %s: %d", body, resp.StatusCode)
	}
}

// waitStored waits until the design, read through the API, holds text: the edit was saved.
func waitStored(t *testing.T, base, token, text string) {
	t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/api/designs/" + token)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil && strings.Contains(string(body), text) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the design never held %q", text)
}

// followChecklistLink clicks the link of the data model checklist line that starts with prefix
// and waits until the field with the given id has the focus.
func followChecklistLink(t *testing.T, ctx context.Context, prefix, fieldID string) {
	t.Helper()
	do(t, ctx, "follow the link of the line "+prefix,
		chromedp.WaitVisible(chromedp.CSS("[data-testid=data-model-checklist]")),
		chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll("[data-testid=data-model-checklist] [data-testid=checklist-link]")]
			.find(a => a.textContent.startsWith(`+jsString(prefix)+`)).click()`),
		chromedp.WaitReady(chromedp.CSS("#"+fieldID)),
	)
	waitAcross(t, ctx, "the focus on "+fieldID, `document.activeElement && document.activeElement.id === `+jsString(fieldID))
}

// lineTicked is the JavaScript test that the data model checklist line starting with prefix is ticked.
func lineTicked(prefix string) string {
	return `[...document.querySelectorAll("[data-testid=data-model-checklist] [data-testid=checklist-item]")]
		.some(li => li.dataset.ok === "true" && li.textContent.includes(` + jsString(prefix) + `))`
}

// An unticked line of the data model checklist links to the field that ticks it: the link lands
// on the field with the focus (on the Validation step for the write-up, on the table's tab for a
// GSI's key justification, in the table's closed notes for its capacity planning), and filling
// the field ticks the line.
func TestBrowser_checklistLinkLandsOnTheFieldThatTicksIt(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, errs := newBrowser(t)
	created := createOver(t, base, `{"example": "hr-employees"}`)
	token := created.EditToken
	changeOver(t, base, token, `{"kind": "set_prose", "change": {"field": "design_philosophy", "value": ""}}`)
	changeOver(t, base, token, `{"kind": "set_index_field", "change": {"table": "Employee", "index": "EmployeesByTitle", "field": "partition_key_justification", "value": ""}}`)
	changeOver(t, base, token, `{"kind": "set_table_field", "change": {"table": "Department", "field": "capacity_notes", "value": ""}}`)
	validation := base + "/d/" + token + "/validation"
	openAndJoin(t, ctx, validation, "Ada")

	const reasoned, documented, cost = "Reasoned step-by-step", "All tables and GSIs documented", "Cost estimates provided"
	followChecklistLink(t, ctx, reasoned, "prose-design_philosophy-input")
	do(t, ctx, "write the design philosophy",
		chromedp.KeyEvent("Aggregates first: what is read together is stored together."+kb.Tab),
	)
	waitUntil(t, ctx, "the line "+reasoned+" to be ticked", lineTicked(reasoned))

	followChecklistLink(t, ctx, documented, "ixf-Employee-EmployeesByTitle-partition_key_justification")
	if loc := get(t, ctx, "read the location", chromedp.Location()); !strings.Contains(loc, "/tables") {
		t.Fatalf("the GSI's link went to %s", loc)
	}
	typeOver(t, ctx, "#ixf-Employee-EmployeesByTitle-partition_key_justification", "Hundreds of titles spread the writes.")
	waitStored(t, base, created.ViewToken, "Hundreds of titles spread the writes.")

	do(t, ctx, "back to the Validation step", chromedp.Navigate(validation))
	waitAcross(t, ctx, "the line "+documented+" to be ticked", lineTicked(documented))
	followChecklistLink(t, ctx, cost, "tf-Department-capacity_notes")
	waitUntil(t, ctx, "the table's notes to be open", `document.activeElement.closest("details").open`)
	typeOver(t, ctx, "#tf-Department-capacity_notes", "Small: nine departments, read on every page.")
	waitStored(t, base, created.ViewToken, "Small: nine departments, read on every page.")
	do(t, ctx, "back to the Validation step", chromedp.Navigate(validation))
	waitAcross(t, ctx, "the line "+cost+" to be ticked", lineTicked(cost))
	errs.check(t, "the page")
}
