package dynamo

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// evalDesign is a table Orders (pk S, sk S) with a GSI ByStatus (status S, total N, INCLUDE
// customer), a sparse GSI ByFlag (flag S, KEYS_ONLY), an LSI ByTotal (total N, ALL), and a table
// Scores (game N, score B).
func evalDesign() designer.Design {
	orders := designer.Table{
		Name:         "Orders",
		PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
		GSIs: []designer.Index{
			{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
				SortKey: []designer.KeyAttribute{{Name: "total", Type: designer.N}}, Projection: designer.Projection{Type: designer.Include, Attributes: []string{"customer"}}},
			{Name: "ByFlag", PartitionKey: []designer.KeyAttribute{{Name: "flag", Type: designer.S}}, Projection: designer.Projection{Type: designer.KeysOnly}},
		},
		LSIs: []designer.Index{{Name: "ByTotal", SortKey: []designer.KeyAttribute{{Name: "total", Type: designer.N}}, Projection: designer.Projection{Type: designer.All}}},
	}
	add := func(t *designer.Table, it designer.Item) {
		t.Items = append(t.Items, designer.SampleItem{ID: fmt.Sprint(len(t.Items)), Item: it})
	}
	add(&orders, designer.Item{"pk": designer.Str("C#1"), "sk": designer.Str("ORDER#003"), "status": designer.Str("OPEN"), "total": designer.Num("30.50"), "customer": designer.Str("ann"),
		"tags": designer.Value{Type: designer.SS, SS: []string{"gift", "rush"}}, "parts": designer.List(designer.Map(map[string]designer.Value{"sku": designer.Str("A"), "qty": designer.Num("2")}), designer.Map(map[string]designer.Value{"sku": designer.Str("B"), "qty": designer.Num("1")}))})
	add(&orders, designer.Item{"pk": designer.Str("C#1"), "sk": designer.Str("ORDER#001"), "status": designer.Str("SHIPPED"), "total": designer.Num("10"), "customer": designer.Str("ann"), "flag": designer.Str("late")})
	add(&orders, designer.Item{"pk": designer.Str("C#1"), "sk": designer.Str("ORDER#002"), "status": designer.Str("OPEN"), "total": designer.Num("1E1"), "customer": designer.Str("ann")})
	add(&orders, designer.Item{"pk": designer.Str("C#1"), "sk": designer.Str("PROFILE"), "name": designer.Str("Ann"), "email": designer.Str("ann@example.com")})
	add(&orders, designer.Item{"pk": designer.Str("C#2"), "sk": designer.Str("ORDER#001"), "status": designer.Str("OPEN"), "total": designer.Num("-5"), "customer": designer.Str("bob"), "flag": designer.Str("late")})
	add(&orders, designer.Item{"pk": designer.Str("C#2"), "sk": designer.Str("ORDER#002"), "status": designer.Str("OPEN"), "total": designer.Num("99.9"), "customer": designer.Str("bob")})
	scores := designer.Table{Name: "Scores", PartitionKey: designer.KeyAttribute{Name: "game", Type: designer.N}, SortKey: &designer.KeyAttribute{Name: "score", Type: designer.B}}
	for i, b := range [][]byte{{0x01}, {0xff}, {0x01, 0x00}, {0x80}} {
		add(&scores, designer.Item{"game": designer.Num("7"), "score": designer.Bin(b), "n": designer.Num(fmt.Sprint(i))})
	}
	return designer.Design{Name: "Shop", Tables: []designer.Table{orders, scores}}
}

type evalResponse struct {
	Item             map[string]any
	Items            []map[string]any
	Responses        map[string][]map[string]any
	Count            int
	ScannedCount     int
	LastEvaluatedKey map[string]any
	ConsumedCapacity any
}

func evalJSON(t *testing.T, d designer.Design, op, body string) evalResponse {
	t.Helper()
	out, err := EvaluateJSON(d, op, []byte(body))
	if err != nil {
		t.Fatalf("%s %s: %v", op, body, err)
	}
	var r evalResponse
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("response %s: %v", out, err)
	}
	return r
}

func evalErr(t *testing.T, d designer.Design, op, body string) *EvalError {
	t.Helper()
	out, err := EvaluateJSON(d, op, []byte(body))
	var ee *EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("%s %s: want an EvalError, got %s, %v", op, body, out, err)
	}
	return ee
}

// attr returns the text of one attribute of a decoded response item, such as "S:ORDER#001".
func attr(it map[string]any, name string) string {
	v, ok := it[name].(map[string]any)
	if !ok {
		return ""
	}
	for k, x := range v {
		return fmt.Sprintf("%s:%v", k, x)
	}
	return ""
}

func column(items []map[string]any, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = attr(it, name)
	}
	return out
}

func TestQuery_sortKeyOperators(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	tests := []struct {
		cond   string
		values string
		want   []string
	}{
		{"pk = :p", `":p":{"S":"C#1"}`, []string{"S:ORDER#001", "S:ORDER#002", "S:ORDER#003", "S:PROFILE"}},
		{"pk = :p AND sk = :s", `":p":{"S":"C#1"},":s":{"S":"ORDER#002"}`, []string{"S:ORDER#002"}},
		{"pk = :p AND sk < :s", `":p":{"S":"C#1"},":s":{"S":"ORDER#002"}`, []string{"S:ORDER#001"}},
		{"pk = :p AND sk <= :s", `":p":{"S":"C#1"},":s":{"S":"ORDER#002"}`, []string{"S:ORDER#001", "S:ORDER#002"}},
		{"pk = :p AND sk > :s", `":p":{"S":"C#1"},":s":{"S":"ORDER#002"}`, []string{"S:ORDER#003", "S:PROFILE"}},
		{"pk = :p AND sk >= :s", `":p":{"S":"C#1"},":s":{"S":"ORDER#002"}`, []string{"S:ORDER#002", "S:ORDER#003", "S:PROFILE"}},
		{"pk = :p AND sk BETWEEN :a AND :b", `":p":{"S":"C#1"},":a":{"S":"ORDER#002"},":b":{"S":"ORDER#003"}`, []string{"S:ORDER#002", "S:ORDER#003"}},
		{"pk = :p AND begins_with(sk, :s)", `":p":{"S":"C#1"},":s":{"S":"ORDER#"}`, []string{"S:ORDER#001", "S:ORDER#002", "S:ORDER#003"}},
		{":s < sk AND pk = :p", `":p":{"S":"C#1"},":s":{"S":"ORDER#002"}`, []string{"S:ORDER#003", "S:PROFILE"}},
		{"pk = :p", `":p":{"S":"C#9"}`, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.cond, func(t *testing.T) {
			r := evalJSON(t, d, "Query", `{"TableName":"Orders","KeyConditionExpression":"`+tc.cond+`","ExpressionAttributeValues":{`+tc.values+`}}`)
			if got := column(r.Items, "sk"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("sk = %v, want %v", got, tc.want)
			}
			if r.Count != len(tc.want) || r.ScannedCount != len(tc.want) || r.LastEvaluatedKey != nil {
				t.Errorf("Count %d ScannedCount %d LEK %v", r.Count, r.ScannedCount, r.LastEvaluatedKey)
			}
		})
	}
}

func TestQuery_numberAndBinarySortKeysOrderByValue(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	r := evalJSON(t, d, "Query", `{"TableName":"Orders","IndexName":"ByTotal","KeyConditionExpression":"pk = :p AND #t > :min","ExpressionAttributeNames":{"#t":"total"},"ExpressionAttributeValues":{":p":{"S":"C#1"},":min":{"N":"9.99"}}}`)
	if got, want := column(r.Items, "total"), []string{"N:10", "N:10", "N:30.5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LSI totals = %v, want %v (numbers in DynamoDB's spelling)", got, want)
	}
	r = evalJSON(t, d, "Query", `{"TableName":"Scores","KeyConditionExpression":"game = :g","ExpressionAttributeValues":{":g":{"N":"7.0"}},"ScanIndexForward":false}`)
	if got, want := column(r.Items, "score"), []string{"B:/w==", "B:gA==", "B:AQA=", "B:AQ=="}; !reflect.DeepEqual(got, want) {
		t.Errorf("binary scores descending = %v, want %v", got, want)
	}
	r = evalJSON(t, d, "Query", `{"TableName":"Scores","KeyConditionExpression":"game = :g AND begins_with(score, :b)","ExpressionAttributeValues":{":g":{"N":"7"},":b":{"B":"AQ=="}}}`)
	if got, want := column(r.Items, "score"), []string{"B:AQ==", "B:AQA="}; !reflect.DeepEqual(got, want) {
		t.Errorf("binary begins_with = %v, want %v", got, want)
	}
}

func TestQuery_gsiSeesProjectedAttributesAndSparseEntries(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	r := evalJSON(t, d, "Query", `{"TableName":"Orders","IndexName":"ByStatus","KeyConditionExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"OPEN"}}}`)
	if got, want := column(r.Items, "total"), []string{"N:-5", "N:10", "N:30.5", "N:99.9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("totals = %v, want %v", got, want)
	}
	for _, it := range r.Items {
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range it {
				if !yield(k) {
					return
				}
			}
		})
		if want := []string{"customer", "pk", "sk", "status", "total"}; !reflect.DeepEqual(names, want) {
			t.Errorf("entry attributes = %v, want %v", names, want)
		}
	}
	r = evalJSON(t, d, "Scan", `{"TableName":"Orders","IndexName":"ByFlag"}`)
	if r.Count != 2 || r.ScannedCount != 2 {
		t.Errorf("sparse index holds %d entries, want 2", r.Count)
	}
	for _, it := range r.Items {
		if len(it) != 3 {
			t.Errorf("KEYS_ONLY entry %v has attributes beyond the keys", it)
		}
	}
}

func TestQuery_limitCountsItemsBeforeTheFilterAndPagesRoundTrip(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	base := `"TableName":"Orders","KeyConditionExpression":"pk = :p","FilterExpression":"customer = :c","ExpressionAttributeValues":{":p":{"S":"C#1"},":c":{"S":"ann"}},"Limit":2`
	var got []string
	var pages []int
	start := ""
	for range 10 {
		r := evalJSON(t, d, "Query", "{"+base+start+"}")
		got = append(got, column(r.Items, "sk")...)
		pages = append(pages, r.ScannedCount)
		if r.LastEvaluatedKey == nil {
			break
		}
		if len(r.LastEvaluatedKey) != 2 {
			t.Fatalf("LastEvaluatedKey %v, want the table keys", r.LastEvaluatedKey)
		}
		lek, _ := json.Marshal(r.LastEvaluatedKey)
		start = `,"ExclusiveStartKey":` + string(lek)
	}
	if want := []string{"S:ORDER#001", "S:ORDER#002", "S:ORDER#003"}; !reflect.DeepEqual(got, want) {
		t.Errorf("items over all pages = %v, want %v", got, want)
	}
	// Four items: pages of 2 and 2, and a last empty page because the second stopped at Limit.
	if want := []int{2, 2, 0}; !reflect.DeepEqual(pages, want) {
		t.Errorf("ScannedCount per page = %v, want %v", pages, want)
	}
}

func TestQuery_descendingPagesResumeBeforeTheStartKey(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	r := evalJSON(t, d, "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"C#1"}},"ScanIndexForward":false,"Limit":1,
		"ExclusiveStartKey":{"pk":{"S":"C#1"},"sk":{"S":"ORDER#003"}}}`)
	if got := column(r.Items, "sk"); !reflect.DeepEqual(got, []string{"S:ORDER#002"}) {
		t.Errorf("got %v, want ORDER#002", got)
	}
	if attr(r.LastEvaluatedKey, "sk") != "S:ORDER#002" {
		t.Errorf("LastEvaluatedKey = %v", r.LastEvaluatedKey)
	}
}

func TestQuery_indexLastEvaluatedKeyHoldsTableAndIndexKeys(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	r := evalJSON(t, d, "Query", `{"TableName":"Orders","IndexName":"ByStatus","KeyConditionExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"OPEN"}},"Limit":1}`)
	want := map[string]any{"pk": map[string]any{"S": "C#2"}, "sk": map[string]any{"S": "ORDER#001"},
		"status": map[string]any{"S": "OPEN"}, "total": map[string]any{"N": "-5"}}
	if !reflect.DeepEqual(r.LastEvaluatedKey, want) {
		t.Errorf("LastEvaluatedKey = %v, want %v", r.LastEvaluatedKey, want)
	}
}

func TestScan_pagesCoverEveryItemOnce(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	seen := map[string]int{}
	start := ""
	for range 20 {
		r := evalJSON(t, d, "Scan", `{"TableName":"Orders","Limit":2`+start+`}`)
		for _, it := range r.Items {
			seen[attr(it, "pk")+" "+attr(it, "sk")]++
		}
		if r.LastEvaluatedKey == nil {
			break
		}
		lek, _ := json.Marshal(r.LastEvaluatedKey)
		start = `,"ExclusiveStartKey":` + string(lek)
	}
	if len(seen) != 6 {
		t.Errorf("scan pages saw %d items, want 6: %v", len(seen), seen)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", k, n)
		}
	}
}

func TestScan_ordersLikeDynalite(t *testing.T) {
	t.Parallel()
	// dynalite keys items by MD5("Outliers"+partition bytes)[:6]; these vectors come from its
	// db.hashPrefix.
	cases := []struct {
		vals []designer.Value
		want string
	}{
		{[]designer.Value{designer.Str("abc")}, "12db4f"},
		{[]designer.Value{designer.Num("1")}, "c3a031"},
		{[]designer.Value{designer.Num("0")}, "ce212d"},
		{[]designer.Value{designer.Num("-1")}, "0267df"},
		{[]designer.Value{designer.Num("12.5")}, "472398"},
		{[]designer.Value{designer.Num("-0.05")}, "773bbc"},
		{[]designer.Value{designer.Num("123456")}, "c9ff63"},
		{[]designer.Value{designer.Num("1e20")}, "860291"},
		{[]designer.Value{designer.Num("-98765.4321")}, "026270"},
		{[]designer.Value{designer.Str("abc"), designer.Str("x")}, "ce6205"},
		{[]designer.Value{designer.Str("abc"), designer.Num("5")}, "95c316"},
		{[]designer.Value{designer.Bin([]byte{1, 2, 3})}, "546e05"},
	}
	for _, c := range cases {
		if got := hashPrefix(c.vals...); got != c.want {
			t.Errorf("hashPrefix(%v) = %s, want %s", c.vals, got, c.want)
		}
	}
}

func TestFilter_operatorsAndFunctions(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	tests := []struct {
		filter, names, values string
		want                  []string
	}{
		{"customer = :v", ``, `":v":{"S":"bob"}`, []string{"C#2 S:ORDER#001", "C#2 S:ORDER#002"}},
		{"customer <> :v", ``, `":v":{"S":"bob"}`, []string{"C#1 S:ORDER#001", "C#1 S:ORDER#002", "C#1 S:ORDER#003", "C#1 S:PROFILE"}},
		{"#t < :v", `"#t":"total"`, `":v":{"N":"10"}`, []string{"C#2 S:ORDER#001"}},
		{"#t <= :v", `"#t":"total"`, `":v":{"N":"10.0"}`, []string{"C#1 S:ORDER#001", "C#1 S:ORDER#002", "C#2 S:ORDER#001"}},
		{"#t > :v", `"#t":"total"`, `":v":{"N":"30.5"}`, []string{"C#2 S:ORDER#002"}},
		{"#t >= :v", `"#t":"total"`, `":v":{"N":"30.5"}`, []string{"C#1 S:ORDER#003", "C#2 S:ORDER#002"}},
		{"#t BETWEEN :a AND :b", `"#t":"total"`, `":a":{"N":"-5"},":b":{"N":"10"}`, []string{"C#1 S:ORDER#001", "C#1 S:ORDER#002", "C#2 S:ORDER#001"}},
		{"#t IN (:a, :b)", `"#t":"total"`, `":a":{"N":"99.90"},":b":{"S":"10"}`, []string{"C#2 S:ORDER#002"}},
		{"attribute_exists(flag)", ``, ``, []string{"C#1 S:ORDER#001", "C#2 S:ORDER#001"}},
		{"attribute_not_exists(#s)", `"#s":"status"`, ``, []string{"C#1 S:PROFILE"}},
		{"attribute_type(tags, :t)", ``, `":t":{"S":"SS"}`, []string{"C#1 S:ORDER#003"}},
		{"begins_with(email, :p)", ``, `":p":{"S":"ann@"}`, []string{"C#1 S:PROFILE"}},
		{"contains(tags, :v)", ``, `":v":{"S":"rush"}`, []string{"C#1 S:ORDER#003"}},
		{"contains(email, :v)", ``, `":v":{"S":"example"}`, []string{"C#1 S:PROFILE"}},
		{"size(parts) = :n", ``, `":n":{"N":"2"}`, []string{"C#1 S:ORDER#003"}},
		{"size(customer) > :n", ``, `":n":{"N":"2"}`, []string{"C#1 S:ORDER#001", "C#1 S:ORDER#002", "C#1 S:ORDER#003", "C#2 S:ORDER#001", "C#2 S:ORDER#002"}},
		{"parts[1].sku = :v", ``, `":v":{"S":"B"}`, []string{"C#1 S:ORDER#003"}},
		{"parts[0].qty > :v", ``, `":v":{"N":"1"}`, []string{"C#1 S:ORDER#003"}},
		{"NOT customer = :v", ``, `":v":{"S":"ann"}`, []string{"C#1 S:PROFILE", "C#2 S:ORDER#001", "C#2 S:ORDER#002"}},
		// AND binds tighter than OR; NOT tighter than AND.
		{"customer = :b OR flag = :l AND #t > :z", `"#t":"total"`, `":b":{"S":"bob"},":l":{"S":"late"},":z":{"N":"0"}`, []string{"C#1 S:ORDER#001", "C#2 S:ORDER#001", "C#2 S:ORDER#002"}},
		{"(customer = :b OR flag = :l) AND #t > :z", `"#t":"total"`, `":b":{"S":"bob"},":l":{"S":"late"},":z":{"N":"0"}`, []string{"C#1 S:ORDER#001", "C#2 S:ORDER#002"}},
		{"NOT attribute_exists(flag) AND customer = :b", ``, `":b":{"S":"bob"}`, []string{"C#2 S:ORDER#002"}},
	}
	for _, tc := range tests {
		t.Run(tc.filter, func(t *testing.T) {
			body := `{"TableName":"Orders","FilterExpression":"` + tc.filter + `"`
			if tc.names != "" {
				body += `,"ExpressionAttributeNames":{` + tc.names + `}`
			}
			if tc.values != "" {
				body += `,"ExpressionAttributeValues":{` + tc.values + `}`
			}
			r := evalJSON(t, d, "Scan", body+"}")
			var got []string
			for _, it := range r.Items {
				got = append(got, strings.TrimPrefix(attr(it, "pk"), "S:")+" "+attr(it, "sk"))
			}
			slices.Sort(got)
			if !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if r.ScannedCount != 6 {
				t.Errorf("ScannedCount %d, want 6", r.ScannedCount)
			}
		})
	}
}

func TestProjection_nestedPaths(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	r := evalJSON(t, d, "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"C#1"},"sk":{"S":"ORDER#003"}},"ProjectionExpression":"parts[1].sku, parts[0].qty, #t, absent","ExpressionAttributeNames":{"#t":"total"}}`)
	got, _ := json.Marshal(r.Item)
	want := `{"parts":{"L":[{"M":{"qty":{"N":"2"}}},{"M":{"sku":{"S":"B"}}}]},"total":{"N":"30.5"}}`
	if string(got) != want {
		t.Errorf("projected item = %s, want %s", got, want)
	}
}

func TestGetItem_missingItemHasNoItemAndCostsHalfAUnit(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	out, err := EvaluateJSON(d, "GetItem", []byte(`{"TableName":"Orders","Key":{"pk":{"S":"C#1"},"sk":{"S":"NOPE"}},"ReturnConsumedCapacity":"TOTAL"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ConsumedCapacity":{"CapacityUnits":0.5,"TableName":"Orders"}}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

func TestBatchGetItem_returnsFoundItemsPerTable(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	r := evalJSON(t, d, "BatchGetItem", `{"RequestItems":{"Orders":{"Keys":[{"pk":{"S":"C#1"},"sk":{"S":"PROFILE"}},{"pk":{"S":"C#3"},"sk":{"S":"X"}}],"ProjectionExpression":"#n","ExpressionAttributeNames":{"#n":"name"}},
		"Scores":{"Keys":[{"game":{"N":"7"},"score":{"B":"/w=="}}],"ConsistentRead":true}},"ReturnConsumedCapacity":"TOTAL"}`)
	if len(r.Responses["Orders"]) != 1 || attr(r.Responses["Orders"][0], "name") != "S:Ann" || len(r.Responses["Orders"][0]) != 1 {
		t.Errorf("Orders = %v", r.Responses["Orders"])
	}
	if len(r.Responses["Scores"]) != 1 {
		t.Errorf("Scores = %v", r.Responses["Scores"])
	}
	want := []any{map[string]any{"CapacityUnits": 1.0, "TableName": "Orders"}, map[string]any{"CapacityUnits": 1.0, "TableName": "Scores"}}
	if !reflect.DeepEqual(r.ConsumedCapacity, want) {
		t.Errorf("ConsumedCapacity = %v, want %v", r.ConsumedCapacity, want)
	}
}

func TestEvaluate_errors(t *testing.T) {
	t.Parallel()
	d := evalDesign()
	const p = `"ExpressionAttributeValues":{":p":{"S":"C#1"}}`
	tests := []struct {
		name, op, body, typ, msg string
	}{
		{"unknown table", "Query", `{"TableName":"Nope","KeyConditionExpression":"pk = :p",` + p + `}`, "ResourceNotFoundException", "Requested resource not found"},
		{"unknown index", "Query", `{"TableName":"Orders","IndexName":"Nope","KeyConditionExpression":"pk = :p",` + p + `}`, "ValidationException", "The table does not have the specified index: Nope"},
		{"consistent GSI", "Query", `{"TableName":"Orders","IndexName":"ByFlag","ConsistentRead":true,"KeyConditionExpression":"flag = :p",` + p + `}`, "ValidationException", "Consistent reads are not supported on global secondary indexes"},
		{"missing table name", "Scan", `{}`, "ValidationException", "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"limit zero", "Scan", `{"TableName":"Orders","Limit":0}`, "ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"no key condition", "Query", `{"TableName":"Orders"}`, "ValidationException", "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
		{"undefined value", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :q",` + p + `}`, "ValidationException", "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :q"},
		{"undefined name", "Scan", `{"TableName":"Orders","FilterExpression":"#x = :p",` + p + `}`, "ValidationException", "Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #x"},
		{"unused value", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"C#1"},":z":{"S":"x"},":y":{"S":"y"}}}`, "ValidationException", "Value provided in ExpressionAttributeValues unused in expressions: keys: {:z, :y}"},
		{"unused name", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeNames":{"#a":"a"},` + p + `}`, "ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
		{"reserved word", "Scan", `{"TableName":"Orders","FilterExpression":"status = :p",` + p + `}`, "ValidationException", "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		{"syntax", "Scan", `{"TableName":"Orders","FilterExpression":"customer = = :p",` + p + `}`, "ValidationException", `Invalid FilterExpression: Syntax error; token: "=", near: "= = :p"`},
		{"empty expression", "Scan", `{"TableName":"Orders","FilterExpression":"",` + p + `}`, "ValidationException", "Invalid FilterExpression: The expression can not be empty;"},
		{"redundant parens", "Scan", `{"TableName":"Orders","FilterExpression":"((customer = :p))",` + p + `}`, "ValidationException", "Invalid FilterExpression: The expression has redundant parentheses;"},
		{"unknown function", "Scan", `{"TableName":"Orders","FilterExpression":"starts_with(customer, :p)",` + p + `}`, "ValidationException", "Invalid FilterExpression: Invalid function name; function: starts_with"},
		{"same operands", "Scan", `{"TableName":"Orders","FilterExpression":"customer = customer"}`, "ValidationException", "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [customer]"},
		{"begins_with on number", "Scan", `{"TableName":"Orders","FilterExpression":"begins_with(customer, :n)","ExpressionAttributeValues":{":n":{"N":"1"}}}`, "ValidationException", "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"partition range", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk > :p",` + p + `}`, "ValidationException", "Query key condition not supported"},
		{"missing partition", "Query", `{"TableName":"Orders","KeyConditionExpression":"sk = :p",` + p + `}`, "ValidationException", "Query condition missed key schema element: pk"},
		{"non-key attribute", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p AND customer = :p",` + p + `}`, "ValidationException", "Query condition missed key schema element: sk"},
		{"two sort conditions", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p AND sk > :p AND sk < :p",` + p + `}`, "ValidationException", "KeyConditionExpressions must only contain one condition per key"},
		{"OR in key condition", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p OR sk = :p",` + p + `}`, "ValidationException", "Invalid operator used in KeyConditionExpression: OR"},
		{"wrong key type", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :n","ExpressionAttributeValues":{":n":{"N":"1"}}}`, "ValidationException", "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"filter on key", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p","FilterExpression":"sk = :p",` + p + `}`, "ValidationException", "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"},
		{"GetItem missing key part", "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"C#1"}}}`, "ValidationException", "The provided key element does not match the schema"},
		{"GetItem wrong key type", "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"C#1"},"sk":{"N":"1"}}}`, "ValidationException", "The provided key element does not match the schema"},
		{"GetItem empty key", "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":""},"sk":{"S":"x"}}}`, "ValidationException", "One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{"nested key path", "Scan", `{"TableName":"Orders","ProjectionExpression":"pk.x"}`, "ValidationException", "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk"},
		{"projection overlap", "Scan", `{"TableName":"Orders","ProjectionExpression":"parts, parts[0]"}`, "ValidationException", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [parts], path two: [parts, [0]]"},
		{"start key outside partition", "Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p",` + p + `,"ExclusiveStartKey":{"pk":{"S":"C#2"},"sk":{"S":"A"}}}`, "ValidationException", "The provided starting key is outside query boundaries based on provided conditions"},
		{"start key incomplete", "Scan", `{"TableName":"Orders","ExclusiveStartKey":{"pk":{"S":"C#2"}}}`, "ValidationException", "The provided starting key is invalid: The provided key element does not match the schema"},
		{"values without expression", "Scan", `{"TableName":"Orders",` + p + `}`, "ValidationException", "ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null"},
		{"between bounds reversed", "Scan", `{"TableName":"Orders","FilterExpression":"customer BETWEEN :b AND :a","ExpressionAttributeValues":{":a":{"S":"a"},":b":{"S":"b"}}}`, "ValidationException", "Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},
		{"batch duplicates", "BatchGetItem", `{"RequestItems":{"Orders":{"Keys":[{"pk":{"S":"a"},"sk":{"S":"b"}},{"pk":{"S":"a"},"sk":{"S":"b"}}]}}}`, "ValidationException", "Provided list of item keys contains duplicates"},
		{"batch unknown table", "BatchGetItem", `{"RequestItems":{"Nope":{"Keys":[{"pk":{"S":"a"}}]}}}`, "ResourceNotFoundException", "Requested resource not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ee := evalErr(t, d, tc.op, tc.body)
			if ee.Type != tc.typ || ee.Message != tc.msg {
				t.Errorf("got %s: %s\nwant %s: %s", ee.Type, ee.Message, tc.typ, tc.msg)
			}
		})
	}
}
