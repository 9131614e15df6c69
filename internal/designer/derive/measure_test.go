package derive

import (
	"runtime"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// What a Derived is charged (Measure) is what working out its parts took on the heap, within a
// quarter, for designs of several sizes: the budget bounds derived results by what they hold.
func TestMeasure_matchesTheHeap(t *testing.T) {
	for _, size := range []designertest.Size{
		{Tables: 1, Items: 200, GSIs: 2, Patterns: 20},
		{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200},
		{Tables: 4, Items: 4000, GSIs: 8, Patterns: 200},
	} {
		d := designertest.Large(size)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&before)
		x := New(d, nil)
		everything(x, d)
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		got := x.Measure()
		runtime.KeepAlive(x)
		runtime.KeepAlive(d)
		ratio := float64(got) / float64(heap)
		t.Logf("%+v: derived results take %d heap bytes; Measure says %d (%.2f×)", size, heap, got, ratio)
		if ratio < 0.75 || ratio > 1.25 {
			t.Errorf("%+v: Measure says %d bytes, the heap grew by %d (%.2f×); want within 25%%", size, got, heap, ratio)
		}
	}
}

// everything asks x for every part a page shows but the diagrams.
func everything(x *Derived, d designer.Design) {
	x.Findings()
	x.Checklists()
	x.Questions(10)
	x.Capacity()
	for _, t := range d.Tables {
		x.TableOrder(t)
		for _, ix := range t.GSIs {
			x.IndexView(t, ix, false)
		}
	}
	for _, p := range d.Patterns {
		x.PatternVerdict(p)
	}
}
