package terraform

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/tabledef"
)

// file is the Terraform export as hcl/v2 decodes it: every block and argument the export writes,
// and nothing else (gohcl refuses an argument or block the structs do not name).
type file struct {
	Variables []struct {
		Name        string         `hcl:"name,label"`
		Type        hcl.Expression `hcl:"type"`
		Description string         `hcl:"description"`
		Default     hcl.Expression `hcl:"default"`
	} `hcl:"variable,block"`
	Resources []struct {
		Type          string         `hcl:"type,label"`
		Name          string         `hcl:"name,label"`
		TableName     hcl.Expression `hcl:"name"`
		BillingMode   string         `hcl:"billing_mode"`
		ReadCapacity  *int64         `hcl:"read_capacity,optional"`
		WriteCapacity *int64         `hcl:"write_capacity,optional"`
		HashKey       string         `hcl:"hash_key"`
		RangeKey      *string        `hcl:"range_key,optional"`
		TableClass    *string        `hcl:"table_class,optional"`
		Attributes    []struct {
			Name string `hcl:"name"`
			Type string `hcl:"type"`
		} `hcl:"attribute,block"`
		GSIs []struct {
			Name           string   `hcl:"name"`
			HashKey        string   `hcl:"hash_key"`
			RangeKey       *string  `hcl:"range_key,optional"`
			ProjectionType string   `hcl:"projection_type"`
			NonKey         []string `hcl:"non_key_attributes,optional"`
			ReadCapacity   *int64   `hcl:"read_capacity,optional"`
			WriteCapacity  *int64   `hcl:"write_capacity,optional"`
		} `hcl:"global_secondary_index,block"`
		LSIs []struct {
			Name           string   `hcl:"name"`
			RangeKey       string   `hcl:"range_key,optional"`
			ProjectionType string   `hcl:"projection_type"`
			NonKey         []string `hcl:"non_key_attributes,optional"`
		} `hcl:"local_secondary_index,block"`
		TTL []struct {
			AttributeName string `hcl:"attribute_name"`
			Enabled       bool   `hcl:"enabled"`
		} `hcl:"ttl,block"`
		PITR []struct {
			Enabled hcl.Expression `hcl:"enabled"`
		} `hcl:"point_in_time_recovery,block"`
	} `hcl:"resource,block"`
}

func parse(t *testing.T, src []byte) file {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL(src, "dynamodb.tf")
	if diags.HasErrors() {
		t.Fatalf("hcl/v2 does not parse the export: %v\n%s", diags, src)
	}
	var out file
	if diags := gohcl.DecodeBody(f.Body, nil, &out); diags.HasErrors() {
		t.Fatalf("the export has a block or argument the test does not expect: %v", diags)
	}
	return out
}

// traversal reads an expression that is a reference such as var.name_prefix.
func traversal(t *testing.T, e hcl.Expression) string {
	t.Helper()
	var parts []string
	for _, v := range e.Variables() {
		for _, step := range v {
			switch s := step.(type) {
			case hcl.TraverseRoot:
				parts = append(parts, s.Name)
			case hcl.TraverseAttr:
				parts = append(parts, s.Name)
			}
		}
	}
	return strings.Join(parts, ".")
}

func TestExport_golden(t *testing.T) {
	t.Parallel()
	d, err := designer.ExampleDesign("punch-lists")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/punch-lists.tf.golden", got)
	got, err = Export(designertest.OrdersDesign())
	if err != nil {
		t.Fatal(err)
	}
	designertest.Golden(t, "testdata/orders.tf.golden", got)
}

// Read back with hcl/v2, the file holds each table as the CloudFormation description of it
// (package tabledef) does: keys, attribute types, indexes, projections, capacity, TTL and class;
// less only the GSIs LeftOut names.
func TestExport_readsBackAsTheTables(t *testing.T) {
	t.Parallel()
	designs := map[string]designer.Design{"orders": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)}
	ia := designertest.OrdersDesign()
	ia.Tables[1].TableClass = designer.StandardIAClass
	designs["orders, infrequent access"] = ia
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs[ex.ID] = d
	}
	for name, d := range designs {
		t.Run(name, func(t *testing.T) {
			src, err := Export(d)
			if err != nil {
				t.Fatal(err)
			}
			f := parse(t, src)
			if len(f.Variables) != 2 || f.Variables[0].Name != "name_prefix" || f.Variables[1].Name != "point_in_time_recovery" {
				t.Fatalf("variables = %+v, want name_prefix and point_in_time_recovery", f.Variables)
			}
			defs, err := tabledef.Tables(d, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Resources) != len(defs) {
				t.Fatalf("%d resources for %d tables", len(f.Resources), len(defs))
			}
			for i, r := range f.Resources {
				def, tb := defs[i], d.Tables[i]
				if r.Type != "aws_dynamodb_table" {
					t.Fatalf("resource %s is %s", r.Name, r.Type)
				}
				tmpl, ok := r.TableName.(interface{ Variables() []hcl.Traversal })
				if !ok || traversal(t, tmpl.(hcl.Expression)) != "var.name_prefix" || !strings.HasSuffix(string(r.TableName.Range().SliceBytes(src)), def.TableName+`"`) {
					t.Errorf("%s: name is %s, want \"${var.name_prefix}%s\"", r.Name, r.TableName.Range().SliceBytes(src), def.TableName)
				}
				if r.BillingMode != def.BillingMode {
					t.Errorf("%s: billing_mode %s, want %s", r.Name, r.BillingMode, def.BillingMode)
				}
				if tp := def.ProvisionedThroughput; (tp == nil) != (r.ReadCapacity == nil) || tp != nil && (*r.ReadCapacity != tp.ReadCapacityUnits || *r.WriteCapacity != tp.WriteCapacityUnits) {
					t.Errorf("%s: capacity %v/%v, want %+v", r.Name, r.ReadCapacity, r.WriteCapacity, tp)
				}
				keys := []tabledef.KeySchemaElement{{AttributeName: r.HashKey, KeyType: "HASH"}}
				if r.RangeKey != nil {
					keys = append(keys, tabledef.KeySchemaElement{AttributeName: *r.RangeKey, KeyType: "RANGE"})
				}
				if !slices.Equal(keys, def.KeySchema) {
					t.Errorf("%s: key %v, want %v", r.Name, keys, def.KeySchema)
				}
				if (r.TableClass == nil) != (tb.TableClass == "") || r.TableClass != nil && *r.TableClass != tb.TableClass {
					t.Errorf("%s: table_class %v, want %q", r.Name, r.TableClass, tb.TableClass)
				}
				used := map[string]bool{}
				for _, e := range def.KeySchema {
					used[e.AttributeName] = true
				}
				var wantGSIs []tabledef.Index
				for j, g := range def.GlobalSecondaryIndexes {
					if multiAttribute(tb.GSIs[j]) {
						continue
					}
					wantGSIs = append(wantGSIs, g)
				}
				if len(r.GSIs) != len(wantGSIs) {
					t.Fatalf("%s: %d GSIs, want %d", r.Name, len(r.GSIs), len(wantGSIs))
				}
				for j, g := range r.GSIs {
					want := wantGSIs[j]
					keys := []tabledef.KeySchemaElement{{AttributeName: g.HashKey, KeyType: "HASH"}}
					if g.RangeKey != nil {
						keys = append(keys, tabledef.KeySchemaElement{AttributeName: *g.RangeKey, KeyType: "RANGE"})
					}
					for _, e := range keys {
						used[e.AttributeName] = true
					}
					if g.Name != want.IndexName || !slices.Equal(keys, want.KeySchema) || g.ProjectionType != want.Projection.ProjectionType || !slices.Equal(g.NonKey, want.Projection.NonKeyAttributes) {
						t.Errorf("%s: GSI %+v, want %+v", r.Name, g, want)
					}
					if tp := want.ProvisionedThroughput; (tp == nil) != (g.ReadCapacity == nil) || tp != nil && (*g.ReadCapacity != tp.ReadCapacityUnits || *g.WriteCapacity != tp.WriteCapacityUnits) {
						t.Errorf("%s: GSI %s capacity %v/%v, want %+v", r.Name, g.Name, g.ReadCapacity, g.WriteCapacity, tp)
					}
				}
				if len(r.LSIs) != len(def.LocalSecondaryIndexes) {
					t.Fatalf("%s: %d LSIs, want %d", r.Name, len(r.LSIs), len(def.LocalSecondaryIndexes))
				}
				for j, l := range r.LSIs {
					want := def.LocalSecondaryIndexes[j]
					used[l.RangeKey] = true
					if l.Name != want.IndexName || l.RangeKey != want.KeySchema[1].AttributeName || l.ProjectionType != want.Projection.ProjectionType || !slices.Equal(l.NonKey, want.Projection.NonKeyAttributes) {
						t.Errorf("%s: LSI %+v, want %+v", r.Name, l, want)
					}
				}
				var attrs []tabledef.AttributeDefinition
				for _, a := range r.Attributes {
					attrs = append(attrs, tabledef.AttributeDefinition{AttributeName: a.Name, AttributeType: designer.Type(a.Type)})
				}
				wantAttrs := slices.DeleteFunc(slices.Clone(def.AttributeDefinitions), func(a tabledef.AttributeDefinition) bool { return !used[a.AttributeName] })
				if !slices.Equal(attrs, wantAttrs) {
					t.Errorf("%s: attributes %v, want the key attributes %v", r.Name, attrs, wantAttrs)
				}
				switch ttl := def.TimeToLiveSpecification; {
				case ttl == nil && len(r.TTL) != 0:
					t.Errorf("%s: ttl %+v for a table without TTL", r.Name, r.TTL)
				case ttl != nil && (len(r.TTL) != 1 || r.TTL[0].AttributeName != ttl.AttributeName || !r.TTL[0].Enabled):
					t.Errorf("%s: ttl %+v, want %s enabled", r.Name, r.TTL, ttl.AttributeName)
				}
				if len(r.PITR) != 1 || traversal(t, r.PITR[0].Enabled) != "var.point_in_time_recovery" {
					t.Errorf("%s: point_in_time_recovery is not var.point_in_time_recovery", r.Name)
				}
			}
		})
	}
}

func TestLeftOut_namesTheMultiAttributeGSIAndTheRest(t *testing.T) {
	t.Parallel()
	left := LeftOut(designertest.OrdersDesign())
	want := []string{
		"13 access patterns and their mappings to operations",
		"4 sample items",
		"GSI ByStatus of table orders.v2-main, whose key has several attributes (tenant_id + status / created_at + order_id): the AWS provider 6.25.0 takes one hash_key and one range_key per index",
	}
	if !slices.Equal(left, want) {
		t.Fatalf("LeftOut = %q, want %q", left, want)
	}
	src, err := Export(designertest.OrdersDesign())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range want {
		if !strings.Contains(string(src), "\n# - "+l+"\n") {
			t.Errorf("the file's comment lacks %q", l)
		}
	}
}

func TestExport_headerStaysAComment(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	d.Name = "two\nlines */ ${var.x}"
	src, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	parse(t, src)
	if !strings.HasPrefix(string(src), "# Amazon DynamoDB tables of the Dynaloom design “two lines */ ${var.x}”") {
		t.Fatalf("header = %.120s", src)
	}
}

func TestResourceNames_identifiersUniqueAndStable(t *testing.T) {
	t.Parallel()
	tables := []designer.Table{{Name: "Orders"}, {Name: "orders"}, {Name: "2024.orders"}, {Name: "a-b"}, {Name: "a_b"}, {Name: "PunchLists"}, {Name: "HTTPLog"}}
	got := resourceNames(tables)
	if want := []string{"orders", "orders_2", "table_2024_orders", "a_b", "a_b_2", "punch_lists", "httplog"}; !slices.Equal(got, want) {
		t.Fatalf("resource names = %v, want %v", got, want)
	}
}

func TestExport_refusesWhatDynamoDBWouldRefuse(t *testing.T) {
	t.Parallel()
	for _, tc := range designertest.TableErrorCases() {
		t.Run(tc.Name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			tc.Edit(&d)
			out, err := Export(d)
			if out != nil {
				t.Fatalf("an export came back with the error %v", err)
			}
			designertest.WantValidationError(t, err, tc.Field)
		})
	}
	_, err := Export(designer.Design{Name: "empty"})
	designertest.WantValidationError(t, err, "tables")
}
