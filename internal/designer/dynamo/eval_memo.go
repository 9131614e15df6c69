package dynamo

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"dynaloom/internal/designer"
)

// Item measurements (measureItem's page size, item size and canonical spelling) are remembered
// per table items slice, so that repeated reads of a design that has not changed, which is what
// the server runs between edits, do not walk every item again.
//
// The memo relies on the package's invariant (see design.go) that a Design is immutable: a change
// never modifies a table's Items slice or an item map in place, it allocates a new slice for the
// items whenever any item changes (replaceAt, editRows, deleteRows, insertItems, withIDs all
// clone). So the identity of an Items slice (its first element's address and its length) names
// one unchanging list of items, and a measurement recorded for it can never go stale. The entry
// keeps the slice itself, so the array cannot be freed and its address reused for other items
// while the entry is cached. The sort key's name is part of the key because the page size
// depends on it. Code that builds items slices in place (tests, readers of JSON) must not mutate
// a slice after a read has seen it.
//
// The memo holds at most measureMemoSize slices, evicting the oldest, and fills lazily: a read
// records only the items it measures. Each item's measurement is one atomic word, so concurrent
// reads of the same design may fill it together.

const measureMemoSize = 8

// Bits of a packed measurement: page and size in 31 bits each, canonical, and whether it is set.
const (
	measureFieldBits = 31
	measureFieldMax  = 1<<measureFieldBits - 1
	measureCanonical = 1 << 62
	measureSet       = 1 << 63
)

type itemMeasures struct {
	items    []designer.SampleItem // pins the array the key's address names
	rangeKey string
	m        []atomic.Uint64 // per item, in item order; 0 until measured
}

var measureMemo struct {
	sync.Mutex
	entries []*itemMeasures // oldest first
}

// measuresFor returns the memo entry for the items of a table whose sort key is rangeKey, adding
// one (and evicting the oldest) if there is none. It returns nil for an empty list.
func measuresFor(items []designer.SampleItem, rangeKey string) *itemMeasures {
	if len(items) == 0 {
		return nil
	}
	data := unsafe.SliceData(items)
	measureMemo.Lock()
	defer measureMemo.Unlock()
	for _, e := range measureMemo.entries {
		if unsafe.SliceData(e.items) == data && len(e.items) == len(items) && e.rangeKey == rangeKey {
			return e
		}
	}
	e := &itemMeasures{items: items, rangeKey: rangeKey, m: make([]atomic.Uint64, len(items))}
	e.inherit(measureMemo.entries)
	if len(measureMemo.entries) == measureMemoSize {
		n := copy(measureMemo.entries, measureMemo.entries[1:])
		measureMemo.entries[n] = nil
		measureMemo.entries = measureMemo.entries[:n]
	}
	measureMemo.entries = append(measureMemo.entries, e)
	return e
}

// inherit copies the measurements of a cached list that items was made from by an edit: an edit
// allocates a new items slice but keeps the maps of the items it did not touch, and an item map is
// never modified, so the same map at the same position measures the same. The newest cached list
// with the same sort key and the same first or last item map is taken to be the one edited; items
// whose map differs are measured afresh when read.
func (e *itemMeasures) inherit(cached []*itemMeasures) {
	first, last := mapIdentity(e.items[0].Item), mapIdentity(e.items[len(e.items)-1].Item)
	for j := len(cached) - 1; j >= 0; j-- {
		old := cached[j]
		if old.rangeKey != e.rangeKey || mapIdentity(old.items[0].Item) != first && mapIdentity(old.items[len(old.items)-1].Item) != last {
			continue
		}
		for i := range min(len(old.items), len(e.items)) {
			if mapIdentity(old.items[i].Item) == mapIdentity(e.items[i].Item) {
				e.m[i].Store(old.m[i].Load())
			}
		}
		return
	}
}

// mapIdentity is the address of an item map's header: equal for the same map, and different for
// two maps alive at once.
func mapIdentity(it designer.Item) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&it))
}

// known reports whether item i has been measured.
func (e *itemMeasures) known(i int) bool { return e.m[i].Load()&measureSet != 0 }

// get returns the measurement recorded for item i, if any.
func (e *itemMeasures) get(i int) (page, size int, canonical, ok bool) {
	w := e.m[i].Load()
	if w&measureSet == 0 {
		return 0, 0, false, false
	}
	return int(w & measureFieldMax), int(w >> measureFieldBits & measureFieldMax), w&measureCanonical != 0, true
}

// put records item i's measurement; sizes too large to pack are simply not recorded.
func (e *itemMeasures) put(i, page, size int, canonical bool) {
	if page < 0 || page > measureFieldMax || size < 0 || size > measureFieldMax {
		return
	}
	w := uint64(page) | uint64(size)<<measureFieldBits | measureSet
	if canonical {
		w |= measureCanonical
	}
	e.m[i].Store(w)
}
