package rules

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
)

// capCatalogue holds the capacity rules of the catalogue, in the order they run.
var capCatalogue = []catalogueRow{
	{"CAP001", SeverityError, capRules,
		"the hottest value of a table's or GSI's partition key takes more than one partition serves at peak: " +
			"its RCU/s ÷ 3,000 plus its WCU/s ÷ 1,000 is over 1", readsItems},
	{"CAP002", SeverityWarning, nil, // capRules
		"a table's or GSI's partition key reaches fewer than 100 distinct values, and is not one that grows with time, " +
			"and the load on them puts a tenth of a partition or more on its hottest value", readsNoItems},
	{"CAP003", SeverityWarning, nil, // capRules
		"a write changes the key of an index entry, which DynamoDB does as a delete and a put on the index", readsNoItems},
	{"CAP004", SeverityInfo, nil, // capRules
		"the writes of a pattern not typed as a read put 100 WCU/s or more on the newest value of a partition key that grows with time, such as a date", readsNoItems},
	{"CAP005", SeverityWarning, nil, // capRules
		"a table has an LSI and its largest item collection, estimated as the table's and its LSIs' storage ÷ its partition key's distinct values × the skew, " +
			"is over 10 GB", readsNoItems},
}

// The capacity rules (CAP, docs/rules.md): whether the load the patterns put on each
// partition-key value fits in one partition, whether the keys spread it, and what index keys and
// item collections cost. They read the design's capacity report (package capacity) and the load on
// the hottest value of each table's and GSI's partition key (capacity.HotKeys); every finding
// carries the figures that caused it, so that the room can check it on paper.

// Thresholds of the capacity rules.
const (
	// heavyWrites is the load on a key's newest value, in write units per second, from which the
	// writes of a pattern to an increasing key make it write-heavy (CAP004): a tenth of what one
	// partition takes.
	heavyWrites = capacity.PartitionWriteLimit / 10
	// shardTarget is what each shard of a sharded key should take at most: half a partition's writes.
	shardTarget = capacity.PartitionWriteLimit / 2
	// maxCollectionBytes is the 10 GB an item collection of a table with an LSI may hold (CAP005).
	maxCollectionBytes = 10 << 30
	// maxSharesNamed is how many patterns' shares a message names before counting the rest.
	maxSharesNamed = 4
)

// capRules appends CAP001–CAP005 as found in the design's capacity report, taking over from the
// last validation what CAP001, CAP002 and CAP004 found on each key whose load has not changed: an
// edit of one table's items changes the loads of that table's keys only.
func capRules(v *validation, out []Finding) []Finding {
	var prev []keyFindings
	if v.prev.capKeys != nil && sameList(v.prev.d.Patterns, v.d.Patterns) {
		// CAP004 reads the patterns' types besides the loads.
		prev = v.prev.capKeys
	}
	r := v.capacity()
	cap003 := func(out []Finding) []Finding {
		from := len(out)
		out = cap003IndexKeyChange(v.d, r, out)
		v.next.cap003 = slices.Clone(out[from:])
		return out
	}
	if v.itemsOnly && v.prev.capacity != nil && sameArray(v.prev.capacity.Patterns, r.Patterns) {
		// CAP003 reads the patterns' loads, their operations and the tables' keys and indexes,
		// none of which changed.
		cap003 = func(out []Finding) []Finding {
			v.next.cap003 = v.prev.cap003
			return append(out, v.prev.cap003...)
		}
	}
	v.next.capKeys, out = capFindingsFrom(v.d, r, prev, cap003, out)
	return out
}

// keyFindings are what CAP001, CAP002 and CAP004 found on the load of one key.
type keyFindings struct {
	k     capacity.KeyLoad
	found [3][]Finding
}

// capFindings are the CAP findings of d, whose capacity report is r.
func capFindings(d designer.Design, r capacity.Report, out []Finding) []Finding {
	_, out = capFindingsFrom(d, r, nil, func(out []Finding) []Finding { return cap003IndexKeyChange(d, r, out) }, out)
	return out
}

// capFindingsFrom is capFindings, taking the findings on each key whose load is as it was from
// prev, and CAP003's from cap003. It returns what it found on each key, for the next validation.
func capFindingsFrom(d designer.Design, r capacity.Report, prev []keyFindings, cap003 func([]Finding) []Finding, out []Finding) ([]keyFindings, []Finding) {
	loads := capacity.KeysOf(d, r)
	// keys are prev's while every key is the same load in the same place, as after an edit that
	// moves no load.
	keys, shared := prev, len(prev) == len(loads)
	if !shared {
		keys = make([]keyFindings, len(loads))
	}
	var at map[[2]string]int // prev's keys by table and index, when they are not in the same places
	for i, k := range loads {
		if shared {
			if sameLoad(prev[i].k, k) {
				continue
			}
			keys, shared = slices.Clone(prev), false
		}
		keys[i].k = k
		j := i
		if j >= len(prev) || prev[j].k.Table != k.Table || prev[j].k.Index != k.Index {
			if at == nil {
				at = make(map[[2]string]int, len(prev))
				for n, p := range prev {
					at[[2]string{p.k.Table, p.k.Index}] = n
				}
			}
			var ok bool
			if j, ok = at[[2]string{k.Table, k.Index}]; !ok {
				j = -1
			}
		}
		if j >= 0 && sameLoad(prev[j].k, k) {
			keys[i].found = prev[j].found
			continue
		}
		keys[i].found = [3][]Finding{cap001HotValue(k, r.Prices, nil), cap002FewValues(k, nil), cap004Increasing(d, k, nil)}
	}
	for _, k := range keys {
		out = append(out, k.found[0]...)
	}
	for _, k := range keys {
		out = append(out, k.found[1]...)
	}
	out = cap003(out)
	for _, k := range keys {
		out = append(out, k.found[2]...)
	}
	return keys, cap005Collection(d, r, loads, out)
}

// sameLoad reports whether a and b are the same load: equal in every figure, with the same list
// of shares (a report taken over from the revision before keeps the lists of the keys an edit
// left alone).
func sameLoad(a, b capacity.KeyLoad) bool {
	return a.Table == b.Table && a.Index == b.Index && a.Attribute == b.Attribute && a.Cardinality == b.Cardinality &&
		a.Skew == b.Skew && a.Model == b.Model && a.RCU == b.RCU && a.WCU == b.WCU &&
		len(a.Shares) == len(b.Shares) && (len(a.Shares) == 0 || &a.Shares[0] == &b.Shares[0])
}

// cap001HotValue: the load on the hottest value of the key is over one partition's. A partition
// serves 3,000 read units and 1,000 write units a second from one budget, so reads and writes are
// added as shares of their limits. The message ends with the write-sharding suggestion
// (capacity.Sharding) and what it costs the reads at prices p.
func cap001HotValue(k capacity.KeyLoad, p capacity.Prices, out []Finding) []Finding {
	sh := k.Sharding(p)
	if sh == nil {
		return out
	}
	var sb strings.Builder
	sb.WriteString(keyLabel(k) + ": the hottest of its values takes " + capacity.Figure(k.RCU) + " RCU/s and " +
		capacity.Figure(k.WCU) + " WCU/s at peak, " + percent(k.Share()) + " of what one partition serves (" +
		capacity.Figure(k.RCU) + " / 3,000 RCU + " + capacity.Figure(k.WCU) + " / 1,000 WCU), under the hot-key model " +
		modelOf(k).Text() + ". ")
	sb.WriteString(sharesText(k, func(s capacity.KeyShare) bool { return s.OnHottest > 0 }))
	sb.WriteString(" " + shardingText(sh))
	return append(out, finding("CAP001", k.Path(), sb.String()))
}

// shardingText says the write-sharding suggestion: the shards, the key, the hottest shard's load
// and what the Queries of the key pay more; or, when no count fits, that sharding cannot help.
func shardingText(sh *capacity.Sharding) string {
	if !sh.Fits {
		return "No shard suffix brings it under: at " + capacity.Figure(float64(sh.Shards)) + " shards the hottest still takes " +
			capacity.Figure(sh.RCU) + " RCU/s, the reads by item and each Query's least units falling on every shard. Cache the hottest reads, or choose a key of higher cardinality."
	}
	var sb strings.Builder
	n := strconv.Itoa(sh.Shards)
	sb.WriteString("Write-shard it into " + n + " shards: " + sh.Key + " with shard = hash(item id) % " + n +
		", so that the hottest shard takes " + capacity.Figure(sh.RCU) + " RCU/s and " + capacity.Figure(sh.WCU) + " WCU/s (" +
		percent(sh.Share()) + " of a partition).")
	for _, rd := range sh.Reads {
		sb.WriteString(" Pattern " + strconv.Itoa(rd.Number) + "'s Query of the key becomes " + n + " Queries, " +
			capacity.Figure(rd.After) + " RRU a request instead of " + capacity.Figure(rd.Before))
		if rd.ExtraPerMonth > 0 {
			sb.WriteString(": $" + capacity.Figure(rd.ExtraPerMonth) + " a month more at " + capacity.Figure(rd.AvgRPS) + " RPS on average")
		}
		sb.WriteString(".")
	}
	return sb.String()
}

// modelOf is the hot-key model of k's figures: a load put together with a skew alone has the skew.
func modelOf(k capacity.KeyLoad) capacity.HotModel {
	if k.Model.Name == "" {
		return capacity.HotModel{Name: designer.HotKeySkewModel, Skew: k.Skew, SkewFrom: capacity.FromDefault}
	}
	return k.Model
}

// cap002FewValues: a key with fewer than 100 distinct values carries patterns whose load on its
// hottest value is a tenth of a partition or more (capacity.FewValuesNoticed). Below that, a few values are
// no risk at the team's rates: nine departments read a few times a second are not a hot spot.
func cap002FewValues(k capacity.KeyLoad, out []Finding) []Finding {
	few := func(s capacity.KeyShare) bool { return s.FewValues() }
	first := slices.IndexFunc(k.Shares, few)
	share := k.FewValuesShare()
	if first < 0 || share < capacity.FewValuesNoticed {
		return out
	}
	s := k.Shares[first]
	var sb strings.Builder
	sb.WriteString(keyLabel(k) + ": ")
	if s.Values == k.Cardinality.Values {
		sb.WriteString("it has " + valuesText(s.Values) + " (" + s.ValuesFrom + ")")
	} else {
		sb.WriteString("pattern " + strconv.Itoa(s.Number) + " reaches " + valuesText(s.Values) + " of it (" + s.ValuesFrom + ")")
	}
	sb.WriteString(", fewer than the 100 or more the method aims for, and the load on them takes " + percent(share) +
		" of one partition on the hottest value. ")
	sb.WriteString(sharesText(k, few))
	sb.WriteString(" Choose a key of higher cardinality, or add a shard suffix.")
	return append(out, finding("CAP002", k.Path(), sb.String()))
}

// cap003IndexKeyChange: a write changes the key of an index entry, which DynamoDB carries out as a
// delete of the old entry and a put of the new one.
func cap003IndexKeyChange(d designer.Design, r capacity.Report, out []Finding) []Finding {
	for i, pl := range r.Patterns {
		p, ok := patternOf(d, i, pl)
		if !ok {
			continue
		}
		for _, ol := range pl.Operations {
			t, _, tok := d.TableByName(ol.Table)
			for _, iw := range ol.IndexWrites {
				if !iw.KeyChange || !tok || ol.Position >= len(p.Mapping.Operations) {
					continue
				}
				ix, local, _, ok := t.IndexByName(iw.Index)
				if !ok {
					continue
				}
				kind := "GSI"
				if local {
					kind = "LSI"
				}
				changed := changedKeyAttributes(p.Mapping.Operations[ol.Position], t, ix, local)
				perWrite := iw.Units
				if iw.Writes > 0 {
					perWrite = iw.Units / iw.Writes
				}
				msg := "Pattern " + strconv.Itoa(p.Number) + " changes " + changed + ", the key of " + kind + " " + ix.Name + " on " + t.Name +
					": each write deletes the old index entry and puts a new one, " + capacity.Figure(iw.Writes) + " index writes of " +
					capacity.Figure(perWrite) + " WCU, " + capacity.Figure(iw.Units) + " WCU per request; at its peak of " +
					capacity.Figure(pl.PeakRPS) + " RPS that is " + capacity.Figure(iw.Units*pl.PeakRPS) +
					" WCU/s on the index. Keep attributes that change out of index keys, or accept the cost and check it stays under 1,000 WCU per key value (seed 001, \"Consider the Write Amplification\")."
				out = append(out, finding("CAP003", patternFieldPath(p, "mapping/operations/"+strconv.Itoa(ol.Position)), msg))
			}
		}
	}
	return out
}

// patternOf is the pattern of d whose load is pl, the i-th of its report: the report lists the
// design's patterns in its order, so it is d's i-th unless the report was put together otherwise.
func patternOf(d designer.Design, i int, pl capacity.PatternLoad) (designer.Pattern, bool) {
	if i < len(d.Patterns) && d.Patterns[i].ID == pl.ID {
		return d.Patterns[i], true
	}
	p, _, ok := d.PatternByID(pl.ID)
	return p, ok
}

// changedKeyAttributes names the index key attributes an operation's update sets or removes, or,
// for a write that replaces the whole item, those that are not the table's own key (a write
// addressed by its table key cannot change that).
func changedKeyAttributes(op designer.Operation, t designer.Table, ix designer.Index, local bool) string {
	keys := ix.PartitionKey
	if local {
		keys = nil
	}
	keys = append(slices.Clone(keys), ix.SortKey...)
	named := map[string]bool{}
	for _, w := range strings.FieldsFunc(op.Update, func(r rune) bool {
		return !(r == '_' || r == '#' || r == '-' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) {
		if n, ok := op.Names[w]; ok {
			w = n
		}
		named[w] = true
	}
	var names []string
	for _, k := range keys {
		if named[k.Name] {
			names = append(names, k.Name)
		}
	}
	if len(names) == 0 {
		tableKeys := designer.TableKeyNames(t)
		for _, k := range keys {
			if !slices.Contains(tableKeys, k.Name) {
				names = append(names, k.Name)
			}
		}
	}
	return strings.Join(names, " and ")
}

// cap004Increasing: a write-heavy pattern writes a key that grows with time, whose newest value
// takes all its writes.
func cap004Increasing(d designer.Design, k capacity.KeyLoad, out []Finding) []Finding {
	heavy := func(s capacity.KeyShare) bool {
		if !s.Write || !s.Increasing || s.OnHottest < heavyWrites {
			return false
		}
		p, _, ok := d.PatternByID(s.Pattern)
		return ok && p.Type != designer.Read
	}
	if !slices.ContainsFunc(k.Shares, heavy) {
		return out
	}
	var wcu float64
	for _, s := range k.Shares {
		if heavy(s) {
			wcu += s.OnHottest
		}
	}
	shards := max(2, int(math.Ceil(wcu/shardTarget)))
	msg := keyLabel(k) + ": it grows with time (" + k.Cardinality.Source + "). " +
		sharesText(k, heavy) + " Shard it as seed 001 shows (\"Sharding Monotonically Increasing Keys\"): add a suffix " +
		strings.ReplaceAll(k.Attribute, " + ", "#") + "#shard with shard = hash(item id) % " + strconv.Itoa(shards) +
		", so that each value takes at most " + capacity.Figure(wcu/float64(shards)) + " WCU/s, and read the shards in parallel."
	return append(out, finding("CAP004", k.Path(), msg))
}

// cap005Collection: a table with an LSI keeps each partition-key value's items and LSI entries in
// one item collection, which may not pass 10 GB. Its largest collection is estimated as the table's
// and its LSIs' storage over the key's distinct values, times the skew.
func cap005Collection(d designer.Design, r capacity.Report, loads []capacity.KeyLoad, out []Finding) []Finding {
	for _, t := range d.Tables {
		if len(t.LSIs) == 0 {
			continue
		}
		var bytes float64
		var lsis []string
		for _, res := range r.Resources {
			if res.Table == t.Name && (res.Kind == capacity.KindTable || res.Kind == capacity.KindLSI) {
				bytes += res.Storage.Bytes
			}
		}
		for _, ix := range t.LSIs {
			lsis = append(lsis, ix.Name)
		}
		i := slices.IndexFunc(loads, func(k capacity.KeyLoad) bool { return k.Table == t.Name && k.Index == "" })
		if i < 0 || !loads[i].Cardinality.Known || loads[i].Cardinality.Values <= 0 {
			continue
		}
		k := loads[i]
		per := bytes / k.Cardinality.Values * min(k.Skew, k.Cardinality.Values)
		if per <= maxCollectionBytes {
			continue
		}
		msg := t.Name + " has an LSI (" + strings.Join(lsis, ", ") + "), so the items and LSI entries of one " + k.Attribute +
			" value must fit in 10 GB. It stores " + gbText(bytes) + " over " + valuesText(k.Cardinality.Values) + " (" +
			k.Cardinality.Source + "); with the skew of " + capacity.Figure(k.Skew) + " its largest collection holds about " +
			gbText(per) + ", and writes to it would fail. Give the key more values, or use a GSI, which has no such limit."
		out = append(out, finding("CAP005", tablePath(t)+"/partition_key", msg))
	}
	return out
}

// keyLabel names a key for a message: "Table Orders's partition key customer_id".
func keyLabel(k capacity.KeyLoad) string {
	if k.Index == "" {
		return "The partition key " + k.Attribute + " of table " + k.Table
	}
	return "The partition key " + k.Attribute + " of GSI " + k.Index + " on " + k.Table
}

// sharesText says which patterns put the load on a key, the largest first: "Pattern 3 reads 200
// RPS × 2.5 RRU = 500 RCU/s, × 2 (skew) ÷ 4 values = 250 on the hottest value."
func sharesText(k capacity.KeyLoad, keep func(capacity.KeyShare) bool) string {
	var shares []capacity.KeyShare
	for _, s := range k.Shares {
		if keep(s) {
			shares = append(shares, s)
		}
	}
	slices.SortStableFunc(shares, func(a, b capacity.KeyShare) int { return cmp.Compare(b.OnHottest, a.OnHottest) })
	var parts []string
	for i, s := range shares {
		if i == maxSharesNamed {
			parts = append(parts, "and "+strconv.Itoa(len(shares)-i)+" more")
			break
		}
		verb, unit, per := "reads", "RCU", "RRU"
		if s.Write {
			verb, unit, per = "writes", "WCU", "WRU"
		}
		text := "pattern " + strconv.Itoa(s.Number) + " " + verb + " " + capacity.Figure(s.PeakRPS) + " RPS × " +
			capacity.Figure(s.UnitsPerReq) + " " + per + " = " + capacity.Figure(s.Units) + " " + unit + "/s"
		switch how := modelOf(k).ShareText(s.Values); {
		case how != "":
			text += ", " + how + " = " + capacity.Figure(s.OnHottest) + " on the hottest value"
		case s.Values <= 0:
		default:
			text += ", all of it on one value"
		}
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return ""
	}
	text := strings.Join(parts, "; ") + "."
	return strings.ToUpper(text[:1]) + text[1:]
}

// valuesText is "1 value" or "4 values".
func valuesText(n float64) string {
	if n == 1 {
		return "1 value"
	}
	return capacity.Figure(n) + " values"
}

// percent is a share as a percentage: 1.3 is "130 %".
func percent(share float64) string { return capacity.Figure(math.Round(share*100)) + " %" }

// gbText is a size in GB (2^30 bytes).
func gbText(bytes float64) string { return capacity.Figure(bytes/(1<<30)) + " GB" }

// capacity is the design's capacity report, worked out once per validation through its Cache,
// taking over from the last validation the figures of the patterns and tables the edit left alone
// (capacity.ComputeFrom), and kept in the Memo for whoever shows it (Memo.Capacity).
func (v *validation) capacity() capacity.Report {
	if v.next.capacity == nil {
		r, m := capacity.ComputeFrom(v.d, v.cache, v.prev.capacityMemo)
		v.next.capacity, v.next.capacityMemo = &r, m
	}
	return *v.next.capacity
}
