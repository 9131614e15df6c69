package capacity

import (
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// A partition-key value lives on one partition, which serves at most 3,000 read units and 1,000
// write units a second (PartitionReadLimit, PartitionWriteLimit). The load on the hottest value of a
// key is each operation's units per second on that key, of which the hottest of the values it
// spreads over takes what the team's hot-key model says (HotModel: a skew multiplier, uniform, a
// top-key share or zipf), never more than the operation's whole load. Reads spread over the key's distinct values; writes to a key
// that grows with time (a date) all land on its newest value. An LSI's entries live in their
// table's partition, so its reads and its entries' writes load the table's key.

// KeyLoad is the load at peak on the hottest value of one table's or GSI's partition key, with the
// share of every operation that puts load on it.
type KeyLoad struct {
	Table string
	Index string // a GSI's name; "" for the table, whose LSIs' load it carries
	// Attribute names the key (a multi-attribute GSI key's names joined by " + ").
	Attribute string
	// Cardinality is the key's, over every entity type the table holds.
	Cardinality Cardinality
	// Skew is the skew model's multiplier; Model the hot-key model the load was worked out with.
	Skew  float64
	Model HotModel
	// RCU and WCU are the units per second the hottest value takes at peak.
	RCU, WCU float64
	Shares   []KeyShare
}

// Path is where the key is in the design, for a finding: tables/T/partition_key or
// tables/T/indexes/I/partition_key.
func (k KeyLoad) Path() string {
	if k.Index == "" {
		return "tables/" + k.Table + "/partition_key"
	}
	return "tables/" + k.Table + "/indexes/" + k.Index + "/partition_key"
}

// Share is RCU/3,000 + WCU/1,000: a partition serves reads and writes from one budget, so a value is
// over its partition's limits when this passes 1.
func (k KeyLoad) Share() float64 {
	return k.RCU/PartitionReadLimit + k.WCU/PartitionWriteLimit
}

// FewValues reports whether a share reaches fewer than 100 values of its key (the seed's "Aim for
// 100+ distinct values"), not counting a key that grows with time: that one has many values, and
// the writes on its newest are another matter (CAP004).
func (s KeyShare) FewValues() bool {
	return s.Values > 0 && s.Values < MinDistinctValues && s.Units > 0 && !s.Increasing
}

// MinDistinctValues is the number of distinct values seed 001 asks a partition key for;
// FewValuesNoticed is the share of one partition from which the load on fewer is worth a warning
// (CAP002): below it, nine departments read a few times a second are no hot spot.
const (
	MinDistinctValues = 100
	FewValuesNoticed  = 0.1
)

// FewValuesShare is what the shares that reach few values (FewValues) put on the hottest value,
// as a share of one partition (RCU/3,000 + WCU/1,000): CAP002 warns from FewValuesNoticed.
func (k KeyLoad) FewValuesShare() float64 {
	var share float64
	for _, s := range k.Shares {
		switch {
		case !s.FewValues():
		case s.Write:
			share += s.OnHottest / PartitionWriteLimit
		default:
			share += s.OnHottest / PartitionReadLimit
		}
	}
	return share
}

// KeyShare is the load one operation of one pattern puts on a key at peak.
type KeyShare struct {
	Pattern     string // id
	Number      int
	Position    int // the operation's place in the pattern's mapping
	Write       bool
	PeakRPS     float64
	AvgRPS      float64 // the pattern's average rate, which its monthly cost is billed at
	UnitsPerReq float64 // read or write units per request on this key
	// FansOut says the read is a Query of the key's value, which a sharded key makes one Query
	// per shard; MinUnits is the least such a request is billed (0.5 eventual, 1 strong).
	FansOut  bool
	MinUnits float64
	// Units is PeakRPS × UnitsPerReq, the operation's load on the key as a whole.
	Units float64
	// Values is how many values of the key the operation spreads over (Cardinality.Values for a
	// read, WriteValues for a write, of the entity types it reaches); 0 when not known, and then
	// OnHottest is 0 too.
	Values     float64
	ValuesFrom string
	Increasing bool
	// OnHottest is its load on the hottest value: Model.OnHottest(Units, Values).
	OnHottest float64
	// KeyChange says the write changes the index key of the entries it writes (a delete and a put).
	KeyChange bool
}

// HotKeys is the load on the hottest value of every table's and GSI's partition key, in the
// order of r.Resources, from the loads r holds for d.
func HotKeys(d designer.Design, r Report) []KeyLoad {
	b := newKeyBook(d, newCardinalities(d), r.Settings)
	for _, res := range r.Resources {
		b.place(res)
	}
	for i, pl := range r.Patterns {
		// The report lists the design's patterns in its order.
		if i >= len(d.Patterns) || d.Patterns[i].ID != pl.ID {
			continue
		}
		b.charge(d.Patterns[i], pl, "")
	}
	return b.loads
}

// keyBook gathers the loads on partition keys: HotKeys's of a whole design, or those of one
// table's keys.
type keyBook struct {
	d     designer.Design
	c     *cardinalities
	model HotModel
	loads []KeyLoad
	at    map[[2]string]int // by table and index, the place of its load
}

func newKeyBook(d designer.Design, c *cardinalities, s Settings) *keyBook {
	m := s.Hot
	if m.Name == "" {
		// Settings put together by hand name the skew alone.
		m = hotModelOf(designer.CapacitySettings{}, s.HotKeySkew, s.HotKeySkewFrom)
	}
	return &keyBook{d: d, c: c, model: m, at: map[[2]string]int{}}
}

// place adds the key of res, a table or GSI, with no load yet.
func (b *keyBook) place(res Resource) {
	if res.Kind == KindLSI {
		return
	}
	t, _, ok := b.d.TableByName(res.Table)
	if !ok {
		return
	}
	k := KeyLoad{Table: res.Table, Index: res.Index, Skew: b.model.Skew, Model: b.model}
	if res.Index == "" {
		k.Attribute, k.Cardinality = t.PartitionKey.Name, b.c.table(t, t.EntityTypes)
	} else if ix, local, _, ok := t.IndexByName(res.Index); ok && !local {
		names := make([]string, len(ix.PartitionKey))
		for i, a := range ix.PartitionKey {
			names[i] = a.Name
		}
		k.Attribute, k.Cardinality = strings.Join(names, " + "), b.c.index(t, ix)
	} else {
		return
	}
	b.at[[2]string{res.Table, res.Index}] = len(b.loads)
	b.loads = append(b.loads, k)
}

// add adds one operation's share to the key of table and index, if placed.
func (b *keyBook) add(table, index string, s KeyShare, card Cardinality) {
	i, ok := b.at[[2]string{table, index}]
	if !ok || s.Units <= 0 {
		return
	}
	k := &b.loads[i]
	s.Values, s.Increasing = card.Values, card.Increasing
	if s.Write {
		s.Values = card.WriteValues
	}
	s.ValuesFrom = card.Source
	s.OnHottest = k.Model.OnHottest(s.Units, s.Values)
	if s.Write {
		k.WCU += s.OnHottest
	} else {
		k.RCU += s.OnHottest
	}
	k.Shares = append(k.Shares, s)
}

// charge adds the shares of pattern p, whose load is pl, to the keys placed: those of its
// operations on table only, or of all of them when table is "".
func (b *keyBook) charge(p designer.Pattern, pl PatternLoad, table string) {
	c := b.c
	for _, ol := range pl.Operations {
		if table != "" && ol.Table != table {
			continue
		}
		t, _, ok := b.d.TableByName(ol.Table)
		if !ok || ol.Position >= len(p.Mapping.Operations) {
			continue
		}
		op := p.Mapping.Operations[ol.Position]
		share := KeyShare{Pattern: pl.ID, Number: pl.Number, Position: ol.Position, PeakRPS: pl.PeakRPS, AvgRPS: pl.AvgRPS}
		if ol.ReadUnits > 0 {
			s := share
			s.UnitsPerReq, s.Units = ol.ReadUnits, pl.PeakRPS*ol.ReadUnits
			s.FansOut, s.MinUnits = ol.Op == "Query", minReadUnits(ol.Consistency)
			ix, local, _, isIndex := t.IndexByName(ol.Index)
			switch {
			case !isIndex || local:
				b.add(t.Name, "", s, c.operation(t, p, op))
			default:
				b.add(t.Name, ix.Name, s, c.index(t, ix))
			}
		}
		if ol.WriteUnits > 0 {
			s := share
			s.Write, s.UnitsPerReq, s.Units = true, ol.WriteUnits, pl.PeakRPS*ol.WriteUnits
			b.add(t.Name, "", s, c.operation(t, p, op))
		}
		for _, iw := range ol.IndexWrites {
			s := share
			s.Write, s.UnitsPerReq, s.Units, s.KeyChange = true, iw.Units, pl.PeakRPS*iw.Units, iw.KeyChange
			ix, local, _, ok := t.IndexByName(iw.Index)
			switch {
			case !ok:
			case local:
				b.add(t.Name, "", s, c.operation(t, p, op))
			default:
				b.add(t.Name, ix.Name, s, c.index(t, ix))
			}
		}
	}
}

// minReadUnits is the least a read request is billed: half a unit eventually consistent, one
// strongly consistent, two in a transaction.
func minReadUnits(consistency string) float64 {
	switch consistency {
	case designer.Strong:
		return 1
	case Transactional:
		return 2
	}
	return 0.5
}

// KeysOf is the load on the hottest value of every table's and GSI's partition key: r.Keys when
// Compute made r, else HotKeys of it.
func KeysOf(d designer.Design, r Report) []KeyLoad {
	if r.Keys != nil {
		return r.Keys
	}
	return HotKeys(d, r)
}

// fillHotKeys sets the HotKey of every resource of r from HotKeys: an LSI's is its table's.
func fillHotKeys(d designer.Design, r *Report) {
	r.Keys = HotKeys(d, *r)
	if r.Keys == nil {
		r.Keys = []KeyLoad{}
	}
	setHotKeys(r.Resources, r.Keys)
}

// setHotKeys sets the HotKey of each of resources from the keys' loads: an LSI's is its table's.
func setHotKeys(resources []Resource, keys []KeyLoad) {
	byKey := make(map[[2]string]*HotKey, len(keys))
	for _, k := range keys {
		byKey[[2]string{k.Table, k.Index}] = &HotKey{
			Attribute: k.Attribute, Distinct: k.Cardinality.Values, DistinctFrom: k.Cardinality.Source,
			Skew: k.Skew, Model: k.Model, RCU: k.RCU, WCU: k.WCU, ReadLimit: PartitionReadLimit, WriteLimit: PartitionWriteLimit,
		}
	}
	for i := range resources {
		res := &resources[i]
		index := res.Index
		if res.Kind == KindLSI {
			index = ""
		}
		res.HotKey = byKey[[2]string{res.Table, index}]
	}
}

// operation is the cardinality of the partition-key values one operation of pattern p reaches in
// table t (or its LSIs): those of the entity types its key value matches (SETTINGS reaches the one
// value of a literal template), else of the entity types the pattern names, else of every entity
// type of the table.
func (c *cardinalities) operation(t designer.Table, p designer.Pattern, op designer.Operation) Cardinality {
	if len(t.EntityTypes) == 0 {
		return c.table(t, nil)
	}
	if types := typesOfKeyValue(t, op); len(types) > 0 {
		return c.table(t, types)
	}
	var named []designer.EntityType
	for _, et := range t.EntityTypes {
		for _, e := range p.Entities {
			if et.Entity == e {
				named = append(named, et)
				break
			}
		}
	}
	if len(named) > 0 {
		return c.table(t, named)
	}
	return c.table(t, t.EntityTypes)
}

// typesOfKeyValue are the entity types of t whose partition-key template builds the value the
// operation gives its table's partition key with =, the most specific first: templates with the
// most literal text win, so SETTINGS is not read as a value of {user_id}.
func typesOfKeyValue(t designer.Table, op designer.Operation) []designer.EntityType {
	probe := op
	if _, local, _, ok := t.IndexByName(op.Index); !ok || !local {
		probe.Index = ""
	}
	if probe.Index == "" {
		probe.Op = "GetItem"
	} else {
		probe.Op = "Query"
	}
	key, ok := dynamo.ReadPartition(t, probe)
	if !ok {
		return nil
	}
	v, ok := key[t.PartitionKey.Name]
	if !ok || v.Type != designer.S && v.Type != designer.N {
		return nil
	}
	var out []designer.EntityType
	best := -1
	for _, et := range t.EntityTypes {
		if et.PKTemplate == "" || !designer.MatchTemplate(et.PKTemplate, v.S) {
			continue
		}
		lit := len(et.PKTemplate)
		for _, a := range designer.TemplateAttributes(et.PKTemplate) {
			lit -= len(a) + 2
		}
		switch {
		case lit > best:
			out, best = []designer.EntityType{et}, lit
		case lit == best:
			out = append(out, et)
		}
	}
	return out
}
