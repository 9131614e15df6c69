package storage

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/memory"
	"dynaloom/migrations"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dynaloom.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func newDesign(t testing.TB, name string) designer.Design {
	t.Helper()
	d, err := designer.New(name)
	if err != nil {
		t.Fatalf("designer.New: %v", err)
	}
	return d
}

func mustJSON(t testing.TB, d designer.Design) []byte {
	t.Helper()
	b, err := designer.MarshalJSON(d)
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	return b
}

func TestCreateAndTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if len(rec.ID) != 16 || rec.Revision != 1 || rec.Design.Name != "Orders" {
		t.Fatalf("Create returned %+v", rec)
	}
	if len(tok.Edit) < 26 || len(tok.View) < 26 || tok.Edit == tok.View {
		t.Fatalf("weak or equal tokens: %d and %d characters", len(tok.Edit), len(tok.View))
	}

	for _, tc := range []struct {
		token string
		want  Access
	}{{tok.Edit, EditAccess}, {tok.View, ViewAccess}} {
		id, access, err := s.Resolve(ctx, tc.token)
		if err != nil || id != rec.ID || access != tc.want {
			t.Errorf("Resolve(%v token) = %q, %v, %v; want %q, %v", tc.want, id, access, err, rec.ID, tc.want)
		}
	}
	for name, bad := range map[string]string{
		"empty":      "",
		"short":      tok.Edit[:25],
		"long":       tok.Edit + "A",
		"lower case": strings.ToLower(tok.Edit),
		"alphabet":   "0" + tok.Edit[1:],
		"unknown":    rand.Text(),
	} {
		if _, _, err := s.Resolve(ctx, bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%s) error = %v, want ErrNotFound", name, err)
		}
	}

	view, err := s.ViewToken(ctx, rec.ID, tok.Edit)
	if err != nil || view != tok.View {
		t.Errorf("ViewToken(edit token) = %v, %v; want the view token", view != "", err)
	}
	other, otherTok, err := s.Create(ctx, newDesign(t, "Other"), "bob")
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	for name, c := range map[string]struct{ id, token string }{
		"view token":            {rec.ID, tok.View},
		"unknown token":         {rec.ID, rand.Text()},
		"malformed token":       {rec.ID, "nope"},
		"other design's token":  {rec.ID, otherTok.Edit},
		"token for another id":  {other.ID, tok.Edit},
		"unknown design, token": {"0000000000000000", tok.Edit},
	} {
		if got, err := s.ViewToken(ctx, c.id, c.token); !errors.Is(err, ErrNotFound) || got != "" {
			t.Errorf("ViewToken with %s = %q, %v; want ErrNotFound", name, got, err)
		}
	}

	// A revoked token resolves to nothing, and a revoked edit token no longer opens the view token.
	// The revocation is written behind the store's back, as another process would write it, so
	// the store sees it once what it keeps of the token is tokenRecheck old (RotateToken's own
	// revocations apply at once: TestResolve_keptTokensFollowRotationAndExpiry).
	if _, err := s.w.ExecContext(ctx, `UPDATE tokens SET revoked_at = ? WHERE hash = ?`, formatTime(time.Now()), hashToken(otherTok.Edit)); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(tokenRecheck)
	s.tokens.now = func() time.Time { return later }
	if _, _, err := s.Resolve(ctx, otherTok.Edit); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resolve(revoked) error = %v, want ErrNotFound", err)
	}
	if _, err := s.ViewToken(ctx, other.ID, otherTok.Edit); !errors.Is(err, ErrNotFound) {
		t.Errorf("ViewToken(revoked edit token) error = %v, want ErrNotFound", err)
	}

	// Neither plaintext token is anywhere in the database files, open or closed.
	checkFiles := func(when string) {
		t.Helper()
		found := false
		for _, suffix := range []string{"", "-wal", "-shm"} {
			data, err := os.ReadFile(path + suffix)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if suffix == "" && len(data) == 0 {
				t.Fatalf("%s: database file is empty", when)
			}
			for _, tk := range []string{tok.Edit, tok.View, otherTok.Edit, otherTok.View} {
				if bytes.Contains(data, []byte(tk)) || bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(tk))) {
					t.Errorf("%s: a plaintext token is in %s", when, filepath.Base(path+suffix))
				}
			}
			found = found || bytes.Contains(data, []byte(rec.ID))
		}
		if !found {
			t.Errorf("%s: the design id is in no database file; the search looked in the wrong place", when)
		}
	}
	checkFiles("open")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkFiles("closed")
}

func TestCreateRefusesInvalidDesign(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	_, _, err := s.Create(context.Background(), designer.Design{Name: "  "}, "alice")
	var ve *designer.ValidationError
	if !errors.As(err, &ve) || ve.Field != "name" {
		t.Fatalf("Create(empty name) error = %v, want a ValidationError on name", err)
	}
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM designs`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("designs stored after a refused create: %d, %v", n, err)
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	created, _, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	id := created.ID

	rec, err := s.Apply(ctx, id, "bob", designer.SetOverviewField{Field: "scale", Value: "10k users, 500 rps"}, 0)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if rec.Revision != 2 || rec.Design.Overview.Scale != "10k users, 500 rps" || !rec.CreatedAt.Equal(created.CreatedAt) {
		t.Fatalf("Apply returned %+v", rec)
	}
	rec, err = s.Apply(ctx, id, "carol", designer.SetName{Name: "Orders v2"}, 2)
	if err != nil {
		t.Fatalf("Apply with the current revision: %v", err)
	}
	if rec.Revision != 3 || rec.Design.Name != "Orders v2" || rec.Design.Overview.Scale == "" {
		t.Fatalf("Apply returned %+v", rec)
	}

	// Refused changes store nothing.
	refused := []struct {
		name   string
		change designer.Change
		rev    int64
		check  func(error) bool
	}{
		{"empty name", designer.SetName{Name: ""}, 0, func(err error) bool {
			var ve *designer.ValidationError
			return errors.As(err, &ve) && ve.Field == "name"
		}},
		{"unknown field", designer.SetOverviewField{Field: "colour", Value: "x"}, 3, func(err error) bool {
			var ve *designer.ValidationError
			return errors.As(err, &ve) && ve.Field == "field"
		}},
		{"stale", designer.SetName{Name: "Late"}, 2, func(err error) bool { return errors.Is(err, ErrStale) }},
		{"future revision", designer.SetName{Name: "Early"}, 9, func(err error) bool { return errors.Is(err, ErrStale) }},
	}
	for _, r := range refused {
		got, err := s.Apply(ctx, id, "mallory", r.change, r.rev)
		if err == nil || !r.check(err) || got.ID != "" {
			t.Errorf("Apply(%s) = %+v, %v", r.name, got, err)
		}
	}
	if _, err := s.Apply(ctx, "0000000000000000", "bob", designer.SetName{Name: "X"}, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("Apply to an unknown design: %v, want ErrNotFound", err)
	}

	// Drop the cache so Load decodes what is stored.
	s.cache = newRecordCache(memory.NewBudget(DefaultCacheBytes))
	loaded, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Revision != 3 || !bytes.Equal(mustJSON(t, loaded.Design), mustJSON(t, rec.Design)) ||
		!loaded.UpdatedAt.Equal(rec.UpdatedAt) || !loaded.CreatedAt.Equal(created.CreatedAt) {
		t.Fatalf("Load after refused changes = %+v, want %+v", loaded, rec)
	}

	revs, err := s.Revisions(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 3 {
		t.Fatalf("Revisions: %d rows, want 3: %+v", len(revs), revs)
	}
	want := []Revision{
		{Revision: 3, Author: "carol", Kind: "set_name", Summary: `Renamed the design to "Orders v2"`, Paths: []designer.Path{"name"}},
		{Revision: 2, Author: "bob", Kind: "set_overview_field", Summary: "Edited the overview's scale", Paths: []designer.Path{"overview/scale"}},
		{Revision: 1, Author: "alice", Kind: "create", Summary: "Created the design", Paths: []designer.Path{""}},
	}
	for i, w := range want {
		g := revs[i]
		if g.Revision != w.Revision || g.Author != w.Author || g.Kind != w.Kind || g.Summary != w.Summary ||
			!slices.Equal(g.Paths, w.Paths) || g.At.IsZero() || g.At.Location() != time.UTC {
			t.Errorf("revision row %d = %+v, want %+v", i, g, w)
		}
	}

	at1, err := s.DesignAt(ctx, id, 1)
	if err != nil || !bytes.Equal(mustJSON(t, at1), mustJSON(t, created.Design)) {
		t.Errorf("DesignAt(1) = %v; want the created design", err)
	}
	at2, err := s.DesignAt(ctx, id, 2)
	if err != nil || at2.Name != "Orders" || at2.Overview.Scale != "10k users, 500 rps" {
		t.Errorf("DesignAt(2) = %+v, %v", at2, err)
	}
	for _, r := range []int64{0, -1, 4} {
		if _, err := s.DesignAt(ctx, id, r); !errors.Is(err, ErrNotFound) {
			t.Errorf("DesignAt(%d) error = %v, want ErrNotFound", r, err)
		}
	}
	if _, err := s.Load(ctx, "0000000000000000"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load(unknown) error = %v, want ErrNotFound", err)
	}
	if _, err := s.Revisions(ctx, "0000000000000000"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Revisions(unknown) error = %v, want ErrNotFound", err)
	}
}

// Two stores on one file: each one's cache goes stale when the other writes, and Apply must notice.
func TestApplySeesOtherWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s1, path := openTemp(t)
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rec, _, err := s1.Create(ctx, newDesign(t, "Shared"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Apply(ctx, rec.ID, "bob", designer.SetOverviewField{Field: "domain", Value: "retail"}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s1.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "notes", Value: "hi"}, 1); !errors.Is(err, ErrStale) {
		t.Fatalf("Apply against revision 1 after another store wrote 2: %v, want ErrStale", err)
	}
	got, err := s1.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "notes", Value: "hi"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Revision != 3 || got.Design.Overview.Domain != "retail" || got.Design.Overview.Notes != "hi" {
		t.Fatalf("Apply on a stale cache lost the other store's change: %+v", got.Design.Overview)
	}
	loaded, err := s2.Load(ctx, rec.ID)
	if err != nil || loaded.Revision != 3 || loaded.Design.Overview.Notes != "hi" {
		t.Fatalf("other store's Load = %+v, %v", loaded, err)
	}
}

// A store remembers a design's row as its last edit wrote it, instead of reading it for each edit.
// When another store wrote meanwhile, an edit must still be judged against the newest revision:
// neither refused as stale nor refused because of what it refers to, nor stored over the other
// store's change.
func TestApplyAfterAnotherStoreWroteOverWhatItRemembers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s1, path := openTemp(t)
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rec, _, err := s1.Create(ctx, newDesign(t, "Shared"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s1.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "notes", Value: "one"}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Apply(ctx, rec.ID, "bob", designer.AddTable{Name: "Orders", PartitionKey: "pk"}, 2); err != nil {
		t.Fatal(err)
	}
	// Against revision 3, the newest, though s1's last edit made 2; on the table s2 added.
	got, err := s1.Apply(ctx, rec.ID, "alice", designer.AddTable{Name: "Orders", PartitionKey: "pk"}, 3)
	if err == nil || errors.Is(err, ErrStale) {
		t.Fatalf("adding a table s2 added = %v, want the design's refusal of a second Orders", err)
	}
	got, err = s1.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "domain", Value: "retail"}, 3)
	if err != nil {
		t.Fatalf("an edit against the newest revision, made after another store wrote: %v", err)
	}
	if got.Revision != 4 || len(got.Design.Tables) != 1 || got.Design.Overview.Notes != "one" || got.Design.Overview.Domain != "retail" {
		t.Fatalf("after the edit: revision %d, %d tables, overview %+v", got.Revision, len(got.Design.Tables), got.Design.Overview)
	}
	if _, err := s1.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "notes", Value: "two"}, 3); !errors.Is(err, ErrStale) {
		t.Fatalf("an edit against revision 3 once 4 is stored: %v, want ErrStale", err)
	}
	loaded, err := s2.Load(ctx, rec.ID)
	if err != nil || loaded.Revision != 4 || len(loaded.Design.Tables) != 1 || loaded.Design.Overview.Domain != "retail" {
		t.Fatalf("the other store's Load = revision %d, %+v, %v", loaded.Revision, loaded.Design.Overview, err)
	}
	revs, err := s1.Revisions(ctx, rec.ID)
	if err != nil || len(revs) != 4 {
		t.Fatalf("history has %d revisions (%v), want 4", len(revs), err)
	}
}

func TestReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if rec, err = s.Apply(ctx, rec.ID, "alice", designer.SetOverviewField{Field: "notes", Value: fmt.Sprint("note ", i)}, rec.Revision); err != nil {
			t.Fatal(err)
		}
	}
	revs, err := s.Revisions(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	for round := range 2 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen %d: %v", round, err)
		}
		loaded, err := s.Load(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Revision != 4 || !bytes.Equal(mustJSON(t, loaded.Design), mustJSON(t, rec.Design)) ||
			!loaded.UpdatedAt.Equal(rec.UpdatedAt) || !loaded.CreatedAt.Equal(rec.CreatedAt) {
			t.Errorf("reopen %d: Load = %+v, want %+v", round, loaded, rec)
		}
		again, err := s.Revisions(ctx, rec.ID)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(revs) {
			t.Errorf("reopen %d: Revisions = %v, %v; want %v", round, again, err, revs)
		}
		if id, access, err := s.Resolve(ctx, tok.Edit); err != nil || id != rec.ID || access != EditAccess {
			t.Errorf("reopen %d: Resolve(edit) = %q, %v, %v", round, id, access, err)
		}
		if view, err := s.ViewToken(ctx, rec.ID, tok.Edit); err != nil || view != tok.View {
			t.Errorf("reopen %d: ViewToken failed: %v", round, err)
		}
		var applied int
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil || applied != len(files) {
			t.Errorf("reopen %d: %d migrations recorded (%v), want %d", round, applied, err, len(files))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrationGuards(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, tamper := range map[string]string{
		"edited":  `UPDATE schema_migrations SET checksum = 'x' WHERE version = 1`,
		"too new": `INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, '9999_future.sql', 'x', 'now')`,
	} {
		t.Run(name, func(t *testing.T) {
			s, path := openTemp(t)
			if _, err := s.w.ExecContext(ctx, tamper); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if s, err := Open(ctx, path); err == nil {
				s.Close()
				t.Fatal("Open accepted a database with tampered migrations")
			}
		})
	}
}

func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	rec, tok, err := s.Create(ctx, newDesign(t, "Busy"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each+1)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				var c designer.Change = designer.SetOverviewField{
					Field: designer.OverviewFields[(w+i)%len(designer.OverviewFields)].Key,
					Value: fmt.Sprintf("writer %d edit %d", w, i),
				}
				if i%5 == 4 {
					c = designer.SetName{Name: fmt.Sprintf("Busy %d.%d", w, i)}
				}
				if _, err := s.Apply(ctx, rec.ID, fmt.Sprint("writer ", w), c, 0); err != nil {
					errs <- err
				}
			}
		})
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Go(func() { // readers run alongside the writers
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Load(ctx, rec.ID); err != nil {
				errs <- fmt.Errorf("Load during writes: %w", err)
			}
			if _, _, err := s.Resolve(ctx, tok.View); err != nil {
				errs <- fmt.Errorf("Resolve during writes: %w", err)
			}
		}
	})
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	const want = 1 + writers*each
	loaded, err := s.Load(ctx, rec.ID)
	if err != nil || loaded.Revision != want {
		t.Fatalf("Load = revision %d, %v; want %d", loaded.Revision, err, want)
	}
	revs, err := s.Revisions(ctx, rec.ID)
	if err != nil || len(revs) != want {
		t.Fatalf("Revisions = %d rows, %v; want %d", len(revs), err, want)
	}
	for i, r := range revs {
		if r.Revision != int64(want-i) {
			t.Fatalf("history row %d is revision %d, want %d", i, r.Revision, want-i)
		}
	}
	replayed, err := s.DesignAt(ctx, rec.ID, want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustJSON(t, replayed), mustJSON(t, loaded.Design)) {
		t.Errorf("replayed design differs from the stored one:\n%s\nvs\n%s", mustJSON(t, replayed), mustJSON(t, loaded.Design))
	}
	// And what is stored on disk (not the cache) matches as well.
	fresh, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	disk, err := fresh.Load(ctx, rec.ID)
	if err != nil || !bytes.Equal(mustJSON(t, disk.Design), mustJSON(t, loaded.Design)) {
		t.Errorf("stored document differs from the cached one (%v)", err)
	}
}

// TestCrashBetweenWriteAndAck kills a writer process with SIGKILL while it is applying changes and
// checks that every change it acknowledged survived.
func TestCrashBetweenWriteAndAck(t *testing.T) {
	t.Parallel()
	if path := os.Getenv("DYNALOOM_CRASH_CHILD"); path != "" {
		crashChild(t, path, os.Getenv("DYNALOOM_CRASH_ID"))
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := s.Create(ctx, newDesign(t, "Crash"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashBetweenWriteAndAck$")
	cmd.Env = append(os.Environ(), "DYNALOOM_CRASH_CHILD="+path, "DYNALOOM_CRASH_ID="+rec.ID)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const wantAcks = 30
	var acked []int64
	sc := bufio.NewScanner(out)
	for len(acked) < wantAcks && sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
			rev, err := strconv.ParseInt(n, 10, 64)
			if err != nil {
				t.Fatalf("child printed %q", sc.Text())
			}
			acked = append(acked, rev)
		}
	}
	cmd.Process.Kill() // SIGKILL; the child is most likely inside its next Apply
	go func() {        // drain, so Wait does not block on a full pipe
		for sc.Scan() {
		}
	}()
	cmd.Wait()
	if len(acked) < wantAcks {
		t.Fatalf("child gave %d acks before it stopped (%v); stderr:\n%s", len(acked), ctx.Err(), stderr.String())
	}

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen after the crash: %v", err)
	}
	defer s.Close()
	cur, err := s.Load(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := acked[len(acked)-1]
	if cur.Revision < last {
		t.Fatalf("stored revision %d is older than the last acknowledged revision %d", cur.Revision, last)
	}
	for _, rev := range acked {
		d, err := s.DesignAt(ctx, rec.ID, rev)
		if err != nil {
			t.Fatalf("acknowledged revision %d: %v", rev, err)
		}
		if want := fmt.Sprint("revision ", rev); d.Overview.Notes != want {
			t.Errorf("revision %d has notes %q, want %q", rev, d.Overview.Notes, want)
		}
	}
	revs, err := s.Revisions(ctx, rec.ID)
	if err != nil || int64(len(revs)) != cur.Revision {
		t.Fatalf("history has %d rows (%v) for revision %d", len(revs), err, cur.Revision)
	}
	replayed, err := s.DesignAt(ctx, rec.ID, cur.Revision)
	if err != nil || !bytes.Equal(mustJSON(t, replayed), mustJSON(t, cur.Design)) {
		t.Fatalf("replay of revision %d differs from the stored state (%v)", cur.Revision, err)
	}
	t.Logf("%d acks, last %d; stored revision %d", len(acked), last, cur.Revision)
}

// crashChild applies changes until it is killed, printing "ack N" once revision N is committed.
// It stops by itself after a while in case the parent is gone.
func crashChild(t *testing.T, path, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, err := s.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for ctx.Err() == nil {
		next := rec.Revision + 1
		rec, err = s.Apply(ctx, id, "child", designer.SetOverviewField{Field: "notes", Value: fmt.Sprint("revision ", next)}, rec.Revision)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			t.Fatal(err)
		}
		fmt.Printf("ack %d\n", rec.Revision)
	}
}

func BenchmarkApply(b *testing.B) {
	ctx := context.Background()
	s, _ := openTemp(b)
	rec, _, err := s.Create(ctx, newDesign(b, "Bench"), "alice")
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if _, err := s.Apply(ctx, rec.ID, "bench", designer.SetOverviewField{Field: "notes", Value: strconv.Itoa(i)}, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	ctx := context.Background()
	s, _ := openTemp(b)
	_, tok, err := s.Create(ctx, newDesign(b, "Bench"), "alice")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := s.Resolve(ctx, tok.View); err != nil {
			b.Fatal(err)
		}
	}
}

func TestConnectionSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	for name, db := range map[string]interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}{"writer": s.w, "reader": s.r} {
		var journal string
		var fk, sync, busy int
		if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&journal); err != nil || journal != "wal" {
			t.Errorf("%s: journal_mode = %q, %v", name, journal, err)
		}
		if err := db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
			t.Errorf("%s: foreign_keys = %d, %v", name, fk, err)
		}
		if err := db.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil || sync != 2 {
			t.Errorf("%s: synchronous = %d, %v; want 2 (FULL)", name, sync, err)
		}
		if err := db.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busy); err != nil || busy != 5000 {
			t.Errorf("%s: busy_timeout = %d, %v", name, busy, err)
		}
	}
	if _, err := s.r.ExecContext(ctx, `DELETE FROM designs`); err == nil {
		t.Error("the reader pool accepted a write")
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO tokens (hash, design_id, access, created_at) VALUES (zeroblob(32), 'nope', 'view', 'now')`); err == nil {
		t.Error("a token for a missing design was accepted: foreign keys are off")
	}
}

func TestOpenOddPath(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a b?c#d%20")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "x.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Create(ctx, newDesign(t, "Odd"), "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the given path: %v", err)
	}
}

// A new edit is checked as well as applied (designer.CheckChange): a move of a box the diagram
// does not draw is refused, naming its field, and stores nothing.
func TestApply_checksANewEdit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	created, _, err := s.Create(ctx, designertest.Large(smallSize), "alice")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply(ctx, created.ID, "bob", designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Nope", X: 1, Y: 2}, 0)
	var ve *designer.ValidationError
	if !errors.As(err, &ve) || ve.Field != "node" {
		t.Fatalf("moving a box the map does not draw: error = %v, want a ValidationError on node", err)
	}
	rec, err := s.Load(ctx, created.ID)
	if err != nil || rec.Revision != created.Revision {
		t.Fatalf("after the refused move the design is at revision %d (%v), want %d", rec.Revision, err, created.Revision)
	}
	if _, err := s.Apply(ctx, created.ID, "bob", designer.MoveDiagramNode{Diagram: designer.ModelMap, Node: "table:Table00", X: 1, Y: 2}, 0); err != nil {
		t.Fatalf("moving a table the map draws: %v", err)
	}
}
