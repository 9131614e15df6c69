package derive

import (
	"container/list"
	"sync"

	"dynaloom/internal/designer"
)

// DefaultSetBytes is a Set's default budget.
const DefaultSetBytes = 256 << 20

// Set keeps the Derived of recently used revisions, bounded by the memory they are estimated to
// hold (Derived.Bytes) rather than by their number, the least recently used going first. A
// revision is named by its design's id and its number: the pair names exactly one state.
type Set struct {
	mu     sync.Mutex
	budget int64
	used   int64
	order  *list.List // of *setEntry, most recently used first
	byKey  map[setKey]*list.Element
	newest map[string]*list.Element // per design, its newest revision held
}

type setKey struct {
	id  string
	rev int64
}

type setEntry struct {
	key  setKey
	x    *Derived
	cost int64
}

// NewSet returns an empty Set holding at most budget bytes (DefaultSetBytes when zero or less).
func NewSet(budget int64) *Set {
	if budget <= 0 {
		budget = DefaultSetBytes
	}
	return &Set{budget: budget, order: list.New(), byKey: map[setKey]*list.Element{}, newest: map[string]*list.Element{}}
}

// Get returns the Derived of revision rev of design id, whose document is d. One not held yet is
// made from the newest revision of the same design the Set holds, so that an edit's revision
// repeats only the work the edit calls for.
func (s *Set) Get(id string, rev int64, d designer.Design) *Derived {
	k := setKey{id, rev}
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.byKey[k]; ok {
		s.order.MoveToFront(el)
		e := el.Value.(*setEntry)
		s.recount(e)
		s.evict()
		return e.x
	}
	var prev *Derived
	if el, ok := s.newest[id]; ok {
		e := el.Value.(*setEntry)
		// The revision an edit was made from is seldom asked for again: count what it holds now.
		s.recount(e)
		prev = e.x
	}
	x := New(d, prev)
	e := &setEntry{key: k, x: x, cost: x.Bytes()}
	el := s.order.PushFront(e)
	s.byKey[k] = el
	if old, ok := s.newest[id]; !ok || old.Value.(*setEntry).key.rev < rev {
		s.newest[id] = el
	}
	s.used += e.cost
	s.evict()
	return x
}

// Held returns the Derived of revision rev of design id when the Set holds it, without making
// one or counting it as used.
func (s *Set) Held(id string, rev int64) (*Derived, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.byKey[setKey{id, rev}]; ok {
		return el.Value.(*setEntry).x, true
	}
	return nil, false
}

// recount counts what e's Derived holds now: parts are worked out as they are asked for, after
// the Set first counted it.
func (s *Set) recount(e *setEntry) {
	cost := e.x.Bytes()
	s.used += cost - e.cost
	e.cost = cost
}

// evict drops the least recently used until the Set fits its budget, keeping the one just used.
func (s *Set) evict() {
	for s.used > s.budget && s.order.Len() > 1 {
		el := s.order.Back()
		e := s.order.Remove(el).(*setEntry)
		delete(s.byKey, e.key)
		if s.newest[e.key.id] == el {
			delete(s.newest, e.key.id)
		}
		s.used -= e.cost
	}
}

// Size is how many revisions and estimated bytes the Set holds.
func (s *Set) Size() (revisions int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.order.Len(), s.used
}
