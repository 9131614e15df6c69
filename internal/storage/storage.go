// Package storage owns the SQLite persistence of designs, their change history and their tokens.
//
// A design is one row of designs holding its revision and a few figures (its size, its history's
// size, its newest snapshot), plus one row of revisions per accepted change. Revision 1 stores the
// created document; later rows store the change itself, and every Limits.SnapshotEvery revisions
// (more for a large design: Store.SnapshotInterval) a row also holds the whole document
// (snapshots.go), so any revision, the current one included, is rebuilt by replaying at most that
// many changes onto a snapshot. The current design of
// recently used designs is kept in a cache bounded by bytes, so an edit costs the size of the
// change: it applies the change to the cached design and writes one row. Access is by capability
// tokens (an edit token and a view token per design) that are stored only as SHA-256 hashes.
//
// Writes go through a single connection, each in one IMMEDIATE transaction, and return only after
// COMMIT; reads use a small pool of read-only connections. Tokens are never logged or stored in
// plaintext.
//
// The package also owns the database's health: before SQLite opens the file it checks the
// write-ahead log for committed frames SQLite would silently drop (and sets a damaged log aside),
// it runs PRAGMA quick_check at start, turns the driver's full, read-only, damaged and I/O errors
// into ErrFull, ErrReadOnly, ErrDamaged and ErrUnavailable, reports all of these through Health,
// and makes consistent online backups (Backup) and full integrity checks (Check).
package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"dynaloom/internal/memory"
	"dynaloom/migrations"
)

// Sentinel errors. Callers test for them with errors.Is.
var (
	// ErrNotFound reports an unknown design, revision or token (including malformed and revoked
	// tokens).
	ErrNotFound = errors.New("not found")
	// ErrStale reports a change made against a revision that is no longer the newest.
	ErrStale = errors.New("design has changed since the given revision")
)

// readers is the size of the read-only connection pool.
const readers = 4

// statementsCached is how many prepared statements each connection keeps: more than the store
// has, so that none is prepared twice on one connection.
const statementsCached = 64

// Budget is the memory budget of everything kept per design (Options.CacheBytes): the store's
// records and decoded snapshots charge it, and so should whatever else keeps results per design.
func (s *Store) Budget() *memory.Budget { return s.budget }

// Store is a Dynaloom database. It is safe for concurrent use.
type Store struct {
	w *sql.DB // the one writer connection
	r *sql.DB // read-only pool

	budget    *memory.Budget // what cache, snapshots and the server's derived results may hold
	cache     *recordCache   // id → current record, as last seen
	tokens    *tokenCache    // token hash → what it grants
	snapshots *recordCache   // id@revision → the design a snapshot holds, decoded
	limits    Limits

	compactMu   sync.Mutex
	compacting  map[string]bool // designs whose history is being compacted
	compactions sync.WaitGroup

	fresh freshness // what Load may trust while the wal-index header stays the same (freshness.go)

	applyMu  sync.Mutex           // held by Apply from its transaction to its commit hook
	heads    map[string]designRow // id → its row in designs as ApplyEdit last wrote it; needs applyMu
	onCommit func(rev Revision, designID string)

	path   string
	shm    walIndex // the -shm file SQLite keeps beside the database in WAL mode
	log    *slog.Logger
	health health
}

// Options tune a Store. The zero value is usable.
type Options struct {
	// Log receives the store's findings about the database's health; nothing is logged when nil.
	Log *slog.Logger
	// CacheBytes bounds the memory kept per design: current records and decoded snapshots of
	// history, each charged what it holds (memory.Size), and whatever else charges Budget.
	// DefaultCacheBytes when zero, no bound when negative.
	CacheBytes int64
	// Limits bound what one design may hold.
	Limits Limits
	// MaxSize caps the database file at about this many bytes: a write that would grow it further
	// fails with ErrFull, as on a full disk. Zero leaves SQLite's own limit.
	MaxSize int64
}

// Open opens (creating if missing) the SQLite database at path and applies any pending migrations.
func Open(ctx context.Context, path string) (*Store, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options. Before SQLite touches the file it looks for committed frames in
// the write-ahead log that SQLite would drop, copying a damaged log aside; after opening it runs
// PRAGMA quick_check. Neither finding stops the store from opening: they are logged and reported
// by Health, and a database that failed the check refuses writes with ErrDamaged.
func OpenWith(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("open database: empty path")
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if aside, err := setAsideFiles(path); err == nil && len(aside) > 0 {
		log.Error("damaged write-ahead logs set aside earlier still wait for an operator; /healthz answers 503 until they are moved away",
			"db", path, "files", aside)
	}
	// This must run before the first connection: SQLite's recovery truncates what it drops.
	if err := setAsideDamagedWAL(path, time.Now(), log); err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	uri := fileURI(path)
	// Each connection keeps its prepared statements (the driver's cache), so the few statements of
	// an edit and of a page are compiled once per connection instead of on every call: preparing
	// them anew took about as much CPU as the edit's commit.
	common := "_busy_timeout=5000&_foreign_keys=on&_synchronous=FULL&_stmt_cache_size=" + strconv.Itoa(statementsCached)
	w, err := sql.Open("sqlite3", uri+"?mode=rwc&_journal_mode=WAL&_txlock=immediate&"+common)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	cacheBytes := opts.CacheBytes
	switch {
	case cacheBytes == 0:
		cacheBytes = DefaultCacheBytes
	case cacheBytes < 0:
		cacheBytes = math.MaxInt64 // no bound
	}
	budget := memory.NewBudget(cacheBytes)
	s := &Store{w: w, budget: budget, cache: newRecordCache(budget), snapshots: newRecordCache(budget), tokens: newTokenCache(), heads: map[string]designRow{}, limits: opts.Limits.withDefaults(), compacting: map[string]bool{},
		path: path, log: log}
	// The writer goes first: it creates the file, switches it to WAL, checks and migrates it.
	damage, err := s.quickCheck(ctx)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if opts.MaxSize > 0 {
		if err := s.limitSize(ctx, opts.MaxSize); err != nil {
			w.Close()
			return nil, fmt.Errorf("open database %s: %w", path, err)
		}
	}
	s.health.damage = damage
	s.shm.path = shmPath(path) // the writer has made the file: its links can be followed
	r, err := sql.Open("sqlite3", uri+"?mode=rw&_query_only=true&_txlock=deferred&"+common)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	s.r = r
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database. Every acknowledged write is already durable.
func (s *Store) Close() error {
	s.compactions.Wait()
	s.shm.close()
	var errs []error
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	errs = append(errs, s.w.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	return nil
}

// Ping checks that both the writer and the readers can reach the database.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping database writer: %w", err)
	}
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("ping database reader: %w", err)
	}
	return nil
}

// inTx runs fn in one write transaction (BEGIN IMMEDIATE) and commits it. It returns nil only
// once the commit has succeeded. Every write goes through here, so this is where the store learns
// that the database has become full, read-only or damaged, and where it learns that it recovered.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	if s.health.damage != "" {
		// Writing into a damaged file can spread the damage, and whatever is written would be lost
		// again when the operator restores a backup.
		return fmt.Errorf("%w: the start-up check found problems (%s)", ErrDamaged, s.health.damage)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.noteWriteError(fmt.Errorf("begin transaction: %w", err))
	}
	defer tx.Rollback() // no-op after Commit
	if err := fn(tx); err != nil {
		return s.noteWriteError(err)
	}
	if err := tx.Commit(); err != nil {
		return s.noteWriteError(fmt.Errorf("commit: %w", err))
	}
	s.noteWriteSuccess()
	return nil
}

type migration struct {
	version  int
	name     string
	sql      string
	checksum string
}

func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	slices.Sort(names)
	var out []migration
	seen := map[int]string{}
	for _, name := range names {
		num, _, ok := strings.Cut(name, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil || version < 1 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_'", name)
		}
		if prev, dup := seen[version]; dup {
			return nil, fmt.Errorf("migrations %s and %s share version %d", prev, name, version)
		}
		seen[version] = name
		body, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		sum := sha256.Sum256(body)
		out = append(out, migration{version, name, string(body), hex.EncodeToString(sum[:])})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	return out, nil
}

// migrate applies pending migrations in order, each in its own transaction, and refuses a
// database whose applied migrations were edited or are newer than this build knows.
func (s *Store) migrate(ctx context.Context) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER NOT NULL PRIMARY KEY,
		name       TEXT    NOT NULL,
		checksum   TEXT    NOT NULL,
		applied_at TEXT    NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	// One read of what is applied, so that starting on an up-to-date file opens no transaction;
	// a pending migration is checked again inside its own.
	applied, err := appliedMigrations(ctx, s.w)
	if err != nil {
		return err
	}
	for _, m := range all {
		if sum, ok := applied[m.version]; ok {
			if sum != m.checksum {
				return fmt.Errorf("migration %s: was edited after it was applied (checksum %s, applied %s)", m.name, m.checksum, sum)
			}
			continue
		}
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			var sum string
			switch err := tx.QueryRowContext(ctx, `SELECT checksum FROM schema_migrations WHERE version = ?`, m.version).Scan(&sum); {
			case err == nil:
				if sum != m.checksum {
					return fmt.Errorf("was edited after it was applied (checksum %s, applied %s)", m.checksum, sum)
				}
				return nil
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			if after := afterMigration[m.version]; after != nil {
				if err := after(s, ctx, tx); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
				m.version, m.name, m.checksum, formatTime(time.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	newest := 0
	for v := range applied {
		newest = max(newest, v)
	}
	if len(all) > 0 && newest > all[len(all)-1].version {
		return fmt.Errorf("database schema version %d is newer than this build (%d)", newest, all[len(all)-1].version)
	}
	return nil
}

// appliedMigrations maps each applied migration's version to its checksum.
func appliedMigrations(ctx context.Context, db *sql.DB) (map[int]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT version, checksum FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var v int
		var sum string
		if err := rows.Scan(&v, &sum); err != nil {
			return nil, fmt.Errorf("read schema_migrations: %w", err)
		}
		out[v] = sum
	}
	return out, rows.Err()
}

// Times are stored as fixed-width UTC text, so they sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse stored time %q: %w", s, err)
	}
	return t.UTC(), nil
}
