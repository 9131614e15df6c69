package storage

import (
	"context"
	"fmt"

	"dynaloom/internal/designer"
)

// Changes returns the changes stored after revision after, up to and including revision upTo,
// oldest first: replayed in order onto the design at revision after, they give the design at upTo.
// after must be at least 1 (revision 1 is the created document, not a change); a range the
// history does not hold in full gives ErrNotFound.
func (s *Store) Changes(ctx context.Context, id string, after, upTo int64) ([]designer.Change, error) {
	if after < 1 || upTo < after {
		return nil, fmt.Errorf("changes of %s from revision %d to %d: %w", id, after, upTo, ErrNotFound)
	}
	rows, err := s.r.QueryContext(ctx,
		`SELECT revision, snapshot, change, doc FROM revisions WHERE design_id = ? AND revision > ? AND revision <= ? ORDER BY revision`,
		id, after, upTo)
	if err != nil {
		return nil, fmt.Errorf("changes of %s: %w", id, err)
	}
	defer rows.Close()
	out := make([]designer.Change, 0, upTo-after)
	next := after + 1
	for rows.Next() {
		var (
			rev      int64
			snapshot bool
			raw, doc []byte
		)
		if err := rows.Scan(&rev, &snapshot, &raw, &doc); err != nil {
			return nil, fmt.Errorf("changes of %s: %w", id, err)
		}
		if snapshot || rev != next && next == after+1 {
			// The older changes were folded into a snapshot (compaction).
			return nil, fmt.Errorf("changes of %s after revision %d: compacted away: %w", id, after, ErrNotFound)
		}
		if rev != next {
			return nil, fmt.Errorf("changes of %s: history jumps from revision %d to %d", id, next-1, rev)
		}
		next++
		c, err := replayable(raw, doc)
		if err != nil {
			return nil, fmt.Errorf("changes of %s: revision %d: %w", id, rev, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("changes of %s: %w", id, err)
	}
	if next != upTo+1 {
		return nil, fmt.Errorf("changes of %s from revision %d to %d: %w", id, after, upTo, ErrNotFound)
	}
	return out, nil
}
