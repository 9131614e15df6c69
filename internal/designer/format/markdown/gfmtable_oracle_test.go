package markdown

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// The reader finds GFM tables with a transformer of its own, which keeps a table's rows as lines
// instead of building goldmark's node per cell. These tests hold it to goldmark's own table
// extension: for any document, the top-level tables each finds start on the same line and have
// the same number of rows.

// gfmTables lists the top-level tables goldmark's table extension finds in doc, as
// "line:rows" (header and body rows, the delimiter row not counted); the line is "?" where no
// cell holds text to place it by.
func gfmTables(doc string) []string {
	src := []byte(doc)
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	root := md.Parser().Parse(text.NewReader(src))
	var out []string
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		tbl, ok := n.(*extast.Table)
		if !ok {
			continue
		}
		// The header row and the body rows are consecutive lines around the delimiter row, so
		// the first row holding text places the header: row i (i ≥ 1) is i+1 lines below it.
		rows := 0
		line := "?"
		for r := tbl.FirstChild(); r != nil; r = r.NextSibling() {
			if at := firstSegmentStart(r); at >= 0 && line == "?" {
				n := bytes.Count(src[:at], []byte("\n")) + 1
				if rows > 0 {
					n -= rows + 1
				}
				line = fmt.Sprint(n)
			}
			rows++
		}
		out = append(out, fmt.Sprintf("%s:%d", line, rows))
	}
	return out
}

// firstSegmentStart is the byte offset where a row's first cell text begins, or -1.
func firstSegmentStart(row ast.Node) int {
	start := -1
	_ = ast.Walk(row, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || start >= 0 {
			return ast.WalkContinue, nil
		}
		if t, ok := n.(*ast.Text); ok {
			start = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return start
}

// ourTables lists the tables Walk hands over, as "line:rows".
func ourTables(doc string) []string {
	var out []string
	Walk(doc, func(int, int, string) {}, func(it Item) {
		if it.Kind == KindTable {
			out = append(out, fmt.Sprintf("%d:%d", it.Line, len(it.Lines)-1))
		}
	})
	return out
}

// sameTables compares ours with goldmark's, a "?" line matching any.
func sameTables(ours, gfm []string) bool {
	if len(ours) != len(gfm) {
		return false
	}
	for i := range ours {
		o, g := strings.SplitN(ours[i], ":", 2), strings.SplitN(gfm[i], ":", 2)
		if o[1] != g[1] || (g[0] != "?" && o[0] != g[0]) {
			return false
		}
	}
	return true
}

func tableCorpus(t testing.TB) []string {
	docs := []string{
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"a | b\n--|--\n1 | 2\n3 | 4\n",
		"intro\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\nafter\n",
		"| a | b |\n| --- |\n| 1 | 2 |\n",
		"| a \\| b | c |\n| - | - |\n",
		"# T\n\n| a |\n|---|\n| 1 |\nmore\n\n- x\n",
		"    | a | b |\n    |---|---|\n",
	}
	for _, glob := range []string{"../*/testdata/*.md", "../testdata/*/*.md"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, string(b))
		}
	}
	return docs
}

func TestWalk_findsTheTablesGoldmarksExtensionFinds(t *testing.T) {
	t.Parallel()
	docs := tableCorpus(t)
	if len(docs) < 20 {
		t.Fatalf("only %d documents to compare; the testdata globs found too few", len(docs))
	}
	for i, doc := range docs {
		// A document wrapped whole in a fence is unwrapped by Walk; goldmark sees a code block.
		if strings.HasPrefix(doc, "```") {
			continue
		}
		if got, want := ourTables(doc), gfmTables(doc); !sameTables(got, want) {
			t.Errorf("document %d: tables (line:rows) %q, goldmark's table extension finds %q", i, got, want)
		}
	}
}

func FuzzWalkTablesAsGFM(f *testing.F) {
	for _, doc := range tableCorpus(f) {
		if len(doc) < 4096 {
			f.Add(doc)
		}
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if strings.HasPrefix(strings.TrimLeft(doc, " \t\n"), "```") || strings.HasPrefix(strings.TrimLeft(doc, " \t\n"), "~~~") {
			return
		}
		if got, want := ourTables(doc), gfmTables(doc); !sameTables(got, want) {
			t.Errorf("tables (line:rows) %q, goldmark's table extension finds %q", got, want)
		}
	})
}
