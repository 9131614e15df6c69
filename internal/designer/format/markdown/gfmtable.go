package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A GFM table, found the way goldmark's table extension finds one — a paragraph line of cells, a
// delimiter row of as many cells below it, rows up to the paragraph's end — but kept as its lines:
// a reader takes the rows as written, so the cells goldmark's extension builds (hundreds of bytes
// each, most of the memory of a document of sample items) are not built at all.

// tableBlock is a table's lines: the header row, the delimiter row and the rows.
type tableBlock struct{ ast.BaseBlock }

var kindTableBlock = ast.NewNodeKind("MarkdownTable")

func (n *tableBlock) Kind() ast.NodeKind { return kindTableBlock }

// IsRaw keeps goldmark from parsing the rows' inline text, which no reader looks at.
func (n *tableBlock) IsRaw() bool { return true }

func (n *tableBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type tableTransformer struct{}

// Transform cuts a table out of a paragraph: the lines from its header row on.
func (tableTransformer) Transform(p *ast.Paragraph, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	lines := p.Lines()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		n := delimiterCells(delim.Value(src))
		if n == 0 {
			continue
		}
		header := lines.At(i - 1)
		if headerCells(header.Value(src)) > n {
			return
		}
		t := &tableBlock{}
		t.SetPos(header.Start)
		for j := i - 1; j < lines.Len(); j++ {
			t.Lines().Append(lines.At(j))
		}
		p.Lines().SetSliced(0, i-1)
		p.Parent().InsertAfter(p.Parent(), p, t)
		if p.Lines().Len() == 0 {
			p.Parent().RemoveChild(p.Parent(), p)
		}
		return
	}
}

// delimiterCells is the number of cells of a delimiter row ("| --- | :-: |", "--|--"), or 0 when
// line is not one. The rule is goldmark's: at most three spaces of indentation, nothing but
// spaces, dashes, pipes and colons (and not dashes alone), and every cell between the pipes —
// a blank first or last one aside — dashes with an optional colon at either end.
func delimiterCells(line []byte) int {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return 0
	}
	dashes := true
	for _, b := range line {
		if b != '-' {
			dashes = false
		}
		if !util.IsSpace(b) && b != '-' && b != '|' && b != ':' {
			return 0
		}
	}
	if dashes {
		return 0
	}
	cells := bytes.Split(line, []byte("|"))
	if util.IsBlank(cells[0]) {
		cells = cells[1:]
	}
	if len(cells) > 0 && util.IsBlank(cells[len(cells)-1]) {
		cells = cells[:len(cells)-1]
	}
	for _, c := range cells {
		c = bytes.TrimSpace(c)
		c = bytes.TrimPrefix(c, []byte(":"))
		c = bytes.TrimSuffix(c, []byte(":"))
		if len(c) == 0 || len(bytes.Trim(c, "-")) != 0 {
			return 0
		}
	}
	return len(cells)
}

// headerCells is the number of cells goldmark's table extension counts in a header row: the
// line without its outer white space and outer pipes, cut at each pipe not escaped. A header of
// fewer cells than its delimiter row is filled up with empty ones; one of more is no table.
func headerCells(line []byte) int {
	t := bytes.TrimSpace(line)
	t = bytes.TrimPrefix(t, []byte("|"))
	t = bytes.TrimSuffix(t, []byte("|"))
	n := 0
	for pos := 0; pos < len(t); n++ {
		closure := pos
		for ; closure < len(t); closure++ {
			if t[closure] == '|' && (closure == 0 || t[closure-1] != '\\') {
				break
			}
		}
		pos = closure + 1
	}
	return n
}

// OpensTable reports whether line, written under the line above it, makes the two the head of a
// GFM table as the reader finds one: a delimiter row of at least as many cells as the text line
// above. A table without outer pipes ("a|b" over "-|-") is one too. A bullet ("- | -") is not:
// it starts a list rather than continuing the text above.
func OpensTable(above, line string) bool {
	n := delimiterCells([]byte(line))
	return n > 0 && !isBlank(above) && !BulletStart().MatchString(line) && headerCells([]byte(above)) <= n
}
