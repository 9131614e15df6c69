package dynamo

import (
	"errors"
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

// withWrite is evalDesign with one write pattern whose first operation is op.
func withWrite(op designer.Operation) designer.Design {
	d := evalDesign()
	d.Patterns = []designer.Pattern{{ID: "ap1", Number: 1, Description: "Mark an order paid", Type: designer.Write,
		Mapping: designer.Mapping{Operations: []designer.Operation{op}}}}
	return d
}

func applyAll(t *testing.T, d designer.Design, changes ...designer.Change) designer.Operation {
	t.Helper()
	for _, c := range changes {
		var err error
		if d, err = c.Apply(d); err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	return d.Patterns[0].Mapping.Operations[0]
}

func TestBuilder_markOrderPaidWritesTheExpressions(t *testing.T) {
	t.Parallel()
	d := withWrite(designer.Operation{Op: "UpdateItem", Table: "Orders"})
	op := applyAll(t, d,
		designer.SetOperationKey{Pattern: "ap1", Attribute: "pk", Text: "C#1"},
		designer.SetOperationKey{Pattern: "ap1", Attribute: "sk", Text: "ORDER#001"},
		designer.AddUpdateClause{Pattern: "ap1", Action: "SET", Attribute: "status", Text: "PAID"},
		designer.AddUpdateClause{Pattern: "ap1", Action: "remove", Attribute: "flag"},
		designer.AddConditionClause{Pattern: "ap1", Function: "attribute_exists", Attribute: "pk"},
		designer.AddConditionClause{Pattern: "ap1", Function: "<>", Attribute: "status", Text: "PAID"},
	)
	if op.KeyCondition != "#pk = :pk AND #sk = :sk" || op.Update != "SET #status = :status REMOVE #flag" ||
		op.Condition != "attribute_exists(#pk) AND #status <> :status2" {
		t.Errorf("key condition %q, update %q, condition %q", op.KeyCondition, op.Update, op.Condition)
	}
	res := RunOperation(d, op)
	if res.Error != "" || res.ConditionFailed {
		t.Fatalf("error %q, condition failed %v", res.Error, res.ConditionFailed)
	}
	if got := changesOf(res, "ByFlag"); !reflect.DeepEqual(got, []string{EntryRemoved}) {
		t.Errorf("ByFlag: %v, want the order removed from the sparse index", got)
	}
	// Setting a key again replaces its value, and the key condition keeps no stale placeholder.
	op = applyAll(t, withWrite(op), designer.SetOperationKey{Pattern: "ap1", Attribute: "sk", Text: "ORDER#002"})
	if op.KeyCondition != "#pk = :pk AND #sk = :sk" || op.Values[":sk"].S != "ORDER#002" {
		t.Errorf("key condition %q, values %v", op.KeyCondition, op.Values)
	}
}

func TestBuilder_keyFieldsReplaceAConventionalKeyCondition(t *testing.T) {
	t.Parallel()
	d := withWrite(designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :p AND sk = :s",
		Values: vals(":p", designer.Str("C#1"), ":s", designer.Str("ORDER#001"), ":note", designer.Str("x"))})
	if got := designer.OperationKeyValues(d.Tables[0], d.Patterns[0].Mapping.Operations[0]); got["pk"].S != "C#1" || got["sk"].S != "ORDER#001" {
		t.Fatalf("key read back = %v", got)
	}
	op := applyAll(t, d, designer.SetOperationKey{Pattern: "ap1", Attribute: "pk", Text: "C#2"})
	if _, stale := op.Values[":p"]; stale || op.Values[":pk"].S != "C#2" || op.Values[":sk"].S != "ORDER#001" {
		t.Errorf("values = %v; want :pk and :sk, no :p or :s", op.Values)
	}
	// C#2/ORDER#001 holds total -5. The first clause writes the attributes the values gave as SET clauses, so they stay set.
	op = applyAll(t, withWrite(op), designer.AddUpdateClause{Pattern: "ap1", Action: "ADD", Attribute: "total", Text: "5"})
	if op.Update != "SET #note = :note ADD #total :total" {
		t.Errorf("update = %q", op.Update)
	}
	res := RunOperation(d, op)
	if res.Error != "" || res.ItemWrites[0].After["note"].S != "x" || res.ItemWrites[0].After["total"].S != "0" {
		t.Errorf("error %q, after %v", res.Error, res.ItemWrites)
	}
}

func TestBuilder_refusals(t *testing.T) {
	t.Parallel()
	d := withWrite(designer.Operation{Op: "UpdateItem", Table: "Orders"})
	for _, c := range []struct {
		change designer.Change
		field  string
	}{
		{designer.SetOperationKey{Pattern: "ap1", Attribute: "status", Text: "x"}, "attribute"},
		{designer.AddUpdateClause{Pattern: "ap1", Action: "SET", Attribute: "pk", Text: "x"}, "attribute"},
		{designer.AddUpdateClause{Pattern: "ap1", Action: "MERGE", Attribute: "a", Text: "x"}, "action"},
		{designer.AddUpdateClause{Pattern: "ap1", Action: "SET", Attribute: "a"}, "text"},
		{designer.AddConditionClause{Pattern: "ap1", Function: "like", Attribute: "a"}, "function"},
		{designer.AddConditionClause{Pattern: "ap1", Function: "=", Attribute: "a"}, "text"},
	} {
		_, err := c.change.Apply(d)
		var ve *designer.ValidationError
		if !errors.As(err, &ve) || ve.Field != c.field {
			t.Errorf("%T %+v: %v, want a refusal of %s", c.change, c.change, err, c.field)
		}
	}
	scan := withWrite(designer.Operation{Op: "Scan", Table: "Orders"})
	if _, err := (designer.AddUpdateClause{Pattern: "ap1", Action: "SET", Attribute: "a", Text: "x"}).Apply(scan); err == nil {
		t.Error("a Scan took an update clause")
	}
	if _, err := (designer.AddConditionClause{Pattern: "ap1", Function: "attribute_exists", Attribute: "a"}).Apply(scan); err == nil {
		t.Error("a Scan took a condition")
	}
}

// BenchmarkWrite_markPaid measures the builder's UpdateItem (a condition, SET and REMOVE, a sparse
// GSI and a GSI whose key moves) on a 10,000-item table beside a GetItem of the same key, its
// anchor: both find the stored item; the write also parses its expressions, applies them to a
// copy and works out every index entry before and after.
func BenchmarkWrite_markPaid(b *testing.B) {
	d, _ := query10kDesign(b)
	t := &d.Tables[0]
	t.GSIs = []designer.Index{
		{Name: "ByKind", PartitionKey: []designer.KeyAttribute{{Name: "kind", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}},
		{Name: "Unpaid", PartitionKey: []designer.KeyAttribute{{Name: "unpaid", Type: designer.S}}, Projection: designer.Projection{Type: designer.KeysOnly}, Sparse: true},
	}
	t.Items[5000].Item["unpaid"] = designer.Str("2026-11-20")
	key := vals(":pk", t.Items[5000].Item["pk"], ":sk", t.Items[5000].Item["sk"])
	get := designer.Operation{Op: "GetItem", Table: "Events", KeyCondition: "#pk = :pk AND #sk = :sk",
		Names: map[string]string{"#pk": "pk", "#sk": "sk"}, Values: key}
	update := get
	update.Op, update.Condition, update.Update = "UpdateItem", "attribute_exists(#pk)", "SET #k = :paid REMOVE #u"
	update.Names = map[string]string{"#pk": "pk", "#sk": "sk", "#k": "kind", "#u": "unpaid"}
	update.Values = vals(":pk", key[":pk"], ":sk", key[":sk"], ":paid", designer.Str("paid"))
	if res := RunOperation(d, update); res.Error != "" || len(changesOf(res, "Unpaid")) != 1 {
		b.Fatalf("%s %v", res.Error, res.IndexWrites)
	}
	for _, c := range []struct {
		name string
		op   designer.Operation
	}{{"GetItem", get}, {"UpdateItem", update}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				RunOperation(d, c.op)
			}
		})
	}
}
