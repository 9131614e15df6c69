package format

import (
	"testing"

	"dynaloom/internal/designer/designertest"
)

// Prose a team writes that markdown would read as more than text — a line under a line of "=" or
// "-" (a setext heading), an HTML comment, a table without outer pipes, a spaced thematic break —
// is written so that it reads back as the same prose, in both documents.
func TestExport_proseThatMarkdownReadsAsStructureIsAFixedPoint(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		"Title line\n===\nmore",
		"Title line\n--\nmore",
		"before\n<!-- a note -->\nafter",
		"x\n\n<!--\nnote\n-->",
		"a | b\n--|--\n1 | 2",
		"Term\n- - -",
	} {
		d := designertest.OrdersDesign()
		d.Prose.DesignPhilosophy = body
		d.Prose.TradeOffs = body
		assertPairFixedPoint(t, d)
	}
}
