package designer

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ImportDataModelMD reads a dynamodb_data_model.md: the seed template and the layouts seen in the
// wild (sample tables before or after an index heading, "### GSI1: Name" headings with the same
// index name under several tables, "Sort Key: None", "(Sparse)" suffixes, keys written
// "`PK = <user_email>`", "Hash:"/"Range:" key lines, attribute types as "(Number)" or "(S)", the
// 5-column and the 9-column Access Pattern Mapping table). It reads tables, their GSIs and LSIs,
// their sample items, and the mapping's operation text per pattern; the narrative sections become
// d.Prose. Index sample tables and Validation Results are not read: Dynaloom computes them. Text
// that cannot be placed is kept in d.Prose.Sections under its heading, and a note says so.
//
// The error is a *ValidationError for field "file" when data is not a data model document at all.
func ImportDataModelMD(data []byte) (Design, []ImportNote, error) {
	text, notes, err := cleanInput(data)
	if err != nil {
		return Design{}, nil, err
	}
	p := dmParser{notes: notes}
	p.parse(text)
	if !p.recognised && dmWeakMarkers(strings.ToLower(text)) {
		p.recognised = true
	}
	if !p.recognised {
		return Design{}, nil, invalid("file", "is not a data model document: it has none of the template's sections (such as %q or a \"### Orders Table\" heading) and no table description", "## Table Designs")
	}
	d := p.design()
	if err := Check(d); err != nil {
		// The parser builds only what Check accepts; this guards against a gap in that promise.
		return Design{}, nil, fmt.Errorf("import data model document: %w", err)
	}
	slices.SortStableFunc(p.notes, func(a, b ImportNote) int { return a.Line - b.Line })
	return d, p.notes, nil
}

// Kinds of section of a data model document.
const (
	dmPreamble = iota
	dmUnknown
	dmPhilosophy
	dmAggregates
	dmTableDesigns
	dmTable
	dmIndex
	dmMapping
	dmHotPartitions
	dmTradeOffs
	dmValidation
)

type dmSection struct {
	kind  int
	title string
	level int
	line  int
	lines []srcLine
	// name, desc and local are what a table or index heading says; table is the index in p.tables
	// of a dmTable section, index that of a dmIndex section in p.indexes.
	name, desc   string
	local        bool
	table, index int
	leftover     []leftoverPart
}

// dmIndexDraft is an index while its table is not known for sure.
type dmIndexDraft struct {
	ix       Index
	local    bool
	table    int // index in p.tables, -1 while none
	line     int
	desc     string // the heading's words that are not the name
	sample   *dmSample
	served   string
	projNote string
}

type dmTableDraft struct {
	t       Table
	line    int
	sample  *dmSample
	served  string
	pkRaw   []string // key names as written, before types are known
	skRaw   []string
	keyLine int
}

// dmSample is a markdown table of sample items: its column names and its rows of cell text.
type dmSample struct {
	line    int
	columns []string
	rows    [][]string // unescaped cell text; "" is an empty cell
	rowLine []int
}

type dmParser struct {
	notes      []ImportNote
	sections   []*dmSection
	recognised bool
	title      string
	tables     []*dmTableDraft
	indexes    []*dmIndexDraft
	patterns   []Pattern
	prose      Prose
	// pending is an index sample table written before its index heading.
	pending *dmSample
}

func (p *dmParser) note(line int, format string, args ...any) {
	p.notes = append(p.notes, ImportNote{Line: line, Message: fmt.Sprintf(format, args...)})
}

var (
	dmIndexNumbered = regexp.MustCompile(`(?i)^((?:GSI|LSI)\d*)\s*(?::|-|–|—)\s*(.+)$`)
	dmIndexSuffix   = regexp.MustCompile(`(?i)^(.+?)\s+(GSI|LSI|global secondary index|local secondary index)\s*(\(.*\))?$`)
	dmTableHeading  = regexp.MustCompile(`(?i)^(.+?)\s+table\b\s*(\(.*\))?$`)
	dmTablePrefix   = regexp.MustCompile(`(?i)^table\s*:\s*(.+)$`)
	dmPlainName     = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,255}$`)
	dmAttrName      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-#]{0,119}$`)
)

// dmHeadingKind recognises the template's headings whatever their level, case or decoration, and
// returns the table or index name a table or index heading gives.
func dmHeadingKind(text string) (kind int, name, desc string, local bool) {
	plain := strings.TrimSpace(strings.Trim(unescapeInline(text), "*_: "))
	plain = strings.TrimSpace(strings.TrimRight(plain, "🔴✅⚠️❌ "))
	// Index and table headings first: "### GSI1: Products (Potential Hot Partition)" is an index.
	clean := strings.NewReplacer("`", "", "[", "", "]", "").Replace(plain)
	if m := dmIndexNumbered.FindStringSubmatch(clean); m != nil {
		rest := strings.TrimSpace(m[2])
		local = strings.HasPrefix(strings.ToUpper(m[1]), "LSI")
		base, suffix := dmCutParen(rest)
		if dmPlainName.MatchString(base) {
			return dmIndex, base, suffix, local
		}
		return dmIndex, m[1], rest, local
	}
	if m := dmIndexSuffix.FindStringSubmatch(clean); m != nil && dmPlainName.MatchString(m[1]) {
		local = strings.HasPrefix(strings.ToLower(m[2]), "l")
		return dmIndex, m[1], strings.TrimSpace(strings.Trim(m[3], "()")), local
	}
	if m := dmTableHeading.FindStringSubmatch(clean); m != nil && dmPlainName.MatchString(m[1]) {
		return dmTable, m[1], strings.TrimSpace(strings.Trim(m[2], "()")), false
	}
	if m := dmTablePrefix.FindStringSubmatch(clean); m != nil {
		base, suffix := dmCutParen(strings.TrimSpace(m[1]))
		if dmPlainName.MatchString(base) {
			return dmTable, base, suffix, false
		}
	}
	h := strings.ToLower(plain)
	switch {
	case strings.Contains(h, "design philosophy"):
		return dmPhilosophy, "", "", false
	case strings.Contains(h, "aggregate design"):
		return dmAggregates, "", "", false
	case h == "table designs" || h == "table design" || h == "tables":
		return dmTableDesigns, "", "", false
	case strings.Contains(h, "access pattern mapping") || h == "solved patterns":
		return dmMapping, "", "", false
	case strings.Contains(h, "hot partition"):
		return dmHotPartitions, "", "", false
	case strings.Contains(h, "trade-off") || strings.Contains(h, "tradeoff") || strings.Contains(h, "trade off"):
		return dmTradeOffs, "", "", false
	case strings.Contains(h, "validation results"):
		return dmValidation, "", "", false
	}
	return dmUnknown, "", "", false
}

// dmCutParen splits "Name (Sparse)" into "Name" and "Sparse".
func dmCutParen(s string) (string, string) {
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, "("); i > 0 {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1 : len(s)-1])
		}
	}
	return s, ""
}

// dmProseKind reports whether a section of this kind takes unknown sub-headings into its own text.
func dmProseKind(kind int) bool {
	switch kind {
	case dmPhilosophy, dmAggregates, dmHotPartitions, dmTradeOffs, dmUnknown, dmTableDesigns, dmValidation:
		return true
	}
	return false
}

func (p *dmParser) parse(text string) {
	lines := strings.Split(text, "\n")
	first, last := 0, len(lines)-1
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last > first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	if first < last && fenceMarker(lines[first]) != "" && strings.TrimSpace(lines[last]) == fenceMarker(lines[first]) {
		lines[first], lines[last] = "", ""
	}
	cur := &dmSection{kind: dmPreamble}
	p.sections = []*dmSection{cur}
	top := cur
	fence := ""
	titleSeen := false
	for i, l := range lines {
		n := i + 1
		if fence != "" {
			if strings.TrimSpace(l) == fence {
				fence = ""
			}
			cur.lines = append(cur.lines, srcLine{n, l})
			continue
		}
		if m := fenceMarker(l); m != "" {
			fence = m
			cur.lines = append(cur.lines, srcLine{n, l})
			continue
		}
		level, text, ok := headingLine(l)
		if !ok {
			cur.lines = append(cur.lines, srcLine{n, l})
			continue
		}
		kind, name, desc, local := dmHeadingKind(text)
		if level == 1 && !titleSeen && top.kind == dmPreamble && kind == dmUnknown {
			titleSeen = true
			p.title = text
			if _, generic := cutPrefixFold(strings.TrimSpace(text), "DynamoDB Data Model"); generic {
				p.recognised = true
			}
			continue
		}
		if kind == dmUnknown && dmProseKind(top.kind) && top.kind != dmUnknown && level > top.level ||
			kind == dmUnknown && top.kind == dmUnknown && level > top.level && top.level > 0 {
			cur.lines = append(cur.lines, srcLine{n, strings.Repeat("#", min(level-top.level+2, 6)) + " " + text})
			continue
		}
		if kind != dmUnknown {
			p.recognised = true
		}
		cur = &dmSection{kind: kind, title: oneLine(unescapeInline(text)), level: level, line: n, name: name, desc: desc, local: local}
		top = cur
		p.sections = append(p.sections, cur)
	}
	for i, s := range p.sections {
		var next *dmSection
		if i+1 < len(p.sections) {
			next = p.sections[i+1]
		}
		p.parseSection(s, next)
	}
}

var dmBoilerplate = map[string]bool{
	"🔴 **critical**: you must group gsis with the tables they belong to.":                true,
	"a markdown table which shows 5-10 representative items for the table":               true,
	"🔴 critical: list both writes and reads solved.":                                     true,
	"[show how each pattern maps to table operations and critical implementation notes]": true,
	"a markdown table which shows 5-10 representative items for the index. you must ensure it aligns with selected projection or sparseness. for attributes with no value required, just use an empty cell, do not populate with `null`.": true,
}

func (p *dmParser) keepItem(s *dmSection, it mdItem) {
	s.leftover = append(s.leftover, leftoverPart{first: it.line, last: it.line + it.span() - 1, text: strings.Join(it.lines, "\n")})
}

func (p *dmParser) parseSection(s *dmSection, next *dmSection) {
	switch s.kind {
	case dmTable:
		s.table = len(p.tables)
		d := &dmTableDraft{line: s.line}
		d.t.Name, d.t.Purpose = s.name, s.desc
		p.tables = append(p.tables, d)
	case dmIndex:
		s.index = len(p.indexes)
		d := &dmIndexDraft{table: len(p.tables) - 1, line: s.line, local: s.local, desc: s.desc, sample: p.pending}
		d.ix.Name = s.name
		d.ix.Sparse = strings.HasPrefix(strings.ToLower(s.desc), "sparse")
		p.indexes = append(p.indexes, d)
		p.pending = nil
	}
	its := items(s.lines)
	bulletsSeen := false
	for k, it := range its {
		if dmThematicBreak(it) {
			continue
		}
		if it.kind == itemText || it.kind == itemBullet {
			var rest []string
			for _, l := range it.lines {
				if !dmBoilerplate[strings.ToLower(strings.TrimSpace(l))] {
					rest = append(rest, l)
				}
			}
			if len(rest) == 0 {
				continue
			}
			if len(rest) != len(it.lines) {
				it.spanLines, it.lines = it.span(), rest
			}
		}
		handled := false
		switch s.kind {
		case dmTable, dmIndex:
			if it.kind == itemTable {
				handled = p.sampleItem(s, it, bulletsSeen, next, k == len(its)-1 || dmOnlyTablesAfter(its[k+1:]))
			} else {
				handled = p.field(s, it)
				bulletsSeen = bulletsSeen || handled
			}
		case dmMapping:
			if it.kind == itemTable {
				handled = p.mappingTable(s, it)
			}
		case dmValidation:
			handled = dmChecklistItem(it)
		default:
			if it.kind == itemText || it.kind == itemBullet {
				// A loose table line is read, and kept as written as well.
				p.looseTableLine(it)
			}
		}
		if !handled {
			p.keepItem(s, it)
		}
	}
	p.placeProse(s)
}

func dmOnlyTablesAfter(rest []mdItem) bool {
	for _, it := range rest {
		if it.kind != itemTable {
			return false
		}
	}
	return true
}

func dmChecklistItem(it mdItem) bool {
	if it.kind != itemBullet {
		return false
	}
	for _, l := range it.lines {
		t := strings.ToLower(strings.TrimSpace(l))
		if !strings.HasPrefix(t, "- [") && !strings.HasPrefix(t, "* [") {
			return false
		}
	}
	return true
}

// placeProse puts the text a section kept where it belongs in d.Prose.
func (p *dmParser) placeProse(s *dmSection) {
	body := proseOf(s.leftover)
	var target *string
	switch s.kind {
	case dmPhilosophy:
		target = &p.prose.DesignPhilosophy
	case dmAggregates:
		target = &p.prose.AggregateDecisions
	case dmHotPartitions:
		target = &p.prose.HotPartitions
	case dmTradeOffs:
		target = &p.prose.TradeOffs
	}
	if s.kind == dmValidation {
		p.note(s.line, "the Validation Results are not read: Dynaloom ticks them from the design")
	}
	if target != nil {
		if body == "" {
			return
		}
		if *target != "" {
			*target += "\n\n"
		}
		*target += body
		return
	}
	title := s.title
	switch s.kind {
	case dmPreamble:
		title = "Introduction"
		if body == "" {
			return
		}
		p.note(0, "text before the first section was kept as prose")
	case dmUnknown:
		p.note(s.line, "section %q is not part of the template; it was kept as prose", s.title)
	default:
		if body == "" {
			return
		}
		p.note(s.line, "text under %q that Dynaloom does not read was kept as prose", s.title)
	}
	p.prose.Sections = append(p.prose.Sections, Section{Title: truncateRunes(title, MaxNameLen), Body: body})
}

// dmReadSample reads a markdown table as sample items: a header row, an optional separator, rows.
func dmReadSample(it mdItem) (*dmSample, bool) {
	if len(it.lines) < 2 {
		return nil, false
	}
	header := splitRow(it.lines[0])
	st := &dmSample{line: it.line}
	for _, h := range header {
		st.columns = append(st.columns, dmCellText(h))
	}
	rows := it.lines[1:]
	start := it.line + 1
	if isSeparatorRow(splitRow(rows[0])) {
		rows, start = rows[1:], start+1
	} else {
		return nil, false
	}
	for i, l := range rows {
		cells := splitRow(l)
		row := make([]string, len(cells))
		empty := true
		for j, c := range cells {
			row[j] = dmCellText(c)
			empty = empty && row[j] == ""
		}
		if empty {
			continue
		}
		st.rows = append(st.rows, row)
		st.rowLine = append(st.rowLine, start+i)
	}
	return st, true
}

// dmCellText is the text of a cell: unescaped, without the backticks or bold around the whole.
func dmCellText(c string) string {
	t := unescapeInline(c)
	for _, w := range []string{"`", "**"} {
		if len(t) > 2*len(w) && strings.HasPrefix(t, w) && strings.HasSuffix(t, w) && !strings.Contains(t[len(w):len(t)-len(w)], w) {
			t = strings.TrimSpace(t[len(w) : len(t)-len(w)])
		}
	}
	return t
}

// sampleItem places a markdown table found in a table or index section. A table that follows
// the section's fields, with an index heading next, is that index's sample, as the seed template
// writes it.
func (p *dmParser) sampleItem(s *dmSection, it mdItem, bulletsSeen bool, next *dmSection, last bool) bool {
	st, ok := dmReadSample(it)
	if !ok {
		return false
	}
	if len(st.rows) == 0 && slices.ContainsFunc(st.columns, func(c string) bool { return strings.HasPrefix(c, "$") }) {
		return true // the template's own placeholder table
	}
	has := false
	switch s.kind {
	case dmTable:
		has = p.tables[s.table].sample != nil
	case dmIndex:
		has = p.indexes[s.index].sample != nil
	}
	trailing := has || bulletsSeen
	// A table's own sample written after its fields starts with the table's partition key.
	own := s.kind == dmTable && !has && len(p.tables[s.table].pkRaw) > 0 && len(st.columns) > 0 && st.columns[0] == p.tables[s.table].pkRaw[0]
	if trailing && !own && last && next != nil && next.kind == dmIndex && p.pending == nil {
		p.pending = st
		return true
	}
	if has {
		p.note(it.line, "a second sample table under %q was kept as prose", s.title)
		return false
	}
	switch s.kind {
	case dmTable:
		p.tables[s.table].sample = st
	case dmIndex:
		p.indexes[s.index].sample = st
	}
	return true
}

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
	cont  []string
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

// field reads one labelled bullet of a table or index section.
func (p *dmParser) field(s *dmSection, it mdItem) bool {
	f, ok := dmReadField(it)
	if !ok {
		if s.kind == dmIndex {
			return p.indexKeyLine(s, it)
		}
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
	switch {
	case f.label == "purpose":
		dmAppend(&t.Purpose, f.full())
	case f.label == "aggregate boundary":
		dmAppend(&t.AggregateBoundary, f.full())
	case f.label == "partition key" || f.label == "pk" && f.paren == "" || f.label == "hash key":
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
	case f.label == "sort key" || f.label == "sk" && f.paren == "" || f.label == "range key":
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
	case strings.Contains(f.label, "taxonomy") || f.label == "entity types" || f.label == "entities":
		return p.taxonomy(d, f)
	case f.label == "attributes" || f.label == "key attributes":
		if left := p.attributes(d, f.full()); len(left) > 0 {
			p.note(it.line, "table %s: attribute text %q was not read as attributes; the bullet was kept as prose", t.Name, strings.Join(left, ", "))
			return false
		}
	case strings.HasSuffix(f.label, " entity") || strings.HasSuffix(f.label, " entities"):
		p.entityParagraph(d, f)
	case strings.Contains(f.label, "bounded read"):
		dmAppend(&t.BoundedReads, f.full())
	case strings.Contains(f.label, "access patterns served") || f.label == "patterns served":
		dmAppend(&d.served, f.full())
	case strings.Contains(f.label, "capacity"):
		dmAppend(&t.Capacity, f.full())
	case f.label == "ttl" || strings.Contains(f.label, "time to live"):
		name := dmFirstName(f.value)
		if name == "" {
			return false
		}
		t.TTLAttribute = name
		return false // the explanation is kept as prose
	case f.label == "billing mode":
		return p.billing(t, f.value)
	case f.paren != "" && (strings.EqualFold(f.paren, "partition key") || strings.EqualFold(f.paren, "sort key")):
		return p.looseKey(d, f)
	default:
		return false
	}
	return true
}

func (p *dmParser) billing(t *Table, v string) bool {
	w := words(v)
	switch {
	case strings.Contains(w, "on demand") || strings.Contains(w, "pay per request"):
		t.BillingMode = OnDemand
	case strings.Contains(w, "provisioned"):
		t.BillingMode = Provisioned
	default:
		return false
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
	if tt, err := parseType(typ); err == nil && typ != "" {
		dmAddAttribute(&d.t, Attribute{Name: name, Type: tt})
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
	switch {
	case f.label == "purpose" || f.label == "use case":
		dmAppend(&ix.Purpose, f.full())
	case f.label == "partition key" || f.label == "hash key" || f.label == "hash" || f.label == "pk":
		names, why, _, ok := dmParseKey(f)
		dmAppend(&ix.PartitionKeyWhy, why)
		if !ok || len(names) == 0 {
			p.note(it.line, "index %s: the partition key %q names no attribute Dynaloom can read", ix.Name, oneLine(f.value))
			return true
		}
		ix.PartitionKey = p.indexKey(it.line, ix.Name, names)
	case f.label == "sort key" || f.label == "range key" || f.label == "range" || f.label == "sk":
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
	case f.label == "keys" || f.label == "key schema":
		for _, c := range f.cont {
			if !p.indexKeyLine(s, mdItem{kind: itemBullet, line: it.line, lines: []string{c}}) {
				return false
			}
		}
	case f.label == "projection":
		p.projection(d, it, f)
	case strings.Contains(f.label, "projected attributes"):
		p.patternAttributes(d, it, f.full())
	case f.label == "sparse":
		v := f.full()
		switch w := words(v); {
		case w == "no" || strings.HasPrefix(w, "no ") || w == "none" || w == "false" || strings.HasPrefix(w, "not "):
			ix.Sparse = false
		case w == "" || w == "n/a":
		default:
			ix.Sparse = true
		}
		ix.SparseNote = v
	case strings.Contains(f.label, "access patterns served") || f.label == "patterns served":
		dmAppend(&d.served, f.full())
	case strings.Contains(f.label, "capacity"):
		dmAppend(&ix.Capacity, f.full())
	case strings.Contains(f.label, "multi-attribute key"):
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

// indexKey turns key names into key attributes; types are settled once the table is known.
func (p *dmParser) indexKey(line int, name string, names []string) []KeyAttribute {
	if len(names) > 4 {
		p.note(line, "index %s: a key has at most 4 attributes; %s were left out", name, strings.Join(names[4:], ", "))
		names = names[:4]
	}
	out := make([]KeyAttribute, len(names))
	for i, n := range names {
		out[i] = KeyAttribute{Name: n}
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
	switch words(plain) {
	case "none", "n/a", "-", "no sort key", "(none)", "not used":
		return nil, strings.Join(append([]string{rest}, contText...), "\n"), true, true
	}
	if m := dmKeyAssign.FindStringSubmatch(plain); m != nil {
		return []string{m[1]}, full(), false, true
	}
	if m := dmTypeParens.FindStringSubmatch(plain); m != nil {
		if _, err := parseType(m[2]); err == nil {
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

// taxonomy reads the SK taxonomy: each template in backticks, with the words that follow it.
func (p *dmParser) taxonomy(d *dmTableDraft, f dmField) bool {
	text := f.full()
	if f.label == "entity types" || f.label == "entities" {
		for _, c := range f.cont {
			cf, ok := dmReadField(mdItem{kind: itemBullet, lines: []string{c}})
			if ok && (strings.Contains(c, "PK =") || strings.Contains(c, "SK =")) {
				p.entityParagraph(d, dmField{raw: cf.raw, label: cf.label, value: cf.value, paren: cf.paren})
				continue
			}
		}
		if f.value == "" {
			return true
		}
		text = f.value
	}
	locs := dmBackticks.FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return false // no key templates: the text is kept as written
	}
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		tmpl := dmTemplate(text[loc[2]:loc[3]])
		desc := strings.TrimSpace(strings.Trim(strings.TrimSpace(text[loc[1]:end]), ",;"))
		if inner, ok := strings.CutPrefix(desc, "("); ok {
			if j := strings.Index(inner, ")"); j >= 0 {
				desc = strings.TrimSpace(inner[:j] + " " + inner[j+1:])
			}
		}
		d.t.EntityTypes = append(d.t.EntityTypes, EntityType{Entity: dmEntityName(tmpl, desc), SKTemplate: tmpl, Description: desc})
	}
	return true
}

// entityParagraph reads "**USER Entity** (`PK = <user_email>`, `SK = #META`):" and the attribute
// lines below it.
func (p *dmParser) entityParagraph(d *dmTableDraft, f dmField) {
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f.raw, " Entity"), " entity"))
	et := EntityType{Entity: dmTitleCase(name)}
	for _, m := range dmBackticks.FindAllStringSubmatch(f.paren+" "+f.value, -1) {
		k, v, ok := strings.Cut(m[1], "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "PK", d.pkName():
			et.PKTemplate = dmTemplate(v)
		case "SK", d.skName():
			et.SKTemplate = dmTemplate(v)
		}
	}
	if et.Entity == "" {
		return
	}
	d.t.EntityTypes = append(d.t.EntityTypes, et)
	p.attributes(d, strings.Join(f.cont, "\n"))
}

func (d *dmTableDraft) pkName() string {
	if len(d.pkRaw) > 0 {
		return d.pkRaw[0]
	}
	return "PK"
}

func (d *dmTableDraft) skName() string {
	if len(d.skRaw) > 0 {
		return d.skRaw[0]
	}
	return "SK"
}

func dmTitleCase(s string) string {
	if s != strings.ToUpper(s) {
		return s
	}
	ws := strings.Fields(strings.ToLower(s))
	for i, w := range ws {
		ws[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(ws, " ")
}

// dmEntityName guesses the entity an SK taxonomy line is about: "(user entity)" gives User,
// `POST#<post_id>` gives Post.
func dmEntityName(tmpl, desc string) string {
	w := strings.Fields(strings.ToLower(desc))
	for i, x := range w {
		if (x == "entity" || x == "entities" || x == "record" || x == "records") && i > 0 {
			return dmTitleCase(strings.ToUpper(strings.Trim(w[i-1], "(),")))
		}
	}
	prefix := tmpl
	if i := strings.IndexAny(prefix, "#{<"); i >= 0 {
		prefix = prefix[:i]
	}
	prefix = strings.Trim(prefix, "#_- ")
	if prefix != "" && dmAttrName.MatchString(prefix) {
		return dmTitleCase(strings.ToUpper(prefix))
	}
	if tmpl != "" {
		return tmpl
	}
	return truncateRunes(oneLine(desc), 60)
}

var dmAttrEntry = regexp.MustCompile(`^[-*+]?\s*` + "`?" + `([A-Za-z_][A-Za-z0-9_.\-#]*)` + "`?" + `\s*(?:\(([^()]*)\))?\s*(?::\s*(.*)|[-–—]\s*(.*))?$`)

// attributes reads "emp_no (Number), name (String)", "`PK` (S): user email" lines, and groups such
// as "user details (username, firstName)". It returns the entries it could not read.
func (p *dmParser) attributes(d *dmTableDraft, text string) []string {
	var left []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		entries := []string{line}
		if !strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "*") {
			entries = dmSplitTop(line)
		}
		for _, e := range entries {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			m := dmAttrEntry.FindStringSubmatch(e)
			if m == nil {
				// "user details (username, firstName) denormalized": the names in the parentheses.
				open, end := strings.Index(e, "("), strings.Index(e, ")")
				if open > 0 && end > open {
					inner := dmSplitTop(e[open+1 : end])
					if len(inner) > 1 && !slices.ContainsFunc(inner, func(s string) bool { return !dmAttrName.MatchString(strings.TrimSpace(s)) }) {
						desc := strings.Join(strings.Fields(e[:open]+" "+e[end+1:]), " ")
						for _, n := range inner {
							dmAddAttribute(&d.t, Attribute{Name: strings.TrimSpace(n), Description: desc})
						}
						continue
					}
				}
				// "post_owner_id for notification generation": a name that looks like one.
				if name, rest, ok := strings.Cut(e, " "); ok && dmLooksLikeName(name, d.sample) {
					dmAddAttribute(&d.t, Attribute{Name: strings.Trim(name, "`"), Description: strings.TrimSpace(rest)})
					continue
				}
				left = append(left, e)
				continue
			}
			a := Attribute{Name: m[1], Description: strings.TrimSpace(m[3] + m[4])}
			if m[2] != "" {
				switch t, err := parseType(dmTypeWord(m[2])); {
				case err == nil:
					a.Type = t
				case strings.EqualFold(strings.TrimSpace(m[2]), "ttl"):
					d.t.TTLAttribute = a.Name
				default:
					a.Description = strings.TrimSpace(strings.TrimSpace(m[2]) + " " + a.Description)
				}
			}
			dmAddAttribute(&d.t, a)
		}
	}
	return left
}

// dmTypeWord reads the spellings of types data models use: "StringSet", "Number (epoch)", "Bool".
func dmTypeWord(s string) string {
	w := strings.TrimSpace(s)
	if i := strings.IndexAny(w, ",;"); i > 0 {
		w = w[:i]
	}
	switch strings.ToLower(strings.ReplaceAll(w, " ", "")) {
	case "stringset":
		return "SS"
	case "numberset":
		return "NS"
	case "binaryset":
		return "BS"
	case "integer", "int", "float", "decimal", "long", "double":
		return "N"
	}
	return w
}

// dmSplitTop splits at commas outside parentheses and brackets.
func dmSplitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func dmAddAttribute(t *Table, a Attribute) {
	if _, err := cleanName("name", a.Name); err != nil {
		return
	}
	for i, x := range t.Attributes {
		if x.Name == a.Name {
			if x.Type == "" {
				t.Attributes = slices.Clone(t.Attributes)
				t.Attributes[i].Type = a.Type
			}
			return
		}
	}
	t.Attributes = append(t.Attributes, a)
}

// dmFirstName is the first word of "expiresAt field for automatic cleanup".
func dmFirstName(v string) string {
	fs := strings.Fields(strings.ReplaceAll(v, "`", ""))
	if len(fs) == 0 {
		return ""
	}
	n := strings.Trim(fs[0], ",.:;()")
	if !dmAttrName.MatchString(n) {
		return ""
	}
	return n
}

var dmProjectionWords = []struct {
	word, typ string
}{
	{"keys_only", KeysOnly}, {"keys-only", KeysOnly}, {"keys only", KeysOnly}, {"keysonly", KeysOnly},
	{"include", Include}, {"all", All},
}

// projection reads "INCLUDE (a, b) - why", "KEYS_ONLY - why", "keys-only", "ALL".
func (p *dmParser) projection(d *dmIndexDraft, it mdItem, f dmField) {
	head, why, _ := dmCutDash(f.value)
	plain := strings.ReplaceAll(strings.TrimSpace(head), "`", "")
	lower := strings.ToLower(plain)
	for _, w := range dmProjectionWords {
		if !strings.HasPrefix(lower, w.word) {
			continue
		}
		rest := strings.TrimSpace(plain[len(w.word):])
		if rest != "" && !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, ":") {
			continue
		}
		d.ix.Projection.Type = w.typ
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
		if w.typ == Include {
			list := rest
			if strings.HasPrefix(list, "(") && strings.HasSuffix(list, ")") {
				list = list[1 : len(list)-1]
			} else if list == "" {
				list = why
			}
			var attrs []string
			for _, a := range dmSplitTop(list) {
				a = strings.TrimSpace(a)
				if a == "" {
					continue
				}
				if !dmAttrName.MatchString(a) {
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
				for _, a := range dmSplitTop(why) {
					if n := dmFirstName(a); n != "" {
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
		p.note(it.line, "index %s: projection %q is not KEYS_ONLY, INCLUDE or ALL; ALL was assumed and the text kept in its justification", d.ix.Name, oneLine(f.value))
		why = f.value
	}
	dmAppend(&d.ix.ProjectionWhy, why)
	for _, c := range f.cont {
		cf, ok := dmReadField(mdItem{kind: itemBullet, lines: []string{c}})
		if ok && strings.Contains(cf.label, "projected attributes") {
			p.patternAttributes(d, it, cf.full())
			continue
		}
		dmAppend(&d.ix.ProjectionWhy, unescapeInline(c))
	}
}

var dmPatternRef = regexp.MustCompile(`(?i)(?:pattern\s*#?|\bAP|#)\s*(\d{1,6})\b`)

// patternAttributes reads "Pattern #7 needs dept_no + count, Pattern #9 needs dept_no + salary".
func (p *dmParser) patternAttributes(d *dmIndexDraft, it mdItem, text string) {
	locs := dmPatternRef.FindAllStringSubmatchIndex(text, -1)
	clean := len(locs) > 0
	for i, loc := range locs {
		n, _ := strconv.Atoi(text[loc[2]:loc[3]])
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		seg := strings.TrimSpace(text[loc[1]:end])
		seg = strings.TrimSpace(strings.TrimRight(seg, ",;. "))
		for _, lead := range []string{"needs", "requires", "uses", "reads", ":", "-", "—"} {
			if rest, ok := cutPrefixFold(seg, lead); ok {
				seg = strings.TrimSpace(rest)
			}
		}
		var attrs []string
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return r == '+' || r == ',' || r == '&' }) {
			part = strings.TrimSpace(part)
			name := dmFirstName(part)
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
		if len(attrs) > 0 && n > 0 {
			d.ix.PatternAttributes = append(d.ix.PatternAttributes, PatternAttributes{Pattern: n, Attributes: attrs})
		}
	}
	if !clean {
		dmAppend(&d.ix.ProjectionWhy, "Per-pattern projected attributes: "+text)
		p.note(it.line, "index %s: the per-pattern projected attributes were read in part; the wording was kept in the projection justification", d.ix.Name)
	}
}

var dmTableNameLine = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?\*\*table name:?\*\*:?\s*(.+)$`)

// looseTableLine reads "**Table Name:** `orders`" in documents without table headings, and the
// key and billing lines that go with it. The text stays in the section's prose as well.
func (p *dmParser) looseTableLine(it mdItem) bool {
	if m := dmTableNameLine.FindStringSubmatch(it.lines[0]); m != nil {
		name := strings.Trim(strings.TrimSpace(unescapeInline(m[1])), "`")
		if dmPlainName.MatchString(name) && !slices.ContainsFunc(p.tables, func(d *dmTableDraft) bool { return d.t.Name == name }) {
			p.tables = append(p.tables, &dmTableDraft{line: it.line, t: Table{Name: name}})
			p.recognised = true
		}
		return true
	}
	if len(p.tables) == 0 {
		return false
	}
	d := p.tables[len(p.tables)-1]
	f, ok := dmReadField(it)
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

// Columns of the Access Pattern Mapping table, 5- and 9-column forms.
func dmMappingColumn(h string) string {
	switch {
	case h == "pattern" || h == "pattern #" || h == "#" || h == "ap" || h == "id" || h == "pattern id" || h == "ap #" || h == "no" || h == "no.":
		return "number"
	case strings.Contains(h, "description") || h == "access pattern":
		return "description"
	case strings.Contains(h, "operation"):
		return "operations"
	case strings.Contains(h, "table") || strings.Contains(h, "index") || strings.Contains(h, "gsi"):
		return "tables"
	case h == "type":
		return "type"
	case strings.Contains(h, "rps"):
		return "peak"
	case strings.Contains(h, "items returned") || h == "items" || strings.Contains(h, "item count"):
		return "items"
	case strings.Contains(h, "size"):
		return "size"
	case strings.Contains(h, "note"):
		return "notes"
	}
	return ""
}

var dmMappingNumber = regexp.MustCompile(`(?i)^(?:ap|pattern|no\.?)?\s*#?\s*(\d{1,6})(?:\s*(?:-|–|to)\s*(?:ap|#)?\s*(\d{1,6}))?$`)

// dmMaxRange bounds "AP12-14": a wider range is more likely a typo than a group of patterns.
const dmMaxRange = 50

func (p *dmParser) mappingTable(s *dmSection, it mdItem) bool {
	header := splitRow(it.lines[0])
	cols := map[string]int{}
	for i, h := range header {
		if c := dmMappingColumn(headerName(h)); c != "" {
			if _, dup := cols[c]; !dup {
				cols[c] = i
			}
		}
	}
	_, hasNumber := cols["number"]
	_, hasOps := cols["operations"]
	_, hasDesc := cols["description"]
	if !hasNumber || !hasOps && !hasDesc {
		return false
	}
	rows := it.lines[1:]
	first := it.line + 1
	if len(rows) > 0 && isSeparatorRow(splitRow(rows[0])) {
		rows, first = rows[1:], first+1
	}
	var unread []string
	for ri, l := range rows {
		line := first + ri
		cells := splitRow(l)
		get := func(c string) string {
			if i, ok := cols[c]; ok && i < len(cells) {
				return unescapeInline(cells[i])
			}
			return ""
		}
		m := dmMappingNumber.FindStringSubmatch(strings.TrimSpace(markup.Replace(get("number"))))
		if m == nil {
			p.note(line, "mapping row %q has no pattern number Dynaloom can read; it was kept as prose", oneLine(get("number")))
			unread = append(unread, l)
			continue
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
			if hi < lo || hi-lo > dmMaxRange {
				p.note(line, "mapping row %q: the range was read as pattern %d alone", get("number"), lo)
				hi = lo
			} else if hi > lo {
				p.note(line, "mapping row %s was applied to patterns %d to %d", get("number"), lo, hi)
			}
		}
		if lo < 1 {
			p.note(line, "mapping row %q has no pattern number Dynaloom can read; it was kept as prose", get("number"))
			unread = append(unread, l)
			continue
		}
		var notes []string
		add := func(label, v string) {
			if v != "" {
				notes = append(notes, label+": "+v)
			}
		}
		add("Tables/Indexes", get("tables"))
		add("Operation type", get("type"))
		var peak *float64
		if raw := get("peak"); raw != "" {
			if v, err := ParseRPS(raw); err == nil {
				peak = v
			} else {
				add("Peak RPS", raw)
				p.note(line, "pattern %d: peak RPS %q was kept in the mapping notes", lo, raw)
			}
		}
		for i, h := range header {
			if i >= len(cells) || slices.Contains(dmColumnsUsed(cols), i) || cells[i] == "" {
				continue
			}
			add(dmCellText(h), unescapeInline(cells[i]))
		}
		if n := get("notes"); n != "" {
			notes = append(notes, n)
		}
		for n := lo; n <= hi; n++ {
			p.mapPattern(line, n, get("description"), get("operations"), strings.Join(notes, "\n"), peak, get("items"), get("size"), get("type"))
		}
	}
	if len(unread) > 0 {
		head := it.lines[:min(2, len(it.lines)):min(2, len(it.lines))]
		s.leftover = append(s.leftover, leftoverPart{first: it.line, last: it.line + it.span() - 1, text: strings.Join(append(head, unread...), "\n")})
	}
	return true
}

func dmColumnsUsed(m map[string]int) []int {
	out := make([]int, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func (p *dmParser) mapPattern(line, n int, desc, ops, notes string, peak *float64, items, size, opType string) {
	for i := range p.patterns {
		pt := &p.patterns[i]
		if pt.Number != n {
			continue
		}
		p.note(line, "pattern %d is mapped twice; the operations were joined", n)
		dmAppend(&pt.Mapping.Source, ops)
		dmAppend(&pt.Mapping.Notes, notes)
		pt.Mapping.Operations = append(pt.Mapping.Operations, ParseOperationText(ops)...)
		return
	}
	pt := Pattern{Number: n, Description: desc, PeakRPS: peak, ResultBound: items, SizeBand: size, Status: StatusOpen}
	pt.Mapping.Source, pt.Mapping.Notes = ops, notes
	// What the operation cell says, as far as it can be read; the cell itself stays in Source.
	pt.Mapping.Operations = ParseOperationText(ops)
	switch opType {
	case "GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems":
		pt.Type = Read
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		pt.Type = Write
	}
	p.patterns = append(p.patterns, pt)
}

// design settles what needed the whole document: which table each index belongs to, the
// attribute types, the sample items.
func (p *dmParser) design() Design {
	d := Design{Name: dmTitleName(p.title), Patterns: p.patterns, Prose: p.prose}
	if d.Name == "" && len(d.Tables) > 0 {
		// A data model rarely names itself; its tables say what it is about.
		d.Name = d.Tables[0].Name
		if len(d.Tables) > 1 {
			d.Name += fmt.Sprintf(" and %d more tables", len(d.Tables)-1)
		}
	}
	if d.Name == "" {
		d.Name = "Untitled design"
	}
	d.Name = truncateRunes(d.Name, MaxNameLen)
	if p.pending != nil {
		p.note(p.pending.line, "a sample table before an index heading was not placed")
	}
	for _, ix := range p.indexes {
		if ix.table < 0 {
			if len(p.tables) == 0 {
				p.note(ix.line, "index %s comes before any table; it was kept as prose only", ix.ix.Name)
				continue
			}
			ix.table = 0
			p.note(ix.line, "index %s comes before any table; it was given to table %s", ix.ix.Name, p.tables[0].t.Name)
		}
	}
	if len(p.tables) == 0 {
		p.note(0, "no table was found in the template's form (\"### Orders Table\" with its bullets); the document was kept as prose")
	}
	seen := map[string]bool{}
	for ti, td := range p.tables {
		if seen[td.t.Name] {
			p.note(td.line, "table %s is described twice; both were kept", td.t.Name)
		}
		seen[td.t.Name] = true
		t := p.settleTable(td)
		for _, ix := range p.indexes {
			if ix.table != ti {
				continue
			}
			settled := p.settleIndex(t, ix)
			if _, _, _, dup := dmIndexByName(t, settled.Name); dup {
				p.note(ix.line, "table %s has two indexes named %s; both were kept", t.Name, settled.Name)
			}
			if ix.local {
				t.LSIs = append(t.LSIs, settled)
			} else {
				t.GSIs = append(t.GSIs, settled)
			}
		}
		d.Tables = append(d.Tables, t)
	}
	return Normalize(d)
}

func dmIndexByName(t Table, name string) (Index, bool, int, bool) {
	for i, ix := range t.GSIs {
		if ix.Name == name {
			return ix, false, i, true
		}
	}
	for i, ix := range t.LSIs {
		if ix.Name == name {
			return ix, true, i, true
		}
	}
	return Index{}, false, -1, false
}

func dmTitleName(title string) string {
	title = strings.Join(strings.Fields(title), " ")
	rest, ok := cutPrefixFold(strings.TrimSpace(title), "DynamoDB Data Model")
	if !ok {
		return oneLine(unescapeInline(title))
	}
	rest = strings.TrimSpace(rest)
	for _, sep := range []string{"—", "–", "-", ":"} {
		if after, ok := strings.CutPrefix(rest, sep); ok {
			return oneLine(unescapeInline(after))
		}
	}
	if rest == "" {
		return ""
	}
	return oneLine(unescapeInline(title))
}

// dmColumnTypes infers a type per column of a sample table: N when every value is a number, BOOL
// when every value is true or false; "" otherwise.
func dmColumnTypes(st *dmSample) map[string]Type {
	out := map[string]Type{}
	if st == nil {
		return out
	}
	for c, name := range st.columns {
		numeric, boolean, any := true, true, false
		for _, row := range st.rows {
			if c >= len(row) || row[c] == "" {
				continue
			}
			any = true
			numeric = numeric && checkNumber(row[c]) == nil
			boolean = boolean && (row[c] == "true" || row[c] == "false")
		}
		switch {
		case !any:
		case numeric:
			out[name] = N
		case boolean:
			out[name] = BOOL
		}
	}
	return out
}

func (p *dmParser) settleTable(td *dmTableDraft) Table {
	t := td.t
	t.Attributes = slices.Clone(t.Attributes)
	inferred := dmColumnTypes(td.sample)
	declared := map[string]Type{}
	for i, a := range t.Attributes {
		if a.Type == "" {
			a.Type = inferred[a.Name]
			if a.Type == "" {
				a.Type = S
			}
			t.Attributes[i].Type = a.Type
		}
		declared[a.Name] = a.Type
	}
	hasColumn := func(name string) bool { return td.sample != nil && slices.Contains(td.sample.columns, name) }
	// A key named by a value it holds ("Sort Key: PROFILE") is the column that holds it.
	resolve := func(names []string, pos int, what string) string {
		if len(names) == 0 {
			return ""
		}
		name := names[0]
		if td.sample == nil || hasColumn(name) || pos >= len(td.sample.columns) {
			return name
		}
		for _, row := range td.sample.rows {
			if pos < len(row) && row[pos] == name {
				col := td.sample.columns[pos]
				p.note(td.keyLine, "table %s: the %s %q is a value of column %s; %s was taken as the key", t.Name, what, name, col, col)
				return col
			}
		}
		return name
	}
	pk := resolve(td.pkRaw, 0, "partition key")
	sk := resolve(td.skRaw, 1, "sort key")
	if pk == "" && td.sample != nil && len(td.sample.columns) > 0 {
		pk = td.sample.columns[0]
		p.note(td.line, "table %s states no partition key; the first column, %s, was taken", t.Name, pk)
	}
	if pk == "" {
		p.note(td.line, "table %s has no partition key", t.Name)
	}
	keyType := func(name string) Type {
		typ := declared[name]
		if typ == "" {
			typ = inferred[name]
		}
		if !typ.KeyType() {
			if typ != "" {
				p.note(td.line, "table %s: key attribute %s has type %s; a key is S, N or B, so S was used", t.Name, name, typ)
			}
			typ = S
		}
		return typ
	}
	t.PartitionKey = KeyAttribute{Name: pk, Type: keyType(pk)}
	if sk != "" {
		t.SortKey = &KeyAttribute{Name: sk, Type: keyType(sk)}
	}
	if td.served != "" {
		dmAppend(&t.Capacity, "Access patterns served: "+td.served)
	}
	if td.sample != nil {
		types := map[string]Type{}
		for k, v := range inferred {
			types[k] = v
		}
		for k, v := range declared {
			types[k] = v
		}
		types[t.PartitionKey.Name] = t.PartitionKey.Type
		if t.SortKey != nil {
			types[t.SortKey.Name] = t.SortKey.Type
		}
		t.Items = p.sampleItems(t.Name, td.sample, types)
	}
	if t.TTLAttribute != "" {
		if _, err := cleanName("ttl", t.TTLAttribute); err != nil {
			t.TTLAttribute = ""
		}
	}
	return t
}

// sampleItems turns the rows of a sample table into items: an empty cell is an absent attribute.
func (p *dmParser) sampleItems(table string, st *dmSample, types map[string]Type) []SampleItem {
	var cols []int
	seen := map[string]bool{}
	for i, c := range st.columns {
		switch _, err := cleanName("name", c); {
		case err != nil:
			p.note(st.line, "table %s: column %d has no usable name; its values were left out of the items", table, i+1)
		case seen[c]:
			p.note(st.line, "table %s: column %s appears twice; the second was left out of the items", table, c)
		default:
			seen[c] = true
			cols = append(cols, i)
		}
	}
	nulls, bad := 0, 0
	items := make([]SampleItem, 0, len(st.rows))
	for r, row := range st.rows {
		if len(row) > len(st.columns) {
			p.note(st.rowLine[r], "table %s: the row has more cells than the header; the extra cells were left out", table)
		}
		it := Item{}
		for _, c := range cols {
			if c >= len(row) || row[c] == "" {
				continue
			}
			name := st.columns[c]
			if strings.EqualFold(row[c], "null") {
				// The template asks for an empty cell; the text is kept for MOD011 to point at.
				nulls++
				it[name] = Str(row[c])
				continue
			}
			v, err := dmCellValue(row[c], types[name])
			switch {
			case err != nil:
				bad++
				v = Str(row[c])
			case v.Type == N && types[name] == "":
				v = Str(row[c]) // a number in a column that also holds text stays text
			}
			it[name] = v
		}
		items = append(items, SampleItem{ID: "i" + strconv.Itoa(len(items)+1), Item: it})
	}
	if nulls > 0 {
		p.note(st.line, "table %s: %d cell(s) hold the text null; they were kept as text (an empty cell means the attribute is absent)", table, nulls)
	}
	if bad > 0 {
		p.note(st.line, "table %s: %d value(s) did not fit their attribute's type and were kept as text", table, bad)
	}
	return items
}

// dmCellValue reads a cell as a value of type t, or infers the type when t is "". Beyond what
// ParseCell takes, it accepts what documents write: plain JSON for maps and lists ({"city": "Lyon"}),
// loose sets (a, b) and numbers with thousands separators.
func dmCellValue(text string, t Type) (Value, error) {
	if t == "" {
		return InferCell(text), nil
	}
	v, err := ParseCell(text, t)
	if err == nil {
		return v, nil
	}
	switch t {
	case N:
		if s := strings.ReplaceAll(text, ",", ""); s != text && checkNumber(s) == nil {
			return Num(s), nil
		}
	case M, L:
		if v, ok := dmJSONValue(text); ok && v.Type == t {
			return v, nil
		}
	case SS, NS:
		members := dmSetMembers(text)
		check := (func(string) error)(nil)
		if t == NS {
			check = checkNumber
		}
		if len(members) > 0 && checkSet(members, check) == nil {
			return Value{Type: t, SS: members}, nil
		}
	}
	return Value{}, err
}

// dmSetMembers reads ["a", "b"], {a, b} or a, b.
func dmSetMembers(text string) []string {
	var arr []any
	if err := json.Unmarshal([]byte(text), &arr); err == nil {
		var out []string
		for _, a := range arr {
			out = append(out, fmt.Sprint(a))
		}
		return out
	}
	var out []string
	for _, m := range strings.Split(strings.Trim(text, "{}[]"), ",") {
		if m = strings.Trim(strings.TrimSpace(m), `"'`); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// dmJSONValue reads a JSON list or object as an L or M value.
func dmJSONValue(text string) (Value, bool) {
	if !(strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") || strings.HasPrefix(text, "{") && strings.HasSuffix(text, "}")) {
		return Value{}, false
	}
	var raw any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return Value{}, false
	}
	return dmFromJSON(raw, 0)
}

func dmFromJSON(raw any, depth int) (Value, bool) {
	if depth > 32 {
		return Value{}, false
	}
	switch x := raw.(type) {
	case nil:
		return Null(), true
	case bool:
		return Boolean(x), true
	case string:
		return Str(x), true
	case json.Number:
		if checkNumber(x.String()) != nil {
			return Value{}, false
		}
		return Num(x.String()), true
	case []any:
		l := make([]Value, 0, len(x))
		for _, e := range x {
			v, ok := dmFromJSON(e, depth+1)
			if !ok {
				return Value{}, false
			}
			l = append(l, v)
		}
		return List(l...), true
	case map[string]any:
		m := make(map[string]Value, len(x))
		for k, e := range x {
			v, ok := dmFromJSON(e, depth+1)
			if !ok {
				return Value{}, false
			}
			m[k] = v
		}
		return Map(m), true
	}
	return Value{}, false
}

func (p *dmParser) settleIndex(t Table, d *dmIndexDraft) Index {
	ix := d.ix
	if d.desc != "" && !strings.EqualFold(d.desc, "sparse") {
		if ix.Purpose == "" {
			ix.Purpose = d.desc
		} else {
			ix.Purpose = d.desc + " — " + ix.Purpose
		}
	}
	if len(ix.PartitionKey) == 0 && !d.local && d.sample != nil && len(d.sample.columns) > 0 {
		ix.PartitionKey = []KeyAttribute{{Name: d.sample.columns[0]}}
		p.note(d.line, "index %s states no partition key; the first column of its sample, %s, was taken", ix.Name, d.sample.columns[0])
	}
	if len(ix.PartitionKey) == 0 && !d.local {
		p.note(d.line, "index %s has no partition key", ix.Name)
	}
	sampleTypes := dmColumnTypes(d.sample)
	keyType := func(k KeyAttribute) KeyAttribute {
		typ := dmDeclaredType(t, k.Name)
		if typ == "" {
			typ = sampleTypes[k.Name]
		}
		if typ == "" {
			for _, it := range t.Items {
				if v, ok := it.Item[k.Name]; ok {
					typ = v.Type
					break
				}
			}
		}
		if !typ.KeyType() {
			typ = S
		}
		k.Type = typ
		return k
	}
	ix.PartitionKey = slices.Clone(ix.PartitionKey)
	for i := range ix.PartitionKey {
		ix.PartitionKey[i] = keyType(ix.PartitionKey[i])
	}
	ix.SortKey = slices.Clone(ix.SortKey)
	for i := range ix.SortKey {
		ix.SortKey[i] = keyType(ix.SortKey[i])
	}
	if ix.Projection.Type == Include && len(ix.Projection.Attributes) == 0 && d.sample != nil {
		keys := map[string]bool{t.PartitionKey.Name: true}
		if t.SortKey != nil {
			keys[t.SortKey.Name] = true
		}
		for _, k := range append(slices.Clone(ix.PartitionKey), ix.SortKey...) {
			keys[k.Name] = true
		}
		for _, c := range d.sample.columns {
			if !keys[c] && c != "" {
				ix.Projection.Attributes = append(ix.Projection.Attributes, c)
			}
		}
		d.projNote = "the INCLUDE list was read from the columns of its sample table"
	}
	if d.projNote != "" {
		p.note(d.line, "index %s: %s", ix.Name, d.projNote)
	}
	if d.served != "" {
		dmAppend(&ix.Capacity, "Access patterns served: "+d.served)
	}
	if d.sample != nil {
		p.note(d.sample.line, "the sample table of index %s was not read: Dynaloom computes it from the table's items", ix.Name)
	}
	if ix.Projection.Type == "" {
		ix.Projection.Type = All
	}
	return ix
}

// dmDeclaredType is the type a table gives an attribute through its keys or its attribute list.
func dmDeclaredType(t Table, name string) Type {
	if t.PartitionKey.Name == name {
		return t.PartitionKey.Type
	}
	if t.SortKey != nil && t.SortKey.Name == name {
		return t.SortKey.Type
	}
	for _, a := range t.Attributes {
		if a.Name == name {
			return a.Type
		}
	}
	return ""
}

// dmWeakMarkers reports whether lower-cased text talks about a DynamoDB key design in a layout
// other than the template's, such as an architecture decision record.
func dmWeakMarkers(lower string) bool {
	return strings.Contains(lower, "dynamodb") && (strings.Contains(lower, "global secondary ind") || strings.Contains(lower, "gsi")) &&
		(strings.Contains(lower, "partition key") || strings.Contains(lower, "sort key"))
}

// dmLooksLikeName reports whether a word is an attribute name rather than an English word: a column
// of the sample table, or a name with "_" or an inner capital.
func dmLooksLikeName(w string, st *dmSample) bool {
	w = strings.Trim(w, "`")
	if !dmAttrName.MatchString(w) {
		return false
	}
	if st != nil && slices.Contains(st.columns, w) {
		return true
	}
	return strings.Contains(w, "_") || strings.ToLower(w[1:]) != w[1:]
}

// dmThematicBreak reports whether an item is only horizontal rules.
func dmThematicBreak(it mdItem) bool {
	for _, l := range it.lines {
		t := strings.ReplaceAll(strings.TrimSpace(l), " ", "")
		if len(t) < 3 || strings.Trim(t, "-") != "" && strings.Trim(t, "*") != "" && strings.Trim(t, "_") != "" {
			return false
		}
	}
	return it.kind == itemText || it.kind == itemBullet
}

// mergeDataModel makes one design of a requirement document's design and a data model document's:
// the requirements from the first; tables, narrative prose and mapping text from the second.
// Patterns are matched by number; a pattern only the data model has is added. The SK taxonomy's
// entity names take the spelling of the requirement's entities where they differ only in case,
// spaces or a plural "s".
func mergeDataModel(req, model Design) (Design, []ImportNote) {
	var notes []ImportNote
	d := req
	d.Tables = slices.Clone(model.Tables)
	d.Prose = model.Prose
	d.Prose.Sections = append(slices.Clone(req.Prose.Sections), model.Prose.Sections...)
	d.Patterns = slices.Clone(req.Patterns)
	for _, mp := range model.Patterns {
		_, i, ok := d.PatternByNumber(mp.Number)
		if !ok {
			mp.ID = ""
			d.Patterns = append(d.Patterns, mp)
			notes = append(notes, ImportNote{Message: fmt.Sprintf("pattern %d is in the Access Pattern Mapping but not in the requirements; it was added", mp.Number)})
			continue
		}
		pt := &d.Patterns[i]
		pt.Mapping.Source, pt.Mapping.Notes, pt.Mapping.Operations = mp.Mapping.Source, mp.Mapping.Notes, mp.Mapping.Operations
		if pt.PeakRPS == nil {
			pt.PeakRPS = mp.PeakRPS
		}
		if pt.ResultBound == "" {
			pt.ResultBound = mp.ResultBound
		}
		if pt.SizeBand == "" {
			pt.SizeBand = mp.SizeBand
		}
		if pt.Type == "" {
			pt.Type = mp.Type
		}
	}
	key := func(s string) string {
		return strings.TrimSuffix(strings.ToLower(strings.Join(strings.Fields(s), "")), "s")
	}
	names := map[string]string{}
	for _, e := range req.Entities {
		names[key(e.Name)] = e.Name
	}
	for ti := range d.Tables {
		ets := slices.Clone(d.Tables[ti].EntityTypes)
		for i, et := range ets {
			if n, ok := names[key(et.Entity)]; ok {
				ets[i].Entity = n
			}
		}
		d.Tables[ti].EntityTypes = ets
	}
	return Normalize(d), notes
}
