package capacity

import (
	"fmt"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// large is issue 14's and issue 17's size: 10,000 items, 500 patterns and 100 GSIs over 50 tables.
var large = designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500}

// BenchmarkComputeFrom_afterEdit is the capacity of a large design after one item cell edit,
// taking over what the revision before worked out (issue 17: at most 10 ms). Its anchor, in the
// same run, is BenchmarkCompute_cold, the same design worked out from nothing.
func BenchmarkComputeFrom_afterEdit(b *testing.B) { benchAfterEdit(b, large) }

// medium is issue 14's 392 KB design of a cell edit: 1,000 items, 200 patterns and 8 GSIs over 4
// tables, each table read by about 50 patterns.
var medium = designertest.Size{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200}

// BenchmarkComputeFrom_afterEditMedium is the same on the medium design; its anchor, in the same
// run, is BenchmarkCompute_coldMedium.
func BenchmarkComputeFrom_afterEditMedium(b *testing.B) { benchAfterEdit(b, medium) }

func BenchmarkCompute_coldMedium(b *testing.B) {
	d := designertest.Large(medium)
	b.ReportAllocs()
	for b.Loop() {
		Compute(d, nil)
	}
}

// benchAfterEdit times ComputeFrom after one item cell edit of a design of size.
func benchAfterEdit(b *testing.B, size designertest.Size) {
	d := designertest.Large(size)
	c := dynamo.NewCache().For(d)
	_, memo := ComputeFrom(d, c, nil)
	tb := d.Tables[len(d.Tables)/2]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		next, err := designer.SetItemCell{Table: tb.Name, ID: tb.Items[len(tb.Items)/2].ID, Attribute: "note", Text: fmt.Sprint("edit ", i)}.Apply(d)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c = c.For(next)
		_, memo = ComputeFrom(next, c, memo)
		d = next
	}
}

func BenchmarkCompute_cold(b *testing.B) {
	d := designertest.Large(large)
	b.ReportAllocs()
	for b.Loop() {
		Compute(d, nil)
	}
}
