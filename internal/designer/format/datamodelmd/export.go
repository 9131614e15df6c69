package datamodelmd

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format/markdown"
)

// The data model document (dynamodb_data_model.md) follows the seed template in forms Import
// reads back exactly, so that export → import → export gives the same bytes; docs/markdown.md
// ("How the data model is written") is its spec.

// Headings of the template.
const (
	titleText      = "DynamoDB Data Model"
	philosophyHead = "Design Philosophy & Approach"
	aggregatesHead = "Aggregate Design Decisions"
	tablesHead     = "Table Designs"
	mappingHead    = "Access Pattern Mapping"
	hotHead        = "Hot Partition Analysis"
	tradeOffsHead  = "Trade-offs and Optimizations"
	validationHead = "Validation Results"
	// introTitle is the title of the prose before the first section.
	introTitle = "Introduction"
)

const (
	mappingHeader    = "| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |"
	mappingSeparator = "|---------|-------------|----------------|---------------------|----------------------|"
)

// Export writes d as a dynamodb_data_model.md in the seed template. The output is
// deterministic and reads back with Import to a design that exports to the same bytes.
func Export(d designer.Design) []byte { return ExportWith(d, markdown.ExportOptions{}) }

// ExportWith is Export with the options a person asked for: with o.Mermaid, the model map as a
// Mermaid flowchart under "Table Designs", which Import skips.
func ExportWith(d designer.Design, o markdown.ExportOptions) []byte {
	return ExportFrom(afresh{designer.Normalize(d)}, o)
}

// ExportFrom is ExportWith of x's design, reading what the document shows of the revision's
// derived results from x: the same bytes, without working them out again.
func ExportFrom(x Derived, o markdown.ExportOptions) []byte {
	d := x.Design()
	w := writer{d: d, x: x, slots: placeSections(d)}
	title := titleText
	if name := escapeTitle(d.Name); name != "" {
		title += " — " + name
	}
	w.line("# " + title)
	w.prose(proseSlot{kind: sectionPreamble}, ctxPreamble)

	w.heading(philosophyHead)
	w.body(d.Prose.DesignPhilosophy, ctxGeneric)
	w.prose(proseSlot{kind: sectionPhilosophy}, ctxGeneric)

	w.heading(aggregatesHead)
	w.body(d.Prose.AggregateDecisions, ctxGeneric)
	w.prose(proseSlot{kind: sectionAggregates}, ctxGeneric)

	w.heading(tablesHead)
	if o.Mermaid {
		w.line("")
		for _, l := range markdown.MermaidModelMap(d) {
			w.line(l)
		}
	}
	w.prose(proseSlot{kind: sectionTableDesigns}, ctxGeneric)
	for ti, t := range d.Tables {
		w.table(ti, t)
	}

	w.heading(mappingHead)
	w.mapping()
	w.prose(proseSlot{kind: sectionMapping}, ctxMapping)

	r := x.Capacity()
	w.heading(hotHead)
	w.hotPartitions(r)
	w.body(d.Prose.HotPartitions, ctxGeneric)
	w.prose(proseSlot{kind: sectionHotPartitions}, ctxGeneric)

	w.heading(tradeOffsHead)
	w.body(d.Prose.TradeOffs, ctxGeneric)
	w.prose(proseSlot{kind: sectionTradeOffs}, ctxGeneric)

	report := d.Prose.CostReport
	for i, s := range d.Prose.Sections {
		if w.slots[i].kind != sectionUnknown {
			continue
		}
		title := designer.TruncateRunes(markdown.OneLine(s.Title), designer.MaxNameLen)
		if isCostReportHeading("## " + title) {
			// A section of its own under the Cost Report's heading would be read back as the
			// cost report: it is written as the cost report when there is none, else under a
			// title of its own.
			if report == "" {
				report = "## " + title
				if body := markdown.ProseBody(s.Body); body != "" {
					report += "\n\n" + body
				}
				continue
			}
			title += " (notes)"
		}
		w.heading(escapeTitle(title))
		w.body(s.Body, ctxGeneric)
	}

	w.heading(validationHead)
	w.line("")
	for _, item := range x.Checklists().DataModel {
		mark := "[ ]"
		if item.OK {
			mark = "[x]"
		}
		w.line("- " + mark + " " + item.Item)
	}
	w.prose(proseSlot{kind: sectionValidation}, ctxValidation)
	w.capacitySettings()
	if report != "" {
		w.costReport(report)
	} else {
		w.costReportOf(r)
	}
	return w.buf.Bytes()
}

// proseSlot is where in the document a prose section is written: a section kind of the template, or
// one table (kind sectionTable) or one index (kind sectionIndex) by position. Sections of their own have kind
// sectionUnknown.
type proseSlot struct {
	kind, table, index int
	local              bool
}

// tableProseTitle and indexProseTitle are the titles the prose kept under a table or index
// heading has; the importer gives them and the exporter places sections by them.
func tableProseTitle(table string) string { return table + " Table" }

func indexProseTitle(table, index string, local bool) string {
	kind := " GSI"
	if local {
		kind = " LSI"
	}
	if table == "" {
		return index + kind
	}
	return index + kind + " (" + table + " Table)"
}

// sectionElsewhere is the slot of a prose section the requirement document holds; the data model
// does not write it.
const sectionElsewhere = -1

// placeSections decides where each prose section of d is written.
func placeSections(d designer.Design) []proseSlot {
	titles := map[string]proseSlot{}
	for ti, t := range d.Tables {
		if _, ok := titles[tableProseTitle(t.Name)]; !ok {
			titles[tableProseTitle(t.Name)] = proseSlot{kind: sectionTable, table: ti}
		}
		for _, group := range []struct {
			local bool
			ixs   []designer.Index
		}{{false, t.GSIs}, {true, t.LSIs}} {
			for j, ix := range group.ixs {
				title := indexProseTitle(t.Name, ix.Name, group.local)
				if _, ok := titles[title]; !ok {
					titles[title] = proseSlot{kind: sectionIndex, table: ti, index: j, local: group.local}
				}
			}
		}
	}
	out := make([]proseSlot, len(d.Prose.Sections))
	for i, s := range d.Prose.Sections {
		if s.Document == designer.RequirementDocument {
			out[i] = proseSlot{kind: sectionElsewhere}
			continue
		}
		if slot, ok := titles[s.Title]; ok {
			out[i] = slot
			continue
		}
		if s.Title == introTitle {
			out[i] = proseSlot{kind: sectionPreamble}
			continue
		}
		// The heading the section would get, as the importer sees it.
		kind, _, _, _ := headingKind(escapeTitle(designer.TruncateRunes(markdown.OneLine(s.Title), designer.MaxNameLen)))
		switch kind {
		case sectionTable, sectionIndex:
			// A table or index no longer in the design; under its own heading it would come back
			// as one.
			out[i] = proseSlot{kind: sectionTableDesigns}
		default:
			out[i] = proseSlot{kind: kind}
		}
	}
	return out
}

// mappedPatterns are the patterns the mapping table lists, in number order.
func mappedPatterns(d designer.Design) []designer.Pattern {
	out := make([]designer.Pattern, 0, len(d.Patterns))
	for _, p := range d.Patterns {
		if p.Number >= 1 {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b designer.Pattern) int { return a.Number - b.Number })
	return out
}

func withoutExpected(ops []designer.Operation) []designer.Operation {
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
	ctxPreamble = iota
	ctxGeneric
	ctxTable
	ctxIndex
	ctxMapping
	ctxValidation
	ctxCapacity
)

type writer struct {
	buf   bytes.Buffer
	d     designer.Design
	x     Derived
	slots []proseSlot
	// shared are the table names more than one table has, once tableOrder has worked them out.
	shared map[string]bool
}

func (w *writer) line(s string) {
	w.buf.WriteString(s)
	w.buf.WriteByte('\n')
}

func (w *writer) heading(title string) {
	w.line("")
	w.line("## " + title)
}

func (w *writer) subheading(title string) {
	w.line("")
	w.line("### " + title)
}

// prose writes the bodies of the prose sections placed in slot.
func (w *writer) prose(slot proseSlot, ctx int) {
	for i, s := range w.d.Prose.Sections {
		if w.slots[i] == slot {
			w.body(s.Body, ctx)
		}
	}
}

// escapeTitle makes a name or title safe on a heading line; a closing "#" would be read as the
// heading's closing sequence.
func escapeTitle(s string) string {
	extra := ""
	if strings.HasSuffix(markdown.OneLine(s), "#") {
		extra = "#"
	}
	return markdown.Escape(markdown.OneLine(s), extra)
}

// nameExtra are the characters the key, attribute and projection forms use as separators, and
// those that would make a name read as code or emphasis.
const nameExtra = "()+,;`*"

func escapeName(s string) string { return markdown.Escape(markdown.OneLine(s), nameExtra) }

func (w *writer) table(ti int, t designer.Table) {
	w.subheading(markdown.Escape(t.Name, "") + " Table")
	rows := w.tableOrder(t)
	cols := tableColumns(t, rows)
	cells := sampleCells(t, rows, cols)
	w.line("")
	w.sampleTable(cols, cells)
	w.line("")
	w.bullet("Purpose", t.Purpose)
	w.bullet("Aggregate Boundary", t.AggregateBoundary)
	pk := []designer.KeyAttribute{t.PartitionKey}
	if t.PartitionKey.Name == "" {
		pk = nil
	}
	w.line("- **Partition Key**: " + keyText(pk, t.PartitionKeyWhy))
	var sk []designer.KeyAttribute
	if t.SortKey != nil {
		sk = []designer.KeyAttribute{*t.SortKey}
	}
	w.line("- **Sort Key**: " + keyText(sk, t.SortKeyWhy))
	w.taxonomy(t.EntityTypes)
	w.attributes(t.Attributes)
	w.bullet("Bounded Read Strategy", t.BoundedReads)
	if t.TTLAttribute != "" {
		w.line("- **TTL**: " + codeSpan(markdown.OneLine(t.TTLAttribute)))
	}
	if served := servedText(w.d.Patterns, t.Name, ""); served != "" {
		w.line("- **Access Patterns Served**: " + served)
	}
	w.bullet("Capacity Planning", t.Capacity)
	w.line("- **Billing Mode**: " + billingText(t))
	if t.TableClass != "" {
		w.line("- **Table Class**: " + tableClassText(t.TableClass))
	}
	w.prose(proseSlot{kind: sectionTable, table: ti}, ctxTable)

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
			w.prose(proseSlot{kind: sectionIndex, table: ti, index: j, local: group.local}, ctxIndex)
		}
	}
}

func (w *writer) index(t designer.Table, ix designer.Index, local bool, tableCols []string, cells [][]string, byID map[string]int) {
	kind := " GSI"
	if local {
		kind = " LSI"
	}
	view := w.x.IndexView(t, ix, local)
	cols := indexColumns(t, ix, local, tableCols, view)
	at := make(map[string]int, len(tableCols))
	for c, name := range tableCols {
		at[name] = c
	}
	// The table's column of each of the index's: every attribute an item has is one of them.
	from := make([]int, len(cols))
	for c, name := range cols {
		from[c] = at[name]
	}
	rows := make([][]string, len(view.Rows))
	for r, entry := range view.Rows {
		row := make([]string, len(cols))
		tableRow := cells[byID[entry.ID]]
		for c, name := range cols {
			if _, ok := entry.Item[name]; ok {
				row[c] = tableRow[from[c]]
			}
		}
		rows[r] = row
	}
	// The template puts an index's sample table just before its heading.
	w.line("")
	w.sampleTable(cols, rows)
	w.subheading(markdown.Escape(ix.Name, "") + kind)
	w.bullet("Purpose", ix.Purpose)
	w.line("- **Partition Key**: " + keyText(ix.PartitionKey, ix.PartitionKeyWhy))
	w.line("- **Sort Key**: " + keyText(ix.SortKey, ix.SortKeyWhy))
	w.line("- **Projection**: " + projectionText(ix.Projection, ix.ProjectionWhy))
	w.line(strings.TrimRight("  - **Per-Pattern Projected Attributes**: "+patternAttributesText(ix.PatternAttributes), " "))
	sparse := "No"
	if ix.Sparse {
		sparse = "Yes"
	}
	if note := escape(ix.SparseNote, ""); note != "" {
		sparse += " - " + note
	}
	w.line("- **Sparse**: " + sparse)
	if served := servedText(w.d.Patterns, t.Name, ix.Name); served != "" {
		w.line("- **Access Patterns Served**: " + served)
	}
	w.bullet("Capacity Planning", ix.Capacity)
}

// tableOrder is the items of t in key order: the derived results hold it by table name, so a
// table whose name another table has too is sorted here.
func (w *writer) tableOrder(t designer.Table) []designer.Row {
	if w.shared == nil {
		w.shared = map[string]bool{}
		seen := make(map[string]bool, len(w.d.Tables))
		for _, other := range w.d.Tables {
			w.shared[other.Name] = seen[other.Name]
			seen[other.Name] = true
		}
	}
	if w.shared[t.Name] {
		return designer.TableOrder(t)
	}
	return w.x.TableOrder(t)
}

// bullet writes a free-text field as the requirement document does: sub-bullets for a list, <br>
// between other lines.
func (w *writer) bullet(label, value string) {
	if lines, ok := markdown.ListLines(value); ok {
		w.line("- **" + label + "**:")
		for _, l := range lines {
			w.line("  " + codeLT(l))
		}
		return
	}
	if v := escape(value, ""); v != "" {
		w.line("- **" + label + "**: " + v)
	} else {
		w.line("- **" + label + "**:")
	}
}

// keyText writes "name (S) + other (N) - why", or "None - why" for no key.
func keyText(keys []designer.KeyAttribute, why string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = escapeName(k.Name) + " (" + string(k.Type) + ")"
		if parts[i][0] == ' ' {
			parts[i] = parts[i][1:] // an empty name
		}
	}
	text := strings.Join(parts, " + ")
	if text == "" {
		text = "None"
	}
	if why := escape(why, ""); why != "" {
		text += " - " + why
	}
	return text
}

func (w *writer) taxonomy(ets []designer.EntityType) {
	w.line("- **SK Taxonomy**:")
	for _, et := range ets {
		var parts []string
		if et.PKTemplate != "" {
			parts = append(parts, "PK "+codeSpan(markdown.OneLine(et.PKTemplate)))
		}
		if et.SKTemplate != "" {
			parts = append(parts, "SK "+codeSpan(markdown.OneLine(et.SKTemplate)))
		}
		text := strings.Join(parts, ", ")
		if desc := markdown.Escape(et.Description, "`"); desc != "" {
			if text != "" {
				text += " - "
			}
			text += desc
		}
		l := "  -"
		if et.Entity != "" {
			l += " **" + markdown.EscapeLabel(et.Entity) + "**:"
		}
		if text != "" {
			l += " " + text
		}
		w.line(l)
	}
}

func (w *writer) attributes(attrs []designer.Attribute) {
	described := slices.ContainsFunc(attrs, func(a designer.Attribute) bool { return strings.TrimSpace(a.Description) != "" })
	if !described {
		parts := make([]string, len(attrs))
		for i, a := range attrs {
			parts[i] = strings.TrimLeft(escapeName(a.Name)+" ("+string(a.Type)+")", " ")
		}
		w.line(strings.TrimRight("- **Attributes**: "+strings.Join(parts, ", "), " "))
		return
	}
	w.line("- **Attributes**:")
	for _, a := range attrs {
		l := strings.TrimRight("  - "+escapeName(a.Name), " ") + " (" + string(a.Type) + ")"
		if desc := escape(a.Description, ""); desc != "" {
			l += ": " + desc
		}
		w.line(l)
	}
}

// codeSpan writes s as a markdown code span: fenced with one more backtick than its longest
// run, padded with a space where CommonMark would otherwise take a backtick or space as part of
// the fence.
func codeSpan(s string) string {
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

func billingText(t designer.Table) string {
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

// projectionText writes "KEYS_ONLY - why", "INCLUDE (a, b) - why". Only INCLUDE has a list; a
// list left on another type projects nothing and is not written.
func projectionText(p designer.Projection, why string) string {
	text := p.Type
	if p.Type == designer.Include {
		names := make([]string, len(p.Attributes))
		for i, a := range p.Attributes {
			names[i] = escapeName(a)
		}
		text += " (" + strings.Join(names, ", ") + ")"
	}
	if why := escape(why, ""); why != "" {
		text += " - " + why
	}
	return text
}

// patternAttributesText writes "Pattern #3: a, b; Pattern #7: c".
func patternAttributesText(list []designer.PatternAttributes) string {
	parts := make([]string, len(list))
	for i, pa := range list {
		names := make([]string, len(pa.Attributes))
		for j, a := range pa.Attributes {
			names[j] = escapeName(a)
		}
		parts[i] = strings.TrimRight("Pattern #"+strconv.Itoa(pa.Pattern)+": "+strings.Join(names, ", "), " ")
	}
	return strings.Join(parts, "; ")
}

// servedText lists the patterns with an operation on the table (index "") or on one of its
// indexes: "Pattern #1, #4".
func servedText(patterns []designer.Pattern, table, index string) string {
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

// tableColumns orders a table's sample columns: the keys, the declared attributes, then every
// other attribute an item has, by name.
func tableColumns(t designer.Table, rows []designer.Row) []string {
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

// indexColumns orders an index's sample columns: its keys, the table's keys, then the projected
// attributes: the INCLUDE list, or for ALL the table's columns some entry has.
func indexColumns(t designer.Table, ix designer.Index, local bool, tableCols []string, view dynamo.IndexView) []string {
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
func (w *writer) sampleTable(cols []string, rows [][]string) {
	header := make([]string, len(cols))
	sep := make([]string, len(cols))
	for i, c := range cols {
		header[i] = markdown.Escape(c, "`*")
		sep[i] = strings.Repeat("-", max(3, utf8.RuneCountInString(header[i])+2))
	}
	w.line("| " + strings.Join(header, " | ") + " |")
	w.line("|" + strings.Join(sep, "|") + "|")
	for _, row := range rows {
		w.line("| " + strings.Join(row, " | ") + " |")
	}
}

// sampleCells returns the escaped text of every cell of a table's sample, rows by columns. A
// value is written as the grid shows it where the importer reads that text back as the same value
// (given the column's declared or inferred type), else as its DynamoDB JSON. A column's inferred
// type depends on all its cells, so a column is checked again until no cell changes.
func sampleCells(t designer.Table, rows []designer.Row, cols []string) [][]string {
	declared := declaredTypes(t)
	types := make([]designer.Type, len(cols))
	isDeclared := make([]bool, len(cols))
	for c, name := range cols {
		types[c], isDeclared[c] = declared[name]
	}
	cells := make([][]string, len(rows))
	typed := make([][]bool, len(rows))
	for r, row := range rows {
		cells[r] = make([]string, len(cols))
		typed[r] = make([]bool, len(cols))
		for c, name := range cols {
			v, ok := row.Item[name]
			if !ok {
				continue
			}
			cells[r][c] = markdown.Escape(designer.FormatCell(v), "")
			// A column of declared type reads each cell alone: it is checked here, while the
			// item is at hand.
			if isDeclared[c] {
				if got, present, _ := readCell(cellText(cells[r][c]), types[c]); !present || !got.Identical(v) {
					if b, err := v.MarshalJSON(); err == nil {
						cells[r][c] = markdown.Escape(string(b), "")
					}
				}
			}
		}
	}
	column := make([]string, len(rows))
	for c, name := range cols {
		if isDeclared[c] {
			continue
		}
		for r := range rows {
			column[r] = cellText(cells[r][c])
		}
		for {
			typ := inferColumnType(column)
			changed := false
			for r, row := range rows {
				v, has := row.Item[name]
				if !has || typed[r][c] {
					continue
				}
				if got, present, _ := readCell(column[r], typ); !present || !got.Identical(v) {
					typed[r][c], changed = true, true
					if b, err := v.MarshalJSON(); err == nil {
						cells[r][c] = markdown.Escape(string(b), "")
					}
					column[r] = cellText(cells[r][c])
				}
			}
			// The type inferred may change with the cells: the column is read again.
			if !changed {
				break
			}
		}
	}
	return cells
}

func (w *writer) mapping() {
	w.line("")
	w.line(mappingHeader)
	w.line(mappingSeparator)
	for _, p := range mappedPatterns(w.d) {
		number := strconv.Itoa(p.Number)
		if mark, ok := markdown.StatusMarks[p.Status]; ok {
			number += " " + mark
		}
		// An import keeps a Tables/Indexes cell its operations do not account for as the first
		// line of the notes; it goes back to its cell.
		tables, notes := targetsText(p.Mapping.Operations), p.Mapping.Notes
		if first, rest, _ := strings.Cut(notes, "\n"); strings.HasPrefix(first, tablesNote) && strings.TrimSpace(first[len(tablesNote):]) != "" {
			tables, notes = first[len(tablesNote):], rest
		}
		w.line("| " + strings.Join([]string{
			number,
			escape(p.Description, ""),
			escape(tables, ""),
			escape(operationsCell(w.d.Tables, p.Mapping, tables, notes), ""),
			escape(withFailure(notes, p), ""),
		}, " | ") + " |")
	}
}

// tablesNote starts the line of the mapping notes that keeps a Tables/Indexes cell.
const tablesNote = "Tables/Indexes: "

// targetsText is the Tables/Indexes cell: every table, or index with its table, the operations
// target, in order.
func targetsText(ops []designer.Operation) string {
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

// operationsCell is the DynamoDB Operations cell: the pattern's own wording while it still reads
// as its operations, with the row's Tables/Indexes cell and notes as written, else the operations
// written out.
func operationsCell(tables []designer.Table, m designer.Mapping, targetsCell, notes string) string {
	ops := withoutExpected(m.Operations)
	if src := strings.TrimSpace(m.Source); src != "" || len(ops) == 0 {
		// The importer gives the operations the Tables/Indexes cell only when they do not say it.
		if targetsCell == targetsText(operationsOf(src)) {
			targetsCell = ""
		}
		if sameOperations(settleRow(tables, src, targetsCell, notes).ops, ops) {
			return src
		}
	}
	lines := make([]string, len(ops))
	for i, op := range ops {
		lines[i] = operationText(op)
	}
	return strings.Join(lines, "\n")
}

func sameOperations(a, b []designer.Operation) bool {
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

// operationText writes one operation in the canonical spelling of the cell grammar (opcell.go).
func operationText(op designer.Operation) string {
	var b strings.Builder
	b.WriteString(op.Op)
	if op.Table != "" {
		b.WriteString(" on " + quoteName(op.Table))
	}
	if op.Index != "" {
		b.WriteString(" index " + quoteName(op.Index))
	}
	if op.KeyCondition != "" {
		b.WriteString(": " + clauseEscape(op.KeyCondition))
	}
	clause := func(s string) { b.WriteString("; " + s) }
	if op.Action != "" {
		clause("Action: " + op.Action)
	}
	if op.Filter != "" {
		clause("Filter: " + clauseEscape(op.Filter))
	}
	if op.Projection != "" {
		clause("Projection: " + clauseEscape(op.Projection))
	}
	if op.Condition != "" {
		clause("Condition: " + clauseEscape(op.Condition))
	}
	if op.Update != "" {
		clause("Update: " + clauseEscape(op.Update))
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
		clause("Names: " + clauseEscape(names))
	}
	if values := designer.FormatOperationValues(op); values != "" {
		clause("Values: " + clauseEscape(values))
	}
	if op.Notes != "" {
		// The notes come last and run to the end of the line, so they keep their semicolons.
		clause("Notes: " + notesEscape(op.Notes))
	}
	return b.String()
}

// clauseEscape keeps a part of an operation line on its line and within its clause.
func clauseEscape(s string) string { return escapeOperationText(s, true) }

// notesEscape keeps an operation's notes, the last part of its line, on the line.
func notesEscape(s string) string { return escapeOperationText(s, false) }

func escapeOperationText(s string, semicolons bool) string {
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

// escape is Escape for text that may hold code spans, such as `ORDER#<id>`: inside a code
// span a "<" shows as written, so it is not escaped there unless it would read as <br>.
func escape(s, extra string) string { return codeLT(markdown.Escape(s, extra)) }

// codeLT removes the backslash Escape put before a "<" inside a code span of escaped text.
// Either way the importer reads the same text.
func codeLT(e string) string {
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
		end := closingRun(e, i+n, n)
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

// closingRun returns where the next run of exactly n backticks at or after from starts, or -1.
func closingRun(s string, from, n int) int {
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
func (w *writer) body(s string, ctx int) {
	body := markdown.ProseBody(s)
	if body == "" {
		return
	}
	w.line("")
	blank := false
	above := ""
	for l, fenced := range markdown.FencedLines(body) {
		if !fenced && strings.TrimSpace(l) == "" {
			if !blank {
				w.line("")
			}
			blank = true
			above = ""
			continue
		}
		blank = false
		if !fenced {
			l = escapeProseLine(l, ctx)
			// A table in prose under a table, an index or the mapping would be read as one of
			// theirs; its delimiter row behind a backslash keeps it text, even without pipes.
			if ctx == ctxTable || ctx == ctxIndex || ctx == ctxMapping {
				if markdown.OpensTable(above, l) {
					l = `\` + strings.TrimLeft(l, " ")
				}
			}
		}
		above = l
		if fenced {
			above = ""
		}
		w.line(l)
	}
}

// escapeProseLine returns l, or l behind a backslash when the importer would read it as
// structure in ctx rather than keep it as prose.
func escapeProseLine(l string, ctx int) string {
	escaped := `\` + strings.TrimLeft(l, " ")
	trimmed := strings.TrimSpace(l)
	if level, text, ok := markdown.Heading(l); ok {
		kind, _, _, _ := headingKind(text)
		switch {
		case ctx != ctxGeneric && ctx != ctxValidation || kind != sectionUnknown:
			return escaped
		case level < 3:
			return strings.TrimRight("### "+text, " ")
		}
		return l
	}
	if boilerplate[strings.ToLower(trimmed)] || ruleLine(trimmed) {
		return escaped
	}
	switch ctx {
	case ctxPreamble, ctxGeneric:
		if tableNameLine().MatchString(l) {
			return escaped
		}
	case ctxTable, ctxIndex:
		if markdown.IsTableLine(l) || lineIsField(l, ctx == ctxIndex) {
			return escaped
		}
	case ctxMapping:
		if markdown.IsTableLine(l) {
			return escaped
		}
	case ctxCapacity:
		if lineIsSetting(l) {
			return escaped
		}
	case ctxValidation:
		for _, m := range []string{"- [", "* [", "+ ["} {
			if strings.HasPrefix(trimmed, m) {
				return escaped
			}
		}
	}
	return l
}

// unescapeProse undoes what body and escapeProseLine did to the prose of a section written in
// ctx: a line behind a backslash that the export would write so from the line without it gets its
// line back, so that the text people wrote comes back as they wrote it, not with a backslash that
// changes how it renders.
func unescapeProse(body string, ctx int) string {
	lines := make([]string, 0, strings.Count(body, "\n")+1)
	above := ""
	for l, fenced := range markdown.FencedLines(body) {
		written := l
		if c, ok := strings.CutPrefix(l, `\`); ok && !fenced {
			delimiter := (ctx == ctxTable || ctx == ctxIndex || ctx == ctxMapping) && markdown.OpensTable(above, c)
			if delimiter || escapeProseLine(c, ctx) == l {
				l = c
			}
		}
		above = written
		if fenced || strings.TrimSpace(l) == "" {
			above = ""
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// proseContext is the context the export writes the prose of a section of kind in.
func proseContext(kind int) int {
	switch kind {
	case sectionPreamble:
		return ctxPreamble
	case sectionTable:
		return ctxTable
	case sectionIndex:
		return ctxIndex
	case sectionMapping:
		return ctxMapping
	case sectionValidation:
		return ctxValidation
	case sectionCapacity:
		return ctxCapacity
	}
	return ctxGeneric
}

// ruleLine reports whether a line is a thematic break, which the importer drops.
func ruleLine(trimmed string) bool {
	t := strings.ReplaceAll(trimmed, " ", "")
	return len(t) >= 3 && (strings.Trim(t, "-") == "" || strings.Trim(t, "*") == "" || strings.Trim(t, "_") == "")
}

// lineIsField reports whether a line, read as the start of an item, is a field of a table or
// index section.
func lineIsField(l string, index bool) bool {
	it := markdown.Item{Kind: markdown.KindText, Lines: []string{l}}
	if markdown.IndentOf(l) < 4 && markdown.BulletStart().MatchString(l) {
		it.Kind = markdown.KindBullet
	}
	f, ok := readField(it)
	if !ok {
		return false
	}
	if index {
		return indexFieldID(f) != fieldNone
	}
	return tableFieldID(f) != fieldNone
}
