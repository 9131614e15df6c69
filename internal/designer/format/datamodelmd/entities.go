package datamodelmd

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The SK taxonomy, entity paragraphs, attribute lists, projections and the patterns an index serves.

// taxonomy reads the SK taxonomy: each template in backticks, with the words that follow it, or
// templates written as plain prose (proseTaxonomy).
func (p *parser) taxonomy(d *tableDraft, f fieldItem, line int) bool {
	text := f.full()
	if f.label == "entity types" || f.label == "entities" {
		for _, c := range f.cont {
			cf, ok := readField(markdown.Item{Kind: markdown.KindBullet, Lines: []string{c}})
			if ok && (strings.Contains(c, "PK =") || strings.Contains(c, "SK =")) {
				p.entityParagraph(d, fieldItem{raw: cf.raw, label: cf.label, value: cf.value, paren: cf.paren})
				continue
			}
		}
		if f.value == "" {
			return true
		}
		text = f.value
	}
	locs := backtickSpan().FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return p.proseTaxonomy(d, text, line)
	}
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		tmpl := readTemplate(text[loc[2]:loc[3]])
		desc := strings.TrimSpace(strings.Trim(strings.TrimSpace(text[loc[1]:end]), ",;"))
		owner := ""
		if inner, ok := strings.CutPrefix(desc, "("); ok {
			if j := strings.Index(inner, ")"); j >= 0 {
				if ownerWords(inner[:j]) {
					// "`PROFILE` (customer)": the entity the item belongs to.
					owner, desc = strings.TrimSpace(inner[:j]), strings.TrimSpace(strings.Trim(strings.TrimSpace(inner[j+1:]), ",;-–—:"))
				} else {
					desc = strings.TrimSpace(inner[:j] + " " + inner[j+1:])
				}
			}
		}
		if owner == "" {
			owner = entityName(tmpl, desc)
		}
		d.t.EntityTypes = append(d.t.EntityTypes, designer.EntityType{Entity: owner, SKTemplate: tmpl, Description: desc})
	}
	return true
}

// proseTaxonomy reads an SK taxonomy written without backticks, one entry per line, ";" or ",":
// "PROFILE for the owner item, PET#<pet_id> for each pet" or "the owner's item has SK PROFILE;
// each pet PET#pet_id". Each entry must hold exactly one word shaped like a key template (capitals
// with "#", "<attr>" or "{attr}" parts; a lower-case part after "#" is the attribute it holds),
// else nothing is read, the text stays prose and a note names the table: a guess would give the
// table entity types nobody wrote.
func (p *parser) proseTaxonomy(d *tableDraft, text string, line int) bool {
	var entries []string
	for _, e := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' || r == ',' }) {
		if e = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(e), "-*•")); e != "" {
			entries = append(entries, e)
		}
	}
	var ets []designer.EntityType
	unclear := ""
	for _, e := range entries {
		var tmpl string
		var rest []string
		found := 0
		for _, w := range strings.Fields(e) {
			if t, ok := proseTemplate(strings.Trim(w, ".:()")); ok {
				tmpl = t
				found++
				continue
			}
			rest = append(rest, w)
		}
		if found != 1 {
			if unclear == "" {
				unclear = e
			}
			continue
		}
		desc := strings.TrimSpace(strings.Trim(strings.Join(rest, " "), ",;:-–— "))
		ets = append(ets, designer.EntityType{Entity: entityName(tmpl, proseOwner(desc)), SKTemplate: tmpl, Description: desc})
	}
	if len(ets) == 0 {
		return false // no key templates at all ("None", a sentence): the text is kept as written
	}
	if unclear != "" {
		p.note(line, "table %s: the SK taxonomy %q was kept as prose: %q does not hold exactly one key template; write each as `PREFIX#<attr>` in backticks", d.t.Name, markdown.OneLine(text), unclear)
		return false
	}
	d.t.EntityTypes = append(d.t.EntityTypes, ets...)
	return true
}

// proseTemplate reads one word of prose as a key template: PROFILE, PET#<pet_id>, ORDER#{id} or
// PET#pet_id (a lower-case part is the attribute it holds, PET#{pet_id}). The key names and index
// words a sentence about keys uses (SK, PK, GSI) are not templates.
func proseTemplate(w string) (string, bool) {
	switch w {
	case "SK", "PK", "GSI", "LSI", "TTL", "ID", "KB", "MB", "RPS", "API":
		return "", false
	}
	if len(w) < 2 || w[0] < 'A' || w[0] > 'Z' {
		return "", false
	}
	parts := strings.Split(w, "#")
	for i, part := range parts {
		switch {
		case part == "" && i == len(parts)-1 && i > 0:
			// "ORDER#": a prefix alone.
		case upperWord(part):
		case i > 0 && len(part) > 2 && (part[0] == '<' && part[len(part)-1] == '>' || part[0] == '{' && part[len(part)-1] == '}') && attrWord(part[1:len(part)-1]):
			parts[i] = "{" + part[1:len(part)-1] + "}"
		case i > 0 && attrWord(part) && part == strings.ToLower(part):
			parts[i] = "{" + part + "}"
		default:
			return "", false
		}
	}
	if len(parts) == 1 && len(w) < 3 {
		return "", false
	}
	return strings.Join(parts, "#"), true
}

func upperWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !('A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_') {
			return false
		}
	}
	return 'A' <= s[0] && s[0] <= 'Z'
}

func attrWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// proseOwner is the words of a prose entry that can name its entity: "the owner's item has SK"
// reads as "the owner", so that entityName finds Owner.
func proseOwner(desc string) string {
	var kept []string
	for _, w := range strings.Fields(desc) {
		lw := strings.ToLower(strings.Trim(w, ".,;:()"))
		lw = strings.TrimSuffix(strings.TrimSuffix(lw, "'s"), "’s")
		switch lw {
		case "item", "items", "has", "have", "is", "are", "sk", "pk", "sort", "key", "uses", "gets":
			continue
		}
		kept = append(kept, lw)
	}
	return strings.Join(kept, " ")
}

// functionWords are words that make a parenthesis a phrase rather than the name of an entity.
var functionWords = map[string]bool{
	"a": true, "an": true, "the": true, "one": true, "per": true, "each": true, "every": true, "all": true,
	"of": true, "for": true, "by": true, "with": true, "and": true, "or": true, "to": true, "in": true,
	"on": true, "at": true, "only": true, "its": true, "their": true, "newest": true, "oldest": true,
	"first": true, "last": true, "sorted": true, "e.g.": true, "i.e.": true,
}

// ownerWords reports whether the text of a parenthesis after an SK template names the entity the
// item belongs to: one or two words of letters that are not a phrase ("customer", "order line"),
// and not "... entity", which entityName reads.
func ownerWords(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || len(ws) > 2 {
		return false
	}
	for _, w := range ws {
		lw := strings.ToLower(w)
		if functionWords[lw] || lw == "entity" || lw == "entities" || lw == "record" || lw == "records" {
			return false
		}
		for _, r := range w {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_' || r == '-') {
				return false
			}
		}
	}
	return true
}

// entityParagraph reads "**USER Entity** (`PK = <user_email>`, `SK = #META`):" and the attribute
// lines below it.
func (p *parser) entityParagraph(d *tableDraft, f fieldItem) {
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f.raw, " Entity"), " entity"))
	et := designer.EntityType{Entity: titleCase(name)}
	for _, m := range backtickSpan().FindAllStringSubmatch(f.paren+" "+f.value, -1) {
		k, v, ok := strings.Cut(m[1], "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "PK", d.pkName():
			et.PKTemplate = keyTemplate(v)
		case "SK", d.skName():
			et.SKTemplate = keyTemplate(v)
		}
	}
	if et.Entity == "" {
		return
	}
	d.t.EntityTypes = append(d.t.EntityTypes, et)
	p.attributes(d, strings.Join(f.cont, "\n"))
}

func (d *tableDraft) pkName() string {
	if len(d.pkRaw) > 0 {
		return d.pkRaw[0]
	}
	return "PK"
}

func (d *tableDraft) skName() string {
	if len(d.skRaw) > 0 {
		return d.skRaw[0]
	}
	return "SK"
}

func titleCase(s string) string {
	if s != strings.ToUpper(s) {
		return s
	}
	ws := strings.Fields(strings.ToLower(s))
	for i, w := range ws {
		ws[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(ws, " ")
}

// typePrefix is the entity-type prefix of a key template by convention: upper-case letters before
// a "#", ORDER#{id}.
var typePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Z][A-Z0-9_]*)#`) })

// entityName reads the entity an SK taxonomy line is about: "(user entity)" gives User,
// `POST#<post_id>` gives Post, and a description of one word besides function words ("the owner",
// "one per pet") gives that word, Owner and Pet; it also spells out a prefix it begins with
// (`INV#<id>` "one per invoice" is Invoice). A template without such a prefix or words
// (`PROFILE`, `ord-{number}`) names no entity: none is made up from it.
func entityName(tmpl, desc string) string {
	w := strings.Fields(strings.ToLower(desc))
	for i, x := range w {
		if (x == "entity" || x == "entities" || x == "record" || x == "records") && i > 0 {
			return titleCase(strings.ToUpper(strings.Trim(w[i-1], "(),")))
		}
	}
	named := describedEntity(desc)
	if m := typePrefix().FindStringSubmatch(tmpl); m != nil {
		if prefix := strings.ToLower(m[1]); named == "" || !strings.HasPrefix(strings.ToLower(named), prefix) {
			return titleCase(m[1])
		}
	}
	return named
}

// describedEntity is the one word a description holds besides function words, as an entity's
// name: "the owner" is Owner, "one per pets" Pet; "" for any other description.
func describedEntity(desc string) string {
	var words []string
	for _, x := range strings.Fields(desc) {
		if functionWords[strings.ToLower(x)] {
			continue
		}
		words = append(words, x)
	}
	if len(words) != 1 {
		return ""
	}
	word := words[0]
	for _, r := range word {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return ""
		}
	}
	word = markdown.Singular(word)
	return strings.ToUpper(word[:1]) + word[1:]
}

// attributes reads "emp_no (Number), name (String)", "`PK` (S): user email" lines with the
// documents' one reader of attribute entries (markdown.ReadAttribute), and groups such as "user
// details (username, firstName)". It returns the entries it could not read.
func (p *parser) attributes(d *tableDraft, text string) []string {
	var left []string
	for _, e := range markdown.AttributeEntries(text) {
		if a, ok := markdown.ReadAttribute(e); ok {
			if a.TTL && a.Type == "" {
				d.t.TTLAttribute = a.Name
			}
			addAttribute(&d.t, a.Attribute)
			continue
		}
		// "user details (username, firstName) denormalized": the names in the parentheses.
		open, end := strings.Index(e, "("), strings.Index(e, ")")
		if open > 0 && end > open {
			inner := markdown.SplitTop(e[open+1 : end])
			if len(inner) > 1 && !slices.ContainsFunc(inner, func(s string) bool { return !attrName().MatchString(strings.TrimSpace(s)) }) {
				desc := strings.Join(strings.Fields(e[:open]+" "+e[end+1:]), " ")
				for _, n := range inner {
					addAttribute(&d.t, designer.Attribute{Name: strings.TrimSpace(n), Description: desc})
				}
				continue
			}
		}
		// "post_owner_id for notification generation": a name that looks like one.
		if name, rest, ok := strings.Cut(e, " "); ok && looksLikeName(name, d.sample) {
			addAttribute(&d.t, designer.Attribute{Name: strings.Trim(name, "`"), Description: strings.TrimSpace(rest)})
			continue
		}
		left = append(left, e)
	}
	return left
}

// typeWord reads the spellings of types data models use: "StringSet", "Number (epoch)", "Bool".
func typeWord(s string) string {
	w := strings.TrimSpace(s)
	if i := strings.IndexAny(w, ",;"); i > 0 {
		w = w[:i]
	}
	return markdown.TypeWord(w)
}

func addAttribute(t *designer.Table, a designer.Attribute) {
	if _, err := designer.CleanName("name", a.Name); err != nil {
		return
	}
	if x, i, ok := t.AttributeByName(a.Name); ok {
		if x.Type == "" {
			t.Attributes = slices.Clone(t.Attributes)
			t.Attributes[i].Type = a.Type
		}
		return
	}
	t.Attributes = append(t.Attributes, a)
}

// firstName is the first word of "expiresAt field for automatic cleanup".
func firstName(v string) string {
	fs := strings.Fields(strings.ReplaceAll(v, "`", ""))
	if len(fs) == 0 {
		return ""
	}
	n := strings.Trim(fs[0], ",.:;()")
	if !attrName().MatchString(n) {
		return ""
	}
	return n
}

var projectionWords = []struct {
	word, typ string
}{
	{"keys_only", designer.KeysOnly}, {"keys-only", designer.KeysOnly}, {"keys only", designer.KeysOnly}, {"keysonly", designer.KeysOnly},
	{"include", designer.Include}, {"all", designer.All},
}

// namesList reports whether s is attribute names and commas alone: "status", "status, vet_name".
func namesList(s string) bool {
	parts := markdown.SplitTop(s)
	for _, a := range parts {
		if !attrName().MatchString(strings.TrimSpace(a)) {
			return false
		}
	}
	return len(parts) > 0
}

// projection reads "INCLUDE (a, b) - why", "INCLUDE status - why", "KEYS_ONLY - why", "keys-only", "ALL".
func (p *parser) projection(s *sectionDraft, d *indexDraft, it markdown.Item, f fieldItem) {
	if pr, why, ok := exactProjection(f); ok {
		d.ix.Projection, d.projExact = pr, true
		appendText(&d.ix.ProjectionWhy, why)
		p.projectionLines(s, d, it, f.cont)
		return
	}
	head, why, _ := cutDash(f.value)
	plain := strings.ReplaceAll(strings.TrimSpace(head), "`", "")
	lower := strings.ToLower(plain)
	for _, w := range projectionWords {
		if !strings.HasPrefix(lower, w.word) {
			continue
		}
		rest := strings.TrimSpace(plain[len(w.word):])
		if rest != "" && !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, ":") && !(w.typ == designer.Include && namesList(rest)) {
			continue
		}
		d.ix.Projection.Type = w.typ
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
		if w.typ == designer.Include {
			list := rest
			if strings.HasPrefix(list, "(") && strings.HasSuffix(list, ")") {
				list = list[1 : len(list)-1]
			} else if list == "" {
				list = why
			}
			var attrs []string
			for _, a := range markdown.SplitTop(list) {
				a = strings.TrimSpace(a)
				if a == "" {
					continue
				}
				if !attrName().MatchString(a) {
					attrs = nil
					break
				}
				attrs = append(attrs, a)
			}
			if list == why && attrs != nil {
				why = ""
			}
			if attrs == nil && why != "" && list == why {
				// "INCLUDE - follower_username, follower_profilePicture, createdDate for display"
				for _, a := range markdown.SplitTop(why) {
					if n := firstName(a); n != "" {
						attrs = append(attrs, n)
					}
				}
				d.projNote = "the INCLUDE list was read from the words after the projection"
			}
			d.ix.Projection.Attributes = attrs
		} else if rest != "" {
			why = strings.TrimSpace(rest + " " + why)
		}
		break
	}
	if d.ix.Projection.Type == "" {
		p.note(it.Line, "index %s: projection %q is not KEYS_ONLY, INCLUDE or ALL; ALL was assumed and the text kept in its justification", d.ix.Name, markdown.OneLine(f.value))
		why = f.value
	}
	appendText(&d.ix.ProjectionWhy, why)
	p.projectionLines(s, d, it, f.cont)
}

// projectionLines reads the lines under a projection: the per-pattern attributes, and more of
// its justification. Per-pattern attributes it cannot read whole stay as prose of the section.
func (p *parser) projectionLines(s *sectionDraft, d *indexDraft, it markdown.Item, lines []string) {
	for i, c := range lines {
		cf, ok := readField(markdown.Item{Kind: markdown.KindBullet, Lines: []string{c}})
		if ok && strings.Contains(cf.label, "projected attributes") {
			if list, exact := exactPatternAttributes(cf.escaped); exact {
				d.ix.PatternAttributes = append(d.ix.PatternAttributes, list...)
				continue
			}
			if line := it.Line + 1 + i; !p.patternAttributes(d, line, cf.full()) {
				s.leftover = append(s.leftover, markdown.Leftover{First: line, Last: line, Text: c})
			}
			continue
		}
		appendText(&d.ix.ProjectionWhy, markdown.Unescape(c))
	}
}

var patternRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:pattern\s*#?|\bAP|#)\s*(\d{1,6})\b`) })

// patternAttributes reads "Pattern #7 needs dept_no + count, Pattern #9 needs dept_no + salary"
// when every part of it is a pattern and attribute names. Otherwise it reads nothing and says so
// with a note naming the line, and false asks the caller to keep the text as prose: a part read
// as a name could be a word ("count (aggregated in application)").
func (p *parser) patternAttributes(d *indexDraft, line int, text string) bool {
	locs := patternRef().FindAllStringSubmatchIndex(text, -1)
	clean := len(locs) > 0 && strings.TrimSpace(text[:locs[0][0]]) == ""
	var read []designer.PatternAttributes
	for i, loc := range locs {
		n, _ := strconv.Atoi(text[loc[2]:loc[3]])
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		seg := strings.TrimSpace(text[loc[1]:end])
		seg = strings.TrimSpace(strings.TrimRight(seg, ",;. "))
		for _, lead := range []string{"needs", "requires", "uses", "reads", ":", "→", "->", "=>", "-", "—"} {
			if rest, ok := markdown.CutPrefixFold(seg, lead); ok {
				seg = strings.TrimSpace(rest)
			}
		}
		var attrs []string
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return r == '+' || r == ',' || r == '&' }) {
			part = strings.TrimSpace(part)
			name := firstName(part)
			if name == "" || strings.EqualFold(name, "and") {
				clean = false
				continue
			}
			if strings.TrimSpace(strings.TrimPrefix(strings.ReplaceAll(part, "`", ""), name)) != "" {
				clean = false
			}
			if !slices.Contains(attrs, name) {
				attrs = append(attrs, name)
			}
		}
		if len(attrs) == 0 || n < 1 {
			clean = false
		}
		read = append(read, designer.PatternAttributes{Pattern: n, Attributes: attrs})
	}
	if !clean {
		p.note(line, "index %s: the per-pattern projected attributes are not only pattern numbers and attribute names; none was read and the text was kept as prose", d.ix.Name)
		return false
	}
	d.ix.PatternAttributes = append(d.ix.PatternAttributes, read...)
	return true
}

var tableNameLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?\*\*table name:?\*\*:?\s*(.+)$`)
})

// looseTableLine reads "**Table Name:** `orders`" in documents without table headings, and the
// key and billing lines that go with it. The text stays in the section's prose as well.
func (p *parser) looseTableLine(it markdown.Item) bool {
	if m := tableNameLine().FindStringSubmatch(it.Lines[0]); m != nil {
		name := strings.Trim(strings.TrimSpace(markdown.Unescape(m[1])), "`")
		if plainName().MatchString(name) && !slices.ContainsFunc(p.tables, func(d *tableDraft) bool { return d.t.Name == name }) {
			p.tables = append(p.tables, &tableDraft{line: it.Line, t: designer.Table{Name: name}, loose: true})
			p.recognised = true
		}
		return true
	}
	if len(p.tables) == 0 || !p.tables[len(p.tables)-1].loose {
		// A table with a heading of its own has its fields under it, not in prose elsewhere.
		return false
	}
	d := p.tables[len(p.tables)-1]
	f, ok := readField(it)
	if !ok {
		return false
	}
	switch {
	case f.label == "billing mode":
		return p.billing(&d.t, f.value)
	case f.paren != "" && (strings.EqualFold(f.paren, "partition key") || strings.EqualFold(f.paren, "sort key")):
		if strings.EqualFold(f.paren, "partition key") && len(d.pkRaw) > 0 || strings.EqualFold(f.paren, "sort key") && len(d.skRaw) > 0 {
			return false
		}
		return p.looseKey(d, f)
	}
	return false
}
