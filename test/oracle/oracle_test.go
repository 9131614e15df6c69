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
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynaloom/internal/designer"
)

// dynaliteCLI is dynalite's command-line entry point, relative to this package's directory (where
// go test runs the test).
const dynaliteCLI = "node_modules/dynalite/cli.js"

func TestOracle_evaluatorMatchesDynalite(t *testing.T) {
	node, cli, why := findDynalite()
	if why != "" {
		if os.Getenv("CI") != "" {
			t.Log(why)
			t.Fatal("CI requires dynalite: run npm ci --prefix test/oracle")
		}
		t.Skipf("dynalite oracle not available (%s); run npm ci --prefix test/oracle", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)

	start := time.Now()
	dyn := startDynalite(ctx, t, node, cli)
	d := buildDesign()
	load(ctx, t, dyn, d)
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

func findDynalite() (node, cli, why string) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", "", "node is not on PATH"
	}
	cli, err = filepath.Abs(dynaliteCLI)
	if err != nil {
		return "", "", err.Error()
	}
	if _, err := os.Stat(cli); err != nil {
		return "", "", "test/oracle/" + dynaliteCLI + " is missing"
	}
	return node, cli, ""
}

// dynalite is a running dynalite: its URL, an SDK client for setting it up and an HTTP client for
// sending raw read requests.
type dynalite struct {
	url  string
	sdk  *dynamodb.Client
	http *http.Client
}

// startDynalite starts dynalite on a free 127.0.0.1 port with in-memory storage, waits until it
// answers and stops it when the test ends. A port taken between choosing and binding it is retried.
func startDynalite(ctx context.Context, t *testing.T, node, cli string) *dynalite {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatalf("choosing a port: %v", err)
		}
		logPath := filepath.Join(t.TempDir(), "dynalite.log")
		logFile, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		// No --path: dynalite keeps everything in memory. Tables become ACTIVE at once.
		cmd := exec.CommandContext(ctx, node, cli, "--host", "127.0.0.1", "--port", strconv.Itoa(port),
			"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
		cmd.Stdout, cmd.Stderr = logFile, logFile
		cmd.WaitDelay = 5 * time.Second
		if err := cmd.Start(); err != nil {
			logFile.Close()
			t.Fatalf("starting dynalite: %v", err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); logFile.Close(); close(exited) }()
		stop := func() {
			_ = cmd.Process.Kill()
			<-exited
		}
		d := newDynalite(fmt.Sprintf("http://127.0.0.1:%d", port))
		if err := d.waitReady(ctx, exited); err != nil {
			stop()
			out, _ := os.ReadFile(logPath)
			lastErr = fmt.Errorf("%v; dynalite said: %s", err, out)
			continue
		}
		t.Cleanup(stop)
		return d
	}
	t.Fatalf("dynalite did not start: %v", lastErr)
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func newDynalite(url string) *dynalite {
	cfg := aws.Config{
		Region: "us-east-1",
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "oracle", SecretAccessKey: "oracle", Source: "oracle"}, nil
		}),
		RetryMaxAttempts: 1,
	}
	return &dynalite{
		url:  url,
		sdk:  dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(url) }),
		http: &http.Client{Timeout: 30 * time.Second},
	}
}

func (d *dynalite) waitReady(ctx context.Context, exited <-chan struct{}) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, _, err := d.call(ctx, "ListTables", []byte(`{}`))
		if err == nil && status == http.StatusOK {
			return nil
		}
		select {
		case <-exited:
			return errors.New("dynalite exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("dynalite did not answer within 20s (last: %d %v)", status, err)
		}
	}
}

// call sends one raw DynamoDB JSON request. dynalite wants a SigV4-shaped Authorization header and
// a date but does not check the signature.
func (d *dynalite) call(ctx context.Context, op string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url+"/", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	now := time.Now().UTC()
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("X-Amz-Date", now.Format("20060102T150405Z"))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=oracle/"+now.Format("20060102")+
		"/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0")
	resp, err := d.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// load creates the design's tables in dynalite through the SDK and puts every sample item.
func load(ctx context.Context, t *testing.T, d *dynalite, des designer.Design) {
	t.Helper()
	for _, tbl := range des.Tables {
		in, err := createTableInput(tbl)
		if err != nil {
			t.Fatalf("table %s: %v", tbl.Name, err)
		}
		if _, err := d.sdk.CreateTable(ctx, in); err != nil {
			t.Fatalf("CreateTable %s: %v", tbl.Name, err)
		}
		// Even with --createTableMs 0 a table is CREATING until dynalite's next tick.
		for {
			out, err := d.sdk.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tbl.Name)})
			if err != nil {
				t.Fatalf("DescribeTable %s: %v", tbl.Name, err)
			}
			if out.Table.TableStatus == types.TableStatusActive {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, it := range tbl.Items {
			item := make(map[string]types.AttributeValue, len(it.Item))
			for name, v := range it.Item {
				item[name] = attributeValue(v)
			}
			if _, err := d.sdk.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name), Item: item}); err != nil {
				t.Fatalf("PutItem %s %s: %v", tbl.Name, it.ID, err)
			}
		}
	}
}

// createTableInput turns a designer table into CreateTable: attribute definitions for key
// attributes only, on-demand billing. dynalite has no multi-attribute GSI keys, so the oracle's
// designs have none and such an index is refused here.
func createTableInput(tbl designer.Table) (*dynamodb.CreateTableInput, error) {
	defs := map[string]types.ScalarAttributeType{}
	var order []string
	define := func(k designer.KeyAttribute) error {
		if prev, ok := defs[k.Name]; ok {
			if string(prev) != string(k.Type) {
				return fmt.Errorf("key attribute %s is both %s and %s", k.Name, prev, k.Type)
			}
			return nil
		}
		defs[k.Name] = types.ScalarAttributeType(k.Type)
		order = append(order, k.Name)
		return nil
	}
	schema := func(pk designer.KeyAttribute, sk *designer.KeyAttribute) ([]types.KeySchemaElement, error) {
		if err := define(pk); err != nil {
			return nil, err
		}
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
		if sk != nil {
			if err := define(*sk); err != nil {
				return nil, err
			}
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
		}
		return ks, nil
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String(tbl.Name), BillingMode: types.BillingModePayPerRequest}
	ks, err := schema(tbl.PartitionKey, tbl.SortKey)
	if err != nil {
		return nil, err
	}
	in.KeySchema = ks
	indexKeys := func(ix designer.Index) ([]types.KeySchemaElement, *types.Projection, error) {
		if len(ix.PartitionKey) != 1 || len(ix.SortKey) > 1 {
			return nil, nil, fmt.Errorf("index %s: dynalite supports only single-attribute index keys", ix.Name)
		}
		var sk *designer.KeyAttribute
		if len(ix.SortKey) == 1 {
			sk = &ix.SortKey[0]
		}
		ks, err := schema(ix.PartitionKey[0], sk)
		if err != nil {
			return nil, nil, err
		}
		p := &types.Projection{ProjectionType: types.ProjectionType(ix.Projection.Type)}
		if ix.Projection.Type == designer.Include {
			p.NonKeyAttributes = ix.Projection.Attributes
		}
		return ks, p, nil
	}
	for _, ix := range tbl.GSIs {
		ks, p, err := indexKeys(ix)
		if err != nil {
			return nil, err
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.Name), KeySchema: ks, Projection: p})
	}
	for _, ix := range tbl.LSIs {
		ks, p, err := indexKeys(ix)
		if err != nil {
			return nil, err
		}
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(ix.Name), KeySchema: ks, Projection: p})
	}
	for _, name := range order {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(name), AttributeType: defs[name]})
	}
	return in, nil
}

func attributeValue(v designer.Value) types.AttributeValue {
	switch v.Type {
	case designer.S:
		return &types.AttributeValueMemberS{Value: v.S}
	case designer.N:
		return &types.AttributeValueMemberN{Value: v.S}
	case designer.B:
		return &types.AttributeValueMemberB{Value: v.B}
	case designer.BOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case designer.NULL:
		return &types.AttributeValueMemberNULL{Value: true}
	case designer.M:
		m := make(map[string]types.AttributeValue, len(v.M))
		for k, e := range v.M {
			m[k] = attributeValue(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	case designer.L:
		l := make([]types.AttributeValue, len(v.L))
		for i, e := range v.L {
			l[i] = attributeValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case designer.SS:
		return &types.AttributeValueMemberSS{Value: v.SS}
	case designer.NS:
		return &types.AttributeValueMemberNS{Value: v.SS}
	case designer.BS:
		return &types.AttributeValueMemberBS{Value: v.BS}
	}
	panic("attribute value without a type")
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

func askDynalite(ctx context.Context, d *dynalite, op string, body []byte) (answer, error) {
	status, raw, err := d.call(ctx, op, body)
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

func runCase(ctx context.Context, t *testing.T, dyn *dynalite, d designer.Design, c testCase, st *stats) {
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
