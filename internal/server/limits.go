// The limits held in memory: a token bucket per address, and the open connections per client.

package server

import (
	"errors"
	"math"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"
)

// Rate is a token bucket: up to Burst requests at once, refilled at PerSecond. In Options the zero
// Rate means the default; NoLimit turns a limit off.
type Rate struct {
	PerSecond float64
	Burst     int
}

// NoLimit is a Rate that never refuses.
var NoLimit = Rate{PerSecond: math.Inf(1)}

// The default limits leave a workshop plenty of room: a room of people typing into one design
// sends a few changes a second, and a facilitator creates a handful of designs.
var (
	defaultCreateLimit = Rate{PerSecond: 10.0 / 60, Burst: 20}
	defaultWriteLimit  = Rate{PerSecond: 20, Burst: 60}
	defaultCostlyLimit = Rate{PerSecond: 5, Burst: 30}
	// A quarter of a MiB a second is hundreds of edits or a pasted sheet; with its 32 MiB burst it
	// bounds what one address can add to the database at under a GiB an hour.
	defaultWriteBytesLimit = Rate{PerSecond: 256 << 10, Burst: 32 << 20}
)

func (r Rate) orDefault(def Rate) Rate {
	if r == (Rate{}) || math.IsNaN(r.PerSecond) || r.PerSecond <= 0 {
		return def
	}
	if r.Burst < 1 {
		r.Burst = 1
	}
	return r
}

// maxBuckets bounds each limiter's memory. Idle buckets are dropped first; past that, the least
// recently used.
const maxBuckets = 10000

// sweepEvery is how often a limiter drops the buckets that have refilled.
const sweepEvery = time.Minute

// limiter keeps one token bucket per key.
type limiter struct {
	rate Rate
	now  func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate Rate, now func() time.Time) *limiter {
	return &limiter{rate: rate, now: now, buckets: map[string]*bucket{}, lastSweep: now()}
}

// allow takes one token from key's bucket. When the bucket is empty it reports how long until the
// next token.
func (l *limiter) allow(key string) (bool, time.Duration) {
	return l.allowN(key, 1)
}

// allowN takes n tokens from key's bucket at once, as allow takes one. n is at most the burst:
// a request larger than the whole bucket is weighed as a full one.
func (l *limiter) allowN(key string, n float64) (bool, time.Duration) {
	if math.IsInf(l.rate.PerSecond, 1) {
		return true, 0
	}
	n = min(n, float64(l.rate.Burst))
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.lastSweep) >= sweepEvery || len(l.buckets) >= maxBuckets {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: float64(l.rate.Burst), last: now}
		l.buckets[key] = b
	}
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = min(float64(l.rate.Burst), b.tokens+elapsed*l.rate.PerSecond)
	}
	b.last = now
	if b.tokens >= n {
		b.tokens -= n
		return true, 0
	}
	wait := time.Duration((n - b.tokens) / l.rate.PerSecond * float64(time.Second))
	return false, wait
}

// sweep drops every bucket that has refilled (a full bucket is the same as none), and if that is
// not enough to make room, the least recently used one.
func (l *limiter) sweep(now time.Time) {
	l.lastSweep = now
	full := time.Duration(float64(l.rate.Burst) / l.rate.PerSecond * float64(time.Second))
	for k, b := range l.buckets {
		if now.Sub(b.last) >= full {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) < maxBuckets {
		return
	}
	var (
		oldest string
		at     time.Time
	)
	for k, b := range l.buckets {
		if oldest == "" || b.last.Before(at) {
			oldest, at = k, b.last
		}
	}
	delete(l.buckets, oldest)
}

// size is how many buckets the limiter holds.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// connLimiter bounds open TCP connections, per client address and in all. It works on the
// server's connection states, so a connection past a bound is answered and closed before any
// of its requests is read: a flood of idle connections from one address cannot use up the
// process's file descriptors and lock everyone else out.
type connLimiter struct {
	perClient, total int // 0: no bound
	log              func(msg string, args ...any)

	mu      sync.Mutex
	open    map[net.Conn]string // the client of each counted connection
	clients map[string]int
}

func newConnLimiter(perClient, total int, log func(string, ...any)) *connLimiter {
	return &connLimiter{perClient: perClient, total: total, log: log, open: map[net.Conn]string{}, clients: map[string]int{}}
}

// refusal429 is the whole answer a connection past a bound gets. It is written before the request
// is read, so it cannot know whether an AWS SDK sent it (/evaluate): X-Amzn-ErrorType tells an SDK
// it was throttled, which it retries, while other clients read the JSON.
func refusal429(limit string) []byte {
	body := `{"error":{"code":"too_many_connections","message":"Too many open connections ` + limit +
		`. Close some tabs or connections and try again."}}`
	return []byte("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 5\r\n" +
		"X-Amzn-ErrorType: ThrottlingException\r\n" +
		"Connection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}

// connState is the server's ConnState hook.
func (l *connLimiter) connState(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		if limit := l.admit(c); limit != "" {
			// The hook runs in the accept loop: never wait on a client that does not read.
			_ = c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
			_, _ = c.Write(refusal429(limit))
			c.Close()
		}
	case http.StateClosed:
		l.release(c)
	}
	// A connection taken over (an event stream, sse.go takeOver) stays counted until the stream
	// closes it and calls forget.
}

// forget uncounts a connection that was taken over from the server, once it is closed. l may be
// nil (a server whose HTTPServer was never asked for counts nothing).
func (l *connLimiter) forget(c net.Conn) {
	if l != nil {
		l.release(c)
	}
}

// admit counts a new connection, or names the bound it would pass.
func (l *connLimiter) admit(c net.Conn) string {
	client := connClient(c)
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.total > 0 && len(l.open) >= l.total:
		l.log("connection refused", "limit", "max_conns", "open", len(l.open))
		return "on this server (--max-conns " + strconv.Itoa(l.total) + ")"
	case l.perClient > 0 && l.clients[client] >= l.perClient:
		return "from your address (--max-conns-per-client " + strconv.Itoa(l.perClient) + ")"
	}
	l.open[c] = client
	l.clients[client]++
	return ""
}

func (l *connLimiter) release(c net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	client, ok := l.open[c]
	if !ok {
		return
	}
	delete(l.open, c)
	if l.clients[client]--; l.clients[client] <= 0 {
		delete(l.clients, client)
	}
}

// connClient is the address a connection counts against: its peer's IP, an IPv6 peer by its /64
// as requests are counted (clientAddr).
func connClient(c net.Conn) string {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	addr := ap.Addr().Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// statusClientClosed is logged for a request whose client left before any answer was sent
// (nginx's 499); it is never sent.
const statusClientClosed = 499

// clientGone says why a request's error means its answer could not reach the client: "canceled"
// (the client closed the request), "write_timeout" (the server's write deadline passed) or
// "connection_closed"; "" when the error is the server's own.
func clientGone(c echo.Context, err error) string {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, http.ErrHandlerTimeout):
		return "write_timeout"
	case errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET), errors.Is(err, net.ErrClosed):
		return "connection_closed"
	case c.Request().Context().Err() != nil:
		// The request's context ends when its connection does; whatever failed then failed
		// because the client left.
		return "canceled"
	}
	return ""
}
