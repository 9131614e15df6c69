package designer

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// bigItemsDesign is one partition of n items, each with a string of size bytes.
func bigItemsDesign(n, size int) Design {
	t := Table{Name: "Blobs", PartitionKey: KeyAttribute{Name: "pk", Type: S}, SortKey: &KeyAttribute{Name: "sk", Type: S}}
	for i := range n {
		t.Items = append(t.Items, SampleItem{ID: fmt.Sprint(i), Item: Item{
			"pk": Str("P"), "sk": Str(fmt.Sprintf("I%03d", i)), "data": Str(strings.Repeat("x", size)), "n": Num(fmt.Sprint(i)),
		}})
	}
	return Design{Tables: []Table{t}}
}

func TestQuery_pageEndsAfterTheItemThatReachesOneMegabyte(t *testing.T) {
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
	d := bigItemsDesign(3, 5_000)
	out, err := EvaluateJSON(d, "Query", []byte(`{"TableName":"Blobs","KeyConditionExpression":"pk = :p","FilterExpression":"n > :z","ExpressionAttributeValues":{":p":{"S":"P"},":z":{"N":"9"}},"ReturnConsumedCapacity":"TOTAL"}`))
	if err != nil {
		t.Fatal(err)
	}
	// 3 × 5,012 bytes = 15,036 → 16 KB → 4 units, halved for an eventually consistent read.
	if !strings.Contains(string(out), `"ConsumedCapacity":{"CapacityUnits":2,"TableName":"Blobs"}`) || !strings.Contains(string(out), `"Count":0`) {
		t.Errorf("got %s", out)
	}
	res := RunOperation(d, Operation{Op: "Query", Table: "Blobs", KeyCondition: "pk = :p", Values: map[string]Value{":p": Str("P")}, Consistent: true})
	if res.CapacityUnits != 4 {
		t.Errorf("strongly consistent units = %v, want 4", res.CapacityUnits)
	}
}

func TestRunOperation_readsLikeEvaluateJSON(t *testing.T) {
	d := evalDesign()
	limit := 2
	res := RunOperation(d, Operation{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#s = :s",
		Filter: "customer = :c", Projection: "sk, #t", Limit: &limit, Descending: true,
		Names: map[string]string{"#s": "status", "#t": "total"}, Values: map[string]Value{":s": Str("OPEN"), ":c": Str("bob")}})
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	want := []Item{{"sk": Str("ORDER#002"), "total": Num("99.9")}}
	if !reflect.DeepEqual(res.Items, want) || res.Count != 1 || res.ScannedCount != 2 || !valuesEqual(res.LastEvaluatedKey["total"], Num("30.5")) {
		t.Errorf("got %+v", res)
	}
	if res.CapacityUnits != 0.5 {
		t.Errorf("GSI units = %v, want 0.5", res.CapacityUnits)
	}
}

func TestRunOperation_getItemTakesItsKeyFromTheKeyCondition(t *testing.T) {
	d := evalDesign()
	res := RunOperation(d, Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :pk AND #sk = :sk", Projection: "#n",
		Names: map[string]string{"#sk": "sk", "#n": "name"}, Values: map[string]Value{":pk": Str("C#1"), ":sk": Str("PROFILE")}})
	if res.Error != "" || len(res.Items) != 1 || !valuesEqual(res.Items[0]["name"], Str("Ann")) || res.CapacityUnits != 0.5 {
		t.Errorf("got %+v", res)
	}
	res = RunOperation(d, Operation{Op: "BatchGetItem", Table: "Orders", KeyCondition: "pk = :pk AND sk IN (:a, :b)",
		Values: map[string]Value{":pk": Str("C#1"), ":a": Str("PROFILE"), ":b": Str("ORDER#001")}})
	if res.Error != "" || res.Count != 2 {
		t.Errorf("BatchGetItem got %+v", res)
	}
	res = RunOperation(d, Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :pk", Values: map[string]Value{":pk": Str("C#1")}})
	if res.Error != "ValidationException: The provided key element does not match the schema" {
		t.Errorf("GetItem without the sort key: %q", res.Error)
	}
}

func TestRunOperation_reportsDynamoDBErrors(t *testing.T) {
	res := RunOperation(evalDesign(), Operation{Op: "Query", Table: "Orders", KeyCondition: "pk = :p AND begins_with(sk, :s)",
		Values: map[string]Value{":p": Str("C#1")}})
	if !strings.Contains(res.Error, "attribute value: :s") {
		t.Errorf("Error = %q", res.Error)
	}
}

func TestQuery_multiAttributeGSIKeys(t *testing.T) {
	d := evalDesign()
	tb := &d.Tables[0]
	tb.GSIs = append(tb.GSIs, Index{Name: "ByCustomerStatus",
		PartitionKey: []KeyAttribute{{Name: "customer", Type: S}, {Name: "status", Type: S}},
		SortKey:      []KeyAttribute{{Name: "total", Type: N}, {Name: "sk", Type: S}}, Projection: Projection{Type: All}})
	res := RunOperation(d, Operation{Op: "Query", Table: "Orders", Index: "ByCustomerStatus",
		KeyCondition: "customer = :c AND #s = :s AND #t >= :t", Names: map[string]string{"#s": "status", "#t": "total"},
		Values: map[string]Value{":c": Str("ann"), ":s": Str("OPEN"), ":t": Num("10")}})
	if res.Error != "" || res.Count != 2 || !valuesEqual(res.Items[0]["sk"], Str("ORDER#002")) {
		t.Errorf("got %+v", res)
	}
	res = RunOperation(d, Operation{Op: "Query", Table: "Orders", Index: "ByCustomerStatus",
		KeyCondition: "customer = :c AND sk = :k", Values: map[string]Value{":c": Str("ann"), ":k": Str("x")}})
	if !strings.Contains(res.Error, "missed key schema element: status") {
		t.Errorf("Error = %q", res.Error)
	}
}

func TestFixedNumber(t *testing.T) {
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
	item := Item{"a": Num("1"), "b": Map(map[string]Value{"c": List(Str("x"), Num("2"))}), "l": List(Num("1")), "m": Null()}
	f.Fuzz(func(t *testing.T, s string) {
		ctx := newExprContext(map[string]string{"#n": "a"}, map[string]Value{":v": Num("1"), ":w": Str("b"), ":t": Str("N")})
		if e, _, msg := parseCondition(s, ctx); msg == "" {
			evalCondition(e, item)
			_, _, _ = keyConditions(e)
		}
		if paths, _, msg := parseProjection(s, ctx); msg == "" {
			projectItem(item, paths)
		}
	})
}

// query10kDesign is a table with one 10,000-item partition and a Query reading it with a filter.
func query10kDesign(b testing.TB) (Design, Operation) {
	b.Helper()
	t := Table{Name: "Events", PartitionKey: KeyAttribute{Name: "pk", Type: S}, SortKey: &KeyAttribute{Name: "sk", Type: S}}
	for i := range 10_000 {
		t.Items = append(t.Items, SampleItem{ID: fmt.Sprint(i), Item: Item{
			"pk": Str("TENANT#1"), "sk": Str(fmt.Sprintf("EVENT#%05d", (i*7919)%10_000)), "kind": Str([]string{"click", "view", "buy"}[i%3]),
			"amount": Num(fmt.Sprint(i % 250)),
		}})
	}
	d := Design{Tables: []Table{t}}
	op := Operation{Op: "Query", Table: "Events", KeyCondition: "pk = :p AND begins_with(sk, :e)", Filter: "kind = :k AND amount > :a",
		Values: map[string]Value{":p": Str("TENANT#1"), ":e": Str("EVENT#"), ":k": Str("buy"), ":a": Num("100")}}
	if res := RunOperation(d, op); res.Error != "" || res.ScannedCount != 10_000 {
		b.Fatalf("%+v", res.Error)
	}
	return d, op
}

// BenchmarkQuery10kPartitionWithFilter measures repeated queries against a design that does not
// change between them, as the server runs them between edits.
func BenchmarkQuery10kPartitionWithFilter(b *testing.B) {
	d, op := query10kDesign(b)
	b.ReportAllocs()
	for b.Loop() {
		RunOperation(d, op)
	}
}

// BenchmarkQuery10kPartitionWithFilterAfterEdit measures the first query after an edit of one
// of the partition's items: every iteration sees a new items slice in which one item is a new map,
// as SetItemCell makes it.
func BenchmarkQuery10kPartitionWithFilterAfterEdit(b *testing.B) {
	d, op := query10kDesign(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		t := d.Tables[0]
		n = (n + 7) % len(t.Items)
		edited := maps.Clone(t.Items[n].Item)
		edited["note"] = Str(fmt.Sprint("edit ", n))
		t.Items = replaceAt(t.Items, n, SampleItem{ID: t.Items[n].ID, Item: edited})
		d = Design{Tables: []Table{t}}
		b.StartTimer()
		if res := RunOperation(d, op); res.ScannedCount != 10_000 {
			b.Fatalf("%+v", res.Error)
		}
	}
}

// BenchmarkQuery10kPartitionWithFilterCold measures a query of a design none of whose items has
// been read before, as after a restart: every iteration sees every item as a new map.
func BenchmarkQuery10kPartitionWithFilterCold(b *testing.B) {
	d, op := query10kDesign(b)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		t := d.Tables[0]
		t.Items = slices.Clone(t.Items)
		for i := range t.Items {
			t.Items[i].Item = maps.Clone(t.Items[i].Item)
		}
		fresh := Design{Tables: []Table{t}}
		// Collect the previous iteration's copies now, so that their garbage is not charged to
		// this query.
		runtime.GC()
		b.StartTimer()
		if res := RunOperation(fresh, op); res.ScannedCount != 10_000 {
			b.Fatalf("%+v", res.Error)
		}
	}
}

func TestIsFixedNumber(t *testing.T) {
	for _, s := range []string{"0", "7", "-7", "1.5", "0.0012", "-12.34", "1.50", "1E3", "-0", "007", "1.", ".5", "", "-", "1.5e2", "10"} {
		if _, ok := parseDecimal(s); !ok {
			continue
		}
		if got, want := isFixedNumber(s), fixedNumber(s) == s; got != want {
			t.Errorf("isFixedNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

// The measurements remembered for a table's items are those of the items the read sees: a
// changed design (which has a new items slice) is measured afresh, and concurrent reads agree.
func TestReadMeasureMemo(t *testing.T) {
	d := bigItemsDesign(40, 100)
	op := Operation{Op: "Query", Table: d.Tables[0].Name, KeyCondition: "pk = :p", Values: map[string]Value{":p": d.Tables[0].Items[0].Item["pk"]}}
	first := RunOperation(d, op)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if again := RunOperation(d, op); !reflect.DeepEqual(again, first) {
				t.Errorf("repeated read differs: %+v, want %+v", again, first)
			}
		})
	}
	wg.Wait()
	big := maps.Clone(d.Tables[0].Items[3].Item)
	big["extra"] = Str(strings.Repeat("x", 5000))
	tb := d.Tables[0]
	tb.Items = replaceAt(tb.Items, 3, SampleItem{ID: tb.Items[3].ID, Item: big})
	changed := Design{Tables: []Table{tb}}
	got := RunOperation(changed, op)
	measureMemo.Lock()
	measureMemo.entries = nil
	measureMemo.Unlock()
	if want := RunOperation(changed, op); !reflect.DeepEqual(got, want) || got.CapacityUnits == first.CapacityUnits {
		t.Errorf("changed design: %+v, want %+v (before the change %v units)", got.CapacityUnits, want.CapacityUnits, first.CapacityUnits)
	}
}

// A large partition read for the first time is measured by two goroutines: what it returns is
// what the same read returns from remembered measurements.
func TestQueryFirstReadOfALargePartitionAgreesWithLaterReads(t *testing.T) {
	d, op := query10kDesign(t)
	tb := d.Tables[0]
	tb.Items = slices.Clone(tb.Items)
	for i := range tb.Items {
		tb.Items[i].Item = maps.Clone(tb.Items[i].Item)
	}
	fresh := Design{Tables: []Table{tb}}
	first := RunOperation(fresh, op)
	again := RunOperation(fresh, op)
	if !reflect.DeepEqual(first, again) || first.Count == 0 || first.ScannedCount != 10_000 {
		t.Fatalf("first read %d items (%v units), later read %d (%v units)", first.Count, first.CapacityUnits, again.Count, again.CapacityUnits)
	}
}
