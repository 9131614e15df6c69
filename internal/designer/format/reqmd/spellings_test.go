package reqmd

import (
	"os"
	"regexp"
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
	docs := []string{string(golden), string(Export(designertest.OrdersDesign())), string(Export(designertest.HRDesign(t)))}
	designertest.AssertEverySpellingReadsTheSame(t, docs, patterns, fake, Import)
}
