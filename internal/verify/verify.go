// Package verify runs a design against a live DynamoDB endpoint (DynamoDB Local, dynalite or an
// account): it creates the design's tables under a name prefix, loads the sample items, sends every
// pattern's requests as the mcp-model-json export writes them, compares each read's answer with
// the in-process evaluator's and with the items the pattern expects, and removes what it created.
package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format/mcpmodel"
)

// Endpoint is where requests go, signed with SigV4 as DynamoDB takes them.
type Endpoint struct {
	URL         string
	Region      string
	Credentials aws.CredentialsProvider
	Client      *http.Client
}

// APIError is DynamoDB's answer to a refused request.
type APIError struct {
	Status  int
	Type    string // the part of __type after '#': ValidationException, …
	Message string
}

func (e *APIError) Error() string { return e.Type + ": " + e.Message }

// Call sends one request of the DynamoDB JSON API and returns the answer's body.
func (e Endpoint) Call(ctx context.Context, op string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	creds, err := e.Credentials.Retrieve(ctx)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "dynamodb", e.Region, time.Now()); err != nil {
		return nil, err
	}
	client := e.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		var refusal struct {
			Type     string `json:"__type"`
			Message  string `json:"message"`
			MessageU string `json:"Message"`
		}
		_ = json.Unmarshal(out, &refusal)
		typ := refusal.Type[strings.LastIndex(refusal.Type, "#")+1:]
		if typ == "" {
			typ = resp.Status
		}
		return nil, &APIError{Status: resp.StatusCode, Type: typ, Message: refusal.Message + refusal.MessageU}
	}
	return out, nil
}

// Loopback reports whether the endpoint is on this machine, where local emulators take any
// credentials.
func Loopback(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	host := u.Hostname()
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

// Outcome is what became of one request.
type Outcome string

const (
	Agreed      Outcome = "agreed"      // a read answered as the evaluator does
	Accepted    Outcome = "accepted"    // a write the endpoint took
	Answered    Outcome = "answered"    // a read the evaluator does not run, answered
	Differed    Outcome = "differed"    // a read answered otherwise than the evaluator
	Refused     Outcome = "refused"     // the endpoint refused the request
	Unsupported Outcome = "unsupported" // the endpoint does not implement the operation
	Skipped     Outcome = "skipped"     // no request could be made, or its table could not be created
)

// Result is one request's outcome.
type Result struct {
	ID        string  `json:"id"`
	Operation string  `json:"operation"`
	Outcome   Outcome `json:"outcome"`
	Items     int     `json:"items,omitempty"`
	// Expected is "met" or "not met" for an agreed read whose pattern states the items it
	// expects. Detail says why, for every outcome but agreed and accepted, and for "not met".
	Expected string `json:"expected,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// Failed reports whether the result is a failure: an answer other than the evaluator's, one
// without the items its pattern expects, or a refusal.
func (r Result) Failed() bool {
	return r.Outcome == Differed || r.Outcome == Refused || r.Expected == "not met"
}

// Report is a design's run.
type Report struct {
	Design  string   `json:"design"`
	Prefix  string   `json:"prefix"`
	Tables  []string `json:"tables_created"`
	Results []Result `json:"results"`
	// Removed is false when a table it created could not be deleted; Cleanup says which.
	Removed bool   `json:"removed"`
	Cleanup string `json:"cleanup,omitempty"`
}

// Run verifies d against e with its tables named prefix+name, and removes them again whatever
// happens, even when ctx ends (it then has a few seconds for the removal).
func Run(ctx context.Context, e Endpoint, d designer.Design, prefix string) (Report, error) {
	rep := Report{Design: d.Name, Prefix: prefix, Removed: true}
	raw, err := mcpmodel.Export(d)
	if err != nil {
		return rep, err
	}
	var model struct {
		Tables []json.RawMessage            `json:"tables"`
		Items  map[string][]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &model); err != nil {
		return rep, err
	}
	defer func() {
		rm, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		rep.Removed, rep.Cleanup = removeTables(rm, e, rep.Tables)
	}()

	broken := map[string]string{} // tables not created or not loaded, and why
	for _, t := range model.Tables {
		var def struct{ TableName string }
		if err := json.Unmarshal(t, &def); err != nil {
			return rep, err
		}
		body, _ := prefixed(t, prefix)
		if _, err := e.Call(ctx, "CreateTable", body); err != nil {
			var api *APIError
			if !errors.As(err, &api) {
				return rep, err // the endpoint is not there, or ctx ended
			}
			broken[def.TableName] = "CreateTable: " + err.Error()
			continue
		}
		rep.Tables = append(rep.Tables, prefix+def.TableName)
		if err := waitActive(ctx, e, prefix+def.TableName); err != nil {
			return rep, err
		}
	}
	for table, puts := range model.Items {
		if broken[table] != "" {
			continue
		}
		for chunk := range slices.Chunk(puts, 25) {
			body, _ := json.Marshal(map[string]any{"RequestItems": map[string]any{prefix + table: chunk}})
			if err := writeBatch(ctx, e, body); err != nil {
				var api *APIError
				if !errors.As(err, &api) {
					return rep, err
				}
				broken[table] = "loading its sample items: " + err.Error()
				break
			}
		}
	}

	reqs := mcpmodel.Requests(d)
	// Reads first, against the sample items as the evaluator holds them; the writes after.
	order := slices.Clone(reqs)
	slices.SortStableFunc(order, func(a, b mcpmodel.Request) int {
		return boolRank(isWrite(a.Operation)) - boolRank(isWrite(b.Operation))
	})
	byID := map[string]Result{}
	verdicts := derive.New(d, nil)
	for _, r := range order {
		res := runOne(ctx, e, d, verdicts, r, prefix, broken)
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		byID[r.ID] = res
	}
	for _, r := range reqs {
		rep.Results = append(rep.Results, byID[r.ID])
	}
	return rep, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isWrite(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
}

func runOne(ctx context.Context, e Endpoint, d designer.Design, verdicts *derive.Derived, r mcpmodel.Request, prefix string, broken map[string]string) Result {
	res := Result{ID: r.ID, Operation: r.Operation}
	if r.Reason != "" {
		res.Outcome, res.Detail = Skipped, r.Reason
		return res
	}
	for _, t := range r.Tables {
		if why := broken[t]; why != "" {
			res.Outcome, res.Detail = Skipped, "table "+t+": "+why
			return res
		}
	}
	body, err := prefixed(r.Body, prefix)
	if err != nil {
		res.Outcome, res.Detail = Skipped, err.Error()
		return res
	}
	out, err := e.Call(ctx, r.Operation, body)
	if err != nil {
		var api *APIError
		if errors.As(err, &api) && api.Type == "UnknownOperationException" {
			res.Outcome, res.Detail = Unsupported, "the endpoint does not implement "+r.Operation
			return res
		}
		res.Outcome, res.Detail = Refused, err.Error()
		return res
	}
	if isWrite(r.Operation) {
		res.Outcome = Accepted
		return res
	}
	got, err := answerItems(out, prefix)
	if err != nil {
		res.Outcome, res.Detail = Refused, "the answer is not DynamoDB's: "+err.Error()
		return res
	}
	res.Items = len(got)
	if r.Operation == "TransactGetItems" {
		res.Outcome, res.Detail = Answered, "the evaluator does not run TransactGetItems, so the answer is not compared"
		return res
	}
	evaluated, err := dynamo.EvaluateJSON(d, r.Operation, r.Body)
	if err != nil {
		res.Outcome, res.Detail = Differed, "the evaluator refuses the request: "+err.Error()
		return res
	}
	want, err := answerItems(evaluated, "")
	if err != nil {
		res.Outcome, res.Detail = Differed, err.Error()
		return res
	}
	unordered := r.Operation == "BatchGetItem" || r.Operation == "Scan"
	if diff := Compare(want, got, unordered); diff != "" {
		res.Outcome, res.Detail = Differed, diff
		return res
	}
	res.Outcome = Agreed
	// The answer is the evaluator's, so the pattern's verdict on the Mapping step holds for it.
	if p, _, ok := d.PatternByNumber(r.Pattern); ok {
		switch verdicts.PatternVerdict(p) {
		case "pass":
			res.Expected = "met"
		case "fail":
			res.Expected = "not met"
			res.Detail = fmt.Sprintf("pattern %d does not return the items it expects, as its Mapping card says", r.Pattern)
		}
	}
	return res
}

// prefixed is a request body with every table name given the prefix: TableName members, wherever
// they stand, and the tables named by RequestItems.
func prefixed(body []byte, prefix string) ([]byte, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				switch k {
				case "TableName":
					if s, ok := val.(string); ok {
						x[k] = prefix + s
						continue
					}
				case "RequestItems":
					if m, ok := val.(map[string]any); ok {
						renamed := make(map[string]any, len(m))
						for t, rv := range m {
							renamed[prefix+t] = rv
						}
						x[k] = renamed
						continue
					}
				}
				x[k] = walk(val)
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	return json.Marshal(walk(v))
}

// answerItems are the items of a read's answer; BatchGetItem's Responses by table, the prefix
// taken off, flattened.
func answerItems(out []byte, prefix string) ([]designer.Item, error) {
	var resp struct {
		Item      designer.Item
		Items     []designer.Item
		Responses json.RawMessage
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, err
	}
	items := resp.Items
	if resp.Item != nil {
		items = append(items, resp.Item)
	}
	if len(resp.Responses) > 0 {
		var byTable map[string][]designer.Item
		if err := json.Unmarshal(resp.Responses, &byTable); err == nil {
			for _, t := range sortedKeys(byTable) {
				items = append(items, byTable[t]...)
			}
		} else {
			var list []struct{ Item designer.Item }
			if err := json.Unmarshal(resp.Responses, &list); err != nil {
				return nil, err
			}
			for _, it := range list {
				if it.Item != nil {
					items = append(items, it.Item)
				}
			}
		}
	}
	return items, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Compare says how got differs from want; "" when they are the same items by DynamoDB's
// equality, in the same order unless unordered.
func Compare(want, got []designer.Item, unordered bool) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d items, the evaluator %d", len(got), len(want))
	}
	used := make([]bool, len(want))
	for i, it := range got {
		found := false
		for j, w := range want {
			if (unordered || i == j) && !used[j] && sameItem(it, w) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			b, _ := json.Marshal(it)
			return fmt.Sprintf("item %d %s is not the evaluator's", i+1, b)
		}
	}
	return ""
}

func sameItem(a, b designer.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// writeBatch sends a BatchWriteItem and resends what comes back unprocessed, a few times.
func writeBatch(ctx context.Context, e Endpoint, body []byte) error {
	for attempt := range 8 {
		out, err := e.Call(ctx, "BatchWriteItem", body)
		if err != nil {
			return err
		}
		var resp struct {
			UnprocessedItems map[string]json.RawMessage
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			return err
		}
		if len(resp.UnprocessedItems) == 0 {
			return nil
		}
		body, _ = json.Marshal(map[string]any{"RequestItems": resp.UnprocessedItems})
		time.Sleep(time.Duration(50<<attempt) * time.Millisecond)
	}
	return errors.New("items stayed unprocessed after 8 attempts")
}

// waitActive waits until the table is ACTIVE, for up to two minutes (a real account takes
// seconds; emulators answer at once).
func waitActive(ctx context.Context, e Endpoint, table string) error {
	body, _ := json.Marshal(map[string]string{"TableName": table})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		out, err := e.Call(ctx, "DescribeTable", body)
		if err != nil {
			return fmt.Errorf("DescribeTable %s: %w", table, err)
		}
		var resp struct{ Table struct{ TableStatus string } }
		if err := json.Unmarshal(out, &resp); err != nil {
			return err
		}
		if resp.Table.TableStatus == "ACTIVE" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("table %s is still %s after two minutes", table, resp.Table.TableStatus)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// removeTables deletes the tables; ok is false, with the reason, when one could not be.
func removeTables(ctx context.Context, e Endpoint, tables []string) (bool, string) {
	var failed, deleting []string
	for _, t := range tables {
		body, _ := json.Marshal(map[string]string{"TableName": t})
		if _, err := e.Call(ctx, "DeleteTable", body); err != nil {
			failed = append(failed, t+": "+err.Error())
			continue
		}
		deleting = append(deleting, t)
	}
	// DeleteTable only starts the removal; the run is over when the tables are gone.
	for _, t := range deleting {
		if err := waitGone(ctx, e, t); err != nil {
			failed = append(failed, t+": "+err.Error())
		}
	}
	if len(failed) > 0 {
		return false, "not deleted: " + strings.Join(failed, "; ")
	}
	return true, ""
}

// waitGone waits until DescribeTable no longer finds the table.
func waitGone(ctx context.Context, e Endpoint, table string) error {
	body, _ := json.Marshal(map[string]string{"TableName": table})
	for {
		_, err := e.Call(ctx, "DescribeTable", body)
		var api *APIError
		if errors.As(err, &api) && api.Type == "ResourceNotFoundException" {
			return nil
		}
		if err != nil && api == nil {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.New("still there when the time for removing it ran out")
		case <-time.After(100 * time.Millisecond):
		}
	}
}
