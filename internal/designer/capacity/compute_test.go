package capacity

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// item builds a sample item of pk and sk whose size (designer.ItemSize) is size bytes, padded with
// a data attribute.
func item(t *testing.T, id, pk, sk string, size int, more map[string]string) designer.SampleItem {
	t.Helper()
	it := designer.Item{"pk": designer.Str(pk), "sk": designer.Str(sk)}
	for k, v := range more {
		it[k] = designer.Str(v)
	}
	pad := size - designer.ItemSize(it) - len("data")
	if pad < 1 {
		t.Fatalf("item %s cannot be %d bytes", id, size)
	}
	it["data"] = designer.Str(strings.Repeat("x", pad))
	if got := designer.ItemSize(it); got != size {
		t.Fatalf("item %s is %d bytes, want %d", id, got, size)
	}
	return designer.SampleItem{ID: id, Item: it}
}

func vals(kv ...string) map[string]designer.Value {
	out := map[string]designer.Value{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = designer.Str(kv[i+1])
	}
	return out
}

// awsExamples is a table holding the items of AWS's worked examples, and one pattern per example.
func awsExamples(t *testing.T) designer.Design {
	items := []designer.SampleItem{item(t, "seven", "A", "7K", 7*1024, nil)}
	// Ten items summing 40.8 KB (41,779 bytes): nine of 4,178 and one of 4,177.
	for i := range 10 {
		size := 4178
		if i == 9 {
			size = 4177
		}
		items = append(items, item(t, "q"+string(rune('0'+i)), "Q", "0"+string(rune('0'+i)), size, nil))
	}
	items = append(items, item(t, "k", "K", "1", 200, map[string]string{"gpk": "OLD"}))
	put := vals(":pk", "P", ":sk", "1")
	put[":data"] = designer.Str(strings.Repeat("x", 3584-len("pkPsk1data")))
	rps := func(v float64) *float64 { return &v }
	pattern := func(n int, typ string, op designer.Operation) designer.Pattern {
		return designer.Pattern{ID: "ap" + string(rune('0'+n)), Number: n, Type: typ, PeakRPS: rps(10), AvgRPS: rps(1),
			Mapping: designer.Mapping{Operations: []designer.Operation{op}}}
	}
	return designer.Design{Name: "AWS examples",
		Tables: []designer.Table{{Name: "T", BillingMode: designer.OnDemand,
			PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
			GSIs: []designer.Index{{Name: "g", PartitionKey: []designer.KeyAttribute{{Name: "gpk", Type: designer.S}},
				Projection: designer.Projection{Type: designer.All}}},
			Items: items}},
		Patterns: []designer.Pattern{
			pattern(1, designer.Read, designer.Operation{Op: "GetItem", Table: "T", KeyCondition: "pk = :pk AND sk = :sk", Consistent: true, Values: vals(":pk", "A", ":sk", "7K")}),
			pattern(2, designer.Read, designer.Operation{Op: "GetItem", Table: "T", KeyCondition: "pk = :pk AND sk = :sk", Values: vals(":pk", "A", ":sk", "7K")}),
			pattern(3, designer.Read, designer.Operation{Op: "Query", Table: "T", KeyCondition: "pk = :pk", Values: vals(":pk", "Q")}),
			pattern(4, designer.Write, designer.Operation{Op: "PutItem", Table: "T", Values: put}),
			pattern(5, designer.Write, designer.Operation{Op: "TransactWriteItems", Table: "T", KeyCondition: "pk = :pk AND sk = :sk", Action: designer.ActionPut, Values: put}),
			pattern(6, designer.Write, designer.Operation{Op: "UpdateItem", Table: "T", KeyCondition: "pk = :pk AND sk = :sk", Update: "SET gpk = :new", Values: vals(":pk", "K", ":sk", "1", ":new", "NEW")}),
		},
	}
}

func TestCompute_awsWorkedExamples(t *testing.T) {
	r := Compute(awsExamples(t), nil)
	tests := []struct {
		name              string
		pattern           int
		read, write       float64
		bytesRead         float64
		indexWrites       float64
		keyChange         bool
		consistency, from string
	}{
		{name: "a 7 KB strongly consistent read is 2 RCU", pattern: 1, read: 2, bytesRead: 7168, consistency: designer.Strong},
		{name: "the same read eventually consistent is 1 RCU", pattern: 2, read: 1, bytesRead: 7168, consistency: designer.Eventual},
		{name: "a Query of items summing 40.8 KB eventual is 5.5 RRU", pattern: 3, read: 5.5, bytesRead: 41779, consistency: designer.Eventual},
		{name: "a 3.5 KB write is 4 WCU", pattern: 4, write: 4},
		{name: "a transactional write doubles", pattern: 5, write: 8, consistency: Transactional},
		{name: "a key change on a GSI key is 2 index writes", pattern: 6, write: 1, indexWrites: 2, keyChange: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ol := r.Patterns[tt.pattern-1].Operations[0]
			if ol.Note != "" {
				t.Fatalf("note: %s", ol.Note)
			}
			if ol.ReadUnits != tt.read || ol.WriteUnits != tt.write {
				t.Errorf("units = %v read, %v write; want %v, %v", ol.ReadUnits, ol.WriteUnits, tt.read, tt.write)
			}
			if tt.bytesRead != 0 && ol.BytesRead != tt.bytesRead {
				t.Errorf("bytes read = %v, want %v", ol.BytesRead, tt.bytesRead)
			}
			if ol.Consistency != tt.consistency {
				t.Errorf("consistency = %q, want %q", ol.Consistency, tt.consistency)
			}
			var writes float64
			keyChange := false
			for _, iw := range ol.IndexWrites {
				writes += iw.Writes
				keyChange = keyChange || iw.KeyChange
			}
			if writes != tt.indexWrites || keyChange != tt.keyChange {
				t.Errorf("index writes = %v (key change %v), want %v (%v)", writes, keyChange, tt.indexWrites, tt.keyChange)
			}
			if ol.ItemsFrom != FromSamples || ol.SizeFrom != FromSamples {
				t.Errorf("figures from %q / %q, want the sample items", ol.ItemsFrom, ol.SizeFrom)
			}
		})
	}
}

// cents rounds dollars to the cent, as a cost report shows them.
func cents(v float64) float64 { return math.Round(v*100) / 100 }

// mcpShop is the design of an input to the DynamoDB MCP server's cost calculator
// (compute_performances_and_costs): a table of 1,000,000 orders of 1,024 bytes with a GSI
// projecting all of them, and four patterns at steady rates (peak = average, as the calculator
// takes one rate):
//
//	GetItem, 1 item, eventual, 100 RPS
//	Query, 20 items, eventual, 40 RPS
//	PutItem, 1 item, writes the GSI, 10 RPS
//	Query on the GSI, 10 items, 20 RPS
//
// The sample items hold three orders of one customer, so the Queries' counts come from their
// result bounds, at the samples' measured size.
func mcpShop(t *testing.T) designer.Design {
	count := int64(1_000_000)
	items := []designer.SampleItem{}
	for i := range 3 {
		items = append(items, item(t, "o"+string(rune('1'+i)), "C#1", "O#0"+string(rune('1'+i)), 1024, map[string]string{"gpk": "OPEN"}))
	}
	put := vals(":pk", "C#2", ":sk", "O#99", ":gpk", "OPEN")
	put[":data"] = designer.Str(strings.Repeat("x", 1024-len("pkC#2skO#99gpkOPENdata")))
	pattern := func(n int, typ string, rps float64, bound string, op designer.Operation) designer.Pattern {
		return designer.Pattern{ID: "ap" + string(rune('0'+n)), Number: n, Type: typ, PeakRPS: &rps, AvgRPS: &rps, ResultBound: bound,
			Mapping: designer.Mapping{Operations: []designer.Operation{op}}}
	}
	return designer.Design{Name: "MCP shop",
		Entities: []designer.Entity{{Name: "Order", Count: &count}},
		Tables: []designer.Table{{Name: "Orders", BillingMode: designer.OnDemand,
			PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
			EntityTypes:  []designer.EntityType{{Entity: "Order", PKTemplate: "C#{customer_id}", SKTemplate: "O#{order_id}"}},
			GSIs: []designer.Index{{Name: "byStatus", PartitionKey: []designer.KeyAttribute{{Name: "gpk", Type: designer.S}},
				Projection: designer.Projection{Type: designer.All}}},
			Items: items}},
		Patterns: []designer.Pattern{
			pattern(1, designer.Read, 100, "1 item", designer.Operation{Op: "GetItem", Table: "Orders", KeyCondition: "pk = :pk AND sk = :sk", Values: vals(":pk", "C#1", ":sk", "O#01")}),
			pattern(2, designer.Read, 40, "at most 20 items", designer.Operation{Op: "Query", Table: "Orders", KeyCondition: "pk = :pk", Values: vals(":pk", "C#1")}),
			pattern(3, designer.Write, 10, "writes 1 item", designer.Operation{Op: "PutItem", Table: "Orders", Values: put}),
			pattern(4, designer.Read, 20, "10 items", designer.Operation{Op: "Query", Table: "Orders", Index: "byStatus", KeyCondition: "gpk = :g", Values: vals(":g", "OPEN")}),
		},
	}
}

// The MCP calculator's formulas on the same inputs, worked by hand (monthly = units × RPS ×
// 2,635,200 s × price per unit; storage = items × (size + 100 B) / 1024³ GB × $0.25):
//
//	GetItem   ceil(1024/4096) × 0.5 = 0.5 RRU × 100 RPS → $16.47
//	Query     ceil(20×1024/4096) × 0.5 = 2.5 RRU × 40 RPS → $32.94
//	PutItem   ceil(1024/1024) = 1 WRU × 10 RPS → $16.47, and 1 WRU on the GSI → $16.47
//	GSI Query ceil(10×1024/4096) × 0.5 = 1.5 RRU × 20 RPS → $9.88 (9.882)
//	storage   1,000,000 × 1,124 B = 1.0468 GB → $0.26, for the table and for the GSI
//	total     $92.76 (92.7554)
func TestCompute_mcpCalculatorsFormulasToTheCent(t *testing.T) {
	r := Compute(mcpShop(t), nil)
	if len(r.Resources) != 2 {
		t.Fatalf("resources = %+v", r.Resources)
	}
	table, gsi := r.Resources[0], r.Resources[1]
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"table reads", table.OnDemand.Reads, 16.47 + 32.94},
		{"table writes", table.OnDemand.Writes, 16.47},
		{"table storage", table.OnDemand.Storage, 0.26},
		{"GSI reads", gsi.OnDemand.Reads, 9.88},
		{"GSI index writes", gsi.OnDemand.IndexWrites, 16.47},
		{"GSI storage", gsi.OnDemand.Storage, 0.26},
		{"total", r.Total.OnDemand.Total, 92.76},
	} {
		if cents(c.got) != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if gb := math.Round(table.Storage.GB*1e4) / 1e4; gb != 1.0468 {
		t.Errorf("table storage = %v GB, want 1.0468", gb)
	}
	if gsi.OnDemand.Writes != 0 {
		t.Errorf("a GSI's writes are index writes, got %v as its own", gsi.OnDemand.Writes)
	}
	q := r.Patterns[1].Operations[0]
	if q.ItemsRead != 20 || q.ItemsFrom != FromRequirement || q.SizeFrom != FromSamples || q.ItemBytes != 1024 {
		t.Errorf("Query read %v items from %q at %v bytes from %q; want 20 from the result bound at the samples' 1,024", q.ItemsRead, q.ItemsFrom, q.ItemBytes, q.SizeFrom)
	}
	if table.Storage.Items != 1_000_000 || table.Storage.ItemsFrom != FromDesign || table.Storage.AvgItemBytes != 1024 {
		t.Errorf("table storage = %+v, want 1,000,000 items of 1,024 bytes from the entity count", table.Storage)
	}
}

// Provisioned for the peak at 70 %: the table's 150 RCU and 10 WCU a second need 215 RCU and 15
// WCU; 215 × 732 h × $0.00013 + 15 × 732 h × $0.00065 = $20.46 + $7.14, with $0.26 of storage
// $27.86 a month against $66.14 on demand. Both modes cost the same when the average uses 28.9 %
// of what is provisioned ($0.00013 × 10⁶ / (3,600 × $0.125), the same ratio for writes).
func TestCompute_provisionedForThePeakAtTheTargetUtilisation(t *testing.T) {
	d := mcpShop(t)
	r := Compute(d, nil)
	table := r.Resources[0]
	if table.Peak.RCU != 150 || table.Peak.WCU != 10 {
		t.Fatalf("table peak = %+v, want 150 RCU and 10 WCU", table.Peak)
	}
	p := table.Provisioned
	if p.RCU != 215 || p.WCU != 15 || cents(p.Reads) != 20.46 || cents(p.Writes) != 7.14 || cents(p.Total) != 27.86 {
		t.Errorf("provisioned = %+v", p)
	}
	if cents(table.OnDemand.Total) != 66.14 || table.Cheaper != ProvisionedMode {
		t.Errorf("on demand %v, cheaper %q; want 66.14 and provisioned", table.OnDemand.Total, table.Cheaper)
	}
	if math.Abs(table.BreakEven-0.28889) > 1e-4 {
		t.Errorf("break-even = %v, want 0.2889", table.BreakEven)
	}

	// At 50 % the same peak needs 300 RCU and 20 WCU.
	half := 50.0
	d.Capacity.TargetUtilization = &half
	if p := Compute(d, nil).Resources[0].Provisioned; p.RCU != 300 || p.WCU != 20 {
		t.Errorf("at 50 %% provisioned %d RCU, %d WCU; want 300, 20", p.RCU, p.WCU)
	}
}

func TestCompute_designPricesOverrideTheDefaults(t *testing.T) {
	d := mcpShop(t)
	rru := 0.25
	d.Capacity.ReadRequestPrice = &rru
	r := Compute(d, nil)
	if got := cents(r.Resources[0].OnDemand.Reads); got != 98.82 {
		t.Errorf("table reads at $0.25 per million = %v, want 98.82 (twice 49.41)", got)
	}
	if r.Prices.ReadRequest.Source != DesignSource {
		t.Errorf("read price source = %q", r.Prices.ReadRequest.Source)
	}
}

func TestCompute_eachResourceListsThePatternsThatLoadIt(t *testing.T) {
	r := Compute(mcpShop(t), nil)
	table, gsi := r.Resources[0], r.Resources[1]
	want := []PatternShare{{Pattern: "ap1", Number: 1, RCU: 50}, {Pattern: "ap2", Number: 2, RCU: 100}, {Pattern: "ap3", Number: 3, WCU: 10}}
	if len(table.Load) != len(want) {
		t.Fatalf("table load = %+v", table.Load)
	}
	for i := range want {
		if table.Load[i] != want[i] {
			t.Errorf("table load %d = %+v, want %+v", i, table.Load[i], want[i])
		}
	}
	if len(gsi.Load) != 2 || gsi.Load[0] != (PatternShare{Pattern: "ap3", Number: 3, WCU: 10}) || gsi.Load[1] != (PatternShare{Pattern: "ap4", Number: 4, RCU: 30}) {
		t.Errorf("GSI load = %+v", gsi.Load)
	}
	if p := r.Patterns[2]; p.Peak.WCU != 20 {
		t.Errorf("the PutItem's peak = %+v, want 20 WCU (10 on the table, 10 on the GSI)", p.Peak)
	}
}

func TestCompute_anOperationThatCannotRunIsSizedFromTheRequirement(t *testing.T) {
	d := mcpShop(t)
	d.Patterns[1].SizeBand = "2-4 KB"
	d.Patterns[1].Mapping.Operations[0].KeyCondition = "nope = :pk"
	ol := Compute(d, nil).Patterns[1].Operations[0]
	if ol.Note == "" || ol.ItemsFrom != FromRequirement || ol.SizeFrom != FromRequirement {
		t.Fatalf("load = %+v, want a note and figures from the requirement", ol)
	}
	// 20 items × 4 KB = 80 KB: 20 units, eventual 10.
	if ol.ItemsRead != 20 || ol.ItemBytes != 4096 || ol.ReadUnits != 10 {
		t.Errorf("read %v items of %v bytes for %v RRU; want 20 of 4,096 for 10", ol.ItemsRead, ol.ItemBytes, ol.ReadUnits)
	}
}

func TestRequestBound(t *testing.T) {
	limit := 25
	tests := []struct {
		in    string
		limit *int
		want  float64
		ok    bool
	}{
		{"1 item", nil, 1, true},
		{"at most 20 items", nil, 20, true},
		{"50 items per page; up to 62,000 in total", nil, 50, true},
		{"100 items per page; about 410 in all", nil, 100, true},
		{"all 300,000 employees and ~2.8 million salary rows", nil, 2.8e6, true},
		{"10k", nil, 1e4, true},
		{"writes up to 25 items per call, about 180 per grid", nil, 25, true},
		{"at most 410 items, one per board", &limit, 25, true},
		{"unbounded", nil, 0, false},
		{"", &limit, 25, true},
		{"", nil, 0, false},
	}
	for _, tt := range tests {
		got, ok := requestBound(tt.in, tt.limit)
		if got != tt.want || ok != tt.ok {
			t.Errorf("requestBound(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSizeBand(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"<1 KB", 1024, true},
		{"2-4 KB", 4096, true},
		{"2 – 4 KB", 4096, true},
		{"500 B", 500, true},
		{"~500 bytes", 500, true},
		{"1.5KB", 1536, true},
		{"3", 3072, true},
		{"1 MB", 1 << 20, true},
		{"small", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := sizeBand(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("sizeBand(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// What ComputeFrom takes over from the revision before is what Compute works out afresh, edit
// after edit: item edits inside and outside the partitions the patterns read, a rate, an entity
// count, a price.
func TestComputeFrom_takesOverOnlyWhatAnEditLeftAlone(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 200, GSIs: 6, Patterns: 40})
	c := dynamo.NewCache().For(d)
	_, memo := ComputeFrom(d, c, nil)
	tb := d.Tables[1]
	rps := "123"
	edits := []designer.Change{
		designer.SetItemCell{Table: tb.Name, ID: tb.Items[3].ID, Attribute: "note", Text: "edited"},
		designer.SetItemCell{Table: tb.Name, ID: tb.Items[10].ID, Attribute: "note", Text: "edited again"},
		designer.SetPatternField{ID: d.Patterns[5].ID, Field: "peak_rps", Value: rps},
		designer.SetCapacityField{Field: "write_request_price", Value: "0.7"},
		designer.SetItemCell{Table: d.Tables[0].Name, ID: d.Tables[0].Items[0].ID, Attribute: "note", Text: "x"},
	}
	if len(tb.GSIs) > 0 {
		// An index key set anew, changed and cleared: the item's entry moves, and leaves the index.
		gsiKey := tb.GSIs[0].PartitionKey[0].Name
		edits = append(edits,
			designer.SetItemCell{Table: tb.Name, ID: tb.Items[4].ID, Attribute: gsiKey, Text: "moved"},
			designer.SetItemCell{Table: tb.Name, ID: tb.Items[4].ID, Attribute: gsiKey, Text: "moved again, and a longer value"},
			designer.SetItemCell{Table: tb.Name, ID: tb.Items[4].ID, Attribute: gsiKey, Text: ""})
	}
	if len(d.Entities) > 0 {
		edits = append(edits, designer.SetEntityField{Entity: d.Entities[0].Name, Field: "count", Value: "5000"})
	}
	for _, e := range edits {
		next, err := e.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", e.Summary(), err)
		}
		c = c.For(next)
		var got Report
		got, memo = ComputeFrom(next, c, memo)
		if want := Compute(next, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %q the report taken over differs from one worked out afresh", e.Summary())
		}
		d = next
	}
}
