package server

import (
	"dynaloom/internal/live"

	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRoom15_cellEdit measures what one pattern-field edit costs the server in a room of 15:
// the edit, then the 14 other pages' refreshes (half on the edit link, half on the view link),
// each asking for what changed since the revision it shows. The anchor is the edit alone, timed
// in the same iterations; "room/edit" is the ratio (issue 14: at most 3).
func BenchmarkRoom15_cellEdit(b *testing.B) {
	a := newTestApp(b)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, _ := a.design(created.EditToken)
	benchRoom(b, a, created, "/patterns", func(i int) (string, string) {
		return "/patterns/field", form("id", d.Patterns[i%len(d.Patterns)].ID, "field", "description", "value", "edit "+strconv.Itoa(i))
	})
}

// BenchmarkRoom15_itemCellEdit is BenchmarkRoom15_cellEdit on the Tables step of a design of about
// 350 KB (1,000 items over 4 tables, 8 GSIs, 200 patterns): one item's cell edited, then the 14
// other pages on that table asking for what changed, each answered with the cell, the row's size
// and the index grids the edit changed. "step/edit" is what one page drawing the whole step (as
// every page did before) costs against the edit.
func BenchmarkRoom15_itemCellEdit(b *testing.B) {
	a := newTestAppWith(b, Options{CreateLimit: NoLimit, WriteLimit: NoLimit, BodyLimit: 64 << 20})
	created, d := a.createLarge(mediumEditSize)
	tb := d.Tables[0]
	benchRoom(b, a, created, "/tables?table="+tb.Name, func(i int) (string, string) {
		return "/items/cell", form("table", tb.Name, "id", tb.Items[0].ID, "attribute", "note", "value", "edit "+strconv.Itoa(i))
	})
}

// benchRoom times, per iteration, the edit that edit(i) names (its path and form) from a page on
// step, then the refreshes of the 14 other pages on step, each answered in parts, and one page
// drawing step whole.
func benchRoom(b *testing.B, a *testApp, created createdDesign, step string, edit func(i int) (path, body string)) {
	const others = 14
	_, rev := a.design(created.EditToken)
	a.request(http.MethodGet, "/d/"+created.ViewToken+step, "", nil, "HX-Request", "true") // the pages were drawn
	var edits, room, whole time.Duration
	var partBytes int
	for i := 0; b.Loop(); i++ {
		path, body := edit(i)
		start := time.Now()
		rec := a.request(http.MethodPost, "/d/"+created.EditToken+path, formType, strings.NewReader(body),
			"HX-Request", "true", "Cookie", participantCookie+"=Ada", "HX-Current-URL", "http://x/d/"+created.EditToken+step)
		took := time.Since(start)
		if rec.Code != http.StatusOK {
			b.Fatalf("edit: %d %s", rec.Code, rec.Body)
		}
		edits += took
		start = time.Now()
		for o := range others {
			token := created.EditToken
			if o%2 == 1 {
				token = created.ViewToken
			}
			rec := a.request(http.MethodGet, "/d/"+token+step, "", nil, "HX-Request", "true", sinceHeader, strconv.FormatInt(rev, 10))
			if rec.Code != http.StatusOK || rec.Header().Get(fragmentsHeader) == "" {
				b.Fatalf("refresh: %d %v", rec.Code, rec.Header())
			}
			partBytes += rec.Body.Len()
		}
		room += took + time.Since(start)
		start = time.Now()
		if rec := a.request(http.MethodGet, "/d/"+created.ViewToken+step, "", nil, "HX-Request", "true"); rec.Code != http.StatusOK {
			b.Fatalf("step: %d", rec.Code)
		}
		whole += time.Since(start)
		rev++
	}
	n := float64(b.N)
	b.ReportMetric(float64(edits.Microseconds())/n/1000, "edit-ms")
	b.ReportMetric(float64(room.Microseconds())/n/1000, "room-ms")
	b.ReportMetric(float64(room)/float64(edits), "room/edit")
	b.ReportMetric(float64(whole)/float64(edits), "step/edit")
	b.ReportMetric(float64(partBytes)/n/others, "B/refresh")
}

// bareBroadcaster is the anchor of the fan-out benchmarks: a plain Go SSE server that does
// nothing but hand each posted event to every open stream — no storage, no rendering.
type bareBroadcaster struct {
	mu   sync.Mutex
	rev  int64
	subs map[chan []byte]struct{}
}

func (h *bareBroadcaster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		h.mu.Lock()
		h.rev++
		msg := fmt.Appendf(nil, "id: %d\nevent: change\ndata: {\"revision\":%d}\n\n", h.rev, h.rev)
		for ch := range h.subs {
			select {
			case ch <- msg:
			default:
			}
		}
		rev := h.rev
		h.mu.Unlock()
		w.Header().Set("X-Dynaloom-Revision", strconv.FormatInt(rev, 10))
		return
	}
	ch := make(chan []byte, live.QueueLen)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte("event: presence\ndata: here\n\n"))
	w.(http.Flusher).Flush()
	for {
		select {
		case msg := <-ch:
			w.Write(msg)
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		}
	}
}

func newBareBroadcaster(tb testing.TB) string {
	ts := httptest.NewServer(&bareBroadcaster{subs: map[chan []byte]struct{}{}})
	tb.Cleanup(ts.Close)
	return ts.URL
}

// fanout holds listeners on one stream URL each and times, for each edit, the time from its
// acknowledgement to its change event at every listener.
type fanout struct {
	mu    sync.Mutex
	acked map[int64]time.Time
	lat   []time.Duration
	// sent is when the edit in flight was posted (one at a time); fromSent are the times from
	// there to each event.
	sent     time.Time
	fromSent []time.Duration
	seen     []atomic.Int64
	ended    atomic.Int64
}

func listen(tb testing.TB, n int, url func(i int) string, header ...string) *fanout {
	f := &fanout{acked: map[int64]time.Time{}, seen: make([]atomic.Int64, n)}
	for i := range n {
		s := openStream(tb, url(i), header...)
		go func() {
			for {
				ev, err := s.next()
				if err != nil {
					f.ended.Add(1)
					return
				}
				if ev.name != "change" {
					continue
				}
				at := time.Now()
				rev, _ := strconv.ParseInt(ev.id, 10, 64)
				f.mu.Lock()
				lat := time.Duration(0) // the event came before the acknowledgement
				if ack, ok := f.acked[rev]; ok {
					lat = max(0, at.Sub(ack))
				}
				f.lat = append(f.lat, lat)
				f.fromSent = append(f.fromSent, at.Sub(f.sent))
				f.mu.Unlock()
				f.seen[i].Store(rev)
			}
		}()
	}
	return f
}

// edited records an edit's acknowledgement.
func (f *fanout) edited(rev int64, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acked[rev] = at
}

// wait waits until every listener has seen revision rev.
func (f *fanout) wait(tb testing.TB, rev int64) {
	deadline := time.Now().Add(10 * time.Second)
	for i := range f.seen {
		for f.seen[i].Load() < rev {
			if time.Now().After(deadline) {
				tb.Fatalf("listener %d did not get revision %d within 10 s", i, rev)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
}

// sending records that an edit is about to be posted.
func (f *fanout) sending() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = time.Now()
}

// p99 is the 99th percentile of ds in milliseconds.
func (f *fanout) p99(ds []time.Duration) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	slices.Sort(ds)
	if len(ds) == 0 {
		return 0
	}
	return float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds()) / 1000
}

// BenchmarkFanout50 times an edit's acknowledgement to its change event at 50 page streams of
// Dynaloom, and the same for a bare Go SSE broadcaster in the same iterations (the anchor). Each
// iteration is one edit of each, waited for at every listener.
func BenchmarkFanout50(b *testing.B) {
	const n = 50
	_, url := liveServer(b, Options{WriteLimit: NoLimit, CreateLimit: NoLimit, MaxStreamsPerClient: -1})
	created := createOver(b, url, `{"example": "hr-employees"}`)
	d, rev := designOver(b, url, created.EditToken)
	ours := listen(b, n, func(i int) string {
		return fmt.Sprintf("%s/d/%s/events?step=patterns&rev=%d&tab=fanout%016d", url, created.ViewToken, rev, i)
	})
	bareURL := newBareBroadcaster(b)
	bare := listen(b, n, func(int) string { return bareURL })
	time.Sleep(100 * time.Millisecond) // every stream open
	client := &http.Client{}
	post := func(url, body string) int64 {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", formType)
		req.Header.Set("HX-Request", "true")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		r, _ := strconv.ParseInt(resp.Header.Get("X-Dynaloom-Revision"), 10, 64)
		if resp.StatusCode != http.StatusOK || r == 0 {
			b.Fatalf("post %s: %d", url, resp.StatusCode)
		}
		return r
	}
	for i := 0; b.Loop(); i++ {
		ours.sending()
		r := post(url+"/d/"+created.EditToken+"/patterns/field", form("id", d.Patterns[i%len(d.Patterns)].ID, "field", "description", "value", "fan "+strconv.Itoa(i)))
		ours.edited(r, time.Now())
		ours.wait(b, r)
		bare.sending()
		r = post(bareURL, "")
		bare.edited(r, time.Now())
		bare.wait(b, r)
	}
	if ended := ours.ended.Load() + bare.ended.Load(); ended > 0 {
		b.Fatalf("%d streams ended", ended)
	}
	// Events mostly arrive before the editor has read its acknowledgement (0), so the time from
	// posting the edit to each event is reported too, with its ratio to the bare broadcaster's.
	b.ReportMetric(ours.p99(ours.lat), "ack-p99-ms")
	b.ReportMetric(bare.p99(bare.lat), "bare-ack-p99-ms")
	b.ReportMetric(ours.p99(ours.fromSent), "post-p99-ms")
	b.ReportMetric(bare.p99(bare.fromSent), "bare-post-p99-ms")
	b.ReportMetric(ours.p99(ours.fromSent)/bare.p99(bare.fromSent), "post-p99/bare")
}

// BenchmarkJoin200 opens 200 page streams of one design at once, as a room of tabs joining, and
// measures the time until every one has its first presence list, the bytes every stream has
// received once presence has settled, and the streams dropped; a bare Go SSE server accepting
// 200 streams is timed beside it.
func BenchmarkJoin200(b *testing.B) {
	const n = 200
	_, url := liveServer(b, Options{WriteLimit: NoLimit, CreateLimit: NoLimit, MaxStreamsPerClient: -1})
	bareURL := newBareBroadcaster(b)
	var joinOurs, joinBare time.Duration
	var bytesPer float64
	var dropped int64
	for i := 0; b.Loop(); i++ {
		created := createOver(b, url, `{"example": "hr-employees"}`)
		took, got, ended := join(b, n, func(j int) string {
			return fmt.Sprintf("%s/d/%s/events?step=overview&tab=join%04d%016d", url, created.ViewToken, i, j)
		}, 2*live.PresenceEvery)
		joinOurs += took
		bytesPer += float64(got) / n
		dropped += ended
		took, _, ended = join(b, n, func(int) string { return bareURL }, 0)
		joinBare += took
		dropped += ended
	}
	nf := float64(b.N)
	b.ReportMetric(float64(joinOurs.Microseconds())/nf/1000, "join-ms")
	b.ReportMetric(float64(joinBare.Microseconds())/nf/1000, "bare-join-ms")
	b.ReportMetric(float64(joinOurs)/float64(joinBare), "join/bare")
	b.ReportMetric(bytesPer/nf/1024, "KiB/stream")
	b.ReportMetric(float64(dropped)/nf, "dropped")
}

// join opens n streams at once and waits until each has its first event; it then lets them
// read for settle, closes them and answers how long the opening took, the bytes read and how many
// streams ended on their own.
func join(tb testing.TB, n int, url func(int) string, settle time.Duration) (took time.Duration, bytes int64, ended int64) {
	var (
		read, gone atomic.Int64
		first      sync.WaitGroup
		stop       = make(chan struct{})
		bodies     = make([]io.Closer, n)
		mu         sync.Mutex
		all        sync.WaitGroup
	)
	first.Add(n)
	start := time.Now()
	for j := range n {
		all.Go(func() {
			resp, err := http.Get(url(j))
			if err != nil || resp.StatusCode != http.StatusOK {
				gone.Add(1)
				first.Done()
				return
			}
			mu.Lock()
			bodies[j] = resp.Body
			mu.Unlock()
			r := bufio.NewReader(resp.Body)
			once, inEvent := false, false
			for {
				line, err := r.ReadString('\n')
				read.Add(int64(len(line)))
				if err != nil {
					select {
					case <-stop:
					default:
						gone.Add(1)
					}
					if !once {
						first.Done()
					}
					return
				}
				inEvent = inEvent || strings.HasPrefix(line, "event: ")
				if line == "\n" && inEvent && !once {
					once = true
					first.Done()
				}
			}
		})
	}
	first.Wait()
	took = time.Since(start)
	time.Sleep(settle)
	bytes = read.Load()
	close(stop)
	mu.Lock()
	for _, body := range bodies {
		if body != nil {
			body.Close()
		}
	}
	mu.Unlock()
	all.Wait()
	return took, bytes, gone.Load()
}

// BenchmarkIdleStreams500 holds 500 idle page streams of one design and reports what each costs
// the server in heap and stacks (issue 14: at most 40 KB). The client side is a bare TCP
// connection per stream that never reads, so nearly all that is counted is the server's. Its
// anchor is BenchmarkIdleStreams500_bare.
func BenchmarkIdleStreams500(b *testing.B) {
	srv, url := liveServer(b, Options{KeepAlive: time.Hour, MaxStreamsPerClient: -1})
	created := createOver(b, url, `{"example": "hr-employees"}`)
	idleStreams(b, strings.TrimPrefix(url, "http://"), func(i, j int) string {
		return fmt.Sprintf("/d/%s/events?step=overview&tab=idle%04d%016d", created.ViewToken, i, j)
	}, func() int64 { return int64(srv.hub.Connections()) })
}

// BenchmarkIdleStreams500_bare is BenchmarkIdleStreams500's anchor: the same 500 idle connections
// held by a bare Go SSE handler on net/http (headers, one flush, then it waits for the client to
// go), measured the same way in the same run.
func BenchmarkIdleStreams500_bare(b *testing.B) {
	var open atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		open.Add(1)
		defer open.Add(-1)
		<-r.Context().Done()
	}))
	b.Cleanup(ts.Close)
	idleStreams(b, strings.TrimPrefix(ts.URL, "http://"), func(int, int) string { return "/events" }, open.Load)
}

// idleStreams opens 500 connections to host, each asking for the stream at path(i, j) (i the
// benchmark's round, j the connection) and never reading, waits until open counts them all and
// they have settled, and reports the heap and stacks each one added.
func idleStreams(b *testing.B, host string, path func(i, j int) string, open func() int64) {
	const n = 500
	var perStream, stacks float64
	for i := 0; b.Loop(); i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		conns := make([]net.Conn, n)
		for j := range conns {
			conn, err := net.Dial("tcp", host)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path(i, j), host)
			conns[j] = conn
		}
		for open() < n {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(2 * live.PresenceEvery) // presence written and settled
		runtime.GC()
		runtime.ReadMemStats(&after)
		perStream += float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse) / n
		stacks += float64(after.StackInuse-before.StackInuse) / n
		for _, c := range conns {
			c.Close()
		}
		for open() > 0 {
			time.Sleep(time.Millisecond)
		}
	}
	b.ReportMetric(perStream/float64(b.N)/1024, "KiB/stream")
	b.ReportMetric(stacks/float64(b.N)/1024, "stack-KiB/stream")
}
