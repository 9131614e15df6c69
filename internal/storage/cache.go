package storage

import (
	"container/list"
	"sync"
)

// DefaultCacheBytes is the record cache's default budget (Options.CacheBytes).
const DefaultCacheBytes = 256 << 20

// decodedPerStoredByte is what one byte of a stored document is taken to cost once decoded:
// strings, maps and slices of the Design take several times the compact JSON they came from
// (measured by TestCache_costCoversTheDecodedDesign).
const decodedPerStoredByte = 8

// recordCache keeps the current record of recently used designs, bounded by the memory they are
// estimated to take rather than by their number: forty designs full of sample items weigh more
// than thousands of small ones. The least recently used go first.
type recordCache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	order  *list.List // of *cacheEntry, most recently used first
	byID   map[string]*list.Element
}

type cacheEntry struct {
	rec  Record
	cost int64
}

func newRecordCache(budget int64) *recordCache {
	return &recordCache{budget: budget, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns the cached record of id if it is at revision rev. Records are immutable values,
// and (id, revision) names exactly one state, so a hit is always current for that revision.
func (c *recordCache) get(id string, rev int64) (Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return Record{}, false
	}
	e := el.Value.(*cacheEntry)
	if e.rec.Revision != rev {
		return Record{}, false
	}
	c.order.MoveToFront(el)
	return e.rec, true
}

// put caches rec, whose stored document is docBytes long, unless a newer revision of it is
// cached already, then drops the least recently used records until the cache fits its budget.
// A record larger than the whole budget is not kept.
func (c *recordCache) put(rec Record, docBytes int) {
	cost := int64(docBytes) * decodedPerStoredByte
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[rec.ID]; ok {
		e := el.Value.(*cacheEntry)
		if e.rec.Revision >= rec.Revision {
			return
		}
		c.remove(el)
	}
	if cost > c.budget {
		return
	}
	c.byID[rec.ID] = c.order.PushFront(&cacheEntry{rec: rec, cost: cost})
	c.used += cost
	for c.used > c.budget {
		c.remove(c.order.Back())
	}
}

func (c *recordCache) remove(el *list.Element) {
	e := c.order.Remove(el).(*cacheEntry)
	delete(c.byID, e.rec.ID)
	c.used -= e.cost
}

// size is how many records and estimated bytes the cache holds.
func (c *recordCache) size() (records int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byID), c.used
}
