package derive

import (
	"dynaloom/internal/memory"
)

// Measure is what x holds on the heap beyond its design (memory.Size), counting only the parts
// worked out so far, each read under the lock that guards it: findings and their Memo (with the
// capacity report), checklists, questions, table orders, verdicts, diagrams and the Cache. It
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
	c.Add(x.orders)
	c.Add(x.verdicts)
	x.mu.Unlock()
	x.diagrams.mu.Lock()
	c.Add(x.diagrams.done)
	x.diagrams.mu.Unlock()
	x.cache.Parts(c.Add, c.Shallow)
	return c.Bytes()
}
