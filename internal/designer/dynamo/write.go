package dynamo

import (
	"maps"
	"math"
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// This file evaluates writes (PutItem, UpdateItem, DeleteItem, BatchWriteItem,
// TransactWriteItems) on a scratch copy of the item they write, to show the item before and after,
// the condition's outcome, the units they consume (§2.2) and the index entries they add, change or
// remove (§2.3); the design is never changed. How an Operation spells a write is docs/design-json.md
// "Writes"; how its units and index writes are counted, docs/capacity.md.

// IndexWrite is what one write costs an index (§2.3), and what it did to the index's entries.
type IndexWrite struct {
	Index   string
	Writes  int     // entries put or deleted
	Units   float64 // write capacity units: each write rounded up to 1 KB of its entry
	Changes []IndexChange
}

// What a write did to an item's entry in an index (IndexChange.Change).
const (
	EntryAdded   = "added"   // the item enters the index: 1 write
	EntryRemoved = "removed" // the item leaves it (a sparse key removed): 1 write
	EntryMoved   = "moved"   // its index key changed: the old entry deleted and the new put, 2 writes
	EntryChanged = "changed" // same index key, other projected attributes: 1 write
)

// IndexChange is one entry a write added, moved, changed or removed; Before and After are the
// entry (index keys, table keys, projected attributes), nil where there is none.
type IndexChange struct {
	Change        string
	Before, After designer.Item
}

// ItemWrite is what a write did to one key: the item before and after (nil where absent), and
// whether the condition failed, so that nothing was written.
type ItemWrite struct {
	Key, Before, After designer.Item
	ConditionFailed    bool
}

// writeUnits converts bytes written to capacity units: rounded up to 1 KB, at least one unit.
func writeUnits(bytes int) float64 {
	return math.Max(math.Ceil(float64(bytes)/1024), 1)
}

// maxItemSize is DynamoDB's item size limit, 400 KB.
const maxItemSize = 400 * 1024

// writeExprs are a write's parsed condition and update, and the values their expressions use.
type writeExprs struct {
	cond   *condExpr
	update []updateAction
}

// parseWriteExprs parses op's Condition and Update, refusing what the write cannot take.
func parseWriteExprs(t designer.Table, op designer.Operation) (writeExprs, error) {
	var w writeExprs
	ctx := NewExprContext(op.Names, op.Values)
	if op.Condition != "" {
		if op.Op == "BatchWriteItem" {
			return w, hinted(validationErr("BatchWriteItem takes no ConditionExpression"),
				"A BatchWriteItem cannot be conditional; use a TransactWriteItems, or clear the condition.")
		}
		c, _, msg := ParseCondition(op.Condition, ctx)
		if msg != "" {
			return w, hinted(validationErr("Invalid ConditionExpression: %s", msg), "DynamoDB cannot read the condition.")
		}
		w.cond = c
	}
	if op.Update != "" {
		if op.Op != "UpdateItem" && !(op.Op == "TransactWriteItems" && op.Action == designer.ActionUpdate) {
			return w, hinted(validationErr("%s takes no UpdateExpression", op.Op),
				"Only an UpdateItem (or a TransactWriteItems row whose action is update) takes an update; clear it, or choose UpdateItem.")
		}
		actions, msg := ParseUpdate(op.Update, ctx)
		if msg != "" {
			return w, hinted(validationErr("Invalid UpdateExpression: %s", msg), "DynamoDB cannot read the update.")
		}
		for _, k := range TableKeyAttrs(t) {
			for _, a := range actions {
				if a.path[0].name == k.Name {
					return w, hinted(validationErr("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key", k.Name),
						k.Name+" is part of this table's key: an update cannot change it. Put the item under its new key and delete the old one instead.")
				}
			}
		}
		if err := checkUpdateIndexTypes(t, actions); err != nil {
			return w, err
		}
		w.update = actions
	}
	return w, nil
}

// indexKeyTypes calls visit with each index key attribute of the table and its type, GSIs first
// (partition then sort attributes), then each LSI's sort key, as DynamoDB checks them; visit's
// first error ends the walk.
func indexKeyTypes(t designer.Table, visit func(name string, typ designer.Type, index string) error) error {
	for _, ix := range t.GSIs {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			if err := visit(k.Name, KeyAttr(t, k).Type, ix.Name); err != nil {
				return err
			}
		}
	}
	for _, ix := range t.LSIs {
		for _, k := range ix.SortKey {
			if err := visit(k.Name, KeyAttr(t, k).Type, ix.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexTypeMismatch is DynamoDB's refusal of an index key attribute of the wrong type.
func indexTypeMismatch(name string, want, got designer.Type, index string) error {
	return hinted(validationErr("One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", name, want, got, index),
		name+" is a key of the index "+index+", which takes "+withArticle(designer.CellTypeName(want))+"; this write gives it "+withArticle(designer.CellTypeName(got))+".")
}

// checkItemIndexTypes refuses an item to put whose index key attributes have the wrong type.
func checkItemIndexTypes(t designer.Table, it designer.Item) error {
	return indexKeyTypes(t, func(name string, typ designer.Type, index string) error {
		if v, ok := it[name]; ok && v.Type != typ {
			return indexTypeMismatch(name, typ, v.Type, index)
		}
		return nil
	})
}

// checkUpdateIndexTypes refuses an update that writes an index key attribute a value whose type
// is known from the expression alone and is the wrong one, before any item is read, as DynamoDB
// does: the first action on the attribute decides.
func checkUpdateIndexTypes(t designer.Table, actions []updateAction) error {
	return indexKeyTypes(t, func(name string, typ designer.Type, index string) error {
		for _, a := range actions {
			if len(a.path) != 1 || a.path[0].name != name {
				continue
			}
			if got := staticType(a); got != "" && got != typ {
				return indexTypeMismatch(name, typ, got, index)
			}
			break
		}
		return nil
	})
}

// staticType is the type an action writes when the expression alone says it: a value's, N for
// arithmetic, L for list_append, if_not_exists's default's; "" for a path or a REMOVE.
func staticType(a updateAction) designer.Type {
	switch a.section {
	case "REMOVE":
		return ""
	case "ADD", "DELETE":
		return a.value.left.value.Type
	}
	if a.value.arith != "" {
		return designer.N
	}
	return operandStaticType(a.value.left)
}

func operandStaticType(o operand) designer.Type {
	switch o.kind {
	case operandVal:
		return o.value.Type
	case operandFunc:
		switch o.fn.name {
		case "list_append":
			return designer.L
		case "if_not_exists":
			if len(o.fn.args) == 2 {
				return operandStaticType(o.fn.args[1])
			}
		}
	}
	return ""
}

// hinted gives e the room's words for it.
func hinted(e *EvalError, hint string) *EvalError {
	e.Hint = hint
	return e
}

// keyHint says what a table's key is and asks for all of it.
func keyHint(keys []designer.KeyAttribute) string {
	if len(keys) == 1 {
		return "This table's key is " + keys[0].Name + "; give it."
	}
	return "This table's key is " + keys[0].Name + " + " + keys[1].Name + "; give both."
}

func runWrite(d designer.Design, op designer.Operation) (OperationResult, error) {
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return OperationResult{}, notFoundErr()
	}
	if op.Index != "" {
		return OperationResult{}, validationErr("%s writes the table, not an index; leave the index empty", op.Op)
	}
	keys := TableKeyAttrs(t)
	exprs, err := parseWriteExprs(t, op)
	if err != nil {
		return OperationResult{}, err
	}
	attrs, keyItems, err := WriteParts(op, keys)
	if err != nil {
		return OperationResult{}, err
	}
	kind := op.Op // the write applied to each key: PutItem, UpdateItem, DeleteItem or ConditionCheck
	switch op.Op {
	case "PutItem", "UpdateItem", "DeleteItem":
		if len(keyItems) != 1 {
			return OperationResult{}, hinted(validationErr("%s writes one key; its key condition gives %d", op.Op, len(keyItems)), keyHint(keys))
		}
	default:
		if err := designer.CheckAction("action", op); err != nil {
			return OperationResult{}, validationErr("%s", err)
		}
		kind = RowWrite(op, attrs)
	}
	if len(attrs) > 0 && (exprs.update != nil || kind == "DeleteItem" && exprs.cond != nil) {
		unused := slices.Sorted(maps.Keys(attrs))
		for i := range unused {
			unused[i] = ":" + unused[i]
		}
		return OperationResult{}, hinted(validationErr("Value provided in ExpressionAttributeValues unused in expressions: keys: {%s}", strings.Join(unused, ", ")),
			"No expression uses "+strings.Join(unused, ", ")+"; use it in the update or the condition, or remove it from the values.")
	}
	if exprs.update == nil {
		for _, k := range keys {
			if _, ok := attrs[k.Name]; ok && kind == "UpdateItem" {
				return OperationResult{}, hinted(validationErr("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key", k.Name),
					k.Name+" is part of this table's key: an update cannot change it. Put the item under its new key and delete the old one instead.")
			}
		}
	}
	factor := 1.0
	if op.Op == "TransactWriteItems" {
		factor = 2
	}
	out := OperationResult{Items: []designer.Item{}, Write: kind, Keys: len(keyItems)}
	type planned struct {
		w        ItemWrite
		found    bool
		oldSize  int
		newSize  int
		writing  bool
		canceled bool
	}
	var plan []planned
	for _, key := range keyItems {
		if err := CheckTableKey(key, keys); err != nil {
			return OperationResult{}, hinted(err.(*EvalError), keyHint(keys))
		}
		before, found := FindStored(t, keys, key)
		pl := planned{w: ItemWrite{Key: CanonicalItem(key)}, found: found}
		if found {
			pl.w.Before = CanonicalItem(before)
			pl.oldSize = designer.ItemSize(before)
		}
		if exprs.cond != nil {
			seen := before
			if !found {
				seen = designer.Item{}
			}
			pl.w.ConditionFailed = !evalCondition(exprs.cond, seen)
		}
		var after designer.Item
		switch kind {
		case "PutItem":
			after = CloneItem(key)
			for k, v := range attrs {
				if _, isKey := key[k]; !isKey {
					after[k] = v
				}
			}
			if err := checkItemIndexTypes(t, after); err != nil {
				return OperationResult{}, err
			}
		case "UpdateItem":
			after = CloneItem(key)
			for k, v := range before {
				after[k] = v
			}
			if exprs.update != nil {
				if pl.w.ConditionFailed {
					break // DynamoDB checks the condition before it applies the update
				}
				var msg string
				if after, msg = applyUpdate(exprs.update, after, indexTypes(t)); msg != "" {
					return OperationResult{}, hinted(validationErr("%s", msg), updateHint(msg))
				}
			}
			for k, v := range attrs {
				after[k] = v
			}
		case "ConditionCheck":
			after = before // nothing is written
		}
		if after != nil && kind != "ConditionCheck" {
			if pl.newSize = designer.ItemSize(after); pl.newSize > maxItemSize {
				return OperationResult{}, hinted(validationErr("Item size has exceeded the maximum allowed size"), "The item after this write is over DynamoDB's 400 KB limit.")
			}
			pl.w.After = CanonicalItem(after)
		}
		pl.writing = kind != "ConditionCheck"
		plan = append(plan, pl)
	}
	// A failed condition writes nothing; in a transaction it cancels every write.
	failed := slices.ContainsFunc(plan, func(p planned) bool { return p.w.ConditionFailed })
	out.ConditionFailed = failed
	indexAt := map[string]int{}
	for _, pl := range plan {
		canceled := pl.w.ConditionFailed || failed && op.Op == "TransactWriteItems"
		if canceled {
			pl.w.After = pl.w.Before
			out.CapacityUnits += writeUnits(pl.oldSize) * factor
		} else {
			out.CapacityUnits += writeUnits(max(pl.oldSize, pl.newSize)) * factor
		}
		var before, after designer.Item
		if pl.found {
			before = pl.w.Before
		}
		after = pl.w.After
		if !pl.writing || canceled {
			after = before
		}
		effects, err := indexEffects(t, before, after)
		if err != nil {
			return OperationResult{}, hinted(err.(*EvalError), "DynamoDB would refuse the item this write makes for one of the table's indexes.")
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
			out.IndexWrites[i].Changes = append(out.IndexWrites[i].Changes, e.Changes...)
		}
		if pl.writing && !canceled && pl.w.After != nil {
			out.Items = append(out.Items, pl.w.After)
		}
		out.ItemWrites = append(out.ItemWrites, pl.w)
	}
	out.Count = len(out.Items)
	return out, nil
}

// updateHint puts a failed update in the room's words.
func updateHint(msg string) string {
	switch msg {
	case errWrongType:
		return "An update adds or appends to a value of another type: ADD and \"+\" take numbers (or sets, for ADD), list_append lists."
	case "The provided expression refers to an attribute that does not exist in the item":
		return "The update reads an attribute this item does not have; use if_not_exists(attribute, :default)."
	case "The document path provided in the update expression is invalid for update":
		return "The update writes inside a map or list this item does not have; SET the whole attribute instead."
	}
	return "DynamoDB would refuse this update for this item."
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

// WriteParts reads a write's attributes (the values none of its expressions use, named after
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
		if !SeveralKeys(op.Op) {
			kop.Op = "GetItem" // one key: no IN
		}
		var err error
		if keyItems, err = KeysFromCondition(kop); err != nil {
			return nil, nil, hinted(validationErr("%s needs a key condition such as \"pk = :pk AND sk = :sk\" to build its key", op.Op), keyHint(keys))
		}
	} else if op.Op != "PutItem" {
		return nil, nil, hinted(validationErr("%s needs a key condition such as \"pk = :pk AND sk = :sk\" to build its key", op.Op), keyHint(keys))
	}
	// Values the condition or the update use are theirs, not attributes.
	ctx := NewExprContext(op.Names, op.Values)
	if op.Condition != "" {
		ParseCondition(op.Condition, ctx)
	}
	if op.Update != "" {
		ParseUpdate(op.Update, ctx)
	}
	for ph := range ctx.UsedValues {
		used[ph] = true
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
			change := func(c string, before, after designer.Item) {
				w.Changes = append(w.Changes, IndexChange{Change: c, Before: before, After: after})
			}
			switch {
			case oldIn && newIn:
				if !sameIndexKey(t, ix, kind.local, old, entry) {
					put(old) // delete the old entry
					put(entry)
					change(EntryMoved, old, entry)
				} else if !sameItem(old, entry) {
					put(entry)
					change(EntryChanged, old, entry)
				}
			case oldIn:
				put(old)
				change(EntryRemoved, old, nil)
			case newIn:
				put(entry)
				change(EntryAdded, nil, entry)
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

// WritePlaceholders returns the names and values a write's condition and update use, for a
// request that carries them alone (DynamoDB refuses unused ones); ok is false when either does
// not parse.
func WritePlaceholders(op designer.Operation) (names map[string]string, values map[string]designer.Value, ok bool) {
	ctx := NewExprContext(op.Names, op.Values)
	ok = true
	if op.Condition != "" {
		if _, _, msg := ParseCondition(op.Condition, ctx); msg != "" {
			ok = false
		}
	}
	if op.Update != "" {
		if _, msg := ParseUpdate(op.Update, ctx); msg != "" {
			ok = false
		}
	}
	names, values = map[string]string{}, map[string]designer.Value{}
	for k := range ctx.UsedNames {
		names[k] = op.Names[k]
	}
	for k := range ctx.UsedValues {
		values[k] = op.Values[k]
	}
	return names, values, ok
}
