package capacity

import (
	"reflect"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Memo is what one Compute worked out per pattern and per table, for the Compute of the next
// revision to take over what an edit did not touch: a pattern's operation figures depend on the
// pattern and the tables its operations name only (a read on the partition it reads only), a
// table's storage on the table and the counts of the entities it holds. A Memo is never changed
// once made.
type Memo struct {
	patterns map[string]patternMemo // by pattern id: the first pattern with that id
	tables   map[string]tableMemo   // by table name: the first table of that name
}

type patternMemo struct {
	p      designer.Pattern
	tables []designer.Table // the table each operation named, as it was
	ops    []OperationLoad
}

type tableMemo struct {
	t      designer.Table
	counts []*int64 // the counts of its entity types' entities, in the SK taxonomy's order
	st     tableStorages
	ms     *measures // what its sample items measure
}

// tableChange is how a table differs from the one of the same name the last Compute read.
type tableChange struct {
	same bool // the same items array and equal in every other field
	// edited are the items of a table that differs only in some items edited in place (the same
	// ids and table keys, in the same places), before and after; nil otherwise.
	before, after []designer.Item
	edited        bool
}

// maxEdited bounds the items an edit may have changed for reads of other partitions to keep
// their figures.
const maxEdited = 8

// computation is one run of ComputeFrom.
type computation struct {
	d       designer.Design
	c       *dynamo.Cache
	prev    *Memo
	next    *Memo
	changes map[string]*tableChange
}

// ComputeFrom is Compute, taking over from prev (the Memo of an earlier revision of the same
// design, or nil) the figures of the patterns and tables d has not changed. It returns the Memo
// of d. prev is not changed.
func ComputeFrom(d designer.Design, c *dynamo.Cache, prev *Memo) (Report, *Memo) {
	if prev == nil {
		prev = &Memo{}
	}
	x := &computation{d: d, c: c, prev: prev, changes: map[string]*tableChange{},
		next: &Memo{patterns: make(map[string]patternMemo, len(d.Patterns)), tables: make(map[string]tableMemo, len(d.Tables))}}
	r := Report{Prices: PricesOf(d.Capacity), Settings: SettingsOf(d.Capacity)}
	acc := newAccounts(d)
	for _, p := range d.Patterns {
		pl := patternLoad(p)
		pl.Operations = x.operations(p)
		for _, ol := range pl.Operations {
			acc.charge(d, &pl, ol)
		}
		r.Patterns = append(r.Patterns, pl)
	}
	r.Resources = acc.resources(d, x.storage, r.Prices, r.Settings)
	r.Total = total(d, r.Resources)
	fillHotKeys(d, &r)
	return r, x.next
}

// change is how table t differs from the table of its name the last Compute read.
func (x *computation) change(t designer.Table) *tableChange {
	if ch, ok := x.changes[t.Name]; ok {
		return ch
	}
	ch := &tableChange{}
	if old, ok := x.prev.tables[t.Name]; ok {
		ch.same = sameTable(old.t, t)
		if !ch.same {
			ch.before, ch.after, ch.edited = editedItems(old.t, t)
		}
	}
	x.changes[t.Name] = ch
	return ch
}

// operations are p's operation figures: prev's when p is as it was and each operation reads
// what it read (the same table, or one whose edited items are all outside the partition the
// operation reads), else worked out.
func (x *computation) operations(p designer.Pattern) []OperationLoad {
	tables := make([]designer.Table, len(p.Mapping.Operations))
	for i, op := range p.Mapping.Operations {
		tables[i], _, _ = x.d.TableByName(op.Table)
	}
	pm, ok := x.prev.patterns[p.ID]
	if ok && len(pm.tables) == len(tables) && reflect.DeepEqual(pm.p, p) {
		ops := pm.ops
		for i, op := range p.Mapping.Operations {
			if x.keeps(pm.tables[i], tables[i], op) {
				continue
			}
			if len(ops) > 0 && &ops[0] == &pm.ops[0] {
				ops = append([]OperationLoad(nil), pm.ops...)
			}
			ops[i] = operationLoad(x.d, x.c, p, i, op)
		}
		pm = patternMemo{p: p, tables: tables, ops: ops}
	} else {
		pm = patternMemo{p: p, tables: tables}
		for i, op := range p.Mapping.Operations {
			pm.ops = append(pm.ops, operationLoad(x.d, x.c, p, i, op))
		}
	}
	if _, taken := x.next.patterns[p.ID]; !taken {
		x.next.patterns[p.ID] = pm
	}
	return pm.ops
}

// keeps reports whether op, which read old, reads the same from t: t is old, or old with items
// edited outside the partition a read of op reads.
func (x *computation) keeps(old, t designer.Table, op designer.Operation) bool {
	if old.Name != t.Name {
		return false
	}
	ch := x.change(t)
	if !sameItemsArray(old, x.prevTable(t.Name)) {
		return ch.same && sameTable(old, t)
	}
	if ch.same {
		return true
	}
	if !ch.edited || designer.IsWriteOp(op.Op) {
		return false
	}
	key, ok := dynamo.ReadPartition(t, op)
	if !ok {
		return false
	}
	for i := range ch.after {
		if dynamo.InPartition(ch.before[i], key) || dynamo.InPartition(ch.after[i], key) {
			return false
		}
	}
	return true
}

func (x *computation) prevTable(name string) designer.Table {
	return x.prev.tables[name].t
}

// storage is t's storage: prev's when t and its entities' counts are as they were.
func (x *computation) storage(t designer.Table) tableStorages {
	counts := make([]*int64, len(t.EntityTypes))
	for i, et := range t.EntityTypes {
		if e, _, ok := x.d.EntityByName(et.Entity); ok {
			counts[i] = e.Count
		}
	}
	tm, ok := x.prev.tables[t.Name]
	switch ch := x.change(t); {
	case ok && ch.same && reflect.DeepEqual(tm.counts, counts):
		// The table the next computation compares with is this one.
		tm.t = t
	case ok && ch.edited && tm.ms != nil:
		// A few items edited in place: only they are measured again.
		ms := tm.ms.edited(t, ch.before, ch.after)
		tm = tableMemo{t: t, counts: counts, st: storageFrom(x.d, t, ms), ms: ms}
	default:
		ms := measure(x.c, t)
		tm = tableMemo{t: t, counts: counts, st: storageFrom(x.d, t, ms), ms: ms}
	}
	if _, taken := x.next.tables[t.Name]; !taken {
		x.next.tables[t.Name] = tm
	}
	return tm.st
}

// sameTable reports whether a and b hold the same array of items (the same items, not only
// equal ones: a design never changes an item in place) and are equal in every other field. Lists
// an edit left alone keep their array, which DeepEqual compares before their contents.
func sameTable(a, b designer.Table) bool {
	if !sameItemsArray(a, b) {
		return false
	}
	a.Items, b.Items = nil, nil
	return reflect.DeepEqual(a, b)
}

func sameItemsArray(a, b designer.Table) bool {
	return len(a.Items) == len(b.Items) && (len(a.Items) == 0 || &a.Items[0] == &b.Items[0])
}

// editedItems returns the items of b that differ from a's, before and after, when b is a with
// at most maxEdited items edited in place: the same fields, as many items, each with its id and
// every table key value as it was.
func editedItems(a, b designer.Table) (before, after []designer.Item, ok bool) {
	if len(a.Items) != len(b.Items) || len(a.Items) == 0 {
		return nil, nil, false
	}
	keys := designer.TableKeyNames(b)
	for j := range b.Items {
		x, y := a.Items[j], b.Items[j]
		if reflect.ValueOf(x.Item).UnsafePointer() == reflect.ValueOf(y.Item).UnsafePointer() && x.ID == y.ID {
			continue
		}
		if x.ID != y.ID || len(after) == maxEdited {
			return nil, nil, false
		}
		for _, k := range keys {
			xv, xok := x.Item[k]
			yv, yok := y.Item[k]
			if xok != yok || !xv.Identical(yv) {
				return nil, nil, false
			}
		}
		before, after = append(before, x.Item), append(after, y.Item)
	}
	a.Items, b.Items = nil, nil
	if !reflect.DeepEqual(a, b) {
		return nil, nil, false
	}
	return before, after, true
}
