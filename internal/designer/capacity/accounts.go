package capacity

import (
	"math"

	"dynaloom/internal/designer"
)

// resourceKey names a table ("" index) or one of its indexes.
type resourceKey struct{ table, index string }

// account is what the patterns charge one resource, in units per second.
type account struct {
	peak, avg Throughput // reads, and the table's own writes
	// peakIndex and avgIndex are the write units of index writes charged here: a GSI's own, or
	// a table's LSIs'.
	peakIndex, avgIndex float64
	load                []PatternShare
}

// accounts are the resources' accounts while the patterns are charged.
type accounts map[resourceKey]*account

func newAccounts(d designer.Design) accounts {
	a := accounts{}
	for _, t := range d.Tables {
		a.open(t)
	}
	return a
}

// open makes the accounts of t and its indexes.
func (a accounts) open(t designer.Table) {
	a[resourceKey{t.Name, ""}] = &account{}
	for _, ix := range t.GSIs {
		a[resourceKey{t.Name, ix.Name}] = &account{}
	}
	for _, ix := range t.LSIs {
		a[resourceKey{t.Name, ix.Name}] = &account{}
	}
}

// charge adds one request of ol, at the pattern's rates, to the resources it loads: t, the table
// it names, and t's indexes.
func (a accounts) charge(t designer.Table, pl *PatternLoad, ol OperationLoad) {
	table := a[resourceKey{t.Name, ""}]
	if ol.ReadUnits > 0 {
		to := table
		if ol.Index != "" && isGSI(t, ol.Index) {
			to = a[resourceKey{t.Name, ol.Index}]
		} else if lsi := a[resourceKey{t.Name, ol.Index}]; ol.Index != "" && lsi != nil {
			// An LSI's reads are the table's; the LSI lists them among its load all the same.
			lsi.share(pl, ol.ReadUnits*pl.PeakRPS, 0)
		}
		if to != nil {
			to.peak.RCU += ol.ReadUnits * pl.PeakRPS
			to.avg.RCU += ol.ReadUnits * pl.AvgRPS
			to.share(pl, ol.ReadUnits*pl.PeakRPS, 0)
		}
	}
	if w := ol.WriteUnits + ol.FailedWriteUnits; w > 0 {
		table.peak.WCU += w * pl.PeakRPS
		table.avg.WCU += w * pl.AvgRPS
		table.share(pl, 0, w*pl.PeakRPS)
	}
	for _, iw := range ol.IndexWrites {
		to := table
		if isGSI(t, iw.Index) {
			to = a[resourceKey{t.Name, iw.Index}]
		} else if lsi := a[resourceKey{t.Name, iw.Index}]; lsi != nil {
			lsi.share(pl, 0, iw.Units*pl.PeakRPS)
		}
		if to == nil {
			continue
		}
		to.peakIndex += iw.Units * pl.PeakRPS
		to.avgIndex += iw.Units * pl.AvgRPS
		to.share(pl, 0, iw.Units*pl.PeakRPS)
	}
}

// addLoad adds one request of ol, an operation on a table of the design, at the pattern's rates,
// to the pattern's own totals.
func addLoad(pl *PatternLoad, ol OperationLoad) {
	if ol.ReadUnits > 0 {
		pl.Peak.RCU += ol.ReadUnits * pl.PeakRPS
		pl.Average.RCU += ol.ReadUnits * pl.AvgRPS
	}
	pl.Peak.WCU += (ol.WriteUnits + ol.FailedWriteUnits) * pl.PeakRPS
	pl.Average.WCU += (ol.WriteUnits + ol.FailedWriteUnits) * pl.AvgRPS
	for _, iw := range ol.IndexWrites {
		pl.Peak.WCU += iw.Units * pl.PeakRPS
		pl.Average.WCU += iw.Units * pl.AvgRPS
	}
}

// share adds a pattern's peak units to the account's load, one entry per pattern.
func (ac *account) share(pl *PatternLoad, rcu, wcu float64) {
	if n := len(ac.load); n > 0 && ac.load[n-1].Pattern == pl.ID {
		ac.load[n-1].RCU += rcu
		ac.load[n-1].WCU += wcu
		return
	}
	ac.load = append(ac.load, PatternShare{Pattern: pl.ID, Number: pl.Number, RCU: rcu, WCU: wcu})
}

// appendResources appends t and its GSIs and LSIs, with their costs and storage, to out.
func appendResources(out []Resource, t designer.Table, a accounts, st tableStorages, prices Prices, s Settings) []Resource {
	class := ClassOf(t)
	out = append(out, resource(t.Name, "", KindTable, class, a[resourceKey{t.Name, ""}], st.table, prices, s))
	for _, ix := range t.GSIs {
		out = append(out, resource(t.Name, ix.Name, KindGSI, class, a[resourceKey{t.Name, ix.Name}], st.index[ix.Name], prices, s))
	}
	for _, ix := range t.LSIs {
		out = append(out, resource(t.Name, ix.Name, KindLSI, class, a[resourceKey{t.Name, ix.Name}], st.index[ix.Name], prices, s))
	}
	return out
}

// ClassOf is t's table class, Standard when it names none.
func ClassOf(t designer.Table) string {
	if t.TableClass == "" {
		return designer.StandardClass
	}
	return t.TableClass
}

// resource works out one resource's costs from its account and storage, in the table's class and
// with the Global Table's replicas.
func resource(table, index, kind, class string, ac *account, st Storage, base Prices, s Settings) Resource {
	prices := base.OfClass(class)
	replicas := float64(len(s.Replicas))
	if replicas > 0 {
		st.Bytes += st.Items * GlobalTablesOverheadBytes
		st.GB = st.Bytes / GB
	}
	r := Resource{Table: table, Index: index, Kind: kind, Class: class, Prices: prices, Storage: st, Load: ac.load}
	storage := st.GB * prices.Storage.Dollars
	r.OnDemand.Storage, r.Provisioned.Storage = storage, storage
	if kind != KindLSI {
		r.Peak = Throughput{RCU: ac.peak.RCU, WCU: ac.peak.WCU + ac.peakIndex}
		r.Average = Throughput{RCU: ac.avg.RCU, WCU: ac.avg.WCU + ac.avgIndex}
		perMonth := func(unitsPerSecond float64, p Price) float64 {
			return unitsPerSecond * SecondsPerMonth * p.Dollars / 1e6
		}
		r.OnDemand.Reads = perMonth(ac.avg.RCU, prices.ReadRequest)
		r.OnDemand.Writes = perMonth(ac.avg.WCU, prices.WriteRequest)
		r.OnDemand.IndexWrites = perMonth(ac.avgIndex, prices.WriteRequest)
		r.OnDemand.AtPeak = perMonth(r.Peak.RCU, prices.ReadRequest) + perMonth(r.Peak.WCU, prices.WriteRequest)
		target := s.TargetUtilization / 100
		r.Provisioned.RCU = int64(math.Max(ceil(r.Peak.RCU/target), 1))
		r.Provisioned.WCU = int64(math.Max(ceil(r.Peak.WCU/target), 1))
		r.Provisioned.Reads = float64(r.Provisioned.RCU) * HoursPerMonth * prices.ReadUnitHour.Dollars
		r.Provisioned.Writes = float64(r.Provisioned.WCU) * HoursPerMonth * prices.WriteUnitHour.Dollars
		// At utilisation u (average over provisioned), on demand costs u × the provisioned
		// units' on-demand price; provisioned costs the same whatever u is.
		full := perMonth(float64(r.Provisioned.RCU), prices.ReadRequest) + perMonth(float64(r.Provisioned.WCU), prices.WriteRequest)
		if full > 0 {
			r.BreakEven = (r.Provisioned.Reads + r.Provisioned.Writes) / full
		}
		// Each replica takes every write again, as replicated write units at the write price
		// (the same since November 2024), and provisions as many.
		r.OnDemand.Replication = replicas * (r.OnDemand.Writes + r.OnDemand.IndexWrites)
		r.OnDemand.AtPeak += replicas * perMonth(r.Peak.WCU, prices.WriteRequest)
		r.Provisioned.Replication = replicas * r.Provisioned.Writes
	}
	r.OnDemand.Replication += replicas * storage
	r.OnDemand.AtPeak += replicas * storage
	r.Provisioned.Replication += replicas * storage
	r.OnDemand.Total = r.OnDemand.Reads + r.OnDemand.Writes + r.OnDemand.IndexWrites + r.OnDemand.Storage + r.OnDemand.Replication
	r.OnDemand.AtPeak += r.OnDemand.Storage
	r.Provisioned.Total = r.Provisioned.Reads + r.Provisioned.Writes + r.Provisioned.Storage + r.Provisioned.Replication
	r.Cheaper = OnDemandMode
	if r.Provisioned.Total < r.OnDemand.Total {
		r.Cheaper = ProvisionedMode
	}
	return r
}

// total sums the resources. Cheapest puts each table with its indexes in the mode that costs the
// group less, as a table's indexes take its capacity mode.
func total(d designer.Design, rs []Resource) Total {
	var t Total
	group := map[string]*[2]float64{}
	for _, r := range rs {
		t.Peak.RCU += r.Peak.RCU
		t.Peak.WCU += r.Peak.WCU
		t.Average.RCU += r.Average.RCU
		t.Average.WCU += r.Average.WCU
		t.OnDemand.Reads += r.OnDemand.Reads
		t.OnDemand.Writes += r.OnDemand.Writes
		t.OnDemand.IndexWrites += r.OnDemand.IndexWrites
		t.OnDemand.Storage += r.OnDemand.Storage
		t.OnDemand.Replication += r.OnDemand.Replication
		t.Provisioned.Replication += r.Provisioned.Replication
		t.OnDemand.Total += r.OnDemand.Total
		t.OnDemand.AtPeak += r.OnDemand.AtPeak
		t.Provisioned.RCU += r.Provisioned.RCU
		t.Provisioned.WCU += r.Provisioned.WCU
		t.Provisioned.Reads += r.Provisioned.Reads
		t.Provisioned.Writes += r.Provisioned.Writes
		t.Provisioned.Storage += r.Provisioned.Storage
		t.Provisioned.Total += r.Provisioned.Total
		t.Storage.Items += r.Storage.Items
		t.Storage.Bytes += r.Storage.Bytes
		g := group[r.Table]
		if g == nil {
			g = &[2]float64{}
			group[r.Table] = g
		}
		g[0] += r.OnDemand.Total
		g[1] += r.Provisioned.Total
	}
	for _, tb := range d.Tables {
		if g := group[tb.Name]; g != nil {
			t.Cheapest += math.Min(g[0], g[1])
		}
	}
	t.Storage.GB = t.Storage.Bytes / GB
	if t.Storage.Items > 0 {
		t.Storage.AvgItemBytes = t.Storage.Bytes/t.Storage.Items - StorageOverheadBytes
	}
	return t
}
