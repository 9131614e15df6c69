package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/live"
	"dynaloom/internal/storage"
)

// One address may hold only so many live streams; past that it is told why, and a stream it
// closes frees its place.
func TestLive_streamsPerClientAreBounded(t *testing.T) {
	t.Parallel()
	_, url := liveServer(t, Options{MaxStreamsPerClient: 3})
	created := createOver(t, url, `{"example": "hr-employees"}`)
	streams := make([]*sseClient, 3)
	for i := range streams {
		streams[i] = openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	}
	resp, err := http.Get(url + "/api/designs/" + created.ViewToken + "/events")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "too_many_streams") || !strings.Contains(string(body), "--max-streams-per-client") {
		t.Fatalf("4th stream from one address: %d %s", resp.StatusCode, body)
	}
	streams[0].resp.Body.Close()
	deadline := time.Now().Add(streamWait)
	for {
		resp, err := http.Get(url + "/api/designs/" + created.ViewToken + "/events")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed stream never freed its place: %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serveLoopback runs s's own http.Server (with its connection bounds) on a loopback port.
func serveLoopback(t *testing.T, opts Options) (*Server, string) {
	t.Helper()
	store, err := storage.Open(t.Context(), filepath.Join(t.TempDir(), "conns.db"))
	if err != nil {
		t.Fatal(err)
	}
	s := New(store, slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	srv := s.HTTPServer("")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		store.Close()
	})
	return s, ln.Addr().String()
}

// dialFrom opens a TCP connection to addr from the loopback address local (127.0.0.x).
func dialFrom(t *testing.T, local, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: streamWait}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get sends one request on c and reads the status line of the answer.
func statusOn(t *testing.T, c net.Conn, path string) string {
	t.Helper()
	c.SetDeadline(time.Now().Add(streamWait))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "error: " + err.Error()
	}
	return strings.TrimSpace(line)
}

// A flood of idle connections from one address is cut at its bound, answered with 429 rather
// than left to use up the server's file descriptors; another address is served as before, and
// the flood's connections free their places when they close.
func TestConnections_perClientAndTotalAreBounded(t *testing.T) {
	t.Parallel()
	_, addr := serveLoopback(t, Options{MaxConnsPerClient: 5, MaxConns: 8})
	flood := make([]net.Conn, 5)
	for i := range flood {
		flood[i] = dialFrom(t, "127.0.0.1", addr)
	}
	// The server counts a connection when it accepts it; a request on the last one proves all
	// five were.
	if got := statusOn(t, flood[4], "/healthz"); !strings.Contains(got, "200") {
		t.Fatalf("5th connection: %q", got)
	}
	if got := statusOn(t, dialFrom(t, "127.0.0.1", addr), "/healthz"); !strings.Contains(got, "429") {
		t.Fatalf("6th connection from one address: %q, want 429", got)
	}
	if got := statusOn(t, dialFrom(t, "127.0.0.2", addr), "/healthz"); !strings.Contains(got, "200") {
		t.Fatalf("another address: %q", got)
	}
	for i := range 2 {
		dialFrom(t, "127.0.0.3", addr)
		_ = i
	}
	if got := statusOn(t, dialFrom(t, "127.0.0.4", addr), "/healthz"); !strings.Contains(got, "429") {
		t.Fatalf("9th connection to a server bounded at 8: %q, want 429", got)
	}
	flood[0].Close()
	deadline := time.Now().Add(streamWait)
	for {
		got := statusOn(t, dialFrom(t, "127.0.0.1", addr), "/healthz")
		if strings.Contains(got, "200") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed connection never freed its place: %q", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A room of hundreds shows the viewing tab, the leader and the editors by name and counts the
// rest, so each presence update costs each stream the same whatever the audience.
func TestLive_crowdedPresenceNamesEditorsAndCountsTheRest(t *testing.T) {
	t.Parallel()
	var ps []live.Presence
	for i := range 300 {
		ps = append(ps, live.Presence{Tab: fmt.Sprintf("tab%016d", i), Name: fmt.Sprintf("Viewer %03d", i)})
	}
	for i := range 5 {
		ps[290+i].Editor = true
	}
	ps[299].Leader = true
	self := ps[150].Tab
	views, more := presenceViews(ps, self)
	if len(views) != maxPresenceChips || more != 300-maxPresenceChips {
		t.Fatalf("%d chips and %d more, want %d and %d", len(views), more, maxPresenceChips, 300-maxPresenceChips)
	}
	var sawSelf, sawLeader, editors int
	for _, v := range views {
		if v.Self {
			sawSelf++
		}
		if v.Leader {
			sawLeader++
		}
		if v.Editor {
			editors++
		}
	}
	if sawSelf != 1 || sawLeader != 1 || editors != 5 {
		t.Fatalf("self %d, leader %d, editors %d: want 1, 1, 5", sawSelf, sawLeader, editors)
	}
	if v, m := presenceViews(ps[:3], self); len(v) != 3 || m != 0 {
		t.Fatalf("a small room: %d chips, %d more", len(v), m)
	}
}

// A page stream's presence in a crowd carries a bounded list and says how many more are here.
func TestLive_pagePresenceInACrowdSaysHowManyMore(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	var first *sseClient
	const n = maxPresenceChips + 6
	for i := range n {
		s := openStream(t, fmt.Sprintf("%s/d/%s/events?step=overview&tab=crowd%016d", url, created.ViewToken, i))
		if i == 0 {
			first = s
		}
	}
	// The page builds its list from the first one and the changes after it; presence settles
	// within a few of its intervals.
	var list chipList
	time.AfterFunc(streamWait, func() { first.resp.Body.Close() })
	for {
		ev, err := first.next()
		if err != nil {
			t.Fatalf("the list never showed %d chips and the count of the others: %v, last %v", maxPresenceChips, err, list.ids())
		}
		if ev.name != presenceEventName && ev.name != presenceDeltaEventName {
			continue
		}
		list = list.apply(t, ev)
		if len(list) == maxPresenceChips+1 && strings.Contains(list[maxPresenceChips].markup, "+"+strconv.Itoa(n-maxPresenceChips)) {
			for _, c := range list[:maxPresenceChips] {
				if !strings.Contains(c.markup, `data-testid="presence-chip"`) {
					t.Fatalf("not a chip before the count: %s", c.markup)
				}
			}
			return
		}
	}
}

// A stream opened with a link that is then replaced hears nothing more of the design: not the
// next change, not who edited it.
func TestLive_replacedLinkStreamHearsNoMoreChanges(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	viewer := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	if rec := a.request(http.MethodPost, "/api/designs/"+created.EditToken+"/tokens/rotate", "application/json", strings.NewReader(`{"which": "view"}`)); rec.Code != http.StatusOK {
		t.Fatalf("rotate: %d %s", rec.Code, rec.Body)
	}
	d, _ := a.design(created.EditToken)
	if rec := a.hx("/d/"+created.EditToken+"/patterns/field", "id", d.Patterns[0].ID, "field", "description", "value", "after the link was replaced"); rec.Code != http.StatusOK {
		t.Fatalf("edit: %d", rec.Code)
	}
	var names []string
	for {
		ev, err := viewer.next()
		if err != nil {
			break
		}
		names = append(names, ev.name)
		if ev.name == "change" {
			t.Fatalf("the replaced link's stream heard a change after the replacement: %s (events %v)", ev.data, names)
		}
	}
	if !strings.Contains(strings.Join(names, " "), "gone") {
		t.Fatalf("the stream ended without saying why: %v", names)
	}
}

// A view link that stops working at a set time ends the streams it opened at that time, also
// when the time was set after the stream opened.
func TestLive_viewLinkExpiryEndsItsStreams(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	viewer := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	// A moment from now; a machine so slow that the moment has passed before the server reads it
	// (refused: a past time) tries again with a longer one.
	for ahead := 1500 * time.Millisecond; ; ahead *= 2 {
		at := time.Now().Add(ahead).UTC().Format(time.RFC3339Nano)
		rec := a.request(http.MethodPut, "/api/designs/"+created.EditToken+"/tokens/view/expiry", "application/json",
			strings.NewReader(`{"expires_at": "`+at+`"}`))
		if rec.Code == http.StatusOK {
			break
		}
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "has passed") || ahead > streamWait {
			t.Fatalf("set expiry: %d %s", rec.Code, rec.Body)
		}
	}
	ended := make(chan []string, 1)
	go func() {
		var names []string
		for {
			ev, err := viewer.next()
			if err != nil {
				ended <- names
				return
			}
			names = append(names, ev.name)
		}
	}()
	select {
	case names := <-ended:
		if len(names) == 0 || names[len(names)-1] != "gone" {
			t.Fatalf("the stream ended with %v, want a last gone event", names)
		}
	case <-time.After(streamWait):
		t.Fatal("the stream outlived its link's expiry")
	}
}

// Evaluations, exports and imports are bounded per address: past the burst the answer is 429
// with Retry-After (for an evaluation, DynamoDB's ThrottlingException, dynamoerrors_test.go), and
// other addresses are unaffected.
func TestRateLimit_costlyAnswersPerAddress(t *testing.T) {
	t.Parallel()
	a := newTestAppWith(t, Options{CostlyLimit: Rate{PerSecond: 0.01, Burst: 2}, WriteLimit: NoLimit})
	created := a.createJSON(`{"example": "hr-employees"}`)
	get := func(remote, target string) int {
		req, _ := http.NewRequest(http.MethodGet, target, nil)
		req.RemoteAddr = remote
		return a.do(req).Code
	}
	evaluate := func(remote string) int {
		req, _ := http.NewRequest(http.MethodPost, "/api/designs/"+created.ViewToken+"/evaluate",
			strings.NewReader(`{"TableName": "Employee", "Limit": 1}`))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.Scan")
		req.RemoteAddr = remote
		rec := a.do(req)
		if strings.Contains(rec.Body.String(), "#ThrottlingException") && rec.Header().Get("Retry-After") != "" {
			return http.StatusTooManyRequests
		}
		return rec.Code
	}
	if c := evaluate("198.51.100.9:1"); c == http.StatusTooManyRequests {
		t.Fatalf("1st evaluation: %d", c)
	}
	if c := get("198.51.100.9:2", "/api/designs/"+created.ViewToken+"/export/design-json"); c != http.StatusOK {
		t.Fatalf("1st export: %d", c)
	}
	if c := get("198.51.100.9:3", "/d/"+created.ViewToken+"/export"); c != http.StatusTooManyRequests {
		t.Fatalf("3rd costly answer (the export page): %d, want 429", c)
	}
	if c := evaluate("198.51.100.9:4"); c != http.StatusTooManyRequests {
		t.Fatalf("4th costly answer (an evaluation): %d, want 429", c)
	}
	if c := evaluate("198.51.100.10:1"); c == http.StatusTooManyRequests {
		t.Fatalf("another address: %d", c)
	}
}

// A change that would take a design past a storage limit is refused with 413 naming the limit,
// on the page and through the API, and the design is unchanged.
func TestLimits_aChangePastADesignLimitIsRefusedNamingIt(t *testing.T) {
	t.Parallel()
	store, err := storage.OpenWith(t.Context(), filepath.Join(t.TempDir(), "limits.db"),
		storage.Options{Limits: storage.Limits{ItemsPerTable: 3}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	a := &testApp{t: t, srv: New(store, slog.New(slog.NewTextHandler(io.Discard, nil)), Options{}), store: store}
	created := a.createJSON(`{"name": "Orders", "tables": [{"name": "Orders", "partition_key": {"name": "pk", "type": "S"}}]}`)
	paste := func() *httptest.ResponseRecorder {
		return a.hx("/d/"+created.EditToken+"/items/paste?table=Orders", "text", "pk\nA\nB\nC\nD\nE")
	}
	rec := paste()
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "--max-items-per-table") {
		t.Fatalf("pasting 5 items under a limit of 3: %d %s", rec.Code, rec.Body)
	}
	d, rev := a.design(created.EditToken)
	if rev != 1 || len(d.Tables[0].Items) != 0 {
		t.Fatalf("a refused paste changed the design: revision %d, %d items", rev, len(d.Tables[0].Items))
	}
	body := `{"name": "Orders", "tables": [{"name": "Orders", "partition_key": {"name": "pk", "type": "S"}, "items": [` +
		`{"item": {"pk": {"S": "A"}}}, {"item": {"pk": {"S": "B"}}}, {"item": {"pk": {"S": "C"}}}, {"item": {"pk": {"S": "D"}}}]}]}`
	put := a.request(http.MethodPut, "/api/designs/"+created.EditToken, "application/json", strings.NewReader(body), "If-Match", `"1"`)
	if code, msg := decodeError(t, put); put.Code != http.StatusRequestEntityTooLarge || code != "limit_exceeded" || !strings.Contains(msg, "4 sample items") {
		t.Fatalf("PUT past the limit: %d %s %q", put.Code, code, msg)
	}
}

// One address can send only so many bytes of changes in a burst; small edits from another
// address go on.
func TestRateLimit_writeBytesPerAddress(t *testing.T) {
	t.Parallel()
	a := newTestAppWith(t, Options{WriteBytesLimit: Rate{PerSecond: 1, Burst: 64 << 10}, WriteLimit: NoLimit})
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, _ := a.design(created.EditToken)
	save := func(remote, value string) int {
		req := httptest.NewRequest(http.MethodPost, "/d/"+created.EditToken+"/patterns/field",
			strings.NewReader(form("id", d.Patterns[0].ID, "field", "description", "value", value)))
		req.Header.Set("Content-Type", formType)
		req.Header.Set("HX-Request", "true")
		req.RemoteAddr = remote
		return a.do(req).Code
	}
	big := strings.Repeat("x", 15000)
	accepted := 0
	for range 10 {
		if save("203.0.113.5:1", big) == http.StatusOK {
			accepted++
		}
	}
	if accepted < 3 || accepted > 5 {
		t.Fatalf("%d of ten 15 KB saves accepted in a 64 KiB burst, want 4", accepted)
	}
	if c := save("203.0.113.6:1", "small"); c != http.StatusOK {
		t.Fatalf("another address: %d", c)
	}
}
