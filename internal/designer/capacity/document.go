package capacity

import (
	"math"
	"reflect"

	"dynaloom/internal/designer"
)

// Document is a Report as the API's /capacity and `dynaloom cost --format json` write it
// (docs/capacity.md "API and CLI"): snake_case names, figures rounded to six decimals, every
// figure beside the input it came from. Its shape is part of the outside contract; the Report's
// Go types are not.
type Document struct {
	Prices        PricesDoc     `json:"prices"`
	Settings      SettingsDoc   `json:"settings"`
	Patterns      []PatternDoc  `json:"patterns"`
	Resources     []ResourceDoc `json:"resources"`
	PartitionKeys []KeyDoc      `json:"partition_keys"`
	// TableClasses compare each table's month in either table class (ClassChoice).
	TableClasses []ClassDoc `json:"table_classes"`
	Total        TotalDoc   `json:"total"`
}

// ClassDoc is one ClassChoice.
type ClassDoc struct {
	Table       string  `json:"table"`
	Class       string  `json:"class"`
	Standard    float64 `json:"standard"`
	StandardIA  float64 `json:"standard_ia"`
	BreakEvenGB float64 `json:"break_even_gb"`
	StoredGB    float64 `json:"stored_gb"`
	Cheaper     string  `json:"cheaper"`
}

// ReservedDoc is a ReservedCost.
type ReservedDoc struct {
	Term       string  `json:"term"`
	RCUBlocks  int64   `json:"rcu_blocks"`
	WCUBlocks  int64   `json:"wcu_blocks"`
	Upfront    float64 `json:"upfront"`
	Monthly    float64 `json:"monthly"`
	Unreserved float64 `json:"unreserved"`
	Total      float64 `json:"total"`
	Saving     float64 `json:"saving"`
}

// PricesDoc are the prices used, each with its source.
type PricesDoc struct {
	Region string `json:"region"`
	// Known says the region's prices are in Dynaloom's price table; Note says whose are used when not.
	Known         bool     `json:"known"`
	Note          string   `json:"note,omitempty"`
	ReadRequest   PriceDoc `json:"read_request"`
	WriteRequest  PriceDoc `json:"write_request"`
	ReadUnitHour  PriceDoc `json:"read_unit_hour"`
	WriteUnitHour PriceDoc `json:"write_unit_hour"`
	Storage       PriceDoc `json:"storage"`
}

// PriceDoc is one Price.
type PriceDoc struct {
	Dollars float64 `json:"dollars"`
	Unit    string  `json:"unit"`
	Source  string  `json:"source"`
	AsOf    string  `json:"as_of,omitempty"`
}

// SettingsDoc are the Settings used, each with where it came from.
type SettingsDoc struct {
	TargetUtilization     float64 `json:"target_utilization"`
	TargetUtilizationFrom string  `json:"target_utilization_from"`
	HotKeySkew            float64 `json:"hot_key_skew"`
	HotKeySkewFrom        string  `json:"hot_key_skew_from"`
	// The hot-key model (HotModel) and its parameters.
	HotKeyModel     string  `json:"hot_key_model"`
	HotKeyModelFrom string  `json:"hot_key_model_from"`
	HotKeyShare     float64 `json:"hot_key_share"`
	HotKeyShareFrom string  `json:"hot_key_share_from"`
	HotKeyZipfS     float64 `json:"hot_key_zipf_s"`
	HotKeyZipfSFrom string  `json:"hot_key_zipf_s_from"`
	// ReplicaRegions are a Global Table's other regions; ReservedCapacity the reserved term.
	ReplicaRegions   []string `json:"replica_regions"`
	ReservedCapacity string   `json:"reserved_capacity,omitempty"`
}

// UnitsDoc is a Throughput: units per second.
type UnitsDoc struct {
	RCU float64 `json:"rcu"`
	WCU float64 `json:"wcu"`
}

// PatternDoc is one PatternLoad.
type PatternDoc struct {
	ID          string  `json:"id"`
	Number      int     `json:"number"`
	Description string  `json:"description"`
	Type        string  `json:"type,omitempty"`
	PeakRPS     float64 `json:"peak_rps"`
	PeakFrom    string  `json:"peak_rps_from"`
	AvgRPS      float64 `json:"avg_rps"`
	AvgFrom     string  `json:"avg_rps_from"`
	// ConditionalFailurePct is PatternLoad.FailurePct.
	ConditionalFailurePct float64        `json:"conditional_failure_pct"`
	Peak                  UnitsDoc       `json:"peak"`
	Average               UnitsDoc       `json:"average"`
	Operations            []OperationDoc `json:"operations"`
}

// OperationDoc is one OperationLoad: what one request reads and writes.
type OperationDoc struct {
	Position      int     `json:"position"`
	Op            string  `json:"op"`
	Table         string  `json:"table"`
	Index         string  `json:"index,omitempty"`
	Consistency   string  `json:"consistency,omitempty"`
	ItemsRead     float64 `json:"items_read"`
	ItemsReturned float64 `json:"items_returned"`
	ItemsFrom     string  `json:"items_from"`
	ItemBytes     float64 `json:"item_bytes"`
	BytesRead     float64 `json:"bytes_read"`
	SizeFrom      string  `json:"size_from"`
	ReadUnits     float64 `json:"read_units"`
	WriteUnits    float64 `json:"write_units"`
	// FailedWriteUnits are what failed conditions add to one request (OperationLoad).
	FailedWriteUnits float64         `json:"failed_write_units"`
	IndexWrites      []IndexWriteDoc `json:"index_writes"`
	Note             string          `json:"note,omitempty"`
}

// IndexWriteDoc is one IndexWriteLoad.
type IndexWriteDoc struct {
	Index      string  `json:"index"`
	Writes     float64 `json:"writes"`
	Units      float64 `json:"units"`
	KeyChange  bool    `json:"key_change"`
	Reason     string  `json:"reason"`
	WritesFrom string  `json:"writes_from"`
	SizeFrom   string  `json:"size_from"`
}

// ResourceDoc is one Resource: a table, GSI or LSI.
type ResourceDoc struct {
	Table       string           `json:"table"`
	Index       string           `json:"index,omitempty"`
	Kind        string           `json:"kind"`
	Class       string           `json:"table_class"`
	Peak        UnitsDoc         `json:"peak"`
	Average     UnitsDoc         `json:"average"`
	OnDemand    CostDoc          `json:"on_demand"`
	Provisioned ProvisionedDoc   `json:"provisioned"`
	Cheaper     string           `json:"cheaper"`
	BreakEven   float64          `json:"break_even"`
	Storage     StorageDoc       `json:"storage"`
	Load        []PatternUnitDoc `json:"load"`
}

// CostDoc is a monthly Cost in dollars.
type CostDoc struct {
	Reads       float64 `json:"reads"`
	Writes      float64 `json:"writes"`
	IndexWrites float64 `json:"index_writes"`
	Storage     float64 `json:"storage"`
	// Replication is what a Global Table's replicas add (Cost.Replication).
	Replication float64 `json:"replication"`
	Total       float64 `json:"total"`
	// AtPeak is the month with every pattern at its peak RPS (Cost.AtPeak).
	AtPeak float64 `json:"at_peak"`
}

// ProvisionedDoc is a ProvisionedCost.
type ProvisionedDoc struct {
	RCU         int64   `json:"rcu"`
	WCU         int64   `json:"wcu"`
	Reads       float64 `json:"reads"`
	Writes      float64 `json:"writes"`
	Storage     float64 `json:"storage"`
	Replication float64 `json:"replication"`
	Total       float64 `json:"total"`
}

// StorageDoc is a Storage.
type StorageDoc struct {
	Items        float64 `json:"items"`
	ItemsFrom    string  `json:"items_from"`
	AvgItemBytes float64 `json:"avg_item_bytes"`
	Bytes        float64 `json:"bytes"`
	GB           float64 `json:"gb"`
	// Size is Bytes in the unit that reads best ("3.2 GB", "740 B").
	Size string `json:"size"`
	// Sources say how each counted entity's items were worked out at HorizonMonths from now.
	Sources       []string `json:"sources,omitempty"`
	HorizonMonths float64  `json:"horizon_months,omitempty"`
}

// PatternUnitDoc is one PatternShare: a pattern's load on a resource at peak.
type PatternUnitDoc struct {
	Pattern string  `json:"pattern"`
	Number  int     `json:"number"`
	RCU     float64 `json:"rcu"`
	WCU     float64 `json:"wcu"`
}

// KeyDoc is one KeyLoad: the hottest value of a table's or GSI's partition key.
type KeyDoc struct {
	Table       string      `json:"table"`
	Index       string      `json:"index,omitempty"`
	Attribute   string      `json:"attribute"`
	Cardinality Cardinality `json:"cardinality"`
	Skew        float64     `json:"skew"`
	// Model names the hot-key model the figures come from; ModelText says it with its parameters.
	Model      string        `json:"model"`
	ModelText  string        `json:"model_text"`
	RCU        float64       `json:"rcu"`
	WCU        float64       `json:"wcu"`
	ReadLimit  float64       `json:"read_limit"`
	WriteLimit float64       `json:"write_limit"`
	Share      float64       `json:"share"`
	Status     string        `json:"status"`
	Shares     []KeyShareDoc `json:"shares"`
	Sharding   *ShardingDoc  `json:"sharding,omitempty"`
}

// ShardingDoc is a hot key's Sharding.
type ShardingDoc struct {
	Shards        int            `json:"shards"`
	Fits          bool           `json:"fits"`
	Key           string         `json:"key"`
	RCU           float64        `json:"rcu"`
	WCU           float64        `json:"wcu"`
	Share         float64        `json:"share"`
	Reads         []ShardReadDoc `json:"reads"`
	ExtraPerMonth float64        `json:"extra_per_month"`
}

// ShardReadDoc is one ShardRead.
type ShardReadDoc struct {
	Pattern       string  `json:"pattern"`
	Number        int     `json:"number"`
	Position      int     `json:"position"`
	UnitsBefore   float64 `json:"units_before"`
	UnitsAfter    float64 `json:"units_after"`
	AvgRPS        float64 `json:"avg_rps"`
	ExtraPerMonth float64 `json:"extra_per_month"`
}

// KeyShareDoc is one KeyShare.
type KeyShareDoc struct {
	Pattern     string  `json:"pattern"`
	Number      int     `json:"number"`
	Position    int     `json:"position"`
	Write       bool    `json:"write"`
	PeakRPS     float64 `json:"peak_rps"`
	UnitsPerReq float64 `json:"units_per_request"`
	Units       float64 `json:"units"`
	Values      float64 `json:"values"`
	ValuesFrom  string  `json:"values_from"`
	Increasing  bool    `json:"increasing,omitempty"`
	OnHottest   float64 `json:"on_hottest"`
	KeyChange   bool    `json:"key_change,omitempty"`
}

// TotalDoc is the Total.
type TotalDoc struct {
	Peak        UnitsDoc       `json:"peak"`
	Average     UnitsDoc       `json:"average"`
	OnDemand    CostDoc        `json:"on_demand"`
	Provisioned ProvisionedDoc `json:"provisioned"`
	Cheapest    float64        `json:"cheapest"`
	Storage     StorageDoc     `json:"storage"`
	// Reserved is the provisioned month with reserved capacity; absent without a reservation.
	Reserved *ReservedDoc `json:"reserved,omitempty"`
}

// Statuses of a partition key's hottest value (KeyDoc.Status, KeyStatus).
const (
	StatusOK   = "ok"   // well within one partition's limits
	StatusWarn = "warn" // at half of the limits or more, or loaded through few values (CAP002)
	StatusOver = "over" // over one partition's limits (CAP001)
	// StatusUnknown: patterns load the key but nothing counts its values, so the load on one value
	// cannot be told.
	StatusUnknown = "unknown"
)

// KeyStatus judges the hottest value of a key for a reader: StatusOver past one partition's
// limits (Share > 1, CAP001's threshold); StatusWarn at half of them or more, or when the patterns
// that reach fewer than 100 of its values put a tenth of a partition or more on it (CAP002's
// threshold); StatusUnknown when patterns load it but its values are not counted; StatusOK
// otherwise.
func KeyStatus(k KeyLoad) string {
	loaded := false
	for _, s := range k.Shares {
		loaded = loaded || s.PeakRPS > 0
	}
	switch {
	case loaded && !k.Cardinality.Known && k.RCU == 0 && k.WCU == 0:
		return StatusUnknown
	case k.Share() > 1:
		return StatusOver
	case k.Share() >= 0.5:
		return StatusWarn
	}
	if k.FewValuesShare() >= FewValuesNoticed {
		return StatusWarn
	}
	return StatusOK
}

// NewDocument is r, the report of d, as the API and the CLI write it.
func NewDocument(d designer.Design, r Report) Document {
	doc := Document{
		Prices: PricesDoc{Region: r.Prices.Region, Known: r.Prices.Known, Note: r.Prices.Note, ReadRequest: priceDoc(r.Prices.ReadRequest), WriteRequest: priceDoc(r.Prices.WriteRequest),
			ReadUnitHour: priceDoc(r.Prices.ReadUnitHour), WriteUnitHour: priceDoc(r.Prices.WriteUnitHour), Storage: priceDoc(r.Prices.Storage)},
		Settings: SettingsDoc{TargetUtilization: r.Settings.TargetUtilization, TargetUtilizationFrom: r.Settings.TargetUtilizationFrom,
			HotKeySkew: r.Settings.HotKeySkew, HotKeySkewFrom: r.Settings.HotKeySkewFrom,
			HotKeyModel: r.Settings.Hot.Name, HotKeyModelFrom: r.Settings.Hot.NameFrom,
			HotKeyShare: r.Settings.Hot.Share, HotKeyShareFrom: r.Settings.Hot.ShareFrom,
			HotKeyZipfS: r.Settings.Hot.S, HotKeyZipfSFrom: r.Settings.Hot.SFrom,
			ReplicaRegions: append([]string{}, r.Settings.Replicas...), ReservedCapacity: r.Settings.Reserved},
		Patterns:      []PatternDoc{},
		Resources:     []ResourceDoc{},
		PartitionKeys: []KeyDoc{},
		TableClasses:  []ClassDoc{},
		Total: TotalDoc{Peak: unitsDoc(r.Total.Peak), Average: unitsDoc(r.Total.Average), OnDemand: costDoc(r.Total.OnDemand),
			Provisioned: provisionedDoc(r.Total.Provisioned), Cheapest: round6(r.Total.Cheapest), Storage: storageDoc(r.Total.Storage)},
	}
	for _, p := range r.Patterns {
		pd := PatternDoc{ID: p.ID, Number: p.Number, Description: p.Description, Type: p.Type,
			PeakRPS: round6(p.PeakRPS), PeakFrom: p.PeakFrom, AvgRPS: round6(p.AvgRPS), AvgFrom: p.AvgFrom,
			ConditionalFailurePct: round6(p.FailurePct),
			Peak:                  unitsDoc(p.Peak), Average: unitsDoc(p.Average), Operations: []OperationDoc{}}
		for _, o := range p.Operations {
			od := OperationDoc{Position: o.Position, Op: o.Op, Table: o.Table, Index: o.Index, Consistency: o.Consistency,
				ItemsRead: round6(o.ItemsRead), ItemsReturned: round6(o.ItemsReturned), ItemsFrom: o.ItemsFrom,
				ItemBytes: round6(o.ItemBytes), BytesRead: round6(o.BytesRead), SizeFrom: o.SizeFrom,
				ReadUnits: round6(o.ReadUnits), WriteUnits: round6(o.WriteUnits), FailedWriteUnits: round6(o.FailedWriteUnits), IndexWrites: []IndexWriteDoc{}, Note: o.Note}
			for _, w := range o.IndexWrites {
				od.IndexWrites = append(od.IndexWrites, IndexWriteDoc{Index: w.Index, Writes: round6(w.Writes), Units: round6(w.Units), KeyChange: w.KeyChange,
					Reason: w.Reason, WritesFrom: w.WritesFrom, SizeFrom: w.SizeFrom})
			}
			pd.Operations = append(pd.Operations, od)
		}
		doc.Patterns = append(doc.Patterns, pd)
	}
	for _, res := range r.Resources {
		rd := ResourceDoc{Table: res.Table, Index: res.Index, Kind: res.Kind, Class: res.Class, Peak: unitsDoc(res.Peak), Average: unitsDoc(res.Average),
			OnDemand: costDoc(res.OnDemand), Provisioned: provisionedDoc(res.Provisioned), Cheaper: res.Cheaper,
			BreakEven: round6(res.BreakEven), Storage: storageDoc(res.Storage), Load: []PatternUnitDoc{}}
		for _, l := range res.Load {
			rd.Load = append(rd.Load, PatternUnitDoc{Pattern: l.Pattern, Number: l.Number, RCU: round6(l.RCU), WCU: round6(l.WCU)})
		}
		doc.Resources = append(doc.Resources, rd)
	}
	for _, c := range r.Classes {
		doc.TableClasses = append(doc.TableClasses, ClassDoc{Table: c.Table, Class: c.Class, Standard: round6(c.Standard),
			StandardIA: round6(c.StandardIA), BreakEvenGB: round6(c.BreakEvenGB), StoredGB: round6(c.StoredGB), Cheaper: c.Cheaper})
	}
	if rc := r.Total.Reserved; rc != nil {
		doc.Total.Reserved = &ReservedDoc{Term: rc.Term, RCUBlocks: rc.RCUBlocks, WCUBlocks: rc.WCUBlocks, Upfront: round6(rc.Upfront),
			Monthly: round6(rc.Monthly), Unreserved: round6(rc.Unreserved), Total: round6(rc.Total), Saving: round6(rc.Saving)}
	}
	for _, k := range HotKeys(d, r) {
		c := k.Cardinality
		c.Values, c.WriteValues = round6(c.Values), round6(c.WriteValues)
		kd := KeyDoc{Table: k.Table, Index: k.Index, Attribute: k.Attribute, Cardinality: c, Skew: round6(k.Skew),
			Model: k.Model.Name, ModelText: k.Model.Text(),
			RCU: round6(k.RCU), WCU: round6(k.WCU), ReadLimit: PartitionReadLimit, WriteLimit: PartitionWriteLimit,
			Share: round6(k.Share()), Status: KeyStatus(k), Shares: []KeyShareDoc{}}
		for _, s := range k.Shares {
			kd.Shares = append(kd.Shares, KeyShareDoc{Pattern: s.Pattern, Number: s.Number, Position: s.Position, Write: s.Write,
				PeakRPS: round6(s.PeakRPS), UnitsPerReq: round6(s.UnitsPerReq), Units: round6(s.Units), Values: round6(s.Values),
				ValuesFrom: s.ValuesFrom, Increasing: s.Increasing, OnHottest: round6(s.OnHottest), KeyChange: s.KeyChange})
		}
		if sh := k.Sharding(r.Prices); sh != nil {
			sd := &ShardingDoc{Shards: sh.Shards, Fits: sh.Fits, Key: sh.Key, RCU: round6(sh.RCU), WCU: round6(sh.WCU),
				Share: round6(sh.Share()), Reads: []ShardReadDoc{}, ExtraPerMonth: round6(sh.ExtraPerMonth)}
			for _, rd := range sh.Reads {
				sd.Reads = append(sd.Reads, ShardReadDoc{Pattern: rd.Pattern, Number: rd.Number, Position: rd.Position,
					UnitsBefore: round6(rd.Before), UnitsAfter: round6(rd.After), AvgRPS: round6(rd.AvgRPS), ExtraPerMonth: round6(rd.ExtraPerMonth)})
			}
			kd.Sharding = sd
		}
		doc.PartitionKeys = append(doc.PartitionKeys, kd)
	}
	finiteFloats(reflect.ValueOf(&doc))
	return doc
}

func priceDoc(p Price) PriceDoc {
	return PriceDoc{Dollars: p.Dollars, Unit: p.Unit, Source: p.Source, AsOf: p.AsOf}
}

func unitsDoc(t Throughput) UnitsDoc { return UnitsDoc{RCU: round6(t.RCU), WCU: round6(t.WCU)} }

func costDoc(c Cost) CostDoc {
	return CostDoc{Reads: round6(c.Reads), Writes: round6(c.Writes), IndexWrites: round6(c.IndexWrites), Storage: round6(c.Storage),
		Replication: round6(c.Replication), Total: round6(c.Total), AtPeak: round6(c.AtPeak)}
}

func provisionedDoc(p ProvisionedCost) ProvisionedDoc {
	return ProvisionedDoc{RCU: p.RCU, WCU: p.WCU, Reads: round6(p.Reads), Writes: round6(p.Writes), Storage: round6(p.Storage),
		Replication: round6(p.Replication), Total: round6(p.Total)}
}

func storageDoc(s Storage) StorageDoc {
	return StorageDoc{Items: round6(s.Items), ItemsFrom: s.ItemsFrom, AvgItemBytes: round6(s.AvgItemBytes), Bytes: round6(s.Bytes), GB: round6(s.GB),
		Size: Bytes(s.Bytes), Sources: s.Sources, HorizonMonths: s.HorizonMonths}
}

// round6 rounds to six decimals: sums of binary fractions (0.1 + 0.2) read as people wrote them,
// and a cost of a hundredth of a cent still shows.
func round6(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Round(v*1e6) / 1e6
}
