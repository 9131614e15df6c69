package storage

import (
	"dynaloom/internal/memory"
)

// DefaultCacheBytes is the default budget of everything kept in memory per design
// (Options.CacheBytes): the store's records and decoded snapshots, and what the server derives
// from each revision, which charges the same Budget (Store.Budget).
const DefaultCacheBytes = 256 << 20

// remeasureAt is how far a design's stored size may move from the size it had when its record
// was last measured before it is measured again: in between, its cost is scaled from that
// measure by the stored size, so that an edit costs the edit and not a walk of the design.
const remeasureAt = 8 // one eighth

// recordCache keeps records of recently used designs, charged to a memory.Budget what they hold
// on the heap (memory.Size), shared with the other caches of the Budget: forty designs full of
// sample items weigh more than thousands of small ones. The least recently used go first.
type recordCache struct {
	budget *memory.Budget // its lock guards byID
	byID   map[string]*cacheEntry
}

type cacheEntry struct {
	rec  Record
	held *memory.Held
	// measured is the bytes memory.Size found when the design's record was last measured, at a
	// stored size of measuredDoc bytes.
	measured, measuredDoc int64
}

func newRecordCache(budget *memory.Budget) *recordCache {
	return &recordCache{budget: budget, byID: map[string]*cacheEntry{}}
}

// get returns the cached record of id if it is at revision rev. Records are immutable values,
// and (id, revision) names exactly one state, so a hit is always current for that revision.
func (c *recordCache) get(id string, rev int64) (Record, bool) {
	c.budget.Lock()
	defer c.budget.Unlock()
	e, ok := c.byID[id]
	if !ok || e.rec.Revision != rev {
		return Record{}, false
	}
	c.budget.Use(e.held)
	return e.rec, true
}

// put caches rec, whose stored document is docBytes long, unless a newer revision of it is
// cached already; the budget then drops the least recently used entries until it fits. A record
// larger than the whole budget is not kept. A record whose stored size is near the one its
// design's cached record was measured at is charged that measure, scaled; any other is measured.
func (c *recordCache) put(rec Record, docBytes int) {
	doc := int64(docBytes)
	c.budget.Lock()
	prev, ok := c.byID[rec.ID]
	if ok && prev.rec.Revision >= rec.Revision {
		c.budget.Unlock()
		return
	}
	c.budget.Unlock()
	if doc > c.budget.Limit() {
		return // a decoded design takes more than its document: not worth measuring
	}

	e := &cacheEntry{rec: rec}
	if ok && prev.measuredDoc > 0 && abs(doc-prev.measuredDoc)*remeasureAt <= prev.measuredDoc {
		e.measured, e.measuredDoc = prev.measured, prev.measuredDoc
	} else {
		// Measured without the lock: the walk takes about what decoding the design took.
		e.measured, e.measuredDoc = memory.Size(&e.rec), max(doc, 1)
	}
	cost := e.measured * max(doc, 1) / e.measuredDoc

	c.budget.Lock()
	defer c.budget.Unlock()
	if cur, ok := c.byID[rec.ID]; ok {
		if cur.rec.Revision >= rec.Revision {
			return
		}
		c.budget.Release(cur.held)
		delete(c.byID, rec.ID)
	}
	e.held = c.budget.Hold(cost, func() {
		if c.byID[rec.ID] == e {
			delete(c.byID, rec.ID)
		}
	})
	if e.held != nil {
		c.byID[rec.ID] = e
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// size is how many records the cache holds, and the bytes they are charged.
func (c *recordCache) size() (records int, bytes int64) {
	c.budget.Lock()
	defer c.budget.Unlock()
	for _, e := range c.byID {
		bytes += e.held.Bytes()
	}
	return len(c.byID), bytes
}
