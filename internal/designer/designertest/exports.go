package designertest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// update is the one -update flag: golden files are rewritten from what the code now gives.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Updating reports whether the test run was asked to rewrite what it compares against (-update).
func Updating() bool { return *update }

// Golden compares got with the file at path, rewriting it first under -update.
func Golden(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -run %s -update to create it)", err, tb.Name())
	}
	if !bytes.Equal(want, got) {
		tb.Fatalf("export differs from %s (run with -update if the change is intended):\n%s", path, FirstDifference(want, got))
	}
}

// OrdersDesign exercises the table exports (CloudFormation, MCP model): a PROVISIONED table with TTL, a multi-attribute
// GSI, an INCLUDE list with repeats and key attributes, an INCLUDE of keys alone, a KEYS_ONLY GSI
// and an LSI; two tables whose names give the same logical id; a binary key; and sample values and
// mapping placeholders with quotes, braces, $(…), backquotes and newlines.
func OrdersDesign() designer.Design {
	str := func(name string, t designer.Type) designer.KeyAttribute {
		return designer.KeyAttribute{Name: name, Type: t}
	}
	five, three := int64(5), int64(3)
	limit := 25
	return designer.Normalize(designer.Design{
		Name: `Orders "export" — it's $(rm -rf ~)`,
		Tables: []designer.Table{
			{
				Name:         "orders.v2-main",
				PartitionKey: str("tenant_id", designer.S),
				SortKey:      &designer.KeyAttribute{Name: "order_key", Type: designer.S},
				TTLAttribute: "expires_at",
				BillingMode:  designer.Provisioned,
				ReadUnits:    &five,
				WriteUnits:   &three,
				GSIs: []designer.Index{
					{
						Name:         "ByStatus",
						PartitionKey: []designer.KeyAttribute{str("tenant_id", designer.S), str("status", designer.S)},
						SortKey:      []designer.KeyAttribute{str("created_at", designer.N), str("order_id", designer.S)},
						Projection:   designer.Projection{Type: designer.Include, Attributes: []string{"total", "note", "status", "total"}},
					},
					{Name: "ByCustomer", PartitionKey: []designer.KeyAttribute{str("customer_id", designer.S)}, Projection: designer.Projection{Type: designer.KeysOnly}},
					{
						Name:         "OnlyKeys.inc",
						PartitionKey: []designer.KeyAttribute{str("region", designer.S)},
						Projection:   designer.Projection{Type: designer.Include, Attributes: []string{"tenant_id", "order_key"}},
					},
				},
				LSIs: []designer.Index{{Name: "ByAmount", SortKey: []designer.KeyAttribute{str("amount", designer.N)}, Projection: designer.Projection{Type: designer.All}}},
				Items: []designer.SampleItem{
					{Item: designer.Item{
						"tenant_id": designer.Str("t1"), "order_key": designer.Str("ORDER#1"), "status": designer.Str("open"),
						"created_at": designer.Num("1700000000"), "order_id": designer.Str("o-1"), "amount": designer.Num("12.50"),
						"note": designer.Str("it's \"quoted\" }{ $(rm -rf /) `id`\nsecond line"),
						"tags": {Type: designer.SS, SS: []string{"a'b", "c\"d"}}, "gift": designer.Boolean(true), "coupon": designer.Null(),
						"lines":      designer.List(designer.Map(map[string]designer.Value{"sku": designer.Str("sku-1"), "qty": designer.Num("2")})),
						"expires_at": designer.Num("1800000000"),
					}},
					{Item: designer.Item{
						"tenant_id": designer.Str("t1"), "order_key": designer.Str("ORDER#2"), "status": designer.Str("shipped"),
						"created_at": designer.Num("1700000500"), "order_id": designer.Str("o-2"), "amount": designer.Num("99"),
						"customer_id": designer.Str("c-7"), "region": designer.Str("eu"), "total": designer.Num("99"),
					}},
				},
			},
			{
				Name:         "order_items",
				PartitionKey: str("order_id", designer.S),
				BillingMode:  designer.OnDemand,
				GSIs:         []designer.Index{{Name: "BySku", PartitionKey: []designer.KeyAttribute{str("sku", designer.S)}, Projection: designer.Projection{Type: designer.All}}},
				Items: []designer.SampleItem{
					{Item: designer.Item{"order_id": designer.Str("o-1"), "sku": designer.Str("sku-1"), "qty": designer.Num("2")}},
				},
			},
			{
				Name:         "order-items",
				PartitionKey: str("id", designer.B),
				BillingMode:  designer.OnDemand,
				Items:        []designer.SampleItem{{Item: designer.Item{"id": designer.Bin([]byte{0, 1, 2, 0xff}), "blob": {Type: designer.BS, BS: [][]byte{[]byte("x")}}}}},
			},
		},
		Patterns: []designer.Pattern{
			{Number: 1, Description: "Open an order", Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "GetItem", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND #k = :k", Projection: "#n, amount",
				Names:  map[string]string{"#n": "note", "#k": "order_key"},
				Values: map[string]designer.Value{":t": designer.Str("t1"), ":k": designer.Str("ORDER#1")}, Consistent: true,
			}}}},
			{Number: 2, Description: "Newest open orders of a tenant", Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "Query", Table: "orders.v2-main", Index: "ByStatus",
				KeyCondition: "tenant_id = :t AND #s = :s AND created_at > :after", Filter: "#n <> :empty",
				Names:  map[string]string{"#s": "status", "#n": "note"},
				Values: map[string]designer.Value{":t": designer.Str("t1"), ":s": designer.Str("open"), ":after": designer.Num("1600000000"), ":empty": designer.Str("")},
				Limit:  &limit, Descending: true,
			}}}},
			{Number: 3, Description: "Find notes mentioning a phrase", Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "Scan", Table: "orders.v2-main", Filter: "contains(#n, :needle)",
				Names:  map[string]string{"#n": "note"},
				Values: map[string]designer.Value{":needle": designer.Str("it's \"}$(touch pwned)`id`\nnext")},
			}}}},
			{Number: 4, Description: "Add an order line", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "PutItem", Table: "order_items",
				Values: map[string]designer.Value{":order_id": designer.Str("o-9"), ":sku": designer.Str("sku'9"), ":qty": designer.Num("3")},
			}}}},
			{Number: 5, Description: "Ship an order", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "UpdateItem", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key = :k",
				Values: map[string]designer.Value{":t": designer.Str("t1"), ":k": designer.Str("ORDER#1"), ":status": designer.Str("shipped"), ":note": designer.Str("multi\nline")},
			}}}},
			{Number: 6, Description: "Forget a blob", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "DeleteItem", Table: "order-items", KeyCondition: "id = :id", Values: map[string]designer.Value{":id": designer.Bin([]byte{0, 1, 2, 0xff})},
			}}}},
			{Number: 7, Description: "Read then bump a line", Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "Query", Table: "order_items", KeyCondition: "order_id = :o", Values: map[string]designer.Value{":o": designer.Str("o-1")}},
				{Op: "UpdateItem", Table: "order_items", KeyCondition: "order_id = :o", Values: map[string]designer.Value{":o": designer.Str("o-1"), ":qty": designer.Num("4")}},
			}}},
			{Number: 8, Description: "Order totals for a dashboard", Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "BatchGetItem", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key IN (:a, :b)", Projection: "amount",
					Values: map[string]designer.Value{":t": designer.Str("t1"), ":a": designer.Str("ORDER#1"), ":b": designer.Str("ORDER#2")}},
				{Op: "BatchGetItem", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key = :c", Projection: "amount",
					Values: map[string]designer.Value{":t": designer.Str("t2"), ":c": designer.Str("ORDER#3")}},
				{Op: "BatchGetItem", Table: "order_items", KeyCondition: "order_id = :o", Values: map[string]designer.Value{":o": designer.Str("o-1")}},
				{Op: "BatchGetItem", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key = :d", Projection: "#n",
					Names: map[string]string{"#n": "note"}, Values: map[string]designer.Value{":t": designer.Str("t1"), ":d": designer.Str("ORDER#2")}},
			}}},
			{Number: 9, Description: "Order with its line, consistently", Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "TransactGetItems", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key = :k",
					Values: map[string]designer.Value{":t": designer.Str("t1"), ":k": designer.Str("ORDER#1")}},
				{Op: "TransactGetItems", Table: "order_items", KeyCondition: "order_id = :o", Projection: "qty",
					Values: map[string]designer.Value{":o": designer.Str("o-1")}},
			}}},
			{Number: 10, Description: "Load lines, drop a blob", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "BatchWriteItem", Table: "order_items", KeyCondition: "order_id IN (:a, :b)",
					Values: map[string]designer.Value{":a": designer.Str("o-5"), ":b": designer.Str("o-6"), ":sku": designer.Str("sku-5")}},
				{Op: "BatchWriteItem", Table: "order-items", KeyCondition: "id = :id", Values: map[string]designer.Value{":id": designer.Bin([]byte("k"))}},
			}}},
			{Number: 11, Description: "Place an order", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "TransactWriteItems", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key = :k",
					Values: map[string]designer.Value{":t": designer.Str("t1"), ":k": designer.Str("ORDER#3"), ":status": designer.Str("open")}},
				{Op: "TransactWriteItems", Table: "order_items", KeyCondition: "order_id = :o", Values: map[string]designer.Value{":o": designer.Str("o-3")}},
			}}},
			{Number: 12, Description: "Orders by coupon", Status: designer.StatusOpen},
			{Number: 13, Description: "Full-text search", Status: designer.StatusOutside, Mapping: designer.Mapping{Notes: "Search goes to OpenSearch."}},
		},
	})
}

// TableErrorCase is a table mistake every table export refuses, with the field it must name.
type TableErrorCase struct {
	Name, Field string
	Edit        func(*designer.Design)
}

// TableErrorCases are the table mistakes both table exports refuse, each an edit of OrdersDesign.
func TableErrorCases() []TableErrorCase {
	gsi := func(name string, pk ...designer.KeyAttribute) designer.Index {
		return designer.Index{Name: name, PartitionKey: pk, Projection: designer.Projection{Type: designer.All}}
	}
	k := func(name string, t designer.Type) designer.KeyAttribute {
		return designer.KeyAttribute{Name: name, Type: t}
	}
	return []TableErrorCase{
		{"table name too short", "tables/1/name", func(d *designer.Design) { d.Tables[1].Name = "ab" }},
		{"table name with a space", "tables/0/name", func(d *designer.Design) { d.Tables[0].Name = "my orders" }},
		{"table name with a quote", "tables/0/name", func(d *designer.Design) { d.Tables[0].Name = `orders"},{"x` }},
		{"table name with a trailing newline", "tables/2/name", func(d *designer.Design) { d.Tables[2].Name = "orders\n" }},
		{"table name too long", "tables/0/name", func(d *designer.Design) { d.Tables[0].Name = strings.Repeat("a", 256) }},
		{"table name used twice", "tables/2/name", func(d *designer.Design) { d.Tables[2].Name = d.Tables[0].Name }},
		{"index name with $", "tables/0/gsis/1/name", func(d *designer.Design) { d.Tables[0].GSIs[1].Name = "by$(id)" }},
		{"index name shared by a GSI and an LSI", "tables/0/lsis/0/name", func(d *designer.Design) { d.Tables[0].LSIs[0].Name = "ByStatus" }},
		{"billing mode unknown", "tables/1/billing_mode", func(d *designer.Design) { d.Tables[1].BillingMode = "FREE" }},
		{"provisioned without read units", "tables/1/read_capacity_units", func(d *designer.Design) { d.Tables[1].BillingMode = designer.Provisioned }},
		{"provisioned with zero write units", "tables/0/write_capacity_units", func(d *designer.Design) { zero := int64(0); d.Tables[0].WriteUnits = &zero }},
		{"partition key without a name", "tables/1/partition_key/name", func(d *designer.Design) { d.Tables[1].PartitionKey.Name = "" }},
		{"partition key of a non-key type", "tables/1/partition_key/type", func(d *designer.Design) { d.Tables[1].PartitionKey.Type = designer.BOOL }},
		{"sort key equal to the partition key", "tables/0/sort_key/name", func(d *designer.Design) { d.Tables[0].SortKey.Name = "tenant_id" }},
		{"GSI with five partition attributes", "tables/0/gsis/0/partition_key", func(d *designer.Design) {
			d.Tables[0].GSIs[0].PartitionKey = []designer.KeyAttribute{k("a", designer.S), k("b", designer.S), k("c", designer.S), k("d", designer.S), k("e", designer.S)}
		}},
		{"GSI without a partition key", "tables/1/gsis/0/partition_key", func(d *designer.Design) { d.Tables[1].GSIs[0].PartitionKey = nil }},
		{"GSI key of a non-key type", "tables/1/gsis/0/partition_key", func(d *designer.Design) {
			d.Tables[1].GSIs[0].PartitionKey = []designer.KeyAttribute{k("sku", designer.M)}
		}},
		{"an attribute with two key types", "tables/1/gsis/1/partition_key", func(d *designer.Design) {
			d.Tables[1].GSIs = append(d.Tables[1].GSIs, gsi("BySkuNumber", k("sku", designer.N)))
		}},
		{"LSI on a table without a sort key", "tables/1/lsis/0", func(d *designer.Design) {
			d.Tables[1].LSIs = []designer.Index{{Name: "ByQty", SortKey: []designer.KeyAttribute{k("qty", designer.N)}, Projection: designer.Projection{Type: designer.All}}}
		}},
		{"LSI with two sort attributes", "tables/0/lsis/0/sort_key", func(d *designer.Design) {
			d.Tables[0].LSIs[0].SortKey = []designer.KeyAttribute{k("amount", designer.N), k("created_at", designer.N)}
		}},
		{"six LSIs", "tables/0/lsis", func(d *designer.Design) {
			for i := range 5 {
				d.Tables[0].LSIs = append(d.Tables[0].LSIs, designer.Index{Name: fmt.Sprintf("Extra%d", i), SortKey: []designer.KeyAttribute{k(fmt.Sprintf("x%d", i), designer.S)}})
			}
		}},
		{"unknown projection type", "tables/1/gsis/0/projection/type", func(d *designer.Design) { d.Tables[1].GSIs[0].Projection.Type = "SOME" }},
		{"INCLUDE of 21 attributes", "tables/1/gsis/0/projection/attributes", func(d *designer.Design) {
			p := designer.Projection{Type: designer.Include}
			for i := range 21 {
				p.Attributes = append(p.Attributes, fmt.Sprintf("a%d", i))
			}
			d.Tables[1].GSIs[0].Projection = p
		}},
		{"INCLUDE of over 100 attributes across a table's indexes", "tables/1/gsis/5/projection/attributes", func(d *designer.Design) {
			d.Tables[1].GSIs = nil
			for g := range 6 { // 20 each: the sixth brings the table to 120
				ix := gsi(fmt.Sprintf("Wide%d", g), k("sku", designer.S))
				ix.Projection.Type = designer.Include
				for i := range 20 {
					ix.Projection.Attributes = append(ix.Projection.Attributes, fmt.Sprintf("g%da%d", g, i))
				}
				d.Tables[1].GSIs = append(d.Tables[1].GSIs, ix)
			}
		}},
	}
}

// AssertDeterministic exports d, then 20 copies of d read back from its JSON (fresh maps, so
// any dependence on map order shows), and fails unless every export is the same bytes.
func AssertDeterministic(t testing.TB, export func(designer.Design) ([]byte, error), d designer.Design) {
	t.Helper()
	first, err := export(d)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		copyOf, err := designer.ParseJSON(MustMarshal(t, d))
		if err != nil {
			t.Fatal(err)
		}
		again, err := export(copyOf)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("two exports differ:\n%s", FirstDifference(first, again))
		}
	}
}

// MidSizeDesign has 20 tables with 2 GSIs each, 100 items per table and 10 patterns per table.
func MidSizeDesign() designer.Design {
	d := designer.Design{Name: "Benchmark"}
	limit := 20
	for ti := range 20 {
		name := fmt.Sprintf("Table%02d", ti)
		tb := designer.Table{
			Name: name, PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}, SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.S},
			BillingMode: designer.OnDemand, TTLAttribute: "expires",
			GSIs: []designer.Index{
				{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}}, SortKey: []designer.KeyAttribute{{Name: "created", Type: designer.N}},
					Projection: designer.Projection{Type: designer.Include, Attributes: []string{"title", "amount"}}},
				{Name: "ByOwner", PartitionKey: []designer.KeyAttribute{{Name: "owner", Type: designer.S}, {Name: "region", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}},
			},
		}
		for i := range 100 {
			tb.Items = append(tb.Items, designer.SampleItem{ID: fmt.Sprintf("i%d", i), Item: designer.Item{
				"pk": designer.Str(fmt.Sprintf("P#%d", i%10)), "sk": designer.Str(fmt.Sprintf("S#%03d", i)),
				"status": designer.Str([]string{"open", "closed"}[i%2]), "created": designer.Num(strconv.Itoa(1700000000 + i)),
				"owner": designer.Str(fmt.Sprintf("u%d", i%7)), "region": designer.Str("eu"), "title": designer.Str("An item's title \"quoted\""),
				"amount": designer.Num("12.5"), "tags": {Type: designer.SS, SS: []string{"a", "b"}}, "expires": designer.Num("1800000000"),
			}})
		}
		d.Tables = append(d.Tables, tb)
		pk, sk := designer.Str("P#1"), designer.Str("S#001")
		key := map[string]designer.Value{":pk": pk, ":sk": sk}
		ops := [][]designer.Operation{
			{{Op: "GetItem", Table: name, KeyCondition: "pk = :pk AND sk = :sk", Values: key}},
			{{Op: "Query", Table: name, KeyCondition: "pk = :pk AND begins_with(sk, :p)", Values: map[string]designer.Value{":pk": pk, ":p": designer.Str("S#0")}, Limit: &limit}},
			{{Op: "Query", Table: name, Index: "ByStatus", KeyCondition: "#s = :s", Filter: "amount > :a", Names: map[string]string{"#s": "status"},
				Values: map[string]designer.Value{":s": designer.Str("open"), ":a": designer.Num("1")}, Descending: true}},
			{{Op: "Query", Table: name, Index: "ByOwner", KeyCondition: "#o = :o AND #r = :r", Names: map[string]string{"#o": "owner", "#r": "region"},
				Values: map[string]designer.Value{":o": designer.Str("u1"), ":r": designer.Str("eu")}}},
			{{Op: "PutItem", Table: name, Values: map[string]designer.Value{":pk": pk, ":sk": designer.Str("S#new"), ":title": designer.Str("New")}}},
			{{Op: "UpdateItem", Table: name, KeyCondition: "pk = :pk AND sk = :sk", Values: map[string]designer.Value{":pk": pk, ":sk": sk, ":status": designer.Str("closed")}}},
			{
				{Op: "BatchGetItem", Table: name, KeyCondition: "pk = :pk AND sk IN (:a, :b)", Values: map[string]designer.Value{":pk": pk, ":a": sk, ":b": designer.Str("S#011")}},
				{Op: "BatchGetItem", Table: name, KeyCondition: "pk = :pk AND sk = :sk", Values: map[string]designer.Value{":pk": designer.Str("P#2"), ":sk": designer.Str("S#002")}},
			},
			{
				{Op: "TransactWriteItems", Table: name, KeyCondition: "pk = :pk AND sk = :sk", Values: map[string]designer.Value{":pk": pk, ":sk": sk, ":status": designer.Str("open")}},
				{Op: "TransactWriteItems", Table: name, KeyCondition: "pk = :pk AND sk = :sk", Values: map[string]designer.Value{":pk": pk, ":sk": designer.Str("S#011")}},
			},
			{{Op: "Scan", Table: name, Filter: "attribute_exists(title)"}},
			nil,
		}
		for k, o := range ops {
			d.Patterns = append(d.Patterns, designer.Pattern{Number: ti*10 + k + 1, Description: fmt.Sprintf("Pattern %d of %s", k, name),
				Status: designer.StatusSolved, Mapping: designer.Mapping{Operations: o}})
		}
	}
	return d
}
