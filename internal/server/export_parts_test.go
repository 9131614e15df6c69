package server

import (
	"bytes"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/datamodelmd"
)

// A data model of 10,000 items is previewed in parts: the parts cover the document in order, each
// byte once; each is about the budget; one that begins inside a table repeats the table's header
// rows and renders as a table; none begins inside a code block; each is named by its heading.
func TestSplitPreview_partsCoverTheDocumentAndRenderWhole(t *testing.T) {
	doc := datamodelmd.Export(designertest.Large(designertest.Size{Tables: 2, Items: 2000, GSIs: 4, Patterns: 40}))
	doc = append(doc, []byte("\n```\n| not | a | table |\n|---|---|---|\n"+strings.Repeat("| x | y | z |\n", 3000)+"```\n\nThe end.\n")...)
	budget := 16 << 10
	parts := splitPreview(doc, budget)
	if len(parts) < len(doc)/budget/2 {
		t.Fatalf("%d bytes in %d parts of a %d-byte budget", len(doc), len(parts), budget)
	}
	var joined []byte
	continuedTables := 0
	for i, p := range parts {
		if i > 0 && p.start != parts[i-1].end || p.end <= p.start {
			t.Fatalf("part %d is %d–%d after one ending at %d", i, p.start, p.end, parts[i-1].end)
		}
		src := doc[p.start:p.end]
		joined = append(joined, src...)
		if p.end-p.start > 4*budget+1024 {
			t.Errorf("part %d (%s) holds %d bytes; the budget is %d", i, p.label, p.end-p.start, budget)
		}
		if p.label == "" {
			t.Errorf("part %d has no label", i)
		}
		if p.head != nil {
			continuedTables++
			if !bytes.HasPrefix(src, []byte("|")) || !isDelimiterRow(bytes.TrimSpace(p.head[bytes.IndexByte(p.head, '\n')+1:])) {
				t.Fatalf("part %d repeats %q before %.40q", i, p.head, src)
			}
			html := renderTo(t, append(append([]byte(nil), p.head...), src...))
			if !strings.HasPrefix(strings.TrimSpace(html), "<table>") || !strings.Contains(html, "<th>") {
				t.Fatalf("part %d, inside a table, does not render as one: %.200s", i, html)
			}
		}
		if inFence := bytes.Count(doc[:p.start], []byte("\n```")) % 2; inFence == 1 && p.end-p.start < 4*budget {
			t.Errorf("part %d begins inside a code block though the block is short", i)
		}
	}
	if !bytes.Equal(joined, doc) {
		t.Fatal("the parts joined are not the document")
	}
	if continuedTables == 0 {
		t.Fatal("no part continues a table; the sample items should span several")
	}
	if one := splitPreview([]byte("# A\n\nshort\n"), budget); len(one) != 1 || one[0].label != "A" {
		t.Fatalf("a short document is %d parts (%+v)", len(one), one)
	}
}

func renderTo(t *testing.T, src []byte) string {
	t.Helper()
	c, err := renderMarkdown(src)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
