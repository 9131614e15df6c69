package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"dynaloom/internal/designer"
)

// TestBackup_whileWritersCommitHoldsEveryChangeAcknowledgedBeforeIt runs a backup while writers
// keep committing, then opens the backup and looks for every change acknowledged before it began.
func TestBackup_whileWritersCommitHoldsEveryChangeAcknowledgedBeforeIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	const writers = 4
	ids := make([]string, writers)
	acked := make([]atomic.Int64, writers)
	for w := range writers {
		rec, _, err := s.Create(ctx, newDesign(t, fmt.Sprint("Writer ", w)), "alice")
		if err != nil {
			t.Fatal(err)
		}
		ids[w] = rec.ID
		acked[w].Store(rec.Revision)
	}
	stop := make(chan struct{})
	warm := make(chan struct{}, writers)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				rev := acked[w].Load() + 1
				rec, err := s.Apply(ctx, ids[w], "writer", designer.SetOverviewField{Field: "notes", Value: fmt.Sprint("revision ", rev)}, rev-1)
				if err != nil {
					errs <- err
					return
				}
				acked[w].Store(rec.Revision)
				if i == 20 {
					warm <- struct{}{}
				}
			}
		})
	}
	for range writers {
		select {
		case <-warm:
		case err := <-errs:
			t.Fatal(err)
		}
	}
	before := make([]int64, writers)
	for w := range writers {
		before[w] = acked[w].Load()
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	err := Backup(ctx, path, dest)
	close(stop)
	wg.Wait()
	close(errs)
	if err != nil {
		t.Fatalf("Backup: %v", err)
	}
	for err := range errs {
		t.Fatal(err)
	}

	if problems, err := Check(ctx, dest); err != nil || len(problems) > 0 {
		t.Fatalf("the backup fails its integrity check: %v %v", problems, err)
	}
	b, _ := openLogged(t, dest, Options{})
	for w, id := range ids {
		rec, err := b.Load(ctx, id)
		if err != nil || rec.Revision < before[w] {
			t.Fatalf("writer %d: backup holds revision %d (%v); %d was acknowledged before the backup", w, rec.Revision, err, before[w])
		}
		d, err := b.DesignAt(ctx, id, before[w])
		if want := fmt.Sprint("revision ", before[w]); err != nil || d.Overview.Notes != want {
			t.Fatalf("writer %d at revision %d: notes %q (%v), want %q", w, before[w], d.Overview.Notes, err, want)
		}
		t.Logf("writer %d: %d acknowledged before the backup, %d in it, %d at the end", w, before[w], rec.Revision, acked[w].Load())
	}
}

func TestBackup_refusesToOverwrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	if _, _, err := s.Create(ctx, newDesign(t, "Once"), "alice"); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(dest, []byte("an older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Backup(ctx, path, dest); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Backup over an existing file = %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "an older backup" {
		t.Fatalf("the existing file was changed")
	}
	left, _ := filepath.Glob(dest + ".partial-*")
	if len(left) > 0 {
		t.Fatalf("temporary copies left behind: %v", left)
	}
	if err := Backup(ctx, filepath.Join(t.TempDir(), "missing.db"), filepath.Join(t.TempDir(), "b.db")); err == nil {
		t.Fatal("Backup of a missing database succeeded")
	}
}

func TestCheck_soundDamagedAndNotADatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	if _, _, err := s.Create(ctx, newDesign(t, "Sound"), "alice"); err != nil {
		t.Fatal(err)
	}
	if problems, err := Check(ctx, path); err != nil || len(problems) != 0 {
		t.Fatalf("Check of a sound database, open in a store = %v, %v", problems, err)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(other, []byte(fmt.Sprintf("%4096s", "not a database")), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(ctx, other); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Check of a text file = %v, want ErrDamaged", err)
	}
	if _, err := Check(ctx, filepath.Join(t.TempDir(), "missing.db")); err == nil || errors.Is(err, ErrDamaged) {
		t.Fatalf("Check of a missing file = %v, want an error that is not ErrDamaged", err)
	}
}
