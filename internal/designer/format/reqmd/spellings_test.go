package reqmd

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
)

func TestImport_everySpellingOfTheSameDocumentGivesTheSameDesign(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile("testdata/golden.md")
	if err != nil {
		t.Fatal(err)
	}
	patterns := regexp.MustCompile(`(?m)^## Access Patterns Analysis$`)
	fake := "| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |\n" +
		"|---|---|---|---|---|---|---|---|\n| 99 | FAKE | 5 RPS | Read | FAKE | FAKE | FAKE | ✅ |"
	for _, doc := range []string{string(golden), string(Export(designertest.OrdersDesign())), string(Export(designertest.HRDesign(t)))} {
		want, _, err := Import([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range designertest.MarkdownSpellings(patterns, fake) {
			t.Run(want.Name+"/"+sp.Name, func(t *testing.T) {
				variant := sp.Rewrite(doc)
				if variant == doc {
					t.Fatal("the rewrite changed nothing")
				}
				got, notes, err := Import([]byte(variant))
				if err != nil {
					t.Fatalf("%v\n%s", err, variant)
				}
				if commented := strings.Contains(variant, "<!--"); designertest.HasNote(notes, "HTML comment was skipped") != commented {
					t.Errorf("a note of the skipped comment: %v, want %v", !commented, commented)
				}
				designertest.AssertSameReading(t, want, got, sp, variant)
			})
		}
	}
}
