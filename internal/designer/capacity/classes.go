package capacity

import "dynaloom/internal/designer"

// classChoices compares each table of d, with its indexes, in both table classes: its on-demand
// month at the average RPS and the stored GB above which Standard-IA costs less. On Standard a
// table pays R for requests (replicated writes included) and s per stored GB (each replica's
// copy included); on Standard-IA it pays 1.25 R and 0.4 s, so IA is the cheaper once
// 0.6 s × GB > 0.25 R.
func classChoices(d designer.Design, rs []Resource, s Settings) []ClassChoice {
	copies := float64(1 + len(s.Replicas))
	out := make([]ClassChoice, 0, len(d.Tables))
	for _, t := range d.Tables {
		c := ClassChoice{Table: t.Name, Class: ClassOf(t)}
		requests, storage := 0.0, 0.0 // at Standard prices
		found := false
		for _, r := range rs {
			if r.Table != t.Name {
				continue
			}
			found = true
			rf, sf := 1.0, 1.0
			if r.Class == designer.StandardIAClass {
				rf, sf = StandardIARequestFactor, StandardIAStorageFactor
			}
			stored := r.Storage.GB * r.Prices.Storage.Dollars * copies
			storage += stored / sf
			requests += (r.OnDemand.Total - stored) / rf
			c.StoredGB += r.Storage.GB
		}
		if !found {
			continue
		}
		c.Standard = requests + storage
		c.StandardIA = requests*StandardIARequestFactor + storage*StandardIAStorageFactor
		if requests > 0 && storage > 0 {
			perGB := storage / c.StoredGB
			c.BreakEvenGB = (StandardIARequestFactor - 1) * requests / ((1 - StandardIAStorageFactor) * perGB)
		}
		c.Cheaper = designer.StandardClass
		if c.StandardIA < c.Standard {
			c.Cheaper = designer.StandardIAClass
		}
		out = append(out, c)
	}
	return out
}

// reservedCost is the provisioned month of t with reserved capacity of the settings' term, nil
// without one. Reserved capacity covers the provisioned units of Standard tables, pooled over the
// region as AWS applies it; not a Global Table's write units, which are replicated (rWCU).
func reservedCost(t Total, rs []Resource, p Prices, s Settings) *ReservedCost {
	offer, ok := p.Reservation(s.Reserved)
	if !ok {
		return nil
	}
	var rcu, wcu int64
	for _, r := range rs {
		if r.Kind == KindLSI || r.Class != designer.StandardClass {
			continue
		}
		rcu += r.Provisioned.RCU
		if len(s.Replicas) == 0 {
			wcu += r.Provisioned.WCU
		}
	}
	rc := &ReservedCost{Term: offer.Term}
	var rest float64
	rc.RCUBlocks, rest = blocks(rcu, offer.UpfrontRCU/offer.Months+offer.HourlyRCU*HoursPerMonth, p.ReadUnitHour.Dollars)
	rc.Unreserved += rest
	rc.WCUBlocks, rest = blocks(wcu, offer.UpfrontWCU/offer.Months+offer.HourlyWCU*HoursPerMonth, p.WriteUnitHour.Dollars)
	rc.Unreserved += rest
	rc.Upfront = float64(rc.RCUBlocks)*offer.UpfrontRCU + float64(rc.WCUBlocks)*offer.UpfrontWCU
	rc.Monthly = float64(rc.RCUBlocks)*(offer.UpfrontRCU/offer.Months+offer.HourlyRCU*HoursPerMonth) +
		float64(rc.WCUBlocks)*(offer.UpfrontWCU/offer.Months+offer.HourlyWCU*HoursPerMonth)
	covered := float64(rcu)*p.ReadUnitHour.Dollars*HoursPerMonth + float64(wcu)*p.WriteUnitHour.Dollars*HoursPerMonth
	rc.Total = t.Provisioned.Total - covered + rc.Monthly + rc.Unreserved
	rc.Saving = t.Provisioned.Total - rc.Total
	return rc
}

// blocks is how many reserved blocks of 100 units to buy for units, each costing perBlock a
// month against unitHour a unit-hour unreserved, and the month of the units left unreserved: the
// whole blocks the units fill, and one more for the rest when that costs less than leaving it.
func blocks(units int64, perBlock, unitHour float64) (int64, float64) {
	n := units / ReservedBlock
	rest := float64(units-n*ReservedBlock) * unitHour * HoursPerMonth
	if rest > perBlock {
		return n + 1, 0
	}
	return n, rest
}
