// Package abuse holds the load test of Dynaloom under abuse: one client floods the server with
// event streams and idle connections, while another edits a different design. It measures that
// design's edit latency and /healthz beside the same figures without the flood, and checks that
// the flood was bounded. It targets loopback only, is bounded in count and time, and stops by
// itself. Run it with:
//
//	go test ./test/abuse -run Abuse -v
package abuse

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dynaloom/internal/server"
	"dynaloom/internal/storage"
)

// The flood: streams per source address, from this many loopback addresses (the first one the
// "one client" whose bound is checked), plus idle connections from that first address.
const (
	streamSources   = 5
	streamsPerSrc   = 200
	floodExtra      = 300 // streams past the per-client bound, from the first address
	idleConnections = 1500
	edits           = 200
)

func TestAbuse_floodOnOneDesignDoesNotSlowAnother(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: opens thousands of loopback connections; runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := startServer(t, ctx)

	victim := newClient("127.0.0.10")
	target := create(t, victim, base)
	attacked := create(t, newClient("127.0.0.11"), base)
	pattern := firstPattern(t, victim, base, target)

	calm := measure(t, ctx, victim, newClient("127.0.0.12"), base, target, pattern, "calm")

	// The flood.
	var (
		wg                sync.WaitGroup
		streamsOK, status atomic.Int64
		refused429        atomic.Int64
		streamCut         atomic.Int64
	)
	floodCtx, stopFlood := context.WithCancel(ctx)
	defer stopFlood()
	openStream := func(c *http.Client, i int) {
		defer wg.Done()
		u := fmt.Sprintf("%s/d/%s/events?step=overview&tab=abuse%016d", base, attacked.view, i)
		req, _ := http.NewRequestWithContext(floodCtx, http.MethodGet, u, nil)
		resp, err := c.Do(req)
		if err != nil {
			// Past the address's connection bound the server closes the connection at once.
			if floodCtx.Err() == nil {
				streamCut.Add(1)
			}
			return
		}
		defer resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			streamsOK.Add(1)
			io.Copy(io.Discard, resp.Body) // until the flood stops
		case http.StatusTooManyRequests:
			refused429.Add(1)
		default:
			status.Add(1)
		}
	}
	for src := range streamSources {
		c := newClient(fmt.Sprintf("127.0.0.%d", 20+src))
		n := streamsPerSrc
		if src == 0 {
			n += floodExtra
		}
		for i := range n {
			wg.Add(1)
			go openStream(c, src*10000+i)
		}
	}
	var idle []net.Conn
	idleRefused := 0
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.20")}, Timeout: 2 * time.Second}
	for range idleConnections {
		c, err := d.DialContext(ctx, "tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			idleRefused++
			continue
		}
		idle = append(idle, c)
	}
	// The server takes connections in the order they came, and answers one past a bound before it
	// takes the next: once a request on a connection dialled after the idle ones is answered, every
	// idle one was either counted or answered 429, however far a loaded machine's accept loop
	// lagged behind the dials.
	lastCtx, lastCancel := context.WithTimeout(ctx, time.Minute)
	req, _ := http.NewRequestWithContext(lastCtx, http.MethodGet, base+"/healthz", nil)
	resp, err := newClient("127.0.0.30").Do(req)
	lastCancel()
	if err != nil {
		t.Fatalf("a connection dialled after the idle ones was not answered: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	// Connections past the per-client bound were answered 429 and closed; the others wait for a
	// request that never comes.
	var idle429 atomic.Int64
	var probe sync.WaitGroup
	for _, c := range idle {
		probe.Go(func() {
			c.SetReadDeadline(time.Now().Add(time.Second))
			buf := make([]byte, 12)
			if n, _ := io.ReadFull(c, buf); n == 12 && strings.HasSuffix(string(buf), " 429") {
				idle429.Add(1)
			}
		})
	}
	probe.Wait()
	// Edits on the attacked design make the flood's streams busy with fan-out.
	editor := newClient("127.0.0.13")
	attackedPattern := firstPattern(t, editor, base, attacked)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; floodCtx.Err() == nil; i++ {
			save(editor, base, attacked.edit, attackedPattern, fmt.Sprint("fan-out ", i))
			time.Sleep(50 * time.Millisecond)
		}
	}()
	time.Sleep(2 * time.Second) // let the streams connect
	loaded := measure(t, ctx, victim, newClient("127.0.0.12"), base, target, pattern, "flooded")
	openStreams := streamsOK.Load()
	stopFlood()
	for _, c := range idle {
		c.Close()
	}
	wg.Wait()

	t.Logf("flood: %d stream requests from 5 addresses, %d streams open at once, %d refused with 429 (the first address past its 200), %d cut at its connection bound, %d other answers",
		streamSources*streamsPerSrc+floodExtra, openStreams, refused429.Load(), streamCut.Load(), status.Load())
	t.Logf("flood: %d idle connections from one address (which also holds 200 streams): %d answered 429 and closed, %d dials failed",
		idleConnections, idle429.Load(), idleRefused)
	t.Logf("%-8s edit p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms | /healthz p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms", "calm",
		calm.edit.p(50), calm.edit.p(99), calm.edit.p(100), calm.health.p(50), calm.health.p(99), calm.health.p(100))
	t.Logf("%-8s edit p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms | /healthz p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms", "flooded",
		loaded.edit.p(50), loaded.edit.p(99), loaded.edit.p(100), loaded.health.p(50), loaded.health.p(99), loaded.health.p(100))
	if refused := refused429.Load() + streamCut.Load(); refused < floodExtra {
		t.Errorf("only %d streams refused; the first address asked for %d past its bound", refused, floodExtra)
	}
	if idle429.Load() < idleConnections-400 {
		t.Errorf("only %d of %d idle connections from one address were refused", idle429.Load(), idleConnections)
	}
	if loaded.failed > 0 || calm.failed > 0 {
		t.Errorf("edits or health probes of the other design failed: %d calm, %d flooded", calm.failed, loaded.failed)
	}
}

type design struct{ edit, view string }

type latencies []float64

func (l latencies) p(q float64) float64 {
	s := slices.Clone(l)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := int(float64(len(s)-1) * q / 100)
	return s[i]
}

type figures struct {
	edit, health latencies
	failed       int
}

// measure edits the victim's design edits times at a person's pace, and probes /healthz between
// them, timing each.
func measure(t *testing.T, ctx context.Context, victim, prober *http.Client, base string, d design, pattern, label string) figures {
	t.Helper()
	var f figures
	for i := range edits {
		if ctx.Err() != nil {
			t.Fatalf("%s: out of time", label)
		}
		start := time.Now()
		if !save(victim, base, d.edit, pattern, fmt.Sprintf("%s %d", label, i)) {
			f.failed++
		}
		f.edit = append(f.edit, float64(time.Since(start).Microseconds())/1000)
		start = time.Now()
		resp, err := prober.Get(base + "/healthz")
		if err != nil || resp.StatusCode != http.StatusOK {
			f.failed++
		}
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		f.health = append(f.health, float64(time.Since(start).Microseconds())/1000)
		// A person edits a few fields a second; the server's write limit is 20 a second.
		time.Sleep(60 * time.Millisecond)
	}
	return f
}

func save(c *http.Client, base, token, pattern, value string) bool {
	form := url.Values{"id": {pattern}, "field": {"description"}, "value": {value}}
	req, _ := http.NewRequest(http.MethodPost, base+"/d/"+token+"/patterns/field", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// newClient makes HTTP requests from one loopback address.
func newClient(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	return &http.Client{
		Timeout:   0,
		Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4, MaxConnsPerHost: 0},
	}
}

// create makes a copy of the HR example through the API.
func create(t *testing.T, c *http.Client, base string) design {
	t.Helper()
	resp, err := c.Post(base+"/api/designs", "application/json", strings.NewReader(`{"example": "hr-employees"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		EditToken string `json:"edit_token"`
		ViewToken string `json:"view_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, err)
	}
	return design{edit: out.EditToken, view: out.ViewToken}
}

// firstPattern is the id of the design's first access pattern.
func firstPattern(t *testing.T, c *http.Client, base string, d design) string {
	t.Helper()
	resp, err := c.Get(base + "/api/designs/" + d.edit)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Patterns []struct {
			ID string `json:"id"`
		} `json:"access_patterns"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Patterns) == 0 {
		t.Fatalf("read design: %v", err)
	}
	return out.Patterns[0].ID
}

// startServer serves a fresh database on a loopback port until the test ends, and returns its
// base URL.
func startServer(t *testing.T, ctx context.Context) string {
	t.Helper()
	store, err := storage.Open(ctx, filepath.Join(t.TempDir(), "abuse.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(store, slog.New(slog.NewTextHandler(io.Discard, nil)), server.Options{})
	hs := srv.HTTPServer("")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		hs.Shutdown(sctx)
		store.Close()
	})
	return "http://" + ln.Addr().String()
}
