package reqmd

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The scale a requirement states in its prose and relationships becomes its entities' counts,
// growth and retention: "40,000 owners", "120 clinics, ~960 vets", "about 2 million orders" are
// counts; "avg 1.6 pets per owner" the average of Owner 1:M Pet; "4 appointments per pet per year"
// and "300 new owners per day" growth; "kept 7 years" and "deleted after 90 days" retention, of the
// entity named last before it on its line. An entity the document does not count gets its
// parent's count times the average of their 1:M relationship, or its growth over its retention.
// Each figure says where it was read from.

// scaleNoun is an entity a word names, and whether the word is its plural.
type scaleNoun struct {
	entity string
	plural bool
}

// rate is a growth the prose states: n new items of entity per unit, per item of parent if set.
type rate struct {
	entity, parent, unit string
	n                    float64
	from                 string
	line                 int
}

// scaleReader reads one document's scale.
type scaleReader struct {
	p     *parser
	nouns map[string]scaleNoun // by one- or two-word lower-case form
	d     *designer.Design
	rates []rate
	// grewAt is the line each entity's growth was read on.
	grewAt map[string]int
}

// from is where a figure of the appendix of entities came from: the source written after it, else
// its line.
func (p *parser) from(written string, line int) string {
	if written != "" || p.listed {
		return written
	}
	return "read from: " + titleEntities + ", line " + strconv.Itoa(line)
}

// listsScale reports whether the document's appendix of entities is Dynaloom's, which lists every
// figure of each entity's scale: then none is read from the prose.
func (p *parser) listsScale() bool {
	for _, b := range p.blocks {
		if b.kind != blockEntities {
			continue
		}
		for _, it := range b.items {
			for _, l := range it.Lines {
				l = strings.TrimSpace(l)
				if l == entitiesIntro[0] || l == oldEntitiesIntro[0] {
					return true
				}
			}
		}
	}
	return false
}

// readScale reads the scale of every line of the document outside the access patterns and the
// checklist into d, then works out the counts and growth the document does not state.
func (p *parser) readScale(d *designer.Design) {
	if p.listed {
		return
	}
	r := &scaleReader{p: p, d: d, nouns: map[string]scaleNoun{}, grewAt: map[string]int{}}
	for _, e := range d.Entities {
		w := entityWords(e.Name)
		if w == "" {
			continue
		}
		for _, form := range []scaleNoun{{e.Name, false}, {e.Name, true}} {
			k := w
			if form.plural {
				k = pluralOf(w)
			}
			if _, taken := r.nouns[k]; !taken {
				r.nouns[k] = form
			}
		}
	}
	if len(r.nouns) == 0 {
		return
	}
	for _, b := range p.blocks {
		if b.kind == blockPatterns || b.kind == blockChecklist {
			continue
		}
		section := b.title
		if b.kind == blockPreamble {
			section = "the text before the first heading"
		}
		for _, it := range b.items {
			if it.Kind == markdown.KindTable {
				continue
			}
			lines := it.Raw
			if lines == nil {
				lines = it.Lines
			}
			for j, l := range lines {
				r.line(l, section, it.Line+j)
			}
		}
	}
	r.derive()
}

// line reads the scale one line states.
func (r *scaleReader) line(l, section string, n int) {
	if strings.Contains(strings.ToLower(l), expectedItems[:8]) {
		return // the appendix's own figures, read with their entity
	}
	from := "read from: " + section + ", line " + strconv.Itoa(n)
	tokens := strings.Fields(l)
	last := "" // the entity named last on the line
	for i := 0; i < len(tokens); i++ {
		if e, _, ok := r.noun(tokens, i); ok {
			last = e.entity
		}
		if v, unit, width, ok := retention(tokens, i); ok {
			if last == "" {
				r.p.note(n, "%q names no entity before it; the retention was not read", strings.Join(tokens[i:i+width], " "))
			} else if e := r.entity(last); e.Retention == nil {
				e.Retention, e.RetentionUnit, e.RetentionFrom = &v, unit, from
				r.p.note(n, "read %s as the retention of %s", designer.FormatPeriod(v, unit), last)
			}
			i += width - 1
			continue
		}
		v, ok := number(tokens, i)
		if !ok || qualified(tokens, i) {
			continue
		}
		start, at := i, i+1
		if mult(tokens, at) {
			at++
		}
		noun, width, ok := r.countedNoun(tokens, at, v)
		if !ok {
			continue
		}
		last = noun
		parent, unit, used := r.per(tokens, at+width)
		i = at + width + used - 1
		phrase := trimPhrase(strings.Join(tokens[start:i+1], " "))
		// What the number counts, as written: "vets per clinic", "appointments per pet per year".
		counted := trimPhrase(strings.Join(tokens[at:i+1], " "))
		switch {
		case unit != "":
			r.rates = append(r.rates, rate{entity: noun, parent: parent, unit: unit, n: v, from: from + " (" + phrase + ")", line: n})
			r.p.note(n, "read %q as a growth of %s", phrase, noun)
			if parent != "" {
				r.ratio(parent, noun, v, counted, n)
			}
		case parent != "":
			r.ratio(parent, noun, v, counted, n)
		case subset(tokens, i+1):
			// "10,000 appointments are open": some of them, in a state, not how many there are; a
			// sparse index of those in the state holds as many.
			state := word(tokens[i+2])
			e := r.entity(noun)
			if v == math.Trunc(v) && v <= designer.MaxNumber && !slices.ContainsFunc(e.InState, func(sc designer.StateCount) bool { return sc.State == state }) {
				e.InState = append(e.InState, designer.StateCount{State: state, Count: int64(v), From: from})
			}
			r.p.note(n, "read %q as how many %s are %s at a time, not as how many there are", phrase+" "+strings.Join(tokens[i+1:i+3], " "), pluralOf(entityWords(noun)), state)
		default:
			if e := r.entity(noun); e.Count == nil && v == math.Trunc(v) && v <= designer.MaxNumber {
				c := int64(v)
				e.Count, e.CountFrom = &c, from
				r.p.note(n, "read %s as the count of %s", strconv.FormatInt(c, 10), noun)
			}
		}
	}
}

// subset reports whether tokens[at:] say the counted items are in a state ("are open", "is
// due"), which a past participle ("are registered", "are kept") is not.
func subset(tokens []string, at int) bool {
	if at+1 >= len(tokens) {
		return false
	}
	v, state := word(tokens[at]), word(tokens[at+1])
	return (v == "are" || v == "is") && state != "" && !strings.HasSuffix(state, "ed")
}

// ratio sets the average of parent 1:M child, counted in unit as the document writes it ("vets
// per clinic", "appointments per pet per year"), when the document gave it none.
func (r *scaleReader) ratio(parent, child string, v float64, unit string, line int) {
	if _, _, err := designer.ParseCount(designer.FormatCount(&v, unit), false); err != nil {
		unit = ""
	}
	for i := range r.d.Relationships {
		rel := &r.d.Relationships[i]
		if rel.From == parent && rel.To == child && rel.Kind == designer.OneToMany && rel.Avg == nil {
			rel.Avg, rel.AvgUnit = &v, unit
			r.p.note(line, "read %s as the average of %s 1:M %s", designer.FormatCount(&v, unit), parent, child)
			return
		}
	}
}

// entity is the entity of d named name.
func (r *scaleReader) entity(name string) *designer.Entity {
	for i := range r.d.Entities {
		if r.d.Entities[i].Name == name {
			return &r.d.Entities[i]
		}
	}
	return &designer.Entity{} // not reached: nouns name entities of d
}

// noun is the entity tokens[i] (and tokens[i+1], for a two-word name) names, with how many words
// it takes.
func (r *scaleReader) noun(tokens []string, i int) (scaleNoun, int, bool) {
	if i >= len(tokens) {
		return scaleNoun{}, 0, false
	}
	if i+1 < len(tokens) {
		if n, ok := r.nouns[word(tokens[i])+" "+word(tokens[i+1])]; ok {
			return n, 2, true
		}
	}
	n, ok := r.nouns[word(tokens[i])]
	return n, 1, ok
}

// countedNoun is the entity the words after a number v name: "owners", "pet owners" (a word
// before the plural), "medical records"; a plural unless v is 1.
func (r *scaleReader) countedNoun(tokens []string, at int, v float64) (string, int, bool) {
	fits := func(n scaleNoun) bool { return n.plural || v == 1 }
	if n, w, ok := r.noun(tokens, at); ok && fits(n) {
		return n.entity, w, true
	}
	if at+1 < len(tokens) && !stopWord(word(tokens[at])) && !strings.ContainsAny(tokens[at], ",;.") {
		if n, w, ok := r.noun(tokens, at+1); ok && fits(n) {
			return n.entity, w + 1, true
		}
	}
	return "", 0, false
}

// per reads what follows a counted noun: "per pet per year", "per day", "a month", "/day",
// "per owner". parent is the entity counted per, unit the unit of time, used the words taken.
func (r *scaleReader) per(tokens []string, at int) (parent, unit string, used int) {
	for k := 0; k < 2 && at+used+1 < len(tokens); k++ {
		w := word(tokens[at+used])
		if w != "per" && w != "a" && w != "an" && w != "each" && w != "every" {
			break
		}
		next := tokens[at+used+1]
		if u, ok := designer.TimeUnit(word(next)); ok && unit == "" {
			unit, used = u, used+2
			continue
		}
		if n, width, ok := r.noun(tokens, at+used+1); ok && parent == "" && (w == "per" || w == "each") && !n.plural {
			parent, used = n.entity, used+1+width
			continue
		}
		break
	}
	return parent, unit, used
}

// derive works out, in rounds until nothing changes, the counts of entities the document does not
// count (parent × average, or growth × retention) and the growth of rates per parent.
func (r *scaleReader) derive() {
	byName := map[string]*designer.Entity{}
	for i := range r.d.Entities {
		byName[r.d.Entities[i].Name] = &r.d.Entities[i]
	}
	// A relationship's average counted per a unit of time ("avg 4 per year") is a rate too.
	for i, rel := range r.d.Relationships {
		if rel.Kind != designer.OneToMany || rel.Avg == nil {
			continue
		}
		f := strings.Fields(rel.AvgUnit)
		if len(f) >= 2 && f[len(f)-2] == "per" {
			if u, ok := designer.TimeUnit(f[len(f)-1]); ok {
				r.rates = append(r.rates, rate{entity: rel.To, parent: rel.From, unit: u, n: *rel.Avg,
					from: "relationship " + rel.From + " 1:M " + rel.To + " (avg " + designer.FormatCount(rel.Avg, rel.AvgUnit) + ")", line: r.relLine(i)})
			}
		}
	}
	done := make([]bool, len(r.rates))
	for range len(r.d.Entities) + 1 {
		grew := false
		for i, rt := range r.rates {
			e := byName[rt.entity]
			if done[i] || e == nil || e.Growth != nil {
				done[i] = true
				continue
			}
			n, source := rt.n, rt.from
			if rt.parent != "" {
				p := byName[rt.parent]
				if p == nil || p.Count == nil {
					continue
				}
				n = rt.n * float64(*p.Count)
				source += " × " + figure(float64(*p.Count)) + " " + pluralOf(entityWords(p.Name))
			}
			if n > designer.MaxNumber {
				done[i] = true
				continue
			}
			e.Growth, e.GrowthUnit, e.GrowthFrom = &n, rt.unit, source
			r.grewAt[e.Name] = rt.line
			done[i], grew = true, true
		}
		for i, rel := range r.d.Relationships {
			p, c := byName[rel.From], byName[rel.To]
			if _, timed := timeUnitOf(rel.AvgUnit); timed || rel.Kind != designer.OneToMany || rel.Avg == nil ||
				p == nil || c == nil || p.Count == nil || c.Count != nil {
				continue
			}
			v := math.Round(float64(*p.Count) * *rel.Avg)
			if v > designer.MaxNumber {
				continue
			}
			n := int64(v)
			c.Count = &n
			c.CountFrom = "derived: " + figure(float64(*p.Count)) + " " + pluralOf(entityWords(p.Name)) + " × " +
				strconv.FormatFloat(*rel.Avg, 'f', -1, 64) + " " + pluralOf(entityWords(c.Name)) + " per " + entityWords(p.Name) +
				" (" + p.Name + " 1:M " + c.Name + ")"
			r.p.note(r.relLine(i), "worked out %d as the count of %s: %s", n, c.Name, c.CountFrom)
			grew = true
		}
		for i, rel := range r.d.Relationships {
			p, c := byName[rel.From], byName[rel.To]
			if rel.Kind != designer.OneToOne || p == nil || c == nil || c.Count != nil {
				continue
			}
			if c.Retention != nil {
				// Kept for a time of its own: it grows as its parent does, and its retention counts it.
				if p.Growth != nil && c.Growth == nil {
					g := *p.Growth
					c.Growth, c.GrowthUnit = &g, p.GrowthUnit
					c.GrowthFrom = "derived: one " + entityWords(c.Name) + " per " + entityWords(p.Name) + " (" + p.Name + " 1:1 " + c.Name + ")"
					r.grewAt[c.Name] = r.relLine(i)
					grew = true
				}
				continue
			}
			if p.Count == nil {
				continue
			}
			n := *p.Count
			c.Count = &n
			c.CountFrom = "derived: one " + entityWords(c.Name) + " per " + entityWords(p.Name) + " (" + p.Name + " 1:1 " + c.Name + ")"
			r.p.note(r.relLine(i), "worked out %d as the count of %s: %s", n, c.Name, c.CountFrom)
			grew = true
		}
		for i := range r.d.Entities {
			e := &r.d.Entities[i]
			yearly, ok := e.GrowthPerYear()
			years, kept := e.RetentionYears()
			if e.Count != nil || !ok || !kept || yearly*years > designer.MaxNumber {
				continue
			}
			n := int64(math.Round(yearly * years))
			e.Count = &n
			e.CountFrom = "derived: " + figure(yearly) + " " + pluralOf(entityWords(e.Name)) + " per year × " +
				designer.FormatPeriod(*e.Retention, e.RetentionUnit) + " kept"
			r.p.note(r.grewAt[e.Name], "worked out %d as the count of %s: %s", n, e.Name, e.CountFrom)
			grew = true
		}
		if !grew {
			break
		}
	}
}

// relLine is the line relationship i was read on.
func (r *scaleReader) relLine(i int) int {
	if i < len(r.p.relLines) {
		return r.p.relLines[i]
	}
	return 0
}

// timeUnitOf is the unit of time a relationship's unit ends with ("per year").
func timeUnitOf(unit string) (string, bool) {
	f := strings.Fields(unit)
	if len(f) == 0 {
		return "", false
	}
	return designer.TimeUnit(f[len(f)-1])
}

// retention reads "kept 7 years", "kept for 7 years", "retained 90 days", "deleted after 90
// days", "expire after 30 days", "TTL of 30 days", "retention of 7 years" at tokens[i].
func retention(tokens []string, i int) (float64, string, int, bool) {
	w := word(tokens[i])
	at := i + 1
	switch w {
	case "kept", "keep", "keeps", "retained", "retain", "retains", "stored", "held":
		if at < len(tokens) && word(tokens[at]) == "for" {
			at++
		}
	case "deleted", "purged", "removed", "expire", "expires", "expired", "expiring", "dropped":
		if at >= len(tokens) || word(tokens[at]) != "after" {
			return 0, "", 0, false
		}
		at++
	case "ttl", "retention":
		if at < len(tokens) && (word(tokens[at]) == "of" || word(tokens[at]) == "is" || tokens[at] == "=" || tokens[at] == ":") {
			at++
		}
	default:
		return 0, "", 0, false
	}
	if at+1 >= len(tokens) {
		return 0, "", 0, false
	}
	v, ok := number(tokens, at)
	u, uok := designer.TimeUnit(word(tokens[at+1]))
	if !ok || !uok || !(v > 0) || designer.YearsOf(v, u) > designer.MaxRetentionYears {
		return 0, "", 0, false
	}
	return v, u, at + 2 - i, true
}

// number is the count tokens[i] writes, with "thousand" or "million" after it: "40,000", "~960",
// "2 million", "10k", "**120**". Money, percentages and ranges are not counts.
func number(tokens []string, i int) (float64, bool) {
	t := strings.Trim(tokens[i], "*_`(")
	t = strings.TrimLeft(t, "~≈")
	if t == "" || !designer.IsDigit(t[0]) || strings.ContainsAny(t, "%$/-:") {
		return 0, false
	}
	v, ok := designer.CountWord(t, tokens[i+1:])
	return v, ok && v >= 0
}

// mult reports whether tokens[i] is a multiplier CountWord reads ("million").
func mult(tokens []string, i int) bool {
	if i < 0 || i >= len(tokens) {
		return false
	}
	switch word(tokens[i]) {
	case "thousand", "million", "billion":
		return true
	}
	return false
}

// qualified reports whether the number at tokens[i] is a relationship's average or maximum ("avg
// 1.6", "max 12", "up to 12"), or a rate's divisor: those are read with the relationship.
func qualified(tokens []string, i int) bool {
	if i == 0 {
		return false
	}
	switch word(tokens[i-1]) {
	case "avg", "average", "max", "maximum", "per", "top", "first", "last", "than":
		return true
	case "to":
		return i >= 2 && word(tokens[i-2]) == "up"
	}
	return false
}

// stopWord reports whether a word ends a noun phrase rather than qualifying the noun after it.
func stopWord(w string) bool {
	switch w {
	case "per", "a", "an", "the", "of", "and", "or", "each", "every", "to", "for", "in", "at", "by", "with":
		return true
	}
	return false
}

// word is a token in lower case without the punctuation and markup around it.
func word(t string) string {
	return strings.ToLower(strings.Trim(t, ".,;:!?()[]*_`\"'"))
}

// entityWords is an entity's name as lower-case words: MedicalRecord is "medical record".
func entityWords(name string) string {
	var b strings.Builder
	runes := []rune(name)
	for i, c := range runes {
		switch {
		case c == '_' || c == '-' || c == ' ':
			b.WriteByte(' ')
			continue
		case c >= 'A' && c <= 'Z' && i > 0 && (runes[i-1] >= 'a' && runes[i-1] <= 'z'):
			b.WriteByte(' ')
		}
		b.WriteString(strings.ToLower(string(c)))
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// pluralOf is the plural of lower-case words: pets, classes, categories.
func pluralOf(w string) string {
	switch {
	case w == "":
		return w
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "person"):
		return strings.TrimSuffix(w, "person") + "people"
	}
	return w + "s"
}

// trimPhrase is a phrase of the document without the punctuation around it.
func trimPhrase(s string) string { return strings.Trim(s, ".,;:!?()[]*_`\"' ") }

// figure writes a count with thousands separated: 64,000.
func figure(v float64) string { return designer.GroupThousands(v) }
