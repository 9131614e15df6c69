package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"time"
)

// The write-ahead log's layout, from https://www.sqlite.org/fileformat2.html#walformat.
const (
	walHeaderSize      = 32
	walFrameHeaderSize = 24
	walMagicLE         = 0x377f0682 // checksums over little-endian words
	walMagicBE         = 0x377f0683 // checksums over big-endian words
	walVersion         = 3007000
)

// damagedSuffix marks the copies of a damaged log (and of the database beside it) that Open sets
// aside; the time of the copy follows it.
const damagedSuffix = ".damaged-"

// walScan is what a write-ahead log holds, judged the way SQLite's recovery judges it: frames are
// replayed in order up to the first one whose salts or cumulative checksum do not match, and only
// up to the last commit frame before that.
type walScan struct {
	frames int // whole frames in the file
	// valid is how many frames SQLite will replay.
	valid int
	// dropped counts the frames after the first bad one that carry this log's salts, so were
	// written after the log was last reset; droppedCommits counts the commits among them.
	dropped, droppedCommits int
	// badHeader is set when SQLite will ignore the whole log: wrong magic, version, page size or
	// header checksum.
	badHeader bool
	// unparsable is set when the header's page size is so wrong that the frames cannot be told
	// apart, so whatever the log holds is lost.
	unparsable bool
}

// lost says whether SQLite would discard a transaction that had committed.
func (w walScan) lost() bool { return w.droppedCommits > 0 || w.unparsable }

// walChecksum continues SQLite's WAL checksum (s0, s1) over b, whose length is a multiple of 8.
func walChecksum(order binary.ByteOrder, s0, s1 uint32, b []byte) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

// scanWAL judges the log in b.
func scanWAL(b []byte) walScan {
	var w walScan
	if len(b) < walHeaderSize {
		return w
	}
	be := binary.BigEndian
	var order binary.ByteOrder
	switch be.Uint32(b[0:]) {
	case walMagicLE:
		order = binary.LittleEndian
	case walMagicBE:
		order = binary.BigEndian
	}
	pageSize := int(be.Uint32(b[8:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	validPageSize := pageSize >= 512 && pageSize <= 65536 && pageSize&(pageSize-1) == 0
	if !validPageSize {
		w.badHeader = true
		// A header of zeros was never synced, so no commit in this log was ever acknowledged.
		w.unparsable = len(b) > walHeaderSize && !allZero(b[:walHeaderSize])
		return w
	}
	frameSize := walFrameHeaderSize + pageSize
	w.frames = (len(b) - walHeaderSize) / frameSize
	salt1, salt2 := be.Uint32(b[16:]), be.Uint32(b[20:])
	var s0, s1 uint32
	if order != nil {
		s0, s1 = walChecksum(order, 0, 0, b[:24])
	}
	w.badHeader = order == nil || be.Uint32(b[4:]) != walVersion || s0 != be.Uint32(b[24:]) || s1 != be.Uint32(b[28:])
	broken := w.badHeader
	for i := range w.frames {
		f := b[walHeaderSize+i*frameSize : walHeaderSize+(i+1)*frameSize]
		pgno, commit := be.Uint32(f[0:]), be.Uint32(f[4:])
		ours := be.Uint32(f[8:]) == salt1 && be.Uint32(f[12:]) == salt2
		if !broken {
			s0, s1 = walChecksum(order, s0, s1, f[:8])
			s0, s1 = walChecksum(order, s0, s1, f[walFrameHeaderSize:])
			if ours && pgno != 0 && s0 == be.Uint32(f[16:]) && s1 == be.Uint32(f[20:]) {
				if commit != 0 {
					w.valid = i + 1
				}
				continue
			}
			broken = true
		}
		if ours {
			w.dropped++
			if commit != 0 {
				w.droppedCommits++
			}
		}
	}
	return w
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// setAsideDamagedWAL looks at the write-ahead log of the database at path before SQLite opens it.
// When SQLite's recovery would drop committed transactions, it logs what will be lost and copies
// the log and the database aside (path-wal.damaged-TIME, path.damaged-TIME), so that an operator
// can still salvage them after SQLite has rewritten both. Health reports the copies until the
// operator moves them away. A log it cannot read is left to SQLite.
func setAsideDamagedWAL(path string, now time.Time, log *slog.Logger) error {
	walPath := path + "-wal"
	b, err := os.ReadFile(walPath)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(b) == 0) {
		return nil
	}
	if err != nil {
		log.Warn("write-ahead log unreadable before opening; leaving it to SQLite", "wal", walPath, "err", err)
		return nil
	}
	scan := scanWAL(b)
	if !scan.lost() {
		return nil
	}
	stamp := now.UTC().Format("20060102T150405.000000000Z")
	walAside := walPath + damagedSuffix + stamp
	dbAside := path + damagedSuffix + stamp
	if err := os.WriteFile(walAside, b, 0o600); err != nil {
		return fmt.Errorf("set the damaged write-ahead log aside: %w", err)
	}
	if err := copyFile(path, dbAside); errors.Is(err, fs.ErrNotExist) {
		dbAside = ""
	} else if err != nil {
		return fmt.Errorf("set the database beside a damaged write-ahead log aside: %w", err)
	}
	log.Error("write-ahead log is damaged: SQLite will drop committed changes; copies set aside, /healthz answers 503 until they are moved away",
		"db", path, "wal", walPath, "wal_frames", scan.frames, "wal_frames_valid", scan.valid,
		"wal_frames_dropped", scan.dropped, "wal_commits_dropped", scan.droppedCommits,
		"wal_header_bad", scan.badHeader, "wal_unparsable", scan.unparsable, "wal_copy", walAside, "db_copy", dbAside)
	return nil
}

// copyFile copies src to a new file dst and syncs it.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
