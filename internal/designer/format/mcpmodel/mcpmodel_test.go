package mcpmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format/tabledef"
)

type testModel struct {
	Tables []map[string]json.RawMessage `json:"tables"`
	Items  map[string][]struct {
		PutRequest struct {
			Item designer.Item
		}
	} `json:"items"`
	AccessPatterns []accessPattern `json:"access_patterns"`
}

func exportMCP(t *testing.T, d designer.Design) ([]byte, testModel) {
	t.Helper()
	out, err := Export(d)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	var m testModel
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("the model is not the §2.2 shape: %v\n%.2000s", err, out)
	}
	return out, m
}

// commandsOf is patternCommands of operations that must each become a command.
func commandsOf(t *testing.T, d designer.Design, pp string, ops []designer.Operation) []opCommand {
	t.Helper()
	cmds := patternCommands(d, pp, ops)
	for _, c := range cmds {
		if c.reason != "" {
			t.Fatalf("%s: %s", pp, c.reason)
		}
	}
	return cmds
}

func TestExport_golden(t *testing.T) {
	t.Parallel()
	got, err := Export(designertest.OrdersDesign())
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/mcp-model.golden", got)
}

func TestExport_hrGolden(t *testing.T) {
	t.Parallel()
	got, err := Export(designertest.HRDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/hr-mcp-model.golden", got)
}

func TestExport_topLevelIsTablesItemsAccessPatterns(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]designer.Design{"export test": designertest.OrdersDesign(), "hr": designertest.HRDesign(t), "empty": {Name: "empty"}} {
		t.Run(name, func(t *testing.T) {
			out, err := Export(d)
			if err != nil {
				t.Fatal(err)
			}
			var top map[string]json.RawMessage
			if err := json.Unmarshal(out, &top); err != nil {
				t.Fatal(err)
			}
			if len(top) != 3 {
				t.Fatalf("top level has %d members, want tables, items and access_patterns", len(top))
			}
			at := func(key string) int { return bytes.Index(out, []byte("\n  \""+key+"\": ")) }
			if !(0 < at("tables") && at("tables") < at("items") && at("items") < at("access_patterns")) {
				t.Fatalf("members not in the order tables, items, access_patterns:\n%.300s", out)
			}
			for key, open := range map[string]byte{"tables": '[', "items": '{', "access_patterns": '['} {
				if v := top[key]; len(v) == 0 || v[0] != open {
					t.Fatalf("%s is %.20s, want a JSON %c…", key, v, open)
				}
			}
			if !bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("\n\n")) {
				t.Fatal("the model does not end with one newline")
			}
		})
	}
}

func TestExport_tablesAreCreateTableRequests(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	_, m := exportMCP(t, d)
	want, err := tabledef.Tables(d, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tables) != len(d.Tables) {
		t.Fatalf("%d tables, want %d", len(m.Tables), len(d.Tables))
	}
	for i, raw := range m.Tables {
		if _, ok := raw["TimeToLiveSpecification"]; ok {
			t.Fatalf("table %d carries TimeToLiveSpecification, which CreateTable refuses", i)
		}
		var def tabledef.Table
		b, _ := json.Marshal(raw)
		if err := json.Unmarshal(b, &def); err != nil {
			t.Fatal(err)
		}
		gotJSON, _ := json.Marshal(def)
		wantJSON, _ := json.Marshal(want[i])
		if !bytes.Equal(gotJSON, wantJSON) {
			t.Fatalf("table %s differs from its CreateTable definition:\n%s\n%s", d.Tables[i].Name, gotJSON, wantJSON)
		}
	}
}

func TestExport_itemsRoundTrip(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	_, m := exportMCP(t, d)
	if len(m.Items) != len(d.Tables) {
		t.Fatalf("items for %d tables, want %d", len(m.Items), len(d.Tables))
	}
	for _, tb := range d.Tables {
		got := m.Items[tb.Name]
		if len(got) != len(tb.Items) {
			t.Fatalf("%s: %d put requests, want %d", tb.Name, len(got), len(tb.Items))
		}
		for k, it := range tb.Items {
			a, _ := json.Marshal(got[k].PutRequest.Item)
			b, _ := json.Marshal(it.Item)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s item %d came back as\n%s\nwant\n%s", tb.Name, k, a, b)
			}
		}
	}
	// A table without items is left out rather than given an empty batch.
	d.Tables[2].Items = nil
	if _, m := exportMCP(t, d); len(m.Items) != 2 {
		t.Fatalf("items for %v, want the two tables that have some", m.Items)
	}
}

func TestExport_accessPatternEntries(t *testing.T) {
	t.Parallel()
	_, m := exportMCP(t, designertest.OrdersDesign())
	type entry struct{ pattern, op, table, index string }
	want := []entry{
		{"1", "GetItem", "orders.v2-main", ""},
		{"2", "Query", "orders.v2-main", "ByStatus"},
		{"3", "Scan", "orders.v2-main", ""},
		{"4", "PutItem", "order_items", ""},
		{"5", "UpdateItem", "orders.v2-main", ""},
		{"6", "DeleteItem", "order-items", ""},
		{"7a", "Query", "order_items", ""},
		{"7b", "UpdateItem", "order_items", ""},
		{"8a", "BatchGetItem", "orders.v2-main, order_items", ""},
		{"8b", "BatchGetItem", "orders.v2-main", ""},
		{"9", "TransactGetItems", "orders.v2-main, order_items", ""},
		{"10", "BatchWriteItem", "order_items, order-items", ""},
		{"11", "TransactWriteItems", "orders.v2-main, order_items", ""},
		{"12", "", "", ""},
		{"13", "", "", ""},
	}
	var got []entry
	for _, p := range m.AccessPatterns {
		got = append(got, entry{p.Pattern, p.DynamoDBOperation, p.Table, p.Index})
		if p.DynamoDBOperation != "" && (!strings.HasPrefix(p.Implementation, "aws dynamodb ") || p.Reason != "") {
			t.Errorf("pattern %s: implementation %q, reason %q", p.Pattern, p.Implementation, p.Reason)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("entries:\n%v\nwant\n%v", got, want)
	}
	byID := map[string]accessPattern{}
	for _, p := range m.AccessPatterns {
		byID[p.Pattern] = p
	}
	if p := byID["12"]; p.Implementation != "" || p.Reason != "No DynamoDB operation is mapped to this pattern yet." || p.Description != "Orders by coupon" {
		t.Fatalf("unmapped pattern = %+v", p)
	}
	if p := byID["13"]; p.Implementation != "" || p.Reason != "Served outside DynamoDB. Search goes to OpenSearch." {
		t.Fatalf("pattern served outside DynamoDB = %+v", p)
	}
	for id, want := range map[string][]string{
		"2":  {"--no-scan-index-forward", "--limit 25", "--index-name ByStatus"},
		"1":  {"--consistent-read", `--expression-attribute-names '{"#n":"note"}'`},
		"5":  {`--update-expression 'SET #note = :note, #status = :status'`},
		"8b": {`"ProjectionExpression":"#n"`},
		"10": {`"DeleteRequest":{"Key":{"id":{"B":"aw=="}}}`, `"PutRequest":{"Item":{"order_id":{"S":"o-5"},"sku":{"S":"sku-5"}}}`},
		"11": {`{"Put":{"TableName":"orders.v2-main","Item":{"order_key":{"S":"ORDER#3"},"status":{"S":"open"},"tenant_id":{"S":"t1"}}}}`,
			`{"Delete":{"TableName":"order_items","Key":{"order_id":{"S":"o-3"}}}}`},
	} {
		for _, part := range want {
			if !strings.Contains(byID[id].Implementation, part) {
				t.Errorf("pattern %s: %q lacks %q", id, byID[id].Implementation, part)
			}
		}
	}
	if strings.Contains(byID["1"].Implementation, "#k") {
		t.Errorf("pattern 1 carries #k, which only its key condition used: %s", byID["1"].Implementation)
	}
}

func TestLetterSuffix(t *testing.T) {
	t.Parallel()
	for k, want := range map[int]string{0: "a", 1: "b", 25: "z", 26: "aa", 27: "ab", 701: "zz", 702: "aaa"} {
		if got := letterSuffix(k); got != want {
			t.Errorf("letterSuffix(%d) = %q, want %q", k, got, want)
		}
	}
}

// nastyWords are strings that would break out of careless shell quoting.
var nastyWords = []string{
	"", " ", "plain", "it's", "''", `'\''`, `"}`, `"},{"x":"y`, "$(touch pwned)", "`touch pwned`", "${HOME}",
	"a\nb", "\n", "a;touch pwned", "a && touch pwned", "a | cat", "*", "~", "-n", "#comment", "\\", "\\'",
	"tab\there", "ünïcödé ☕", "!", "a=b", "%s %n", "\x01\x7f",
}

// shellArgs runs script under sh with a function aws that prints its arguments, and returns them.
func shellArgs(t *testing.T, dir, script string) []string {
	t.Helper()
	cmd := exec.Command("sh", "-c", `aws() { printf '%s\0' "$@"; }; `+script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", script, err)
	}
	if len(out) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH, so a real shell cannot check the quoting: " + err.Error())
	}
}

func TestShellQuote_examples(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Orders": "Orders", "orders.v2-main": "orders.v2-main", "": "''", "a b": "'a b'",
		"it's": `'it'\''s'`, "$(x)": "'$(x)'", `{"a":1}`: `'{"a":1}'`, "~": "'~'", "a=b": "'a=b'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// The same words read back through the Go reader the fuzz test uses, so the quoting is checked
// even where there is no shell.
func TestShellQuote_readsBackWord(t *testing.T) {
	t.Parallel()
	line := "aws"
	for _, w := range nastyWords {
		line += " " + shellQuote(w)
	}
	if got := readShellWords(t, line); !slices.Equal(got, append([]string{"aws"}, nastyWords...)) {
		t.Fatalf("read back\n%q\nwant\n%q", got, nastyWords)
	}
}

func TestShellQuote_survivesARealShell(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	var script strings.Builder
	script.WriteString("aws")
	for _, w := range nastyWords {
		script.WriteString(" " + shellQuote(w))
	}
	got := shellArgs(t, dir, script.String())
	if !slices.Equal(got, nastyWords) {
		t.Fatalf("sh read back\n%q\nwant\n%q", got, nastyWords)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("a quoted word ran a command")
	}
}

// injectionDesign puts hostile text everywhere a design can: item values, placeholder names and
// values, expressions, descriptions and notes. Table and index names cannot hold it: the export
// refuses them.
func injectionDesign(pwned string) designer.Design {
	evil := "it's \"}{' $(touch " + pwned + ") `touch " + pwned + "` ; touch " + pwned + " && x | y\nnext * ~ \\'"
	d := designertest.OrdersDesign()
	d.Name = evil
	d.Tables[0].Items[0].Item["note"] = designer.Str(evil)
	d.Tables[0].Items[0].Item[evil] = designer.Str(evil)
	d.Patterns[0].Description = evil
	d.Patterns[2].Mapping.Operations[0].Values[":needle"] = designer.Str(evil)
	d.Patterns[2].Mapping.Operations[0].Names["#n"] = evil
	d.Patterns[1].Mapping.Operations[0].Filter = "#n <> :empty AND NOT contains(#n, :evil)"
	d.Patterns[1].Mapping.Operations[0].Values[":evil"] = designer.Str(evil)
	d.Patterns[3].Mapping.Operations[0].Values[":sku"] = designer.Str(evil)
	d.Patterns[4].Mapping.Operations[0].Values[":note"] = designer.Str(evil)
	d.Patterns[11].Mapping.Notes = evil
	// An expression DynamoDB will refuse still reaches it as written.
	d.Patterns[6].Mapping.Operations[0].Filter = "qty > :q' ; touch " + pwned + " '"
	return d
}

func TestExport_commandsSurviveARealShell(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	pwned := filepath.Join(dir, "pwned")
	d := injectionDesign(pwned)
	_, m := exportMCP(t, d)
	var run int
	for i, p := range d.Patterns {
		cmds := commandsOf(t, d, "access_patterns/"+strconv.Itoa(i), p.Mapping.Operations)
		for k, c := range cmds {
			id := strconv.Itoa(p.Number)
			if len(cmds) > 1 {
				id += letterSuffix(k)
			}
			var impl string
			for _, e := range m.AccessPatterns {
				if e.Pattern == id {
					impl = e.Implementation
				}
			}
			got := shellArgs(t, dir, impl)
			if want := []string(c.words[1:]); !slices.Equal(got, want) {
				t.Fatalf("pattern %s: sh read back\n%q\nwant\n%q", id, got, want)
			}
			run++
			for j := 0; j+1 < len(got); j++ {
				if got[j] == "--request-items" || got[j] == "--transact-items" || got[j] == "--key" || got[j] == "--item" || strings.HasPrefix(got[j], "--expression-attribute-") {
					if !json.Valid([]byte(got[j+1])) {
						t.Fatalf("pattern %s: %s is not JSON: %s", id, got[j], got[j+1])
					}
				}
			}
		}
	}
	if run != 13 {
		t.Fatalf("%d commands ran, want the 13 of the design", run)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("running the exported commands ran an injected command")
	}
	// The hostile values arrive intact inside their JSON arguments.
	evil := d.Patterns[2].Mapping.Operations[0].Values[":needle"].S
	scan := shellArgs(t, dir, m.AccessPatterns[2].Implementation)
	var names map[string]string
	var values map[string]designer.Value
	for j := 0; j+1 < len(scan); j++ {
		switch scan[j] {
		case "--expression-attribute-names":
			if err := json.Unmarshal([]byte(scan[j+1]), &names); err != nil {
				t.Fatal(err)
			}
		case "--expression-attribute-values":
			if err := json.Unmarshal([]byte(scan[j+1]), &values); err != nil {
				t.Fatal(err)
			}
		}
	}
	if names["#n"] != evil || values[":needle"].S != evil {
		t.Fatalf("the scan's placeholders came back as %q and %q, want %q", names["#n"], values[":needle"].S, evil)
	}
}

func TestExport_hostileTextRoundTripsThroughJSON(t *testing.T) {
	t.Parallel()
	d := injectionDesign("/nonexistent/pwned")
	_, m := exportMCP(t, d)
	evil := d.Name
	if m.AccessPatterns[0].Description != evil {
		t.Fatalf("description came back as %q", m.AccessPatterns[0].Description)
	}
	if got := m.Items["orders.v2-main"][0].PutRequest.Item; got["note"].S != evil || got[evil].S != evil {
		t.Fatalf("item came back as %v", got)
	}
	if want := "No DynamoDB operation is mapped to this pattern yet. " + strings.TrimSpace(evil); m.AccessPatterns[len(m.AccessPatterns)-2].Reason != want {
		t.Fatalf("reason came back as %q", m.AccessPatterns[len(m.AccessPatterns)-2].Reason)
	}
}

// cliRequest turns the words of a read command into the DynamoDB request it sends.
func cliRequest(t *testing.T, words []string) (string, []byte, bool) {
	t.Helper()
	ops := map[string]string{"get-item": "GetItem", "query": "Query", "scan": "Scan", "batch-get-item": "BatchGetItem"}
	if len(words) < 3 || words[0] != "aws" || words[1] != "dynamodb" {
		t.Fatalf("not an aws dynamodb command: %q", words)
	}
	op, ok := ops[words[2]]
	if !ok {
		return "", nil, false
	}
	body := map[string]any{}
	fields := map[string]string{
		"--table-name": "TableName", "--index-name": "IndexName", "--key-condition-expression": "KeyConditionExpression",
		"--filter-expression": "FilterExpression", "--projection-expression": "ProjectionExpression",
		"--expression-attribute-names": "ExpressionAttributeNames", "--expression-attribute-values": "ExpressionAttributeValues",
		"--key": "Key", "--request-items": "RequestItems", "--limit": "Limit",
	}
	for i := 3; i < len(words); i++ {
		switch w := words[i]; w {
		case "--no-scan-index-forward":
			body["ScanIndexForward"] = false
		case "--consistent-read":
			body["ConsistentRead"] = true
		default:
			name, ok := fields[w]
			if !ok || i+1 == len(words) {
				t.Fatalf("unexpected word %q in %q", w, words)
			}
			i++
			switch name {
			case "TableName", "IndexName", "KeyConditionExpression", "FilterExpression", "ProjectionExpression":
				body[name] = words[i]
			default: // JSON and numbers
				body[name] = json.RawMessage(words[i])
			}
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return op, b, true
}

// Every read command is a request DynamoDB accepts: the evaluator, which refuses unused or missing
// placeholders as DynamoDB does, runs it and finds what the mapping's operation finds.
func TestExport_readCommandsRunOnTheEvaluator(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]designer.Design{"export test": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)} {
		t.Run(name, func(t *testing.T) {
			checked := 0
			for i, p := range d.Patterns {
				cmds := commandsOf(t, d, "access_patterns/"+strconv.Itoa(i), p.Mapping.Operations)
				for ci, c := range cmds {
					op, body, ok := cliRequest(t, c.words)
					if !ok {
						continue
					}
					resp, err := dynamo.EvaluateJSON(d, op, body)
					if err != nil {
						t.Fatalf("pattern %d: %s %s: %v", p.Number, op, body, err)
					}
					checked++
					if len(cmds) != len(p.Mapping.Operations) || op == "BatchGetItem" {
						continue // rows merged into one request: no single operation to compare with
					}
					var r struct {
						Count int
						Item  designer.Item
					}
					if err := json.Unmarshal(resp, &r); err != nil {
						t.Fatal(err)
					}
					if op == "GetItem" && r.Item != nil {
						r.Count = 1
					}
					want := dynamo.RunOperation(d, p.Mapping.Operations[ci])
					if want.Error != "" || r.Count != want.Count {
						t.Fatalf("pattern %d: the command finds %d items, the operation %d (%s)", p.Number, r.Count, want.Count, want.Error)
					}
				}
			}
			if checked < 6 {
				t.Fatalf("only %d read commands checked", checked)
			}
		})
	}
}

func TestExport_writeCommandsWriteWhatTheEvaluatorWrites(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	for _, n := range []int{4, 5} { // PutItem and UpdateItem
		p, i, _ := d.PatternByNumber(n)
		cmds := commandsOf(t, d, "access_patterns/"+strconv.Itoa(i), p.Mapping.Operations)
		words := cmds[0].words
		arg := func(flag string) string {
			if j := slices.Index(words, flag); j >= 0 && j+1 < len(words) {
				return words[j+1]
			}
			return ""
		}
		written := dynamo.RunOperation(d, p.Mapping.Operations[0])
		if written.Error != "" || len(written.Items) != 1 {
			t.Fatalf("pattern %d: evaluator wrote %v (%s)", n, written.Items, written.Error)
		}
		want, _ := json.Marshal(written.Items[0])
		switch n {
		case 4:
			if got := arg("--item"); got != string(want) {
				t.Fatalf("put-item --item %s, want %s", got, want)
			}
		case 5:
			// Apply the update the command describes to the stored item, and compare.
			var key, vals designer.Item
			var names map[string]string
			for _, e := range []struct {
				flag string
				into any
			}{{"--key", &key}, {"--expression-attribute-values", &vals}, {"--expression-attribute-names", &names}} {
				if err := json.Unmarshal([]byte(arg(e.flag)), e.into); err != nil {
					t.Fatalf("%s: %v", e.flag, err)
				}
			}
			stored, ok := dynamo.FindStored(d.Tables[0], dynamo.TableKeyAttrs(d.Tables[0]), key)
			if !ok {
				t.Fatalf("no stored item for key %v", key)
			}
			after := dynamo.CloneItem(stored)
			sets := strings.Split(strings.TrimPrefix(arg("--update-expression"), "SET "), ", ")
			for _, s := range sets {
				name, value, _ := strings.Cut(s, " = ")
				after[names[name]] = vals[value]
			}
			if len(sets) != len(names) || len(sets) != len(vals) {
				t.Fatalf("update %q with %d names and %d values", arg("--update-expression"), len(names), len(vals))
			}
			if got, _ := json.Marshal(dynamo.CanonicalItem(after)); !bytes.Equal(got, want) {
				t.Fatalf("the update gives\n%s\nwant\n%s", got, want)
			}
		}
	}
}

// An operation no command can express is listed with the reason, naming its field, instead of a
// command; the rest of the file is exported as ever.
func TestExport_operationsNoCommandExpressesAreListedWithTheReason(t *testing.T) {
	t.Parallel()
	op0 := "access_patterns/0/mapping/operations/0"
	for _, tc := range []struct {
		name, field string
		edit        func(*designer.Design)
	}{
		{"GetItem without a key condition", op0 + "/key_condition", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].KeyCondition = "" }},
		{"GetItem with half a key", op0 + "/key_condition", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].KeyCondition = "tenant_id = :t" }},
		{"GetItem with a key of the wrong type", op0 + "/key_condition", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Values[":t"] = designer.Num("1") }},
		{"an unknown table", op0 + "/table", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Table = "Nope" }},
		{"GetItem on an index", op0 + "/index", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Index = "ByStatus" }},
		{"Query on an unknown index", "access_patterns/1/mapping/operations/0/index", func(d *designer.Design) { d.Patterns[1].Mapping.Operations[0].Index = "Nope" }},
		{"Query without a key condition", "access_patterns/1/mapping/operations/0/key_condition", func(d *designer.Design) { d.Patterns[1].Mapping.Operations[0].KeyCondition = " " }},
		{"Scan with a key condition", "access_patterns/2/mapping/operations/0/key_condition", func(d *designer.Design) { d.Patterns[2].Mapping.Operations[0].KeyCondition = "a = :b" }},
		{"a limit of 0", "access_patterns/1/mapping/operations/0/limit", func(d *designer.Design) { zero := 0; d.Patterns[1].Mapping.Operations[0].Limit = &zero }},
		{"a value without a type", op0 + "/values/:t", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Values[":t"] = designer.Value{} }},
		{"a nested value without a type", "access_patterns/3/mapping/operations/0/values/:sku", func(d *designer.Design) {
			d.Patterns[3].Mapping.Operations[0].Values[":sku"] = designer.List(designer.Str("a"), designer.Map(map[string]designer.Value{"x": {}}))
		}},
		{"UpdateItem setting a key attribute", "access_patterns/4/mapping/operations/0/values/:order_key", func(d *designer.Design) {
			d.Patterns[4].Mapping.Operations[0].Values[":order_key"] = designer.Str("ORDER#9")
		}},
		{"PutItem without its key", "access_patterns/3/mapping/operations/0/key_condition", func(d *designer.Design) { delete(d.Patterns[3].Mapping.Operations[0].Values, ":order_id") }},
		{"an unknown operation", op0 + "/op", func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Op = "Teleport" }},
		{"a bad row inside a batch", "access_patterns/7/mapping/operations/2/key_condition", func(d *designer.Design) { d.Patterns[7].Mapping.Operations[2].KeyCondition = "" }},
		{"a bad row inside a transaction", "access_patterns/10/mapping/operations/1/table", func(d *designer.Design) { d.Patterns[10].Mapping.Operations[1].Table = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			whole := len(exportedEntries(t, d))
			tc.edit(&d)
			before := designSnapshot(d)
			entries := exportedEntries(t, d)
			if designSnapshot(d) != before {
				t.Fatal("the export changed the design")
			}
			var refused []accessPattern
			for _, e := range entries {
				if e.Reason != "" && e.Implementation == "" && strings.Contains(e.Reason, "("+tc.field+")") {
					refused = append(refused, e)
				}
			}
			if len(refused) != 1 || len(entries) < whole-2 {
				t.Fatalf("want one entry saying why at %s among about %d; got %d of %d:\n%+v", tc.field, whole, len(refused), len(entries), entries)
			}
			if !strings.HasPrefix(refused[0].Reason, "Not exported: ") || refused[0].DynamoDBOperation == "" || refused[0].Table == "" && tc.name != "a bad row inside a transaction" {
				t.Fatalf("the entry does not say what it stands for: %+v", refused[0])
			}
		})
	}
	t.Run("a sample value without a type", func(t *testing.T) {
		d := designertest.OrdersDesign()
		d.Tables[0].Items[1].Item["status"] = designer.Value{Type: "X"}
		out, err := Export(d)
		if out != nil {
			t.Fatalf("an export came back with the error %v", err)
		}
		designertest.WantValidationError(t, err, "tables/0/items/1/item/status")
	})
	for _, tc := range designertest.TableErrorCases() {
		t.Run("table: "+tc.Name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			tc.Edit(&d)
			_, err := Export(d)
			designertest.WantValidationError(t, err, tc.Field)
		})
	}
}

// exportedEntries exports d, which must succeed, and returns its access_patterns entries.
func exportedEntries(t *testing.T, d designer.Design) []accessPattern {
	t.Helper()
	_, m := exportMCP(t, d)
	return m.AccessPatterns
}

func TestExport_deterministic(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]designer.Design{"export test": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)} {
		t.Run(name, func(t *testing.T) { designertest.AssertDeterministic(t, Export, d) })
	}
}

// FuzzExportMCPOperation feeds arbitrary expressions and placeholders to one mapped operation of
// every kind: the export never panics, gives JSON or a *ValidationError, and its command quotes
// the texts (with reserved words aliased) so that they read back whole, or says why it has none.
func FuzzExportMCPOperation(f *testing.F) {
	f.Add(uint8(0), "tenant_id = :t AND order_key = :k", "", "#n", "#n", "note", ":t", "t1")
	f.Add(uint8(1), "tenant_id = :t AND order_key IN (:t, :t)", "a <> :t", "x, y[0].z", "#x", "it's", ":k", "$(x)")
	f.Add(uint8(8), "order_key BETWEEN :a AND :b", "NOT (a = :t)", "", "#", "\n", ":", "'")
	f.Add(uint8(1), "0", "0", "\xcb", "0", "0", "0", "0") // invalid UTF-8 reads back as U+FFFD
	f.Fuzz(func(t *testing.T, kind uint8, keyCond, filter, projection, name, nameValue, placeholder, value string) {
		d := designertest.OrdersDesign()
		op := designer.Operation{
			Op: designer.Operations[int(kind)%len(designer.Operations)], Table: "orders.v2-main", KeyCondition: keyCond,
			Filter: filter, Projection: projection, Names: map[string]string{name: nameValue},
			Values: map[string]designer.Value{placeholder: designer.Str(value), ":t": designer.Str("t1"), ":k": designer.Str("ORDER#1")},
		}
		if op.Op == "Query" || op.Op == "Scan" {
			op.Index = "ByStatus"
		}
		d.Patterns = []designer.Pattern{{Number: 1, Mapping: designer.Mapping{Operations: []designer.Operation{op}}}}
		out, err := Export(d)
		var ve *designer.ValidationError
		if err != nil {
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not a *ValidationError", err)
			}
			return
		}
		var m testModel
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		e := m.AccessPatterns[0]
		if e.Reason != "" {
			if e.Implementation != "" {
				t.Fatalf("an entry with both a reason and a command: %+v", e)
			}
			return
		}
		impl := e.Implementation
		words := readShellWords(t, impl)
		aliased := dynamo.AliasReservedWords(op)
		for _, text := range []string{aliased.KeyCondition, aliased.Filter, aliased.Projection} {
			var viaJSON string // JSON writes invalid UTF-8 as U+FFFD
			b, _ := json.Marshal(text)
			_ = json.Unmarshal(b, &viaJSON)
			if text != "" && (op.Op == "Query" || op.Op == "Scan" || op.Op == "GetItem" && text == aliased.Projection) && !slices.Contains(words, viaJSON) {
				t.Fatalf("%q is not one word of %s", text, impl)
			}
		}
	})
}

// readShellWords splits a command line the way a POSIX shell splits words built only of bare
// characters, single-quoted runs and backslash escapes, which is all shellQuote writes; any
// character a shell would treat specially outside quotes fails the test.
func readShellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	started, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, started = true, true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			started = true
		case c == ' ':
			if started {
				words = append(words, cur.String())
				cur.Reset()
				started = false
			}
		case strings.IndexByte("\"$`\\;&|<>()*?[]~#!{}\n\t=", c) >= 0:
			t.Fatalf("unquoted %q in %q", c, line)
		default:
			cur.WriteByte(c)
			started = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	if started {
		words = append(words, cur.String())
	}
	return words
}

// designSnapshot is the design's JSON, or for a design JSON cannot hold (a value without a type)
// its Go syntax, to tell whether an export changed it.
func designSnapshot(d designer.Design) string {
	if b, err := designer.MarshalJSON(d); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%#v", d)
}

func TestMidSizeDesign_exports(t *testing.T) {
	t.Parallel()
	d := designertest.MidSizeDesign()
	_, m := exportMCP(t, d)
	if n := len(m.AccessPatterns); n != 200 {
		t.Fatalf("%d access pattern entries, want 200", n)
	}
}

func BenchmarkExport(b *testing.B) {
	d := designertest.MidSizeDesign()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Export(d); err != nil {
			b.Fatal(err)
		}
	}
}

// flagJSON is the JSON argument of flag in a command's words.
func flagJSON(t *testing.T, c opCommand, flag string) string {
	t.Helper()
	for i, w := range c.words {
		if w == flag && i+1 < len(c.words) {
			return c.words[i+1]
		}
	}
	t.Fatalf("%s has no %s: %q", c.op, flag, c.words)
	return ""
}

func TestExport_rowActions(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	batch, tx := &d.Patterns[9].Mapping, &d.Patterns[10].Mapping
	// The batch deletes two keys although its row gives an attribute, and puts a key-only item.
	batch.Operations[0].Action = designer.ActionDelete
	batch.Operations[1].Action = designer.ActionPut
	// The transaction updates the order, checks that a line exists, puts a key-only line and
	// deletes another despite its attribute.
	tx.Operations[0].Action = designer.ActionUpdate
	tx.Operations[1].Action = designer.ActionConditionCheck
	tx.Operations = append(tx.Operations,
		designer.Operation{Op: "TransactWriteItems", Table: "order_items", KeyCondition: "order_id = :o", Action: designer.ActionPut,
			Values: map[string]designer.Value{":o": designer.Str("o-4")}},
		designer.Operation{Op: "TransactWriteItems", Table: "order_items", KeyCondition: "order_id = :o", Action: designer.ActionDelete,
			Values: map[string]designer.Value{":o": designer.Str("o-8"), ":sku": designer.Str("x")}})

	cmds := commandsOf(t, d, "access_patterns/9", batch.Operations)
	if len(cmds) != 1 {
		t.Fatalf("batch: %v commands", len(cmds))
	}
	if got, want := flagJSON(t, cmds[0], "--request-items"),
		`{"order-items":[{"PutRequest":{"Item":{"id":{"B":"aw=="}}}}],"order_items":[{"DeleteRequest":{"Key":{"order_id":{"S":"o-5"}}}},{"DeleteRequest":{"Key":{"order_id":{"S":"o-6"}}}}]}`; got != want {
		t.Errorf("batch request items:\n%s\nwant\n%s", got, want)
	}

	cmds = commandsOf(t, d, "access_patterns/10", tx.Operations)
	if len(cmds) != 1 {
		t.Fatalf("transaction: %v commands", len(cmds))
	}
	var got []json.RawMessage
	if err := json.Unmarshal([]byte(flagJSON(t, cmds[0], "--transact-items")), &got); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"Update":{"TableName":"orders.v2-main","Key":{"order_key":{"S":"ORDER#3"},"tenant_id":{"S":"t1"}},"UpdateExpression":"SET #status = :status","ExpressionAttributeNames":{"#status":"status"},"ExpressionAttributeValues":{":status":{"S":"open"}}}}`,
		`{"ConditionCheck":{"TableName":"order_items","Key":{"order_id":{"S":"o-3"}},"ConditionExpression":"attribute_exists(#pk)","ExpressionAttributeNames":{"#pk":"order_id"}}}`,
		`{"Put":{"TableName":"order_items","Item":{"order_id":{"S":"o-4"}}}}`,
		`{"Delete":{"TableName":"order_items","Key":{"order_id":{"S":"o-8"}}}}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d transact items, want %d: %s", len(got), len(want), flagJSON(t, cmds[0], "--transact-items"))
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("transact item %d:\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
	// The whole export carries them too, and its words still read back through a shell.
	out, _ := exportMCP(t, d)
	if !bytes.Contains(out, []byte(`\"ConditionCheck\":{\"TableName\":\"order_items\"`)) {
		t.Error("the exported model lacks the condition check")
	}
}

func TestExport_rowActionsNoCommandExpressesAreListedWithTheReason(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		edit  func(*designer.Design)
		field string
	}{
		{"update without attributes", func(d *designer.Design) { d.Patterns[10].Mapping.Operations[1].Action = designer.ActionUpdate },
			"access_patterns/10/mapping/operations/1/values"},
		{"update of a key attribute", func(d *designer.Design) {
			op := &d.Patterns[10].Mapping.Operations[0]
			op.Action, op.Values[":order_key"] = designer.ActionUpdate, designer.Str("ORDER#9")
		}, "access_patterns/10/mapping/operations/0/values/:order_key"},
		{"update in a batch", func(d *designer.Design) { d.Patterns[9].Mapping.Operations[1].Action = designer.ActionUpdate },
			"access_patterns/9/mapping/operations/1/action"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			c.edit(&d)
			entries := exportedEntries(t, d)
			if !slices.ContainsFunc(entries, func(e accessPattern) bool {
				return e.Implementation == "" && strings.Contains(e.Reason, "("+c.field+")")
			}) {
				t.Fatalf("no entry says why at %s:\n%+v", c.field, entries)
			}
		})
	}
}

// The model names TTL, which its CreateTable tables cannot carry, and says nothing of what it holds.
func TestLeftOut_namesTTL(t *testing.T) {
	t.Parallel()
	d := designer.Design{Name: "Sessions", Tables: []designer.Table{{Name: "Sessions", BillingMode: designer.OnDemand,
		PartitionKey: designer.KeyAttribute{Name: "id", Type: "S"}, TTLAttribute: "expires_at"}}}
	if got := strings.Join(LeftOut(d), "\n"); got != "the TTL attribute of 1 table (CreateTable takes none)" {
		t.Errorf("LeftOut = %q", got)
	}
	d.Tables[0].TTLAttribute = ""
	if got := LeftOut(d); len(got) != 0 {
		t.Errorf("a design the model holds whole leaves out %q", got)
	}
}
