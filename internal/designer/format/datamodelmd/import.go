package datamodelmd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// Import reads a dynamodb_data_model.md: the seed template and the layouts seen in the
// wild (sample tables before or after an index heading, "### GSI1: Name" headings with the same
// index name under several tables, "Sort Key: None", "(Sparse)" suffixes, keys written
// "`PK = <user_email>`", "Hash:"/"Range:" key lines, attribute types as "(Number)" or "(S)", the
// 5-column and the 9-column Access Pattern Mapping table). It reads tables, their GSIs and LSIs,
// their sample items, and the mapping's operation text per pattern; the narrative sections become
// d.Prose. Index sample tables and Validation Results are not read: Dynaloom computes them. Text
// that cannot be placed is kept in d.Prose.Sections under its heading, and a note says so; text
// kept under a table or index is titled "Orders Table" or "ByStatus GSI (Orders Table)".
//
// The forms Export writes (typed keys, attribute lists, the SK taxonomy, projections,
// status marks, operation lines, cells in DynamoDB JSON) are read exactly, so that exporting what
// was imported gives a document that imports to the same export.
//
// The error is a *ValidationError for field "file" when data is not a data model document at all.
func Import(data []byte) (designer.Design, []designer.ImportNote, error) {
	text, notes, err := markdown.CleanInput(data)
	if err != nil {
		return designer.Design{}, nil, err
	}
	report, text, reportNotes := cutCostReports(text)
	text, computedNotes := cutComputed(text)
	p := parser{notes: append(append(notes, reportNotes...), computedNotes...)}
	p.parse(text)
	if !p.recognised && weakMarkers(strings.ToLower(text)) {
		p.recognised = true
	}
	if !p.recognised {
		return designer.Design{}, nil, designer.Invalid("file", "is not a data model document: it has none of the template's sections (such as %q or a \"### Orders Table\" heading) and no table description", "## Table Designs")
	}
	d := p.design()
	d.Prose.CostReport = report
	if err := designer.Check(d); err != nil {
		// The parser builds only what Check accepts; this guards against a gap in that promise.
		return designer.Design{}, nil, fmt.Errorf("import data model document: %w", err)
	}
	slices.SortStableFunc(p.notes, func(a, b designer.ImportNote) int { return a.Line - b.Line })
	return d, p.notes, nil
}

// Kinds of section of a data model document.
const (
	sectionPreamble = iota
	sectionUnknown
	sectionPhilosophy
	sectionAggregates
	sectionTableDesigns
	sectionTable
	sectionIndex
	sectionMapping
	sectionHotPartitions
	sectionTradeOffs
	sectionValidation
	sectionCapacity
)

type sectionDraft struct {
	kind  int
	title string
	level int
	line  int
	items []markdown.Item
	// name, desc and local are what a table or index heading says; table is the index in p.tables
	// of a sectionTable section, index that of a sectionIndex section in p.indexes.
	name, desc   string
	local        bool
	table, index int
	leftover     []markdown.Leftover
}

// indexDraft is an index while its table is not known for sure.
type indexDraft struct {
	ix       designer.Index
	local    bool
	table    int // index in p.tables, -1 while none
	line     int
	desc     string // the heading's words that are not the name
	sample   *sampleDraft
	served   servedBullet
	projNote string
	// pkExact and skExact are keys written in the exported form, types included; projExact says
	// the projection was, so nothing is guessed from the sample table.
	pkExact, skExact exactKey
	projExact        bool
}

type tableDraft struct {
	t       designer.Table
	line    int
	sample  *sampleDraft
	served  servedBullet
	pkRaw   []string // key names as written, before types are known
	skRaw   []string
	keyLine int
	// pkExact and skExact are keys written in the exported form, types included.
	pkExact, skExact exactKey
	// loose marks a table read from "**Table Name:**" lines, whose key and billing lines may
	// follow in any section.
	loose bool
	// desc is what the table's heading says after its name, "(Consolidated Entity Table)".
	desc string
	// pkTemplate and skTemplate are the templates the key bullets give, pkForms and skForms the
	// forms listed below them (keyforms.go).
	pkTemplate, skTemplate string
	// pkWhyTemplate is a template that opens the partition key's justification, taken for the
	// entity types when the SK taxonomy is written in people's words (looseTaxonomy).
	pkWhyTemplate    string
	looseTaxonomy    bool
	pkForms, skForms []designer.EntityType
	// ttl is a TTL bullet that explains its attribute: the explanation and the bullet as written.
	ttl servedBullet
}

// exactKey is a key read in the form Export writes: set, with no attribute for "None".
type exactKey struct {
	set  bool
	keys []designer.KeyAttribute
}

// sampleDraft is a markdown table of sample items: its column names and its rows of cell text.
type sampleDraft struct {
	line    int
	columns []string
	rows    [][]string // unescaped cell text; "" is an empty cell
	rowLine []int
}

type parser struct {
	notes      []designer.ImportNote
	sections   []*sectionDraft
	recognised bool
	title      string
	tables     []*tableDraft
	indexes    []*indexDraft
	patterns   []designer.Pattern
	prose      designer.Prose
	// pending is an index sample table written before its index heading.
	pending *sampleDraft
	// rowLines is the line of each pattern's first mapping row.
	rowLines map[int]int
	// settings are the capacity settings read so far, settingLines the line each was read from.
	settings     designer.CapacitySettings
	settingLines map[string]int
}

func (p *parser) note(line int, format string, args ...any) {
	p.notes = append(p.notes, designer.ImportNote{Line: line, Message: fmt.Sprintf(format, args...)})
}

var (
	indexNumbered = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^((?:GSI|LSI)\d*)\s*(?::|-|–|—)\s*(.+)$`) })
	indexSuffix   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(.+?)\s+(GSI|LSI|global secondary index|local secondary index)\s*(\(.*\))?$`)
	})
	tableHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(.+?)\s+table\b\s*(\(.*\))?$`) })
	tablePrefix  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^table\s*:\s*(.+)$`) })
	plainName    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,255}$`) })
	attrName     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-#]{0,119}$`) })
	// spacedName is a table or index name of words in title case, "Order Lines": DynamoDB refuses
	// it, but it is the name the file gives, kept for MOD001 to report. Words in lower case ("Why a
	// single table") are a heading's prose.
	spacedName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Z0-9][A-Za-z0-9_.\-]*(?: [A-Z0-9][A-Za-z0-9_.\-]*){1,4}$`)
	})
)

// headingKind recognises the template's headings whatever their level, case or decoration, and
// returns the table or index name a table or index heading gives.
func headingKind(text string) (kind int, name, desc string, local bool) {
	plain := strings.TrimSpace(markdown.Unescape(stripEmphasis(text)))
	plain = strings.TrimSpace(strings.TrimRight(plain, "🔴✅⚠️❌ "))
	// Index and table headings first: "### GSI1: Products (Potential Hot Partition)" is an index.
	// "### GSI-1 GSI" names its index in full, so the suffix form is tried first.
	clean := strings.NewReplacer("`", "", "[", "", "]", "").Replace(plain)
	if m := indexSuffix().FindStringSubmatch(clean); m != nil && (plainName().MatchString(m[1]) || spacedName().MatchString(m[1])) {
		local = strings.HasPrefix(strings.ToLower(m[2]), "l")
		return sectionIndex, m[1], strings.TrimSpace(strings.Trim(m[3], "()")), local
	}
	if m := indexNumbered().FindStringSubmatch(clean); m != nil {
		rest := strings.TrimSpace(m[2])
		local = strings.HasPrefix(strings.ToUpper(m[1]), "LSI")
		base, suffix := cutParen(rest)
		if plainName().MatchString(base) {
			return sectionIndex, base, suffix, local
		}
		return sectionIndex, m[1], rest, local
	}
	if m := tableHeading().FindStringSubmatch(clean); m != nil && (plainName().MatchString(m[1]) || spacedName().MatchString(m[1])) {
		return sectionTable, m[1], strings.TrimSpace(strings.Trim(m[2], "()")), false
	}
	if m := tablePrefix().FindStringSubmatch(clean); m != nil {
		base, suffix := cutParen(strings.TrimSpace(m[1]))
		if plainName().MatchString(base) {
			return sectionTable, base, suffix, false
		}
	}
	h := strings.ToLower(plain)
	switch {
	case strings.Contains(h, "design philosophy"):
		return sectionPhilosophy, "", "", false
	case strings.Contains(h, "aggregate design"):
		return sectionAggregates, "", "", false
	case h == "table designs" || h == "table design" || h == "tables":
		return sectionTableDesigns, "", "", false
	case strings.Contains(h, "access pattern mapping") || h == "solved patterns":
		return sectionMapping, "", "", false
	case strings.Contains(h, "hot partition"):
		return sectionHotPartitions, "", "", false
	case strings.Contains(h, "trade-off") || strings.Contains(h, "tradeoff") || strings.Contains(h, "trade off"):
		return sectionTradeOffs, "", "", false
	case strings.Contains(h, "validation results"):
		return sectionValidation, "", "", false
	case h == "capacity settings" || h == "capacity setting":
		return sectionCapacity, "", "", false
	}
	return sectionUnknown, "", "", false
}

// stripEmphasis removes what decorates a whole heading, before unescaping so that an escaped
// "\_" of a name stays: "**Orders Table**", "_Orders Table_", a closing ":".
func stripEmphasis(text string) string {
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

// cutParen splits "Name (Sparse)" into "Name" and "Sparse".
func cutParen(s string) (string, string) {
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, "("); i > 0 {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1 : len(s)-1])
		}
	}
	return s, ""
}

// proseKind reports whether a section of this kind takes unknown sub-headings into its own text.
func proseKind(kind int) bool {
	switch kind {
	case sectionPhilosophy, sectionAggregates, sectionHotPartitions, sectionTradeOffs, sectionUnknown, sectionTableDesigns, sectionValidation, sectionCapacity:
		return true
	}
	return false
}

func (p *parser) parse(text string) {
	cur := &sectionDraft{kind: sectionPreamble}
	p.sections = []*sectionDraft{cur}
	top := cur
	titleSeen := false
	comments := markdown.Walk(text, func(n, level int, text string) {
		kind, name, desc, local := headingKind(text)
		// The template's title comes first, whatever the design's name after it says.
		_, generic := markdown.CutPrefixFold(strings.TrimSpace(text), "DynamoDB Data Model")
		if level == 1 && !titleSeen && top.kind == sectionPreamble && (kind == sectionUnknown || generic) {
			titleSeen = true
			p.title = text
			p.recognised = p.recognised || generic
			return
		}
		if kind == sectionUnknown && proseKind(top.kind) && top.kind != sectionUnknown && level > top.level ||
			kind == sectionUnknown && top.kind == sectionUnknown && level > top.level && top.level > 0 {
			cur.items = append(cur.items, markdown.Item{Kind: markdown.KindText, Line: n, Lines: []string{strings.TrimRight(strings.Repeat("#", min(level-top.level+2, 6))+" "+text, " ")}})
			return
		}
		if kind != sectionUnknown {
			p.recognised = true
		}
		cur = &sectionDraft{kind: kind, title: markdown.OneLine(markdown.Unescape(text)), level: level, line: n, name: name, desc: desc, local: local}
		top = cur
		p.sections = append(p.sections, cur)
	}, func(it markdown.Item) { cur.items = append(cur.items, it) })
	for _, n := range comments {
		p.note(n, "an HTML comment was skipped: a comment is not part of the design")
	}
	for i, s := range p.sections {
		var next *sectionDraft
		if i+1 < len(p.sections) {
			next = p.sections[i+1]
		}
		p.parseSection(s, next)
	}
}

var boilerplate = map[string]bool{
	"🔴 **critical**: you must group gsis with the tables they belong to.":                true,
	"a markdown table which shows 5-10 representative items for the table":               true,
	"🔴 critical: list both writes and reads solved.":                                     true,
	"[show how each pattern maps to table operations and critical implementation notes]": true,
	"a markdown table which shows 5-10 representative items for the index. you must ensure it aligns with selected projection or sparseness. for attributes with no value required, just use an empty cell, do not populate with `null`.": true,
}

func (p *parser) keepItem(s *sectionDraft, it markdown.Item) {
	s.leftover = append(s.leftover, markdown.Leftover{First: it.Line, Last: it.Line + it.Span() - 1, Text: it.Text()})
}

func (p *parser) parseSection(s *sectionDraft, next *sectionDraft) {
	switch s.kind {
	case sectionTable:
		s.table = len(p.tables)
		d := &tableDraft{line: s.line, desc: s.desc}
		d.t.Name = s.name
		p.tables = append(p.tables, d)
	case sectionIndex:
		s.index = len(p.indexes)
		d := &indexDraft{table: len(p.tables) - 1, line: s.line, local: s.local, desc: s.desc, sample: p.pending}
		d.ix.Name = s.name
		d.ix.Sparse = strings.HasPrefix(strings.ToLower(s.desc), "sparse")
		p.indexes = append(p.indexes, d)
		p.pending = nil
	}
	its := s.items
	bulletsSeen := false
	for k, it := range its {
		if thematicBreak(it) {
			continue
		}
		if it.Kind == markdown.KindText || it.Kind == markdown.KindBullet {
			var left bool
			if it, left = it.Without(func(l string) bool { return boilerplate[strings.ToLower(strings.TrimSpace(l))] }); !left {
				continue
			}
		}
		handled := false
		switch s.kind {
		case sectionTable, sectionIndex:
			if it.Kind == markdown.KindTable {
				handled = p.sampleItem(s, it, bulletsSeen, next, k == len(its)-1 || onlyTablesAfter(its[k+1:]))
			} else {
				handled = p.field(s, it)
				bulletsSeen = bulletsSeen || handled
			}
		case sectionMapping:
			if it.Kind == markdown.KindTable {
				handled = p.mappingTable(s, it)
			}
		case sectionValidation:
			handled = checklistItem(it)
		case sectionCapacity:
			handled = (it.Kind == markdown.KindBullet || it.Kind == markdown.KindText) && p.settingField(it)
		default:
			if it.Kind == markdown.KindText || it.Kind == markdown.KindBullet {
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

func onlyTablesAfter(rest []markdown.Item) bool {
	for _, it := range rest {
		if it.Kind != markdown.KindTable {
			return false
		}
	}
	return true
}

func checklistItem(it markdown.Item) bool {
	if it.Kind != markdown.KindBullet {
		return false
	}
	for _, l := range it.Lines {
		t := strings.ToLower(strings.TrimSpace(l))
		if !strings.HasPrefix(t, "- [") && !strings.HasPrefix(t, "* [") {
			return false
		}
	}
	return true
}

// proseField is the field of pr that holds the text of a section of the given kind, or nil for
// a section whose text is kept as a section of its own.
func proseField(pr *designer.Prose, kind int) *string {
	switch kind {
	case sectionPhilosophy:
		return &pr.DesignPhilosophy
	case sectionAggregates:
		return &pr.AggregateDecisions
	case sectionHotPartitions:
		return &pr.HotPartitions
	case sectionTradeOffs:
		return &pr.TradeOffs
	}
	return nil
}

// placeProse puts the text a section kept where it belongs in d.Prose.
func (p *parser) placeProse(s *sectionDraft) {
	body := unescapeProse(markdown.ProseOf(s.leftover), proseContext(s.kind))
	target := proseField(&p.prose, s.kind)
	if s.kind == sectionValidation {
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
	case sectionTable:
		title = tableProseTitle(p.tables[s.table].t.Name)
	case sectionIndex:
		ix := p.indexes[s.index]
		table := ""
		if ix.table >= 0 {
			table = p.tables[ix.table].t.Name
		}
		title = indexProseTitle(table, ix.ix.Name, ix.local)
	}
	switch s.kind {
	case sectionPreamble:
		title = introTitle
		if body == "" {
			return
		}
		p.note(0, "text before the first section was kept as prose")
	case sectionUnknown:
		p.note(s.line, "section %q is not part of the template; it was kept as prose", s.title)
	case sectionTable, sectionIndex, sectionCapacity:
		// Each piece a table, index or settings section could not place is named by its own line.
		for _, l := range s.leftover {
			// A piece a reader kept with a note of its own is not noted twice.
			if strings.TrimSpace(l.Text) != "" && !slices.ContainsFunc(p.notes, func(n designer.ImportNote) bool { return n.Line == l.First }) {
				p.note(l.First, "text under %q that Dynaloom does not read was kept as prose: %q", s.title, designer.TruncateRunes(markdown.OneLine(l.Text), 60))
			}
		}
		if body == "" {
			return
		}
	default:
		if body == "" {
			return
		}
		p.note(s.line, "text under %q that Dynaloom does not read was kept as prose", s.title)
	}
	p.prose.Sections = append(p.prose.Sections, designer.Section{Title: designer.TruncateRunes(title, designer.MaxNameLen), Body: body})
}

// readSample reads a markdown table as sample items: a header row, an optional separator, rows.
func readSample(it markdown.Item) (*sampleDraft, bool) {
	if len(it.Lines) < 2 {
		return nil, false
	}
	header := markdown.SplitRow(it.Lines[0])
	st := &sampleDraft{line: it.Line}
	for _, h := range header {
		st.columns = append(st.columns, cellText(h))
	}
	rows := it.Lines[1:]
	start := it.Line + 1
	if markdown.IsSeparatorRow(markdown.SplitRow(rows[0])) {
		rows, start = rows[1:], start+1
	} else {
		return nil, false
	}
	for i, l := range rows {
		cells := markdown.SplitRow(l)
		row := make([]string, len(cells))
		for j, c := range cells {
			row[j] = cellText(c)
		}
		// A row of empty cells is an item without attributes, which validation then reports.
		st.rows = append(st.rows, row)
		st.rowLine = append(st.rowLine, start+i)
	}
	return st, true
}

// cellText is the text of an escaped cell: without the backticks or bold around the whole, then
// unescaped, so that an escaped "\`" stays part of the text.
func cellText(c string) string {
	t := strings.TrimSpace(c)
	for _, w := range []string{"`", "**"} {
		if len(t) > 2*len(w) && strings.HasPrefix(t, w) && strings.HasSuffix(t, w) && !strings.Contains(t[len(w):len(t)-len(w)], w) &&
			t[len(t)-len(w)-1] != '\\' {
			t = strings.TrimSpace(t[len(w) : len(t)-len(w)])
		}
	}
	return markdown.Unescape(t)
}

// sampleItem places a markdown table found in a table or index section. A table that follows
// the section's fields, with an index heading next, is that index's sample, as the seed template
// writes it.
func (p *parser) sampleItem(s *sectionDraft, it markdown.Item, bulletsSeen bool, next *sectionDraft, last bool) bool {
	st, ok := readSample(it)
	if !ok {
		return false
	}
	if len(st.rows) == 0 && slices.ContainsFunc(st.columns, func(c string) bool { return strings.HasPrefix(c, "$") }) {
		return true // the template's own placeholder table
	}
	has := false
	switch s.kind {
	case sectionTable:
		has = p.tables[s.table].sample != nil
	case sectionIndex:
		has = p.indexes[s.index].sample != nil
	}
	trailing := has || bulletsSeen
	// A table's own sample written after its fields starts with the table's partition key.
	own := s.kind == sectionTable && !has && len(p.tables[s.table].pkRaw) > 0 && len(st.columns) > 0 && st.columns[0] == p.tables[s.table].pkRaw[0]
	if trailing && !own && last && next != nil && next.kind == sectionIndex && p.pending == nil {
		p.pending = st
		return true
	}
	if has {
		p.note(it.Line, "a second sample table under %q was kept as prose", s.title)
		return false
	}
	switch s.kind {
	case sectionTable:
		p.tables[s.table].sample = st
	case sectionIndex:
		p.indexes[s.index].sample = st
	}
	return true
}

// Looks reports whether text has a heading only a data model document has: the
// template's title, "Table Designs", "Access Pattern Mapping", or a table or index heading.
func Looks(text string) bool {
	found := false
	markdown.Headings(text, func(_, level int, h string) {
		if _, generic := markdown.CutPrefixFold(h, "DynamoDB Data Model"); generic && level == 1 {
			found = true
		}
		switch kind, _, _, _ := headingKind(h); kind {
		case sectionTableDesigns, sectionMapping, sectionTable, sectionIndex:
			found = true
		}
	})
	return found
}

// LooksLoosely reports whether text, a markdown document, has the weaker signs of a data
// model: words its sections use, though none of its own headings.
func LooksLoosely(text string) bool {
	return weakMarkers(strings.ToLower(text)) && strings.HasPrefix(strings.TrimSpace(text), "#")
}
