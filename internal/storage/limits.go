package storage

import (
	"errors"
	"fmt"
	"strconv"

	"dynaloom/internal/designer"
)

// Limits bound what one design may hold, so that no client can fill the disk or the server's
// memory through one design. A zero field takes its default; a negative one means no bound.
type Limits struct {
	// DesignBytes bounds a design's stored document (compact design-json): 16 MiB.
	DesignBytes int64
	// ItemsPerTable bounds the sample items of one table: 25,000.
	ItemsPerTable int
	// Revisions bounds the history kept per design: 5,000 revisions. Past it, the oldest are
	// folded into one snapshot (compaction); the newest are always kept.
	Revisions int
	// SnapshotEvery is how many revisions at most lie between two snapshots of the whole
	// document of a design up to 64 KiB: 128. A larger design waits this many revisions per
	// 64 KiB of its document, up to 16 times as many (Store.SnapshotInterval), so that what a snapshot
	// costs each edit stays the same whatever the design's size: a snapshot's encoding grows with
	// the document (about 7 ms at 350 KB), and spread over 128 edits it cost an edit of a 350 KB
	// design a third of its commit. Opening a revision replays at most that many changes onto a
	// snapshot; replaying stays well under decoding the snapshot they start from (about 10 µs a
	// cell edit against 30 ns a byte of document). Negative takes no snapshots beyond the first.
	SnapshotEvery int
	// HistoryBytes bounds the stored history of one design, changes and snapshots: 128 MiB,
	// enforced by the same compaction.
	HistoryBytes int64
}

// The default limits leave a real design ample room: the largest real models seen have hundreds
// of patterns and thousands of items, a few MiB.
const (
	DefaultDesignBytes   = 16 << 20
	DefaultItemsPerTable = 25000
	DefaultRevisions     = 5000
	DefaultHistoryBytes  = 128 << 20
	DefaultSnapshotEvery = 128
)

func (l Limits) withDefaults() Limits {
	pick := func(n, def int64) int64 {
		switch {
		case n == 0:
			return def
		case n < 0:
			return 0
		}
		return n
	}
	l.DesignBytes = pick(l.DesignBytes, DefaultDesignBytes)
	l.ItemsPerTable = int(pick(int64(l.ItemsPerTable), DefaultItemsPerTable))
	l.Revisions = int(pick(int64(l.Revisions), DefaultRevisions))
	l.HistoryBytes = pick(l.HistoryBytes, DefaultHistoryBytes)
	l.SnapshotEvery = int(pick(int64(l.SnapshotEvery), DefaultSnapshotEvery))
	return l
}

// snapshotStretchBytes is how much document makes a design wait SnapshotEvery more revisions
// between two snapshots, and maxSnapshotStretch how many times SnapshotEvery it waits at most.
const (
	snapshotStretchBytes = 64 << 10
	maxSnapshotStretch   = 16
)

// snapshotInterval is how many revisions lie at most between two snapshots of a design whose
// document is docBytes long, under l with its defaults taken (SnapshotEvery); 0 when l takes
// none.
func (l Limits) snapshotInterval(docBytes int64) int64 {
	if l.SnapshotEvery <= 0 {
		return 0
	}
	return int64(l.SnapshotEvery) * min(max(docBytes/snapshotStretchBytes, 1), maxSnapshotStretch)
}

// SnapshotInterval is how many revisions lie at most between two snapshots of a design whose
// document is docBytes long (Limits.SnapshotEvery); 0 when the store takes none.
func (s *Store) SnapshotInterval(docBytes int64) int64 { return s.limits.snapshotInterval(docBytes) }

// ErrLimit reports a design that a change or an import would take past one of the Limits.
var ErrLimit = errors.New("over a limit")

// LimitError says which limit a refused design would pass, and by how much.
type LimitError struct {
	// Flag names the server option that sets the limit (--max-design-bytes).
	Flag string
	// Message says what would pass the limit, in words.
	Message string
}

func (e *LimitError) Error() string { return e.Message + " (" + e.Flag + ")" }
func (e *LimitError) Unwrap() error { return ErrLimit }

// check refuses a design whose stored document is docBytes long when it passes a limit.
func (l Limits) check(d designer.Design, docBytes int) error {
	if l.DesignBytes > 0 && int64(docBytes) > l.DesignBytes {
		return &LimitError{Flag: "--max-design-bytes", Message: fmt.Sprintf(
			"The design would take %s, more than the %s one design may take. Nothing was changed",
			mib(int64(docBytes)), mib(l.DesignBytes))}
	}
	if l.ItemsPerTable > 0 {
		for _, t := range d.Tables {
			if len(t.Items) > l.ItemsPerTable {
				return &LimitError{Flag: "--max-items-per-table", Message: fmt.Sprintf(
					"Table %s would hold %d sample items, more than the %d one table may hold. Nothing was changed",
					t.Name, len(t.Items), l.ItemsPerTable)}
			}
		}
	}
	return nil
}

// mib writes a byte count in MiB with one decimal.
func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
