package storage

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
)

// openLogged opens the database at path with its log lines collected.
func openLogged(t *testing.T, path string, opts Options) (*Store, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	opts.Log = slog.New(slog.NewTextHandler(&logs, nil))
	s, err := OpenWith(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("Open: %v\n%s", err, logs.String())
	}
	t.Cleanup(func() { s.Close() })
	return s, &logs
}

// freshHealth forgets the cached probe, as if its few seconds had passed.
func freshHealth(s *Store) error {
	s.health.probeMu.Lock()
	s.health.probed = time.Time{}
	s.health.probeMu.Unlock()
	return s.Health(context.Background())
}

func copyTo(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// walSnapshot commits a design and then changes to it that stay in the write-ahead log (automatic
// checkpoints off), and copies the database and its log while the store still holds them open:
// what a disk holds when the machine stops at that moment. It returns the copy's path, the
// design's id and its last acknowledged revision.
func walSnapshot(t *testing.T, changes int) (string, string, int64) {
	t.Helper()
	ctx := context.Background()
	s, _ := openTemp(t)
	rec, _, err := s.Create(ctx, newDesign(t, "Logged"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
		t.Fatal(err)
	}
	for i := range changes {
		if rec, err = s.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "notes", Value: fmt.Sprint("change ", i)}, 0); err != nil {
			t.Fatal(err)
		}
	}
	copy := filepath.Join(t.TempDir(), "copy.db")
	copyTo(t, s.path, copy)
	copyTo(t, s.path+"-wal", copy+"-wal")
	return copy, rec.ID, rec.Revision
}

func TestOpen_damagedWALIsSetAsideLoggedAndReportedUntilMovedAway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path, id, acked := walSnapshot(t, 20)
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(binary.BigEndian.Uint32(wal[8:]))
	frames := (len(wal) - walHeaderSize) / (walFrameHeaderSize + pageSize)
	if frames < 20 {
		t.Fatalf("the log holds %d frames for 20 commits", frames)
	}
	// One bit of the third frame's page: a bad sector, a stray write.
	wal[walHeaderSize+2*(walFrameHeaderSize+pageSize)+walFrameHeaderSize+100] ^= 0x01
	if err := os.WriteFile(path+"-wal", wal, 0o600); err != nil {
		t.Fatal(err)
	}

	s, logs := openLogged(t, path, Options{})
	line := ""
	for l := range strings.Lines(logs.String()) {
		if strings.Contains(l, "write-ahead log is damaged") {
			line = l
		}
	}
	if !strings.Contains(line, "level=ERROR") || !strings.Contains(line, "wal_frames_valid=") ||
		!strings.Contains(line, fmt.Sprintf("wal_frames_dropped=%d", frames-2)) || !strings.Contains(line, "wal_copy=") {
		t.Fatalf("no error line naming the dropped frames; log:\n%s", logs.String())
	}
	aside, err := SetAside(path)
	if err != nil || len(aside) != 1 {
		t.Fatalf("set-aside logs = %v, %v; want one", aside, err)
	}
	if got, err := os.ReadFile(aside[0]); err != nil || !bytes.Equal(got, wal) {
		t.Fatalf("the set-aside log is not the log as it was before SQLite opened it (%v)", err)
	}
	dbCopies, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "copy.db.damaged-*"))
	if len(dbCopies) != 1 {
		t.Fatalf("database copies set aside: %v", dbCopies)
	}
	// What SQLite did with it: the changes after the damaged frame are gone from the database.
	if rec, err := s.Load(ctx, id); err != nil || rec.Revision >= acked {
		t.Fatalf("after opening: revision %d, %v; SQLite was expected to drop changes up to %d", rec.Revision, err, acked)
	}
	if err := freshHealth(s); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "write-ahead log") {
		t.Fatalf("Health = %v, want ErrDamaged naming the write-ahead log", err)
	}

	// The operator has salvaged what they could and moves the copies away.
	salvaged := t.TempDir()
	for _, f := range append(aside, dbCopies...) {
		if err := os.Rename(f, filepath.Join(salvaged, filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	if err := freshHealth(s); err != nil {
		t.Fatalf("Health after the copies were moved away = %v", err)
	}
}

func TestOpen_intactWALIsReplayedWithoutAlarm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path, id, acked := walSnapshot(t, 20)
	s, logs := openLogged(t, path, Options{})
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("error logged for an intact log:\n%s", logs.String())
	}
	if aside, _ := SetAside(path); len(aside) != 0 {
		t.Fatalf("set aside: %v", aside)
	}
	if rec, err := s.Load(ctx, id); err != nil || rec.Revision != acked {
		t.Fatalf("revision %d, %v; want %d", rec.Revision, err, acked)
	}
	if err := freshHealth(s); err != nil {
		t.Fatalf("Health = %v", err)
	}
}

func TestScanWAL_tornLastTransactionLosesNothingAcknowledged(t *testing.T) {
	t.Parallel()
	path, _, _ := walSnapshot(t, 5)
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	whole := scanWAL(wal)
	if whole.lost() || whole.valid != whole.frames || whole.badHeader {
		t.Fatalf("intact log scanned as %+v", whole)
	}
	// A crash while the last frame was being written leaves half a frame: never acknowledged.
	torn := scanWAL(wal[:len(wal)-100])
	if torn.lost() || torn.valid >= whole.valid {
		t.Fatalf("torn log scanned as %+v", torn)
	}
	// A damaged header makes SQLite ignore the whole log.
	bad := bytes.Clone(wal)
	bad[25] ^= 0x01
	if got := scanWAL(bad); !got.badHeader || !got.lost() || got.valid != 0 {
		t.Fatalf("log with a bad header checksum scanned as %+v", got)
	}
	// Header never synced: nothing in it was acknowledged.
	zero := bytes.Clone(wal)
	clear(zero[:walHeaderSize])
	if got := scanWAL(zero); got.lost() {
		t.Fatalf("log with a zero header scanned as %+v", got)
	}
}

func FuzzScanWAL(f *testing.F) {
	header := make([]byte, walHeaderSize)
	binary.BigEndian.PutUint32(header[0:], walMagicBE)
	binary.BigEndian.PutUint32(header[4:], walVersion)
	binary.BigEndian.PutUint32(header[8:], 512)
	f.Add(header)
	f.Add(append(bytes.Clone(header), make([]byte, walFrameHeaderSize+512)...))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		w := scanWAL(b)
		if w.valid > w.frames || w.dropped > w.frames || w.droppedCommits > w.dropped {
			t.Fatalf("inconsistent scan %+v of %d bytes", w, len(b))
		}
	})
}

func TestOpen_quickCheckFindsDamage_readsGoOnAndWritesAreRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	var ids []string
	for i := range 40 {
		rec, _, err := s.Create(ctx, bulkyDesign(t, fmt.Sprint("Design ", i)), "alice")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	s.Close()
	corruptLastPage(t, path)

	d, logs := openLogged(t, path, Options{})
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "database is damaged") || !strings.Contains(logs.String(), "check=quick_check") {
		t.Fatalf("no error line for the damage:\n%s", logs.String())
	}
	if err := d.Health(ctx); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Health = %v, want ErrDamaged", err)
	}
	// The damaged page holds some designs' rows; the others still open.
	sound := 0
	for _, id := range ids {
		if _, err := d.Load(ctx, id); err == nil {
			sound++
		}
	}
	if sound < len(ids)/2 {
		t.Errorf("%d of %d designs open on the damaged database, want the most of them", sound, len(ids))
	}
	if _, _, err := d.Create(ctx, newDesign(t, "More"), "alice"); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Create on a damaged database = %v, want ErrDamaged", err)
	}
	// Depending on which page the damage hits (design ids are random, so it varies), the full
	// check either lists problems or cannot read the file at all; both say damaged.
	problems, err := Check(ctx, path)
	if len(problems) == 0 && !errors.Is(err, ErrDamaged) {
		t.Fatalf("Check = %v, %v; want problems or ErrDamaged", problems, err)
	}
}

// bulkyDesign is a design with a kilobyte of notes that do not compress, so that a few of them
// fill pages.
func bulkyDesign(t *testing.T, name string) designer.Design {
	d := newDesign(t, name)
	for range 40 {
		d.Overview.Notes += rand.Text() + " "
	}
	return d
}

// corruptLastPage overwrites the last page of the closed database at path, which holds designs,
// not the schema.
func corruptLastPage(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(binary.BigEndian.Uint16(b[16:]))
	if len(b) < 8*pageSize {
		t.Fatalf("database of %d bytes is too small to damage only its data", len(b))
	}
	copy(b[len(b)-pageSize:], bytes.Repeat([]byte{0xff}, pageSize))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestWrite_fullDatabaseFailsWithErrFull_isLoggedOnceAndClearsAfterAWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "full.db")
	s, logs := openLogged(t, path, Options{})
	var pages, pageSize int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if err := s.w.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	if err := s.limitSize(ctx, (pages+4)*pageSize); err != nil {
		t.Fatal(err)
	}
	var stored []Record
	var err error
	for range 200 {
		var rec Record
		if rec, _, err = s.Create(ctx, bulkyDesign(t, "Filling"), "alice"); err != nil {
			break
		}
		stored = append(stored, rec)
	}
	if !errors.Is(err, ErrFull) {
		t.Fatalf("Create on a full database = %v, want ErrFull", err)
	}
	if _, _, err := s.Create(ctx, bulkyDesign(t, "Again"), "alice"); !errors.Is(err, ErrFull) {
		t.Fatalf("second Create = %v, want ErrFull", err)
	}
	if n := strings.Count(logs.String(), "database write failed"); n != 1 || !strings.Contains(logs.String(), `problem="database or disk is full"`) {
		t.Fatalf("%d error lines for two failed writes, want 1:\n%s", n, logs.String())
	}
	if err := freshHealth(s); !errors.Is(err, ErrFull) {
		t.Fatalf("Health = %v, want ErrFull", err)
	}
	for _, rec := range stored {
		if _, err := s.Load(ctx, rec.ID); err != nil {
			t.Fatalf("acknowledged design lost: %v", err)
		}
	}

	// Room again: the next write succeeds and health recovers.
	if err := s.limitSize(ctx, 1<<30); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Create(ctx, newDesign(t, "Room"), "alice"); err != nil {
		t.Fatal(err)
	}
	if err := freshHealth(s); err != nil {
		t.Fatalf("Health after a write succeeded = %v", err)
	}
	if !strings.Contains(logs.String(), "database writes succeed again") {
		t.Fatalf("recovery not logged:\n%s", logs.String())
	}
}

// makeImmutable makes path unwritable even for root (chattr +i), or skips the test where the file
// system or the user cannot.
func makeImmutable(t *testing.T, path string) {
	t.Helper()
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("cannot make a file read-only here: chattr: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
}

func TestWrite_readOnlyFileFailsWithErrReadOnlyAndHealthSaysSo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	rec, _, err := s.Create(ctx, newDesign(t, "Kept"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	makeImmutable(t, path)

	ro, logs := openLogged(t, path, Options{})
	if err := ro.Health(ctx); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Health before any write = %v, want ErrReadOnly", err)
	}
	if got, err := ro.Load(ctx, rec.ID); err != nil || got.Design.Name != "Kept" {
		t.Fatalf("reading a read-only database: %v", err)
	}
	if _, err := ro.Apply(ctx, rec.ID, "alice", designer.SetName{Name: "Changed"}, 0); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Apply = %v, want ErrReadOnly", err)
	}
	if !strings.Contains(logs.String(), `problem="database is read-only"`) {
		t.Fatalf("no error line:\n%s", logs.String())
	}
}
