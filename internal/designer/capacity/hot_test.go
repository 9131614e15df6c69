package capacity

import (
	"math"
	"testing"

	"dynaloom/internal/designer"
)

// shopWithLoads is shopForKeys with four patterns, and the report of their loads as the rest of the
// package works them out, written by hand so that each figure below can be checked on paper:
//
//	#1 reads an order (ORDER#o1: 3,000 values) at 600 RPS × 1 RRU
//	#2 reads the settings (SETTINGS: 1 value) at 1,000 RPS × 0.5 RRU
//	#3 queries ByStatus (4 values) at 200 RPS × 2.5 RRU
//	#4 puts an order at 300 RPS × 1 WRU, writing 1 unit to ByStatus, ByDay (a date) and ByStatusDay
func shopWithLoads() (designer.Design, Report) {
	d := shopForKeys()
	get := func(pk string) designer.Operation {
		return designer.Operation{Op: "GetItem", Table: "Shop", KeyCondition: "pk = :pk AND sk = :sk",
			Values: map[string]designer.Value{":pk": designer.Str(pk), ":sk": designer.Str("ORDER")}}
	}
	put := get("ORDER#o9")
	put.Op = "PutItem"
	d.Patterns = []designer.Pattern{
		{ID: "p1", Number: 1, Type: designer.Read, Mapping: designer.Mapping{Operations: []designer.Operation{get("ORDER#o1")}}},
		{ID: "p2", Number: 2, Type: designer.Read, Mapping: designer.Mapping{Operations: []designer.Operation{get("SETTINGS")}}},
		{ID: "p3", Number: 3, Type: designer.Read, Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Shop", Index: "ByStatus", KeyCondition: "#s = :s"}}}},
		{ID: "p4", Number: 4, Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{put}}},
	}
	read := func(id string, n int, rps, units float64, index string) PatternLoad {
		return PatternLoad{ID: id, Number: n, PeakRPS: rps, Operations: []OperationLoad{{Op: "Query", Table: "Shop", Index: index, ReadUnits: units}}}
	}
	r := Report{Settings: Settings{HotKeySkew: 2}, Patterns: []PatternLoad{
		read("p1", 1, 600, 1, ""), read("p2", 2, 1000, 0.5, ""), read("p3", 3, 200, 2.5, "ByStatus"),
		{ID: "p4", Number: 4, PeakRPS: 300, Operations: []OperationLoad{{Op: "PutItem", Table: "Shop", WriteUnits: 1, IndexWrites: []IndexWriteLoad{
			{Index: "ByStatus", Writes: 1, Units: 1}, {Index: "ByDay", Writes: 1, Units: 1}, {Index: "ByStatusDay", Writes: 1, Units: 1},
		}}}},
	}}
	r.Resources = append(r.Resources, Resource{Table: "Shop", Kind: KindTable})
	for _, ix := range d.Tables[0].GSIs {
		r.Resources = append(r.Resources, Resource{Table: "Shop", Index: ix.Name, Kind: KindGSI})
	}
	return d, r
}

func TestHotKeys_loadOnTheHottestValueIsEachOperationsLoadOverTheValuesItReachesTimesTheSkew(t *testing.T) {
	t.Parallel()
	d, r := shopWithLoads()
	loads := map[string]KeyLoad{}
	for _, k := range HotKeys(d, r) {
		loads[k.Index] = k
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, c := range []struct {
		index    string
		rcu, wcu float64
	}{
		// #1: 600 × 2 / 3,000 = 0.4; #2: 500, all of it (one value); #4: 300 × 2 / 3,000 = 0.2.
		{"", 500.4, 0.2},
		// #3: 500 × 2 / 4 = 250; #4: 300 × 2 / 4 = 150.
		{"ByStatus", 250, 150},
		// #4: every write on the newest day.
		{"ByDay", 0, 300},
		// #4: the newest day's four statuses: 300 × 2 / 4.
		{"ByStatusDay", 0, 150},
		// #4 does not write ByCustomer (its report names no write to it).
		{"ByCustomer", 0, 0},
	} {
		k, ok := loads[c.index]
		if !ok {
			t.Fatalf("no key load for %q", c.index)
		}
		if !near(k.RCU, c.rcu) || !near(k.WCU, c.wcu) {
			t.Errorf("%s: hottest value takes %v RCU/s and %v WCU/s, want %v and %v", k.Path(), k.RCU, k.WCU, c.rcu, c.wcu)
		}
	}
	table := loads[""]
	if table.Cardinality.Values != 3751 || table.Attribute != "pk" || table.Path() != "tables/Shop/partition_key" {
		t.Errorf("the table's key: %+v", table)
	}
	if got := loads["ByStatus"].Share(); !near(got, 250.0/3000+150.0/1000) {
		t.Errorf("ByStatus's share of a partition = %v", got)
	}
	s := table.Shares[1]
	if s.Number != 2 || s.Values != 1 || s.ValuesFrom != "1 (literal SETTINGS)" || s.Units != 500 || s.OnHottest != 500 {
		t.Errorf("pattern 2's share of the table's key: %+v", s)
	}
}

func TestFillHotKeys_setsEveryResourcesHotKeyAndAnLSIsIsItsTables(t *testing.T) {
	t.Parallel()
	d, r := shopWithLoads()
	r.Resources = append(r.Resources[:1], Resource{Table: "Shop", Index: "ByTotal", Kind: KindLSI})
	fillHotKeys(d, &r)
	want := HotKey{Attribute: "pk", Distinct: 3751, DistinctFrom: TableKeyCardinality(d, d.Tables[0]).Source,
		Skew: 2, RCU: 500.4, WCU: 0.2, ReadLimit: 3000, WriteLimit: 1000}
	for _, res := range r.Resources {
		if res.HotKey == nil || math.Abs(res.HotKey.RCU-want.RCU) > 1e-9 {
			t.Fatalf("%s %s: hot key %+v", res.Table, res.Index, res.HotKey)
		}
		got := *res.HotKey
		got.RCU = want.RCU
		if got.Model.Name != designer.HotKeySkewModel || got.Model.Skew != 2 {
			t.Errorf("%s %s: hot key's model %+v, want the skew of 2", res.Table, res.Index, got.Model)
		}
		got.Model = HotModel{}
		if got != want {
			t.Errorf("%s %s: hot key %+v\nwant %+v", res.Table, res.Index, got, want)
		}
	}
}
