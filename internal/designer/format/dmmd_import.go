package format

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// ImportDataModelMD reads a dynamodb_data_model.md: the seed template and the layouts seen in the
// wild (sample tables before or after an index heading, "### GSI1: Name" headings with the same
// index name under several tables, "Sort Key: None", "(Sparse)" suffixes, keys written
// "`PK = <user_email>`", "Hash:"/"Range:" key lines, attribute types as "(Number)" or "(S)", the
// 5-column and the 9-column Access Pattern Mapping table). It reads tables, their GSIs and LSIs,
// their sample items, and the mapping's operation text per pattern; the narrative sections become
// d.Prose. Index sample tables and Validation Results are not read: Dynaloom computes them. Text
// that cannot be placed is kept in d.Prose.Sections under its heading, and a note says so; text
// kept under a table or index is titled "Orders Table" or "ByStatus GSI (Orders Table)".
//
// The forms ExportDataModelMD writes (typed keys, attribute lists, the SK taxonomy, projections,
// status marks, operation lines, cells in DynamoDB JSON) are read exactly, so that exporting what
// was imported gives a document that imports to the same export.
//
// The error is a *ValidationError for field "file" when data is not a data model document at all.
func ImportDataModelMD(data []byte) (designer.Design, []ImportNote, error) {
	text, notes, err := cleanInput(data)
	if err != nil {
		return designer.Design{}, nil, err
	}
	p := dmParser{notes: notes}
	p.parse(text)
	if !p.recognised && dmWeakMarkers(strings.ToLower(text)) {
		p.recognised = true
	}
	if !p.recognised {
		return designer.Design{}, nil, designer.Invalid("file", "is not a data model document: it has none of the template's sections (such as %q or a \"### Orders Table\" heading) and no table description", "## Table Designs")
	}
	d := p.design()
	if err := designer.Check(d); err != nil {
		// The parser builds only what Check accepts; this guards against a gap in that promise.
		return designer.Design{}, nil, fmt.Errorf("import data model document: %w", err)
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
	ix       designer.Index
	local    bool
	table    int // index in p.tables, -1 while none
	line     int
	desc     string // the heading's words that are not the name
	sample   *dmSample
	served   string
	projNote string
	// pkExact and skExact are keys written in the exported form, types included; projExact says
	// the projection was, so nothing is guessed from the sample table.
	pkExact, skExact dmExactKey
	projExact        bool
}

type dmTableDraft struct {
	t       designer.Table
	line    int
	sample  *dmSample
	served  string
	pkRaw   []string // key names as written, before types are known
	skRaw   []string
	keyLine int
	// pkExact and skExact are keys written in the exported form, types included.
	pkExact, skExact dmExactKey
	// loose marks a table read from "**Table Name:**" lines, whose key and billing lines may
	// follow in any section.
	loose bool
}

// dmExactKey is a key read in the form ExportDataModelMD writes: set, with no attribute for "None".
type dmExactKey struct {
	set  bool
	keys []designer.KeyAttribute
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
	patterns   []designer.Pattern
	prose      designer.Prose
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
	plain := strings.TrimSpace(unescapeInline(dmStripEmphasis(text)))
	plain = strings.TrimSpace(strings.TrimRight(plain, "🔴✅⚠️❌ "))
	// Index and table headings first: "### GSI1: Products (Potential Hot Partition)" is an index.
	// "### GSI-1 GSI" names its index in full, so the suffix form is tried first.
	clean := strings.NewReplacer("`", "", "[", "", "]", "").Replace(plain)
	if m := dmIndexSuffix.FindStringSubmatch(clean); m != nil && dmPlainName.MatchString(m[1]) {
		local = strings.HasPrefix(strings.ToLower(m[2]), "l")
		return dmIndex, m[1], strings.TrimSpace(strings.Trim(m[3], "()")), local
	}
	if m := dmIndexNumbered.FindStringSubmatch(clean); m != nil {
		rest := strings.TrimSpace(m[2])
		local = strings.HasPrefix(strings.ToUpper(m[1]), "LSI")
		base, suffix := dmCutParen(rest)
		if dmPlainName.MatchString(base) {
			return dmIndex, base, suffix, local
		}
		return dmIndex, m[1], rest, local
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

// dmStripEmphasis removes what decorates a whole heading, before unescaping so that an escaped
// "\_" of a name stays: "**Orders Table**", "_Orders Table_", a closing ":".
func dmStripEmphasis(text string) string {
	t := strings.TrimSpace(text)
	for {
		before := t
		if strings.HasSuffix(t, ":") && !strings.HasSuffix(t, `\:`) {
			t = strings.TrimSpace(strings.TrimSuffix(t, ":"))
		}
		for _, w := range []string{"**", "__", "*", "_"} {
			if len(t) > 2*len(w) && strings.HasPrefix(t, w) && strings.HasSuffix(t, w) && t[len(t)-len(w)-1] != '\\' {
				t = strings.TrimSpace(t[len(w) : len(t)-len(w)])
				break
			}
		}
		if t == before {
			return t
		}
	}
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
		// The template's title comes first, whatever the design's name after it says.
		_, generic := cutPrefixFold(strings.TrimSpace(text), "DynamoDB Data Model")
		if level == 1 && !titleSeen && top.kind == dmPreamble && (kind == dmUnknown || generic) {
			titleSeen = true
			p.title = text
			p.recognised = p.recognised || generic
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

// dmProseField is the field of pr that holds the text of a section of the given kind, or nil for
// a section whose text is kept as a section of its own.
func dmProseField(pr *designer.Prose, kind int) *string {
	switch kind {
	case dmPhilosophy:
		return &pr.DesignPhilosophy
	case dmAggregates:
		return &pr.AggregateDecisions
	case dmHotPartitions:
		return &pr.HotPartitions
	case dmTradeOffs:
		return &pr.TradeOffs
	}
	return nil
}

// placeProse puts the text a section kept where it belongs in d.Prose.
func (p *dmParser) placeProse(s *dmSection) {
	body := proseOf(s.leftover)
	target := dmProseField(&p.prose, s.kind)
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
	case dmTable:
		title = dmTableProseTitle(p.tables[s.table].t.Name)
	case dmIndex:
		ix := p.indexes[s.index]
		table := ""
		if ix.table >= 0 {
			table = p.tables[ix.table].t.Name
		}
		title = dmIndexProseTitle(table, ix.ix.Name, ix.local)
	}
	switch s.kind {
	case dmPreamble:
		title = dmIntroduction
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
	p.prose.Sections = append(p.prose.Sections, designer.Section{Title: truncateRunes(title, designer.MaxNameLen), Body: body})
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
		for j, c := range cells {
			row[j] = dmCellText(c)
		}
		// A row of empty cells is an item without attributes, which validation then reports.
		st.rows = append(st.rows, row)
		st.rowLine = append(st.rowLine, start+i)
	}
	return st, true
}

// dmCellText is the text of an escaped cell: without the backticks or bold around the whole, then
// unescaped, so that an escaped "\`" stays part of the text.
func dmCellText(c string) string {
	t := strings.TrimSpace(c)
	for _, w := range []string{"`", "**"} {
		if len(t) > 2*len(w) && strings.HasPrefix(t, w) && strings.HasSuffix(t, w) && !strings.Contains(t[len(w):len(t)-len(w)], w) &&
			t[len(t)-len(w)-1] != '\\' {
			t = strings.TrimSpace(t[len(w) : len(t)-len(w)])
		}
	}
	return unescapeInline(t)
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
		d.t.EntityTypes = append(d.t.EntityTypes, designer.EntityType{Entity: dmEntityName(tmpl, desc), SKTemplate: tmpl, Description: desc})
	}
	return true
}

// entityParagraph reads "**USER Entity** (`PK = <user_email>`, `SK = #META`):" and the attribute
// lines below it.
func (p *dmParser) entityParagraph(d *dmTableDraft, f dmField) {
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f.raw, " Entity"), " entity"))
	et := designer.EntityType{Entity: dmTitleCase(name)}
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
							dmAddAttribute(&d.t, designer.Attribute{Name: strings.TrimSpace(n), Description: desc})
						}
						continue
					}
				}
				// "post_owner_id for notification generation": a name that looks like one.
				if name, rest, ok := strings.Cut(e, " "); ok && dmLooksLikeName(name, d.sample) {
					dmAddAttribute(&d.t, designer.Attribute{Name: strings.Trim(name, "`"), Description: strings.TrimSpace(rest)})
					continue
				}
				left = append(left, e)
				continue
			}
			a := designer.Attribute{Name: m[1], Description: strings.TrimSpace(m[3] + m[4])}
			if m[2] != "" {
				switch t, err := designer.ParseType(dmTypeWord(m[2])); {
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

func dmAddAttribute(t *designer.Table, a designer.Attribute) {
	if _, err := designer.CleanName("name", a.Name); err != nil {
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
	{"keys_only", designer.KeysOnly}, {"keys-only", designer.KeysOnly}, {"keys only", designer.KeysOnly}, {"keysonly", designer.KeysOnly},
	{"include", designer.Include}, {"all", designer.All},
}

// projection reads "INCLUDE (a, b) - why", "KEYS_ONLY - why", "keys-only", "ALL".
func (p *dmParser) projection(d *dmIndexDraft, it mdItem, f dmField) {
	if pr, why, ok := dmExactProjection(f); ok {
		d.ix.Projection, d.projExact = pr, true
		dmAppend(&d.ix.ProjectionWhy, why)
		p.projectionLines(d, it, f.cont)
		return
	}
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
		if w.typ == designer.Include {
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
	p.projectionLines(d, it, f.cont)
}

// projectionLines reads the lines under a projection: the per-pattern attributes, and more of
// its justification.
func (p *dmParser) projectionLines(d *dmIndexDraft, it mdItem, lines []string) {
	for _, c := range lines {
		cf, ok := dmReadField(mdItem{kind: itemBullet, lines: []string{c}})
		if ok && strings.Contains(cf.label, "projected attributes") {
			if list, exact := dmExactPatternAttributes(cf.escaped); exact {
				d.ix.PatternAttributes = append(d.ix.PatternAttributes, list...)
				continue
			}
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
			d.ix.PatternAttributes = append(d.ix.PatternAttributes, designer.PatternAttributes{Pattern: n, Attributes: attrs})
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
			p.tables = append(p.tables, &dmTableDraft{line: it.line, t: designer.Table{Name: name}, loose: true})
			p.recognised = true
		}
		return true
	}
	if len(p.tables) == 0 || !p.tables[len(p.tables)-1].loose {
		// A table with a heading of its own has its fields under it, not in prose elsewhere.
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
		number, status := dmCutStatusMark(get("number"))
		m := dmMappingNumber.FindStringSubmatch(strings.TrimSpace(markup.Replace(number)))
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
		ops := dmParseOperationsCell(get("operations"))
		if tables := get("tables"); tables != dmTargetsText(ops) {
			// What the operations say is not kept twice.
			add("Tables/Indexes", tables)
		}
		add("Operation type", get("type"))
		var peak *float64
		if raw := get("peak"); raw != "" {
			if v, err := designer.ParseRPS(raw); err == nil {
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
			p.mapPattern(line, n, status, get("description"), get("operations"), ops, strings.Join(notes, "\n"), peak, get("items"), get("size"), get("type"))
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

func (p *dmParser) mapPattern(line, n int, status, desc, source string, ops []designer.Operation, notes string, peak *float64, items, size, opType string) {
	for i := range p.patterns {
		pt := &p.patterns[i]
		if pt.Number != n {
			continue
		}
		p.note(line, "pattern %d is mapped twice; the operations were joined", n)
		dmAppend(&pt.Mapping.Source, source)
		dmAppend(&pt.Mapping.Notes, notes)
		pt.Mapping.Operations = append(pt.Mapping.Operations, ops...)
		return
	}
	pt := designer.Pattern{Number: n, Description: desc, PeakRPS: peak, ResultBound: items, SizeBand: size, Status: status}
	// What the operation cell says, as far as it can be read; the cell itself stays in Source.
	pt.Mapping.Source, pt.Mapping.Notes, pt.Mapping.Operations = source, notes, slices.Clone(ops)
	switch opType {
	case "GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems":
		pt.Type = designer.Read
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		pt.Type = designer.Write
	}
	p.patterns = append(p.patterns, pt)
}

// dmCutStatusMark splits "4 ✅" into "4" and the status the mark stands for; without a mark the
// pattern is open.
func dmCutStatusMark(cell string) (string, string) {
	for status, mark := range statusMarkOf {
		if status == "" {
			continue
		}
		for _, m := range []string{mark, strings.TrimSuffix(mark, "\ufe0f")} {
			if rest, ok := strings.CutSuffix(cell, m); ok && rest != cell {
				return strings.TrimSpace(rest), status
			}
		}
	}
	return cell, designer.StatusOpen
}

// dmParseOperationsCell reads the DynamoDB Operations cell of a mapping row: one operation per
// line in the form ExportDataModelMD writes, or else whatever ParseOperationText makes of it.
func dmParseOperationsCell(text string) []designer.Operation {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var out []designer.Operation
	for l := range strings.SplitSeq(text, "\n") {
		op, ok := dmParseOperation(l)
		if !ok {
			return ParseOperationText(text)
		}
		out = append(out, op)
	}
	return out
}

// dmParseOperation reads "Query on Orders index ByStatus: status = :s; Limit 20; …".
func dmParseOperation(l string) (designer.Operation, bool) {
	var op designer.Operation
	// The notes run to the end of the line.
	notes, hasNotes := "", false
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' {
			i++
			continue
		}
		if l[i] == ';' && strings.HasPrefix(l[i:], "; Notes: ") {
			l, notes, hasNotes = l[:i], dmClauseUnescape(l[i+len("; Notes: "):]), true
			break
		}
	}
	if hasNotes && notes == "" {
		return op, false
	}
	op.Notes = notes
	parts := dmSplitClauses(l)
	head := parts[0]
	name, rest := head, ""
	if i := strings.IndexAny(head, " :"); i >= 0 {
		name, rest = head[:i], head[i:]
	}
	if !slices.Contains(designer.Operations, name) {
		return op, false
	}
	op.Op = name
	for _, target := range []struct {
		word string
		dst  *string
	}{{" on ", &op.Table}, {" index ", &op.Index}} {
		after, ok := strings.CutPrefix(rest, target.word)
		if !ok {
			continue
		}
		end := strings.IndexAny(after, " :")
		if end < 0 {
			end = len(after)
		}
		if !dmPlainName.MatchString(after[:end]) {
			return op, false
		}
		*target.dst, rest = after[:end], after[end:]
	}
	if cond, ok := strings.CutPrefix(rest, ": "); ok {
		op.KeyCondition, rest = dmClauseUnescape(cond), ""
	}
	if rest != "" {
		return op, false
	}
	seen := map[string]bool{}
	for _, part := range parts[1:] {
		clause, ok := strings.CutPrefix(part, " ")
		word, text, _ := strings.Cut(clause, " ")
		if !ok || seen[word] {
			return op, false
		}
		seen[word] = true
		text = dmClauseUnescape(text)
		var err error
		switch word {
		case "Filter:":
			op.Filter = text
		case "Projection:":
			op.Projection = text
		case "Limit":
			n, convErr := strconv.Atoi(text)
			op.Limit, err = &n, convErr
		case "ScanIndexForward=false":
			op.Descending = text == ""
		case "ConsistentRead=true":
			op.Consistent = text == ""
		case "Names:":
			op.Names, err = designer.ParseOperationNames(text)
		case "Values:":
			op.Values, err = designer.ParseOperationValues(text)
		case "Action:":
			// Only an action the operation can take, spelt as the export writes it.
			op.Action = text
			if designer.CheckAction("action", op) != nil || text == "" {
				return op, false
			}
		default:
			return op, false
		}
		if err != nil || (word == "ScanIndexForward=false" && !op.Descending) || (word == "ConsistentRead=true" && !op.Consistent) {
			return op, false
		}
	}
	return op, true
}

// dmSplitClauses splits an operation line at each unescaped ";".
func dmSplitClauses(l string) []string {
	var out []string
	start := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case ';':
			out = append(out, l[start:i])
			start = i + 1
		}
	}
	return append(out, l[start:])
}

// dmClauseUnescape reverses dmClauseEscape.
func dmClauseUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '\\', ';':
			b.WriteByte(s[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// design settles what needed the whole document: which table each index belongs to, the
// attribute types, the sample items.
func (p *dmParser) design() designer.Design {
	d := designer.Design{Name: dmTitleName(p.title), Patterns: p.patterns, Prose: p.prose}
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
		p.served(&t.Capacity, td.served, t.Name, "")
		for _, ix := range p.indexes {
			if ix.table != ti {
				continue
			}
			settled := p.settleIndex(t, ix)
			p.served(&settled.Capacity, ix.served, t.Name, settled.Name)
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
	if d.Name == "" && len(d.Tables) > 0 {
		// A data model rarely names itself; its tables say what it is about.
		d.Name = d.Tables[0].Name
		if len(d.Tables) > 1 {
			d.Name += fmt.Sprintf(" and %d more tables", len(d.Tables)-1)
		}
	}
	if strings.TrimSpace(d.Name) == "" {
		d.Name = "Untitled design"
	}
	d.Name = truncateRunes(d.Name, designer.MaxNameLen)
	d.Patterns = dmTargetOperations(d.Tables, d.Patterns)
	return designer.Normalize(d)
}

// dmTargetOperations gives the operations of a mapping row that name no table the table or index
// of its Tables/Indexes cell, which the row's notes keep: all of them when the cell names one
// target, one each in order when it names as many targets as there are operations. The cell's note
// is dropped once every operation has its target, since the operations now say it.
func dmTargetOperations(tables []designer.Table, patterns []designer.Pattern) []designer.Pattern {
	const label = "Tables/Indexes: "
	return designer.EditRows(patterns, func(pt *designer.Pattern) bool {
		var cell string
		var rest []string
		for l := range strings.SplitSeq(pt.Mapping.Notes, "\n") {
			if after, ok := strings.CutPrefix(l, label); ok && cell == "" {
				cell = after
				continue
			}
			rest = append(rest, l)
		}
		if cell == "" || len(pt.Mapping.Operations) == 0 {
			return false
		}
		var targets [][2]string // table, index
		for _, name := range dmTargetSplit.Split(cell, -1) {
			name = strings.TrimSpace(dmTargetKind.ReplaceAllString(strings.TrimSpace(name), ""))
			if name == "" {
				continue
			}
			table, index, ok := dmFindTarget(tables, name)
			if !ok {
				return false // "Multiple tables" and the like: nothing to go by
			}
			targets = append(targets, [2]string{table, index})
		}
		ops := pt.Mapping.Operations
		if len(targets) != 1 && len(targets) != len(ops) {
			return false
		}
		ops = slices.Clone(ops)
		for i := range ops {
			if ops[i].Table != "" {
				return false
			}
			tg := targets[min(i, len(targets)-1)]
			ops[i].Table = tg[0]
			if ops[i].Op == "Query" || ops[i].Op == "Scan" {
				ops[i].Index = tg[1]
			} else if tg[1] != "" {
				return false // an index given to GetItem or a write: leave it for the team
			}
		}
		dmPositionalKeys(tables, pt.Mapping.Source, ops)
		pt.Mapping.Operations = ops
		pt.Mapping.Notes = strings.Join(rest, "\n")
		return true
	})
}

// dmPositionalKeys reads the key written positionally in an operation cell — GetItem(user_id,
// "PROFILE"), Query(user_id, SK begins_with "POST#") — into the key condition of each operation
// that has a table but no key condition yet: the arguments name the target's key attributes in
// order; a quoted or numeric argument is a sample value, a bare word a placeholder; "begins_with"
// (on the sort key only) makes a prefix condition.
func dmPositionalKeys(tables []designer.Table, source string, ops []designer.Operation) {
	calls := dmOpCall.FindAllStringSubmatch(source, -1)
	next := 0
	for i := range ops {
		op := &ops[i]
		var args string
		for next < len(calls) {
			c := calls[next]
			next++
			if name, err := designer.ParseOperationName(c[1]); err == nil && name == op.Op {
				args = c[2]
				break
			}
		}
		if args == "" || op.KeyCondition != "" || op.Table == "" {
			continue
		}
		ti := slices.IndexFunc(tables, func(t designer.Table) bool { return t.Name == op.Table })
		if ti < 0 {
			continue
		}
		t := tables[ti]
		keys := dynamo.TableKeyAttrs(t)
		if op.Index != "" {
			ix, _, _, found := t.IndexByName(op.Index)
			if !found {
				continue
			}
			keys = slices.Concat(ix.PartitionKey, ix.SortKey)
		}
		parts := strings.Split(args, ",")
		if len(parts) > len(keys) {
			continue
		}
		var conds []string
		values := map[string]designer.Value{}
		for j, raw := range parts {
			k := keys[j]
			arg := strings.TrimSpace(raw)
			prefix := false
			if m := dmBeginsWith.FindStringSubmatch(arg); m != nil {
				if j == 0 {
					conds = nil
					break
				}
				arg, prefix = strings.TrimSpace(m[1]), true
			}
			ph := ":" + dmPlaceholder.ReplaceAllString(k.Name, "_")
			if lit, ok := dmLiteral(arg, k.Type); ok {
				values[ph] = lit
			} else if !dmBareWord.MatchString(arg) {
				conds = nil
				break
			}
			if prefix {
				conds = append(conds, "begins_with("+k.Name+", "+ph+")")
			} else {
				conds = append(conds, k.Name+" = "+ph)
			}
		}
		if len(conds) == 0 || slices.ContainsFunc(keys[:len(conds)], func(k designer.KeyAttribute) bool { return !dmBareWord.MatchString(k.Name) }) {
			continue
		}
		op.KeyCondition = strings.Join(conds, " AND ")
		if len(values) > 0 {
			if op.Values == nil {
				op.Values = map[string]designer.Value{}
			}
			for ph, v := range values {
				if _, taken := op.Values[ph]; !taken {
					op.Values[ph] = v
				}
			}
		}
	}
}

var (
	dmOpCall      = regexp.MustCompile(`(?i)\b(get[ _]?item|put[ _]?item|update[ _]?item|delete[ _]?item|query|scan)\s*\(([^()]*)\)`)
	dmBeginsWith  = regexp.MustCompile(`(?i)^(?:[A-Za-z_][A-Za-z0-9_]*\s+)?begins[_ ]with\s*\(?\s*(.+?)\s*\)?$`)
	dmBareWord    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	dmPlaceholder = regexp.MustCompile(`[^A-Za-z0-9_]`)
)

// dmLiteral reads a quoted string or a number as a sample value of a key of type t.
func dmLiteral(arg string, t designer.Type) (designer.Value, bool) {
	if len(arg) >= 2 && (arg[0] == '"' && arg[len(arg)-1] == '"' || arg[0] == '\'' && arg[len(arg)-1] == '\'') {
		text := arg[1 : len(arg)-1]
		if t == designer.N {
			if _, ok := designer.ParseDecimal(text); !ok {
				return designer.Value{}, false
			}
			return designer.Num(text), true
		}
		return designer.Str(text), true
	}
	if _, ok := designer.ParseDecimal(arg); ok && t == designer.N {
		return designer.Num(arg), true
	}
	return designer.Value{}, false
}

var (
	dmTargetSplit = regexp.MustCompile(`\s*(?:,|\+|&|/|\band\b)\s*`)
	dmTargetKind  = regexp.MustCompile(`(?i)\s*\b(?:table|gsi|lsi|index)\b\s*`)
)

// dmFindTarget finds a table or an index by name.
func dmFindTarget(tables []designer.Table, name string) (table, index string, ok bool) {
	for _, t := range tables {
		if t.Name == name {
			return t.Name, "", true
		}
	}
	for _, t := range tables {
		if _, _, _, found := t.IndexByName(name); found {
			return t.Name, name, true
		}
	}
	return "", "", false
}

func dmIndexByName(t designer.Table, name string) (designer.Index, bool, int, bool) {
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
	return designer.Index{}, false, -1, false
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

// dmColumnTypes infers a type per column of a sample table (dmInferColumnType).
func dmColumnTypes(st *dmSample) map[string]designer.Type {
	out := map[string]designer.Type{}
	if st == nil {
		return out
	}
	column := make([]string, len(st.rows))
	for c, name := range st.columns {
		for r, row := range st.rows {
			column[r] = ""
			if c < len(row) {
				column[r] = row[c]
			}
		}
		if t := dmInferColumnType(column); t != "" {
			out[name] = t
		}
	}
	return out
}

// dmInferColumnType is N when every value of a column is a number, BOOL when every value is true
// or false; "" otherwise. Empty cells do not count.
func dmInferColumnType(column []string) designer.Type {
	numeric, boolean, any := true, true, false
	for _, text := range column {
		if text == "" {
			continue
		}
		any = true
		numeric = numeric && designer.CheckNumber(text) == nil
		boolean = boolean && (text == "true" || text == "false")
		if !numeric && !boolean {
			return ""
		}
	}
	switch {
	case !any:
		return ""
	case numeric:
		return designer.N
	}
	return designer.BOOL
}

// dmDeclaredTypes are the types a table's sample columns are read with when given: the declared
// attributes' types, then the keys'. Other columns get dmInferColumnType.
func dmDeclaredTypes(t designer.Table) map[string]designer.Type {
	out := make(map[string]designer.Type, len(t.Attributes)+2)
	for _, a := range t.Attributes {
		if a.Type != "" {
			out[a.Name] = a.Type
		}
	}
	out[t.PartitionKey.Name] = t.PartitionKey.Type
	if t.SortKey != nil {
		out[t.SortKey.Name] = t.SortKey.Type
	}
	return out
}

func (p *dmParser) settleTable(td *dmTableDraft) designer.Table {
	t := td.t
	t.Attributes = slices.Clone(t.Attributes)
	inferred := dmColumnTypes(td.sample)
	declared := map[string]designer.Type{}
	for i, a := range t.Attributes {
		if a.Type == "" {
			a.Type = inferred[a.Name]
			if a.Type == "" {
				a.Type = designer.S
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
	keyType := func(name string) designer.Type {
		typ := declared[name]
		if typ == "" {
			typ = inferred[name]
		}
		if !typ.KeyType() {
			if typ != "" {
				p.note(td.line, "table %s: key attribute %s has type %s; a key is S, N or B, so S was used", t.Name, name, typ)
			}
			typ = designer.S
		}
		return typ
	}
	switch {
	case td.pkExact.set && len(td.pkExact.keys) == 1:
		t.PartitionKey = td.pkExact.keys[0]
	case td.pkExact.set:
		t.PartitionKey = designer.KeyAttribute{Type: designer.S}
		p.note(td.line, "table %s has no partition key", t.Name)
	default:
		pk := resolve(td.pkRaw, 0, "partition key")
		if pk == "" && td.sample != nil && len(td.sample.columns) > 0 {
			pk = td.sample.columns[0]
			p.note(td.line, "table %s states no partition key; the first column, %s, was taken", t.Name, pk)
		}
		if pk == "" {
			p.note(td.line, "table %s has no partition key", t.Name)
		}
		t.PartitionKey = designer.KeyAttribute{Name: pk, Type: keyType(pk)}
	}
	switch {
	case td.skExact.set && len(td.skExact.keys) == 1:
		sk := td.skExact.keys[0]
		t.SortKey = &sk
	case td.skExact.set:
	default:
		if sk := resolve(td.skRaw, 1, "sort key"); sk != "" {
			t.SortKey = &designer.KeyAttribute{Name: sk, Type: keyType(sk)}
		}
	}
	if td.sample != nil {
		types := dmDeclaredTypes(t)
		for k, v := range inferred {
			if _, ok := types[k]; !ok {
				types[k] = v
			}
		}
		t.Items = p.sampleItems(t.Name, td.sample, types)
	}
	if t.TTLAttribute != "" {
		if _, err := designer.CleanName("ttl", t.TTLAttribute); err != nil {
			t.TTLAttribute = ""
		}
	}
	return t
}

// served adds what an "Access Patterns Served" bullet says to the capacity notes, unless it is the
// list Dynaloom computes from the mapping.
func (p *dmParser) served(capacity *string, served, table, index string) {
	if served != "" && served != dmServedText(p.patterns, table, index) {
		dmAppend(capacity, "Access patterns served: "+served)
	}
}

// How dmReadCell read a cell.
const (
	dmCellRead = iota
	dmCellNull // the text null, kept as text for MOD011 to point at
	dmCellBad  // a value that did not fit its column's type, kept as text
)

// dmReadCell reads a sample cell's text as a value of the column's type typ ("" when unknown): an
// empty cell is an absent attribute; a value written as DynamoDB JSON, {"S":"42"}, is that value.
func dmReadCell(text string, typ designer.Type) (designer.Value, bool, int) {
	switch {
	case text == "":
		return designer.Value{}, false, dmCellRead
	case strings.EqualFold(text, "null"):
		// The template asks for an empty cell; the text is kept for MOD011 to point at.
		return designer.Str(text), true, dmCellNull
	}
	if v, ok := designer.TypedValueCell(text); ok {
		return v, true, dmCellRead
	}
	v, err := dmCellValue(text, typ)
	switch {
	case err != nil:
		return designer.Str(text), true, dmCellBad
	case v.Type == designer.N && typ == "":
		return designer.Str(text), true, dmCellRead // a number in a column that also holds text stays text
	}
	return v, true, dmCellRead
}

// sampleItems turns the rows of a sample table into items: an empty cell is an absent attribute.
func (p *dmParser) sampleItems(table string, st *dmSample, types map[string]designer.Type) []designer.SampleItem {
	var cols []int
	seen := map[string]bool{}
	for i, c := range st.columns {
		switch _, err := designer.CleanName("name", c); {
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
	items := make([]designer.SampleItem, 0, len(st.rows))
	for r, row := range st.rows {
		if len(row) > len(st.columns) {
			p.note(st.rowLine[r], "table %s: the row has more cells than the header; the extra cells were left out", table)
		}
		it := designer.Item{}
		for _, c := range cols {
			if c >= len(row) {
				continue
			}
			name := st.columns[c]
			v, present, how := dmReadCell(row[c], types[name])
			if !present {
				continue
			}
			switch how {
			case dmCellNull:
				nulls++
			case dmCellBad:
				bad++
			}
			it[name] = v
		}
		items = append(items, designer.SampleItem{ID: "i" + strconv.Itoa(len(items)+1), Item: it})
	}
	if nulls > 0 {
		p.note(st.line, "table %s: %s the text null; kept as text (an empty cell means the attribute is absent)", table, countWith(nulls, "cell holds", "cells hold"))
	}
	if bad > 0 {
		p.note(st.line, "table %s: %s not fit their attribute's type; kept as text", table, countWith(bad, "value does", "values do"))
	}
	return items
}

// dmCellValue reads a cell as a value of type t, or infers the type when t is "". Beyond what
// ParseCell takes, it accepts what documents write: plain JSON for maps and lists ({"city": "Lyon"}),
// loose sets (a, b) and numbers with thousands separators.
func dmCellValue(text string, t designer.Type) (designer.Value, error) {
	if t == "" {
		return designer.InferCell(text), nil
	}
	v, err := designer.ParseCell(text, t)
	if err == nil {
		return v, nil
	}
	switch t {
	case designer.N:
		if s := strings.ReplaceAll(text, ",", ""); s != text && designer.CheckNumber(s) == nil {
			return designer.Num(s), nil
		}
	case designer.M, designer.L:
		if v, ok := dmJSONValue(text); ok && v.Type == t {
			return v, nil
		}
	case designer.SS, designer.NS:
		members := dmSetMembers(text)
		check := (func(string) error)(nil)
		if t == designer.NS {
			check = designer.CheckNumber
		}
		if len(members) > 0 && designer.CheckSet(members, check) == nil {
			return designer.Value{Type: t, SS: members}, nil
		}
	}
	return designer.Value{}, err
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
func dmJSONValue(text string) (designer.Value, bool) {
	if !(strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") || strings.HasPrefix(text, "{") && strings.HasSuffix(text, "}")) {
		return designer.Value{}, false
	}
	var raw any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return designer.Value{}, false
	}
	return dmFromJSON(raw, 0)
}

func dmFromJSON(raw any, depth int) (designer.Value, bool) {
	if depth > 32 {
		return designer.Value{}, false
	}
	switch x := raw.(type) {
	case nil:
		return designer.Null(), true
	case bool:
		return designer.Boolean(x), true
	case string:
		return designer.Str(x), true
	case json.Number:
		if designer.CheckNumber(x.String()) != nil {
			return designer.Value{}, false
		}
		return designer.Num(x.String()), true
	case []any:
		l := make([]designer.Value, 0, len(x))
		for _, e := range x {
			v, ok := dmFromJSON(e, depth+1)
			if !ok {
				return designer.Value{}, false
			}
			l = append(l, v)
		}
		return designer.List(l...), true
	case map[string]any:
		m := make(map[string]designer.Value, len(x))
		for k, e := range x {
			v, ok := dmFromJSON(e, depth+1)
			if !ok {
				return designer.Value{}, false
			}
			m[k] = v
		}
		return designer.Map(m), true
	}
	return designer.Value{}, false
}

func (p *dmParser) settleIndex(t designer.Table, d *dmIndexDraft) designer.Index {
	ix := d.ix
	if d.desc != "" && !strings.EqualFold(d.desc, "sparse") {
		if ix.Purpose == "" {
			ix.Purpose = d.desc
		} else {
			ix.Purpose = d.desc + " — " + ix.Purpose
		}
	}
	if len(ix.PartitionKey) == 0 && !d.local && !d.pkExact.set && d.sample != nil && len(d.sample.columns) > 0 {
		ix.PartitionKey = []designer.KeyAttribute{{Name: d.sample.columns[0]}}
		p.note(d.line, "index %s states no partition key; the first column of its sample, %s, was taken", ix.Name, d.sample.columns[0])
	}
	if len(ix.PartitionKey) == 0 && !d.local {
		p.note(d.line, "index %s has no partition key", ix.Name)
	}
	sampleTypes := dmColumnTypes(d.sample)
	keyType := func(k designer.KeyAttribute) designer.KeyAttribute {
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
			typ = designer.S
		}
		k.Type = typ
		return k
	}
	if !d.pkExact.set {
		ix.PartitionKey = slices.Clone(ix.PartitionKey)
		for i := range ix.PartitionKey {
			ix.PartitionKey[i] = keyType(ix.PartitionKey[i])
		}
	}
	if !d.skExact.set {
		ix.SortKey = slices.Clone(ix.SortKey)
		for i := range ix.SortKey {
			ix.SortKey[i] = keyType(ix.SortKey[i])
		}
	}
	if ix.Projection.Type == designer.Include && len(ix.Projection.Attributes) == 0 && !d.projExact && d.sample != nil {
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
	if d.sample != nil {
		p.note(d.sample.line, "the sample table of index %s was not read: Dynaloom computes it from the table's items", ix.Name)
	}
	if ix.Projection.Type == "" {
		ix.Projection.Type = designer.All
	}
	return ix
}

// dmDeclaredType is the type a table gives an attribute through its keys or its attribute list.
func dmDeclaredType(t designer.Table, name string) designer.Type {
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
func mergeDataModel(req, model designer.Design) (designer.Design, []ImportNote) {
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
	return designer.Normalize(d), notes
}

// countWith writes a count before the singular or plural words that follow it.
func countWith(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
