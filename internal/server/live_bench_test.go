package server

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"dynaloom/internal/storage"
)

// liveServer serves a fresh database on a loopback port with the given options.
func liveServer(tb testing.TB, opts Options) (*Server, string) {
	tb.Helper()
	store, err := storage.Open(tb.Context(), filepath.Join(tb.TempDir(), "live.db"))
	if err != nil {
		tb.Fatal(err)
	}
	srv := New(store, slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	ts := httptest.NewServer(srv.Handler())
	tb.Cleanup(func() {
		srv.hub.Shutdown()
		ts.Close()
		store.Close()
	})
	return srv, ts.URL
}

// createOver creates a design (a design-json body, or {"example": …}) through the API of a running
// server, as a script would.
func createOver(tb testing.TB, url, body string) createdDesign {
	tb.Helper()
	resp, err := http.Post(url+"/api/designs", "application/json", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var out createdDesign
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusCreated {
		tb.Fatalf("create: %d %v", resp.StatusCode, err)
	}
	return out
}

var asideRevision = regexp.MustCompile(`data-revision="(\d+)"`)

// BenchmarkLive50Participants connects 50 participants' pages by SSE to one design while 5 of them
// edit continuously (one edit per iteration, spread over the 5), and measures the time from an
// edit's acknowledgement (its HTTP answer read by the editor) to its change event at each of the
// other 49 participants. An event that arrives before the acknowledgement counts as 0.
func BenchmarkLive50Participants(b *testing.B) {
	const participants, editors = 50, 5
	srv, url := liveServer(b, Options{WriteLimit: NoLimit, CreateLimit: NoLimit})
	created := createOver(b, url, `{"example": "hr-employees"}`)

	type arrival struct {
		rev int64
		at  time.Time
	}
	arrivals := make([]chan arrival, participants)
	for i := range arrivals {
		arrivals[i] = make(chan arrival, 1<<16)
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range participants {
		tab := fmt.Sprintf("tab%016d", i)
		s := openStream(b, url+"/d/"+created.ViewToken+"/events?step=patterns&rev=1&tab="+tab, "Cookie", participantCookie+"=P"+strconv.Itoa(i))
		go func(out chan<- arrival) {
			for {
				ev, err := s.next()
				if err != nil {
					close(out)
					return
				}
				if ev.name == "change" {
					rev, _ := strconv.ParseInt(ev.id, 10, 64)
					out <- arrival{rev, time.Now()}
				}
			}
		}(arrivals[i])
	}
	waitStreams(b, srv, participants)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	perConn := float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse) / participants

	// Which participant each editor is: its own events are not counted.
	var mu sync.Mutex
	acked := map[int64]time.Time{}
	editorOf := map[int64]int{}
	d, _ := designOver(b, url, created.EditToken)
	client := &http.Client{}
	b.ResetTimer()
	var wg sync.WaitGroup
	next := make(chan int)
	for e := range editors {
		wg.Go(func() {
			for n := range next {
				body := form("id", d.Patterns[e%len(d.Patterns)].ID, "field", "description", "value", "edit "+strconv.Itoa(n))
				req, _ := http.NewRequest(http.MethodPost, url+"/d/"+created.EditToken+"/patterns/field", strings.NewReader(body))
				req.Header.Set("Content-Type", formType)
				req.Header.Set("HX-Request", "true")
				req.Header.Set("Cookie", participantCookie+"=P"+strconv.Itoa(e))
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				page, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				at := time.Now()
				m := asideRevision.FindSubmatch(page)
				if resp.StatusCode != http.StatusOK || m == nil {
					b.Errorf("edit: %d", resp.StatusCode)
					return
				}
				rev, _ := strconv.ParseInt(string(m[1]), 10, 64)
				mu.Lock()
				acked[rev], editorOf[rev] = at, e
				mu.Unlock()
			}
		})
	}
	for i := 0; b.Loop(); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	b.StopTimer()

	var last int64
	for rev := range acked {
		last = max(last, rev)
	}
	var latencies []time.Duration
	deadline := time.After(10 * time.Second)
	for p, ch := range arrivals {
	collect:
		for {
			select {
			case a, ok := <-ch:
				if !ok {
					b.Fatalf("participant %d's stream ended", p)
				}
				if at, ok := acked[a.rev]; ok && editorOf[a.rev] != p {
					latencies = append(latencies, max(0, a.at.Sub(at)))
				}
				if a.rev >= last {
					break collect
				}
			case <-deadline:
				b.Fatalf("participant %d did not get revision %d within 10 s", p, last)
			}
		}
	}
	slices.Sort(latencies)
	pct := func(q float64) float64 {
		return float64(latencies[min(len(latencies)-1, int(q*float64(len(latencies))))].Microseconds()) / 1000
	}
	want := len(acked) * (participants - 1)
	if len(latencies) != want {
		b.Fatalf("%d deliveries measured, want %d (%d edits × %d others)", len(latencies), want, len(acked), participants-1)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(latencies[len(latencies)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(perConn, "B/conn(client+server)")
}

// designOver reads a design through the API of a running server.
func designOver(tb testing.TB, url, token string) (struct{ Patterns []struct{ ID string } }, int64) {
	tb.Helper()
	resp, err := http.Get(url + "/api/designs/" + token)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Revision int64
		Patterns []struct{ ID string } `json:"access_patterns"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		tb.Fatal(err)
	}
	return struct{ Patterns []struct{ ID string } }{body.Patterns}, body.Revision
}

// TestLive_holds500IdleStreams holds 500 idle event streams on one design: each gets keep-alive
// comments while idle, and one change reaches all 500.
func TestLive_holds500IdleStreams(t *testing.T) {
	const n = 500
	// One test process is one client address: the per-client stream bound is not what this measures.
	srv, url := liveServer(t, Options{KeepAlive: 300 * time.Millisecond, MaxStreamsPerClient: -1})
	created := createOver(t, url, `{"example": "hr-employees"}`)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	streams := make([]*sseClient, n)
	for i := range streams {
		streams[i] = openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	}
	waitStreams(t, srv, n)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("%d idle streams: %.1f KiB per stream (client and server together, heap and stacks)", n,
		float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse)/n/1024)
	// Idle: a keep-alive comment comes through.
	line, err := streams[n-1].r.ReadString('\n')
	for err == nil && !strings.HasPrefix(line, ": keep-alive") {
		line, err = streams[n-1].r.ReadString('\n')
	}
	if err != nil {
		t.Fatalf("no keep-alive on an idle stream: %v", err)
	}
	d, rev := designOver(t, url, created.EditToken)
	resp, err := http.Post(url+"/d/"+created.EditToken+"/patterns/field", formType, strings.NewReader(form("id", d.Patterns[0].ID, "field", "description", "value", "to all")))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("edit: %v %v", err, resp)
	}
	resp.Body.Close()
	var wg sync.WaitGroup
	for _, s := range streams {
		wg.Go(func() {
			if ev := s.nextNamed(t, "change"); ev.id != strconv.FormatInt(rev+1, 10) {
				t.Errorf("event %q, want revision %d", ev.id, rev+1)
			}
		})
	}
	wg.Wait()
	if got := srv.hub.Connections(); got != n {
		t.Fatalf("%d streams open after the change, want %d", got, n)
	}
}

// waitStreams waits until the hub holds at least n streams, and fails, saying how many it holds,
// if that takes more than 30 seconds (a stream that never arrives would otherwise hang the test).
func waitStreams(tb testing.TB, srv *Server, n int) {
	tb.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for srv.hub.Connections() < n {
		if time.Now().After(deadline) {
			tb.Fatalf("the hub holds %d streams after 30 s, want %d", srv.hub.Connections(), n)
		}
		time.Sleep(time.Millisecond)
	}
}
