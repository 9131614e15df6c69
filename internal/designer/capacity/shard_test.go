package capacity

import (
	"math"
	"testing"
)

// The shop with #4 putting 3,000 orders a second, and #3's Query of ByStatus reading 0.5 RRU at
// 200 RPS peak, 100 average. Under the skew of 2, ByStatus's hottest value takes 200 × 0.5 × 2/4 =
// 50 RCU/s and 3,000 × 2/4 = 1,500 WCU/s: 50/3,000 + 1,500/1,000 = 1.52 of a partition.
//
// Over n shards its hottest shard takes 1,500/n WCU/s, and the Query, now one per shard, each
// billed at least 0.5 RRU: 50 × max(1/n, 0.5/0.5) = 50 RCU/s. n = 1 does not fit; n = 2 gives
// 750/1,000 + 50/3,000 = 0.767. Each Query of the key reads 2 × max(0.5/2, 0.5) = 1 RRU instead
// of 0.5: 0.5 RRU more at 100 RPS, 0.5 × 100 × 2,635,200 s × $0.125/million = $16.47 a month.
func TestSharding_smallestShardCountAndWhatItCostsTheReads(t *testing.T) {
	t.Parallel()
	d, r := shopWithLoads()
	r.Prices = DefaultPrices
	r.Patterns[2].AvgRPS = 100
	r.Patterns[2].Operations[0].ReadUnits = 0.5
	r.Patterns[3].PeakRPS = 3000
	var k KeyLoad
	for _, l := range HotKeys(d, r) {
		if l.Index == "ByStatus" {
			k = l
		}
	}
	if !nearly(k.RCU, 50) || !nearly(k.WCU, 1500) || !k.Hot() {
		t.Fatalf("ByStatus: %v RCU/s %v WCU/s, want 50 and 1,500", k.RCU, k.WCU)
	}
	sh := k.Sharding(r.Prices)
	if sh == nil || !sh.Fits || sh.Shards != 2 {
		t.Fatalf("sharding %+v, want 2 shards", sh)
	}
	if sh.Key != "{status}#{shard}" || !nearly(sh.WCU, 750) || !nearly(sh.RCU, 50) || !nearly(sh.Share(), 0.75+50.0/3000) {
		t.Errorf("the hottest shard: %+v", sh)
	}
	if len(sh.Reads) != 1 {
		t.Fatalf("reads that fan out: %+v", sh.Reads)
	}
	rd := sh.Reads[0]
	if rd.Number != 3 || rd.Before != 0.5 || rd.After != 1 || rd.AvgRPS != 100 {
		t.Errorf("pattern 3's Query sharded: %+v", rd)
	}
	if want := 0.5 * 100 * 2_635_200 * 0.125 / 1e6; math.Abs(rd.ExtraPerMonth-want) > 1e-9 || math.Abs(want-16.47) > 0.005 || sh.ExtraPerMonth != rd.ExtraPerMonth {
		t.Errorf("the fan-out costs $%v a month, want $%v", rd.ExtraPerMonth, want)
	}
	// The table's key is not hot: no suggestion.
	for _, l := range HotKeys(d, r) {
		if l.Index == "" && l.Sharding(r.Prices) != nil {
			t.Errorf("the table's key, %v of a partition, gets a suggestion", l.Share())
		}
	}
	// The JSON says the same, and which model gave it.
	r.Settings = SettingsOf(d.Capacity)
	for _, kd := range NewDocument(d, r).PartitionKeys {
		switch kd.Index {
		case "":
			if kd.Sharding != nil {
				t.Errorf("the table's key has a sharding in the JSON: %+v", kd.Sharding)
			}
		case "ByStatus":
			if kd.Model != "skew" || kd.ModelText != "skew 2× (default): the hottest value takes 2 times its even share" {
				t.Errorf("ByStatus's model in the JSON: %q, %q", kd.Model, kd.ModelText)
			}
			sd := kd.Sharding
			if sd == nil || sd.Shards != 2 || sd.Key != "{status}#{shard}" || len(sd.Reads) != 1 ||
				sd.Reads[0].UnitsAfter != 1 || sd.Reads[0].ExtraPerMonth != 16.47 || sd.ExtraPerMonth != 16.47 {
				t.Errorf("ByStatus's sharding in the JSON: %+v", sd)
			}
		}
	}
}

// Writes alone: 2,500 WCU/s over n shards needs n = 3 (833 WCU/s each; 2 shards take 1,250). A
// Query reading 12 RRU strongly consistent at 10 RPS peak, 4 average, all on the hottest value,
// takes 120 RCU/s, then 120 × max(1/3, 1/12) = 40 on each shard.
// Each Query becomes 3 of max(12/3, 1) = 4 RRU: 12 in all, nothing more to pay. A GetItem of the
// value reads the one shard its item hashes to, which may hold every read: the hottest shard takes
// 40 + 300 = 340 RCU/s, 833.3/1,000 + 340/3,000 = 0.947 of a partition.
func TestSharding_queriesThatReadMoreThanTheMinimumCostNothingMore(t *testing.T) {
	t.Parallel()
	k := KeyLoad{Table: "T", Attribute: "tenant + region", Shares: []KeyShare{
		{Number: 1, Write: true, PeakRPS: 2500, UnitsPerReq: 1, Units: 2500, Values: 1, OnHottest: 2500},
		{Number: 2, PeakRPS: 10, AvgRPS: 4, UnitsPerReq: 12, Units: 120, Values: 1, OnHottest: 120, FansOut: true, MinUnits: 1},
		{Number: 3, PeakRPS: 300, AvgRPS: 300, UnitsPerReq: 1, Units: 300, Values: 1, OnHottest: 300},
	}}
	k.RCU, k.WCU = 420, 2500
	sh := k.Sharding(DefaultPrices)
	if sh == nil || sh.Shards != 3 || !sh.Fits || sh.Key != "{tenant}#{region}#{shard}" {
		t.Fatalf("sharding %+v, want 3 shards of {tenant}#{region}#{shard}", sh)
	}
	if !nearly(sh.WCU, 2500.0/3) || !nearly(sh.RCU, 40+300) {
		t.Errorf("the hottest shard: %v RCU/s %v WCU/s, want 340 and 833.3", sh.RCU, sh.WCU)
	}
	if len(sh.Reads) != 1 || sh.Reads[0].After != 12 || sh.Reads[0].ExtraPerMonth != 0 {
		t.Errorf("the Query sharded: %+v", sh.Reads)
	}
}

// A Query of 0.5 RRU at 8,000 RPS on one value takes 4,000 RCU/s, and sharded it still pays 0.5
// per shard: every shard takes 4,000 RCU/s, over a partition at any count. So does a GetItem of
// one item at 3,500 RCU/s. The suggestion says no count fits.
func TestSharding_readsAtTheirMinimumNoShardCountFits(t *testing.T) {
	t.Parallel()
	k := KeyLoad{Table: "T", Attribute: "pk", RCU: 4000, Shares: []KeyShare{
		{Number: 1, PeakRPS: 8000, AvgRPS: 8000, UnitsPerReq: 0.5, Units: 4000, Values: 1, OnHottest: 4000, FansOut: true, MinUnits: 0.5},
	}}
	sh := k.Sharding(DefaultPrices)
	if sh == nil || sh.Fits || sh.Shards != MaxShards || !nearly(sh.RCU, 4000) {
		t.Errorf("sharding %+v, want no count that fits", sh)
	}
	k = KeyLoad{Table: "T", Attribute: "pk", RCU: 3500, Shares: []KeyShare{
		{Number: 1, PeakRPS: 7000, AvgRPS: 7000, UnitsPerReq: 0.5, Units: 3500, Values: 1, OnHottest: 3500, MinUnits: 0.5},
	}}
	if sh := k.Sharding(DefaultPrices); sh == nil || sh.Fits || !nearly(sh.RCU, 3500) || len(sh.Reads) != 0 {
		t.Errorf("sharding a GetItem's key %+v, want no count that fits", sh)
	}
}
