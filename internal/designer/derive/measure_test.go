package derive

import (
	"runtime"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/memory"
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

// A superseded revision is charged about what its design holds beyond the next revision's, as
// memory.Size measures it: after an item edit, the edited table's copied array of items.
func TestUnshared_isWhatTheOldDesignHoldsBeyondTheNew(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 2, Items: 3000, GSIs: 2, Patterns: 10})
	next, err := designer.SetItemCell{Table: d.Tables[1].Name, ID: d.Tables[1].Items[5].ID, Attribute: "note", Text: "edited"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	got, want := unshared(d, next), memory.Size(&d, &next)
	ratio := float64(got) / float64(want)
	t.Logf("the old design holds %d bytes beyond the new; unshared says %d (%.2f×)", want, got, ratio)
	if ratio < 0.75 || ratio > 1.25 {
		t.Fatalf("unshared says %d bytes, memory.Size %d (%.2f×); want within 25%%", got, want, ratio)
	}
}
