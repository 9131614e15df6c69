package storage

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"dynaloom/internal/designer"
)

// crashLimits make compaction run often and snapshots come every few revisions, so that kills
// also land inside both.
var crashLimits = Limits{Revisions: 30, SnapshotEvery: 4}

// Twenty times over, a process with four concurrent writers on two designs is killed with
// SIGKILL at a random moment, compaction included. After each kill every acknowledged change is
// in the database (its revision, or a later one, holds; each acknowledged revision the history
// still holds replays to what was acknowledged), and the file passes integrity_check.
func TestCrash_killNineUnderConcurrentWritersLosesNothing(t *testing.T) {
	t.Parallel()
	if path := os.Getenv("DYNALOOM_KILL_CHILD"); path != "" {
		killChild(t, path, strings.Split(os.Getenv("DYNALOOM_KILL_IDS"), ","))
		return
	}
	if testing.Short() {
		t.Skip("kills 20 child processes; runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := OpenWith(ctx, path, Options{Limits: crashLimits})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, name := range []string{"One", "Two"} {
		rec, _, err := s.Create(ctx, newDesign(t, name), "setup")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	s.Close()

	type ack struct {
		rev   int64
		notes string
	}
	total := 0
	for round := range 20 {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrash_killNineUnderConcurrentWritersLosesNothing$")
		cmd.Env = append(os.Environ(), "DYNALOOM_KILL_CHILD="+path, "DYNALOOM_KILL_IDS="+strings.Join(ids, ","))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		want := 20 + (round*37)%60 // kill at a different moment each round
		acked := map[string][]ack{}
		n := 0
		sc := bufio.NewScanner(out)
		for n < want && sc.Scan() {
			f := strings.SplitN(sc.Text(), " ", 4)
			if len(f) != 4 || f[0] != "ack" {
				continue
			}
			rev, _ := strconv.ParseInt(f[2], 10, 64)
			acked[f[1]] = append(acked[f[1]], ack{rev, f[3]})
			n++
		}
		cmd.Process.Kill()
		go func() {
			for sc.Scan() {
			}
		}()
		cmd.Wait()
		if n < want {
			t.Fatalf("round %d: child gave %d acks before it stopped; stderr:\n%s", round, n, stderr.String())
		}
		total += n

		s, err := OpenWith(ctx, path, Options{Limits: crashLimits})
		if err != nil {
			t.Fatalf("round %d: reopen after the kill: %v", round, err)
		}
		var check string
		if err := s.w.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Fatalf("round %d: integrity_check %q, %v", round, check, err)
		}
		for id, list := range acked {
			cur, err := s.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var from int64
			if err := s.r.QueryRowContext(ctx, `SELECT history_from FROM designs WHERE id = ?`, id).Scan(&from); err != nil {
				t.Fatal(err)
			}
			for _, a := range list {
				if cur.Revision < a.rev {
					t.Fatalf("round %d: design at revision %d, older than acknowledged revision %d", round, cur.Revision, a.rev)
				}
				if a.rev < from {
					continue // folded into a snapshot since; its effect is in the later revisions
				}
				d, err := s.DesignAt(ctx, id, a.rev)
				if err != nil || d.Overview.Notes != a.notes {
					t.Fatalf("round %d: acknowledged revision %d: notes %q, want %q (%v)", round, a.rev, d.Overview.Notes, a.notes, err)
				}
			}
			// The current design was rebuilt from the newest snapshot (the store is fresh): the
			// figures kept beside it must still describe it.
			var docBytes int
			if err := s.r.QueryRowContext(ctx, `SELECT doc_bytes FROM designs WHERE id = ?`, id).Scan(&docBytes); err != nil {
				t.Fatal(err)
			}
			if doc, _ := designer.MarshalCompactJSON(cur.Design); docBytes != len(doc) {
				t.Fatalf("round %d: size figure %d for a document of %d", round, docBytes, len(doc))
			}
			if back := replayLength(t, s, id, cur.Revision); back >= int64(crashLimits.SnapshotEvery) {
				t.Fatalf("round %d: revision %d replays %d changes", round, cur.Revision, back)
			}
		}
		s.Close()
	}
	t.Logf("20 kills, %d acknowledged changes, none lost", total)
}

// killChild runs four writers on the given designs until it is killed, printing
// "ack <design> <revision> <notes>" once each change is committed. It stops by itself after a
// while in case the parent is gone.
func killChild(t *testing.T, path string, ids []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := OpenWith(ctx, path, Options{Limits: crashLimits})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for w := range 4 {
		wg.Go(func() {
			id := ids[w%len(ids)]
			for i := 0; ctx.Err() == nil; i++ {
				notes := fmt.Sprintf("writer %d change %d", w, i)
				rec, err := s.Apply(ctx, id, "child", designer.SetOverviewField{Field: "notes", Value: notes}, 0)
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					t.Error(err)
					return
				}
				mu.Lock()
				fmt.Printf("ack %s %d %s\n", id, rec.Revision, notes)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
