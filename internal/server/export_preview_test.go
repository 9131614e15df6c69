package server

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

func previewHTML(t testing.TB, src string) string {
	t.Helper()
	c, err := renderMarkdown([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestRenderMarkdown_deepNestingOpensAtMost32Containers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ marker, tag string }{
		{">", "<blockquote>"}, {"> ", "<blockquote>"}, {"- ", "<ul>"}, {"* ", "<ul>"}, {"1. ", "<ol"}, {"2) ", "<ol"},
	} {
		html := previewHTML(t, strings.Repeat(c.marker, 20_000)+"x\nlazy\n")
		if n := strings.Count(html, c.tag); n != maxPreviewNesting {
			t.Errorf("%q × 20,000 opened %d %s, want %d", c.marker, n, c.tag, maxPreviewNesting)
		}
		if !strings.Contains(html, strings.TrimSpace(strings.Repeat(c.marker, 3))) && c.marker[0] != '>' {
			t.Errorf("%q × 20,000: the markers past the bound do not show as text", c.marker)
		}
	}
}

func TestCapNesting_leavesOrdinaryMarkdownAlone(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"# Title\n\n> quote\n> > nested\n\n- a\n  - b\n    1. c\n\n* x\n+ y\n10) z\n-not a list\n1.5 is a number\n",
		strings.Repeat("> ", maxPreviewNesting) + "exactly at the bound\n",
		"",
	} {
		if got := capNesting([]byte(src)); string(got) != src {
			t.Errorf("capNesting changed %q to %q", src, got)
		}
	}
	if got := string(capNesting([]byte(strings.Repeat(">", maxPreviewNesting+2) + " x"))); got != strings.Repeat(">", maxPreviewNesting)+`\>> x` {
		t.Errorf("got %q", got)
	}
}

func TestRenderMarkdown_rawHTMLFromProseIsNeverMarkup(t *testing.T) {
	t.Parallel()
	html := previewHTML(t, "Notes <script>alert(1)</script> and <img src=x onerror=alert(2)>\n\n<div onclick=\"x()\">block</div>\n\n<!-- hidden -->\n")
	for _, bad := range []string{"<script", "<img", "onerror", "<div", "onclick", "<!--  hidden"} {
		if strings.Contains(html, bad) {
			t.Errorf("preview holds %q: %s", bad, html)
		}
	}
}

// BenchmarkRenderMarkdown_nestedQuotes previews 100 KB and 400 KB of nested quotes; capped, the
// time per byte stays the same.
func BenchmarkRenderMarkdown_nestedQuotes(b *testing.B) {
	for _, size := range []int{100_000, 400_000} {
		src := strings.Repeat(">", size-2) + " x"
		b.Run(fmt.Sprint(size/1000, "KB"), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				previewHTML(b, src)
			}
		})
	}
}

// Lists nested by indentation over many lines are bounded too: no line keeps more than
// maxPreviewIndent columns of indentation, while an ordinary nested list renders as written.
func TestCapNesting_deepIndentationIsCut(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 300 {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	b.WriteString(strings.Repeat("\t", 200) + "continued\n")
	for line := range strings.SplitSeq(string(capNesting([]byte(b.String()))), "\n") {
		if lead := len(line) - len(strings.TrimLeft(line, " \t")); lead > maxPreviewIndent {
			t.Fatalf("a line keeps %d columns of indentation, more than %d", lead, maxPreviewIndent)
		}
	}
	nested := "- 1\n    - 2\n        - 3\n            - 4\n                - 5\n                    - 6\n"
	if html := previewHTML(t, nested); strings.Count(html, "<ul>") != 6 {
		t.Fatalf("an ordinary list six deep: %s", html)
	}
}

// BenchmarkRenderMarkdown_indentedLists previews a list indented 300 levels deep followed by
// 2,000 and 8,000 deeply indented lines; capped, the time grows with the lines.
func BenchmarkRenderMarkdown_indentedLists(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		var sb strings.Builder
		for i := range 300 {
			sb.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		for range n {
			sb.WriteString(strings.Repeat(" ", 600) + "continued\n")
		}
		src := sb.String()
		b.Run(fmt.Sprint(n, "lines"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				previewHTML(b, src)
			}
		})
	}
}
