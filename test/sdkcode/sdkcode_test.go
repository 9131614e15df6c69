// Package sdkcode runs the code-js, code-python and code-go exports of the gallery examples
// against dynalite and compares every read's answer with the in-process evaluator's. The
// JavaScript SDK is pinned in package.json (npm ci --prefix test/sdkcode), dynalite in
// test/oracle's; the Go compiles against the module's own aws-sdk-go-v2, the Python needs boto3.
package sdkcode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/designer/format/mcpmodel"
	"dynaloom/test/dynalite"
)

const dynaliteCLI = "../oracle/node_modules/dynalite/cli.js"

// need fails under CI and skips elsewhere when a tool is missing.
func need(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI requires it: %s", why)
	}
	t.Skipf("skipped: %s", why)
}

// answer is one runner line: the items an answer held, or the error.
type answer struct {
	ID    string            `json:"id"`
	Items []json.RawMessage `json:"items"`
	Error string            `json:"error"`
}

// reads are the operations whose answers are compared; the others write.
var reads = map[string]bool{"GetItem": true, "Query": true, "Scan": true, "BatchGetItem": true, "TransactGetItems": true}

// language runs one export's functions: it writes the file into dir and returns the command that
// runs the ids against an endpoint.
type language struct {
	format string
	setup  func(t *testing.T, dir string, code []byte) func(endpoint string, ids []string) *exec.Cmd
}

func TestSDKCode_runsOnDynaliteAndAnswersAsTheEvaluator(t *testing.T) {
	node, cli, why := dynalite.Find(dynaliteCLI)
	if why != "" {
		need(t, why+": run npm ci --prefix test/oracle")
	}
	if _, err := os.Stat("node_modules/@aws-sdk/lib-dynamodb"); err != nil {
		need(t, "the JavaScript SDK is missing: run npm ci --prefix test/sdkcode")
	}
	langs := []language{{"code-js", jsSetup(node)}, {"code-go", goSetup}}
	if py, err := exec.LookPath("python3"); err != nil {
		need(t, "python3 is not on PATH")
	} else if err := exec.Command(py, "-c", "import boto3").Run(); err != nil {
		// The Python is still parsed below; it runs where boto3 installs.
		if os.Getenv("CI") != "" {
			t.Fatal("CI requires boto3 to run the code-python export: pip install boto3")
		}
		t.Log("boto3 is not installed: the code-python export is only compiled")
	} else {
		langs = append(langs, language{"code-python", pySetup(py)})
	}

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(ex.ID, func(t *testing.T) {
			reqs := mcpmodel.Requests(d)
			var readIDs, writeIDs, transactIDs []string
			want := map[string][]designer.Item{}
			for _, r := range reqs {
				if r.Body == nil {
					continue
				}
				if r.Operation == "TransactWriteItems" {
					transactIDs = append(transactIDs, r.ID)
					continue
				}
				if !reads[r.Operation] {
					writeIDs = append(writeIDs, r.ID)
					continue
				}
				readIDs = append(readIDs, r.ID)
				if r.Operation != "TransactGetItems" { // the evaluator answers the other reads
					want[r.ID] = evaluated(t, d, r)
				}
			}
			compilePython(t, d)
			for _, lang := range langs {
				dir := t.TempDir()
				code := export(t, lang.format, d)
				command := lang.setup(t, dir, code)
				dyn := dynalite.Start(ctx, t, node, cli)
				dynalite.Load(ctx, t, dyn, d)
				for _, r := range reqs {
					if r.Operation == "TransactGetItems" && r.Body != nil {
						want[r.ID] = dynaliteItems(ctx, t, dyn, r)
					}
				}
				got := run(t, command(dyn.URL, append(slices.Clone(readIDs), writeIDs...)))
				failed := 0
				for _, id := range readIDs {
					a := got[id]
					if a.Error != "" {
						t.Errorf("%s pattern %s: %s", lang.format, id, a.Error)
						failed++
						continue
					}
					if diff := compare(t, want[id], a.Items, batch(reqs, id)); diff != "" {
						t.Errorf("%s pattern %s answers other than the evaluator: %s", lang.format, id, diff)
						failed++
					}
				}
				for _, id := range writeIDs {
					if a := got[id]; a.Error != "" {
						t.Errorf("%s pattern %s: %s", lang.format, id, a.Error)
						failed++
					}
				}
				// dynalite has no TransactWriteItems (it answers UnknownOperationException), so
				// those requests go to a recorder, which checks that the code sends the body the
				// mcp-model-json command sends.
				sent := recordTransactions(t, command, transactIDs)
				for i, id := range transactIDs {
					if diff := sameJSON(body(reqs, id), sent[i]); diff != "" {
						t.Errorf("%s pattern %s sends another request than the model's command: %s", lang.format, id, diff)
						failed++
					}
				}
				t.Logf("%s: %d reads answered as the evaluator answers, %d writes accepted by dynalite, %d transactions sent as the model's commands; %d failed",
					lang.format, len(readIDs), len(writeIDs), len(transactIDs), failed)
			}
		})
	}
}

func export(t *testing.T, id string, d designer.Design) []byte {
	t.Helper()
	f, err := format.FindExportFormat(id)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Write(d)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return out
}

// evaluated is the evaluator's answer to the request, as the items it holds.
func evaluated(t *testing.T, d designer.Design, r mcpmodel.Request) []designer.Item {
	t.Helper()
	out, err := dynamo.EvaluateJSON(d, r.Operation, r.Body)
	if err != nil {
		t.Fatalf("the evaluator refuses pattern %s: %v", r.ID, err)
	}
	return answerItems(t, out)
}

// dynaliteItems is dynalite's answer to the request as it is sent raw.
func dynaliteItems(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, r mcpmodel.Request) []designer.Item {
	t.Helper()
	status, out, err := dyn.Call(ctx, r.Operation, r.Body)
	if err != nil || status != 200 {
		t.Fatalf("dynalite refuses pattern %s: %d %s %v", r.ID, status, out, err)
	}
	return answerItems(t, out)
}

func answerItems(t *testing.T, out []byte) []designer.Item {
	t.Helper()
	var resp struct {
		Item      designer.Item
		Items     []designer.Item
		Responses json.RawMessage
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatal(err)
	}
	switch {
	case resp.Item != nil:
		return []designer.Item{resp.Item}
	case resp.Items != nil:
		return resp.Items
	case resp.Responses != nil:
		var list []struct{ Item designer.Item }
		if json.Unmarshal(resp.Responses, &list) == nil {
			var items []designer.Item
			for _, r := range list {
				if r.Item != nil {
					items = append(items, r.Item)
				}
			}
			return items
		}
		var tables map[string][]designer.Item
		if err := json.Unmarshal(resp.Responses, &tables); err != nil {
			t.Fatal(err)
		}
		var items []designer.Item
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range tables {
				if !yield(k) {
					return
				}
			}
		}) {
			items = append(items, tables[name]...)
		}
		return items
	}
	return nil
}

// recordTransactions runs the ids against a recorder that accepts every TransactWriteItems and
// returns the bodies sent, in order.
func recordTransactions(t *testing.T, command func(string, []string) *exec.Cmd, ids []string) [][]byte {
	t.Helper()
	if len(ids) == 0 {
		return nil
	}
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if r.Header.Get("X-Amz-Target") != "DynamoDB_20120810.TransactWriteItems" {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"__type":"com.amazon.coral.service#UnknownOperationException"}`)
			return
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		fmt.Fprint(w, "{}")
	}))
	defer srv.Close()
	for id, a := range run(t, command(srv.URL, ids)) {
		if a.Error != "" {
			t.Errorf("pattern %s: %s", id, a.Error)
		}
	}
	if len(bodies) != len(ids) {
		t.Fatalf("%d transactions were sent for %d patterns", len(bodies), len(ids))
	}
	return bodies
}

func body(reqs []mcpmodel.Request, id string) []byte {
	for _, r := range reqs {
		if r.ID == id {
			return r.Body
		}
	}
	return nil
}

// sameJSON says how two request bodies differ as values; "" when they do not. The SDKs give
// every transaction an idempotency token of their own, ClientRequestToken, which is left out.
func sameJSON(want, got []byte) string {
	var a, b map[string]any
	if err := json.Unmarshal(want, &a); err != nil {
		return err.Error()
	}
	if err := json.Unmarshal(got, &b); err != nil {
		return err.Error()
	}
	delete(b, "ClientRequestToken")
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("want %s, got %s", want, got)
	}
	return ""
}

// batch says the request's answer comes in no order DynamoDB promises.
func batch(reqs []mcpmodel.Request, id string) bool {
	for _, r := range reqs {
		if r.ID == id {
			return r.Operation == "BatchGetItem"
		}
	}
	return false
}

// compare says how the items a language's code got differ from the wanted ones; "" when they
// are the same items, by DynamoDB's equality, in the same order unless unordered.
func compare(t *testing.T, want []designer.Item, got []json.RawMessage, unordered bool) string {
	t.Helper()
	items := make([]designer.Item, len(got))
	for i, raw := range got {
		if err := json.Unmarshal(raw, &items[i]); err != nil {
			return fmt.Sprintf("item %d is not DynamoDB JSON: %v (%s)", i, err, raw)
		}
	}
	if len(items) != len(want) {
		return fmt.Sprintf("%d items, the evaluator %d", len(items), len(want))
	}
	used := make([]bool, len(want))
	for i, it := range items {
		found := false
		for j, w := range want {
			if (unordered || i == j) && !used[j] && sameItem(it, w) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			b, _ := json.Marshal(it)
			return fmt.Sprintf("item %d %s is not the evaluator's", i, b)
		}
	}
	return ""
}

func sameItem(a, b designer.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// run runs the command and reads its lines by id.
func run(t *testing.T, cmd *exec.Cmd) map[string]answer {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, stderr.String())
	}
	got := map[string]answer{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%s printed %q: %v", cmd, sc.Text(), err)
		}
		got[a.ID] = a
	}
	return got
}

func jsSetup(node string) func(t *testing.T, dir string, code []byte) func(string, []string) *exec.Cmd {
	return func(t *testing.T, dir string, code []byte) func(string, []string) *exec.Cmd {
		// An ES module finds its packages from where it lies: the code beside the runner, whose
		// node_modules is this directory's.
		abs, err := filepath.Abs("node_modules")
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "patterns.mjs"), code)
		runner, err := os.ReadFile("runner/run.mjs")
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "run.mjs"), runner)
		if err := os.Symlink(abs, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		return func(endpoint string, ids []string) *exec.Cmd {
			return exec.Command(node, append([]string{filepath.Join(dir, "run.mjs"), filepath.Join(dir, "patterns.mjs"), endpoint}, ids...)...)
		}
	}
}

func pySetup(py string) func(t *testing.T, dir string, code []byte) func(string, []string) *exec.Cmd {
	return func(t *testing.T, dir string, code []byte) func(string, []string) *exec.Cmd {
		write(t, filepath.Join(dir, "dynamodb_patterns.py"), code)
		runner, err := filepath.Abs("runner/run.py")
		if err != nil {
			t.Fatal(err)
		}
		return func(endpoint string, ids []string) *exec.Cmd {
			return exec.Command(py, append([]string{runner, filepath.Join(dir, "dynamodb_patterns.py"), endpoint}, ids...)...)
		}
	}
}

// goSetup builds the Go package with a runner in a module of its own, which requires what this
// module requires, so it compiles from the module cache without the network.
func goSetup(t *testing.T, dir string, code []byte) func(string, []string) *exec.Cmd {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.mod"), []byte("module sdkcoderun\n\n"+requires(string(mod))))
	write(t, filepath.Join(dir, "go.sum"), sum)
	write(t, filepath.Join(dir, "dynamodbpatterns", "dynamodb_patterns.go"), code)
	runner, err := os.ReadFile("runner/main.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "main.go"), runner)
	bin := filepath.Join(dir, "run")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the code-go export does not compile: %v\n%s", err, out)
	}
	return func(endpoint string, ids []string) *exec.Cmd {
		return exec.Command(bin, append([]string{endpoint}, ids...)...)
	}
}

var goLine = regexp.MustCompile(`(?m)^go [0-9.]+$`)

// requires is the go line and the require directives of a go.mod.
func requires(mod string) string {
	var b strings.Builder
	b.WriteString(goLine.FindString(mod) + "\n")
	in := false
	for _, line := range strings.Split(mod, "\n") {
		switch {
		case strings.HasPrefix(line, "require ("):
			in = true
		case strings.HasPrefix(line, "require "):
		case in && line == ")":
			in = false
		case !in:
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// compilePython parses the code-python export with python3 -m py_compile.
func compilePython(t *testing.T, d designer.Design) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		return // need says so above
	}
	file := filepath.Join(t.TempDir(), "dynamodb_patterns.py")
	write(t, file, export(t, "code-python", d))
	if out, err := exec.Command(py, "-m", "py_compile", file).CombinedOutput(); err != nil {
		t.Fatalf("the code-python export does not parse: %v\n%s", err, out)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
