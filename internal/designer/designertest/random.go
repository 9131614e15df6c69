package designertest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// Random draws designs from a fixed seed: tables with every projection and LSIs, items with
// every type of value, names and text with pipes, backslashes, HTML, markdown and unicode.
type Random struct{ r *rand.Rand }

// NewRandom returns a Random drawing from the seeds given.
func NewRandom(seed1, seed2 uint64) Random { return Random{rand.New(rand.NewPCG(seed1, seed2))} }

var (
	genTexts = []string{
		"plain words", "a | pipe", `back\slash`, "<b>bold</b> & <script>x</script>", "ünïcödé ☕ 東京",
		"**strong** and _em_", "`code <id>`", "line one\nline two", "- a\n- b", "# heading-like", "ends with #",
		"100", "true", "null", "Pattern #3", "semi; colon", "x - y", "(parens) + plus, comma", "<br> literal",
	}
	genNames  = []string{"pk", "sk", "emp_no", "first name", "a|b", `c\d`, "ünï", "x(y)", "p+q", "r,s", "t;u", "v-w", "#hash", "data.1", "`tick`", "*star*"}
	genTables = []string{"Orders", "users.v2", "Event-Log", "T_9", "GSI1"}
)

func (g Random) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g Random) text() string {
	if g.r.IntN(4) == 0 {
		return ""
	}
	parts := make([]string, 1+g.r.IntN(2))
	for i := range parts {
		parts[i] = g.pick(genTexts)
	}
	return strings.Join(parts, " ")
}

func (g Random) keyType() designer.Type {
	return []designer.Type{designer.S, designer.N, designer.B}[g.r.IntN(3)]
}

func (g Random) value(t designer.Type, depth int) designer.Value {
	switch t {
	case designer.S:
		return designer.Str(g.pick(append(genTexts, "", " padded ", "[1,2]", `{"S":"x"}`, "-0", "1e3", "`x`", "**y**")))
	case designer.N:
		return designer.Num(g.pick([]string{"0", "1", "1.50", "-3e5", "42", "1234567890123"}))
	case designer.B:
		return designer.Bin([]byte(g.pick([]string{"\x00\x01", "abc", "ü"})))
	case designer.BOOL:
		return designer.Boolean(g.r.IntN(2) == 0)
	case designer.NULL:
		return designer.Null()
	case designer.SS:
		return designer.Value{Type: designer.SS, SS: []string{g.pick(genTexts), "z|z"}}
	case designer.NS:
		return designer.Value{Type: designer.NS, SS: []string{"1", "2.5"}}
	case designer.BS:
		return designer.Value{Type: designer.BS, BS: [][]byte{[]byte("a"), []byte("b")}}
	case designer.L:
		if depth > 1 {
			return designer.List()
		}
		return designer.List(g.value(designer.S, depth+1), g.value(designer.N, depth+1), g.value(designer.M, depth+1))
	case designer.M:
		if depth > 1 {
			return designer.Map(map[string]designer.Value{})
		}
		return designer.Map(map[string]designer.Value{"k|1": g.value(designer.S, depth+1), "n": g.value(designer.NULL, depth+1), "l": g.value(designer.L, depth+1)})
	}
	return designer.Str("?")
}

// Design draws design number n.
func (g Random) Design(n int) designer.Design {
	d := designer.Design{Name: fmt.Sprintf("Design %d %s", n, oneLine(g.pick(genTexts))), Prose: designer.Prose{
		DesignPhilosophy: g.text(), AggregateDecisions: g.text(), HotPartitions: g.text(), TradeOffs: g.text(),
	}}
	tables := g.r.Perm(len(genTables))[:1+g.r.IntN(3)]
	for _, ti := range tables {
		d.Tables = append(d.Tables, g.table(genTables[ti]))
	}
	numbers := g.r.Perm(20)[:g.r.IntN(6)]
	for _, num := range numbers {
		p := designer.Pattern{Number: num + 1, Description: g.text(), Status: []string{designer.StatusSolved, designer.StatusOpen, designer.StatusOutside, designer.StatusAtRisk}[g.r.IntN(4)]}
		for range g.r.IntN(3) {
			p.Mapping.Operations = append(p.Mapping.Operations, g.operation(d))
		}
		p.Mapping.Notes = g.text()
		if g.r.IntN(4) == 0 {
			p.Mapping.Source = g.text()
		}
		d.Patterns = append(d.Patterns, p)
	}
	if g.r.IntN(2) == 0 {
		d.Prose.Sections = append(d.Prose.Sections,
			designer.Section{Title: g.pick([]string{"Introduction", "Cost Estimates", "Hot spots", d.Tables[0].Name + " Table"}), Body: g.text() + "\n\n" + g.text()})
	}
	g.costInputs(&d)
	return designer.Normalize(d)
}

// costInputs gives some tables a table class, some patterns a conditional-failure rate and the
// design some of its capacity settings. They are drawn after the rest of the design, so that the
// tables and mappings drawn from a seed stay those drawn before the cost inputs existed.
func (g Random) costInputs(d *designer.Design) {
	for i := range d.Tables {
		if g.r.IntN(3) == 0 {
			d.Tables[i].TableClass = g.pick([]string{designer.StandardClass, designer.StandardIAClass})
		}
	}
	for i := range d.Patterns {
		if g.r.IntN(3) == 0 {
			d.Patterns[i].ConditionalFailurePct = Ptr([]float64{0, 2.5, 100, designer.MaxFailurePct}[g.r.IntN(4)])
		}
	}
	if g.r.IntN(2) == 0 {
		return
	}
	some := func(values ...float64) *float64 {
		if g.r.IntN(2) == 0 {
			return nil
		}
		return Ptr(values[g.r.IntN(len(values))])
	}
	c := &d.Capacity
	if g.r.IntN(2) == 0 {
		c.Region = g.pick([]string{"eu-west-1", "us-east-1 (N. Virginia)", "a|b *c* `d`", "(eu) west", ":eu"})
	}
	c.ReadRequestPrice, c.WriteRequestPrice = some(0, 0.125, 0.25), some(0.625, 1.25)
	c.ReadUnitHourPrice, c.WriteUnitHourPrice = some(0.00013, 0.000147), some(0.00065, 1e-7)
	c.StoragePrice = some(0.25, 0.1, 12345.678)
	c.TargetUtilization = some(designer.MinTargetUtilization, 70, designer.MaxTargetUtilization)
	c.HotKeySkew = some(designer.MinHotKeySkew, 2.5, designer.MaxHotKeySkew)
	if g.r.IntN(2) == 0 {
		c.HotKeyModel = g.pick(designer.HotKeyModels)
	}
	c.HotKeyShare, c.HotKeyZipfS = some(0, 5.5, designer.MaxHotKeySharePc), some(0, 1.2, designer.MaxHotKeyZipfS)
	c.HorizonMonths = some(0, 84, designer.MaxHorizonMonths)
	if g.r.IntN(2) == 0 {
		c.ReplicaRegions = [][]string{{"eu-west-1"}, {"ap-south-1", "us-west-2", "a|b *c*"}}[g.r.IntN(2)]
	}
	if g.r.IntN(2) == 0 {
		c.ReservedCapacity = g.pick([]string{designer.Reserved1Year, designer.Reserved3Year})
	}
}

func (g Random) table(name string) designer.Table {
	t := designer.Table{Name: name, PartitionKey: designer.KeyAttribute{Name: g.pick(genNames), Type: g.keyType()},
		Purpose: g.text(), AggregateBoundary: g.text(), PartitionKeyWhy: g.text(), SortKeyWhy: g.text(),
		BoundedReads: g.text(), Capacity: g.text(), BillingMode: designer.OnDemand}
	if g.r.IntN(3) > 0 {
		sk := designer.KeyAttribute{Name: g.pick(genNames), Type: g.keyType()}
		if sk.Name != t.PartitionKey.Name {
			t.SortKey = &sk
		}
	}
	if g.r.IntN(3) == 0 {
		t.BillingMode, t.ReadUnits, t.WriteUnits = designer.Provisioned, Ptr[int64](int64(g.r.IntN(100))), Ptr[int64](5)
	}
	if g.r.IntN(3) == 0 {
		t.TTLAttribute = g.pick(genNames)
	}
	for range g.r.IntN(3) {
		t.EntityTypes = append(t.EntityTypes, designer.EntityType{Entity: g.pick(genNames), PKTemplate: g.pick([]string{"", "USER#{id}", "`x`"}),
			SKTemplate: g.pick([]string{"", "ORDER#<id>", "A``B"}), Description: g.text()})
	}
	attrTypes := []designer.Type{designer.S, designer.N, designer.B, designer.BOOL, designer.NULL, designer.M, designer.L, designer.SS, designer.NS, designer.BS}
	for _, name := range g.r.Perm(len(genNames))[:g.r.IntN(5)] {
		t.Attributes = append(t.Attributes, designer.Attribute{Name: genNames[name], Type: attrTypes[g.r.IntN(len(attrTypes))], Description: g.text()})
	}
	for range g.r.IntN(7) {
		it := designer.Item{t.PartitionKey.Name: g.value(t.PartitionKey.Type, 0)}
		if t.SortKey != nil {
			it[t.SortKey.Name] = g.value(t.SortKey.Type, 0)
		}
		for range g.r.IntN(4) {
			it[g.pick(genNames)] = g.value(attrTypes[g.r.IntN(len(attrTypes))], 0)
		}
		t.Items = append(t.Items, designer.SampleItem{Item: it})
	}
	for i := range g.r.IntN(4) {
		ix := designer.Index{Name: fmt.Sprintf("Idx-%d.%s", i, g.pick([]string{"a", "GSI", "By"})), Projection: designer.Projection{Type: []string{designer.KeysOnly, designer.Include, designer.All}[i%3]},
			Sparse: g.r.IntN(2) == 0, SparseNote: g.text(), Purpose: g.text(), PartitionKeyWhy: g.text(), SortKeyWhy: g.text(),
			ProjectionWhy: g.text(), Capacity: g.text()}
		for range 1 + g.r.IntN(2) {
			ix.PartitionKey = append(ix.PartitionKey, designer.KeyAttribute{Name: g.pick(genNames), Type: g.keyType()})
		}
		for range g.r.IntN(3) {
			ix.SortKey = append(ix.SortKey, designer.KeyAttribute{Name: g.pick(genNames), Type: g.keyType()})
		}
		if ix.Projection.Type == designer.Include {
			ix.Projection.Attributes = []string{g.pick(genNames), g.pick(genNames)}
		}
		if g.r.IntN(2) == 0 {
			ix.PatternAttributes = []designer.PatternAttributes{{Pattern: 1 + g.r.IntN(9), Attributes: []string{g.pick(genNames)}}}
		}
		t.GSIs = append(t.GSIs, ix)
	}
	if t.SortKey != nil && g.r.IntN(2) == 0 {
		t.LSIs = append(t.LSIs, designer.Index{Name: "Local_1", PartitionKey: []designer.KeyAttribute{t.PartitionKey},
			SortKey: []designer.KeyAttribute{{Name: g.pick(genNames), Type: g.keyType()}}, Projection: designer.Projection{Type: designer.All}})
	}
	return t
}

func (g Random) operation(d designer.Design) designer.Operation {
	t := d.Tables[g.r.IntN(len(d.Tables))]
	op := designer.Operation{Op: designer.Operations[g.r.IntN(len(designer.Operations))], Table: t.Name, KeyCondition: g.pick([]string{"", "pk = :v", "#n = :v AND begins_with(sk, :p)"}),
		Filter: g.text(), Projection: g.pick([]string{"", "a, b"}), Descending: g.r.IntN(2) == 0, Consistent: g.r.IntN(2) == 0, Notes: g.text()}
	if len(t.GSIs) > 0 && g.r.IntN(2) == 0 {
		op.Index = t.GSIs[0].Name
	}
	if g.r.IntN(2) == 0 {
		op.Limit = Ptr(g.r.IntN(100))
	}
	if g.r.IntN(2) == 0 {
		op.Names = map[string]string{"#n": g.pick([]string{"name", "first name", "ünï"})}
		op.Values = map[string]designer.Value{":v": g.value([]designer.Type{designer.S, designer.N, designer.BOOL, designer.SS}[g.r.IntN(4)], 0), ":p": designer.Str("ORD#")}
	}
	if g.r.IntN(3) == 0 {
		op.Expected = &[]designer.Item{{"pk": designer.Str("x")}}
	}
	if actions := designer.OperationActions(op.Op); len(actions) > 0 && g.r.IntN(3) > 0 {
		op.Action = g.pick(actions)
	}
	return op
}

// oneLine joins the lines of s with spaces, as a design name is written.
func oneLine(s string) string {
	return strings.TrimSpace(strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " "))
}

// FullDesign draws design number n as Design does, then gives it what the requirement document
// holds too: an overview, entities with typed attributes, relationships with fractional counts and
// units, each pattern's requirements, aggregate and consolidation analyses, the considerations, and
// prose sections of the requirement document. Design's draws come first, so Design(n) and
// FullDesign(n) of two generators from one seed share their tables and mappings.
func (g Random) FullDesign(n int) designer.Design {
	d := g.Design(n)
	d.Overview = designer.Overview{Domain: g.text(), KeyEntities: g.text(), BusinessContext: g.text(), Scale: g.text(), Notes: g.text()}
	names := []string{"Order", "User", "Line Item", "a|b", "Pet*s", "ünï", "Re-Order"}
	for _, i := range g.r.Perm(len(names))[:g.r.IntN(5)] {
		e := designer.Entity{Name: names[i], Description: oneLine(g.text()), Attributes: []designer.Attribute{}}
		for _, a := range g.r.Perm(len(genNames))[:g.r.IntN(4)] {
			e.Attributes = append(e.Attributes, designer.Attribute{Name: genNames[a], Type: g.keyType(), Description: oneLine(g.text())})
		}
		if g.r.IntN(4) == 0 {
			e.AcceptedGaps = []string{designer.GapNoWrite}
		}
		if g.r.IntN(2) == 0 {
			n := g.r.Int64N(5_000_000)
			e.Count = &n
		}
		d.Entities = append(d.Entities, e)
	}
	entity := func() string {
		if len(d.Entities) == 0 || g.r.IntN(5) == 0 {
			return g.pick(names)
		}
		return d.Entities[g.r.IntN(len(d.Entities))].Name
	}
	// A relationship names entities the design has: a requirement document's relationships define
	// the entities they name, so one to a missing entity would read back with that entity added.
	known := func() string { return d.Entities[g.r.IntN(len(d.Entities))].Name }
	for range g.r.IntN(4) * min(len(d.Entities), 1) {
		r := designer.Relationship{From: known(), To: known(), Kind: g.pick([]string{"", designer.OneToOne, designer.OneToMany, designer.ManyToMany}), Notes: g.text()}
		if g.r.IntN(2) == 0 {
			r.Avg, r.AvgUnit = Ptr([]float64{1.6, 5, 0.25, 1000, 33000.5}[g.r.IntN(5)]), g.pick([]string{"", "per year", "orders per user"})
		}
		if g.r.IntN(2) == 0 {
			r.Max, r.MaxUnit = Ptr(int64(g.r.IntN(2000))), g.pick([]string{"", "per week"})
		}
		d.Relationships = append(d.Relationships, r)
	}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		p.Type = g.pick([]string{"", designer.Read, designer.Write})
		if g.r.IntN(3) > 0 {
			p.PeakRPS = Ptr([]float64{500, 0.001, 1.6, 12000}[g.r.IntN(4)])
		}
		if g.r.IntN(2) == 0 {
			p.AvgRPS = Ptr([]float64{120.5, 7, 0.3}[g.r.IntN(3)])
		}
		for _, a := range g.r.Perm(len(genNames))[:g.r.IntN(3)] {
			p.Attributes = append(p.Attributes, genNames[a])
		}
		p.LatencySLO = g.pick([]string{"", "<50 ms", "p99 < 20 ms"})
		p.Consistency = g.pick([]string{"", designer.Strong, designer.Eventual})
		p.ResultBound = g.pick([]string{"", "1 item", "at most 40 items"})
		p.SizeBand = g.pick([]string{"", "<1 KB", "2-4 KB"})
		p.KeyNotes = g.text()
		p.Considerations = g.text()
		for range g.r.IntN(3) {
			if e := entity(); !slices.Contains(p.Entities, e) {
				p.Entities = append(p.Entities, e)
			}
		}
	}
	pct := func() *float64 {
		if g.r.IntN(3) == 0 {
			return nil
		}
		return Ptr([]float64{0, 15, 45.5, 100}[g.r.IntN(4)])
	}
	flag := func() *bool {
		if g.r.IntN(3) == 0 {
			return nil
		}
		return Ptr(g.r.IntN(2) == 0)
	}
	for range g.r.IntN(3) {
		a := designer.AggregateAnalysis{EntityA: entity(), EntityB: entity(), CorrelationPct: pct(), OnlyAPct: pct(), OnlyBPct: pct(), BothPct: pct(),
			Size: g.text(), Bounded: flag(), Updates: g.text(), Decision: g.pick([]string{"", designer.SingleItem, designer.ItemCollection, designer.SeparateTables}),
			Justification: g.text(), Identifying: designer.IdentifyingCheck{ChildIndependent: flag(), ParentIDKnown: flag(), SeparateTablePlanned: flag()}}
		if g.r.IntN(2) == 0 {
			a.CombinedKB = Ptr([]float64{17, 1.7, 0.5}[g.r.IntN(3)])
		}
		d.Aggregates = append(d.Aggregates, a)
	}
	for range g.r.IntN(3) {
		d.Consolidations = append(d.Consolidations, designer.ConsolidationReview{Parent: entity(), Child: entity(), Relationship: g.pick([]string{"", "1:Many", "1:M"}),
			OverlapPct: pct(), Bounded: flag(), Identifying: flag(), Decision: g.pick([]string{"", designer.Consolidate, designer.Separate}), Justification: g.text()})
	}
	d.Considerations = designer.Considerations{HotPartitions: g.text(), GSIProjections: g.text(), SparseGSIs: g.text(), ItemCollections: g.text(),
		MultiEntityQueries: g.text(), Denormalization: g.text()}
	// One section per title: two under one heading read back as one.
	titles := []string{"", "Application Overview", "Open Questions", "Validation Checklist", "Cost Estimates"}
	for _, i := range g.r.Perm(len(titles))[:g.r.IntN(3)] {
		d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: titles[i], Body: g.text() + "\n\n" + g.text(), Document: designer.RequirementDocument})
	}
	return designer.Normalize(d)
}
