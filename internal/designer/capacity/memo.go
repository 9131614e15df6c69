package capacity

import (
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Memo is what one Compute worked out per pattern and per table, for the Compute of the next
// revision to take over what an edit did not touch: a pattern's operation figures depend on the
// pattern and the tables its operations name only (a read on the partition it reads only), a
// table's storage on the table and the counts of the entities it holds. When the next revision
// has the same tables and as many patterns, with the same entities, relationships and settings,
// the report itself is taken over part by part: a table's resources and keys depend on the table
// and the patterns whose operations name it only, so an edit of one table's items works out that
// table and the patterns that read it, and copies the rest. A Memo is never changed once made.
type Memo struct {
	made     bool
	d        designer.Design
	report   Report
	patterns []*patternMemo // by position in d.Patterns
	tables   []*tableMemo   // by position in d.Tables
	// resAt and keyAt are where each table's resources and keys start in report.Resources and
	// report.Keys, and where the last one's end.
	resAt, keyAt []int
	patternAt    map[string]int   // by pattern id: the first pattern with that id
	tableAt      map[string]int   // by table name: the first table of that name
	readers      map[string][]int // by table name: the patterns whose operations name it, in order
	counts       map[string]entityCount
	// plain says no two tables share a name: each table's resources and keys are its own.
	plain bool
}

// patternMemo points into the design it was made from, which no change modifies in place: a copy
// of the pattern and of each table it reads would cost every reader of an edited table hundreds of
// bytes per operation on every revision.
type patternMemo struct {
	p      *designer.Pattern
	tables []*designer.Table // the table each operation named, as it was; nil where none was
	ops    []OperationLoad
	// parts are the partitions the operations read, by operation, as far as worked out (nil
	// for none). One depends on its operation and its table's keys: it is taken over with an
	// operation's figures, which a change of the table other than items edited in place does
	// not keep.
	parts []readPart
}

// readPart is the partition an operation reads (dynamo.ReadPartitionKey), once worked out.
type readPart struct {
	key         dynamo.PartitionKey
	known, some bool
}

type tableMemo struct {
	t      designer.Table
	counts []entityScale // the scale of its entity types' entities, in the SK taxonomy's order
	st     tableStorages
	ms     *measures // what its sample items measure
	// cards are the cardinalities of its attributes its keys' loads were worked out from: the
	// only way those loads read its sample items.
	cards cardsUsed
}

// tableChange is how a table differs from the one of the same name the last Compute read.
type tableChange struct {
	same bool // the same items array and equal in every other field
	// edited are the items of a table that differs only in some items edited in place (the same
	// ids and table keys, in the same places), before and after; nil otherwise.
	before, after []designer.Item
	edited        bool
	old           designer.Table // the table the last Compute read, when edited
	// run is what one run of items added, removed or replaced took out and put in, when hasRun
	// (runs.go): for the table's storage only.
	run    itemRun
	hasRun bool
}

// changes reports whether some item edited changed attribute name: set it, removed it or gave it
// another value.
func (ch *tableChange) changes(name string) bool {
	for i := range ch.after {
		x, xok := ch.before[i][name]
		y, yok := ch.after[i][name]
		if xok != yok || xok && !x.Identical(y) {
			return true
		}
	}
	return false
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
	// same says d has the shape of prev's design (the same tables, as many patterns, the same
	// entities, relationships and settings): what an edit left alone is copied from prev.report.
	same  bool
	cards *cardinalities
	// whole are the accounts of every resource, when some tables share a name; nil otherwise.
	whole accounts
	// moved are the tables some pattern's load on which changed, when same.
	moved map[string]bool
}

// ComputeFrom is Compute, taking over from prev (the Memo of an earlier revision of the same
// design, or nil) the figures of the patterns and tables d has not changed. It returns the Memo
// of d. prev is not changed.
func ComputeFrom(d designer.Design, c *dynamo.Cache, prev *Memo) (Report, *Memo) {
	if prev == nil {
		prev = &Memo{}
	}
	x := &computation{d: d, c: c, prev: prev, changes: map[string]*tableChange{}, next: &Memo{made: true, d: d}, moved: map[string]bool{}}
	x.layout()
	r := Report{Prices: PricesOf(d.Capacity), Settings: SettingsOf(d.Capacity)}
	x.tables(&r, x.patterns(&r))
	if r.Keys == nil {
		r.Keys = []KeyLoad{}
	}
	sumUp(d, &r)
	x.next.report = r
	return r, x.next
}

// sumUp works out what r's resources add up to: the totals, the reserved-capacity month and the
// table-class comparison.
func sumUp(d designer.Design, r *Report) {
	r.Total = total(d, r.Resources)
	r.Total.Reserved = reservedCost(r.Total, r.Resources, r.Prices, r.Settings)
	r.Classes = classChoices(d, r.Resources, r.Settings)
}

// layout works out whether d has prev's shape and the next Memo's indexes of d, taking over
// prev's where d has not changed what they index.
func (x *computation) layout() {
	d, prev, next := x.d, x.prev, x.next
	x.same = prev.made && prev.plain && len(prev.d.Tables) == len(d.Tables) && len(prev.d.Patterns) == len(d.Patterns) &&
		reflect.DeepEqual(prev.d.Capacity, d.Capacity) && reflect.DeepEqual(prev.d.Entities, d.Entities) &&
		reflect.DeepEqual(prev.d.Relationships, d.Relationships)
	for j := 0; x.same && j < len(d.Tables); j++ {
		x.same = prev.d.Tables[j].Name == d.Tables[j].Name
	}
	if x.same {
		next.tableAt, next.plain, next.counts = prev.tableAt, true, prev.counts
	} else {
		next.tableAt = make(map[string]int, len(d.Tables))
		for j, t := range d.Tables {
			if _, taken := next.tableAt[t.Name]; !taken {
				next.tableAt[t.Name] = j
			}
		}
		next.plain, next.counts = len(next.tableAt) == len(d.Tables), entityCounts(d)
	}
	if x.same && sameSlice(prev.d.Patterns, d.Patterns) {
		next.patternAt, next.readers = prev.patternAt, prev.readers
	} else {
		next.patternAt = make(map[string]int, len(d.Patterns))
		next.readers = map[string][]int{}
		for i, p := range d.Patterns {
			if _, taken := next.patternAt[p.ID]; !taken {
				next.patternAt[p.ID] = i
			}
			for _, op := range p.Mapping.Operations {
				if rs := next.readers[op.Table]; len(rs) == 0 || rs[len(rs)-1] != i {
					next.readers[op.Table] = append(rs, i)
				}
			}
		}
	}
	x.cards = countedCardinalities(d, next.counts)
	x.cards.edits = x.changes
}

// facts are factsOf(t, name): those of the table t was edited from when no item edited changed
// name, without reading t's items again.
func (c *cardinalities) facts(t designer.Table, name string) sampleFacts {
	ch := c.edits[t.Name]
	if ch == nil || !ch.edited || len(t.Items) == 0 || ch.changes(name) {
		return factsOf(t, name)
	}
	f := factsOf(ch.old, name)
	facts.put(keyOfItems(t.Items, name), f)
	return f
}

// patterns fills in r.Patterns and returns the tables whose resources and keys must be worked
// out again: every table, unless d has prev's shape.
func (x *computation) patterns(r *Report) map[string]bool {
	d, prev, next := x.d, x.prev, x.next
	next.patterns = make([]*patternMemo, len(d.Patterns))
	affected := map[string]bool{}
	var work []int // the patterns whose loads are worked out, in order
	changed := map[int]bool{}
	if x.same {
		copy(next.patterns, prev.patterns)
		// Shared with the report before until some pattern's load changes: reports are never
		// changed once made.
		r.Patterns = prev.report.Patterns
		if !sameSlice(prev.d.Patterns, d.Patterns) {
			for i := range d.Patterns {
				if !reflect.DeepEqual(prev.d.Patterns[i], d.Patterns[i]) {
					changed[i] = true
				}
			}
		}
		touched := make([]bool, len(d.Patterns))
		for i := range changed {
			touched[i] = true
		}
		for _, t := range d.Tables {
			if !x.change(t).same {
				affected[t.Name] = true
				for _, i := range next.readers[t.Name] {
					touched[i] = true
				}
			}
		}
		for i, yes := range touched {
			if yes {
				work = append(work, i)
			}
		}
	} else {
		r.Patterns = make([]PatternLoad, len(d.Patterns))
		for _, t := range d.Tables {
			affected[t.Name] = true
		}
		work = make([]int, len(d.Patterns))
		for i := range work {
			work[i] = i
		}
	}
	kept := x.same && sameSlice(prev.d.Patterns, d.Patterns)
	for _, i := range work {
		p := d.Patterns[i]
		pm := x.operations(i, kept && prev.patternAt[p.ID] == i)
		next.patterns[i] = pm
		if x.same {
			if !changed[i] && sameSlice(pm.ops, prev.patterns[i].ops) {
				continue
			}
			for _, ol := range prev.report.Patterns[i].Operations {
				affected[ol.Table], x.moved[ol.Table] = true, true
			}
			if sameSlice(r.Patterns, prev.report.Patterns) {
				r.Patterns = slices.Clone(r.Patterns)
			}
		}
		pl := patternLoad(p)
		pl.Operations = pm.ops
		for _, ol := range pm.ops {
			if _, ok := next.tableAt[ol.Table]; ok {
				addLoad(&pl, ol)
				affected[ol.Table], x.moved[ol.Table] = true, true
			}
		}
		r.Patterns[i] = pl
	}
	return affected
}

// tables fills in r.Resources and r.Keys: those of the tables affected worked out, the others'
// copied from prev.report.
func (x *computation) tables(r *Report, affected map[string]bool) {
	d, prev, next := x.d, x.prev, x.next
	next.tables = make([]*tableMemo, len(d.Tables))
	next.resAt, next.keyAt = make([]int, len(d.Tables)+1), make([]int, len(d.Tables)+1)
	if x.same && len(prev.report.Resources) > 0 {
		// As many as before, most of them copied.
		r.Resources = make([]Resource, 0, len(prev.report.Resources))
		r.Keys = make([]KeyLoad, 0, len(prev.report.Keys))
	}
	if !next.plain {
		x.whole = newAccounts(d)
		for i := range r.Patterns {
			pl := &r.Patterns[i]
			for _, ol := range pl.Operations {
				if t, _, ok := d.TableByName(ol.Table); ok {
					x.whole.charge(t, pl, ol)
				}
			}
		}
	}
	for j, t := range d.Tables {
		next.resAt[j], next.keyAt[j] = len(r.Resources), len(r.Keys)
		if x.same && !affected[t.Name] {
			next.tables[j] = prev.tables[j]
			r.Resources = append(r.Resources, prev.report.Resources[prev.resAt[j]:prev.resAt[j+1]]...)
			r.Keys = append(r.Keys, prev.report.Keys[prev.keyAt[j]:prev.keyAt[j+1]]...)
			continue
		}
		tm := x.storage(t)
		next.tables[j] = tm
		from, at := len(r.Resources), len(r.Keys)
		if x.same && !x.moved[t.Name] && x.change(t).edited {
			// Only items edited, and every load on the table as it was: its resources are the
			// revision before's unless its storage changed, its keys' loads unless the
			// cardinalities they were worked out from did.
			pt := prev.tables[j]
			kept := reflect.DeepEqual(tm.st, pt.st)
			if kept {
				r.Resources = append(r.Resources, prev.report.Resources[prev.resAt[j]:prev.resAt[j+1]]...)
			} else {
				r.Resources = appendResources(r.Resources, t, x.accounts(t, r), tm.st, r.Prices, r.Settings)
			}
			if x.cards.same(t, pt.cards) {
				tm.cards = pt.cards
				r.Keys = append(r.Keys, prev.report.Keys[prev.keyAt[j]:prev.keyAt[j+1]]...)
			} else {
				kept = false
				r.Keys = append(r.Keys, x.keys(t, r.Resources[from:], r)...)
				tm.cards = x.cards.usedBy(t)
			}
			if !kept {
				setHotKeys(r.Resources[from:], r.Keys[at:])
			}
			continue
		}
		r.Resources = appendResources(r.Resources, t, x.accounts(t, r), tm.st, r.Prices, r.Settings)
		if next.plain {
			r.Keys = append(r.Keys, x.keys(t, r.Resources[from:], r)...)
			tm.cards = x.cards.usedBy(t)
			setHotKeys(r.Resources[from:], r.Keys[at:])
		}
	}
	next.resAt[len(d.Tables)], next.keyAt[len(d.Tables)] = len(r.Resources), len(r.Keys)
	if !next.plain {
		fillHotKeys(d, r)
	}
}

// accounts are the accounts of t and its indexes, charged with the patterns' operations on t.
func (x *computation) accounts(t designer.Table, r *Report) accounts {
	if x.whole != nil {
		return x.whole
	}
	a := accounts{}
	a.open(t)
	for _, i := range x.next.readers[t.Name] {
		pl := &r.Patterns[i]
		for _, ol := range pl.Operations {
			if ol.Table == t.Name {
				a.charge(t, pl, ol)
			}
		}
	}
	return a
}

// cardsUsed are the cardinalities of one table's attributes, by attribute and entity, and of its
// GSIs' key attributes read from their templates, by index and attribute (cardinalities.attrs and
// .indexes without the table's name).
type cardsUsed struct {
	known   bool
	attrs   map[[2]string]Cardinality
	indexes map[[2]string]Cardinality
}

// usedBy are the cardinalities of t's attributes c has worked out: after t's keys' loads, every
// one they read.
func (c *cardinalities) usedBy(t designer.Table) cardsUsed {
	u := cardsUsed{known: true, attrs: map[[2]string]Cardinality{}, indexes: map[[2]string]Cardinality{}}
	for k, v := range c.attrs {
		if k[0] == t.Name {
			u.attrs[[2]string{k[1], k[2]}] = v
		}
	}
	for k, v := range c.indexes {
		if table, ix, ok := strings.Cut(k[0], "\x00"); ok && table == t.Name {
			u.indexes[[2]string{ix, k[1]}] = v
		}
	}
	return u
}

// same reports whether each of the cardinalities u holds of t's attributes is what c works out
// for t: the loads on t's keys, worked out from u with the same patterns' loads, would be those
// they were.
func (c *cardinalities) same(t designer.Table, u cardsUsed) bool {
	if !u.known {
		return false
	}
	ch := c.edits[t.Name]
	for k, v := range u.attrs {
		// An attribute's cardinality reads the items only for what they say of that attribute
		// (facts): one no item edited changed is what it was.
		if ch != nil && ch.edited && !ch.changes(k[0]) {
			continue
		}
		if c.attribute(t, k[0], k[1]) != v {
			return false
		}
	}
	for k, v := range u.indexes {
		ix, local, _, ok := t.IndexByName(k[0])
		if !ok || local || c.indexAttribute(t, ix, k[1], nothingSays(k[1])) != v {
			return false
		}
	}
	return true
}

// keys are the loads on the partition keys of t, whose resources are resources, from the
// patterns' operations on t.
func (x *computation) keys(t designer.Table, resources []Resource, r *Report) []KeyLoad {
	b := newKeyBook(x.d, x.cards, r.Settings)
	for _, res := range resources {
		b.place(res)
	}
	for _, i := range x.next.readers[t.Name] {
		b.charge(x.d.Patterns[i], r.Patterns[i], t.Name)
	}
	return b.loads
}

// change is how table t differs from the table of its name the last Compute read.
func (x *computation) change(t designer.Table) *tableChange {
	if ch, ok := x.changes[t.Name]; ok {
		return ch
	}
	ch := &tableChange{}
	if old, ok := x.prevTable(t.Name); ok {
		ch.same = sameTable(old.t, t)
		if !ch.same {
			ch.before, ch.after, ch.edited = editedItems(x.c, old.t, t)
			if ch.edited {
				ch.old = old.t
			} else {
				ch.run, ch.hasRun = runItems(x.c, old.t, t)
			}
		}
	}
	x.changes[t.Name] = ch
	return ch
}

// prevTable is prev's memo of the first table named name.
func (x *computation) prevTable(name string) (*tableMemo, bool) {
	j, ok := x.prev.tableAt[name]
	if !ok {
		return nil, false
	}
	return x.prev.tables[j], true
}

// operations are the operation figures of the pi-th pattern: prev's when the pattern is as it was
// and each operation reads what it read (the same table, or one whose edited items are all outside
// the partition the operation reads), or gives the same figures worked out again; else worked out.
// kept says the pattern is the very one prev's memo of its id saw.
func (x *computation) operations(pi int, kept bool) *patternMemo {
	p := x.d.Patterns[pi]
	tables := make([]*designer.Table, len(p.Mapping.Operations))
	for i, op := range p.Mapping.Operations {
		if j, ok := x.next.tableAt[op.Table]; ok {
			tables[i] = &x.d.Tables[j]
		}
	}
	var pm *patternMemo
	if at, ok := x.prev.patternAt[p.ID]; ok {
		pm = x.prev.patterns[at]
	}
	if pm != nil && len(pm.tables) == len(tables) && (kept || reflect.DeepEqual(*pm.p, p)) {
		ops, parts, own := pm.ops, pm.parts, false
		// own makes parts the new memo's own before it is written: the old memo's are shared.
		mine := func() {
			if !own {
				if parts == nil {
					parts = make([]readPart, len(tables))
				} else {
					parts = slices.Clone(parts)
				}
				own = true
			}
		}
		for i, op := range p.Mapping.Operations {
			part := func() (dynamo.PartitionKey, bool) {
				if parts == nil || !parts[i].known {
					mine()
					key, ok := dynamo.ReadPartitionKey(*tables[i], op)
					parts[i] = readPart{key: key, known: true, some: ok}
				}
				return parts[i].key, parts[i].some
			}
			if x.keeps(pm.tables[i], tables[i], op, part) {
				continue
			}
			if parts != nil && parts[i].known {
				mine()
				parts[i] = readPart{}
			}
			ol := operationLoad(x.d, x.c, p, i, op)
			if reflect.DeepEqual(ol, pm.ops[i]) {
				// An edited item in the partition read, whose edit moved no figure.
				continue
			}
			if sameSlice(ops, pm.ops) {
				ops = slices.Clone(pm.ops)
			}
			ops[i] = ol
		}
		return &patternMemo{p: &x.d.Patterns[pi], tables: tables, ops: ops, parts: parts}
	}
	pm = &patternMemo{p: &x.d.Patterns[pi], tables: tables}
	for i, op := range p.Mapping.Operations {
		pm.ops = append(pm.ops, operationLoad(x.d, x.c, p, i, op))
	}
	return pm
}

// sameSlice reports whether a and b are the same slice: the same array, as long.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// keeps reports whether op, which read old, reads the same from t: t is old, or old with items
// edited outside the partition a read of op reads, which part gives. Either table is nil where no
// table had the name.
func (x *computation) keeps(oldAt, at *designer.Table, op designer.Operation, part func() (dynamo.PartitionKey, bool)) bool {
	if oldAt == nil || at == nil {
		return oldAt == at
	}
	old, t := *oldAt, *at
	if old.Name != t.Name {
		return false
	}
	ch := x.change(t)
	if pt, ok := x.prevTable(t.Name); !ok || !sameItemsArray(old, pt.t) {
		return ch.same && sameTable(old, t)
	}
	if ch.same {
		return true
	}
	if !ch.edited && !ch.hasRun || designer.IsWriteOp(op.Op) {
		return false
	}
	key, ok := part()
	if !ok {
		return false
	}
	for i := range ch.after {
		if key.Holds(ch.before[i]) || key.Holds(ch.after[i]) {
			return false
		}
	}
	return ch.run.outside(key)
}

// entityScale is what an entity's storage is worked out from (scaledCount), and the horizon.
type entityScale struct {
	count                           int64
	counted, grows, kept            bool
	growth, retention, horizon      float64
	growthUnit, retentionUnit       string
	countFrom, growthFrom, keptFrom string
}

func scaleOf(e designer.Entity) entityScale {
	s := entityScale{countFrom: e.CountFrom, growthFrom: e.GrowthFrom, keptFrom: e.RetentionFrom, growthUnit: e.GrowthUnit, retentionUnit: e.RetentionUnit}
	if e.Count != nil {
		s.count, s.counted = *e.Count, true
	}
	if e.Growth != nil {
		s.growth, s.grows = *e.Growth, true
	}
	if e.Retention != nil {
		s.retention, s.kept = *e.Retention, true
	}
	return s
}

// storage is t's memo: its storage prev's when t, its entities' scale and the horizon are as they
// were.
func (x *computation) storage(t designer.Table) *tableMemo {
	counts := make([]entityScale, len(t.EntityTypes)+1)
	for i, et := range t.EntityTypes {
		if e, _, ok := x.d.EntityByName(et.Entity); ok {
			counts[i] = scaleOf(e)
		}
	}
	counts[len(t.EntityTypes)].horizon = horizonMonths(x.d.Capacity)
	tm, ok := x.prevTable(t.Name)
	switch ch := x.change(t); {
	case ok && ch.same && reflect.DeepEqual(tm.counts, counts):
		// The table the next computation compares with is this one.
		return &tableMemo{t: t, counts: tm.counts, st: tm.st, ms: tm.ms}
	case ok && ch.edited && tm.ms != nil:
		// A few items edited in place: only they are measured again.
		ms := tm.ms.edited(t, ch.before, ch.after)
		return &tableMemo{t: t, counts: counts, st: storageFrom(x.d, t, ms), ms: ms}
	case ok && ch.hasRun && ch.run.alone && tm.ms != nil:
		// One run of items added, removed or replaced: only those are measured.
		if ms, ok := tm.ms.run(t, ch.run); ok {
			return &tableMemo{t: t, counts: counts, st: storageFrom(x.d, t, ms), ms: ms}
		}
	}
	if ok && len(t.Items) > 0 {
		coldStorages.Add(1)
	}
	ms := measure(x.c, t)
	return &tableMemo{t: t, counts: counts, st: storageFrom(x.d, t, ms), ms: ms}
}

// coldStorages counts the tables whose sample items were all measured again although the last
// computation had measured a table of that name: for tests that an item edit is measured alone.
var coldStorages atomic.Int64

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
// at most maxEdited items edited in place: the same fields, as many items, each with its id, and
// every table key value as it was or moved to a key no other item has, before or after
// (designer.KeysMovedAlone): no other item is hidden or revealed by the edit.
func editedItems(c *dynamo.Cache, a, b designer.Table) (before, after []designer.Item, ok bool) {
	if len(a.Items) != len(b.Items) || len(a.Items) == 0 {
		return nil, nil, false
	}
	keys := designer.TableKeyNames(b)
	var rekeyed []int
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
				rekeyed = append(rekeyed, j)
				break
			}
		}
		before, after = append(before, x.Item), append(after, y.Item)
	}
	if len(rekeyed) > 0 && !designer.KeysMovedAlone(c.KeyOrder(a), c.KeyOrder(b), rekeyed) {
		return nil, nil, false
	}
	a.Items, b.Items = nil, nil
	if !reflect.DeepEqual(a, b) {
		return nil, nil, false
	}
	return before, after, true
}
