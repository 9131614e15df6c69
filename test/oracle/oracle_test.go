// Package oracle proves the designer's DynamoDB read evaluator against dynalite, a Node.js
// implementation of DynamoDB that is tested against the live service. It generates tables and
// sample items, loads them into a dynalite started for the test, sends the same read requests to
// both and compares the answers.
//
// dynalite is pinned in package.json; install it with `npm ci --prefix test/oracle`. Without it the
// test skips, unless CI is set, when it fails.
//
// To study a mismatch: ORACLE_ONLY=text runs only the cases whose name contains text, and
// ORACLE_DEBUG=1 logs every request with dynalite's answer (go test -v ./test/oracle).
package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/test/dynalite"
)

// dynaliteCLI is dynalite's command-line entry point, relative to this package's directory (where
// go test runs the test).
const dynaliteCLI = "node_modules/dynalite/cli.js"

// requireDynalite finds node and dynalite's command line, or stops the test: it fails under CI,
// which requires the oracle, and elsewhere skips saying what is missing.
func requireDynalite(t *testing.T) (node, cli string) {
	node, cli, why := dynalite.Find(dynaliteCLI)
	if why != "" {
		if os.Getenv("CI") != "" {
			t.Log(why)
			t.Fatal("CI requires dynalite: run npm ci --prefix test/oracle")
		}
		t.Skipf("dynalite oracle not available (%s); run npm ci --prefix test/oracle", why)
	}
	return node, cli
}

func TestOracle_evaluatorMatchesDynalite(t *testing.T) {
	node, cli := requireDynalite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)

	start := time.Now()
	dyn := dynalite.Start(ctx, t, node, cli)
	d := buildDesign()
	dynalite.Load(ctx, t, dyn, d)
	t.Logf("dynalite ready with %d tables and %d items in %v", len(d.Tables), countItems(d), time.Since(start).Round(time.Millisecond))

	cases := generateCases(d)
	// ORACLE_ONLY=text keeps the cases whose name contains text, to study one mismatch.
	if only := os.Getenv("ORACLE_ONLY"); only != "" {
		cases = slices.DeleteFunc(cases, func(c testCase) bool { return !strings.Contains(c.name, only) })
	}
	var st stats
	for _, c := range cases {
		if ctx.Err() != nil {
			t.Fatalf("out of time after %d of %d cases", st.requests, len(cases))
		}
		runCase(ctx, t, dyn, d, c, &st)
	}
	t.Logf("compared %d requests (%d cases: %s) in %v; %d answered with an error by dynalite (%s); %d mismatches",
		st.requests, len(cases), st.opsSummary(), time.Since(start).Round(time.Millisecond),
		st.errors, st.errorsSummary(), st.mismatches)
	if st.mismatches > 0 {
		t.Errorf("%d mismatches (%d reported above), by operation and first difference: %s",
			st.mismatches, min(st.mismatches, maxReported), summary(st.mismatchKinds))
	}
	if st.requests < 300 && os.Getenv("ORACLE_ONLY") == "" {
		t.Errorf("only %d requests compared; the oracle should compare at least 300", st.requests)
	}
}

func countItems(d designer.Design) int {
	n := 0
	for _, t := range d.Tables {
		n += len(t.Items)
	}
	return n
}

// compareMode says how two answers are compared.
type compareMode int

const (
	// ordered compares every member exactly, Items in order (Query, GetItem).
	ordered compareMode = iota
	// unordered compares Items (and BatchGetItem's Responses) as multisets: DynamoDB does not
	// define the order (Scan, a Query on an index whose keys tie).
	unordered
	// queryPages follows LastEvaluatedKey: every page is sent to both with dynalite's key and
	// compared exactly.
	queryPages
	// scanPages follows LastEvaluatedKey on each side with its own key, since Scan order is
	// unspecified, and compares the union of the pages as a multiset, the number of pages, every
	// page's ScannedCount and the attribute names of every LastEvaluatedKey.
	scanPages
)

// testCase is one generated read request.
type testCase struct {
	name string
	op   string
	body map[string]any
	mode compareMode
}

// maxReported bounds the mismatches reported in full; the rest are only counted.
const maxReported = 60

type stats struct {
	requests, errors, mismatches int
	ops                          map[string]int
	errorTypes                   map[string]int
	mismatchKinds                map[string]int
}

func (s *stats) countMismatch(kind string) {
	if s.mismatchKinds == nil {
		s.mismatchKinds = map[string]int{}
	}
	s.mismatchKinds[kind]++
}

func (s *stats) count(op string) {
	if s.ops == nil {
		s.ops = map[string]int{}
	}
	s.requests++
	s.ops[op]++
}

func (s *stats) countError(typ string) {
	if s.errorTypes == nil {
		s.errorTypes = map[string]int{}
	}
	s.errors++
	s.errorTypes[typ]++
}

func summary(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

func (s *stats) opsSummary() string    { return summary(s.ops) }
func (s *stats) errorsSummary() string { return summary(s.errorTypes) }

// answer is one side's reply: a decoded response or an error type.
type answer struct {
	raw     []byte
	resp    map[string]any
	errType string // ValidationException, ResourceNotFoundException, …
	errMsg  string
}

func (a answer) String() string {
	if a.errType != "" {
		return a.errType + ": " + a.errMsg
	}
	return string(a.raw)
}

func askDynalite(ctx context.Context, d *dynalite.Dynalite, op string, body []byte) (answer, error) {
	status, raw, err := d.Call(ctx, op, body)
	if err != nil {
		return answer{}, err
	}
	var resp map[string]any
	if err := json.Unmarshal(raw, &resp); err != nil {
		return answer{}, fmt.Errorf("dynalite answered %d with %q: %v", status, raw, err)
	}
	if status != http.StatusOK {
		typ, _ := resp["__type"].(string)
		msg, _ := resp["message"].(string)
		if status != http.StatusBadRequest || typ == "" {
			return answer{}, fmt.Errorf("dynalite answered %d: %s", status, raw)
		}
		return answer{raw: raw, errType: typ[strings.LastIndex(typ, "#")+1:], errMsg: msg}, nil
	}
	return answer{raw: raw, resp: resp}, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func runCase(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, d designer.Design, c testCase, st *stats) {
	t.Helper()
	ask := func(body []byte) (answer, answer) {
		st.count(c.op)
		want, err := askDynalite(ctx, dyn, c.op, body)
		if err != nil {
			t.Fatalf("%s: %v\nrequest: %s", c.name, err, body)
		}
		if want.errType != "" {
			st.countError(want.errType)
		}
		if os.Getenv("ORACLE_DEBUG") != "" {
			t.Logf("DEBUG %s: %s\n%s", c.name, want, body)
		}
		return want, askEvaluator(d, c.op, body)
	}
	report := func(body []byte, want, got answer, diffs []string) {
		st.mismatches++
		kind := diffs[0]
		if strings.HasPrefix(kind, "page ") && len(diffs) > 1 {
			kind = diffs[1]
		}
		if i := strings.IndexAny(kind, ":("); i > 0 {
			kind = kind[:i]
		}
		st.countMismatch(c.op + " " + strings.TrimSpace(kind))
		if st.mismatches > maxReported {
			return
		}
		t.Errorf("MISMATCH %s %s\nrequest:   %s\ndynalite:  %s\nevaluator: %s\ndiff:\n  %s",
			c.op, c.name, body, want, got, strings.Join(diffs, "\n  "))
	}

	switch c.mode {
	case ordered, unordered:
		body := mustJSON(c.body)
		want, got := ask(body)
		if diffs := diffAnswers(want, got, c.mode == unordered); len(diffs) > 0 {
			report(body, want, got, diffs)
		}
	case queryPages:
		req := maps(c.body)
		for page := 1; page <= 20; page++ {
			body := mustJSON(req)
			want, got := ask(body)
			if diffs := diffAnswers(want, got, false); len(diffs) > 0 {
				report(body, want, got, append([]string{fmt.Sprintf("page %d", page)}, diffs...))
				return
			}
			lek, ok := want.resp["LastEvaluatedKey"]
			if want.errType != "" || !ok {
				return
			}
			req["ExclusiveStartKey"] = lek
		}
	case scanPages:
		type side struct {
			items   []string
			scanned []string
			leks    []string
			count   float64
			fail    answer
			last    answer
		}
		run := func(askOne func(body []byte) answer) side {
			var s side
			req := maps(c.body)
			for page := 1; page <= 50; page++ {
				a := askOne(mustJSON(req))
				s.last = a
				if a.errType != "" {
					s.fail = a
					return s
				}
				for _, it := range listOf(a.resp["Items"]) {
					s.items = append(s.items, canonical(it))
				}
				cnt, _ := a.resp["Count"].(float64)
				s.count += cnt
				s.scanned = append(s.scanned, canonical(a.resp["ScannedCount"]))
				lek, ok := a.resp["LastEvaluatedKey"].(map[string]any)
				if !ok {
					return s
				}
				names := make([]string, 0, len(lek))
				for k := range lek {
					names = append(names, k)
				}
				sort.Strings(names)
				s.leks = append(s.leks, strings.Join(names, ","))
				req["ExclusiveStartKey"] = lek
			}
			s.fail = answer{errType: "(more than 50 pages)"}
			return s
		}
		var wantErr error
		want := run(func(body []byte) answer {
			st.count(c.op)
			a, err := askDynalite(ctx, dyn, c.op, body)
			if err != nil {
				wantErr = err
				return answer{errType: "(dynalite failed)", errMsg: err.Error()}
			}
			if a.errType != "" {
				st.countError(a.errType)
			}
			return a
		})
		if wantErr != nil {
			t.Fatalf("%s: %v", c.name, wantErr)
		}
		got := run(func(body []byte) answer { return askEvaluator(d, c.op, body) })
		body := mustJSON(c.body)
		var diffs []string
		if want.fail.errType != "" || got.fail.errType != "" {
			if want.fail.errType != got.fail.errType {
				diffs = append(diffs, fmt.Sprintf("error: dynalite %q, evaluator %q", want.fail.errType, got.fail.errType))
			}
		} else {
			slices.Sort(want.items)
			slices.Sort(got.items)
			diffs = append(diffs, diffLists("items over all pages", want.items, got.items, true)...)
			if !slices.Equal(want.scanned, got.scanned) {
				diffs = append(diffs, fmt.Sprintf("ScannedCount per page: dynalite %v, evaluator %v", want.scanned, got.scanned))
			}
			if want.count != got.count {
				diffs = append(diffs, fmt.Sprintf("Count over all pages: dynalite %v, evaluator %v", want.count, got.count))
			}
			if !slices.Equal(want.leks, got.leks) {
				diffs = append(diffs, fmt.Sprintf("LastEvaluatedKey attributes per page: dynalite %v, evaluator %v", want.leks, got.leks))
			}
		}
		if len(diffs) > 0 {
			report(body, want.last, got.last, diffs)
		}
	}
}

// maps copies a request body one level deep so pages can set ExclusiveStartKey.
func maps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

// diffAnswers compares two answers: error types when either failed, otherwise every top-level
// member except ConsumedCapacity, with sets compared regardless of order and, when unordered,
// Items and BatchGetItem's Responses as multisets.
func diffAnswers(want, got answer, unorderedItems bool) []string {
	if want.errType != "" || got.errType != "" {
		if want.errType != got.errType {
			return []string{fmt.Sprintf("error type: dynalite %q, evaluator %q", want.errType, got.errType)}
		}
		return nil
	}
	var diffs []string
	keys := map[string]bool{}
	for k := range want.resp {
		keys[k] = true
	}
	for k := range got.resp {
		keys[k] = true
	}
	delete(keys, "ConsumedCapacity")
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		w, wok := want.resp[k]
		g, gok := got.resp[k]
		switch {
		case !gok:
			diffs = append(diffs, fmt.Sprintf("%s: evaluator lacks it; dynalite has %s", k, canonical(w)))
		case !wok:
			diffs = append(diffs, fmt.Sprintf("%s: dynalite lacks it; evaluator has %s", k, canonical(g)))
		case k == "Items":
			diffs = append(diffs, diffLists("Items", canonicalList(w, unorderedItems), canonicalList(g, unorderedItems), unorderedItems)...)
		case k == "Responses":
			wm, _ := w.(map[string]any)
			gm, _ := g.(map[string]any)
			tables := map[string]bool{}
			for t := range wm {
				tables[t] = true
			}
			for t := range gm {
				tables[t] = true
			}
			for _, t := range sortedKeys(tables) {
				wl, wok := wm[t]
				gl, gok := gm[t]
				if !wok || !gok {
					diffs = append(diffs, fmt.Sprintf("Responses.%s: present for dynalite %v, for evaluator %v", t, wok, gok))
					continue
				}
				diffs = append(diffs, diffLists("Responses."+t, canonicalList(wl, true), canonicalList(gl, true), true)...)
			}
		default:
			if cw, cg := canonical(w), canonical(g); cw != cg {
				diffs = append(diffs, fmt.Sprintf("%s: dynalite %s, evaluator %s", k, cw, cg))
			}
		}
	}
	return diffs
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func canonicalList(v any, sorted bool) []string {
	l := listOf(v)
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = canonical(e)
	}
	if sorted {
		slices.Sort(out)
	}
	return out
}

// diffLists describes how two lists of canonical items differ: as multisets, or position by position.
func diffLists(what string, want, got []string, multiset bool) []string {
	if slices.Equal(want, got) {
		return nil
	}
	diffs := []string{fmt.Sprintf("%s: dynalite has %d, evaluator %d", what, len(want), len(got))}
	if multiset {
		w, g := map[string]int{}, map[string]int{}
		for _, s := range want {
			w[s]++
		}
		for _, s := range got {
			g[s]++
		}
		for _, s := range want {
			if w[s] > g[s] {
				diffs = append(diffs, "only dynalite: "+s)
				w[s] = g[s]
			}
		}
		for _, s := range got {
			if g[s] > w[s] {
				diffs = append(diffs, "only evaluator: "+s)
				g[s] = w[s]
			}
		}
		return diffs
	}
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			diffs = append(diffs, fmt.Sprintf("first difference at [%d]: dynalite %s, evaluator %s", i, orNone(w), orNone(g)))
			break
		}
	}
	return diffs
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// canonical renders a decoded JSON value with map keys sorted (encoding/json does that) and the
// members of string, number and binary sets sorted, since DynamoDB does not order sets.
func canonical(v any) string {
	return string(mustJSON(canonicalValue(v)))
}

func canonicalValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if (k == "SS" || k == "NS" || k == "BS") && len(x) == 1 {
				if members, ok := stringsOf(e); ok {
					slices.Sort(members)
					out[k] = members
					continue
				}
			}
			out[k] = canonicalValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonicalValue(e)
		}
		return out
	}
	return v
}

func stringsOf(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}
