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

// stepTitle is a step link's tooltip: its label, and who holds its lock.
func stepTitle(s Step) string {
	if s.LockedBy != "" {
		return s.Label + " (locked by " + s.LockedBy + ")"
	}
	return s.Label
}
