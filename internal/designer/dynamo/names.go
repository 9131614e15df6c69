package dynamo

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"dynaloom/internal/designer"
)

// namesEntry is how many of a table's items hold each attribute name, worked out once.
type namesEntry struct {
	items  []designer.SampleItem // pins the array named by the key
	once   sync.Once
	counts map[string]int
	names  []string // those held by some item, sorted
	built  atomic.Bool
}

// AttributeNames are the names of the attributes t's items hold, sorted, remembered in c:
// counted once per items array, and from the newest count c holds of the table of the same name
// when t's items are those with a few edited, added or removed (designer.ItemsEdit), only those
// items are counted again. A nil c counts every time. The list is shared: callers must not
// modify it.
func (c *Cache) AttributeNames(t designer.Table) []string {
	if c == nil || len(t.Items) == 0 {
		_, names := countNames(t.Items, nil, nil)
		return names
	}
	k := orderKey{first: &t.Items[0], n: len(t.Items)}
	c.mu.Lock()
	e, ok := c.names[k]
	var base *namesEntry
	if !ok {
		e = &namesEntry{items: t.Items}
		if c.names == nil {
			c.names = map[orderKey]*namesEntry{}
			c.latestNames = map[string]*namesEntry{}
		}
		base = c.latestNames[t.Name]
		c.names[k] = e
		c.latestNames[t.Name] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		var from *namesEntry
		var edit designer.ItemEdit
		if base != nil && base.built.Load() {
			if ed, ok := designer.ItemsEdit(base.items, t.Items, 64+len(t.Items)/8); ok {
				from, edit = base, ed
			}
		}
		e.counts, e.names = countNames(t.Items, from, &edit)
		e.built.Store(true)
	})
	return e.names
}

// countNames counts the attribute names of items: from from's counts, the items edit removed
// taken out and those it added put in, or from nothing when from is nil.
func countNames(items []designer.SampleItem, from *namesEntry, edit *designer.ItemEdit) (map[string]int, []string) {
	var counts map[string]int
	if from == nil {
		counts = map[string]int{}
		for _, it := range items {
			for name := range it.Item {
				counts[name]++
			}
		}
	} else {
		counts = maps.Clone(from.counts)
		for _, j := range edit.Removed {
			for name := range from.items[j].Item {
				if counts[name]--; counts[name] == 0 {
					delete(counts, name)
				}
			}
		}
		for _, j := range edit.Added {
			for name := range items[j].Item {
				counts[name]++
			}
		}
	}
	names := slices.Sorted(maps.Keys(counts))
	return counts, names
}

// carryNames gives next the newest count c holds of each table of d by name; c.mu is held.
func (c *Cache) carryNames(next *Cache, d designer.Design) {
	for _, t := range d.Tables {
		e, ok := c.latestNames[t.Name]
		if !ok || !e.built.Load() {
			continue
		}
		if next.names == nil {
			next.names = map[orderKey]*namesEntry{}
			next.latestNames = map[string]*namesEntry{}
		}
		next.names[orderKey{first: &e.items[0], n: len(e.items)}] = e
		next.latestNames[t.Name] = e
	}
}
