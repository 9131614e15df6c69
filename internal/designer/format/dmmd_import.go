package format

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"dynaloom/internal/designer"
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
	p.prose.Sections = append(p.prose.Sections, designer.Section{Title: designer.TruncateRunes(title, designer.MaxNameLen), Body: body})
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
