package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"dynaloom/internal/designer"
)

// ErrConflict reports a change made against a revision after which someone else changed the same
// part of the design. The error is a *ConflictError saying who and when.
var ErrConflict = errors.New("someone else changed the same part of the design")

// ConflictError is the refusal of an edit over someone else's later change of the same part.
type ConflictError struct {
	// Revision and Author are of the newest change that overlaps the refused one.
	Revision int64
	Author   string
	// Head is the revision the design was at when the edit was refused: the same edit made against
	// it overrides every change the refusal stood for.
	Head int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%v: %s in revision %d", ErrConflict, e.Author, e.Revision)
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// Edit is one change and who makes it, with the preconditions it is stored under.
type Edit struct {
	Change designer.Change
	// Author is the display name recorded in history.
	Author string
	// Tab identifies the browser tab the edit comes from, or is empty. People may share a display
	// name, and one person may have two tabs open, so a tab, when there is one, is who made a
	// change as far as conflicts go.
	Tab string
	// IfRevision, when not 0, refuses the edit with ErrStale unless it is the newest revision.
	IfRevision int64
	// Base, when not 0, is the revision the editor saw: the edit is refused with a *ConflictError
	// if a later revision by someone else touched a part of the design the change touches.
	Base int64
	// Refuse, when set, is asked first whether the change may be stored, while no other edit can
	// land (an undo asks it of the change that undoes): an error it gives refuses the edit, as it
	// is. The server's step locks use it.
	Refuse func(designer.Change) error
}

// sameEditor reports whether a stored revision was made by the editor of ed.
func sameEditor(ed Edit, author, tab string) bool {
	if ed.Tab != "" || tab != "" {
		return ed.Tab == tab
	}
	return ed.Author == author
}

// checkConflict refuses ed if a revision after ed.Base by someone else overlaps it. It runs in
// the transaction that stores ed, so no change can land between the check and the write. from is
// the oldest revision the history still holds: when the revisions after ed.Base were folded into a
// snapshot (compaction), nobody can tell what they touched, and the edit is refused as a conflict
// with the snapshot, which the editor can then override knowingly.
func checkConflict(ctx context.Context, tx *sql.Tx, id string, ed Edit, head, from int64) error {
	if ed.Base == 0 || ed.Base >= head {
		return nil
	}
	if ed.Base < from {
		var author string
		if err := tx.QueryRowContext(ctx, `SELECT author FROM revisions WHERE design_id = ? AND revision = ?`, id, from).Scan(&author); err != nil {
			return err
		}
		return &ConflictError{Revision: from, Author: author, Head: head}
	}
	rows, err := tx.QueryContext(ctx,
		`SELECT revision, author, tab, paths FROM revisions WHERE design_id = ? AND revision > ? ORDER BY revision DESC`, id, ed.Base)
	if err != nil {
		return err
	}
	defer rows.Close()
	mine := ed.Change.Paths()
	for rows.Next() {
		var (
			rev              int64
			author, tab, raw string
			paths            []designer.Path
		)
		if err := rows.Scan(&rev, &author, &tab, &raw); err != nil {
			return err
		}
		if sameEditor(ed, author, tab) {
			continue
		}
		if err := json.Unmarshal([]byte(raw), &paths); err != nil {
			return fmt.Errorf("revision %d: decode paths: %w", rev, err)
		}
		if designer.PathsOverlap(paths, mine) {
			return &ConflictError{Revision: rev, Author: author, Head: head}
		}
	}
	return rows.Err()
}
