package designer

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// ordersDesign is a small single-table design that exercises every reference a table change must
// follow: a composite key, a GSI with an INCLUDE projection and per-pattern attributes, an LSI, a
// TTL attribute, an SK taxonomy with templates, items, and operations with expression attribute
// names and expected keys.
func ordersDesign(tb testing.TB) Design {
	tb.Helper()
	expected := []Item{{"customer_id": Str("C1"), "sk": Str("ORDER#2025-01-01#A1")}}
	d := Normalize(Design{
		Name: "Shop",
		Patterns: []Pattern{
			{ID: "ap1", Number: 1, Type: Read, Description: "Open orders", Mapping: Mapping{Operations: []Operation{{
				Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#s = :s",
				Names: map[string]string{"#s": "status"}, Expected: &expected,
			}}}},
			{ID: "ap2", Number: 2, Type: Read, Description: "A customer's orders", Mapping: Mapping{Operations: []Operation{{
				Op: "Query", Table: "Orders", KeyCondition: "customer_id = :c",
			}}}},
			{ID: "ap3", Number: 3, Type: Read, Description: "A product", Mapping: Mapping{Operations: []Operation{{
				Op: "GetItem", Table: "Products", KeyCondition: "product_id = :p",
			}}}},
		},
		Tables: []Table{
			{
				Name:         "Orders",
				PartitionKey: KeyAttribute{Name: "customer_id", Type: S},
				SortKey:      &KeyAttribute{Name: "sk", Type: S},
				Attributes: []Attribute{
					{Name: "customer_id", Type: S}, {Name: "sk", Type: S}, {Name: "order_id", Type: S},
					{Name: "status", Type: S}, {Name: "total", Type: N}, {Name: "created_at", Type: S},
					{Name: "expires_at", Type: N},
				},
				EntityTypes: []EntityType{
					{Entity: "Customer", PKTemplate: "{customer_id}", SKTemplate: "PROFILE"},
					{Entity: "Order", PKTemplate: "{customer_id}", SKTemplate: "ORDER#{created_at}#{order_id}"},
				},
				TTLAttribute: "expires_at",
				GSIs: []Index{{
					Name:              "ByStatus",
					PartitionKey:      []KeyAttribute{{Name: "status", Type: S}},
					SortKey:           []KeyAttribute{{Name: "created_at", Type: S}},
					Projection:        Projection{Type: Include, Attributes: []string{"total", "order_id"}},
					PatternAttributes: []PatternAttributes{{Pattern: 1, Attributes: []string{"total", "order_id"}}},
				}},
				LSIs: []Index{{
					Name:         "ByTotal",
					PartitionKey: []KeyAttribute{{Name: "customer_id", Type: S}},
					SortKey:      []KeyAttribute{{Name: "total", Type: N}},
					Projection:   Projection{Type: KeysOnly},
				}},
				Items: []SampleItem{
					{ID: "i1", Item: Item{"customer_id": Str("C1"), "sk": Str("PROFILE"), "nickname": Str("Ada")}},
					{ID: "i2", Item: Item{
						"customer_id": Str("C1"), "sk": Str("ORDER#2025-01-01#A1"), "order_id": Str("A1"),
						"status": Str("OPEN"), "total": Num("19.99"), "created_at": Str("2025-01-01"),
						"expires_at": Num("1700000000"),
					}},
					{ID: "i3", Item: Item{"customer_id": Str("C2"), "order_id": Str("A2"), "created_at": Str("2025-02-02"), "total": Num("5")}},
				},
			},
			{Name: "Products", PartitionKey: KeyAttribute{Name: "product_id", Type: S}, Attributes: []Attribute{{Name: "product_id", Type: S}}},
		},
	})
	if err := Check(d); err != nil {
		tb.Fatalf("ordersDesign does not pass Check: %v", err)
	}
	return d
}

// runOrdersCases is runChangeCases on ordersDesign.
func runOrdersCases(t *testing.T, cases []changeCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			d := ordersDesign(t)
			before := mustMarshal(t, d)
			got, err := tt.change.Apply(d)
			assertUnchanged(t, before, d)
			if tt.field != "" {
				wantValidationError(t, err, tt.field)
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if err := Check(got); err != nil {
				t.Fatalf("Check after Apply: %v", err)
			}
			if !reflect.DeepEqual(Normalize(got), got) {
				t.Errorf("Apply left the design needing Normalize")
			}
			if tt.check != nil {
				tt.check(t, d, got)
			}
		})
	}
}

// table returns the table named name of d, failing the test if there is none.
func tableOf(t *testing.T, d Design, name string) Table {
	t.Helper()
	tb, _, ok := d.TableByName(name)
	if !ok {
		t.Fatalf("no table %q", name)
	}
	return tb
}

func indexOf(t *testing.T, d Design, tableName, name string) Index {
	t.Helper()
	ix, _, _, ok := tableOf(t, d, tableName).IndexByName(name)
	if !ok {
		t.Fatalf("table %s has no index %q", tableName, name)
	}
	return ix
}

func itemOf(t *testing.T, d Design, tableName, id string) Item {
	t.Helper()
	it, _, ok := tableOf(t, d, tableName).ItemByID(id)
	if !ok {
		t.Fatalf("table %s has no item %q", tableName, id)
	}
	return it.Item
}

func declaredNames(tb Table) []string {
	var names []string
	for _, a := range tb.Attributes {
		names = append(names, a.Name)
	}
	return names
}

// wantMessage fails unless err's text mentions every part.
func wantMessage(t *testing.T, err error, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("error %v does not mention %q", err, p)
		}
	}
}

func TestAddTable(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "defaults to S and on-demand", change: AddTable{Name: " Users ", PartitionKey: "user_id"},
			check: func(t *testing.T, _, after Design) {
				tb := tableOf(t, after, "Users")
				if tb.PartitionKey != (KeyAttribute{Name: "user_id", Type: S}) || tb.BillingMode != OnDemand || tb.SortKey != nil {
					t.Errorf("table = %+v", tb)
				}
				if !slices.Equal(declaredNames(tb), []string{"user_id"}) {
					t.Errorf("declared %v, want the key declared", declaredNames(tb))
				}
				if after.Tables[len(after.Tables)-1].Name != "Users" {
					t.Errorf("table not added at the end")
				}
			}},
		{name: "number key", change: AddTable{Name: "Users", PartitionKey: "user_id", PartitionKeyType: "number"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Users").PartitionKey.Type; got != N {
					t.Errorf("key type %s, want N", got)
				}
			}},
		{name: "name too short", change: AddTable{Name: "Us", PartitionKey: "id"}, field: "name"},
		{name: "name with a space", change: AddTable{Name: "My Users", PartitionKey: "id"}, field: "name"},
		{name: "name over 255", change: AddTable{Name: strings.Repeat("a", 256), PartitionKey: "id"}, field: "name"},
		{name: "duplicate name", change: AddTable{Name: "Orders", PartitionKey: "id"}, field: "name"},
		{name: "no partition key", change: AddTable{Name: "Users", PartitionKey: " "}, field: "partition_key"},
		{name: "key type that cannot be a key", change: AddTable{Name: "Users", PartitionKey: "id", PartitionKeyType: "BOOL"}, field: "partition_key_type"},
		{name: "unknown key type", change: AddTable{Name: "Users", PartitionKey: "id", PartitionKeyType: "DATE"}, field: "partition_key_type"},
	})
}

func TestRenameTable(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "operations follow", change: RenameTable{Table: "Orders", To: "Sales"},
			check: func(t *testing.T, _, after Design) {
				tableOf(t, after, "Sales")
				if got := after.Patterns[0].Mapping.Operations[0].Table; got != "Sales" {
					t.Errorf("pattern 1 operation table = %q", got)
				}
				if got := after.Patterns[1].Mapping.Operations[0].Table; got != "Sales" {
					t.Errorf("pattern 2 operation table = %q", got)
				}
				if got := after.Patterns[2].Mapping.Operations[0].Table; got != "Products" {
					t.Errorf("an operation on another table changed: %q", got)
				}
			}},
		{name: "same name", change: RenameTable{Table: "Orders", To: "Orders"}},
		{name: "unknown table", change: RenameTable{Table: "Nope", To: "Sales"}, field: "table"},
		{name: "name taken", change: RenameTable{Table: "Orders", To: "Products"}, field: "to"},
		{name: "name breaks the rule", change: RenameTable{Table: "Orders", To: "Sales!"}, field: "to"},
	})
}

func TestSetTableField(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "purpose", change: SetTableField{Table: "Orders", Field: "purpose", Value: "Orders by customer\n"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").Purpose; got != "Orders by customer" {
					t.Errorf("purpose = %q", got)
				}
			}},
		{name: "provisioned", change: SetTableField{Table: "Orders", Field: "billing_mode", Value: "Provisioned"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").BillingMode; got != Provisioned {
					t.Errorf("billing = %q", got)
				}
			}},
		{name: "on-demand", change: SetTableField{Table: "Orders", Field: "billing_mode", Value: "on-demand"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").BillingMode; got != OnDemand {
					t.Errorf("billing = %q", got)
				}
			}},
		{name: "read capacity with separator", change: SetTableField{Table: "Orders", Field: "read_capacity_units", Value: "1,000"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").ReadUnits; got == nil || *got != 1000 {
					t.Errorf("RCU = %v", got)
				}
			}},
		{name: "TTL off", change: SetTableField{Table: "Orders", Field: "ttl_attribute", Value: " "},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").TTLAttribute; got != "" {
					t.Errorf("TTL = %q", got)
				}
			}},
		{name: "every justification field", change: SetTableField{Table: "Orders", Field: "sort_key_justification", Value: "Orders sort by date"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").SortKeyWhy; got != "Orders sort by date" {
					t.Errorf("sort key justification = %q", got)
				}
			}},
		{name: "unknown field", change: SetTableField{Table: "Orders", Field: "colour", Value: "x"}, field: "field"},
		{name: "unknown table", change: SetTableField{Table: "Nope", Field: "purpose", Value: "x"}, field: "table"},
		{name: "bad billing mode", change: SetTableField{Table: "Orders", Field: "billing_mode", Value: "cheap"}, field: "billing_mode"},
		{name: "negative capacity", change: SetTableField{Table: "Orders", Field: "write_capacity_units", Value: "-1"}, field: "write_capacity_units"},
		{name: "control character", change: SetTableField{Table: "Orders", Field: "capacity_notes", Value: "a\x00"}, field: "capacity_notes"},
		{name: "TTL name on two lines", change: SetTableField{Table: "Orders", Field: "ttl_attribute", Value: "a\nb"}, field: "ttl_attribute"},
	})
	for _, f := range TableFields {
		if f.Label == "" {
			t.Errorf("field %q has no label", f.Key)
		}
		d, err := (SetTableField{Table: "Orders", Field: f.Key, Value: ""}).Apply(ordersDesign(t))
		if err != nil && f.Key != "billing_mode" {
			t.Errorf("clearing %s: %v", f.Key, err)
		}
		if err == nil && f.Get(d.Tables[0]) != "" {
			t.Errorf("%s reads %q after it was cleared", f.Key, f.Get(d.Tables[0]))
		}
	}
}

func TestSetTableKey(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "renaming the partition key renames it everywhere", change: SetTableKey{Table: "Orders", Which: "partition", Name: "cust"},
			check: func(t *testing.T, _, after Design) {
				tb := tableOf(t, after, "Orders")
				if tb.PartitionKey != (KeyAttribute{Name: "cust", Type: S}) {
					t.Errorf("key = %+v", tb.PartitionKey)
				}
				if _, ok := itemOf(t, after, "Orders", "i2")["cust"]; !ok {
					t.Errorf("items keep the old name: %v", itemOf(t, after, "Orders", "i2"))
				}
				if got := tb.LSIs[0].PartitionKey[0].Name; got != "cust" {
					t.Errorf("LSI partition key = %q", got)
				}
				if got := tb.EntityTypes[1].PKTemplate; got != "{cust}" {
					t.Errorf("template = %q", got)
				}
				if slices.Contains(declaredNames(tb), "customer_id") || !slices.Contains(declaredNames(tb), "cust") {
					t.Errorf("declared = %v", declaredNames(tb))
				}
			}},
		{name: "an existing attribute becomes the sort key", change: SetTableKey{Table: "Orders", Which: "sort", Name: "order_id"},
			check: func(t *testing.T, before, after Design) {
				tb := tableOf(t, after, "Orders")
				if *tb.SortKey != (KeyAttribute{Name: "order_id", Type: S}) {
					t.Errorf("sort key = %+v", tb.SortKey)
				}
				if !reflect.DeepEqual(tb.Items, tableOf(t, before, "Orders").Items) {
					t.Errorf("items changed")
				}
			}},
		{name: "type change retypes the LSI", change: SetTableKey{Table: "Orders", Which: "partition", Name: "customer_id", Type: "N"},
			check: func(t *testing.T, _, after Design) {
				tb := tableOf(t, after, "Orders")
				if tb.PartitionKey.Type != N || tb.LSIs[0].PartitionKey[0].Type != N {
					t.Errorf("types %s %s", tb.PartitionKey.Type, tb.LSIs[0].PartitionKey[0].Type)
				}
				if a, _, _ := tb.AttributeByName("customer_id"); a.Type != N {
					t.Errorf("declared type %s", a.Type)
				}
			}},
		{name: "a new sort key on a simple table", change: SetTableKey{Table: "Products", Which: "sort", Name: "version", Type: "N"},
			check: func(t *testing.T, _, after Design) {
				if sk := tableOf(t, after, "Products").SortKey; sk == nil || *sk != (KeyAttribute{Name: "version", Type: N}) {
					t.Errorf("sort key = %+v", sk)
				}
			}},
		{name: "removing the sort key of a table without LSIs", change: SetTableKey{Table: "Products", Which: "sort", Name: ""}},
		{name: "removing the sort key while an LSI needs it", change: SetTableKey{Table: "Orders", Which: "sort", Name: ""}, field: "name"},
		{name: "partition key cannot be removed", change: SetTableKey{Table: "Orders", Which: "partition", Name: ""}, field: "name"},
		{name: "the other key", change: SetTableKey{Table: "Orders", Which: "sort", Name: "customer_id"}, field: "name"},
		{name: "bad which", change: SetTableKey{Table: "Orders", Which: "hash", Name: "x"}, field: "which"},
		{name: "non-key type", change: SetTableKey{Table: "Orders", Which: "sort", Name: "sk", Type: "BOOL"}, field: "type"},
		{name: "unknown table", change: SetTableKey{Table: "Nope", Which: "sort", Name: "x"}, field: "table"},
	})
}

func TestDeleteAndMoveTable(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "delete", change: DeleteTable{Table: "Orders"},
			check: func(t *testing.T, _, after Design) {
				if len(after.Tables) != 1 || after.Tables[0].Name != "Products" {
					t.Errorf("tables = %v", after.Tables)
				}
			}},
		{name: "delete unknown", change: DeleteTable{Table: "Nope"}, field: "table"},
		{name: "move to the front", change: MoveTable{Table: "Products", To: -3},
			check: func(t *testing.T, _, after Design) {
				if after.Tables[0].Name != "Products" {
					t.Errorf("first table = %s", after.Tables[0].Name)
				}
			}},
		{name: "move unknown", change: MoveTable{Table: "Nope"}, field: "table"},
	})
}

func TestTableAttributes(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "add", change: AddTableAttribute{Table: "Orders", Name: "coupon", Type: "string set"},
			check: func(t *testing.T, _, after Design) {
				a, _, ok := tableOf(t, after, "Orders").AttributeByName("coupon")
				if !ok || a.Type != SS {
					t.Errorf("coupon = %+v %v", a, ok)
				}
			}},
		{name: "add duplicate", change: AddTableAttribute{Table: "Orders", Name: "total"}, field: "name"},
		{name: "add bad type", change: AddTableAttribute{Table: "Orders", Name: "x", Type: "DATE"}, field: "type"},
		{name: "add without name", change: AddTableAttribute{Table: "Orders", Name: ""}, field: "name"},
		{name: "set type", change: SetTableAttributeType{Table: "Orders", Attribute: "expires_at", Type: S},
			check: func(t *testing.T, _, after Design) {
				if a, _, _ := tableOf(t, after, "Orders").AttributeByName("expires_at"); a.Type != S {
					t.Errorf("type = %s", a.Type)
				}
			}},
		{name: "set type of an index key follows into the index", change: SetTableAttributeType{Table: "Orders", Attribute: "total", Type: S},
			check: func(t *testing.T, _, after Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").SortKey[0].Type; got != S {
					t.Errorf("LSI sort key type = %s", got)
				}
			}},
		{name: "a key attribute cannot become a map", change: SetTableAttributeType{Table: "Orders", Attribute: "status", Type: M}, field: "type"},
		{name: "set type blank", change: SetTableAttributeType{Table: "Orders", Attribute: "status", Type: ""}, field: "type"},
		{name: "set type undeclared", change: SetTableAttributeType{Table: "Orders", Attribute: "nickname", Type: S}, field: "attribute"},
		{name: "delete removes the values and the references", change: DeleteTableAttribute{Table: "Orders", Attribute: "order_id"},
			check: func(t *testing.T, _, after Design) {
				tb := tableOf(t, after, "Orders")
				if slices.Contains(declaredNames(tb), "order_id") {
					t.Errorf("still declared")
				}
				if _, ok := itemOf(t, after, "Orders", "i2")["order_id"]; ok {
					t.Errorf("still in item i2")
				}
				gsi := indexOf(t, after, "Orders", "ByStatus")
				if !slices.Equal(gsi.Projection.Attributes, []string{"total"}) || !slices.Equal(gsi.PatternAttributes[0].Attributes, []string{"total"}) {
					t.Errorf("index keeps it: %+v", gsi)
				}
			}},
		{name: "delete the TTL attribute turns TTL off", change: DeleteTableAttribute{Table: "Orders", Attribute: "expires_at"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").TTLAttribute; got != "" {
					t.Errorf("TTL = %q", got)
				}
			}},
		{name: "delete an undeclared item attribute", change: DeleteTableAttribute{Table: "Orders", Attribute: "nickname"}},
		{name: "delete unknown", change: DeleteTableAttribute{Table: "Orders", Attribute: "colour"}, field: "attribute"},
		{name: "delete the partition key", change: DeleteTableAttribute{Table: "Orders", Attribute: "customer_id"}, field: "attribute"},
		{name: "delete an index key", change: DeleteTableAttribute{Table: "Orders", Attribute: "status"}, field: "attribute"},
		{name: "generator", change: SetAttributeGenerator{Table: "Orders", Attribute: "status", Generator: &Generator{Kind: "one_of", Values: []string{" OPEN ", "SHIPPED", ""}}},
			check: func(t *testing.T, _, after Design) {
				a, _, _ := tableOf(t, after, "Orders").AttributeByName("status")
				if a.Generator == nil || !slices.Equal(a.Generator.Values, []string{"OPEN", "SHIPPED", ""}) {
					t.Errorf("generator = %+v", a.Generator)
				}
			}},
		{name: "generator cleared", change: SetAttributeGenerator{Table: "Orders", Attribute: "status"}},
		{name: "generator range upside down", change: SetAttributeGenerator{Table: "Orders", Attribute: "total", Generator: &Generator{Kind: "number", Min: floatPtr(10.0), Max: floatPtr(1.0)}}, field: "generator/max"},
		{name: "generator without kind", change: SetAttributeGenerator{Table: "Orders", Attribute: "total", Generator: &Generator{}}, field: "generator/kind"},
		{name: "generator of an unknown kind", change: SetAttributeGenerator{Table: "Orders", Attribute: "total", Generator: &Generator{Kind: "pick"}}, field: "generator/kind"},
		{name: "generator on undeclared", change: SetAttributeGenerator{Table: "Orders", Attribute: "nickname", Generator: &Generator{Kind: "one_of"}}, field: "attribute"},
	})
}

func floatPtr(v float64) *float64 { return &v }

func TestDeleteTableAttribute_namesTheKey(t *testing.T) {
	t.Parallel()
	_, err := DeleteTableAttribute{Table: "Orders", Attribute: "status"}.Apply(ordersDesign(t))
	wantMessage(t, err, "partition key of index ByStatus")
	_, err = DeleteTableAttribute{Table: "Orders", Attribute: "customer_id"}.Apply(ordersDesign(t))
	wantMessage(t, err, "partition key of table Orders", "partition key of index ByTotal")
}

func TestRenameTableAttribute_followsEveryReference(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, attr, to string
		check          func(t *testing.T, tb Table, d Design)
	}{
		{name: "table partition key, LSI, templates, expected keys", attr: "customer_id", to: "cust", check: func(t *testing.T, tb Table, d Design) {
			if tb.PartitionKey.Name != "cust" || tb.LSIs[0].PartitionKey[0].Name != "cust" {
				t.Errorf("keys %+v %+v", tb.PartitionKey, tb.LSIs[0].PartitionKey)
			}
			if tb.EntityTypes[0].PKTemplate != "{cust}" || tb.EntityTypes[1].PKTemplate != "{cust}" {
				t.Errorf("templates %+v", tb.EntityTypes)
			}
			if _, ok := (*d.Patterns[0].Mapping.Operations[0].Expected)[0]["cust"]; !ok {
				t.Errorf("expected keys %v", *d.Patterns[0].Mapping.Operations[0].Expected)
			}
		}},
		{name: "table sort key", attr: "sk", to: "record", check: func(t *testing.T, tb Table, _ Design) {
			if tb.SortKey.Name != "record" {
				t.Errorf("sort key %+v", tb.SortKey)
			}
		}},
		{name: "GSI partition key and expression names", attr: "status", to: "state", check: func(t *testing.T, tb Table, d Design) {
			if tb.GSIs[0].PartitionKey[0].Name != "state" {
				t.Errorf("GSI key %+v", tb.GSIs[0].PartitionKey)
			}
			if got := d.Patterns[0].Mapping.Operations[0].Names["#s"]; got != "state" {
				t.Errorf("#s = %q", got)
			}
		}},
		{name: "GSI sort key and SK template placeholder", attr: "created_at", to: "placed_at", check: func(t *testing.T, tb Table, _ Design) {
			if tb.GSIs[0].SortKey[0].Name != "placed_at" {
				t.Errorf("GSI sort key %+v", tb.GSIs[0].SortKey)
			}
			if got := tb.EntityTypes[1].SKTemplate; got != "ORDER#{placed_at}#{order_id}" {
				t.Errorf("SK template %q", got)
			}
		}},
		{name: "INCLUDE, per-pattern attributes and LSI sort key", attr: "total", to: "amount", check: func(t *testing.T, tb Table, _ Design) {
			if !slices.Equal(tb.GSIs[0].Projection.Attributes, []string{"amount", "order_id"}) {
				t.Errorf("projection %v", tb.GSIs[0].Projection.Attributes)
			}
			if !slices.Equal(tb.GSIs[0].PatternAttributes[0].Attributes, []string{"amount", "order_id"}) {
				t.Errorf("pattern attributes %v", tb.GSIs[0].PatternAttributes)
			}
			if tb.LSIs[0].SortKey[0].Name != "amount" {
				t.Errorf("LSI sort key %+v", tb.LSIs[0].SortKey)
			}
		}},
		{name: "TTL attribute", attr: "expires_at", to: "ttl", check: func(t *testing.T, tb Table, _ Design) {
			if tb.TTLAttribute != "ttl" {
				t.Errorf("TTL %q", tb.TTLAttribute)
			}
		}},
		{name: "an attribute only items have", attr: "nickname", to: "full_name", check: func(t *testing.T, tb Table, _ Design) {
			if !reflect.DeepEqual(tb.Items[0].Item["full_name"], Str("Ada")) {
				t.Errorf("item %v", tb.Items[0].Item)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ordersDesign(t)
			before := mustMarshal(t, d)
			got, err := RenameTableAttribute{Table: "Orders", Attribute: tt.attr, To: tt.to}.Apply(d)
			assertUnchanged(t, before, d)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			tb := tableOf(t, got, "Orders")
			for _, it := range tb.Items {
				if _, ok := it.Item[tt.attr]; ok {
					t.Errorf("item %s keeps %s", it.ID, tt.attr)
				}
			}
			if slices.Contains(declaredNames(tb), tt.attr) {
				t.Errorf("still declared as %s", tt.attr)
			}
			if strings.Contains(string(mustMarshal(t, Design{Tables: []Table{tb}})), `"`+tt.attr+`"`) {
				t.Errorf("table still names %s:\n%s", tt.attr, mustMarshal(t, Design{Tables: []Table{tb}}))
			}
			if !reflect.DeepEqual(tableOf(t, got, "Products"), tableOf(t, d, "Products")) {
				t.Errorf("another table changed")
			}
			tt.check(t, tb, got)
		})
	}
	runOrdersCases(t, []changeCase{
		{name: "unknown attribute", change: RenameTableAttribute{Table: "Orders", Attribute: "colour", To: "x"}, field: "attribute"},
		{name: "name taken", change: RenameTableAttribute{Table: "Orders", Attribute: "status", To: "total"}, field: "to"},
		{name: "name taken by an item attribute", change: RenameTableAttribute{Table: "Orders", Attribute: "status", To: "nickname"}, field: "to"},
		{name: "empty name", change: RenameTableAttribute{Table: "Orders", Attribute: "status", To: ""}, field: "to"},
	})
}

func TestEntityTypes(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "add", change: AddEntityType{Table: "Orders", Entity: "Invoice", PKTemplate: "{customer_id}", SKTemplate: "INVOICE#{invoice_id}"},
			check: func(t *testing.T, _, after Design) {
				ets := tableOf(t, after, "Orders").EntityTypes
				if len(ets) != 3 || ets[2] != (EntityType{Entity: "Invoice", PKTemplate: "{customer_id}", SKTemplate: "INVOICE#{invoice_id}"}) {
					t.Errorf("entity types %+v", ets)
				}
			}},
		{name: "add without entity", change: AddEntityType{Table: "Orders"}, field: "entity"},
		{name: "add template on two lines", change: AddEntityType{Table: "Orders", Entity: "X", SKTemplate: "A\nB"}, field: "sk_template"},
		{name: "set", change: SetEntityTypeField{Table: "Orders", Index: 1, Field: "description", Value: "One per order"},
			check: func(t *testing.T, _, after Design) {
				if got := tableOf(t, after, "Orders").EntityTypes[1].Description; got != "One per order" {
					t.Errorf("description %q", got)
				}
			}},
		{name: "set unknown field", change: SetEntityTypeField{Table: "Orders", Index: 1, Field: "colour"}, field: "field"},
		{name: "set out of range", change: SetEntityTypeField{Table: "Orders", Index: 2, Field: "entity", Value: "X"}, field: "index"},
		{name: "set empty entity", change: SetEntityTypeField{Table: "Orders", Index: 0, Field: "entity", Value: ""}, field: "entity"},
		{name: "delete", change: DeleteEntityType{Table: "Orders", Index: 0},
			check: func(t *testing.T, _, after Design) {
				if ets := tableOf(t, after, "Orders").EntityTypes; len(ets) != 1 || ets[0].Entity != "Order" {
					t.Errorf("entity types %+v", ets)
				}
			}},
		{name: "delete out of range", change: DeleteEntityType{Table: "Orders", Index: -1}, field: "index"},
	})
}

func TestTableChanges_summaries(t *testing.T) {
	t.Parallel()
	d := ordersDesign(t)
	tests := []struct {
		c    Change
		want string
	}{
		{AddTable{Name: "Users", PartitionKey: "id"}, "Added table Users"},
		{RenameTable{Table: "Orders", To: "Sales"}, "Renamed table Orders to Sales"},
		{SetTableField{Table: "Orders", Field: "billing_mode", Value: "on-demand"}, "Set table Orders's billing mode to PAY_PER_REQUEST"},
		{SetTableField{Table: "Orders", Field: "purpose", Value: "x"}, "Edited table Orders's purpose"},
		{SetTableKey{Table: "Orders", Which: "sort", Name: ""}, "Removed the sort key of table Orders"},
		{RenameTableAttribute{Table: "Orders", Attribute: "total", To: "amount"}, "Renamed attribute total of table Orders to amount"},
		{DeleteEntityType{Table: "Orders", Index: 1}, "Deleted entity type Order of table Orders"},
	}
	for _, tt := range tests {
		if got := Describe(tt.c, d); got != tt.want {
			t.Errorf("%T: %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestNormalize_fillsItemIDs(t *testing.T) {
	t.Parallel()
	d := Normalize(Design{Name: "x", Tables: []Table{{
		Name: "T", PartitionKey: KeyAttribute{Name: "k", Type: S}, BillingMode: OnDemand,
		Items: []SampleItem{{Item: Item{}}, {ID: "i1", Item: Item{}}, {Item: Item{}}, {ID: "i3", Item: Item{}}, {Item: Item{}}},
	}}})
	var ids []string
	for _, it := range d.Tables[0].Items {
		ids = append(ids, it.ID)
	}
	if want := []string{"i2", "i1", "i4", "i3", "i5"}; !slices.Equal(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	if again := Normalize(d); !reflect.DeepEqual(again, d) {
		t.Errorf("Normalize is not idempotent")
	}
}

func TestCheck_refusesDuplicateItemIDs(t *testing.T) {
	t.Parallel()
	d := ordersDesign(t)
	d.Tables = clone(d.Tables)
	d.Tables[0].Items = clone(d.Tables[0].Items)
	d.Tables[0].Items[2].ID = "i1"
	wantValidationError(t, Check(d), "tables/0/items/2/id")
}
