package derive

import (
	"sync"
	"sync/atomic"

	"dynaloom/internal/designer"
	"dynaloom/internal/memory"
)

// DefaultSetBytes is the budget of a Set made with NewSet(0).
const DefaultSetBytes = 256 << 20

// Set keeps the Derived of recently used revisions, charged to a memory.Budget what they hold
// (Measure), the least recently used going first; the Budget may be shared with other caches (the
// store's records), so that one limit bounds everything kept per design. A revision is named by
// its design's id and its number: the pair names exactly one state.
type Set struct {
	budget *memory.Budget // its lock guards the maps below
	byKey  map[setKey]*setEntry
	newest map[string]*setEntry // per design, its newest revision held
	// measures counts the measures under way, for tests to wait on.
	measures sync.WaitGroup
}

type setKey struct {
	id  string
	rev int64
}

type setEntry struct {
	key  setKey
	x    *Derived
	held *memory.Held
	// perEstimate is Measure's bytes per byte of estimate when the entry (or the revision it was
	// made from) was last measured, at an estimate of measuredAt: it is charged estimate ×
	// perEstimate until its estimate grows past measuredAt by half, then measured again.
	perEstimate float64
	measuredAt  int64
	measuring   atomic.Bool
	// superseded is what the entry's design holds that the next revision's does not (unshared),
	// once the Set holds that one.
	superseded int64
}

// An entry is measured again when its estimate grows past the one it was measured at by a half,
// and first once it reaches firstMeasure bytes; until its first measure it is charged its
// estimate times perEstimateUnmeasured (what Measure found of designertest's designs, 2.6×).
const (
	firstMeasure          = 64 << 10
	perEstimateUnmeasured = 2.6
)

// measureSlot lets one measure run at a time in the process: a measure walks a design, and the
// requests that asked for it should not wait for it nor share the cores with several.
var measureSlot = make(chan struct{}, 1)

// NewSet returns an empty Set with a budget of its own of budget bytes (DefaultSetBytes when zero
// or less).
func NewSet(budget int64) *Set {
	if budget <= 0 {
		budget = DefaultSetBytes
	}
	return NewSetIn(memory.NewBudget(budget))
}

// NewSetIn returns an empty Set charging b.
func NewSetIn(b *memory.Budget) *Set {
	return &Set{budget: b, byKey: map[setKey]*setEntry{}, newest: map[string]*setEntry{}}
}

// Get returns the Derived of revision rev of design id, whose document is d. One not held yet is
// made from the newest revision of the same design the Set holds, so that an edit's revision
// repeats only the work the edit calls for.
func (s *Set) Get(id string, rev int64, d designer.Design) *Derived {
	k := setKey{id, rev}
	s.budget.Lock()
	if e, ok := s.byKey[k]; ok {
		s.budget.Use(e.held)
		s.budget.Unlock()
		s.recount(e)
		return e.x
	}
	prev := s.newest[id]
	s.budget.Unlock()
	// Made without the budget's lock, which every cache sharing it waits on.
	var from *Derived
	if prev != nil {
		from = prev.x
	}
	e := &setEntry{key: k, x: New(d, from)}
	s.budget.Lock()
	if held, ok := s.byKey[k]; ok {
		// Another request made it meanwhile: one Derived per revision.
		s.budget.Use(held.held)
		s.budget.Unlock()
		return held.x
	}
	if prev != nil {
		e.perEstimate, e.measuredAt = prev.perEstimate, prev.measuredAt
	}
	e.held = s.budget.Hold(0, func() { s.forget(e) })
	s.byKey[k] = e
	if old, ok := s.newest[id]; !ok || old.key.rev < rev {
		s.newest[id] = e
	}
	s.budget.Unlock()
	if prev != nil {
		// The revision an edit was made from is seldom asked for again: count what it holds now,
		// with what its design no longer shares with the current one.
		if prev.key.rev < rev {
			u := unshared(prev.x.design, d)
			s.budget.Lock()
			prev.superseded = u
			s.budget.Unlock()
		}
		s.recount(prev)
	}
	s.recount(e)
	return e.x
}

// forget takes e out of the Set's maps as the budget lets it go; the budget's lock is held.
func (s *Set) forget(e *setEntry) {
	if s.byKey[e.key] == e {
		delete(s.byKey, e.key)
	}
	if s.newest[e.key.id] == e {
		delete(s.newest, e.key.id)
	}
}

// Held returns the Derived of revision rev of design id when the Set holds it, without making
// one or counting it as used.
func (s *Set) Held(id string, rev int64) (*Derived, bool) {
	s.budget.Lock()
	defer s.budget.Unlock()
	if e, ok := s.byKey[setKey{id, rev}]; ok {
		return e.x, true
	}
	return nil, false
}

// recount charges e what its Derived holds now: parts are worked out as they are asked for,
// after the Set first counted it. Its last measure (Measure) is scaled by its estimate; when it
// was never measured or its estimate grew by half since, it is measured again, in the
// background, and charged that measure when it lands.
func (s *Set) recount(e *setEntry) {
	est := max(e.x.estimate(), 1)
	s.budget.Lock()
	defer s.budget.Unlock()
	per := e.perEstimate
	if e.measuredAt == 0 {
		per = perEstimateUnmeasured
	}
	measure := est >= firstMeasure && (e.measuredAt == 0 || est-e.measuredAt > e.measuredAt/2)
	if measure && e.measuring.CompareAndSwap(false, true) {
		s.measures.Add(1)
		go s.measure(e, est)
	}
	if s.byKey[e.key] == e {
		s.budget.Resize(e.held, int64(per*float64(est))+e.superseded)
	}
}

// measure measures e, whose estimate was est, and charges it that.
func (s *Set) measure(e *setEntry, est int64) {
	defer s.measures.Done()
	measureSlot <- struct{}{}
	cost := e.x.Measure()
	<-measureSlot
	s.budget.Lock()
	defer s.budget.Unlock()
	e.perEstimate, e.measuredAt = float64(cost)/float64(est), est
	e.measuring.Store(false)
	if s.byKey[e.key] == e {
		s.budget.Resize(e.held, cost+e.superseded)
	}
}

// Size is how many revisions the Set holds, and the bytes they are charged.
func (s *Set) Size() (revisions int, bytes int64) {
	s.budget.Lock()
	defer s.budget.Unlock()
	for _, e := range s.byKey {
		bytes += e.held.Bytes()
	}
	return len(s.byKey), bytes
}
