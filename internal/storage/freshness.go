package storage

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
)

// Whether the database changed since a moment, without asking SQLite. In WAL mode SQLite keeps
// the wal-index header at the start of the database's -shm file
// (https://www.sqlite.org/walformat.html#the_wal_index_file_format), and every commit rewrites
// it, by any connection of any process: its iChange counter grows by one per transaction, and the
// log's last frame, salts and checksums it holds change with it. Reading it is one file read,
// where the query that confirms a cached design is current (SELECT revision) takes a pooled
// connection, a read transaction and a statement: measured, a seventh of the CPU of a whole edit
// through the change API. So Load trusts its cache while the header is byte for byte what it was
// when the cache was last confirmed, and asks SQLite on any doubt: no -shm file, a header caught
// being rewritten, or a different one.

// walIndexHeaderBytes is the length of one copy of the wal-index header; SQLite keeps two, one
// after the other, and writes the second first, so that a reader who finds both equal has read a
// whole one.
const walIndexHeaderBytes = 48

// Offsets in the wal-index header (fields in the writer's native byte order).
const (
	walIndexChange = 8  // u32 iChange: transactions committed
	walIndexIsInit = 12 // u8 isInit: 1 once the header is written
	walIndexFrames = 16 // u32 mxFrame: the log's last valid frame
	walIndexSalts  = 32 // u32[2] aSalt: change whenever the log starts over
)

// walIndexHeader is one copy of the wal-index header.
type walIndexHeader [walIndexHeaderBytes]byte

// shmPath is where SQLite keeps the -shm file of the database at path: beside the file the path
// leads to, once symbolic links are followed, as SQLite follows them; "" when the path cannot be
// followed, and Load then always asks SQLite.
func shmPath(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	return real + "-shm"
}

// walIndex reads the wal-index header of one database. It keeps the -shm file open between
// reads; SQLite removes that file only when the last connection to the database closes, and
// makes a new one with the next, so a read from a file no longer linked is not trusted, and the
// file is opened anew.
type walIndex struct {
	path string // the -shm file
	mu   sync.Mutex
	f    *os.File
}

// header reads the wal-index header. ok is false when there is none to trust: no file, a header
// not written yet, one caught being rewritten, or a file SQLite has removed.
func (w *walIndex) header() (h walIndexHeader, ok bool) {
	if w.path == "" {
		return h, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		f, err := os.Open(w.path)
		if err != nil {
			return h, false
		}
		w.f = f
	}
	var both [2 * walIndexHeaderBytes]byte
	_, err := w.f.ReadAt(both[:], 0)
	// Asked after the read: a file still linked now was the live one when it was read.
	if err != nil || removed(w.f, w.path) {
		w.f.Close()
		w.f = nil
		return h, false
	}
	if !bytes.Equal(both[:walIndexHeaderBytes], both[walIndexHeaderBytes:]) || both[walIndexIsInit] != 1 {
		return h, false
	}
	copy(h[:], both[:walIndexHeaderBytes])
	return h, true
}

// close closes the -shm file, if it is open.
func (w *walIndex) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}

// oneCommitAfter reports whether exactly one transaction was committed between header before and
// header h, and the log did not start over in between.
func (h walIndexHeader) oneCommitAfter(before walIndexHeader) bool {
	count := func(h walIndexHeader, at int) uint32 { return binary.NativeEndian.Uint32(h[at:]) }
	return bytes.Equal(h[walIndexSalts:walIndexSalts+8], before[walIndexSalts:walIndexSalts+8]) &&
		count(h, walIndexChange) == count(before, walIndexChange)+1 &&
		count(h, walIndexFrames) > count(before, walIndexFrames)
}

// freshKept bounds freshness.revs: past it the map starts afresh.
const freshKept = 10_000

// freshness is what Load may trust without asking SQLite: the revision each design was at when
// the wal-index header was at, as confirmed by a read or by the store's own commit.
type freshness struct {
	mu   sync.Mutex
	at   walIndexHeader
	revs map[string]int64 // design id → its revision while the header is at
}

// revision is the revision of design id as of header h, when it is known.
func (f *freshness) revision(id string, h walIndexHeader) (int64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.at != h {
		return 0, false
	}
	rev, ok := f.revs[id]
	return rev, ok
}

// read notes that design id was at revision rev when the header was h, or later: h was read
// before the read that found rev.
func (f *freshness) read(id string, h walIndexHeader, rev int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.move(h, f.at == h)
	f.revs[id] = rev
}

// committed notes the store's own commit of revision rev of design id, between headers before
// (read inside its transaction) and after (read once it committed). Only when that commit is the
// one transaction between them are the designs known at before still known at after.
func (f *freshness) committed(id string, before, after walIndexHeader, ok bool, rev int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !ok || !after.oneCommitAfter(before) {
		f.move(walIndexHeader{}, false) // no header read has isInit unset: nothing is known
		return
	}
	f.move(after, f.at == before)
	f.revs[id] = rev
}

// move makes h the header the known revisions hold at, forgetting them unless keep is set.
func (f *freshness) move(h walIndexHeader, keep bool) {
	if !keep || f.revs == nil || len(f.revs) >= freshKept {
		f.revs = map[string]int64{}
	}
	f.at = h
}
