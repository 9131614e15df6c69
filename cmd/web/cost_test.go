package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer/capacity"
)

// dynaloomCLI runs the command line as a user does: under the full tier the binary built from this
// package, under -short the same run function in process (building the binary takes seconds).
func dynaloomCLI(t *testing.T) func(args ...string) (int, string, string) {
	t.Helper()
	if testing.Short() {
		t.Log("-short: running the command line in process, not as a built binary")
		return func(args ...string) (int, string, string) {
			var out, errOut bytes.Buffer
			code := run(args, &out, &errOut)
			return code, out.String(), errOut.String()
		}
	}
	bin := filepath.Join(t.TempDir(), "dynaloom")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("dynaloom %v: %v", args, err)
		}
		return code, out.String(), errOut.String()
	}
}

// dynaloom cost on the HR example: the text names every pattern, table, index and partition key
// with its figures and the total; --format json is the API's /capacity object; an unreadable file
// or an unknown format exits 2 saying why.
func TestCost_printsTheDesignsCapacityAndCost(t *testing.T) {
	cli := dynaloomCLI(t)
	file := filepath.Join("..", "..", "internal", "designer", "examples", "hr-employees.json")
	d, err := readDesign([]string{file}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut := cli("cost", file)
	if code != 0 {
		t.Fatalf("cost: exit %d\n%s", code, errOut)
	}
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, file+": ") || !strings.Contains(first, "a month on demand") {
		t.Errorf("first line %q: want the file and the monthly cost", first)
	}
	for _, p := range d.Patterns {
		if !strings.Contains(out, "\n#"+strconv.Itoa(p.Number)+" ") {
			t.Errorf("pattern %d is not listed:\n%s", p.Number, out)
		}
	}
	for _, tb := range d.Tables {
		if !strings.Contains(out, "\n"+tb.Name+" ") || !strings.Contains(out, "\n"+tb.Name+" "+tb.PartitionKey.Name+" ") {
			t.Errorf("table %s or its partition key %s is not listed:\n%s", tb.Name, tb.PartitionKey.Name, out)
		}
		for _, ix := range tb.GSIs {
			if !strings.Contains(out, "GSI "+ix.Name+" ") || !strings.Contains(out, tb.Name+"."+ix.Name+" ") {
				t.Errorf("GSI %s or its partition key is not listed:\n%s", ix.Name, out)
			}
		}
	}
	if !strings.Contains(out, "\ntotal ") {
		t.Errorf("no total line:\n%s", out)
	}

	code, out, errOut = cli("cost", "--format", "json", file)
	if code != 0 {
		t.Fatalf("cost --format json: exit %d\n%s", code, errOut)
	}
	var got capacity.Document
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("cost --format json is not JSON: %v\n%.300s", err, out)
	}
	wantJSON, _ := json.Marshal(capacity.NewDocument(d, capacity.Compute(d, nil)))
	gotJSON, _ := json.Marshal(got)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("cost --format json differs from the capacity report of the same design:\ncli:    %.400s\nreport: %.400s", gotJSON, wantJSON)
	}

	for _, args := range [][]string{{"cost", filepath.Join(t.TempDir(), "missing.md")}, {"cost", "--format", "xml", file}, {"cost"}} {
		code, out, errOut := cli(args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "dynaloom cost") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the reason on stderr", args, code, out, errOut)
		}
	}
}
