package format

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// hostileShape is a document shape that costs a markdown reader more than its size when read
// naively, made as large as asked: at the limits Dynaloom reads, or past them (refused).
type hostileShape struct {
	name    string
	refused bool // past a limit of markdown.CheckShape: the import is refused
	body    func(size int) string
}

// A data model document's start, so that each shape is imported as one.
const shapeHead = "# Shop Data Model\n\n## Table Designs\n\n### Orders Table\n\n- **Partition Key**: PK (String)\n- **Sort Key**: SK (String)\n\n"

func fill(size int, unit func(i int) string) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(unit(i))
	}
	return b.String()
}

var hostileShapes = []hostileShape{
	{"nested_quotes", false, func(n int) string {
		return fill(n, func(i int) string { return strings.Repeat("> ", 1+i%32) + "quoted\n" })
	}},
	{"nested_quotes_one_line", true, func(n int) string { return strings.Repeat(">", n) + " x\n" }},
	{"nested_lists", false, func(n int) string {
		return fill(n, func(i int) string { return strings.Repeat("- ", 1+i%32) + "item\n" })
	}},
	{"nested_lists_one_line", true, func(n int) string { return strings.Repeat("- ", n/2) + "x\n" }},
	{"indentation", false, func(n int) string {
		return fill(n, func(i int) string {
			if i%64 < 32 {
				return strings.Repeat("  ", i%64) + "- x\n"
			}
			return strings.Repeat(" ", 200) + "continued\n"
		})
	}},
	{"indentation_growing", true, func(n int) string {
		return fill(n, func(i int) string { return strings.Repeat("  ", i) + "- x\n" })
	}},
	{"backtick_runs", false, func(n int) string {
		return fill(n, func(i int) string {
			return strings.Repeat("`", 1+i%32) + " text" + map[bool]string{true: "\n\n", false: " "}[i%32 == 31]
		})
	}},
	{"backtick_runs_one_paragraph", true, func(n int) string {
		return fill(n, func(i int) string { return strings.Repeat("`", i+1) + " " })
	}},
	{"backtick_one_run", false, func(n int) string { return "text " + strings.Repeat("`", n) + " text\n" }},
	{"link_references", false, func(n int) string {
		return fill(n, func(i int) string { return fmt.Sprintf("[ref%d]: https://example.com/%d\n", i, i) })
	}},
	{"emphasis", false, func(n int) string {
		return fill(n, func(i int) string { return "*a _b **c __d a* b_ " + map[bool]string{true: "\n", false: ""}[i%64 == 63] })
	}},
	{"long_table", false, func(n int) string {
		return "| PK | SK | note |\n|---|---|---|\n" + fill(n, func(i int) string { return fmt.Sprintf("| u%d | s%d | x |\n", i, i) })
	}},
	{"long_cell", false, func(n int) string {
		return "| PK | SK | note |\n|---|---|---|\n| u | s | " + strings.Repeat("ab ", n/3) + " |\n"
	}},
}

func shapeDoc(s hostileShape, size int) []byte { return []byte(shapeHead + s.body(size)) }

// importShape imports a shape's document and checks it is read, or refused naming the limit it is
// past.
func importShape(tb testing.TB, s hostileShape, doc []byte) {
	_, _, err := Import([]File{{Name: "model.md", Data: doc}})
	var ve *designer.ValidationError
	switch {
	case s.refused && !errors.As(err, &ve):
		tb.Fatalf("%s: want a refusal naming the limit, got %v", s.name, err)
	case s.refused && !strings.Contains(err.Error(), "at most 32"):
		tb.Fatalf("%s: the refusal does not name the limit: %v", s.name, err)
	case !s.refused && err != nil && !(errors.As(err, &ve) && strings.Contains(err.Error(), "at most 1000000")):
		// At the limits of nesting, a document of megabytes reaches the budget of its containers.
		tb.Fatalf("%s: %v", s.name, err)
	}
}

// BenchmarkImport_hostileShapes imports each shape at sizes doubling from 64 KB to 4 MB: each
// doubling is to cost at most 2.2 times the time (a shape's half size is its anchor). Beside the
// wall time it reports the process's CPU time per import (cpu-ns/op, garbage collection
// included), which other work on a busy machine disturbs less.
func BenchmarkImport_hostileShapes(b *testing.B) {
	for _, s := range hostileShapes {
		for size := 64 << 10; size <= 4<<20; size *= 2 {
			doc := shapeDoc(s, size)
			b.Run(fmt.Sprintf("%s/%dKB", s.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				start := cpuTime()
				for b.Loop() {
					importShape(b, s, doc)
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// TestImport_hostileShapesAllocateLinearly counts the allocations and the bytes allocated by an
// import of each shape at 32 KB and 64 KB: the larger takes at most 2.2 times as many of each.
func TestImport_hostileShapesAllocateLinearly(t *testing.T) {
	for _, s := range hostileShapes {
		small, large := shapeDoc(s, 32<<10), shapeDoc(s, 64<<10)
		na, ba := allocations(t, s, small)
		nb, bb := allocations(t, s, large)
		if float64(nb) > 2.2*float64(na)+100 || float64(bb) > 2.2*float64(ba)+64<<10 {
			t.Errorf("%s: %d allocations of %d bytes at 32 KB, %d of %d bytes at 64 KB", s.name, na, ba, nb, bb)
		}
	}
}

// allocations is how many allocations, and of how many bytes, one import of doc makes.
func allocations(t *testing.T, s hostileShape, doc []byte) (n, bytes uint64) {
	importShape(t, s, doc) // the first import sets up what every import shares
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	importShape(t, s, doc)
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// An import whose context has ended stops with the context's error and reads nothing.
func TestImportContext_stopsWhenItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc := shapeDoc(hostileShapes[0], 4<<10)
	if _, _, err := ImportContext(ctx, []File{{Name: "model.md", Data: doc}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if _, _, err := ImportContext(context.Background(), []File{{Name: "model.md", Data: doc}}); err != nil {
		t.Fatal(err)
	}
}
