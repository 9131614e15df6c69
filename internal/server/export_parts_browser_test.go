package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A data model too long for one page is previewed in parts: Next shows the second part, a table
// still under its header row, with the address saying which part, so that a reload or a live
// refresh stays on it; Copy, with the file no longer in the page, still puts the exact markdown on
// the clipboard.
func TestBrowser_aLongExportIsPreviewedInPartsAndCopiedWhole(t *testing.T) {
	base := startBrowserApp(t)
	raw, err := designer.MarshalJSON(designertest.Large(designertest.Size{Tables: 1, Items: 1500, GSIs: 2, Patterns: 4}))
	if err != nil {
		t.Fatal(err)
	}
	created := createOver(t, base, string(raw))
	resp, err := http.Get(base + "/api/designs/" + created.EditToken + "/export/data-model-md")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(want) <= maxInlineSource || len(want) <= 2*previewPartBytes {
		t.Fatalf("the data model is %d bytes; the test needs one longer than two parts", len(want))
	}

	ctx, _ := newBrowser(t)
	grantClipboard(t, ctx, base)
	openAndJoin(t, ctx, base+"/d/"+created.EditToken+"/export", "Ada")
	part := "[data-testid=preview-data-model-md] [data-testid=preview-part]"
	do(t, ctx, "see the first part", chromedp.WaitVisible(chromedp.CSS(part+" [data-testid=page-next]")))
	if n := get(t, ctx, "count the source boxes", chromedp.Evaluate[int](`document.querySelectorAll("#source-data-model-md").length`)); n != 0 {
		t.Fatal("the page carries the long data model for its Copy button")
	}

	do(t, ctx, "go to the next part", chromedp.Click(chromedp.CSS(part+" [data-testid=page-next]")))
	waitUntil(t, ctx, "the second part", `location.search.includes("part-data-model-md=2") && document.querySelector("`+part+` [data-testid=page-at] strong").textContent === "2"`)
	head := get(t, ctx, "read the second part's first table header", chromedp.Evaluate[string](
		`(document.querySelector("`+part+` [data-testid=preview] table th") || {}).textContent || ""`))
	if head != "tenant_id" {
		t.Errorf("the second part's first table is headed %q; a part inside the items table repeats its header", head)
	}
	do(t, ctx, "reload", chromedp.Reload())
	waitUntil(t, ctx, "the second part after a reload", `document.querySelector("`+part+` [data-testid=page-at] strong") && document.querySelector("`+part+` [data-testid=page-at] strong").textContent === "2"`)

	copyButton := "[data-testid=export-data-model-md] [data-testid=copy]"
	do(t, ctx, "copy the data model", chromedp.Click(chromedp.CSS(copyButton)))
	waitUntil(t, ctx, `the button to say "Copied"`, `document.querySelector("`+copyButton+`").textContent === "Copied"`)
	copied := get(t, ctx, "read the clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if copied != string(want) {
		t.Fatalf("the clipboard holds %d bytes that differ from the %d-byte export (%q…)", len(copied), len(want), copied[:min(len(copied), 80)])
	}
	if strings.Count(copied, "| tenant_id |") < 1 {
		t.Fatal("the copied document has no items table")
	}
}
