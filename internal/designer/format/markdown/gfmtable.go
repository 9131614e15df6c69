package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
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
		if len(rowCells(header.Value(src))) != n {
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
// line is not one.
func delimiterCells(line []byte) int {
	t := bytes.TrimSpace(line)
	if len(line)-len(bytes.TrimLeft(line, " ")) > 3 || !bytes.ContainsAny(t, "|:") {
		return 0
	}
	cells := rowCells(line)
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

// rowCells splits a table row at its pipes that are not escaped, without its outer pipes.
func rowCells(line []byte) [][]byte {
	t := bytes.TrimSpace(line)
	t = bytes.TrimPrefix(t, []byte("|"))
	if len(t) > 0 && t[len(t)-1] == '|' && (len(t) < 2 || t[len(t)-2] != '\\') {
		t = t[:len(t)-1]
	}
	var cells [][]byte
	start := 0
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\':
			i++
		case t[i] == '|':
			cells = append(cells, t[start:i])
			start = i + 1
		}
	}
	return append(cells, t[start:])
}
