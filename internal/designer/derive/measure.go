package derive

import (
	"unsafe"

	"dynaloom/internal/designer"
	"dynaloom/internal/memory"
)

// Measure is what x holds on the heap beyond its design (memory.Size), counting only the parts
// worked out so far, each read under the lock that guards it: findings and their Memo (with the
// capacity report), checklists, questions, verdicts, diagrams and the Cache (with the table orders). It
// walks the design too, to know what is the design's: it costs about what decoding the design
// does, so the Set measures seldom and scales the measure in between.
func (x *Derived) Measure() int64 {
	c := memory.NewCounter(x.design)
	if memo := x.memo.Load(); memo != nil {
		c.Add(x.findings)
		c.Add(memo)
	}
	if x.checked.Load() {
		c.Add(&x.checklists)
	}
	x.mu.Lock()
	c.Add(x.questions)
	c.Add(x.verdicts)
	x.mu.Unlock()
	x.diagrams.mu.Lock()
	c.Add(x.diagrams.done)
	x.diagrams.mu.Unlock()
	x.cache.Parts(c.Add, c.Shallow)
	return c.Bytes()
}

// unshared estimates what design old holds that cur, the revision made after it, does not: the
// item arrays of the tables whose items changed (an edit copies a table's array, and shares the
// items), and the arrays of tables and patterns. A superseded revision's Derived is charged it,
// as its design is no longer the store's current record. It costs a look at each table.
func unshared(old, cur designer.Design) int64 {
	kept := make(map[*designer.SampleItem]bool, len(cur.Tables))
	for _, t := range cur.Tables {
		if len(t.Items) > 0 {
			kept[&t.Items[0]] = true
		}
	}
	var n int64
	for _, t := range old.Tables {
		if len(t.Items) > 0 && !kept[&t.Items[0]] {
			n += int64(cap(t.Items)) * int64(unsafe.Sizeof(designer.SampleItem{}))
		}
	}
	if len(old.Tables) > 0 && (len(cur.Tables) == 0 || &old.Tables[0] != &cur.Tables[0]) {
		n += int64(cap(old.Tables)) * int64(unsafe.Sizeof(designer.Table{}))
	}
	if len(old.Patterns) > 0 && (len(cur.Patterns) == 0 || &old.Patterns[0] != &cur.Patterns[0]) {
		n += int64(cap(old.Patterns)) * int64(unsafe.Sizeof(designer.Pattern{}))
	}
	return n
}
