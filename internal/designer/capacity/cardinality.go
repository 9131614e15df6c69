package capacity

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
)

// How many distinct values a partition key takes decides how far its load spreads (seed 001,
// "Design for scale"): ORDER#{order_id} has as many values as there are orders, a literal such as
// STATUS or ALL has one, a status or a boolean a handful, and a date or a timestamp takes every new
// item on its newest value. The figure is worked out from what the team wrote — the key templates
// of the table's SK taxonomy, the entities' counts and their relationships' average counts, the
// attributes' types and the sample items — and always says which of them it came from.

// Cardinality is how many distinct values a partition key takes, as far as the design tells.
type Cardinality struct {
	// Values is the number of distinct values; 0 when the design does not tell (Known false).
	Values float64 `json:"values,omitempty"`
	Known  bool    `json:"known"`
	// Increasing is set for a key that grows with time (a date, a timestamp): every new item takes
	// its newest value, so writes land on WriteValues values however many Values there are.
	Increasing bool `json:"increasing,omitempty"`
	// WriteValues is how many values the writes spread over: Values, or for an increasing key the
	// product of its other parts' values (1 when it has none). 0 when not known.
	WriteValues float64 `json:"write_values,omitempty"`
	// Source says for people where the figure came from: "3,000 orders (entity count)",
	// "1 (literal)", "4 distinct values in the sample items".
	Source string `json:"source"`
}

// cardinalities works out the cardinality of partition keys of one design, with its entities'
// counts (declared or derived through relationships) worked out once.
type cardinalities struct {
	d      designer.Design
	counts map[string]entityCount // by entity name
	// attrs are the attributes' cardinalities worked out so far, by table, attribute and entity:
	// a design's hundreds of operations ask for the same few keys, and each answer may read
	// every sample item of its table.
	attrs map[[3]string]Cardinality
	// edits are how tables differ from the revision before, by name, when ComputeFrom knows
	// (facts); nil otherwise.
	edits map[string]*tableChange
	// indexes are the GSIs' keys worked out from templates so far, by table and index (index_templates.go).
	indexes map[[2]string]Cardinality
}

// entityCount is how many items of an entity there are and where that comes from.
type entityCount struct {
	n      float64
	source string
}

func newCardinalities(d designer.Design) *cardinalities {
	return countedCardinalities(d, entityCounts(d))
}

// countedCardinalities is newCardinalities, with the entities' counts (entityCounts) given.
func countedCardinalities(d designer.Design, counts map[string]entityCount) *cardinalities {
	return &cardinalities{d: d, counts: counts, attrs: map[[3]string]Cardinality{}}
}

// TableKeyCardinality is the cardinality of the partition key of table t: from its SK taxonomy's
// partition-key templates when it has them, else from the key attribute.
func TableKeyCardinality(d designer.Design, t designer.Table) Cardinality {
	return newCardinalities(d).table(t, t.EntityTypes)
}

// IndexKeyCardinality is the cardinality of the partition key of index ix of table t: an LSI's is
// the table's; a GSI's is the product of its partition attributes' (up to four).
func IndexKeyCardinality(d designer.Design, t designer.Table, ix designer.Index, local bool) Cardinality {
	c := newCardinalities(d)
	if local {
		return c.table(t, t.EntityTypes)
	}
	return c.index(t, ix)
}

// table is the cardinality of t's partition key over the entity types given (all of the table's,
// or those one operation reads).
func (c *cardinalities) table(t designer.Table, types []designer.EntityType) Cardinality {
	var templates []designer.EntityType
	for _, et := range types {
		if strings.TrimSpace(et.PKTemplate) != "" && !slices.ContainsFunc(templates, func(o designer.EntityType) bool { return o.PKTemplate == et.PKTemplate }) {
			templates = append(templates, et)
		}
	}
	var got Cardinality
	if len(templates) == 0 {
		got = c.attribute(t, t.PartitionKey.Name, "")
	} else {
		// Entity types that share one template (two kinds of item under {emp_no}) share its values.
		got = c.templates(t, templates)
	}
	if !got.Known && !got.Increasing {
		if items, ok := c.oneItemPerKey(t, types); ok {
			return items
		}
	}
	return got
}

// oneItemPerKey is the cardinality of the partition key of a table without a sort key, where each
// item has a partition-key value of its own: as many values as the entities of types have items,
// each entity counted once (SignInKey's 840,000 keys, by email and by handle). ok is false when t
// has a sort key, types name no entity, or one of them has no count.
func (c *cardinalities) oneItemPerKey(t designer.Table, types []designer.EntityType) (Cardinality, bool) {
	if t.SortKey != nil && strings.TrimSpace(t.SortKey.Name) != "" {
		return Cardinality{}, false
	}
	var entities []string
	for _, et := range types {
		if et.Entity != "" && !slices.Contains(entities, et.Entity) {
			entities = append(entities, et.Entity)
		}
	}
	if len(entities) == 0 {
		return Cardinality{}, false
	}
	parts := make([]Cardinality, len(entities))
	for i, e := range entities {
		n, ok := c.counts[e]
		if !ok {
			return Cardinality{}, false
		}
		parts[i] = Cardinality{Values: n.n, Known: true, WriteValues: n.n, Source: n.source}
	}
	got := combine(parts, " + ", func(a, b float64) float64 { return a + b })
	got.Source += "; " + t.Name + " has no sort key, so each item has a partition-key value of its own"
	return got, true
}

// templates is the cardinality of a key built by the templates of several entity types, each
// template once: templates that differ build different values, which add up. That holds when two
// take one attribute's values (CONTRACTOR#{contractor_id} and ITEMS#{contractor_id} are two values
// per contractor, on two partitions), so each part of a sum is named by its template.
func (c *cardinalities) templates(t designer.Table, templates []designer.EntityType) Cardinality {
	parts := make([]Cardinality, len(templates))
	for i, et := range templates {
		parts[i] = c.template(t, et)
		if len(templates) > 1 && parts[i].Known && len(designer.TemplateAttributes(et.PKTemplate)) > 0 {
			parts[i].Source = strings.TrimSpace(et.PKTemplate) + " takes " + parts[i].Source
		}
	}
	return combine(parts, " + ", func(a, b float64) float64 { return a + b })
}

// template is the cardinality of one entity type's partition-key template: a literal has one value;
// placeholders multiply their attributes' values.
func (c *cardinalities) template(t designer.Table, et designer.EntityType) Cardinality {
	attrs := designer.TemplateAttributes(et.PKTemplate)
	if len(attrs) == 0 {
		return literal(et.PKTemplate)
	}
	parts := make([]Cardinality, len(attrs))
	for i, a := range attrs {
		parts[i] = c.attribute(t, a, et.Entity)
	}
	return product(parts)
}

// literal is the cardinality of a template without placeholders: one value.
func literal(tmpl string) Cardinality {
	return Cardinality{Values: 1, Known: true, WriteValues: 1, Source: "1 (literal " + strings.TrimSpace(tmpl) + ")"}
}

// index is the cardinality of a GSI's partition key.
func (c *cardinalities) index(t designer.Table, ix designer.Index) Cardinality {
	if len(ix.PartitionKey) == 0 {
		return Cardinality{Source: "no partition key"}
	}
	parts := make([]Cardinality, len(ix.PartitionKey))
	for i, k := range ix.PartitionKey {
		parts[i] = c.attribute(t, k.Name, "")
		if parts[i] == nothingSays(k.Name) {
			parts[i] = c.indexAttribute(t, ix, k.Name, parts[i])
		}
	}
	return product(parts)
}

// product is the cardinality of a key built from several parts: their values multiply. An
// increasing part leaves the writes on the others' values.
func product(parts []Cardinality) Cardinality {
	return combine(parts, " × ", func(a, b float64) float64 { return a * b })
}

// combine is the cardinality of several parts joined by op (a sum for keys of different
// templates, a product for a key built of several attributes), written with sep between the parts'
// sources. The whole is known when every part is; its writes spread as far as the parts' writes
// do, each increasing part adding its newest value only.
func combine(parts []Cardinality, sep string, op func(a, b float64) float64) Cardinality {
	if len(parts) == 1 {
		return parts[0]
	}
	out := Cardinality{Known: true}
	sources := make([]string, len(parts))
	for i, p := range parts {
		sources[i] = p.Source
		out.Known = out.Known && p.Known
		out.Increasing = out.Increasing || p.Increasing
		if i == 0 {
			out.Values, out.WriteValues = p.Values, p.WriteValues
			continue
		}
		out.Values = op(out.Values, p.Values)
		if out.WriteValues > 0 && p.WriteValues > 0 {
			out.WriteValues = op(out.WriteValues, p.WriteValues)
		} else {
			out.WriteValues = 0
		}
	}
	if !out.Known {
		// What is not known is said once: the first part that is not.
		out.Values = 0
		for _, p := range parts {
			if !p.Known && !p.Increasing {
				out.Source = p.Source
				return out
			}
		}
		out.Source = strings.Join(sources, sep)
		return out
	}
	out.Source = Figure(out.Values) + ": " + strings.Join(sources, sep)
	return out
}

// attribute is the cardinality of one key attribute of table t, used by entity (empty when not
// known): an entity's identifier has as many values as the entity has items; a boolean two; a date
// or a timestamp grows with time; a status, type or kind as many as the sample items show.
func (c *cardinalities) attribute(t designer.Table, name, entity string) Cardinality {
	k := [3]string{t.Name, name, entity}
	if got, ok := c.attrs[k]; ok {
		return got
	}
	got := c.workOut(t, name, entity)
	c.attrs[k] = got
	return got
}

// workOut is attribute, worked out.
func (c *cardinalities) workOut(t designer.Table, name, entity string) Cardinality {
	typ := c.declaredType(t, name, entity)
	if typ == designer.BOOL {
		return Cardinality{Values: 2, Known: true, WriteValues: 2, Source: "2 (" + name + " is a boolean)"}
	}
	e, ok := identifiedEntity(c.d, name)
	via := ""
	if !ok {
		e, via, ok = c.parentReference(t, name, entity)
	}
	if !ok {
		e, ok = c.ownIdentifier(name, entity)
	}
	if ok {
		if n, ok := c.counts[e]; ok {
			return Cardinality{Values: n.n, Known: true, WriteValues: n.n, Source: n.source + via}
		}
		return Cardinality{Source: "not known: " + name + " has as many values as " + e + " has items, and " + e + " has no count"}
	}
	if timeName(name) {
		return increasing(name)
	}
	f := c.facts(t, name)
	if f.dates {
		return increasing(name)
	}
	if categoryName(name) && f.distinct > 0 {
		return Cardinality{Values: float64(f.distinct), Known: true, WriteValues: float64(f.distinct),
			Source: plural(f.distinct, "distinct value") + " of " + name + " in the sample items"}
	}
	if f.held >= minSameSample && f.distinct == 1 {
		return Cardinality{Values: 1, Known: true, WriteValues: 1,
			Source: "1 (every one of the " + strconv.Itoa(f.held) + " sample items has the same " + name + ")"}
	}
	return nothingSays(name)
}

// nothingSays is the cardinality of an attribute nothing in the design counts.
func nothingSays(name string) Cardinality {
	return Cardinality{Source: "not known: nothing says how many values " + name + " takes (an entity count would)"}
}

// minSameSample is how many sample items must all hold one value of an attribute for the key to be
// taken as a constant: fewer could share it by chance.
const minSameSample = 5

// declaredType is the type the table or the entity gives an attribute, or "" when neither does.
func (c *cardinalities) declaredType(t designer.Table, name, entity string) designer.Type {
	if a, _, ok := t.AttributeByName(name); ok {
		return a.Type
	}
	if e, _, ok := c.d.EntityByName(entity); ok {
		if a, _, ok := e.AttributeByName(name); ok {
			return a.Type
		}
	}
	for _, e := range c.d.Entities {
		if a, _, ok := e.AttributeByName(name); ok {
			return a.Type
		}
	}
	return ""
}

// identifiedEntity is the entity an attribute identifies, by its name: order_id and orderId name
// Order; emp_no and dept_no name Employee and Department, whose names hold "emp" and "dept" letter
// by letter from the first. An exact name wins over a prefix and a prefix over such an
// abbreviation; among equals the shortest name (dept_no is Department, not DepartmentManager).
func identifiedEntity(d designer.Design, attr string) (string, bool) {
	stem := idStem(attr)
	if len(stem) < 2 {
		return "", false
	}
	best, bestRank := "", 0
	for _, e := range d.Entities {
		name := strings.ToLower(strings.ReplaceAll(e.Name, "_", ""))
		rank := 0
		switch {
		case name == stem:
			return e.Name, true
		case len(stem) < 3:
		case strings.HasPrefix(name, stem):
			rank = 2
		case name[0] == stem[0] && abbreviates(stem, name):
			rank = 1
		}
		if rank > bestRank || rank > 0 && rank == bestRank && len(e.Name) < len(best) {
			best, bestRank = e.Name, rank
		}
	}
	return best, best != ""
}

// abbreviates reports whether the letters of short appear in long in order.
func abbreviates(short, long string) bool {
	for i := 0; i < len(long) && short != ""; i++ {
		if long[i] == short[0] {
			short = short[1:]
		}
	}
	return short == ""
}

// ownIdentifier is the entity of a key template's entity type when the attribute is that
// entity's first attribute, its identifier as people list them (ImportJob's job_id under
// IMPORT#{job_id}), and its name says so (idStem) and names the entity (namesEntity).
func (c *cardinalities) ownIdentifier(attr, entity string) (string, bool) {
	e, _, ok := c.d.EntityByName(entity)
	stem := idStem(attr)
	if !ok || len(e.Attributes) == 0 || e.Attributes[0].Name != attr || stem == "" || !namesEntity(stem, e.Name) {
		return "", false
	}
	return e.Name, true
}

// namesEntity reports whether an identifier's stem (idStem) is a word of the entity's name, starts
// with it or abbreviates it: "job" for ImportJob, "follower" for Follow, "msg" for Message; but not
// "thread" for DirectMessage, whose first attribute thread_id names the conversation many messages
// share.
func namesEntity(stem, entity string) bool {
	name := strings.ToLower(strings.ReplaceAll(entity, "_", ""))
	return name != "" && (strings.Contains(name, stem) || strings.HasPrefix(stem, name) || name[0] == stem[0] && abbreviates(stem, name))
}

// parentReference is the entity whose identifiers attribute name holds in the items of entity,
// when name shares the entity type's key with other placeholders, so that many of the entity's
// items take one of its values (Follow's {follower_id} beside {followee_id}), and the entity has one
// parent through a 1:M relationship (Member 1:M Follow): such items are grouped by their parent, and
// the key takes as many values as the parent has items, not as the entity (19,000,000 follows have
// at most 420,000 followers). A sample value built of parts (m_ana#m_bo) is no one parent's
// identifier. via says so for the figure's source.
func (c *cardinalities) parentReference(t designer.Table, name, entity string) (parent, via string, ok bool) {
	if entity == "" || idStem(name) == "" {
		return "", "", false
	}
	others, ok := keyNeighbours(t, name, entity)
	if !ok {
		return "", "", false
	}
	for _, r := range c.d.Relationships {
		if r.To != entity || r.Kind != designer.OneToMany || r.From == parent {
			continue
		}
		if parent != "" {
			return "", "", false // two parents: the design does not say which one name holds
		}
		parent = r.From
	}
	if parent == "" || parent == entity || c.facts(t, name).parts {
		return "", "", false
	}
	for _, o := range others {
		if e, ok := identifiedEntity(c.d, o); ok && e == parent {
			return "", "", false // the parent has its own placeholder: LINE#{order_id}#{line_no}
		}
	}
	return parent, "; " + name + " names the " + words(parent) + " of each " + words(entity) + " (" + parent + " 1:M " + entity + ")", true
}

// keyNeighbours are the other placeholders of the key templates of entity's entity type in t that
// has attribute name as one; ok is false when there is no such entity type or no other placeholder.
func keyNeighbours(t designer.Table, name, entity string) (others []string, ok bool) {
	for _, et := range t.EntityTypes {
		if et.Entity != entity {
			continue
		}
		attrs := append(designer.TemplateAttributes(et.PKTemplate), designer.TemplateAttributes(et.SKTemplate)...)
		if slices.Contains(attrs, name) {
			others = slices.DeleteFunc(attrs, func(a string) bool { return a == name })
			if len(others) > 0 {
				return others, true
			}
		}
	}
	return nil, false
}

// idSuffixes end the name of an attribute that identifies an entity.
var idSuffixes = []string{"_id", "_no", "_number", "_num", "_code", "_key", "id", "no"}

// idStem is an identifier attribute's name without its suffix and separators, in lower case
// ("order_id", "OrderId" and "orderID" are "order"); "" when the name has no such suffix.
func idStem(attr string) string {
	lower := strings.ToLower(attr)
	for _, suf := range idSuffixes {
		if rest, ok := strings.CutSuffix(lower, suf); ok && rest != "" {
			// "id" and "no" without a separator must start a new word: orderId, not "video".
			if !strings.HasPrefix(suf, "_") {
				at := len(rest)
				if !(unicode.IsUpper(rune(attr[at])) || strings.HasSuffix(rest, "_")) {
					continue
				}
			}
			return strings.ReplaceAll(strings.TrimSuffix(rest, "_"), "_", "")
		}
	}
	return ""
}

// entityCounts are the entities' counts: those the team gave, and through 1:1 and 1:M relationships
// with an average count, the others' (a parent's count times the children per parent, or a
// child's count over it).
func entityCounts(d designer.Design) map[string]entityCount {
	counts := map[string]entityCount{}
	for _, e := range d.Entities {
		if n, ok := declaredCount(e); ok {
			from := " (entity count)"
			if e.CountFrom != "" {
				from = " (entity count, " + e.CountFrom + ")"
			}
			counts[e.Name] = entityCount{n: n, source: Figure(n) + " " + pluralWords(e.Name, n) + from}
		}
	}
	for range d.Relationships {
		grew := false
		for _, r := range d.Relationships {
			if r.Avg == nil || *r.Avg <= 0 || r.Kind != designer.OneToMany && r.Kind != designer.OneToOne {
				continue
			}
			from, fromOK := counts[r.From]
			to, toOK := counts[r.To]
			switch {
			case fromOK && !toOK:
				n := upTo(math.Round(from.n * *r.Avg))
				counts[r.To] = entityCount{n: n, source: Figure(n) + " " + pluralWords(r.To, n) + " (" +
					Figure(from.n) + " " + pluralWords(r.From, from.n) + " × " + Figure(*r.Avg) + " per " + words(r.From) + ")"}
				grew = true
			case toOK && !fromOK:
				n := upTo(math.Max(1, math.Round(to.n / *r.Avg)))
				counts[r.From] = entityCount{n: n, source: Figure(n) + " " + pluralWords(r.From, n) + " (" +
					Figure(to.n) + " " + pluralWords(r.To, to.n) + " ÷ " + Figure(*r.Avg) + " per " + words(r.From) + ")"}
				grew = true
			}
		}
		if !grew {
			break
		}
	}
	return counts
}

// declaredCount is the number of items the team says an entity has.
func declaredCount(e designer.Entity) (float64, bool) {
	if e.Count == nil {
		return 0, false
	}
	return upTo(float64(*e.Count)), true
}

// increasing is the cardinality of a date or a time.
func increasing(name string) Cardinality {
	return Cardinality{Increasing: true, WriteValues: 1, Source: name + " is a date or time: new items take its newest value"}
}

// sampleFacts are what a table's sample items say of one attribute: how many hold it as a
// scalar (held), with how many distinct values, whether every one of them is written as a date,
// and whether some value is built of parts joined by # (m_ana#m_bo).
type sampleFacts struct {
	held, distinct int
	dates, parts   bool
}

// facts remembers sampleFacts across the revisions of every design, so that an edit elsewhere does
// not read a table's thousands of items again.
var facts itemsCache[sampleFacts]

// factsOf is what t's sample items say of attribute name.
func factsOf(t designer.Table, name string) sampleFacts {
	if len(t.Items) == 0 {
		return sampleFacts{}
	}
	k := keyOfItems(t.Items, name)
	if f, ok := facts.get(k); ok {
		return f
	}
	f := readFacts(t, name)
	facts.put(k, f)
	return f
}

// readFacts reads sampleFacts from the items.
func readFacts(t designer.Table, name string) sampleFacts {
	f := sampleFacts{dates: true}
	seen := map[string]bool{}
	for _, it := range t.Items {
		v, ok := it.Item[name]
		if !ok {
			continue
		}
		var text string
		switch v.Type {
		case designer.S, designer.N:
			text = v.S
		case designer.B, designer.BOOL:
			text = designer.FormatCell(v)
		default:
			continue
		}
		f.held++
		f.dates = f.dates && dateText(text)
		f.parts = f.parts || strings.Contains(text, "#")
		if !seen[text] {
			seen[text] = true
			f.distinct++
		}
	}
	f.dates = f.dates && f.held > 0
	return f
}

// categoryWords name attributes that take a few values from a fixed set.
var categoryWords = []string{"status", "state", "type", "kind", "category", "tier", "level", "gender",
	"priority", "stage", "phase", "role", "plan", "flag", "bucket"}

// categoryName reports whether an attribute's name says it holds one of a few values.
func categoryName(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasPrefix(lower, "is_") || strings.HasPrefix(lower, "has_") {
		return true
	}
	for _, w := range nameWords(name) {
		if slices.Contains(categoryWords, w) {
			return true
		}
	}
	return false
}

// timeWords name attributes that hold a date or a time.
var timeWords = []string{"date", "time", "timestamp", "ts", "day", "month", "year", "hour", "minute", "week", "at", "on", "created", "updated"}

// timeName reports whether an attribute's name says it holds a date or a time: created_at,
// order_date, eventTime, shipped_on.
func timeName(name string) bool {
	ws := nameWords(name)
	for i, w := range ws {
		// "at" and "on" only end a name (created_at, shipped_on): "on" alone starts others.
		if (w == "at" || w == "on") && (i != len(ws)-1 || i == 0) {
			continue
		}
		if slices.Contains(timeWords, w) {
			return true
		}
	}
	return false
}

// dateText reports whether a value is written as a date or a timestamp (2026-11-26, 2026-11,
// 2026-11-26T01:30:00Z).
func dateText(v string) bool {
	return len(v) >= 7 && v[4] == '-' && digits(v[:4]) && digits(v[5:7])
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !designer.IsDigit(s[i]) {
			return false
		}
	}
	return true
}

// nameWords splits an attribute name into lower-case words at underscores, hyphens and case
// changes: "orderDate" and "order_date" are both [order date].
func nameWords(name string) []string {
	var words []string
	var cur strings.Builder
	runes := []rune(name)
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	for i, r := range runes {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '#':
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1])):
			flush()
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return words
}

// words is an entity's name as words for a sentence: SalaryRecord is "salary record".
func words(entity string) string {
	return strings.Join(nameWords(entity), " ")
}

// pluralWords is an entity's name as words, in the plural unless n is 1: "salary records".
func pluralWords(entity string, n float64) string {
	w := words(entity)
	if n == 1 || w == "" {
		return w
	}
	switch {
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// plural is "1 distinct value" or "4 distinct values".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Figure(float64(n)) + " " + noun + "s"
}

// Figure writes a count or a rate for people: thousands separated (3,000; 1,234.57), at most two
// decimals from 1 up, three significant digits below (0.4, 0.00333).
func Figure(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) >= 1e15 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if v != 0 && math.Abs(v) < 1 {
		return strconv.FormatFloat(roundSignificant(v, 3), 'f', -1, 64)
	}
	return designer.GroupThousands(v)
}

// roundSignificant rounds v to n significant digits.
func roundSignificant(v float64, n int) float64 {
	scale := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}
