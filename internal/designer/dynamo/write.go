package dynamo

import (
	"math"
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// This file evaluates writes (PutItem, UpdateItem, DeleteItem, BatchWriteItem,
// TransactWriteItems) on a scratch copy of the item they write, to show the capacity they consume
// (§2.2) and the index writes they cause (§2.3). The design is never changed: the item before the
// write is the stored one, and the item after it is a new map.
//
// A mapping Operation holds no item or update expression, so a write is read from its key
// condition and values by these conventions:
//
//   - The key comes from the key condition, as for GetItem ("pk = :pk AND sk = :sk"); a
//     BatchWriteItem or TransactWriteItems may name several keys with IN ("sk IN (:a, :b)").
//     PutItem may leave the key condition out and give the key attributes as values instead.
//   - Every value the key condition does not use is an attribute, named after its placeholder
//     without the colon: ":status" sets the attribute status. (Attribute names that a placeholder
//     cannot spell, with "-" or ".", cannot be written this way.)
//   - PutItem writes the item made of the key and those attributes, replacing any stored item.
//   - UpdateItem applies "SET a = :a, b = :b" for those attributes to the stored item (or to a new
//     item holding only the key); setting a table key attribute is refused, as DynamoDB does.
//     There is no REMOVE: an attribute cannot be taken away by an update under this convention.
//   - DeleteItem deletes the item with the key.
//   - A BatchWriteItem or TransactWriteItems row does to each of its keys what its Action says:
//     put and delete as PutItem and DeleteItem, update as UpdateItem (TransactWriteItems only),
//     and condition_check (TransactWriteItems only) writes nothing. Without an Action a row puts
//     the item made of the key and the attributes, or deletes the key when it gives no attributes.
//     TransactWriteItems costs twice the base-table units (prepare and commit); its index writes
//     are counted once.
//   - A condition check is not evaluated: the item is checked as if the condition held, and it
//     writes no index. It consumes write units for the item's size like a write of it (a missing
//     item one unit, as a failed conditional write of a missing item costs), twice in a
//     transaction; its attributes, if any, are not used.
//
// Capacity (§2.2): a put or update costs max(size before, size after) rounded up to 1 KB, a
// delete the deleted item's size rounded up to 1 KB, at least one unit each; batches sum their
// items. Index writes (§2.3), per index: a new entry 1 write, a changed index key 2 (delete the old
// entry, put the new), a removed entry 1, an entry whose projected attributes alone change 1, an
// unchanged entry or an item in the index neither before nor after 0; each write costs the size of
// the entry it writes or deletes rounded up to 1 KB. LSI writes are reported alongside GSI writes
// although DynamoDB charges them to the table.

// IndexWrite is what one write costs an index (§2.3).
type IndexWrite struct {
	Index  string
	Writes int     // entries put or deleted
	Units  float64 // write capacity units: each write rounded up to 1 KB of its entry
}

// writeUnits converts bytes written to capacity units: rounded up to 1 KB, at least one unit.
func writeUnits(bytes int) float64 {
	return math.Max(math.Ceil(float64(bytes)/1024), 1)
}

// maxItemSize is DynamoDB's item size limit, 400 KB.
const maxItemSize = 400 * 1024

func runWrite(d designer.Design, op designer.Operation) (OperationResult, error) {
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return OperationResult{}, notFoundErr()
	}
	if op.Index != "" {
		return OperationResult{}, validationErr("%s writes the table, not an index; leave the index empty", op.Op)
	}
	keys := TableKeyAttrs(t)
	attrs, keyItems, err := WriteParts(op, keys)
	if err != nil {
		return OperationResult{}, err
	}
	kind := op.Op // the write applied to each key: PutItem, UpdateItem, DeleteItem or ConditionCheck
	switch op.Op {
	case "PutItem", "UpdateItem", "DeleteItem":
		if len(keyItems) != 1 {
			return OperationResult{}, validationErr("%s writes one key; its key condition gives %d", op.Op, len(keyItems))
		}
	default:
		if err := designer.CheckAction("action", op); err != nil {
			return OperationResult{}, validationErr("%s", err)
		}
		kind = RowWrite(op, attrs)
	}
	for _, k := range keys {
		if _, ok := attrs[k.Name]; ok && kind == "UpdateItem" {
			return OperationResult{}, validationErr("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key", k.Name)
		}
	}
	factor := 1.0
	if op.Op == "TransactWriteItems" {
		factor = 2
	}
	out := OperationResult{Items: []designer.Item{}, Write: kind, Keys: len(keyItems)}
	indexAt := map[string]int{}
	for _, key := range keyItems {
		if err := CheckTableKey(key, keys); err != nil {
			return OperationResult{}, err
		}
		before, found := FindStored(t, keys, key)
		var after designer.Item
		switch kind {
		case "PutItem":
			after = CloneItem(key)
			for k, v := range attrs {
				if _, isKey := key[k]; !isKey {
					after[k] = v
				}
			}
		case "UpdateItem":
			after = CloneItem(key)
			for k, v := range before {
				after[k] = v
			}
			for k, v := range attrs {
				after[k] = v
			}
		}
		oldSize, newSize := 0, 0
		if found {
			oldSize = designer.ItemSize(before)
		}
		if kind == "ConditionCheck" {
			after = before // nothing is written
		}
		if after != nil {
			if newSize = designer.ItemSize(after); newSize > maxItemSize {
				return OperationResult{}, validationErr("Item size has exceeded the maximum allowed size")
			}
		}
		out.CapacityUnits += writeUnits(max(oldSize, newSize)) * factor
		effects, err := indexEffects(t, before, after)
		if err != nil {
			return OperationResult{}, err
		}
		for _, e := range effects {
			i, seen := indexAt[e.Index]
			if !seen {
				i = len(out.IndexWrites)
				indexAt[e.Index] = i
				out.IndexWrites = append(out.IndexWrites, IndexWrite{Index: e.Index})
			}
			out.IndexWrites[i].Writes += e.Writes
			out.IndexWrites[i].Units += e.Units
		}
		if after != nil && kind != "ConditionCheck" {
			out.Items = append(out.Items, CanonicalItem(after))
		}
	}
	out.Count = len(out.Items)
	return out, nil
}

// RowWrite is the write a BatchWriteItem or TransactWriteItems row applies to each of its keys:
// the one its Action names, or without one a put when the row gives attributes and a delete when it
// gives none. The action is one checkAction accepts.
func RowWrite(op designer.Operation, attrs designer.Item) string {
	switch op.Action {
	case designer.ActionPut:
		return "PutItem"
	case designer.ActionUpdate:
		return "UpdateItem"
	case designer.ActionDelete:
		return "DeleteItem"
	case designer.ActionConditionCheck:
		return "ConditionCheck"
	}
	if len(attrs) == 0 {
		return "DeleteItem"
	}
	return "PutItem"
}

// WriteParts reads a write's attributes (the values its key condition does not use, named after
// their placeholders) and its keys (from the key condition, or for a PutItem without one from the
// attributes).
func WriteParts(op designer.Operation, keys []designer.KeyAttribute) (designer.Item, []designer.Item, error) {
	used := map[string]bool{}
	var keyItems []designer.Item
	if op.KeyCondition != "" {
		ctx := NewExprContext(op.Names, op.Values)
		if _, _, msg := ParseCondition(op.KeyCondition, ctx); msg != "" {
			return nil, nil, validationErr("Invalid KeyConditionExpression: %s", msg)
		}
		used = ctx.UsedValues
		kop := op
		if op.Op != "BatchWriteItem" && op.Op != "TransactWriteItems" {
			kop.Op = "GetItem" // one key: no IN
		}
		var err error
		if keyItems, err = KeysFromCondition(kop); err != nil {
			return nil, nil, validationErr("%s needs a key condition such as \"pk = :pk AND sk = :sk\" to build its key", op.Op)
		}
	} else if op.Op != "PutItem" {
		return nil, nil, validationErr("%s needs a key condition such as \"pk = :pk AND sk = :sk\" to build its key", op.Op)
	}
	attrs := designer.Item{}
	for ph, v := range op.Values {
		if used[ph] {
			continue
		}
		name, ok := strings.CutPrefix(ph, ":")
		if !ok || name == "" {
			return nil, nil, validationErr("ExpressionAttributeValues contains invalid key: Syntax error; key: \"%s\"", ph)
		}
		attrs[name] = v
	}
	if keyItems == nil {
		key := designer.Item{}
		for _, k := range keys {
			if v, ok := attrs[k.Name]; ok {
				key[k.Name] = v
			}
		}
		keyItems = []designer.Item{key}
	}
	return attrs, keyItems, nil
}

// indexEffects is what changing one item from before to after (nil: absent) writes to each index
// of the table, in the table's index order; indexes the write leaves alone are listed with 0.
func indexEffects(t designer.Table, before, after designer.Item) ([]IndexWrite, error) {
	var out []IndexWrite
	for _, kind := range []struct {
		list  []designer.Index
		local bool
	}{{t.GSIs, false}, {t.LSIs, true}} {
		for _, ix := range kind.list {
			old, oldIn, _ := indexEntry(t, ix, kind.local, before)
			entry, newIn, reason := indexEntry(t, ix, kind.local, after)
			if reason != "" {
				return nil, validationErr("One or more parameter values were invalid: the written item: %s", reason)
			}
			w := IndexWrite{Index: ix.Name}
			put := func(e designer.Item) { w.Writes++; w.Units += writeUnits(designer.IndexEntrySize(e)) }
			switch {
			case oldIn && newIn:
				if !sameIndexKey(t, ix, kind.local, old, entry) {
					put(old) // delete the old entry
					put(entry)
				} else if !sameItem(old, entry) {
					put(entry)
				}
			case oldIn:
				put(old)
			case newIn:
				put(entry)
			}
			out = append(out, w)
		}
	}
	return out, nil
}

// indexEntry is the item's entry in the index, if it has one, or the reason DynamoDB would refuse
// the item for the index.
func indexEntry(t designer.Table, ix designer.Index, local bool, it designer.Item) (designer.Item, bool, string) {
	if it == nil {
		return nil, false, ""
	}
	one := t
	one.Items = []designer.SampleItem{{Item: it}}
	v := IndexItems(one, ix, local)
	if len(v.Rows) == 1 {
		return v.Rows[0].Item, true, ""
	}
	for _, ex := range v.Excluded {
		if strings.Contains(ex.Reason, "DynamoDB would reject") {
			return nil, false, ex.Reason
		}
	}
	// DynamoDB refuses an index key attribute of the wrong type or empty even when the item
	// lacks another of the index's key attributes.
	keys := ix.SortKey
	if !local {
		keys = slices.Concat(ix.PartitionKey, ix.SortKey)
	}
	for _, k := range keys {
		k = KeyAttr(t, k)
		v, ok := it[k.Name]
		switch {
		case !ok:
		case k.Type != "" && v.Type != k.Type:
			return nil, false, "its " + k.Name + " is " + withArticle(designer.CellTypeName(v.Type)) + " but " + ix.Name +
				" needs " + withArticle(designer.CellTypeName(k.Type)) + "; DynamoDB would reject this item"
		case v.Type == designer.S && v.S == "" || v.Type == designer.B && len(v.B) == 0:
			return nil, false, "its " + k.Name + " is empty but is a key of " + ix.Name + "; DynamoDB would reject this item"
		}
	}
	return nil, false, ""
}

// sameIndexKey reports whether two entries of an index have the same index key and table key.
func sameIndexKey(t designer.Table, ix designer.Index, local bool, a, b designer.Item) bool {
	names := []string{t.PartitionKey.Name}
	if t.SortKey != nil {
		names = append(names, t.SortKey.Name)
	}
	if !local {
		for _, k := range ix.PartitionKey {
			names = append(names, k.Name)
		}
	}
	for _, k := range ix.SortKey {
		names = append(names, k.Name)
	}
	return !slices.ContainsFunc(names, func(n string) bool {
		x, okA := a[n]
		y, okB := b[n]
		return okA != okB || okA && !x.Equal(y)
	})
}

// sameItem reports whether two items hold the same attributes with equal values.
func sameItem(a, b designer.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !x.Equal(y) {
			return false
		}
	}
	return true
}
