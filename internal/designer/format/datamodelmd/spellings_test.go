package datamodelmd

import (
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestImport_everySpellingOfTheSameDocumentGivesTheSameDesign(t *testing.T) {
	t.Parallel()
	firstTable := regexp.MustCompile(`(?m)^### .+ Table$`)
	fake := "| tenant_id | order_key |\n| --- | --- |\n| FAKE | FAKE |"
	for _, base := range []designer.Design{designertest.OrdersDesign(), designertest.HRDesign(t)} {
		doc := string(Export(base))
		want, _, err := Import([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range designertest.MarkdownSpellings(firstTable, fake) {
			t.Run(base.Name+"/"+sp.Name, func(t *testing.T) {
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
