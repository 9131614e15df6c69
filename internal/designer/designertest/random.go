package designertest

import (
	"fmt"
	"math/rand/v2"
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
	return designer.Normalize(d)
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
