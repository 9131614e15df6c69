package derive

import (
	"fmt"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// bigSize is issue 14's validation bar: 10,000 items, 500 patterns and 100 GSIs (over 50 tables,
// as the load test has it); double is twice that.
var (
	bigSize    = designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500}
	doubleSize = designertest.Size{Tables: 100, Items: 20_000, GSIs: 200, Patterns: 1000}
)

// benchAfterEdit times the report of a design after one item cell edit, derived from the revision
// before, whose parts have all been asked for.
func benchAfterEdit(b *testing.B, size designertest.Size) {
	d := designertest.Large(size)
	x := New(d, nil)
	warm(x)
	tb := d.Tables[len(d.Tables)/2]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		next, err := designer.SetItemCell{Table: tb.Name, ID: tb.Items[len(tb.Items)/2].ID, Attribute: "note", Text: fmt.Sprint("edit ", i)}.Apply(d)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		y := New(next, x)
		y.Report()
		y.Questions(3)
		b.StopTimer()
		warm(y)
		d, x = next, y
		b.StartTimer()
	}
}

func BenchmarkReport_afterEdit(b *testing.B)       { benchAfterEdit(b, bigSize) }
func BenchmarkReport_afterEditDouble(b *testing.B) { benchAfterEdit(b, doubleSize) }

// BenchmarkReport_cold is the report of a design no Derived has seen: what every answer cost
// before issue 14.
func BenchmarkReport_cold(b *testing.B) {
	d := designertest.Large(bigSize)
	for b.Loop() {
		New(d, nil).Report()
	}
}
