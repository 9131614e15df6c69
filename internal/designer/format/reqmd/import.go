package reqmd

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// Import reads a dynamodb_requirement.md: the seed template, the forms
// Export writes, and the variants seen in the wild (a single RPS value, type "None",
// columns in another order or missing, pattern numbers such as "AP3", sections missing, added or
// at other heading levels). Text that cannot be placed is kept in d.Prose.Sections under the
// heading it was found under, and a note says so; nothing is dropped silently. The Validation
// Checklist is not read: it is computed from the design.
//
// The error is a *ValidationError for field "file" when data is not a requirement document at all.
func Import(data []byte) (designer.Design, []designer.ImportNote, error) {
	text, notes, err := markdown.CleanInput(data)
	if err != nil {
		return designer.Design{}, nil, err
	}
	p := parser{notes: notes}
	p.parse(text)
	if !p.recognised {
		return designer.Design{}, nil, designer.Invalid("file", "is not a requirement document: it has none of the template's sections (such as %q or %q) and no access pattern table", titleOverview, titlePatterns)
	}
	d := p.design()
	if err := designer.Check(d); err != nil {
		// The parser builds only what Check accepts; this guards against a gap in that promise.
		return designer.Design{}, nil, fmt.Errorf("import requirement document: %w", err)
	}
	// Notes made after the parse (such as entities added from relationships) take their line's place.
	slices.SortStableFunc(p.notes, func(a, b designer.ImportNote) int { return cmp.Compare(a.Line, b.Line) })
	return d, p.notes, nil
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
	blockEntities
)

// topLevel kinds are written as "##" sections; the others are "###" parts of one.
func topLevel(kind int) bool {
	switch kind {
	case blockAggregate, blockIdentifying, blockFramework, blockCandidates, blockRules:
		return false
	}
	return true
}

type block struct {
	kind  int
	title string // the prose title its leftovers are kept under
	level int    // heading level in the source; 0 for the preamble
	line  int
	items []markdown.Item
	// aggregate is the index in the design of a blockAggregate's analysis.
	aggregate int
	leftover  []markdown.Leftover
}

type parser struct {
	d          designer.Design
	notes      []designer.ImportNote
	blocks     []*block
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
	// listed is set when the document's appendix of entities lists their scale (listsScale).
	listed bool
	// identifying are the Identifying Relationship Check's statements about child entities.
	identifying []identifyingStatement
	// aggLines say where each of d.Aggregates was read.
	aggLines []int
	// patternRows say where each of d.Patterns was read.
	patternRows []patternSource
}

// patternSource is where a pattern was read, and whether its row said its entities.
type patternSource struct {
	line           int
	entitiesStated bool
}

func (p *parser) note(line int, format string, args ...any) {
	p.notes = append(p.notes, designer.ImportNote{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) parse(text string) {
	cur := &block{kind: blockPreamble}
	p.blocks = []*block{cur}
	top := cur
	comments := markdown.Walk(text, func(n, level int, text string) {
		kind, a, b := headingKind(text)
		_, generic := markdown.CutPrefixFold(text, titleSession)
		if level == 1 && p.firstH1 == "" {
			p.firstH1 = text
		}
		if level == 1 && !p.titleSeen && top.kind == blockPreamble && (generic || kind == blockUnknown) {
			p.titleSeen = true
			p.title = text
			p.recognised = p.recognised || generic
			return
		}
		if kind == blockUnknown {
			if top.kind != blockPreamble && level > top.level {
				// A heading of its own inside a section stays with that section, as many levels
				// below where the section is written (##) as it was below the section.
				cur.items = append(cur.items, markdown.Item{Kind: markdown.KindText, Line: n, Lines: []string{strings.TrimRight(strings.Repeat("#", min(level-top.level+2, 7))+" "+text, " ")}})
				return
			}
			cur = &block{kind: blockUnknown, title: text, level: level, line: n}
			top = cur
			p.blocks = append(p.blocks, cur)
			return
		}
		p.recognised = true
		cur = &block{kind: kind, title: canonicalTitle(kind), level: level, line: n}
		if kind == blockAggregate {
			cur.title = aggregateTitle(a, b)
			cur.aggregate = len(p.d.Aggregates)
			p.d.Aggregates = append(p.d.Aggregates, designer.AggregateAnalysis{EntityA: a, EntityB: b})
			p.aggLines = append(p.aggLines, n)
		}
		if topLevel(kind) {
			top = cur
		}
		p.blocks = append(p.blocks, cur)
	}, func(it markdown.Item) { cur.items = append(cur.items, it) })
	for _, n := range comments {
		p.note(n, "an HTML comment was skipped: a comment is not part of the design")
	}
	p.listed = p.listsScale()
	for _, b := range p.blocks {
		p.parseBlock(b)
	}
}

func canonicalTitle(kind int) string {
	return map[int]string{
		blockOverview: titleOverview, blockPatterns: titlePatterns, blockRelationships: titleRelationships,
		blockAggregates: titleAggregates, blockIdentifying: titleIdentifying, blockConsolidation: titleConsolidation,
		blockFramework: titleFramework, blockCandidates: titleCandidates, blockRules: titleRules,
		blockConsiderations: titleConsiderations, blockChecklist: titleChecklist, blockEntities: titleEntities,
	}[kind]
}

var aggregateHeading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\[?(.+?)\s+\+\s+(.+?)\]?\s+(?:item collection |aggregate )?analysis$`)
})

// headingKind recognises the template's headings whatever their level, case or decoration.
func headingKind(text string) (kind int, a, b string) {
	plain := strings.TrimSpace(strings.Trim(text, "*`_ :"))
	if m := aggregateHeading().FindStringSubmatch(plain); m != nil {
		a, b = markdown.OneLine(markdown.Unescape(m[1])), markdown.OneLine(markdown.Unescape(m[2]))
		if a != "" && b != "" && !strings.Contains(a, "**") && !strings.Contains(b, "**") {
			return blockAggregate, a, b
		}
	}
	h := strings.ToLower(plain)
	switch {
	case strings.HasPrefix(h, "appendix") && strings.Contains(h, "entit"):
		return blockEntities, "", ""
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
func (p *parser) keep(b *block, it markdown.Item) {
	b.leftover = append(b.leftover, markdown.Leftover{First: it.Line, Last: it.Line + it.Span() - 1, Text: it.Text()})
}

func keepLines(b *block, it markdown.Item, lines []string) {
	b.leftover = append(b.leftover, markdown.Leftover{First: it.Line, Last: it.Line + it.Span() - 1, Text: strings.Join(lines, "\n")})
}

// design assembles the parsed design: the name, and the prose kept per block.
func (p *parser) design() designer.Design {
	d := p.d
	name := titleName(p.title)
	if name == "" {
		name = nameFromDomain(d.Overview.Domain)
	}
	if name == "" && !p.titleSeen {
		// A document whose first heading is a section, such as "# Access Patterns", is named by it.
		name = markdown.OneLine(markdown.Unescape(p.firstH1))
	}
	if name == "" {
		name = "Untitled design"
	}
	d.Name = designer.TruncateRunes(name, designer.MaxNameLen)
	d.Entities = p.relationshipEntities(d.Entities, d.Relationships)
	p.aggregateEntities(d.Entities, d.Aggregates)
	p.applyIdentifying(&d)
	p.readScale(&d)
	p.linkPatterns(&d)

	for _, b := range p.blocks {
		body := markdown.ProseOf(b.leftover)
		switch {
		case b.kind == blockUnknown, body != "":
			d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: b.title, Body: body, Document: designer.RequirementDocument})
		}
	}
	return designer.Normalize(d)
}

// relationshipEntities adds to entities each entity a relationship names that the document defines
// nowhere else. Files in the seed's template list their entities only in the relationships; without
// this their design would have relationships between entities it does not have.
func (p *parser) relationshipEntities(entities []designer.Entity, rels []designer.Relationship) []designer.Entity {
	known := map[string]bool{}
	for _, e := range entities {
		known[e.Name] = true
	}
	named := maps.Clone(known)
	for _, r := range rels {
		named[r.From], named[r.To] = true, true
	}
	for i := range rels {
		for _, end := range []*string{&rels[i].From, &rels[i].To} {
			if one, ok := singularEnd(*end, known, named); ok {
				p.note(p.relLines[i], "%s in a relationship is read as the entity %s", *end, one)
				*end = one
			}
		}
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
			p.note(p.relLines[i], "%s", AddedWithoutAttributes(name))
		}
	}
	return entities
}

// singularEnd is the entity a plural name stands for: "Owner → Pets" and "Pet → Visits" name
// one entity twice, so a plural is the singular's entity when the document names that one too
// and does not define the plural as an entity of its own.
func singularEnd(name string, known, named map[string]bool) (string, bool) {
	one := markdown.Singular(name)
	return one, one != name && !known[name] && named[one]
}

// aggregateEntities reads the plural of an aggregate heading ("Owner + Pets Item Collection
// Analysis") as the entity it names, as relationships are read.
func (p *parser) aggregateEntities(entities []designer.Entity, aggs []designer.AggregateAnalysis) {
	known := map[string]bool{}
	for _, e := range entities {
		known[e.Name] = true
	}
	for i := range aggs {
		for _, end := range []*string{&aggs[i].EntityA, &aggs[i].EntityB} {
			if one, ok := singularEnd(*end, known, known); ok {
				p.note(p.aggLines[i], "%s in an aggregate analysis is read as the entity %s", *end, one)
				*end = one
			}
		}
	}
}

// AddedWithoutAttributes is the note on an entity the requirement names only in a relationship. A
// pair's data model may give it attributes; the note is then not true of the design.
func AddedWithoutAttributes(entity string) string {
	return "entity " + entity + " is named only in a relationship; it was added as an entity without attributes"
}

// titleName is the design name a title gives: "DynamoDB Modeling Session — Orders" gives "Orders",
// the generic title alone gives "", any other title is the name.
func titleName(title string) string {
	clean := func(s string) string { return markdown.OneLine(markdown.Unescape(s)) }
	rest, ok := markdown.CutPrefixFold(strings.TrimSpace(title), titleSession)
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

// nameFromDomain takes the first clause of the domain: "E-commerce platform with multi-vendor
// support. Sellers …" gives "E-commerce platform with multi-vendor support".
func nameFromDomain(domain string) string {
	s := markdown.OneLine(domain)
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

// Looks reports whether text has a marker of a requirement document: its section titles
// or its pattern table's first column.
func Looks(text string) bool {
	lower := strings.ToLower(text)
	for _, marker := range []string{"access patterns analysis", "dynamodb modeling session", "| pattern #", "application overview"} {
		if strings.Contains(lower, marker) {
			return true
		}
	}
	return false
}
