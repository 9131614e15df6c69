package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Conditions of the database itself, as opposed to refusals of a request. An error from a write
// that failed for one of these reasons wraps the sentinel and the driver's error.
var (
	// ErrFull reports that the disk (or the database's size limit) is full.
	ErrFull = errors.New("database or disk is full")
	// ErrReadOnly reports that the database file cannot be written.
	ErrReadOnly = errors.New("database is read-only")
	// ErrDamaged reports a database that failed its integrity check, or whose write-ahead log held
	// committed changes SQLite could not replay.
	ErrDamaged = errors.New("database is damaged")
	// ErrUnavailable reports a disk error, or a database that did not answer the health probe.
	ErrUnavailable = errors.New("database is unavailable")
)

// healthTTL is how long a probe's result answers Health: probes come often, and each one takes
// the writer connection.
const healthTTL = 3 * time.Second

// probeTimeout bounds a probe that waits behind a busy writer.
const probeTimeout = 2 * time.Second

// health is what the store knows about the database beyond any one request.
type health struct {
	// damage is what PRAGMA quick_check reported at start ("" when it said ok). It is set before
	// the store is shared and never changes.
	damage string

	mu        sync.Mutex
	lastWrite *conditionError // the last write's failure for a reason in sentinelOf, until one succeeds

	// probeMu is held while a probe runs, apart from mu, so that a write failing meanwhile is
	// not held up by a probe waiting for the writer connection that write is holding.
	probeMu sync.Mutex
	probed  time.Time // when probe last ran
	probe   error     // its result
}

// sentinelOf names the database condition behind a driver error, or nil when err says nothing
// about the database (a constraint, a stale revision, a refused change).
func sentinelOf(err error) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch se.Code {
	case sqlite3.ErrFull:
		return ErrFull
	case sqlite3.ErrReadonly, sqlite3.ErrPerm:
		return ErrReadOnly
	case sqlite3.ErrCorrupt, sqlite3.ErrNotADB:
		return ErrDamaged
	case sqlite3.ErrIoErr, sqlite3.ErrCantOpen:
		if se.ExtendedCode == sqlite3.ErrIoErrWrite && se.SystemErrno == 28 { // ENOSPC
			return ErrFull
		}
		return ErrUnavailable
	}
	return nil
}

// conditionError is a write error tied to the database condition that caused it. Its text is the
// driver's; errors.Is finds both the condition and the driver's error.
type conditionError struct {
	condition error
	err       error
}

func (e *conditionError) Error() string   { return e.err.Error() }
func (e *conditionError) Unwrap() []error { return []error{e.condition, e.err} }

// noteWriteError ties a failed write to the database condition behind it, remembers that
// condition for Health, and logs it the first time it appears. Errors that say nothing about the
// database are returned as they are.
func (s *Store) noteWriteError(err error) error {
	cond := sentinelOf(err)
	if cond == nil {
		return err
	}
	s.health.mu.Lock()
	changed := s.health.lastWrite == nil || s.health.lastWrite.condition != cond
	ce := &conditionError{cond, err}
	s.health.lastWrite = ce
	s.health.mu.Unlock()
	if changed {
		s.log.Error("database write failed", "db", s.path, "problem", cond.Error(), "err", err)
	}
	return ce
}

// noteWriteSuccess forgets a remembered write failure: the database takes writes again.
func (s *Store) noteWriteSuccess() {
	s.health.mu.Lock()
	was := s.health.lastWrite
	s.health.lastWrite = nil
	s.health.mu.Unlock()
	if was != nil {
		s.log.Info("database writes succeed again", "db", s.path, "after", was.Error())
	}
}

// Health reports whether the database can serve and save: nil, or an error wrapping ErrDamaged,
// ErrFull, ErrReadOnly or ErrUnavailable whose text says what is wrong without naming files. In
// order it reports damage found at start, a damaged write-ahead log set aside and not yet dealt
// with, the last failed write (until a write succeeds), and a probe that starts a write
// transaction, changes a row in place and rolls back, so the file never grows. The probe's
// result is reused for a few seconds.
func (s *Store) Health(ctx context.Context) error {
	if s.health.damage != "" {
		return fmt.Errorf("%w: the integrity check at start-up found problems; see the server log", ErrDamaged)
	}
	s.health.probeMu.Lock()
	if time.Since(s.health.probed) >= healthTTL {
		s.health.probe = s.probe(ctx)
		s.health.probed = time.Now()
	}
	probe := s.health.probe
	s.health.probeMu.Unlock()
	if errors.Is(probe, ErrDamaged) {
		return probe
	}
	s.health.mu.Lock()
	lastWrite := s.health.lastWrite
	s.health.mu.Unlock()
	if lastWrite != nil {
		// The driver's text names the statement's design; the condition says enough.
		return fmt.Errorf("%w: the last write failed, and none has succeeded since", lastWrite.condition)
	}
	return probe
}

// probe checks what a write needs without writing: no set-aside log waits for the operator, the
// readers answer, and the writer can take the write lock and change a page.
func (s *Store) probe(ctx context.Context) error {
	aside, err := setAsideFiles(s.path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if len(aside) > 0 {
		return fmt.Errorf("%w: a damaged write-ahead log was set aside at start-up and committed changes in it are missing; see the server log and README, \"Backups and health\"", ErrDamaged)
	}
	// Not cancelled with the request: the result is shared by the probes of the next seconds.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), probeTimeout)
	defer cancel()
	if err := s.r.PingContext(ctx); err != nil {
		return s.probeError("reach the database", err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.probeError("start a write", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE schema_migrations SET applied_at = applied_at
		WHERE version = (SELECT max(version) FROM schema_migrations)`); err != nil {
		return s.probeError("write", err)
	}
	if err := tx.Rollback(); err != nil {
		return s.probeError("roll back the probe", err)
	}
	return nil
}

func (s *Store) probeError(what string, err error) error {
	cond := sentinelOf(err)
	if cond == nil {
		cond = ErrUnavailable
	}
	return fmt.Errorf("%w: could not %s: %w", cond, what, err)
}

// quickCheck runs PRAGMA quick_check on the writer and logs its verdict. It returns a summary of
// the problems found, or "" for a sound database. quick_check rather than integrity_check: it finds
// damaged pages and b-trees in time proportional to the file, while integrity_check also
// cross-checks every index against its table, which is slower than a start should be;
// `dynaloom check` runs the full one.
func (s *Store) quickCheck(ctx context.Context) (string, error) {
	start := time.Now()
	problems, err := integrity(ctx, s.w, "quick_check")
	if err != nil {
		if errors.Is(sentinelOf(err), ErrDamaged) {
			s.log.Error("database is damaged", "db", s.path, "check", "quick_check", "err", err)
			return err.Error(), nil
		}
		return "", fmt.Errorf("quick_check: %w", err)
	}
	if len(problems) > 0 {
		s.log.Error("database is damaged; serving reads and refusing writes. Run `dynaloom check`, then restore a backup",
			"db", s.path, "check", "quick_check", "problems", len(problems), "first", problems[0])
		if len(problems) == 1 {
			return problems[0], nil
		}
		return fmt.Sprintf("%d problems, the first: %s", len(problems), problems[0]), nil
	}
	s.log.Info("database check", "db", s.path, "check", "quick_check", "result", "ok", "took", time.Since(start).Round(time.Millisecond))
	return "", nil
}

// integrity runs PRAGMA quick_check or integrity_check and returns the problems it lists (none
// for "ok"), at most 100 of them.
func integrity(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, pragma string) ([]string, error) {
	rows, err := q.QueryContext(ctx, "PRAGMA "+pragma+"(100)")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			out = append(out, line)
		}
	}
	return out, rows.Err()
}

// limitSize sets the writer's max_page_count so the file stays under maxSize bytes.
func (s *Store) limitSize(ctx context.Context, maxSize int64) error {
	var pageSize int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		return fmt.Errorf("read page size: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, max(1, maxSize/pageSize))); err != nil {
		return fmt.Errorf("limit database size: %w", err)
	}
	return nil
}

// setAsideFiles lists the damaged write-ahead logs set aside next to the database at path.
func setAsideFiles(path string) ([]string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), base+"-wal"+damagedSuffix) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}
