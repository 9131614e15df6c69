package templates

// LockView is a step's lock as one tab sees it: free, held by this tab (Mine) or held by someone
// else, whose edits to the step are then refused.
type LockView struct {
	Step, Label string
	// Action is where the lock is taken, released and taken over (POST), and Fetch where the bar
	// is read again when the room's locks change (app.js).
	Action, Fetch string
	// Lockable is false on a step with nothing to edit, and on a past revision.
	Lockable, CanEdit bool
	// By is the holder's name, "" while the step is free.
	By   string
	Mine bool
	// Error is why a lock action was refused.
	Error string
	// Sections are the step's sections locked on their own (a table, a card); SectionsHeld says
	// who holds one, when someone else does, for the step's lock button to ask before taking
	// the step over.
	Sections     []SectionLock
	SectionsHeld string
}

// SectionLock is one section of a step locked on its own, as one tab sees it: the design path of
// the card it locks (which carries it as data-section), what it is and who holds it.
type SectionLock struct {
	Section, Label, By string
	Mine               bool
}

// Reason is what a field of the section says when it is read-only.
func (s SectionLock) Reason() string {
	return s.Label + " is locked by " + s.By + "; ask " + s.By + " to unlock it."
}

// Blocked reports whether the tab's edits of the step are refused.
func (l LockView) Blocked() bool { return l.By != "" && !l.Mine }

// Reason is what a field of a step locked by someone else says when it is read-only.
func (l LockView) Reason() string {
	return l.Label + " is locked by " + l.By + "; ask " + l.By + " to unlock it."
}

// TakeOverQuestion is the confirmation asked before taking the lock from its holder.
func (l LockView) TakeOverQuestion() string {
	return l.By + " holds the lock on " + l.Label + ". Take it over? Their edits here will be refused until you unlock it."
}

// stepTitle is a step link's tooltip: its label, and who holds its lock or its sections' locks.
func stepTitle(s Step) string {
	switch {
	case s.LockedBy != "":
		return s.Label + " (locked by " + s.LockedBy + ")"
	case s.SectionsLocked != "":
		return s.Label + " (" + s.SectionsLocked + ")"
	}
	return s.Label
}

// sectionsQuestion is the confirmation asked before locking a step in which someone else holds a
// section.
func (l LockView) sectionsQuestion() string {
	return l.SectionsHeld + ". Lock the whole of " + l.Label + " and take it over? Their edits here will be refused until you unlock it."
}
