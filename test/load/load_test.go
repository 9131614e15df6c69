// Package load holds the load test of issue 14. It starts the real server on a loopback port with
// a real database in a temporary directory, measures what an edit, a validation, the big steps, the
// history and the live updates cost on designs from designertest.Large, each beside an anchor
// measured in the same run, and prints a table of every figure, its anchor, their ratio and the
// issue's bar. It is bounded in count and time (every loop has a cap, the whole run under five
// minutes), stops by itself, and runs only when asked:
//
//	go test ./test/load -run TestLoad -load -v
//
// and -load.edits runs only its first section, the cell edits (under a minute).
//
// Edit → verdict is timed beside dynalite, installed with `npm ci --prefix test/oracle`; without
// it that row says why it is missing.
package load

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/server"
	"dynaloom/internal/storage"
)

var (
	enabled   = flag.Bool("load", false, "run the load test (loopback only, a few minutes)")
	editsOnly = flag.Bool("load.edits", false, "with -load, run only the cell edit section (under a minute)")
)

// The designs measured, as issue 14 names them.
var (
	smallSize   = designertest.Size{Tables: 1, Items: 5, GSIs: 1, Patterns: 3}             // about 4 KB
	mediumSize  = designertest.Size{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200}        // about 350 KB, 200 mapped patterns
	bigSize     = designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500}   // validation and the Mapping step
	doubledSize = designertest.Size{Tables: 100, Items: 20_000, GSIs: 200, Patterns: 1000} // validation, doubled
	oneBigTable = designertest.Size{Tables: 1, Items: 10_000, GSIs: 5}                     // the Tables step
	verdictSize = designertest.Size{Tables: 4, Items: 30, GSIs: 8, Patterns: 15}           // edit → verdict
	revisions   = 1000                                                                     // history depth
	listeners   = 50                                                                       // live fan-out
	joiningTabs = 200                                                                      // tabs joining one design
	dynaliteCLI = filepath.Join("..", "oracle", "node_modules", "dynalite", "cli.js")      // test/oracle's
	maxRun      = 5 * time.Minute                                                          // the whole run
	revisionRE  = regexp.MustCompile(`data-revision="(\d+)"`)                              // the side panel's revision
	formType    = "application/x-www-form-urlencoded"                                      // the pages' edit forms
	noLimits    = server.Options{WriteLimit: server.NoLimit, CreateLimit: server.NoLimit, CostlyLimit: server.NoLimit, WriteBytesLimit: server.NoLimit}
)

func TestLoad(t *testing.T) {
	if !*enabled {
		t.Skip("load test: runs only with -load (go test ./test/load -run TestLoad -load -v); it takes a few minutes of both cores")
	}
	ctx, cancel := context.WithTimeout(context.Background(), maxRun)
	defer cancel()
	a := start(t, ctx)
	var rep report

	commit := anchorCommit(t)
	rep.note("anchor: bare SQLite WAL commit of one 200-byte row (synchronous=FULL, mattn/go-sqlite3), %d commits", len(commit.wall))

	small := a.create(t, designertest.Large(smallSize))
	medium := a.create(t, designertest.Large(mediumSize))
	rep.note("small design %+v: %s of design-json; medium %+v: %s", smallSize, kb(small.bytes), mediumSize, kb(medium.bytes))

	// (1) One cell edit, through the page's form and through the change API, and (4) what it adds
	// to the database.
	rep.note("each edit loop starts with the design's Tables step open, as an editor has it (the first page of a design works out what the side panel shows of it)")
	rep.note("the anchor of each edit loop's CPU is the mean of two blocks of %d bare commits, run just before and just after it: the machine's load drifts, and the pair sees what the loop saw", len(commit.wall))
	var apiMedium float64             // server CPU per change API edit of the medium design
	before := commit                  // the bare-commit block just before the next edit loop
	around := func(c costs) float64 { // the anchor of a loop that ran between before and c
		mean := (before.cpu + c.cpu) / 2
		before = c
		return mean
	}
	for _, path := range []string{pageForm, changeAPI} {
		a.open(t, ctx, small, "Table00")
		smallEdit := a.editLoop(t, ctx, editRun{Path: path, Token: small.edit, Table: "Table00", N: 300, Limit: 20 * time.Second})
		smallAnchor := around(anchorCommit(t))
		usedBefore := a.dbUsed(t)
		a.open(t, ctx, medium, "Table01")
		// As many edits as lie between two snapshots: the loop pays for exactly one, as each edit
		// does on average.
		mediumEdit := a.editLoop(t, ctx, editRun{Path: path, Token: medium.edit, Table: "Table01", N: int(a.store.SnapshotInterval(int64(medium.bytes))), Limit: 40 * time.Second})
		mediumAnchor := around(anchorCommit(t))
		perChange := float64(a.dbUsed(t)-usedBefore) / float64(len(mediumEdit.wall))
		changeRow := a.changeRowBytes(t, medium, len(mediumEdit.wall))
		what := "cell edit (" + path + "), "
		rep.add(what+"4 KB design, wall p50 (p99)", smallEdit.wall.both(), "bare commit p50 (p99)", commit.wall.both(), smallEdit.wall.median()/commit.wall.median(), "—")
		rep.add(what+"4 KB design, server CPU per edit", ms(smallEdit.cpu), "bare commit CPU", ms(smallAnchor), smallEdit.cpu/smallAnchor, "—")
		rep.add(what+kb(medium.bytes)+" design, wall p50 (p99)", mediumEdit.wall.both(), "bare commit p50 (p99)", commit.wall.both(), mediumEdit.wall.median()/commit.wall.median(), "—")
		rep.add(what+kb(medium.bytes)+" design, server CPU per edit", ms(mediumEdit.cpu), "bare commit CPU", ms(mediumAnchor), mediumEdit.cpu/mediumAnchor, "≤ 2×")
		if path == changeAPI {
			apiMedium = mediumEdit.cpu
		}
		rep.add(what+"server CPU, "+kb(medium.bytes)+" vs 4 KB design", ms(mediumEdit.cpu), "4 KB edit CPU", ms(smallEdit.cpu), mediumEdit.cpu/smallEdit.cpu, "≤ 1.5×")
		rep.add("history: DB bytes per cell edit ("+path+")", kb(int(perChange)), "stored change row", kb(changeRow), perChange/float64(changeRow), "≤ 2 KB")
		rep.note("cell edit (%s): the client, a process of its own, took %s of CPU per edit on the 4 KB design and %s on the %s one (not counted above)",
			path, ms(smallEdit.clientCPU), ms(mediumEdit.clientCPU), kb(medium.bytes))
	}
	// The change API beside the least an HTTP edit can cost: a bare net/http handler that reads
	// the same JSON body and commits it as one row, with the same client in its own process.
	bareHTTP := startBareHTTPCommit(t)
	bareEdit := bareHTTP.editLoop(t, ctx, editRun{Path: changeAPI, Token: "bare", Table: "Table01", N: 300, Limit: 20 * time.Second})
	bareAnchor := around(anchorCommit(t))
	rep.add("bare HTTP commit (net/http, same JSON body, one row), server CPU per edit", ms(bareEdit.cpu), "bare commit CPU", ms(bareAnchor), bareEdit.cpu/bareAnchor, "—")
	rep.add("cell edit (change API), "+kb(medium.bytes)+" design, server CPU", ms(apiMedium), "bare HTTP commit CPU", ms(bareEdit.cpu), apiMedium/bareEdit.cpu, "—")
	if *editsOnly {
		rep.print(os.Stdout)
		return
	}
	changeRow := a.changeRowBytes(t, medium, 100)

	usedBefore := a.dbUsed(t)
	puts := a.putLoop(t, ctx, medium, 40, 30*time.Second)
	perPut := float64(a.dbUsed(t)-usedBefore) / float64(puts)
	rep.add("history: DB bytes per single-field PUT", kb(int(perPut)), "stored change row", kb(changeRow), perPut/float64(changeRow), "≤ 2 KB")

	// (4) Opening revision k of 1,000.
	last := a.fillHistory(t, ctx, medium, revisions, 90*time.Second)
	current := repeat(t, 5, 20*time.Second, func(int) error { _, err := a.get(ctx, "/api/designs/"+medium.view); return err })
	var worst timings
	var worstK int64
	var perK []string
	for _, k := range []int64{2, last / 4, last / 2, 3 * last / 4, last} {
		open := repeat(t, 5, 20*time.Second, func(int) error {
			_, err := a.get(ctx, fmt.Sprintf("/api/designs/%s/revisions/%d", medium.view, k))
			return err
		})
		perK = append(perK, fmt.Sprintf("%d: %s", k, ms(open.median())))
		if worst == nil || open.median() > worst.median() {
			worst, worstK = open, k
		}
	}
	rep.note("open revision k of %d (p50): %s", last, strings.Join(perK, ", "))
	rep.add(fmt.Sprintf("open revision %d of %d (slowest k), p50 (p99)", worstK, last), worst.both(), "GET current design p50 (p99)", current.both(), worst.median()/current.median(), "≤ 50 ms")

	// (2) Validation, and (3) the big steps.
	big := a.create(t, designertest.Large(bigSize))
	rep.note("big design %+v: %s of design-json", bigSize, kb(big.bytes))
	cold := a.coldValidation(t, ctx, big, 20, 60*time.Second)
	warm := repeat(t, 20, 20*time.Second, func(int) error {
		_, err := a.get(ctx, "/api/designs/"+big.view+"/validation")
		return err
	})
	rep.add("GET /validation, 10,000 items/500 patterns/100 GSIs, cold after an edit", cold.both(), "bare commit p50 (p99)", commit.wall.both(), cold.median()/commit.wall.median(), "≤ 50 ms")
	doubled := a.create(t, designertest.Large(doubledSize))
	coldDoubled := a.coldValidation(t, ctx, doubled, 20, 60*time.Second)
	rep.add("GET /validation cold, the design doubled (20,000 items/1,000 patterns/200 GSIs)", coldDoubled.both(), "the same at 10,000 items", cold.both(), coldDoubled.median()/cold.median(), "≤ 2.2×")
	rep.add("GET /validation, same design, nothing changed", warm.both(), "bare commit p50 (p99)", commit.wall.both(), warm.median()/commit.wall.median(), "≤ 1 ms")

	mapping := a.pageLoop(t, ctx, "/d/"+big.view+"/mapping", 3, 40*time.Second)
	rep.add("Mapping step, 500 patterns: HTML", kb(mapping.bytes), "the design's design-json", kb(big.bytes), float64(mapping.bytes)/float64(big.bytes), "≤ 1 MB")
	rep.add("Mapping step, 500 patterns: time p50 (p99)", mapping.wall.both(), "bare commit p50 (p99)", commit.wall.both(), mapping.wall.median()/commit.wall.median(), "≤ 50 ms")
	table := a.create(t, designertest.Large(oneBigTable))
	tables := a.pageLoop(t, ctx, "/d/"+table.view+"/tables?table=Table00", 3, 60*time.Second)
	rep.add("Tables step, 10,000 items in one table: HTML", kb(tables.bytes), "the design's design-json", kb(table.bytes), float64(tables.bytes)/float64(table.bytes), "≤ 1 MB")
	rep.add("Tables step, 10,000 items: time p50 (p99)", tables.wall.both(), "bare commit p50 (p99)", commit.wall.both(), tables.wall.median()/commit.wall.median(), "≤ 50 ms")

	// (5) Live: fan-out to 50 listeners, 200 tabs joining.
	bare := startBroadcaster(t)
	live := a.fanOut(t, ctx, small, listeners, 100, 30*time.Second)
	bareLive := bare.fanOut(t, ctx, listeners, live.eventBytes, 100, 30*time.Second)
	rep.add(fmt.Sprintf("live: %d listeners, edit ack → event p50 (p99)", listeners), live.lag.both(), "bare Go SSE broadcaster p50 (p99)", bareLive.lag.both(), live.lag.q(99)/max(bareLive.lag.q(99), 0.001), "p99 ≤ 50 ms")
	if live.missed > 0 || bareLive.missed > 0 {
		rep.note("live: %d change events never arrived (bare: %d)", live.missed, bareLive.missed)
	}
	join := a.join(t, ctx, small, joiningTabs, 20*time.Second)
	bareJoin := bare.join(t, ctx, joiningTabs, 20*time.Second)
	if join.tabs < joiningTabs {
		rep.note("%d tabs join: only %d had their presence within the time allowed", joiningTabs, join.tabs)
	}
	rep.add(fmt.Sprintf("%d tabs join: until all connected", joiningTabs), ms(join.connected), "bare broadcaster", ms(bareJoin.connected), join.connected/max(bareJoin.connected, 0.001), "≤ 2 s")
	rep.add(fmt.Sprintf("%d tabs join: bytes sent", joiningTabs), kb(join.bytes), "bare broadcaster", kb(bareJoin.bytes), float64(join.bytes)/float64(max(bareJoin.bytes, 1)), "—")
	rep.add(fmt.Sprintf("%d tabs join: streams dropped", joiningTabs), strconv.Itoa(join.dropped), "bare broadcaster", strconv.Itoa(bareJoin.dropped), 0, "0")

	// (6) Edit → verdict beside resetting dynalite.
	vd := designertest.Large(verdictSize)
	verdict := a.create(t, vd)
	edit := repeat(t, 30, 20*time.Second, func(i int) error {
		if _, err := a.postChange(ctx, verdict.edit, "Table01", "i2", fmt.Sprint("verdict ", i)); err != nil {
			return err
		}
		_, err := a.get(ctx, "/api/designs/"+verdict.view+"/validation")
		return err
	})
	if reset, why := dynaliteReset(t, ctx, vd, 5, 60*time.Second); why != "" {
		rep.add("edit → verdict, 4 tables/15 patterns/30 items", edit.both(), "dynalite: "+why, "—", 0, "≥ 20× faster")
	} else {
		rep.add("edit → verdict, 4 tables/15 patterns/30 items", edit.both(), "reset dynalite, load 30 items, 15 reads", reset.both(), edit.median()/reset.median(), "≤ 0.05× (≥ 20× faster)")
	}
	rep.print(os.Stdout)
}

// report is the table the run prints, and notes printed above it.
type report struct {
	notes []string
	rows  [][6]string
}

func (r *report) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// add records a figure beside its anchor; ratio is figure ÷ anchor, left out when zero.
func (r *report) add(figure, value, anchor, anchorValue string, ratio float64, bar string) {
	rs := "—"
	if ratio != 0 {
		rs = fmt.Sprintf("%.2f×", ratio)
		if ratio >= 10 {
			rs = fmt.Sprintf("%.0f×", ratio)
		}
	}
	r.rows = append(r.rows, [6]string{figure, value, anchor, anchorValue, rs, bar})
}

func (r *report) print(f *os.File) {
	fmt.Fprintf(f, "\nLoad test (%s, GOMAXPROCS %d)\n", runtime.Version(), runtime.GOMAXPROCS(0))
	for _, n := range r.notes {
		fmt.Fprintln(f, "  "+n)
	}
	fmt.Fprintln(f)
	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "figure\tmeasured\tanchor\tanchor measured\tratio\tbar")
	for _, row := range r.rows {
		fmt.Fprintln(w, strings.Join(row[:], "\t"))
	}
	w.Flush()
}

// timings are durations in milliseconds.
type timings []float64

// q is the p-th percentile by nearest rank.
func (t timings) q(p float64) float64 {
	if len(t) == 0 {
		return 0
	}
	s := slices.Clone(t)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func (t timings) median() float64 { return t.q(50) }

// both is the median and, in parentheses, the 99th percentile.
func (t timings) both() string {
	return fmt.Sprintf("%s (%s) n=%d", ms(t.median()), ms(t.q(99)), len(t))
}

func ms(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.2f s", v/1000)
	case v >= 10:
		return fmt.Sprintf("%.0f ms", v)
	default:
		return fmt.Sprintf("%.2f ms", v)
	}
}

func kb(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}

func since(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

// repeat runs fn up to n times, and no more once limit has passed since the first run, timing each.
func repeat(t *testing.T, n int, limit time.Duration, fn func(i int) error) timings {
	t.Helper()
	deadline := time.Now().Add(limit)
	var out timings
	for i := 0; i < n && (i == 0 || time.Now().Before(deadline)); i++ {
		start := time.Now()
		if err := fn(i); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		out = append(out, since(start))
	}
	return out
}

// costs are the wall times of a loop and its CPU time per run in milliseconds.
type costs struct {
	wall timings
	cpu  float64
}

// anchorCommit commits one row at a time to a bare SQLite database in WAL mode with
// synchronous=FULL, through the driver the server uses.
func anchorCommit(t *testing.T) costs {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "anchor.db")+"?_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE changes (n INTEGER PRIMARY KEY, change TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	row := strings.Repeat("c", 200)
	cpu := cpuTime()
	wall := repeat(t, 300, 10*time.Second, func(i int) error {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO changes (n, change) VALUES (?, ?)`, i, row); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
	return costs{wall, perRun(cpuTime()-cpu, len(wall))}
}

func perRun(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }

// app is the real server on a loopback port, over a real database.
type app struct {
	base   string
	store  *storage.Store
	dbPath string
	client *http.Client
}

// design is a design stored in the app: its id, tokens and design-json size.
type design struct {
	id, edit, view string
	bytes          int
}

func start(t *testing.T, ctx context.Context) *app {
	dir := t.TempDir()
	path := filepath.Join(dir, "load.db")
	store, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := server.New(store, slog.New(slog.DiscardHandler), noLimits)
	hs := srv.HTTPServer("")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	})
	return &app{base: "http://" + ln.Addr().String(), store: store, dbPath: path,
		client: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
}

// create stores d as a new design, as an import would.
func (a *app) create(t *testing.T, d designer.Design) design {
	t.Helper()
	rec, tok, err := a.store.Create(context.Background(), d, "load")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := designer.MarshalCompactJSON(rec.Design)
	if err != nil {
		t.Fatal(err)
	}
	return design{id: rec.ID, edit: tok.Edit, view: tok.View, bytes: len(doc)}
}

// get fetches path and fails unless it answers 200.
func (a *app) get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base+path, nil)
	if err != nil {
		return nil, err
	}
	return a.do(req)
}

func (a *app) do(req *http.Request) ([]byte, error) {
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %.200s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	return body, nil
}

// editCell posts the item grid's cell form, as the page does, setting the note of an item, and
// returns the revision the answer's side panel shows and the answer's size. base is the revision
// the page shows, which the page sends as the edit's base revision; 0 sends none.
func (a *app) editCell(ctx context.Context, token, table, id, value string, base int64) (int64, int, error) {
	form := "table=" + table + "&id=" + id + "&attribute=note&value=" + strings.ReplaceAll(value, " ", "+")
	if base > 0 {
		form += "&base_revision=" + strconv.FormatInt(base, 10)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/d/"+token+"/items/cell", strings.NewReader(form))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", formType)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-Dynaloom-Tab", "loadtesteditortab01") // every page's request names its tab (app.js)
	body, err := a.do(req)
	if err != nil {
		return 0, 0, err
	}
	m := revisionRE.FindSubmatch(body)
	if m == nil {
		return 0, len(body), fmt.Errorf("the edit's answer shows no revision")
	}
	rev, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return rev, len(body), nil
}

// open fetches the Tables step of d at table, as an editor's browser does before the first edit.
func (a *app) open(t *testing.T, ctx context.Context, d design, table string) {
	t.Helper()
	if _, err := a.get(ctx, "/d/"+d.edit+"/tables?table="+table); err != nil {
		t.Fatal(err)
	}
}

// The two ways a cell is edited, as editRun.Path names them.
const (
	pageForm  = "page form"
	changeAPI = "change API"
)

// editRun is what the client process of editLoop is asked to do: up to N edits of the note of item
// i2 of Table, with the edit token Token, through Path, for no longer than Limit.
type editRun struct {
	Base, Path, Token, Table string
	N                        int
	Limit                    time.Duration
}

// editCosts are the wall times of an edit loop as its client saw them, and the CPU per edit in
// milliseconds of the server (this process) and of the client.
type editCosts struct {
	wall           timings
	cpu, clientCPU float64
}

// editRunEnv carries an editRun, as JSON, to the client process.
const editRunEnv = "DYNALOOM_LOAD_EDIT_RUN"

// editTimingsPrefix starts the line on which the client process prints its timings.
const editTimingsPrefix = "edit timings: "

// editLoop makes the edits of run from a client in a process of its own (this test binary running
// TestLoadEditClient), so that the CPU this process uses meanwhile is the server's alone: a client
// in the same process would count its own HTTP work, about as costly as the server's, as the
// server's. Nothing else runs in this process during the loop.
func (a *app) editLoop(t *testing.T, ctx context.Context, run editRun) editCosts {
	t.Helper()
	run.Base = a.base
	raw, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLoadEditClient$", "-test.count=1")
	cmd.Env = append(os.Environ(), editRunEnv+"="+string(raw))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cpu := cpuTime()
	err = cmd.Run()
	server := cpuTime() - cpu
	if err != nil {
		t.Fatalf("edit client (%s): %v\n%s%s", run.Path, err, stdout.Bytes(), stderr.Bytes())
	}
	var wall timings
	for line := range strings.Lines(stdout.String()) {
		if rest, ok := strings.CutPrefix(line, editTimingsPrefix); ok {
			if err := json.Unmarshal([]byte(rest), &wall); err != nil {
				t.Fatalf("edit client (%s): its timings: %v", run.Path, err)
			}
		}
	}
	if len(wall) == 0 {
		t.Fatalf("edit client (%s) printed no timings:\n%s", run.Path, stdout.Bytes())
	}
	client := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return editCosts{wall, perRun(server, len(wall)), perRun(client, len(wall))}
}

// TestLoadEditClient is the client of editLoop, run by the load test in a process of its own: it
// makes the edits its environment describes, checks each answer, and prints their wall times.
func TestLoadEditClient(t *testing.T) {
	raw := os.Getenv(editRunEnv)
	if raw == "" {
		t.Skip("the load test's edit client: runs only when the load test starts it")
	}
	var run editRun
	if err := json.Unmarshal([]byte(raw), &run); err != nil {
		t.Fatalf("%s: %v", editRunEnv, err)
	}
	ctx := context.Background()
	a := &app{base: run.Base, client: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
	var shown int64 // the revision the page shows: its last edit's, as the page has it
	edit := func(i int) error {
		switch run.Path {
		case pageForm:
			rev, _, err := a.editCell(ctx, run.Token, run.Table, "i2", fmt.Sprint("edit ", i), shown)
			shown = rev
			return err
		case changeAPI:
			_, err := a.postChange(ctx, run.Token, run.Table, "i2", fmt.Sprint("api ", i))
			return err
		}
		return fmt.Errorf("unknown edit path %q", run.Path)
	}
	wall := repeat(t, run.N, run.Limit, edit)
	out, err := json.Marshal(wall)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s%s\n", editTimingsPrefix, out)
}

// postChange sets the note of an item through the change API, as a script would, and returns the
// revision it made.
func (a *app) postChange(ctx context.Context, token, table, id, value string) (int64, error) {
	body, err := json.Marshal(map[string]any{"kind": "set_item_cell", "change": map[string]string{"table": table, "id": id, "attribute": "note", "text": value}})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/api/designs/"+token+"/changes", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	answer, err := a.do(req)
	if err != nil {
		return 0, err
	}
	var out struct {
		Revision int64 `json:"revision"`
	}
	if err := json.Unmarshal(answer, &out); err != nil || out.Revision == 0 {
		return 0, fmt.Errorf("the change API answered %.200s (%v)", answer, err)
	}
	return out.Revision, nil
}

// putLoop replaces the whole of d through the API up to n times, each time with only its name
// changed, and says how many it made.
func (a *app) putLoop(t *testing.T, ctx context.Context, d design, n int, limit time.Duration) int {
	return len(repeat(t, n, limit, func(i int) error {
		rec, err := a.store.Load(ctx, d.id)
		if err != nil {
			return err
		}
		next := rec.Design
		next.Name = fmt.Sprint("Large ", i)
		body, err := designer.MarshalJSON(next)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, a.base+"/api/designs/"+d.edit, strings.NewReader(string(body)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("If-Match", strconv.FormatInt(rec.Revision, 10))
		_, err = a.do(req)
		return err
	}))
}

// fillHistory applies cell edits to d straight through the store until it has the given number
// of revisions, or limit has passed, and returns its newest revision.
func (a *app) fillHistory(t *testing.T, ctx context.Context, d design, upTo int, limit time.Duration) int64 {
	rec, err := a.store.Load(ctx, d.id)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(limit)
	for rec.Revision < int64(upTo) && time.Now().Before(deadline) {
		c := designer.SetItemCell{Table: "Table02", ID: "i2", Attribute: "note", Text: fmt.Sprint("revision ", rec.Revision+1)}
		if rec, err = a.store.Apply(ctx, d.id, "load", c, 0); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Revision
}

// coldValidation edits d through the change API, which answers without working out findings, and
// then times the validation that follows, up to n times.
func (a *app) coldValidation(t *testing.T, ctx context.Context, d design, n int, limit time.Duration) timings {
	deadline := time.Now().Add(limit)
	var out timings
	for i := 0; i < n && (i == 0 || time.Now().Before(deadline)); i++ {
		if _, err := a.postChange(ctx, d.edit, "Table07", "i2", fmt.Sprint("cold ", i)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := a.get(ctx, "/api/designs/"+d.view+"/validation"); err != nil {
			t.Fatal(err)
		}
		out = append(out, since(start))
	}
	return out
}

// page is the size of a page and the times it took.
type page struct {
	bytes int
	wall  timings
}

func (a *app) pageLoop(t *testing.T, ctx context.Context, path string, n int, limit time.Duration) page {
	var p page
	p.wall = repeat(t, n, limit, func(int) error {
		body, err := a.get(ctx, path)
		p.bytes = len(body)
		return err
	})
	return p
}

// dbUsed is the bytes the database's pages in use hold, the write-ahead log's included.
func (a *app) dbUsed(t *testing.T) int {
	db, err := sql.Open("sqlite3", "file:"+a.dbPath+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages, free, size int
	for q, v := range map[string]*int{"page_count": &pages, "freelist_count": &free, "page_size": &size} {
		if err := db.QueryRow("PRAGMA " + q).Scan(v); err != nil {
			t.Fatal(err)
		}
	}
	return (pages - free) * size
}

// changeRowBytes is the mean size of the change column of d's newest n revisions.
func (a *app) changeRowBytes(t *testing.T, d design, n int) int {
	db, err := sql.Open("sqlite3", "file:"+a.dbPath+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mean float64
	err = db.QueryRow(`SELECT AVG(length(CAST(change AS BLOB)) + length(paths) + length(summary) + length(kind) + length(author) + length(at))
		FROM (SELECT * FROM revisions WHERE design_id = ? ORDER BY revision DESC LIMIT ?)`, d.id, n).Scan(&mean)
	if err != nil {
		t.Fatal(err)
	}
	return int(mean)
}

// startBareHTTPCommit serves, on a loopback port, the least an edit over HTTP can cost: a bare
// net/http handler that reads a JSON body, commits it as one row to SQLite (WAL, synchronous=FULL,
// the store's driver) and answers the row's number as {"revision": N}.
func startBareHTTPCommit(t *testing.T) *app {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "bare-http.db")+"?_journal_mode=WAL&_synchronous=FULL&_busy_timeout=5000&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE changes (n INTEGER PRIMARY KEY, change TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Kind   string          `json:"kind"`
			Change json.RawMessage `json:"change"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := db.Exec(`INSERT INTO changes (change) VALUES (?)`, string(body.Change))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		n, _ := res.LastInsertId()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]int64{"revision": n})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: handler}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return &app{base: "http://" + ln.Addr().String()}
}
