package dynamo

import (
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// indexWrites maps each index to its writes and units, for comparison.
func indexWrites(res OperationResult) map[string][2]float64 {
	out := map[string][2]float64{}
	for _, w := range res.IndexWrites {
		out[w.Index] = [2]float64{float64(w.Writes), w.Units}
	}
	return out
}

func runWriteOK(t *testing.T, d designer.Design, op designer.Operation) OperationResult {
	t.Helper()
	res := RunOperation(d, op)
	if res.Error != "" {
		t.Fatalf("%s: %s", op.Op, res.Error)
	}
	return res
}

func TestRunOperation_putIntoSparseIndex(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	before := len(d.Tables[0].Items)
	res := runWriteOK(t, d, designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :p AND sk = :s",
		Values: map[string]designer.Value{":p": designer.Str("C#3"), ":s": designer.Str("ORDER#001"), ":flag": designer.Str("late"), ":customer": designer.Str("cy")}})
	want := map[string][2]float64{"ByFlag": {1, 1}, "ByStatus": {0, 0}, "ByTotal": {0, 0}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v", got, want)
	}
	if res.CapacityUnits != 1 {
		t.Errorf("CapacityUnits = %v, want 1", res.CapacityUnits)
	}
	wantItem := designer.Item{"pk": designer.Str("C#3"), "sk": designer.Str("ORDER#001"), "flag": designer.Str("late"), "customer": designer.Str("cy")}
	if len(res.Items) != 1 || !reflect.DeepEqual(res.Items[0], wantItem) || res.Count != 1 {
		t.Errorf("Items = %v, want the written item", res.Items)
	}
	if len(d.Tables[0].Items) != before {
		t.Error("the write changed the design")
	}
	if got := RunOperation(d, designer.Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :p AND sk = :s",
		Values: map[string]designer.Value{":p": designer.Str("C#3"), ":s": designer.Str("ORDER#001")}}); len(got.Items) != 0 {
		t.Error("the written item is in the design's sample items")
	}
}

func TestRunOperation_putKeyFromValues(t *testing.T) {
	t.Parallel()
	res := runWriteOK(t, evalDesign(), designer.Operation{Op: "PutItem", Table: "Orders",
		Values: map[string]designer.Value{":pk": designer.Str("C#9"), ":sk": designer.Str("X"), ":status": designer.Str("OPEN"), ":total": designer.Num("1")}})
	want := map[string][2]float64{"ByFlag": {0, 0}, "ByStatus": {1, 1}, "ByTotal": {1, 1}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v", got, want)
	}
}

func TestRunOperation_updateChangingAnIndexKeyWritesTwice(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	res := runWriteOK(t, d, designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#002"), ":status": designer.Str("SHIPPED")}})
	// ByStatus: OPEN → SHIPPED deletes one entry and puts another; ByTotal projects ALL, so its
	// entry changes in place; ByFlag never held the item.
	want := map[string][2]float64{"ByStatus": {2, 2}, "ByTotal": {1, 1}, "ByFlag": {0, 0}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v", got, want)
	}
	if got := res.Items[0]; got["status"].S != "SHIPPED" || got["customer"].S != "ann" || got["total"].S != "10" {
		t.Errorf("item after the update = %v", got)
	}
	if d.Tables[0].Items[2].Item["status"].S != "OPEN" {
		t.Error("the update changed the design's item")
	}
}

func TestRunOperation_deleteRemovesEntries(t *testing.T) {
	t.Parallel()
	res := runWriteOK(t, evalDesign(), designer.Operation{Op: "DeleteItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#001")}})
	want := map[string][2]float64{"ByStatus": {1, 1}, "ByTotal": {1, 1}, "ByFlag": {1, 1}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v", got, want)
	}
	if len(res.Items) != 0 || res.CapacityUnits != 1 {
		t.Errorf("Items = %v, CapacityUnits = %v; want none and 1", res.Items, res.CapacityUnits)
	}
	// Deleting a missing item still costs a unit and writes no index.
	res = runWriteOK(t, evalDesign(), designer.Operation{Op: "DeleteItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#7"), ":sk": designer.Str("NONE")}})
	if res.CapacityUnits != 1 || indexWrites(res)["ByStatus"] != [2]float64{0, 0} {
		t.Errorf("deleting a missing item: %+v", res)
	}
}

func TestRunOperation_projectedOnlyChange(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	// customer is projected into ByStatus (INCLUDE) and ByTotal (ALL).
	res := runWriteOK(t, d, designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#003"), ":customer": designer.Str("zed")}})
	want := map[string][2]float64{"ByStatus": {1, 1}, "ByTotal": {1, 1}, "ByFlag": {0, 0}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("projected change: index writes = %v, want %v", got, want)
	}
	// note is projected into ByTotal only; setting an attribute to its value changes nothing.
	res = runWriteOK(t, d, designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#2"), ":sk": designer.Str("ORDER#002"), ":note": designer.Str("hi"), ":customer": designer.Str("bob")}})
	want = map[string][2]float64{"ByStatus": {0, 0}, "ByTotal": {1, 1}, "ByFlag": {0, 0}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("unprojected change: index writes = %v, want %v", got, want)
	}
}

func TestRunOperation_largeEntriesCostPerKilobyte(t *testing.T) {
	t.Parallel()
	big := designer.Str(strings.Repeat("x", 1500))
	res := runWriteOK(t, evalDesign(), designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#002"), ":status": designer.Str("OPEN"), ":total": designer.Num("10"), ":customer": big}})
	// The item and the entries holding customer are over 1 KB: 2 units each. ByStatus keeps its key,
	// so only the projected customer changes.
	want := map[string][2]float64{"ByStatus": {1, 2}, "ByTotal": {1, 2}, "ByFlag": {0, 0}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v", got, want)
	}
	if res.CapacityUnits != 2 {
		t.Errorf("CapacityUnits = %v, want 2", res.CapacityUnits)
	}
	// Replacing the large item with a small one costs the larger of the two; the deleted entry is
	// large, the new one small.
	d := evalDesign()
	d.Tables[0].Items[2].Item["customer"] = big
	res = runWriteOK(t, d, designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#002"), ":status": designer.Str("DONE"), ":total": designer.Num("10")}})
	want = map[string][2]float64{"ByStatus": {2, 3}, "ByTotal": {1, 1}, "ByFlag": {0, 0}}
	if got := indexWrites(res); !reflect.DeepEqual(got, want) || res.CapacityUnits != 2 {
		t.Errorf("index writes = %v (want %v), CapacityUnits = %v (want 2)", got, want, res.CapacityUnits)
	}
}

func TestRunOperation_batchAndTransactionWrites(t *testing.T) {
	t.Parallel()
	op := designer.Operation{Op: "BatchWriteItem", Table: "Orders", KeyCondition: "pk = :pk AND sk IN (:a, :b)",
		Values: map[string]designer.Value{":pk": designer.Str("C#5"), ":a": designer.Str("A"), ":b": designer.Str("B"), ":flag": designer.Str("x")}}
	res := runWriteOK(t, evalDesign(), op)
	if res.CapacityUnits != 2 || len(res.Items) != 2 || indexWrites(res)["ByFlag"] != [2]float64{2, 2} {
		t.Errorf("batch put: %+v", res)
	}
	op.Op = "TransactWriteItems"
	if res := runWriteOK(t, evalDesign(), op); res.CapacityUnits != 4 || indexWrites(res)["ByFlag"] != [2]float64{2, 2} {
		t.Errorf("transaction: %+v", res)
	}
	// Without attributes a batch deletes its keys.
	res = runWriteOK(t, evalDesign(), designer.Operation{Op: "BatchWriteItem", Table: "Orders", KeyCondition: "pk = :pk AND sk IN (:a, :b)",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":a": designer.Str("ORDER#001"), ":b": designer.Str("ORDER#002")}})
	if len(res.Items) != 0 || res.CapacityUnits != 2 || indexWrites(res)["ByStatus"] != [2]float64{2, 2} {
		t.Errorf("batch delete: %+v", res)
	}
}

func TestRunOperation_transactionRowActions(t *testing.T) {
	t.Parallel()
	key := map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#002")}
	with := func(extra map[string]designer.Value) map[string]designer.Value {
		out := map[string]designer.Value{}
		for k, v := range key {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	row := func(action string, values map[string]designer.Value) designer.Operation {
		return designer.Operation{Op: "TransactWriteItems", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Action: action, Values: values}
	}

	// An update keeps the stored attributes and sets the given ones: OPEN → SHIPPED moves the
	// ByStatus entry (2 writes); a put would have dropped total and customer instead.
	res := runWriteOK(t, evalDesign(), row(designer.ActionUpdate, with(map[string]designer.Value{":status": designer.Str("SHIPPED")})))
	want := designer.Item{"pk": designer.Str("C#1"), "sk": designer.Str("ORDER#002"), "status": designer.Str("SHIPPED"), "total": designer.Num("10"), "customer": designer.Str("ann")}
	if len(res.Items) != 1 || !reflect.DeepEqual(res.Items[0], want) {
		t.Errorf("update wrote %v, want %v", res.Items, want)
	}
	if got := indexWrites(res); got["ByStatus"] != [2]float64{2, 2} || got["ByTotal"] != [2]float64{1, 1} || res.CapacityUnits != 2 {
		t.Errorf("update: index writes %v, %v units; want ByStatus 2, ByTotal 1, 2 units", got, res.CapacityUnits)
	}
	// An update of a missing item creates it from the key and the attributes.
	res = runWriteOK(t, evalDesign(), designer.Operation{Op: "TransactWriteItems", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Action: designer.ActionUpdate, Values: map[string]designer.Value{":pk": designer.Str("C#9"), ":sk": designer.Str("NEW"), ":flag": designer.Str("x")}})
	if want := (designer.Item{"pk": designer.Str("C#9"), "sk": designer.Str("NEW"), "flag": designer.Str("x")}); len(res.Items) != 1 || !reflect.DeepEqual(res.Items[0], want) {
		t.Errorf("update of a missing item wrote %v, want %v", res.Items, want)
	}

	// A key-only put writes the item of the key alone: it leaves every index the item was in.
	res = runWriteOK(t, evalDesign(), row(designer.ActionPut, key))
	if want := (designer.Item{"pk": designer.Str("C#1"), "sk": designer.Str("ORDER#002")}); len(res.Items) != 1 || !reflect.DeepEqual(res.Items[0], want) {
		t.Errorf("key-only put wrote %v, want %v", res.Items, want)
	}
	if got := indexWrites(res); got["ByStatus"] != [2]float64{1, 1} || got["ByTotal"] != [2]float64{1, 1} {
		t.Errorf("key-only put: index writes %v, want the entries removed", got)
	}

	// A delete ignores attributes, which without an action would have made the row a put.
	res = runWriteOK(t, evalDesign(), row(designer.ActionDelete, with(map[string]designer.Value{":status": designer.Str("GONE")})))
	if len(res.Items) != 0 || indexWrites(res)["ByStatus"] != [2]float64{1, 1} || res.CapacityUnits != 2 {
		t.Errorf("delete with attributes: %+v", res)
	}

	// A condition check writes nothing and no index, but costs the item's size, twice in a
	// transaction; a missing item costs one unit (two).
	d := evalDesign()
	d.Tables[0].Items[2].Item["customer"] = designer.Str(strings.Repeat("x", 1500))
	res = runWriteOK(t, d, row(designer.ActionConditionCheck, with(map[string]designer.Value{":status": designer.Str("SHIPPED")})))
	if len(res.Items) != 0 || res.CapacityUnits != 4 {
		t.Errorf("condition check of a 1.5 KB item: items %v, %v units; want none and 4", res.Items, res.CapacityUnits)
	}
	for ix, w := range indexWrites(res) {
		if w != [2]float64{0, 0} {
			t.Errorf("condition check wrote index %s: %v", ix, w)
		}
	}
	res = runWriteOK(t, d, designer.Operation{Op: "TransactWriteItems", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
		Action: designer.ActionConditionCheck, Values: map[string]designer.Value{":pk": designer.Str("C#9"), ":sk": designer.Str("NONE")}})
	if res.CapacityUnits != 2 {
		t.Errorf("condition check of a missing item: %v units, want 2", res.CapacityUnits)
	}
}

func TestRunOperation_batchRowActions(t *testing.T) {
	t.Parallel()
	// Deleting two keys that the values also give attributes for.
	op := designer.Operation{Op: "BatchWriteItem", Table: "Orders", KeyCondition: "pk = :pk AND sk IN (:a, :b)", Action: designer.ActionDelete,
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":a": designer.Str("ORDER#001"), ":b": designer.Str("ORDER#002"), ":note": designer.Str("x")}}
	res := runWriteOK(t, evalDesign(), op)
	if len(res.Items) != 0 || res.CapacityUnits != 2 || indexWrites(res)["ByStatus"] != [2]float64{2, 2} {
		t.Errorf("batch delete: %+v", res)
	}
	// Putting two keys with no attributes, which without an action would delete them.
	op.Action, op.Values = designer.ActionPut, map[string]designer.Value{":pk": designer.Str("C#1"), ":a": designer.Str("ORDER#001"), ":b": designer.Str("ORDER#002")}
	res = runWriteOK(t, evalDesign(), op)
	if len(res.Items) != 2 || res.Items[0]["status"].Type != "" {
		t.Errorf("batch put of keys: %+v", res)
	}
}

func TestRunOperation_refusedWrites(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		op   designer.Operation
		want string
	}{
		{designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :p AND sk = :s",
			Values: map[string]designer.Value{":p": designer.Str("C#1"), ":s": designer.Str("ORDER#001"), ":pk": designer.Str("C#2")}},
			"ValidationException: One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
		{designer.Operation{Op: "PutItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
			Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("N"), ":status": designer.Num("3")}},
			"ValidationException: One or more parameter values were invalid: Type mismatch for Index Key status Expected: S Actual: N IndexName: ByStatus"},
		{designer.Operation{Op: "PutItem", Table: "Orders", Values: map[string]designer.Value{":pk": designer.Str("C#1")}},
			"ValidationException: The provided key element does not match the schema"},
		{designer.Operation{Op: "DeleteItem", Table: "Orders"}, "ValidationException: DeleteItem needs a key condition"},
		{designer.Operation{Op: "PutItem", Table: "Nope"}, "ResourceNotFoundException: Requested resource not found"},
		{designer.Operation{Op: "BatchWriteItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Action: designer.ActionUpdate,
			Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("ORDER#001"), ":status": designer.Str("X")}},
			"ValidationException: action: is \"update\"; a BatchWriteItem row takes put, delete"},
		{designer.Operation{Op: "TransactWriteItems", Table: "Orders", KeyCondition: "pk = :p AND sk = :s", Action: designer.ActionUpdate,
			Values: map[string]designer.Value{":p": designer.Str("C#1"), ":s": designer.Str("ORDER#001"), ":sk": designer.Str("X")}},
			"ValidationException: One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key"},
	} {
		if res := RunOperation(evalDesign(), c.op); !strings.HasPrefix(res.Error, c.want) {
			t.Errorf("%s %v: Error = %q, want %q…", c.op.Op, c.op.Values, res.Error, c.want)
		}
	}
}
