package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"dynaloom/internal/designer"
)

// UndoError is a refused undo: there was nothing to take back, a later change stands in the way,
// or the design kept changing while the undo was worked out. Nothing was stored.
type UndoError struct {
	// Code says which: "nothing_to_undo", "undo_conflict" or "design_busy".
	Code    string
	Message string
}

func (e *UndoError) Error() string { return e.Message }

// undoAttempts bounds how often an undo is worked out again when another change lands while it is
// being worked out.
const undoAttempts = 3

// LastChangeBy is the newest revision by author in a history listed newest first; ok is false when
// there is none, or when it is the creation, which cannot be taken back.
func LastChangeBy(revs []Revision, author string) (r Revision, ok bool) {
	for _, r := range revs {
		if r.Author == author && author != "" {
			return r, r.Revision > 1
		}
	}
	return Revision{}, false
}

// Undo takes back ed.Author's newest change: every part of the design it touched (its paths) goes
// back to how it was before it, stored as a new revision by ed.Author from ed.Tab. It is refused
// with an *UndoError when a later change touched any of the same parts, or when the result would
// differ from replaying every later change onto the design before it (a later change built on the
// undone one). It returns the new record and the revision it undid.
func (s *Store) Undo(ctx context.Context, id string, ed Edit) (Record, Revision, error) {
	for range undoAttempts {
		current, err := s.Load(ctx, id)
		if err != nil {
			return Record{}, Revision{}, err
		}
		revs, err := s.Revisions(ctx, id)
		if err != nil {
			return Record{}, Revision{}, err
		}
		head := current.Revision
		if revs[0].Revision != head {
			continue // a change landed between the two reads
		}
		mine, ok := LastChangeBy(revs, ed.Author)
		if !ok {
			return Record{}, Revision{}, &UndoError{"nothing_to_undo", "You have made no change to this design that can be undone."}
		}
		undo, err := s.undoChange(ctx, id, mine, revs[:head-mine.Revision], current.Design)
		if err != nil {
			return Record{}, mine, err
		}
		ed.Change, ed.IfRevision, ed.Base = undo, head, 0
		rec, err := s.ApplyEdit(ctx, id, ed)
		if errors.Is(err, ErrStale) {
			continue
		}
		return rec, mine, err
	}
	return Record{}, Revision{}, &UndoError{"design_busy", "The design kept changing while your undo was worked out. Try again in a moment."}
}

// undoChange works out the change that takes back mine from current, given the revisions after
// it (later, newest first), or says why it cannot be taken back.
func (s *Store) undoChange(ctx context.Context, id string, mine Revision, later []Revision, current designer.Design) (designer.Change, error) {
	refuse := func(format string, args ...any) error {
		return &UndoError{"undo_conflict", fmt.Sprintf("Your change of revision %d (%s) was not undone: ", mine.Revision, mine.Summary) +
			fmt.Sprintf(format, args...)}
	}
	for i := len(later) - 1; i >= 0; i-- {
		if r := later[i]; pathsMeet(r.Paths, mine.Paths) {
			return nil, refuse("%s changed the same part of the design since, in revision %d (%s). Restore an earlier revision instead, or change it back by hand.",
				r.Author, r.Revision, r.Summary)
		}
	}
	before, err := s.DesignAt(ctx, id, mine.Revision-1)
	if err != nil {
		return nil, err
	}
	undo := designer.UndoChange{Before: before, Revision: mine.Revision, Undone: mine.Summary, Touched: mine.Paths}
	undone, err := undo.Apply(current)
	if err != nil {
		return nil, refuse("the design would not be valid without it: %v.", err)
	}
	// The same design must come out of the history without the undone change.
	changes, err := s.Changes(ctx, id, mine.Revision, mine.Revision+int64(len(later)))
	if err != nil {
		return nil, err
	}
	replayed := before
	for i, ch := range changes {
		if replayed, err = ch.Apply(replayed); err != nil {
			r := later[len(later)-1-i]
			return nil, refuse("revision %d (%s, by %s) depends on it.", r.Revision, r.Summary, r.Author)
		}
	}
	if !sameDocument(undone, replayed) {
		return nil, refuse("later changes build on it. Restore an earlier revision instead, or change it back by hand.")
	}
	return undo, nil
}

// sameDocument reports whether two designs are the same document.
func sameDocument(a, b designer.Design) bool {
	ja, errA := designer.MarshalCompactJSON(designer.Normalize(a))
	jb, errB := designer.MarshalCompactJSON(designer.Normalize(b))
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// pathsMeet reports whether two changes touched a common part of the design. The empty path is
// the whole design, which meets everything.
func pathsMeet(a, b []designer.Path) bool {
	if slices.Contains(a, "") || slices.Contains(b, "") {
		return true
	}
	return designer.PathsOverlap(a, b)
}
