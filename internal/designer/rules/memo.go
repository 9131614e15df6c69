package rules

import (
	"maps"
	"reflect"
	"slices"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/dynamo"
)

// Most of a validation's work is on sample items: the item rules read every item, MOD017 every
// item once per index, MAP009 and MAP011 run the patterns' operations against them, and MAP012
// gathers every attribute name they use. That work is done per table or per pattern, and a Memo
// keeps what it found, so that the next revision's validation repeats it only where its inputs
// changed (issue 14): an edit of one item cell re-runs the item rules of its table and the
// operations that read that table, nothing else.
//
// This relies on a design being an immutable value whose changes copy only what they change
// (package designer): a table whose Items slice is the same array of the same length, and whose
// other fields are equal, holds the same items; a pattern equal to its former self, whose
// operations name tables that are unchanged in that sense, runs to the same results. The findings
// of a part are appended in the order a full validation appends them, so ValidateFrom's result is
// Validate's, finding for finding.

// Memo is what one validation found per table and per pattern. It is never changed once
// ValidateFrom has returned it, so any number of later validations may read it at once.
type Memo struct {
	d        designer.Design       // the design validated
	rules    [][]Finding           // by catalogue row, what the checks that read no item found
	tables   map[string]*tableMemo // by table name: the first table of that name
	patterns []*patternMemo        // by position in d.Patterns
	capacity *capacity.Report      // the capacity report the CAP rules read
	// capacityMemo is what working out capacity left for the next validation to take over.
	capacityMemo *capacity.Memo
	capKeys      []keyFindings // what the CAP rules found on each key's load
	cap003       []Finding     // what CAP003 found in capacity.Patterns
}

// Capacity is the capacity report of the design validated, as the CAP rules read it, so that what
// shows it need not work it out again.
func (m *Memo) Capacity() capacity.Report {
	if m.capacity == nil {
		return capacity.Compute(m.d, nil)
	}
	return *m.capacity
}

// The parts of a table's findings a Memo keeps.
const (
	partItems  = iota // MOD006–MOD011, MOD014, MOD015 (modItemRules)
	partSparse        // MOD017
	tableParts
)

type tableMemo struct {
	t     designer.Table
	same  bool // t is the table the last validation saw (sameTable)
	done  [tableParts]bool
	parts [tableParts][]Finding
	attrs map[string]bool // MAP012's tableAttributeNames, nil until asked for
	// itemEnds are where each item's findings end in parts[partItems], after those of the table
	// itself (itemEnds[0]); MOD010's follow the last item's.
	itemEnds []int32
	// from is the table as the last validation saw it, when t is that table with a few items
	// edited in place (edited, their positions), every id kept and every table key too, or
	// changed to one no other item has (editedItems): a read of a partition none of them is or
	// was in returns what it returned then.
	from   designer.Table
	edited []int
	// fromMemo is the last validation's memo of from, until the item rules have taken over the
	// findings of the items not edited; fromAttrs is its attribute names, if it had them.
	fromMemo  *tableMemo
	fromAttrs map[string]bool
	// fromSparse is its MOD017 findings, if it had them.
	fromSparse []Finding
	// runFrom is the last validation's memo of the table, when t's items are its items with one
	// run added, removed or replaced (run, runs.go), until the item rules have taken over the
	// findings of the others.
	runFrom *tableMemo
	run     runEdit
	hasRun  bool // run holds, and from is the table it was made from
}

// maxEdited is how many edited items a table may have for the reads of other partitions to keep
// their results; beyond it every read of the table runs again.
const maxEdited = 64

// fromItems is the last validation's memo of the table, when it holds the item findings of the
// table t was edited from, or nil.
func (m *tableMemo) fromItems() *tableMemo {
	if m.fromMemo == nil || !m.fromMemo.done[partItems] || len(m.fromMemo.itemEnds) != len(m.t.Items)+1 {
		return nil
	}
	return m.fromMemo
}

type patternMemo struct {
	// p is where the pattern is in its design's patterns, which no change modifies in place: a
	// copy would cost each reader of an edited table hundreds of bytes on every revision.
	p *designer.Pattern
	// tables are the tables its operations name, as they were, in operation order; a zero Table
	// where the design had none of that name. They point into the design's tables, which no
	// change modifies in place: a copy of each would cost every pattern's memo hundreds of bytes
	// per operation on every revision.
	tables   []*designer.Table
	findings []Finding // MAP009, MAP011
	// partitions are what each operation reads (dynamo.ReadPartition), worked out when first
	// needed and taken over with the pattern.
	partitions []partition
}

// noTable is what a pattern's memo holds for an operation naming no table of the design.
var noTable designer.Table

type partition struct {
	key         dynamo.PartitionKey
	known, some bool // some: key holds the partition; otherwise any item may be read
}

// validation is one run of ValidateFrom: the design, the Cache its reads go through, the Memo it
// takes unchanged parts from, and the one it fills for the next run.
type validation struct {
	d      designer.Design
	cache  *dynamo.Cache
	prev   *Memo
	next   *Memo
	tables []*tableMemo   // by position in d.Tables, filled as asked
	byName map[string]int // the first table of each name, by position
	// lastName is the table name tableAt last found, at lastAt (-1 before any).
	lastName string
	lastAt   int
	ops      []mapOp // operations, nil until asked for
	// prevAt is where the first pattern with each id is in prev's design, when its patterns are
	// not d's; nil until asked for.
	prevAt map[string]int
	// itemsOnly says d differs from prev's design in sample items only (onlyItemsChanged).
	itemsOnly bool
}

func newValidation(d designer.Design, cache *dynamo.Cache, prev *Memo) *validation {
	if cache == nil {
		// The operations of one validation read the same tables' items.
		cache = dynamo.NewCache()
	}
	if prev == nil {
		prev = &Memo{}
	}
	// The next memo holds an entry per table and per pattern: made that large at once, its maps
	// are not grown and copied again and again as a design of hundreds of patterns fills them.
	return &validation{d: d, cache: cache, prev: prev,
		next: &Memo{d: d, rules: make([][]Finding, len(catalogue)),
			tables: make(map[string]*tableMemo, len(d.Tables)), patterns: make([]*patternMemo, len(d.Patterns))},
		tables: make([]*tableMemo, len(d.Tables)), lastAt: -1,
	}
}

// prevPattern is the last validation's memo of pattern pi: the one of the same place when the
// patterns are the same list, else that of the first pattern with its id.
func (v *validation) prevPattern(pi int) (*patternMemo, bool) {
	m := v.prev
	if len(m.patterns) == 0 {
		return nil, false
	}
	if sameArray(m.d.Patterns, v.d.Patterns) {
		return m.patterns[pi], m.patterns[pi] != nil
	}
	if v.prevAt == nil {
		v.prevAt = make(map[string]int, len(m.d.Patterns))
		for i, p := range m.d.Patterns {
			if _, taken := v.prevAt[p.ID]; !taken {
				v.prevAt[p.ID] = i
			}
		}
	}
	i, ok := v.prevAt[v.d.Patterns[pi].ID]
	if !ok || m.patterns[i] == nil {
		return nil, false
	}
	return m.patterns[i], true
}

// sameArray reports whether a and b are the same list: the same array, as long.
func sameArray[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// tableByName is d.TableByName, without walking the tables for each of hundreds of operations.
func (v *validation) tableByName(name string) (designer.Table, int, bool) {
	i, ok := v.tableAt(name)
	if !ok {
		return designer.Table{}, -1, false
	}
	return v.d.Tables[i], i, true
}

// tableAt is where the first table named name is in the design. Patterns come mostly in runs on
// one table: the last name asked for is answered without hashing it.
func (v *validation) tableAt(name string) (int, bool) {
	if v.byName == nil {
		v.byName = make(map[string]int, len(v.d.Tables))
		for i, t := range v.d.Tables {
			if _, taken := v.byName[t.Name]; !taken {
				v.byName[t.Name] = i
			}
		}
	}
	if v.lastAt >= 0 && v.lastName == name {
		return v.lastAt, true
	}
	i, ok := v.byName[name]
	if ok {
		v.lastName, v.lastAt = name, i
	}
	return i, ok
}

// table returns the memo of table ti, starting from the last validation's when the table has not
// changed since.
func (v *validation) table(ti int) *tableMemo {
	if m := v.tables[ti]; m != nil {
		return m
	}
	t := v.d.Tables[ti]
	m := &tableMemo{t: t}
	if old, ok := v.prev.tables[t.Name]; ok {
		if sameTable(old.t, t) {
			m.same = true
			m.done, m.parts, m.attrs, m.itemEnds = old.done, old.parts, old.attrs, old.itemEnds
		} else if edited, ok := editedItems(v.cache, old.t, t); ok {
			m.from, m.edited, m.fromMemo, m.fromAttrs = old.t, edited, old, old.attrs
			if old.done[partSparse] {
				m.fromSparse = old.parts[partSparse]
			}
		} else if run, ok := itemsRun(old.t, t); ok && old.done[partItems] && len(old.itemEnds) == len(old.t.Items)+1 {
			m.runFrom, m.run, m.hasRun, m.from, m.fromAttrs = old, run, true, old.t, old.attrs
		}
	}
	v.tables[ti] = m
	if _, taken := v.next.tables[t.Name]; !taken {
		v.next.tables[t.Name] = m
	}
	return m
}

// tablePart appends part of table ti's findings to out: those remembered, or what check appends.
func (v *validation) tablePart(ti, part int, out []Finding, check func([]Finding) []Finding) []Finding {
	m := v.table(ti)
	if m.done[part] {
		return append(out, m.parts[part]...)
	}
	from := len(out)
	out = check(out)
	m.parts[part], m.done[part] = slices.Clone(out[from:]), true
	return out
}

// sparseKept reports whether table ti's MOD017 findings are those of the table it was edited
// from: every edited item has the same index key attributes, present or absent, as before, and
// one whose table key changed is in every index.
func (v *validation) sparseKept(ti int) bool {
	m := v.table(ti)
	if m.fromSparse == nil {
		return false
	}
	var names []string
	for _, ix := range modIndexes(m.t) {
		for _, k := range slices.Concat(ix.ix.PartitionKey, ix.ix.SortKey) {
			names = append(names, k.Name)
		}
	}
	for _, j := range m.edited {
		for _, name := range names {
			_, was := m.from.Items[j].Item[name]
			if _, is := m.t.Items[j].Item[name]; was != is {
				return false
			}
		}
		// MOD017 names the items an index leaves out by their table keys: one whose key moved
		// must have every index key, so that no index leaves it out.
		if !sameTableKey(m.from.Items[j].Item, m.t.Items[j].Item, m.t) && slices.ContainsFunc(names, func(name string) bool {
			_, ok := m.t.Items[j].Item[name]
			return !ok
		}) {
			return false
		}
	}
	return true
}

// sameTableKey reports whether two items have the same values of t's keys, present or absent.
func sameTableKey(a, b designer.Item, t designer.Table) bool {
	for _, name := range designer.TableKeyNames(t) {
		x, was := a[name]
		if y, is := b[name]; was != is || !x.Identical(y) {
			return false
		}
	}
	return true
}

// attributeNames is tableAttributeNames of table ti, worked out once per state of the table, and
// taken over from the table it was edited from when every edited item kept its attribute names.
func (v *validation) attributeNames(ti int) map[string]bool {
	m := v.table(ti)
	if m.attrs == nil && m.fromAttrs != nil && !m.hasRun && sameNames(m.from, m.t, m.edited) {
		m.attrs = m.fromAttrs
	}
	if m.attrs == nil {
		m.attrs = tableAttributeNames(m.t, v.cache.AttributeNames(m.t))
	}
	return m.attrs
}

// sameNames reports whether each of the items at positions edited has the same attribute names
// in a as in b.
func sameNames(a, b designer.Table, edited []int) bool {
	for _, j := range edited {
		x, y := a.Items[j].Item, b.Items[j].Item
		if len(x) != len(y) {
			return false
		}
		for name := range y {
			if _, ok := x[name]; !ok {
				return false
			}
		}
	}
	return true
}

// sameAttributeNames reports whether every table uses the attribute names it used at the last
// validation, which is all MAP012 reads of the items.
func (v *validation) sameAttributeNames() bool {
	for ti := range v.d.Tables {
		m := v.table(ti)
		if m.same {
			continue
		}
		if m.fromAttrs == nil || !maps.Equal(v.attributeNames(ti), m.fromAttrs) {
			return false
		}
	}
	return true
}

// patternPart appends pattern pi's MAP009 and MAP011 findings to out: those remembered when
// neither the pattern nor a table its operations name has changed, or what check appends.
func (v *validation) patternPart(pi int, out []Finding, check func([]Finding) []Finding) []Finding {
	old, found := v.prevPattern(pi)
	if found && v.untouched(old, pi) {
		// Most patterns of a large design, after an edit elsewhere: the memo is taken over
		// whole, without a copy of the tables it read.
		v.next.patterns[pi] = old
		return append(out, old.findings...)
	}
	p := &v.d.Patterns[pi]
	tables := make([]*designer.Table, len(p.Mapping.Operations))
	for i := range p.Mapping.Operations {
		tables[i] = &noTable
		if ti, ok := v.tableAt(p.Mapping.Operations[i].Table); ok {
			tables[i] = &v.d.Tables[ti]
		}
	}
	m := &patternMemo{p: &v.d.Patterns[pi], tables: tables}
	if found && v.samePattern(old, m) {
		m.findings = old.findings
		out = append(out, m.findings...)
	} else {
		from := len(out)
		out = check(out)
		m.findings = slices.Clone(out[from:])
	}
	v.next.patterns[pi] = m
	return out
}

// untouched reports whether pattern pi is the pattern old was worked out for, and every table its
// operations name is the same table (tableMemo.same) as then.
func (v *validation) untouched(old *patternMemo, pi int) bool {
	if old.p != &v.d.Patterns[pi] {
		return false
	}
	ops := old.p.Mapping.Operations
	for i := range ops {
		ti, ok := v.tableAt(ops[i].Table)
		if !ok || !v.table(ti).same || !sameItems(*old.tables[i], v.d.Tables[ti]) {
			return false
		}
	}
	return true
}

// onlyItemsChanged reports whether the design differs from the one the last validation read in
// sample items only (or not at all), so that the checks that read no item find what they found.
// Lists a change left alone keep their array, which is compared before their contents.
func (v *validation) onlyItemsChanged() bool {
	a, b := v.prev.d, v.d
	if v.prev.rules == nil || len(a.Tables) != len(b.Tables) {
		return false
	}
	for i := range a.Tables {
		if !sameApartFromItems(a.Tables[i], b.Tables[i]) {
			return false
		}
	}
	a.Tables, b.Tables = nil, nil
	return sameList(a.Entities, b.Entities) && sameList(a.Relationships, b.Relationships) &&
		sameList(a.Patterns, b.Patterns) && sameList(a.Aggregates, b.Aggregates) &&
		sameList(a.Consolidations, b.Consolidations) && sameList(a.Comments, b.Comments) &&
		reflect.DeepEqual(a, b)
}

// sameList reports whether two lists are equal, and clears them for a DeepEqual of what holds
// them: the same array is equal without reading it.
func sameList[T any](a, b []T) bool {
	if len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// sameApartFromItems reports whether two tables are equal in every field but their items.
func sameApartFromItems(a, b designer.Table) bool {
	if sameItems(a, b) {
		return sameTable(a, b)
	}
	a.Items, b.Items = nil, nil
	return reflect.DeepEqual(a, b)
}

// sameTable reports whether a and b hold the same items (the same array, not only equal ones)
// and are equal in every other field.
func sameTable(a, b designer.Table) bool {
	if !sameItems(a, b) {
		return false
	}
	a.Items, b.Items = nil, nil
	return reflect.DeepEqual(a, b)
}

// sameItems reports whether a and b hold the same array of items.
func sameItems(a, b designer.Table) bool {
	return len(a.Items) == len(b.Items) && (len(a.Items) == 0 || &a.Items[0] == &b.Items[0])
}

// samePattern reports whether two patterns are equal and each of their operations reads what it
// read: a table that is the same (sameTable), or one whose edited items are all outside the
// partition the operation reads, before and after the edit.
func (v *validation) samePattern(a, b *patternMemo) bool {
	if len(a.tables) != len(b.tables) || a.p != b.p && !reflect.DeepEqual(*a.p, *b.p) {
		return false
	}
	// Partitions depend on the tables' keys, which an item edit keeps; they are taken over only
	// with the pattern, and shared with a's memo until one is worked out.
	parts, own := a.partitions, false
	if parts == nil {
		parts, own = make([]partition, len(b.tables)), true
	}
	ops := b.p.Mapping.Operations
	for i := range ops {
		op := &ops[i]
		ti, ok := v.tableAt(op.Table)
		// a's tables are those the last validation found by the same names: a table found the same
		// (tableMemo.same) is the same for every pattern, without comparing it again.
		if ok && v.table(ti).same && sameItems(*a.tables[i], *b.tables[i]) || sameTable(*a.tables[i], *b.tables[i]) {
			continue
		}
		if !ok {
			return false
		}
		m := v.table(ti)
		if m.edited == nil && !m.hasRun || !sameItems(m.from, *a.tables[i]) {
			return false
		}
		if !parts[i].known {
			if !own {
				parts, own = slices.Clone(parts), true
			}
			key, ok := dynamo.ReadPartitionKey(*b.tables[i], *op)
			parts[i] = partition{key: key, known: true, some: ok}
		}
		key := parts[i].key
		if !parts[i].some {
			return false
		}
		for _, j := range m.edited {
			if key.Holds(m.from.Items[j].Item) || key.Holds(m.t.Items[j].Item) {
				return false
			}
		}
		if m.hasRun && !m.run.outside(key, m.from, m.t) {
			return false
		}
	}
	b.partitions = parts
	return true
}

// editedItems returns the positions of the items of b that differ from a's, when b is a with at
// most maxEdited items edited in place: the same fields, as many items, each with its id. An edit
// may change an item's table key when the item shares its key with no other item, before or after
// (designer.KeyOrder.SharesKey): no other item is then hidden or revealed by it, so every read of a
// partition it is and was not in returns what it returned, and MOD010 finds what it found.
func editedItems(c *dynamo.Cache, a, b designer.Table) ([]int, bool) {
	if len(a.Items) != len(b.Items) || len(a.Items) == 0 {
		return nil, false
	}
	keys := designer.TableKeyNames(b)
	edited := []int{}
	var rekeyed []int
	for j := range b.Items {
		x, y := a.Items[j], b.Items[j]
		if reflect.ValueOf(x.Item).UnsafePointer() == reflect.ValueOf(y.Item).UnsafePointer() && x.ID == y.ID {
			continue
		}
		if x.ID != y.ID || len(edited) == maxEdited {
			return nil, false
		}
		for _, k := range keys {
			xv, xok := x.Item[k]
			yv, yok := y.Item[k]
			if xok != yok || !xv.Identical(yv) {
				rekeyed = append(rekeyed, j)
				break
			}
		}
		edited = append(edited, j)
	}
	if len(rekeyed) > 0 && !designer.KeysMovedAlone(c.KeyOrder(a), c.KeyOrder(b), rekeyed) {
		return nil, false
	}
	a.Items, b.Items = nil, nil
	if !reflect.DeepEqual(a, b) {
		return nil, false
	}
	return edited, true
}
