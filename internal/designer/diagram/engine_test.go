package diagram_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/diagram"
)

// inChild runs test name of this binary again in a process of its own, with env added, and
// returns its output; the engine starts once per process, so its start is tried in a fresh one.
func inChild(t *testing.T, name string, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), append(env, "DIAGRAM_CHILD=1")...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in its own process: %v\n%s", name, err, out)
	}
	return string(out)
}

// The engine needs no temporary directory and no cache: with TMPDIR holding a go-graphviz
// directory nobody may write and the user's cache directory impossible to make, the first layout
// still works (the module is compiled in memory).
func TestLayout_startsWithoutAUsableCacheOrTemporaryDirectory(t *testing.T) {
	if os.Getenv("DIAGRAM_CHILD") == "1" {
		d := designertest.HRDesign(t)
		if _, err := diagram.Draw(context.Background(), d, designer.EntityDiagram, diagram.Marks{}); err != nil {
			t.Fatal(err)
		}
		return
	}
	tmp := t.TempDir()
	locked := filepath.Join(tmp, "go-graphviz")
	if err := os.Mkdir(locked, 0o500); err != nil {
		t.Fatal(err)
	}
	notADir := filepath.Join(tmp, "file")
	if err := os.WriteFile(notADir, nil, 0o400); err != nil {
		t.Fatal(err)
	}
	out := inChild(t, "TestLayout_startsWithoutAUsableCacheOrTemporaryDirectory",
		"TMPDIR="+tmp, "XDG_CACHE_HOME="+filepath.Join(notADir, "cache"), "HOME="+notADir)
	if !strings.Contains(out, "PASS") {
		t.Fatalf("the child did not pass:\n%s", out)
	}
}

// When the engine cannot start, every layout says so, naming what failed, and the failure is
// logged once however many diagrams ask.
func TestLayout_anEngineThatCannotStartIsSaidOnceAndOnEveryDiagram(t *testing.T) {
	if os.Getenv("DIAGRAM_CHILD") != "1" {
		out := inChild(t, "TestLayout_anEngineThatCannotStartIsSaidOnceAndOnEveryDiagram")
		if !strings.Contains(out, "PASS") {
			t.Fatalf("the child did not pass:\n%s", out)
		}
		return
	}
	var logs bytes.Buffer
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	diagram.FailEngineStart(errors.New("compile module: out of memory"))
	d := designertest.HRDesign(t)
	for _, kind := range []string{designer.EntityDiagram, designer.EntityDiagram, designer.ModelMap} {
		_, err := diagram.Draw(context.Background(), d, kind, diagram.Marks{})
		if err == nil || !strings.Contains(err.Error(), "Graphviz could not start") || !strings.Contains(err.Error(), "out of memory") {
			t.Fatalf("%s: error %v, want one saying Graphviz could not start and why", kind, err)
		}
	}
	if n := strings.Count(logs.String(), "diagrams are unavailable"); n != 1 {
		t.Fatalf("the failure was logged %d times, want once:\n%s", n, logs.String())
	}
}
