package storage

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// otherProcessEnv carries "path id name" to TestLoad_otherProcessWriter, run as a process of its
// own.
const otherProcessEnv = "DYNALOOM_STORAGE_OTHER_PROCESS"

// renameFromOtherProcess renames design id of the database at path from another process: this
// test binary running TestLoad_otherProcessWriter, with a Store of its own.
func renameFromOtherProcess(t *testing.T, path, id, name string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoad_otherProcessWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), otherProcessEnv+"="+path+"\n"+id+"\n"+name)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "renamed") {
		t.Fatalf("the other process: %v\n%s", err, out)
	}
}

// TestLoad_otherProcessWriter is the other process of TestLoad_seesWhatAnotherProcessCommitted.
func TestLoad_otherProcessWriter(t *testing.T) {
	t.Parallel()
	env := os.Getenv(otherProcessEnv)
	if env == "" {
		t.Skip("the other process of TestLoad_seesWhatAnotherProcessCommitted: runs only when that test starts it")
	}
	path, rest, _ := strings.Cut(env, "\n")
	id, name, _ := strings.Cut(rest, "\n")
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Apply(ctx, id, "other process", designer.SetName{Name: name}, 0); err != nil {
		t.Fatal(err)
	}
	fmt.Println("renamed")
}

// Load answers from its cache without asking SQLite while nothing was committed since it last
// knew the design's revision, and still gives what another process committed meanwhile: the
// wal-index header that tells it so changes with every commit of any process.
func TestLoad_seesWhatAnotherProcessCommitted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	rec, _, err := s.Create(ctx, newDesign(t, "Shared"), "ada")
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		if rec, err = s.Apply(ctx, rec.ID, "ada", designer.SetOverviewField{Field: "notes", Value: fmt.Sprint("round ", round)}, 0); err != nil {
			t.Fatal(err)
		}
		// The store knows its own commit was the only one: Load needs no query.
		h, ok := s.shm.header()
		if rev, known := s.fresh.revision(rec.ID, h); !ok || !known || rev != rec.Revision {
			t.Fatalf("round %d: after its own edit the store does not know revision %d is current (header read: %v, known: %v at %d)", round, rec.Revision, ok, known, rev)
		}
		if got, err := s.Load(ctx, rec.ID); err != nil || got.Revision != rec.Revision {
			t.Fatalf("round %d: Load after the store's own edit gives revision %d, %v; want %d", round, got.Revision, err, rec.Revision)
		}
		name := fmt.Sprint("Renamed elsewhere ", round)
		renameFromOtherProcess(t, path, rec.ID, name)
		got, err := s.Load(ctx, rec.ID)
		if err != nil || got.Revision != rec.Revision+1 || got.Design.Name != name {
			t.Fatalf("round %d: Load after another process renamed the design gives revision %d named %q, %v; want %d named %q",
				round, got.Revision, got.Design.Name, err, rec.Revision+1, name)
		}
		rec = got
	}
}

// A store's commit lets Load keep what it knew only when that commit is the one transaction
// between the headers read before and after it; another connection's commit in between, even to
// another table, makes it forget.
func TestFreshness_anotherCommitInBetweenIsNoticed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	other, err := sql.Open("sqlite3", fileURI(path)+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(ctx, `CREATE TABLE elsewhere (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	commit := func() walIndexHeader {
		t.Helper()
		if _, err := other.ExecContext(ctx, `INSERT INTO elsewhere VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		h, ok := s.shm.header()
		if !ok {
			t.Fatal("no wal-index header to read")
		}
		return h
	}
	h0 := commit()
	h1 := commit()
	h2 := commit()
	if !h1.oneCommitAfter(h0) || !h2.oneCommitAfter(h1) {
		t.Fatalf("one commit apart, the headers do not say so:\n%x\n%x\n%x", h0, h1, h2)
	}
	if h2.oneCommitAfter(h0) || h0.oneCommitAfter(h0) || h0.oneCommitAfter(h1) {
		t.Fatalf("two commits apart, or none, the headers say one")
	}
	var f freshness
	f.read("a", h0, 7)
	f.committed("b", h0, h1, true, 3)
	if rev, ok := f.revision("a", h1); !ok || rev != 7 {
		t.Errorf("after one commit of b, a is known at %d (%v), want 7", rev, ok)
	}
	if rev, ok := f.revision("b", h1); !ok || rev != 3 {
		t.Errorf("after its commit, b is known at %d (%v), want 3", rev, ok)
	}
	h3 := commit()
	f.committed("b", h1, h3, true, 4) // as if another commit came between b's and the header read
	for _, id := range []string{"a", "b"} {
		if rev, ok := f.revision(id, h3); ok {
			t.Errorf("after a commit it did not make, the store still trusts %s at revision %d", id, rev)
		}
	}
}

// A -shm file SQLite removed and made anew (as when the last connection closes and another
// opens) is read anew: the header of the removed one is never given again.
func TestWALIndex_aRemovedFileIsNotReadAgain(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "db-shm")
	write := func(change byte) walIndexHeader {
		t.Helper()
		var h walIndexHeader
		h[walIndexChange], h[walIndexIsInit] = change, 1
		if err := os.WriteFile(path, append(h[:], h[:]...), 0o600); err != nil {
			t.Fatal(err)
		}
		return h
	}
	w := walIndex{path: path}
	defer w.close()
	old := write(1)
	if h, ok := w.header(); !ok || h != old {
		t.Fatalf("the header as written: %x (%v), want %x", h, ok, old)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	renewed := write(2)
	for range 2 {
		if h, ok := w.header(); ok && h != renewed {
			t.Fatalf("after the file was made anew, the header read is %x, want %x", h, renewed)
		}
	}
	if h, ok := w.header(); !ok || h != renewed {
		t.Fatalf("the new file's header: %x (%v), want %x", h, ok, renewed)
	}
}

// A database opened through a symbolic link has its -shm file beside the file the link leads to,
// where SQLite keeps it: Load finds it there, and still sees another process's commit.
func TestLoad_throughASymbolicLink(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	link := filepath.Join(dir, "link.db")
	s, err := Open(ctx, real)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if s, err = Open(ctx, link); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, _, err := s.Create(ctx, newDesign(t, "Linked"), "ada")
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = s.Apply(ctx, rec.ID, "ada", designer.SetOverviewField{Field: "notes", Value: "one"}, 0); err != nil {
		t.Fatal(err)
	}
	if h, ok := s.shm.header(); !ok {
		t.Fatalf("no wal-index header read at %s", s.shm.path)
	} else if _, known := s.fresh.revision(rec.ID, h); !known {
		t.Fatal("after its own edit the store does not know the design's revision")
	}
	renameFromOtherProcess(t, real, rec.ID, "Renamed elsewhere")
	if got, err := s.Load(ctx, rec.ID); err != nil || got.Design.Name != "Renamed elsewhere" {
		t.Fatalf("Load after another process renamed the design: %q, %v", got.Design.Name, err)
	}
}
