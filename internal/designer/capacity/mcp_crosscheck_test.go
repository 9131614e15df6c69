package capacity

import (
	"math"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// The DynamoDB MCP server's cost calculator (compute_performances_and_costs), implemented here
// from its published formulas (../shared/reference/awslabs-dynamodb-mcp.md §2.3) and nothing of
// ours: a month of 2,635,200 s; $0.125 per million RRU, $0.625 per million WRU, $0.25 per GB-month;
// a read of ceil(size / 4,096) units (a Query's sizes summed first) × 0.5 when eventually
// consistent, a write of ceil(size / 1,024); each GSI a write names one more write of
// ceil(GSI item size / 1,024); storage of item count × (item size + 100 B) / 1024³ per table and
// GSI.
type mcpPattern struct {
	op        string // GetItem, Query, PutItem, UpdateItem
	table     string
	gsi       string // the GSI a Query reads
	rps       float64
	size      int // item_size_bytes
	count     int // item_count of a Query
	strong    bool
	writesGSI []string // gsi_list of a write
}

type mcpGSI struct {
	name        string
	count, size int
}

type mcpTable struct {
	name        string
	count, size int
	gsis        []mcpGSI
}

const (
	mcpSecondsPerMonth = 2_635_200
	mcpRRU             = 0.125 / 1e6
	mcpWRU             = 0.625 / 1e6
	mcpGBMonth         = 0.25
)

// mcpMonthly is the calculator's monthly total of the patterns and tables.
func mcpMonthly(patterns []mcpPattern, tables []mcpTable) float64 {
	gsiSize := map[string]int{}
	total := 0.0
	for _, t := range tables {
		total += float64(t.count) * float64(t.size+100) / (1 << 30) * mcpGBMonth
		for _, g := range t.gsis {
			gsiSize[t.name+"/"+g.name] = g.size
			total += float64(g.count) * float64(g.size+100) / (1 << 30) * mcpGBMonth
		}
	}
	for _, p := range patterns {
		c := 0.5
		if p.strong {
			c = 1
		}
		switch p.op {
		case "GetItem":
			total += math.Ceil(float64(p.size)/4096) * c * p.rps * mcpSecondsPerMonth * mcpRRU
		case "Query":
			total += math.Ceil(float64(p.size*p.count)/4096) * c * p.rps * mcpSecondsPerMonth * mcpRRU
		case "PutItem", "UpdateItem", "DeleteItem":
			units := math.Ceil(float64(p.size) / 1024)
			for _, g := range p.writesGSI {
				units += math.Ceil(float64(gsiSize[p.table+"/"+g]) / 1024)
			}
			total += units * p.rps * mcpSecondsPerMonth * mcpWRU
		}
	}
	return total
}

// sized is a sample item of the attributes given, padded with a "data" string to size bytes by
// DynamoDB's rule for strings (the name's bytes plus the value's).
func sized(t *testing.T, id string, size int, kv ...string) designer.SampleItem {
	t.Helper()
	it := designer.Item{}
	used := len("data")
	for i := 0; i < len(kv); i += 2 {
		it[kv[i]] = designer.Str(kv[i+1])
		used += len(kv[i]) + len(kv[i+1])
	}
	if size-used < 1 {
		t.Fatalf("item %s cannot be %d bytes", id, size)
	}
	it["data"] = designer.Str(strings.Repeat("x", size-used))
	return designer.SampleItem{ID: id, Item: it}
}

// asValues is an item written as a PutItem's values (":name" for each attribute).
func asValues(it designer.Item) map[string]designer.Value {
	out := map[string]designer.Value{}
	for k, v := range it {
		out[":"+k] = v
	}
	return out
}

// shop is a design of two tables, each with a GSI: customers (20,000 of 600 B, all in ByEmail)
// and orders (500,000 of 1,500 B; the two open ones of the four samples carry open_region, the
// key of the sparse OpenOrders, so it holds half of them). Its seven patterns have a peak and a
// lower average; the on-demand month is at the average, the calculator's one rate.
//
//	1 GetItem a customer                  avg 50   1 × 600 B
//	2 PutItem a customer (enters ByEmail) avg 2    600 B
//	3 Query a customer's orders           avg 30   3 × 1,500 B
//	4 PutItem an open order               avg 5    1,500 B, enters OpenOrders
//	5 UpdateItem ship: SET shipped_on = :d REMOVE open_region   avg 4, leaves OpenOrders
//	6 Query open orders of a region       avg 1    2 × 1,500 B on OpenOrders
//	7 GetItem an order, strongly          avg 10   1,500 B
func shop(t *testing.T) designer.Design {
	rates := func(peak, avg float64) (*float64, *float64) { return &peak, &avg }
	pattern := func(n int, typ string, peak, avg float64, op designer.Operation) designer.Pattern {
		p, a := rates(peak, avg)
		return designer.Pattern{ID: "ap" + string(rune('0'+n)), Number: n, Type: typ, PeakRPS: p, AvgRPS: a,
			Mapping: designer.Mapping{Operations: []designer.Operation{op}}}
	}
	customers, orders := int64(20_000), int64(500_000)
	pk, sk := designer.KeyAttribute{Name: "pk", Type: designer.S}, designer.KeyAttribute{Name: "sk", Type: designer.S}
	newCustomer := sized(t, "new", 600, "pk", "CUST#c9", "sk", "PROFILE", "email", "c9@example.com")
	newOrder := sized(t, "new", 1500, "pk", "CUST#c1", "sk", "ORDER#o9", "open_region", "EU")
	return designer.Design{Name: "MCP cross-check shop",
		Entities: []designer.Entity{{Name: "Customer", Count: &customers}, {Name: "Order", Count: &orders}},
		Tables: []designer.Table{
			{Name: "Customers", BillingMode: designer.OnDemand, PartitionKey: pk, SortKey: &sk,
				EntityTypes: []designer.EntityType{{Entity: "Customer", PKTemplate: "CUST#{customer_id}", SKTemplate: "PROFILE"}},
				GSIs: []designer.Index{{Name: "ByEmail", PartitionKey: []designer.KeyAttribute{{Name: "email", Type: designer.S}},
					Projection: designer.Projection{Type: designer.All}}},
				Items: []designer.SampleItem{
					sized(t, "c1", 600, "pk", "CUST#c1", "sk", "PROFILE", "email", "ana@example.com"),
					sized(t, "c2", 600, "pk", "CUST#c2", "sk", "PROFILE", "email", "bo@example.com"),
				}},
			{Name: "Orders", BillingMode: designer.OnDemand, PartitionKey: pk, SortKey: &sk,
				EntityTypes: []designer.EntityType{{Entity: "Order", PKTemplate: "CUST#{customer_id}", SKTemplate: "ORDER#{order_id}"}},
				GSIs: []designer.Index{{Name: "OpenOrders", PartitionKey: []designer.KeyAttribute{{Name: "open_region", Type: designer.S}},
					SortKey: []designer.KeyAttribute{{Name: "sk", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}}},
				Items: []designer.SampleItem{
					sized(t, "o1", 1500, "pk", "CUST#c1", "sk", "ORDER#o1", "open_region", "EU"),
					sized(t, "o2", 1500, "pk", "CUST#c1", "sk", "ORDER#o2", "open_region", "EU"),
					sized(t, "o3", 1500, "pk", "CUST#c1", "sk", "ORDER#o3", "shipped_on", "2026-11-02"),
					sized(t, "o4", 1500, "pk", "CUST#c2", "sk", "ORDER#o4", "shipped_on", "2026-11-09"),
				}},
		},
		Patterns: []designer.Pattern{
			pattern(1, designer.Read, 120, 50, designer.Operation{Op: "GetItem", Table: "Customers", KeyCondition: "pk = :pk AND sk = :sk",
				Values: vals(":pk", "CUST#c1", ":sk", "PROFILE")}),
			pattern(2, designer.Write, 10, 2, designer.Operation{Op: "PutItem", Table: "Customers", Values: asValues(newCustomer.Item)}),
			pattern(3, designer.Read, 80, 30, designer.Operation{Op: "Query", Table: "Orders", KeyCondition: "pk = :pk AND begins_with(sk, :o)",
				Values: vals(":pk", "CUST#c1", ":o", "ORDER#")}),
			pattern(4, designer.Write, 20, 5, designer.Operation{Op: "PutItem", Table: "Orders", Values: asValues(newOrder.Item)}),
			pattern(5, designer.Write, 12, 4, designer.Operation{Op: "UpdateItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk",
				Update: "SET shipped_on = :d REMOVE open_region", Values: vals(":pk", "CUST#c1", ":sk", "ORDER#o1", ":d", "2026-12-02")}),
			pattern(6, designer.Read, 4, 1, designer.Operation{Op: "Query", Table: "Orders", Index: "OpenOrders", KeyCondition: "open_region = :r",
				Values: vals(":r", "EU")}),
			pattern(7, designer.Read, 25, 10, designer.Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Consistent: true,
				Values: vals(":pk", "CUST#c2", ":sk", "ORDER#o4")}),
		},
	}
}

// shopForMCP is the same design as the calculator's inputs: each pattern at its average RPS,
// each table and GSI with its item count and size.
func shopForMCP() ([]mcpPattern, []mcpTable) {
	patterns := []mcpPattern{
		{op: "GetItem", table: "Customers", rps: 50, size: 600},
		{op: "PutItem", table: "Customers", rps: 2, size: 600, writesGSI: []string{"ByEmail"}},
		{op: "Query", table: "Orders", rps: 30, size: 1500, count: 3},
		{op: "PutItem", table: "Orders", rps: 5, size: 1500, writesGSI: []string{"OpenOrders"}},
		{op: "UpdateItem", table: "Orders", rps: 4, size: 1500, writesGSI: []string{"OpenOrders"}},
		{op: "Query", table: "Orders", gsi: "OpenOrders", rps: 1, size: 1500, count: 2},
		{op: "GetItem", table: "Orders", rps: 10, size: 1500, strong: true},
	}
	tables := []mcpTable{
		{name: "Customers", count: 20_000, size: 600, gsis: []mcpGSI{{name: "ByEmail", count: 20_000, size: 600}}},
		{name: "Orders", count: 500_000, size: 1500, gsis: []mcpGSI{{name: "OpenOrders", count: 250_000, size: 1500}}},
	}
	return patterns, tables
}

// Dynaloom's on-demand month equals the MCP calculator's on the same inputs, to the cent, where
// the two count alike: an item entering or leaving a sparse index is one index write in both.
// By hand, a month of one RCU/s is $0.3294 and of one WCU/s $1.647:
//
//	Customers   reads 0.5 × 50 = 25 RCU/s $8.235, writes 1 × 2 = 2 WCU/s $3.294
//	ByEmail     the customer put's entry, 1 × 2 = 2 WCU/s $3.294
//	Orders      reads 1 × 30 (3 × 1,500 B) + 1 × 10 (strong) = 40 RCU/s $13.176,
//	            writes 2 × 5 + 2 × 4 = 18 WCU/s $29.646
//	OpenOrders  entries put (4) and deleted (5) 2 × 5 + 2 × 4 = 18 WCU/s $29.646, reads 0.5 × 1 $0.165
//	storage     20,000 × 700 B twice, 500,000 × 1,600 B, 250,000 × 1,600 B: 0.0033 + 0.0033 + 0.1863 + 0.0931
//	total       $87.74 (87.7416)
func TestCompute_equalsTheMCPCalculatorToTheCent(t *testing.T) {
	r := Compute(shop(t), nil)
	for _, p := range r.Patterns {
		for _, o := range p.Operations {
			if o.Note != "" || o.ItemsFrom != FromSamples {
				t.Fatalf("pattern %d is not worked out from its samples: %+v", p.Number, o)
			}
		}
	}
	mcp := mcpMonthly(shopForMCP())
	if cents(mcp) != 87.74 {
		t.Fatalf("the calculator's month = $%.4f, want $87.74 by hand", mcp)
	}
	if got := cents(r.Total.OnDemand.Total); got != cents(mcp) {
		t.Errorf("on-demand month = $%.4f, the MCP calculator's = $%.4f", r.Total.OnDemand.Total, mcp)
		for _, res := range r.Resources {
			t.Logf("%s/%s: %+v", res.Table, res.Index, res.OnDemand)
		}
	}
	// The month is the average's: at the peak it would cost more.
	if r.Total.Peak.RCU <= r.Total.Average.RCU || r.Total.Peak.WCU <= r.Total.Average.WCU {
		t.Errorf("peak %+v should exceed average %+v", r.Total.Peak, r.Total.Average)
	}
}

// Where the two differ on purpose: an update that changes an index key (SET open_region from EU
// to US) is a delete and a put of the entry, which DynamoDB bills as 2 writes and Dynaloom counts
// so (docs/capacity.md); the calculator counts 1. So Dynaloom's month is the calculator's plus
// exactly one more entry write: 2 WRU (1,500 B) × 4 RPS × 2,635,200 s × $0.625 per million = $13.18.
func TestCompute_aKeyChangeIsTheOneWriteMoreThanTheMCPCalculatorCounts(t *testing.T) {
	d := shop(t)
	d.Patterns[4].Mapping.Operations[0].Update = "SET open_region = :d"
	d.Patterns[4].Mapping.Operations[0].Values[":d"] = designer.Str("US")
	r := Compute(d, nil)
	iw := r.Patterns[4].Operations[0].IndexWrites
	if len(iw) != 1 || iw[0].Index != "OpenOrders" || iw[0].Writes != 2 || iw[0].Units != 4 || !iw[0].KeyChange {
		t.Fatalf("the key change's index writes = %+v, want 2 entries of 2 WRU on OpenOrders, a key change", iw)
	}
	patterns, tables := shopForMCP()
	// The calculator takes the same update as before: one write of the table, one of OpenOrders.
	mcp := mcpMonthly(patterns, tables)
	extra := 2.0 * 4 * mcpSecondsPerMonth * mcpWRU
	if cents(extra) != 13.18 {
		t.Fatalf("one entry write a month = %v, want $13.18", extra)
	}
	if got := cents(r.Total.OnDemand.Total); got != cents(mcp+extra) {
		t.Errorf("on-demand month = $%.4f, want the calculator's $%.4f + $%.2f", r.Total.OnDemand.Total, mcp, extra)
	}
}
