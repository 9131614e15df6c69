package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// History compaction. Every change adds a row to a design's history; past Limits.Revisions rows
// or Limits.HistoryBytes bytes, the oldest rows are folded into one snapshot: the row of the
// oldest revision kept gets the whole document as it was at that revision, and the rows before it
// go. The newest revisions, and so every acknowledged change's effect, are always kept; what goes
// is the ability to open revisions older than the snapshot. The oldest row kept keeps its change
// too, but is marked (snapshot = 1) as where the history starts.
//
// Compaction runs after the commit that passed the limit, in the background, one at a time per
// design, so a write never waits for it.

// rowBytes is the SQL for what one history row counts towards Limits.HistoryBytes: its change and
// its snapshot.
const rowBytes = `length(CAST(change AS BLOB)) + COALESCE(length(doc), 0)`

// needsCompaction reports whether a design with these history figures is past a limit.
func (l Limits) needsCompaction(head, from, bytes int64) bool {
	return l.Revisions > 0 && head-from+1 > int64(l.Revisions) || l.HistoryBytes > 0 && bytes > l.HistoryBytes
}

// scheduleCompaction starts compacting design id unless that is already under way.
func (s *Store) scheduleCompaction(id string) {
	s.compactMu.Lock()
	if s.compacting[id] {
		s.compactMu.Unlock()
		return
	}
	s.compacting[id] = true
	s.compactions.Add(1)
	s.compactMu.Unlock()
	go func() {
		defer s.compactions.Done()
		defer func() {
			s.compactMu.Lock()
			delete(s.compacting, id)
			s.compactMu.Unlock()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.Compact(ctx, id); err != nil {
			s.log.Error("history compaction failed; the history is as it was", "design_id", id, "err", err)
		}
	}()
}

// WaitCompactions waits until no compaction is under way.
func (s *Store) WaitCompactions() { s.compactions.Wait() }

// Compact folds the oldest history of design id into a snapshot until the history is within
// three quarters of the limits (so that the next compaction is far off), keeping at least the
// newest revision. A history within the limits is left alone.
func (s *Store) Compact(ctx context.Context, id string) error {
	var head, from, bytes int64
	if err := s.r.QueryRowContext(ctx, `SELECT revision, history_from, history_bytes FROM designs WHERE id = ?`, id).
		Scan(&head, &from, &bytes); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("compact %s: %w", id, ErrNotFound)
		}
		return fmt.Errorf("compact %s: %w", id, err)
	}
	if !s.limits.needsCompaction(head, from, bytes) {
		return nil
	}
	base, err := s.compactionBase(ctx, id, head)
	if err != nil {
		return fmt.Errorf("compact %s: %w", id, err)
	}
	if base <= from {
		return nil
	}
	d, err := s.DesignAt(ctx, id, base)
	if err != nil {
		return fmt.Errorf("compact %s: %w", id, err)
	}
	packed, _, err := snapshotOf(d)
	if err != nil {
		return fmt.Errorf("compact %s: %w", id, err)
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var now int64
		if err := tx.QueryRowContext(ctx, `SELECT history_from FROM designs WHERE id = ?`, id).Scan(&now); err != nil {
			return err
		}
		if now != from {
			return nil // compacted meanwhile (by another process on the same file)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE revisions SET doc = ?, snapshot = 1 WHERE design_id = ? AND revision = ?`,
			packed, id, base); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM revisions WHERE design_id = ? AND revision < ?`, id, base); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE designs SET history_from = ?, snapshot_revision = MAX(snapshot_revision, ?), history_bytes =
			(SELECT SUM(`+rowBytes+`) FROM revisions WHERE design_id = ?) WHERE id = ?`, base, base, id, id)
		return err
	})
	// ApplyEdit would find out that the row changed, but only after doing the edit's work.
	s.applyMu.Lock()
	delete(s.heads, id)
	s.applyMu.Unlock()
	if err != nil {
		return fmt.Errorf("compact %s: %w", id, err)
	}
	s.log.Info("history compacted", "design_id", id, "history_from", base, "revisions_folded", base-from)
	return nil
}

// compactionBase is the oldest revision to keep: the newest rows that fit in three quarters of
// each limit, counting the snapshot the oldest of them becomes as the size of the current
// document.
func (s *Store) compactionBase(ctx context.Context, id string, head int64) (int64, error) {
	var docBytes int64
	if err := s.r.QueryRowContext(ctx, `SELECT doc_bytes FROM designs WHERE id = ?`, id).Scan(&docBytes); err != nil {
		return 0, err
	}
	keepRows := int64(s.limits.Revisions) * 3 / 4
	keepBytes := s.limits.HistoryBytes * 3 / 4
	rows, err := s.r.QueryContext(ctx,
		`SELECT revision, `+rowBytes+` FROM revisions WHERE design_id = ? ORDER BY revision DESC`, id)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	base, kept, size := head, int64(0), docBytes
	for rows.Next() {
		var rev, n int64
		if err := rows.Scan(&rev, &n); err != nil {
			return 0, err
		}
		if kept > 0 && (keepRows > 0 && kept+1 > keepRows || keepBytes > 0 && size+n > keepBytes) {
			break
		}
		base, kept, size = rev, kept+1, size+n
	}
	return base, rows.Err()
}
