package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/test/dynalite"
)

// The read-capacity oracle: the same read requests, with ReturnConsumedCapacity TOTAL or INDEXES,
// sent to dynalite and to the evaluator, and their ConsumedCapacity compared — the request's units,
// the table's and the index's. Besides the generated requests of the answer oracle (small items,
// every key type, Limit, filters, projections), a table of items sized around the 4 KB steps
// (4,095, 4,096 and 4,097 bytes; items of 1,365 and 1,366 bytes, three of which sum to either side
// of 4 KB; the developer guide's ten items of 40.8 KB) is read through its table, two GSIs and two
// LSIs, so that Query and Scan sums cross the steps with every Limit.
//
// Where dynalite differs from DynamoDB the documented figure is expected instead (the reference,
// ../shared/reference/dynamodb-semantics.md §2.2):
//   - A Query or Scan that reads nothing costs DynamoDB the minimum of its read type, 0.5
//     (eventual, and every GSI read) or 1 (strong) — "Query returning nothing" (API_Query,
//     Query.Other). dynalite rounds zero bytes to zero units.
//   - TransactGetItems costs 2 units per 4 KB step of each item (transaction-apis); dynalite has no
//     transactions, so the evaluator's figure is held to twice dynalite's strongly consistent
//     GetItem of each key.

func TestOracle_readCapacityMatchesDynalite(t *testing.T) {
	node, cli := requireDynalite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	dyn := dynalite.Start(ctx, t, node, cli)
	d := buildDesign()
	d.Tables = append(d.Tables, sizedTable())
	dynalite.Load(ctx, t, dyn, d)

	var cases []testCase
	for i, c := range generateCases(d) {
		c.body = maps(c.body)
		c.body["ReturnConsumedCapacity"] = []string{"TOTAL", "INDEXES"}[i%2]
		cases = append(cases, c)
	}
	cases = append(cases, sizedCases(d.Tables[len(d.Tables)-1])...)
	if only := os.Getenv("ORACLE_ONLY"); only != "" {
		cases = slices.DeleteFunc(cases, func(c testCase) bool { return !strings.Contains(c.name, only) })
	}

	seen := map[string]int{}     // compared requests by operation and target kind
	units := map[float64]bool{}  // the distinct totals compared, to show the sizes reach several steps
	adjusted := map[string]int{} // requests where DynamoDB's documented figure replaced dynalite's
	mismatches := 0
	for _, c := range cases {
		if ctx.Err() != nil {
			t.Fatalf("out of time after %d requests", len(seen))
		}
		body := mustJSON(c.body)
		want, err := askDynalite(ctx, dyn, c.op, body)
		if err != nil {
			t.Fatalf("%s: %v\nrequest: %s", c.name, err, body)
		}
		got := askEvaluator(d, c.op, body)
		if want.errType != "" || got.errType != "" {
			if want.errType != got.errType {
				t.Errorf("%s: dynalite %s, evaluator %s\nrequest: %s", c.name, want, got, body)
			}
			continue
		}
		wantCap, notes := expectedCapacity(ctx, t, dyn, d, c.op, c.body, want.resp["ConsumedCapacity"])
		for _, n := range notes {
			adjusted[n]++
		}
		gotCap := canonicalCapacity(got.resp["ConsumedCapacity"])
		seen[c.op+" "+targetKind(d, c.body)]++
		for _, u := range totals(want.resp["ConsumedCapacity"]) {
			units[u] = true
		}
		if wantCap != gotCap {
			mismatches++
			if mismatches <= maxReported {
				t.Errorf("CAPACITY %s %s\nrequest:   %s\ndynalite:  %s\nexpected:  %s\nevaluator: %s",
					c.op, c.name, body, canonical(want.resp["ConsumedCapacity"]), wantCap, gotCap)
			}
		}
	}
	n := compareTransactGets(ctx, t, dyn, d, d.Tables[len(d.Tables)-1])
	seen["TransactGetItems table"] += n
	t.Logf("compared the consumed capacity of %d requests (%s); held to DynamoDB's documented figure where dynalite differs: %s; totals seen %v; %d mismatches",
		len(cases), summary(seen), summary(adjusted), sortedUnits(units), mismatches)
	if os.Getenv("ORACLE_ONLY") != "" {
		return
	}
	// Every operation on every kind of target must be compared, at several steps, or the oracle
	// proves little.
	for _, k := range []string{"GetItem table", "BatchGetItem table", "Query table", "Query GSI", "Query LSI",
		"Scan table", "Scan GSI", "Scan LSI", "TransactGetItems table"} {
		if seen[k] < 10 {
			t.Errorf("only %d requests of %s compared; want at least 10", seen[k], k)
		}
	}
	for _, u := range []float64{0.5, 1, 1.5, 2, 3, 5.5} {
		if !units[u] {
			t.Errorf("no request consumed %v units; the sized items should reach it", u)
		}
	}
	for _, n := range []string{"minimum", "strong scan", "lsi fetch"} {
		if adjusted[n] < 5 {
			t.Errorf("only %d requests compared with DynamoDB's %q figure; want at least 5", adjusted[n], n)
		}
	}
}

// targetKind says what a request reads: its table, a GSI or an LSI.
func targetKind(d designer.Design, body map[string]any) string {
	ix, _ := body["IndexName"].(string)
	if ix == "" {
		return "table"
	}
	name, _ := body["TableName"].(string)
	if tb, _, ok := d.TableByName(name); ok && slices.ContainsFunc(tb.LSIs, func(l designer.Index) bool { return l.Name == ix }) {
		return "LSI"
	}
	return "GSI"
}

// capacity is one table's ConsumedCapacity, as both sides write it.
type capacity struct {
	TableName              string           `json:"TableName"`
	CapacityUnits          float64          `json:"CapacityUnits"`
	Table                  *units           `json:"Table,omitempty"`
	GlobalSecondaryIndexes map[string]units `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  map[string]units `json:"LocalSecondaryIndexes,omitempty"`
}

type units struct {
	CapacityUnits float64 `json:"CapacityUnits"`
}

// expectedCapacity is DynamoDB's ConsumedCapacity, in the canonical form, for a request dynalite
// answered with raw: dynalite's, except where the reference documents otherwise. It returns which
// of those differences applied:
//   - "strong scan": dynalite drops ConsistentRead from a Scan (its Scan validation does not list
//     it) and charges half; a strongly consistent Scan costs 1 unit per 4 KB (API_Scan, §2.1).
//   - "lsi fetch": a Query or Scan of an LSI with Select ALL_ATTRIBUTES where the LSI projects
//     fewer attributes fetches every item read from the table; DynamoDB charges each fetched item
//     whole, rounded to 4 KB by itself (§2.2 "Query/Scan on LSI"), where dynalite sums them first.
//     The items read are those dynalite answers when the filter lets every item through.
//   - "minimum": a Query or Scan that reads nothing costs the minimum of its read type, 0.5 or 1
//     (§2.2 "Query returning nothing"), where dynalite charges 0.
func expectedCapacity(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, d designer.Design, op string, body map[string]any, raw any) (string, []string) {
	t.Helper()
	if raw == nil || (op != "Query" && op != "Scan") {
		return canonicalCapacity(raw), nil
	}
	var c capacity
	if err := json.Unmarshal(mustJSON(raw), &c); err != nil {
		t.Fatalf("dynalite's ConsumedCapacity %s: %v", canonical(raw), err)
	}
	mode, _ := body["ReturnConsumedCapacity"].(string)
	strong, _ := body["ConsistentRead"].(bool)
	ix, _ := body["IndexName"].(string)
	factor := 0.5
	if strong {
		factor = 1
	}
	var notes []string
	// The units of the table and of the index, apart.
	tableUnits, indexUnits := c.CapacityUnits, 0.0
	if ix != "" {
		tableUnits, indexUnits = 0, c.CapacityUnits
	}
	if fetches(d, body) || mode == "INDEXES" && ix != "" {
		split := c
		if mode != "INDEXES" {
			req := maps(body)
			req["ReturnConsumedCapacity"] = "INDEXES"
			a, err := askDynalite(ctx, dyn, op, mustJSON(req))
			if err != nil || a.errType != "" {
				t.Fatalf("%s again with INDEXES: %v %s", op, err, a)
			}
			if err := json.Unmarshal(mustJSON(a.resp["ConsumedCapacity"]), &split); err != nil {
				t.Fatal(err)
			}
		}
		tableUnits = split.Table.CapacityUnits
		indexUnits = split.LocalSecondaryIndexes[ix].CapacityUnits + split.GlobalSecondaryIndexes[ix].CapacityUnits
	}
	if op == "Scan" && strong {
		tableUnits, indexUnits = 2*tableUnits, 2*indexUnits
		notes = append(notes, "strong scan")
	}
	if fetches(d, body) {
		req := maps(body)
		if f, ok := req["FilterExpression"].(string); ok {
			// A filter that lets every item through, using the same names and values.
			req["FilterExpression"] = "(" + f + ") OR attribute_not_exists(never_written)"
		}
		req["ReturnConsumedCapacity"] = "NONE"
		a, err := askDynalite(ctx, dyn, op, mustJSON(req))
		if err != nil || a.errType != "" {
			t.Fatalf("%s without its filter: %v %s", op, err, a)
		}
		var read []designer.Item
		if err := json.Unmarshal(mustJSON(a.resp["Items"]), &read); err != nil {
			t.Fatal(err)
		}
		tableUnits = 0
		for _, it := range read {
			tableUnits += math.Ceil(float64(designer.ItemSize(it))/4096) * factor
		}
		notes = append(notes, "lsi fetch")
	}
	if tableUnits+indexUnits == 0 {
		if ix != "" {
			indexUnits = factor
		} else {
			tableUnits = factor
		}
		notes = append(notes, "minimum")
	}
	c.CapacityUnits = tableUnits + indexUnits
	if mode == "INDEXES" {
		c.Table = &units{tableUnits}
		switch {
		case c.GlobalSecondaryIndexes != nil:
			c.GlobalSecondaryIndexes[ix] = units{indexUnits}
		case c.LocalSecondaryIndexes != nil:
			c.LocalSecondaryIndexes[ix] = units{indexUnits}
		}
	}
	var back any
	if err := json.Unmarshal(mustJSON(c), &back); err != nil {
		t.Fatal(err)
	}
	return canonical(back), notes
}

// fetches says whether a read asks an LSI for every attribute when it projects fewer.
func fetches(d designer.Design, body map[string]any) bool {
	if sel, _ := body["Select"].(string); sel != "ALL_ATTRIBUTES" {
		return false
	}
	name, _ := body["TableName"].(string)
	ix, _ := body["IndexName"].(string)
	tb, _, ok := d.TableByName(name)
	if !ok {
		return false
	}
	for _, l := range tb.LSIs {
		if l.Name == ix {
			return l.Projection.Type != designer.All
		}
	}
	return false
}

// canonicalCapacity is canonical, with BatchGetItem's list of tables in name order (neither side
// promises an order).
func canonicalCapacity(raw any) string {
	l, ok := raw.([]any)
	if !ok {
		return canonical(raw)
	}
	out := canonicalList(l, true)
	return "[" + strings.Join(out, ",") + "]"
}

// totals are the CapacityUnits of a ConsumedCapacity member (one object, or a list per table).
func totals(raw any) []float64 {
	var out []float64
	for _, c := range append(listOf(raw), raw) {
		if m, ok := c.(map[string]any); ok {
			if u, ok := m["CapacityUnits"].(float64); ok {
				out = append(out, u)
			}
		}
	}
	return out
}

func sortedUnits(m map[float64]bool) []float64 {
	out := make([]float64, 0, len(m))
	for u := range m {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// sizedTable holds items whose sizes sit on and around the 4 KB read steps, in four partitions,
// with two GSIs and two LSIs whose entries are smaller than the items (KEYS_ONLY and INCLUDE).
func sizedTable() designer.Table {
	sk := key("sk", designer.S)
	rank := []designer.KeyAttribute{key("rank", designer.N)}
	grp := []designer.KeyAttribute{key("grp", designer.S)}
	t := designer.Table{
		Name: "Sized", PartitionKey: key("pk", designer.S), SortKey: &sk, BillingMode: designer.OnDemand,
		GSIs: []designer.Index{
			{Name: "sizedByGroup", PartitionKey: grp, SortKey: rank, Projection: designer.Projection{Type: designer.All}},
			{Name: "sizedByGroupKeys", PartitionKey: grp, SortKey: rank, Projection: designer.Projection{Type: designer.KeysOnly}},
		},
		LSIs: []designer.Index{
			{Name: "sizedByRank", PartitionKey: []designer.KeyAttribute{key("pk", designer.S)}, SortKey: rank,
				Projection: designer.Projection{Type: designer.Include, Attributes: []string{"note"}}},
			{Name: "sizedByRankAll", PartitionKey: []designer.KeyAttribute{key("pk", designer.S)}, SortKey: rank,
				Projection: designer.Projection{Type: designer.All}},
		},
	}
	sizes := map[string][]int{
		"A": {4095, 4096, 4097, 1024, 2048, 2049, 12288, 8191, 8193, 0},
		"B": {1365, 1365, 1365, 1366, 1365, 1366, 1366, 1365, 1365, 1366},
		"C": {0, 0, 0, 0, 0},
		// The developer guide's Query of ten items totalling 40.8 KB (41,780 bytes).
		"D": {4178, 4178, 4178, 4178, 4178, 4178, 4178, 4178, 4178, 4178},
	}
	n := 0
	for _, p := range []string{"A", "B", "C", "D"} {
		for i, size := range sizes[p] {
			n++
			it := designer.Item{"pk": str(p), "sk": str(fmt.Sprintf("item#%02d", i)),
				"grp": str(fmt.Sprintf("g%d", n%3)), "rank": num(fmt.Sprint(n))}
			if i%3 == 0 {
				it["note"] = str("checked")
			}
			if size > 0 {
				// pad brings the item to exactly size bytes: its name (3) and its text.
				it["pad"] = str(strings.Repeat("x", size-designer.ItemSize(it)-3))
				if got := designer.ItemSize(it); got != size {
					panic(fmt.Sprintf("sized item %s/%d is %d bytes, not %d", p, i, got, size))
				}
			}
			t.Items = append(t.Items, designer.SampleItem{Item: it})
		}
	}
	return t
}

// sizedCases read the sized table: every partition through every target with every Limit, with
// and without a filter, eventually and strongly consistent where allowed; scans; gets and batch
// gets of every item and of missing keys.
func sizedCases(t designer.Table) []testCase {
	var cases []testCase
	caps := []string{"TOTAL", "INDEXES"}
	add := func(name, op string, body map[string]any, mode compareMode) {
		body["ReturnConsumedCapacity"] = caps[len(cases)%2]
		cases = append(cases, testCase{name: name, op: op, body: body, mode: mode})
	}
	type tg struct {
		index  string
		pk     string
		global bool
		parts  []string
	}
	targets := []tg{{"", "pk", false, []string{"A", "B", "C", "D", "none"}},
		{"sizedByGroup", "grp", true, []string{"g0", "g1", "g2", "none"}},
		{"sizedByGroupKeys", "grp", true, []string{"g0", "g1", "g2"}},
		{"sizedByRank", "pk", false, []string{"A", "B", "D", "none"}},
		{"sizedByRankAll", "pk", false, []string{"A", "B", "D"}}}
	for _, g := range targets {
		label := "Sized"
		if g.index != "" {
			label += "." + g.index
		}
		for _, p := range g.parts {
			for limit := 0; limit <= 11; limit++ {
				for _, variant := range []string{"plain", "filter", "strong", "range"} {
					if variant == "strong" && g.global {
						continue // DynamoDB refuses a strongly consistent GSI read
					}
					if limit%3 != 0 && variant != "plain" && variant != "strong" {
						continue
					}
					body := map[string]any{"TableName": "Sized", "KeyConditionExpression": "#p = :p",
						"ExpressionAttributeNames":  map[string]string{"#p": g.pk},
						"ExpressionAttributeValues": map[string]designer.Value{":p": str(p)}}
					if g.index != "" {
						body["IndexName"] = g.index
					}
					if limit > 0 {
						body["Limit"] = limit
					}
					switch variant {
					case "filter":
						// A filter reads every item and returns few: the units are those of the items read.
						body["FilterExpression"] = "attribute_exists(note)"
						body["ScanIndexForward"] = false
					case "strong":
						body["ConsistentRead"] = true
					case "range":
						body["KeyConditionExpression"] = "#p = :p AND #r BETWEEN :lo AND :hi"
						body["ExpressionAttributeNames"] = map[string]string{"#p": g.pk, "#r": "rank"}
						body["ExpressionAttributeValues"] = map[string]designer.Value{":p": str(p), ":lo": num("3"), ":hi": num("27")}
						if g.index == "" {
							body["ExpressionAttributeNames"] = map[string]string{"#p": g.pk, "#r": "sk"}
							body["ExpressionAttributeValues"] = map[string]designer.Value{":p": str(p), ":lo": str("item#02"), ":hi": str("item#07")}
						}
						body["Select"] = "COUNT"
					}
					add(fmt.Sprintf("sized query %s %s limit %d %s", label, p, limit, variant), "Query", body, ordered)
				}
			}
		}
		for _, limit := range []int{0, 1, 2, 3, 4, 5, 7, 9, 13, 20, 30, 40} {
			for _, strong := range []bool{false, true} {
				if strong && g.global {
					continue
				}
				body := map[string]any{"TableName": "Sized"}
				if g.index != "" {
					body["IndexName"] = g.index
				}
				if limit > 0 {
					body["Limit"] = limit
				}
				if strong {
					body["ConsistentRead"] = true
				}
				if limit%2 == 1 {
					body["FilterExpression"] = "attribute_exists(note)"
				}
				add(fmt.Sprintf("sized scan %s limit %d strong %v", label, limit, strong), "Scan", body, unordered)
			}
		}
	}
	// Reads of an LSI that ask for every attribute where it projects fewer: each item read is
	// fetched from the table.
	for _, p := range []string{"A", "B", "D"} {
		for _, limit := range []int{0, 1, 3, 4, 7} {
			body := map[string]any{"TableName": "Sized", "IndexName": "sizedByRank", "Select": "ALL_ATTRIBUTES",
				"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": map[string]designer.Value{":p": str(p)},
				"ConsistentRead": limit%2 == 1}
			if limit > 0 {
				body["Limit"] = limit
			}
			if limit == 4 {
				body["FilterExpression"] = "attribute_exists(note)"
			}
			add(fmt.Sprintf("sized query Sized.sizedByRank %s limit %d fetches", p, limit), "Query", body, ordered)
		}
	}
	add("sized scan Sized.sizedByRank fetches", "Scan", map[string]any{"TableName": "Sized", "IndexName": "sizedByRank",
		"Select": "ALL_ATTRIBUTES", "Limit": 12}, unordered)
	var keys []map[string]designer.Value
	for _, si := range t.Items {
		keys = append(keys, tableKey(t, si.Item))
	}
	keys = append(keys, map[string]designer.Value{"pk": str("A"), "sk": str("missing")})
	for i, k := range keys {
		body := map[string]any{"TableName": "Sized", "Key": k}
		if i%2 == 1 {
			body["ConsistentRead"] = true
		}
		add(fmt.Sprintf("sized get %d strong %v", i, i%2 == 1), "GetItem", body, ordered)
	}
	for i := 0; i+5 <= len(keys); i += 3 {
		ka := map[string]any{"Keys": keys[i : i+5]}
		if i%2 == 1 {
			ka["ConsistentRead"] = true
		}
		add(fmt.Sprintf("sized batch from %d", i), "BatchGetItem", map[string]any{"RequestItems": map[string]any{"Sized": ka}}, unordered)
	}
	return cases
}

// compareTransactGets runs TransactGetItems of several keys of t through the evaluator
// (dynamo.RunOperation; the wire endpoint takes no transactions) and holds its units to twice
// dynalite's strongly consistent GetItem of each key. It returns the number compared.
func compareTransactGets(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, d designer.Design, tb designer.Table) int {
	t.Helper()
	n := 0
	for _, p := range []string{"A", "B", "D"} {
		for width := 1; width <= 5; width++ {
			var sks []string
			values := map[string]designer.Value{":p": str(p)}
			want := 0.0
			for i := range width {
				sk := fmt.Sprintf("item#%02d", i*2)
				if i == width-1 && width > 3 {
					sk = "missing"
				}
				ph := fmt.Sprintf(":s%d", i)
				sks = append(sks, ph)
				values[ph] = str(sk)
				raw, err := askDynalite(ctx, dyn, "GetItem", mustJSON(map[string]any{"TableName": tb.Name, "ConsistentRead": true,
					"Key": map[string]designer.Value{"pk": str(p), "sk": str(sk)}, "ReturnConsumedCapacity": "TOTAL"}))
				if err != nil || raw.errType != "" {
					t.Fatalf("GetItem %s/%s: %v %s", p, sk, err, raw)
				}
				want += 2 * totals(raw.resp["ConsumedCapacity"])[0]
			}
			op := designer.Operation{Op: "TransactGetItems", Table: tb.Name,
				KeyCondition: "pk = :p AND sk IN (" + strings.Join(sks, ", ") + ")", Values: values}
			got := dynamo.RunOperation(d, op)
			n++
			if got.Error != "" || got.CapacityUnits != want {
				t.Errorf("TransactGetItems of %d keys in %s: evaluator %v units (error %q), want %v (twice dynalite's strong GetItem of each)",
					width, p, got.CapacityUnits, got.Error, want)
			}
		}
	}
	return n
}
