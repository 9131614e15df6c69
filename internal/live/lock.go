package live

import (
	"encoding/json"
	"sort"
	"time"
)

// Step locks: the facilitator locks a step, or a section of one (a table, a pattern, a card), so
// that only their tab edits it while the room reads (docs/room.md). A lock is room state, like the lead and the timer: it lives in the room, in
// memory, and is never part of the design or its history. Its holder releases it, anyone with
// the edit link may take it over, and it goes on its own once its holder's tab has been out of
// the room for the hub's lock grace, so a closed tab never leaves a step locked. The server
// decides what a lock covers and refuses the edits; the room only keeps who holds what.

// Lock is one locked step, or one section of a step (Section: the design path of the card it
// locks, "tables/Orders"). Label names what is locked ("Tables & indexes", "Table Orders"). Tab
// is the holder's tab, which the server compares an edit's tab with; like a presence's, it is
// never sent to the others.
type Lock struct {
	Step    string `json:"step"`
	Section string `json:"section,omitempty"`
	Label   string `json:"label"`
	By      string `json:"by"`
	Tab     string `json:"-"`
}

// lockKey is what a room keeps a lock under: its step, and its section within the step.
type lockKey struct{ step, section string }

func (l Lock) key() lockKey { return lockKey{l.Step, l.Section} }

// LockRefused is a lock action the room cannot take; its text names the field.
type LockRefused string

func (e LockRefused) Error() string { return string(e) }

// errLockTabGone refuses a lock action from a tab the room does not know.
const errLockTabGone = LockRefused("tab: this tab is not connected to the design; reload the page")

// LockGrace is how long a lock outlives its holder's tab leaving the room: long enough for a page
// moving to another step, or a stream reconnecting, to come back.
const LockGrace = time.Minute

// SetLockGrace changes how long a lock outlives its holder leaving the room (LockGrace by
// default); call it before the hub serves.
func (h *Hub) SetLockGrace(d time.Duration) { h.lockGrace = d }

// TakeLock locks want.Step, or its section want.Section (named want.Label), for tab. What
// another tab holds is refused unless over is set: the facilitator takes it over, knowingly.
// A section inside a step another tab holds is refused even so (the step's lock is what to
// take over); a step's lock takes in the sections its taker held in it, and, taken over, the
// others' too.
func (h *Hub) TakeLock(id, tab string, want Lock, over bool) error {
	var err error
	if !h.withTab(id, tab, func(r *room, p *Presence) {
		step, held := r.locks[lockKey{want.Step, ""}]
		l, ok := r.locks[want.key()]
		switch {
		case want.Section != "" && held && step.Tab != tab:
			err = LockRefused("section: " + step.Label + " is locked by " + r.holderName(step) + ", " + want.Label + " with it; ask " + r.holderName(step) + " to unlock it")
			return
		case want.Section != "" && held:
			err = LockRefused("section: you hold the lock on " + step.Label + ", which covers " + want.Label + " already")
			return
		case ok && l.Tab != tab && !over:
			err = LockRefused(lockField(want) + ": " + l.Label + " is locked by " + r.holderName(l) + "; take it over to lock it yourself")
			return
		}
		if want.Section == "" {
			for k, s := range r.locks {
				switch {
				case k.step != want.Step || k.section == "":
				case s.Tab != tab && !over:
					err = LockRefused("step: " + s.Label + " is locked by " + r.holderName(s) + "; take the step over to lock it whole")
					return
				}
			}
			for k := range r.locks {
				if k.step == want.Step && k.section != "" {
					delete(r.locks, k)
				}
			}
			want.Label = want.Step
			if h.stepLabel != nil {
				want.Label = h.stepLabel(want.Step)
			}
		}
		if r.locks == nil {
			r.locks = map[lockKey]Lock{}
		}
		want.By, want.Tab = p.Name, tab
		r.locks[want.key()] = want
		r.locksChanged()
	}) {
		return errLockTabGone
	}
	return err
}

// lockField is the form field a refusal of a lock action on l names.
func lockField(l Lock) string {
	if l.Section != "" {
		return "section"
	}
	return "step"
}

// ReleaseLock unlocks step, or its section when section is not empty, which only its holder may
// do; what is not locked stays so.
func (h *Hub) ReleaseLock(id, tab, step, section string) error {
	var err error
	if !h.withTab(id, tab, func(r *room, p *Presence) {
		l, ok := r.locks[lockKey{step, section}]
		switch {
		case !ok:
		case l.Tab != tab:
			err = LockRefused(lockField(l) + ": " + l.Label + " is locked by " + r.holderName(l) + ", not by you; take it over first")
		default:
			delete(r.locks, l.key())
			r.locksChanged()
		}
	}) {
		return errLockTabGone
	}
	return err
}

// MoveSections changes the section locks of design id as the server finds them after an edit:
// move gives each section lock's new section and label, or ok false when its section has gone
// (the holder deleted it), which releases it. A rename keeps its section locked so.
func (h *Hub) MoveSections(id string, move func(Lock) (Lock, bool)) {
	r := h.find(id)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for k, l := range r.locks {
		if k.section == "" {
			continue
		}
		to, ok := move(l)
		switch {
		case !ok:
			delete(r.locks, k)
		case to.Section == l.Section && to.Label == l.Label:
			continue
		default:
			delete(r.locks, k)
			l.Section, l.Label = to.Section, to.Label
			r.locks[l.key()] = l
		}
		changed = true
	}
	if changed {
		r.locksChanged()
	}
}

// Locks is the locked steps of design id, by step.
func (h *Hub) Locks(id string) []Lock {
	r := h.find(id)
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lockList()
}

// lockList is the room's locks by step and section, each named by its holder's name as the room knows it
// now. Callers hold r.mu.
func (r *room) lockList() []Lock {
	out := make([]Lock, 0, len(r.locks))
	for _, l := range r.locks {
		l.By = r.holderName(l)
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Step < out[j].Step || out[i].Step == out[j].Step && out[i].Section < out[j].Section
	})
	return out
}

// holderName is the name of the holder of l: as the room knows their tab now (a rename), or as
// when they took it. Callers hold r.mu.
func (r *room) holderName(l Lock) string {
	if p := r.tabs[l.Tab]; p != nil {
		return p.Name
	}
	return l.By
}

// locksEvent is the room's locks as the pages read them. Callers hold r.mu.
func (r *room) locksEvent() *event {
	data, _ := json.Marshal(r.lockList()) // cannot fail: strings
	return &event{name: "locks", data: data}
}

// locksChanged tells the room's pages what is locked now. Callers hold r.mu.
func (r *room) locksChanged() {
	r.send(r.locksEvent(), func(sub *subscriber) bool { return sub.presence != nil })
}

// holderLeft releases, after the hub's lock grace, the locks of tab if it has not come back by
// then: a tab that comes back and leaves again has the whole grace from its last leaving.
// Callers hold r.mu.
func (h *Hub) holderLeft(r *room, tab string) {
	holds := false
	for _, l := range r.locks {
		holds = holds || l.Tab == tab
	}
	if !holds {
		return
	}
	if r.left == nil {
		r.left = map[string]time.Time{}
	}
	at := time.Now()
	r.left[tab] = at
	time.AfterFunc(h.lockGrace, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if since, away := r.left[tab]; !away || !since.Equal(at) {
			return
		}
		delete(r.left, tab)
		changed := false
		for k, l := range r.locks {
			if l.Tab == tab {
				delete(r.locks, k)
				changed = true
			}
		}
		if changed {
			r.locksChanged()
		}
	})
}

// currentLocks is the event that tells a page opening its stream what design id has locked.
func (h *Hub) currentLocks(id string) *event {
	r := h.find(id)
	if r == nil {
		return &event{name: "locks", data: []byte("[]")}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.locksEvent()
}
