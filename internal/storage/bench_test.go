package storage

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/memory"
)

// The designs of the benchmarks, the sizes test/load measures the server with: about 4 KB, and
// about 350 KB with 200 mapped patterns and 1,000 items.
var (
	smallSize = designertest.Size{Tables: 1, Items: 5, GSIs: 1, Patterns: 3}
	largeSize = designertest.Size{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200}
)

// cellEdit is the i-th single-field change of the benchmarks: one cell of one item.
func cellEdit(i int) designer.Change {
	return designer.SetItemCell{Table: "Table00", ID: "i" + strconv.Itoa(i%3+1), Attribute: "note", Text: "Note " + strconv.Itoa(i)}
}

func benchApplyEdit(b *testing.B, d designer.Design) {
	ctx := context.Background()
	s := openWith(b, Options{})
	rec, _, err := s.Create(ctx, d, "alice")
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	cpu := cpuTime()
	for b.Loop() {
		i++
		if _, err := s.ApplyEdit(ctx, rec.ID, Edit{Change: cellEdit(i), Author: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	doc, _ := designer.MarshalCompactJSON(d)
	b.ReportMetric(float64(len(doc)), "doc-bytes")
}

// One cell edit of a 4 KB design, stored and acknowledged.
func BenchmarkApplyEdit_small(b *testing.B) { benchApplyEdit(b, designertest.Large(smallSize)) }

// One cell edit of a 350 KB design (200 mapped patterns, 1,000 items), stored and acknowledged.
func BenchmarkApplyEdit_large(b *testing.B) { benchApplyEdit(b, designertest.Large(largeSize)) }

// The anchor of the ApplyEdit benchmarks: one transaction that inserts one row as large as the
// history row of one cell edit, through the store's own writer connection (same driver, same
// pragmas: WAL, synchronous=FULL) and its inTx.
func BenchmarkBareCommit(b *testing.B) {
	ctx := context.Background()
	s := openWith(b, Options{})
	rec, _, err := s.Create(ctx, designertest.Large(smallSize), "alice")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.ApplyEdit(ctx, rec.ID, Edit{Change: cellEdit(1), Author: "bench"}); err != nil {
		b.Fatal(err)
	}
	var rowBytes int
	if err := s.w.QueryRowContext(ctx, `SELECT length(design_id) + length(author) + length(tab) + length(at) + length(kind) + length(summary) + length(change) + length(paths) + 16
		FROM revisions WHERE design_id = ? AND revision = 2`, rec.ID).Scan(&rowBytes); err != nil {
		b.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE bare (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT`); err != nil {
		b.Fatal(err)
	}
	body := strings.Repeat("x", rowBytes)
	cpu := cpuTime()
	for b.Loop() {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO bare (body) VALUES (?)`, body)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(rowBytes), "row-bytes")
}

// cpuTime is the CPU time this process has used, in user and system mode: the server's cost of an
// operation, apart from the time it waits for the disk or for the other programs on the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start, background work such as the garbage
// collector included.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// history1000 is the path of a database holding the 350 KB design with 1,000 revisions of cell
// edits, built once per test binary: building it is the slow part of the benchmarks that open
// its revisions.
var history1000 = sync.OnceValues(func() (historyFixture, error) {
	dir, err := os.MkdirTemp("", "dynaloom-bench-")
	if err != nil {
		return historyFixture{}, err
	}
	f := historyFixture{path: filepath.Join(dir, "history.db")}
	ctx := context.Background()
	s, err := Open(ctx, f.path)
	if err != nil {
		return f, err
	}
	defer s.Close()
	rec, _, err := s.Create(ctx, designertest.Large(largeSize), "alice")
	if err != nil {
		return f, err
	}
	for i := 2; i <= 1000; i++ {
		if rec, err = s.ApplyEdit(ctx, rec.ID, Edit{Change: cellEdit(i), Author: "bench"}); err != nil {
			return f, err
		}
	}
	f.id = rec.ID
	return f, nil
})

type historyFixture struct {
	path string
	id   string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if f, err := history1000(); f.path != "" && err == nil {
		os.RemoveAll(filepath.Dir(f.path))
	}
	os.Exit(code)
}

// benchDesignAt opens revisions of the 1,000-revision history in a stride that visits every part
// of it, from a store whose cache budget is cacheBytes.
func benchDesignAt(b *testing.B, cacheBytes int64) {
	f, err := history1000()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s, err := OpenWith(ctx, f.path, Options{CacheBytes: cacheBytes})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rev := int64(1)
	cpu := cpuTime()
	for b.Loop() {
		rev = rev*7%1000 + 1
		if _, err := s.DesignAt(ctx, f.id, rev); err != nil {
			b.Fatal(fmt.Errorf("revision %d: %w", rev, err))
		}
	}
	reportCPU(b, cpu)
}

// Opening any one of 1,000 revisions of the 350 KB design, with the decoded snapshots cached.
func BenchmarkDesignAt_rev1000(b *testing.B) { benchDesignAt(b, 0) }

// The same with no cache: every open decodes its snapshot.
func BenchmarkDesignAt_rev1000_cold(b *testing.B) { benchDesignAt(b, 1) }

// dbBytes is the size of the database at path once its write-ahead log is checkpointed into it:
// pages in use times the page size, free pages left out.
func dbBytes(t testing.TB, s *Store) int64 {
	t.Helper()
	ctx := context.Background()
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	var pages, free, size int64
	for pragma, dst := range map[string]*int64{"page_count": &pages, "freelist_count": &free, "page_size": &size} {
		if err := s.w.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(dst); err != nil {
			t.Fatal(err)
		}
	}
	return (pages - free) * size
}

// A single-field change of the 350 KB design adds at most 2 KB to the database, counted over
// enough changes to include the snapshots taken among them.
func TestHistory_singleFieldChangeAddsAtMost2KB(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openWith(t, Options{})
	rec, _, err := s.Create(ctx, designertest.Large(largeSize), "alice")
	if err != nil {
		t.Fatal(err)
	}
	before := dbBytes(t, s)
	const changes = 256
	for i := range changes {
		if _, err := s.ApplyEdit(ctx, rec.ID, Edit{Change: cellEdit(i), Author: "bench"}); err != nil {
			t.Fatal(err)
		}
	}
	per := (dbBytes(t, s) - before) / changes
	t.Logf("%d bytes per single-field change, over %d changes", per, changes)
	if per > 2048 {
		t.Errorf("a single-field change adds %d bytes to the database, want at most 2048", per)
	}
}

// What the cache's measure of a record costs (memory.Size of the 350 KB design, decoded) beside
// decoding it, which every record and snapshot the cache measures has just cost.
func BenchmarkRecordMeasure_large(b *testing.B) {
	rec := Record{Design: designertest.Large(largeSize)}
	for b.Loop() {
		memory.Size(&rec)
	}
}

func BenchmarkRecordDecode_large(b *testing.B) {
	doc, err := designer.MarshalCompactJSON(designertest.Large(largeSize))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := decodeDesign(doc); err != nil {
			b.Fatal(err)
		}
	}
}
