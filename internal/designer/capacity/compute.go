package capacity

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Compute works out the capacity and cost of d, running its operations through c (which may be
// nil: it then remembers nothing).
func Compute(d designer.Design, c *dynamo.Cache) Report {
	r := Report{Prices: PricesOf(d.Capacity), Settings: SettingsOf(d.Capacity)}
	for _, p := range d.Patterns {
		r.Patterns = append(r.Patterns, patternLoad(p))
	}
	for _, t := range d.Tables {
		r.Resources = append(r.Resources, Resource{Table: t.Name, Kind: KindTable})
		for _, ix := range t.GSIs {
			r.Resources = append(r.Resources, Resource{Table: t.Name, Index: ix.Name, Kind: KindGSI})
		}
		for _, ix := range t.LSIs {
			r.Resources = append(r.Resources, Resource{Table: t.Name, Index: ix.Name, Kind: KindLSI})
		}
	}
	fillHotKeys(d, &r)
	return r
}

// patternLoad is p's identity and rates: a missing average is the peak, a missing peak the
// average.
func patternLoad(p designer.Pattern) PatternLoad {
	pl := PatternLoad{ID: p.ID, Number: p.Number, Description: p.Description, Type: p.Type,
		PeakFrom: FromDefault, AvgFrom: FromDefault}
	if p.PeakRPS != nil {
		pl.PeakRPS, pl.PeakFrom = *p.PeakRPS, FromDesign
	}
	if p.AvgRPS != nil {
		pl.AvgRPS, pl.AvgFrom = *p.AvgRPS, FromDesign
	}
	switch {
	case p.PeakRPS == nil && p.AvgRPS != nil:
		pl.PeakRPS = pl.AvgRPS
	case p.AvgRPS == nil && p.PeakRPS != nil:
		pl.AvgRPS = pl.PeakRPS
	}
	return pl
}
