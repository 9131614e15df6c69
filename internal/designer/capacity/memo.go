package capacity

import (
	"reflect"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Memo is what one Compute worked out per pattern and per table, for the Compute of the next
// revision to take over what an edit did not touch: a pattern's operation figures depend on the
// pattern and the tables its operations name only, a table's storage on the table and the counts
// of the entities it holds. A Memo is never changed once made.
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
}

// ComputeFrom is Compute, taking over from prev (the Memo of an earlier revision of the same
// design, or nil) the figures of the patterns and tables d has not changed. It returns the Memo
// of d. prev is not changed.
func ComputeFrom(d designer.Design, c *dynamo.Cache, prev *Memo) (Report, *Memo) {
	if prev == nil {
		prev = &Memo{}
	}
	next := &Memo{patterns: make(map[string]patternMemo, len(d.Patterns)), tables: make(map[string]tableMemo, len(d.Tables))}
	r := Report{Prices: PricesOf(d.Capacity), Settings: SettingsOf(d.Capacity)}
	acc := newAccounts(d)
	for _, p := range d.Patterns {
		pl := patternLoad(p)
		pl.Operations = next.operations(d, c, prev, p)
		for _, ol := range pl.Operations {
			acc.charge(d, &pl, ol)
		}
		r.Patterns = append(r.Patterns, pl)
	}
	storage := func(t designer.Table) tableStorages { return next.storage(d, c, prev, t) }
	r.Resources = acc.resources(d, storage, r.Prices, r.Settings)
	r.Total = total(d, r.Resources)
	fillHotKeys(d, &r)
	return r, next
}

// operations are p's operation figures: prev's when p and the tables its operations name are as
// they were, else worked out.
func (m *Memo) operations(d designer.Design, c *dynamo.Cache, prev *Memo, p designer.Pattern) []OperationLoad {
	tables := make([]designer.Table, len(p.Mapping.Operations))
	for i, op := range p.Mapping.Operations {
		tables[i], _, _ = d.TableByName(op.Table)
	}
	pm, ok := prev.patterns[p.ID]
	if !ok || len(pm.tables) != len(tables) || !reflect.DeepEqual(pm.p, p) || !sameTables(pm.tables, tables) {
		pm = patternMemo{p: p, tables: tables}
		for i, op := range p.Mapping.Operations {
			pm.ops = append(pm.ops, operationLoad(d, c, p, i, op))
		}
	}
	if _, taken := m.patterns[p.ID]; !taken {
		m.patterns[p.ID] = pm
	}
	return pm.ops
}

// storage is t's storage: prev's when t and its entities' counts are as they were.
func (m *Memo) storage(d designer.Design, c *dynamo.Cache, prev *Memo, t designer.Table) tableStorages {
	counts := make([]*int64, len(t.EntityTypes))
	for i, et := range t.EntityTypes {
		if e, _, ok := d.EntityByName(et.Entity); ok {
			counts[i] = e.Count
		}
	}
	tm, ok := prev.tables[t.Name]
	if !ok || !sameTable(tm.t, t) || !reflect.DeepEqual(tm.counts, counts) {
		tm = tableMemo{t: t, counts: counts, st: tableStorage(d, c, t)}
	}
	if _, taken := m.tables[t.Name]; !taken {
		m.tables[t.Name] = tm
	}
	return tm.st
}

func sameTables(a, b []designer.Table) bool {
	for i := range a {
		if !sameTable(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameTable reports whether a and b hold the same array of items (the same items, not only
// equal ones: a design never changes an item in place) and are equal in every other field. Lists
// an edit left alone keep their array, which DeepEqual compares before their contents.
func sameTable(a, b designer.Table) bool {
	if len(a.Items) != len(b.Items) || len(a.Items) > 0 && &a.Items[0] != &b.Items[0] {
		return false
	}
	a.Items, b.Items = nil, nil
	return reflect.DeepEqual(a, b)
}
