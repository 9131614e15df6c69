package memory

import (
	"encoding/json"
	"runtime"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// heapOf is how much HeapAlloc grew while make built what it returns, kept alive until measured.
func heapOf(make func() any) (any, int64) {
	var before, after runtime.MemStats
	// Twice: a sync.Pool lets go of what it holds only at the second collection.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := make()
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return v, int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// TestSize_matchesTheHeap decodes designs of several sizes as the store does and compares Size
// with what the heap grew by: the budget is charged what an entry really holds.
func TestSize_matchesTheHeap(t *testing.T) {
	for _, size := range []designertest.Size{
		{Tables: 1, Items: 50, GSIs: 1, Patterns: 5},
		{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200},
		{Tables: 4, Items: 4000, GSIs: 8, Patterns: 200},
		{Tables: 10, Items: 10000, GSIs: 20, Patterns: 500},
	} {
		doc, err := designer.MarshalCompactJSON(designertest.Large(size))
		if err != nil {
			t.Fatal(err)
		}
		v, heap := heapOf(func() any {
			d := new(designer.Design)
			if err := json.Unmarshal(doc, d); err != nil {
				t.Fatal(err)
			}
			return d
		})
		runtime.KeepAlive(doc) // alive before and after, so not counted in the difference
		got := Size(v)
		ratio := float64(got) / float64(heap)
		t.Logf("%+v: document %d bytes, heap %d, Size %d (%.2f×), %.1f heap bytes per stored byte", size, len(doc), heap, got, ratio, float64(heap)/float64(len(doc)))
		if ratio < 0.75 || ratio > 1.25 {
			t.Errorf("%+v: Size says %d bytes, the heap grew by %d (%.2f×); want within 25%%", size, got, heap, ratio)
		}
	}
}
