package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/live"
	"dynaloom/internal/storage"
)

// Someone editing a field that another person changed since they began gets 409 and the other
// person's name; a different field of the same row, or their own earlier change, does not conflict.
func TestLive_sameFieldEditOverAnotherPersonsChangeIsRefused(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	base := "/d/" + created.EditToken
	d, rev := a.design(created.EditToken)
	id := d.Patterns[0].ID
	save := func(who, field, value string, baseRev int64) *httptest.ResponseRecorder {
		return a.request(http.MethodPost, base+"/patterns/field", formType,
			strings.NewReader(form("id", id, "field", field, "value", value, "base_revision", strconv.FormatInt(baseRev, 10))),
			"HX-Request", "true", "Cookie", participantCookie+"="+who)
	}
	if rec := save("Bob", "description", "Bob's wording", rev); rec.Code != http.StatusOK {
		t.Fatalf("Bob's save: %d %s", rec.Code, rec.Body)
	}
	rec := save("Alice", "description", "Alice's wording", rev)
	if rec.Code != http.StatusConflict || rec.Header().Get("X-Dynaloom-Conflict-Author") != "Bob" {
		t.Fatalf("Alice's save over Bob's change: %d, author %q", rec.Code, rec.Header().Get("X-Dynaloom-Conflict-Author"))
	}
	if d, _ := a.design(created.EditToken); d.Patterns[0].Description != "Bob's wording" {
		t.Fatalf("a refused save changed the design: %q", d.Patterns[0].Description)
	}
	if rec := save("Alice", "peak_rps", "777", rev); rec.Code != http.StatusOK {
		t.Fatalf("a different field of the same row: %d %s", rec.Code, rec.Body)
	}
	if rec := save("Bob", "description", "Bob again", rev); rec.Code != http.StatusOK {
		t.Fatalf("Bob over his own change: %d", rec.Code)
	}
	// Without base_revision (the person chose "keep mine") the save goes through.
	rec = a.request(http.MethodPost, base+"/patterns/field", formType, strings.NewReader(form("id", id, "field", "description", "value", "Alice's wording")),
		"HX-Request", "true", "Cookie", participantCookie+"=Alice")
	if rec.Code != http.StatusOK {
		t.Fatalf("keep mine: %d", rec.Code)
	}
	d, _ = a.design(created.EditToken)
	if d.Patterns[0].Description != "Alice's wording" || d.Patterns[0].PeakRPS == nil || *d.Patterns[0].PeakRPS != 777 {
		t.Fatalf("final pattern: %q %v", d.Patterns[0].Description, d.Patterns[0].PeakRPS)
	}
	if rec := save("Alice", "description", "x", 0); rec.Code != http.StatusBadRequest {
		t.Fatalf("base_revision 0: %d", rec.Code)
	}
}

// sseClient reads one event stream.
type sseClient struct {
	resp *http.Response
	r    *bufio.Reader
}

type sseEvent struct {
	id, name, data string
}

func openStream(t testing.TB, url string, header ...string) *sseClient {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sseClient{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next reads the next event, skipping comments and the retry hint.
func (s *sseClient) next() (sseEvent, error) {
	var ev sseEvent
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.name != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, "id: "):
			ev.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			if ev.data != "" {
				ev.data += "\n"
			}
			ev.data += line[6:]
		}
	}
}

// streamWait bounds a test's wait for something a server does at once: an event on a stream, a
// stream or connection closing. It is generous, as CI runs the race detector on a machine shared
// with other work; only a failing test waits it out.
const streamWait = 30 * time.Second

// nextNamed reads events until one called name, within streamWait.
func (s *sseClient) nextNamed(t testing.TB, name string) sseEvent {
	t.Helper()
	done := make(chan sseEvent, 1)
	go func() {
		for {
			ev, err := s.next()
			if err != nil {
				close(done)
				return
			}
			if ev.name == name {
				done <- ev
				return
			}
		}
	}()
	select {
	case ev, ok := <-done:
		if !ok {
			t.Fatalf("the stream ended before a %s event", name)
		}
		return ev
	case <-time.After(streamWait):
		t.Fatalf("no %s event within %s", name, streamWait)
	}
	return sseEvent{}
}

func startLiveServer(t testing.TB) (*testApp, string) {
	t.Helper()
	a := newTestApp(t)
	ts := httptest.NewServer(a.srv.Handler())
	t.Cleanup(func() {
		a.srv.hub.Shutdown()
		ts.Close()
	})
	return a, ts.URL
}

func TestLive_apiEventsStreamChangesAndResumeWithLastEventID(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	stream := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	d, rev := a.design(created.EditToken)
	rec := a.request(http.MethodPost, "/d/"+created.EditToken+"/patterns/field", formType,
		strings.NewReader(form("id", d.Patterns[0].ID, "field", "description", "value", "Read one profile")), "HX-Request", "true", "Cookie", participantCookie+"=Ada")
	if rec.Code != http.StatusOK {
		t.Fatalf("edit: %d", rec.Code)
	}
	ev := stream.nextNamed(t, "change")
	var data live.ChangeData
	if err := json.Unmarshal([]byte(ev.data), &data); err != nil {
		t.Fatal(err)
	}
	if ev.id != strconv.FormatInt(rev+1, 10) || data.Revision != rev+1 || data.Author != "Ada" ||
		len(data.Paths) != 1 || !strings.HasPrefix(string(data.Paths[0]), "access_patterns/") {
		t.Fatalf("event id %q data %+v, want revision %d by Ada on the pattern", ev.id, data, rev+1)
	}
	// Two more changes while nobody listens, then a reconnection that names the last event seen.
	for _, v := range []string{"A", "B"} {
		a.hx("/d/"+created.EditToken+"/patterns/field", "id", d.Patterns[0].ID, "field", "description", "value", v)
	}
	again := openStream(t, url+"/api/designs/"+created.ViewToken+"/events", "Last-Event-ID", ev.id)
	for _, want := range []int64{rev + 2, rev + 3} {
		got := again.nextNamed(t, "change")
		if got.id != strconv.FormatInt(want, 10) {
			t.Fatalf("resumed stream sent revision %s, want %d", got.id, want)
		}
	}
	// A view link cannot report presence for others, and unknown tokens have no stream.
	if rec := a.request(http.MethodGet, "/api/designs/nosuchtokennosuchtokennosuch/events", "", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown token: %d", rec.Code)
	}
}

// A page's stream carries presence as HTML chips, with the focused field of each participant:
// the list when it opens, then only the chips that changed.
func TestLive_pageStreamCarriesPresence(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	const tabA, tabB = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"
	first := openStream(t, url+"/d/"+created.EditToken+"/events?step=patterns&rev=1&tab="+tabA, "Cookie", participantCookie+"=Ada")
	if ev := first.nextNamed(t, "presence"); !strings.Contains(ev.data, `data-name="Ada"`) || !strings.Contains(ev.data, "data-self") {
		t.Fatalf("first presence: %s", ev.data)
	}
	second := openStream(t, url+"/d/"+created.ViewToken+"/events?step=tables&rev=1&tab="+tabB, "Cookie", participantCookie+"=Grace%20%3Cb%3E")
	ev := first.nextNamed(t, presenceDeltaEventName)
	if !strings.Contains(ev.data, `data-name="Grace &lt;b&gt;"`) || strings.Contains(ev.data, "<b>") || strings.Count(ev.data, "<li") != 1 {
		t.Fatalf("a join should carry the one newcomer, name escaped: %s", ev.data)
	}
	if ev := second.nextNamed(t, "presence"); strings.Count(ev.data, "<li") != 2 {
		t.Fatalf("a newcomer's stream should open with the whole list: %s", ev.data)
	}
	rec := a.request(http.MethodPost, "/d/"+created.EditToken+"/presence", formType, strings.NewReader(form("tab", tabA, "focus", "ap-x-description")))
	if rec.Code != http.StatusNoContent {
		t.Fatalf("presence: %d %s", rec.Code, rec.Body)
	}
	// Ada's own chip does not mark her focus for herself; the others' streams carry it.
	if ev := first.nextNamed(t, presenceDeltaEventName); strings.Count(ev.data, "<li") != 1 || strings.Contains(ev.data, "data-focus") {
		t.Fatalf("a participant's own focus: %s", ev.data)
	}
	if ev := second.nextNamed(t, presenceDeltaEventName); strings.Count(ev.data, "<li") != 1 || !strings.Contains(ev.data, `data-focus="ap-x-description"`) {
		t.Fatalf("another participant's focus: %s", ev.data)
	}
	if rec := a.request(http.MethodPost, "/d/"+created.EditToken+"/presence", formType, strings.NewReader(form("tab", "cccccccccccccccc", "focus", "x"))); rec.Code != http.StatusBadRequest {
		t.Fatalf("unknown tab: %d", rec.Code)
	}
	if rec := a.request(http.MethodGet, "/d/"+created.EditToken+"/events?step=patterns&tab=short", "", nil); rec.Code != http.StatusBadRequest {
		t.Fatalf("bad tab: %d", rec.Code)
	}
}

// Replacing a link ends the streams it opened: a stream must not outlive its link.
func TestLive_replacingALinkEndsItsStreams(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	viewer := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	editor := openStream(t, url+"/api/designs/"+created.EditToken+"/events")
	rec := a.request(http.MethodPost, "/api/designs/"+created.EditToken+"/tokens/rotate", "application/json", strings.NewReader(`{"which": "view"}`))
	if rec.Code != http.StatusOK {
		t.Fatalf("rotate: %d %s", rec.Code, rec.Body)
	}
	ended := make(chan error, 1)
	go func() {
		for {
			if _, err := viewer.next(); err != nil {
				ended <- err
				return
			}
		}
	}()
	select {
	case <-ended:
	case <-time.After(streamWait):
		t.Fatal("the old view link's stream is still open")
	}
	// The edit link's stream goes on: it still hears changes.
	d, rev := a.design(created.EditToken)
	a.hx("/d/"+created.EditToken+"/patterns/field", "id", d.Patterns[0].ID, "field", "description", "value", "still here")
	if ev := editor.nextNamed(t, "change"); ev.id != strconv.FormatInt(rev+1, 10) {
		t.Fatalf("edit stream event %q, want %d", ev.id, rev+1)
	}
}

// A stream whose reader stalls is not dropped: once its queue is full, the changes queued are
// replaced by one "reload" naming the newest revision, and the stream goes on after it.
func TestLive_stalledReaderGetsReloadAndStaysConnected(t *testing.T) {
	t.Parallel()
	srv, url := liveServer(t, Options{})
	created := createOver(t, url, `{"example": "hr-employees"}`)
	stream := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	waitStreams(t, srv, 1)
	id, hub := created.ID, srv.hub.(*live.Hub)

	// Nobody reads: announce changes until the socket is full, the stream's writes block and its
	// queue overflows. The revisions are made up, above any the design has.
	rev := int64(1_000)
	for hub.Behind(id) == 0 {
		if rev++; rev > 3_000_000 {
			t.Fatal("the stream never fell behind")
		}
		srv.hub.Publish(id, storage.Revision{Revision: rev, Author: "Ada", Paths: []designer.Path{"name"}})
	}
	fellAt := rev
	for range 3 * live.QueueLen {
		rev++
		srv.hub.Publish(id, storage.Revision{Revision: rev, Author: "Ada", Paths: []designer.Path{"name"}})
	}
	ev := stream.nextNamed(t, "reload")
	var data struct{ Revision int64 }
	if err := json.Unmarshal([]byte(ev.data), &data); err != nil || data.Revision < fellAt || ev.id != strconv.FormatInt(data.Revision, 10) {
		t.Fatalf("reload %q %q, want a revision of at least %d as its id: %v", ev.id, ev.data, fellAt, err)
	}
	// Nothing older than a reload follows it. The reader now catches up with everything announced
	// (the last of it may itself have been dropped, and so come as a second reload); once it has,
	// the queue is empty and the next change comes through as a change.
	caughtUp := func(want int64, asChange bool) {
		t.Helper()
		failed := make(chan string, 1)
		go func() {
			reloaded := data.Revision
			for {
				next, err := stream.next()
				if err != nil {
					failed <- fmt.Sprintf("the stream ended after the reload: %v", err)
					return
				}
				n, _ := strconv.ParseInt(next.id, 10, 64)
				switch {
				case next.name == "change" && n <= reloaded:
					failed <- fmt.Sprintf("change %d sent after a reload to %d", n, reloaded)
					return
				case next.name == "reload" && n > reloaded:
					reloaded = n
				}
				if n >= want && next.name != "change" && asChange {
					failed <- fmt.Sprintf("revision %d came as %q, want a change: the queue was empty", n, next.name)
					return
				}
				if n >= want && (next.name == "change" || next.name == "reload") {
					failed <- ""
					return
				}
			}
		}()
		select {
		case msg := <-failed:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(streamWait):
			t.Fatalf("revision %d did not reach the reader within %s", want, streamWait)
		}
	}
	if data.Revision < rev {
		caughtUp(rev, false)
	}
	rev++
	srv.hub.Publish(id, storage.Revision{Revision: rev, Author: "Ada", Paths: []designer.Path{"name"}})
	caughtUp(rev, true)
	if got := srv.hub.Connections(); got != 1 {
		t.Fatalf("%d streams open, want the stalled one still open", got)
	}
}

// A client that comes back more than a queue's worth of changes behind gets one reload naming the
// newest revision, not every change it missed; a few behind, it gets each.
func TestLive_resumingFarBehindGetsOneReload(t *testing.T) {
	t.Parallel()
	_, url := liveServer(t, Options{WriteLimit: NoLimit})
	created := createOver(t, url, `{"example": "hr-employees"}`)
	d, rev := designOver(t, url, created.EditToken)
	for i := range live.QueueLen + 1 {
		resp, err := http.Post(url+"/d/"+created.EditToken+"/patterns/field", formType,
			strings.NewReader(form("id", d.Patterns[0].ID, "field", "description", "value", "v"+strconv.Itoa(i))))
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("edit %d: %v %v", i, err, resp)
		}
		resp.Body.Close()
	}
	head := rev + live.QueueLen + 1
	far := openStream(t, url+"/api/designs/"+created.ViewToken+"/events", "Last-Event-ID", strconv.FormatInt(rev, 10))
	if ev, err := far.next(); err != nil || ev.name != "reload" || ev.id != strconv.FormatInt(head, 10) || ev.data != `{"revision":`+strconv.FormatInt(head, 10)+`}` {
		t.Fatalf("first event %+v %v, want a reload to %d", ev, err, head)
	}
	near := openStream(t, url+"/api/designs/"+created.ViewToken+"/events", "Last-Event-ID", strconv.FormatInt(head-2, 10))
	for _, want := range []int64{head - 1, head} {
		if ev, err := near.next(); err != nil || ev.name != "change" || ev.id != strconv.FormatInt(want, 10) {
			t.Fatalf("event %+v %v, want the change of revision %d", ev, err, want)
		}
	}
}

// A stream takes its connection over from the HTTP server (sse.go takeOver). It must still end
// as one served within the request would: the others see a tab leave as soon as it closes, it
// stays counted against the connection bounds while open, and the server's shutdown ends it.
func TestLive_takenOverStreamLeavesCountsAndEndsOnShutdown(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.srv.opts.MaxConnsPerClient = 3
	hs := a.srv.HTTPServer("")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	url := "http://" + ln.Addr().String()
	created := a.createJSON(`{"example": "hr-employees"}`)
	const tabA, tabB = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"
	first := openStream(t, url+"/d/"+created.EditToken+"/events?step=patterns&tab="+tabA, "Cookie", participantCookie+"=Ada")
	first.nextNamed(t, "presence")
	second := openStream(t, url+"/d/"+created.EditToken+"/events?step=patterns&tab="+tabB, "Cookie", participantCookie+"=Grace")
	if ev := first.nextNamed(t, presenceDeltaEventName); !strings.Contains(ev.data, `data-name="Grace"`) {
		t.Fatalf("Grace's join: %s", ev.data)
	}
	// Two streams and one more connection from this address are its bound: a fourth is refused.
	extra, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	fmt.Fprintf(extra, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if line, _ := bufio.NewReader(extra).ReadString('\n'); !strings.Contains(line, "200") {
		t.Fatalf("third connection: %q", line)
	}
	refused, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer refused.Close()
	if line, _ := bufio.NewReader(refused).ReadString('\n'); !strings.Contains(line, "429") {
		t.Fatalf("a fourth connection while two streams are open should be refused, got %q", line)
	}
	// Grace closes her tab: Ada's stream says so without waiting for a keep-alive.
	second.resp.Body.Close()
	if ev := first.nextNamed(t, presenceDeltaEventName); !strings.Contains(ev.data, `hx-swap-oob="delete"`) {
		t.Fatalf("Grace's leaving: %s", ev.data)
	}
	// The server shuts down: Ada's stream ends, and Shutdown does not wait for it.
	ctx, cancel := context.WithTimeout(context.Background(), streamWait)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	for {
		if _, err := first.next(); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("after shutdown the stream ended with %v, want its end", err)
			}
			break
		}
	}
	if n := a.srv.hub.Connections(); n != 0 {
		t.Fatalf("%d streams still in the hub after shutdown", n)
	}
}
