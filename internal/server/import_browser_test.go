package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A team arrives with the two deliverables of an earlier session: it picks both files on the import
// page, reads what Dynaloom made of them, and opens one design holding the patterns of the one and
// the tables of the other.
func TestBrowser_importTheTwoMarkdownFilesAsOneDesign(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	req, err := filepath.Abs(filepath.Join("..", "designer", "format", "reqmd", "testdata", "template-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	model, err := filepath.Abs(filepath.Join("..", "designer", "format", "datamodelmd", "testdata", "template-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := newBrowser(t)
	do(t, ctx, "import both files from the home page",
		chromedp.Navigate(base+"/"),
		chromedp.Click(chromedp.CSS("[data-testid=import-link]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=import-form]")),
		chromedp.SetUploadFiles(chromedp.CSS("[data-testid=import-file]"), []string{req, model}),
		chromedp.Click(chromedp.CSS("[data-testid=import-submit]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=import-report]")),
	)
	report := textOf(t, ctx, "[data-testid=import-report]")
	// Three patterns from the requirement file, a fourth that only the mapping names, said so.
	for _, want := range []string{"4 access patterns", "2 tables", "pattern 4 is in the Access Pattern Mapping but not in the requirements"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report says %q; want %q", report, want)
		}
	}
	href := get(t, ctx, "read the design's link", chromedp.Evaluate[string](`document.querySelector("[data-testid=open-imported]").href`))
	openAndJoin(t, ctx, href, "Ada")
	do(t, ctx, "open the Mapping step",
		chromedp.Click(chromedp.CSS("[data-testid=step-mapping]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=mapping]")),
	)
	// Pattern 3's words come from the requirement file, its operation from the data model.
	cards := get(t, ctx, "read the mapping cards", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("[data-testid=mapping]")).map(c => c.querySelector("h2").textContent + " | " + c.querySelector("[data-testid=mapping-ops]").textContent)`))
	if len(cards) != 4 || !strings.Contains(cards[2], "List a customer's orders, newest first") || strings.HasSuffix(cards[2], "| No operation yet") {
		t.Fatalf("mapping cards %q; want four, the third described by the requirement file and mapped by the data model", cards)
	}
}
