// Package derive owns what is computed from one revision of a design and shown again and again:
// its findings, questions and checklists, each index's view of the sample items, and the Cache the
// evaluator reads the items through (issue 14). A Derived is made for one revision, works each
// part out once, when first asked, and is shared by every page, answer and API call of that
// revision. Made from the Derived of an earlier revision of the same design, it repeats only the
// work whose inputs changed: the index views and item measurements of the tables an edit left
// alone, and the findings of the tables and patterns it did not touch, are taken over
// (dynamo.Cache.For, rules.ValidateFrom). Nothing here is stored; a Derived lives in memory beside
// the design it was made from (Set).
package derive

import (
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/rules"
)

// Derived is what is computed from one design. Its methods may be called from any number of
// goroutines at once; what they return is shared and must not be modified.
type Derived struct {
	design designer.Design
	cache  *dynamo.Cache

	// prev is the Derived this one was made from, until the findings have taken its Memo.
	prev *Derived

	findingsOnce sync.Once
	findings     []rules.Finding
	memo         atomic.Pointer[rules.Memo] // set once the findings are known

	checklistsOnce sync.Once
	checklists     rules.Checklists
	checked        atomic.Bool // set once the checklists are known

	mu        sync.Mutex
	questions map[int][]rules.Question // by limit
	verdicts  map[string]string        // by pattern id
	// prevVerdicts are the verdicts prev had worked out when x was made, and prevDesign its
	// design: a pattern whose reads an edit did not touch keeps its verdict.
	prevVerdicts map[string]string
	prevDesign   designer.Design

	diagrams diagrams
}

// New returns the Derived of d, taking over what prev (the Derived of a revision d was made from,
// or nil) has worked out and d has not changed. prev is not changed.
func New(d designer.Design, prev *Derived) *Derived {
	x := &Derived{design: d, prev: prev}
	var cache *dynamo.Cache
	if prev != nil {
		cache = prev.cache
		prev.mu.Lock()
		if len(prev.verdicts) > 0 {
			x.prevVerdicts, x.prevDesign = maps.Clone(prev.verdicts), prev.design
		}
		prev.mu.Unlock()
	}
	x.cache = cache.For(d)
	return x
}

// Design is the design x was made from.
func (x *Derived) Design() designer.Design { return x.design }

// Cache is what the evaluator remembers of the design's items: reads of this revision go through it.
func (x *Derived) Cache() *dynamo.Cache { return x.cache }

// Findings is rules.Validate of the design.
func (x *Derived) Findings() []rules.Finding {
	x.findingsOnce.Do(func() {
		var prev *rules.Memo
		if x.prev != nil {
			prev = x.prev.memo.Load()
		}
		var memo *rules.Memo
		x.findings, memo = rules.ValidateFrom(x.design, x.cache, prev)
		x.memo.Store(memo)
		x.prev = nil
	})
	return x.findings
}

// Checklists is rules.BuildChecklists of the design and its findings.
func (x *Derived) Checklists() rules.Checklists {
	x.checklistsOnce.Do(func() {
		x.checklists = rules.BuildChecklists(x.design, x.Findings())
		x.checked.Store(true)
	})
	return x.checklists
}

// Report is rules.BuildReport of the design.
func (x *Derived) Report() rules.Report {
	return rules.Report{Findings: x.Findings(), Checklists: x.Checklists()}
}

// Questions is rules.Questions of the design and its findings, at most limit of them.
func (x *Derived) Questions(limit int) []rules.Question {
	findings := x.Findings()
	x.mu.Lock()
	defer x.mu.Unlock()
	if q, ok := x.questions[limit]; ok {
		return q
	}
	q := rules.Questions(x.design, findings, limit)
	if x.questions == nil {
		x.questions = map[int][]rules.Question{}
	}
	x.questions[limit] = q
	return q
}

// IndexView is dynamo.IndexItems of index ix of table t, worked out once per revision, or once
// for as long as t's items and the index are unchanged.
func (x *Derived) IndexView(t designer.Table, ix designer.Index, lsi bool) dynamo.IndexView {
	return x.cache.IndexItems(t, ix, lsi)
}

// TableOrder is designer.TableOrder of table t of the design, worked out once per revision: a
// grid that shows a page of a table's items at a time reads it for every page. It is patched from
// the previous revision's order of the table (dynamo.Cache.KeyOrder).
func (x *Derived) TableOrder(t designer.Table) []designer.Row {
	return x.cache.KeyOrder(t).Rows
}

// PatternVerdict sums up the expectations pattern p of the design records, its operations run
// against the sample items: "fail" when one returns other items than the team expects (or cannot
// run), "pass" when every one is met (at least one), "" (unproved) when none is recorded. Worked
// out once per revision, as the Mapping step shows it on every pattern's card.
func (x *Derived) PatternVerdict(p designer.Pattern) string {
	x.mu.Lock()
	v, ok := x.verdicts[p.ID]
	x.mu.Unlock()
	if ok {
		return v
	}
	x.mu.Lock()
	old, had := x.prevVerdicts[p.ID]
	x.mu.Unlock()
	if !had || !verdictKept(x.prevDesign, x.design, p, x.cache) {
		v = patternVerdict(x.design, p, x.cache)
	} else {
		v = old
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.verdicts == nil {
		x.verdicts = map[string]string{}
	}
	x.verdicts[p.ID] = v
	return v
}

// verdictKept reports whether pattern p of d reads what the pattern of its id read in before, so
// that its verdict is the same: the pattern is equal, and each operation with an expectation
// reads a table that is the same, or the same with a few items edited in place (ids kept, any key
// moved to one no other item has) none of which is or was in the partition the operation reads.
func verdictKept(before, d designer.Design, p designer.Pattern, c *dynamo.Cache) bool {
	i := slices.IndexFunc(before.Patterns, func(q designer.Pattern) bool { return q.ID == p.ID })
	if i < 0 || !reflect.DeepEqual(before.Patterns[i], p) {
		return false
	}
	for _, op := range p.Mapping.Operations {
		if op.Expected == nil {
			continue
		}
		t, _, ok := d.TableByName(op.Table)
		old, _, wasOK := before.TableByName(op.Table)
		if ok != wasOK || designer.IsWriteOp(op.Op) {
			return false
		}
		if !ok {
			continue
		}
		oldItems, items := old.Items, t.Items
		old.Items, t.Items = nil, nil
		if !reflect.DeepEqual(old, t) {
			return false
		}
		old.Items, t.Items = oldItems, items
		e, ok := designer.ItemsEdit(old.Items, t.Items, 64)
		if !ok || !slices.Equal(e.Removed, e.Added) {
			return false // only edits in place
		}
		if len(e.Added) == 0 {
			continue
		}
		var rekeyed []int
		for _, j := range e.Added {
			if old.Items[j].ID != t.Items[j].ID {
				return false
			}
			for _, name := range designer.TableKeyNames(t) {
				x, xok := old.Items[j].Item[name]
				y, yok := t.Items[j].Item[name]
				if xok != yok || !x.Identical(y) {
					rekeyed = append(rekeyed, j)
					break
				}
			}
		}
		if len(rekeyed) > 0 && !designer.KeysMovedAlone(c.KeyOrder(old), c.KeyOrder(t), rekeyed) {
			return false
		}
		key, some := dynamo.ReadPartitionKey(t, op)
		if !some {
			return false
		}
		for _, j := range e.Added {
			if key.Holds(old.Items[j].Item) || key.Holds(t.Items[j].Item) {
				return false
			}
		}
	}
	return true
}

// patternVerdict runs only the operations that record an expectation: an operation's own error
// shows in its result and in the findings.
func patternVerdict(design designer.Design, p designer.Pattern, runs *dynamo.Cache) string {
	verdict := ""
	for _, op := range p.Mapping.Operations {
		t, _, ok := design.TableByName(op.Table)
		if !ok || op.Expected == nil {
			continue
		}
		// The verdict is about which items come back, whatever the projection keeps of them.
		op.Projection = ""
		res := runs.RunOperation(design, op)
		if res.Error != "" {
			return "fail"
		}
		if stated, pass := dynamo.Verdict(t, op, res); stated {
			if !pass {
				return "fail"
			}
			verdict = "pass"
		}
	}
	return verdict
}

// estimate is a quick guess at the memory x holds beyond the design itself, from the number of
// things it holds: the Cache's measurements, entries and views, and the findings, counted twice
// since the Memo keeps them per table and pattern. The Set scales a measure (Measure) by it.
func (x *Derived) estimate() int64 {
	n := 512 + x.cache.Bytes()
	x.mu.Lock()
	n += 48 * int64(len(x.verdicts))
	x.mu.Unlock()
	n += x.diagrams.bytes()
	if x.memo.Load() != nil {
		for _, f := range x.findings {
			n += 2 * (64 + int64(len(f.Code)+len(f.Severity)+len(f.Message)+len(f.Path)))
		}
	}
	return n
}
