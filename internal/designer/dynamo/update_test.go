package dynamo

import (
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func vals(kv ...any) map[string]designer.Value {
	out := map[string]designer.Value{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(designer.Value)
	}
	return out
}

// changesOf lists an index's entry changes as "change" words.
func changesOf(res OperationResult, index string) []string {
	var out []string
	for _, w := range res.IndexWrites {
		if w.Index == index {
			for _, c := range w.Changes {
				out = append(out, c.Change)
			}
		}
	}
	return out
}

func TestRunOperation_markPaidRemovesTheSparseKey(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	// Order C#1/ORDER#001 is in the sparse ByFlag index; paying it SETs status and REMOVEs flag.
	res := runWriteOK(t, d, designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Condition: "attribute_exists(pk) AND #s <> :paid", Update: "SET #s = :paid REMOVE flag",
		Names:  map[string]string{"#s": "status"},
		Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":paid", designer.Str("PAID"))})
	if res.ConditionFailed {
		t.Fatal("the condition failed; the order exists and is not paid")
	}
	w := res.ItemWrites[0]
	if w.Before["flag"].S != "late" || w.Before["status"].S != "SHIPPED" {
		t.Errorf("before = %v", w.Before)
	}
	if _, still := w.After["flag"]; still || w.After["status"].S != "PAID" || w.After["customer"].S != "ann" {
		t.Errorf("after = %v, want status PAID, no flag, the rest kept", w.After)
	}
	want := map[string][2]float64{"ByFlag": {1, 1}, "ByStatus": {2, 2}, "ByTotal": {1, 1}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v", got, want)
	}
	if got := changesOf(res, "ByFlag"); !reflect.DeepEqual(got, []string{EntryRemoved}) {
		t.Errorf("ByFlag changes = %v, want the entry removed", got)
	}
	if got := changesOf(res, "ByStatus"); !reflect.DeepEqual(got, []string{EntryMoved}) {
		t.Errorf("ByStatus changes = %v, want the entry moved (SHIPPED → PAID)", got)
	}
	if res.CapacityUnits != 1 {
		t.Errorf("CapacityUnits = %v, want 1", res.CapacityUnits)
	}
	if d.Tables[0].Items[1].Item["flag"].S != "late" {
		t.Error("the update changed the design's item")
	}
}

func TestRunOperation_failedConditionWritesNothing(t *testing.T) {
	t.Parallel()
	res := runWriteOK(t, evalDesign(), designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Condition: "attribute_not_exists(pk)",
		Values:    vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":status", designer.Str("NEW"))})
	if !res.ConditionFailed || !res.ItemWrites[0].ConditionFailed {
		t.Fatal("attribute_not_exists(pk) held for a stored item")
	}
	if len(res.Items) != 0 {
		t.Errorf("Items = %v, want none written", res.Items)
	}
	for _, w := range res.IndexWrites {
		if w.Writes != 0 {
			t.Errorf("%s: %d index writes after a failed condition", w.Index, w.Writes)
		}
	}
	if res.CapacityUnits != 1 {
		t.Errorf("CapacityUnits = %v, want 1 (a failed condition still costs the item's units)", res.CapacityUnits)
	}
	// The same put of a new key passes.
	res = runWriteOK(t, evalDesign(), designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Condition: "attribute_not_exists(pk)",
		Values:    vals(":pk", designer.Str("C#9"), ":sk", designer.Str("ORDER#001"), ":status", designer.Str("NEW"))})
	if res.ConditionFailed || len(res.Items) != 1 || res.Items[0]["status"].S != "NEW" {
		t.Errorf("a put of a new key: failed %v, items %v", res.ConditionFailed, res.Items)
	}
}

func TestRunOperation_updateClauses(t *testing.T) {
	t.Parallel()
	key := []any{":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#003")}
	cases := []struct {
		name, update string
		values       []any
		check        func(after designer.Item) string
	}{
		{"ADD to a number", "ADD #t :n", []any{":n", designer.Num("0.25")}, func(a designer.Item) string {
			return a["total"].S + " want 30.75"
		}},
		{"SET minus", "SET #t = #t - :n", []any{":n", designer.Num("0.5")}, func(a designer.Item) string { return a["total"].S + " want 30" }},
		{"ADD to a set", "ADD tags :s", []any{":s", designer.Value{Type: designer.SS, SS: []string{"rush", "fragile"}}}, func(a designer.Item) string {
			return strings.Join(a["tags"].SS, ",") + " want gift,rush,fragile"
		}},
		{"DELETE from a set", "DELETE tags :s", []any{":s", designer.Value{Type: designer.SS, SS: []string{"gift", "rush"}}}, func(a designer.Item) string {
			if _, ok := a["tags"]; ok {
				return "tags kept want removed"
			}
			return " want "
		}},
		{"if_not_exists", "SET seen = if_not_exists(seen, :z), #t = :z", []any{":z", designer.Num("0")}, func(a designer.Item) string {
			return a["seen"].S + a["total"].S + " want 00"
		}},
		{"nested", "SET parts[0].qty = :z REMOVE parts[1]", []any{":z", designer.Num("5")}, func(a designer.Item) string {
			return designer.FormatCell(a["parts"]) + ` want [{"M":{"qty":{"N":"5"},"sku":{"S":"A"}}}]`
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runWriteOK(t, evalDesign(), designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
				Update: c.update, Names: map[string]string{"#t": "total"}, Values: vals(append(append([]any{}, key...), c.values...)...)})
			got, want, _ := strings.Cut(c.check(res.ItemWrites[0].After), " want ")
			if got != want {
				t.Errorf("%s: got %q, want %q", c.update, got, want)
			}
		})
	}
}

func TestRunOperation_writeErrorsSpeakTheRoomsLanguage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		op       designer.Operation
		hint     string
		dynamoDB string
	}{
		{"put without the sort key", designer.Operation{Op: "PutItem", Table: "Orders", Values: vals(":pk", designer.Str("C#1"), ":status", designer.Str("X"))},
			"This table's key is pk + sk; give both.", "The provided key element does not match the schema"},
		{"update without a key", designer.Operation{Op: "UpdateItem", Table: "Orders", Update: "SET a = :a", Values: vals(":a", designer.Str("X"))},
			"This table's key is pk + sk; give both.", "needs a key condition"},
		{"update of a key attribute", designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "SET sk = :n",
			Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":n", designer.Str("ORDER#009"))},
			"sk is part of this table's key", "Cannot update attribute sk. This attribute is part of the key"},
		{"unused value", designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "SET a = :a",
			Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":a", designer.Str("x"), ":b", designer.Str("y"))},
			"No expression uses :b", "unused in expressions: keys: {:b}"},
		{"ADD to a string", designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "ADD #s :n",
			Names: map[string]string{"#s": "customer"}, Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":n", designer.Num("1"))},
			"ADD and", "An operand in the update expression has an incorrect data type"},
		{"update on a put", designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "SET a = :pk",
			Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"))},
			"Only an UpdateItem", "PutItem takes no UpdateExpression"},
		{"repeated section", designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "SET a = :a SET b = :a",
			Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":a", designer.Str("x"))},
			"cannot read the update", `The "SET" section can only be used once`},
		{"an index key of another type", designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "ADD #s :n",
			Names: map[string]string{"#s": "status"}, Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":n", designer.Num("1"))},
			"status is a key of the index ByStatus, which takes a string; this write gives it a number.", "Type mismatch for Index Key status Expected: S Actual: N IndexName: ByStatus"},
		{"a put whose key value was replaced", designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
			Values: vals(":sk", designer.Str("ORDER#001"), ":status", designer.Str("X"))},
			"The operation uses :pk but gives it no value: add :pk=…", "An expression attribute value used in expression is not defined; attribute value: :pk"},
		{"an update with an unnamed name", designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Update: "SET #x = :a",
			Values: vals(":pk", designer.Str("C#1"), ":sk", designer.Str("ORDER#001"), ":a", designer.Str("x"))},
			"does not say which attribute it stands for", "attribute name: #x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := RunOperation(evalDesign(), c.op)
			if !strings.Contains(res.Hint, c.hint) || !strings.Contains(res.Error, c.dynamoDB) {
				t.Errorf("hint %q, error %q; want %q and %q", res.Hint, res.Error, c.hint, c.dynamoDB)
			}
		})
	}
}

func TestParseUpdate_mistakes(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"SET a = :s, a = :s":            "Two document paths overlap with each other",
		"REMOVE a ADD b :s":             "Incorrect operand type for operator or function; operator: ADD, operand type: STRING",
		"SET a = :n + :s":               "Incorrect operand type for operator or function; operator or function: +, operand type: S",
		"SET a = nope(b)":               "Invalid function name; function: nope",
		"SET a = :missing":              "An expression attribute value used in expression is not defined; attribute value: :missing",
		"SET a :s":                      "Syntax error",
		"REMOVE size":                   "Attribute name is a reserved keyword; reserved keyword: size",
		"SET a = if_not_exists(:s, :s)": "Operator or function requires a document path",
	}
	for src, want := range cases {
		ctx := NewExprContext(nil, vals(":s", designer.Str("x"), ":n", designer.Num("1")))
		if _, msg := ParseUpdate(src, ctx); !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want %q", src, msg, want)
		}
	}
}
