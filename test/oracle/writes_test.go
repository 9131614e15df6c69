package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/test/dynalite"
)

// The write oracle: generated PutItem, UpdateItem and DeleteItem operations, with conditions that
// hold and fail and updates of every clause, run by the evaluator (dynamo.RunOperation, on a copy
// of the items) and sent to dynalite, which then holds the written item. Compared per write: the
// outcome (written, ConditionalCheckFailed, or DynamoDB's ValidationException and its message),
// the table's write units, the item after the write, and for every index of the table the item's
// entry after the write and what the write did to it (added, moved, changed, removed or nothing,
// read from dynalite's index before and after). dynalite is put back as it was after each write.

func TestOracle_writesMatchDynalite(t *testing.T) {
	node, cli := requireDynalite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	dyn := dynalite.Start(ctx, t, node, cli)
	d := buildDesign()
	dynalite.Load(ctx, t, dyn, d)

	cases := generateWrites(d)
	if only := os.Getenv("ORACLE_ONLY"); only != "" {
		cases = slices.DeleteFunc(cases, func(c writeCase) bool { return !strings.Contains(c.name, only) })
	}
	outcomes := map[string]int{}
	mismatches := 0
	for _, c := range cases {
		if ctx.Err() != nil {
			t.Fatalf("out of time after %d writes", len(outcomes))
		}
		outcome, changes, diffs := compareWrite(ctx, t, dyn, d, c)
		outcomes[outcome]++
		for _, ch := range changes {
			outcomes["index entry "+ch]++
		}
		if len(diffs) > 0 {
			mismatches++
			if mismatches <= maxReported {
				t.Errorf("MISMATCH %s %s\noperation: %+v\ndiff:\n  %s", c.op.Op, c.name, c.op, strings.Join(diffs, "\n  "))
			}
		}
	}
	t.Logf("compared %d writes (%s); %d mismatches", len(cases), summary(outcomes), mismatches)
	if os.Getenv("ORACLE_ONLY") == "" {
		// The generated writes must exercise every outcome, or the comparison proves little.
		for _, o := range []string{"written", "ConditionalCheckFailedException", "ValidationException",
			"index entry " + dynamo.EntryAdded, "index entry " + dynamo.EntryMoved, "index entry " + dynamo.EntryChanged, "index entry " + dynamo.EntryRemoved} {
			if outcomes[o] < 10 {
				t.Errorf("only %d writes ended %s; the generator should reach each outcome at least 10 times", outcomes[o], o)
			}
		}
	}
}

// writeCase is one generated write.
type writeCase struct {
	name string
	op   designer.Operation
}

// generateWrites makes writes on Orders (GSIs and LSIs, one sparse) and Users (a partition key
// only): puts, updates and deletes of stored and new keys, with and without conditions.
func generateWrites(d designer.Design) []writeCase {
	g := &gen{r: rand.New(rand.NewPCG(20261125, 15))}
	var out []writeCase
	for _, ti := range []int{0, 3} {
		t := d.Tables[ti]
		for i := range 150 {
			kind := []string{"PutItem", "UpdateItem", "UpdateItem", "UpdateItem", "DeleteItem"}[i%5]
			out = append(out, g.write(t, kind, fmt.Sprintf("%s-%s-%d", t.Name, kind, i)))
		}
	}
	return out
}

// write generates one write of kind on table t.
func (g *gen) write(t designer.Table, kind, name string) writeCase {
	keys := dynamo.TableKeyAttrs(t)
	op := designer.Operation{Op: kind, Table: t.Name, Names: map[string]string{}, Values: map[string]designer.Value{}}
	var stored designer.Item
	if g.chance(75) {
		stored = t.Items[g.pick(len(t.Items))].Item
	}
	var cond []string
	for i, k := range keys {
		ph := fmt.Sprintf(":k%d", i)
		cond = append(cond, k.Name+" = "+ph)
		if stored != nil {
			op.Values[ph] = stored[k.Name]
		} else {
			op.Values[ph] = str(fmt.Sprintf("NEW#%d", g.pick(1000)))
		}
	}
	op.KeyCondition = strings.Join(cond, " AND ")
	e := &writeExpr{g: g, op: &op}
	if g.chance(60) {
		op.Condition = e.condition(t, stored)
	}
	switch kind {
	case "PutItem":
		for range 1 + g.pick(4) {
			a := e.attribute(t)
			if _, isKey := op.Values[":"+a]; !isKey && !slices.ContainsFunc(keys, func(k designer.KeyAttribute) bool { return k.Name == a }) {
				op.Values[":"+a] = e.valueFor(t, a)
			}
		}
	case "UpdateItem":
		op.Update = e.update(t, stored)
	}
	if len(op.Names) == 0 {
		op.Names = nil
	}
	return writeCase{name: name, op: op}
}

// writeExpr builds a write's expressions, adding their placeholders to the operation.
type writeExpr struct {
	g  *gen
	op *designer.Operation
	n  int
}

// attrs are the attributes a write may touch, per table: index keys among them, so that writes
// add, move and remove index entries.
var writeAttrs = map[string][]string{
	"Orders": {"status", "created", "customer", "open_region", "open_at", "rank", "amount", "note", "qty", "tags", "profile"},
	"Users":  {"email", "team", "joined", "name", "age", "active", "roles", "prefs"},
}

func (e *writeExpr) attribute(t designer.Table) string {
	list := writeAttrs[t.Name]
	return list[e.g.pick(len(list))]
}

// name is a #placeholder for attribute a.
func (e *writeExpr) name(a string) string {
	e.n++
	ph := fmt.Sprintf("#n%d", e.n)
	e.op.Names[ph] = a
	return ph
}

// value is a :placeholder for v.
func (e *writeExpr) value(v designer.Value) string {
	e.n++
	ph := fmt.Sprintf(":v%d", e.n)
	e.op.Values[ph] = v
	return ph
}

// valueFor is a value for attribute a: mostly of the type its items hold, sometimes another (which
// an index refuses for its key).
func (e *writeExpr) valueFor(t designer.Table, a string) designer.Value {
	g := e.g
	numeric := map[string]bool{"created": true, "open_at": true, "amount": true, "qty": true, "joined": true, "age": true}
	switch {
	case g.chance(4):
		return designer.Boolean(true)
	case a == "tags" || a == "roles":
		return ss(g.word(), g.word()+"x")
	case numeric[a]:
		return num(fmt.Sprintf("%d.%d", g.pick(200)-50, g.pick(10)))
	case a == "open_region":
		return str([]string{"eu", "us", "ap"}[g.pick(3)])
	case a == "status":
		return str([]string{"NEW", "PAID", "SHIPPED"}[g.pick(3)])
	}
	return str(g.word())
}

// condition is a ConditionExpression that holds or fails on the stored item about evenly.
func (e *writeExpr) condition(t designer.Table, stored designer.Item) string {
	g := e.g
	pk := t.PartitionKey.Name
	a := e.attribute(t)
	switch g.pick(6) {
	case 0:
		return "attribute_not_exists(" + pk + ")"
	case 1:
		return "attribute_exists(" + pk + ")"
	case 2:
		return "attribute_exists(" + e.name(a) + ")"
	case 3:
		v, ok := stored[a]
		if !ok || g.chance(40) {
			v = e.valueFor(t, a)
		}
		return e.name(a) + " = " + e.value(v)
	case 4:
		return e.name(a) + " " + []string{"<", ">=", "<>"}[g.pick(3)] + " " + e.value(e.valueFor(t, a))
	}
	return "attribute_not_exists(" + e.name(a) + ") OR " + e.name(a) + " <> " + e.value(e.valueFor(t, a))
}

// update is an UpdateExpression of one to four clauses over distinct attributes.
func (e *writeExpr) update(t designer.Table, stored designer.Item) string {
	g := e.g
	sections := map[string][]string{}
	used := map[string]bool{}
	for range 1 + g.pick(4) {
		a := e.attribute(t)
		if used[a] {
			continue
		}
		used[a] = true
		n := e.name(a)
		switch g.pick(7) {
		case 0, 1:
			sections["SET"] = append(sections["SET"], n+" = "+e.value(e.valueFor(t, a)))
		case 2:
			sections["SET"] = append(sections["SET"], n+" = "+n+" + "+e.value(num(fmt.Sprint(g.pick(9)))))
		case 3:
			sections["SET"] = append(sections["SET"], n+" = if_not_exists("+n+", "+e.value(e.valueFor(t, a))+")")
		case 4:
			sections["REMOVE"] = append(sections["REMOVE"], n)
		case 5:
			v := num(fmt.Sprint(g.pick(5)))
			if a == "tags" || a == "roles" {
				v = ss(g.word())
			}
			sections["ADD"] = append(sections["ADD"], n+" "+e.value(v))
		default:
			v := ss(g.word())
			if s, ok := stored[a]; ok && s.Type == designer.SS && len(s.SS) > 0 {
				v = ss(s.SS[0])
			}
			sections["DELETE"] = append(sections["DELETE"], n+" "+e.value(v))
		}
	}
	if g.chance(5) {
		// An update of a key attribute, which DynamoDB refuses.
		sections["SET"] = append(sections["SET"], t.PartitionKey.Name+" = "+e.value(str("X")))
	}
	var out []string
	for _, s := range []string{"SET", "REMOVE", "ADD", "DELETE"} {
		if len(sections[s]) > 0 {
			out = append(out, s+" "+strings.Join(sections[s], ", "))
		}
	}
	return strings.Join(out, " ")
}

// writeBody is op in DynamoDB's wire format, asking for the item before and the units.
func writeBody(t designer.Table, op designer.Operation) map[string]any {
	keys := dynamo.TableKeyAttrs(t)
	attrs, keyItems, err := dynamo.WriteParts(op, keys)
	if err != nil || len(keyItems) != 1 {
		panic(fmt.Sprintf("generated write without one key: %v", err))
	}
	body := map[string]any{"TableName": op.Table, "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}
	if op.Op == "PutItem" {
		item := designer.Item{}
		for k, v := range keyItems[0] {
			item[k] = v
		}
		for k, v := range attrs {
			item[k] = v
		}
		body["Item"] = item
	} else {
		body["Key"] = keyItems[0]
	}
	if op.Condition != "" {
		body["ConditionExpression"] = op.Condition
	}
	if op.Update != "" {
		body["UpdateExpression"] = op.Update
	}
	if len(op.Names) > 0 {
		body["ExpressionAttributeNames"] = op.Names
	}
	values := map[string]designer.Value{}
	for ph, v := range op.Values {
		if !strings.HasPrefix(ph, ":k") && (op.Op != "PutItem" || !isAttr(attrs, ph)) {
			values[ph] = v
		}
	}
	if len(values) > 0 {
		body["ExpressionAttributeValues"] = values
	}
	return body
}

func isAttr(attrs designer.Item, ph string) bool {
	_, ok := attrs[strings.TrimPrefix(ph, ":")]
	return ok
}

// compareWrite runs one write on both sides and compares them, then puts dynalite back. It
// answers the outcome and what dynalite's indexes saw happen to the item's entries.
func compareWrite(ctx context.Context, t *testing.T, dyn *dynalite.Dynalite, d designer.Design, c writeCase) (string, []string, []string) {
	t.Helper()
	tbl, _, _ := d.TableByName(c.op.Table)
	got := dynamo.RunOperation(d, c.op)
	body := writeBody(tbl, c.op)
	call := func(op string, req any) answer {
		a, err := askDynalite(ctx, dyn, op, mustJSON(req))
		if err != nil {
			t.Fatalf("%s: %s: %v", c.name, op, err)
		}
		if a.errType != "" && op != c.op.Op {
			t.Fatalf("%s: %s answered %s", c.name, op, a)
		}
		return a
	}
	key := body["Key"]
	if key == nil {
		key = designer.TableKey(tbl, body["Item"].(designer.Item))
	}
	indexes := slices.Concat(tbl.GSIs, tbl.LSIs)
	entry := func(ix designer.Index) string {
		var filter []string
		values := map[string]any{}
		for i, k := range dynamo.TableKeyAttrs(tbl) {
			filter = append(filter, fmt.Sprintf("%s = :t%d", k.Name, i))
			values[fmt.Sprintf(":t%d", i)] = key.(designer.Item)[k.Name]
		}
		a := call("Scan", map[string]any{"TableName": tbl.Name, "IndexName": ix.Name, "FilterExpression": strings.Join(filter, " AND "),
			"ExpressionAttributeValues": values})
		items := listOf(a.resp["Items"])
		if len(items) == 0 {
			return ""
		}
		return canonical(items[0])
	}
	entriesBefore := make([]string, len(indexes))
	for i, ix := range indexes {
		entriesBefore[i] = entry(ix)
	}
	want := call(c.op.Op, body)

	var diffs []string
	outcome := "written"
	switch {
	case want.errType != "":
		outcome = want.errType
		if os.Getenv("ORACLE_DEBUG") != "" {
			t.Logf("DEBUG %s: %s", c.name, want)
		}
	case got.ConditionFailed:
		diffs = append(diffs, "evaluator: the condition failed; dynalite wrote")
	}
	switch want.errType {
	case "":
		if got.Error != "" {
			diffs = append(diffs, "evaluator refused: "+got.Error)
		}
	case "ConditionalCheckFailedException":
		if !got.ConditionFailed {
			diffs = append(diffs, fmt.Sprintf("dynalite: the condition failed; evaluator: error %q, condition failed %v", got.Error, got.ConditionFailed))
		}
	default:
		if g := want.errType + ": " + want.errMsg; got.Error != g {
			diffs = append(diffs, fmt.Sprintf("error: dynalite %q, evaluator %q", g, got.Error))
		}
	}
	if want.errType != "" || len(diffs) > 0 {
		return outcome, nil, diffs
	}
	var changes []string
	if units, _ := want.resp["ConsumedCapacity"].(map[string]any)["CapacityUnits"].(float64); units != got.CapacityUnits {
		diffs = append(diffs, fmt.Sprintf("table write units: dynalite %v, evaluator %v", units, got.CapacityUnits))
	}
	after := call("GetItem", map[string]any{"TableName": tbl.Name, "Key": key, "ConsistentRead": true})
	var wantAfter, gotAfter string
	if it, ok := after.resp["Item"]; ok {
		wantAfter = canonical(it)
	}
	if a := got.ItemWrites[0].After; a != nil {
		gotAfter = canonical(decoded(a))
	}
	if wantAfter != gotAfter {
		diffs = append(diffs, fmt.Sprintf("item after: dynalite %s, evaluator %s", orNone(wantAfter), orNone(gotAfter)))
	}
	for i, ix := range indexes {
		nowEntry := entry(ix)
		wantChange := entryChange(entriesBefore[i], nowEntry, ix, tbl)
		if wantChange != "" {
			changes = append(changes, wantChange)
		}
		gotChange, gotEntry := "", entriesBefore[i]
		for _, w := range got.IndexWrites {
			if w.Index == ix.Name && len(w.Changes) > 0 {
				gotChange = w.Changes[0].Change
				gotEntry = ""
				if w.Changes[0].After != nil {
					gotEntry = canonical(decoded(w.Changes[0].After))
				}
			}
		}
		if wantChange != gotChange {
			diffs = append(diffs, fmt.Sprintf("%s: dynalite's entry %s, evaluator's %s", ix.Name, orNone(wantChange), orNone(gotChange)))
		}
		if nowEntry != gotEntry {
			diffs = append(diffs, fmt.Sprintf("%s entry after: dynalite %s, evaluator %s", ix.Name, orNone(nowEntry), orNone(gotEntry)))
		}
	}
	// Put dynalite back as it was.
	if old, ok := want.resp["Attributes"]; ok {
		call("PutItem", map[string]any{"TableName": tbl.Name, "Item": old})
	} else {
		call("DeleteItem", map[string]any{"TableName": tbl.Name, "Key": key})
	}
	return outcome, changes, diffs
}

// entryChange names what happened to an index entry between two scans: added, removed, moved
// (its index key changed), changed (other attributes) or "" (nothing).
func entryChange(before, after string, ix designer.Index, t designer.Table) string {
	switch {
	case before == after:
		return ""
	case before == "":
		return dynamo.EntryAdded
	case after == "":
		return dynamo.EntryRemoved
	}
	var b, a map[string]any
	_ = json.Unmarshal([]byte(before), &b)
	_ = json.Unmarshal([]byte(after), &a)
	for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
		if canonical(b[k.Name]) != canonical(a[k.Name]) {
			return dynamo.EntryMoved
		}
	}
	return dynamo.EntryChanged
}

// decoded is an item as dynalite's JSON decodes, for canonical.
func decoded(it designer.Item) any {
	var v any
	_ = json.Unmarshal(mustJSON(it), &v)
	return v
}
