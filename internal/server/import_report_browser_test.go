package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// libraryRequirements is a requirement document in the seed's template with two things the import
// cannot place: a pattern type that is neither Read nor Write (line 15) and a section of the team's
// own (line 21).
const libraryRequirements = `# DynamoDB Modeling Session — Lending library

## Application Overview
- **Domain**: A neighbourhood lending library
- **Scale**: 40 requests/second at peak

## Access Patterns Analysis
| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |
|-----------|-------------|-----------------|------|-------------------|------------------|----------------------|--------|
| 1 | Register a new member | 2 RPS | Write | member_id, name | <100ms, strong, 1 item, <1 KB | Conditional put | ✅ |
| 2 | Show a member by member ID | 30 RPS | Read | member_id, name | <20ms, eventual, single item, ~1 KB | PK lookup | ✅ |
| 3 | Add a book to the catalogue | 0.5 RPS | Write | isbn, title | <200 ms, strong, 1 item, 2-4 KB | Librarians only | ✅ |
| 4 | Search books by title | 10 RPS | Read | title | p99 < 50 ms, eventual, at most 25, 2-4 KB | GSI on title | ⏳ |
| 5 | List the loans of a member | 15 RPS | Read | member_id, due_date | <30ms, eventual, up to 10 items, 300 B | Query the member | ✅ |
| 6 | Remind late borrowers | 1 RPS | Sometimes | member_id | Batch job | Nightly | ⏳ |

## Entity Relationships Deep Dive
- **Member → Loans**: 1:Many (avg 1.6 loans per member, max 12)
- **Book → Loans**: 1:Many (avg 2.5 loans per book, max 1,500)

## Open Questions
- Do we keep loans after a book is returned?
`

// A team imports a requirement document with something the import cannot read: the report says
// what was read, which sections were kept as prose, and each note with its line and its reason;
// on the Access patterns step each pattern shows the entities it was linked to, in a cell the
// team can correct.
func TestBrowser_importReportSaysWhatWasReadAndEachNoteWithItsLine(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	file := filepath.Join(t.TempDir(), "dynamodb_requirement.md")
	if err := os.WriteFile(file, []byte(libraryRequirements), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, _ := newBrowser(t)
	do(t, ctx, "import the file",
		chromedp.Navigate(base+"/import"),
		chromedp.SetUploadFiles(chromedp.CSS("[data-testid=import-file]"), []string{file}),
		chromedp.Click(chromedp.CSS("[data-testid=import-submit]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=import-report]")),
	)
	if read := textOf(t, ctx, "[data-testid=import-read]"); read != "Read: 0 tables, 6 access patterns, 3 entities, 2 relationships." {
		t.Errorf("the report says %q", read)
	}
	if prose := textOf(t, ctx, "[data-testid=import-prose]"); !strings.Contains(prose, "1 section, “Open Questions”") {
		t.Errorf("the report says %q; want the section kept as prose named", prose)
	}
	notes := get(t, ctx, "read the notes", chromedp.Evaluate[[][2]string](`[...document.querySelectorAll("[data-testid=import-note]")].map(li =>
		[li.querySelector(".note-line").textContent, li.querySelector(".note-text").textContent])`))
	want := map[string]string{
		"line 15": `pattern 6: type "Sometimes" is neither Read nor Write; it was kept in the design considerations`,
		"line 21": `section "Open Questions" is not part of the template; it was kept as prose`,
	}
	for _, n := range notes {
		if w, ok := want[n[0]]; ok && strings.Contains(n[1], w) {
			delete(want, n[0])
		}
	}
	for where, w := range want {
		t.Errorf("no note at %s says %q; the notes are %q", where, w, notes)
	}
	href := get(t, ctx, "read the design's link", chromedp.Evaluate[string](`document.querySelector("[data-testid=open-imported]").href`))
	openAndJoin(t, ctx, href, "Ada")
	do(t, ctx, "open the Access patterns step",
		chromedp.Click(chromedp.CSS("[data-testid=step-patterns]")),
		chromedp.WaitVisible(chromedp.CSS(".patterns-grid")),
	)
	links := get(t, ctx, "read the entities cells", chromedp.Evaluate[[]string](`["ap1", "ap3", "ap5"].map(id => {
		const el = document.getElementById("ap-" + id + "-entities");
		return el ? el.tagName.toLowerCase() + ":" + el.value : "missing";
	})`))
	if strings.Join(links, " | ") != "input:Member | input:Book | input:Member, Loans" {
		t.Errorf("the entities cells of patterns 1, 3 and 5 hold %q; want the linked entities in editable cells", links)
	}
}
