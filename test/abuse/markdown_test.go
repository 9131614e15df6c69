package abuse

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// uploadSize keeps each upload under the default body limit of 5 MiB.
const uploadSize = 4_500_000

const modelHead = "# Shop Data Model\n\n## Table Designs\n\n### Orders Table\n\n- **Partition Key**: PK (String)\n- **Sort Key**: SK (String)\n\n"

func fillTo(size int, unit func(i int) string) string {
	var b strings.Builder
	b.WriteString(modelHead)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(unit(i))
	}
	return b.String()
}

// The hostile markdown shapes, each about 4.5 MB: what each must get is a refusal naming its
// limit, or (for the shapes within the limits) a design.
var hostileUploads = []struct {
	name, want string // want: a fragment of the refusal, or "" for a design made
	doc        func() string
}{
	{"one line of >", "nested at most 32 deep", func() string { return modelHead + strings.Repeat(">", uploadSize) + " x\n" }},
	{"one line of bullets", "nested at most 32 deep", func() string { return modelHead + strings.Repeat("- ", uploadSize/2) + "x\n" }},
	{"indentation growing", "nested at most 32 deep", func() string {
		return fillTo(uploadSize, func(i int) string { return strings.Repeat("  ", i%3000) + "- x\n" })
	}},
	{"lists 32 deep on every line", "at most 1000000", func() string {
		return fillTo(uploadSize, func(i int) string { return strings.Repeat("- ", 32) + "item\n" })
	}},
	{"backtick runs never closed", "at most 32 in a paragraph", func() string {
		return fillTo(uploadSize, func(i int) string { return strings.Repeat("`", i+1) + " " })
	}},
	{"quotes 4 deep on every line", "", func() string {
		return fillTo(uploadSize, func(i int) string { return strings.Repeat("> ", 4) + strings.Repeat("quoted ", 9) + "\n" })
	}},
	{"link references", "", func() string {
		return fillTo(uploadSize, func(i int) string { return fmt.Sprintf("[r%d]: https://example.com/%d\n", i, i) })
	}},
	{"a long table of long cells", "", func() string {
		return fillTo(uploadSize, func(i int) string {
			if i == 0 {
				return "| PK | SK | note |\n|---|---|---|\n"
			}
			return fmt.Sprintf("| u%d | s%d | %s |\n", i, i, strings.Repeat("note ", 45)) // 20,000 items: a table holds 25,000
		})
	}},
}

// TestAbuse_hostileMarkdownUploads uploads each shape through the API while another client probes
// /healthz: every upload gets an answer (a refusal naming the limit, or a design), none is cut,
// and the probes keep being answered.
func TestAbuse_hostileMarkdownUploads(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: uploads 36 MB of hostile markdown; runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base := startServer(t, ctx)

	probeCtx, stopProbes := context.WithCancel(ctx)
	var (
		probes       latencies
		probeFailed  atomic.Int64
		probing      sync.WaitGroup
		prober       = newClient("127.0.0.40")
		probeResults sync.Mutex
	)
	probing.Go(func() {
		for probeCtx.Err() == nil {
			start := time.Now()
			resp, err := prober.Get(base + "/healthz")
			if err != nil || resp.StatusCode != http.StatusOK {
				probeFailed.Add(1)
			}
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			probeResults.Lock()
			probes = append(probes, float64(time.Since(start).Microseconds())/1000)
			probeResults.Unlock()
			time.Sleep(100 * time.Millisecond)
		}
	})

	// The memory figures: the Go heap's peak while each upload is worked on (sampled every 20 ms)
	// and the process's resident set after it.
	var heapPeak atomic.Uint64
	probing.Go(func() {
		var ms runtime.MemStats
		for probeCtx.Err() == nil {
			runtime.ReadMemStats(&ms)
			for old := heapPeak.Load(); ms.HeapAlloc > old && !heapPeak.CompareAndSwap(old, ms.HeapAlloc); old = heapPeak.Load() {
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("before the uploads: heap %s, RSS %s", mb(ms.HeapAlloc), mb(uint64(selfRSS(t))))

	for i, u := range hostileUploads {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heapPeak.Store(ms.HeapAlloc)
		// One address each, so that no upload waits on the byte rate of the others.
		uploader := newClient(fmt.Sprintf("127.0.0.%d", 41+i))
		doc := u.doc()
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, _ := mw.CreateFormFile("file", "dynamodb_data_model.md")
		part.Write([]byte(doc))
		mw.Close()
		start := time.Now()
		resp, err := uploader.Post(base+"/api/designs", mw.FormDataContentType(), &body)
		if err != nil {
			t.Errorf("%s (%d bytes): no answer: %v", u.name, len(doc), err)
			continue
		}
		var out struct {
			Error struct{ Code, Message string }
		}
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		took := time.Since(start)
		peak := heapPeak.Load()
		t.Logf("%-30s %7d KB: %d %s in %v; heap peak %s (%s over before), RSS %s", u.name, len(doc)>>10, resp.StatusCode,
			out.Error.Code, took.Round(time.Millisecond), mb(peak), mb(peak-ms.HeapAlloc), mb(uint64(selfRSS(t))))
		if grew := peak - ms.HeapAlloc; grew > heapPerUpload*uint64(len(doc)) {
			t.Errorf("%s: the heap grew %s while a %d KB upload was worked on, over %d times its size", u.name, mb(grew), len(doc)>>10, heapPerUpload)
		}
		switch {
		case u.want == "" && resp.StatusCode != http.StatusCreated:
			t.Errorf("%s: %d %s, want a design", u.name, resp.StatusCode, out.Error.Message)
		case u.want != "" && (resp.StatusCode != http.StatusBadRequest || !strings.Contains(out.Error.Message, u.want)):
			t.Errorf("%s: %d %q, want 400 naming %q", u.name, resp.StatusCode, out.Error.Message, u.want)
		}
	}
	stopProbes()
	probing.Wait()
	t.Logf("/healthz during the uploads: %d probes, p50 %.2f ms, p99 %.2f ms, max %.2f ms, %d failed",
		len(probes), probes.p(50), probes.p(99), probes.p(100), probeFailed.Load())
	if probeFailed.Load() > 0 {
		t.Errorf("%d health probes failed during the uploads", probeFailed.Load())
	}
}

// heapPerUpload bounds how much the heap may grow while one upload is worked on, as a multiple of
// its size: the body, the document read from it and the design made of it.
const heapPerUpload = 40

func mb(b uint64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// selfRSS is this process's resident set (VmRSS of /proc/self/status), in bytes.
func selfRSS(t *testing.T) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib << 10
		}
	}
	t.Fatal("/proc/self/status has no VmRSS")
	return 0
}
