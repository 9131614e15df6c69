package datamodelmd

import (
	"regexp"
	"testing"

	"dynaloom/internal/designer/designertest"
)

func TestImport_everySpellingOfTheSameDocumentGivesTheSameDesign(t *testing.T) {
	t.Parallel()
	firstTable := regexp.MustCompile(`(?m)^### .+ Table$`)
	fake := "| tenant_id | order_key |\n| --- | --- |\n| FAKE | FAKE |"
	docs := []string{string(Export(designertest.OrdersDesign())), string(Export(designertest.HRDesign(t)))}
	designertest.AssertEverySpellingReadsTheSame(t, docs, firstTable, fake, Import)
}
