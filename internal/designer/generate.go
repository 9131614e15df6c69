package designer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Generator says how to make up sample values for one attribute.
//
//	name      a person's name, "Ada Lovelace"
//	email     an address at a reserved example domain, "ada.lovelace@example.com"
//	date      a time between Min and Max, given as Unix seconds (default 2020-01-01 to the end of
//	          2025), written as RFC 3339 UTC text, or as the seconds when the attribute is a number
//	number    a number between Min and Max inclusive (default 0 to 1000): a whole number when both
//	          bounds are whole, else one with two decimals
//	one_of    one of Values, read as the attribute's declared type, else inferred as a cell is; an
//	          empty value leaves the attribute out, which makes sparse attributes
//	template  Template filled from the item's other attributes (FillTemplate), after every other
//	          generator has run; left out when an attribute it names is missing
//	uuid      a random version 4 UUID
//	text      between Min and Max words (default 3 to 8) of placeholder Latin
//
// A generator of another kind produces nothing.
type Generator struct {
	Kind     string   `json:"kind"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Values   []string `json:"values,omitempty"`
	Template string   `json:"template,omitempty"`
}

// generatorKinds lists the kinds of Generator, in the order a menu offers them.
var generatorKinds = []string{"name", "email", "date", "number", "one_of", "template", "uuid", "text"}

// genStream is the second PCG seed; the caller's seed is the first. Any constant works; this one
// keeps the stream apart from a PCG seeded (seed, 0) elsewhere.
const genStream = 0x9E3779B97F4A7C15

// Default ranges of the date and number generators.
const (
	genDateMin = 1577836800 // 2020-01-01T00:00:00Z
	genDateMax = 1767225599 // 2025-12-31T23:59:59Z
)

// GenerateItems makes count sample items for table t from the generators, keyed by attribute name.
// The same table, generators, count and seed always give the same items. Generators run in
// attribute name order, template generators last; then each key attribute of the table or its
// indexes that has no generator gets a default, and so does a table key whose generator made
// nothing (an empty one_of value, a template missing an attribute):
//
//   - a table key whose entity type (the table's entity types taken in turn, item by item) has a
//     template for it: the template filled from the item, a placeholder the item lacks taking the
//     item's number (USER#{user_id} → USER#7);
//   - otherwise a number key: the item's number (1, 2, …); a string key: NAME#n, NAME being the
//     entity type's name, else the attribute's, in capitals; a binary key: the bytes of that text.
//     An index partition key cycles through one value per five items, so that index partitions
//     hold several items.
func GenerateItems(t Table, gens map[string]Generator, count int, seed uint64) []Item {
	rng := rand.New(rand.NewPCG(seed, genStream))
	var direct, templates []string
	for name, g := range gens {
		if g.Kind == "template" {
			templates = append(templates, name)
		} else {
			direct = append(direct, name)
		}
	}
	slices.Sort(direct)
	slices.Sort(templates)
	declared := make(map[string]Type, len(gens))
	for name := range gens {
		declared[name] = tableAttributeType(t, name)
	}
	keys := genKeyDefaults(t, gens)
	var entityTypes []EntityType
	for _, et := range t.EntityTypes {
		if et.PKTemplate != "" || et.SKTemplate != "" {
			entityTypes = append(entityTypes, et)
		}
	}
	if entityTypes == nil && len(t.EntityTypes) > 0 {
		entityTypes = t.EntityTypes
	}

	items := make([]Item, 0, max(count, 0))
	for i := range max(count, 0) {
		it := make(Item, len(gens)+len(keys))
		for _, name := range direct {
			if v, ok := genValue(rng, gens[name], declared[name]); ok {
				it[name] = v
			}
		}
		pending := genFillTemplates(it, templates, gens, declared)
		var et *EntityType
		if len(entityTypes) > 0 {
			et = &entityTypes[i%len(entityTypes)]
		}
		for _, k := range keys {
			if _, ok := it[k.attr.Name]; !ok && !k.generated {
				it[k.attr.Name] = genKeyDefault(k, et, it, i, count)
			}
		}
		genFillTemplates(it, pending, gens, declared)
		// A table key is never left out: an item without one could not exist.
		for _, k := range keys {
			if _, ok := it[k.attr.Name]; !ok && (k.tablePK || k.tableSK) {
				it[k.attr.Name] = genKeyDefault(k, et, it, i, count)
			}
		}
		items = append(items, it)
	}
	return items
}

// genKey is a key attribute that may need a default, and which key it is.
type genKey struct {
	attr      KeyAttribute
	tablePK   bool
	tableSK   bool
	partition bool // an index partition key
	generated bool // a generator fills it
}

func genKeyDefaults(t Table, gens map[string]Generator) []genKey {
	var keys []genKey
	add := func(k genKey) {
		if k.attr.Name == "" {
			return
		}
		_, k.generated = gens[k.attr.Name]
		for _, seen := range keys {
			if seen.attr.Name == k.attr.Name {
				return
			}
		}
		keys = append(keys, k)
	}
	add(genKey{attr: t.PartitionKey, tablePK: true})
	if t.SortKey != nil {
		add(genKey{attr: *t.SortKey, tableSK: true})
	}
	for _, indexes := range [][]Index{t.GSIs, t.LSIs} {
		for _, ix := range indexes {
			for _, k := range ix.PartitionKey {
				add(genKey{attr: k, partition: true})
			}
			for _, k := range ix.SortKey {
				add(genKey{attr: k})
			}
		}
	}
	return keys
}

func genKeyDefault(k genKey, et *EntityType, it Item, i, count int) Value {
	n := i + 1
	if k.partition {
		n = i%max(1, (count+4)/5) + 1
	}
	number := strconv.Itoa(n)
	if et != nil {
		tmpl := ""
		switch {
		case k.tablePK:
			tmpl = et.PKTemplate
		case k.tableSK:
			tmpl = et.SKTemplate
		}
		if tmpl != "" && k.attr.Type != N && k.attr.Type != B {
			filled := make(Item, len(it))
			for _, name := range TemplateAttributes(tmpl) {
				if v, ok := it[name]; ok {
					filled[name] = v
				} else {
					filled[name] = Num(number)
				}
			}
			if s, ok := FillTemplate(tmpl, filled); ok {
				return Str(s)
			}
		}
	}
	prefix := k.attr.Name
	if et != nil && (k.tablePK || k.tableSK) && et.Entity != "" {
		prefix = et.Entity
	}
	text := strings.ToUpper(prefix) + "#" + number
	switch k.attr.Type {
	case N:
		return Num(number)
	case B:
		return Bin([]byte(text))
	}
	return Str(text)
}

// genFillTemplates fills the template attributes it can, in passes so that a template may name
// another template's attribute, and returns those it could not fill.
func genFillTemplates(it Item, names []string, gens map[string]Generator, declared map[string]Type) []string {
	for len(names) > 0 {
		var rest []string
		for _, name := range names {
			if s, ok := FillTemplate(gens[name].Template, it); ok {
				it[name] = genTyped(s, declared[name], S)
			} else {
				rest = append(rest, name)
			}
		}
		if len(rest) == len(names) {
			return rest
		}
		names = rest
	}
	return nil
}

// genValue makes one value; false leaves the attribute out.
func genValue(rng *rand.Rand, g Generator, declared Type) (Value, bool) {
	switch g.Kind {
	case "name":
		return genTyped(genPick(rng, genFirstNames)+" "+genPick(rng, genLastNames), declared, S), true
	case "email":
		first, last := genPick(rng, genFirstNames), genPick(rng, genLastNames)
		local := genEmailFold.Replace(strings.ToLower(first + "." + last))
		return genTyped(local+"@"+genPick(rng, genDomains), declared, S), true
	case "date":
		lo, hi := genBounds(g, genDateMin, genDateMax)
		sec := int64(lo) + rng.Int64N(int64(hi-lo)+1)
		if declared == N {
			return Num(strconv.FormatInt(sec, 10)), true
		}
		return genTyped(time.Unix(sec, 0).UTC().Format(time.RFC3339), declared, S), true
	case "number":
		lo, hi := genBounds(g, 0, 1000)
		var text string
		if lo == math.Trunc(lo) && hi == math.Trunc(hi) && hi-lo < 1<<62 {
			text = strconv.FormatFloat(lo+float64(rng.Int64N(int64(hi-lo)+1)), 'f', 0, 64)
		} else {
			text = strconv.FormatFloat(lo+rng.Float64()*(hi-lo), 'f', 2, 64)
		}
		return genTyped(text, declared, N), true
	case "one_of":
		if len(g.Values) == 0 {
			return Value{}, false
		}
		text := g.Values[rng.IntN(len(g.Values))]
		if text == "" {
			return Value{}, false
		}
		return genTyped(text, declared, ""), true
	case "uuid":
		return genTyped(genUUID(rng), declared, S), true
	case "text":
		lo, hi := genBounds(g, 3, 8)
		lo, hi = math.Max(1, math.Min(lo, genMaxWords)), math.Max(1, math.Min(hi, genMaxWords))
		n := int(lo) + rng.IntN(int(hi)-int(lo)+1)
		words := make([]string, n)
		for i := range words {
			words[i] = genPick(rng, genWords)
		}
		return genTyped(strings.Join(words, " "), declared, S), true
	}
	return Value{}, false
}

// genBounds returns the generator's range, defaults filled in, low end first, within what an
// int64 holds so that the integer draws cannot overflow.
func genBounds(g Generator, lo, hi float64) (float64, float64) {
	const limit = 1 << 60
	if g.Min != nil && !math.IsNaN(*g.Min) {
		lo = math.Max(-limit, math.Min(limit, *g.Min))
	}
	if g.Max != nil && !math.IsNaN(*g.Max) {
		hi = math.Max(-limit, math.Min(limit, *g.Max))
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	return lo, hi
}

// genTyped turns generated text into a value of the attribute's declared type, else of the
// generator's natural type, else (natural "") of the type InferCell sees. Text the declared type
// cannot hold stays a string, for validation to point out.
func genTyped(text string, declared, natural Type) Value {
	t := declared
	if t == "" {
		t = natural
	}
	switch t {
	case "":
		return InferCell(text)
	case B:
		return Bin([]byte(text))
	}
	if v, err := ParseCell(text, t); err == nil {
		return v
	}
	return Str(text)
}

func genPick(rng *rand.Rand, list []string) string { return list[rng.IntN(len(list))] }

func genUUID(rng *rand.Rand) string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		u := rng.Uint64()
		for j := range 8 {
			b[i+j] = byte(u >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

var genFirstNames = []string{
	"Ada", "Alan", "Amara", "Ana", "Arjun", "Bea", "Carlos", "Chen", "Dana", "Elif",
	"Emeka", "Farah", "Grace", "Hana", "Ivan", "Jonas", "Kavya", "Leila", "Liam", "Lucia",
	"Mateo", "Mei", "Nadia", "Noah", "Olu", "Priya", "Quinn", "Rosa", "Sami", "Sofia",
	"Tariq", "Uma", "Victor", "Wen", "Yara", "Zoe",
}

var genLastNames = []string{
	"Adeyemi", "Almeida", "Bauer", "Chen", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Haddad",
	"Ito", "Jensen", "Kim", "Kowalski", "Lovelace", "Müller", "Nakamura", "Novak", "Okafor", "Patel",
	"Quispe", "Rossi", "Santos", "Schmidt", "Silva", "Singh", "Tanaka", "Turing", "Ueda", "Van Dijk",
	"Wang", "Yilmaz", "Zhang",
}

// genEmailFold keeps generated addresses ASCII and without spaces.
var genEmailFold = strings.NewReplacer(" ", "", "í", "i", "ü", "u")

// genMaxWords bounds the text generator, whatever its Max says.
const genMaxWords = 200

// genDomains are the domains RFC 2606 reserves for examples, so that no generated address is real.
var genDomains = []string{
	"example.com", "example.org", "example.net", "mail.example.com", "shop.example.org", "corp.example.net",
}

var genWords = []string{
	"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
	"eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
	"ad", "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip",
	"ex", "ea", "commodo", "consequat", "duis", "aute", "irure", "in", "reprehenderit", "voluptate",
}
