package capacity

import (
	"maps"
	"reflect"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Adding, pasting, generating, duplicating and deleting items change one run of a table's items
// (designer.ItemsEdit). The table's storage is then its measures with the removed items taken out
// and the added ones put in, as for items edited in place, when no removed item shared its table
// key with another item before the edit and no added one shares it after: no other item is hidden
// or revealed in the table or its indexes.

// itemRun is the items one run edit removed from a table and added to it.
type itemRun struct {
	removed, added []designer.SampleItem
	// alone says no removed item shared its key before the edit and no added one shares it
	// after: no other item is hidden or revealed, and the storage can be patched.
	alone bool
}

// runItems returns the items b's run removed from a's items and added, when b is a with one run
// of items changed and every other field the same.
func runItems(c *dynamo.Cache, a, b designer.Table) (itemRun, bool) {
	if len(a.Items) == 0 {
		return itemRun{}, false
	}
	e, ok := designer.ItemsEdit(a.Items, b.Items, 64+max(len(a.Items), len(b.Items))/8)
	if !ok {
		return itemRun{}, false
	}
	x, y := a, b
	x.Items, y.Items = nil, nil
	if !reflect.DeepEqual(x, y) {
		return itemRun{}, false
	}
	r := itemRun{alone: true}
	if len(e.Removed) > 0 {
		before := c.KeyOrder(a)
		for _, j := range e.Removed {
			r.alone = r.alone && !before.SharesKey(j)
			r.removed = append(r.removed, a.Items[j])
		}
	}
	if len(e.Added) > 0 {
		after := c.KeyOrder(b)
		for _, i := range e.Added {
			r.alone = r.alone && !after.SharesKey(i)
			r.added = append(r.added, b.Items[i])
		}
	}
	return r, true
}

// run is ms for t, which is the table ms measured with run's removed items taken out and its
// added ones put in: only those are measured. ok is false when an added item has the id of
// another, which the measures, by id, cannot tell apart. ms is not changed.
func (ms *measures) run(t designer.Table, r itemRun) (*measures, bool) {
	m := designer.NewEntityMatcher(t)
	out := &measures{groups: make(map[string]*group, len(ms.groups)), all: ms.all.clone(), entityOf: maps.Clone(ms.entityOf), indexes: ms.indexes}
	for e, g := range ms.groups {
		out.groups[e] = g.clone()
	}
	ixs := allIndexes(t)
	add := func(it designer.SampleItem, sign float64) {
		e := m.EntityType(it.Item)
		size := float64(designer.ItemSize(it.Item))
		out.group(e).addItem(sign*size, sign)
		out.all.addItem(sign*size, sign)
		one := t
		one.Items = []designer.SampleItem{{Item: it.Item}}
		for j, ix := range ixs {
			rows := dynamo.IndexItems(one, ix, j >= len(t.GSIs)).Rows
			if len(rows) != 1 {
				continue
			}
			out.group(e).addEntry(ix.Name, sign*float64(rows[0].Size), sign)
			out.all.addEntry(ix.Name, sign*float64(rows[0].Size), sign)
		}
	}
	for _, it := range r.removed {
		add(it, -1)
		delete(out.entityOf, it.ID)
	}
	for _, it := range r.added {
		if _, taken := out.entityOf[it.ID]; taken {
			return nil, false
		}
		add(it, 1)
		out.entityOf[it.ID] = m.EntityType(it.Item)
	}
	for e, g := range out.groups {
		if g.empty() {
			delete(out.groups, e)
		}
	}
	return out, true
}

// outside reports whether every item the run removed or added is outside the partition key
// reads: a read of it returns what it returned, the other items keeping their order. An item
// sharing its key with one the run added or removed is in the same partition, so it holds
// whether or not the run is alone.
func (r itemRun) outside(key dynamo.PartitionKey) bool {
	for _, it := range r.removed {
		if key.Holds(it.Item) {
			return false
		}
	}
	for _, it := range r.added {
		if key.Holds(it.Item) {
			return false
		}
	}
	return true
}
