package designer

import (
	"reflect"
	"slices"
	"sort"
)

// KeyOrder is a table's items in key order (TableOrder) together with where each row's item is in
// the table's items, so that the order of a revision that edited, added or removed a few items can
// be patched from it (For) instead of sorted again.
type KeyOrder struct {
	Rows []Row
	at   []int32 // per row, the position of its item in t.Items
	t    Table   // the table ordered
}

// NewKeyOrder sorts t's items into key order.
func NewKeyOrder(t Table) KeyOrder {
	m := NewEntityMatcher(t)
	type sortable struct {
		row Row
		key orderKey
	}
	rows := make([]sortable, len(t.Items))
	for i, si := range t.Items {
		rows[i].row, rows[i].key = orderRow(t, m, si, i)
	}
	slices.SortFunc(rows, func(a, b sortable) int { return compareOrder(a.key, b.key) })
	o := KeyOrder{Rows: make([]Row, len(rows)), at: make([]int32, len(rows)), t: t}
	for i, r := range rows {
		o.Rows[i], o.at[i] = r.row, r.key.at
	}
	return o
}

// maxOrderPatch is the share of a table's items (1/maxOrderPatch) past which an edit's rows are
// sorted again rather than placed one by one; a few dozen items are always placed.
const (
	maxOrderPatch    = 8
	minOrderPatchCap = 64
)

// For returns t's key order. When t is the table o ordered with a few items edited, added or
// removed (ItemsEdit), its key schema and entity types as they were, it is o's order with the rows
// of the items gone taken out and those of the new items put in their place, found by binary
// search: the same rows as NewKeyOrder's, at the cost of the edit and a copy. Otherwise it is
// NewKeyOrder(t).
func (o KeyOrder) For(t Table) KeyOrder {
	if o.t.Items == nil && o.Rows == nil || !sameOrderSchema(o.t, t) {
		return NewKeyOrder(t)
	}
	e, ok := ItemsEdit(o.t.Items, t.Items, minOrderPatchCap+len(t.Items)/maxOrderPatch)
	if !ok {
		return NewKeyOrder(t)
	}
	m := NewEntityMatcher(t)
	type placed struct {
		row Row
		key orderKey
	}
	added := make([]placed, len(e.Added))
	for i, j := range e.Added {
		added[i].row, added[i].key = orderRow(t, m, t.Items[j], j)
	}
	slices.SortFunc(added, func(a, b placed) int { return compareOrder(a.key, b.key) })

	kept := make([]Row, 0, len(o.Rows))
	keptAt := make([]int32, 0, len(o.Rows))
	for i, j := range o.at {
		if now, ok := e.NewPosition(int(j)); ok {
			kept = append(kept, o.Rows[i])
			keptAt = append(keptAt, int32(now))
		}
	}
	keyOf := func(i int) orderKey {
		_, k := orderRow(t, EntityMatcher{t: t}, SampleItem{Item: kept[i].Item}, int(keptAt[i]))
		return k
	}
	next := KeyOrder{Rows: make([]Row, 0, len(t.Items)), at: make([]int32, 0, len(t.Items)), t: t}
	from := 0
	for _, a := range added {
		to := sort.Search(len(kept), func(i int) bool { return compareOrder(a.key, keyOf(i)) < 0 })
		next.Rows = append(next.Rows, kept[from:to]...)
		next.at = append(next.at, keptAt[from:to]...)
		next.Rows = append(next.Rows, a.row)
		next.at = append(next.at, a.key.at)
		from = to
	}
	next.Rows = append(next.Rows, kept[from:]...)
	next.at = append(next.at, keptAt[from:]...)
	return next
}

// SharesKey reports whether another item of the table ordered has the primary key of the item at
// position j of its items: every table key attribute present in both, equal as DynamoDB compares
// keys (CompareKeyValues). Such items overwrite each other, so a read sees only one of them.
func (o KeyOrder) SharesKey(j int) bool {
	it := o.t.Items[j].Item
	pk, hasPK := it[o.t.PartitionKey.Name]
	var sk Value
	hasSK := true
	if o.t.SortKey != nil {
		sk, hasSK = it[o.t.SortKey.Name]
	}
	return hasPK && hasSK && len(o.Holding(pk, sk)) > 1
}

// Holding returns the positions in the table's items, ascending, of the items whose partition key
// is pk and sort key sk (ignored for a table without one), equal as CompareKeyValues compares: a
// binary search, as items of one key are next to each other in the order.
func (o KeyOrder) Holding(pk, sk Value) []int {
	key := orderKey{pk: pk, sk: sk, keyed: true, at: -1}
	keyAt := func(i int) orderKey {
		_, k := orderRow(o.t, EntityMatcher{t: o.t}, SampleItem{Item: o.Rows[i].Item}, int(o.at[i]))
		return k
	}
	// The first row of the key, whatever its position.
	i := sort.Search(len(o.Rows), func(i int) bool { return compareOrder(key, keyAt(i)) < 0 })
	var out []int
	for ; i < len(o.Rows); i++ {
		k := keyAt(i)
		if !k.keyed || CompareKeyValues(k.pk, pk) != 0 || CompareKeyValues(k.sk, sk) != 0 {
			break
		}
		out = append(out, int(o.at[i]))
	}
	return out
}

// sameOrderSchema reports whether a's and b's items are ordered and typed by the same keys and
// entity types.
func sameOrderSchema(a, b Table) bool {
	return reflect.DeepEqual(a.PartitionKey, b.PartitionKey) && reflect.DeepEqual(a.SortKey, b.SortKey) &&
		reflect.DeepEqual(a.EntityTypes, b.EntityTypes)
}

// ItemEdit is how a table's items became another list: the positions of the items removed, in
// the old list, and of those added, in the new one, both ascending; every other item is the same
// (the same id and the same map, which no change modifies) and keeps its order. An item edited in
// place counts as removed and added at its position.
type ItemEdit struct {
	Removed, Added []int
	// The items at old positions from tailFrom on are at shift positions further in the new list.
	tailFrom, shift int
	removed         map[int]bool // of Removed, for NewPosition; nil when Removed is short
}

// NewPosition is where the item at old position j is in the new list, or false when it was
// removed.
func (e ItemEdit) NewPosition(j int) (int, bool) {
	if e.removed != nil {
		if e.removed[j] {
			return 0, false
		}
	} else if _, hit := slices.BinarySearch(e.Removed, j); hit {
		return 0, false
	}
	if j >= e.tailFrom {
		return j + e.shift, true
	}
	return j, true
}

// ItemsEdit finds how b was made from a, when it is a with at most limit items edited in place
// (as many items, ids kept), or with one run of items replaced, added or removed (the items before
// and after it the same): what one change to sample items makes, editing cells, adding, pasting,
// generating or deleting items. ok is false for any other change.
func ItemsEdit(a, b []SampleItem, limit int) (ItemEdit, bool) {
	same := func(x, y SampleItem) bool {
		return x.ID == y.ID && reflect.ValueOf(x.Item).UnsafePointer() == reflect.ValueOf(y.Item).UnsafePointer()
	}
	if len(a) == len(b) {
		var at []int
		inPlace := true
		for j := range b {
			if same(a[j], b[j]) {
				continue
			}
			if a[j].ID != b[j].ID || len(at) == limit {
				inPlace = false
				break
			}
			at = append(at, j)
		}
		if inPlace {
			return newItemEdit(at, at, len(a), 0), true
		}
	}
	p := 0
	for p < len(a) && p < len(b) && same(a[p], b[p]) {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && same(a[len(a)-1-s], b[len(b)-1-s]) {
		s++
	}
	removed, added := len(a)-p-s, len(b)-p-s
	if removed > limit || added > limit {
		return ItemEdit{}, false
	}
	return newItemEdit(span(p, removed), span(p, added), len(a)-s, len(b)-len(a)), true
}

func newItemEdit(removed, added []int, tailFrom, shift int) ItemEdit {
	e := ItemEdit{Removed: removed, Added: added, tailFrom: tailFrom, shift: shift}
	if len(removed) > 16 {
		e.removed = make(map[int]bool, len(removed))
		for _, j := range removed {
			e.removed[j] = true
		}
	}
	return e
}

// span is the positions from..from+n-1.
func span(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}
