package oracle

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The generated data avoids what dynalite is known to do differently from DynamoDB, so that a
// mismatch points at the evaluator:
//   - dynalite compares strings in filters by UTF-16 code units and measures size() of a string
//     in UTF-16 code units; non-ASCII text is kept to sort keys, where dynalite orders by UTF-8
//     bytes like DynamoDB, and to attributes no filter compares.
//   - dynalite's begins_with and contains on binary values compare UTF-8 decodings, so binary
//     attributes a filter looks into hold ASCII bytes (binary keys hold any byte).
//   - items whose index keys tie have no defined order, so index sort keys are unique within
//     their partition and a partition-only index with ties is queried without Limit and compared
//     as a multiset.
//   - dynalite does not fetch non-projected attributes of a local index from the table, so
//     filters and projections on an index name projected attributes only.
//   - dynalite has no multi-attribute GSI keys; the oracle's indexes have one attribute per key.
//   - dynalite does not check Select against ProjectionExpression or index use; those
//     combinations are not generated.
//   - dynalite ignores ConsistentRead in a Scan, so a consistent Scan of a GSI (which DynamoDB
//     refuses) is not generated.

func str(s string) designer.Value   { return designer.Str(s) }
func num(s string) designer.Value   { return designer.Num(s) }
func bin(b []byte) designer.Value   { return designer.Bin(b) }
func ss(s ...string) designer.Value { return designer.Value{Type: designer.SS, SS: s} }
func ns(s ...string) designer.Value { return designer.Value{Type: designer.NS, SS: s} }
func bs(b ...[]byte) designer.Value { return designer.Value{Type: designer.BS, BS: b} }
func key(name string, t designer.Type) designer.KeyAttribute {
	return designer.KeyAttribute{Name: name, Type: t}
}

type gen struct{ r *rand.Rand }

func (g *gen) pick(n int) int { return g.r.IntN(n) }
func (g *gen) chance(pct int) bool {
	return g.r.IntN(100) < pct
}

// decimalText writes m×10^e in one of the forms DynamoDB accepts: plain (canonical), with trailing
// zeros, with leading zeros, or in exponent notation. DynamoDB (and dynalite) answer with the
// canonical form; the design keeps the text as written.
func (g *gen) decimalText(m int64, e int) string {
	canon := canonicalDecimal(m, e)
	switch g.pick(6) {
	case 0:
		if strings.Contains(canon, ".") {
			return canon + "00"
		}
		return canon + ".0"
	case 1:
		if strings.HasPrefix(canon, "-") {
			return "-0" + canon[1:]
		}
		return "00" + canon
	case 2:
		digits := strconv.FormatInt(abs(m), 10)
		sign := ""
		if m < 0 {
			sign = "-"
		}
		exp := e + len(digits) - 1
		mant := digits[:1]
		if len(digits) > 1 {
			mant += "." + digits[1:]
		}
		return fmt.Sprintf("%s%sE%+d", sign, mant, exp)
	}
	return canon
}

func abs(m int64) int64 {
	if m < 0 {
		return -m
	}
	return m
}

func canonicalDecimal(m int64, e int) string {
	r := new(big.Rat).SetInt64(m)
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(absInt(e))), nil))
	if e >= 0 {
		r.Mul(r, p)
	} else {
		r.Quo(r, p)
	}
	return ratText(r)
}

func absInt(e int) int {
	if e < 0 {
		return -e
	}
	return e
}

// ratText writes an exact decimal rational without exponent or trailing zeros.
func ratText(r *big.Rat) string {
	s := r.FloatString(140)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

func parseNum(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad number " + s)
	}
	return r
}

// keyOf identifies a key value regardless of how a number is written.
func keyOf(v designer.Value) string {
	switch v.Type {
	case designer.N:
		return "N:" + parseNum(v.S).RatString()
	case designer.B:
		return "B:" + hex.EncodeToString(v.B)
	}
	return string(v.Type) + ":" + v.S
}

// compareKeys orders two key values of one type as DynamoDB does: numbers by value, strings by
// UTF-8 bytes, binaries by bytes.
func compareKeys(a, b designer.Value) int {
	switch a.Type {
	case designer.N:
		return parseNum(a.S).Cmp(parseNum(b.S))
	case designer.B:
		return bytes.Compare(a.B, b.B)
	}
	return strings.Compare(a.S, b.S)
}

// numVariant rewrites a number in another accepted form with the same value.
func numVariant(s string) string {
	if strings.ContainsAny(s, "eE") {
		return s
	}
	if strings.Contains(s, ".") {
		return s + "0"
	}
	return s + ".00"
}

var words = []string{"alpha", "beta", "gamma", "delta", "apple", "apricot", "banana", "kiwi", "lime", "mango"}

func (g *gen) word() string { return words[g.pick(len(words))] }

func (g *gen) ascii(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + g.pick(6))
	}
	return b
}

func (g *gen) anyBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.pick(256))
	}
	return b
}

// uniqueNums hands out numbers never handed out before (by value), in varied forms and magnitudes.
type uniqueNums struct {
	g    *gen
	seen map[string]bool
}

func (u *uniqueNums) next(scales []int, signed bool) string {
	for {
		m := int64(u.g.pick(2000) + 1)
		if signed && u.g.chance(30) {
			m = -m
		}
		e := scales[u.g.pick(len(scales))]
		if u.g.chance(3) {
			m, e = 0, 0
		}
		text := u.g.decimalText(m, e)
		k := parseNum(text).RatString()
		if !u.seen[k] {
			u.seen[k] = true
			return text
		}
	}
}

func newUnique(g *gen) *uniqueNums { return &uniqueNums{g: g, seen: map[string]bool{}} }

// buildDesign generates the oracle's tables and items, deterministically.
func buildDesign() designer.Design {
	g := &gen{r: rand.New(rand.NewPCG(20260101, 42))}
	d := designer.Design{Format: designer.Format, Name: "oracle"}
	d.Tables = []designer.Table{g.orders(), g.metrics(), g.blobs(), g.users()}
	for ti := range d.Tables {
		for i := range d.Tables[ti].Items {
			d.Tables[ti].Items[i].ID = fmt.Sprintf("i%d", i+1)
		}
	}
	return d
}

func items(list []designer.Item) []designer.SampleItem {
	out := make([]designer.SampleItem, len(list))
	for i, it := range list {
		out[i] = designer.SampleItem{Item: it}
	}
	return out
}

// orders: string partition and sort keys; GSIs with KEYS_ONLY, INCLUDE and ALL projections (the
// ALL one sparse); two LSIs (INCLUDE, and a sparse KEYS_ONLY one).
func (g *gen) orders() designer.Table {
	sk := key("sk", designer.S)
	t := designer.Table{
		Name: "Orders", PartitionKey: key("pk", designer.S), SortKey: &sk, BillingMode: designer.OnDemand,
		GSIs: []designer.Index{
			{Name: "byStatus", PartitionKey: []designer.KeyAttribute{key("status", designer.S)},
				SortKey: []designer.KeyAttribute{key("created", designer.N)}, Projection: designer.Projection{Type: designer.KeysOnly}},
			{Name: "byCustomer", PartitionKey: []designer.KeyAttribute{key("customer", designer.S)},
				SortKey:    []designer.KeyAttribute{key("created", designer.N)},
				Projection: designer.Projection{Type: designer.Include, Attributes: []string{"amount", "tags", "profile"}}},
			{Name: "openOrders", PartitionKey: []designer.KeyAttribute{key("open_region", designer.S)},
				SortKey: []designer.KeyAttribute{key("open_at", designer.N)}, Projection: designer.Projection{Type: designer.All}, Sparse: true},
		},
		LSIs: []designer.Index{
			{Name: "lsiAmount", PartitionKey: []designer.KeyAttribute{key("pk", designer.S)},
				SortKey:    []designer.KeyAttribute{key("amount", designer.N)},
				Projection: designer.Projection{Type: designer.Include, Attributes: []string{"status", "note"}}},
			{Name: "lsiRank", PartitionKey: []designer.KeyAttribute{key("pk", designer.S)},
				SortKey: []designer.KeyAttribute{key("rank", designer.S)}, Projection: designer.Projection{Type: designer.KeysOnly}},
		},
	}
	created, openAt := newUnique(g), newUnique(g)
	statuses := []string{"NEW", "PAID", "SHIPPED", "CANCELLED"}
	regions := []string{"eu", "us", "ap"}
	var list []designer.Item
	partitions := []string{"CUST#001", "CUST#002", "CUST#003", "CUST#004", "CUST#005", "CUST#006", "CUST#é"}
	for pi, pk := range partitions {
		amounts, ranks, sks := newUnique(g), map[string]bool{}, map[string]bool{}
		n := 4 + g.pick(10)
		if pi == 0 {
			n = 14
		}
		for i := 0; i < n; i++ {
			var s string
			switch {
			case i == 0:
				s = "PROFILE"
			case pi == 6 && i <= 5:
				s = []string{"ORDER#日本", "ORDER#😀", "ORDER#ｱ", "ORDER#é", "ORDER#z"}[i-1]
			default:
				s = fmt.Sprintf("ORDER#2024-%02d-%02d#%04d", 1+g.pick(12), 1+g.pick(28), g.pick(10000))
				if g.chance(15) {
					s = fmt.Sprintf("ADDR#%s", g.word())
				}
			}
			if sks[s] {
				continue
			}
			sks[s] = true
			it := designer.Item{"pk": str(pk), "sk": str(s)}
			if g.chance(90) {
				it["status"] = str(statuses[g.pick(len(statuses))])
			}
			if g.chance(90) {
				it["created"] = num(created.next([]int{0}, false))
			}
			if g.chance(85) {
				it["amount"] = num(amounts.next([]int{-2, -1, 0, 3}, true))
			}
			if g.chance(80) {
				it["customer"] = str("C" + strconv.Itoa(g.pick(4)))
			}
			if g.chance(40) {
				it["open_region"] = str(regions[g.pick(len(regions))])
				if g.chance(80) {
					it["open_at"] = num(openAt.next([]int{0, 2}, true))
				}
			}
			if g.chance(50) {
				r := fmt.Sprintf("R%02d", g.pick(40))
				if !ranks[r] {
					ranks[r] = true
					it["rank"] = str(r)
				}
			}
			g.orderAttributes(it)
			list = append(list, it)
		}
	}
	t.Items = items(list)
	return t
}

// orderAttributes adds the non-key attributes: every type, nested maps and lists, sets, and an
// attribute whose type varies between items.
func (g *gen) orderAttributes(it designer.Item) {
	if g.chance(80) {
		it["note"] = str(g.word() + " " + g.word())
	}
	if g.chance(70) {
		it["qty"] = num(strconv.Itoa(g.pick(20) - 3))
	}
	if g.chance(60) {
		n := 1 + g.pick(3)
		set := map[string]bool{}
		for len(set) < n {
			set[g.word()] = true
		}
		it["tags"] = designer.Value{Type: designer.SS, SS: sortedSet(set)}
	}
	if g.chance(50) {
		set := map[string]bool{}
		for len(set) < 1+g.pick(3) {
			set[canonicalDecimal(int64(g.pick(50)-10), -g.pick(2))] = true
		}
		it["scores"] = designer.Value{Type: designer.NS, SS: sortedSet(set)}
	}
	if g.chance(40) {
		it["blobs"] = bs(g.ascii(2), append(g.ascii(3), 'z'))
	}
	if g.chance(60) {
		it["data"] = bin(g.ascii(1 + g.pick(4)))
	}
	if g.chance(70) {
		it["flag"] = designer.Boolean(g.chance(50))
	}
	if g.chance(30) {
		it["nothing"] = designer.Null()
	}
	if g.chance(60) {
		p := map[string]designer.Value{"name": str(g.word()), "age": num(strconv.Itoa(18 + g.pick(60)))}
		if g.chance(70) {
			p["address"] = designer.Map(map[string]designer.Value{"city": str(g.word()), "zip": str(fmt.Sprintf("%05d", g.pick(99999)))})
		}
		if g.chance(60) {
			p["phones"] = designer.List(str("+1"+strconv.Itoa(g.pick(1000))), str("+4"+strconv.Itoa(g.pick(1000))))
		}
		it["profile"] = designer.Map(p)
	}
	if g.chance(50) {
		var h []designer.Value
		for i := 0; i < 1+g.pick(3); i++ {
			h = append(h, designer.Map(map[string]designer.Value{"at": num(strconv.Itoa(g.pick(100))), "what": str(g.word())}))
		}
		it["history"] = designer.List(h...)
	}
	if g.chance(50) {
		it["mixed"] = designer.List(str(g.word()), num(strconv.Itoa(g.pick(10))), designer.Boolean(true), designer.Null(),
			designer.Map(map[string]designer.Value{"k": str(g.word())}), designer.List(num("1"), num("2")))
	}
	if g.chance(50) {
		big := []string{"1E+100", "-9.99E+125", "1.5E-120", "123456789012345678901234567890123456.78", "-0.000001", "1e-130"}
		it["big"] = num(big[g.pick(len(big))])
	}
	if g.chance(70) {
		switch g.pick(6) {
		case 0:
			it["weird"] = str(strconv.Itoa(g.pick(10)))
		case 1:
			it["weird"] = num(strconv.Itoa(g.pick(10)))
		case 2:
			it["weird"] = designer.List(str("x"))
		case 3:
			it["weird"] = designer.Boolean(false)
		case 4:
			it["weird"] = ss("a", "b")
		case 5:
			it["weird"] = designer.Map(map[string]designer.Value{})
		}
	}
	if g.chance(30) {
		it["label"] = str([]string{"naïve", "日本語", "😀 smile", "plain"}[g.pick(4)])
	}
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// metrics: number partition and sort keys written in many forms, a binary-keyed GSI.
func (g *gen) metrics() designer.Table {
	sk := key("ts", designer.N)
	t := designer.Table{
		Name: "Metrics", PartitionKey: key("device", designer.N), SortKey: &sk, BillingMode: designer.OnDemand,
		GSIs: []designer.Index{
			{Name: "bySensor", PartitionKey: []designer.KeyAttribute{key("sensor", designer.B)},
				SortKey:    []designer.KeyAttribute{key("reading", designer.N)},
				Projection: designer.Projection{Type: designer.Include, Attributes: []string{"unit"}}},
		},
	}
	devices := []string{"-3", "0", "7", "1.5", "1E+3", "12345678901234567890"}
	sensors := [][]byte{{0x00}, {0x01, 0x02}, {0xff}, []byte("s1")}
	readings := newUnique(g)
	var list []designer.Item
	for _, dev := range devices {
		tss := newUnique(g)
		for i := 0; i < 3+g.pick(9); i++ {
			it := designer.Item{"device": num(dev), "ts": num(tss.next([]int{-130, -3, 0, 2, 20, 100}, true))}
			if g.chance(80) {
				it["sensor"] = bin(sensors[g.pick(len(sensors))])
			}
			if g.chance(85) {
				it["reading"] = num(readings.next([]int{-1, 0}, true))
			}
			if g.chance(70) {
				it["unit"] = str([]string{"C", "F", "kPa"}[g.pick(3)])
			}
			if g.chance(60) {
				it["value"] = num(g.decimalText(int64(g.pick(100000)-50000), -g.pick(4)))
			}
			if g.chance(60) {
				it["ok"] = designer.Boolean(g.chance(50))
			}
			if g.chance(50) {
				it["readings"] = designer.List(num(strconv.Itoa(g.pick(9))), num(strconv.Itoa(10+g.pick(9))), str("end"))
			}
			if g.chance(40) {
				it["labels"] = ss("hot", g.word())
			}
			list = append(list, it)
		}
	}
	t.Items = items(list)
	return t
}

// blobs: binary partition and sort keys (any bytes, with prefixes of each other), a
// partition-only KEYS_ONLY GSI whose keys tie.
func (g *gen) blobs() designer.Table {
	sk := key("part", designer.B)
	t := designer.Table{
		Name: "Blobs", PartitionKey: key("id", designer.B), SortKey: &sk, BillingMode: designer.OnDemand,
		GSIs: []designer.Index{
			{Name: "byKind", PartitionKey: []designer.KeyAttribute{key("kind", designer.S)}, Projection: designer.Projection{Type: designer.KeysOnly}},
		},
	}
	ids := [][]byte{{0x00}, {0x00, 0x01}, {0x7f, 0x80}, {0xff, 0xfe}, []byte("blob")}
	parts := [][]byte{{0x01}, {0x01, 0x00}, {0x01, 0xff}, {0x02}, {0x80}, {0xff}, {0xff, 0xff, 0x00}, []byte("p1"), []byte("p10"), []byte("p2")}
	var list []designer.Item
	for _, id := range ids {
		for _, p := range parts {
			if g.chance(35) {
				continue
			}
			it := designer.Item{"id": bin(id), "part": bin(p)}
			if g.chance(80) {
				it["kind"] = str([]string{"image", "text", "video"}[g.pick(3)])
			}
			if g.chance(70) {
				it["payload"] = bin(g.ascii(1 + g.pick(6)))
			}
			if g.chance(30) {
				it["raw"] = bin(g.anyBytes(4))
			}
			if g.chance(60) {
				it["bytes"] = num(strconv.Itoa(g.pick(5000)))
			}
			list = append(list, it)
		}
	}
	t.Items = items(list)
	return t
}

// users: a partition key only; a unique partition-only GSI with INCLUDE and an ALL GSI.
func (g *gen) users() designer.Table {
	t := designer.Table{
		Name: "Users", PartitionKey: key("userId", designer.S), BillingMode: designer.OnDemand,
		GSIs: []designer.Index{
			{Name: "byEmail", PartitionKey: []designer.KeyAttribute{key("email", designer.S)},
				Projection: designer.Projection{Type: designer.Include, Attributes: []string{"name"}}},
			{Name: "byTeam", PartitionKey: []designer.KeyAttribute{key("team", designer.S)},
				SortKey: []designer.KeyAttribute{key("joined", designer.N)}, Projection: designer.Projection{Type: designer.All}},
		},
	}
	joined := newUnique(g)
	var list []designer.Item
	for i := 0; i < 30; i++ {
		it := designer.Item{"userId": str(fmt.Sprintf("u%03d", i*7%31))}
		if g.chance(85) {
			it["email"] = str(fmt.Sprintf("user%d@example.com", i))
		}
		if g.chance(80) {
			it["team"] = str([]string{"red", "blue", "green"}[g.pick(3)])
			it["joined"] = num(joined.next([]int{0, 5}, false))
		}
		it["name"] = str(g.word())
		if g.chance(80) {
			it["age"] = num(strconv.Itoa(18 + g.pick(50)))
		}
		it["active"] = designer.Boolean(g.chance(60))
		if g.chance(60) {
			it["prefs"] = designer.Map(map[string]designer.Value{"theme": str([]string{"dark", "light"}[g.pick(2)]),
				"notify": designer.Boolean(g.chance(50)), "langs": designer.List(str("en"), str(g.word()))})
		}
		if g.chance(50) {
			it["roles"] = ss("reader", []string{"writer", "admin"}[g.pick(2)])
		}
		list = append(list, it)
	}
	t.Items = items(list)
	return t
}
