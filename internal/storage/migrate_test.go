package storage

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// A file whose applied migrations disagree with this build's is refused at open, naming why.
func TestOpen_refusesAppliedMigrationsThatDisagree(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, tamper, want string
	}{
		{"edited", `UPDATE schema_migrations SET checksum = 'x' WHERE version = (SELECT min(version) FROM schema_migrations)`, "was edited after it was applied"},
		{"newer", `INSERT INTO schema_migrations VALUES (9999, '9999_future.sql', 'y', '')`, "database schema version 9999 is newer than this build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "d.db")
			s, err := OpenWith(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			db, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(tc.tamper); err != nil {
				t.Fatal(err)
			}
			db.Close()
			s, err = OpenWith(ctx, path, Options{})
			if err == nil {
				s.Close()
				t.Fatalf("open succeeded; want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("open: %v; want %q", err, tc.want)
			}
		})
	}
}
