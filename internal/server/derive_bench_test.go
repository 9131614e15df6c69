package server

import (
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// The sizes of issue 14's bars: validation at 10,000 items, 500 patterns and 100 GSIs (over 50
// tables, as the load test has them) and at twice that; a cell edit on a design of about 4 KB and on
// one of about 350 KB with 200 mapped patterns.
var (
	validationSize = designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500}
	validation2x   = designertest.Size{Tables: 100, Items: 20_000, GSIs: 200, Patterns: 1000}
	smallEditSize  = designertest.Size{Tables: 1, Items: 5, GSIs: 1, Patterns: 3}
	mediumEditSize = designertest.Size{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200}
)

// cpuTime is the CPU time this process has used: the server's work, whichever goroutine did it,
// and less disturbed than wall time by other processes on a busy machine.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// cpuMeter adds up the CPU time of the timed parts of a benchmark and reports it per operation.
type cpuMeter struct {
	total, start time.Duration
}

func (m *cpuMeter) begin() { m.start = cpuTime() }
func (m *cpuMeter) end()   { m.total += cpuTime() - m.start }
func (m *cpuMeter) report(b *testing.B) {
	b.ReportMetric(float64(m.total.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// createLarge stores designertest.Large(size) and returns it with its tokens.
func (a *testApp) createLarge(size designertest.Size) (createdDesign, designer.Design) {
	a.t.Helper()
	d := designertest.Large(size)
	raw, err := designer.MarshalJSON(d)
	if err != nil {
		a.t.Fatal(err)
	}
	return a.createJSON(string(raw)), d
}

// benchValidation times GET /validation of a design of size. With edit, each request follows one
// item cell edit stored without an answer (so nothing of the new revision has been derived yet);
// without, the design does not change between requests. uncached is the server without its Set
// of derived revisions: every request validates the whole design, as before issue 14.
func benchValidation(b *testing.B, size designertest.Size, edit, uncached bool) {
	a := newTestAppWith(b, Options{CreateLimit: NoLimit, WriteLimit: NoLimit, BodyLimit: 64 << 20})
	if uncached {
		a.srv.derived = nil
	}
	c, d := a.createLarge(size)
	tb := d.Tables[len(d.Tables)/2]
	path := "/api/designs/" + c.ViewToken + "/validation"
	get := func() {
		if rec := a.request(http.MethodGet, path, "", nil); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"findings"`) {
			b.Fatalf("validation: %d %.200s", rec.Code, rec.Body)
		}
	}
	get()
	var cpu cpuMeter
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if edit {
			b.StopTimer()
			ch := designer.SetItemCell{Table: tb.Name, ID: tb.Items[len(tb.Items)/2].ID, Attribute: "note", Text: fmt.Sprint("edit ", i)}
			if _, err := a.store.Apply(b.Context(), c.ID, "bench", ch, 0); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		cpu.begin()
		get()
		cpu.end()
	}
	cpu.report(b)
}

func BenchmarkValidationAPI_cold(b *testing.B) {
	b.Run("10k-items", func(b *testing.B) { benchValidation(b, validationSize, true, false) })
	b.Run("20k-items", func(b *testing.B) { benchValidation(b, validation2x, true, false) })
}

func BenchmarkValidationAPI_warm(b *testing.B) {
	b.Run("10k-items", func(b *testing.B) { benchValidation(b, validationSize, false, false) })
	b.Run("20k-items", func(b *testing.B) { benchValidation(b, validation2x, false, false) })
}

// BenchmarkValidationAPI_uncached is the anchor of the two above: every request validates the whole
// design, as every answer did before issue 14.
func BenchmarkValidationAPI_uncached(b *testing.B) {
	b.Run("10k-items", func(b *testing.B) { benchValidation(b, validationSize, true, true) })
}

// benchCellEdit times one item cell edit answered the whole way, on the step the editor has open:
// routing, the change, the durable write, the new revision's derived parts and the rendered answer
// with the side panel. The request is the one the page sends: from a tab, naming the revision the
// page shows (the last edit's) as its base. uncached is the server without its Set of derived
// revisions, which derives everything for every answer, as before issue 14.
func benchCellEdit(b *testing.B, size designertest.Size, uncached bool) {
	a := newTestApp(b)
	if uncached {
		a.srv.derived = nil
	}
	c, d := a.createLarge(size)
	tb := d.Tables[0]
	path := "/d/" + c.EditToken + "/items/cell"
	id := tb.Items[len(tb.Items)/2].ID
	// The editor has the step open: the first edit does not work out the whole design's side
	// panel for the first time.
	if rec := a.request(http.MethodGet, "/d/"+c.EditToken+"/tables?table="+tb.Name, "", nil); rec.Code != http.StatusOK {
		b.Fatalf("tables step: %d", rec.Code)
	}
	rev := "1"
	var cpu cpuMeter
	cpu.begin()
	for i := 0; b.Loop(); i++ {
		body := form("table", tb.Name, "id", id, "attribute", "note", "value", fmt.Sprint("edit ", i), "base_revision", rev)
		rec := a.request(http.MethodPost, path, formType, strings.NewReader(body), "HX-Request", "true", "X-Dynaloom-Tab", "benchtab0123456789")
		if rec.Code != http.StatusOK {
			b.Fatalf("edit: %d %.200s", rec.Code, rec.Body)
		}
		rev = rec.Header().Get("X-Dynaloom-Revision")
	}
	cpu.end()
	cpu.report(b)
}

func BenchmarkCellEditAnswer_small(b *testing.B)  { benchCellEdit(b, smallEditSize, false) }
func BenchmarkCellEditAnswer_medium(b *testing.B) { benchCellEdit(b, mediumEditSize, false) }

// BenchmarkCellEditAnswer_mediumUncached is the anchor of the one above: the same edit answered
// without the Set.
func BenchmarkCellEditAnswer_mediumUncached(b *testing.B) { benchCellEdit(b, mediumEditSize, true) }

// BenchmarkBareCommit is the anchor of a cell edit: one row of a few hundred bytes committed to a
// SQLite database in WAL mode with synchronous=FULL, through the same driver.
func BenchmarkBareCommit(b *testing.B) {
	db, err := sql.Open("sqlite3", filepath.Join(b.TempDir(), "bare.db")+"?_journal_mode=WAL&_synchronous=FULL")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE changes (n INTEGER PRIMARY KEY, change TEXT)`); err != nil {
		b.Fatal(err)
	}
	row := `{"kind":"set_item_cell","change":{"table":"Table00","id":"i3","attribute":"note","text":"` + strings.Repeat("x", 200) + `"}}`
	var cpu cpuMeter
	cpu.begin()
	for b.Loop() {
		if _, err := db.Exec(`INSERT INTO changes (change) VALUES (?)`, row); err != nil {
			b.Fatal(err)
		}
	}
	cpu.end()
	cpu.report(b)
}
