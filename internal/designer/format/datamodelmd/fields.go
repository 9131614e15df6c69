package datamodelmd

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// Labelled fields of a data model document's table and index sections: keys, billing, attributes,
// and the exact forms Export writes.

// labelledLine reads "- **Label**: value", "**Label:** value" and "- Label: value".
var (
	boldLabel  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]\s+)?\*\*([^*]{1,80}?)\*\*\s*(.*)$`) })
	plainLabel = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*[-*+]\s+([A-Za-z][A-Za-z /&‑-]{0,40}?)\s*:\s*(.*)$`)
	})
)

type fieldItem struct {
	label string // lower case, hyphens plain
	raw   string // label as written
	value string // unescaped text after the label and colon
	paren string // "(Partition Key)" written between a label and its colon
	// escaped is the value as written, before unescaping, for the exact forms Export
	// writes.
	escaped string
	cont    []string
}

func readField(it markdown.Item) (fieldItem, bool) {
	if it.Kind != markdown.KindBullet && it.Kind != markdown.KindText {
		return fieldItem{}, false
	}
	first := it.Lines[0]
	var label, rest string
	if m := boldLabel().FindStringSubmatch(first); m != nil {
		label, rest = m[1], m[2]
	} else if m := plainLabel().FindStringSubmatch(first); m != nil && it.Kind == markdown.KindBullet {
		label, rest = m[1], ":"+m[2]
	} else {
		return fieldItem{}, false
	}
	f := fieldItem{raw: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(label), ":"))}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") {
		if i := strings.Index(rest, ")"); i > 0 {
			f.paren, rest = rest[1:i], strings.TrimSpace(rest[i+1:])
		}
	}
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	f.label = strings.ToLower(strings.NewReplacer("‑", "-", "‐", "-", "–", "-").Replace(f.raw))
	f.escaped = rest
	f.value = markdown.Unescape(rest)
	f.cont = markdown.Dedent(it.Lines[1:])
	return f, true
}

func (f fieldItem) full() string {
	parts := []string{}
	if f.value != "" {
		parts = append(parts, f.value)
	}
	for _, c := range f.cont {
		parts = append(parts, markdown.Unescape(c))
	}
	return strings.Join(parts, "\n")
}

func appendText(dst *string, s string) {
	if s == "" {
		return
	}
	if *dst != "" {
		*dst += "\n"
	}
	*dst += s
}

// Fields of table and index sections.
const (
	fieldNone = iota
	fieldPurpose
	fieldAggregateBoundary
	fieldPartitionKey
	fieldSortKey
	fieldTaxonomy
	fieldAttributes
	fieldEntity
	fieldBoundedReads
	fieldServed
	fieldCapacity
	fieldTTL
	fieldBilling
	fieldLooseKey
	fieldKeys
	fieldProjection
	fieldPatternAttributes
	fieldSparse
	fieldMultiAttribute
	fieldTableClass
)

// tableFieldID says which field of a table section a labelled line is.
func tableFieldID(f fieldItem) int {
	switch {
	case f.label == "purpose":
		return fieldPurpose
	case f.label == "aggregate boundary":
		return fieldAggregateBoundary
	case f.label == "partition key" || f.label == "pk" && f.paren == "" || f.label == "hash key":
		return fieldPartitionKey
	case f.label == "sort key" || f.label == "sk" && f.paren == "" || f.label == "range key":
		return fieldSortKey
	case strings.Contains(f.label, "taxonomy") || f.label == "entity types" || f.label == "entities":
		return fieldTaxonomy
	case f.label == "attributes" || f.label == "key attributes":
		return fieldAttributes
	case strings.HasSuffix(f.label, " entity") || strings.HasSuffix(f.label, " entities"):
		return fieldEntity
	case strings.Contains(f.label, "bounded read"):
		return fieldBoundedReads
	case strings.Contains(f.label, "access patterns served") || f.label == "patterns served":
		return fieldServed
	case strings.Contains(f.label, "capacity"):
		return fieldCapacity
	case f.label == "ttl" || strings.Contains(f.label, "time to live"):
		return fieldTTL
	case f.label == "billing mode":
		return fieldBilling
	case f.label == "table class" || f.label == "storage class":
		return fieldTableClass
	case f.paren != "" && (strings.EqualFold(f.paren, "partition key") || strings.EqualFold(f.paren, "sort key")):
		return fieldLooseKey
	}
	return fieldNone
}

// indexFieldID says which field of an index section a labelled line is.
func indexFieldID(f fieldItem) int {
	switch {
	case f.label == "purpose" || f.label == "use case":
		return fieldPurpose
	case f.label == "partition key" || f.label == "hash key" || f.label == "hash" || f.label == "pk":
		return fieldPartitionKey
	case f.label == "sort key" || f.label == "range key" || f.label == "range" || f.label == "sk":
		return fieldSortKey
	case f.label == "keys" || f.label == "key schema":
		return fieldKeys
	case f.label == "projection":
		return fieldProjection
	case strings.Contains(f.label, "projected attributes"):
		return fieldPatternAttributes
	case f.label == "sparse":
		return fieldSparse
	case strings.Contains(f.label, "access patterns served") || f.label == "patterns served":
		return fieldServed
	case strings.Contains(f.label, "capacity"):
		return fieldCapacity
	case strings.Contains(f.label, "multi-attribute key"):
		return fieldMultiAttribute
	}
	return fieldNone
}

// field reads one labelled bullet of a table or index section.
func (p *parser) field(s *sectionDraft, it markdown.Item) bool {
	f, ok := readField(it)
	if !ok {
		return false
	}
	if s.kind == sectionTable {
		return p.tableField(s, it, f)
	}
	return p.indexField(s, it, f)
}

func (p *parser) tableField(s *sectionDraft, it markdown.Item, f fieldItem) bool {
	d := p.tables[s.table]
	t := &d.t
	switch tableFieldID(f) {
	case fieldPurpose:
		appendText(&t.Purpose, f.full())
	case fieldAggregateBoundary:
		appendText(&t.AggregateBoundary, f.full())
	case fieldPartitionKey:
		if keys, why, ok := exactKeys(f); ok && len(keys) <= 1 {
			d.pkExact = exactKey{set: true, keys: keys}
			appendText(&t.PartitionKeyWhy, why)
			// "pk (S) - `OWNER#<owner_id>`, …": the template every item's key follows, kept in
			// the justification as written; an SK taxonomy in the export's form says it already.
			if m := templateSpan().FindStringSubmatch(why); m != nil {
				d.pkWhyTemplate = readTemplate(m[1])
			}
			return true
		}
		names, why, _, ok := parseKey(f)
		if ok && len(names) > 0 {
			if head, forms, rest, found := keyForms(f, names[0], false); found {
				d.pkTemplate, d.pkForms, why = head, append(d.pkForms, forms...), rest
			}
		}
		appendText(&t.PartitionKeyWhy, why)
		if !ok || len(names) == 0 {
			p.note(it.Line, "table %s: the partition key %q names no attribute Dynaloom can read", t.Name, markdown.OneLine(f.value))
			return true
		}
		if len(names) > 1 {
			p.note(it.Line, "table %s: a table's partition key is one attribute; %s was used (write a#b strings for composite keys)", t.Name, names[0])
		}
		d.pkRaw, d.keyLine = names[:1], it.Line
		if w := keyTypeWord(f); w != "" {
			p.note(it.Line, "table %s: the partition key %s is written with type %q, which is not a DynamoDB type; its type was taken from the attributes or the sample values", t.Name, names[0], w)
		}
	case fieldSortKey:
		if keys, why, ok := exactKeys(f); ok && len(keys) <= 1 {
			d.skExact = exactKey{set: true, keys: keys}
			appendText(&t.SortKeyWhy, why)
			return true
		}
		names, why, none, ok := parseKey(f)
		if !none && ok && len(names) > 0 {
			if head, forms, rest, found := keyForms(f, names[0], true); found {
				d.skTemplate, d.skForms, why = head, append(d.skForms, forms...), rest
			}
		}
		appendText(&t.SortKeyWhy, why)
		if none {
			d.skRaw = nil
			return true
		}
		if !ok || len(names) == 0 {
			p.note(it.Line, "table %s: the sort key %q names no attribute Dynaloom can read", t.Name, markdown.OneLine(f.value))
			return true
		}
		if len(names) > 1 {
			p.note(it.Line, "table %s: a table's sort key is one attribute; %s was used", t.Name, names[0])
		}
		d.skRaw = names[:1]
		if w := keyTypeWord(f); w != "" {
			p.note(it.Line, "table %s: the sort key %s is written with type %q, which is not a DynamoDB type; its type was taken from the attributes or the sample values", t.Name, names[0], w)
		}
	case fieldTaxonomy:
		if ets, ok := exactTaxonomy(f); ok && strings.Contains(f.label, "taxonomy") {
			t.EntityTypes = append(t.EntityTypes, ets...)
			return true
		}
		d.looseTaxonomy = true
		return p.taxonomy(d, f, it.Line)
	case fieldAttributes:
		if attrs, ok := exactAttributes(f); ok {
			t.Attributes = append(t.Attributes, attrs...)
			return true
		}
		if left := p.attributes(d, f.full()); len(left) > 0 {
			p.note(it.Line, "table %s: attribute text %q was not read as attributes; the bullet was kept as prose", t.Name, strings.Join(left, ", "))
			return false
		}
	case fieldEntity:
		p.entityParagraph(d, f)
	case fieldBoundedReads:
		appendText(&t.BoundedReads, f.full())
	case fieldServed:
		d.served.add(it, f)
	case fieldCapacity:
		appendText(&t.Capacity, f.full())
	case fieldTTL:
		if name, rest, ok := readCodeSpan(f.escaped); ok && rest == "" && len(f.cont) == 0 {
			t.TTLAttribute = name
			return true
		}
		name := firstName(f.value)
		if name == "" {
			return false
		}
		t.TTLAttribute = name
		// The explanation ("expiresAt field for automatic cleanup") is settled with the attributes.
		_, rest, _ := strings.Cut(strings.TrimSpace(f.full()), " ")
		d.ttl.add(it, fieldItem{value: strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(rest), "-–—:,"))})
	case fieldBilling:
		return p.billing(t, f.value)
	case fieldTableClass:
		class, err := parseTableClass(f.value)
		if err != nil || len(f.cont) > 0 {
			p.note(it.Line, "table %s: the table class %q was not read (use Standard or Standard-IA); the bullet was kept as prose", t.Name, markdown.OneLine(f.full()))
			return false
		}
		t.TableClass = class
	case fieldLooseKey:
		return p.looseKey(d, f)
	default:
		return false
	}
	return true
}

var (
	readUnits  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d{1,15})\s*RCU\b`) })
	writeUnits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(\d{1,15})\s*WCU\b`) })
)

// billing reads "PAY_PER_REQUEST (on-demand)", "Provisioned, 100 RCU, 20 WCU".
func (p *parser) billing(t *designer.Table, v string) bool {
	w := designer.Words(v)
	switch {
	case strings.Contains(w, "on demand") || strings.Contains(w, "pay per request"):
		t.BillingMode = designer.OnDemand
	case strings.Contains(w, "provisioned"):
		t.BillingMode = designer.Provisioned
	default:
		return false
	}
	for _, u := range []struct {
		re  *regexp.Regexp
		dst **int64
	}{{readUnits(), &t.ReadUnits}, {writeUnits(), &t.WriteUnits}} {
		if m := u.re.FindStringSubmatch(v); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				*u.dst = &n
			}
		}
	}
	return true
}

// looseKey reads "**PK** (Partition Key): String - why", as key structure sections write it.
func (p *parser) looseKey(d *tableDraft, f fieldItem) bool {
	name := strings.Trim(f.raw, "` ")
	if !attrName().MatchString(name) {
		return false
	}
	typ, why := "", f.value
	if head, rest, ok := cutDash(f.value); ok {
		typ, why = head, rest
	} else if !strings.Contains(f.value, " ") {
		typ, why = f.value, ""
	}
	if tt, err := designer.ParseType(typ); err == nil && typ != "" {
		addAttribute(&d.t, designer.Attribute{Name: name, Type: tt})
	}
	if strings.EqualFold(f.paren, "partition key") {
		d.pkRaw = []string{name}
		appendText(&d.t.PartitionKeyWhy, why)
	} else {
		d.skRaw = []string{name}
		appendText(&d.t.SortKeyWhy, why)
	}
	return true
}

func (p *parser) indexField(s *sectionDraft, it markdown.Item, f fieldItem) bool {
	d := p.indexes[s.index]
	ix := &d.ix
	switch indexFieldID(f) {
	case fieldPurpose:
		appendText(&ix.Purpose, f.full())
	case fieldPartitionKey:
		if keys, why, ok := exactKeys(f); ok {
			d.pkExact = exactKey{set: true, keys: keys}
			ix.PartitionKey = keys
			appendText(&ix.PartitionKeyWhy, why)
			return true
		}
		names, why, _, ok := parseKey(f)
		appendText(&ix.PartitionKeyWhy, why)
		if !ok || len(names) == 0 {
			p.note(it.Line, "index %s: the partition key %q names no attribute Dynaloom can read", ix.Name, markdown.OneLine(f.value))
			return true
		}
		ix.PartitionKey = p.indexKey(names)
	case fieldSortKey:
		if keys, why, ok := exactKeys(f); ok {
			d.skExact = exactKey{set: true, keys: keys}
			ix.SortKey = keys
			appendText(&ix.SortKeyWhy, why)
			return true
		}
		names, why, none, ok := parseKey(f)
		appendText(&ix.SortKeyWhy, why)
		if none {
			ix.SortKey = nil
			return true
		}
		if !ok || len(names) == 0 {
			p.note(it.Line, "index %s: the sort key %q names no attribute Dynaloom can read", ix.Name, markdown.OneLine(f.value))
			return true
		}
		ix.SortKey = p.indexKey(names)
	case fieldKeys:
		for _, c := range f.cont {
			if !p.indexKeyLine(s, markdown.Item{Kind: markdown.KindBullet, Line: it.Line, Lines: []string{c}}) {
				return false
			}
		}
	case fieldProjection:
		p.projection(s, d, it, f)
	case fieldPatternAttributes:
		if list, ok := exactPatternAttributes(f.escaped); ok && len(f.cont) == 0 {
			ix.PatternAttributes = append(ix.PatternAttributes, list...)
			return true
		}
		return p.patternAttributes(d, it.Line, f.full())
	case fieldSparse:
		if sparse, note, ok := exactSparse(f.escaped); ok && len(f.cont) == 0 {
			ix.Sparse, ix.SparseNote = sparse, note
			return true
		}
		p.sparseField(d, it.Line, f.full())
	case fieldServed:
		d.served.add(it, f)
	case fieldCapacity:
		appendText(&ix.Capacity, f.full())
	case fieldMultiAttribute:
		appendText(&ix.PartitionKeyWhy, "Multi-attribute key decision: "+f.full())
	default:
		return false
	}
	return true
}

// indexKeyLine reads "- Hash: `GSI1PK` = `…`" and "- Range: …" lines.
func (p *parser) indexKeyLine(s *sectionDraft, it markdown.Item) bool {
	if s.kind != sectionIndex || it.Kind != markdown.KindBullet {
		return false
	}
	f, ok := readField(it)
	if !ok {
		return false
	}
	switch f.label {
	case "hash", "hash key", "partition key", "pk", "range", "range key", "sort key", "sk":
		return p.indexField(s, it, f)
	}
	return false
}

// The exact forms Export writes. Each reads the escaped value of a field and fails,
// leaving the field to the readers of the forms seen in the wild, unless the whole value fits.

// exactKeys reads "name (S) + other (N) - why" and "None - why".
func exactKeys(f fieldItem) ([]designer.KeyAttribute, string, bool) {
	if len(f.cont) > 0 {
		return nil, "", false
	}
	var keys []designer.KeyAttribute
	rest := f.escaped
	if after, ok := strings.CutPrefix(rest, "None"); ok && (after == "" || strings.HasPrefix(after, " - ")) {
		rest = after
	} else {
		for {
			k, after, ok := exactNameType(rest)
			if !ok {
				return nil, "", false
			}
			keys, rest = append(keys, designer.KeyAttribute{Name: k.Name, Type: k.Type}), after
			next, more := strings.CutPrefix(rest, " + ")
			if !more {
				break
			}
			rest = next
		}
	}
	switch {
	case rest == "":
		return keys, "", true
	case strings.HasPrefix(rest, " - "):
		return keys, markdown.Unescape(rest[3:]), true
	}
	return nil, "", false
}

// exactNameType reads "name (T)" at the start of escaped text: the name up to the first
// unescaped "(", then a DynamoDB type in parentheses. It returns the text after it.
func exactNameType(s string) (designer.Attribute, string, bool) {
	open := indexUnescaped(s, '(')
	if open < 0 || open > 0 && s[open-1] != ' ' {
		return designer.Attribute{}, "", false
	}
	name := ""
	if open > 0 {
		name = s[:open-1]
	}
	// A type without a name ("(B)") is no attribute: the line stays prose.
	if strings.TrimSpace(name) == "" || !exactName(name) {
		return designer.Attribute{}, "", false
	}
	end := strings.IndexByte(s[open:], ')')
	if end < 0 {
		return designer.Attribute{}, "", false
	}
	typ := designer.Type(s[open+1 : open+end])
	if !typ.Valid() {
		return designer.Attribute{}, "", false
	}
	return designer.Attribute{Name: markdown.Unescape(name), Type: typ}, s[open+end+1:], true
}

// exactName reports whether escaped text can be a name in an exact form, which escapes the "`"
// and "*" that wild documents put around names.
func exactName(escaped string) bool {
	return indexUnescaped(escaped, '`') < 0 && indexUnescaped(escaped, '*') < 0
}

// indexUnescaped returns the position of the first c in s that no backslash escapes, or -1.
func indexUnescaped(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case c:
			return i
		}
	}
	return -1
}

// exactAttributes reads "a (N), b (S)" or sub-bullets "- a (N): description".
func exactAttributes(f fieldItem) ([]designer.Attribute, bool) {
	var out []designer.Attribute
	if len(f.cont) == 0 {
		if f.escaped == "" {
			return nil, true
		}
		for _, part := range markdown.SplitUnescaped(f.escaped, ',') {
			a, rest, ok := exactNameType(strings.TrimLeft(part, " "))
			if !ok || rest != "" {
				return nil, false
			}
			out = append(out, a)
		}
		return out, true
	}
	if f.escaped != "" {
		return nil, false
	}
	for _, c := range f.cont {
		entry, ok := strings.CutPrefix(c, "- ")
		if !ok {
			return nil, false
		}
		a, rest, ok := exactNameType(entry)
		if !ok {
			return nil, false
		}
		if rest != "" {
			desc, ok := strings.CutPrefix(rest, ": ")
			if !ok {
				return nil, false
			}
			a.Description = markdown.Unescape(desc)
		}
		out = append(out, a)
	}
	return out, true
}

// exactTaxonomy reads one sub-bullet per entity type: "- **Order**: PK `…`, SK `…` - description".
func exactTaxonomy(f fieldItem) ([]designer.EntityType, bool) {
	if f.escaped != "" {
		return nil, false
	}
	var out []designer.EntityType
	for _, c := range f.cont {
		et, ok := exactEntityType(c)
		if !ok || et.Entity == "" && et.PKTemplate == "" && et.SKTemplate == "" && et.Description != "" {
			// A line that names neither an entity nor a template ("- PROFILE: the owner") is a
			// team's prose list, which the loose reader reads.
			return nil, false
		}
		out = append(out, et)
	}
	return out, true
}

func exactEntityType(l string) (designer.EntityType, bool) {
	var et designer.EntityType
	if l == "-" {
		return et, true
	}
	rest, ok := strings.CutPrefix(l, "- ")
	if !ok {
		return et, false
	}
	if strings.HasPrefix(rest, "**") {
		end := -1
		for i := 2; i+1 < len(rest); i++ {
			if rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == '*' && rest[i+1] == '*' {
				end = i
				break
			}
		}
		if end < 3 || !strings.HasPrefix(rest[end+2:], ":") {
			return et, false
		}
		et.Entity = markdown.Unescape(rest[2:end])
		rest = rest[end+3:]
		if rest == "" {
			return et, true
		}
		if rest, ok = strings.CutPrefix(rest, " "); !ok {
			return et, false
		}
	}
	templates := false
	if after, ok := strings.CutPrefix(rest, "PK `"); ok {
		content, r, ok := readCodeSpan("`" + after)
		if !ok {
			return et, false
		}
		et.PKTemplate, rest, templates = content, r, true
		if r, ok := strings.CutPrefix(rest, ", "); ok && strings.HasPrefix(r, "SK `") {
			rest = r
		}
	}
	if after, ok := strings.CutPrefix(rest, "SK `"); ok {
		content, r, ok := readCodeSpan("`" + after)
		if !ok {
			return et, false
		}
		et.SKTemplate, rest, templates = content, r, true
	}
	if templates && rest != "" {
		if rest, ok = strings.CutPrefix(rest, " - "); !ok {
			return et, false
		}
	}
	if indexUnescaped(rest, '`') >= 0 {
		return et, false // the exported form escapes a description's backticks
	}
	et.Description = markdown.Unescape(rest)
	return et, true
}

// readCodeSpan reads a code span at the start of s (CommonMark: a run of backticks, the text, a
// run of as many; one space stripped from each side of padded text). It returns its text and what
// follows it.
func readCodeSpan(s string) (string, string, bool) {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	if n == 0 {
		return "", "", false
	}
	for i := n; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			c := s[n:i]
			if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
				c = c[1 : len(c)-1]
			}
			return c, s[j:], true
		}
		i = j
	}
	return "", "", false
}

// exactProjection reads "KEYS_ONLY - why", "ALL - why" and "INCLUDE (a, b) - why".
func exactProjection(f fieldItem) (designer.Projection, string, bool) {
	var pr designer.Projection
	rest := f.escaped
	for _, t := range []string{designer.KeysOnly, designer.Include, designer.All} {
		if after, ok := strings.CutPrefix(rest, t); ok && (after == "" || after[0] == ' ') {
			pr.Type, rest = t, after
			break
		}
	}
	if pr.Type == "" {
		return pr, "", false
	}
	if pr.Type == designer.Include {
		after, ok := strings.CutPrefix(rest, " (")
		end := indexUnescaped(after, ')')
		if !ok || end < 0 {
			return pr, "", false
		}
		if list := after[:end]; list != "" {
			for _, part := range markdown.SplitUnescaped(list, ',') {
				if part = strings.TrimLeft(part, " "); !exactName(part) {
					return pr, "", false
				}
				pr.Attributes = append(pr.Attributes, markdown.Unescape(part))
			}
		}
		rest = after[end+1:]
	}
	switch {
	case rest == "":
		return pr, "", true
	case strings.HasPrefix(rest, " - "):
		return pr, markdown.Unescape(rest[3:]), true
	}
	return pr, "", false
}

// exactPatternAttributes reads "Pattern #3: a, b; Pattern #7: c".
func exactPatternAttributes(escaped string) ([]designer.PatternAttributes, bool) {
	if escaped == "" {
		return nil, true
	}
	var out []designer.PatternAttributes
	for _, part := range markdown.SplitUnescaped(escaped, ';') {
		entry, ok := strings.CutPrefix(strings.TrimLeft(part, " "), "Pattern #")
		number, list, found := strings.Cut(entry, ":")
		n, err := strconv.Atoi(number)
		if !ok || !found || err != nil {
			return nil, false
		}
		pa := designer.PatternAttributes{Pattern: n, Attributes: []string{}}
		if list != "" {
			list, ok = strings.CutPrefix(list, " ")
			if !ok {
				return nil, false
			}
			for _, name := range markdown.SplitUnescaped(list, ',') {
				if name = strings.TrimLeft(name, " "); !exactName(name) {
					return nil, false
				}
				pa.Attributes = append(pa.Attributes, markdown.Unescape(name))
			}
		}
		out = append(out, pa)
	}
	return out, true
}

// exactSparse reads "Yes", "No", "Yes - note", "No - note".
func exactSparse(escaped string) (bool, string, bool) {
	for _, w := range []struct {
		word   string
		sparse bool
	}{{"Yes", true}, {"No", false}} {
		if rest, ok := strings.CutPrefix(escaped, w.word); ok {
			switch {
			case rest == "":
				return w.sparse, "", true
			case strings.HasPrefix(rest, " - "):
				return w.sparse, markdown.Unescape(rest[3:]), true
			}
		}
	}
	return false, "", false
}

// indexKey turns key names into key attributes; types are settled once the table is known. All
// of them are kept, more than a GSI can have too, for MOD003 to report.
func (p *parser) indexKey(names []string) []designer.KeyAttribute {
	out := make([]designer.KeyAttribute, len(names))
	for i, n := range names {
		out[i] = designer.KeyAttribute{Name: n}
	}
	return out
}

var (
	dash       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+[-–—]\s+`) })
	keyAssign  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_.\-#]*)\s*=`) })
	typeParens = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?)\s*\(([^()]*)\)\s*$`) })
)

func cutDash(s string) (string, string, bool) {
	loc := dash().FindStringIndex(s)
	if loc == nil {
		return s, "", false
	}
	return strings.TrimSpace(s[:loc[0]]), strings.TrimSpace(s[loc[1]:]), true
}

// keyTypeWord returns the type word a key bullet writes in parentheses after its name when it is
// no DynamoDB type ("Date", "UUID"), or "".
func keyTypeWord(f fieldItem) string {
	head, _, _ := cutDash(f.value)
	m := typeParens().FindStringSubmatch(strings.TrimSpace(strings.NewReplacer("`", "", "**", "").Replace(head)))
	if m == nil {
		return ""
	}
	if _, err := designer.ParseType(typeWord(m[2])); err == nil {
		return ""
	}
	return strings.TrimSpace(m[2])
}

// parseKey reads "emp_no - why", "`PK = <user_email>` - why", "tenant_id + region - why",
// "None - why" and a first line that only introduces "`SK = …`" lines below it.
func parseKey(f fieldItem) (names []string, why string, none, ok bool) {
	head, rest, dashed := cutDash(f.value)
	plain := strings.TrimSpace(strings.NewReplacer("`", "", "**", "").Replace(head))
	why = rest
	if !dashed {
		why = ""
	}
	contText := make([]string, 0, len(f.cont))
	for _, c := range f.cont {
		contText = append(contText, markdown.Unescape(c))
	}
	full := func() string {
		return strings.Join(append([]string{f.value}, contText...), "\n")
	}
	switch designer.Words(plain) {
	case "none", "n/a", "-", "no sort key", "(none)", "not used":
		return nil, strings.Join(append([]string{rest}, contText...), "\n"), true, true
	}
	if m := keyAssign().FindStringSubmatch(plain); m != nil {
		return []string{m[1]}, full(), false, true
	}
	if m := typeParens().FindStringSubmatch(plain); m != nil {
		if _, err := designer.ParseType(typeWord(m[2])); err == nil || attrName().MatchString(strings.TrimSpace(m[1])) {
			// "slot (Integer)", "day (Date)": the name; the type comes from the attribute list or
			// the sample values, and keyTypeWord says what a word no DynamoDB type is was read as.
			plain = m[1]
		}
	}
	parts := strings.FieldsFunc(plain, func(r rune) bool { return r == '+' || r == ',' })
	for _, part := range parts {
		part = strings.TrimSpace(part)
		for _, w := range strings.Split(part, " and ") {
			w = strings.TrimSpace(w)
			if w == "" {
				continue
			}
			if !attrName().MatchString(w) {
				names = nil
				break
			}
			names = append(names, w)
		}
	}
	if len(names) > 0 && len(names) == countWords(parts) {
		if len(contText) > 0 {
			why = strings.TrimSpace(strings.Join(append([]string{why}, contText...), "\n"))
		}
		return names, why, false, true
	}
	// A first line that introduces the key's forms: "Entity-based sort keys:" + "`SK = #META`".
	name := ""
	for _, c := range contText {
		m := keyAssign().FindStringSubmatch(strings.TrimLeft(strings.ReplaceAll(c, "`", ""), "-*+ "))
		if m == nil {
			continue
		}
		if name != "" && m[1] != name {
			return nil, full(), false, false
		}
		name = m[1]
	}
	if name != "" {
		return []string{name}, full(), false, true
	}
	return nil, full(), false, false
}

func countWords(parts []string) int {
	n := 0
	for _, part := range parts {
		for _, w := range strings.Split(strings.TrimSpace(part), " and ") {
			if strings.TrimSpace(w) != "" {
				n++
			}
		}
	}
	return n
}

var backtickSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })

// readTemplate writes a key template the way Dynaloom does: USER#<id> becomes USER#{id}, and
// ORDER#<order number> ORDER#{order number}: a placeholder, whatever its words.
func readTemplate(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' {
			if j := strings.IndexByte(s[i:], '>'); j > 1 && strings.TrimSpace(s[i+1:i+j]) != "" && !strings.ContainsAny(s[i+1:i+j], "<{}") {
				b.WriteString("{" + s[i+1:i+j] + "}")
				i += j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
