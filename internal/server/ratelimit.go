package server

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
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

// clientAddr is the address requests are counted by: the connection's peer, or with
// TrustForwardedFor the last X-Forwarded-For entry (the one the trusted proxy added). An IPv6
// client counts by its /64, as one machine commonly holds a whole /64.
func (s *Server) clientAddr(r *http.Request) string {
	raw := r.RemoteAddr
	if host, _, err := net.SplitHostPort(raw); err == nil {
		raw = host
	}
	if s.opts.TrustForwardedFor {
		if hops := r.Header.Values("X-Forwarded-For"); len(hops) > 0 {
			list := strings.Split(hops[len(hops)-1], ",")
			if last := strings.TrimSpace(list[len(list)-1]); last != "" {
				raw = last
			}
		}
	}
	addr, err := netip.ParseAddr(raw)
	if err != nil {
		return raw
	}
	addr = addr.Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// tooManyRequests refuses a request, saying when to try again (also in Retry-After).
func tooManyRequests(c echo.Context, what string, wait time.Duration) error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	c.Response().Header().Set("Retry-After", fmt.Sprint(secs))
	unit := "seconds"
	if secs == 1 {
		unit = "second"
	}
	return &apiError{http.StatusTooManyRequests, "too_many_requests",
		fmt.Sprintf("Too many %s from your address in a short time. Nothing was changed; try again in %d %s.", what, secs, unit)}
}

// perAddress bounds how fast one client address makes the requests next serves, across all
// designs; what names them in the refusal.
func (s *Server) perAddress(l *limiter, what string, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ok, wait := l.allow(s.clientAddr(c.Request())); !ok {
			return tooManyRequests(c, what, wait)
		}
		return next(c)
	}
}

// limitCreation bounds how fast one client address creates designs.
func (s *Server) limitCreation(next echo.HandlerFunc) echo.HandlerFunc {
	return s.perAddress(s.createLimit, "new designs", next)
}

// limitWrites bounds how fast one client address changes one design: every POST and PUT on a
// design except /evaluate, which only reads. It runs after resolveDesign.
func (s *Server) limitWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		m := c.Request().Method
		if (m != http.MethodPost && m != http.MethodPut) || strings.HasSuffix(c.Path(), "/evaluate") {
			return next(c)
		}
		key := s.clientAddr(c.Request()) + " " + designFrom(c).ID
		if ok, wait := s.writeLimit.allow(key); !ok {
			return tooManyRequests(c, "changes to this design", wait)
		}
		return next(c)
	}
}

// limitCostly bounds how fast one client address asks for answers that cost the server more than
// a page: running reads (/evaluate), exports and imports. The bound is per address across all
// designs, since each costs the same whichever design it names.
func (s *Server) limitCostly(next echo.HandlerFunc) echo.HandlerFunc {
	return s.perAddress(s.costlyLimit, "evaluations, exports and imports", next)
}

// limitWriteBytes bounds how many bytes one client address sends in changes (POST and PUT bodies)
// over time, whichever designs they go to: the rate limits count requests, and one request may
// carry megabytes. A body of unknown length is weighed as the largest accepted.
func (s *Server) limitWriteBytes(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodPost && req.Method != http.MethodPut {
			return next(c)
		}
		n := req.ContentLength
		if n < 0 {
			n = s.opts.BodyLimit
		}
		if ok, wait := s.writeBytesLimit.allowN(s.clientAddr(req), float64(n)); !ok {
			return tooManyRequests(c, "bytes of changes", wait)
		}
		return next(c)
	}
}
