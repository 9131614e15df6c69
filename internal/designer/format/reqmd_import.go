package format

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// ImportNote reports something an imported document held that could not be placed in the design
// as written. Line is 1-based; 0 means the note is about the whole document.
type ImportNote struct {
	Line    int
	Message string
}

// ImportRequirementsMD reads a dynamodb_requirement.md: the seed template, the forms
// ExportRequirementsMD writes, and the variants seen in the wild (a single RPS value, type "None",
// columns in another order or missing, pattern numbers such as "AP3", sections missing, added or
// at other heading levels). Text that cannot be placed is kept in d.Prose.Sections under the
// heading it was found under, and a note says so; nothing is dropped silently. The Validation
// Checklist is not read: it is computed from the design.
//
// The error is a *ValidationError for field "file" when data is not a requirement document at all.
func ImportRequirementsMD(data []byte) (designer.Design, []ImportNote, error) {
	text, notes, err := cleanInput(data)
	if err != nil {
		return designer.Design{}, nil, err
	}
	p := reqParser{notes: notes}
	p.parse(text)
	if !p.recognised {
		return designer.Design{}, nil, designer.Invalid("file", "is not a requirement document: it has none of the template's sections (such as %q or %q) and no access pattern table", reqOverview, reqPatterns)
	}
	d := p.design()
	if err := designer.Check(d); err != nil {
		// The parser builds only what Check accepts; this guards against a gap in that promise.
		return designer.Design{}, nil, fmt.Errorf("import requirement document: %w", err)
	}
	// Notes made after the parse (such as entities added from relationships) take their line's place.
	slices.SortStableFunc(p.notes, func(a, b ImportNote) int { return cmp.Compare(a.Line, b.Line) })
	return d, p.notes, nil
}

// cleanInput turns data into lines of valid text, refusing what is not text at all.
func cleanInput(data []byte) (string, []ImportNote, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return "", nil, designer.Invalid("file", "is empty")
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", nil, designer.Invalid("file", "is binary, not a markdown document")
	}
	var notes []ImportNote
	text := string(data)
	if !utf8.ValidString(text) {
		bad := 0
		for i := 0; i < len(text); {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n == 1 {
				bad++
			}
			i += n
		}
		if bad*10 > len(text) {
			return "", nil, designer.Invalid("file", "is not UTF-8 text")
		}
		text = strings.ToValidUTF8(text, "\uFFFD")
		notes = append(notes, ImportNote{Message: fmt.Sprintf("%d byte(s) that are not UTF-8 were replaced by �", bad)})
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	controls := 0
	text = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && designer.IsControl(r) {
			controls++
			return ' '
		}
		return r
	}, text)
	if controls > 0 {
		notes = append(notes, ImportNote{Message: fmt.Sprintf("%d control character(s) were replaced by spaces", controls)})
	}
	return text, notes, nil
}

// Kinds of block: the part of the document under one heading.
const (
	blockPreamble = iota
	blockUnknown
	blockOverview
	blockPatterns
	blockRelationships
	blockAggregates
	blockAggregate
	blockIdentifying
	blockConsolidation
	blockFramework
	blockCandidates
	blockRules
	blockConsiderations
	blockChecklist
)

// topLevel kinds are written as "##" sections; the others are "###" parts of one.
func topLevel(kind int) bool {
	switch kind {
	case blockAggregate, blockIdentifying, blockFramework, blockCandidates, blockRules:
		return false
	}
	return true
}

type reqBlock struct {
	kind  int
	title string // the prose title its leftovers are kept under
	level int    // heading level in the source; 0 for the preamble
	line  int
	lines []srcLine
	// aggregate is the index in the design of a blockAggregate's analysis.
	aggregate int
	leftover  []leftoverPart
}

// leftoverPart is text of a block that was kept as prose, with the source lines it spans so that
// parts adjacent in the source stay adjacent in the prose.
type leftoverPart struct {
	first, last int
	text        string
}

type srcLine struct {
	n    int
	text string
}

type reqParser struct {
	d          designer.Design
	notes      []ImportNote
	blocks     []*reqBlock
	recognised bool
	titleSeen  bool
	title      string
	firstH1    string
	// numbers are the pattern numbers read so far, and maxNumber the highest.
	numbers   map[int]bool
	maxNumber int
	entities  map[string]bool
	// relLines are the lines of d.Relationships, one each.
	relLines []int
}

func (p *reqParser) note(line int, format string, args ...any) {
	p.notes = append(p.notes, ImportNote{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (p *reqParser) parse(text string) {
	lines := strings.Split(text, "\n")
	first, last := 0, len(lines)-1
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last > first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	// A document pasted from the seed keeps the ```markdown fence around it.
	if first < last && fenceMarker(lines[first]) != "" && strings.TrimSpace(lines[last]) == fenceMarker(lines[first]) {
		lines[first], lines[last] = "", ""
	}

	cur := &reqBlock{kind: blockPreamble}
	p.blocks = []*reqBlock{cur}
	top := cur
	fence := ""
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
		kind, a, b := headingKind(text)
		_, generic := cutPrefixFold(text, reqTitle)
		if level == 1 && p.firstH1 == "" {
			p.firstH1 = text
		}
		if level == 1 && !p.titleSeen && top.kind == blockPreamble && (generic || kind == blockUnknown) {
			p.titleSeen = true
			p.title = text
			p.recognised = p.recognised || generic
			continue
		}
		if kind == blockUnknown {
			if top.kind != blockPreamble && level > top.level {
				// A heading of its own inside a section stays with that section, as many levels
				// below where the section is written (##) as it was below the section.
				cur.lines = append(cur.lines, srcLine{n, strings.Repeat("#", min(level-top.level+2, 7)) + " " + text})
				continue
			}
			cur = &reqBlock{kind: blockUnknown, title: text, level: level, line: n}
			top = cur
			p.blocks = append(p.blocks, cur)
			continue
		}
		p.recognised = true
		cur = &reqBlock{kind: kind, title: canonicalTitle(kind), level: level, line: n}
		if kind == blockAggregate {
			cur.title = aggregateTitle(a, b)
			cur.aggregate = len(p.d.Aggregates)
			p.d.Aggregates = append(p.d.Aggregates, designer.AggregateAnalysis{EntityA: a, EntityB: b})
		}
		if topLevel(kind) {
			top = cur
		}
		p.blocks = append(p.blocks, cur)
	}
	for _, b := range p.blocks {
		p.parseBlock(b)
	}
}

func canonicalTitle(kind int) string {
	return map[int]string{
		blockOverview: reqOverview, blockPatterns: reqPatterns, blockRelationships: reqRelationships,
		blockAggregates: reqAggregates, blockIdentifying: reqIdentifying, blockConsolidation: reqConsolidation,
		blockFramework: reqFramework, blockCandidates: reqCandidates, blockRules: reqRules,
		blockConsiderations: reqConsiderations, blockChecklist: reqChecklist,
	}[kind]
}

// fenceMarker returns "```" or "~~~" when l opens or closes a fenced code block.
func fenceMarker(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return ""
	}
	for _, m := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, m) {
			return m
		}
	}
	return ""
}

// headingLine reads an ATX heading: up to three spaces, 1–6 "#", a space, the text.
func headingLine(l string) (int, string, bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return 0, "", false
	}
	level := 0
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	text := strings.TrimSpace(t[level:])
	if trimmed := strings.TrimRight(text, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") {
		text = strings.TrimSpace(trimmed)
	}
	return level, text, true
}

var aggregateHeading = regexp.MustCompile(`(?i)^\[?(.+?)\s+\+\s+(.+?)\]?\s+(?:item collection |aggregate )?analysis$`)

// headingKind recognises the template's headings whatever their level, case or decoration.
func headingKind(text string) (kind int, a, b string) {
	plain := strings.TrimSpace(strings.Trim(text, "*`_ :"))
	if m := aggregateHeading.FindStringSubmatch(plain); m != nil {
		a, b = oneLine(unescapeInline(m[1])), oneLine(unescapeInline(m[2]))
		if a != "" && b != "" && !strings.Contains(a, "**") && !strings.Contains(b, "**") {
			return blockAggregate, a, b
		}
	}
	h := strings.ToLower(plain)
	switch {
	case strings.HasPrefix(h, "application overview"), h == "overview":
		return blockOverview, "", ""
	case strings.Contains(h, "identifying relationship check"):
		return blockIdentifying, "", ""
	case strings.Contains(h, "access pattern"):
		return blockPatterns, "", ""
	case strings.Contains(h, "entity relationship"), h == "relationships", h == "entities and relationships":
		return blockRelationships, "", ""
	case strings.Contains(h, "aggregate analysis"):
		return blockAggregates, "", ""
	case strings.Contains(h, "consolidation decision framework"):
		return blockFramework, "", ""
	case strings.Contains(h, "consolidation candidates"):
		return blockCandidates, "", ""
	case strings.Contains(h, "consolidation rules"):
		return blockRules, "", ""
	case strings.Contains(h, "consolidation analysis"):
		return blockConsolidation, "", ""
	case strings.HasPrefix(h, "design considerations"):
		return blockConsiderations, "", ""
	case strings.Contains(h, "validation checklist"):
		return blockChecklist, "", ""
	}
	return blockUnknown, "", ""
}

// Kinds of item: the pieces of a block's text.
const (
	itemText = iota
	itemBullet
	itemTable
	itemFence
)

type mdItem struct {
	kind      int
	line      int
	lines     []string
	spanLines int
}

// span is the number of source lines the item covers, including lines since removed from it.
func (it mdItem) span() int { return max(it.spanLines, len(it.lines)) }

func indentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

var bulletStart = regexp.MustCompile(`^\s*[-*+]\s+`)

func isTopBullet(l string) bool { return indentOf(l) < 2 && bulletStart.MatchString(l) }
func isTableLine(l string) bool {
	return indentOf(l) < 4 && strings.HasPrefix(strings.TrimSpace(l), "|")
}
func isBlank(l string) bool       { return strings.TrimSpace(l) == "" }
func startsHeading(l string) bool { _, _, ok := headingLine(l); return ok }

// items splits a block's lines into paragraphs, bullets (with their continuation lines), tables
// and fenced blocks.
func items(lines []srcLine) []mdItem {
	var out []mdItem
	for i := 0; i < len(lines); {
		l := lines[i].text
		it := mdItem{line: lines[i].n, lines: []string{l}}
		i++
		switch {
		case isBlank(l):
			continue
		case fenceMarker(l) != "":
			it.kind = itemFence
			m := fenceMarker(l)
			for i < len(lines) {
				it.lines = append(it.lines, lines[i].text)
				i++
				if strings.TrimSpace(it.lines[len(it.lines)-1]) == m {
					break
				}
			}
		case isTableLine(l):
			it.kind = itemTable
			for i < len(lines) && isTableLine(lines[i].text) {
				it.lines = append(it.lines, lines[i].text)
				i++
			}
		case indentOf(l) < 4 && bulletStart.MatchString(l):
			it.kind = itemBullet
			for i < len(lines) && continues(lines[i].text) {
				it.lines = append(it.lines, lines[i].text)
				i++
			}
		default:
			it.kind = itemText
			for i < len(lines) && !isBlank(lines[i].text) && !isTopBullet(lines[i].text) &&
				!isTableLine(lines[i].text) && fenceMarker(lines[i].text) == "" {
				it.lines = append(it.lines, lines[i].text)
				i++
			}
		}
		out = append(out, it)
	}
	return out
}

func continues(l string) bool {
	return !isBlank(l) && !isTopBullet(l) && fenceMarker(l) == "" && !startsHeading(l) &&
		(indentOf(l) >= 2 || !isTableLine(l))
}

// bulletValue splits a bullet into its bold label and its value, joining continuation lines with
// newlines; the value is still escaped.
// A label may hold escaped characters ("User\*Star") but no unescaped "**".
var labelled = regexp.MustCompile(`^\s*[-*+]\s+\*\*((?:\\.|[^\\*]|\*[^*])+?)\*\*\s*(.*)$`)

type bullet struct {
	label, rest string // rest follows the bold label, still raw (": value", " entity: …")
	cont        []string
}

func parseBullet(it mdItem) (bullet, bool) {
	m := labelled.FindStringSubmatch(it.lines[0])
	if m == nil {
		return bullet{}, false
	}
	b := bullet{label: strings.TrimSpace(m[1]), rest: m[2]}
	if strings.HasSuffix(b.label, ":") {
		b.label = strings.TrimSpace(strings.TrimSuffix(b.label, ":"))
		b.rest = ":" + b.rest
	}
	b.cont = dedent(it.lines[1:])
	return b, true
}

// value returns the text after "label:", joined with the continuation lines.
func (b bullet) value() (string, bool) {
	r := strings.TrimSpace(b.rest)
	if !strings.HasPrefix(r, ":") {
		return "", false
	}
	return joinValue(strings.TrimSpace(r[1:]), b.cont), true
}

func joinValue(first string, cont []string) string {
	if len(cont) == 0 {
		return first
	}
	if first == "" {
		return strings.Join(cont, "<br>")
	}
	return first + "<br>" + strings.Join(cont, "<br>")
}

func dedent(lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	cut := -1
	for _, l := range lines {
		if n := len(l) - len(strings.TrimLeft(l, " \t")); cut < 0 || n < cut {
			cut = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l[cut:], " \t")
	}
	return out
}

// unescapeInline reverses escapeInline: "\" before ASCII punctuation is dropped, and <br> in any
// spelling becomes a newline. The result is trimmed.
func unescapeInline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if n := breakAt(s, i); n > 0 {
			b.WriteByte('\n')
			i += n - 1
			continue
		}
		b.WriteByte(c)
	}
	return strings.TrimSpace(b.String())
}

func isASCIIPunct(c byte) bool {
	return c < 0x80 && unicode.IsPunct(rune(c)) || c < 0x80 && unicode.IsSymbol(rune(c))
}

// breakAt returns the length of a <br> written at s[i:], or 0.
func breakAt(s string, i int) int {
	if s[i] != '<' || len(s)-i < 4 || !strings.EqualFold(s[i+1:i+3], "br") {
		return 0
	}
	j := i + 3
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1 - i
	}
	return 0
}

// splitUnescaped splits escaped text at each unescaped sep (a single byte).
func splitUnescaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i++
		case s[i] == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// splitBreaks splits escaped text at each unescaped <br>.
func splitBreaks(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			continue
		}
		if n := breakAt(s, i); n > 0 {
			out = append(out, s[start:i])
			start = i + n
			i += n - 1
		}
	}
	return append(out, s[start:])
}

// parseList reads a comma-separated list of escaped text, dropping empty members.
func parseList(s string) []string {
	var out []string
	for _, part := range splitUnescaped(s, ',') {
		if v := oneLine(unescapeInline(part)); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func (p *reqParser) keep(b *reqBlock, it mdItem) {
	keepLines(b, it, it.lines)
}

func keepLines(b *reqBlock, it mdItem, lines []string) {
	b.leftover = append(b.leftover, leftoverPart{first: it.line, last: it.line + it.span() - 1, text: strings.Join(lines, "\n")})
}

// proseOf joins a block's leftover parts: with a blank line between parts that were apart in the
// source, without one between parts that were adjacent.
func proseOf(parts []leftoverPart) string {
	var b strings.Builder
	for i, part := range parts {
		if i > 0 {
			b.WriteString("\n")
			if part.first != parts[i-1].last+1 {
				b.WriteString("\n")
			}
		}
		b.WriteString(part.text)
	}
	return b.String()
}

func (p *reqParser) parseBlock(b *reqBlock) {
	for _, it := range items(b.lines) {
		if it.kind == itemTable && p.table(b, it) {
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
		case blockAggregate:
			handled = p.aggregateItem(b, it)
		case blockConsiderations:
			handled = p.considerationItem(b, it)
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
	for _, group := range [][]string{aggregatesIntro, identifyingGuide, consolidationIntro, frameworkGuide, rulesGuide} {
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
func withoutBoilerplate(it mdItem) (mdItem, bool) {
	if it.kind != itemText && it.kind != itemBullet {
		return it, true
	}
	it.spanLines = it.span()
	var rest []string
	for i, l := range it.lines {
		if boilerplateLines[strings.ToLower(strings.TrimSpace(l))] {
			if i == 0 {
				it.kind = itemText
			}
			continue
		}
		rest = append(rest, l)
	}
	if len(rest) == len(it.lines) {
		return it, true
	}
	// The item keeps its span, so prose from it stays apart from its neighbours as in the source.
	it.lines = rest
	return it, len(rest) > 0
}

func (p *reqParser) overviewItem(it mdItem) bool {
	bl, ok := parseBullet(it)
	if !ok {
		return false
	}
	v, ok := bl.value()
	if !ok {
		return false
	}
	var target *string
	switch strings.ToLower(bl.label) {
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
	text := unescapeInline(v)
	switch {
	case text == "":
		return true // the template's empty bullet
	case *target != "":
		return false // said twice: the second is kept as prose
	}
	if _, err := designer.CleanText("overview", text); err != nil {
		p.note(it.line, "the overview's %s was kept as prose: %v", bl.label, err)
		return false
	}
	*target = text
	return true
}

func (p *reqParser) considerationItem(b *reqBlock, it mdItem) bool {
	bl, ok := parseBullet(it)
	if !ok {
		return false
	}
	v, ok := bl.value()
	if !ok {
		return false
	}
	label := strings.ToLower(bl.label)
	for _, f := range considerationLabels {
		l := strings.ToLower(f.label)
		if label == l || label == strings.TrimSuffix(l, " concerns") || label == strings.TrimSuffix(l, " opportunities") ||
			label == strings.TrimSuffix(l, " ideas") || label == strings.TrimSuffix(l, " patterns") {
			target := f.field(&p.d.Considerations)
			text := unescapeInline(v)
			if *target != "" {
				return text == ""
			}
			*target = text
			return true
		}
	}
	return false
}

func (p *reqParser) checklistItem(it mdItem) bool {
	if it.kind != itemBullet {
		return false
	}
	for _, l := range it.lines {
		t := strings.ToLower(strings.TrimSpace(l))
		if !strings.HasPrefix(t, "- [ ]") && !strings.HasPrefix(t, "- [x]") && !strings.HasPrefix(t, "* [ ]") && !strings.HasPrefix(t, "* [x]") {
			return false
		}
	}
	return true
}

var entityBullet = regexp.MustCompile(`(?i)^entity\b\s*(?::\s*(.*))?$`)

func (p *reqParser) relationshipItem(b *reqBlock, it mdItem) bool {
	bl, ok := parseBullet(it)
	if !ok {
		return false
	}
	if m := entityBullet.FindStringSubmatch(strings.TrimSpace(bl.rest)); m != nil {
		return p.entity(b, it, bl, m[1])
	}
	from, to, ok := splitArrow(bl.label)
	if !ok {
		return false
	}
	v, ok := bl.value()
	if !ok {
		return false
	}
	rv := parseRelationshipValue(v)
	r := designer.Relationship{From: from, To: to, Kind: rv.kind, Avg: rv.avg, Max: rv.max, Notes: rv.notes}
	if rv.swap {
		r.From, r.To = r.To, r.From
		p.note(it.line, "relationship %s → %s is many-to-one; it was stored as %s → %s (1:M)", from, to, to, from)
	}
	p.d.Relationships = append(p.d.Relationships, r)
	p.relLines = append(p.relLines, it.line)
	return true
}

// splitArrow splits "From → To". The spaced arrow the exporter writes is looked for first, so a
// name may itself hold an arrow.
func splitArrow(label string) (string, string, bool) {
	for _, arrow := range []string{" → ", "→", "->", "=>", "⟶"} {
		if a, b, ok := strings.Cut(label, arrow); ok {
			from, to := oneLine(unescapeInline(a)), oneLine(unescapeInline(b))
			return from, to, from != "" && to != ""
		}
	}
	return "", "", false
}

type relationshipValue struct {
	kind     string
	avg, max *int64
	notes    string
	swap     bool
}

var (
	kindToken      = regexp.MustCompile(`(?i)^(1:1|1:many|1:m|1:n|1:\*|m:m|m:n|n:m|many:many|many:1|m:1|n:1|one-to-one|one-to-many|many-to-many|many-to-one)(?:\s|$)`)
	canonicalCount = regexp.MustCompile(`^\((avg \d{1,15})?(?:, )?(max \d{1,15})?\)`)
	looseAvg       = regexp.MustCompile(`(?i)\b(?:avg|average)\.?:?\s*(\d{1,15})\b`)
	looseMax       = regexp.MustCompile(`(?i)\b(?:max|maximum|up to)\.?:?\s*(\d{1,15})\b`)
)

// parseRelationshipValue reads "1:M (avg 5, max 1000) — notes" and the wild's "1:Many (avg 5
// orders per user, max 1000)". Counts are taken from free notes only in the wild form.
func parseRelationshipValue(v string) relationshipValue {
	var rv relationshipValue
	s := strings.TrimSpace(v)
	if rest, ok := strings.CutPrefix(s, "— "); ok || s == "—" {
		rv.notes = unescapeInline(rest)
		return rv
	}
	if m := kindToken.FindStringSubmatch(s); m != nil {
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
	if m := canonicalCount.FindStringSubmatch(s); m != nil && (m[1] != "" || m[2] != "") && len(m[0]) == countLen(m) {
		rv.avg = countOf(strings.TrimPrefix(m[1], "avg "))
		rv.max = countOf(strings.TrimPrefix(m[2], "max "))
		s = strings.TrimSpace(s[len(m[0]):])
		canonical = true
	}
	if rest, ok := strings.CutPrefix(s, "— "); ok || s == "—" {
		rv.notes = unescapeInline(rest)
		return rv
	}
	rv.notes = unescapeInline(s)
	if rv.kind == "" && !canonical {
		return rv
	}
	if inner, ok := strings.CutPrefix(rv.notes, "("); ok && strings.HasSuffix(inner, ")") && !strings.ContainsAny(inner[:len(inner)-1], "()") {
		rv.notes = strings.TrimSpace(inner[:len(inner)-1])
	}
	if !canonical {
		if m := looseAvg.FindStringSubmatch(rv.notes); m != nil {
			rv.avg = countOf(m[1])
		}
		if m := looseMax.FindStringSubmatch(rv.notes); m != nil {
			rv.max = countOf(m[1])
		}
	}
	return rv
}

func countLen(m []string) int {
	n := 2 + len(m[1]) + len(m[2])
	if m[1] != "" && m[2] != "" {
		n += 2
	}
	return n
}

func countOf(s string) *int64 {
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}

var attributeLine = regexp.MustCompile(`^[-*+]\s+(.+?) \(([A-Za-z]{0,4})\)(?::\s*(.*))?$`)

func (p *reqParser) entity(b *reqBlock, it mdItem, bl bullet, desc string) bool {
	name := oneLine(unescapeInline(bl.label))
	if _, err := designer.CleanName("name", name); err != nil {
		p.note(it.line, "entity %q was kept as prose: %v", name, err)
		return false
	}
	if p.entities[name] {
		p.note(it.line, "entity %q is described twice; the second description was kept as prose", name)
		return false
	}
	e := designer.Entity{Name: name, Description: unescapeInline(desc), Attributes: []designer.Attribute{}}
	var bad []string
	for _, l := range bl.cont {
		if gaps, ok := strings.CutPrefix(l, "- Accepted gaps:"); ok && len(e.AcceptedGaps) == 0 {
			list := parseList(gaps)
			if len(list) > 0 && !slices.ContainsFunc(list, func(g string) bool { return g != designer.GapNoWrite && g != designer.GapNoRead }) {
				e.AcceptedGaps = list
				continue
			}
		}
		m := attributeLine.FindStringSubmatch(l)
		if m == nil {
			bad = append(bad, "  "+l)
			continue
		}
		a := designer.Attribute{Name: oneLine(unescapeInline(m[1])), Type: designer.Type(strings.ToUpper(m[2])), Description: unescapeInline(m[3])}
		_, nameErr := designer.CleanName("name", a.Name)
		if nameErr != nil || !a.Type.Valid() || slices.ContainsFunc(e.Attributes, func(x designer.Attribute) bool { return x.Name == a.Name }) {
			bad = append(bad, "  "+l)
			continue
		}
		e.Attributes = append(e.Attributes, a)
	}
	if len(bad) > 0 {
		p.note(it.line, "entity %s: %d attribute line(s) could not be read (they need \"name (TYPE)\" with a DynamoDB type) and were kept as prose", name, len(bad))
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
	correlationValue = regexp.MustCompile(`^(\d{1,3}(?:\.\d+)?)\s*%(.*)$`)
	querySubBullet   = regexp.MustCompile(`^[-*+]\s+(.+?):\s*(\d{1,3}(?:\.\d+)?)\s*%(.*)$`)
)

// aggregateItem reads one bullet of an "Item Collection Analysis". A value read only in part is
// stored and its bullet kept as prose too, so no word of it is lost.
func (p *reqParser) aggregateItem(b *reqBlock, it mdItem) bool {
	bl, ok := parseBullet(it)
	if !ok {
		return false
	}
	v, ok := bl.value()
	if !ok {
		return false
	}
	a := &p.d.Aggregates[b.aggregate]
	label := strings.ToLower(bl.label)
	switch {
	case label == "access correlation" || label == "correlation":
		m := correlationValue.FindStringSubmatch(unescapeInline(v))
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
		return true
	case label == "update patterns" || label == "updates":
		if a.Updates != "" {
			return unescapeInline(v) == ""
		}
		a.Updates = unescapeInline(v)
		return true
	case label == "identifying relationship" || label == "identifying":
		return parseIdentifying(v, &a.Identifying)
	case label == "decision":
		if a.Decision != "" {
			return false
		}
		text := unescapeInline(v)
		if dec, err := designer.ParseAggregateDecision(text); err == nil {
			a.Decision = dec
			return true
		}
		a.Decision = looseAggregateDecision(text)
		return false
	case label == "justification":
		if a.Justification != "" {
			return unescapeInline(v) == ""
		}
		a.Justification = unescapeInline(v)
		return true
	}
	return false
}

func (p *reqParser) queryPatterns(a *designer.AggregateAnalysis, bl bullet) bool {
	if a.OnlyAPct != nil || a.OnlyBPct != nil || a.BothPct != nil || len(bl.cont) == 0 {
		return false
	}
	whole := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(bl.rest), ":")) == ""
	for _, l := range bl.cont {
		m := querySubBullet.FindStringSubmatch(l)
		if m == nil {
			whole = false
			continue
		}
		label := strings.ToLower(oneLine(unescapeInline(m[1])))
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

var sizeHead = regexp.MustCompile(`(?i)^(?:combined max size (\d+(?:\.\d+)?) ?kb)?(?:(?:, |^)(bounded|unbounded) growth)?`)

// parseSize reads "Combined max size 17 KB, bounded growth — notes"; text in any other form is
// the notes.
func parseSize(v string) (*float64, *bool, string) {
	s := strings.TrimSpace(v)
	if rest, ok := strings.CutPrefix(s, "— "); ok || s == "—" {
		return nil, nil, unescapeInline(rest)
	}
	m := sizeHead.FindStringSubmatchIndex(s)
	if m == nil || m[1] == 0 {
		return nil, nil, unescapeInline(s)
	}
	rest := s[m[1]:]
	if rest != "" && !strings.HasPrefix(rest, " — ") {
		return nil, nil, unescapeInline(s)
	}
	var kb *float64
	if m[2] >= 0 {
		if v, err := designer.ParseKB(s[m[2]:m[3]]); err == nil {
			kb = v
		} else {
			return nil, nil, unescapeInline(s)
		}
	}
	var bounded *bool
	if m[4] >= 0 {
		b := strings.EqualFold(s[m[4]:m[5]], "bounded")
		bounded = &b
	}
	return kb, bounded, unescapeInline(strings.TrimPrefix(rest, " — "))
}

// parseIdentifying reads "Child independent: No; Parent ID always known: Yes; …". It reports
// whether the whole value was read; answers it could read are stored either way.
func parseIdentifying(v string, c *designer.IdentifyingCheck) bool {
	whole := true
	fields := identifyingFields(c)
	for _, seg := range splitUnescaped(v, ';') {
		label, answer, ok := strings.Cut(unescapeInline(seg), ":")
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

// keyRequirements are the parts of a Key Requirements cell.
type keyRequirements struct {
	latency, consistency, result, size, notes string
}

// parse reads "Latency <50ms; Strong consistency; Result 1 item; Item size <1 KB; notes". Parts in
// any order are accepted, as are "<50ms latency" and "Latency: <50ms"; a part "Notes: …" takes
// the rest of the cell as written.
func (k *keyRequirements) parse(cell string) {
	var notes []string
	rest := cell
	for rest != "" {
		segs := splitUnescaped(rest, ';')
		seg := segs[0]
		rest = strings.TrimPrefix(rest[len(seg):], ";")
		t := strings.TrimSpace(seg)
		if n, ok := cutLabel(t, "notes"); ok {
			if rest != "" {
				n += ";" + rest // the notes run to the end of the cell, separators and all
			}
			notes = append(notes, unescapeInline(n))
			break
		}
		if t == "" {
			continue
		}
		plain := unescapeInline(t)
		var target *string
		value := ""
		if c, err := designer.ParseConsistency(plain); err == nil && c != "" {
			target, value = &k.consistency, c
		} else if v, ok := cutLabel(t, "consistency"); ok {
			if c, err := designer.ParseConsistency(unescapeInline(v)); err == nil && c != "" {
				target, value = &k.consistency, c
			}
		}
		if target == nil {
			for _, f := range []struct {
				labels []string
				field  *string
			}{
				{[]string{"latency"}, &k.latency},
				{[]string{"result bound", "result"}, &k.result},
				{[]string{"item size band", "item size"}, &k.size},
			} {
				for _, l := range f.labels {
					if v, ok := cutLabel(t, l); ok && v != "" {
						target, value = f.field, unescapeInline(v)
						break
					}
				}
				if target != nil {
					break
				}
			}
		}
		if target == nil && strings.HasSuffix(strings.ToLower(plain), " latency") {
			target, value = &k.latency, strings.TrimSpace(plain[:len(plain)-len(" latency")])
		}
		if target == nil || *target != "" || value == "" {
			notes = append(notes, plain)
			continue
		}
		*target = value
	}
	k.notes = strings.Join(notes, "; ")
}

// cutLabel cuts "label " or "label:" from the start of s, ignoring case.
func cutLabel(s, label string) (string, bool) {
	if len(s) <= len(label) || !strings.EqualFold(s[:len(label)], label) {
		return "", false
	}
	if c := s[len(label)]; c != ' ' && c != ':' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[len(label):]), ":")), true
}

// isEntitiesLine reports whether an escaped line is a pattern's "Entities: …" line.
func isEntitiesLine(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) >= 9 && strings.EqualFold(t[:9], "entities:")
}

// Columns of the two tables, recognised by their header whatever their order.
func patternColumn(h string) string {
	switch {
	case h == "pattern #" || h == "#" || h == "pattern" || h == "ap" || h == "id" || h == "pattern id" ||
		h == "no" || h == "no." || h == "pattern no" || h == "ap #" || h == "pattern number" || h == "number":
		return "number"
	case strings.Contains(h, "description") || h == "access pattern" || h == "use case":
		return "description"
	case strings.Contains(h, "rps") || strings.Contains(h, "qps") || strings.Contains(h, "requests"):
		peak := strings.Contains(h, "peak")
		avg := strings.Contains(h, "avg") || strings.Contains(h, "average") || strings.Contains(h, "mean")
		switch {
		case peak && !avg:
			return "peak"
		case avg && !peak:
			return "avg"
		}
		return "rps"
	case h == "type" || h == "operation type" || h == "r/w" || h == "read/write" || h == "operation":
		return "type"
	case strings.Contains(h, "attribute"):
		return "attributes"
	case strings.Contains(h, "key requirement") || h == "requirements":
		return "keyreq"
	case strings.Contains(h, "consideration") || h == "notes":
		return "considerations"
	case h == "status":
		return "status"
	case h == "entities" || h == "entity":
		return "entities"
	}
	return ""
}

func consolidationColumn(h string) string {
	switch {
	case h == "parent" || h == "parent entity":
		return "parent"
	case h == "child" || h == "child entity":
		return "child"
	case strings.Contains(h, "relationship"):
		return "relationship"
	case strings.Contains(h, "overlap"):
		return "overlap"
	case strings.Contains(h, "decision"):
		return "decision"
	case strings.Contains(h, "justification") || h == "reason" || h == "why" || h == "notes":
		return "justification"
	}
	return ""
}

// splitRow splits a table row into its escaped cells.
func splitRow(l string) []string {
	cells := splitUnescaped(strings.TrimPrefix(strings.TrimSpace(l), "|"), '|')
	if len(cells) > 1 && strings.TrimSpace(cells[len(cells)-1]) == "" {
		cells = cells[:len(cells)-1]
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

var separatorCell = regexp.MustCompile(`^:?-+:?$`)

func isSeparatorRow(cells []string) bool {
	for _, c := range cells {
		if !separatorCell.MatchString(c) {
			return false
		}
	}
	return len(cells) > 0
}

func headerName(cell string) string {
	return strings.Join(strings.Fields(strings.ToLower(markup.Replace(unescapeInline(cell)))), " ")
}

// tableKindOf says which of the template's tables a header row starts: "patterns", "candidates"
// or "".
func tableKindOf(headerRow string) string {
	_, _, kind := tableColumns(splitRow(headerRow))
	return kind
}

// tableColumns maps the columns of a header row for both tables, and says which table it is.
func tableColumns(header []string) (pcols, ccols map[string]int, kind string) {
	pcols, ccols = map[string]int{}, map[string]int{}
	for i, h := range header {
		name := headerName(h)
		if c := patternColumn(name); c != "" {
			if _, dup := pcols[c]; !dup {
				pcols[c] = i
			}
		}
		if c := consolidationColumn(name); c != "" {
			if _, dup := ccols[c]; !dup {
				ccols[c] = i
			}
		}
	}
	_, hasParent := ccols["parent"]
	_, hasChild := ccols["child"]
	_, hasDesc := pcols["description"]
	switch {
	case hasParent && hasChild:
		kind = "candidates"
	case hasDesc && len(pcols) >= 2:
		kind = "patterns"
	}
	return pcols, ccols, kind
}

// table reads an access pattern table or a consolidation table wherever it is, and reports whether
// it was one of them.
func (p *reqParser) table(b *reqBlock, it mdItem) bool {
	header := splitRow(it.lines[0])
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = headerName(h)
	}
	pcols, ccols, kind := tableColumns(header)
	rows := it.lines[1:]
	if len(rows) > 0 && isSeparatorRow(splitRow(rows[0])) {
		rows = rows[1:]
	}
	switch kind {
	case "candidates":
		p.recognised = true
		p.rows(it, names, ccols, rows, p.consolidationRow)
		return true
	case "patterns":
		p.recognised = true
		p.rows(it, names, pcols, rows, p.patternRow)
		return true
	}
	return false
}

type rowCells struct {
	line  int
	get   func(col string) string // escaped cell of a known column
	extra []string                // "Header: value" of cells in columns the template does not have
}

func (p *reqParser) rows(it mdItem, names []string, cols map[string]int, rows []string, read func(rowCells)) {
	known := map[int]bool{}
	for _, i := range cols {
		known[i] = true
	}
	noted := map[string]bool{}
	for ri, l := range rows {
		cells := splitRow(l)
		rc := rowCells{line: it.line + len(it.lines) - len(rows) + ri}
		rc.get = func(col string) string {
			if i, ok := cols[col]; ok && i < len(cells) {
				return cells[i]
			}
			return ""
		}
		for i, c := range cells {
			if known[i] || strings.TrimSpace(c) == "" {
				continue
			}
			name := "Column " + strconv.Itoa(i+1)
			if i < len(names) && names[i] != "" {
				name = strings.TrimSpace(unescapeInline(splitRow(it.lines[0])[i]))
			}
			rc.extra = append(rc.extra, escapeInline(oneLine(name), "")+": "+c)
			if !noted[name] {
				noted[name] = true
				p.note(it.line, "column %q is not part of the template; its values were added to the row's notes", name)
			}
		}
		read(rc)
	}
}

var patternNumber = regexp.MustCompile(`(?i)^(?:ap|pattern|no\.?)?\s*[-#]?\s*(\d{1,9})$`)

func (p *reqParser) patternRow(rc rowCells) {
	pt := designer.Pattern{Description: unescapeInline(rc.get("description"))}
	var extra []string
	keepRaw := func(label, raw string) {
		extra = append(extra, label+": "+raw)
	}

	rawNumber := markup.Replace(unescapeInline(rc.get("number")))
	if m := patternNumber.FindStringSubmatch(strings.TrimSpace(rawNumber)); m != nil {
		pt.Number, _ = strconv.Atoi(m[1])
		if p.numbers[pt.Number] {
			p.note(rc.line, "pattern number %d is used twice", pt.Number)
		}
	} else {
		pt.Number = p.maxNumber + 1
		if strings.TrimSpace(rawNumber) != "" {
			keepRaw("Pattern #", rc.get("number"))
		}
		p.note(rc.line, "pattern without a readable number was numbered %d", pt.Number)
	}

	if raw := rc.get("rps"); raw != "" {
		peak, avg, whole := parseRPSCell(raw)
		pt.PeakRPS, pt.AvgRPS = peak, avg
		if !whole {
			keepRaw("RPS", raw)
			p.note(rc.line, "pattern %d: the RPS %q was not read in full; it was kept in the design considerations", pt.Number, unescapeInline(raw))
		}
	}
	for _, c := range []struct {
		col    string
		target **float64
		label  string
	}{{"peak", &pt.PeakRPS, "Peak RPS"}, {"avg", &pt.AvgRPS, "Average RPS"}} {
		raw := rc.get(c.col)
		if raw == "" {
			continue
		}
		if v, err := designer.ParseRPS(unescapeInline(raw)); err == nil && *c.target == nil {
			*c.target = v
		} else {
			keepRaw(c.label, raw)
			p.note(rc.line, "pattern %d: %s %q was kept in the design considerations", pt.Number, c.label, unescapeInline(raw))
		}
	}

	if raw := rc.get("type"); raw != "" {
		plain := markup.Replace(unescapeInline(raw))
		t, err := designer.ParsePatternType(plain)
		switch {
		case err != nil:
			keepRaw("Type", raw)
			p.note(rc.line, "pattern %d: type %q is neither Read nor Write; it was kept in the design considerations", pt.Number, plain)
		case t == "" && strings.EqualFold(strings.TrimSpace(plain), "none"):
			p.note(rc.line, "pattern %d has type None (no database operation); it is stored without a type", pt.Number)
		}
		pt.Type = t
	}
	pt.Attributes = parseList(rc.get("attributes"))

	var kr keyRequirements
	kr.parse(rc.get("keyreq"))
	pt.LatencySLO, pt.Consistency, pt.ResultBound, pt.SizeBand, pt.KeyNotes = kr.latency, kr.consistency, kr.result, kr.size, kr.notes

	cons := rc.get("considerations")
	if parts := splitBreaks(cons); len(parts) > 0 && isEntitiesLine(parts[len(parts)-1]) {
		last := strings.TrimSpace(parts[len(parts)-1])
		pt.Entities = parseList(last[len("entities:"):])
		cons = strings.Join(parts[:len(parts)-1], "<br>")
	}
	if raw := rc.get("entities"); raw != "" && len(pt.Entities) == 0 {
		pt.Entities = parseList(raw)
	}
	extra = append(extra, rc.extra...)
	texts := []string{}
	if c := unescapeInline(cons); c != "" {
		texts = append(texts, c)
	}
	for _, e := range extra {
		texts = append(texts, unescapeInline(e))
	}
	pt.Considerations = strings.Join(texts, "\n")

	pt.Status = designer.StatusOpen
	if raw := rc.get("status"); raw != "" {
		st, err := designer.ParseStatus(unescapeInline(raw))
		if err != nil {
			p.note(rc.line, "pattern %d: status %q is not one of ✅ ⏳ ❌ ⚠️; it was set to ⏳ and the text kept in the design considerations", pt.Number, unescapeInline(raw))
			pt.Considerations = strings.TrimSpace(pt.Considerations + "\nStatus: " + unescapeInline(raw))
		} else {
			pt.Status = st
		}
	}
	if p.numbers == nil {
		p.numbers = map[int]bool{}
	}
	p.numbers[pt.Number] = true
	p.maxNumber = max(p.maxNumber, pt.Number)
	p.d.Patterns = append(p.d.Patterns, pt)
}

// markup removes the emphasis people put around table cells ("**AP1**", "`Read`").
var markup = strings.NewReplacer("*", "", "`", "")

var (
	rpsNumber     = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+`)
	rpsNoiseWords = regexp.MustCompile(`(?i)\b(?:rps|qps|req/s|requests per second|requests/s|peak|max|avg|average|mean|and|about|approx|at|per second)\b|[~≈/,:()\-–]`)
)

// parseRPSCell reads "500 peak / 120 avg RPS", "500 RPS", "120 avg RPS" and looser spellings
// ("Peak: 500, Avg: 120", "500/120"). whole is false when words other than units and labels were
// left over, or numbers could not be placed.
func parseRPSCell(raw string) (peak, avg *float64, whole bool) {
	if peak, avg, ok := exportedRPS(raw); ok {
		return peak, avg, true
	}
	s := unescapeInline(raw)
	locs := rpsNumber.FindAllStringIndex(s, -1)
	if len(locs) == 0 || len(locs) > 2 {
		return nil, nil, false
	}
	whole = strings.TrimSpace(rpsNoiseWords.ReplaceAllString(rpsNumber.ReplaceAllString(s, " "), " ")) == ""
	lower := strings.ToLower(s)
	// Labels follow their numbers ("500 peak / 120 avg") unless the text starts with one
	// ("Peak: 500, Avg: 120").
	labelsFirst := rpsLabel(lower[:locs[0][0]]) != ""
	for i, loc := range locs {
		v, err := designer.ParseRPS(s[loc[0]:loc[1]])
		if err != nil || v == nil {
			whole = false
			continue
		}
		// A label belongs to the number it follows ("500 peak") or, failing that, precedes
		// ("Peak: 500").
		after := lower[loc[1]:]
		if i+1 < len(locs) {
			after = lower[loc[1]:locs[i+1][0]]
		}
		before := lower[:loc[0]]
		if i > 0 {
			before = lower[locs[i-1][1]:loc[0]]
		}
		label := rpsLabel(after)
		if labelsFirst {
			label = rpsLabel(before)
		}
		switch {
		case label == "avg" && avg == nil:
			avg = v
		case label == "peak" && peak == nil:
			peak = v
		case label == "" && peak == nil:
			peak = v
		case label == "" && avg == nil:
			avg = v
		default:
			whole = false
		}
	}
	return peak, avg, whole
}

// exportedRPS reads the three forms ExportRequirementsMD writes, without regular expressions.
func exportedRPS(s string) (peak, avg *float64, ok bool) {
	body, ok := strings.CutSuffix(s, " RPS")
	if !ok {
		return nil, nil, false
	}
	if p, a, found := strings.Cut(body, " peak / "); found {
		a, found = strings.CutSuffix(a, " avg")
		peak, avg = plainNumber(p), plainNumber(a)
		return peak, avg, found && peak != nil && avg != nil
	}
	if a, found := strings.CutSuffix(body, " avg"); found {
		avg = plainNumber(a)
		return nil, avg, avg != nil
	}
	peak = plainNumber(body)
	return peak, nil, peak != nil
}

// plainNumber reads digits with at most one decimal point, as formatNumber writes them.
func plainNumber(s string) *float64 {
	if s == "" || strings.Count(s, ".") > 1 || strings.Trim(s, "0123456789.") != "" || s == "." {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &v
}

func rpsLabel(s string) string {
	switch {
	case strings.Contains(s, "peak") || strings.Contains(s, "max"):
		return "peak"
	case strings.Contains(s, "avg") || strings.Contains(s, "average") || strings.Contains(s, "mean"):
		return "avg"
	}
	return ""
}

var flagGroup = regexp.MustCompile(`\s*\(([a-z, -]*)\)$`)

// splitFlags cuts the trailing "(bounded, identifying)" from an escaped Relationship cell.
func splitFlags(cell string) (rel string, bounded, identifying *bool, ok bool) {
	m := flagGroup.FindStringSubmatchIndex(cell)
	if m == nil {
		return cell, nil, nil, false
	}
	for _, f := range strings.Split(cell[m[2]:m[3]], ",") {
		f = strings.TrimSpace(f)
		yes, no := true, false
		switch {
		case f == "":
		case f == "bounded" && bounded == nil:
			bounded = &yes
		case f == "unbounded" && bounded == nil:
			bounded = &no
		case f == "identifying" && identifying == nil:
			identifying = &yes
		case f == "non-identifying" && identifying == nil:
			identifying = &no
		default:
			return cell, nil, nil, false
		}
	}
	return cell[:m[0]], bounded, identifying, true
}

func (p *reqParser) consolidationRow(rc rowCells) {
	c := designer.ConsolidationReview{
		Parent: oneLine(unescapeInline(rc.get("parent"))),
		Child:  oneLine(unescapeInline(rc.get("child"))),
	}
	var extra []string
	rel, bounded, identifying, _ := splitFlags(rc.get("relationship"))
	c.Relationship, c.Bounded, c.Identifying = unescapeInline(rel), bounded, identifying
	if raw := rc.get("overlap"); raw != "" {
		v := percentOf(strings.TrimSpace(unescapeInline(raw)))
		if v == nil {
			if m := correlationValue.FindStringSubmatch(unescapeInline(raw)); m != nil {
				v = percentOf(m[1])
			}
			extra = append(extra, "Access Overlap: "+unescapeInline(raw))
			p.note(rc.line, "consolidation %s → %s: access overlap %q was kept in the justification", c.Parent, c.Child, unescapeInline(raw))
		}
		c.OverlapPct = v
	}
	if raw := unescapeInline(rc.get("decision")); raw != "" {
		dec, whole := parseConsolidationCell(raw)
		c.Decision = dec
		if !whole {
			extra = append(extra, "Consolidation Decision: "+raw)
			p.note(rc.line, "consolidation %s → %s: decision %q was kept in the justification", c.Parent, c.Child, raw)
		}
	}
	texts := []string{}
	if j := unescapeInline(rc.get("justification")); j != "" {
		texts = append(texts, j)
	}
	texts = append(texts, extra...)
	for _, e := range rc.extra {
		texts = append(texts, unescapeInline(e))
	}
	c.Justification = strings.Join(texts, "\n")
	p.d.Consolidations = append(p.d.Consolidations, c)
}

// parseConsolidationCell reads "✅ Consolidate", "❌ Separate" and the template's placeholder
// "✅/❌ Consolidate/Separate" (which decides nothing).
func parseConsolidationCell(raw string) (string, bool) {
	t := strings.TrimSpace(raw)
	mark := ""
	for _, m := range []string{"✅", "❌"} {
		if rest, ok := strings.CutPrefix(t, m); ok {
			mark, t = m, strings.TrimSpace(rest)
			break
		}
	}
	if dec, err := designer.ParseConsolidationDecision(t); err == nil {
		if dec == "" {
			switch mark {
			case "✅":
				dec = designer.Consolidate
			case "❌":
				dec = designer.Separate
			}
		}
		return dec, true
	}
	l := strings.ToLower(t)
	switch {
	case strings.Contains(l, "consolidat") && !strings.Contains(l, "separate"):
		return designer.Consolidate, false
	case strings.Contains(l, "separate") && !strings.Contains(l, "consolidat"):
		return designer.Separate, false
	}
	return "", false
}

// design assembles the parsed design: the name, and the prose kept per block.
func (p *reqParser) design() designer.Design {
	d := p.d
	name := titleName(p.title)
	if name == "" {
		name = nameFromDomain(d.Overview.Domain)
	}
	if name == "" && !p.titleSeen {
		// A document whose first heading is a section, such as "# Access Patterns", is named by it.
		name = oneLine(unescapeInline(p.firstH1))
	}
	if name == "" {
		name = "Untitled design"
	}
	d.Name = truncateRunes(name, designer.MaxNameLen)
	d.Entities = p.relationshipEntities(d.Entities, d.Relationships)

	for _, b := range p.blocks {
		body := proseOf(b.leftover)
		switch {
		case b.kind == blockUnknown:
			d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: b.title, Body: body})
		case body != "":
			d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: b.title, Body: body})
		}
	}
	return designer.Normalize(d)
}

// relationshipEntities adds to entities each entity a relationship names that the document defines
// nowhere else. Files in the seed's template list their entities only in the relationships; without
// this their design would have relationships between entities it does not have.
func (p *reqParser) relationshipEntities(entities []designer.Entity, rels []designer.Relationship) []designer.Entity {
	known := map[string]bool{}
	for _, e := range entities {
		known[e.Name] = true
	}
	for i, r := range rels {
		for _, name := range []string{r.From, r.To} {
			if known[name] {
				continue
			}
			known[name] = true
			if _, err := designer.CleanName("name", name); err != nil {
				continue
			}
			entities = append(entities, designer.Entity{Name: name, Attributes: []designer.Attribute{}})
			p.note(p.relLines[i], "entity %s is named only in a relationship; it was added as an entity without attributes", name)
		}
	}
	return entities
}

// titleName is the design name a title gives: "DynamoDB Modeling Session — Orders" gives "Orders",
// the generic title alone gives "", any other title is the name.
func titleName(title string) string {
	clean := func(s string) string { return oneLine(unescapeInline(s)) }
	rest, ok := cutPrefixFold(strings.TrimSpace(title), reqTitle)
	if !ok {
		return clean(title)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return ""
	}
	for _, sep := range []string{"—", "–", "-", ":"} {
		if rest == sep {
			return ""
		}
		if after, ok := strings.CutPrefix(rest, sep+" "); ok {
			return clean(after)
		}
	}
	return clean(title)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// nameFromDomain takes the first clause of the domain: "E-commerce platform with multi-vendor
// support. Sellers …" gives "E-commerce platform with multi-vendor support".
func nameFromDomain(domain string) string {
	s := oneLine(domain)
	if i := strings.IndexAny(s, ".:;(["); i > 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)[:60]
		if i := strings.LastIndex(string(r), " "); i > 20 {
			return strings.TrimSpace(string(r)[:i]) + "…"
		}
		return string(r) + "…"
	}
	return s
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}
