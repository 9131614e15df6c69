package load

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/storage"
)

// The designs of the memory figures, as issue 26 names them: about 390 KB and 3.8 MB of
// design-json.
var (
	openSize = designertest.Size{Tables: 4, Items: 1180, GSIs: 8, Patterns: 200}
	hugeSize = designertest.Size{Tables: 4, Items: 14_400, GSIs: 8, Patterns: 200}
)

// documentedBaseline is the resident memory README's Limits table says the server takes beyond
// --cache-bytes.
const documentedBaseline = 96 << 20

var serverBinary = flag.String("load.server", "", "with -load, TestResidentMemory runs this server binary instead of building cmd/web (to measure another version)")

// TestResidentMemory runs the server as a process of its own and opens designs in it through HTTP,
// each on every step that works out derived results, then reads the process's resident memory
// (VmRSS in /proc/PID/status): 40 designs of 390 KB and 14 of 3.8 MB, beside the budget
// (--cache-bytes) and the baseline, the server's resident memory with one small design open.
//
//	go test ./test/load -run TestResidentMemory -load -v
func TestResidentMemory(t *testing.T) {
	if !*enabled {
		t.Skip("load test: runs only with -load (go test ./test/load -run TestResidentMemory -load -v); it builds the server and takes a few minutes")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("memory load test: needs /proc/PID/status to read a process's resident memory")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 14*time.Minute)
	defer cancel()
	bin := *serverBinary
	if bin == "" {
		bin = buildServer(t, ctx)
	}
	var rep report
	for _, run := range []struct {
		size   designertest.Size
		n      int
		budget int64
	}{
		{openSize, 40, storage.DefaultCacheBytes},
		{hugeSize, 14, storage.DefaultCacheBytes},
		{hugeSize, 14, 64 << 20},
	} {
		m := measureMemory(t, ctx, bin, run.size, run.n, run.budget)
		what := fmt.Sprintf("RSS, %d open designs of %s, --cache-bytes %s", run.n, kb(m.docBytes), kb(int(run.budget)))
		bound := run.budget + documentedBaseline
		rep.add(what, kb(int(m.rss))+" (peak "+kb(int(m.peak))+")", "budget + 96 MiB baseline", kb(int(bound)), float64(m.rss)/float64(bound), "≤ 1×")
		rep.add(what+", beyond the budget", kb(int(m.rss-run.budget)), "RSS with one 4 KB design open", kb(int(m.baseline)), float64(m.rss-run.budget)/float64(m.baseline), "—")
		rep.note("%s: RSS after each design %s", what, m.steps)
		t.Logf("%s: RSS %s (peak %s), baseline %s; after each design %s", what, kb(int(m.rss)), kb(int(m.peak)), kb(int(m.baseline)), m.steps)
		if m.rss > bound {
			t.Errorf("%s: RSS %s is past the budget plus the documented baseline, %s", what, kb(int(m.rss)), kb(int(bound)))
		}
	}
	rep.print(os.Stdout)
}

type memoryRun struct {
	docBytes            int
	baseline, rss, peak int64
	steps               string
}

// buildServer builds cmd/web into a temporary directory.
func buildServer(t *testing.T, ctx context.Context) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dynaloom")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/web")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/web: %v\n%s", err, out)
	}
	return bin
}

// measureMemory stores n designs of size and a small one, starts the server on them with a
// budget of budget bytes, opens the small one, then each of the others, and reads its memory.
func measureMemory(t *testing.T, ctx context.Context, bin string, size designertest.Size, n int, budget int64) memoryRun {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "memory.db")
	store, err := storage.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	_, small, err := store.Create(ctx, designertest.Large(smallSize), "load")
	if err != nil {
		t.Fatal(err)
	}
	d := designertest.Large(size)
	doc, err := designer.MarshalCompactJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	tokens := make([]string, n)
	for i := range tokens {
		_, tok, err := store.Create(ctx, d, "load")
		if err != nil {
			t.Fatal(err)
		}
		tokens[i] = tok.Edit
	}
	store.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--db", db, "--cache-bytes", strconv.FormatInt(budget, 10))
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	client := &http.Client{Timeout: 2 * time.Minute}
	base := "http://" + addr
	get := func(path string) {
		t.Helper()
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s: %v\n%s", path, err, logs.String())
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := client.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer /healthz within 30 s\n%s", logs.String())
		}
	}
	// Every step whose page works out derived results: findings (side panel, validation), table
	// orders and index views (tables), verdicts (mapping).
	open := func(token string) {
		for _, step := range []string{"", "/tables", "/mapping", "/validation"} {
			get("/d/" + token + step)
		}
	}
	open(small.Edit)
	m := memoryRun{docBytes: len(doc), baseline: procMemory(t, cmd.Process.Pid, "VmRSS")}
	var steps []string
	for i, tok := range tokens {
		open(tok)
		if i%max(1, n/8) == n/8-1 || i == n-1 {
			steps = append(steps, fmt.Sprintf("%d: %s", i+1, kb(int(procMemory(t, cmd.Process.Pid, "VmRSS")))))
		}
	}
	m.rss = procMemory(t, cmd.Process.Pid, "VmRSS")
	m.peak = procMemory(t, cmd.Process.Pid, "VmHWM")
	m.steps = strings.Join(steps, ", ")
	return m
}

// procMemory is field (VmRSS, VmHWM) of /proc/pid/status, in bytes.
func procMemory(t *testing.T, pid int, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		name, value, ok := strings.Cut(s.Text(), ":")
		if !ok || name != field {
			continue
		}
		kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			t.Fatalf("/proc/%d/status %s: %v", pid, field, err)
		}
		return kib << 10
	}
	t.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}
