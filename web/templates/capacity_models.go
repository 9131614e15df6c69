package templates

import "strconv"

// Capacity is the capacity step: the settings the team sets and the figures worked out from the
// design (CapacityFigures), which any change may move.
type Capacity struct {
	Workspace
	Settings []CapacitySetting
	Figures  CapacityFigures
}

// CapacitySetting is one setting's cell, with its label and what it is when left empty.
type CapacitySetting struct {
	Label, Hint string
	Cell        Cell
}

// CapacityFigures is everything the step computes, redrawn whole after a change of settings.
type CapacityFigures struct {
	// OOB marks the figures as an out-of-band part of the answer to a settings change.
	OOB bool
	// Empty, when set, says why there is nothing to count yet.
	Empty  string
	Totals []CapacityTotal
	Prices []CapacityPrice
	// PriceNote says whose prices are used when the region has none in the price table.
	PriceNote string
	// Classes compare each table in both table classes, IAFactors says what Standard-IA charges,
	// and Options are the replicas' and the reservation's months.
	Classes   []CapacityClassRow
	IAFactors string
	Options   []CapacityTotal
	// Patterns are the rows of one page of the per-pattern table; PatternPager leads to the others.
	Patterns     []CapacityPatternRows
	PatternPager Pager
	Resources    []CapacityResourceRow
	HotKeys      []CapacityHotKeyRow
	Findings     []FindingView
	CostChart    StackedBars
	HotChart     LimitBars
	LoadChart    StackedBars
	// HasCost, HasHot and HasLoad say whether the cost, hot-key and load charts have anything to
	// draw.
	HasCost, HasHot, HasLoad bool

	// HotModel says the hot-key model the busiest values are worked out with.
	HotModel string
}

// CapacityTotal is one headline figure.
type CapacityTotal struct{ Label, Value, Hint string }

// CapacityClassRow is one table's month in either table class and where Standard-IA starts to
// pay.
type CapacityClassRow struct{ Table, Class, Standard, StandardIA, Stored, BreakEven string }

// CapacityPrice is one price the figures use, with where it came from.
type CapacityPrice struct{ Label, Value, Source string }

// Figure is a number as people read it, with a mark saying where it came from when that is not
// the design itself (Source: a key of SourceMarks).
type Figure struct{ Text, Source string }

// SourceMark is the mark of one kind of source and its words in the legend.
type SourceMark struct{ Key, Mark, Words string }

// SourceMarks are the marks beside figures, in the legend's order.
var SourceMarks = []SourceMark{
	{"samples", "S", "measured on the sample items"},
	{"requirement", "R", "from the requirement's result bound or item size band (too few sample items)"},
	{"default", "D", "a default: neither measured nor stated"},
	{"clauses", "E", "estimated from the write's clauses (it does not run on the sample items)"},
}

func sourceMark(key string) (SourceMark, bool) {
	for _, m := range SourceMarks {
		if m.Key == key {
			return m, true
		}
	}
	return SourceMark{}, false
}

// CapacityPatternRows is one access pattern: a row per operation, the pattern's own cells
// spanning them.
type CapacityPatternRows struct {
	ID, Number, Description, Href string
	PeakRPS, AvgRPS               Figure
	Operations                    []CapacityOperationRow
	// Peak and Average are the pattern's load per second, all its operations together.
	Peak, Average string
}

// CapacityOperationRow is one operation of a pattern, per request.
type CapacityOperationRow struct {
	Op, Where    string
	Items, Bytes Figure
	Units, Notes string
	// IndexWrites are the indexes the write writes, each with why; empty for none.
	IndexWrites []CapacityIndexWrite
}

// CapacityIndexWrite is what one request of a write costs one index ("ByVet: 1 = 1 WRU", marked
// with its source) and the reason.
type CapacityIndexWrite struct {
	Figure Figure
	Reason string
}

// CapacityResourceRow is one table or index.
type CapacityResourceRow struct {
	ID, Name, Kind, Href string
	// Reads and Writes are the units per second at peak; AvgLoad both at the average.
	Reads, Writes, AvgLoad         string
	OnDemand, Provisioned, Storage string
	ProvisionedUnits               string
	Cheaper, BreakEven             string
	StorageSize                    Figure
	Total                          string
	IsTotal                        bool
}

// CapacityHotKeyRow is the hottest value of one table's or index's partition key.
type CapacityHotKeyRow struct {
	Name, Attribute, Distinct, DistinctFrom string
	// Model names the hot-key model and its parameters ("zipf s = 1.2").
	Model           string
	RCU, WCU, Share string
	Over            bool
	// Sharding is the write-sharding suggestion of a key over the limit, line by line.
	Sharding []string
}

func rowspan(ops []CapacityOperationRow) string { return strconv.Itoa(max(1, len(ops))) }
