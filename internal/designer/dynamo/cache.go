package dynamo

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"dynaloom/internal/designer"
)

// Cache remembers what the reads of one design work out from its items, so that repeated reads
// of a revision, which is what a page showing every pattern's result and a validation run make, do
// not walk every item again: item measurements (measureItem's page size, item size and canonical
// spelling) and each index's entries in index order. A caller holds one per design it reads: a nil
// *Cache remembers nothing and works everything out for every read.
//
// A Cache relies on a design being an immutable value (see package designer): a change never
// modifies a table's Items slice or an item map in place, it allocates a new slice whenever any
// item changes. So an Items slice (its first element and its length) names one unchanging list of
// items for as long as the Cache holds it, and what is recorded for it cannot go stale. An entry
// keeps the slice itself, so the array cannot be freed and its address reused while the entry is
// cached. A design must therefore not be modified after a Cache has read it; reads of an edited
// revision (a new slice sharing the untouched item maps) may use the same Cache, or one made by
// For, and inherit the measurements of the items the edit did not touch. The sort key's name is
// part of a measurement's key because the page size depends on it; an index's key schema,
// projection and the table's key are part of its entries' key.
//
// A Cache holds the measurements of at most cacheSize slices (or of every table of the design it
// was made For), evicting the oldest, and the entries of at most maxIndexLists indexes; it fills
// lazily: a read records only the items it measures and the indexes it reads. Each item's
// measurement is one atomic word, so concurrent reads may fill it together, and an index's entries
// are worked out once however many reads ask for them at the same time.
type Cache struct {
	mu      sync.Mutex
	entries []*itemMeasures // oldest first
	limit   int             // how many entries are kept; cacheSize unless For said more
	indexes map[indexKey]*indexList
	order   []indexKey // of indexes, oldest first
	// edits are, by the first item of a table's items, the items they were edited from (For):
	// an index list of those is patched rather than built again.
	edits map[*designer.SampleItem]itemEdit
	// orders are the tables' key orders by their items, and latest the newest by table name
	// (KeyOrder).
	orders map[orderKey]*orderEntry
	latest map[string]*orderEntry
	// names and latestNames are the same for the attribute names items hold (AttributeNames).
	names       map[orderKey]*namesEntry
	latestNames map[string]*namesEntry
}

// itemEdit is a table's items as they were before a few were edited in place (at, their
// positions), ids kept, with the index lists of the Cache that read them, by signature.
type itemEdit struct {
	old   []designer.SampleItem
	at    []int
	lists map[string]*indexList
}

// sortedViews counts the grid views a Cache sorted from nothing, for tests that an edit's views
// were patched.
var sortedViews atomic.Int64

// maxPatched is how many edited items an index list is patched for; beyond it, it is built again.
const maxPatched = 64

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{limit: cacheSize} }

const (
	cacheSize     = 8
	maxIndexLists = 1024
)

// For returns a new Cache for reading d that starts with what c remembers of d's items: the
// measurements and index entries of every table whose items d still holds, and the measurements
// of the items an edit left alone in a table it changed. c itself is not changed and stays valid
// for the design it read, so each revision of a design can have a Cache of its own, made For it
// from its predecessor's. A nil c gives an empty Cache.
func (c *Cache) For(d designer.Design) *Cache {
	next := &Cache{limit: max(cacheSize, len(d.Tables)), indexes: map[indexKey]*indexList{}}
	if c == nil {
		return next
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.carryOrders(next, d)
	c.carryNames(next, d)
	held := map[*designer.SampleItem]int{}
	for _, t := range d.Tables {
		if len(t.Items) == 0 {
			continue
		}
		held[&t.Items[0]] = len(t.Items)
		if _, ok := c.heldItems(t.Items); !ok {
			if old, ok := c.editedFrom(t.Items); ok {
				if next.edits == nil {
					next.edits = map[*designer.SampleItem]itemEdit{}
				}
				next.edits[&t.Items[0]] = old
			}
		}
		rangeKey := ""
		if t.SortKey != nil {
			rangeKey = t.SortKey.Name
		}
		if e := c.find(t.Items, rangeKey); e != nil {
			next.entries = append(next.entries, e)
			continue
		}
		e := &itemMeasures{items: t.Items, rangeKey: rangeKey, m: make([]atomic.Uint64, len(t.Items))}
		e.inherit(c.entries)
		next.entries = append(next.entries, e)
	}
	for _, k := range c.order {
		if n, ok := held[k.first]; ok && n == k.n {
			next.indexes[k] = c.indexes[k]
			next.order = append(next.order, k)
		}
	}
	return next
}

// heldItems returns the lists c holds of items; c.mu is held.
func (c *Cache) heldItems(items []designer.SampleItem) ([]designer.SampleItem, bool) {
	for k, l := range c.indexes {
		if k.first == &items[0] && k.n == len(items) {
			return l.items, true
		}
	}
	return nil, false
}

// editedFrom finds the items of which items are an edit of at most maxPatched items in place
// (same length, same ids), among those c holds index lists of; c.mu is held.
func (c *Cache) editedFrom(items []designer.SampleItem) (itemEdit, bool) {
	seen := map[*designer.SampleItem]bool{}
	for k, l := range c.indexes {
		if k.n != len(items) || seen[k.first] {
			continue
		}
		seen[k.first] = true
		var at []int
		for j := range items {
			x, y := l.items[j], items[j]
			if x.ID != y.ID {
				at = nil
				break
			}
			if mapIdentity(x.Item) != mapIdentity(y.Item) {
				if len(at) == maxPatched {
					at = nil
					break
				}
				at = append(at, j)
			}
		}
		if at != nil {
			e := itemEdit{old: l.items, at: at, lists: map[string]*indexList{}}
			for k2, l2 := range c.indexes {
				if k2.first == k.first && k2.n == k.n {
					e.lists[k2.sig] = l2
				}
			}
			return e, true
		}
	}
	return itemEdit{}, false
}

// patchable returns the list of the same index (k's signature) over the items that items were
// edited from, with the positions edited, when every edited item keeps the values of the key
// attributes names, present or absent alike: each then keeps its place in the index, or stays
// out of it, and only its entry changes. The list must have been built.
func (c *Cache) patchable(k indexKey, items []designer.SampleItem, names []string) (*indexList, []int) {
	c.mu.Lock()
	e, ok := c.edits[k.first]
	c.mu.Unlock()
	old := e.lists[k.sig]
	if !ok || old == nil || !old.built.Load() {
		return nil, nil
	}
	for _, j := range e.at {
		for _, name := range names {
			x, xok := e.old[j].Item[name]
			y, yok := items[j].Item[name]
			if xok != yok || !x.Identical(y) {
				return nil, nil
			}
		}
	}
	return old, e.at
}

// movable returns the list of the same index (k's signature) over the items that k's were edited
// from in place, ids kept, with the positions edited, whatever the edits did to the index's keys.
// The list must have been built.
func (c *Cache) movable(k indexKey) (*indexList, []int) {
	c.mu.Lock()
	e, ok := c.edits[k.first]
	c.mu.Unlock()
	old := e.lists[k.sig]
	if !ok || old == nil || !old.built.Load() {
		return nil, nil
	}
	return old, e.at
}

// keyNames are the attributes whose values place an item in an index: the table's keys and the
// index's.
func keyNames(t designer.Table, ix designer.Index) []string {
	names := designer.TableKeyNames(t)
	for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
		names = append(names, k.Name)
	}
	return names
}

// Bytes estimates the memory c holds beyond the items it reads: a word per measured item and per
// index entry, and the entries an index projects into maps of their own.
func (c *Cache) Bytes() int64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, e := range c.entries {
		n += 64 + 8*int64(len(e.m))
	}
	for _, l := range c.indexes {
		n += 64 + l.bytes.Load()
	}
	for _, e := range c.orders {
		n += 64 + 100*int64(len(e.items))
	}
	return n
}

// find returns the entry for items read with rangeKey, or nil; c.mu is held.
func (c *Cache) find(items []designer.SampleItem, rangeKey string) *itemMeasures {
	for _, e := range c.entries {
		if &e.items[0] == &items[0] && len(e.items) == len(items) && e.rangeKey == rangeKey {
			return e
		}
	}
	return nil
}

// indexKey names one index's entries: the table's items (first element and length) and a text
// holding everything else they depend on (indexSignature).
type indexKey struct {
	first *designer.SampleItem
	n     int
	sig   string
}

// indexList is one index's entries, or its grid view, worked out once.
type indexList struct {
	items   []designer.SampleItem // pins the array named by the key
	once    sync.Once
	entries []designer.Item
	view    IndexView
	srcs    []int32 // per entry or row, the position of its item in items
	bytes   atomic.Int64
	built   atomic.Bool
}

// patch returns a copy of old's rows (entries or view rows) in which the rows of the items at the
// positions edited are remade by remake, and whether every one could be.
func patch[T any](rows []T, srcs []int32, edited []int, remake func(j int) (T, bool)) ([]T, bool) {
	out := slices.Clone(rows)
	for i, j := range srcs {
		if _, hit := slices.BinarySearch(edited, int(j)); !hit {
			continue
		}
		row, ok := remake(int(j))
		if !ok {
			return nil, false
		}
		out[i] = row
	}
	return out, true
}

// list returns the indexList of key k, adding an empty one (and evicting the oldest) if there is
// none.
func (c *Cache) list(k indexKey, items []designer.SampleItem) *indexList {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.indexes[k]; ok {
		return l
	}
	if c.indexes == nil {
		c.indexes = map[indexKey]*indexList{}
	}
	if len(c.order) == maxIndexLists {
		delete(c.indexes, c.order[0])
		c.order = slices.Delete(c.order, 0, 1)
	}
	l := &indexList{items: items}
	c.indexes[k] = l
	c.order = append(c.order, k)
	return l
}

// indexEntries returns the entries of tg's index, remembered in c. A nil c works them out.
func (c *Cache) indexEntries(tg target) []designer.Item {
	if c == nil || len(tg.table.Items) == 0 {
		return tg.buildIndexEntries()
	}
	k := indexKey{first: &tg.table.Items[0], n: len(tg.table.Items), sig: "read|" + indexSignature(tg.table, tg.tableKeys, tg.index, tg.local)}
	l := c.list(k, tg.table.Items)
	l.once.Do(func() {
		defer l.built.Store(true)
		if old, edited := c.patchable(k, tg.table.Items, keyNames(tg.table, tg.index)); old != nil {
			entries, ok := patch(old.entries, old.srcs, edited, func(j int) (designer.Item, bool) {
				one := tg
				one.table.Items = tg.table.Items[j : j+1]
				entries := one.buildIndexEntries()
				if len(entries) != 1 {
					return nil, false
				}
				return entries[0], true
			})
			if ok {
				l.entries, l.srcs = entries, old.srcs
				l.bytes.Store(old.bytes.Load())
				return
			}
		}
		l.entries, l.srcs = tg.buildIndexEntriesAt()
		l.bytes.Store(entriesBytes(l.entries, tg.index))
	})
	return l.entries
}

// IndexItems is the package's IndexItems, remembered in c: a view is worked out once for as long
// as c holds the table's items. A nil c works it out every time. The view is shared: callers must
// not modify it.
func (c *Cache) IndexItems(t designer.Table, ix designer.Index, lsi bool) IndexView {
	if c == nil || len(t.Items) == 0 {
		return IndexItems(t, ix, lsi)
	}
	// The view's reasons name the index, and an LSI's entries are keyed by the table's partition key.
	sig := "view|" + strconv.Itoa(len(ix.Name)) + ":" + ix.Name + "|" + indexSignature(t, nil, ix, lsi)
	k := indexKey{first: &t.Items[0], n: len(t.Items), sig: sig}
	l := c.list(k, t.Items)
	l.once.Do(func() {
		defer l.built.Store(true)
		if old, edited := c.patchable(k, t.Items, keyNames(t, ix)); old != nil {
			rows, ok := patch(old.view.Rows, old.srcs, edited, func(j int) (IndexRow, bool) {
				one := t
				one.Items = t.Items[j : j+1]
				v := IndexItems(one, ix, lsi)
				if len(v.Rows) != 1 {
					return IndexRow{}, false
				}
				return v.Rows[0], true
			})
			if ok {
				l.view, l.srcs = old.view, old.srcs
				l.view.Rows = rows
				l.bytes.Store(old.bytes.Load())
				return
			}
		}
		if old, edited := c.movable(k); old != nil {
			// Edited items that changed a key the index is ordered by move in it.
			l.view, l.srcs = movedView(old, t, ix, lsi, edited)
		} else {
			sortedViews.Add(1)
			l.view, l.srcs = indexItems(t, ix, lsi, -1)
		}
		n := entriesBytes(nil, ix) + 48*int64(len(l.view.Rows)) + 48*int64(len(l.view.Excluded))
		for _, r := range l.view.Rows {
			n += int64(len(r.Partition))
			if ix.Projection.Type != designer.All {
				n += 48 + 32*int64(len(r.Item)) + int64(r.Size)
			}
		}
		for _, e := range l.view.Excluded {
			n += int64(len(e.Reason))
		}
		l.bytes.Store(n)
	})
	return l.view
}

// entriesBytes estimates what a list of index entries holds: a word each, and for an index that
// does not project everything, a map of its own per entry (its header and buckets, and its values).
func entriesBytes(entries []designer.Item, ix designer.Index) int64 {
	n := 8 * int64(len(entries))
	if ix.Projection.Type != designer.All {
		for _, it := range entries {
			n += 48 + 32*int64(len(it)) + int64(designer.IndexEntrySize(it))
		}
	}
	return n
}

// indexSignature is everything an index's entries depend on besides the table's items: the
// table's key as written and as a read types it (tableKeys, none for a grid), the index's keys and
// projection, and whether it is local. Each name is written with its length, so no two schemas
// spell the same text.
func indexSignature(t designer.Table, tableKeys []designer.KeyAttribute, ix designer.Index, local bool) string {
	var sb strings.Builder
	key := func(k designer.KeyAttribute) {
		sb.WriteString(strconv.Itoa(len(k.Name)))
		sb.WriteByte(':')
		sb.WriteString(k.Name)
		sb.WriteString(string(k.Type))
		sb.WriteByte(';')
	}
	key(t.PartitionKey)
	if t.SortKey != nil {
		key(*t.SortKey)
	}
	sb.WriteByte('|')
	for _, k := range tableKeys {
		key(k)
	}
	sb.WriteByte('|')
	for _, k := range ix.PartitionKey {
		key(k)
	}
	sb.WriteByte('|')
	for _, k := range ix.SortKey {
		key(k)
	}
	sb.WriteByte('|')
	sb.WriteString(string(ix.Projection.Type))
	for _, a := range ix.Projection.Attributes {
		key(designer.KeyAttribute{Name: a})
	}
	if local {
		sb.WriteString("|local")
	}
	return sb.String()
}

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
	if e := c.find(items, rangeKey); e != nil {
		return e
	}
	e := &itemMeasures{items: items, rangeKey: rangeKey, m: make([]atomic.Uint64, len(items))}
	e.inherit(c.entries)
	if len(c.entries) >= max(c.limit, 1) {
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
