package markdown

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The reading side: a document is parsed by goldmark (CommonMark with GFM tables), and each of
// its top-level blocks is handed to the importers as a heading or an Item. An Item carries its
// source lines in one canonical spelling, so that every valid spelling of the same structure
// reads the same: a bullet's marker is "- ", a bold label "**x**", a table row starts with "|".
// Code blocks and HTML are kept as written and are never data; HTML comments are skipped.

// Kinds of item: the pieces of a block's text.
const (
	KindText   = iota // a paragraph, a block quote or a thematic break
	KindBullet        // one item of a list, its nested content included
	KindTable         // a GFM table: header, separator and rows
	KindFence         // a fenced or indented code block, or an HTML block other than a comment
)

// Item is one top-level block of a section, starting at source line Line. Lines are what a reader
// reads, in the canonical spelling; Raw are the same lines as written, which Text gives for a
// reader to keep as prose.
type Item struct {
	Kind  int
	Line  int
	Lines []string
	Raw   []string
	// SpanLines is set by a reader that removes lines from an item, so that Span still covers
	// the source lines the item came from.
	SpanLines int
}

// Span is the number of source lines the item covers, including lines since removed from it.
func (it Item) Span() int { return max(it.SpanLines, len(it.Lines)) }

// Text is the item as written: the text a reader keeps when it does not read the item.
func (it Item) Text() string {
	if it.Raw == nil {
		return strings.Join(it.Lines, "\n")
	}
	return strings.Join(it.Raw, "\n")
}

// Without returns the item without the lines drop reports, and whether any line is left. The
// item keeps its span, so that prose from it stays apart from its neighbours as in the source.
func (it Item) Without(drop func(line string) bool) (Item, bool) {
	out := it
	out.SpanLines, out.Lines, out.Raw = it.Span(), nil, nil
	for i, l := range it.Lines {
		if drop(l) {
			continue
		}
		out.Lines = append(out.Lines, l)
		if it.Raw != nil {
			out.Raw = append(out.Raw, it.Raw[i])
		}
	}
	if len(out.Lines) == len(it.Lines) {
		return it, true
	}
	return out, len(out.Lines) > 0
}

// gfm is goldmark's CommonMark block parsers with GFM tables (found as goldmark's table extension
// finds them, see tableBlock): the parser every document is read with. Of the inline parsers it
// keeps the two a label needs: code spans, so that "`__x__`" is not bold, and emphasis. Link
// reference definitions ("[a]: https://…") are read as the text they are: no reader follows a link,
// and goldmark reads a run of them in time that grows with the square of its length. A goldmark
// parser is safe for concurrent use.
var gfm = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(util.Prioritized(parser.NewCodeSpanParser(), 100), util.Prioritized(parser.NewEmphasisParser(), 500)),
	parser.WithParagraphTransformers(util.Prioritized(tableTransformer{}, 200)),
)

// Walk reads a document and hands each of its top-level blocks to one of two callbacks: heading
// for an ATX or setext heading, with its 1-based line number, level and text as written (escapes
// kept); item for every other block. A document wrapped whole in a code fence, as one pasted
// from the seed is, is read without that fence. Both document readers split a document into
// its sections with it. It returns the lines of the HTML comments it skipped, for a reader to say
// so. A document CheckShape refuses is not parsed: it has no blocks.
func Walk(src string, heading func(n, level int, text string), item func(Item)) (comments []int) {
	if CheckShape(src) != nil {
		return nil
	}
	r := newReader(src)
	doc := gfm.Parse(text.NewReader(r.src), parser.WithContext(parser.NewContext()))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if r.diagram(n) {
			n = n.NextSibling()
			continue
		}
		first := r.lineOf(startOf(n))
		last := len(r.lines) - 1
		if next := n.NextSibling(); next != nil {
			last = r.lineOf(startOf(next)) - 1
		}
		last = r.trimBlank(first, last)
		switch n := n.(type) {
		case *ast.Heading:
			heading(first+1, n.Level, headingText(n, r.src))
		case *ast.List:
			r.list(n, last, item)
		case *ast.Paragraph:
			if n.Lines().Len() > 0 {
				last = r.lineOf(n.Lines().At(n.Lines().Len() - 1).Start)
			}
			item(Item{Kind: KindText, Line: first + 1, Lines: r.canonical(n, first, r.raw(first, last)), Raw: r.raw(first, last)})
		case *tableBlock:
			item(r.table(n))
		default:
			if it, ok := r.block(n, first, last); ok {
				item(it)
			}
		}
	}
	return r.comments
}

// Headings calls heading for each heading of the document, as Walk does.
func Headings(src string, heading func(n, level int, text string)) {
	Walk(src, heading, func(Item) {})
}

// reader holds a document's source and where each of its lines starts.
type reader struct {
	src      []byte
	lines    []string
	starts   []int
	comments []int
}

func newReader(src string) *reader {
	lines := strings.Split(src, "\n")
	first, last := 0, len(lines)-1
	for first < len(lines) && isBlank(lines[first]) {
		first++
	}
	for last > first && isBlank(lines[last]) {
		last--
	}
	if first < last && ClosesFence(lines[last], FenceMarker(lines[first])) {
		lines[first], lines[last] = "", ""
	}
	r := &reader{lines: lines, starts: make([]int, len(lines))}
	var b strings.Builder
	b.Grow(len(src))
	for i, l := range lines {
		r.starts[i] = b.Len()
		b.WriteString(l)
		b.WriteByte('\n')
	}
	r.src = []byte(b.String())
	return r
}

// lineOf is the 0-based line holding byte offset pos.
func (r *reader) lineOf(pos int) int {
	return max(sort.SearchInts(r.starts, pos+1)-1, 0)
}

// trimBlank moves last back over blank lines, not before first.
func (r *reader) trimBlank(first, last int) int {
	for last > first && isBlank(r.lines[last]) {
		last--
	}
	return last
}

func (r *reader) raw(first, last int) []string {
	return append([]string(nil), r.lines[first:last+1]...)
}

// startOf is the byte offset where a block starts: its own position, or that of its first
// descendant that has one.
func startOf(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if p := n.Pos(); p >= 0 {
			return p
		}
	}
	return 0
}

func headingText(h *ast.Heading, src []byte) string {
	var parts []string
	for i := 0; i < h.Lines().Len(); i++ {
		seg := h.Lines().At(i)
		if t := strings.TrimSpace(string(seg.Value(src))); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// list hands each item of a list to item as a bullet: its lines as written, the first one
// starting "- " for an unordered list and with its number for an ordered one. A bullet ends at its
// first blank line: what its item holds after one (another paragraph, a nested list, a table) is
// handed on as items of their own, which a reader keeps as prose unless it knows them.
func (r *reader) list(l *ast.List, last int, item func(Item)) {
	for li := l.FirstChild(); li != nil; li = li.NextSibling() {
		first := r.lineOf(startOf(li))
		end := last
		if next := li.NextSibling(); next != nil {
			end = r.trimBlank(first, r.lineOf(startOf(next))-1)
		}
		type part struct {
			first int
			node  ast.Node
		}
		parts := []part{{first: first, node: li.FirstChild()}}
		for c := li.FirstChild(); c != nil; c = c.NextSibling() {
			s := r.lineOf(startOf(c))
			if s > first && (isBlank(r.lines[s-1]) || isComment(c) || isComment(c.PreviousSibling())) {
				parts = append(parts, part{first: s, node: c})
			}
		}
		for i, pt := range parts {
			last := end
			if i+1 < len(parts) {
				last = r.trimBlank(pt.first, parts[i+1].first-1)
			}
			if i == 0 {
				item(r.bullet(l, li, pt.first, last))
				continue
			}
			if it, ok := r.block(pt.node, pt.first, last); ok {
				item(it)
			}
		}
	}
}

// bullet is the first part of a list item li, up to its first blank line.
func (r *reader) bullet(l *ast.List, li ast.Node, first, last int) Item {
	lines := r.canonical(li, first, r.raw(first, last))
	lines[0] = strings.TrimLeft(lines[0], " \t")
	if !l.IsOrdered() {
		lines[0] = "- " + strings.TrimLeft(lines[0][1:], " \t")
	}
	return Item{Kind: KindBullet, Line: first + 1, Lines: lines, Raw: r.raw(first, last)}
}

// block is a later part of a list item as an item of the kind its first block gives.
func (r *reader) block(n ast.Node, first, last int) (Item, bool) {
	it := Item{Kind: KindText, Line: first + 1, Lines: r.canonical(n, first, r.raw(first, last)), Raw: r.raw(first, last)}
	switch n := n.(type) {
	case *ast.HTMLBlock:
		if isComment(n) {
			r.comments = append(r.comments, first+1)
			return Item{}, false
		}
		it.Kind = KindFence
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		it.Kind = KindFence
	case *ast.List:
		it.Kind = KindBullet
	case *tableBlock:
		it.Kind = KindTable
		it.Lines = pipeRows(it.Lines)
	}
	return it, true
}

// diagram reports whether n is the DiagramMarker comment with a Mermaid code block right after
// it: a diagram an export drew from the design, which is not read back.
func (r *reader) diagram(n ast.Node) bool {
	if !isComment(n) {
		return false
	}
	code, ok := n.NextSibling().(*ast.FencedCodeBlock)
	if !ok || string(code.Language(r.src)) != "mermaid" {
		return false
	}
	lines := n.Lines()
	if lines.Len() != 1 {
		return false
	}
	first := lines.At(0)
	return strings.TrimSpace(string(first.Value(r.src))) == DiagramMarker
}

func isComment(n ast.Node) bool {
	h, ok := n.(*ast.HTMLBlock)
	return ok && h.HTMLBlockType == ast.HTMLBlockType2
}

// strongUnderscore is a bold label written with underscores at the start of a line's text.
var strongUnderscore = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^__((?:\\.|[^\\_*]|_[^_])+?)__`) })

// canonical rewrites lines, the source lines of n from line first on, in the canonical spelling
// of what they hold: the marker of each bullet in an unordered list is "-", and a bold label
// written "__label__" at the start of a paragraph is "**label**". Both keep the line's length, so
// the positions goldmark gives stay right.
func (r *reader) canonical(n ast.Node, first int, lines []string) []string {
	at := func(pos int) (int, int, bool) {
		i := r.lineOf(pos)
		col := pos - r.starts[i]
		return i - first, col, i-first >= 0 && i-first < len(lines) && col >= 0 && col < len(lines[i-first])
	}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c.Kind() {
		case ast.KindListItem:
			if l, ok := c.Parent().(*ast.List); ok && !l.IsOrdered() {
				if i, col, ok := at(c.Pos()); ok && strings.IndexByte("-*+", lines[i][col]) >= 0 {
					lines[i] = lines[i][:col] + "-" + lines[i][col+1:]
				}
			}
		case ast.KindParagraph, ast.KindTextBlock:
			e, ok := c.FirstChild().(*ast.Emphasis)
			if !ok || e.Level != 2 || e.Pos() < 0 || e.Pos()+2 > len(r.src) || string(r.src[e.Pos():e.Pos()+2]) != "__" {
				break
			}
			if i, col, ok := at(e.Pos()); ok {
				if m := strongUnderscore().FindStringSubmatchIndex(lines[i][col:]); m != nil {
					lines[i] = lines[i][:col] + "**" + lines[i][col+2:col+m[1]-2] + "**" + lines[i][col+m[1]:]
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return lines
}

// table gives a table's lines, each row starting and ending with "|" as written or added.
func (r *reader) table(t *tableBlock) Item {
	first := r.lineOf(t.Lines().At(0).Start)
	last := r.lineOf(t.Lines().At(t.Lines().Len() - 1).Start)
	return Item{Kind: KindTable, Line: first + 1, Lines: pipeRows(r.raw(first, last)), Raw: r.raw(first, last)}
}

func pipeRows(lines []string) []string {
	for i, l := range lines {
		lines[i] = pipeRow(l)
	}
	return lines
}

// pipeRow writes a table row with its outer pipes: "a | b" becomes "| a | b |".
func pipeRow(l string) string {
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, "|") {
		t = "| " + t
	}
	if !strings.HasSuffix(t, "|") || strings.HasSuffix(t, `\|`) && !strings.HasSuffix(t, `\\|`) {
		t += " |"
	}
	return t
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }
