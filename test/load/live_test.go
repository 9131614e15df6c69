package load

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// readEvents reads server-sent events from body until it ends, counting the bytes read into n,
// calling first once the first line has come and on for every event.
func readEvents(body io.Reader, n *atomic.Int64, first func(), on func(name, id string, data int)) error {
	br := bufio.NewReader(body)
	var (
		name, id string
		data     int
		started  bool
	)
	for {
		line, err := br.ReadString('\n')
		n.Add(int64(len(line)))
		if err != nil {
			return err
		}
		if !started {
			started = true
			first()
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if name != "" || data > 0 {
				on(name, id, data)
			}
			name, id, data = "", "", 0
		case strings.HasPrefix(line, "event:"):
			name = strings.TrimSpace(line[len("event:"):])
		case strings.HasPrefix(line, "id:"):
			id = strings.TrimSpace(line[len("id:"):])
		case strings.HasPrefix(line, "data:"):
			data += len(strings.TrimPrefix(line[len("data:"):], " "))
		}
	}
}

// streamClient opens event streams from one loopback address, without a time limit.
func streamClient(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}}
}

// fan is what a fan-out measured: the time from an edit's acknowledgement to its change event at
// each listener (0 when the event came first), the events that never came, and the mean size of
// a change event's data.
type fan struct {
	lag        timings
	missed     int
	eventBytes int
}

// editPace is the time between two edits of a fan-out: a busy room, at the same pace for the server
// and the bare broadcaster, so that neither is measured behind a queue of its own making.
const editPace = 20 * time.Millisecond

// fanOut connects n listeners to streamURL(i), then makes up to edits edits one after the other
// with edit (which returns the revision it made, once acknowledged), and times each edit's event
// at every listener.
func fanOut(t *testing.T, ctx context.Context, n, edits int, limit time.Duration, streamURL func(i int) string, edit func(i int) (int64, error)) fan {
	t.Helper()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	type arrival struct {
		rev int64
		at  time.Time
	}
	arrivals := make(chan arrival, n*(edits+16))
	var (
		connected           sync.WaitGroup
		wg                  sync.WaitGroup
		read, events, bytes atomic.Int64
		failed              atomic.Int64
	)
	client := streamClient("127.0.0.1")
	connected.Add(n)
	for i := range n {
		wg.Go(func() {
			once := sync.OnceFunc(connected.Done)
			defer once()
			req, _ := http.NewRequestWithContext(sctx, http.MethodGet, streamURL(i), nil)
			resp, err := client.Do(req)
			if err != nil {
				failed.Add(1)
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				failed.Add(1)
				return
			}
			readEvents(resp.Body, &read, once, func(name, id string, data int) {
				if name != "change" {
					return
				}
				rev, _ := strconv.ParseInt(id, 10, 64)
				events.Add(1)
				bytes.Add(int64(data))
				select {
				case arrivals <- arrival{rev, time.Now()}:
				default:
				}
			})
		})
	}
	connected.Wait()
	if f := failed.Load(); f > 0 {
		t.Fatalf("%d of %d listeners could not connect", f, n)
	}
	acked := map[int64]time.Time{}
	repeat(t, edits, limit, func(i int) error {
		rev, err := edit(i)
		acked[rev] = time.Now()
		time.Sleep(editPace)
		return err
	})
	var f fan
	want := n * len(acked)
	wait := time.After(5 * time.Second)
	got := 0
collect:
	for got < want {
		select {
		case a := <-arrivals:
			if at, ok := acked[a.rev]; ok {
				got++
				f.lag = append(f.lag, max(0, float64(a.at.Sub(at).Microseconds())/1000))
			}
		case <-wait:
			break collect
		}
	}
	f.missed = want - got
	if e := events.Load(); e > 0 {
		f.eventBytes = int(bytes.Load() / e)
	}
	stop()
	wg.Wait()
	return f
}

// joined is what tabs joining a design measured: the time until every tab had its first
// presence event, the bytes sent to all of them until the streams fell quiet, the streams
// refused or ended before the end, and how many connected.
type joined struct {
	connected float64
	bytes     int
	dropped   int
	tabs      int
}

// join opens tabs event streams at once from ten loopback addresses and waits for each to get its
// first presence event, then reads until nothing more comes for a second.
func join(t *testing.T, ctx context.Context, tabs int, limit time.Duration, streamURL func(i int) string) joined {
	t.Helper()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	clients := make([]*http.Client, 10)
	for i := range clients {
		clients[i] = streamClient(fmt.Sprintf("127.0.0.%d", 40+i))
	}
	var (
		wg                 sync.WaitGroup
		read, dropped, got atomic.Int64
		last               atomic.Int64 // nanoseconds from start until the latest first presence event
	)
	start := time.Now()
	for i := range tabs {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(sctx, http.MethodGet, streamURL(i), nil)
			resp, err := clients[i%len(clients)].Do(req)
			if err != nil {
				if sctx.Err() == nil {
					dropped.Add(1)
				}
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				dropped.Add(1)
				return
			}
			seen := false
			readEvents(resp.Body, &read, func() {}, func(name, _ string, _ int) {
				if name == "presence" && !seen {
					seen = true
					got.Add(1)
					at := int64(time.Since(start))
					for prev := last.Load(); at > prev && !last.CompareAndSwap(prev, at); prev = last.Load() {
					}
				}
			})
			if sctx.Err() == nil {
				dropped.Add(1)
			}
		})
	}
	deadline := time.Now().Add(limit)
	for got.Load()+dropped.Load() < int64(tabs) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	var j joined
	j.connected = float64(time.Duration(last.Load()).Microseconds()) / 1000
	if got.Load() < int64(tabs) {
		j.connected = float64(limit.Milliseconds())
	}
	// Until the streams fall quiet for a second, at most ten seconds.
	for prev, quiet, stopAt := read.Load(), 0, time.Now().Add(10*time.Second); quiet < 4 && time.Now().Before(stopAt); {
		time.Sleep(250 * time.Millisecond)
		if now := read.Load(); now == prev {
			quiet++
		} else {
			prev, quiet = now, 0
		}
	}
	j.bytes, j.dropped, j.tabs = int(read.Load()), int(dropped.Load()), int(got.Load())
	stop()
	wg.Wait()
	return j
}

// fanOut measures the server's fan-out to n listeners of d's Tables step while cell edits are made.
func (a *app) fanOut(t *testing.T, ctx context.Context, d design, n, edits int, limit time.Duration) fan {
	rec, err := a.store.Load(ctx, d.id)
	if err != nil {
		t.Fatal(err)
	}
	return fanOut(t, ctx, n, edits, limit,
		func(i int) string {
			return fmt.Sprintf("%s/d/%s/events?step=tables&rev=%d&tab=listener%08d", a.base, d.view, rec.Revision, i)
		},
		func(i int) (int64, error) {
			rev, _, err := a.editCell(ctx, d.edit, "Table00", "i2", fmt.Sprint("live ", i), 0)
			return rev, err
		})
}

// join measures tabs joining d's Overview step.
func (a *app) join(t *testing.T, ctx context.Context, d design, tabs int, limit time.Duration) joined {
	return join(t, ctx, tabs, limit, func(i int) string {
		return fmt.Sprintf("%s/d/%s/events?step=overview&tab=joining%09d", a.base, d.view, i)
	})
}

// broadcaster is the anchor of the live figures: a bare Go SSE broadcaster on a loopback port. An
// edit is a POST that numbers a revision and writes one change event to every stream; a tab
// joining gets the list of everyone, and the others only its name.
type broadcaster struct {
	base  string
	mu    sync.Mutex
	subs  map[int]chan string
	names map[int]string
	next  int
	rev   atomic.Int64
}

func startBroadcaster(t *testing.T) *broadcaster {
	b := &broadcaster{subs: map[int]chan string{}, names: map[int]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /events", b.events)
	mux.HandleFunc("POST /edit", b.edit)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	b.base = "http://" + ln.Addr().String()
	return b
}

func (b *broadcaster) events(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	ch := make(chan string, 64)
	b.mu.Lock()
	id := b.next
	b.next++
	everyone := make([]string, 0, len(b.subs)+1)
	for _, other := range b.subs {
		select {
		case other <- "event: join\ndata: " + name + "\n\n":
		default:
		}
	}
	b.subs[id], b.names[id] = ch, name
	for _, n := range b.names {
		everyone = append(everyone, n)
	}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.subs, id)
		delete(b.names, id)
		b.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "retry: 1000\n\nevent: presence\ndata: %s\n\n", strings.Join(everyone, ","))
	flusher := w.(http.Flusher)
	flusher.Flush()
	for {
		select {
		case msg := <-ch:
			io.WriteString(w, msg)
			flusher.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

func (b *broadcaster) edit(w http.ResponseWriter, r *http.Request) {
	size, _ := strconv.Atoi(r.URL.Query().Get("size"))
	rev := b.rev.Add(1)
	msg := fmt.Sprintf("event: change\nid: %d\ndata: %s\n\n", rev, strings.Repeat("x", size))
	b.mu.Lock()
	for _, ch := range b.subs {
		select {
		case ch <- msg:
		default:
		}
	}
	b.mu.Unlock()
	fmt.Fprint(w, rev)
}

// fanOut measures the broadcaster's fan-out to n listeners of change events of eventBytes each.
func (b *broadcaster) fanOut(t *testing.T, ctx context.Context, n, eventBytes, edits int, limit time.Duration) fan {
	client := &http.Client{Timeout: 10 * time.Second}
	return fanOut(t, ctx, n, edits, limit,
		func(i int) string { return fmt.Sprintf("%s/events?name=L%d", b.base, i) },
		func(int) (int64, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/edit?size=%d", b.base, eventBytes), nil)
			resp, err := client.Do(req)
			if err != nil {
				return 0, err
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				return 0, err
			}
			return strconv.ParseInt(string(body), 10, 64)
		})
}

// join measures tabs joining the broadcaster.
func (b *broadcaster) join(t *testing.T, ctx context.Context, tabs int, limit time.Duration) joined {
	return join(t, ctx, tabs, limit, func(i int) string { return fmt.Sprintf("%s/events?name=T%d", b.base, i) })
}
