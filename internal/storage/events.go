package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// RevisionsAfter returns the history entries of a design after revision after, oldest first: what
// a client that has seen revision after has missed.
func (s *Store) RevisionsAfter(ctx context.Context, id string, after int64) ([]Revision, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT revision, author, at, kind, summary, paths FROM revisions WHERE design_id = ? AND revision > ? ORDER BY revision`, id, after)
	if err != nil {
		return nil, fmt.Errorf("revisions of %s after %d: %w", id, after, err)
	}
	return scanRevisions(rows, id)
}

// scanRevisions reads history rows (revision, author, at, kind, summary, paths) and closes them.
func scanRevisions(rows *sql.Rows, id string) ([]Revision, error) {
	defer rows.Close()
	out := []Revision{}
	for rows.Next() {
		var (
			r         Revision
			at, paths string
		)
		if err := rows.Scan(&r.Revision, &r.Author, &at, &r.Kind, &r.Summary, &paths); err != nil {
			return nil, fmt.Errorf("revisions of %s: %w", id, err)
		}
		var err error
		if r.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("revisions of %s: revision %d: %w", id, r.Revision, err)
		}
		if err := json.Unmarshal([]byte(paths), &r.Paths); err != nil {
			return nil, fmt.Errorf("revisions of %s: revision %d: decode paths: %w", id, r.Revision, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("revisions of %s: %w", id, err)
	}
	return out, nil
}
