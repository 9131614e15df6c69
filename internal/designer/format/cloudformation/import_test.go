package cloudformation

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A template a team wrote by hand, in YAML with short tags, reads as the stack its parameters'
// defaults create: names, keys and types, both index kinds with their projections, TTL, billing,
// units and table class; what a design has no place for is noted, each by name.
func TestImport_handWrittenYAML(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/deployed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !Looks(src) {
		t.Fatal("the template is not recognised")
	}
	d, notes, err := Import(src)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "Orders service tables" || len(d.Tables) != 2 {
		t.Fatalf("design %q with %d tables", d.Name, len(d.Tables))
	}
	orders, sessions := d.Tables[0], d.Tables[1]
	u := func(n int64) *int64 { return &n }
	want := designer.Table{Name: "prod-orders", PartitionKey: designer.KeyAttribute{Name: "PK", Type: designer.S},
		SortKey: &designer.KeyAttribute{Name: "SK", Type: designer.S}, BillingMode: designer.Provisioned,
		ReadUnits: u(20), WriteUnits: u(10), TTLAttribute: "expires_at",
		GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
			SortKey:    []designer.KeyAttribute{{Name: "created_at", Type: designer.N}},
			Projection: designer.Projection{Type: designer.Include, Attributes: []string{"total"}}}},
		LSIs: []designer.Index{{Name: "ByCreated", PartitionKey: []designer.KeyAttribute{{Name: "PK", Type: designer.S}},
			SortKey: []designer.KeyAttribute{{Name: "created_at", Type: designer.N}}, Projection: designer.Projection{Type: designer.KeysOnly}}},
		Attributes: []designer.Attribute{{Name: "PK", Type: designer.S}, {Name: "SK", Type: designer.S},
			{Name: "created_at", Type: designer.N}, {Name: "status", Type: designer.S}},
	}
	got := orders
	got.Items, got.EntityTypes = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OrdersTable reads as\n%+v\nwant\n%+v", got, want)
	}
	if sessions.Name != "Sessions" || sessions.PartitionKey.Name != "session_id" || sessions.BillingMode != designer.OnDemand ||
		sessions.TableClass != designer.StandardIAClass {
		t.Errorf("the global table reads as %+v", sessions)
	}
	all := ""
	for _, n := range notes {
		all += n.Message + "\n"
	}
	for _, w := range []string{"StreamSpecification, Tags left out", "table Sessions has no TableName", "2 replicas left out",
		"1 AWS::Serverless::Function resource was left out"} {
		if !strings.Contains(all, w) {
			t.Errorf("no note says %q; the notes:\n%s", w, all)
		}
	}
}

// CloudFormation → design → CloudFormation gives the same tables: every example's and test
// design's template, in JSON and in YAML, read back and exported again has the same resources,
// byte for byte (keys, indexes, projections, TTL, billing, units, class, parameters' functions).
func TestImport_roundTripsEveryExport(t *testing.T) {
	t.Parallel()
	designs := map[string]designer.Design{"orders": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs[ex.ID] = d
	}
	resources := func(t *testing.T, b []byte) string {
		t.Helper()
		var tpl struct{ Resources json.RawMessage }
		if err := json.Unmarshal(b, &tpl); err != nil {
			t.Fatal(err)
		}
		return string(tpl.Resources)
	}
	for name, d := range designs {
		first, err := Export(d)
		if err != nil {
			t.Fatal(err)
		}
		yml, err := ExportYAML(d)
		if err != nil {
			t.Fatal(err)
		}
		for kind, src := range map[string][]byte{"json": first, "yaml": yml} {
			back, _, err := Import(src)
			if err != nil {
				t.Fatalf("%s %s: %v", name, kind, err)
			}
			if back.Name != d.Name {
				t.Errorf("%s %s: the name reads back as %q", name, kind, back.Name)
			}
			again, err := Export(back)
			if err != nil {
				t.Fatalf("%s %s: %v", name, kind, err)
			}
			if a, b := resources(t, first), resources(t, again); a != b {
				t.Errorf("%s %s: the tables differ after a round trip:\n%s\nthen\n%s", name, kind, a, b)
			}
		}
	}
}

// What is not a table definition DynamoDB has is refused with the field named, and nothing is
// read.
func TestImport_refusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, field string }{
		{`{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"Q": {"Type": "AWS::SQS::Queue"}}}`, "Resources"},
		{`{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"T": {"Type": "AWS::DynamoDB::Table", "Properties": {
			"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
			"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}}}}`, "Resources/T/Properties/KeySchema/0/AttributeName"},
		{`{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"T": {"Type": "AWS::DynamoDB::Table", "Properties": {
			"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "X"}],
			"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}}}}`, "Resources/T/Properties/AttributeDefinitions/0/AttributeType"},
	} {
		_, _, err := Import([]byte(tc.src))
		var ve *designer.ValidationError
		if err == nil || !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%.60s…: %v; want a refusal naming %s", tc.src, err, tc.field)
		}
	}
	if Looks([]byte("# Orders\n\nA table of orders, AWS::DynamoDB::Table in prose.\n")) {
		t.Error("markdown that mentions a table type is taken for a template")
	}
	if !Looks(bytes.TrimSpace([]byte(`{"Resources": {"T": {"Type": "AWS::DynamoDB::Table"}}}`))) {
		t.Error("a template without AWSTemplateFormatVersion is not recognised by its table")
	}
}
