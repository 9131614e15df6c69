package cloudformation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/tabledef"
)

type cfnTestTemplate struct {
	AWSTemplateFormatVersion string
	Description              string
	Resources                map[string]struct {
		Type       string
		Properties tabledef.Table
	}
}

func exportCFN(t *testing.T, d designer.Design) cfnTestTemplate {
	t.Helper()
	out, err := Export(d)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	var tpl cfnTestTemplate
	if err := json.Unmarshal(resolved(t, out), &tpl); err != nil {
		t.Fatalf("the template is not JSON: %v\n%s", err, out)
	}
	return tpl
}

// resolved is the template as a stack created with the parameters' defaults sees it: the
// intrinsic functions worked out by goformation's processor.
func resolved(t *testing.T, out []byte) []byte {
	t.Helper()
	r, err := Resolve(out, nil)
	if err != nil {
		t.Fatalf("goformation cannot process the template: %v\n%s", err, out)
	}
	return r
}

// cfnTable returns the properties of the resource whose TableName is name.
func cfnTable(t *testing.T, tpl cfnTestTemplate, name string) tabledef.Table {
	t.Helper()
	for _, r := range tpl.Resources {
		if r.Properties.TableName == name {
			return r.Properties
		}
	}
	t.Fatalf("no resource for table %s", name)
	return tabledef.Table{}
}

func TestExport_golden(t *testing.T) {
	t.Parallel()
	got, err := Export(designertest.OrdersDesign())
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/cloudformation.golden", got)
}

func TestExport_hrGolden(t *testing.T) {
	t.Parallel()
	got, err := Export(designertest.HRDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/hr-cloudformation.golden", got)
}

func TestExport_templateShape(t *testing.T) {
	t.Parallel()
	out, err := Export(designertest.OrdersDesign())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("\n\n")) {
		t.Fatalf("the template does not end with one newline: %q", out[max(0, len(out)-10):])
	}
	if !bytes.HasPrefix(out, []byte("{\n  \"AWSTemplateFormatVersion\": \"2010-09-09\",\n")) {
		t.Fatalf("the template does not open with its format version, indented by two spaces:\n%.200s", out)
	}
	tpl := exportCFN(t, designertest.OrdersDesign())
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

func TestExport_attributeDefinitionsAreTheKeyAttributes(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]designer.Design{"export test": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)} {
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

func keySchemasOf(def tabledef.Table) [][]tabledef.KeySchemaElement {
	out := [][]tabledef.KeySchemaElement{def.KeySchema}
	for _, ix := range slices.Concat(def.GlobalSecondaryIndexes, def.LocalSecondaryIndexes) {
		out = append(out, ix.KeySchema)
	}
	return out
}

func TestExport_indexesProjectionsCapacityAndTTL(t *testing.T) {
	t.Parallel()
	tpl := exportCFN(t, designertest.OrdersDesign())
	orders := cfnTable(t, tpl, "orders.v2-main")
	if orders.BillingMode != designer.Provisioned || orders.ProvisionedThroughput == nil ||
		*orders.ProvisionedThroughput != (tabledef.Throughput{ReadCapacityUnits: 5, WriteCapacityUnits: 3}) {
		t.Fatalf("orders: BillingMode %s, ProvisionedThroughput %+v; want PROVISIONED 5/3", orders.BillingMode, orders.ProvisionedThroughput)
	}
	if orders.TimeToLiveSpecification == nil || *orders.TimeToLiveSpecification != (tabledef.TTLSpecification{AttributeName: "expires_at", Enabled: true}) {
		t.Fatalf("orders: TimeToLiveSpecification = %+v", orders.TimeToLiveSpecification)
	}
	if len(orders.GlobalSecondaryIndexes) != 3 || len(orders.LocalSecondaryIndexes) != 1 {
		t.Fatalf("orders has %d GSIs and %d LSIs, want 3 and 1", len(orders.GlobalSecondaryIndexes), len(orders.LocalSecondaryIndexes))
	}
	byStatus := orders.GlobalSecondaryIndexes[0]
	wantKeys := []tabledef.KeySchemaElement{{AttributeName: "tenant_id", KeyType: "HASH"}, {AttributeName: "status", KeyType: "HASH"}, {AttributeName: "created_at", KeyType: "RANGE"}, {AttributeName: "order_id", KeyType: "RANGE"}}
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
	if want := []tabledef.KeySchemaElement{{AttributeName: "tenant_id", KeyType: "HASH"}, {AttributeName: "amount", KeyType: "RANGE"}}; !slices.Equal(lsi.KeySchema, want) {
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
	if want := []tabledef.KeySchemaElement{{AttributeName: "order_id", KeyType: "HASH"}}; !slices.Equal(items.KeySchema, want) {
		t.Fatalf("order_items key schema = %v, want %v", items.KeySchema, want)
	}
	if blobs := cfnTable(t, tpl, "order-items"); blobs.AttributeDefinitions[0] != (tabledef.AttributeDefinition{AttributeName: "id", AttributeType: designer.B}) {
		t.Fatalf("binary key defined as %+v", blobs.AttributeDefinitions)
	}
}

func TestExport_defaultsForBlankModes(t *testing.T) {
	t.Parallel()
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
	if want := []tabledef.AttributeDefinition{{AttributeName: "id", AttributeType: designer.S}, {AttributeName: "kind", AttributeType: designer.S}}; !slices.Equal(props.AttributeDefinitions, want) {
		t.Fatalf("untyped keys defined as %v, want %v", props.AttributeDefinitions, want)
	}
}

func TestExport_refusesWhatDynamoDBWouldRefuse(t *testing.T) {
	t.Parallel()
	for _, tc := range designertest.TableErrorCases() {
		t.Run(tc.Name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			tc.Edit(&d)
			before := designertest.MustMarshal(t, d)
			out, err := Export(d)
			if out != nil {
				t.Fatalf("an export came back with the error %v", err)
			}
			designertest.WantValidationError(t, err, tc.Field)
			designertest.AssertUnchanged(t, before, d)
		})
	}
	_, err := Export(designer.Design{Name: "empty"})
	designertest.WantValidationError(t, err, "tables")
}

func TestExport_errorsNameTheIndex(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	d.Tables[0].GSIs[0].SortKey = append(d.Tables[0].GSIs[0].SortKey, designer.KeyAttribute{Name: "a", Type: designer.S}, designer.KeyAttribute{Name: "b", Type: designer.S}, designer.KeyAttribute{Name: "c", Type: designer.S})
	_, err := Export(d)
	designertest.WantValidationError(t, err, "tables/0/gsis/0/sort_key")
	if !strings.Contains(err.Error(), "ByStatus") {
		t.Fatalf("error %q does not name the index", err)
	}
}

func TestExport_deterministic(t *testing.T) {
	t.Parallel()
	designertest.AssertDeterministic(t, Export, designertest.OrdersDesign())
}

func TestExport_namesRoundTripThroughJSON(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
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

func TestDescription_fitsCloudFormationsLimit(t *testing.T) {
	t.Parallel()
	desc := description(strings.Repeat("é", 2000))
	if len(desc) > descriptionMax || !strings.HasSuffix(desc, "é…”") {
		t.Fatalf("description of %d bytes ends %q", len(desc), desc[len(desc)-8:])
	}
}

func TestExport_midSizeDesign(t *testing.T) {
	t.Parallel()
	if _, err := Export(designertest.MidSizeDesign()); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkExport(b *testing.B) {
	d := designertest.MidSizeDesign()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Export(d); err != nil {
			b.Fatal(err)
		}
	}
}

func TestExport_tableClass(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	if len(d.Tables) < 3 {
		t.Fatalf("the orders design has %d tables, want 3", len(d.Tables))
	}
	d.Tables[0].TableClass = designer.StandardIAClass
	d.Tables[1].TableClass = designer.StandardClass
	out, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Resources map[string]struct{ Properties map[string]json.RawMessage }
	}
	if err := json.Unmarshal(resolved(t, out), &raw); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{d.Tables[0].Name: `"STANDARD_INFREQUENT_ACCESS"`, d.Tables[1].Name: `"STANDARD"`, d.Tables[2].Name: ""}
	for _, r := range raw.Resources {
		var name string
		if err := json.Unmarshal(r.Properties["TableName"], &name); err != nil {
			t.Fatal(err)
		}
		w, ok := want[name]
		if !ok {
			continue
		}
		if got := string(r.Properties["TableClass"]); got != w {
			t.Errorf("table %s: TableClass = %s, want %s", name, got, w)
		}
	}
	d.Tables[2].TableClass = "GLACIER"
	_, err = Export(d)
	designertest.WantValidationError(t, err, "tables/2/table_class")
}

// The stack's parameters change what it creates as they say: a prefix before every name, every
// table on-demand or provisioned (an on-demand table then takes 5 and 5, each GSI too), and
// point-in-time recovery off; their defaults create the design as it is.
func TestExport_parametersSetPrefixBillingAndRecovery(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	d.Tables[0].BillingMode = designer.Provisioned
	r, w := int64(7), int64(3)
	d.Tables[0].ReadUnits, d.Tables[0].WriteUnits = &r, &w
	d.Tables[1].BillingMode = designer.OnDemand
	out, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	type props struct {
		TableName                        string
		BillingMode                      string
		ProvisionedThroughput            *tabledef.Throughput
		GlobalSecondaryIndexes           []tabledef.Index
		PointInTimeRecoverySpecification struct{ PointInTimeRecoveryEnabled bool }
	}
	stack := func(overrides map[string]any) []props {
		t.Helper()
		b, err := Resolve(out, overrides)
		if err != nil {
			t.Fatal(err)
		}
		var tpl struct {
			Resources map[string]struct{ Properties props }
		}
		if err := json.Unmarshal(b, &tpl); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		var ps []props
		for _, id := range tabledef.LogicalIDs(d.Tables[:2]) {
			ps = append(ps, tpl.Resources[id].Properties)
		}
		return ps
	}
	units := func(tp *tabledef.Throughput) string {
		if tp == nil {
			return "none"
		}
		return fmt.Sprintf("%d/%d", tp.ReadCapacityUnits, tp.WriteCapacityUnits)
	}
	for _, tc := range []struct {
		overrides      map[string]any
		prefix         string
		billing, units [2]string
		pitr           bool
	}{
		{nil, "", [2]string{"PROVISIONED", "PAY_PER_REQUEST"}, [2]string{"7/3", "none"}, true},
		{map[string]any{"NamePrefix": "dev-", "PointInTimeRecovery": "false"}, "dev-", [2]string{"PROVISIONED", "PAY_PER_REQUEST"}, [2]string{"7/3", "none"}, false},
		{map[string]any{"BillingMode": "PAY_PER_REQUEST"}, "", [2]string{"PAY_PER_REQUEST", "PAY_PER_REQUEST"}, [2]string{"none", "none"}, true},
		{map[string]any{"BillingMode": "PROVISIONED"}, "", [2]string{"PROVISIONED", "PROVISIONED"}, [2]string{"7/3", "5/5"}, true},
	} {
		for i, p := range stack(tc.overrides) {
			if want := tc.prefix + d.Tables[i].Name; p.TableName != want {
				t.Errorf("%v: table %d is named %q, want %q", tc.overrides, i, p.TableName, want)
			}
			if p.BillingMode != tc.billing[i] || units(p.ProvisionedThroughput) != tc.units[i] {
				t.Errorf("%v: table %s is %s with %s units, want %s with %s", tc.overrides, d.Tables[i].Name, p.BillingMode, units(p.ProvisionedThroughput), tc.billing[i], tc.units[i])
			}
			for _, g := range p.GlobalSecondaryIndexes {
				if units(g.ProvisionedThroughput) != tc.units[i] {
					t.Errorf("%v: GSI %s of %s has %s units, want %s", tc.overrides, g.IndexName, d.Tables[i].Name, units(g.ProvisionedThroughput), tc.units[i])
				}
			}
			if p.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled != tc.pitr {
				t.Errorf("%v: point-in-time recovery %v, want %v", tc.overrides, !tc.pitr, tc.pitr)
			}
		}
	}
}
