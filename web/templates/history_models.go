package templates

// History is the history step: every revision of the design, newest first.
type History struct {
	Workspace
	List HistoryList
}

// HistoryList is the part of the history step that an undo or a restore answers with: the
// revisions in working periods, each period in one group per person.
type HistoryList struct {
	// Total counts every revision.
	Total   int64
	Periods []WorkingPeriod
	// Gap is the pause in minutes that starts a new period, one of GapChoices; Action is the
	// history's path, which the form choosing the gap gets.
	Gap        int
	GapChoices []int
	Action     string
	// Undo takes back the participant's own last change; nil when there is none to take back or
	// the page cannot edit. UndoHint says which change it is, or why there is no button.
	Undo     *Button
	UndoHint string
	// Notice tells what was just done; Error why it was refused.
	Notice, Error string
}

// WorkingPeriod is a run of revisions with no pause longer than the gap.
type WorkingPeriod struct {
	// Span is when it began and ended, for people; FromISO and ToISO the machine form.
	Span, FromISO, ToISO string
	Changes              int
	// People names who changed the design in it.
	People string
	Groups []RevisionGroup
}

// RevisionGroup is one person's revisions within a working period.
type RevisionGroup struct {
	// ID is the group's element id, the same for as long as the period's first revision is kept.
	ID string
	// Summary is the group in one line: "Ada: 12 changes to patterns 3–7, table Orders".
	Summary string
	Span    string
	Changes int
	// Open shows the revisions at once; Rows holds the revisions drawn with the page, and
	// RowsHref is where the others are fetched from when the group is opened.
	Open     bool
	Rows     []RevisionRow
	RowsHref string
	// More counts the group's revisions older than Rows, fetched from MoreHref.
	More     int
	MoreHref string
}

// RevisionRow is one entry of the history.
type RevisionRow struct {
	Number  int64
	Author  string
	Summary string
	// At is the absolute time for people, AtISO the machine form, Ago the time relative to now.
	At, AtISO, Ago string
	ViewHref       string
	// DiffHref compares the revision with the one before it; empty for the first.
	DiffHref string
	// Restore makes the revision's content the newest; nil on a view page and for the newest.
	Restore *Button
	Newest  bool
}

// PastRevision is the banner over a step that shows a past revision of the design, read-only.
type PastRevision struct {
	Number, Of     int64
	Author         string
	Summary        string
	At, AtISO, Ago string
	// HistoryHref goes back to the history, CurrentHref to the same step as it is now, DiffHref
	// compares the revision with the newest.
	HistoryHref, CurrentHref, DiffHref string
	// Restore is nil on a view page and for the newest revision.
	Restore *Button
}

// HistoryDiff compares two revisions of the design.
type HistoryDiff struct {
	Workspace
	From, To RevisionRef
	// Latest is the newest revision, the largest one the form accepts.
	Latest int64
	// Action is the page's own path, which the form choosing the revisions gets.
	Action   string
	Sections []DiffSection
}

// RevisionRef names one revision of a comparison; Href shows it.
type RevisionRef struct {
	Number          int64
	Author, Summary string
	At, AtISO, Href string
}

// DiffSection is one part of the design (tables, access patterns…) with what changed in it.
type DiffSection struct {
	Title    string
	Subjects []DiffSubject
}

// DiffSubject is one thing that was added, removed or changed.
type DiffSubject struct {
	Title string
	// Change is "added", "removed" or "changed".
	Change string
	// Brief describes an added or removed subject.
	Brief  string
	Fields []DiffField
}

// DiffField is one changed field, old → new; an empty value means the field was absent.
type DiffField struct {
	Name, Old, New string
}
