package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/storage"
)

// newTestAppOn serves the database at path, with the store logging to the server's log.
func newTestAppOn(t *testing.T, path string, opts storage.Options) *testApp {
	t.Helper()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	opts.Log = log
	store, err := storage.OpenWith(t.Context(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := New(store, log, Options{CreateLimit: NoLimit, WriteLimit: NoLimit})
	return &testApp{t: t, srv: srv, store: store, logs: logs}
}

// migratedSize is the size of a freshly created, closed database.
func migratedSize(t *testing.T, path string) int64 {
	t.Helper()
	s, err := storage.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func healthzError(t *testing.T, a *testApp) (code, message string) {
	t.Helper()
	rec := a.request(http.MethodGet, "/healthz", "", nil)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("healthz: %d %s, want 503", rec.Code, rec.Body)
	}
	return decodeError(t, rec)
}

func TestStorageFull_editorsAreToldTheDiskIsFullAndHealthzSaysSo(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "full.db")
	a := newTestAppOn(t, path, storage.Options{MaxSize: migratedSize(t, path) + 16<<10})
	var rec *httptest.ResponseRecorder
	created := 0
	for range 500 {
		rec = a.request(http.MethodPost, "/api/designs", "application/json", strings.NewReader(`{"name": "Orders"}`))
		if rec.Code != http.StatusCreated {
			break
		}
		created++
	}
	if created == 0 || rec.Code != http.StatusInsufficientStorage {
		t.Fatalf("after %d designs: %d %s, want 507", created, rec.Code, rec.Body)
	}
	if code, msg := decodeError(t, rec); code != "storage_full" || !strings.Contains(msg, "disk is full") || !strings.Contains(msg, "Nothing was changed") {
		t.Fatalf("API error %s: %q", code, msg)
	}

	page := a.request(http.MethodPost, "/designs", formType, strings.NewReader(form("name", "From the home page")))
	if page.Code != http.StatusInsufficientStorage || !strings.Contains(page.Body.String(), "The server cannot save right now") ||
		!strings.Contains(page.Body.String(), "its disk is full") {
		t.Fatalf("page: %d %s", page.Code, page.Body)
	}

	if code, msg := healthzError(t, a); code != "storage_full" || !strings.Contains(msg, "full") {
		t.Fatalf("healthz: %s %q", code, msg)
	}
	if n := strings.Count(a.logs.String(), "database write failed"); n != 1 {
		t.Fatalf("the full database was logged %d times, want once:\n%s", n, a.logs.String())
	}
}

func TestStorageReadOnly_editorsAreToldAndHealthzSaysSo(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ro.db")
	first := newTestAppOn(t, path, storage.Options{})
	c := first.createJSON(`{"name": "Orders"}`)
	first.store.Close()
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("cannot make a file read-only here: chattr: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })

	a := newTestAppOn(t, path, storage.Options{})
	if code, msg := healthzError(t, a); code != "storage_read_only" || !strings.Contains(msg, "read-only") {
		t.Fatalf("healthz: %s %q", code, msg)
	}
	if got := a.request(http.MethodGet, "/api/designs/"+c.ViewToken, "", nil); got.Code != http.StatusOK {
		t.Fatalf("reading a read-only database: %d %s", got.Code, got.Body)
	}
	rec := a.hx("/d/"+c.EditToken+"/name", "name", "Renamed")
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "its database is read-only. Nothing was changed") {
		t.Fatalf("renaming: %d %s, want 503 saying the database is read-only", rec.Code, rec.Body)
	}
}

func TestHealthz_damagedWriteAheadLogSetAsideAnswers503UntilMovedAway(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "db.db")
	aside := path + "-wal.damaged-20250101T000000.000000000Z"
	if err := os.WriteFile(aside, []byte("a log SQLite could not replay"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newTestAppOn(t, path, storage.Options{})
	if code, msg := healthzError(t, a); code != "storage_damaged" || !strings.Contains(msg, "write-ahead log") {
		t.Fatalf("healthz: %s %q", code, msg)
	}
	if !strings.Contains(a.logs.String(), "still wait for an operator") {
		t.Fatalf("start-up did not log the waiting copy:\n%s", a.logs.String())
	}
}
