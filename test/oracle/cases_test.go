package oracle

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// target is a table or one of its indexes, with the items it holds.
type target struct {
	table    designer.Table
	index    string
	local    bool
	projType string
	pk       designer.KeyAttribute
	sk       *designer.KeyAttribute
	items    []designer.Item
	// projected lists the top-level attributes the target holds; nil means all.
	projected map[string]bool
	// ties is set when items share the full key, so that their order is not defined.
	ties bool
}

func (tg target) label() string {
	if tg.index == "" {
		return tg.table.Name
	}
	return tg.table.Name + "." + tg.index
}

func (tg target) holds(name string) bool { return tg.projected == nil || tg.projected[name] }

func targets(t designer.Table) []target {
	base := target{table: t, projType: designer.All, pk: t.PartitionKey, sk: t.SortKey}
	for _, it := range t.Items {
		base.items = append(base.items, it.Item)
	}
	out := []target{base}
	add := func(ix designer.Index, local bool) {
		tg := target{table: t, index: ix.Name, local: local, projType: ix.Projection.Type, pk: ix.PartitionKey[0]}
		if len(ix.SortKey) > 0 {
			tg.sk = &ix.SortKey[0]
		}
		if ix.Projection.Type != designer.All {
			tg.projected = map[string]bool{t.PartitionKey.Name: true, tg.pk.Name: true}
			if t.SortKey != nil {
				tg.projected[t.SortKey.Name] = true
			}
			if tg.sk != nil {
				tg.projected[tg.sk.Name] = true
			}
			for _, a := range ix.Projection.Attributes {
				tg.projected[a] = true
			}
		}
		seen := map[string]bool{}
		for _, it := range t.Items {
			p, ok := it.Item[tg.pk.Name]
			if !ok || p.Type != tg.pk.Type {
				continue
			}
			k := keyOf(p)
			if tg.sk != nil {
				s, ok := it.Item[tg.sk.Name]
				if !ok || s.Type != tg.sk.Type {
					continue
				}
				k += "|" + keyOf(s)
			}
			if seen[k] {
				tg.ties = true
			}
			seen[k] = true
			tg.items = append(tg.items, it.Item)
		}
		out = append(out, tg)
	}
	for _, ix := range t.GSIs {
		add(ix, false)
	}
	for _, ix := range t.LSIs {
		add(ix, true)
	}
	return out
}

// expr builds the placeholders of one request's expressions.
type expr struct {
	g      *gen
	names  map[string]string
	byName map[string]string
	values map[string]designer.Value
}

func newExpr(g *gen) *expr {
	return &expr{g: g, names: map[string]string{}, byName: map[string]string{}, values: map[string]designer.Value{}}
}

// rawSafe are attribute names that are no DynamoDB reserved word, so an expression may name them
// without a placeholder.
var rawSafe = map[string]bool{"pk": true, "sk": true, "qty": true, "amount": true, "tags": true, "note": true,
	"customer": true, "created": true, "device": true, "ts": true, "id": true, "part": true, "kind": true,
	"email": true, "team": true, "joined": true, "age": true, "profile": true, "city": true, "history": true,
	"flag": true, "reading": true, "theme": true}

func (e *expr) name(n string) string {
	if rawSafe[n] && e.g.chance(30) {
		return n
	}
	if ph, ok := e.byName[n]; ok {
		return ph
	}
	ph := fmt.Sprintf("#n%d", len(e.names))
	e.names[ph] = n
	e.byName[n] = ph
	return ph
}

func (e *expr) val(v designer.Value) string {
	ph := fmt.Sprintf(":v%d", len(e.values))
	e.values[ph] = v
	return ph
}

func (e *expr) apply(body map[string]any) {
	if len(e.names) > 0 {
		body["ExpressionAttributeNames"] = e.names
	}
	if len(e.values) > 0 {
		body["ExpressionAttributeValues"] = e.values
	}
}

// keyVal is a key value as a request may write it: numbers sometimes in another form.
func (g *gen) keyVal(v designer.Value) designer.Value {
	if v.Type == designer.N && g.chance(30) {
		return num(numVariant(v.S))
	}
	return v
}

var comparators = []string{"=", "<>", "<", "<=", ">", ">="}

// attrNames lists the top-level attributes of items that a filter or projection may name, sorted.
func attrNames(items []designer.Item, allow func(string) bool) []string {
	set := map[string]bool{}
	for _, it := range items {
		for k := range it {
			if allow(k) {
				set[k] = true
			}
		}
	}
	return sortedSet(set)
}

func sortedMapKeys(m map[string]designer.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// valuesOf collects the values of a top-level attribute of one type across items, sorted.
func valuesOf(items []designer.Item, name string, t designer.Type) []designer.Value {
	var out []designer.Value
	for _, it := range items {
		if v, ok := it[name]; ok && v.Type == t {
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return compareKeys(out[i], out[j]) < 0 })
	return out
}

var typeNames = []string{"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}

// condition writes a random filter condition over items, naming only the given attributes.
func (g *gen) condition(e *expr, items []designer.Item, names []string, depth int) string {
	if depth < 2 && g.chance(40) {
		a := g.condition(e, items, names, depth+1)
		b := g.condition(e, items, names, depth+1)
		op := " AND "
		if g.chance(45) {
			op = " OR "
		}
		c := a + op + b
		switch g.pick(5) {
		case 0, 1:
			c = "(" + c + ")"
		case 2:
			// DynamoDB refuses redundant parentheses such as NOT ((a OR b)).
			c = "NOT (" + c + ")"
		}
		return c
	}
	c := g.atom(e, items, names)
	if g.chance(12) {
		c = "NOT " + c
	}
	return c
}

func (g *gen) atom(e *expr, items []designer.Item, names []string) string {
	if len(names) == 0 || len(items) == 0 {
		return "attribute_not_exists(" + e.name("ghost") + ")"
	}
	it := items[g.pick(len(items))]
	name := names[g.pick(len(names))]
	v, has := it[name]
	if !has || g.chance(8) {
		fn := "attribute_exists"
		if g.chance(50) {
			fn = "attribute_not_exists"
		}
		n := name
		if g.chance(25) {
			n = "ghost"
		}
		return fn + "(" + e.name(n) + ")"
	}
	path := e.name(name)
	// Step into maps and lists now and then.
	for depth := 0; depth < 2 && g.chance(45); depth++ {
		if v.Type == designer.M && len(v.M) > 0 {
			ks := sortedMapKeys(v.M)
			k := ks[g.pick(len(ks))]
			path += "." + e.name(k)
			v = v.M[k]
		} else if v.Type == designer.L && len(v.L) > 0 {
			i := g.pick(len(v.L))
			path += fmt.Sprintf("[%d]", i)
			v = v.L[i]
		}
	}
	if g.chance(8) {
		t := typeNames[g.pick(len(typeNames))]
		if g.chance(50) {
			t = string(v.Type)
		}
		return "attribute_type(" + path + ", " + e.val(str(t)) + ")"
	}
	sizeCmp := func() string {
		n := 0
		switch v.Type {
		case designer.S:
			n = len(v.S)
		case designer.B:
			n = len(v.B)
		case designer.M:
			n = len(v.M)
		case designer.L:
			n = len(v.L)
		case designer.SS, designer.NS:
			n = len(v.SS)
		case designer.BS:
			n = len(v.BS)
		}
		n += g.pick(3) - 1
		return "size(" + path + ") " + comparators[g.pick(len(comparators))] + " " + e.val(num(fmt.Sprint(n)))
	}
	cmp := func(other designer.Value) string {
		op := comparators[g.pick(len(comparators))]
		if g.chance(15) {
			return e.val(other) + " " + op + " " + path
		}
		return path + " " + op + " " + e.val(other)
	}
	switch v.Type {
	case designer.S:
		ascii := utf8.RuneCountInString(v.S) == len(v.S)
		switch k := g.pick(7); {
		case k == 0 && ascii:
			return "begins_with(" + path + ", " + e.val(str(v.S[:g.pick(len(v.S)+1)])) + ")"
		case k == 1 && ascii && len(v.S) > 1:
			i := g.pick(len(v.S) - 1)
			return "contains(" + path + ", " + e.val(str(v.S[i:i+1+g.pick(len(v.S)-i)])) + ")"
		case k == 2 && ascii:
			return sizeCmp()
		case k == 3:
			cands := []designer.Value{v, str("zz"), num("1")}
			g.r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
			var phs []string
			for _, c := range cands[:1+g.pick(3)] {
				phs = append(phs, e.val(c))
			}
			return path + " IN (" + strings.Join(phs, ", ") + ")"
		case k == 4 && ascii:
			lo, hi := v.S[:len(v.S)/2], v.S+"~"
			return path + " BETWEEN " + e.val(str(lo)) + " AND " + e.val(str(hi))
		case k == 5:
			return cmp(num("5"))
		}
		if !ascii {
			return path + " = " + e.val(v)
		}
		return cmp(v)
	case designer.N:
		switch g.pick(5) {
		case 0:
			vs := valuesOf(items, name, designer.N)
			if len(vs) > 1 && !strings.Contains(path, ".") && !strings.Contains(path, "[") {
				a, b := g.pick(len(vs)), g.pick(len(vs))
				if a > b {
					a, b = b, a
				}
				return path + " BETWEEN " + e.val(g.keyVal(vs[a])) + " AND " + e.val(g.keyVal(vs[b]))
			}
		case 1:
			return path + " IN (" + e.val(g.keyVal(v)) + ", " + e.val(num("-1")) + ")"
		}
		return cmp(g.keyVal(v))
	case designer.B:
		if !isASCII(v.B) {
			// dynalite's begins_with and contains decode binaries as UTF-8.
			if g.chance(30) {
				return sizeCmp()
			}
			return cmp(v)
		}
		switch g.pick(4) {
		case 0:
			return "begins_with(" + path + ", " + e.val(bin(v.B[:g.pick(len(v.B)+1)])) + ")"
		case 1:
			return "contains(" + path + ", " + e.val(bin(v.B[len(v.B)-1:])) + ")"
		case 2:
			return sizeCmp()
		}
		return cmp(v)
	case designer.BOOL:
		op := "="
		if g.chance(40) {
			op = "<>"
		}
		return path + " " + op + " " + e.val(designer.Boolean(g.chance(50)))
	case designer.NULL:
		return path + " = " + e.val(designer.Null())
	case designer.SS, designer.NS:
		switch g.pick(3) {
		case 0:
			return sizeCmp()
		case 1:
			rev := append([]string(nil), v.SS...)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			return path + " = " + e.val(designer.Value{Type: v.Type, SS: rev})
		}
		m := v.SS[g.pick(len(v.SS))]
		if v.Type == designer.NS {
			return "contains(" + path + ", " + e.val(num(m)) + ")"
		}
		if g.chance(20) {
			m = "nope"
		}
		return "contains(" + path + ", " + e.val(str(m)) + ")"
	case designer.BS:
		if g.chance(50) {
			return sizeCmp()
		}
		return "contains(" + path + ", " + e.val(bin(v.BS[g.pick(len(v.BS))])) + ")"
	case designer.M:
		if g.chance(50) && len(v.M) > 0 {
			ks := sortedMapKeys(v.M)
			return "attribute_exists(" + path + "." + e.name(ks[g.pick(len(ks))]) + ")"
		}
		return sizeCmp()
	case designer.L:
		for _, el := range v.L {
			if (el.Type == designer.S || el.Type == designer.N) && g.chance(50) {
				return "contains(" + path + ", " + e.val(el) + ")"
			}
		}
		return sizeCmp()
	}
	return "attribute_exists(" + path + ")"
}

// projection writes a ProjectionExpression of distinct top-level attributes, some as nested paths.
func (g *gen) projection(e *expr, items []designer.Item, names []string) string {
	if len(names) == 0 {
		return e.name("ghost")
	}
	perm := g.r.Perm(len(names))
	n := 1 + g.pick(min(4, len(names)))
	var parts []string
	for _, i := range perm[:n] {
		name := names[i]
		p := e.name(name)
		if g.chance(40) {
			// Find a nested value to point into.
			for _, it := range items {
				v, ok := it[name]
				if !ok {
					continue
				}
				if v.Type == designer.M && len(v.M) > 0 {
					ks := sortedMapKeys(v.M)
					p += "." + e.name(ks[g.pick(len(ks))])
				} else if v.Type == designer.L {
					p += fmt.Sprintf("[%d]", g.pick(4))
				}
				break
			}
		}
		parts = append(parts, p)
	}
	if g.chance(10) {
		parts = append(parts, e.name("ghost"))
	}
	return strings.Join(parts, ", ")
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func missingKey(t designer.Type) designer.Value {
	switch t {
	case designer.N:
		return num("999999")
	case designer.B:
		return bin([]byte("missing"))
	}
	return str("MISSING")
}

func (g *gen) query(tg target) testCase {
	e := newExpr(g)
	body := map[string]any{"TableName": tg.table.Name}
	desc := []string{}
	if tg.index != "" {
		body["IndexName"] = tg.index
	}
	var pv designer.Value
	var part []designer.Item
	if len(tg.items) == 0 || g.chance(7) {
		pv = missingKey(tg.pk.Type)
		desc = append(desc, "missing partition")
	} else {
		pv = tg.items[g.pick(len(tg.items))][tg.pk.Name]
		for _, it := range tg.items {
			if keyOf(it[tg.pk.Name]) == keyOf(pv) {
				part = append(part, it)
			}
		}
	}
	kc := e.name(tg.pk.Name) + " = " + e.val(g.keyVal(pv))
	if tg.sk != nil && g.chance(85) {
		sks := valuesOf(part, tg.sk.Name, tg.sk.Type)
		var sv designer.Value
		if len(sks) > 0 {
			sv = sks[g.pick(len(sks))]
		} else {
			sv = missingKey(tg.sk.Type)
		}
		ops := []string{"=", "<", "<=", ">", ">=", "BETWEEN"}
		if tg.sk.Type != designer.N {
			ops = append(ops, "begins_with")
		}
		op := ops[g.pick(len(ops))]
		sn := e.name(tg.sk.Name)
		var cond string
		switch op {
		case "BETWEEN":
			hi := sv
			if len(sks) > 0 {
				hi = sks[g.pick(len(sks))]
				if compareKeys(hi, sv) < 0 {
					sv, hi = hi, sv
				}
			}
			cond = sn + " BETWEEN " + e.val(g.keyVal(sv)) + " AND " + e.val(g.keyVal(hi))
		case "begins_with":
			var prefix designer.Value
			if sv.Type == designer.B {
				prefix = bin(sv.B[:g.pick(len(sv.B)+1)])
			} else {
				cut := 0
				for i := range sv.S {
					if g.chance(40) {
						break
					}
					cut = i
				}
				if g.chance(30) {
					cut = len(sv.S)
				}
				prefix = str(sv.S[:cut])
			}
			cond = "begins_with(" + sn + ", " + e.val(prefix) + ")"
		default:
			cond = sn + " " + op + " " + e.val(g.keyVal(sv))
		}
		desc = append(desc, "sort "+op)
		if g.chance(15) {
			kc = cond + " AND " + kc
		} else {
			kc += " AND " + cond
		}
	}
	body["KeyConditionExpression"] = kc
	switch g.pick(3) {
	case 0:
		body["ScanIndexForward"] = false
		desc = append(desc, "descending")
	case 1:
		body["ScanIndexForward"] = true
	}
	if (tg.index == "" || tg.local) && g.chance(15) {
		body["ConsistentRead"] = true
	}
	mode := ordered
	if tg.ties {
		mode = unordered
	} else if g.chance(30) {
		body["Limit"] = 1 + g.pick(4)
		mode = queryPages
		desc = append(desc, "paged")
	}
	keyAttrs := map[string]bool{tg.pk.Name: true}
	if tg.sk != nil {
		keyAttrs[tg.sk.Name] = true
	}
	if g.chance(40) {
		names := attrNames(tg.items, func(n string) bool { return !keyAttrs[n] && tg.holds(n) })
		body["FilterExpression"] = g.condition(e, part, names, 0)
		desc = append(desc, "filter")
	}
	switch {
	case g.chance(8):
		body["Select"] = "COUNT"
		desc = append(desc, "COUNT")
	case tg.local && tg.projType != designer.All && g.chance(20):
		body["Select"] = "ALL_ATTRIBUTES"
		desc = append(desc, "ALL_ATTRIBUTES")
	case g.chance(30):
		body["ProjectionExpression"] = g.projection(e, part, attrNames(tg.items, tg.holds))
		desc = append(desc, "projection")
	}
	e.apply(body)
	return testCase{name: "query " + tg.label() + " (" + strings.Join(desc, ", ") + ")", op: "Query", body: body, mode: mode}
}

func (g *gen) scan(tg target) testCase {
	e := newExpr(g)
	body := map[string]any{"TableName": tg.table.Name}
	desc := []string{}
	if tg.index != "" {
		body["IndexName"] = tg.index
	}
	mode := unordered
	if g.chance(35) {
		body["Limit"] = 1 + g.pick(7)
		mode = scanPages
		desc = append(desc, "paged")
	}
	if g.chance(60) {
		body["FilterExpression"] = g.condition(e, tg.items, attrNames(tg.items, tg.holds), 0)
		desc = append(desc, "filter")
	}
	switch {
	case g.chance(8):
		body["Select"] = "COUNT"
		desc = append(desc, "COUNT")
	case g.chance(25):
		body["ProjectionExpression"] = g.projection(e, tg.items, attrNames(tg.items, tg.holds))
		desc = append(desc, "projection")
	}
	if (tg.index == "" || tg.local) && g.chance(10) {
		body["ConsistentRead"] = true
	}
	e.apply(body)
	return testCase{name: "scan " + tg.label() + " (" + strings.Join(desc, ", ") + ")", op: "Scan", body: body, mode: mode}
}

func tableKey(t designer.Table, it designer.Item) map[string]designer.Value {
	k := map[string]designer.Value{t.PartitionKey.Name: it[t.PartitionKey.Name]}
	if t.SortKey != nil {
		k[t.SortKey.Name] = it[t.SortKey.Name]
	}
	return k
}

func (g *gen) randomKey(t designer.Table) (map[string]designer.Value, string) {
	if g.chance(15) {
		k := map[string]designer.Value{t.PartitionKey.Name: missingKey(t.PartitionKey.Type)}
		if t.SortKey != nil {
			k[t.SortKey.Name] = missingKey(t.SortKey.Type)
		}
		return k, "missing"
	}
	k := tableKey(t, t.Items[g.pick(len(t.Items))].Item)
	for n, v := range k {
		k[n] = g.keyVal(v)
	}
	return k, ""
}

func (g *gen) getItem(t designer.Table) testCase {
	e := newExpr(g)
	k, desc := g.randomKey(t)
	body := map[string]any{"TableName": t.Name, "Key": k}
	if g.chance(35) {
		var its []designer.Item
		for _, it := range t.Items {
			its = append(its, it.Item)
		}
		body["ProjectionExpression"] = g.projection(e, its, attrNames(its, func(string) bool { return true }))
		desc += ", projection"
	}
	if g.chance(20) {
		body["ConsistentRead"] = g.chance(50)
	}
	e.apply(body)
	return testCase{name: strings.TrimSpace("get " + t.Name + " " + desc), op: "GetItem", body: body, mode: ordered}
}

func (g *gen) batchGet(d designer.Design) testCase {
	req := map[string]any{}
	perm := g.r.Perm(len(d.Tables))
	var names []string
	for _, ti := range perm[:1+g.pick(3)] {
		t := d.Tables[ti]
		e := newExpr(g)
		seen := map[string]bool{}
		var keys []map[string]designer.Value
		for i := 0; i < 1+g.pick(5); i++ {
			k, _ := g.randomKey(t)
			id := keyOf(k[t.PartitionKey.Name])
			if t.SortKey != nil {
				id += "|" + keyOf(k[t.SortKey.Name])
			}
			if !seen[id] {
				seen[id] = true
				keys = append(keys, k)
			}
		}
		ka := map[string]any{"Keys": keys}
		if g.chance(30) {
			var its []designer.Item
			for _, it := range t.Items {
				its = append(its, it.Item)
			}
			ka["ProjectionExpression"] = g.projection(e, its, attrNames(its, func(string) bool { return true }))
		}
		if g.chance(20) {
			ka["ConsistentRead"] = true
		}
		e.apply(ka)
		req[t.Name] = ka
		names = append(names, t.Name)
	}
	return testCase{name: "batch " + strings.Join(names, "+"), op: "BatchGetItem", body: map[string]any{"RequestItems": req}, mode: unordered}
}

// generateCases writes the oracle's requests: for every table and index, queries and scans; gets
// and batch gets; then hand-written invalid requests.
func generateCases(d designer.Design) []testCase {
	g := &gen{r: rand.New(rand.NewPCG(7, 11))}
	var cases []testCase
	for _, t := range d.Tables {
		for i := 0; i < 12; i++ {
			cases = append(cases, g.getItem(t))
		}
		for _, tg := range targets(t) {
			nq := 14
			if tg.index == "" {
				nq = 30
			}
			for i := 0; i < nq; i++ {
				cases = append(cases, g.query(tg))
			}
			for i := 0; i < 6; i++ {
				cases = append(cases, g.scan(tg))
			}
		}
	}
	for i := 0; i < 20; i++ {
		cases = append(cases, g.batchGet(d))
	}
	return append(cases, invalidCases(d)...)
}

func names(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func vals(kv ...any) map[string]designer.Value {
	m := map[string]designer.Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(designer.Value)
	}
	return m
}

// invalidCases are requests DynamoDB refuses, and a few near misses it accepts.
func invalidCases(d designer.Design) []testCase {
	o := d.Tables[0] // Orders
	first := o.Items[0].Item
	pk, sk := first["pk"], first["sk"]
	q := func(name string, body map[string]any) testCase {
		if body["TableName"] == nil {
			body["TableName"] = "Orders"
		}
		return testCase{name: "invalid: " + name, op: "Query", body: body}
	}
	kcPK := "pk = :p"
	pv := vals(":p", pk)
	with := func(m map[string]designer.Value, kv ...any) map[string]designer.Value {
		out := map[string]designer.Value{}
		for k, v := range m {
			out[k] = v
		}
		for k, v := range vals(kv...) {
			out[k] = v
		}
		return out
	}
	cases := []testCase{
		q("filter on the partition key", map[string]any{"KeyConditionExpression": kcPK, "FilterExpression": "pk = :p", "ExpressionAttributeValues": pv}),
		q("filter on the sort key", map[string]any{"KeyConditionExpression": kcPK, "FilterExpression": "sk > :s", "ExpressionAttributeValues": with(pv, ":s", str("A"))}),
		q("filter on a GSI's key", map[string]any{"IndexName": "byCustomer", "KeyConditionExpression": "customer = :c", "FilterExpression": "created > :n", "ExpressionAttributeValues": vals(":c", str("C1"), ":n", num("1"))}),
		q("filter on the table's sort key in a GSI query (allowed)", map[string]any{"IndexName": "byCustomer", "KeyConditionExpression": "customer = :c", "FilterExpression": "begins_with(sk, :s)", "ExpressionAttributeValues": vals(":c", str("C1"), ":s", str("ORDER"))}),
		q("unknown index", map[string]any{"IndexName": "nope", "KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv}),
		q("consistent read on a GSI", map[string]any{"IndexName": "byCustomer", "ConsistentRead": true, "KeyConditionExpression": "customer = :c", "ExpressionAttributeValues": vals(":c", str("C1"))}),
		q("consistent read on an LSI (allowed)", map[string]any{"IndexName": "lsiAmount", "ConsistentRead": true, "KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv}),
		q("undefined value placeholder", map[string]any{"KeyConditionExpression": "pk = :nope", "ExpressionAttributeValues": pv}),
		q("undefined name placeholder", map[string]any{"KeyConditionExpression": "#nope = :p", "ExpressionAttributeValues": pv}),
		q("unused value placeholder", map[string]any{"KeyConditionExpression": kcPK, "ExpressionAttributeValues": with(pv, ":x", str("x"))}),
		q("unused name placeholder", map[string]any{"KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv, "ExpressionAttributeNames": names("#x", "note")}),
		q("wrong partition key type", map[string]any{"KeyConditionExpression": kcPK, "ExpressionAttributeValues": vals(":p", num("1"))}),
		q("wrong sort key type", map[string]any{"KeyConditionExpression": "pk = :p AND sk = :s", "ExpressionAttributeValues": with(pv, ":s", num("1"))}),
		q("key condition on a non-key attribute", map[string]any{"KeyConditionExpression": "pk = :p AND note = :n", "ExpressionAttributeValues": with(pv, ":n", str("x"))}),
		q("no partition key condition", map[string]any{"KeyConditionExpression": "sk = :s", "ExpressionAttributeValues": vals(":s", sk)}),
		q("range condition on the partition key", map[string]any{"KeyConditionExpression": "pk > :p", "ExpressionAttributeValues": pv}),
		q("OR in a key condition", map[string]any{"KeyConditionExpression": "pk = :p OR sk = :s", "ExpressionAttributeValues": with(pv, ":s", sk)}),
		q("<> in a key condition", map[string]any{"KeyConditionExpression": "pk = :p AND sk <> :s", "ExpressionAttributeValues": with(pv, ":s", sk)}),
		q("BETWEEN bounds reversed", map[string]any{"KeyConditionExpression": "pk = :p AND sk BETWEEN :b AND :a", "ExpressionAttributeValues": with(pv, ":a", str("A"), ":b", str("Z"))}),
		q("begins_with on a number sort key", map[string]any{"TableName": "Metrics", "KeyConditionExpression": "device = :d AND begins_with(ts, :t)", "ExpressionAttributeValues": vals(":d", num("7"), ":t", num("1"))}),
		q("reserved word without placeholder", map[string]any{"KeyConditionExpression": kcPK, "FilterExpression": "status = :s", "ExpressionAttributeValues": with(pv, ":s", str("NEW"))}),
		q("syntax error", map[string]any{"KeyConditionExpression": kcPK, "FilterExpression": "note = = :s", "ExpressionAttributeValues": with(pv, ":s", str("x"))}),
		q("redundant parentheses", map[string]any{"KeyConditionExpression": kcPK, "FilterExpression": "((note = :s))", "ExpressionAttributeValues": with(pv, ":s", str("x"))}),
		q("bad attribute_type", map[string]any{"KeyConditionExpression": kcPK, "FilterExpression": "attribute_type(note, :t)", "ExpressionAttributeValues": with(pv, ":t", str("STRING"))}),
		q("ALL_ATTRIBUTES on a KEYS_ONLY GSI", map[string]any{"IndexName": "byStatus", "Select": "ALL_ATTRIBUTES", "KeyConditionExpression": "#s = :s", "ExpressionAttributeNames": names("#s", "status"), "ExpressionAttributeValues": vals(":s", str("NEW"))}),
		q("Limit 0", map[string]any{"KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv, "Limit": 0}),
		q("start key of the wrong shape", map[string]any{"KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv, "ExclusiveStartKey": map[string]any{"pk": pk}}),
		q("start key outside the partition", map[string]any{"KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv, "ExclusiveStartKey": map[string]any{"pk": str("CUST#999"), "sk": sk}}),
		q("missing table", map[string]any{"TableName": "NoSuchTable", "KeyConditionExpression": kcPK, "ExpressionAttributeValues": pv}),
		q("a number written another way matches (valid)", map[string]any{"TableName": "Metrics", "KeyConditionExpression": "device = :d", "ExpressionAttributeValues": vals(":d", num("1000.000"))}),
		q("GSI projection names a non-projected attribute (valid)", map[string]any{"IndexName": "byCustomer", "KeyConditionExpression": "customer = :c", "ProjectionExpression": "note, amount, sk", "ExpressionAttributeValues": vals(":c", str("C1"))}),
		q("overlapping projection paths", map[string]any{"KeyConditionExpression": kcPK, "ProjectionExpression": "profile, profile.age", "ExpressionAttributeValues": pv}),
		{name: "invalid: scan of a missing table", op: "Scan", body: map[string]any{"TableName": "NoSuchTable"}},
		{name: "invalid: scan of an unknown index", op: "Scan", body: map[string]any{"TableName": "Orders", "IndexName": "nope"}},
		{name: "invalid: scan filter with an undefined placeholder", op: "Scan", body: map[string]any{"TableName": "Orders", "FilterExpression": "qty > :q"}},
		{name: "invalid: scan Limit 0", op: "Scan", body: map[string]any{"TableName": "Orders", "Limit": 0}},
		{name: "invalid: scan reserved word", op: "Scan", body: map[string]any{"TableName": "Users", "FilterExpression": "name = :n", "ExpressionAttributeValues": vals(":n", str("kiwi"))}},
		{name: "invalid: scan size of a number compared to a string (valid, false)", op: "Scan", mode: unordered, body: map[string]any{"TableName": "Users", "FilterExpression": "size(age) > :n", "ExpressionAttributeValues": vals(":n", num("0"))}},
		{name: "invalid: get from a missing table", op: "GetItem", body: map[string]any{"TableName": "NoSuchTable", "Key": map[string]any{"pk": pk}}},
		{name: "invalid: get with the wrong key type", op: "GetItem", body: map[string]any{"TableName": "Orders", "Key": map[string]any{"pk": num("1"), "sk": sk}}},
		{name: "invalid: get without the sort key", op: "GetItem", body: map[string]any{"TableName": "Orders", "Key": map[string]any{"pk": pk}}},
		{name: "invalid: get with an extra key attribute", op: "GetItem", body: map[string]any{"TableName": "Orders", "Key": map[string]any{"pk": pk, "sk": sk, "note": str("x")}}},
		{name: "invalid: get with an undefined projection name", op: "GetItem", body: map[string]any{"TableName": "Orders", "Key": map[string]any{"pk": pk, "sk": sk}, "ProjectionExpression": "#nope"}},
		{name: "invalid: batch get from a missing table", op: "BatchGetItem", body: map[string]any{"RequestItems": map[string]any{"NoSuchTable": map[string]any{"Keys": []any{map[string]any{"pk": pk}}}}}},
		{name: "invalid: batch get with duplicate keys", op: "BatchGetItem", body: map[string]any{"RequestItems": map[string]any{"Orders": map[string]any{"Keys": []any{map[string]any{"pk": pk, "sk": sk}, map[string]any{"pk": pk, "sk": sk}}}}}},
		{name: "invalid: batch get with the wrong key type", op: "BatchGetItem", body: map[string]any{"RequestItems": map[string]any{"Users": map[string]any{"Keys": []any{map[string]any{"userId": num("1")}}}}}},
		{name: "invalid: batch get with no keys", op: "BatchGetItem", body: map[string]any{"RequestItems": map[string]any{"Users": map[string]any{"Keys": []any{}}}}},
	}
	return cases
}
