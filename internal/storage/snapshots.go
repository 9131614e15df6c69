package storage

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"fmt"
	"io"
	"strconv"
	"sync"

	"dynaloom/internal/designer"
)

// Snapshots. A history row holds the change its revision made; every Store.SnapshotInterval
// revisions (and at a whole-design change that is cheaper to store whole), the row also holds the
// whole document as of its revision, compressed, in its doc column. A design at any revision, the
// current one included, is the newest snapshot at or before it with the changes after it replayed:
// at most that many of them. Nothing else holds the document, so nothing can disagree with the
// history.
//
// Rows stored before migration 005 may instead hold their document in change (snapshot = 1 and
// doc NULL: revision 1, and where compaction folded older history).

// querier is what reading the history needs of a connection or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// packDocument compresses a compact design-json document for a snapshot. Design documents repeat
// their member names and key shapes on every row, so DEFLATE at its fastest level stores a
// snapshot in a fifth to a twentieth of its size for a small share of the time its encoding took.
func packDocument(doc []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(doc) / 4)
	w, ok := packers.Get().(*flate.Writer)
	if ok {
		w.Reset(&buf)
	} else {
		w, _ = flate.NewWriter(&buf, flate.BestSpeed) // only an invalid level fails
	}
	w.Write(doc) // a bytes.Buffer takes every write
	w.Close()
	packers.Put(w)
	return buf.Bytes()
}

// packers keeps the compressors of packDocument for the next snapshot: each holds about a
// megabyte of tables, which a new one would allocate again.
var packers sync.Pool

func unpackDocument(packed []byte) ([]byte, error) {
	doc, err := io.ReadAll(flate.NewReader(bytes.NewReader(packed)))
	if err != nil {
		return nil, fmt.Errorf("unpack snapshot: %w", err)
	}
	return doc, nil
}

// snapshotOf encodes d for a snapshot: its packed document, and the document's length unpacked.
func snapshotOf(d designer.Design) (packed []byte, docBytes int, err error) {
	doc, err := designer.MarshalCompactJSON(d)
	if err != nil {
		return nil, 0, err
	}
	return packDocument(doc), len(doc), nil
}

// designAt rebuilds design id at revision from the history q reads: the newest snapshot at or
// before it, with the changes after it replayed. q must read one consistent state of the history
// (one statement, or a transaction). A revision the history does not hold gives ErrNotFound.
//
// Decoded snapshots are kept in a cache of their own (a quarter of Options.CacheBytes), so that
// opening revisions near one another, as the history and its diffs do, decodes their snapshot
// once: decoding a document costs far more than replaying the changes after it.
func (s *Store) designAt(ctx context.Context, q querier, id string, revision int64) (designer.Design, error) {
	if revision < 1 {
		return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, ErrNotFound)
	}
	if rec, ok := s.cache.get(id, revision); ok {
		return rec.Design, nil // the current revision, as last applied or rebuilt
	}
	rows, err := q.QueryContext(ctx,
		`SELECT revision, snapshot, change, doc FROM revisions WHERE design_id = ? AND revision <= ? AND revision >=
			(SELECT revision FROM revisions WHERE design_id = ? AND revision <= ? AND (snapshot = 1 OR doc IS NOT NULL)
				ORDER BY revision DESC LIMIT 1) ORDER BY revision`,
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
			rev         int64
			snapshot    bool
			change, doc []byte
		)
		if err := rows.Scan(&rev, &snapshot, &change, &doc); err != nil {
			return designer.Design{}, fmt.Errorf("design %s at revision %d: %w", id, revision, err)
		}
		if last == 0 {
			if d, err = s.startDocument(id, rev, snapshot, change, doc); err != nil {
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

// startDocument is the document the snapshot row of revision rev holds: its doc column, or, in a
// row stored before migration 005, its change column; from the snapshot cache when it is there.
func (s *Store) startDocument(id string, rev int64, snapshot bool, change, doc []byte) (designer.Design, error) {
	key := id + "@" + strconv.FormatInt(rev, 10)
	if rec, ok := s.snapshots.get(key, rev); ok {
		return rec.Design, nil
	}
	if doc != nil {
		var err error
		if change, err = unpackDocument(doc); err != nil {
			return designer.Design{}, err
		}
	} else if !snapshot {
		return designer.Design{}, fmt.Errorf("history starts without a snapshot")
	}
	d, err := decodeDesign(change)
	if err != nil {
		return designer.Design{}, err
	}
	s.snapshots.put(Record{ID: key, Revision: rev, Design: d}, len(change))
	return d, nil
}

// storedChange is what the history row of change c, applied to before to give after, holds.
// Most changes are stored as they are. The two that carry a whole design are stored by what they
// changed: a whole-design change as a patch from before to after when that is smaller, or else as
// a snapshot of after beside the change without its design; an undo, which carries the design
// before the undone change, as a patch when that is smaller. snapshot is nil unless the row is
// one. docBytes is after's document length when it had to be encoded, or -1.
func storedChange(c designer.Change, before, after designer.Design) (change, snapshot []byte, docBytes int, err error) {
	switch c := c.(type) {
	case designer.ReplaceDesign:
		packed, docBytes, err := snapshotOf(after)
		if err != nil {
			return nil, nil, 0, err
		}
		bare, err := designer.MarshalChange(designer.ReplaceDesign{Note: c.Note})
		if err != nil {
			return nil, nil, 0, err
		}
		patched, err := marshalPatch(before, after)
		if err != nil {
			return nil, nil, 0, err
		}
		if len(patched) < len(bare)+len(packed) {
			return patched, nil, docBytes, nil
		}
		return bare, packed, docBytes, nil
	case designer.UndoChange:
		whole, err := designer.MarshalChange(c)
		if err != nil {
			return nil, nil, 0, err
		}
		patched, err := marshalPatch(before, after)
		if err != nil {
			return nil, nil, 0, err
		}
		if len(patched) < len(whole) {
			return patched, nil, -1, nil
		}
		return whole, nil, -1, nil
	}
	change, err = designer.MarshalChange(c)
	return change, nil, -1, err
}

// marshalPatch is the stored form of the patch from before to after.
func marshalPatch(before, after designer.Design) ([]byte, error) {
	patch, err := designer.NewPatch(before, after)
	if err != nil {
		return nil, err
	}
	return designer.MarshalChange(patch)
}

// replayable turns a history row's change back into the change it stands for: a whole-design
// change stored beside a snapshot gets its design back from the snapshot.
func replayable(change, doc []byte) (designer.Change, error) {
	c, err := designer.UnmarshalChange(change)
	if err != nil {
		return nil, err
	}
	if r, ok := c.(designer.ReplaceDesign); ok && doc != nil {
		unpacked, err := unpackDocument(doc)
		if err != nil {
			return nil, err
		}
		if r.Design, err = decodeDesign(unpacked); err != nil {
			return nil, err
		}
		return r, nil
	}
	return c, nil
}
