package rules

import (
	"sync/atomic"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Adding, pasting, generating, duplicating and deleting items change one run of a table's items
// (designer.ItemsEdit): the items before and after it are those the last validation checked, the
// later ones moved by as many places as the run grew or shrank. The item rules check the run's new
// items and take over the findings of the others, which depend on the item and the table's fields
// only, unless the item is named by its position (no id, or no table key): that one is checked
// again at its new place. A removed item's findings go with it.
//
// MOD010 compares items with each other. Its findings are those of the last validation when no
// removed item shared its key with another item before the edit and no added one shares it after
// (designer.KeyOrder.SharesKey), and every item has an id: the items sharing keys are then the same
// ones, named the same way. Otherwise an add or delete made or broke a duplicate key, and MOD010
// runs over the whole table (counted by coldDuplicateKeyTables).

// runEdit is how a table's items were made from those of the last validation's table of its name.
type runEdit struct {
	e designer.ItemEdit
	// cut is where the run starts: items before it keep their place, those from it on that are
	// not added are at shift places from their old one.
	cut, shift int
}

// maxRunEdit is how long a run of added or removed items may be for the others' findings to be
// taken over, for a table of n items.
func maxRunEdit(n int) int { return 64 + n/8 }

// itemsRun returns how b's items were made from a's, when b is a with one run of items added,
// removed or replaced, or a few edited in place, and every other field the same.
func itemsRun(a, b designer.Table) (runEdit, bool) {
	if len(a.Items) == 0 || !sameApartFromItems(a, b) {
		return runEdit{}, false
	}
	e, ok := designer.ItemsEdit(a.Items, b.Items, maxRunEdit(max(len(a.Items), len(b.Items))))
	if !ok {
		return runEdit{}, false
	}
	r := runEdit{e: e, cut: len(b.Items), shift: len(b.Items) - len(a.Items)}
	if len(e.Added) > 0 {
		r.cut = e.Added[0]
	}
	if len(e.Removed) > 0 {
		r.cut = min(r.cut, e.Removed[0])
	}
	return r, true
}

// oldPosition is where the item at position i of the new items was in the old ones, or false
// when it was added by the edit.
func (r runEdit) oldPosition(i int, added []int) (int, bool) {
	if len(added) > 0 && added[0] == i {
		return 0, false
	}
	if i < r.cut {
		return i, true
	}
	return i - r.shift, true
}

// namedByPosition reports whether the item rules' findings on an item name it by its place among
// the table's items (itemRowID, itemKeyWords), so that they change when it moves.
func namedByPosition(t designer.Table, it designer.SampleItem) bool {
	if it.ID == "" {
		return true
	}
	for _, k := range designer.TableKeyNames(t) {
		if _, ok := it.Item[k]; ok {
			return false
		}
	}
	return true
}

// modItemRulesRun is modItemRules for table ti when its items were made from those of old's table
// by run: it appends the table's item findings to out and returns them with where each item's end.
func modItemRulesRun(v *validation, ti int, old *tableMemo, run runEdit, r *itemRules, out []Finding) ([]Finding, []int32, *itemRules) {
	t := v.d.Tables[ti]
	from := len(out)
	ends := make([]int32, 0, len(t.Items)+1)
	out = mod015TTLDeclared(t, out)
	ends = append(ends, int32(len(out)-from))
	prepared := false
	added := run.e.Added
	for i, it := range t.Items {
		j, kept := run.oldPosition(i, added)
		if !kept {
			added = added[1:]
		}
		if kept && (run.shift == 0 || i < run.cut || !namedByPosition(t, it)) {
			out = append(out, old.parts[partItems][old.itemEnds[j]:old.itemEnds[j+1]]...)
			ends = append(ends, int32(len(out)-from))
			continue
		}
		if !prepared {
			r, prepared = newItemRules(t, r, false), true
		}
		out = r.mod006ItemKeys(i, it, out)
		out = r.mod007ItemSize(i, it, out)
		out = r.mod011NullText(i, it, out)
		out = r.mod014Taxonomy(i, it, out)
		out = r.mod015TTLNumber(i, it, out)
		ends = append(ends, int32(len(out)-from))
	}
	if duplicatesKept(v, old.t, t, run) {
		out = append(out, old.parts[partItems][old.itemEnds[len(old.t.Items)]:]...)
	} else {
		coldDuplicateKeyTables.Add(1)
		r = newItemRules(t, r, true)
		for i, it := range t.Items {
			r.mod010CollectKey(i, it)
		}
		out = r.mod010DuplicateKeys(out)
	}
	return out, ends, r
}

// duplicatesKept reports whether MOD010 finds on b what it found on a, which run made b from: no
// removed item shared its key before, no added one shares it after, and every item has an id.
func duplicatesKept(v *validation, a, b designer.Table, run runEdit) bool {
	for _, it := range b.Items {
		if it.ID == "" {
			return false
		}
	}
	if len(run.e.Removed) > 0 {
		before := v.cache.KeyOrder(a)
		for _, j := range run.e.Removed {
			if before.SharesKey(j) {
				return false
			}
		}
	}
	if len(run.e.Added) > 0 {
		after := v.cache.KeyOrder(b)
		for _, i := range run.e.Added {
			if after.SharesKey(i) {
				return false
			}
		}
	}
	return true
}

// outside reports whether every item the run removed from a and every one it added to b is
// outside the partition key reads: the read then returns the items it returned, the others
// keeping their order.
func (r runEdit) outside(key dynamo.PartitionKey, a, b designer.Table) bool {
	for _, j := range r.e.Removed {
		if key.Holds(a.Items[j].Item) {
			return false
		}
	}
	for _, i := range r.e.Added {
		if key.Holds(b.Items[i].Item) {
			return false
		}
	}
	return true
}

// coldDuplicateKeyTables counts the tables whose MOD010 ran over every item after an edit of one
// run of their items, because it made or broke a duplicate key: for tests that it is only then.
var coldDuplicateKeyTables atomic.Int64
