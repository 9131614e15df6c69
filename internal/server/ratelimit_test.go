package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time          { return c.now }
func (c *fakeClock) advance(d time.Duration) { c.now = c.now.Add(d) }

func TestLimiter_refusesPastTheBurstAndRefillsAtTheRate(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	l := newLimiter(Rate{PerSecond: 2, Burst: 3}, clock.Now)
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("request %d of a burst of 3 was refused", i+1)
		}
	}
	ok, wait := l.allow("a")
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("4th request: allowed %v, wait %v; want refused with 500ms to wait", ok, wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("another key was refused because of the first")
	}
	clock.advance(500 * time.Millisecond)
	if ok, _ := l.allow("a"); !ok {
		t.Fatal("after the wait it gave, the request was still refused")
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("one refill let two requests through")
	}
	clock.advance(time.Hour)
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("after an idle hour, request %d of a fresh burst was refused", i+1)
		}
	}
	if ok, _ := l.allow("a"); ok {
		t.Fatal("an idle hour gave more than one burst")
	}
}

func TestLimiter_memoryIsBounded(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	l := newLimiter(Rate{PerSecond: 1, Burst: 5}, clock.Now)
	for i := range maxBuckets + 500 {
		l.allow(fmt.Sprint("client-", i))
	}
	if n := l.size(); n > maxBuckets {
		t.Fatalf("%d buckets after %d clients, want at most %d", n, maxBuckets+500, maxBuckets)
	}
	// Buckets that have refilled are dropped at the next sweep.
	clock.advance(sweepEvery + 5*time.Second)
	l.allow("late")
	if n := l.size(); n != 1 {
		t.Fatalf("%d buckets after every other client went idle, want 1", n)
	}
}

func TestRateLimit_designCreationPerAddress(t *testing.T) {
	t.Parallel()
	// One token a second, on a clock the test moves: however slow the machine, no token comes
	// back while the burst and the refusals run.
	a := newTestAppWith(t, Options{CreateLimit: Rate{PerSecond: 1, Burst: 3}})
	clock := &fakeClock{now: time.Now()}
	a.srv.createLimit.now = clock.Now
	post := func(remote, target, contentType, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.RemoteAddr = remote
		return a.do(req)
	}
	create := func(remote string) *httptest.ResponseRecorder {
		return post(remote, "/api/designs", "application/json", `{"name": "Orders"}`)
	}
	for i := range 3 {
		if rec := create("198.51.100.7:4000"); rec.Code != http.StatusCreated {
			t.Fatalf("creation %d of a burst of 3: %d", i+1, rec.Code)
		}
	}
	rec := create("198.51.100.7:4001")
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("4th creation: %d, want 429", rec.Code)
	}
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1 (second)", got)
	}
	code, msg := decodeError(t, rec)
	if code != "too_many_requests" || !strings.Contains(msg, "try again in 1 second") {
		t.Errorf("error = %s %q; want too_many_requests saying when to try again", code, msg)
	}
	// The home page form and the import page share the limit, and answer with a page.
	page := post("198.51.100.7:4003", "/designs", formType, form("name", "Orders"))
	if page.Code != http.StatusTooManyRequests || !strings.Contains(page.Body.String(), "try again in") || page.Header().Get("Retry-After") == "" {
		t.Errorf("home page form past the limit: %d", page.Code)
	}
	if rec := post("198.51.100.7:4004", "/import", "multipart/form-data; boundary=x", ""); rec.Code != http.StatusTooManyRequests {
		t.Errorf("import past the limit: %d", rec.Code)
	}
	if rec := create("203.0.113.9:4000"); rec.Code != http.StatusCreated {
		t.Errorf("another address was refused: %d", rec.Code)
	}
	clock.advance(time.Second) // one token at 1 a second
	if rec := create("198.51.100.7:4002"); rec.Code != http.StatusCreated {
		t.Errorf("after the wait the limit still refuses: %d", rec.Code)
	}
}

func TestRateLimit_writesPerDesignAndAddress(t *testing.T) {
	t.Parallel()
	// One token a second, on a clock the test moves (see above).
	a := newTestAppWith(t, Options{WriteLimit: Rate{PerSecond: 1, Burst: 3}})
	clock := &fakeClock{now: time.Now()}
	a.srv.writeLimit.now = clock.Now
	one := a.createJSON(`{"name": "One"}`)
	two := a.createJSON(`{"name": "Two"}`)
	rename := func(token, name string) *httptest.ResponseRecorder {
		return a.hx("/d/"+token+"/name", "name", name)
	}
	for i := range 3 {
		if rec := rename(one.EditToken, fmt.Sprint("One v", i)); rec.Code != http.StatusOK {
			t.Fatalf("write %d of a burst of 3: %d", i+1, rec.Code)
		}
	}
	rec := rename(one.EditToken, "One refused")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" {
		t.Fatalf("4th write: %d, Retry-After %q; want 429 with 1", rec.Code, rec.Header().Get("Retry-After"))
	}
	if !strings.Contains(rec.Body.String(), `data-testid="error-message"`) || !strings.Contains(rec.Body.String(), "try again in 1 second") {
		t.Errorf("the page answer does not say when to try again: %s", rec.Body)
	}
	put := a.request(http.MethodPut, "/api/designs/"+one.EditToken, "application/json", strings.NewReader(`{"name": "Put refused"}`), "If-Match", `"4"`)
	if put.Code != http.StatusTooManyRequests {
		t.Fatalf("API write past the limit: %d", put.Code)
	}
	if code, _ := decodeError(t, put); code != "too_many_requests" {
		t.Errorf("API write past the limit: code %s", code)
	}
	if d, rev := a.design(one.EditToken); d.Name != "One v2" || rev != 4 {
		t.Errorf("refused writes changed the design: %q at revision %d", d.Name, rev)
	}

	// Reads, evaluation and other designs are not held back.
	if got := a.status("/d/" + one.EditToken); got != http.StatusOK {
		t.Errorf("a page read past the write limit: %d", got)
	}
	eval := a.request(http.MethodPost, "/api/designs/"+one.EditToken+"/evaluate", "application/x-amz-json-1.0",
		strings.NewReader(`{"TableName": "None"}`), "X-Amz-Target", "DynamoDB_20120810.Scan")
	if eval.Code == http.StatusTooManyRequests || strings.Contains(eval.Body.String(), "ThrottlingException") {
		t.Errorf("evaluate, which only reads, was rate limited: %d %s", eval.Code, eval.Body)
	}
	if rec := rename(two.EditToken, "Two v1"); rec.Code != http.StatusOK {
		t.Errorf("a write to another design: %d", rec.Code)
	}

	clock.advance(time.Second) // one token at 1 a second
	if rec := rename(one.EditToken, "One again"); rec.Code != http.StatusOK {
		t.Errorf("after the wait the write is still refused: %d", rec.Code)
	}
}

func TestRateLimit_defaultsLeaveRoomForAWorkshop(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	// A room typing into one design from one address (one office): 50 saves as fast as they come.
	for i := range 50 {
		if rec := a.hx("/d/"+c.EditToken+"/overview/domain", "value", fmt.Sprint("retail ", i)); rec.Code != http.StatusOK {
			t.Fatalf("save %d: %d", i+1, rec.Code)
		}
	}
	for i := range 15 {
		if rec := a.request(http.MethodPost, "/api/designs", "application/json", strings.NewReader(`{"name": "More"}`)); rec.Code != http.StatusCreated {
			t.Fatalf("creation %d: %d", i+1, rec.Code)
		}
	}
}

func TestRateLimit_clientAddress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		trust       bool
		remote, xff string
		want        string
	}{
		{false, "192.0.2.1:1234", "", "192.0.2.1"},
		{false, "192.0.2.1:1234", "203.0.113.5", "192.0.2.1"},
		{true, "10.0.0.2:1234", "198.51.100.1, 203.0.113.5", "203.0.113.5"},
		{true, "10.0.0.2:1234", "", "10.0.0.2"},
		{false, "[2001:db8:1:2:3:4:5:6]:443", "", "2001:db8:1:2::/64"},
		{false, "[::ffff:192.0.2.1]:80", "", "192.0.2.1"},
	} {
		s := &Server{opts: Options{TrustForwardedFor: tc.trust}}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = tc.remote
		if tc.xff != "" {
			req.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := s.clientAddr(req); got != tc.want {
			t.Errorf("trust %v, remote %s, X-Forwarded-For %q: address %q, want %q", tc.trust, tc.remote, tc.xff, got, tc.want)
		}
	}
}
