package capacity

import "strings"

// A key whose hottest value is over one partition's limits can be write-sharded: its value gets a
// suffix, {key}#{shard} with shard = hash(item id) % N, so that each value's items spread evenly
// over N partition-key values. The hottest shard takes 1/N of the hottest value's writes; a Query
// of the whole value becomes N Queries, one per shard, each reading 1/N of the items but billed at
// least its minimum (0.5 unit eventually consistent, 1 strong). A read by item (GetItem, a batch)
// reads the one shard its item hashes to, and nothing says how many items the value holds (one,
// for a literal such as SETTINGS), so the hottest shard is counted with all of them.
// Sharding is the smallest N at which the hottest shard fits in one partition
// (RCU/3,000 + WCU/1,000 ≤ 1, as CAP001 judges a value), and what the fan-out costs the reads.

// MaxShards is the most shards a suggestion goes to: a key whose reads still overflow a
// partition at this many is one sharding cannot fix.
const MaxShards = 100_000

// Sharding is the write-sharding suggestion for a hot key.
type Sharding struct {
	// Shards is the smallest N that fits, or MaxShards when Fits is false.
	Shards int
	Fits   bool
	// Key is the sharded key's spelling: "{user_id}#{shard}".
	Key string
	// RCU and WCU are what the hottest shard takes at peak.
	RCU, WCU float64
	// Reads are the Queries of the key's value that become one per shard.
	Reads []ShardRead
	// ExtraPerMonth is the on-demand dollars a month the fan-out adds, every read together.
	ExtraPerMonth float64
}

// Share is the hottest shard's RCU/3,000 + WCU/1,000.
func (s Sharding) Share() float64 { return s.RCU/PartitionReadLimit + s.WCU/PartitionWriteLimit }

// ShardRead is what sharding costs one Query of the key: Shards Queries, each billed
// max(UnitsPerReq ÷ Shards, MinUnits).
type ShardRead struct {
	Pattern          string
	Number, Position int
	// Before and After are the read units of one request, unsharded and over every shard.
	Before, After float64
	// AvgRPS is the pattern's average rate; ExtraPerMonth is (After − Before) × AvgRPS a month at
	// the on-demand read price.
	AvgRPS        float64
	ExtraPerMonth float64
}

// Hot reports whether the hottest value is over one partition's limits (CAP001).
func (k KeyLoad) Hot() bool { return k.Share() > 1 }

// ShardedKey is the spelling of the key with a shard suffix: "{user_id}#{shard}",
// "{tenant}#{region}#{shard}" for a key of two attributes.
func (k KeyLoad) ShardedKey() string {
	return "{" + strings.ReplaceAll(k.Attribute, " + ", "}#{") + "}#{shard}"
}

// onShard is what the hottest of n shards of the hottest value takes at peak.
func (k KeyLoad) onShard(n int) (rcu, wcu float64) {
	f := float64(n)
	for _, s := range k.Shares {
		switch {
		case s.Write:
			wcu += s.OnHottest / f
		case s.FansOut && s.UnitsPerReq > 0:
			rcu += s.OnHottest * max(1/f, s.MinUnits/s.UnitsPerReq)
		default:
			rcu += s.OnHottest
		}
	}
	return rcu, wcu
}

// Sharding is the suggestion for k, priced at p; nil when k is not hot.
func (k KeyLoad) Sharding(p Prices) *Sharding {
	if !k.Hot() {
		return nil
	}
	fits := func(n int) bool {
		r, w := k.onShard(n)
		return r/PartitionReadLimit+w/PartitionWriteLimit <= 1
	}
	sh := &Sharding{Key: k.ShardedKey(), Shards: MaxShards, Fits: fits(MaxShards)}
	if sh.Fits {
		// The hottest shard's load falls as n grows: the smallest n that fits, by bisection.
		lo, hi := 1, MaxShards // fits(lo) is false (k is hot), fits(hi) true
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if fits(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		sh.Shards = hi
	}
	sh.RCU, sh.WCU = k.onShard(sh.Shards)
	n := float64(sh.Shards)
	for _, s := range k.Shares {
		if s.Write || !s.FansOut || s.UnitsPerReq <= 0 {
			continue
		}
		after := n * max(s.UnitsPerReq/n, s.MinUnits)
		extra := (after - s.UnitsPerReq) * s.AvgRPS * SecondsPerMonth * p.ReadRequest.Dollars / 1e6
		sh.Reads = append(sh.Reads, ShardRead{Pattern: s.Pattern, Number: s.Number, Position: s.Position,
			Before: s.UnitsPerReq, After: after, AvgRPS: s.AvgRPS, ExtraPerMonth: extra})
		sh.ExtraPerMonth += extra
	}
	return sh
}
