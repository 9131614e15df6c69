package capacity

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// The cost inputs of the Agent Toolkit's depth, each worked by hand on mcpShop, whose month is
// $92.7554: requests $92.232 (table reads $49.41, writes $16.47; GSI reads $9.882, index writes
// $16.47) and storage 2 × 1,000,000 × 1,124 B = 2 × 1.046804 GB at $0.25 = $0.523402.

// Ten failed conditions per hundred successful puts bill the table 10 % more for that pattern's
// writes, 1.1 WRU × 10 RPS → $18.117, and no more index writes: a failed write changes no item.
func TestCompute_failedConditionsAreBilledOnTheTable(t *testing.T) {
	d := mcpShop(t)
	ten := 10.0
	d.Patterns[2].ConditionalFailurePct = &ten
	r := Compute(d, nil)
	put := r.Patterns[2].Operations[0]
	if put.WriteUnits != 1 || put.FailedWriteUnits != 0.1 {
		t.Errorf("put = %v WRU + %v for failures, want 1 + 0.1", put.WriteUnits, put.FailedWriteUnits)
	}
	table, gsi := r.Resources[0], r.Resources[1]
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"table writes", table.OnDemand.Writes, 18.12},
		{"GSI index writes", gsi.OnDemand.IndexWrites, 16.47},
		{"total", r.Total.OnDemand.Total, 94.40},
	} {
		if cents(c.got) != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if r.Patterns[2].Peak.WCU != 21 {
		t.Errorf("pattern peak = %v WCU, want 11 on the table + 10 on the GSI", r.Patterns[2].Peak.WCU)
	}
}

// Standard-IA: every request 1.25×, storage 0.4×: 1.25 × $92.232 + 0.4 × $0.523402 = $115.4994.
// IA pays once its storage saving, 0.6 × $0.25 a GB, passes its dearer requests, 0.25 × $92.232:
// above 153.72 GB.
func TestCompute_standardIAClassTradesStorageForRequests(t *testing.T) {
	d := mcpShop(t)
	d.Tables[0].TableClass = designer.StandardIAClass
	r := Compute(d, nil)
	table, gsi := r.Resources[0], r.Resources[1]
	if table.Class != designer.StandardIAClass || gsi.Class != designer.StandardIAClass {
		t.Fatalf("classes = %q, %q; the GSI takes its table's", table.Class, gsi.Class)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"table reads", table.OnDemand.Reads, 61.76},
		{"table storage", table.OnDemand.Storage, 0.10},
		{"GSI reads", gsi.OnDemand.Reads, 12.35},
		{"total", r.Total.OnDemand.Total, 115.50},
	} {
		if cents(c.got) != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if len(r.Classes) != 1 {
		t.Fatalf("classes = %+v", r.Classes)
	}
	c := r.Classes[0]
	if cents(c.Standard) != 92.76 || cents(c.StandardIA) != 115.50 || cents(c.BreakEvenGB) != 153.72 || c.Cheaper != designer.StandardClass {
		t.Errorf("class choice = %+v, want Standard $92.76, IA $115.50, break-even 153.72 GB, Standard cheaper", c)
	}
	// The same comparison from the Standard side.
	if s := Compute(mcpShop(t), nil).Classes[0]; cents(s.Standard) != cents(c.Standard) || cents(s.StandardIA) != cents(c.StandardIA) || cents(s.BreakEvenGB) != 153.72 {
		t.Errorf("from Standard = %+v, want the same figures", s)
	}
}

// Two replica regions write every write twice more, $32.94 for the table and $32.94 for the GSI,
// and store everything twice more, each item 48 B larger everywhere: 1,000,000 × 1,172 B =
// 1.091506 GB a resource, $0.272876. Month: reads $59.292 + writes $32.94 + storage $0.545753 +
// replicas $65.88 + $1.091506 = $159.7493.
func TestCompute_globalTableReplicasWriteAndStoreAgain(t *testing.T) {
	d := mcpShop(t)
	d.Capacity.ReplicaRegions = []string{"eu-west-1", "ap-south-1"}
	r := Compute(d, nil)
	table, gsi := r.Resources[0], r.Resources[1]
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"table storage", table.OnDemand.Storage, 0.27},
		{"table replication", table.OnDemand.Replication, 32.94 + 0.55},
		{"GSI replication", gsi.OnDemand.Replication, 32.94 + 0.55},
		{"reads stay home", r.Total.OnDemand.Reads, 59.29},
		{"total", r.Total.OnDemand.Total, 159.75},
	} {
		if cents(c.got) != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if b := table.Storage.Bytes; b != 1_000_000*1172 {
		t.Errorf("table bytes = %v, want 1,000,000 × 1,172", b)
	}
}

// Reserved for a year on mcpShop's provisioned 258 RCU (215 + 43) and 30 WCU (15 + 15): a block
// of 100 costs $30 / 12 + $0.0025 × 732 h = $4.33 a month for reads, $150 / 12 + $0.0128 × 732 h =
// $21.8696 for writes. Reads buy 3 blocks (the 58 left over would cost 58 × $0.00013 × 732 =
// $5.52, more than a block); the 30 WCU stay unreserved ($14.274, less than a block). Month:
// $39.348682 provisioned − $38.82528 for the covered units + $12.99 + $14.274 = $27.7874.
func TestCompute_reservedCapacityInBlocksOfAHundred(t *testing.T) {
	d := mcpShop(t)
	d.Capacity.ReservedCapacity = designer.Reserved1Year
	r := Compute(d, nil)
	if r.Total.Provisioned.RCU != 258 || r.Total.Provisioned.WCU != 30 {
		t.Fatalf("provisioned = %d RCU, %d WCU; want 258, 30", r.Total.Provisioned.RCU, r.Total.Provisioned.WCU)
	}
	rc := r.Total.Reserved
	if rc == nil {
		t.Fatal("no reserved figure")
	}
	if rc.RCUBlocks != 3 || rc.WCUBlocks != 0 || rc.Upfront != 90 || cents(rc.Monthly) != 12.99 || cents(rc.Unreserved) != 14.27 {
		t.Errorf("reserved = %+v, want 3 RCU blocks, 0 WCU, $90 upfront, $12.99 a month, $14.27 unreserved", rc)
	}
	if cents(r.Total.Provisioned.Total) != 39.35 || cents(rc.Total) != 27.79 || cents(rc.Saving) != 11.56 {
		t.Errorf("provisioned %v, reserved %v saving %v; want 39.35, 27.79, 11.56", r.Total.Provisioned.Total, rc.Total, rc.Saving)
	}
	// A Global Table's writes are replicated units, which AWS does not reserve; nor a Standard-IA
	// table's.
	d.Capacity.ReplicaRegions = []string{"eu-west-1"}
	if rc := Compute(d, nil).Total.Reserved; rc.WCUBlocks != 0 || rc.RCUBlocks != 3 {
		t.Errorf("with a replica: %+v, want reads reserved only", rc)
	}
	d.Capacity.ReplicaRegions = nil
	d.Tables[0].TableClass = designer.StandardIAClass
	if rc := Compute(d, nil).Total.Reserved; rc.RCUBlocks != 0 || rc.Saving != 0 {
		t.Errorf("on Standard-IA: %+v, want nothing reserved", rc)
	}
	d.Capacity.ReservedCapacity = ""
	if Compute(d, nil).Total.Reserved != nil {
		t.Error("a reserved figure without a reservation")
	}
}

// The region picks its prices from the one table; one the table lacks says so and uses
// us-east-1's.
func TestPricesOf_regionFromThePriceTable(t *testing.T) {
	if p := PricesOf(designer.CapacitySettings{Region: "US-EAST-1"}); !p.Known || p.Note != "" || p.ReadRequest.Dollars != 0.125 {
		t.Errorf("us-east-1 = %+v", p)
	}
	p := PricesOf(designer.CapacitySettings{Region: "eu-west-1"})
	if p.Known || p.Region != "eu-west-1" || !strings.Contains(p.Note, "eu-west-1") || p.ReadRequest.Dollars != 0.125 {
		t.Errorf("eu-west-1 = %+v, want us-east-1's prices with a note", p)
	}
	for _, row := range PriceTable {
		if row.Region == "" || row.ReadRequest.Source == "" || row.ReadRequest.AsOf == "" || row.Reserved1Year.Source == "" {
			t.Errorf("price table row %q lacks a source or a date", row.Region)
		}
	}
}

// A sparse index of the items in a state holds as many as the entity says are in it, at its
// entries' size: 10,000 open orders of mcpShop's 1,024 B, + 100 B each. An index that is not
// sparse, or whose words lack the state's, keeps the share of the samples.
func TestCompute_sparseIndexOfAStateHoldsItsCount(t *testing.T) {
	d := mcpShop(t)
	d.Entities[0].InState = []designer.StateCount{{State: "open", Count: 10_000, From: "read from: line 3"}}
	if gsi := Compute(d, nil).Resources[1]; gsi.Storage.Items != 1_000_000 {
		t.Errorf("not sparse: %v entries, want the samples' share of 1,000,000", gsi.Storage.Items)
	}
	d.Tables[0].GSIs[0].Sparse = true
	if gsi := Compute(d, nil).Resources[1]; gsi.Storage.Items != 1_000_000 {
		t.Errorf("byStatus has not the word open: %v entries, want 1,000,000", gsi.Storage.Items)
	}
	d.Tables[0].GSIs[0].Name = "OpenByStatus"
	d.Patterns[3].Mapping.Operations[0].Index = "OpenByStatus"
	gsi := Compute(d, nil).Resources[1]
	if gsi.Storage.Items != 10_000 || gsi.Storage.Bytes != 10_000*1124 || gsi.Storage.ItemsFrom != FromDesign ||
		len(gsi.Storage.Sources) != 1 || gsi.Storage.Sources[0] != "10,000 orders open (read from: line 3)" {
		t.Errorf("OpenByStatus storage = %+v, want 10,000 entries of 1,124 B from the design", gsi.Storage)
	}
}
