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
	Paths    []designer.Path
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
	packed, docBytes, err := snapshotOf(d)
	if err != nil {
		return Record{}, Tokens{}, fmt.Errorf("create design: %w", err)
	}
	if err := s.limits.check(d, docBytes); err != nil {
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
	paths, _ := json.Marshal([]designer.Path{""})
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO designs (id, name, revision, sealed_view, created_at, updated_at, history_from, history_bytes, snapshot_revision, doc_bytes)
				VALUES (?, ?, 1, ?, ?, ?, 1, ?, 1, ?)`,
			id, d.Name, sealed, at, at, len(packed), docBytes); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO revisions (design_id, revision, author, at, kind, summary, change, paths, snapshot, doc) VALUES (?, 1, ?, ?, ?, ?, '', ?, 1, ?)`,
			id, author, at, createKind, createSummary, string(paths), packed); err != nil {
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
	s.cache.put(rec, docBytes)
	return rec, tok, nil
}

// Load returns the current state of a design: from the cache, or rebuilt from the history. A
// change committed before Load is called, by this store or by any other connection or process,
// is in what it returns.
func (s *Store) Load(ctx context.Context, id string) (Record, error) {
	// Most loads find the current revision cached, and (id, revision) names one state. While
	// nothing was committed since the revision was last confirmed (freshness.go), the cache
	// answers alone; otherwise one small read gives the revision; the rest read the design's row
	// and history in one transaction.
	h, known := s.shm.header()
	if known {
		if rev, ok := s.fresh.revision(id, h); ok {
			if rec, ok := s.cache.get(id, rev); ok {
				return rec, nil
			}
		}
	}
	var rev int64
	err := s.r.QueryRowContext(ctx, `SELECT revision FROM designs WHERE id = ?`, id).Scan(&rev)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Record{}, fmt.Errorf("load design %s: %w", id, ErrNotFound)
	case err != nil:
		return Record{}, fmt.Errorf("load design %s: %w", id, err)
	}
	if known {
		s.fresh.read(id, h, rev)
	}
	if rec, ok := s.cache.get(id, rev); ok {
		return rec, nil
	}
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, fmt.Errorf("load design %s: %w", id, err)
	}
	defer tx.Rollback()
	rec, err := s.current(ctx, tx, id)
	if err != nil {
		return Record{}, fmt.Errorf("load design %s: %w", id, err)
	}
	return rec, nil
}

// current is the current record of design id as q reads it (one transaction): the cached one when
// the cache holds that revision, or else rebuilt from the history and cached.
func (s *Store) current(ctx context.Context, q querier, id string) (Record, error) {
	var (
		rev, docBytes    int64
		created, updated string
	)
	err := q.QueryRowContext(ctx, `SELECT revision, created_at, updated_at, doc_bytes FROM designs WHERE id = ?`, id).
		Scan(&rev, &created, &updated, &docBytes)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Record{}, ErrNotFound
	case err != nil:
		return Record{}, err
	}
	if rec, ok := s.cache.get(id, rev); ok {
		return rec, nil
	}
	d, err := s.designAt(ctx, q, id, rev)
	if err != nil {
		return Record{}, err
	}
	rec := Record{ID: id, Revision: rev, Design: d}
	if rec.CreatedAt, err = parseTime(created); err != nil {
		return Record{}, err
	}
	if rec.UpdatedAt, err = parseTime(updated); err != nil {
		return Record{}, err
	}
	s.cache.put(rec, int(docBytes))
	return rec, nil
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
// *ConflictError if someone else changed the same part since (Edit); ed.Refuse may refuse it
// before all that. An error from the change itself (such as a *designer.ValidationError, reachable with errors.As) stores nothing.
// ApplyEdit returns only after the transaction has committed.
//
// What is written is the change and a few figures of the design: its cost follows the size of the
// change, not of the design. The design's size is kept up to date from the parts the change
// touched (designer.SizeChange) and measured exactly at each snapshot; every
// Store.SnapshotInterval revisions the row also takes a snapshot of the whole document.
func (s *Store) ApplyEdit(ctx context.Context, id string, ed Edit) (Record, error) {
	c, author, ifRevision := ed.Change, ed.Author, ed.IfRevision
	if c == nil {
		return Record{}, fmt.Errorf("apply change to %s: no change", id)
	}
	paths, err := json.Marshal(nonNilPaths(c.Paths()))
	if err != nil {
		return Record{}, fmt.Errorf("apply change to %s: %w", id, err)
	}
	var (
		next       Record
		summary    string
		docBytes   int64
		compaction bool
		before     walIndexHeader // as the transaction found it
		beforeOK   bool
	)
	// Writes are serial anyway (one writer connection); holding applyMu until the hook has run
	// also tells every change to the hook in revision order.
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	if ed.Refuse != nil {
		if err := ed.Refuse(c); err != nil {
			return Record{}, err
		}
	}
	for {
		head, known := s.heads[id]
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			// The transaction holds the write lock: nothing else commits until it does.
			before, beforeOK = s.shm.header()
			if !known {
				err := tx.QueryRowContext(ctx, `SELECT revision, history_from, history_bytes, snapshot_revision, doc_bytes FROM designs WHERE id = ?`, id).
					Scan(&head.rev, &head.from, &head.historyBytes, &head.snapshotRev, &head.docBytes)
				switch {
				case errors.Is(err, sql.ErrNoRows):
					return ErrNotFound
				case err != nil:
					return err
				}
			}
			rev, from, historyBytes, snapshotRev := head.rev, head.from, head.historyBytes, head.snapshotRev
			docBytes = head.docBytes
			if ifRevision != 0 && ifRevision != rev {
				return fmt.Errorf("%w (at revision %d, change made against %d)", ErrStale, rev, ifRevision)
			}
			if err := checkConflict(ctx, tx, id, ed, rev, from); err != nil {
				return err
			}
			cur, ok := s.cache.get(id, rev)
			if !ok {
				if cur, err = s.current(ctx, tx, id); err != nil {
					return err
				}
				if cur.Revision != rev {
					return errHeadMoved
				}
			}
			if err := designer.CheckChange(c, cur.Design); err != nil {
				return err
			}
			d, err := c.Apply(cur.Design)
			if err != nil {
				return err
			}
			d = designer.NormalizeAfter(cur.Design, d)
			change, snapshot, exact, err := storedChange(c, cur.Design, d)
			if err != nil {
				return err
			}
			if exact < 0 {
				docBytes += int64(designer.SizeChange(cur.Design, d, c.Paths()))
			} else {
				docBytes = int64(exact)
			}
			if every := s.limits.snapshotInterval(docBytes); snapshot == nil && every > 0 && rev+1-snapshotRev >= every {
				if snapshot, exact, err = snapshotOf(d); err != nil {
					return err
				}
				docBytes = int64(exact)
			}
			if err := s.checkSize(d, &docBytes, exact >= 0); err != nil {
				return err
			}
			if snapshot != nil {
				snapshotRev = rev + 1
			}
			historyBytes += int64(len(change) + len(snapshot))
			compaction = s.limits.needsCompaction(rev+1, from, historyBytes)
			summary = designer.Describe(c, cur.Design)
			at := formatTime(time.Now())
			// The row as this store last wrote it is checked here rather than read first: another
			// Store on the file, or a compaction, changes it rarely.
			res, err := tx.ExecContext(ctx,
				`UPDATE designs SET name = ?, revision = ?, updated_at = ?, history_bytes = ?, snapshot_revision = ?, doc_bytes = ?
					WHERE id = ? AND revision = ? AND history_from = ? AND history_bytes = ? AND snapshot_revision = ? AND doc_bytes = ?`,
				d.Name, rev+1, at, historyBytes, snapshotRev, docBytes,
				id, rev, from, head.historyBytes, head.snapshotRev, head.docBytes)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n != 1 {
				return errHeadMoved
			}
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO revisions (design_id, revision, author, tab, at, kind, summary, change, paths, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, rev+1, author, ed.Tab, at, c.Kind(), summary, string(change), string(paths), snapshot); err != nil {
				return err
			}
			stored, _ := parseTime(at)
			next = Record{ID: id, Revision: rev + 1, Design: d, CreatedAt: cur.CreatedAt, UpdatedAt: stored}
			head = designRow{rev: rev + 1, from: from, historyBytes: historyBytes, snapshotRev: snapshotRev, docBytes: docBytes}
			return nil
		})
		if err == nil {
			s.rememberHead(id, head)
			break
		}
		delete(s.heads, id)
		if !known {
			return Record{}, fmt.Errorf("apply %s to %s: %w", c.Kind(), id, err)
		}
		// What this store remembered of the row may be out of date (another Store on the file
		// wrote it), and the refusal or the failed check may come from that: try again on the row
		// as read.
	}
	s.cache.put(next, int(docBytes))
	after, afterOK := s.shm.header()
	s.fresh.committed(id, before, after, beforeOK && afterOK, next.Revision)
	if s.onCommit != nil {
		s.onCommit(Revision{Revision: next.Revision, Author: author, At: next.UpdatedAt, Kind: c.Kind(), Summary: summary, Paths: nonNilPaths(c.Paths())}, id)
	}
	if compaction {
		s.scheduleCompaction(id)
	}
	return next, nil
}

// designRow is what ApplyEdit reads and writes of a design's row in designs: its revision and the
// figures of its history and size.
type designRow struct {
	rev, from, historyBytes, snapshotRev, docBytes int64
}

// headsKept bounds Store.heads: past it the map starts afresh.
const headsKept = 10_000

// errHeadMoved reports that a design's row is not as the store remembered it.
var errHeadMoved = errors.New("the design's row changed meanwhile")

// rememberHead keeps the row of design id as ApplyEdit just committed it. It needs applyMu.
func (s *Store) rememberHead(id string, row designRow) {
	if len(s.heads) >= headsKept {
		clear(s.heads)
	}
	s.heads[id] = row
}

// estimateSlack is how far below Limits.DesignBytes a design's size, as kept up to date by
// designer.SizeChange, is measured exactly before it is held against the limit. SizeChange may be
// off by a few bytes per change, and the figure is measured exactly at each snapshot, so the
// estimate strays by far less than this between two snapshots.
const estimateSlack = 64 << 10

// checkSize refuses d when it passes a limit. docBytes is the length of its document: exact when
// exact is set, and otherwise kept up to date from the parts changes touched, in which case it
// is measured exactly (and corrected) when it comes near the limit, so that the limit refuses
// exactly what it says.
func (s *Store) checkSize(d designer.Design, docBytes *int64, exact bool) error {
	if !exact && s.limits.DesignBytes > 0 && *docBytes > s.limits.DesignBytes-estimateSlack {
		doc, err := designer.MarshalCompactJSON(d)
		if err != nil {
			return err
		}
		*docBytes = int64(len(doc))
	}
	return s.limits.check(d, int(*docBytes))
}

// OnCommit registers fn to be told of every change Apply stores, after it is durable, in revision
// order per design. fn must not block or call back into the Store. Call OnCommit before the Store
// is shared.
func (s *Store) OnCommit(fn func(rev Revision, designID string)) {
	s.onCommit = fn
}

func nonNilPaths(p []designer.Path) []designer.Path {
	if p == nil {
		return []designer.Path{}
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
// newest snapshot at or before it (at most Store.SnapshotInterval of them). A revision that does not
// exist, or that compaction folded away, gives ErrNotFound.
func (s *Store) DesignAt(ctx context.Context, id string, revision int64) (designer.Design, error) {
	// One statement reads one consistent state of the history: compaction changes it only in a
	// transaction of its own.
	return s.designAt(ctx, s.r, id, revision)
}
