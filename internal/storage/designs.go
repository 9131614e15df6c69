package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"dynaloom/internal/designer"
)

// Record is a design as stored now.
type Record struct {
	// ID is the public, non-secret id of the design (16 hex characters); it is safe to log.
	ID string
	// Revision starts at 1 on create and grows by one per accepted change.
	Revision  int64
	Design    designer.Design
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Revision is one entry of a design's history.
type Revision struct {
	Revision int64
	Author   string
	At       time.Time
	Kind     string
	Summary  string
	Paths    []string
}

// The history entry of revision 1, whose change column holds the created document.
const (
	createKind    = "create"
	createSummary = "Created the design"
)

func newID() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go ≥ 1.24)
	return hex.EncodeToString(b[:])
}

// Create stores a new design at revision 1 with fresh edit and view tokens. d is normalized and
// checked; a design the document cannot represent gives its *designer.ValidationError.
func (s *Store) Create(ctx context.Context, d designer.Design, author string) (Record, Tokens, error) {
	d = designer.Normalize(d)
	if err := designer.Check(d); err != nil {
		return Record{}, Tokens{}, fmt.Errorf("create design: %w", err)
	}
	doc, err := designer.MarshalCompactJSON(d)
	if err != nil {
		return Record{}, Tokens{}, fmt.Errorf("create design: %w", err)
	}
	if err := s.limits.check(d, len(doc)); err != nil {
		return Record{}, Tokens{}, fmt.Errorf("create design: %w", err)
	}
	id := newID()
	tok := Tokens{Edit: rand.Text(), View: rand.Text()}
	sealed, err := sealView(id, tok.Edit, tok.View)
	if err != nil {
		return Record{}, Tokens{}, fmt.Errorf("create design %s: %w", id, err)
	}
	now := time.Now().UTC()
	at := formatTime(now)
	paths, _ := json.Marshal([]string{""})
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO designs (id, name, revision, doc, sealed_view, created_at, updated_at, history_from, history_bytes) VALUES (?, ?, 1, ?, ?, ?, ?, 1, ?)`,
			id, d.Name, string(doc), sealed, at, at, len(doc)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO revisions (design_id, revision, author, at, kind, summary, change, paths, snapshot) VALUES (?, 1, ?, ?, ?, ?, ?, ?, 1)`,
			id, author, at, createKind, createSummary, string(doc), string(paths)); err != nil {
			return err
		}
		for _, t := range []struct{ token, access string }{{tok.Edit, "edit"}, {tok.View, "view"}} {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO tokens (hash, design_id, access, created_at) VALUES (?, ?, ?, ?)`,
				hashToken(t.token), id, t.access, at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Record{}, Tokens{}, fmt.Errorf("create design %s: %w", id, err)
	}
	// Time as stored, so the record equals what Load returns.
	stored, _ := parseTime(at)
	rec := Record{ID: id, Revision: 1, Design: d, CreatedAt: stored, UpdatedAt: stored}
	s.cache.put(rec, len(doc))
	return rec, tok, nil
}

// Load returns the current state of a design.
func (s *Store) Load(ctx context.Context, id string) (Record, error) {
	var (
		rev              int64
		doc              string
		created, updated string
	)
	err := s.r.QueryRowContext(ctx, `SELECT revision, doc, created_at, updated_at FROM designs WHERE id = ?`, id).
		Scan(&rev, &doc, &created, &updated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Record{}, fmt.Errorf("load design %s: %w", id, ErrNotFound)
	case err != nil:
		return Record{}, fmt.Errorf("load design %s: %w", id, err)
	}
	if rec, ok := s.cache.get(id, rev); ok {
		return rec, nil
	}
	rec, err := recordFromRow(id, rev, doc, created, updated)
	if err != nil {
		return Record{}, fmt.Errorf("load design %s: %w", id, err)
	}
	s.cache.put(rec, len(doc))
	return rec, nil
}

func recordFromRow(id string, rev int64, doc, created, updated string) (Record, error) {
	d, err := decodeDesign([]byte(doc))
	if err != nil {
		return Record{}, fmt.Errorf("revision %d: %w", rev, err)
	}
	c, err := parseTime(created)
	if err != nil {
		return Record{}, err
	}
	u, err := parseTime(updated)
	if err != nil {
		return Record{}, err
	}
	return Record{ID: id, Revision: rev, Design: d, CreatedAt: c, UpdatedAt: u}, nil
}

// decodeDesign reads a document this package stored. It is not re-checked: a stored document was
// valid when it was accepted, and a later, stricter check must not make it unreadable.
func decodeDesign(doc []byte) (designer.Design, error) {
	var d designer.Design
	if err := json.Unmarshal(doc, &d); err != nil {
		return designer.Design{}, fmt.Errorf("decode stored design: %w", err)
	}
	return designer.Normalize(d), nil
}

// Apply applies one change by author to a design, as ApplyEdit with no base revision.
func (s *Store) Apply(ctx context.Context, id, author string, c designer.Change, ifRevision int64) (Record, error) {
	return s.ApplyEdit(ctx, id, Edit{Change: c, Author: author, IfRevision: ifRevision})
}

// ApplyEdit applies one change to a design and stores the result as the next revision, with its
// history entry, in one transaction. ed.IfRevision 0 applies to whatever is newest; any other
// value gives ErrStale unless it is the current revision. ed.Base, when set, gives a
// *ConflictError if someone else changed the same part since (Edit). An error from the change
// itself (such as a *designer.ValidationError, reachable with errors.As) stores nothing.
// ApplyEdit returns only after the transaction has committed.
func (s *Store) ApplyEdit(ctx context.Context, id string, ed Edit) (Record, error) {
	c, author, ifRevision := ed.Change, ed.Author, ed.IfRevision
	if c == nil {
		return Record{}, fmt.Errorf("apply change to %s: no change", id)
	}
	change, err := designer.MarshalChange(c)
	if err != nil {
		return Record{}, fmt.Errorf("apply change to %s: %w", id, err)
	}
	paths, err := json.Marshal(nonNilPaths(c.Paths()))
	if err != nil {
		return Record{}, fmt.Errorf("apply change to %s: %w", id, err)
	}
	var (
		next       Record
		summary    string
		docBytes   int
		compaction bool
	)
	// Writes are serial anyway (one writer connection); holding applyMu until the hook has run
	// also tells every change to the hook in revision order.
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var (
			rev, from, historyBytes int64
			created, updated        string
		)
		err := tx.QueryRowContext(ctx, `SELECT revision, created_at, updated_at, history_from, history_bytes FROM designs WHERE id = ?`, id).
			Scan(&rev, &created, &updated, &from, &historyBytes)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrNotFound
		case err != nil:
			return err
		}
		if ifRevision != 0 && ifRevision != rev {
			return fmt.Errorf("%w (at revision %d, change made against %d)", ErrStale, rev, ifRevision)
		}
		if err := checkConflict(ctx, tx, id, ed, rev, from); err != nil {
			return err
		}
		cur, ok := s.cache.get(id, rev)
		if !ok {
			var doc string
			if err := tx.QueryRowContext(ctx, `SELECT doc FROM designs WHERE id = ?`, id).Scan(&doc); err != nil {
				return err
			}
			if cur, err = recordFromRow(id, rev, doc, created, updated); err != nil {
				return err
			}
		}
		d, err := c.Apply(cur.Design)
		if err != nil {
			return err
		}
		doc, err := designer.MarshalCompactJSON(d)
		if err != nil {
			return err
		}
		if err := s.limits.check(d, len(doc)); err != nil {
			return err
		}
		docBytes = len(doc)
		historyBytes += int64(len(change))
		compaction = s.limits.needsCompaction(rev+1, from, historyBytes)
		summary = designer.Describe(c, cur.Design)
		now := time.Now().UTC()
		at := formatTime(now)
		if _, err := tx.ExecContext(ctx,
			`UPDATE designs SET name = ?, revision = ?, doc = ?, updated_at = ?, history_bytes = ? WHERE id = ? AND revision = ?`,
			d.Name, rev+1, string(doc), at, historyBytes, id, rev); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO revisions (design_id, revision, author, tab, at, kind, summary, change, paths) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, rev+1, author, ed.Tab, at, c.Kind(), summary, string(change), string(paths)); err != nil {
			return err
		}
		stored, _ := parseTime(at)
		next = Record{ID: id, Revision: rev + 1, Design: designer.Normalize(d), CreatedAt: cur.CreatedAt, UpdatedAt: stored}
		return nil
	})
	if err != nil {
		return Record{}, fmt.Errorf("apply %s to %s: %w", c.Kind(), id, err)
	}
	s.cache.put(next, docBytes)
	if s.onCommit != nil {
		s.onCommit(Revision{Revision: next.Revision, Author: author, At: next.UpdatedAt, Kind: c.Kind(), Summary: summary, Paths: nonNilPaths(c.Paths())}, id)
	}
	if compaction {
		s.scheduleCompaction(id)
	}
	return next, nil
}

// OnCommit registers fn to be told of every change Apply stores, after it is durable, in revision
// order per design. fn must not block or call back into the Store. Call OnCommit before the Store
// is shared.
func (s *Store) OnCommit(fn func(rev Revision, designID string)) {
	s.onCommit = fn
}

func nonNilPaths(p []string) []string {
	if p == nil {
		return []string{}
	}
	return p
}

// Revisions returns the history of a design, newest first.
func (s *Store) Revisions(ctx context.Context, id string) ([]Revision, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT revision, author, at, kind, summary, paths FROM revisions WHERE design_id = ? ORDER BY revision DESC`, id)
	if err != nil {
		return nil, fmt.Errorf("revisions of %s: %w", id, err)
	}
	out, err := scanRevisions(rows, id)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		// Every stored design has revision 1, so no history means no design.
		return nil, fmt.Errorf("revisions of %s: %w", id, ErrNotFound)
	}
	return out, nil
}

// DesignAt rebuilds a design as it was at a revision, by replaying the stored changes onto the
// newest snapshot at or before it (revision 1's document, or where compaction folded older history).
// A revision that does not exist, or that compaction folded away, gives ErrNotFound.
func (s *Store) DesignAt(ctx context.Context, id string, revision int64) (designer.Design, error) {
	if revision < 1 {
		return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, ErrNotFound)
	}
	// One statement reads one consistent state of the history: compaction changes it only in a
	// transaction of its own.
	rows, err := s.r.QueryContext(ctx,
		`SELECT revision, snapshot, change FROM revisions WHERE design_id = ? AND revision <= ? AND revision >=
			(SELECT MAX(revision) FROM revisions WHERE design_id = ? AND revision <= ? AND snapshot = 1) ORDER BY revision`,
		id, revision, id, revision)
	if err != nil {
		return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, err)
	}
	defer rows.Close()
	var (
		d    designer.Design
		last int64 // 0 until the snapshot is read
	)
	for rows.Next() {
		var (
			rev      int64
			snapshot bool
			change   []byte
		)
		if err := rows.Scan(&rev, &snapshot, &change); err != nil {
			return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, err)
		}
		if last == 0 {
			if !snapshot {
				return designer.Design{}, fmt.Errorf("design %s at revision %d: history starts at revision %d without a snapshot", id, revision, rev)
			}
			if d, err = decodeDesign(change); err != nil {
				return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, rev, err)
			}
			last = rev
			continue
		}
		if rev != last+1 {
			return designer.Design{}, fmt.Errorf("design %s at revision %d: history jumps from revision %d to %d", id, revision, last, rev)
		}
		last = rev
		c, err := designer.UnmarshalChange(change)
		if err != nil {
			return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, rev, err)
		}
		if d, err = c.Apply(d); err != nil {
			return designer.Design{}, fmt.Errorf("design %s: replay revision %d: %w", id, rev, err)
		}
	}
	if err := rows.Err(); err != nil {
		return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, err)
	}
	if last != revision {
		return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, ErrNotFound)
	}
	return designer.Normalize(d), nil
}
