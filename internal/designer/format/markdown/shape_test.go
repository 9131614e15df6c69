package markdown

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"dynaloom/internal/designer"
)

// workReader counts the steps goldmark's block parsers take over a source: one for each call of
// the reader, and for LineOffset the bytes it walks from the line's start, as goldmark's does.
type workReader struct {
	text.Reader
	steps int
}

func (w *workReader) count() { w.steps++ }
func (w *workReader) Peek() byte {
	w.count()
	return w.Reader.Peek()
}
func (w *workReader) PeekLine() ([]byte, text.Segment) {
	w.count()
	return w.Reader.PeekLine()
}
func (w *workReader) LineOffset() int {
	_, pos := w.Reader.Position()
	w.steps += 1 + pos.Start - (bytes.LastIndexByte(w.Source()[:pos.Start], '\n') + 1)
	return w.Reader.LineOffset()
}
func (w *workReader) Advance(n int) {
	w.count()
	w.Reader.Advance(n)
}
func (w *workReader) AdvanceAndSetPadding(n, p int) {
	w.count()
	w.Reader.AdvanceAndSetPadding(n, p)
}
func (w *workReader) AdvanceLine() {
	w.count()
	w.Reader.AdvanceLine()
}
func (w *workReader) AdvanceToEOL() {
	w.count()
	w.Reader.AdvanceToEOL()
}
func (w *workReader) SkipSpaces() (text.Segment, int, bool) {
	w.count()
	return w.Reader.SkipSpaces()
}
func (w *workReader) SkipBlankLines() (text.Segment, int, bool) {
	w.count()
	return w.Reader.SkipBlankLines()
}
func (w *workReader) Position() (int, text.Segment) {
	w.count()
	return w.Reader.Position()
}
func (w *workReader) SetPosition(l int, s text.Segment) {
	w.count()
	w.Reader.SetPosition(l, s)
}

// blockWork is the steps goldmark takes to parse src as Walk parses it.
func blockWork(src string) int {
	w := &workReader{Reader: text.NewReader(newReader(src).src)}
	gfm.Parse(w, parser.WithContext(parser.NewContext()))
	return w.steps
}

func repeatTo(size int, unit func(i int) string) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(unit(i))
	}
	return b.String()
}

// Shapes at the limits CheckShape lets through, and one past them.
var (
	quotesAtLimit = func(n int) string {
		return repeatTo(n, func(i int) string { return strings.Repeat("> ", 1+i%MaxNesting) + "quoted\n" })
	}
	listsAtLimit = func(n int) string {
		return repeatTo(n, func(i int) string { return strings.Repeat("- ", 1+i%MaxNesting) + "item\n" })
	}
	indentedAtLimit = func(n int) string {
		return repeatTo(n, func(i int) string {
			if i%64 < MaxNesting {
				return strings.Repeat("  ", i%64) + "- x\n"
			}
			return strings.Repeat(" ", 600) + "continued\n"
		})
	}
	quotesOneLine = func(n int) string { return strings.Repeat(">", n) + " x\n" }
)

// Within the limits goldmark's block work grows with the document: twice the document, at most
// 2.2 times the steps. Past them (one line of ">") it grows with the square, which CheckShape refuses.
func TestCheckShape_whatPassesIsParsedInLinearWork(t *testing.T) {
	for name, shape := range map[string]func(int) string{"quotes": quotesAtLimit, "lists": listsAtLimit, "indentation": indentedAtLimit} {
		small, large := shape(32<<10), shape(64<<10)
		for _, doc := range []string{small, large} {
			if err := CheckShape(doc); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		a, b := blockWork(small), blockWork(large)
		t.Logf("%s: %d steps for 32 KB, %d for 64 KB: ×%.2f", name, a, b, float64(b)/float64(a))
		if float64(b) > 2.2*float64(a) {
			t.Errorf("%s: %d steps for 32 KB, %d for 64 KB: ×%.2f", name, a, b, float64(b)/float64(a))
		}
	}
	a, b := blockWork(quotesOneLine(4<<10)), blockWork(quotesOneLine(8<<10))
	t.Logf("one line of \">\": %d steps for 4 KB, %d for 8 KB: ×%.2f", a, b, float64(b)/float64(a))
	if float64(b) < 3*float64(a) {
		t.Errorf("one line of \">\": %d steps for 4 KB, %d for 8 KB; the count misses goldmark's square", a, b)
	}
	if err := CheckShape(quotesOneLine(4 << 10)); err == nil {
		t.Error("one line of 4,096 \">\" passes CheckShape")
	}
}

func TestCheckShape_refusesPastEachLimitNamingIt(t *testing.T) {
	deepIndent := repeatTo(8<<10, func(i int) string { return strings.Repeat("  ", i) + "- x\n" })
	manyLists := strings.Repeat(strings.Repeat("- ", MaxNesting)+"item\n", MaxContainerLines/MaxNesting+1)
	var ticks strings.Builder
	for i := range MaxOpenCodeSpans + 1 {
		ticks.WriteString(strings.Repeat("`", i+1) + " word ")
	}
	for _, c := range []struct{ name, doc, limit string }{
		{"a line of quotes", "# T\n\n" + quotesOneLine(100), "at most 32 deep"},
		{"a line of bullets", "# T\n\n" + strings.Repeat("- ", 40) + "x\n", "at most 32 deep"},
		{"ordered lists in quotes", strings.Repeat("> 1. ", 20) + "x\n", "at most 32 deep"},
		{"indentation", deepIndent, "at most 32 deep"},
		{"the container budget", manyLists, "at most 1000000"},
		{"unclosed backticks", "# T\n\n" + ticks.String() + "\n", "at most 32 in a paragraph"},
	} {
		err := CheckShape(c.doc)
		var ve *designer.ValidationError
		if !errors.As(err, &ve) || ve.Field != "file" || !strings.Contains(err.Error(), c.limit) {
			t.Errorf("%s: %v; want a refusal of the file naming %q", c.name, err, c.limit)
		}
	}
}

// What a team writes passes: lists and quotes a few deep, a fence of code indented as deep as
// it likes, thematic breaks, and code spans that close.
func TestCheckShape_ordinaryDocumentsPass(t *testing.T) {
	doc := "# Design\n\n- a\n  - b\n    - c\n      1. d\n\n> quote\n> > nested\n\n- - -\n* * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * *\n\n" +
		"```json\n" + strings.Repeat(" ", 200) + "- deep\n" + strings.Repeat("  ", 60) + "> deep\n```\n\n" +
		strings.Repeat("Use `GetItem` and ``Query `x` `` then ```y``` ", 200) + "\n"
	if err := CheckShape(doc); err != nil {
		t.Fatal(err)
	}
	// A long code block after a nested list is outside the list: its lines count no containers.
	code := "- a\n  - b\n    - c\n\n```\n" + strings.Repeat("x\n", MaxContainerLines/2) + "```\n"
	if err := CheckShape(code); err != nil {
		t.Fatal(err)
	}
}

// maxStepsPerByte bounds goldmark's block work per byte of a document CheckShape lets through
// (measured on the shapes at the limits: at most about 50).
const maxStepsPerByte = 256

// FuzzCheckShape_workPerByte holds goldmark's block work on any document CheckShape lets through
// to maxStepsPerByte a byte. The document is the input repeated up to 8 KB, so that a unit that
// nests or opens more with each copy shows the growth it gives.
func FuzzCheckShape_workPerByte(f *testing.F) {
	for _, s := range []string{"# T\n\n- a\n  - b\n", "> > > x\ny\n", "- - - x\n\n      - y\n", "1. 2) - > x\n", "```\n    - a\n```\n", "`a ``b ```c", ">", "  - x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, unit string) {
		if unit == "" || len(unit) > 1024 {
			return
		}
		s := strings.Repeat(unit, max(1, (8<<10)/len(unit)))
		if CheckShape(s) != nil {
			return
		}
		if steps := blockWork(s); steps > maxStepsPerByte*len(s)+1024 {
			t.Fatalf("%d steps for %d bytes", steps, len(s))
		}
	})
}

// A link reference definition is text: Walk hands it on as a paragraph, so a reader keeps it as
// prose, as it keeps a link written inline.
func TestWalk_linkReferenceDefinitionsAreText(t *testing.T) {
	var got []Item
	Walk("# T\n\n[spec]: https://example.com/spec\n[rfc]: https://example.com/rfc \"RFC\"\n", func(int, int, string) {}, func(it Item) { got = append(got, it) })
	if len(got) != 1 || got[0].Kind != KindText || got[0].Text() != "[spec]: https://example.com/spec\n[rfc]: https://example.com/rfc \"RFC\"" {
		t.Fatalf("items %+v", got)
	}
}
