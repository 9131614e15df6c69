package dynamo

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// bigItemsDesign is one partition of n items, each with a string of size bytes.
func bigItemsDesign(n, size int) designer.Design {
	t := designer.Table{Name: "Blobs", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}, SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.S}}
	for i := range n {
		t.Items = append(t.Items, designer.SampleItem{ID: fmt.Sprint(i), Item: designer.Item{
			"pk": designer.Str("P"), "sk": designer.Str(fmt.Sprintf("I%03d", i)), "data": designer.Str(strings.Repeat("x", size)), "n": designer.Num(fmt.Sprint(i)),
		}})
	}
	return designer.Design{Tables: []designer.Table{t}}
}

func TestQuery_pageEndsAfterTheItemThatReachesOneMegabyte(t *testing.T) {
	t.Parallel()
	d := bigItemsDesign(15, 100_000)
	// Each item counts 100,738 bytes toward the page (pageItemSize, checked against dynalite): ten make 1,007,380, the
	// eleventh crosses 1 MB and is still read.
	if got := pageItemSize(d.Tables[0].Items[0].Item, "sk"); got != 100_738 {
		t.Fatalf("pageItemSize = %d, want 100738", got)
	}
	body := `{"TableName":"Blobs","KeyConditionExpression":"pk = :p","FilterExpression":"n >= :z","ProjectionExpression":"sk","ExpressionAttributeValues":{":p":{"S":"P"},":z":{"N":"5"}}`
	r := evalJSON(t, d, "Query", body+`}`)
	if r.ScannedCount != 11 || r.Count != 6 {
		t.Errorf("first page ScannedCount %d Count %d, want 11 and 6", r.ScannedCount, r.Count)
	}
	if attr(r.LastEvaluatedKey, "sk") != "S:I010" {
		t.Fatalf("LastEvaluatedKey = %v, want I010", r.LastEvaluatedKey)
	}
	lek, _ := json.Marshal(r.LastEvaluatedKey)
	r = evalJSON(t, d, "Query", body+`,"ExclusiveStartKey":`+string(lek)+`}`)
	if r.ScannedCount != 4 || r.Count != 4 || r.LastEvaluatedKey != nil {
		t.Errorf("second page ScannedCount %d Count %d LEK %v, want 4, 4 and none", r.ScannedCount, r.Count, r.LastEvaluatedKey)
	}
}

func TestQuery_capacitySumsItemsReadThenRoundsUp(t *testing.T) {
	t.Parallel()
	d := bigItemsDesign(3, 5_000)
	out, err := EvaluateJSON(d, "Query", []byte(`{"TableName":"Blobs","KeyConditionExpression":"pk = :p","FilterExpression":"n > :z","ExpressionAttributeValues":{":p":{"S":"P"},":z":{"N":"9"}},"ReturnConsumedCapacity":"TOTAL"}`))
	if err != nil {
		t.Fatal(err)
	}
	// 3 × 5,012 bytes = 15,036 → 16 KB → 4 units, halved for an eventually consistent read.
	if !strings.Contains(string(out), `"ConsumedCapacity":{"CapacityUnits":2,"TableName":"Blobs"}`) || !strings.Contains(string(out), `"Count":0`) {
		t.Errorf("got %s", out)
	}
	res := RunOperation(d, designer.Operation{Op: "Query", Table: "Blobs", KeyCondition: "pk = :p", Values: map[string]designer.Value{":p": designer.Str("P")}, Consistent: true})
	if res.CapacityUnits != 4 {
		t.Errorf("strongly consistent units = %v, want 4", res.CapacityUnits)
	}
}

func TestRunOperation_readsLikeEvaluateJSON(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	limit := 2
	res := RunOperation(d, designer.Operation{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#s = :s",
		Filter: "customer = :c", Projection: "sk, #t", Limit: &limit, Descending: true,
		Names: map[string]string{"#s": "status", "#t": "total"}, Values: map[string]designer.Value{":s": designer.Str("OPEN"), ":c": designer.Str("bob")}})
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	want := []designer.Item{{"sk": designer.Str("ORDER#002"), "total": designer.Num("99.9")}}
	if !reflect.DeepEqual(res.Items, want) || res.Count != 1 || res.ScannedCount != 2 || !res.LastEvaluatedKey["total"].Equal(designer.Num("30.5")) {
		t.Errorf("got %+v", res)
	}
	if res.CapacityUnits != 0.5 {
		t.Errorf("GSI units = %v, want 0.5", res.CapacityUnits)
	}
}

func TestRunOperation_getItemTakesItsKeyFromTheKeyCondition(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	res := RunOperation(d, designer.Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :pk AND #sk = :sk", Projection: "#n",
		Names: map[string]string{"#sk": "sk", "#n": "name"}, Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":sk": designer.Str("PROFILE")}})
	if res.Error != "" || len(res.Items) != 1 || !res.Items[0]["name"].Equal(designer.Str("Ann")) || res.CapacityUnits != 0.5 {
		t.Errorf("got %+v", res)
	}
	res = RunOperation(d, designer.Operation{Op: "BatchGetItem", Table: "Orders", KeyCondition: "pk = :pk AND sk IN (:a, :b)",
		Values: map[string]designer.Value{":pk": designer.Str("C#1"), ":a": designer.Str("PROFILE"), ":b": designer.Str("ORDER#001")}})
	if res.Error != "" || res.Count != 2 {
		t.Errorf("BatchGetItem got %+v", res)
	}
	res = RunOperation(d, designer.Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :pk", Values: map[string]designer.Value{":pk": designer.Str("C#1")}})
	if res.Error != "ValidationException: The provided key element does not match the schema" {
		t.Errorf("GetItem without the sort key: %q", res.Error)
	}
}

func TestRunOperation_reportsDynamoDBErrors(t *testing.T) {
	t.Parallel()
	res := RunOperation(evalDesign(), designer.Operation{Op: "Query", Table: "Orders", KeyCondition: "pk = :p AND begins_with(sk, :s)",
		Values: map[string]designer.Value{":p": designer.Str("C#1")}})
	if !strings.Contains(res.Error, "attribute value: :s") {
		t.Errorf("Error = %q", res.Error)
	}
}

func TestQuery_multiAttributeGSIKeys(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	tb := &d.Tables[0]
	tb.GSIs = append(tb.GSIs, designer.Index{Name: "ByCustomerStatus",
		PartitionKey: []designer.KeyAttribute{{Name: "customer", Type: designer.S}, {Name: "status", Type: designer.S}},
		SortKey:      []designer.KeyAttribute{{Name: "total", Type: designer.N}, {Name: "sk", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}})
	res := RunOperation(d, designer.Operation{Op: "Query", Table: "Orders", Index: "ByCustomerStatus",
		KeyCondition: "customer = :c AND #s = :s AND #t >= :t", Names: map[string]string{"#s": "status", "#t": "total"},
		Values: map[string]designer.Value{":c": designer.Str("ann"), ":s": designer.Str("OPEN"), ":t": designer.Num("10")}})
	if res.Error != "" || res.Count != 2 || !res.Items[0]["sk"].Equal(designer.Str("ORDER#002")) {
		t.Errorf("got %+v", res)
	}
	res = RunOperation(d, designer.Operation{Op: "Query", Table: "Orders", Index: "ByCustomerStatus",
		KeyCondition: "customer = :c AND sk = :k", Values: map[string]designer.Value{":c": designer.Str("ann"), ":k": designer.Str("x")}})
	if !strings.Contains(res.Error, "missed key schema element: status") {
		t.Errorf("Error = %q", res.Error)
	}
}

func TestFixedNumber(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"1.50": "1.5", "1E3": "1000", "-0": "0", "0.00120": "0.0012", "1e-7": "0.0000001", "-12.340": "-12.34", "007": "7"} {
		if got := fixedNumber(in); got != want {
			t.Errorf("fixedNumber(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExpression(f *testing.F) {
	for _, s := range []string{
		"a = :v", "#n BETWEEN :v AND :w", "a IN (:v, :w)", "NOT (a < :v OR b.c[1] >= :w)", "attribute_type(a, :t)",
		"size(l) > :v AND contains(l, :v)", "begins_with(#n, :v)", "((a = :v))", "(a) = (:v)", "x[", "a = a",
		"attribute_exists(m.k[0].z)", "f(g(h(:v)))", "a,b.c,#n[2]",
	} {
		f.Add(s)
	}
	item := designer.Item{"a": designer.Num("1"), "b": designer.Map(map[string]designer.Value{"c": designer.List(designer.Str("x"), designer.Num("2"))}), "l": designer.List(designer.Num("1")), "m": designer.Null()}
	f.Fuzz(func(t *testing.T, s string) {
		ctx := NewExprContext(map[string]string{"#n": "a"}, map[string]designer.Value{":v": designer.Num("1"), ":w": designer.Str("b"), ":t": designer.Str("N")})
		if e, _, msg := ParseCondition(s, ctx); msg == "" {
			evalCondition(e, item)
			_, _, _ = keyConditions(e)
		}
		if paths, _, msg := ParseProjection(s, ctx); msg == "" {
			projectItem(item, paths)
		}
	})
}

// query10kDesign is a table with one 10,000-item partition and a Query reading it with a filter.
func query10kDesign(b testing.TB) (designer.Design, designer.Operation) {
	b.Helper()
	t := designer.Table{Name: "Events", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}, SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.S}}
	for i := range 10_000 {
		t.Items = append(t.Items, designer.SampleItem{ID: fmt.Sprint(i), Item: designer.Item{
			"pk": designer.Str("TENANT#1"), "sk": designer.Str(fmt.Sprintf("EVENT#%05d", (i*7919)%10_000)), "kind": designer.Str([]string{"click", "view", "buy"}[i%3]),
			"amount": designer.Num(fmt.Sprint(i % 250)),
		}})
	}
	d := designer.Design{Tables: []designer.Table{t}}
	op := designer.Operation{Op: "Query", Table: "Events", KeyCondition: "pk = :p AND begins_with(sk, :e)", Filter: "kind = :k AND amount > :a",
		Values: map[string]designer.Value{":p": designer.Str("TENANT#1"), ":e": designer.Str("EVENT#"), ":k": designer.Str("buy"), ":a": designer.Num("100")}}
	if res := RunOperation(d, op); res.Error != "" || res.ScannedCount != 10_000 {
		b.Fatalf("%+v", res.Error)
	}
	return d, op
}

// BenchmarkQuery10kPartitionWithFilter measures repeated queries against a design that does not
// change between them, through the Cache its caller holds.
func BenchmarkQuery10kPartitionWithFilter(b *testing.B) {
	d, op := query10kDesign(b)
	c := NewCache()
	b.ReportAllocs()
	for b.Loop() {
		c.RunOperation(d, op)
	}
}

// BenchmarkQuery10kPartitionWithFilterAfterEdit measures the first query after an edit of one
// of the partition's items: every iteration sees a new items slice in which one item is a new map,
// as SetItemCell makes it, read through the Cache that read the revision before.
func BenchmarkQuery10kPartitionWithFilterAfterEdit(b *testing.B) {
	d, op := query10kDesign(b)
	c := NewCache()
	c.RunOperation(d, op)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		t := d.Tables[0]
		n = (n + 7) % len(t.Items)
		edited := maps.Clone(t.Items[n].Item)
		edited["note"] = designer.Str(fmt.Sprint("edit ", n))
		t.Items = withItem(t.Items, n, edited)
		d = designer.Design{Tables: []designer.Table{t}}
		b.StartTimer()
		if res := c.RunOperation(d, op); res.ScannedCount != 10_000 {
			b.Fatalf("%+v", res.Error)
		}
	}
}

// BenchmarkQuery10kPartitionWithFilterCold measures a query without a Cache, as every read of a
// design just loaded is: every item is measured.
func BenchmarkQuery10kPartitionWithFilterCold(b *testing.B) {
	d, op := query10kDesign(b)
	b.ReportAllocs()
	for b.Loop() {
		if res := RunOperation(d, op); res.ScannedCount != 10_000 {
			b.Fatalf("%+v", res.Error)
		}
	}
}

func TestIsFixedNumber(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0", "7", "-7", "1.5", "0.0012", "-12.34", "1.50", "1E3", "-0", "007", "1.", ".5", "", "-", "1.5e2", "10"} {
		if _, ok := designer.ParseDecimal(s); !ok {
			continue
		}
		if got, want := isFixedNumber(s), fixedNumber(s) == s; got != want {
			t.Errorf("isFixedNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

// The measurements a Cache remembers for a table's items are those of the items the read sees: a
// changed design (which has a new items slice) is measured afresh, and concurrent reads agree.
func TestCache_remembersOnlyTheItemsItRead(t *testing.T) {
	t.Parallel()
	d := bigItemsDesign(40, 100)
	op := designer.Operation{Op: "Query", Table: d.Tables[0].Name, KeyCondition: "pk = :p", Values: map[string]designer.Value{":p": d.Tables[0].Items[0].Item["pk"]}}
	c := NewCache()
	first := c.RunOperation(d, op)
	if uncached := RunOperation(d, op); !reflect.DeepEqual(uncached, first) {
		t.Errorf("read without a cache: %+v, want %+v", uncached, first)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if again := c.RunOperation(d, op); !reflect.DeepEqual(again, first) {
				t.Errorf("repeated read differs: %+v, want %+v", again, first)
			}
		})
	}
	wg.Wait()
	big := maps.Clone(d.Tables[0].Items[3].Item)
	big["extra"] = designer.Str(strings.Repeat("x", 5000))
	tb := d.Tables[0]
	tb.Items = withItem(tb.Items, 3, big)
	changed := designer.Design{Tables: []designer.Table{tb}}
	got := c.RunOperation(changed, op)
	if want := RunOperation(changed, op); !reflect.DeepEqual(got, want) || got.CapacityUnits == first.CapacityUnits {
		t.Errorf("changed design: %+v, want %+v (before the change %v units)", got.CapacityUnits, want.CapacityUnits, first.CapacityUnits)
	}
}

// A large partition read for the first time is measured by two goroutines: what it returns is
// what the same read returns from remembered measurements.
func TestQueryFirstReadOfALargePartitionAgreesWithLaterReads(t *testing.T) {
	t.Parallel()
	d, op := query10kDesign(t)
	tb := d.Tables[0]
	tb.Items = slices.Clone(tb.Items)
	for i := range tb.Items {
		tb.Items[i].Item = maps.Clone(tb.Items[i].Item)
	}
	fresh := designer.Design{Tables: []designer.Table{tb}}
	c := NewCache()
	first := c.RunOperation(fresh, op)
	again := c.RunOperation(fresh, op)
	if !reflect.DeepEqual(first, again) || first.Count == 0 || first.ScannedCount != 10_000 {
		t.Fatalf("first read %d items (%v units), later read %d (%v units)", first.Count, first.CapacityUnits, again.Count, again.CapacityUnits)
	}
}

// withItem returns a copy of items with item i's attributes replaced, as an edit of one cell does.
func withItem(items []designer.SampleItem, i int, it designer.Item) []designer.SampleItem {
	out := slices.Clone(items)
	out[i] = designer.SampleItem{ID: items[i].ID, Item: it}
	return out
}

// A Cache remembers each index's entries, and a Cache made For the next revision keeps those of
// the tables an edit left alone: every read of the HR example's mapped operations, and a Scan of
// each GSI, answers the same through either as without one, and so does each GSI's grid view, before and after edits of a GSI's key
// value, of projected attributes, of a table's and an index's key schema.
func TestCache_indexEntriesFollowEdits(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	var ops []designer.Operation
	for _, p := range d.Patterns {
		for _, op := range p.Mapping.Operations {
			if !designer.IsWriteOp(op.Op) {
				ops = append(ops, op)
			}
		}
	}
	for _, ix := range d.Tables[0].GSIs {
		ops = append(ops, designer.Operation{Op: "Scan", Table: d.Tables[0].Name, Index: ix.Name})
	}
	ops = append(ops, designer.Operation{Op: "Query", Table: d.Tables[0].Name, Index: "EmployeesByTitle", KeyCondition: "current_title = :t",
		Values: map[string]designer.Value{":t": designer.Str("Senior Staff")}})
	c := NewCache()
	check := func(step string) {
		t.Helper()
		for _, op := range ops {
			if got, want := c.RunOperation(d, op), RunOperation(d, op); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s on %s %s through the Cache: %+v, want %+v", step, op.Op, op.Table, op.Index, got, want)
			}
		}
		for _, tb := range d.Tables {
			for _, ix := range tb.GSIs {
				if got, want := c.IndexItems(tb, ix, false), IndexItems(tb, ix, false); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the view of %s through the Cache: %+v, want %+v", step, ix.Name, got, want)
				}
			}
		}
	}
	check("first read")
	check("second read")
	emp := d.Tables[0]
	for _, ch := range []designer.Change{
		designer.SetItemCell{Table: emp.Name, ID: emp.Items[0].ID, Attribute: "current_title", Text: "Chief"},
		designer.SetItemCell{Table: emp.Name, ID: emp.Items[1].ID, Attribute: "last_name", Text: "Zed"},
		designer.SetItemCell{Table: emp.Name, ID: emp.Items[4].ID, Attribute: "last_name", Text: "Aaron"},
		designer.SetItemCell{Table: emp.Name, ID: emp.Items[2].ID, Attribute: "dept_no", Text: ""},
		designer.SetTableKey{Table: emp.Name, Which: "sort", Name: "hire_date", Type: "S"},
		designer.SetIndexKey{Table: emp.Name, Index: "EmployeesByTitle", PartitionKey: []designer.KeyAttribute{{Name: "current_title", Type: designer.S}}, SortKey: []designer.KeyAttribute{{Name: "last_name", Type: designer.S}}},
	} {
		next, err := ch.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", ch.Kind(), err)
		}
		d, c = next, c.For(next)
		check(ch.Kind())
	}
	if c.Bytes() <= 0 {
		t.Fatal("a Cache holding index entries estimates no bytes")
	}
}
