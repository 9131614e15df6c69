package storage

import (
	"context"
	"database/sql"
	"fmt"

	"dynaloom/internal/designer"
)

// afterMigration holds what a migration needs done in Go, in the same transaction, after its SQL.
var afterMigration = map[int]func(s *Store, ctx context.Context, tx *sql.Tx) error{
	5: (*Store).snapshotHistories,
}

// snapshotHistories brings the histories stored before migration 005 to its layout: each design's
// history is replayed once from where it starts, a snapshot is stored every Limits.SnapshotEvery
// revisions of it, and its current revision gets a snapshot of designs.doc, the document every
// reader was given until now. A history that replays to another document than designs.doc is
// logged; the document readers were given is the one kept.
func (s *Store) snapshotHistories(ctx context.Context, tx *sql.Tx) error {
	type design struct {
		id  string
		rev int64
		doc []byte
	}
	var designs []design
	rows, err := tx.QueryContext(ctx, `SELECT id, revision, doc FROM designs ORDER BY id`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var d design
		if err := rows.Scan(&d.id, &d.rev, &d.doc); err != nil {
			rows.Close()
			return err
		}
		designs = append(designs, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, d := range designs {
		snapshots, replayed, err := s.replayForSnapshots(ctx, tx, d.id, d.rev)
		if err != nil {
			s.log.Warn("history could not be replayed in full; its current revision is snapshotted as stored",
				"design_id", d.id, "err", err)
		} else if current, err := decodeDesign(d.doc); err == nil && !sameDocument(current, replayed) {
			s.log.Warn("history replays to another document than the stored current one; the stored one is kept",
				"design_id", d.id, "revision", d.rev)
		}
		snapshots[d.rev] = packDocument(d.doc)
		for rev, packed := range snapshots {
			if _, err := tx.ExecContext(ctx, `UPDATE revisions SET doc = ? WHERE design_id = ? AND revision = ?`, packed, d.id, rev); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE designs SET snapshot_revision = revision, history_bytes =
			(SELECT SUM(`+rowBytes+`) FROM revisions WHERE design_id = ?) WHERE id = ?`, d.id, d.id); err != nil {
			return err
		}
	}
	return nil
}

// replayForSnapshots replays the history of design id up to head and returns the snapshots to
// store (every Limits.SnapshotEvery revisions after where the history starts) and the design at
// head. On an error it returns the snapshots it made before it.
func (s *Store) replayForSnapshots(ctx context.Context, tx *sql.Tx, id string, head int64) (map[int64][]byte, designer.Design, error) {
	snapshots := map[int64][]byte{}
	rows, err := tx.QueryContext(ctx, `SELECT revision, snapshot, change FROM revisions WHERE design_id = ? AND revision <= ? ORDER BY revision`, id, head)
	if err != nil {
		return snapshots, designer.Design{}, err
	}
	defer rows.Close()
	var (
		d          designer.Design
		last, base int64
	)
	for rows.Next() {
		var (
			rev      int64
			snapshot bool
			change   []byte
		)
		if err := rows.Scan(&rev, &snapshot, &change); err != nil {
			return snapshots, d, err
		}
		switch {
		case snapshot:
			if d, err = decodeDesign(change); err != nil {
				return snapshots, d, fmt.Errorf("revision %d: %w", rev, err)
			}
			base = rev
		case last == 0 || rev != last+1:
			return snapshots, d, fmt.Errorf("history jumps from revision %d to %d", last, rev)
		default:
			c, err := designer.UnmarshalChange(change)
			if err != nil {
				return snapshots, d, fmt.Errorf("revision %d: %w", rev, err)
			}
			if d, err = c.Apply(d); err != nil {
				return snapshots, d, fmt.Errorf("replay revision %d: %w", rev, err)
			}
			if every := int64(s.limits.SnapshotEvery); every > 0 && rev-base >= every && rev < head {
				doc, err := designer.MarshalCompactJSON(d)
				if err != nil {
					return snapshots, d, err
				}
				snapshots[rev], base = packDocument(doc), rev
			}
		}
		last = rev
	}
	if err := rows.Err(); err != nil {
		return snapshots, d, err
	}
	if last != head {
		return snapshots, d, fmt.Errorf("history ends at revision %d, the design is at %d", last, head)
	}
	return snapshots, designer.Normalize(d), nil
}
