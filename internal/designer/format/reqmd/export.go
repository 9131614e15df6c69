package reqmd

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The requirement document (dynamodb_requirement.md) follows the seed template in forms Import
// reads back; docs/markdown.md ("How the requirement is written") is its spec.

// Headings of the template, which are also the titles of prose sections kept under them.
const (
	titleSession        = "DynamoDB Modeling Session"
	titleOverview       = "Application Overview"
	titlePatterns       = "Access Patterns Analysis"
	titleRelationships  = "Entity Relationships Deep Dive"
	titleAggregates     = "Enhanced Aggregate Analysis"
	titleIdentifying    = "Identifying Relationship Check"
	titleConsolidation  = "Table Consolidation Analysis"
	titleFramework      = "Consolidation Decision Framework"
	titleCandidates     = "Consolidation Candidates Review"
	titleRules          = "Consolidation Rules"
	titleConsiderations = "Design Considerations (Scratchpad - Subject to Change)"
	titleChecklist      = "Validation Checklist"
	// titleEntities heads the appendix after the checklist that lists the entities with their typed
	// attributes, for which the template has no place.
	titleEntities = "Appendix: Entities and Their Attributes"
)

const (
	patternsHeader      = "| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |"
	patternsSeparator   = "|-----------|-------------|-----------------|------|-------------------|------------------|----------------------|--------|"
	candidatesHeader    = "| Parent | Child | Relationship | Access Overlap | Consolidation Decision | Justification |"
	candidatesSeparator = "|--------|-------|--------------|----------------|------------------------|---------------|"
)

// Template guidance written under its headings. The importer recognises these lines and does not
// keep them as prose.
var (
	aggregatesIntro  = []string{"For each potential aggregate, analyze:"}
	identifyingGuide = []string{
		"For each parent-child relationship, verify:",
		"- **Child Independence**: Can child entity exist without parent?",
		"- **Access Pattern**: Do you always have parent_id when querying children?",
		"- **Current Design**: Are you planning a separate table + GSI for parent→child queries?",
		"",
		"If answers are No/Yes/Yes → Use identifying relationship (PK=parent_id, SK=child_id) instead of separate table + GSI.",
	}
	consolidationIntro = []string{"After identifying aggregates, systematically review for consolidation opportunities:"}
	entitiesIntro      = []string{"Not part of the template: each entity with its description, typed attributes, scale and accepted gaps, as Dynaloom holds them, so that the file reads back whole."}
	// oldEntitiesIntro is the intro of exports before entities had a scale.
	oldEntitiesIntro = []string{"Not part of the template: each entity with its description, typed attributes and accepted gaps, as Dynaloom holds them, so that the file reads back whole."}
	frameworkGuide   = []string{
		"For each pair of related tables, ask:",
		"",
		"1. **Natural Parent-Child**: Does one entity always belong to another? (Order belongs to User)",
		"2. **Access Pattern Overlap**: Do they serve overlapping access patterns?",
		"3. **Partition Key Alignment**: Could child use parent_id as partition key?",
		"4. **Size Constraints**: Will consolidated size stay reasonable?",
	}
	rulesGuide = []string{
		"- **Consolidate when**: >50% access overlap + natural parent-child + bounded size + identifying relationship",
		"- **Keep separate when**: <30% access overlap OR unbounded growth OR independent operations",
		"- **Consider carefully**: 30-50% overlap - analyze cost vs complexity trade-offs",
	}
)

// Labels of the bullets the document writes.
var (
	overviewLabels = []struct {
		label string
		get   func(designer.Overview) string
	}{
		{"Domain", func(o designer.Overview) string { return o.Domain }},
		{"Key Entities", func(o designer.Overview) string { return o.KeyEntities }},
		{"Business Context", func(o designer.Overview) string { return o.BusinessContext }},
		{"Scale", func(o designer.Overview) string { return o.Scale }},
	}
	considerationLabels = []struct {
		label string
		field func(*designer.Considerations) *string
	}{
		{"Hot Partition Concerns", func(c *designer.Considerations) *string { return &c.HotPartitions }},
		{"GSI Projections", func(c *designer.Considerations) *string { return &c.GSIProjections }},
		{"Sparse GSI Opportunities", func(c *designer.Considerations) *string { return &c.SparseGSIs }},
		{"Item Collection Opportunities", func(c *designer.Considerations) *string { return &c.ItemCollections }},
		{"Multi-Entity Query Patterns", func(c *designer.Considerations) *string { return &c.MultiEntityQueries }},
		{"Denormalization Ideas", func(c *designer.Considerations) *string { return &c.Denormalization }},
	}
)

// Export writes d as a dynamodb_requirement.md in the seed template. The output is
// deterministic. Tables, sample items and mappings belong to the data model and are not written.
// The Validation Checklist is rules.Checklist of the whole design, as the Validation step and the
// API show it; lines that read the data model (the identifying-relationship check looks at the
// tables) come back the same when the document is read with the data model beside it.
func Export(d designer.Design) []byte { return ExportWith(d, markdown.ExportOptions{}) }

// ExportWith is Export with the options a person asked for: with o.Mermaid, the entity diagram as
// a Mermaid erDiagram under "Entity Relationships Deep Dive", which Import skips.
func ExportWith(d designer.Design, o markdown.ExportOptions) []byte {
	return ExportFrom(afresh{d}, o)
}

// ExportFrom is ExportWith of x's design, reading its checklists from x: the same bytes, without
// validating the design again.
func ExportFrom(x Derived, o markdown.ExportOptions) []byte {
	d := x.Design()
	sections := requirementSections(d.Prose.Sections)
	w := writer{sections: sections, used: make([]bool, len(sections))}
	title := titleSession
	extra := ""
	if strings.HasSuffix(d.Name, "#") {
		extra = "#" // else read as the heading's closing sequence
	}
	if name := markdown.Escape(markdown.OneLine(d.Name), extra); name != "" {
		title += " — " + name
	}
	w.line("# " + title)
	w.prose("")

	w.heading(2, titleOverview)
	for _, f := range overviewLabels {
		w.bullet(f.label, f.get(d.Overview))
	}
	if strings.TrimSpace(d.Overview.Notes) != "" {
		w.bullet("Notes", d.Overview.Notes)
	}
	w.prose(titleOverview)

	w.heading(2, titlePatterns)
	w.line(patternsHeader)
	w.line(patternsSeparator)
	links := newEntityIndex(d.Entities)
	for _, p := range d.Patterns {
		w.row(strconv.Itoa(p.Number), markdown.Escape(p.Description, ""), renderRPS(p.PeakRPS, p.AvgRPS),
			renderPatternType(p.Type), renderList(p.Attributes), renderKeyRequirements(p),
			renderPatternConsiderations(p.Considerations, p.Entities, len(links.linked(p)) > 0), renderStatus(p.Status))
	}
	w.prose(titlePatterns)

	w.heading(2, titleRelationships)
	if o.Mermaid {
		w.line("")
		w.lines(markdown.MermaidEntities(d))
		w.line("")
	}
	for _, r := range d.Relationships {
		w.line("- **" + markdown.EscapeLabel(r.From) + " → " + markdown.EscapeLabel(r.To) + "**: " + renderRelationship(r))
	}
	w.prose(titleRelationships)

	w.heading(2, titleAggregates)
	w.lines(aggregatesIntro)
	w.prose(titleAggregates)
	for _, a := range d.Aggregates {
		w.aggregate(a)
	}
	w.heading(3, titleIdentifying)
	w.lines(identifyingGuide)
	w.prose(titleIdentifying)

	w.heading(2, titleConsolidation)
	w.lines(consolidationIntro)
	w.prose(titleConsolidation)
	w.heading(3, titleFramework)
	w.lines(frameworkGuide)
	w.prose(titleFramework)
	w.heading(3, titleCandidates)
	w.line(candidatesHeader)
	w.line(candidatesSeparator)
	for _, c := range d.Consolidations {
		w.row(markdown.Escape(c.Parent, ""), markdown.Escape(c.Child, ""), renderConsolidationRelationship(c),
			renderPercent(c.OverlapPct), renderConsolidationDecision(c.Decision), markdown.Escape(c.Justification, ""))
	}
	w.prose(titleCandidates)
	w.heading(3, titleRules)
	w.lines(rulesGuide)
	w.prose(titleRules)

	w.heading(2, titleConsiderations)
	for _, f := range considerationLabels {
		w.bullet(f.label, *f.field(&d.Considerations))
	}
	w.prose(titleConsiderations)

	for i, s := range w.sections {
		if w.used[i] || s.Title == titleChecklist {
			continue
		}
		w.used[i] = true
		title := markdown.OneLine(s.Title)
		if kind, _, _ := headingKind(title); kind == blockAggregate {
			// The prose of an aggregate analysis that is no longer in the design; under its own
			// heading it would read back as that analysis.
			title += " (kept)"
		}
		w.heading(2, title)
		w.body(s.Body, true)
	}

	w.heading(2, titleChecklist)
	for _, item := range x.Checklists().Requirements {
		mark := "[ ]"
		if item.OK {
			mark = "[x]"
		}
		w.line("- " + mark + " " + item.Item)
	}
	w.prose(titleChecklist)

	if entitiesNeedAppendix(d) || len(d.Entities) > 0 && readsScale(w.buf.Bytes()) {
		w.heading(2, titleEntities)
		w.lines(entitiesIntro)
		w.line("")
		for _, e := range d.Entities {
			w.entity(e)
		}
	}
	w.prose(titleEntities)
	return w.buf.Bytes()
}

// readsScale reports whether importing doc, an export without its appendix of entities, would give
// some entity a count, a growth or a retention from its prose: the appendix then says the entities
// have none.
func readsScale(doc []byte) bool {
	d, _, err := Import(doc)
	return err == nil && slices.ContainsFunc(d.Entities, func(e designer.Entity) bool {
		return e.Count != nil || e.Growth != nil || e.Retention != nil || len(e.InState) > 0
	})
}

// source writes where an entity's figure came from after it: " (read from: …)"; "" when not said.
func source(from string) string {
	if from == "" {
		return ""
	}
	return " (" + markdown.Escape(markdown.OneLine(from), "") + ")"
}

// entitiesNeedAppendix reports whether reading the relationships alone would not give d's entities
// back: some entity has a description, attributes or accepted gaps, or is named in no
// relationship, or they are in another order than the relationships name them.
func entitiesNeedAppendix(d designer.Design) bool {
	var named []string
	for _, r := range d.Relationships {
		for _, n := range []string{r.From, r.To} {
			if _, err := designer.CleanName("name", n); err == nil && !slices.Contains(named, n) {
				named = append(named, n)
			}
		}
	}
	if len(named) != len(d.Entities) {
		return true
	}
	for i, e := range d.Entities {
		if e.Name != named[i] || e.Description != "" || len(e.Attributes) > 0 || len(e.AcceptedGaps) > 0 || e.Count != nil ||
			e.CountFrom != "" || e.Growth != nil || e.GrowthFrom != "" || e.Retention != nil || e.RetentionFrom != "" || len(e.InState) > 0 {
			return true
		}
	}
	return false
}

// requirementSections are the prose sections this document holds: those read from a requirement
// document. The data model's sections are written in the data model only.
func requirementSections(all []designer.Section) []designer.Section {
	var out []designer.Section
	for _, s := range all {
		if s.Document == designer.RequirementDocument {
			out = append(out, s)
		}
	}
	return out
}

type writer struct {
	buf      bytes.Buffer
	sections []designer.Section
	used     []bool
}

func (w *writer) line(s string) {
	w.buf.WriteString(s)
	w.buf.WriteByte('\n')
}

func (w *writer) lines(ls []string) {
	for _, l := range ls {
		w.line(l)
	}
}

func (w *writer) heading(level int, title string) {
	w.line("")
	w.line(strings.Repeat("#", level) + " " + markdown.OneLine(title))
}

// bullet writes "- **label**: value". A value that is itself a list is written as indented
// sub-bullets, as people write it, when every line can be; otherwise its lines are joined by <br>.
func (w *writer) bullet(label, value string) {
	if lines, ok := markdown.ListLines(value); ok {
		w.line("- **" + label + "**:")
		for _, l := range lines {
			w.line("  " + l)
		}
		return
	}
	if v := markdown.Escape(value, ""); v != "" {
		w.line("- **" + label + "**: " + v)
	} else {
		w.line("- **" + label + "**:")
	}
}

func (w *writer) row(cells ...string) {
	w.line("| " + strings.Join(cells, " | ") + " |")
}

// prose writes the bodies of the prose sections kept under title, after a blank line each.
func (w *writer) prose(title string) {
	for i, s := range w.sections {
		if !w.used[i] && s.Title == title {
			w.used[i] = true
			w.body(s.Body, title != "")
		}
	}
}

// body writes a prose body after a blank line. Within a section, a heading of the body that would
// end the section is moved below the section's level; a heading that would read as one of the
// template's, any heading before the first section, and a table that would read as one of the
// template's are escaped so that they stay text.
func (w *writer) body(s string, inSection bool) {
	body := markdown.ProseBody(s)
	if body == "" {
		return
	}
	w.line("")
	inTable := false
	for l, fenced := range markdown.FencedLines(body) {
		table := !fenced && markdown.IsTableLine(l)
		if table && !inTable && tableKindOf(l) != "" {
			// A table the importer would read as the patterns or candidates table stays text.
			l = `\` + strings.TrimLeft(l, " ")
		}
		inTable = table
		if level, text, ok := markdown.Heading(l); ok && !fenced {
			kind, _, _ := headingKind(text)
			switch {
			case !inSection || kind != blockUnknown:
				l = `\` + strings.TrimLeft(l, " ")
			case level < 3:
				l = strings.TrimRight("### "+text, " ")
			}
		}
		w.line(l)
	}
}

func (w *writer) entity(e designer.Entity) {
	head := "- **" + markdown.EscapeLabel(e.Name) + "**:"
	if desc := markdown.Escape(e.Description, ""); desc != "" {
		head += " " + desc
	}
	w.line(head)
	for _, a := range e.Attributes {
		l := "  - " + markdown.Escape(markdown.OneLine(a.Name), "") + " (" + string(a.Type) + ")"
		if desc := markdown.Escape(a.Description, ""); desc != "" {
			l += ": " + desc
		}
		w.line(l)
	}
	if e.Count != nil {
		w.line("  - " + expectedItems + " " + strconv.FormatInt(*e.Count, 10) + source(e.CountFrom))
	}
	if e.Growth != nil {
		w.line("  - " + growthLabel + " " + designer.FormatGrowth(e.Growth, e.GrowthUnit) + source(e.GrowthFrom))
	}
	if e.Retention != nil {
		w.line("  - " + retentionLabel + " " + designer.FormatRetention(e.Retention, e.RetentionUnit) + source(e.RetentionFrom))
	}
	for _, sc := range e.InState {
		w.line("  - " + inStateLabel + " " + designer.FormatStateCounts([]designer.StateCount{sc}) + source(sc.From))
	}
	if len(e.AcceptedGaps) > 0 {
		w.line("  - Accepted gaps: " + renderList(e.AcceptedGaps))
	}
}

func (w *writer) aggregate(a designer.AggregateAnalysis) {
	w.heading(3, aggregateTitle(a.EntityA, a.EntityB))
	if a.CorrelationPct != nil {
		w.line("- **Access Correlation**: " + renderPercent(a.CorrelationPct) + " of queries need both entities together")
	}
	if a.OnlyAPct != nil || a.OnlyBPct != nil || a.BothPct != nil {
		w.line("- **Query Patterns**:")
		for _, q := range []struct {
			label string
			pct   *float64
		}{{onlyLabel(a, 0), a.OnlyAPct}, {onlyLabel(a, 1), a.OnlyBPct}, {"Both together", a.BothPct}} {
			if q.pct != nil {
				w.line("  - " + markdown.Escape(q.label, "") + ": " + renderPercent(q.pct) + " of queries")
			}
		}
	}
	if s := renderSize(a); s != "" {
		w.line("- **Size Constraints**: " + s)
	}
	if strings.TrimSpace(a.Updates) != "" {
		w.bullet("Update Patterns", a.Updates)
	}
	if s := renderIdentifying(a.Identifying); s != "" {
		w.line("- **Identifying Relationship**: " + s)
	}
	if a.Decision != "" {
		w.line("- **Decision**: " + renderAggregateDecision(a.Decision))
	}
	if strings.TrimSpace(a.Justification) != "" {
		w.bullet("Justification", a.Justification)
	}
	w.prose(aggregateTitle(a.EntityA, a.EntityB))
}

// aggregateTitle is the heading of an aggregate analysis, and the title its prose is kept under.
// onlyLabel labels the "only" share of entity 0 (A) or 1 (B); an aggregate of an entity with itself
// says which is meant.
func onlyLabel(a designer.AggregateAnalysis, which int) string {
	names := []string{markdown.OneLine(a.EntityA), markdown.OneLine(a.EntityB)}
	if names[0] == names[1] {
		return names[which] + []string{" (first) only", " (second) only"}[which]
	}
	return names[which] + " only"
}

func aggregateTitle(a, b string) string {
	return markdown.Escape(markdown.OneLine(a), "") + " + " + markdown.Escape(markdown.OneLine(b), "") + " Item Collection Analysis"
}

// renderList writes a comma-separated list; commas inside members are escaped.
func renderList(items []string) string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if v := markdown.Escape(markdown.OneLine(it), ","); v != "" {
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}

func formatNumber(v float64) string {
	if v == 0 {
		v = 0 // not "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func renderRPS(peak, avg *float64) string {
	switch {
	case peak != nil && avg != nil:
		return formatNumber(*peak) + " peak / " + formatNumber(*avg) + " avg RPS"
	case peak != nil:
		return formatNumber(*peak) + " RPS"
	case avg != nil:
		return formatNumber(*avg) + " avg RPS"
	}
	return ""
}

func renderPercent(v *float64) string {
	if v == nil {
		return ""
	}
	return formatNumber(*v) + "%"
}

func renderPatternType(t string) string {
	switch t {
	case designer.Read:
		return "Read"
	case designer.Write:
		return "Write"
	case "":
		return "None"
	}
	return markdown.Escape(t, "")
}

func renderStatus(s string) string {
	if m, ok := markdown.StatusMarks[s]; ok {
		return m
	}
	return markdown.Escape(s, "")
}

// renderKeyRequirements writes the key-requirement fields of p as "; "-separated parts.
func renderKeyRequirements(p designer.Pattern) string {
	var parts []string
	if p.LatencySLO != "" {
		parts = append(parts, "Latency "+markdown.Escape(p.LatencySLO, ";"))
	}
	switch p.Consistency {
	case "":
	case designer.Strong:
		parts = append(parts, "Strong consistency")
	case designer.Eventual:
		parts = append(parts, "Eventual consistency")
	default:
		parts = append(parts, "Consistency "+markdown.Escape(p.Consistency, ";"))
	}
	if p.ResultBound != "" {
		parts = append(parts, "Result "+markdown.Escape(p.ResultBound, ";"))
	}
	if p.SizeBand != "" {
		parts = append(parts, "Item size "+markdown.Escape(p.SizeBand, ";"))
	}
	if notes := markdown.Escape(p.KeyNotes, ""); notes != "" {
		if !plainNotes(notes) {
			notes = "Notes: " + notes
		}
		parts = append(parts, notes)
	}
	return strings.Join(parts, "; ")
}

// plainNotes reports whether escaped notes read back as the same notes without a "Notes: " prefix.
func plainNotes(escaped string) bool {
	var kr keyRequirements
	kr.parse(escaped)
	return kr == keyRequirements{notes: markdown.Unescape(escaped)}
}

// renderPatternConsiderations writes the considerations with the pattern's entities as their last
// line. An empty "Entities:" line is added when the considerations' own last line would otherwise
// be read as the entities, or when the import would link the pattern (linkable) to entities the
// team left out.
func renderPatternConsiderations(text string, entities []string, linkable bool) string {
	cell := markdown.Escape(text, "")
	if len(entities) > 0 || linkable || isEntitiesLine(lastLine(cell)) {
		line := strings.TrimSpace("Entities: " + renderList(entities))
		if cell == "" {
			return line
		}
		return cell + "<br>" + line
	}
	return cell
}

func lastLine(cell string) string {
	parts := markdown.SplitBreaks(cell)
	return parts[len(parts)-1]
}

// relationshipKindWords are the template's words for each kind of relationship: "1:Many (avg 5
// orders per user, max 1000)".
var relationshipKindWords = map[string]string{designer.OneToOne: "1:1", designer.OneToMany: "1:Many", designer.ManyToMany: "Many:Many"}

func renderRelationship(r designer.Relationship) string {
	head := r.Kind
	if w, ok := relationshipKindWords[r.Kind]; ok {
		head = w
	}
	if counts := renderCounts(r); counts != "" {
		head = strings.TrimSpace(head + " " + counts)
	}
	notes := markdown.Escape(r.Notes, "")
	switch {
	case notes == "":
		return markdown.Escape(head, "")
	case head != "":
		return markdown.Escape(head, "") + " — " + notes
	}
	if probe := parseRelationshipValue(notes); probe.kind == "" && probe.avg == nil && probe.max == nil && probe.notes == markdown.Unescape(notes) {
		return notes
	}
	return "— " + notes
}

// renderCounts writes a relationship's counts, each with its unit: "(avg 1.6, max 12 per year)".
func renderCounts(r designer.Relationship) string {
	var parts []string
	if r.Avg != nil {
		parts = append(parts, "avg "+designer.FormatCount(r.Avg, r.AvgUnit))
	}
	if r.Max != nil {
		n := float64(*r.Max)
		parts = append(parts, "max "+designer.FormatCount(&n, r.MaxUnit))
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func renderConsolidationRelationship(c designer.ConsolidationReview) string {
	var flags []string
	if c.Bounded != nil {
		flags = append(flags, map[bool]string{true: "bounded", false: "unbounded"}[*c.Bounded])
	}
	if c.Identifying != nil {
		flags = append(flags, map[bool]string{true: "identifying", false: "non-identifying"}[*c.Identifying])
	}
	rel := markdown.Escape(c.Relationship, "")
	if len(flags) == 0 {
		if _, _, _, ok := splitFlags(rel); ok {
			// The relationship's own text ends like flags; an empty pair of brackets keeps it whole.
			return rel + " ()"
		}
		return rel
	}
	return strings.TrimSpace(rel + " (" + strings.Join(flags, ", ") + ")")
}

func renderConsolidationDecision(s string) string {
	switch s {
	case designer.Consolidate:
		return "✅ Consolidate"
	case designer.Separate:
		return "❌ Separate"
	}
	return markdown.Escape(s, "")
}

var aggregateDecisionLabel = map[string]string{
	designer.SingleItem: "Single Item Aggregate", designer.ItemCollection: "Item Collection", designer.SeparateTables: "Separate Tables",
}

func renderAggregateDecision(s string) string {
	if l, ok := aggregateDecisionLabel[s]; ok {
		return l
	}
	return markdown.Escape(s, "")
}

// renderSize writes "Combined max size 17 KB, bounded growth — notes", each part when given.
func renderSize(a designer.AggregateAnalysis) string {
	var parts []string
	if a.CombinedKB != nil {
		parts = append(parts, "Combined max size "+formatNumber(*a.CombinedKB)+" KB")
	}
	if a.Bounded != nil {
		g := map[bool]string{true: "bounded growth", false: "unbounded growth"}[*a.Bounded]
		if len(parts) == 0 {
			g = strings.ToUpper(g[:1]) + g[1:]
		}
		parts = append(parts, g)
	}
	head := strings.Join(parts, ", ")
	text := markdown.Escape(a.Size, "")
	switch {
	case text == "":
		return head
	case head != "":
		return head + " — " + text
	}
	if kb, bounded, rest := parseSize(text); kb == nil && bounded == nil && rest == markdown.Unescape(text) {
		return text
	}
	return "— " + text
}

var identifyingLabels = []string{"Child independent", "Parent ID always known", "Separate table + GSI planned"}

func identifyingFields(c *designer.IdentifyingCheck) []**bool {
	return []**bool{&c.ChildIndependent, &c.ParentIDKnown, &c.SeparateTablePlanned}
}

func renderIdentifying(c designer.IdentifyingCheck) string {
	var parts []string
	for i, f := range identifyingFields(&c) {
		if *f != nil {
			parts = append(parts, identifyingLabels[i]+": "+map[bool]string{true: "Yes", false: "No"}[**f])
		}
	}
	return strings.Join(parts, "; ")
}
