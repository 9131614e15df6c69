package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/designer/format/mcpmodel"
	"dynaloom/internal/designer/rules"
	"dynaloom/test/dynalite"
)

// The MCP model oracle: every design of internal/designer/examples and the export tests' orders
// design (designertest.OrdersDesign), and the designs imported from
// the seeds when ../shared is beside the repository, is exported as mcp-model-json and run as the
// MCP server's validator runs it (reference/awslabs-dynamodb-mcp.md §2.1): every table of "tables"
// passed to CreateTable as it is, "items" written by BatchWriteItem in chunks of 25, then each
// access pattern's "aws dynamodb" command in file order against the same data. Each command is
// split into words by a real POSIX shell and translated to the request the AWS CLI sends (the
// subcommand is the operation, each --flag-name the member FlagName, JSON flags as JSON), and
// dynalite must answer 200.
//
// What dynalite lacks, and what the test does instead:
//   - TransactGetItems and TransactWriteItems (dynalite 4.0.0 has no transactions): each action is
//     sent as its own GetItem, PutItem, UpdateItem or DeleteItem, which checks its table, key,
//     expressions, names and values but not the all-or-nothing; a ConditionCheck has no request of
//     its own and is not sent.
//   - multi-attribute GSI keys (DynamoDB added them in November 2025): such a table is not created
//     and the commands on it are not sent.
//
// Each omission is logged with its reason.

func TestOracle_mcpModelCommandsRunOnDynalite(t *testing.T) {
	node, cli := requireDynalite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	dyn := dynalite.Start(ctx, t, node, cli)

	type named struct {
		name   string
		design designer.Design
	}
	var designs []named
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs = append(designs, named{"example " + ex.ID, d})
	}
	designs = append(designs, named{"the export tests' orders", designertest.OrdersDesign()}, named{"visits, as imported", visitsDesign()})
	if dir := sharedSeeds(t); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "0*.txt"))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := format.Import([]format.File{{Name: filepath.Base(p), Data: data}})
			if err != nil {
				t.Logf("seed %s is not read as a design (%v): nothing to export", filepath.Base(p), err)
				continue
			}
			designs = append(designs, named{"seed " + filepath.Base(p), d})
		}
	}
	total := 0
	for _, n := range designs {
		t.Run(n.name, func(t *testing.T) {
			ran, notRun := runMCPModel(ctx, t, dyn, n.design)
			total += ran
			if len(notRun) > 0 {
				t.Logf("%d commands answered 200; %d mapped operations have no command, each with its reason in the model", ran, len(notRun))
			}
			if !strings.HasPrefix(n.name, "seed ") && (ran == 0 || len(notRun) > 0) {
				t.Fatalf("%d commands ran; patterns of our own design without a command: %q", ran, notRun)
			}
		})
	}
	t.Logf("%d commands of %d designs answered 200", total, len(designs))
}

// visitsDesign is a design as an import from markdown leaves one: its attribute names are words
// DynamoDB reserves (name, day, status, comment), and its key conditions name placeholders whose
// values no cell gave.
func visitsDesign() designer.Design {
	visit := func(name, day, status, comment string) designer.SampleItem {
		return designer.SampleItem{ID: name + day, Item: designer.Item{"name": designer.Str(name), "day": designer.Str(day),
			"status": designer.Str(status), "comment": designer.Str(comment)}}
	}
	op := func(o, index, key string) designer.Operation {
		return designer.Operation{Op: o, Table: "Visits", Index: index, KeyCondition: key}
	}
	pattern := func(n int, ops ...designer.Operation) designer.Pattern {
		return designer.Pattern{Number: n, Description: "pattern " + strconv.Itoa(n), Mapping: designer.Mapping{Operations: ops}}
	}
	filtered := op("Query", "", "name = :name")
	filtered.Filter, filtered.Projection = "status <> :status", "day, comment"
	update := op("UpdateItem", "", "name = :name AND day = :day")
	update.Update, update.Condition = "SET status = :status REMOVE comment", "attribute_exists(name)"
	put := op("PutItem", "", "name = :name AND day = :day")
	put.Condition, put.Values = "attribute_not_exists(day)", map[string]designer.Value{":name": designer.Str("zoe"), ":day": designer.Str("sun")}
	scan := op("Scan", "", "")
	scan.Filter = "begins_with(comment, :comment)"
	return designer.Design{Name: "Visits", Tables: []designer.Table{{
		Name: "Visits", PartitionKey: designer.KeyAttribute{Name: "name", Type: designer.S},
		SortKey: &designer.KeyAttribute{Name: "day", Type: designer.S},
		GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
			SortKey: []designer.KeyAttribute{{Name: "day", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}}},
		Items: []designer.SampleItem{visit("ann", "mon", "booked", "first"), visit("ann", "tue", "done", "second"), visit("bob", "mon", "done", "third")},
	}}, Patterns: []designer.Pattern{
		pattern(1, op("GetItem", "", "name = :name AND day = :day")),
		pattern(2, op("Query", "ByStatus", "status = :status AND day BETWEEN :from AND :to")),
		pattern(3, filtered),
		pattern(4, update),
		pattern(5, put),
		pattern(6, scan),
	}}
}

// sharedSeeds is ../shared/seeds beside the repository, or "" (saying why) when it is not there.
func sharedSeeds(t *testing.T) string {
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "seeds"), "/work/shared/seeds"} {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	t.Log("../shared/seeds is not beside the repository: the seeds' designs are not run")
	return ""
}

type mcpFile struct {
	Tables         []json.RawMessage            `json:"tables"`
	Items          map[string][]json.RawMessage `json:"items"`
	AccessPatterns []struct {
		Pattern        string `json:"pattern"`
		Table          string `json:"table"`
		Implementation string `json:"implementation"`
		Reason         string `json:"reason"`
	} `json:"access_patterns"`
}

// runMCPModel exports d, loads its model into an empty dynalite and runs its commands; it returns
// how many requests answered 200, and the reasons of the mapped patterns the export gave no command.
func runMCPModel(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, d designer.Design) (int, []string) {
	out, err := mcpmodel.Export(d)
	if err != nil {
		// The export may refuse only what validation reports as an error.
		for _, f := range rules.Validate(d) {
			if f.Severity == rules.SeverityError && strings.HasPrefix(f.Code, "MOD") {
				t.Logf("the export refuses (%v), as validation said first: %s %s", err, f.Code, f.Message)
				return 0, nil
			}
		}
		t.Fatalf("the export refuses a design validation finds no model error in: %v", err)
	}
	var m mcpFile
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	emptyDynalite(ctx, t, dyn)
	missing := map[string]bool{}
	for _, raw := range m.Tables {
		var tbl struct {
			TableName              string
			GlobalSecondaryIndexes []struct {
				IndexName string
				KeySchema []struct{ KeyType string }
			}
		}
		if err := json.Unmarshal(raw, &tbl); err != nil {
			t.Fatal(err)
		}
		multi := slices.ContainsFunc(tbl.GlobalSecondaryIndexes, func(ix struct {
			IndexName string
			KeySchema []struct{ KeyType string }
		}) bool {
			hash := 0
			for _, k := range ix.KeySchema {
				if k.KeyType == "HASH" {
					hash++
				}
			}
			return hash > 1 || len(ix.KeySchema)-hash > 1
		})
		if multi {
			t.Logf("table %s has a multi-attribute GSI key, which dynalite lacks: it is not created and its commands are not sent", tbl.TableName)
			missing[tbl.TableName] = true
			continue
		}
		mustCall(ctx, t, dyn, "CreateTable", raw)
		waitActive(ctx, t, dyn, tbl.TableName)
	}
	for _, name := range sortedNames(m.Items) {
		if missing[name] {
			continue
		}
		reqs := m.Items[name]
		for start := 0; start < len(reqs); start += 25 {
			chunk := reqs[start:min(start+25, len(reqs))]
			body, _ := json.Marshal(map[string]any{"RequestItems": map[string]any{name: chunk}})
			status, resp, err := dyn.Call(ctx, "BatchWriteItem", body)
			if err != nil {
				t.Fatal(err)
			}
			if status != http.StatusOK {
				// DynamoDB refuses the whole batch for one bad item; validation must have said
				// which. The items are then put one by one, so the good ones are there.
				refusedItems(ctx, t, dyn, d, name, chunk, resp)
				continue
			}
			if bytes.Contains(resp, []byte(`"UnprocessedItems":{"`)) {
				t.Fatalf("BatchWriteItem of %s left items unprocessed: %s", name, resp)
			}
		}
	}
	ran := 0
	var notRun []string
	for _, p := range m.AccessPatterns {
		if p.Implementation == "" {
			if strings.HasPrefix(p.Reason, "Not ") {
				notRun = append(notRun, p.Pattern+": "+p.Reason)
			}
			continue
		}
		if slices.ContainsFunc(strings.Split(p.Table, ", "), func(s string) bool { return missing[s] }) {
			t.Logf("pattern %s is not sent: its table was not created", p.Pattern)
			continue
		}
		op, body := cliRequest(t, shellWords(t, p.Implementation))
		requests := []request{{op, body}}
		if strings.HasPrefix(op, "Transact") {
			requests = splitTransaction(t, p.Pattern, op, body)
		}
		for _, r := range requests {
			status, resp, err := dyn.Call(ctx, r.op, r.body)
			if err != nil {
				t.Fatal(err)
			}
			if status != http.StatusOK {
				t.Errorf("pattern %s: dynalite answers %d to %s %s\ncommand: %s\nanswer: %s", p.Pattern, status, r.op, r.body, p.Implementation, resp)
				continue
			}
			ran++
		}
	}
	return ran, notRun
}

// refusedItems puts the items of a batch dynalite refused one by one, and fails unless validation
// reports an error about the sample items of that table.
func refusedItems(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, d designer.Design, table string, chunk []json.RawMessage, batchAnswer []byte) {
	var said *rules.Finding
	for _, f := range rules.Validate(d) {
		if f.Severity == rules.SeverityError && strings.HasPrefix(f.Path, "tables/"+table+"/items/") {
			said = &f
			break
		}
	}
	if said == nil {
		t.Fatalf("dynalite refuses the items of %s (%s), and validation reports no error about them", table, batchAnswer)
	}
	refused := 0
	for _, raw := range chunk {
		var put struct {
			PutRequest struct{ Item json.RawMessage }
		}
		if err := json.Unmarshal(raw, &put); err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"TableName": table, "Item": put.PutRequest.Item})
		if status, _, err := dyn.Call(ctx, "PutItem", body); err != nil {
			t.Fatal(err)
		} else if status != http.StatusOK {
			refused++
		}
	}
	t.Logf("dynalite refuses %d items of %s, as validation said first (%s %s: %s)", refused, table, said.Code, said.Path, said.Message)
}

type request struct {
	op   string
	body []byte
}

// splitTransaction sends the actions of a transaction one by one, as dynalite has no transactions.
func splitTransaction(t *testing.T, pattern, op string, body []byte) []request {
	var tx struct{ TransactItems []map[string]json.RawMessage }
	if err := json.Unmarshal(body, &tx); err != nil {
		t.Fatalf("pattern %s: %v", pattern, err)
	}
	t.Logf("pattern %s: dynalite has no %s; its %d actions are sent one by one", pattern, op, len(tx.TransactItems))
	var out []request
	for _, action := range tx.TransactItems {
		for kind, raw := range action {
			single := map[string]string{"Get": "GetItem", "Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem"}[kind]
			if single == "" {
				t.Logf("pattern %s: a %s has no request of its own; it is not sent", pattern, kind)
				continue
			}
			out = append(out, request{single, raw})
		}
	}
	return out
}

func mustCall(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, op string, body []byte) []byte {
	t.Helper()
	status, resp, err := dyn.Call(ctx, op, body)
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusOK {
		t.Fatalf("%s %s: %d %s", op, body, status, resp)
	}
	return resp
}

// emptyDynalite deletes every table, as the validator does before it creates the model's.
func emptyDynalite(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite) {
	var list struct{ TableNames []string }
	if err := json.Unmarshal(mustCall(ctx, t, dyn, "ListTables", []byte(`{}`)), &list); err != nil {
		t.Fatal(err)
	}
	for _, name := range list.TableNames {
		body, _ := json.Marshal(map[string]string{"TableName": name})
		mustCall(ctx, t, dyn, "DeleteTable", body)
		for {
			status, _, err := dyn.Call(ctx, "DescribeTable", body)
			if err != nil {
				t.Fatal(err)
			}
			if status != http.StatusOK {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func waitActive(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, name string) {
	body, _ := json.Marshal(map[string]string{"TableName": name})
	for {
		var d struct{ Table struct{ TableStatus string } }
		if err := json.Unmarshal(mustCall(ctx, t, dyn, "DescribeTable", body), &d); err != nil {
			t.Fatal(err)
		}
		if d.Table.TableStatus == "ACTIVE" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// shellWords splits a command line as a POSIX shell does, by running it in sh with aws defined as
// a function that prints its arguments.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `aws() { printf '%s\0' aws "$@"; }; `+line).Output()
	if err != nil {
		t.Fatalf("sh could not run %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// cliRequest is the request the AWS CLI sends for an "aws dynamodb" command: the subcommand
// (get-item) names the operation (GetItem), each --flag-name the member FlagName; the flags the
// CLI reads as JSON structures are JSON, --limit a number, --no-scan-index-forward and
// --consistent-read booleans.
func cliRequest(t *testing.T, words []string) (string, []byte) {
	t.Helper()
	if len(words) < 3 || words[0] != "aws" || words[1] != "dynamodb" {
		t.Fatalf("not an aws dynamodb command: %q", words)
	}
	jsonFlags := map[string]bool{"--key": true, "--item": true, "--expression-attribute-names": true,
		"--expression-attribute-values": true, "--request-items": true, "--transact-items": true}
	body := map[string]any{}
	for i := 3; i < len(words); i++ {
		w := words[i]
		switch w {
		case "--no-scan-index-forward":
			body["ScanIndexForward"] = false
			continue
		case "--consistent-read":
			body["ConsistentRead"] = true
			continue
		}
		if !strings.HasPrefix(w, "--") || i+1 == len(words) {
			t.Fatalf("unexpected word %q in %q", w, words)
		}
		member := pascal(w)
		i++
		switch {
		case jsonFlags[w]:
			if !json.Valid([]byte(words[i])) {
				t.Fatalf("%s is not JSON: %s", w, words[i])
			}
			body[member] = json.RawMessage(words[i])
		case w == "--limit":
			n, err := strconv.Atoi(words[i])
			if err != nil {
				t.Fatalf("--limit %q", words[i])
			}
			body[member] = n
		default:
			body[member] = words[i]
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return pascal(words[2]), b
}

// pascal turns a CLI name (--table-name, get-item) into its API name (TableName, GetItem).
func pascal(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(strings.TrimPrefix(s, "--"), "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
