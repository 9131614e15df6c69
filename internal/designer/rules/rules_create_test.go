package rules

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func TestMOD020AndMOD021_whatCreateTableRefuses(t *testing.T) {
	t.Parallel()
	if fs := Validate(cleanModel()); len(findingsOf(fs, "MOD020"))+len(findingsOf(fs, "MOD021")) != 0 {
		t.Fatalf("the clean model has findings: %v", append(findingsOf(fs, "MOD020"), findingsOf(fs, "MOD021")...))
	}
	ten := int64(10)
	cases := []struct {
		name, code, path, says string
		edit                   func(*designer.Table)
	}{
		{"LSI on a table without a sort key", "MOD020", "tables/Orders/indexes/OrdersByTotal", "has no sort key",
			func(t *designer.Table) { t.SortKey = nil }},
		{"LSI sorted by the table's sort key", "MOD020", "tables/Orders/indexes/OrdersByTotal/sort_key", "is a key of table Orders",
			func(t *designer.Table) {
				t.LSIs[0].SortKey = []designer.KeyAttribute{{Name: "order_key", Type: designer.S}}
			}},
		{"GSI without a partition key", "MOD020", "tables/Orders/indexes/OrdersByStatus/partition_key", "has 0 attributes",
			func(t *designer.Table) { t.GSIs[0].PartitionKey = nil }},
		{"GSI sort attribute in its partition key", "MOD020", "tables/Orders/indexes/OrdersByStatus/sort_key", "in the partition key already",
			func(t *designer.Table) { t.GSIs[0].SortKey = t.GSIs[0].PartitionKey }},
		{"sort key equal to the partition key", "MOD020", "tables/Orders/sort_key/name", "its partition key too",
			func(t *designer.Table) { t.SortKey.Name = "customer_id" }},
		{"partition key without a name", "MOD020", "tables/Orders/partition_key/name", "has no name",
			func(t *designer.Table) { t.PartitionKey.Name = "" }},
		{"one attribute, two key types", "MOD020", "tables/Orders/indexes/OrdersByStatus/sort_key", "keys on it as S",
			func(t *designer.Table) {
				t.GSIs[0].SortKey = []designer.KeyAttribute{{Name: "order_key", Type: designer.N}}
			}},
		{"unknown projection type", "MOD020", "tables/Orders/indexes/OrdersByStatus/projection/type", `"SOME"`,
			func(t *designer.Table) { t.GSIs[0].Projection.Type = "SOME" }},
		{"INCLUDE of an empty attribute name", "MOD020", "tables/Orders/indexes/OrdersByStatus/projection/attributes", "0 bytes",
			func(t *designer.Table) { t.GSIs[0].Projection.Attributes = []string{""} }},
		{"provisioned without capacity", "MOD021", "tables/Orders/read_capacity_units", "PROVISIONED with none read",
			func(t *designer.Table) { t.BillingMode, t.WriteUnits = designer.Provisioned, &ten }},
		{"provisioned with zero write units", "MOD021", "tables/Orders/write_capacity_units", "with 0 write",
			func(t *designer.Table) {
				zero := int64(0)
				t.BillingMode, t.ReadUnits, t.WriteUnits = designer.Provisioned, &ten, &zero
			}},
		{"unknown billing mode", "MOD021", "tables/Orders/billing_mode", `"FREE"`,
			func(t *designer.Table) { t.BillingMode = "FREE" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := cleanModel()
			c.edit(&d.Tables[0])
			got := findingsOf(Validate(d), c.code)
			if len(got) != 1 || got[0].Path != c.path || got[0].Severity != SeverityError || !strings.Contains(got[0].Message, c.says) {
				t.Fatalf("want one %s error at %s saying %q; got %+v", c.code, c.path, c.says, got)
			}
		})
	}
	t.Run("provisioned with capacity", func(t *testing.T) {
		d := cleanModel()
		d.Tables[0].BillingMode, d.Tables[0].ReadUnits, d.Tables[0].WriteUnits = designer.Provisioned, &ten, &ten
		if got := findingsOf(Validate(d), "MOD021"); len(got) != 0 {
			t.Fatalf("findings for a table with capacity: %+v", got)
		}
	})
	t.Run("a GSI of five partition attributes is MOD003's alone", func(t *testing.T) {
		d := cleanModel()
		for _, n := range []string{"a", "b", "c", "d"} {
			d.Tables[0].GSIs[0].PartitionKey = append(d.Tables[0].GSIs[0].PartitionKey, designer.KeyAttribute{Name: n, Type: designer.S})
		}
		fs := Validate(d)
		if len(findingsOf(fs, "MOD003")) != 1 || len(findingsOf(fs, "MOD020")) != 0 {
			t.Fatalf("MOD003 %v, MOD020 %v", findingsOf(fs, "MOD003"), findingsOf(fs, "MOD020"))
		}
	})
}

// An operation an import leaves without values (GetItem(customer_id)) is read with values taken
// from a sample item it then reads, as the MCP model export writes it; when no sample item has
// them, MAP014 says so, as the export lists the operation without a command.
func TestMAP014_anOperationWithoutValuesIsCompletedFromTheSamples(t *testing.T) {
	t.Parallel()
	d := cleanModel()
	d.Patterns[0].Mapping.Operations[0].KeyCondition = "customer_id = :customer_id AND order_key = :order_key"
	d.Patterns[0].Mapping.Operations[0].Values = nil
	if got := findingsOf(Validate(d), "MAP014"); len(got) != 0 {
		t.Fatalf("a GetItem the samples complete: %+v", got)
	}
	// No customer has an item ORDER#none: no sample item completes the key.
	d.Patterns[0].Mapping.Operations[0].Values = map[string]designer.Value{":order_key": designer.Str("ORDER#none")}
	got := findingsOf(Validate(d), "MAP014")
	if len(got) != 1 || got[0].Path != "access_patterns/1/mapping/operations/0" || !strings.Contains(got[0].Message, "gives no value for :customer_id (customer_id), and no sample item of Orders") {
		t.Fatalf("want MAP014 naming the value; got %+v", got)
	}
	// A second operation the samples cannot complete is said even when the first reads items.
	second := d.Patterns[0].Mapping.Operations[0]
	d.Patterns[0].Mapping.Operations[0] = designer.Operation{Op: "GetItem", Table: "Orders", KeyCondition: "customer_id = :customer_id AND order_key = :order_key"}
	d.Patterns[0].Mapping.Operations = append(d.Patterns[0].Mapping.Operations, second)
	got = findingsOf(Validate(d), "MAP014")
	if len(got) != 1 || got[0].Path != "access_patterns/1/mapping/operations/1" {
		t.Fatalf("want MAP014 on the second operation; got %+v", got)
	}
	if fs := Validate(d); len(findingsOf(fs, "MAP011")) != 0 {
		t.Fatalf("MAP011 besides MAP014: %+v", findingsOf(fs, "MAP011"))
	}
	d.Tables[0].Items = nil
	if got := findingsOf(Validate(d), "MAP014"); len(got) != 2 {
		t.Fatalf("a table without items: %+v", got)
	}
	// A write that needs values no sample item gives is said too.
	d.Patterns[0].Type = designer.Write
	d.Patterns[0].Mapping.Operations = []designer.Operation{{Op: "PutItem", Table: "Orders", KeyCondition: "customer_id = :c AND order_key = :k"}}
	if got := findingsOf(Validate(d), "MAP014"); len(got) != 1 || !strings.Contains(got[0].Message, "it could then write") {
		t.Fatalf("a PutItem without values: %+v", got)
	}
}
