package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"dynaloom/internal/storage"
)

// syncBuffer collects log output from concurrent requests.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type testApp struct {
	t     testing.TB
	srv   *Server
	store *storage.Store
	logs  *syncBuffer
}

// newTestApp serves a fresh database with the default options, except that benchmarks, which
// measure the handlers, are not rate limited.
func newTestApp(t testing.TB) *testApp {
	t.Helper()
	var opts Options
	if _, ok := t.(*testing.B); ok {
		opts.CreateLimit, opts.WriteLimit = NoLimit, NoLimit
	}
	return newTestAppWith(t, opts)
}

func newTestAppWith(t testing.TB, opts Options) *testApp {
	t.Helper()
	store, err := storage.Open(t.Context(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	logs := &syncBuffer{}
	srv := New(store, slog.New(slog.NewTextHandler(logs, nil)), opts)
	return &testApp{t: t, srv: srv, store: store, logs: logs}
}

func (a *testApp) do(req *http.Request) *httptest.ResponseRecorder {
	a.t.Helper()
	rec := httptest.NewRecorder()
	a.srv.Handler().ServeHTTP(rec, req)
	return rec
}

func (a *testApp) request(method, target, contentType string, body io.Reader, headers ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	req := httptest.NewRequest(method, target, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return a.do(req)
}

func (a *testApp) createJSON(body string) createdDesign {
	a.t.Helper()
	rec := a.request(http.MethodPost, "/api/designs", "application/json", strings.NewReader(body))
	if rec.Code != http.StatusCreated {
		a.t.Fatalf("create: status %d, body %s", rec.Code, rec.Body)
	}
	var out createdDesign
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		a.t.Fatal(err)
	}
	return out
}

func decodeError(t *testing.T, rec *httptest.ResponseRecorder) (code, message string) {
	t.Helper()
	var body struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body is not the error shape: %v: %s", err, rec.Body)
	}
	if body.Error.Code == "" || body.Error.Message == "" {
		t.Fatalf("error body lacks code or message: %s", rec.Body)
	}
	return body.Error.Code, body.Error.Message
}

func TestAPI_createFromPartialJSONAndReadWithBothTokens(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	if c.Name != "Orders" || c.Revision != 1 || c.ID == "" {
		t.Fatalf("created = %+v", c)
	}
	if c.EditToken == c.ViewToken || len(c.EditToken) < 22 || len(c.ViewToken) < 22 {
		t.Fatalf("tokens not distinct or too short: %q %q", c.EditToken, c.ViewToken)
	}
	if c.EditURL != "http://example.com/d/"+c.EditToken || c.ViewURL != "http://example.com/d/"+c.ViewToken {
		t.Fatalf("urls = %q %q", c.EditURL, c.ViewURL)
	}
	for _, tok := range []string{c.EditToken, c.ViewToken} {
		rec := a.request(http.MethodGet, "/api/designs/"+tok, "", nil)
		if rec.Code != http.StatusOK {
			t.Fatalf("get: %d %s", rec.Code, rec.Body)
		}
		var got map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got["format"] != "dynaloom/1" || got["name"] != "Orders" || got["revision"] != float64(1) {
			t.Fatalf("design-json = %v", got)
		}
		if rec.Header().Get("ETag") != `"1"` {
			t.Fatalf("ETag = %q", rec.Header().Get("ETag"))
		}
		if strings.Contains(rec.Body.String(), c.EditToken) {
			t.Fatal("design-json contains the edit token")
		}
	}
}

func TestAPI_createFromExample(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken, "", nil)
	var got struct {
		Tables   []json.RawMessage `json:"tables"`
		Patterns []json.RawMessage `json:"access_patterns"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tables) == 0 || len(got.Patterns) == 0 {
		t.Fatalf("example design came back without tables or patterns: %s", rec.Body.String()[:200])
	}
}

func TestAPI_createFromUploadedDesignJSON(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "orders.json")
	part.Write([]byte(`{"format": "dynaloom/1", "name": "Uploaded"}`))
	mw.Close()
	rec := a.request(http.MethodPost, "/api/designs", mw.FormDataContentType(), &body)
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"name":"Uploaded"`) {
		t.Fatalf("upload: %d %s", rec.Code, rec.Body)
	}
}

func TestAPI_refusals(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	tests := []struct {
		name, contentType, body string
		status                  int
		code, mentions          string
	}{
		{"malformed JSON", "application/json", `{"name": `, 400, "invalid_input", "body"},
		{"wrong member type", "application/json", `{"name": 5}`, 400, "invalid_input", "name"},
		{"unknown member", "application/json", `{"nmae": "x"}`, 400, "invalid_input", "nmae"},
		{"foreign format", "application/json", `{"format": "other/2"}`, 400, "invalid_input", "format"},
		{"bad pattern status", "application/json", `{"name":"x","access_patterns":[{"number":1,"status":"done"}]}`, 400, "invalid_input", "access_patterns/0/status"},
		{"unknown example", "application/json", `{"example": "nope"}`, 400, "invalid_input", "example"},
		{"text body", "text/plain", `hello`, 415, "unsupported_media_type", "application/json"},
		{"body over 5 MiB", "application/json", `{"name":"` + strings.Repeat("a", 6<<20) + `"}`, 413, "body_too_large", "5 MiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.request(http.MethodPost, "/api/designs", tc.contentType, strings.NewReader(tc.body))
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			code, msg := decodeError(t, rec)
			if code != tc.code || !strings.Contains(msg, tc.mentions) {
				t.Fatalf("error = %s %q; want code %s mentioning %q", code, msg, tc.code, tc.mentions)
			}
		})
	}
	if strings.Contains(a.logs.String(), "design created") {
		t.Fatal("a refused request created a design")
	}
}

func TestAPI_unknownMalformedAndRevokedTokensAnswer404Alike(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tok := range []string{"AAAAAAAAAAAAAAAAAAAAAAAAAA", "x", "%00", strings.Repeat("Z", 300)} {
		rec := a.request(http.MethodGet, "/api/designs/"+url.PathEscape(tok), "", nil)
		if rec.Code != http.StatusNotFound {
			t.Fatalf("token %q: status %d", tok, rec.Code)
		}
		if code, _ := decodeError(t, rec); code != "not_found" {
			t.Fatalf("code = %s", code)
		}
	}
}

func TestAPI_putNeedsIfMatchAndRefusesStaleAndViewTokens(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	put := func(token, ifMatch, body string) *httptest.ResponseRecorder {
		headers := []string{}
		if ifMatch != "" {
			headers = append(headers, "If-Match", ifMatch)
		}
		return a.request(http.MethodPut, "/api/designs/"+token, "application/json", strings.NewReader(body), headers...)
	}
	if rec := put(c.EditToken, "", `{"name":"A"}`); rec.Code != http.StatusPreconditionRequired {
		t.Fatalf("no If-Match: %d %s", rec.Code, rec.Body)
	}
	if rec := put(c.EditToken, "abc", `{"name":"A"}`); rec.Code != http.StatusBadRequest {
		t.Fatalf("bad If-Match: %d", rec.Code)
	}
	if rec := put(c.ViewToken, `"1"`, `{"name":"A"}`); rec.Code != http.StatusForbidden {
		t.Fatalf("view token: %d", rec.Code)
	} else if code, _ := decodeError(t, rec); code != "view_only" {
		t.Fatalf("view token code = %s", code)
	}
	rec := put(c.EditToken, `"1"`, `{"name":"Orders v2","overview":{"domain":"retail"}}`)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"revision":2`) {
		t.Fatalf("put: %d %s", rec.Code, rec.Body)
	}
	if rec := put(c.EditToken, `"1"`, `{"name":"Lost update"}`); rec.Code != http.StatusPreconditionFailed {
		t.Fatalf("stale put: %d", rec.Code)
	}
	got := a.request(http.MethodGet, "/api/designs/"+c.ViewToken, "", nil).Body.String()
	if !strings.Contains(got, `"name": "Orders v2"`) && !strings.Contains(got, `"name":"Orders v2"`) {
		t.Fatalf("after put: %s", got)
	}
	if strings.Contains(got, "Lost update") {
		t.Fatal("stale put changed the design")
	}
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	rec := a.request(http.MethodGet, "/healthz", "", nil)
	if rec.Code != http.StatusOK || rec.Body.String() != "ok" {
		t.Fatalf("healthz: %d %q", rec.Code, rec.Body)
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, target := range []string{"/", "/api/designs/unknown", "/no-such-page"} {
		rec := a.request(http.MethodGet, target, "", nil)
		h := rec.Header()
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Fatalf("%s: CSP = %q", target, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("%s: headers = %v", target, h)
		}
	}
}

func TestPages_haveNoInlineScriptOrStyle(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	for _, target := range []string{"/", "/d/" + c.EditToken, "/d/" + c.ViewToken} {
		body := a.request(http.MethodGet, target, "", nil).Body.String()
		if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]`).MatchString(body) {
			t.Fatalf("%s has an inline script", target)
		}
		if strings.Contains(body, "<style") || strings.Contains(body, " style=") || strings.Contains(body, " onclick=") {
			t.Fatalf("%s has inline style or handlers", target)
		}
	}
}

func TestCrossOriginPostsAreRefused(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	rec := a.request(http.MethodPost, "/designs", "application/x-www-form-urlencoded", strings.NewReader("name=Evil"),
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if rec.Code != http.StatusForbidden {
		t.Fatalf("cross-site form post: %d", rec.Code)
	}
	rec = a.request(http.MethodPost, "/api/designs", "application/json", strings.NewReader(`{"name":"x"}`),
		"Origin", "https://evil.example")
	if rec.Code != http.StatusForbidden {
		t.Fatalf("cross-origin API post: %d", rec.Code)
	}
	if code, _ := decodeError(t, rec); code != "cross_origin" {
		t.Fatalf("code = %s", code)
	}
}

func TestStaticAssetsAreCachedAndTyped(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	home := a.request(http.MethodGet, "/", "", nil).Body.String()
	m := regexp.MustCompile(`href="(/static/app\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(home)
	if m == nil {
		t.Fatal("home page does not link the versioned stylesheet")
	}
	rec := a.request(http.MethodGet, m[1], "", nil)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css") ||
		!strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("css: %d %v", rec.Code, rec.Header())
	}
	if rec := a.request(http.MethodGet, "/static/embed.go", "", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("source file served: %d", rec.Code)
	}
}

// A design's pages answer an htmx request with a fragment and a plain one with the page, so
// they say that the answer varies with HX-Request.
func TestDesignRoutesVaryOnHXRequest(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	for _, target := range []string{"/d/" + created.EditToken, "/d/" + created.EditToken + "/tables", "/d/" + created.ViewToken + "/history"} {
		rec := a.request(http.MethodGet, target, "", nil)
		if rec.Code != http.StatusOK || !slices.Contains(rec.Header().Values("Vary"), "HX-Request") {
			t.Fatalf("%s: %d, Vary %q", target, rec.Code, rec.Header().Values("Vary"))
		}
	}
}

// A page that does not exist is not found, whichever link asks for it: a view link is not told it
// may not change a page that is not there.
func TestPages_unknownStepIs404ForBothLinks(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	for _, token := range []string{created.EditToken, created.ViewToken} {
		rec := a.request(http.MethodGet, "/d/"+token+"/requirements", "", nil)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET an unknown step with the %s link: %d, want 404", map[bool]string{true: "edit", false: "view"}[token == created.EditToken], rec.Code)
		}
	}
	// A change through the view link is still refused as one.
	if rec := a.request(http.MethodPost, "/d/"+created.ViewToken+"/name", formType, strings.NewReader("name=x")); rec.Code != http.StatusForbidden {
		t.Errorf("POST a change with the view link: %d, want 403", rec.Code)
	}
}
