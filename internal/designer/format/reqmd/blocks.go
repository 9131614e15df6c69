package reqmd

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The requirement document's blocks other than its tables: overview, considerations, entities and
// their relationships, aggregate analyses.

func (p *parser) parseBlock(b *block) {
	for _, it := range b.items {
		if it.Kind == markdown.KindTable && p.table(b, it) {
			continue
		}
		it, ok := withoutBoilerplate(it)
		if !ok {
			continue
		}
		handled := false
		switch b.kind {
		case blockOverview:
			handled = p.overviewItem(it)
		case blockRelationships:
			handled = p.relationshipItem(b, it)
		case blockEntities:
			handled = p.appendixEntity(b, it)
		case blockAggregate:
			handled = p.aggregateItem(b, it)
		case blockConsiderations:
			handled = p.considerationItem(b, it)
		case blockIdentifying:
			p.identifyingItem(it)
		case blockChecklist:
			handled = p.checklistItem(it)
		}
		if !handled {
			p.keep(b, it)
		}
	}
	if b.kind == blockChecklist {
		p.note(b.line, "the Validation Checklist is not read: Dynaloom ticks it from the design")
	}
	if len(b.leftover) > 0 {
		where := "before the first heading"
		if b.kind != blockPreamble {
			where = "under " + strconv.Quote(b.title)
		}
		if b.kind != blockUnknown {
			p.note(b.line, "text %s that is not part of the template was kept as prose", where)
		}
	}
	if b.kind == blockUnknown {
		p.note(b.line, "section %q is not part of the template; it was kept as prose", b.title)
	}
}

var boilerplateLines = func() map[string]bool {
	m := map[string]bool{
		"example:": true,
		"🔴 **critical**: every pattern must have rps documented. if user doesn't know, help estimate based on business context.": true,
	}
	for _, group := range [][]string{aggregatesIntro, identifyingGuide, consolidationIntro, frameworkGuide, rulesGuide, entitiesIntro, oldEntitiesIntro} {
		for _, l := range group {
			if l != "" {
				m[strings.ToLower(strings.TrimSpace(l))] = true
			}
		}
	}
	return m
}()

// withoutBoilerplate drops the template's own guidance from an item, line by line. It reports false
// when nothing is left. A bullet that lost its first line is left as plain text.
func withoutBoilerplate(it markdown.Item) (markdown.Item, bool) {
	if it.Kind != markdown.KindText && it.Kind != markdown.KindBullet {
		return it, true
	}
	first := boilerplateLines[strings.ToLower(strings.TrimSpace(it.Lines[0]))]
	it, ok := it.Without(func(l string) bool { return boilerplateLines[strings.ToLower(strings.TrimSpace(l))] })
	if first {
		it.Kind = markdown.KindText
	}
	return it, ok
}

func (p *parser) overviewItem(it markdown.Item) bool {
	bl, ok := markdown.ParseBullet(it)
	if !ok {
		return false
	}
	v, ok := bl.Value()
	if !ok {
		return false
	}
	var target *string
	switch strings.ToLower(bl.Label) {
	case "domain":
		target = &p.d.Overview.Domain
	case "key entities", "entities":
		target = &p.d.Overview.KeyEntities
	case "business context", "context":
		target = &p.d.Overview.BusinessContext
	case "scale":
		target = &p.d.Overview.Scale
	case "notes":
		target = &p.d.Overview.Notes
	default:
		return false
	}
	text := markdown.Unescape(v)
	switch {
	case text == "":
		return true // the template's empty bullet
	case *target != "":
		return false // said twice: the second is kept as prose
	}
	if _, err := designer.CleanText("overview", text); err != nil {
		p.note(it.Line, "the overview's %s was kept as prose: %v", bl.Label, err)
		return false
	}
	*target = text
	return true
}

func (p *parser) considerationItem(b *block, it markdown.Item) bool {
	bl, ok := markdown.ParseBullet(it)
	if !ok {
		return false
	}
	v, ok := bl.Value()
	if !ok {
		return false
	}
	label := strings.ToLower(bl.Label)
	for _, f := range considerationLabels {
		l := strings.ToLower(f.label)
		if label == l || label == strings.TrimSuffix(l, " concerns") || label == strings.TrimSuffix(l, " opportunities") ||
			label == strings.TrimSuffix(l, " ideas") || label == strings.TrimSuffix(l, " patterns") {
			target := f.field(&p.d.Considerations)
			text := markdown.Unescape(v)
			if *target != "" {
				return text == ""
			}
			*target = text
			return true
		}
	}
	return false
}

func (p *parser) checklistItem(it markdown.Item) bool {
	if it.Kind != markdown.KindBullet {
		return false
	}
	for _, l := range it.Lines {
		t := strings.ToLower(strings.TrimSpace(l))
		if !strings.HasPrefix(t, "- [ ]") && !strings.HasPrefix(t, "- [x]") && !strings.HasPrefix(t, "* [ ]") && !strings.HasPrefix(t, "* [x]") {
			return false
		}
	}
	return true
}

var entityBullet = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^entity\b\s*(?::\s*(.*))?$`) })

func (p *parser) relationshipItem(b *block, it markdown.Item) bool {
	bl, ok := markdown.ParseBullet(it)
	if !ok {
		return false
	}
	if m := entityBullet().FindStringSubmatch(strings.TrimSpace(bl.Rest)); m != nil {
		return p.entity(b, it, bl, m[1])
	}
	from, to, ok := splitArrow(bl.Label)
	if !ok {
		return false
	}
	v, ok := bl.Value()
	if !ok {
		return false
	}
	rv := parseRelationshipValue(v)
	r := designer.Relationship{From: from, To: to, Kind: rv.kind, Avg: rv.avg, AvgUnit: rv.avgUnit, Max: rv.max, MaxUnit: rv.maxUnit, Notes: rv.notes}
	if rv.swap {
		r.From, r.To = r.To, r.From
		p.note(it.Line, "relationship %s → %s is many-to-one; it was stored as %s → %s (1:M)", from, to, to, from)
	}
	p.d.Relationships = append(p.d.Relationships, r)
	p.relLines = append(p.relLines, it.Line)
	return true
}

// appendixEntity reads one entity of the entities appendix: "- **Order**: description" with its
// attributes as sub-bullets; the Deep Dive's older form, "- **Order** entity: description", too.
func (p *parser) appendixEntity(b *block, it markdown.Item) bool {
	bl, ok := markdown.ParseBullet(it)
	if !ok {
		return false
	}
	rest := strings.TrimSpace(bl.Rest)
	if m := entityBullet().FindStringSubmatch(rest); m != nil {
		return p.entity(b, it, bl, m[1])
	}
	desc, ok := strings.CutPrefix(rest, ":")
	if !ok && rest != "" {
		return false
	}
	return p.entity(b, it, bl, strings.TrimSpace(desc))
}

// splitArrow splits "From → To". The spaced arrow the exporter writes is looked for first, so a
// name may itself hold an arrow.
func splitArrow(label string) (string, string, bool) {
	for _, arrow := range []string{" → ", "→", "->", "=>", "⟶"} {
		if a, b, ok := strings.Cut(label, arrow); ok {
			from, to := markdown.OneLine(markdown.Unescape(a)), markdown.OneLine(markdown.Unescape(b))
			return from, to, from != "" && to != ""
		}
	}
	return "", "", false
}

type relationshipValue struct {
	kind             string
	avg              *float64
	max              *int64
	avgUnit, maxUnit string
	notes            string
	swap             bool
}

var (
	kindToken = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(1:1|1:many|1:m|1:n|1:\*|m:m|m:n|n:m|many:many|many:1|m:1|n:1|one-to-one|one-to-many|many-to-many|many-to-one)(?:\s|$)`)
	})
	canonicalCount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\(((?:avg|max) [^()]*)\)`) })
	// The number is taken whole, separators and fraction too ("avg 1,500", "max 12.5"), so that
	// it is read exactly or not at all.
	looseAvg = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:avg|average)\.?:?\s*(\d[\d,]{0,20}(?:\.\d{1,15})?)((?:\s+[^\s,;()\d][^\s,;()]*){0,6})`)
	})
	looseMax = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:max|maximum|up to)\.?:?\s*(\d[\d,]{0,20}(?:\.\d{1,15})?)((?:\s+[^\s,;()\d][^\s,;()]*){0,6})`)
	})
)

// parseRelationshipValue reads "1:M (avg 5, max 1000) — notes" and the wild's "1:Many (avg 5
// orders per user, max 1000)". Counts are taken from free notes only in the wild form.
func parseRelationshipValue(v string) relationshipValue {
	var rv relationshipValue
	s := strings.TrimSpace(v)
	if rest, ok := strings.CutPrefix(s, "— "); ok || s == "—" {
		rv.notes = markdown.Unescape(rest)
		return rv
	}
	if m := kindToken().FindStringSubmatch(s); m != nil {
		k, err := designer.ParseRelationshipKind(m[1])
		switch {
		case err == nil:
			rv.kind = k
		case strings.Contains(strings.ToLower(m[1]), "1") || strings.Contains(strings.ToLower(m[1]), "one"):
			rv.kind, rv.swap = designer.OneToMany, true
		}
		if rv.kind != "" {
			s = strings.TrimSpace(s[len(m[1]):])
		}
	}
	canonical := false
	if m := canonicalCount().FindStringSubmatch(s); m != nil && rv.counts(m[1]) {
		s = strings.TrimSpace(s[len(m[0]):])
		canonical = true
	}
	if rest, ok := strings.CutPrefix(s, "— "); ok || s == "—" {
		rv.notes = markdown.Unescape(rest)
		return rv
	}
	rv.notes = markdown.Unescape(s)
	if rv.kind == "" && !canonical {
		return rv
	}
	if inner, ok := strings.CutPrefix(rv.notes, "("); ok && strings.HasSuffix(inner, ")") && !strings.ContainsAny(inner[:len(inner)-1], "()") {
		rv.notes = strings.TrimSpace(inner[:len(inner)-1])
	}
	if !canonical {
		// The words after a count up to the clause's end are its unit ("avg 4 per year").
		if m := looseAvg().FindStringSubmatch(rv.notes); m != nil {
			rv.avg, _, _ = designer.ParseCount(strings.TrimRight(m[1], ","), false)
			if rv.avg != nil {
				rv.avgUnit = looseUnit(rv.avg, m[2])
			}
		}
		if m := looseMax().FindStringSubmatch(rv.notes); m != nil {
			if rv.max = wholeCount(strings.TrimRight(m[1], ",")); rv.max != nil {
				rv.maxUnit = looseUnit(new(float64(*rv.max)), m[2])
			}
		}
	}
	return rv
}

// looseUnit is the unit the words after count v give it, or "" when they are none a count
// takes.
func looseUnit(v *float64, words string) string {
	unit := strings.Join(strings.Fields(words), " ")
	if _, got, err := designer.ParseCount(designer.FormatCount(v, unit), false); err == nil {
		return got
	}
	return ""
}

// counts reads the exporter's counts, "avg 1.6, max 12 per year", each with its unit, into rv. It
// reports false, and sets nothing, unless the text is exactly that: an average, a maximum or both,
// in that order.
func (rv *relationshipValue) counts(text string) bool {
	var got relationshipValue
	parts := strings.Split(text, ", ")
	if len(parts) > 2 {
		return false
	}
	for i, part := range parts {
		label, count, _ := strings.Cut(part, " ")
		v, unit, err := designer.ParseCount(markdown.Unescape(count), label == "max")
		switch {
		case err != nil || v == nil:
			return false
		case label == "avg" && i == 0:
			got.avg, got.avgUnit = v, unit
		case label == "max" && got.max == nil:
			n := int64(*v)
			got.max, got.maxUnit = &n, unit
		default:
			return false
		}
	}
	rv.avg, rv.avgUnit, rv.max, rv.maxUnit = got.avg, got.avgUnit, got.max, got.maxUnit
	return true
}

// wholeCount is the whole number s is, or nil: "12.5" is not cut to 12.
func wholeCount(s string) *int64 {
	v, _, err := designer.ParseCount(s, true)
	if err != nil || v == nil {
		return nil
	}
	n := int64(*v)
	return &n
}

// expectedItems, growthLabel and retentionLabel label an entity's count, growth and retention in
// the appendix of entities, each followed by its source in brackets.
const (
	expectedItems  = "Expected items:"
	growthLabel    = "Growth:"
	retentionLabel = "Retention:"
	// inStateLabel labels one count of the entity's items in a state ("10000 open"), a line each.
	inStateLabel = "In a state:"
)

// figureSource splits "40000 (read from: Application Overview, line 7)" into the figure and its
// source.
func figureSource(s string) (figure, from string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		return strings.TrimSpace(s[:i]), markdown.Unescape(s[i+1 : len(s)-1])
	}
	return s, ""
}

var attributeLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-*+]\s+(.+?) \(([A-Za-z]{0,4})\)(?::\s*(.*))?$`) })

func (p *parser) entity(b *block, it markdown.Item, bl markdown.Bullet, desc string) bool {
	name := markdown.OneLine(markdown.Unescape(bl.Label))
	if _, err := designer.CleanName("name", name); err != nil {
		p.note(it.Line, "entity %q was kept as prose: %v", name, err)
		return false
	}
	if p.entities[name] {
		p.note(it.Line, "entity %q is described twice; the second description was kept as prose", name)
		return false
	}
	e := designer.Entity{Name: name, Description: markdown.Unescape(desc), Attributes: []designer.Attribute{}}
	var bad []string
	for j, l := range bl.Cont {
		line := it.Line + 1 + j
		if n, ok := strings.CutPrefix(l, "- "+expectedItems); ok && e.Count == nil {
			n, from := figureSource(n)
			if c, err := strconv.ParseInt(strings.ReplaceAll(n, ",", ""), 10, 64); err == nil && c >= 0 && c <= designer.MaxNumber {
				e.Count, e.CountFrom = &c, p.from(from, line)
				continue
			}
		}
		if g, ok := strings.CutPrefix(l, "- "+growthLabel); ok && e.Growth == nil {
			g, from := figureSource(g)
			if v, unit, err := designer.ParseGrowth(g); err == nil && v != nil {
				e.Growth, e.GrowthUnit, e.GrowthFrom = v, unit, p.from(from, line)
				continue
			}
		}
		if r, ok := strings.CutPrefix(l, "- "+retentionLabel); ok && e.Retention == nil {
			r, from := figureSource(r)
			if v, unit, err := designer.ParseRetention(r); err == nil && v != nil {
				e.Retention, e.RetentionUnit, e.RetentionFrom = v, unit, p.from(from, line)
				continue
			}
		}
		if st, ok := strings.CutPrefix(l, "- "+inStateLabel); ok {
			st, from := figureSource(st)
			if states, err := designer.ParseStateCounts("in_state", st); err == nil && len(states) == 1 &&
				!slices.ContainsFunc(e.InState, func(sc designer.StateCount) bool { return sc.State == states[0].State }) {
				states[0].From = p.from(from, line)
				e.InState = append(e.InState, states[0])
				continue
			}
		}
		if gaps, ok := strings.CutPrefix(l, "- Accepted gaps:"); ok && len(e.AcceptedGaps) == 0 {
			list := markdown.ParseList(gaps)
			if len(list) > 0 && !slices.ContainsFunc(list, func(g string) bool { return g != designer.GapNoWrite && g != designer.GapNoRead }) {
				e.AcceptedGaps = list
				continue
			}
		}
		var a designer.Attribute
		if m := attributeLine().FindStringSubmatch(l); m != nil && designer.Type(strings.ToUpper(m[2])).Valid() {
			a = designer.Attribute{Name: markdown.OneLine(markdown.Unescape(m[1])), Type: designer.Type(strings.ToUpper(m[2])), Description: markdown.Unescape(m[3])}
		} else if entry, ok := markdown.ReadAttribute(l); ok && strings.HasPrefix(l, "- ") {
			// The spellings the data model's lists and the paste box read: "pet_id (String)", "name: S".
			a = entry.Attribute
		}
		_, nameErr := designer.CleanName("name", a.Name)
		if nameErr != nil || !a.Type.Valid() || slices.ContainsFunc(e.Attributes, func(x designer.Attribute) bool { return x.Name == a.Name }) {
			bad = append(bad, "  "+l)
			continue
		}
		e.Attributes = append(e.Attributes, a)
	}
	if len(bad) > 0 {
		p.note(it.Line, "entity %s: %d attribute line(s) could not be read (they need \"name (TYPE)\" with a DynamoDB type) and were kept as prose", name, len(bad))
		keepLines(b, it, bad)
	}
	if p.entities == nil {
		p.entities = map[string]bool{}
	}
	p.entities[name] = true
	p.d.Entities = append(p.d.Entities, e)
	return true
}

var (
	correlationValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,3}(?:\.\d+)?)\s*%(.*)$`) })
	querySubBullet   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-*+]\s+(.+?):\s*(\d{1,3}(?:\.\d+)?)\s*%(.*)$`) })
)

// aggregateItem reads one bullet of an "Item Collection Analysis". A value read only in part is
// stored and its bullet kept as prose too, so no word of it is lost.
func (p *parser) aggregateItem(b *block, it markdown.Item) bool {
	bl, ok := markdown.ParseBullet(it)
	if !ok {
		return false
	}
	v, ok := bl.Value()
	if !ok {
		return false
	}
	a := &p.d.Aggregates[b.aggregate]
	label := strings.ToLower(bl.Label)
	switch {
	case label == "access correlation" || label == "correlation":
		m := correlationValue().FindStringSubmatch(markdown.Unescape(v))
		if m == nil || a.CorrelationPct != nil {
			return false
		}
		a.CorrelationPct = percentOf(m[1])
		rest := strings.ToLower(strings.TrimSpace(m[2]))
		return a.CorrelationPct != nil && (rest == "" || rest == "of queries need both entities together")
	case label == "query patterns":
		return p.queryPatterns(a, bl)
	case label == "size constraints" || label == "size":
		if a.Size != "" || a.CombinedKB != nil || a.Bounded != nil {
			return false
		}
		a.CombinedKB, a.Bounded, a.Size = parseSize(v)
		if a.CombinedKB == nil && a.Bounded == nil && !strings.HasPrefix(strings.TrimSpace(v), "—") {
			// "User 2KB + 5 recent orders 15KB = 17KB total, bounded growth": the words stay
			// the size's notes.
			a.CombinedKB, a.Bounded = looseSize(a.Size)
		}
		return true
	case label == "update patterns" || label == "updates":
		if a.Updates != "" {
			return markdown.Unescape(v) == ""
		}
		a.Updates = markdown.Unescape(v)
		return true
	case label == "identifying relationship" || label == "identifying":
		if parseIdentifying(v, &a.Identifying) {
			return true
		}
		// "Orders cannot exist without Users, always have user_id when querying orders": the
		// answers are stored and the words kept as prose.
		looseIdentifying(markdown.Unescape(v), &a.Identifying)
		return false
	case label == "decision":
		if a.Decision != "" {
			return false
		}
		text := markdown.Unescape(v)
		if dec, err := designer.ParseAggregateDecision(text); err == nil {
			a.Decision = dec
			return true
		}
		a.Decision = looseAggregateDecision(text)
		return false
	case label == "justification":
		if a.Justification != "" {
			return markdown.Unescape(v) == ""
		}
		a.Justification = markdown.Unescape(v)
		return true
	}
	return false
}

func (p *parser) queryPatterns(a *designer.AggregateAnalysis, bl markdown.Bullet) bool {
	if a.OnlyAPct != nil || a.OnlyBPct != nil || a.BothPct != nil || len(bl.Cont) == 0 {
		return false
	}
	whole := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(bl.Rest), ":")) == ""
	for _, l := range bl.Cont {
		m := querySubBullet().FindStringSubmatch(l)
		if m == nil {
			whole = false
			continue
		}
		label := strings.ToLower(markdown.OneLine(markdown.Unescape(m[1])))
		pct := percentOf(m[2])
		rest := strings.ToLower(strings.TrimSpace(m[3]))
		if pct == nil || (rest != "" && rest != "of queries") {
			whole = false
		}
		switch {
		case label == "both together" && a.BothPct == nil:
			a.BothPct = pct
		case label == strings.ToLower(onlyLabel(*a, 0)) && a.OnlyAPct == nil:
			a.OnlyAPct = pct
		case label == strings.ToLower(onlyLabel(*a, 1)) && a.OnlyBPct == nil:
			a.OnlyBPct = pct
		case strings.HasPrefix(label, "both") && a.BothPct == nil:
			a.BothPct, whole = pct, false
		case a.OnlyAPct == nil:
			a.OnlyAPct, whole = pct, false
		case a.OnlyBPct == nil:
			a.OnlyBPct, whole = pct, false
		default:
			whole = false
		}
	}
	return whole
}

func percentOf(s string) *float64 {
	v, err := designer.ParsePercent(s)
	if err != nil {
		return nil
	}
	return v
}

var sizeHead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:combined max size (\d+(?:\.\d+)?) ?kb)?(?:(?:, |^)(bounded|unbounded) growth)?`)
})

// parseSize reads "Combined max size 17 KB, bounded growth — notes"; text in any other form is
// the notes.
func parseSize(v string) (*float64, *bool, string) {
	s := strings.TrimSpace(v)
	if rest, ok := strings.CutPrefix(s, "— "); ok || s == "—" {
		return nil, nil, markdown.Unescape(rest)
	}
	m := sizeHead().FindStringSubmatchIndex(s)
	if m == nil || m[1] == 0 {
		return nil, nil, markdown.Unescape(s)
	}
	rest := s[m[1]:]
	if rest != "" && !strings.HasPrefix(rest, " — ") {
		return nil, nil, markdown.Unescape(s)
	}
	var kb *float64
	if m[2] >= 0 {
		if v, err := designer.ParseKB(s[m[2]:m[3]]); err == nil {
			kb = v
		} else {
			return nil, nil, markdown.Unescape(s)
		}
	}
	var bounded *bool
	if m[4] >= 0 {
		b := strings.EqualFold(s[m[4]:m[5]], "bounded")
		bounded = &b
	}
	return kb, bounded, markdown.Unescape(strings.TrimPrefix(rest, " — "))
}

// parseIdentifying reads "Child independent: No; Parent ID always known: Yes; …". It reports
// whether the whole value was read; answers it could read are stored either way.
func parseIdentifying(v string, c *designer.IdentifyingCheck) bool {
	whole := true
	fields := identifyingFields(c)
	for _, seg := range markdown.SplitUnescaped(v, ';') {
		label, answer, ok := strings.Cut(markdown.Unescape(seg), ":")
		if !ok {
			whole = false
			continue
		}
		l := strings.ToLower(strings.TrimSpace(label))
		i := -1
		switch {
		case strings.Contains(l, "independ"):
			i = 0
		case strings.Contains(l, "parent"):
			i = 1
		case strings.Contains(l, "separate") || strings.Contains(l, "gsi"):
			i = 2
		}
		b, err := designer.ParseTriState(answer)
		if i < 0 || err != nil || b == nil || *fields[i] != nil {
			whole = false
			continue
		}
		if !strings.EqualFold(strings.TrimSpace(label), identifyingLabels[i]) {
			whole = false
		}
		*fields[i] = b
	}
	return whole
}

func looseAggregateDecision(s string) string {
	l := strings.ToLower(s)
	switch {
	case strings.Contains(l, "single item"):
		return designer.SingleItem
	case strings.Contains(l, "item collection"):
		return designer.ItemCollection
	case strings.Contains(l, "separate table"):
		return designer.SeparateTables
	}
	return ""
}
