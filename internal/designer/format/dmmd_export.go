package format

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/rules"
)

// The data model document (dynamodb_data_model.md) follows the seed template: its sections in its
// order, a sample-item table and the bullet fields for every table, each index grouped under its
// table with its own sample table, the Access Pattern Mapping table with the template's five
// columns, and the Validation Results ticked from the design. Everything is written in forms
// ImportDataModelMD reads back exactly, so that export → import → export gives the same bytes:
//
//   - the design name follows the title: "# DynamoDB Data Model — Orders";
//   - a table is "### Orders Table", an index "### ByStatus GSI" or "### ByTotal LSI" after its
//     table, each followed by its sample table, then its bullets, then the prose kept for it;
//   - a key is "customer_id (S) - why", a multi-attribute index key "tenant_id (S) + region (S) -
//     why", a missing sort key "None - why";
//   - attributes are "emp_no (N), name (S)", or one sub-bullet each, "  - name (S): description",
//     when any has a description; names escape the "(", ")", "+", "," and ";" the forms use, and
//     "`" and "*";
//   - the SK taxonomy is one sub-bullet per entity type, "  - **Order**: PK `CUST#{id}`, SK
//     `ORDER#{date}` - description", templates as code spans;
//   - the TTL attribute is a code span, "- **TTL**: `expires_at`";
//   - billing is "PAY_PER_REQUEST (on-demand)" or "PROVISIONED", with ", 5 RCU" and ", 5 WCU" when
//     capacity units are set;
//   - a projection is "KEYS_ONLY - why", "ALL - why" or "INCLUDE (a, b) - why", with the
//     per-pattern attributes below it as "Pattern #3: a, b; Pattern #7: c";
//   - the mapping table has the template's five columns: Pattern, Description, Tables/Indexes,
//     DynamoDB Operations, Implementation Notes (ImportDataModelMD also reads the 9-column form);
//   - sparseness is "Yes - note" or "No - note";
//   - "Access Patterns Served" lists the patterns whose operations target the table or index; it is
//     computed, and an import that finds the same list does not keep it;
//   - a sample cell is the grid's text (FormatCell), except where the importer would read that text
//     back as another value (a number in a text column, "null", an empty string, text that looks
//     like a list); then it is the value's DynamoDB JSON, {"S":"42"}. An absent attribute is an
//     empty cell, never null;
//   - an index's sample table holds the index's own view (IndexItems): only the items it holds,
//     only the attributes it projects. It is not read back: Dynaloom computes it;
//   - a mapping row's Pattern cell carries the pattern's status mark, "4 ✅" (✅ ⏳ ❌ ⚠️ as in
//     the requirement document); its DynamoDB Operations cell is the pattern's own wording
//     (Mapping.Source) while that still reads as its operations, else one line per operation:
//     "Query on Orders index ByStatus: status = :s; Limit 20; ScanIndexForward=false;
//     ConsistentRead=true; Filter: …; Projection: …; Names: #n=name; Values: :s=OPEN; Notes: …",
//     each part only when set; a batch or transaction write row names its action first,
//     "TransactWriteItems on Orders: pk = :pk; Action: update; …". The Tables/Indexes cell is computed from the operations.
//
// Cells escape "\", "|", newlines (as <br>) and a "<" that could open an HTML tag. Prose sections
// are written where they were found: the introduction after the title, a table's or index's prose
// under it, a section titled like one of the template's in that section, the rest as sections of
// their own before the Validation Results. Lines of prose that the importer would read as
// structure there (headings, fields, tables, checklist items, rules) are escaped with a backslash.
//
// What the document does not hold is left out: requirements (entities, relationships, aggregate and
// consolidation analyses, pattern RPS and key requirements), an operation's expected results,
// attribute generators, sample item ids, the attribute list of a projection other than INCLUDE,
// and patterns numbered below 1 (two patterns with one number read back as one). The Validation
// Results are therefore BuildChecklists(Validate) of the design as the document holds it
// (dataModelView), so that reading the document back gives the same checklist: lines that need the
// requirements, such as the cross-reference, stay unticked. Table and index names are DynamoDB
// names ([A-Za-z0-9_.-]); other names are written but may not read back. Prose is markdown and is
// written as the team wrote it, HTML included, as the requirement document does.

// Headings of the template.
const (
	dmTitleText      = "DynamoDB Data Model"
	dmPhilosophyHead = "Design Philosophy & Approach"
	dmAggregatesHead = "Aggregate Design Decisions"
	dmTablesHead     = "Table Designs"
	dmMappingHead    = "Access Pattern Mapping"
	dmHotHead        = "Hot Partition Analysis"
	dmTradeOffsHead  = "Trade-offs and Optimizations"
	dmValidationHead = "Validation Results"
	// dmIntroduction is the title of the prose before the first section.
	dmIntroduction = "Introduction"
)

const (
	dmMappingHeader    = "| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |"
	dmMappingSeparator = "|---------|-------------|----------------|---------------------|----------------------|"
)

// ExportDataModelMD writes d as a dynamodb_data_model.md in the seed template. The output is
// deterministic and reads back with ImportDataModelMD to a design that exports to the same bytes.
func ExportDataModelMD(d designer.Design) []byte {
	d = designer.Normalize(d)
	w := dmWriter{d: d, slots: dmPlaceSections(d)}
	title := dmTitleText
	if name := dmEscapeTitle(d.Name); name != "" {
		title += " — " + name
	}
	w.line("# " + title)
	w.prose(dmSlot{kind: dmPreamble}, dmCtxPreamble)

	w.heading(dmPhilosophyHead)
	w.body(d.Prose.DesignPhilosophy, dmCtxGeneric)
	w.prose(dmSlot{kind: dmPhilosophy}, dmCtxGeneric)

	w.heading(dmAggregatesHead)
	w.body(d.Prose.AggregateDecisions, dmCtxGeneric)
	w.prose(dmSlot{kind: dmAggregates}, dmCtxGeneric)

	w.heading(dmTablesHead)
	w.prose(dmSlot{kind: dmTableDesigns}, dmCtxGeneric)
	for ti, t := range d.Tables {
		w.table(ti, t)
	}

	w.heading(dmMappingHead)
	w.mapping()
	w.prose(dmSlot{kind: dmMapping}, dmCtxMapping)

	w.heading(dmHotHead)
	w.body(d.Prose.HotPartitions, dmCtxGeneric)
	w.prose(dmSlot{kind: dmHotPartitions}, dmCtxGeneric)

	w.heading(dmTradeOffsHead)
	w.body(d.Prose.TradeOffs, dmCtxGeneric)
	w.prose(dmSlot{kind: dmTradeOffs}, dmCtxGeneric)

	for i, s := range d.Prose.Sections {
		if w.slots[i].kind != dmUnknown {
			continue
		}
		w.heading(dmEscapeTitle(designer.TruncateRunes(oneLine(s.Title), designer.MaxNameLen)))
		w.body(s.Body, dmCtxGeneric)
	}

	w.heading(dmValidationHead)
	w.line("")
	view := dataModelView(d)
	for _, item := range rules.BuildChecklists(view, rules.Validate(view)).DataModel {
		mark := "[ ]"
		if item.OK {
			mark = "[x]"
		}
		w.line("- " + mark + " " + item.Item)
	}
	w.prose(dmSlot{kind: dmValidation}, dmCtxValidation)
	return w.buf.Bytes()
}

// dmSlot is where in the document a prose section is written: a section kind of the template, or
// one table (kind dmTable) or one index (kind dmIndex) by position. Sections of their own have kind
// dmUnknown.
type dmSlot struct {
	kind, table, index int
	local              bool
}

// dmTableProseTitle and dmIndexProseTitle are the titles the prose kept under a table or index
// heading has; the importer gives them and the exporter places sections by them.
func dmTableProseTitle(table string) string { return table + " Table" }

func dmIndexProseTitle(table, index string, local bool) string {
	kind := " GSI"
	if local {
		kind = " LSI"
	}
	if table == "" {
		return index + kind
	}
	return index + kind + " (" + table + " Table)"
}

// dmPlaceSections decides where each prose section of d is written.
func dmPlaceSections(d designer.Design) []dmSlot {
	titles := map[string]dmSlot{}
	for ti, t := range d.Tables {
		if _, ok := titles[dmTableProseTitle(t.Name)]; !ok {
			titles[dmTableProseTitle(t.Name)] = dmSlot{kind: dmTable, table: ti}
		}
		for _, group := range []struct {
			local bool
			ixs   []designer.Index
		}{{false, t.GSIs}, {true, t.LSIs}} {
			for j, ix := range group.ixs {
				title := dmIndexProseTitle(t.Name, ix.Name, group.local)
				if _, ok := titles[title]; !ok {
					titles[title] = dmSlot{kind: dmIndex, table: ti, index: j, local: group.local}
				}
			}
		}
	}
	out := make([]dmSlot, len(d.Prose.Sections))
	for i, s := range d.Prose.Sections {
		if slot, ok := titles[s.Title]; ok {
			out[i] = slot
			continue
		}
		if s.Title == dmIntroduction {
			out[i] = dmSlot{kind: dmPreamble}
			continue
		}
		// The heading the section would get, as the importer sees it.
		kind, _, _, _ := dmHeadingKind(dmEscapeTitle(designer.TruncateRunes(oneLine(s.Title), designer.MaxNameLen)))
		switch kind {
		case dmTable, dmIndex:
			// A table or index no longer in the design; under its own heading it would come back
			// as one.
			out[i] = dmSlot{kind: dmTableDesigns}
		default:
			out[i] = dmSlot{kind: kind}
		}
	}
	return out
}

// dataModelView is d as the data model document holds it, so that the Validation Results are the
// same before and after a round trip: no requirements, patterns reduced to their mapping, prose
// sections merged into the narrative they are written under.
func dataModelView(d designer.Design) designer.Design {
	v := designer.Design{Name: d.Name, Prose: designer.Prose{
		DesignPhilosophy:   d.Prose.DesignPhilosophy,
		AggregateDecisions: d.Prose.AggregateDecisions,
		HotPartitions:      d.Prose.HotPartitions,
		TradeOffs:          d.Prose.TradeOffs,
	}}
	for i, slot := range dmPlaceSections(d) {
		target := dmProseField(&v.Prose, slot.kind)
		if target == nil {
			v.Prose.Sections = append(v.Prose.Sections, d.Prose.Sections[i])
			continue
		}
		if body := proseBody(d.Prose.Sections[i].Body); body != "" {
			*target = strings.TrimSpace(*target + "\n\n" + body)
		}
	}
	v.Tables = make([]designer.Table, len(d.Tables))
	for i, t := range d.Tables {
		t.Attributes = slices.Clone(t.Attributes)
		for j := range t.Attributes {
			t.Attributes[j].Generator = nil
		}
		t.GSIs, t.LSIs = dmIncludeListsOnly(t.GSIs), dmIncludeListsOnly(t.LSIs)
		v.Tables[i] = t
	}
	for _, p := range dmMappedPatterns(d) {
		v.Patterns = append(v.Patterns, designer.Pattern{
			Number: p.Number, Description: p.Description, Status: p.Status,
			Mapping: designer.Mapping{Operations: dmWithoutExpected(p.Mapping.Operations), Notes: p.Mapping.Notes, Source: p.Mapping.Source},
		})
	}
	return designer.Normalize(v)
}

// dmIncludeListsOnly returns the indexes without the attribute lists of projections other than
// INCLUDE, which the document does not hold.
func dmIncludeListsOnly(ixs []designer.Index) []designer.Index {
	out := slices.Clone(ixs)
	for i := range out {
		if out[i].Projection.Type != designer.Include {
			out[i].Projection.Attributes = nil
		}
	}
	return out
}

// dmMappedPatterns are the patterns the mapping table lists, in number order.
func dmMappedPatterns(d designer.Design) []designer.Pattern {
	out := make([]designer.Pattern, 0, len(d.Patterns))
	for _, p := range d.Patterns {
		if p.Number >= 1 {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b designer.Pattern) int { return a.Number - b.Number })
	return out
}

func dmWithoutExpected(ops []designer.Operation) []designer.Operation {
	if len(ops) == 0 {
		return nil
	}
	out := slices.Clone(ops)
	for i := range out {
		out[i].Expected = nil
	}
	return out
}

// Contexts a prose body is written in; each escapes what the importer would read as structure
// there.
const (
	dmCtxPreamble = iota
	dmCtxGeneric
	dmCtxTable
	dmCtxIndex
	dmCtxMapping
	dmCtxValidation
)

type dmWriter struct {
	buf   bytes.Buffer
	d     designer.Design
	slots []dmSlot
}

func (w *dmWriter) line(s string) {
	w.buf.WriteString(s)
	w.buf.WriteByte('\n')
}

func (w *dmWriter) heading(title string) {
	w.line("")
	w.line("## " + title)
}

func (w *dmWriter) subheading(title string) {
	w.line("")
	w.line("### " + title)
}

// prose writes the bodies of the prose sections placed in slot.
func (w *dmWriter) prose(slot dmSlot, ctx int) {
	for i, s := range w.d.Prose.Sections {
		if w.slots[i] == slot {
			w.body(s.Body, ctx)
		}
	}
}

// dmEscapeTitle makes a name or title safe on a heading line; a closing "#" would be read as the
// heading's closing sequence.
func dmEscapeTitle(s string) string {
	extra := ""
	if strings.HasSuffix(oneLine(s), "#") {
		extra = "#"
	}
	return escapeInline(oneLine(s), extra)
}

// dmNameExtra are the characters the key, attribute and projection forms use as separators, and
// those that would make a name read as code or emphasis.
const dmNameExtra = "()+,;`*"

func dmName(s string) string { return escapeInline(oneLine(s), dmNameExtra) }

func (w *dmWriter) table(ti int, t designer.Table) {
	w.subheading(escapeInline(t.Name, "") + " Table")
	rows := designer.TableRows(t)
	cols := dmTableColumns(t, rows)
	cells := dmSampleCells(t, rows, cols)
	w.line("")
	w.sampleTable(cols, cells)
	w.line("")
	w.bullet("Purpose", t.Purpose)
	w.bullet("Aggregate Boundary", t.AggregateBoundary)
	pk := []designer.KeyAttribute{t.PartitionKey}
	if t.PartitionKey.Name == "" {
		pk = nil
	}
	w.line("- **Partition Key**: " + dmKeyText(pk, t.PartitionKeyWhy))
	var sk []designer.KeyAttribute
	if t.SortKey != nil {
		sk = []designer.KeyAttribute{*t.SortKey}
	}
	w.line("- **Sort Key**: " + dmKeyText(sk, t.SortKeyWhy))
	w.taxonomy(t.EntityTypes)
	w.attributes(t.Attributes)
	w.bullet("Bounded Read Strategy", t.BoundedReads)
	if t.TTLAttribute != "" {
		w.line("- **TTL**: " + dmCodeSpan(oneLine(t.TTLAttribute)))
	}
	if served := dmServedText(w.d.Patterns, t.Name, ""); served != "" {
		w.line("- **Access Patterns Served**: " + served)
	}
	w.bullet("Capacity Planning", t.Capacity)
	w.line("- **Billing Mode**: " + dmBillingText(t))
	w.prose(dmSlot{kind: dmTable, table: ti}, dmCtxTable)

	byID := make(map[string]int, len(rows))
	for r, row := range rows {
		byID[row.ID] = r
	}
	for _, group := range []struct {
		local bool
		ixs   []designer.Index
	}{{false, t.GSIs}, {true, t.LSIs}} {
		for j, ix := range group.ixs {
			w.index(t, ix, group.local, cols, cells, byID)
			w.prose(dmSlot{kind: dmIndex, table: ti, index: j, local: group.local}, dmCtxIndex)
		}
	}
}

func (w *dmWriter) index(t designer.Table, ix designer.Index, local bool, tableCols []string, cells [][]string, byID map[string]int) {
	kind := " GSI"
	if local {
		kind = " LSI"
	}
	w.subheading(escapeInline(ix.Name, "") + kind)
	view := dynamo.IndexItems(t, ix, local)
	cols := dmIndexColumns(t, ix, local, tableCols, view)
	at := make(map[string]int, len(tableCols))
	for c, name := range tableCols {
		at[name] = c
	}
	rows := make([][]string, len(view.Rows))
	for r, entry := range view.Rows {
		row := make([]string, len(cols))
		for c, name := range cols {
			if _, ok := entry.Item[name]; ok {
				row[c] = cells[byID[entry.ID]][at[name]]
			}
		}
		rows[r] = row
	}
	w.line("")
	w.sampleTable(cols, rows)
	w.line("")
	w.bullet("Purpose", ix.Purpose)
	w.line("- **Partition Key**: " + dmKeyText(ix.PartitionKey, ix.PartitionKeyWhy))
	w.line("- **Sort Key**: " + dmKeyText(ix.SortKey, ix.SortKeyWhy))
	w.line("- **Projection**: " + dmProjectionText(ix.Projection, ix.ProjectionWhy))
	w.line(strings.TrimRight("  - **Per-Pattern Projected Attributes**: "+dmPatternAttributesText(ix.PatternAttributes), " "))
	sparse := "No"
	if ix.Sparse {
		sparse = "Yes"
	}
	if note := dmEscape(ix.SparseNote, ""); note != "" {
		sparse += " - " + note
	}
	w.line("- **Sparse**: " + sparse)
	if served := dmServedText(w.d.Patterns, t.Name, ix.Name); served != "" {
		w.line("- **Access Patterns Served**: " + served)
	}
	w.bullet("Capacity Planning", ix.Capacity)
}

// bullet writes a free-text field as the requirement document does: sub-bullets for a list, <br>
// between other lines.
func (w *dmWriter) bullet(label, value string) {
	if lines, ok := listLines(value); ok {
		w.line("- **" + label + "**:")
		for _, l := range lines {
			w.line("  " + dmCodeLT(l))
		}
		return
	}
	if v := dmEscape(value, ""); v != "" {
		w.line("- **" + label + "**: " + v)
	} else {
		w.line("- **" + label + "**:")
	}
}

// dmKeyText writes "name (S) + other (N) - why", or "None - why" for no key.
func dmKeyText(keys []designer.KeyAttribute, why string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = dmName(k.Name) + " (" + string(k.Type) + ")"
		if parts[i][0] == ' ' {
			parts[i] = parts[i][1:] // an empty name
		}
	}
	text := strings.Join(parts, " + ")
	if text == "" {
		text = "None"
	}
	if why := dmEscape(why, ""); why != "" {
		text += " - " + why
	}
	return text
}

func (w *dmWriter) taxonomy(ets []designer.EntityType) {
	w.line("- **SK Taxonomy**:")
	for _, et := range ets {
		var parts []string
		if et.PKTemplate != "" {
			parts = append(parts, "PK "+dmCodeSpan(oneLine(et.PKTemplate)))
		}
		if et.SKTemplate != "" {
			parts = append(parts, "SK "+dmCodeSpan(oneLine(et.SKTemplate)))
		}
		text := strings.Join(parts, ", ")
		if desc := escapeInline(et.Description, "`"); desc != "" {
			if text != "" {
				text += " - "
			}
			text += desc
		}
		l := "  -"
		if et.Entity != "" {
			l += " **" + escapeLabel(et.Entity) + "**:"
		}
		if text != "" {
			l += " " + text
		}
		w.line(l)
	}
}

func (w *dmWriter) attributes(attrs []designer.Attribute) {
	described := slices.ContainsFunc(attrs, func(a designer.Attribute) bool { return strings.TrimSpace(a.Description) != "" })
	if !described {
		parts := make([]string, len(attrs))
		for i, a := range attrs {
			parts[i] = strings.TrimLeft(dmName(a.Name)+" ("+string(a.Type)+")", " ")
		}
		w.line(strings.TrimRight("- **Attributes**: "+strings.Join(parts, ", "), " "))
		return
	}
	w.line("- **Attributes**:")
	for _, a := range attrs {
		l := strings.TrimRight("  - "+dmName(a.Name), " ") + " (" + string(a.Type) + ")"
		if desc := dmEscape(a.Description, ""); desc != "" {
			l += ": " + desc
		}
		w.line(l)
	}
}

// dmCodeSpan writes s as a markdown code span: fenced with one more backtick than its longest
// run, padded with a space where CommonMark would otherwise take a backtick or space as part of
// the fence.
func dmCodeSpan(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if s == "" || s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

func dmBillingText(t designer.Table) string {
	text := "PAY_PER_REQUEST (on-demand)"
	if t.BillingMode == designer.Provisioned {
		text = "PROVISIONED"
	}
	if t.ReadUnits != nil {
		text += ", " + strconv.FormatInt(*t.ReadUnits, 10) + " RCU"
	}
	if t.WriteUnits != nil {
		text += ", " + strconv.FormatInt(*t.WriteUnits, 10) + " WCU"
	}
	return text
}

// dmProjectionText writes "KEYS_ONLY - why", "INCLUDE (a, b) - why". Only INCLUDE has a list; a
// list left on another type projects nothing and is not written.
func dmProjectionText(p designer.Projection, why string) string {
	text := p.Type
	if p.Type == designer.Include {
		names := make([]string, len(p.Attributes))
		for i, a := range p.Attributes {
			names[i] = dmName(a)
		}
		text += " (" + strings.Join(names, ", ") + ")"
	}
	if why := dmEscape(why, ""); why != "" {
		text += " - " + why
	}
	return text
}

// dmPatternAttributesText writes "Pattern #3: a, b; Pattern #7: c".
func dmPatternAttributesText(list []designer.PatternAttributes) string {
	parts := make([]string, len(list))
	for i, pa := range list {
		names := make([]string, len(pa.Attributes))
		for j, a := range pa.Attributes {
			names[j] = dmName(a)
		}
		parts[i] = strings.TrimRight("Pattern #"+strconv.Itoa(pa.Pattern)+": "+strings.Join(names, ", "), " ")
	}
	return strings.Join(parts, "; ")
}

// dmServedText lists the patterns with an operation on the table (index "") or on one of its
// indexes: "Pattern #1, #4".
func dmServedText(patterns []designer.Pattern, table, index string) string {
	var numbers []int
	for _, p := range patterns {
		if p.Number < 1 {
			continue
		}
		if slices.ContainsFunc(p.Mapping.Operations, func(op designer.Operation) bool { return op.Table == table && op.Index == index }) {
			numbers = append(numbers, p.Number)
		}
	}
	if len(numbers) == 0 {
		return ""
	}
	slices.Sort(numbers)
	numbers = slices.Compact(numbers)
	parts := make([]string, len(numbers))
	for i, n := range numbers {
		parts[i] = "#" + strconv.Itoa(n)
	}
	return "Pattern " + strings.Join(parts, ", ")
}

// dmTableColumns orders a table's sample columns: the keys, the declared attributes, then every
// other attribute an item has, by name.
func dmTableColumns(t designer.Table, rows []designer.Row) []string {
	seen := map[string]bool{}
	var cols []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			cols = append(cols, name)
		}
	}
	add(t.PartitionKey.Name)
	if t.SortKey != nil {
		add(t.SortKey.Name)
	}
	for _, a := range t.Attributes {
		add(a.Name)
	}
	var rest []string
	others := map[string]bool{}
	for _, r := range rows {
		for name := range r.Item {
			if !seen[name] && !others[name] {
				others[name] = true
				rest = append(rest, name)
			}
		}
	}
	slices.Sort(rest)
	for _, name := range rest {
		add(name)
	}
	return cols
}

// dmIndexColumns orders an index's sample columns: its keys, the table's keys, then the projected
// attributes: the INCLUDE list, or for ALL the table's columns some entry has.
func dmIndexColumns(t designer.Table, ix designer.Index, local bool, tableCols []string, view dynamo.IndexView) []string {
	seen := map[string]bool{}
	var cols []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			cols = append(cols, name)
		}
	}
	pk := ix.PartitionKey
	if local {
		pk = []designer.KeyAttribute{t.PartitionKey}
	}
	for _, k := range slices.Concat(pk, ix.SortKey) {
		add(k.Name)
	}
	add(t.PartitionKey.Name)
	if t.SortKey != nil {
		add(t.SortKey.Name)
	}
	switch ix.Projection.Type {
	case designer.KeysOnly:
	case designer.All:
		for _, name := range tableCols {
			if !seen[name] && slices.ContainsFunc(view.Rows, func(r dynamo.IndexRow) bool { _, ok := r.Item[name]; return ok }) {
				add(name)
			}
		}
	default:
		for _, name := range ix.Projection.Attributes {
			add(name)
		}
	}
	return cols
}

// sampleTable writes a markdown table of sample items; cells are already escaped.
func (w *dmWriter) sampleTable(cols []string, rows [][]string) {
	header := make([]string, len(cols))
	sep := make([]string, len(cols))
	for i, c := range cols {
		header[i] = escapeInline(c, "`*")
		sep[i] = strings.Repeat("-", max(3, utf8.RuneCountInString(header[i])+2))
	}
	w.line("| " + strings.Join(header, " | ") + " |")
	w.line("|" + strings.Join(sep, "|") + "|")
	for _, row := range rows {
		w.line("| " + strings.Join(row, " | ") + " |")
	}
}

// dmSampleCells returns the escaped text of every cell of a table's sample, rows by columns. A
// value is written as the grid shows it where the importer reads that text back as the same value
// (given the column's declared or inferred type), else as its DynamoDB JSON. A column's inferred
// type depends on all its cells, so a column is checked again until no cell changes.
func dmSampleCells(t designer.Table, rows []designer.Row, cols []string) [][]string {
	cells := make([][]string, len(rows))
	typed := make([][]bool, len(rows))
	for r, row := range rows {
		cells[r] = make([]string, len(cols))
		typed[r] = make([]bool, len(cols))
		for c, name := range cols {
			if v, ok := row.Item[name]; ok {
				cells[r][c] = escapeInline(designer.FormatCell(v), "")
			}
		}
	}
	declared := dmDeclaredTypes(t)
	column := make([]string, len(rows))
	for c, name := range cols {
		for {
			for r := range rows {
				column[r] = dmCellText(cells[r][c])
			}
			typ, ok := declared[name]
			if !ok {
				typ = dmInferColumnType(column)
			}
			changed := false
			for r, row := range rows {
				v, has := row.Item[name]
				if !has || typed[r][c] {
					continue
				}
				if got, present, _ := dmReadCell(column[r], typ); !present || !dmSameValue(got, v) {
					typed[r][c], changed = true, true
					if b, err := v.MarshalJSON(); err == nil {
						cells[r][c] = escapeInline(string(b), "")
					}
				}
			}
			if !changed {
				break
			}
		}
	}
	return cells
}

// dmSameValue reports whether two values are the same DynamoDB value.
func dmSameValue(a, b designer.Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case designer.S, designer.N:
		return a.S == b.S
	case designer.B:
		return bytes.Equal(a.B, b.B)
	case designer.BOOL:
		return a.Bool == b.Bool
	case designer.SS, designer.NS:
		return slices.Equal(a.SS, b.SS)
	case designer.BS:
		return slices.EqualFunc(a.BS, b.BS, bytes.Equal)
	case designer.L:
		return slices.EqualFunc(a.L, b.L, dmSameValue)
	case designer.M:
		return maps.EqualFunc(a.M, b.M, dmSameValue)
	}
	return true
}

func (w *dmWriter) mapping() {
	w.line("")
	w.line(dmMappingHeader)
	w.line(dmMappingSeparator)
	for _, p := range dmMappedPatterns(w.d) {
		number := strconv.Itoa(p.Number)
		if mark, ok := statusMarkOf[p.Status]; ok {
			number += " " + mark
		}
		// An import keeps a Tables/Indexes cell its operations do not account for as the first
		// line of the notes; it goes back to its cell.
		tables, notes := dmTargetsText(p.Mapping.Operations), p.Mapping.Notes
		if first, rest, _ := strings.Cut(notes, "\n"); strings.HasPrefix(first, dmTablesNote) && strings.TrimSpace(first[len(dmTablesNote):]) != "" {
			tables, notes = first[len(dmTablesNote):], rest
		}
		w.line("| " + strings.Join([]string{
			number,
			dmEscape(p.Description, ""),
			dmEscape(tables, ""),
			dmEscape(dmOperationsCell(p.Mapping), ""),
			dmEscape(notes, ""),
		}, " | ") + " |")
	}
}

// dmTablesNote starts the line of the mapping notes that keeps a Tables/Indexes cell.
const dmTablesNote = "Tables/Indexes: "

// dmTargetsText is the Tables/Indexes cell: every table, or index with its table, the operations
// target, in order.
func dmTargetsText(ops []designer.Operation) string {
	var out []string
	for _, op := range ops {
		target := op.Table
		if op.Index != "" {
			target = op.Index + " (" + op.Table + ")"
		}
		if target != "" && !slices.Contains(out, target) {
			out = append(out, target)
		}
	}
	return strings.Join(out, ", ")
}

// dmOperationsCell is the DynamoDB Operations cell: the pattern's own wording while it still reads
// as its operations, else the operations written out.
func dmOperationsCell(m designer.Mapping) string {
	ops := dmWithoutExpected(m.Operations)
	if src := strings.TrimSpace(m.Source); src != "" || len(ops) == 0 {
		if dmSameOperations(dmParseOperationsCell(src), ops) {
			return src
		}
	}
	lines := make([]string, len(ops))
	for i, op := range ops {
		lines[i] = dmOperationText(op)
	}
	return strings.Join(lines, "\n")
}

func dmSameOperations(a, b []designer.Operation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ja, errA := json.Marshal(a[i])
		jb, errB := json.Marshal(b[i])
		if errA != nil || errB != nil || !bytes.Equal(ja, jb) {
			return false
		}
	}
	return true
}

// dmOperationText writes one operation in the form dmParseOperation reads.
func dmOperationText(op designer.Operation) string {
	var b strings.Builder
	b.WriteString(op.Op)
	if op.Table != "" {
		b.WriteString(" on " + op.Table)
	}
	if op.Index != "" {
		b.WriteString(" index " + op.Index)
	}
	if op.KeyCondition != "" {
		b.WriteString(": " + dmClauseEscape(op.KeyCondition))
	}
	clause := func(s string) { b.WriteString("; " + s) }
	if op.Action != "" {
		clause("Action: " + op.Action)
	}
	if op.Filter != "" {
		clause("Filter: " + dmClauseEscape(op.Filter))
	}
	if op.Projection != "" {
		clause("Projection: " + dmClauseEscape(op.Projection))
	}
	if op.Limit != nil {
		clause("Limit " + strconv.Itoa(*op.Limit))
	}
	if op.Descending {
		clause("ScanIndexForward=false")
	}
	if op.Consistent {
		clause("ConsistentRead=true")
	}
	if names := designer.FormatOperationNames(op); names != "" {
		clause("Names: " + dmClauseEscape(names))
	}
	if values := designer.FormatOperationValues(op); values != "" {
		clause("Values: " + dmClauseEscape(values))
	}
	if op.Notes != "" {
		// The notes come last and run to the end of the line, so they keep their semicolons.
		clause("Notes: " + dmNotesEscape(op.Notes))
	}
	return b.String()
}

// dmClauseEscape keeps a part of an operation line on its line and within its clause.
func dmClauseEscape(s string) string { return dmEscapeOperationText(s, true) }

// dmNotesEscape keeps an operation's notes, the last part of its line, on the line.
func dmNotesEscape(s string) string { return dmEscapeOperationText(s, false) }

func dmEscapeOperationText(s string, semicolons bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == ';' && semicolons:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dmEscape is escapeInline for text that may hold code spans, such as `ORDER#<id>`: inside a code
// span a "<" shows as written, so it is not escaped there unless it would read as <br>.
func dmEscape(s, extra string) string { return dmCodeLT(escapeInline(s, extra)) }

// dmCodeLT removes the backslash escapeInline put before a "<" inside a code span of escaped text.
// Either way the importer reads the same text.
func dmCodeLT(e string) string {
	if !strings.Contains(e, "`") || !strings.Contains(e, `\<`) {
		return e
	}
	var b strings.Builder
	for i := 0; i < len(e); {
		switch {
		case e[i] == '\\' && i+1 < len(e):
			b.WriteString(e[i : i+2])
			i += 2
			continue
		case e[i] != '`':
			b.WriteByte(e[i])
			i++
			continue
		}
		n := 0
		for i+n < len(e) && e[i+n] == '`' {
			n++
		}
		end := dmClosingRun(e, i+n, n)
		if end < 0 {
			b.WriteString(e[i : i+n])
			i += n
			continue
		}
		b.WriteString(e[i : i+n])
		content := e[i+n : end]
		for j := 0; j < len(content); j++ {
			if content[j] == '\\' && j+1 < len(content) {
				if content[j+1] == '<' && !(len(content) >= j+4 && strings.EqualFold(content[j+2:j+4], "br")) {
					b.WriteByte('<')
				} else {
					b.WriteString(content[j : j+2])
				}
				j++
				continue
			}
			b.WriteByte(content[j])
		}
		b.WriteString(e[end : end+n])
		i = end + n
	}
	return b.String()
}

// dmClosingRun returns where the next run of exactly n backticks at or after from starts, or -1.
func dmClosingRun(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// body writes a prose body after a blank line, escaping each line the importer would read as
// structure in ctx; runs of blank lines, which the importer keeps as one, are written as one.
func (w *dmWriter) body(s string, ctx int) {
	body := proseBody(s)
	if body == "" {
		return
	}
	w.line("")
	fence, blank := "", false
	for l := range strings.SplitSeq(body, "\n") {
		if fence == "" && strings.TrimSpace(l) == "" {
			if !blank {
				w.line("")
			}
			blank = true
			continue
		}
		blank = false
		switch {
		case fence != "":
			if strings.TrimSpace(l) == fence {
				fence = ""
			}
		case fenceMarker(l) != "":
			fence = fenceMarker(l)
		default:
			l = dmEscapeProseLine(l, ctx)
		}
		w.line(l)
	}
}

// dmEscapeProseLine returns l, or l behind a backslash when the importer would read it as
// structure in ctx rather than keep it as prose.
func dmEscapeProseLine(l string, ctx int) string {
	escaped := `\` + strings.TrimLeft(l, " ")
	trimmed := strings.TrimSpace(l)
	if level, text, ok := headingLine(l); ok {
		kind, _, _, _ := dmHeadingKind(text)
		switch {
		case ctx != dmCtxGeneric && ctx != dmCtxValidation || kind != dmUnknown:
			return escaped
		case level < 3:
			return "### " + text
		}
		return l
	}
	if dmBoilerplate[strings.ToLower(trimmed)] || dmRuleLine(trimmed) {
		return escaped
	}
	switch ctx {
	case dmCtxPreamble, dmCtxGeneric:
		if dmTableNameLine.MatchString(l) {
			return escaped
		}
	case dmCtxTable, dmCtxIndex:
		if isTableLine(l) || dmLineIsField(l, ctx == dmCtxIndex) {
			return escaped
		}
	case dmCtxMapping:
		if isTableLine(l) {
			return escaped
		}
	case dmCtxValidation:
		for _, m := range []string{"- [", "* [", "+ ["} {
			if strings.HasPrefix(trimmed, m) {
				return escaped
			}
		}
	}
	return l
}

// dmRuleLine reports whether a line is a thematic break, which the importer drops.
func dmRuleLine(trimmed string) bool {
	t := strings.ReplaceAll(trimmed, " ", "")
	return len(t) >= 3 && (strings.Trim(t, "-") == "" || strings.Trim(t, "*") == "" || strings.Trim(t, "_") == "")
}

// dmLineIsField reports whether a line, read as the start of an item, is a field of a table or
// index section.
func dmLineIsField(l string, index bool) bool {
	it := mdItem{kind: itemText, lines: []string{l}}
	if indentOf(l) < 4 && bulletStart.MatchString(l) {
		it.kind = itemBullet
	}
	f, ok := dmReadField(it)
	if !ok {
		return false
	}
	if index {
		return dmIndexFieldID(f) != dmfNone
	}
	return dmTableFieldID(f) != dmfNone
}
