package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// exportTestDesign exercises both table exports: a PROVISIONED table with TTL, a multi-attribute
// GSI, an INCLUDE list with repeats and key attributes, an INCLUDE of keys alone, a KEYS_ONLY GSI
// and an LSI; two tables whose names give the same logical id; a binary key; and sample values and
// mapping placeholders with quotes, braces, $(…), backquotes and newlines.
func exportTestDesign() designer.Design {
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

// goldenFile compares got with a file of testdata/export, rewriting it under -update.
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	path := "testdata/export/" + name
	if *update {
		if err := os.MkdirAll("testdata/export", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(want, got) {
		t.Fatalf("export differs from %s (run with -update if the change is intended):\n%s", path, designertest.FirstDifference(want, got))
	}
}

type cfnTestTemplate struct {
	AWSTemplateFormatVersion string
	Description              string
	Resources                map[string]struct {
		Type       string
		Properties tableDefinition
	}
}

func exportCFN(t *testing.T, d designer.Design) cfnTestTemplate {
	t.Helper()
	out, err := ExportCloudFormationJSON(d)
	if err != nil {
		t.Fatalf("ExportCloudFormationJSON: %v", err)
	}
	var tpl cfnTestTemplate
	if err := json.Unmarshal(out, &tpl); err != nil {
		t.Fatalf("the template is not JSON: %v\n%s", err, out)
	}
	return tpl
}

// cfnTable returns the properties of the resource whose TableName is name.
func cfnTable(t *testing.T, tpl cfnTestTemplate, name string) tableDefinition {
	t.Helper()
	for _, r := range tpl.Resources {
		if r.Properties.TableName == name {
			return r.Properties
		}
	}
	t.Fatalf("no resource for table %s", name)
	return tableDefinition{}
}

func TestExportCloudFormationJSON_golden(t *testing.T) {
	got, err := ExportCloudFormationJSON(exportTestDesign())
	if err != nil {
		t.Fatal(err)
	}
	goldenFile(t, "cloudformation.golden", got)
}

func TestExportCloudFormationJSON_hrGolden(t *testing.T) {
	got, err := ExportCloudFormationJSON(designertest.HRDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	goldenFile(t, "hr-cloudformation.golden", got)
}

func TestExportCloudFormationJSON_templateShape(t *testing.T) {
	out, err := ExportCloudFormationJSON(exportTestDesign())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("\n\n")) {
		t.Fatalf("the template does not end with one newline: %q", out[max(0, len(out)-10):])
	}
	if !bytes.HasPrefix(out, []byte("{\n  \"AWSTemplateFormatVersion\": \"2010-09-09\",\n")) {
		t.Fatalf("the template does not open with its format version, indented by two spaces:\n%.200s", out)
	}
	tpl := exportCFN(t, exportTestDesign())
	if tpl.Description != `Amazon DynamoDB tables of the Dynaloom design “Orders "export" — it's $(rm -rf ~)”` {
		t.Fatalf("Description = %q", tpl.Description)
	}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range tpl.Resources {
			if !yield(id) {
				return
			}
		}
	})
	if want := []string{"OrderItemsTable", "OrderItemsTable2", "OrdersV2MainTable"}; !slices.Equal(ids, want) {
		t.Fatalf("logical ids = %v, want %v", ids, want)
	}
	// The first of the two tables that give OrderItems keeps the plain id.
	if got := tpl.Resources["OrderItemsTable"].Properties.TableName; got != "order_items" {
		t.Fatalf("OrderItemsTable is table %q, want order_items (the earlier table)", got)
	}
	for id, r := range tpl.Resources {
		if r.Type != "AWS::DynamoDB::Table" {
			t.Fatalf("%s has type %q", id, r.Type)
		}
	}
}

// keyAttributesOf lists, straight from the design, every attribute in a key of the table or of
// one of its indexes, with its type.
func keyAttributesOf(tb designer.Table) map[string]designer.Type {
	out := map[string]designer.Type{tb.PartitionKey.Name: tb.PartitionKey.Type}
	if tb.SortKey != nil {
		out[tb.SortKey.Name] = tb.SortKey.Type
	}
	for _, ix := range slices.Concat(tb.GSIs, tb.LSIs) {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			out[k.Name] = k.Type
		}
	}
	return out
}

func TestExportCloudFormationJSON_attributeDefinitionsAreTheKeyAttributes(t *testing.T) {
	for name, d := range map[string]designer.Design{"export test": exportTestDesign(), "hr": designertest.HRDesign(t)} {
		t.Run(name, func(t *testing.T) {
			tpl := exportCFN(t, d)
			for _, tb := range d.Tables {
				props := cfnTable(t, tpl, tb.Name)
				want := keyAttributesOf(tb)
				var names []string
				for _, ad := range props.AttributeDefinitions {
					names = append(names, ad.AttributeName)
					if typ, ok := want[ad.AttributeName]; !ok {
						t.Errorf("%s: AttributeDefinitions has %s, which is no key attribute", tb.Name, ad.AttributeName)
					} else if ad.AttributeType != typ {
						t.Errorf("%s: %s is defined as %s, want %s", tb.Name, ad.AttributeName, ad.AttributeType, typ)
					}
				}
				if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
					t.Errorf("%s: AttributeDefinitions are not sorted and distinct: %v", tb.Name, names)
				}
				if len(names) != len(want) {
					t.Errorf("%s: AttributeDefinitions = %v, want the %d key attributes %v", tb.Name, names, len(want), want)
				}
				// Every attribute a key schema names is defined.
				for _, ks := range keySchemasOf(props) {
					for _, e := range ks {
						if !slices.Contains(names, e.AttributeName) {
							t.Errorf("%s: key schema uses %s, which AttributeDefinitions lacks", tb.Name, e.AttributeName)
						}
					}
				}
			}
		})
	}
}

func keySchemasOf(def tableDefinition) [][]keySchemaElement {
	out := [][]keySchemaElement{def.KeySchema}
	for _, ix := range slices.Concat(def.GlobalSecondaryIndexes, def.LocalSecondaryIndexes) {
		out = append(out, ix.KeySchema)
	}
	return out
}

func TestExportCloudFormationJSON_indexesProjectionsCapacityAndTTL(t *testing.T) {
	tpl := exportCFN(t, exportTestDesign())
	orders := cfnTable(t, tpl, "orders.v2-main")
	if orders.BillingMode != designer.Provisioned || orders.ProvisionedThroughput == nil ||
		*orders.ProvisionedThroughput != (throughput{ReadCapacityUnits: 5, WriteCapacityUnits: 3}) {
		t.Fatalf("orders: BillingMode %s, ProvisionedThroughput %+v; want PROVISIONED 5/3", orders.BillingMode, orders.ProvisionedThroughput)
	}
	if orders.TimeToLiveSpecification == nil || *orders.TimeToLiveSpecification != (ttlSpecification{AttributeName: "expires_at", Enabled: true}) {
		t.Fatalf("orders: TimeToLiveSpecification = %+v", orders.TimeToLiveSpecification)
	}
	if len(orders.GlobalSecondaryIndexes) != 3 || len(orders.LocalSecondaryIndexes) != 1 {
		t.Fatalf("orders has %d GSIs and %d LSIs, want 3 and 1", len(orders.GlobalSecondaryIndexes), len(orders.LocalSecondaryIndexes))
	}
	byStatus := orders.GlobalSecondaryIndexes[0]
	wantKeys := []keySchemaElement{{"tenant_id", "HASH"}, {"status", "HASH"}, {"created_at", "RANGE"}, {"order_id", "RANGE"}}
	if !slices.Equal(byStatus.KeySchema, wantKeys) {
		t.Fatalf("multi-attribute key schema = %v, want %v", byStatus.KeySchema, wantKeys)
	}
	if p := byStatus.Projection; p.ProjectionType != designer.Include || !slices.Equal(p.NonKeyAttributes, []string{"total", "note"}) {
		t.Fatalf("ByStatus projection = %+v, want INCLUDE [total note] (repeats and the key attribute status left out)", p)
	}
	if p := orders.GlobalSecondaryIndexes[1].Projection; p.ProjectionType != designer.KeysOnly || p.NonKeyAttributes != nil {
		t.Fatalf("ByCustomer projection = %+v, want KEYS_ONLY", p)
	}
	if p := orders.GlobalSecondaryIndexes[2].Projection; p.ProjectionType != designer.KeysOnly || p.NonKeyAttributes != nil {
		t.Fatalf("an INCLUDE of key attributes only = %+v, want KEYS_ONLY", p)
	}
	for _, g := range orders.GlobalSecondaryIndexes {
		if g.ProvisionedThroughput == nil || *g.ProvisionedThroughput != *orders.ProvisionedThroughput {
			t.Fatalf("GSI %s of a PROVISIONED table has ProvisionedThroughput %+v, want the table's", g.IndexName, g.ProvisionedThroughput)
		}
	}
	lsi := orders.LocalSecondaryIndexes[0]
	if want := []keySchemaElement{{"tenant_id", "HASH"}, {"amount", "RANGE"}}; !slices.Equal(lsi.KeySchema, want) {
		t.Fatalf("LSI key schema = %v, want %v", lsi.KeySchema, want)
	}
	if lsi.ProvisionedThroughput != nil || lsi.Projection.ProjectionType != designer.All {
		t.Fatalf("LSI = %+v; an LSI takes no throughput of its own", lsi)
	}

	items := cfnTable(t, tpl, "order_items")
	if items.BillingMode != designer.OnDemand || items.ProvisionedThroughput != nil || items.TimeToLiveSpecification != nil {
		t.Fatalf("order_items: %+v; want PAY_PER_REQUEST without throughput or TTL", items)
	}
	if g := items.GlobalSecondaryIndexes[0]; g.ProvisionedThroughput != nil {
		t.Fatalf("a GSI of an on-demand table has ProvisionedThroughput %+v", g.ProvisionedThroughput)
	}
	if want := []keySchemaElement{{"order_id", "HASH"}}; !slices.Equal(items.KeySchema, want) {
		t.Fatalf("order_items key schema = %v, want %v", items.KeySchema, want)
	}
	if blobs := cfnTable(t, tpl, "order-items"); blobs.AttributeDefinitions[0] != (attributeDefinition{"id", designer.B}) {
		t.Fatalf("binary key defined as %+v", blobs.AttributeDefinitions)
	}
}

func TestExportCloudFormationJSON_defaultsForBlankModes(t *testing.T) {
	d := designer.Design{Tables: []designer.Table{{
		Name: "Plain", PartitionKey: designer.KeyAttribute{Name: "id"},
		GSIs: []designer.Index{{Name: "ByKind", PartitionKey: []designer.KeyAttribute{{Name: "kind"}}}},
	}}}
	props := cfnTable(t, exportCFN(t, d), "Plain")
	if props.BillingMode != designer.OnDemand {
		t.Fatalf("blank billing mode exported as %q, want %s", props.BillingMode, designer.OnDemand)
	}
	if p := props.GlobalSecondaryIndexes[0].Projection.ProjectionType; p != designer.All {
		t.Fatalf("blank projection exported as %q, want ALL", p)
	}
	if want := []attributeDefinition{{"id", designer.S}, {"kind", designer.S}}; !slices.Equal(props.AttributeDefinitions, want) {
		t.Fatalf("untyped keys defined as %v, want %v", props.AttributeDefinitions, want)
	}
}

func TestLogicalIDs_alphanumericUniqueAndStable(t *testing.T) {
	tables := []designer.Table{{Name: "a.b"}, {Name: "A-B"}, {Name: "ab"}, {Name: "AB"}, {Name: "ABTable"}, {Name: "___"}, {Name: "2024_orders"},
		{Name: strings.Repeat("x", 255)}, {Name: strings.Repeat("x", 254) + "y"}}
	ids := logicalIDs(tables)
	want := []string{"ABTable", "ABTable2", "AbTable", "ABTable3", "ABTableTable", "Table", "2024OrdersTable"}
	if !slices.Equal(ids[:len(want)], want) {
		t.Fatalf("logical ids = %v, want %v", ids[:len(want)], want)
	}
	alnum := regexp.MustCompile(`^[A-Za-z0-9]{1,255}$`)
	seen := map[string]bool{}
	for i, id := range ids {
		if !alnum.MatchString(id) {
			t.Fatalf("id %d %q is not 1–255 letters and digits", i, id)
		}
		if seen[id] {
			t.Fatalf("id %q given twice: %v", id, ids)
		}
		seen[id] = true
	}
	if again := logicalIDs(tables); !slices.Equal(again, ids) {
		t.Fatalf("second derivation differs: %v vs %v", again, ids)
	}
}

// tableErrorCases are table mistakes both exports refuse, with the field each must name.
func tableErrorCases() []struct {
	name, field string
	edit        func(*designer.Design)
} {
	gsi := func(name string, pk ...designer.KeyAttribute) designer.Index {
		return designer.Index{Name: name, PartitionKey: pk, Projection: designer.Projection{Type: designer.All}}
	}
	k := func(name string, t designer.Type) designer.KeyAttribute {
		return designer.KeyAttribute{Name: name, Type: t}
	}
	return []struct {
		name, field string
		edit        func(*designer.Design)
	}{
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

func TestExportCloudFormationJSON_refusesWhatDynamoDBWouldRefuse(t *testing.T) {
	for _, tc := range tableErrorCases() {
		t.Run(tc.name, func(t *testing.T) {
			d := exportTestDesign()
			tc.edit(&d)
			before := designertest.MustMarshal(t, d)
			out, err := ExportCloudFormationJSON(d)
			if out != nil {
				t.Fatalf("an export came back with the error %v", err)
			}
			designertest.WantValidationError(t, err, tc.field)
			designertest.AssertUnchanged(t, before, d)
		})
	}
	_, err := ExportCloudFormationJSON(designer.Design{Name: "empty"})
	designertest.WantValidationError(t, err, "tables")
}

func TestExportCloudFormationJSON_errorsNameTheIndex(t *testing.T) {
	d := exportTestDesign()
	d.Tables[0].GSIs[0].SortKey = append(d.Tables[0].GSIs[0].SortKey, designer.KeyAttribute{Name: "a", Type: designer.S}, designer.KeyAttribute{Name: "b", Type: designer.S}, designer.KeyAttribute{Name: "c", Type: designer.S})
	_, err := ExportCloudFormationJSON(d)
	designertest.WantValidationError(t, err, "tables/0/gsis/0/sort_key")
	if !strings.Contains(err.Error(), "ByStatus") {
		t.Fatalf("error %q does not name the index", err)
	}
}

func TestExportCloudFormationJSON_deterministic(t *testing.T) {
	assertDeterministicExport(t, ExportCloudFormationJSON, exportTestDesign())
}

// assertDeterministicExport exports d, then 20 copies of d read back from its JSON (fresh maps, so
// any dependence on map order shows), and fails unless every export is the same bytes.
func assertDeterministicExport(t *testing.T, export func(designer.Design) ([]byte, error), d designer.Design) {
	t.Helper()
	first, err := export(d)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		copyOf, err := designer.ParseJSON(designertest.MustMarshal(t, d))
		if err != nil {
			t.Fatal(err)
		}
		again, err := export(copyOf)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("two exports differ:\n%s", designertest.FirstDifference(first, again))
		}
	}
}

func TestExportCloudFormationJSON_namesRoundTripThroughJSON(t *testing.T) {
	d := exportTestDesign()
	d.Name = "Quote \" brace } newline \n tab \t </script> \u2028 $(rm -rf /)"
	d.Tables[0].TTLAttribute = `ttl"},"Enabled":false,"x":{"y`
	tpl := exportCFN(t, d)
	if !strings.Contains(tpl.Description, d.Name) {
		t.Fatalf("Description %q lost the design name %q", tpl.Description, d.Name)
	}
	if got := cfnTable(t, tpl, "orders.v2-main").TimeToLiveSpecification; got == nil || got.AttributeName != d.Tables[0].TTLAttribute || !got.Enabled {
		t.Fatalf("TTL = %+v, want attribute %q enabled", got, d.Tables[0].TTLAttribute)
	}
}

func TestCFNDescription_fitsCloudFormationsLimit(t *testing.T) {
	desc := cfnDescription(strings.Repeat("é", 2000))
	if len(desc) > cfnDescriptionMax || !strings.HasSuffix(desc, "é…”") {
		t.Fatalf("description of %d bytes ends %q", len(desc), desc[len(desc)-8:])
	}
}
