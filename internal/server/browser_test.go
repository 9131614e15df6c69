package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// These tests drive the real pages in Chromium: what httptest cannot show is that htmx, app.js and
// the Content-Security-Policy work together in a browser.

func TestBrowser_createRenameAndShareReadOnly(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	editURL, editToken := createDesign(t, ctx, base, "Orders service", "Ada")

	// A mark on the window survives htmx swaps but not a reload, so it proves the title changed in place.
	do(t, ctx, "mark the page", chromedp.Evaluate[chromedp.Void](`window.dynaloomNoReload = true`))
	typeOver(t, ctx, "#field-name-input", "Orders v2")
	do(t, ctx, "wait for the rename to save",
		chromedp.WaitVisible(chromedp.CSS("#field-name [data-testid=field-saved]")))
	if got := textOf(t, ctx, "[data-testid=design-title]"); got != "Orders v2" {
		t.Fatalf("after the rename the top bar shows %q, want %q", got, "Orders v2")
	}
	if got := get(t, ctx, "read the window title", chromedp.Evaluate[string](`document.title`)); got != "Orders v2 · Dynaloom" {
		t.Fatalf("after the rename the window title is %q", got)
	}
	if !get(t, ctx, "read the mark", chromedp.Evaluate[bool](`window.dynaloomNoReload === true`)) {
		t.Fatal("the page reloaded to show the rename; htmx should have swapped it in place")
	}

	do(t, ctx, "reload", chromedp.Reload())
	if got := get(t, ctx, "read the name field", chromedp.Value(chromedp.CSS("#field-name-input"))); got != "Orders v2" {
		t.Fatalf("after a reload the name field holds %q, want %q", got, "Orders v2")
	}
	if got := textOf(t, ctx, "[data-testid=design-title]"); got != "Orders v2" {
		t.Fatalf("after a reload the top bar shows %q", got)
	}
	if got := textOf(t, ctx, "[data-testid=revision]"); got != "2" {
		t.Fatalf("after one rename the revision is %q, want 2", got)
	}

	const domain = "E-commerce marketplace for handmade goods"
	do(t, ctx, "write the domain and leave the field",
		chromedp.Focus(chromedp.CSS("#field-overview-domain-input")),
		chromedp.KeyEvent(domain),
		chromedp.Blur(chromedp.CSS("#field-overview-domain-input")),
		chromedp.WaitVisible(chromedp.CSS("#field-overview-domain [data-testid=field-saved]")),
		chromedp.Reload(),
	)
	if got := get(t, ctx, "read the domain", chromedp.Value(chromedp.CSS("#field-overview-domain-input"))); got != domain {
		t.Fatalf("after a reload the domain holds %q, want %q", got, domain)
	}

	openShareDialog(t, ctx)
	viewURL := get(t, ctx, "read the view link", chromedp.Value(chromedp.CSS("[data-testid=view-link]")))
	if !strings.HasPrefix(viewURL, base+"/d/") || viewURL == editURL || strings.Contains(viewURL, editToken) {
		t.Fatalf("view link %q is not a separate link on this server (edit link %q)", viewURL, editURL)
	}

	// Another person: a separate browser context has none of the editor's cookies.
	viewer, viewerErrs := newIsolatedTab(t, ctx)
	do(t, viewer, "open the view link",
		chromedp.Navigate(viewURL),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=view-only-badge]")),
	)
	if got := textOf(t, viewer, "[data-testid=design-title]"); got != "Orders v2" {
		t.Fatalf("the view page shows the name %q, want %q", got, "Orders v2")
	}
	if got := textOf(t, viewer, "#field-overview-domain"); !strings.Contains(got, domain) {
		t.Fatalf("the view page shows the domain as %q", got)
	}
	var editable struct {
		Forms, Textareas int
		TextInputs       []string
	}
	raw := get(t, viewer, "list editable elements", chromedp.Evaluate[[]byte](`({
		forms: document.querySelectorAll("form").length,
		textareas: document.querySelectorAll("textarea").length,
		textInputs: [...document.querySelectorAll("input")].filter(e => e.type === "text").map(e => e.id),
	})`))
	if err := json.Unmarshal(raw, &editable); err != nil {
		t.Fatal(err)
	}
	if editable.Forms != 0 || editable.Textareas != 0 || !slices.Equal(editable.TextInputs, []string{"view-link"}) {
		t.Fatalf("the view page can edit: %d forms, %d textareas, text inputs %q (want only the view link)",
			editable.Forms, editable.Textareas, editable.TextInputs)
	}
	html := get(t, viewer, "read the page", chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if strings.Contains(html, editToken) {
		t.Fatal("the view page reveals the edit token")
	}

	// The page offers no form, but a same-origin script could still post: the server must refuse.
	viewerErrs.expectFailedRequest(403, "/name")
	status := get(t, viewer, "post a rename from the view page", chromedp.Evaluate[int](
		`fetch(location.pathname + "/name", {method: "POST", body: new URLSearchParams({name: "Hijacked"})}).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	if status != 403 {
		t.Fatalf("a rename posted with the view link answered %d, want 403", status)
	}
	do(t, viewer, "reload the view", chromedp.Reload())
	if got := textOf(t, viewer, "[data-testid=design-title]"); got != "Orders v2" {
		t.Fatalf("after the refused post the name is %q", got)
	}
}

func TestBrowser_badInputShowsMessageOnField(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, errs := newBrowser(t)
	createDesign(t, ctx, base, "Payments", "Grace")
	// The server answers 422 with the field; the browser logs that status as a failed request.
	errs.expectFailedRequest(422, "/name")

	typeOver(t, ctx, "#field-name-input", "")
	do(t, ctx, "wait for the field's message",
		chromedp.WaitVisible(chromedp.CSS("#field-name [data-testid=field-error]")))
	if got := textOf(t, ctx, "#field-name [data-testid=field-error]"); !strings.Contains(got, "must not be empty") {
		t.Fatalf("the field says %q, want it to explain the name must not be empty", got)
	}
	if got := textOf(t, ctx, "[data-testid=design-title]"); got != "Payments" {
		t.Fatalf("a refused rename changed the top bar to %q", got)
	}
	invalid := get(t, ctx, "read aria-invalid", chromedp.AttributeValue(chromedp.CSS("#field-name-input"), "aria-invalid"))
	if invalid.Value != "true" {
		t.Fatal("the refused input is not marked aria-invalid for screen readers")
	}

	do(t, ctx, "reload", chromedp.Reload())
	if got := textOf(t, ctx, "[data-testid=revision]"); got != "1" {
		t.Fatalf("a refused rename moved the revision to %q", got)
	}
	if got := get(t, ctx, "read the name field", chromedp.Value(chromedp.CSS("#field-name-input"))); got != "Payments" {
		t.Fatalf("after a reload the name field holds %q", got)
	}
}

func TestBrowser_copyButtonCopiesTheEditLink(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	editURL, _ := createDesign(t, ctx, base, "Inventory", "Linus")

	grantClipboard(t, ctx, base)
	openShareDialog(t, ctx)
	do(t, ctx, "click Copy next to the edit link", chromedp.Click(chromedp.CSS("[data-testid=copy-edit-link]")))
	// app.js puts the label back after 1.6 s, so wait for it promptly.
	waitUntil(t, ctx, `the button to say "Copied"`,
		`document.querySelector("[data-testid=copy-edit-link]").textContent === "Copied"`)
	copied := get(t, ctx, "read the clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if copied != editURL {
		t.Fatalf("the clipboard holds %q, want the edit link %q", copied, editURL)
	}
}

// A workshop fills the access-patterns table while people talk: keyboard only, a row at a time,
// with the findings panel reacting to every cell.
func TestBrowser_fillThreePatternsByKeyboardAndSeeAFindingComeAndGo(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	editURL, _ := createDesign(t, ctx, base, "Orders", "Ada")
	do(t, ctx, "open the access patterns step",
		chromedp.Navigate(editURL+"/patterns"),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=add-pattern]")),
	)
	// The wide grid folds the rails away; this person keeps the findings in sight.
	if folded := get(t, ctx, "see whether the side panel folded", chromedp.Evaluate[bool](
		`document.getElementById("workspace").classList.contains("aside-folded")`)); folded {
		do(t, ctx, "open the side panel", chromedp.Click(chromedp.CSS("[data-testid=fold-aside]")))
	}
	do(t, ctx, "add a pattern",
		chromedp.Focus(chromedp.CSS("[data-testid=add-pattern]")),
		chromedp.KeyEvent(kb.Enter),
	)
	patterns := []struct{ description, peak, avg string }{
		{"Get an order by its id", "500", "120"},
		{"List a customer's orders, newest first", "80", "20"},
		{"Place an order", "40", "10"},
	}
	const missingRPS = `[data-testid=finding][data-code=REQ001]`

	for i, p := range patterns {
		n := strconv.Itoa(i + 1)
		waitUntil(t, ctx, "pattern "+n+"'s description to have the focus",
			`document.activeElement && document.activeElement.closest("tr[data-number='`+n+`']") !== null && document.activeElement.id.endsWith("-description")`)
		do(t, ctx, "describe pattern "+n, chromedp.KeyEvent(p.description+kb.Tab))
		do(t, ctx, "see that pattern "+n+" lacks RPS", chromedp.WaitVisible(chromedp.CSS(missingRPS)))
		do(t, ctx, "give pattern "+n+" its rates",
			chromedp.KeyEvent(p.peak+kb.Tab),
			chromedp.KeyEvent(p.avg+kb.Tab),
		)

		do(t, ctx, "see the RPS finding go", chromedp.WaitNotPresent(chromedp.CSS(missingRPS)))
		if i < len(patterns)-1 {
			// Back in a text cell of the last row, Enter adds the next pattern.
			do(t, ctx, "add the next pattern with Enter",
				chromedp.Focus(chromedp.CSS("tr[data-number='"+n+"'] [id$='-attributes']")),
				chromedp.KeyEvent(kb.Enter),
			)
		}
	}

	do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("[data-testid=pattern-row]")))
	rows := get(t, ctx, "read the rows", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("[data-testid=pattern-row]")).map(r =>
		[r.dataset.number, r.querySelector("[id$='-description']").value, r.querySelector("[id$='-peak_rps']").value, r.querySelector("[id$='-avg_rps']").value].join("|"))`))
	var want []string
	for i, p := range patterns {
		want = append(want, strconv.Itoa(i+1)+"|"+p.description+"|"+p.peak+"|"+p.avg)
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("after a reload the patterns are\n%v\nwant\n%v", rows, want)
	}
}

// The heart of the designer: typing into a sample item's index-key cell changes that index's grid
// at once, and fifty rows pasted from a spreadsheet land in one go.
func TestBrowser_keyCellEditUpdatesTheGSIGridAndPasteAddsRows(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	editURL, _ := createDesign(t, ctx, base, "Orders", "Ada")
	do(t, ctx, "add a table",
		chromedp.Navigate(editURL+"/tables"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=new-table-name]"), "Orders"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=new-table-pk]"), "order_id"),
		chromedp.Click(chromedp.CSS("[data-testid=add-table]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=item-grid]")),
	)
	do(t, ctx, "add a GSI on status",
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] input[name=name]"), "ByStatus"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=add-index-form] input[name=partition_key]"), "status:S"),
		chromedp.Click(chromedp.CSS("[data-testid=add-index]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=index-grid][data-index=ByStatus]")),
	)

	var tsv strings.Builder
	tsv.WriteString("order_id\tstatus\ttotal\n")
	for i := 1; i <= 50; i++ {
		status := ""
		if i%2 == 0 {
			status = "OPEN"
		}
		fmt.Fprintf(&tsv, "O%03d\t%s\t%d.50\n", i, status, i)
	}
	do(t, ctx, "paste 50 TSV rows",
		chromedp.SetValue(chromedp.CSS("[data-testid=paste-text]"), tsv.String()),
		chromedp.Click(chromedp.CSS("[data-testid=paste-submit]")),
	)
	waitUntil(t, ctx, "50 items in the grid", `document.querySelectorAll("[data-testid=item-row]").length === 50`)
	if got := textOf(t, ctx, "[data-testid=item-count]"); got != "50" {
		t.Fatalf("item count shows %q after pasting 50 rows", got)
	}
	const gsiRows = `document.querySelectorAll("[data-testid=index-grid][data-index=ByStatus] [data-testid=index-row]").length`
	if n := get(t, ctx, "count GSI rows", chromedp.Evaluate[int](gsiRows)); n != 25 {
		t.Fatalf("ByStatus holds %d items; the 25 without a status should be left out", n)
	}

	do(t, ctx, "mark the page", chromedp.Evaluate[chromedp.Void](`window.dynaloomNoReload = true`))
	// O001 has no status: typing one puts it into the index.
	id := get(t, ctx, "find O001's status cell", chromedp.Evaluate[string](`(() => {
		const row = Array.from(document.querySelectorAll("[data-testid=item-row]")).find(r => r.querySelector("input").value === "O001");
		return row.querySelectorAll("input[type=text]")[1].id })()`))
	do(t, ctx, "type a status into O001",
		chromedp.Focus(chromedp.ID(id)),
		chromedp.KeyEvent("SHIPPED"+kb.Tab),
	)
	waitUntil(t, ctx, "O001 to appear in ByStatus", gsiRows+` === 26`)
	if !get(t, ctx, "read the mark", chromedp.Evaluate[bool](`window.dynaloomNoReload === true`)) {
		t.Fatal("the page reloaded; the GSI grid should change in place")
	}
	first := get(t, ctx, "read ByStatus order", chromedp.Evaluate[string](`document.querySelector("[data-testid=index-grid][data-index=ByStatus] [data-testid=index-row] td").textContent`))
	if first != "OPEN" {
		t.Fatalf("ByStatus starts with %q; index entries sort by their key (OPEN before SHIPPED)", first)
	}
}
