package main

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestVersionAndUnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "dynaloom ") {
		t.Fatalf("version: %d %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"frobnicate"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: %d %q", code, errOut.String())
	}
}

func TestServeFlagsFallBackToEnvironment(t *testing.T) {
	t.Setenv("DYNALOOM_ADDR", "127.0.0.1:9999")
	t.Setenv("DYNALOOM_DB", "/tmp/from-env.db")
	cfg, err := parseServe(nil, &bytes.Buffer{})
	if err != nil || cfg.addr != "127.0.0.1:9999" || cfg.db != "/tmp/from-env.db" {
		t.Fatalf("env: %+v %v", cfg, err)
	}
	cfg, err = parseServe([]string{"--addr", "127.0.0.1:7000", "--db", "x.db"}, &bytes.Buffer{})
	if err != nil || cfg.addr != "127.0.0.1:7000" || cfg.db != "x.db" {
		t.Fatalf("flags win over env: %+v %v", cfg, err)
	}
	if _, err := parseServe([]string{"--addr", "nonsense"}, &bytes.Buffer{}); err == nil {
		t.Fatal("a bad --addr was accepted")
	}
}

// Every limit has a flag and an environment variable, defaults to the documented value, takes -1
// for no limit, and refuses zero and words with the name of what was wrong.
func TestServeLimitFlags(t *testing.T) {
	cfg, err := parseServe(nil, &bytes.Buffer{})
	if err != nil || cfg.maxItemsPerTable != 25000 || cfg.maxDesignBytes != 16<<20 || cfg.maxStreamsPerClient != 200 || cfg.maxConns != 4096 || cfg.snapshotEvery != 128 {
		t.Fatalf("defaults: %+v %v", cfg, err)
	}
	t.Setenv("DYNALOOM_MAX_ITEMS_PER_TABLE", "500")
	t.Setenv("DYNALOOM_MAX_CONNS", "-1")
	cfg, err = parseServe([]string{"--max-revisions", "100", "--snapshot-every", "16"}, &bytes.Buffer{})
	if err != nil || cfg.maxItemsPerTable != 500 || cfg.maxConns != -1 || cfg.maxRevisions != 100 || cfg.snapshotEvery != 16 {
		t.Fatalf("env and flags: %+v %v", cfg, err)
	}
	if _, err := parseServe([]string{"--max-streams-per-client", "0"}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "--max-streams-per-client") {
		t.Fatalf("zero: %v", err)
	}
	t.Setenv("DYNALOOM_MAX_CONNS", "lots")
	if _, err := parseServe(nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "DYNALOOM_MAX_CONNS") {
		t.Fatalf("a word in the environment: %v", err)
	}
}

// TestServe_startsLogsItsURLAndStopsCleanlyOnSIGTERM runs the real binary's serve path in a child
// process, talks to it, and stops it the way a supervisor would.
func TestServe_startsLogsItsURLAndStopsCleanlyOnSIGTERM(t *testing.T) {
	if os.Getenv("DYNALOOM_SERVE_CHILD") != "" {
		os.Exit(run([]string{"serve", "--addr", "127.0.0.1:0", "--db", os.Getenv("DYNALOOM_SERVE_CHILD")}, os.Stdout, os.Stderr))
	}
	// Generous: a child built with the race detector starts slowly on a loaded machine, and only a
	// hung child waits this out.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db := filepath.Join(t.TempDir(), "serve.db")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestServe_startsLogsItsURLAndStopsCleanlyOnSIGTERM$")
	cmd.Env = append(os.Environ(), "DYNALOOM_SERVE_CHILD="+db)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	var url string
	var log strings.Builder
	for url == "" && lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if m := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)`).FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("no URL logged:\n%s", log.String())
	}
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "msg=stopped") {
		t.Fatalf("no clean stop logged:\n%s", log.String())
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("database not created: %v", err)
	}
}
