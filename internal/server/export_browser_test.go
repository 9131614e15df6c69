package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The workshop ends on the Export step: the data model is previewed as a document, Copy puts the
// exact markdown on the clipboard, and Download saves the file under its deliverable's name.
func TestBrowser_exportPreviewCopyAndDownload(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"example": "hr-employees"}`)
	resp, err := http.Get(base + "/api/designs/" + created.EditToken + "/export/data-model-md")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(resp.Body)
	resp.Body.Close()

	ctx, _ := newBrowser(t)
	grantClipboard(t, ctx, base)
	openAndJoin(t, ctx, base+"/d/"+created.EditToken+"/export", "Ada")
	do(t, ctx, "see the preview", chromedp.WaitVisible(chromedp.CSS("[data-testid=preview-data-model-md] [data-testid=preview]")))
	preview := "[data-testid=preview-data-model-md] [data-testid=preview]"
	headings := get(t, ctx, "read the preview's headings", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("`+preview+` h2")).map(h => h.textContent)`))
	for _, h := range []string{"Design Philosophy & Approach", "Table Designs", "Access Pattern Mapping", "Validation Results"} {
		if !strings.Contains(strings.Join(headings, "|"), h) {
			t.Errorf("the preview has no %q heading; it has %q", h, headings)
		}
	}
	if n := get(t, ctx, "count preview tables", chromedp.Evaluate[int](`document.querySelectorAll("`+preview+` table").length`)); n < 5 {
		t.Errorf("the preview shows %d tables; the sample items and the mapping should render as tables", n)
	}

	do(t, ctx, "copy the data model", chromedp.Click(chromedp.CSS("[data-testid=export-data-model-md] [data-testid=copy]")))
	waitUntil(t, ctx, `the button to say "Copied"`, `document.querySelector("[data-testid=export-data-model-md] [data-testid=copy]").textContent === "Copied"`)
	copied := get(t, ctx, "read the clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if copied != string(want) {
		t.Fatalf("the clipboard holds %d bytes that differ from the %d-byte export", len(copied), len(want))
	}

	// What Download fetches: the link's own address, with the deliverable's file name.
	got := get(t, ctx, "fetch the download link", chromedp.Evaluate[string](`(async () => {
		const a = document.querySelector("[data-testid=export-data-model-md] [data-testid=download]");
		const r = await fetch(a.href);
		return a.getAttribute("download") + "|" + r.headers.get("Content-Disposition") + "|" + await r.text();
	})()`, chromedp.EvalAwaitPromise))
	parts := strings.SplitN(got, "|", 3)
	if len(parts) != 3 || parts[0] != "dynamodb_data_model.md" || !strings.Contains(parts[1], `filename="dynamodb_data_model.md"`) || parts[2] != string(want) {
		t.Fatalf("download: name %q, disposition %q, %d bytes (want %d)", parts[0], parts[1], len(parts[len(parts)-1]), len(want))
	}
}
