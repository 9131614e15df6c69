package datamodelmd

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// Settling a parsed data model document into a design: index placement, attribute types, sample
// items and their cells, and the merge with a requirement document.

// design settles what needed the whole document: which table each index belongs to, the
// attribute types, the sample items.
func (p *parser) design() designer.Design {
	d := designer.Design{Name: titleName(p.title), Patterns: p.patterns, Prose: p.prose, Capacity: p.settings}
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
		if !ttlDescribed(&t, td.ttl.text) && td.ttl.line > 0 {
			p.note(td.ttl.line, "table %s: the TTL bullet explains %s, which the table does not list among its attributes or has described already; the bullet was kept as prose", t.Name, t.TTLAttribute)
			keepUnder(&d, tableProseTitle(t.Name), td.ttl.lines)
		}
		for _, ix := range p.indexes {
			if ix.table != ti {
				continue
			}
			settled := p.settleIndex(t, ix)
			if _, _, _, dup := t.IndexByName(settled.Name); dup {
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
	d.Name = designer.TruncateRunes(d.Name, designer.MaxNameLen)
	d.Patterns = p.settleMappings(d.Tables, d.Patterns, p.headingNames(d.Tables))
	for ti, td := range p.tables {
		if ti >= len(d.Tables) {
			break
		}
		p.placeServed(&d, td.served, d.Tables[ti].Name, "", false)
		for _, ix := range p.indexes {
			if ix.table == ti {
				p.placeServed(&d, ix.served, d.Tables[ti].Name, ix.ix.Name, ix.local)
			}
		}
	}
	return designer.Normalize(d)
}

// settleMappings reads each mapping row's operations again with the tables known: the targets
// its Tables/Indexes cell names, which the row's notes keep until then, and the keys its operations
// give by position. The cell's note is dropped once every operation has its target from it, since
// the operations now say it. What the grammar did not read is noted with the row's line.
func (p *parser) settleMappings(tables []designer.Table, patterns []designer.Pattern, headings map[string][2]string) []designer.Pattern {
	return designer.EditRows(patterns, func(pt *designer.Pattern) bool {
		cell, rest := cutTablesNote(pt.Mapping.Notes)
		line := p.rowLines[pt.Number]
		cell = p.byHeadings(tables, headings, cell, pt.Number, line)
		row := settleRow(tables, pt.Mapping.Source, cell, rest)
		for i, texts := range row.notRead {
			for _, text := range texts {
				p.note(line, "pattern %d: %q in its %s operation was not read; the operation's notes keep it", pt.Number, text, row.ops[i].Op)
			}
		}
		for _, s := range row.partiql {
			p.note(line, "pattern %d: the PartiQL statement %q is kept as written in the operations cell; Dynaloom checks DynamoDB's API operations, so map the pattern to the operation the statement runs", pt.Number, s)
		}
		if len(row.ops) == 0 && len(row.partiql) == 0 && strings.TrimSpace(pt.Mapping.Source) != "" {
			p.note(line, "pattern %d: the operations cell %q names no DynamoDB operation; it was kept as written", pt.Number, markdown.OneLine(pt.Mapping.Source))
		}
		pt.Mapping.Operations = row.ops
		if row.targeted {
			pt.Mapping.Notes = rest
		}
		return true
	})
}

// headingNames are the indexes a Tables/Indexes cell may name by the words of their heading and
// table rather than by their name, as a model whose headings read "GSI1: Category Products" under
// the Products table calls that index ProductsByCategory: by nameWords of the table's name and the
// heading's title, each set of words naming one index only.
func (p *parser) headingNames(tables []designer.Table) map[string][2]string {
	out := map[string][2]string{}
	taken := map[string]bool{}
	for _, ix := range p.indexes {
		if ix.table < 0 || ix.table >= len(tables) || ix.desc == "" {
			continue
		}
		title := servedParens().ReplaceAllString(ix.desc, " ")
		key := nameWords(tables[ix.table].Name + " " + title)
		if key == "" {
			continue
		}
		if _, seen := out[key]; seen {
			taken[key] = true
		}
		out[key] = [2]string{tables[ix.table].Name, ix.ix.Name}
	}
	for key := range taken {
		delete(out, key)
	}
	return out
}

// nameWords is a name's words in a canonical form, to compare names written differently:
// markdown.NameWords (split at case changes and separators, lower case, singular), without the
// words that only join others (by, of, for, the, index, gsi…), sorted and told once. "" for fewer
// than two.
func nameWords(name string) string {
	var out []string
	for _, w := range markdown.NameWords(name) {
		switch w {
		case "by", "of", "for", "the", "a", "an", "and", "to", "on", "index", "gsi", "lsi", "table":
			continue
		}
		out = append(out, w)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) < 2 {
		return ""
	}
	return strings.Join(out, " ")
}

// byHeadings rewrites the names of a Tables/Indexes cell that name no table or index of the design,
// but the words of one index's heading and table (headingNames), as that index with its table
// ("GSI1 (Products)"), with a note.
func (p *parser) byHeadings(tables []designer.Table, headings map[string][2]string, cell string, pattern, line int) string {
	if cell == "" || len(headings) == 0 {
		return cell
	}
	parts := strings.Split(cell, ",")
	changed := false
	for i, part := range parts {
		name := strings.TrimSpace(part)
		if name == "" || strings.ContainsAny(name, "()") {
			continue
		}
		if _, _, ok := findTarget(tables, name); ok {
			continue
		}
		tg, ok := headings[nameWords(name)]
		if !ok {
			continue
		}
		parts[i] = " " + tg[1] + " (" + tg[0] + ")"
		changed = true
		p.note(line, "pattern %d: %q in its Tables/Indexes cell was read as index %s of table %s, whose heading and table have its words", pattern, name, tg[1], tg[0])
	}
	if !changed {
		return cell
	}
	return strings.TrimSpace(strings.Join(parts, ","))
}

// cutTablesNote takes the Tables/Indexes cell an import keeps in a mapping's notes out of them.
func cutTablesNote(notes string) (cell, rest string) {
	var kept []string
	for l := range strings.SplitSeq(notes, "\n") {
		if after, ok := strings.CutPrefix(l, tablesNote); ok && cell == "" {
			cell = after
			continue
		}
		kept = append(kept, l)
	}
	if cell == "" {
		return "", notes
	}
	return cell, strings.Join(kept, "\n")
}

func titleName(title string) string {
	title = strings.Join(strings.Fields(title), " ")
	rest, ok := markdown.CutPrefixFold(strings.TrimSpace(title), "DynamoDB Data Model")
	if !ok {
		return markdown.OneLine(markdown.Unescape(title))
	}
	rest = strings.TrimSpace(rest)
	for _, sep := range []string{"—", "–", "-", ":"} {
		if after, ok := strings.CutPrefix(rest, sep); ok {
			return markdown.OneLine(markdown.Unescape(after))
		}
	}
	if rest == "" {
		return ""
	}
	return markdown.OneLine(markdown.Unescape(title))
}

// columnTypes infers a type per column of a sample table (inferColumnType).
func columnTypes(st *sampleDraft) map[string]designer.Type {
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
		if t := inferColumnType(column); t != "" {
			out[name] = t
		}
	}
	return out
}

// inferColumnType is N when every value of a column is a number, BOOL when every value is true
// or false; "" otherwise. Empty cells do not count.
func inferColumnType(column []string) designer.Type {
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

// declaredTypes are the types a table's sample columns are read with when given: the declared
// attributes' types, then the keys'. Other columns get inferColumnType.
func declaredTypes(t designer.Table) map[string]designer.Type {
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

func (p *parser) settleTable(td *tableDraft) designer.Table {
	t := td.t
	if td.desc != "" {
		// As an index's: the heading's words, then the Purpose bullet's, on one line.
		if t.Purpose == "" {
			t.Purpose = td.desc
		} else {
			t.Purpose = td.desc + " — " + t.Purpose
		}
	}
	pk := td.pkTemplate
	if pk == "" && td.looseTaxonomy {
		pk = td.pkWhyTemplate
	}
	settleKeyForms(&t, pk, td.pkForms, td.skTemplate, td.skForms)
	t.Attributes = slices.Clone(t.Attributes)
	inferred := columnTypes(td.sample)
	stated := statedTypes(td.t)
	for i, a := range t.Attributes {
		if a.Type == "" {
			a.Type = inferred[a.Name]
			if a.Type == "" {
				a.Type = designer.S
			}
			t.Attributes[i].Type = a.Type
		}
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
	// A key's type is the one the file declares, a wrong one (BOOL) too, for MOD002 to report; a
	// type read from sample values alone is only a guess, and a key is S when it is not S, N or B.
	keyType := func(name string) designer.Type {
		if typ := stated[name]; typ != "" {
			return typ
		}
		typ := inferred[name]
		if !typ.KeyType() {
			if typ != "" {
				p.note(td.line, "table %s: the sample values of key attribute %s read as %s; a key is S, N or B, so S was used", t.Name, name, typ)
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
		if pk == "" && td.sample != nil && len(td.sample.columns) > 0 && strings.TrimSpace(td.sample.columns[0]) != "" {
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
		types := declaredTypes(t)
		for k, v := range inferred {
			if _, ok := types[k]; !ok {
				types[k] = v
			}
		}
		t.Items = p.sampleItems(t.Name, td.sample, types)
	}
	if td.looseTaxonomy && pk == "" && t.PartitionKey.Name != "" && genericKey(t.PartitionKey.Name) == "" {
		// The seed's taxonomy lists sort keys only: each of its items is keyed by the partition
		// key's own value, "{owner_id}".
		t.EntityTypes = slices.Clone(t.EntityTypes)
		for i := range t.EntityTypes {
			if t.EntityTypes[i].PKTemplate == "" {
				t.EntityTypes[i].PKTemplate = "{" + t.PartitionKey.Name + "}"
			}
		}
	}
	p.nameEntityTypes(td.line, &t)
	if t.TTLAttribute != "" {
		if _, err := designer.CleanName("ttl", t.TTLAttribute); err != nil {
			p.note(td.line, "table %s: the TTL attribute %q cannot be a name (%v); the table was read without a TTL", t.Name, designer.TruncateRunes(t.TTLAttribute, 60), err)
			t.TTLAttribute = ""
		}
	}
	return t
}

// nameEntityTypes names each entity type of t's SK taxonomy that its line did not name, after
// the table ("Appointments" is Appointment; "Appointment 2" when that is taken), with a note: an
// entity type without a name cannot be matched to an entity, and would be written as nothing in
// every message about it.
func (p *parser) nameEntityTypes(line int, t *designer.Table) {
	if !slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return strings.TrimSpace(et.Entity) == "" }) {
		return
	}
	t.EntityTypes = slices.Clone(t.EntityTypes)
	taken := func(name string) bool {
		return slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return strings.EqualFold(et.Entity, name) })
	}
	base := markdown.Singular(t.Name)
	if base == "" {
		base = "Entity"
	}
	for i := range t.EntityTypes {
		et := &t.EntityTypes[i]
		if strings.TrimSpace(et.Entity) != "" {
			continue
		}
		// A partition-key template written on the key bullet, `SHELF#<shelf_no>`, still names one.
		if name := entityName(et.PKTemplate, ""); name != "" && !taken(name) {
			et.Entity = name
			continue
		}
		name := base
		for n := 2; taken(name); n++ {
			name = base + " " + strconv.Itoa(n)
		}
		et.Entity = name
		p.note(line, "table %s: entity type %d of the SK taxonomy (%s) names no entity; it was named %s after the table, which the Tables step can rename", t.Name, i+1, templatesOf(*et), name)
	}
}

// templatesOf is an entity type's key templates as a note quotes them.
func templatesOf(et designer.EntityType) string {
	var parts []string
	if et.PKTemplate != "" {
		parts = append(parts, "PK "+et.PKTemplate)
	}
	if et.SKTemplate != "" {
		parts = append(parts, "SK "+et.SKTemplate)
	}
	if len(parts) == 0 {
		return "no templates"
	}
	return strings.Join(parts, ", ")
}

// How readCell read a cell.
const (
	cellRead = iota
	cellNull // the text null, kept as text for MOD011 to point at
	cellBad  // a value that did not fit its column's type, kept as text
)

// readCell reads a sample cell's text as a value of the column's type typ ("" when unknown): an
// empty cell is an absent attribute; a value written as DynamoDB JSON, {"S":"42"}, is that value.
func readCell(text string, typ designer.Type) (designer.Value, bool, int) {
	switch {
	case text == "":
		return designer.Value{}, false, cellRead
	case strings.EqualFold(text, "null"):
		// The template asks for an empty cell; the text is kept for MOD011 to point at.
		return designer.Str(text), true, cellNull
	}
	if v, ok := designer.TypedValueCell(text); ok {
		return v, true, cellRead
	}
	v, err := cellValue(text, typ)
	switch {
	case err != nil:
		return designer.Str(text), true, cellBad
	case v.Type == designer.N && typ == "":
		return designer.Str(text), true, cellRead // a number in a column that also holds text stays text
	}
	return v, true, cellRead
}

// sampleItems turns the rows of a sample table into items: an empty cell is an absent attribute.
func (p *parser) sampleItems(table string, st *sampleDraft, types map[string]designer.Type) []designer.SampleItem {
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
			v, present, how := readCell(row[c], types[name])
			if !present {
				continue
			}
			switch how {
			case cellNull:
				nulls++
			case cellBad:
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

// cellValue reads a cell as a value of type t, or infers the type when t is "". Beyond what
// ParseCell takes, it accepts what documents write: plain JSON for maps and lists ({"city": "Lyon"}),
// loose sets (a, b) and numbers with thousands separators.
func cellValue(text string, t designer.Type) (designer.Value, error) {
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
		if v, ok := jSONValue(text); ok && v.Type == t {
			return v, nil
		}
	case designer.SS, designer.NS:
		members := setMembers(text)
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

// setMembers reads ["a", "b"], {a, b} or a, b.
func setMembers(text string) []string {
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

// jSONValue reads a JSON list or object as an L or M value.
func jSONValue(text string) (designer.Value, bool) {
	if !(strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") || strings.HasPrefix(text, "{") && strings.HasSuffix(text, "}")) {
		return designer.Value{}, false
	}
	var raw any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return designer.Value{}, false
	}
	return fromJSON(raw, 0)
}

func fromJSON(raw any, depth int) (designer.Value, bool) {
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
			v, ok := fromJSON(e, depth+1)
			if !ok {
				return designer.Value{}, false
			}
			l = append(l, v)
		}
		return designer.List(l...), true
	case map[string]any:
		m := make(map[string]designer.Value, len(x))
		for k, e := range x {
			v, ok := fromJSON(e, depth+1)
			if !ok {
				return designer.Value{}, false
			}
			m[k] = v
		}
		return designer.Map(m), true
	}
	return designer.Value{}, false
}

func (p *parser) settleIndex(t designer.Table, d *indexDraft) designer.Index {
	ix := d.ix
	if d.desc != "" && !strings.EqualFold(d.desc, "sparse") {
		if ix.Purpose == "" {
			ix.Purpose = d.desc
		} else {
			ix.Purpose = d.desc + " — " + ix.Purpose
		}
	}
	// A sample whose first column has no name gives no key: an attribute needs a name.
	if len(ix.PartitionKey) == 0 && !d.local && !d.pkExact.set && d.sample != nil && len(d.sample.columns) > 0 &&
		strings.TrimSpace(d.sample.columns[0]) != "" {
		ix.PartitionKey = []designer.KeyAttribute{{Name: d.sample.columns[0]}}
		p.note(d.line, "index %s states no partition key; the first column of its sample, %s, was taken", ix.Name, d.sample.columns[0])
	}
	if len(ix.PartitionKey) == 0 && !d.local {
		p.note(d.line, "index %s has no partition key", ix.Name)
	}
	sampleTypes := columnTypes(d.sample)
	stated := statedTypes(p.tables[d.table].t)
	stated[t.PartitionKey.Name] = t.PartitionKey.Type
	if t.SortKey != nil {
		stated[t.SortKey.Name] = t.SortKey.Type
	}
	keyType := func(k designer.KeyAttribute) designer.KeyAttribute {
		if typ := stated[k.Name]; typ != "" {
			k.Type = typ // as the file says, for MOD002 to report a type that is not S, N or B
			return k
		}
		typ := declaredType(t, k.Name)
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
			if typ != "" {
				p.note(d.line, "index %s: the values of key attribute %s read as %s; a key is S, N or B, so S was used", ix.Name, k.Name, typ)
			}
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
		p.note(d.line, "index %s states no projection; ALL was taken, as the export then writes it", ix.Name)
		ix.Projection.Type = designer.All
	}
	return ix
}

// ttlDescribed makes a TTL bullet's explanation the description of the TTL attribute the table
// lists, when it has none: "- **TTL**: expiresAt field for automatic cleanup" describes expiresAt.
// It reports whether the explanation found its place (an empty one needs none).
func ttlDescribed(t *designer.Table, why string) bool {
	if why == "" {
		return true
	}
	a, i, ok := t.AttributeByName(t.TTLAttribute)
	if !ok || a.Description != "" {
		return false
	}
	t.Attributes = slices.Clone(t.Attributes)
	t.Attributes[i].Description = why
	return true
}

// statedTypes are the types a table section writes for its attributes, before any is inferred
// from the sample values.
func statedTypes(t designer.Table) map[string]designer.Type {
	out := make(map[string]designer.Type, len(t.Attributes))
	for _, a := range t.Attributes {
		if a.Type != "" {
			out[a.Name] = a.Type
		}
	}
	return out
}

// declaredType is the type a table gives an attribute through its keys or its attribute list.
func declaredType(t designer.Table, name string) designer.Type {
	if t.PartitionKey.Name == name {
		return t.PartitionKey.Type
	}
	if t.SortKey != nil && t.SortKey.Name == name {
		return t.SortKey.Type
	}
	if a, _, ok := t.AttributeByName(name); ok {
		return a.Type
	}
	return ""
}

// weakMarkers reports whether lower-cased text talks about a DynamoDB key design in a layout
// other than the template's, such as an architecture decision record.
func weakMarkers(lower string) bool {
	return strings.Contains(lower, "dynamodb") && (strings.Contains(lower, "global secondary ind") || strings.Contains(lower, "gsi")) &&
		(strings.Contains(lower, "partition key") || strings.Contains(lower, "sort key"))
}

// looksLikeName reports whether a word is an attribute name rather than an English word: a column
// of the sample table, or a name with "_" or an inner capital.
func looksLikeName(w string, st *sampleDraft) bool {
	w = strings.Trim(w, "`")
	if !attrName().MatchString(w) {
		return false
	}
	if st != nil && slices.Contains(st.columns, w) {
		return true
	}
	return strings.Contains(w, "_") || strings.ToLower(w[1:]) != w[1:]
}

// thematicBreak reports whether an item is only horizontal rules.
func thematicBreak(it markdown.Item) bool {
	for _, l := range it.Lines {
		t := strings.ReplaceAll(strings.TrimSpace(l), " ", "")
		if len(t) < 3 || strings.Trim(t, "-") != "" && strings.Trim(t, "*") != "" && strings.Trim(t, "_") != "" {
			return false
		}
	}
	return it.Kind == markdown.KindText || it.Kind == markdown.KindBullet
}

// Merge makes one design of a requirement document's design and a data model document's:
// the requirements from the first; tables, narrative prose and mapping text from the second; the
// prose sections of both, each marked with the document it came from.
// Patterns are matched by number; a pattern only the data model has is added. The SK taxonomy's
// entity names take the spelling of the requirement's entities where they differ only in case,
// spaces or a plural "s".
func Merge(req, model designer.Design) (designer.Design, []designer.ImportNote) {
	var notes []designer.ImportNote
	d := req
	d.Tables = slices.Clone(model.Tables)
	d.Prose = model.Prose
	// The requirement document holds no capacity settings; the data model does.
	d.Capacity = model.Capacity
	// Each document keeps its own sections and writes only those: the requirement's first, then
	// the data model's, each section once.
	d.Prose.Sections = slices.Concat(req.Prose.Sections, model.Prose.Sections)
	d.Patterns = slices.Clone(req.Patterns)
	for _, mp := range model.Patterns {
		_, i, ok := d.PatternByNumber(mp.Number)
		if !ok {
			mp.ID = ""
			d.Patterns = append(d.Patterns, mp)
			notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("pattern %d is in the Access Pattern Mapping but not in the requirements; it was added", mp.Number)})
			continue
		}
		pt := &d.Patterns[i]
		pt.Mapping.Source, pt.Mapping.Notes, pt.Mapping.Operations = mp.Mapping.Source, mp.Mapping.Notes, mp.Mapping.Operations
		if mp.ConditionalFailurePct != nil {
			pt.ConditionalFailurePct = mp.ConditionalFailurePct
		}
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
			n, ok := names[key(et.Entity)]
			if !ok {
				// "`PROFILE` (the owner)", "`INV#<id>` (one per invoice)": the one entity its words name.
				n, ok = namedIn(et.Description, names, key)
			}
			if ok && n != et.Entity {
				ets[i].Entity = n
				notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("table %s: the SK taxonomy's entity %q is the requirement's entity %s", d.Tables[ti].Name, et.Entity, n)})
			}
		}
		d.Tables[ti].EntityTypes = ets
	}
	notes = append(notes, identifyingKeys(&d)...)
	d, attrNotes := EntityAttributes(d)
	notes = append(notes, attrNotes...)
	return designer.Normalize(d), notes
}

// entityAttributes gives each entity the requirement lists no attributes for the attributes its
// items hold in the data model's tables, with the types the tables declare: the table's keys, and
// the attributes of the sample items of its entity type (all of the table's when the table holds
// one entity type). An entity the requirement lists attributes for keeps those alone: the export
// writes them, so a pair read back gives the same entities. Merge does this; a design read from
// the pair it was exported as is EntityAttributes of that design.
func EntityAttributes(d designer.Design) (designer.Design, []designer.ImportNote) {
	var notes []designer.ImportNote
	listed := map[string]bool{}
	for _, e := range d.Entities {
		listed[e.Name] = len(e.Attributes) > 0
	}
	d.Entities = slices.Clone(d.Entities)
	for _, t := range d.Tables {
		held := map[string]map[string]bool{}
		hold := func(entity, attr string) {
			if held[entity] == nil {
				held[entity] = map[string]bool{}
			}
			held[entity][attr] = true
		}
		match := designer.NewEntityMatcher(t)
		// A key whose template for the entity type is anything but its own value ("PROFILE",
		// "OWNER#{owner_id}") is the table's, not an attribute of the entity.
		keys := map[string]map[string]bool{}
		for _, et := range t.EntityTypes {
			keys[et.Entity] = map[string]bool{t.PartitionKey.Name: ownKey(t.PartitionKey.Name, et.PKTemplate)}
			if t.SortKey != nil {
				keys[et.Entity][t.SortKey.Name] = ownKey(t.SortKey.Name, et.SKTemplate)
			}
		}
		holdUnlessKey := func(entity, attr string) {
			if own, isKey := keys[entity][attr]; !isKey || own {
				hold(entity, attr)
			}
		}
		for _, et := range t.EntityTypes {
			holdUnlessKey(et.Entity, t.PartitionKey.Name)
			if t.SortKey != nil {
				holdUnlessKey(et.Entity, t.SortKey.Name)
			}
			if len(t.EntityTypes) == 1 {
				for _, a := range t.Attributes {
					holdUnlessKey(et.Entity, a.Name)
				}
			}
		}
		if len(t.EntityTypes) > 1 {
			for _, it := range t.Items {
				if e := match.EntityType(it.Item); e != "" {
					for name := range it.Item {
						holdUnlessKey(e, name)
					}
				}
			}
		}
		for ei := range d.Entities {
			attrs := held[d.Entities[ei].Name]
			if len(attrs) == 0 || listed[d.Entities[ei].Name] {
				continue
			}
			e := &d.Entities[ei]
			added := 0
			for _, a := range t.Attributes {
				if !attrs[a.Name] || slices.ContainsFunc(e.Attributes, func(x designer.Attribute) bool { return x.Name == a.Name }) {
					continue
				}
				e.Attributes = append(slices.Clip(e.Attributes), designer.Attribute{Name: a.Name, Type: a.Type, Description: a.Description})
				added++
			}
			if added > 0 {
				notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("entity %s: %s read from the items of table %s", e.Name, countWith(added, "attribute", "attributes"), t.Name)})
			}
		}
	}
	return d, notes
}

// ownKey says whether a key attribute holds the entity's own value: its template is blank or the
// attribute alone.
func ownKey(name, template string) bool {
	return template == "" || template == "{"+name+"}"
}

// identifyingKeys reads what a table's partition key justification says of an identifying
// relationship, as the seed's template asks it to ("owner_id - …; identifying relationship for
// pets"): the consolidation review of the child it names is identifying, and an aggregate
// analysis of the table's entity types with that child gets the answers the table itself gives
// — the child does not exist on its own, and it needs no separate table. Answers the requirement
// gave are kept.
func identifyingKeys(d *designer.Design) []designer.ImportNote {
	var notes []designer.ImportNote
	for _, t := range d.Tables {
		_, after, ok := strings.Cut(strings.ToLower(t.PartitionKeyWhy), "identifying relationship")
		if !ok || strings.Contains(strings.ToLower(t.PartitionKeyWhy), "non-identifying") {
			continue
		}
		words := strings.FieldsFunc(after, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' })
		names := func(entity string) bool {
			e := strings.ToLower(entity)
			return slices.ContainsFunc(words, func(w string) bool { return w == e || markdown.Singular(w) == e })
		}
		inTable := func(entity string) bool {
			return slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return et.Entity == entity })
		}
		for i := range d.Consolidations {
			c := &d.Consolidations[i]
			if c.Identifying != nil || !names(c.Child) || !inTable(c.Child) {
				continue
			}
			yes := true
			d.Consolidations = slices.Clone(d.Consolidations)
			d.Consolidations[i].Identifying = &yes
			notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("table %s: its partition key is an identifying relationship for %s, so the consolidation review %s → %s is identifying", t.Name, c.Child, c.Parent, c.Child)})
		}
		for i, a := range d.Aggregates {
			if !names(a.EntityB) || !inTable(a.EntityA) || !inTable(a.EntityB) {
				continue
			}
			id := a.Identifying
			no := false
			if id.ChildIndependent == nil {
				id.ChildIndependent = &no
			}
			if id.SeparateTablePlanned == nil {
				id.SeparateTablePlanned = &no
			}
			if id == a.Identifying {
				continue
			}
			d.Aggregates = slices.Clone(d.Aggregates)
			d.Aggregates[i].Identifying = id
			notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("table %s: its partition key is an identifying relationship for %s, which lives in the table beside %s; the aggregate analysis %s + %s was answered so (child independent: no; separate table + GSI planned: no)", t.Name, a.EntityB, a.EntityA, a.EntityA, a.EntityB)})
		}
	}
	return notes
}

// namedIn is the one entity of names a word of text names, by key; none or several give false.
func namedIn(text string, names map[string]string, key func(string) string) (string, bool) {
	found := ""
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		n, ok := names[key(w)]
		switch {
		case !ok || n == found:
		case found != "":
			return "", false
		default:
			found = n
		}
	}
	return found, found != ""
}

// countWith writes a count before the singular or plural words that follow it.
func countWith(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
