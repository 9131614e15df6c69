package format

import (
	"regexp"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Labelled fields of a data model document's table and index sections: keys, billing, attributes,
// and the exact forms ExportDataModelMD writes.

// labelledLine reads "- **Label**: value", "**Label:** value" and "- Label: value".
var (
	dmBoldLabel  = regexp.MustCompile(`^\s*(?:[-*+]\s+)?\*\*([^*]{1,80}?)\*\*\s*(.*)$`)
	dmPlainLabel = regexp.MustCompile(`^\s*[-*+]\s+([A-Za-z][A-Za-z /&‑-]{0,40}?)\s*:\s*(.*)$`)
)

type dmField struct {
	label string // lower case, hyphens plain
	raw   string // label as written
	value string // unescaped text after the label and colon
	paren string // "(Partition Key)" written between a label and its colon
	// escaped is the value as written, before unescaping, for the exact forms ExportDataModelMD
	// writes.
	escaped string
	cont    []string
}

func dmReadField(it mdItem) (dmField, bool) {
	if it.kind != itemBullet && it.kind != itemText {
		return dmField{}, false
	}
	first := it.lines[0]
	var label, rest string
	if m := dmBoldLabel.FindStringSubmatch(first); m != nil {
		label, rest = m[1], m[2]
	} else if m := dmPlainLabel.FindStringSubmatch(first); m != nil && it.kind == itemBullet {
		label, rest = m[1], ":"+m[2]
	} else {
		return dmField{}, false
	}
	f := dmField{raw: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(label), ":"))}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") {
		if i := strings.Index(rest, ")"); i > 0 {
			f.paren, rest = rest[1:i], strings.TrimSpace(rest[i+1:])
		}
	}
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	f.label = strings.ToLower(strings.NewReplacer("‑", "-", "‐", "-", "–", "-").Replace(f.raw))
	f.escaped = rest
	f.value = unescapeInline(rest)
	f.cont = dedent(it.lines[1:])
	return f, true
}

func (f dmField) full() string {
	parts := []string{}
	if f.value != "" {
		parts = append(parts, f.value)
	}
	for _, c := range f.cont {
		parts = append(parts, unescapeInline(c))
	}
	return strings.Join(parts, "\n")
}

func dmAppend(dst *string, s string) {
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
	dmfNone = iota
	dmfPurpose
	dmfAggregateBoundary
	dmfPartitionKey
	dmfSortKey
	dmfTaxonomy
	dmfAttributes
	dmfEntity
	dmfBoundedReads
	dmfServed
	dmfCapacity
	dmfTTL
	dmfBilling
	dmfLooseKey
	dmfKeys
	dmfProjection
	dmfPatternAttributes
	dmfSparse
	dmfMultiAttribute
)

// dmTableFieldID says which field of a table section a labelled line is.
func dmTableFieldID(f dmField) int {
	switch {
	case f.label == "purpose":
		return dmfPurpose
	case f.label == "aggregate boundary":
		return dmfAggregateBoundary
	case f.label == "partition key" || f.label == "pk" && f.paren == "" || f.label == "hash key":
		return dmfPartitionKey
	case f.label == "sort key" || f.label == "sk" && f.paren == "" || f.label == "range key":
		return dmfSortKey
	case strings.Contains(f.label, "taxonomy") || f.label == "entity types" || f.label == "entities":
		return dmfTaxonomy
	case f.label == "attributes" || f.label == "key attributes":
		return dmfAttributes
	case strings.HasSuffix(f.label, " entity") || strings.HasSuffix(f.label, " entities"):
		return dmfEntity
	case strings.Contains(f.label, "bounded read"):
		return dmfBoundedReads
	case strings.Contains(f.label, "access patterns served") || f.label == "patterns served":
		return dmfServed
	case strings.Contains(f.label, "capacity"):
		return dmfCapacity
	case f.label == "ttl" || strings.Contains(f.label, "time to live"):
		return dmfTTL
	case f.label == "billing mode":
		return dmfBilling
	case f.paren != "" && (strings.EqualFold(f.paren, "partition key") || strings.EqualFold(f.paren, "sort key")):
		return dmfLooseKey
	}
	return dmfNone
}

// dmIndexFieldID says which field of an index section a labelled line is.
func dmIndexFieldID(f dmField) int {
	switch {
	case f.label == "purpose" || f.label == "use case":
		return dmfPurpose
	case f.label == "partition key" || f.label == "hash key" || f.label == "hash" || f.label == "pk":
		return dmfPartitionKey
	case f.label == "sort key" || f.label == "range key" || f.label == "range" || f.label == "sk":
		return dmfSortKey
	case f.label == "keys" || f.label == "key schema":
		return dmfKeys
	case f.label == "projection":
		return dmfProjection
	case strings.Contains(f.label, "projected attributes"):
		return dmfPatternAttributes
	case f.label == "sparse":
		return dmfSparse
	case strings.Contains(f.label, "access patterns served") || f.label == "patterns served":
		return dmfServed
	case strings.Contains(f.label, "capacity"):
		return dmfCapacity
	case strings.Contains(f.label, "multi-attribute key"):
		return dmfMultiAttribute
	}
	return dmfNone
}

// field reads one labelled bullet of a table or index section.
func (p *dmParser) field(s *dmSection, it mdItem) bool {
	f, ok := dmReadField(it)
	if !ok {
		return false
	}
	if s.kind == dmTable {
		return p.tableField(s, it, f)
	}
	return p.indexField(s, it, f)
}

func (p *dmParser) tableField(s *dmSection, it mdItem, f dmField) bool {
	d := p.tables[s.table]
	t := &d.t
	switch dmTableFieldID(f) {
	case dmfPurpose:
		dmAppend(&t.Purpose, f.full())
	case dmfAggregateBoundary:
		dmAppend(&t.AggregateBoundary, f.full())
	case dmfPartitionKey:
		if keys, why, ok := dmExactKeys(f); ok && len(keys) <= 1 {
			d.pkExact = dmExactKey{set: true, keys: keys}
			dmAppend(&t.PartitionKeyWhy, why)
			return true
		}
		names, why, _, ok := dmParseKey(f)
		dmAppend(&t.PartitionKeyWhy, why)
		if !ok || len(names) == 0 {
			p.note(it.line, "table %s: the partition key %q names no attribute Dynaloom can read", t.Name, oneLine(f.value))
			return true
		}
		if len(names) > 1 {
			p.note(it.line, "table %s: a table's partition key is one attribute; %s was used (write a#b strings for composite keys)", t.Name, names[0])
		}
		d.pkRaw, d.keyLine = names[:1], it.line
	case dmfSortKey:
		if keys, why, ok := dmExactKeys(f); ok && len(keys) <= 1 {
			d.skExact = dmExactKey{set: true, keys: keys}
			dmAppend(&t.SortKeyWhy, why)
			return true
		}
		names, why, none, ok := dmParseKey(f)
		dmAppend(&t.SortKeyWhy, why)
		if none {
			d.skRaw = nil
			return true
		}
		if !ok || len(names) == 0 {
			p.note(it.line, "table %s: the sort key %q names no attribute Dynaloom can read", t.Name, oneLine(f.value))
			return true
		}
		if len(names) > 1 {
			p.note(it.line, "table %s: a table's sort key is one attribute; %s was used", t.Name, names[0])
		}
		d.skRaw = names[:1]
	case dmfTaxonomy:
		if ets, ok := dmExactTaxonomy(f); ok && strings.Contains(f.label, "taxonomy") {
			t.EntityTypes = append(t.EntityTypes, ets...)
			return true
		}
		return p.taxonomy(d, f)
	case dmfAttributes:
		if attrs, ok := dmExactAttributes(f); ok {
			t.Attributes = append(t.Attributes, attrs...)
			return true
		}
		if left := p.attributes(d, f.full()); len(left) > 0 {
			p.note(it.line, "table %s: attribute text %q was not read as attributes; the bullet was kept as prose", t.Name, strings.Join(left, ", "))
			return false
		}
	case dmfEntity:
		p.entityParagraph(d, f)
	case dmfBoundedReads:
		dmAppend(&t.BoundedReads, f.full())
	case dmfServed:
		dmAppend(&d.served, f.full())
	case dmfCapacity:
		dmAppend(&t.Capacity, f.full())
	case dmfTTL:
		if name, rest, ok := dmReadCodeSpan(f.escaped); ok && rest == "" && len(f.cont) == 0 {
			t.TTLAttribute = name
			return true
		}
		name := dmFirstName(f.value)
		if name == "" {
			return false
		}
		t.TTLAttribute = name
		return false // the explanation is kept as prose
	case dmfBilling:
		return p.billing(t, f.value)
	case dmfLooseKey:
		return p.looseKey(d, f)
	default:
		return false
	}
	return true
}

var (
	dmReadUnits  = regexp.MustCompile(`(?i)\b(\d{1,15})\s*RCU\b`)
	dmWriteUnits = regexp.MustCompile(`(?i)\b(\d{1,15})\s*WCU\b`)
)

// billing reads "PAY_PER_REQUEST (on-demand)", "Provisioned, 100 RCU, 20 WCU".
func (p *dmParser) billing(t *designer.Table, v string) bool {
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
	}{{dmReadUnits, &t.ReadUnits}, {dmWriteUnits, &t.WriteUnits}} {
		if m := u.re.FindStringSubmatch(v); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				*u.dst = &n
			}
		}
	}
	return true
}

// looseKey reads "**PK** (Partition Key): String - why", as key structure sections write it.
func (p *dmParser) looseKey(d *dmTableDraft, f dmField) bool {
	name := strings.Trim(f.raw, "` ")
	if !dmAttrName.MatchString(name) {
		return false
	}
	typ, why := "", f.value
	if head, rest, ok := dmCutDash(f.value); ok {
		typ, why = head, rest
	} else if !strings.Contains(f.value, " ") {
		typ, why = f.value, ""
	}
	if tt, err := designer.ParseType(typ); err == nil && typ != "" {
		dmAddAttribute(&d.t, designer.Attribute{Name: name, Type: tt})
	}
	if strings.EqualFold(f.paren, "partition key") {
		d.pkRaw = []string{name}
		dmAppend(&d.t.PartitionKeyWhy, why)
	} else {
		d.skRaw = []string{name}
		dmAppend(&d.t.SortKeyWhy, why)
	}
	return true
}

func (p *dmParser) indexField(s *dmSection, it mdItem, f dmField) bool {
	d := p.indexes[s.index]
	ix := &d.ix
	switch dmIndexFieldID(f) {
	case dmfPurpose:
		dmAppend(&ix.Purpose, f.full())
	case dmfPartitionKey:
		if keys, why, ok := dmExactKeys(f); ok && len(keys) <= designer.MaxGSIKeyAttributes {
			d.pkExact = dmExactKey{set: true, keys: keys}
			ix.PartitionKey = keys
			dmAppend(&ix.PartitionKeyWhy, why)
			return true
		}
		names, why, _, ok := dmParseKey(f)
		dmAppend(&ix.PartitionKeyWhy, why)
		if !ok || len(names) == 0 {
			p.note(it.line, "index %s: the partition key %q names no attribute Dynaloom can read", ix.Name, oneLine(f.value))
			return true
		}
		ix.PartitionKey = p.indexKey(it.line, ix.Name, names)
	case dmfSortKey:
		if keys, why, ok := dmExactKeys(f); ok && len(keys) <= designer.MaxGSIKeyAttributes {
			d.skExact = dmExactKey{set: true, keys: keys}
			ix.SortKey = keys
			dmAppend(&ix.SortKeyWhy, why)
			return true
		}
		names, why, none, ok := dmParseKey(f)
		dmAppend(&ix.SortKeyWhy, why)
		if none {
			ix.SortKey = nil
			return true
		}
		if !ok || len(names) == 0 {
			p.note(it.line, "index %s: the sort key %q names no attribute Dynaloom can read", ix.Name, oneLine(f.value))
			return true
		}
		ix.SortKey = p.indexKey(it.line, ix.Name, names)
	case dmfKeys:
		for _, c := range f.cont {
			if !p.indexKeyLine(s, mdItem{kind: itemBullet, line: it.line, lines: []string{c}}) {
				return false
			}
		}
	case dmfProjection:
		p.projection(d, it, f)
	case dmfPatternAttributes:
		if list, ok := dmExactPatternAttributes(f.escaped); ok && len(f.cont) == 0 {
			ix.PatternAttributes = append(ix.PatternAttributes, list...)
			return true
		}
		p.patternAttributes(d, it, f.full())
	case dmfSparse:
		if sparse, note, ok := dmExactSparse(f.escaped); ok && len(f.cont) == 0 {
			ix.Sparse, ix.SparseNote = sparse, note
			return true
		}
		v := f.full()
		switch w := designer.Words(v); {
		case w == "no" || strings.HasPrefix(w, "no ") || w == "none" || w == "false" || strings.HasPrefix(w, "not "):
			ix.Sparse = false
		case w == "" || w == "n/a":
		default:
			ix.Sparse = true
		}
		ix.SparseNote = v
	case dmfServed:
		dmAppend(&d.served, f.full())
	case dmfCapacity:
		dmAppend(&ix.Capacity, f.full())
	case dmfMultiAttribute:
		dmAppend(&ix.PartitionKeyWhy, "Multi-attribute key decision: "+f.full())
	default:
		return false
	}
	return true
}

// indexKeyLine reads "- Hash: `GSI1PK` = `…`" and "- Range: …" lines.
func (p *dmParser) indexKeyLine(s *dmSection, it mdItem) bool {
	if s.kind != dmIndex || it.kind != itemBullet {
		return false
	}
	f, ok := dmReadField(it)
	if !ok {
		return false
	}
	switch f.label {
	case "hash", "hash key", "partition key", "pk", "range", "range key", "sort key", "sk":
		return p.indexField(s, it, f)
	}
	return false
}

// The exact forms ExportDataModelMD writes. Each reads the escaped value of a field and fails,
// leaving the field to the readers of the forms seen in the wild, unless the whole value fits.

// dmExactKeys reads "name (S) + other (N) - why" and "None - why".
func dmExactKeys(f dmField) ([]designer.KeyAttribute, string, bool) {
	if len(f.cont) > 0 {
		return nil, "", false
	}
	var keys []designer.KeyAttribute
	rest := f.escaped
	if after, ok := strings.CutPrefix(rest, "None"); ok && (after == "" || strings.HasPrefix(after, " - ")) {
		rest = after
	} else {
		for {
			k, after, ok := dmExactNameType(rest)
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
		return keys, unescapeInline(rest[3:]), true
	}
	return nil, "", false
}

// dmExactNameType reads "name (T)" at the start of escaped text: the name up to the first
// unescaped "(", then a DynamoDB type in parentheses. It returns the text after it.
func dmExactNameType(s string) (designer.Attribute, string, bool) {
	open := dmIndexUnescaped(s, '(')
	if open < 0 || open > 0 && s[open-1] != ' ' {
		return designer.Attribute{}, "", false
	}
	name := ""
	if open > 0 {
		name = s[:open-1]
	}
	// A type without a name ("(B)") is no attribute: the line stays prose.
	if strings.TrimSpace(name) == "" || !dmExactName(name) {
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
	return designer.Attribute{Name: unescapeInline(name), Type: typ}, s[open+end+1:], true
}

// dmExactName reports whether escaped text can be a name in an exact form, which escapes the "`"
// and "*" that wild documents put around names.
func dmExactName(escaped string) bool {
	return dmIndexUnescaped(escaped, '`') < 0 && dmIndexUnescaped(escaped, '*') < 0
}

// dmIndexUnescaped returns the position of the first c in s that no backslash escapes, or -1.
func dmIndexUnescaped(s string, c byte) int {
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

// dmExactAttributes reads "a (N), b (S)" or sub-bullets "- a (N): description".
func dmExactAttributes(f dmField) ([]designer.Attribute, bool) {
	var out []designer.Attribute
	if len(f.cont) == 0 {
		if f.escaped == "" {
			return nil, true
		}
		for _, part := range splitUnescaped(f.escaped, ',') {
			a, rest, ok := dmExactNameType(strings.TrimLeft(part, " "))
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
		a, rest, ok := dmExactNameType(entry)
		if !ok {
			return nil, false
		}
		if rest != "" {
			desc, ok := strings.CutPrefix(rest, ": ")
			if !ok {
				return nil, false
			}
			a.Description = unescapeInline(desc)
		}
		out = append(out, a)
	}
	return out, true
}

// dmExactTaxonomy reads one sub-bullet per entity type: "- **Order**: PK `…`, SK `…` - description".
func dmExactTaxonomy(f dmField) ([]designer.EntityType, bool) {
	if f.escaped != "" {
		return nil, false
	}
	var out []designer.EntityType
	for _, c := range f.cont {
		et, ok := dmExactEntityType(c)
		if !ok {
			return nil, false
		}
		out = append(out, et)
	}
	return out, true
}

func dmExactEntityType(l string) (designer.EntityType, bool) {
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
		et.Entity = unescapeInline(rest[2:end])
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
		content, r, ok := dmReadCodeSpan("`" + after)
		if !ok {
			return et, false
		}
		et.PKTemplate, rest, templates = content, r, true
		if r, ok := strings.CutPrefix(rest, ", "); ok && strings.HasPrefix(r, "SK `") {
			rest = r
		}
	}
	if after, ok := strings.CutPrefix(rest, "SK `"); ok {
		content, r, ok := dmReadCodeSpan("`" + after)
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
	if dmIndexUnescaped(rest, '`') >= 0 {
		return et, false // the exported form escapes a description's backticks
	}
	et.Description = unescapeInline(rest)
	return et, true
}

// dmReadCodeSpan reads a code span at the start of s (CommonMark: a run of backticks, the text, a
// run of as many; one space stripped from each side of padded text). It returns its text and what
// follows it.
func dmReadCodeSpan(s string) (string, string, bool) {
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

// dmExactProjection reads "KEYS_ONLY - why", "ALL - why" and "INCLUDE (a, b) - why".
func dmExactProjection(f dmField) (designer.Projection, string, bool) {
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
		end := dmIndexUnescaped(after, ')')
		if !ok || end < 0 {
			return pr, "", false
		}
		if list := after[:end]; list != "" {
			for _, part := range splitUnescaped(list, ',') {
				if part = strings.TrimLeft(part, " "); !dmExactName(part) {
					return pr, "", false
				}
				pr.Attributes = append(pr.Attributes, unescapeInline(part))
			}
		}
		rest = after[end+1:]
	}
	switch {
	case rest == "":
		return pr, "", true
	case strings.HasPrefix(rest, " - "):
		return pr, unescapeInline(rest[3:]), true
	}
	return pr, "", false
}

// dmExactPatternAttributes reads "Pattern #3: a, b; Pattern #7: c".
func dmExactPatternAttributes(escaped string) ([]designer.PatternAttributes, bool) {
	if escaped == "" {
		return nil, true
	}
	var out []designer.PatternAttributes
	for _, part := range splitUnescaped(escaped, ';') {
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
			for _, name := range splitUnescaped(list, ',') {
				if name = strings.TrimLeft(name, " "); !dmExactName(name) {
					return nil, false
				}
				pa.Attributes = append(pa.Attributes, unescapeInline(name))
			}
		}
		out = append(out, pa)
	}
	return out, true
}

// dmExactSparse reads "Yes", "No", "Yes - note", "No - note".
func dmExactSparse(escaped string) (bool, string, bool) {
	for _, w := range []struct {
		word   string
		sparse bool
	}{{"Yes", true}, {"No", false}} {
		if rest, ok := strings.CutPrefix(escaped, w.word); ok {
			switch {
			case rest == "":
				return w.sparse, "", true
			case strings.HasPrefix(rest, " - "):
				return w.sparse, unescapeInline(rest[3:]), true
			}
		}
	}
	return false, "", false
}

// indexKey turns key names into key attributes; types are settled once the table is known.
func (p *dmParser) indexKey(line int, name string, names []string) []designer.KeyAttribute {
	if len(names) > 4 {
		p.note(line, "index %s: a key has at most 4 attributes; %s were left out", name, strings.Join(names[4:], ", "))
		names = names[:4]
	}
	out := make([]designer.KeyAttribute, len(names))
	for i, n := range names {
		out[i] = designer.KeyAttribute{Name: n}
	}
	return out
}

var (
	dmDash       = regexp.MustCompile(`\s+[-–—]\s+`)
	dmKeyAssign  = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_.\-#]*)\s*=`)
	dmTypeParens = regexp.MustCompile(`^(.+?)\s*\(([^()]*)\)\s*$`)
)

func dmCutDash(s string) (string, string, bool) {
	loc := dmDash.FindStringIndex(s)
	if loc == nil {
		return s, "", false
	}
	return strings.TrimSpace(s[:loc[0]]), strings.TrimSpace(s[loc[1]:]), true
}

// dmParseKey reads "emp_no - why", "`PK = <user_email>` - why", "tenant_id + region - why",
// "None - why" and a first line that only introduces "`SK = …`" lines below it.
func dmParseKey(f dmField) (names []string, why string, none, ok bool) {
	head, rest, dashed := dmCutDash(f.value)
	plain := strings.TrimSpace(strings.NewReplacer("`", "", "**", "").Replace(head))
	why = rest
	if !dashed {
		why = ""
	}
	contText := make([]string, 0, len(f.cont))
	for _, c := range f.cont {
		contText = append(contText, unescapeInline(c))
	}
	full := func() string {
		return strings.Join(append([]string{f.value}, contText...), "\n")
	}
	switch designer.Words(plain) {
	case "none", "n/a", "-", "no sort key", "(none)", "not used":
		return nil, strings.Join(append([]string{rest}, contText...), "\n"), true, true
	}
	if m := dmKeyAssign.FindStringSubmatch(plain); m != nil {
		return []string{m[1]}, full(), false, true
	}
	if m := dmTypeParens.FindStringSubmatch(plain); m != nil {
		if _, err := designer.ParseType(m[2]); err == nil {
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
			if !dmAttrName.MatchString(w) {
				names = nil
				break
			}
			names = append(names, w)
		}
	}
	if len(names) > 0 && len(names) == dmCountWords(parts) {
		if len(contText) > 0 {
			why = strings.TrimSpace(strings.Join(append([]string{why}, contText...), "\n"))
		}
		return names, why, false, true
	}
	// A first line that introduces the key's forms: "Entity-based sort keys:" + "`SK = #META`".
	name := ""
	for _, c := range contText {
		m := dmKeyAssign.FindStringSubmatch(strings.TrimLeft(strings.ReplaceAll(c, "`", ""), "-*+ "))
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

func dmCountWords(parts []string) int {
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

var dmBackticks = regexp.MustCompile("`([^`]+)`")

// dmTemplate writes a key template the way Dynaloom does: USER#<id> becomes USER#{id}.
func dmTemplate(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' {
			if j := strings.IndexByte(s[i:], '>'); j > 1 && !strings.ContainsAny(s[i+1:i+j], " <") {
				b.WriteString("{" + s[i+1:i+j] + "}")
				i += j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
