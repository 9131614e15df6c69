package designer_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// ordersDesign is a small single-table design that exercises every reference a table change must
// follow: a composite key, a GSI with an INCLUDE projection and per-pattern attributes, an LSI, a
// TTL attribute, an SK taxonomy with templates, items, and operations with expression attribute
// names and expected keys.
func ordersDesign(tb testing.TB) designer.Design {
	tb.Helper()
	expected := []designer.Item{{"customer_id": designer.Str("C1"), "sk": designer.Str("ORDER#2025-01-01#A1")}}
	d := designer.Normalize(designer.Design{
		Name: "Shop",
		Patterns: []designer.Pattern{
			{ID: "ap1", Number: 1, Type: designer.Read, Description: "Open orders", Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#s = :s",
				Names: map[string]string{"#s": "status"}, Expected: &expected,
			}}}},
			{ID: "ap2", Number: 2, Type: designer.Read, Description: "A customer's orders", Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "Query", Table: "Orders", KeyCondition: "customer_id = :c",
			}}}},
			{ID: "ap3", Number: 3, Type: designer.Read, Description: "A product", Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "GetItem", Table: "Products", KeyCondition: "product_id = :p",
			}}}},
		},
		Tables: []designer.Table{
			{
				Name:         "Orders",
				PartitionKey: designer.KeyAttribute{Name: "customer_id", Type: designer.S},
				SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
				Attributes: []designer.Attribute{
					{Name: "customer_id", Type: designer.S}, {Name: "sk", Type: designer.S}, {Name: "order_id", Type: designer.S},
					{Name: "status", Type: designer.S}, {Name: "total", Type: designer.N}, {Name: "created_at", Type: designer.S},
					{Name: "expires_at", Type: designer.N},
				},
				EntityTypes: []designer.EntityType{
					{Entity: "Customer", PKTemplate: "{customer_id}", SKTemplate: "PROFILE"},
					{Entity: "Order", PKTemplate: "{customer_id}", SKTemplate: "ORDER#{created_at}#{order_id}"},
				},
				TTLAttribute: "expires_at",
				GSIs: []designer.Index{{
					Name:              "ByStatus",
					PartitionKey:      []designer.KeyAttribute{{Name: "status", Type: designer.S}},
					SortKey:           []designer.KeyAttribute{{Name: "created_at", Type: designer.S}},
					Projection:        designer.Projection{Type: designer.Include, Attributes: []string{"total", "order_id"}},
					PatternAttributes: []designer.PatternAttributes{{Pattern: 1, Attributes: []string{"total", "order_id"}}},
				}},
				LSIs: []designer.Index{{
					Name:         "ByTotal",
					PartitionKey: []designer.KeyAttribute{{Name: "customer_id", Type: designer.S}},
					SortKey:      []designer.KeyAttribute{{Name: "total", Type: designer.N}},
					Projection:   designer.Projection{Type: designer.KeysOnly},
				}},
				Items: []designer.SampleItem{
					{ID: "i1", Item: designer.Item{"customer_id": designer.Str("C1"), "sk": designer.Str("PROFILE"), "nickname": designer.Str("Ada")}},
					{ID: "i2", Item: designer.Item{
						"customer_id": designer.Str("C1"), "sk": designer.Str("ORDER#2025-01-01#A1"), "order_id": designer.Str("A1"),
						"status": designer.Str("OPEN"), "total": designer.Num("19.99"), "created_at": designer.Str("2025-01-01"),
						"expires_at": designer.Num("1700000000"),
					}},
					{ID: "i3", Item: designer.Item{"customer_id": designer.Str("C2"), "order_id": designer.Str("A2"), "created_at": designer.Str("2025-02-02"), "total": designer.Num("5")}},
				},
			},
			{Name: "Products", PartitionKey: designer.KeyAttribute{Name: "product_id", Type: designer.S}, Attributes: []designer.Attribute{{Name: "product_id", Type: designer.S}}},
		},
	})
	if err := designer.Check(d); err != nil {
		tb.Fatalf("ordersDesign does not pass Check: %v", err)
	}
	return d
}

// table returns the table named name of d, failing the test if there is none.
func tableOf(t *testing.T, d designer.Design, name string) designer.Table {
	t.Helper()
	tb, _, ok := d.TableByName(name)
	if !ok {
		t.Fatalf("no table %q", name)
	}
	return tb
}

func indexOf(t *testing.T, d designer.Design, tableName, name string) designer.Index {
	t.Helper()
	ix, _, _, ok := tableOf(t, d, tableName).IndexByName(name)
	if !ok {
		t.Fatalf("table %s has no index %q", tableName, name)
	}
	return ix
}

func itemOf(t *testing.T, d designer.Design, tableName, id string) designer.Item {
	t.Helper()
	it, _, ok := tableOf(t, d, tableName).ItemByID(id)
	if !ok {
		t.Fatalf("table %s has no item %q", tableName, id)
	}
	return it.Item
}

func declaredNames(tb designer.Table) []string {
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
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "defaults to S and on-demand", Change: designer.AddTable{Name: " Users ", PartitionKey: "user_id"},
			Check: func(t *testing.T, _, after designer.Design) {
				tb := tableOf(t, after, "Users")
				if tb.PartitionKey != (designer.KeyAttribute{Name: "user_id", Type: designer.S}) || tb.BillingMode != designer.OnDemand || tb.SortKey != nil {
					t.Errorf("table = %+v", tb)
				}
				if !slices.Equal(declaredNames(tb), []string{"user_id"}) {
					t.Errorf("declared %v, want the key declared", declaredNames(tb))
				}
				if after.Tables[len(after.Tables)-1].Name != "Users" {
					t.Errorf("table not added at the end")
				}
			}},
		{Name: "number key", Change: designer.AddTable{Name: "Users", PartitionKey: "user_id", PartitionKeyType: "number"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Users").PartitionKey.Type; got != designer.N {
					t.Errorf("key type %s, want N", got)
				}
			}},
		{Name: "name too short", Change: designer.AddTable{Name: "Us", PartitionKey: "id"}, Field: "name"},
		{Name: "name with a space", Change: designer.AddTable{Name: "My Users", PartitionKey: "id"}, Field: "name"},
		{Name: "name over 255", Change: designer.AddTable{Name: strings.Repeat("a", 256), PartitionKey: "id"}, Field: "name"},
		{Name: "duplicate name", Change: designer.AddTable{Name: "Orders", PartitionKey: "id"}, Field: "name"},
		{Name: "no partition key", Change: designer.AddTable{Name: "Users", PartitionKey: " "}, Field: "partition_key"},
		{Name: "key type that cannot be a key", Change: designer.AddTable{Name: "Users", PartitionKey: "id", PartitionKeyType: "BOOL"}, Field: "partition_key_type"},
		{Name: "unknown key type", Change: designer.AddTable{Name: "Users", PartitionKey: "id", PartitionKeyType: "DATE"}, Field: "partition_key_type"},
	})
}

func TestRenameTable(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "operations follow", Change: designer.RenameTable{Table: "Orders", To: "Sales"},
			Check: func(t *testing.T, _, after designer.Design) {
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
		{Name: "same name", Change: designer.RenameTable{Table: "Orders", To: "Orders"}},
		{Name: "unknown table", Change: designer.RenameTable{Table: "Nope", To: "Sales"}, Field: "table"},
		{Name: "name taken", Change: designer.RenameTable{Table: "Orders", To: "Products"}, Field: "to"},
		{Name: "name breaks the rule", Change: designer.RenameTable{Table: "Orders", To: "Sales!"}, Field: "to"},
	})
}

func TestSetTableField(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "purpose", Change: designer.SetTableField{Table: "Orders", Field: "purpose", Value: "Orders by customer\n"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").Purpose; got != "Orders by customer" {
					t.Errorf("purpose = %q", got)
				}
			}},
		{Name: "provisioned", Change: designer.SetTableField{Table: "Orders", Field: "billing_mode", Value: "Provisioned"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").BillingMode; got != designer.Provisioned {
					t.Errorf("billing = %q", got)
				}
			}},
		{Name: "on-demand", Change: designer.SetTableField{Table: "Orders", Field: "billing_mode", Value: "on-demand"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").BillingMode; got != designer.OnDemand {
					t.Errorf("billing = %q", got)
				}
			}},
		{Name: "read capacity with separator", Change: designer.SetTableField{Table: "Orders", Field: "read_capacity_units", Value: "1,000"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").ReadUnits; got == nil || *got != 1000 {
					t.Errorf("RCU = %v", got)
				}
			}},
		{Name: "TTL off", Change: designer.SetTableField{Table: "Orders", Field: "ttl_attribute", Value: " "},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").TTLAttribute; got != "" {
					t.Errorf("TTL = %q", got)
				}
			}},
		{Name: "every justification field", Change: designer.SetTableField{Table: "Orders", Field: "sort_key_justification", Value: "Orders sort by date"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").SortKeyWhy; got != "Orders sort by date" {
					t.Errorf("sort key justification = %q", got)
				}
			}},
		{Name: "unknown field", Change: designer.SetTableField{Table: "Orders", Field: "colour", Value: "x"}, Field: "field"},
		{Name: "unknown table", Change: designer.SetTableField{Table: "Nope", Field: "purpose", Value: "x"}, Field: "table"},
		{Name: "bad billing mode", Change: designer.SetTableField{Table: "Orders", Field: "billing_mode", Value: "cheap"}, Field: "billing_mode"},
		{Name: "negative capacity", Change: designer.SetTableField{Table: "Orders", Field: "write_capacity_units", Value: "-1"}, Field: "write_capacity_units"},
		{Name: "control character", Change: designer.SetTableField{Table: "Orders", Field: "capacity_notes", Value: "a\x00"}, Field: "capacity_notes"},
		{Name: "TTL name on two lines", Change: designer.SetTableField{Table: "Orders", Field: "ttl_attribute", Value: "a\nb"}, Field: "ttl_attribute"},
	})
	for _, f := range designer.TableFields {
		if f.Label == "" {
			t.Errorf("field %q has no label", f.Key)
		}
		d, err := (designer.SetTableField{Table: "Orders", Field: f.Key, Value: ""}).Apply(ordersDesign(t))
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
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "renaming the partition key renames it everywhere", Change: designer.SetTableKey{Table: "Orders", Which: "partition", Name: "cust"},
			Check: func(t *testing.T, _, after designer.Design) {
				tb := tableOf(t, after, "Orders")
				if tb.PartitionKey != (designer.KeyAttribute{Name: "cust", Type: designer.S}) {
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
		{Name: "an existing attribute becomes the sort key", Change: designer.SetTableKey{Table: "Orders", Which: "sort", Name: "order_id"},
			Check: func(t *testing.T, before, after designer.Design) {
				tb := tableOf(t, after, "Orders")
				if *tb.SortKey != (designer.KeyAttribute{Name: "order_id", Type: designer.S}) {
					t.Errorf("sort key = %+v", tb.SortKey)
				}
				if !reflect.DeepEqual(tb.Items, tableOf(t, before, "Orders").Items) {
					t.Errorf("items changed")
				}
			}},
		{Name: "type change retypes the LSI", Change: designer.SetTableKey{Table: "Orders", Which: "partition", Name: "customer_id", Type: "N"},
			Check: func(t *testing.T, _, after designer.Design) {
				tb := tableOf(t, after, "Orders")
				if tb.PartitionKey.Type != designer.N || tb.LSIs[0].PartitionKey[0].Type != designer.N {
					t.Errorf("types %s %s", tb.PartitionKey.Type, tb.LSIs[0].PartitionKey[0].Type)
				}
				if a, _, _ := tb.AttributeByName("customer_id"); a.Type != designer.N {
					t.Errorf("declared type %s", a.Type)
				}
			}},
		{Name: "a new sort key on a simple table", Change: designer.SetTableKey{Table: "Products", Which: "sort", Name: "version", Type: "N"},
			Check: func(t *testing.T, _, after designer.Design) {
				if sk := tableOf(t, after, "Products").SortKey; sk == nil || *sk != (designer.KeyAttribute{Name: "version", Type: designer.N}) {
					t.Errorf("sort key = %+v", sk)
				}
			}},
		{Name: "removing the sort key of a table without LSIs", Change: designer.SetTableKey{Table: "Products", Which: "sort", Name: ""}},
		{Name: "removing the sort key while an LSI needs it", Change: designer.SetTableKey{Table: "Orders", Which: "sort", Name: ""}, Field: "name"},
		{Name: "partition key cannot be removed", Change: designer.SetTableKey{Table: "Orders", Which: "partition", Name: ""}, Field: "name"},
		{Name: "the other key", Change: designer.SetTableKey{Table: "Orders", Which: "sort", Name: "customer_id"}, Field: "name"},
		{Name: "bad which", Change: designer.SetTableKey{Table: "Orders", Which: "hash", Name: "x"}, Field: "which"},
		{Name: "non-key type", Change: designer.SetTableKey{Table: "Orders", Which: "sort", Name: "sk", Type: "BOOL"}, Field: "type"},
		{Name: "unknown table", Change: designer.SetTableKey{Table: "Nope", Which: "sort", Name: "x"}, Field: "table"},
	})
}

func TestDeleteAndMoveTable(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "delete", Change: designer.DeleteTable{Table: "Orders"},
			Check: func(t *testing.T, _, after designer.Design) {
				if len(after.Tables) != 1 || after.Tables[0].Name != "Products" {
					t.Errorf("tables = %v", after.Tables)
				}
			}},
		{Name: "delete unknown", Change: designer.DeleteTable{Table: "Nope"}, Field: "table"},
		{Name: "move to the front", Change: designer.MoveTable{Table: "Products", To: -3},
			Check: func(t *testing.T, _, after designer.Design) {
				if after.Tables[0].Name != "Products" {
					t.Errorf("first table = %s", after.Tables[0].Name)
				}
			}},
		{Name: "move unknown", Change: designer.MoveTable{Table: "Nope"}, Field: "table"},
	})
}

func TestTableAttributes(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "add", Change: designer.AddTableAttribute{Table: "Orders", Name: "coupon", Type: "string set"},
			Check: func(t *testing.T, _, after designer.Design) {
				a, _, ok := tableOf(t, after, "Orders").AttributeByName("coupon")
				if !ok || a.Type != designer.SS {
					t.Errorf("coupon = %+v %v", a, ok)
				}
			}},
		{Name: "add duplicate", Change: designer.AddTableAttribute{Table: "Orders", Name: "total"}, Field: "name"},
		{Name: "add bad type", Change: designer.AddTableAttribute{Table: "Orders", Name: "x", Type: "DATE"}, Field: "type"},
		{Name: "add without name", Change: designer.AddTableAttribute{Table: "Orders", Name: ""}, Field: "name"},
		{Name: "set type", Change: designer.SetTableAttributeType{Table: "Orders", Attribute: "expires_at", Type: designer.S},
			Check: func(t *testing.T, _, after designer.Design) {
				if a, _, _ := tableOf(t, after, "Orders").AttributeByName("expires_at"); a.Type != designer.S {
					t.Errorf("type = %s", a.Type)
				}
			}},
		{Name: "set type of an index key follows into the index", Change: designer.SetTableAttributeType{Table: "Orders", Attribute: "total", Type: designer.S},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").SortKey[0].Type; got != designer.S {
					t.Errorf("LSI sort key type = %s", got)
				}
			}},
		{Name: "a key attribute cannot become a map", Change: designer.SetTableAttributeType{Table: "Orders", Attribute: "status", Type: designer.M}, Field: "type"},
		{Name: "set type blank", Change: designer.SetTableAttributeType{Table: "Orders", Attribute: "status", Type: ""}, Field: "type"},
		{Name: "set type undeclared", Change: designer.SetTableAttributeType{Table: "Orders", Attribute: "nickname", Type: designer.S}, Field: "attribute"},
		{Name: "delete removes the values and the references", Change: designer.DeleteTableAttribute{Table: "Orders", Attribute: "order_id"},
			Check: func(t *testing.T, _, after designer.Design) {
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
		{Name: "delete the TTL attribute turns TTL off", Change: designer.DeleteTableAttribute{Table: "Orders", Attribute: "expires_at"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").TTLAttribute; got != "" {
					t.Errorf("TTL = %q", got)
				}
			}},
		{Name: "delete an undeclared item attribute", Change: designer.DeleteTableAttribute{Table: "Orders", Attribute: "nickname"}},
		{Name: "delete unknown", Change: designer.DeleteTableAttribute{Table: "Orders", Attribute: "colour"}, Field: "attribute"},
		{Name: "delete the partition key", Change: designer.DeleteTableAttribute{Table: "Orders", Attribute: "customer_id"}, Field: "attribute"},
		{Name: "delete an index key", Change: designer.DeleteTableAttribute{Table: "Orders", Attribute: "status"}, Field: "attribute"},
		{Name: "generator", Change: designer.SetAttributeGenerator{Table: "Orders", Attribute: "status", Generator: &designer.Generator{Kind: "one_of", Values: []string{" OPEN ", "SHIPPED", ""}}},
			Check: func(t *testing.T, _, after designer.Design) {
				a, _, _ := tableOf(t, after, "Orders").AttributeByName("status")
				if a.Generator == nil || !slices.Equal(a.Generator.Values, []string{"OPEN", "SHIPPED", ""}) {
					t.Errorf("generator = %+v", a.Generator)
				}
			}},
		{Name: "generator cleared", Change: designer.SetAttributeGenerator{Table: "Orders", Attribute: "status"}},
		{Name: "generator range upside down", Change: designer.SetAttributeGenerator{Table: "Orders", Attribute: "total", Generator: &designer.Generator{Kind: "number", Min: floatPtr(10.0), Max: floatPtr(1.0)}}, Field: "generator/max"},
		{Name: "generator without kind", Change: designer.SetAttributeGenerator{Table: "Orders", Attribute: "total", Generator: &designer.Generator{}}, Field: "generator/kind"},
		{Name: "generator of an unknown kind", Change: designer.SetAttributeGenerator{Table: "Orders", Attribute: "total", Generator: &designer.Generator{Kind: "pick"}}, Field: "generator/kind"},
		{Name: "generator on undeclared", Change: designer.SetAttributeGenerator{Table: "Orders", Attribute: "nickname", Generator: &designer.Generator{Kind: "one_of"}}, Field: "attribute"},
	})
}

func floatPtr(v float64) *float64 { return &v }

func TestDeleteTableAttribute_namesTheKey(t *testing.T) {
	t.Parallel()
	_, err := designer.DeleteTableAttribute{Table: "Orders", Attribute: "status"}.Apply(ordersDesign(t))
	wantMessage(t, err, "partition key of index ByStatus")
	_, err = designer.DeleteTableAttribute{Table: "Orders", Attribute: "customer_id"}.Apply(ordersDesign(t))
	wantMessage(t, err, "partition key of table Orders", "partition key of index ByTotal")
}

func TestRenameTableAttribute_followsEveryReference(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, attr, to string
		check          func(t *testing.T, tb designer.Table, d designer.Design)
	}{
		{name: "table partition key, LSI, templates, expected keys", attr: "customer_id", to: "cust", check: func(t *testing.T, tb designer.Table, d designer.Design) {
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
		{name: "table sort key", attr: "sk", to: "record", check: func(t *testing.T, tb designer.Table, _ designer.Design) {
			if tb.SortKey.Name != "record" {
				t.Errorf("sort key %+v", tb.SortKey)
			}
		}},
		{name: "GSI partition key and expression names", attr: "status", to: "state", check: func(t *testing.T, tb designer.Table, d designer.Design) {
			if tb.GSIs[0].PartitionKey[0].Name != "state" {
				t.Errorf("GSI key %+v", tb.GSIs[0].PartitionKey)
			}
			if got := d.Patterns[0].Mapping.Operations[0].Names["#s"]; got != "state" {
				t.Errorf("#s = %q", got)
			}
		}},
		{name: "GSI sort key and SK template placeholder", attr: "created_at", to: "placed_at", check: func(t *testing.T, tb designer.Table, _ designer.Design) {
			if tb.GSIs[0].SortKey[0].Name != "placed_at" {
				t.Errorf("GSI sort key %+v", tb.GSIs[0].SortKey)
			}
			if got := tb.EntityTypes[1].SKTemplate; got != "ORDER#{placed_at}#{order_id}" {
				t.Errorf("SK template %q", got)
			}
		}},
		{name: "INCLUDE, per-pattern attributes and LSI sort key", attr: "total", to: "amount", check: func(t *testing.T, tb designer.Table, _ designer.Design) {
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
		{name: "TTL attribute", attr: "expires_at", to: "ttl", check: func(t *testing.T, tb designer.Table, _ designer.Design) {
			if tb.TTLAttribute != "ttl" {
				t.Errorf("TTL %q", tb.TTLAttribute)
			}
		}},
		{name: "an attribute only items have", attr: "nickname", to: "full_name", check: func(t *testing.T, tb designer.Table, _ designer.Design) {
			if !reflect.DeepEqual(tb.Items[0].Item["full_name"], designer.Str("Ada")) {
				t.Errorf("item %v", tb.Items[0].Item)
			}
		}},
	}
	cases := []designertest.ChangeCase{
		{Name: "unknown attribute", Change: designer.RenameTableAttribute{Table: "Orders", Attribute: "colour", To: "x"}, Field: "attribute"},
		{Name: "name taken", Change: designer.RenameTableAttribute{Table: "Orders", Attribute: "status", To: "total"}, Field: "to"},
		{Name: "name taken by an item attribute", Change: designer.RenameTableAttribute{Table: "Orders", Attribute: "status", To: "nickname"}, Field: "to"},
		{Name: "empty name", Change: designer.RenameTableAttribute{Table: "Orders", Attribute: "status", To: ""}, Field: "to"},
	}
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.RenameTableAttribute{Table: "Orders", Attribute: tt.attr, To: tt.to},
			Check: func(t *testing.T, before, got designer.Design) {
				tb := tableOf(t, got, "Orders")
				for _, it := range tb.Items {
					if _, ok := it.Item[tt.attr]; ok {
						t.Errorf("item %s keeps %s", it.ID, tt.attr)
					}
				}
				if slices.Contains(declaredNames(tb), tt.attr) {
					t.Errorf("still declared as %s", tt.attr)
				}
				if strings.Contains(string(designertest.MustMarshal(t, designer.Design{Tables: []designer.Table{tb}})), `"`+tt.attr+`"`) {
					t.Errorf("table still names %s:\n%s", tt.attr, designertest.MustMarshal(t, designer.Design{Tables: []designer.Table{tb}}))
				}
				if !reflect.DeepEqual(tableOf(t, got, "Products"), tableOf(t, before, "Products")) {
					t.Errorf("another table changed")
				}
				tt.check(t, tb, got)
			}})
	}
	designertest.RunChangeCases(t, ordersDesign(t), cases)
}

func TestEntityTypes(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "add", Change: designer.AddEntityType{Table: "Orders", Entity: "Invoice", PKTemplate: "{customer_id}", SKTemplate: "INVOICE#{invoice_id}"},
			Check: func(t *testing.T, _, after designer.Design) {
				ets := tableOf(t, after, "Orders").EntityTypes
				if len(ets) != 3 || ets[2] != (designer.EntityType{Entity: "Invoice", PKTemplate: "{customer_id}", SKTemplate: "INVOICE#{invoice_id}"}) {
					t.Errorf("entity types %+v", ets)
				}
			}},
		{Name: "add without entity", Change: designer.AddEntityType{Table: "Orders"}, Field: "entity"},
		{Name: "add template on two lines", Change: designer.AddEntityType{Table: "Orders", Entity: "X", SKTemplate: "A\nB"}, Field: "sk_template"},
		{Name: "set", Change: designer.SetEntityTypeField{Table: "Orders", Index: 1, Field: "description", Value: "One per order"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tableOf(t, after, "Orders").EntityTypes[1].Description; got != "One per order" {
					t.Errorf("description %q", got)
				}
			}},
		{Name: "set unknown field", Change: designer.SetEntityTypeField{Table: "Orders", Index: 1, Field: "colour"}, Field: "field"},
		{Name: "set out of range", Change: designer.SetEntityTypeField{Table: "Orders", Index: 2, Field: "entity", Value: "X"}, Field: "index"},
		{Name: "set empty entity", Change: designer.SetEntityTypeField{Table: "Orders", Index: 0, Field: "entity", Value: ""}, Field: "entity"},
		{Name: "delete", Change: designer.DeleteEntityType{Table: "Orders", Index: 0},
			Check: func(t *testing.T, _, after designer.Design) {
				if ets := tableOf(t, after, "Orders").EntityTypes; len(ets) != 1 || ets[0].Entity != "Order" {
					t.Errorf("entity types %+v", ets)
				}
			}},
		{Name: "delete out of range", Change: designer.DeleteEntityType{Table: "Orders", Index: -1}, Field: "index"},
	})
}

func TestTableChanges_summaries(t *testing.T) {
	t.Parallel()
	d := ordersDesign(t)
	tests := []struct {
		c    designer.Change
		want string
	}{
		{designer.AddTable{Name: "Users", PartitionKey: "id"}, "Added table Users"},
		{designer.RenameTable{Table: "Orders", To: "Sales"}, "Renamed table Orders to Sales"},
		{designer.SetTableField{Table: "Orders", Field: "billing_mode", Value: "on-demand"}, "Set table Orders's billing mode to PAY_PER_REQUEST"},
		{designer.SetTableField{Table: "Orders", Field: "purpose", Value: "x"}, "Edited table Orders's purpose"},
		{designer.SetTableKey{Table: "Orders", Which: "sort", Name: ""}, "Removed the sort key of table Orders"},
		{designer.RenameTableAttribute{Table: "Orders", Attribute: "total", To: "amount"}, "Renamed attribute total of table Orders to amount"},
		{designer.DeleteEntityType{Table: "Orders", Index: 1}, "Deleted entity type Order of table Orders"},
	}
	for _, tt := range tests {
		if got := designer.Describe(tt.c, d); got != tt.want {
			t.Errorf("%T: %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestNormalize_fillsItemIDs(t *testing.T) {
	t.Parallel()
	d := designer.Normalize(designer.Design{Name: "x", Tables: []designer.Table{{
		Name: "T", PartitionKey: designer.KeyAttribute{Name: "k", Type: designer.S}, BillingMode: designer.OnDemand,
		Items: []designer.SampleItem{{Item: designer.Item{}}, {ID: "i1", Item: designer.Item{}}, {Item: designer.Item{}}, {ID: "i3", Item: designer.Item{}}, {Item: designer.Item{}}},
	}}})
	var ids []string
	for _, it := range d.Tables[0].Items {
		ids = append(ids, it.ID)
	}
	if want := []string{"i2", "i1", "i4", "i3", "i5"}; !slices.Equal(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	if again := designer.Normalize(d); !reflect.DeepEqual(again, d) {
		t.Errorf("Normalize is not idempotent")
	}
}

func TestCheck_refusesDuplicateItemIDs(t *testing.T) {
	t.Parallel()
	d := ordersDesign(t)
	d.Tables = clone(d.Tables)
	d.Tables[0].Items = clone(d.Tables[0].Items)
	d.Tables[0].Items[2].ID = "i1"
	designertest.WantValidationError(t, designer.Check(d), "tables/0/items/2/id")
}

// An entity type's key templates declare the attributes they name with the entity's types, so the
// table is not told a type the entity already gave; one the entity does not type stays undeclared.
func TestAddEntityType_declaresTheTemplatesAttributesWithTheEntitysTypes(t *testing.T) {
	d := designer.Design{
		Entities: []designer.Entity{{Name: "Job", Attributes: []designer.Attribute{{Name: "job_id", Type: "S"}, {Name: "seq", Type: "N"}}}},
		Tables: []designer.Table{{Name: "Customers",
			PartitionKey: designer.KeyAttribute{Name: "customer_id", Type: "S"},
			SortKey:      &designer.KeyAttribute{Name: "sk", Type: "S"}}},
	}
	d, err := designer.AddEntityType{Table: "Customers", Entity: "Job", PKTemplate: "{customer_id}", SKTemplate: "JOB#{job_id}#{line}"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := typedNames(d.Tables[0]); !slices.Equal(got, []string{"job_id S"}) {
		t.Errorf("declared %v, want job_id S alone (customer_id is the key, line is not typed by Job)", got)
	}
	d, err = designer.SetEntityTypeField{Table: "Customers", Index: 0, Field: "sk_template", Value: "JOB#{seq}"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := typedNames(d.Tables[0]); !slices.Equal(got, []string{"job_id S", "seq N"}) {
		t.Errorf("after the new template, declared %v, want job_id S and seq N", got)
	}
}

func typedNames(tb designer.Table) []string {
	var names []string
	for _, a := range tb.Attributes {
		names = append(names, a.Name+" "+string(a.Type))
	}
	return names
}
