package server

import (
	"bufio"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
)

// rawGet fetches url from the real server without the client's own decompression, so that the
// answer's headers and bytes are what went over the wire.
func rawGet(t *testing.T, url, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("the answer says gzip but is not: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("the gzip stream is cut: %v", err)
	}
	return out
}

func varies(resp *http.Response) bool {
	for _, v := range resp.Header.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept-Encoding") {
				return true
			}
		}
	}
	return false
}

// A browser that accepts gzip gets a big step, the design's JSON, its export and the model map
// compressed to at most a quarter of their size, with Vary: Accept-Encoding, no Content-Length of
// the plain bytes, and the API's revision ETag made weak; the bytes unpack to exactly the page a
// client without gzip gets. Small answers and event streams go out as they are.
func TestCompression_bigAnswersAreGzippedToAQuarterOverTheRealServer(t *testing.T) {
	a := newTestAppWith(t, Options{BodyLimit: 64 << 20})
	c, _ := a.createLarge(designertest.Size{Tables: 4, Items: 2000, GSIs: 8, Patterns: 40})
	ts := httptest.NewServer(a.srv.Handler())
	t.Cleanup(func() {
		a.srv.hub.Shutdown()
		ts.Close()
	})
	// ratio is how many times smaller the answer must go out: minified script packs less.
	for _, tc := range []struct {
		path  string
		ratio int
	}{
		{"/d/" + c.EditToken + "/tables", 4},
		{"/d/" + c.EditToken + "/capacity", 4},
		{"/api/designs/" + c.ViewToken, 4},
		{"/api/designs/" + c.ViewToken + "/export/data-model-md", 4},
		{"/d/" + c.EditToken + "/diagrams/model_map.svg", 4},
		{"/static/vendor/htmx-2.0.11.min.js", 2},
	} {
		path := tc.path
		plainResp, plain := rawGet(t, ts.URL+path, "")
		if plainResp.StatusCode != http.StatusOK || plainResp.Header.Get("Content-Encoding") != "" || !varies(plainResp) {
			t.Fatalf("%s without Accept-Encoding: %d, Content-Encoding %q, Vary %q", path, plainResp.StatusCode, plainResp.Header.Get("Content-Encoding"), plainResp.Header.Values("Vary"))
		}
		resp, body := rawGet(t, ts.URL+path, "br;q=1.0, gzip;q=0.8, *;q=0.1")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" || !varies(resp) {
			t.Fatalf("%s with Accept-Encoding gzip: %d, Content-Encoding %q, Vary %q", path, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Values("Vary"))
		}
		if cl := resp.Header.Get("Content-Length"); cl != "" && cl != itoa(len(body)) {
			t.Errorf("%s: Content-Length %s for %d bytes sent", path, cl, len(body))
		}
		if got := gunzip(t, body); string(got) != string(plain) {
			t.Fatalf("%s unpacks to %d bytes that differ from the %d plain ones", path, len(got), len(plain))
		}
		t.Logf("%s: %d bytes, %d compressed (1/%.1f)", path, len(plain), len(body), float64(len(plain))/float64(len(body)))
		if len(body)*tc.ratio > len(plain) {
			t.Errorf("%s: %d bytes compressed to %d, more than 1/%d", path, len(plain), len(body), tc.ratio)
		}
		if tag := plainResp.Header.Get("ETag"); tag != "" {
			if want := "W/" + tag; resp.Header.Get("ETag") != want {
				t.Errorf("%s: ETag %q plain, %q compressed; want %q", path, tag, resp.Header.Get("ETag"), want)
			}
		}
	}

	// gzip refused by q=0 is not sent.
	resp, _ := rawGet(t, ts.URL+"/d/"+c.EditToken+"/tables", "gzip;q=0, identity")
	if resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("a client refusing gzip (q=0) got Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	// A tiny answer is not worth compressing.
	resp, body := rawGet(t, ts.URL+"/healthz", "gzip")
	if resp.Header.Get("Content-Encoding") != "" || len(body) >= compressMinLength {
		t.Errorf("/healthz (%d bytes) went out with Content-Encoding %q", len(body), resp.Header.Get("Content-Encoding"))
	}

	// An event stream goes out plain, its first event readable as it comes.
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/designs/"+c.ViewToken+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	stream, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.Header.Get("Content-Encoding") != "" {
		t.Fatalf("the event stream went out with Content-Encoding %q", stream.Header.Get("Content-Encoding"))
	}
	line, err := bufio.NewReader(stream.Body).ReadString('\n')
	if err != nil || line == "" {
		t.Fatalf("the event stream sent nothing readable: %q %v", line, err)
	}
}
