package dynamo

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"dynaloom/internal/designer"
)

// Cache remembers item measurements (measureItem's page size, item size and canonical spelling)
// for the reads of one design, so that repeated reads of a revision, which is what a page showing
// every pattern's result and a validation run, do not walk every item again. A caller holds one per
// design it reads: a nil *Cache remembers nothing and measures every item a read sees.
//
// A Cache relies on a design being an immutable value (see package designer): a change never
// modifies a table's Items slice or an item map in place, it allocates a new slice whenever any
// item changes. So an Items slice (its first element and its length) names one unchanging list of
// items for as long as the Cache holds it, and a measurement recorded for it cannot go stale. The
// entry keeps the slice itself, so the array cannot be freed and its address reused while the entry
// is cached. A design must therefore not be modified after a Cache has read it; reads of an edited
// revision (a new slice sharing the untouched item maps) may use the same Cache and inherit the
// measurements of the items the edit did not touch. The sort key's name is part of the key because
// the page size depends on it.
//
// A Cache holds at most cacheSize slices, evicting the oldest, and fills lazily: a read
// records only the items it measures. Each item's measurement is one atomic word, so concurrent
// reads may fill it together.
type Cache struct {
	mu      sync.Mutex
	entries []*itemMeasures // oldest first
}

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{} }

const cacheSize = 8

// Bits of a packed measurement: page and size in 31 bits each, canonical, and whether it is set.
const (
	measureFieldBits = 31
	measureFieldMax  = 1<<measureFieldBits - 1
	measureCanonical = 1 << 62
	measureSet       = 1 << 63
)

type itemMeasures struct {
	items    []designer.SampleItem // pins the array whose first element names the entry
	rangeKey string
	m        []atomic.Uint64 // per item, in item order; 0 until measured
}

// measuresFor returns the entry for the items of a table whose sort key is rangeKey, adding one
// (and evicting the oldest) if there is none. It returns nil for an empty list or a nil Cache.
func (c *Cache) measuresFor(items []designer.SampleItem, rangeKey string) *itemMeasures {
	if c == nil || len(items) == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if &e.items[0] == &items[0] && len(e.items) == len(items) && e.rangeKey == rangeKey {
			return e
		}
	}
	e := &itemMeasures{items: items, rangeKey: rangeKey, m: make([]atomic.Uint64, len(items))}
	e.inherit(c.entries)
	if len(c.entries) == cacheSize {
		n := copy(c.entries, c.entries[1:])
		c.entries[n] = nil
		c.entries = c.entries[:n]
	}
	c.entries = append(c.entries, e)
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
// two maps alive at once. Go compares maps only with nil, hence unsafe.
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
