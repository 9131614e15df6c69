package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
)

// openExisting opens the existing database at path for one-off use beside a running server. It
// does not look at the write-ahead log first as Open does: a running server may be appending to
// the log, and a log read in mid-write looks damaged when it is not.
func openExisting(path, mode string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no database at %s: %w", path, err)
	}
	db, err := sql.Open("sqlite3", fileURI(path)+"?mode="+mode+"&_busy_timeout=5000")
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// fileURI is a file: URI for path, so that a path containing '?' or '#' cannot be mistaken for
// parameters.
func fileURI(path string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath()
}

// Backup writes a consistent copy of the database at path to the new file dest, safely while a
// server writes to it: the copy is one read transaction's snapshot (VACUUM INTO), so it holds
// every change committed before Backup started and no half of any later one. The copy is written
// beside dest under a temporary name, synced and checked with PRAGMA integrity_check before it
// takes dest's name; dest is never overwritten, so an older backup cannot be lost by mistake.
func Backup(ctx context.Context, path, dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup to %s: %w (choose a new name, or remove it first)", dest, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	src, err := openExisting(path, "ro")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer src.Close()
	tmp := dest + ".partial-" + rand.Text()[:8]
	defer os.Remove(tmp) // gone already once the copy has its name
	if _, err := src.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		return fmt.Errorf("backup %s: %w", path, err)
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("backup %s: %w", path, err)
	}
	problems, err := Check(ctx, tmp)
	if err != nil {
		return fmt.Errorf("backup %s: check the copy: %w", path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("backup %s: %w: the copy fails its integrity check: %s", path, ErrDamaged, problems[0])
	}
	// A link, unlike a rename, refuses to replace a file that appeared at dest meanwhile.
	if err := os.Link(tmp, dest); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := syncFile(filepath.Dir(dest)); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	return nil
}

// Check runs PRAGMA integrity_check on the database at path, which must exist, and returns the
// problems it lists (at most 100; none for a sound database). An error means the check could not
// run; one wrapping ErrDamaged means the file is too damaged to be read as a database.
func Check(ctx context.Context, path string) ([]string, error) {
	db, err := openExisting(path, "ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	problems, err := integrity(ctx, db, "integrity_check")
	if err != nil {
		if cond := sentinelOf(err); cond != nil {
			return nil, fmt.Errorf("check %s: %w: %w", path, cond, err)
		}
		return nil, fmt.Errorf("check %s: %w", path, err)
	}
	return problems, nil
}

// SetAside lists the copies of damaged write-ahead logs that Open set aside next to the database
// at path and that still wait for an operator.
func SetAside(path string) ([]string, error) {
	return setAsideFiles(path)
}

func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
