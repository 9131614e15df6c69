package designer

import (
	"encoding/csv"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// What a person already wrote, read back as rows to add: the overview's list of key entities, and
// rows pasted from a spreadsheet or a markdown document.

// FromKeyEntities reads the overview's key entities (Overview.KeyEntities) and returns what it
// names that the design does not have yet: entities, and relationships written between two names
// with their kind ("User (1:M) Orders", "Order has many OrderItems"). A name is the run of
// capitalised words a list item starts with ("Order Item with its price" is OrderItem), made
// singular (Orders is Order); parenthesised remarks are skipped. An empty change means there is
// nothing new.
func FromKeyEntities(d Design) AddInBulk {
	var c AddInBulk
	known := func(name string) bool {
		if slices.ContainsFunc(d.Entities, func(e Entity) bool { return strings.EqualFold(e.Name, name) }) {
			return true
		}
		return slices.ContainsFunc(c.Entities, func(e BulkEntity) bool { return strings.EqualFold(e.Name, name) })
	}
	// entityNamed is the name an entity has or will have, matched without regard to case.
	entityNamed := func(name string) string {
		for _, e := range d.Entities {
			if strings.EqualFold(e.Name, name) {
				return e.Name
			}
		}
		return name
	}
	add := func(name string) {
		if !known(name) {
			c.Entities = append(c.Entities, BulkEntity{Name: name})
		}
	}
	for _, item := range keyEntityItems(d.Overview.KeyEntities) {
		if item.kind == "" {
			add(item.from)
			continue
		}
		add(item.from)
		add(item.to)
		from, to := entityNamed(item.from), entityNamed(item.to)
		exists := slices.ContainsFunc(d.Relationships, func(r Relationship) bool { return r.From == from && r.To == to })
		listed := slices.ContainsFunc(c.Relationships, func(r map[string]string) bool {
			return r[RelationshipField.From.Key] == from && r[RelationshipField.To.Key] == to
		})
		if !exists && !listed {
			c.Relationships = append(c.Relationships, map[string]string{
				RelationshipField.From.Key: from, RelationshipField.To.Key: to, RelationshipField.Kind.Key: item.kind})
		}
	}
	return c
}

// keyEntityItem is one name of the key entities list, or two with the kind of relationship
// written between them.
type keyEntityItem struct{ from, to, kind string }

// kindMarkers are the ways a relationship's kind is written between two names, longest first.
var kindMarkers = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\(\s*(1\s*:\s*1|1\s*:\s*[MN*]|[MN*]\s*:\s*1|[MN*]\s*:\s*[MN*])\s*\)|\b(1:1|1:[MN]|[MN]:1|[MN]:[MN])\b|\b(has many|have many|has one|has an|has a|belongs to|belong to)\b`)
})

func keyEntityItems(text string) []keyEntityItem {
	// Relationship kinds become a marker word; any other parenthesised remark goes.
	text = kindMarkers().ReplaceAllStringFunc(text, func(m string) string {
		k := strings.ToUpper(strings.Join(strings.Fields(strings.Trim(m, "() ")), ""))
		switch strings.ToLower(strings.Join(strings.Fields(m), " ")) {
		case "has many", "have many":
			k = "1:M"
		case "has one", "has an", "has a":
			k = "1:1"
		case "belongs to", "belong to":
			k = "M:1"
		}
		return " \x00" + k + "\x00 "
	})
	text = withoutRemarks(text)
	var items []keyEntityItem
	for _, seg := range regexp.MustCompile(`[,;\n]|\band\b|&|/`).Split(text, -1) {
		parts := strings.Split(seg, "\x00")
		if len(parts) == 3 {
			from, to := leadingName(lastWords(parts[0])), leadingName(parts[2])
			kind := strings.NewReplacer("N", "M", "*", "M").Replace(parts[1])
			if kind == "M:1" {
				from, to, kind = to, from, OneToMany
			}
			if k, err := ParseRelationshipKind(kind); err == nil && from != "" && to != "" && from != to {
				items = append(items, keyEntityItem{from: from, to: to, kind: k})
				continue
			}
			seg = parts[0] + " " + parts[2]
		}
		if name := leadingName(strings.ReplaceAll(seg, "\x00", " ")); name != "" {
			items = append(items, keyEntityItem{from: name})
		}
	}
	return items
}

// withoutRemarks drops parenthesised and bracketed text, nested or not.
func withoutRemarks(s string) string {
	var sb strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(' || r == '[':
			depth++
		case (r == ')' || r == ']') && depth > 0:
			depth--
		case depth == 0:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// lastWords is the trailing run of capitalised words of s, where a name written before a
// relationship's kind is found ("Each User" is User).
func lastWords(s string) string {
	words := strings.Fields(s)
	i := len(words)
	for i > 0 && capitalised(cleanWord(words[i-1])) {
		i--
	}
	return strings.Join(words[i:], " ")
}

// leadingName is the entity name s starts with: its leading run of capitalised words, joined and
// made singular; "" when s does not start with one.
func leadingName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "-*•+ \t")
	if i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }); i > 0 && strings.HasPrefix(s[i:], ".") {
		s = s[i+1:]
	}
	words := strings.Fields(s)
	for len(words) > 0 && slices.Contains([]string{"a", "an", "the", "each", "every", "many", "one"}, strings.ToLower(words[0])) {
		words = words[1:]
	}
	var name strings.Builder
	for _, w := range words {
		w = cleanWord(w)
		if !capitalised(w) {
			break
		}
		name.WriteString(w)
	}
	if name.Len() == 0 || utf8.RuneCountInString(name.String()) > 64 {
		return ""
	}
	return singular(name.String())
}

// cleanWord strips the punctuation and markdown around a word.
func cleanWord(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
}

// capitalised reports whether w is a word starting with a capital letter and holding only
// letters, digits and underscores.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) {
		return false
	}
	return !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
}

// singular makes the last word of an English CamelCase name singular: Categories is Category,
// Addresses Address, OrderItems OrderItem; Status and Address stay.
func singular(name string) string {
	lower := strings.ToLower(name)
	switch {
	case len(name) <= 3:
		return name
	case strings.HasSuffix(lower, "ies"):
		return name[:len(name)-3] + "y"
	case strings.HasSuffix(lower, "sses"), strings.HasSuffix(lower, "xes"), strings.HasSuffix(lower, "ches"),
		strings.HasSuffix(lower, "shes"), strings.HasSuffix(lower, "zzes"):
		return name[:len(name)-2]
	case strings.HasSuffix(lower, "ss"), strings.HasSuffix(lower, "us"), strings.HasSuffix(lower, "is"):
		return name
	case strings.HasSuffix(lower, "s"):
		return name[:len(name)-1]
	}
	return name
}

// BulkHints are header rows of each kind of block, as the paste box offers them for example.
var BulkHints = []string{"Entity | Attribute | Type", "From | Kind | To | Average | Maximum", "# | Description | Type | Peak RPS | Avg RPS | Entities"}

// BulkProblem is a pasted line that adds nothing, and why. Line counts from 1.
type BulkProblem struct {
	Line    int
	Text    string
	Message string
}

// BulkPaste is what ParseBulk read: the change adding every row it could read, the lines it
// could not, in the order of the text, and the lines of attributes the design has already, with
// the same type, which add nothing and need nothing done.
type BulkPaste struct {
	Change   AddInBulk
	Problems []BulkProblem
	Already  []int
	// Merged are the lines that fill in, or differ from, a row the design has.
	Merged []BulkMerge
}

// BulkMerge is a pasted line that merges into a row the design has: Row names that row, Fills
// the fields it fills in ("average count 4 per year"), Conflicts those where both hold a value.
type BulkMerge struct {
	Line      int
	Text, Row string
	Fills     []string
	Conflicts []BulkConflict
	// at is the line's row in the change: its list and index, or for an entity its name.
	at bulkRowAt
}

type bulkRowAt struct {
	list string
	i    int
	name string
}

// BulkConflict is a field where the design and a pasted line disagree; key is the field's key, or
// for an attribute's type the attribute's name.
type BulkConflict struct {
	Field, Ours, Theirs string
	key                 string
}

// Taking is the change that, where the paste and the design differ, takes the pasted value on
// the lines given and keeps the design's on every other: the team's choice, line by line. The
// lines kept lose their differing values, so the change holds exactly what it writes.
func (p BulkPaste) Taking(lines []int) AddInBulk {
	c := p.Change
	c.Replace = true
	c.Entities = slices.Clone(c.Entities)
	c.Relationships = slices.Clone(c.Relationships)
	c.Patterns = slices.Clone(c.Patterns)
	for _, m := range p.Merged {
		if len(m.Conflicts) == 0 || slices.Contains(lines, m.Line) {
			continue
		}
		switch m.at.list {
		case "relationships", "access_patterns":
			rows := c.Relationships
			if m.at.list == "access_patterns" {
				rows = c.Patterns
			}
			row := maps.Clone(rows[m.at.i])
			for _, k := range m.Conflicts {
				delete(row, k.key)
			}
			rows[m.at.i] = row
		case "entities":
			i := slices.IndexFunc(c.Entities, func(e BulkEntity) bool { return e.Name == m.at.name })
			if i < 0 {
				continue
			}
			e := c.Entities[i]
			e.Attributes = slices.Clone(e.Attributes)
			for j, a := range e.Attributes {
				if slices.ContainsFunc(m.Conflicts, func(k BulkConflict) bool { return k.key == a.Name }) {
					e.Attributes[j].Type = ""
				}
			}
			c.Entities[i] = e
		}
	}
	return c
}

// PatternReader reads a pasted pattern row's cells (by field key, as bulkColumns names them) into
// the field texts AddInBulk takes, given the design as it stands with the paste's entities; the
// requirement format supplies the one its import uses.
type PatternReader func(cells map[string]string, d Design) map[string]string

// mergeOf is the merge of row into r, and whether it changes nothing.
func mergeOf[R any](d Design, fields []Field[R], r R, row map[string]string, line int, text, name string) (BulkMerge, bool) {
	m := BulkMerge{Line: line, Text: text, Row: name}
	for _, f := range RowMerge(d, fields, r, row) {
		if f.Ours == "" {
			m.Fills = append(m.Fills, f.Field.Label+" "+f.Theirs)
		} else {
			m.Conflicts = append(m.Conflicts, BulkConflict{Field: f.Field.Label, Ours: f.Ours, Theirs: f.Theirs, key: f.Field.Key})
		}
	}
	return m, len(m.Fills)+len(m.Conflicts) == 0
}

// ParseBulkWith reads rows pasted from a spreadsheet (TSV) or a markdown document (pipe tables)
// into one AddInBulk against d, each row with the readers given. The text is one or more blocks, each a header row and its rows, ended
// by a blank line or a markdown heading. The header says what the block holds:
//
//   - entities: an Entity column, with Attribute (a name, or a list such as "id:S, total:N"),
//     Type and Description columns as wanted; one row per attribute, or per entity;
//   - relationships: From and To (or Parent and Child), with Kind, Average, Maximum, Notes;
//   - access patterns: a # or Pattern column, or Peak RPS, or Description without Entity; the
//     requirement template's columns are read, "RPS (Peak and Average)" as two numbers.
//
// Every row is checked as the one-row changes would check it, in the order the change applies
// them (entities, relationships, patterns); a row that is refused, a column that is not read and a
// block whose header says nothing known are problems, and the rest is added.
// BulkReaders are the document formats' readers of pasted rows, so that a paste reads what an
// import reads: Entity reads an entity row's cells (entity, attribute, type, description), and
// without it an entity row is a problem; Pattern reads a pattern row's cells; Relationship reads
// a line outside any table (the requirement's "- **Owner → Pets**: 1:Many (avg 1.6 pets per owner,
// max 12)") into a relationship's field texts, or says it is none.
type BulkReaders struct {
	Entity       func(cells map[string]string) (BulkEntity, error)
	Pattern      PatternReader
	Relationship func(line string, d Design) (map[string]string, bool)
}

func ParseBulkWith(text string, d Design, readers BulkReaders) BulkPaste {
	read := readers.Pattern
	var out BulkPaste
	var ents, rels, pats []bulkRow
	var block *bulkHeader
	for i, raw := range strings.Split(strings.ReplaceAll(strings.TrimPrefix(text, "\uFEFF"), "\r\n", "\n"), "\n") {
		line := i + 1
		trimmed := strings.TrimSpace(raw)
		switch {
		case trimmed == "":
			block = nil
			continue
		case markdownHeading(trimmed):
			block = nil
			continue
		case separatorRow(trimmed):
			continue
		}
		if block == nil {
			if readers.Relationship != nil {
				if cells, ok := readers.Relationship(trimmed, d); ok {
					rels = append(rels, bulkRow{line: line, text: trimmed, cells: cells})
					continue
				}
			}
			h, problems := readHeader(splitCells(raw, rowFormat(trimmed)), line, trimmed)
			h.format = rowFormat(trimmed)
			out.Problems = append(out.Problems, problems...)
			if h.kind != "" {
				block = &h
			}
			continue
		}
		cells := splitCells(raw, block.format)
		row := bulkRow{line: line, text: trimmed, cells: map[string]string{}}
		for j, cell := range cells {
			if j < len(block.keys) && block.keys[j] != "" && cell != "" {
				row.cells[block.keys[j]] = cell
			}
		}
		if len(row.cells) == 0 {
			continue
		}
		switch block.kind {
		case "entities":
			ents = append(ents, row)
		case "relationships":
			rels = append(rels, row)
		case "patterns":
			pats = append(pats, row)
		}
	}
	cur := d
	var problems []BulkProblem
	try := func(row bulkRow, c AddInBulk, keep func()) {
		next, err := c.Apply(cur)
		if err != nil {
			problems = append(problems, BulkProblem{Line: row.line, Text: row.text, Message: bulkMessage(err)})
			return
		}
		cur = next
		keep()
	}
	for _, row := range ents {
		if readers.Entity == nil {
			problems = append(problems, BulkProblem{Line: row.line, Text: row.text, Message: "entity rows are not read here"})
			continue
		}
		e, err := readers.Entity(row.cells)
		if err != nil {
			problems = append(problems, BulkProblem{Line: row.line, Text: row.text, Message: err.Error()})
			continue
		}
		if have, _, ok := cur.EntityByName(strings.TrimSpace(e.Name)); ok {
			m := BulkMerge{Line: row.line, Text: row.text, Row: "entity " + have.Name, at: bulkRowAt{list: "entities", name: have.Name}}
			e.Attributes = slices.DeleteFunc(e.Attributes, func(a BulkAttribute) bool {
				got, _, ok := have.AttributeByName(a.Name)
				if ok && a.Type != "" && got.Type != a.Type {
					m.Conflicts = append(m.Conflicts, BulkConflict{Field: "type of " + got.Name, Ours: string(got.Type), Theirs: string(a.Type), key: got.Name})
				}
				return ok && (got.Type == a.Type || a.Type == "")
			})
			if len(m.Conflicts) > 0 {
				out.Merged = append(out.Merged, m)
			}
			if len(e.Attributes) == 0 && (e.Description == "" || have.Description != "") {
				if len(m.Conflicts) == 0 {
					out.Already = append(out.Already, row.line)
				}
				continue
			}
		}
		try(row, AddInBulk{Entities: []BulkEntity{e}}, func() { out.Change.Entities = mergeEntity(out.Change.Entities, e) })
	}
	// merged records a row that merges into one the design has, or skips one it has already.
	merged := func(m BulkMerge, same bool) bool {
		if same {
			out.Already = append(out.Already, m.Line)
			return true
		}
		out.Merged = append(out.Merged, m)
		return false
	}
	// at tells the line merged last, if mi is it, where its row went in the change.
	at := func(mi int, list string, i int) {
		if mi >= 0 {
			out.Merged[mi].at = bulkRowAt{list: list, i: i}
		}
	}
	for _, row := range rels {
		mi := -1
		if i := SameRelationship(cur, row.cells); i >= 0 {
			r := cur.Relationships[i]
			if merged(mergeOf(cur, RelationshipFields, r, row.cells, row.line, row.text, "relationship "+r.From+" "+r.Kind+" "+r.To)) {
				continue
			}
			mi = len(out.Merged) - 1
		}
		try(row, AddInBulk{Relationships: []map[string]string{row.cells}}, func() {
			out.Change.Relationships = append(out.Change.Relationships, row.cells)
			at(mi, "relationships", len(out.Change.Relationships)-1)
		})
	}
	for _, row := range pats {
		cells := patternCells(row.cells)
		if read != nil {
			cells = read(cells, cur)
		}
		mi := -1
		if i := SamePattern(cur, cells); i >= 0 {
			p := cur.Patterns[i]
			if merged(mergeOf(cur, PatternFields, p, cells, row.line, row.text, "pattern "+strconv.Itoa(p.Number))) {
				continue
			}
			mi = len(out.Merged) - 1
		}
		try(row, AddInBulk{Patterns: []map[string]string{cells}}, func() {
			out.Change.Patterns = append(out.Change.Patterns, cells)
			at(mi, "access_patterns", len(out.Change.Patterns)-1)
		})
	}
	out.Problems = append(out.Problems, problems...)
	slices.SortStableFunc(out.Problems, func(a, b BulkProblem) int { return a.Line - b.Line })
	return out
}

// bulkMessage words a refused row: the field at fault, without the row's own path.
func bulkMessage(err error) string {
	ve, ok := err.(*ValidationError)
	if !ok {
		return err.Error()
	}
	parts := strings.Split(ve.Field, "/")
	field := parts[len(parts)-1]
	return strings.ReplaceAll(field, "_", " ") + ": " + ve.Message
}

type bulkRow struct {
	line  int
	text  string
	cells map[string]string
}

// bulkHeader is a block's header: what the block holds, and the field key of each column ("" for
// a column not read).
type bulkHeader struct {
	kind   string
	keys   []string
	format byte
}

// Column names as people write them (lower case, punctuation as spaces) and the key each is read
// as, per kind of block. "rps" is a pattern's peak and average rates in one cell.
var bulkColumns = map[string]map[string]string{
	"entities": {
		"entity": "entity", "entity name": "entity", "attribute": "attribute", "attribute name": "attribute",
		"attributes": "attribute", "name": "attribute", "type": "type", "attribute type": "type", "dynamodb type": "type",
		"description": "description", "entity description": "description",
	},
	"relationships": {
		"from": "from", "from entity": "from", "parent": "from", "entity a": "from", "to": "to", "to entity": "to",
		"child": "to", "entity b": "to", "kind": "kind", "relationship": "kind", "cardinality": "kind", "type": "kind",
		"avg": "avg_count", "average": "avg_count", "avg count": "avg_count", "average count": "avg_count",
		"max": "max_count", "maximum": "max_count", "max count": "max_count", "maximum count": "max_count",
		"notes": "notes", "note": "notes", "description": "notes",
	},
	"patterns": {
		"#": "number", "pattern #": "number", "pattern": "number", "pattern number": "number", "number": "number",
		"no": "number", "ap": "number", "description": "description", "access pattern": "description",
		"pattern description": "description", "type": "type", "read write": "type", "peak rps": "peak_rps",
		"peak": "peak_rps", "rps peak": "peak_rps", "avg rps": "avg_rps", "average rps": "avg_rps", "avg": "avg_rps",
		"average": "avg_rps", "rps avg": "avg_rps", "rps": "rps", "rps peak and average": "rps", "rps peak avg": "rps",
		"rps peak average": "rps", "attributes": "attributes", "attributes needed": "attributes", "latency": "latency_slo",
		"latency slo": "latency_slo", "slo": "latency_slo", "consistency": "consistency", "result bound": "result_bound",
		"results": "result_bound", "result size": "result_bound", "item size": "item_size_band",
		"item size band": "item_size_band", "size": "item_size_band", "key requirements": "key_notes",
		"key notes": "key_notes", "design considerations": "considerations", "considerations": "considerations",
		"notes": "considerations", "status": "status", "entities": "entities", "entity": "entities",
	},
}

// columnName is a header cell as bulkColumns spells it.
func columnName(cell string) string {
	cell = strings.ToLower(strings.Trim(cell, "*_` "))
	cell = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '#' {
			return r
		}
		return ' '
	}, cell)
	return strings.Join(strings.Fields(cell), " ")
}

// readHeader reads a block's header row. Its kind is "" when the row is no header known; the
// problems name the row then, or each column not read.
func readHeader(cells []string, line int, text string) (bulkHeader, []BulkProblem) {
	names := make([]string, len(cells))
	has := map[string]bool{}
	for i, c := range cells {
		names[i] = columnName(c)
		has[names[i]] = true
	}
	hasAny := func(cols ...string) bool { return slices.ContainsFunc(cols, func(c string) bool { return has[c] }) }
	var h bulkHeader
	switch {
	case hasAny("from", "parent", "from entity", "entity a") && hasAny("to", "child", "to entity", "entity b"):
		h.kind = "relationships"
	case hasAny("#", "pattern #", "pattern", "pattern number", "peak rps", "rps", "rps peak and average", "access pattern"),
		has["description"] && !hasAny("entity", "entity name", "attribute", "attribute name", "attributes"):
		h.kind = "patterns"
	case hasAny("entity", "entity name"):
		h.kind = "entities"
	default:
		return h, []BulkProblem{{Line: line, Text: text, Message: "not a header row this paste knows; start each block with one, such as " +
			"Entity | Attribute | Type, or From | Kind | To | Average | Maximum, or # | Description | Type | Peak RPS | Avg RPS"}}
	}
	var problems []BulkProblem
	h.keys = make([]string, len(cells))
	for i, n := range names {
		key, ok := bulkColumns[h.kind][n]
		if !ok && n != "" {
			problems = append(problems, BulkProblem{Line: line, Text: text, Message: "column " + strconv.Quote(strings.TrimSpace(cells[i])) + " is not read"})
			continue
		}
		if slices.Contains(h.keys, key) {
			problems = append(problems, BulkProblem{Line: line, Text: text, Message: "column " + strconv.Quote(strings.TrimSpace(cells[i])) + " repeats an earlier one and is not read"})
			continue
		}
		h.keys[i] = key
	}
	return h, problems
}

// separatorRow reports whether a line is a markdown table's |---|:--:| row.
func separatorRow(s string) bool {
	return strings.Contains(s, "-") && strings.Trim(s, "|-: \t") == ""
}

// markdownHeading reports whether a line is a markdown heading ("## Entities"), not a header row
// whose first column is "#".
func markdownHeading(s string) bool {
	level := len(s) - len(strings.TrimLeft(s, "#"))
	return level > 0 && level <= 6 && (len(s) == level || s[level] == ' ') && !strings.ContainsAny(s, "|\t")
}

// rowFormat tells how a block's header row separates its cells: '\t' for a spreadsheet's tabs,
// '|' for a markdown table (outer pipes or not), ',' for CSV, 0 for one cell.
func rowFormat(header string) byte {
	for _, sep := range []byte{'\t', '|', ','} {
		if strings.IndexByte(header, sep) >= 0 {
			return sep
		}
	}
	return 0
}

// splitCells splits a row into cells as its block's format says: at tabs; at the pipes of a
// markdown row ("\|" is a pipe inside a cell, "<br>" a line break); as a CSV record; or not.
func splitCells(line string, format byte) []string {
	switch format {
	case '\t':
		cells := strings.Split(line, "\t")
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
		}
		return cells
	case ',':
		r := csv.NewReader(strings.NewReader(line))
		r.LazyQuotes, r.TrimLeadingSpace = true, true
		cells, err := r.Read()
		if err != nil {
			return []string{strings.TrimSpace(line)}
		}
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
		}
		return cells
	case '|':
	default:
		return []string{strings.TrimSpace(line)}
	}
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = strings.TrimSuffix(t, "|")
	}
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\' && i+1 < len(t) && t[i+1] == '|':
			cell.WriteByte('|')
			i++
		case t[i] == '|':
			cells = append(cells, cell.String())
			cell.Reset()
		default:
			cell.WriteByte(t[i])
		}
	}
	cells = append(cells, cell.String())
	br := strings.NewReplacer("<br>", "\n", "<br/>", "\n", "<br />", "\n")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(br.Replace(c))
	}
	return cells
}

// mergeEntity adds e to list, joining the attributes of an entity listed already.
func mergeEntity(list []BulkEntity, e BulkEntity) []BulkEntity {
	i := slices.IndexFunc(list, func(have BulkEntity) bool { return have.Name == e.Name })
	if i < 0 {
		return append(list, e)
	}
	have := list[i]
	if have.Description == "" {
		have.Description = e.Description
	}
	have.Attributes = append(slices.Clip(have.Attributes), e.Attributes...)
	list[i] = have
	return list
}

var rpsNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d[\d,]*(?:\.\d+)?\s*[kK]?`) })

// patternCells turns a pattern row's cells into field texts: a pattern number without its "AP"
// or "#", and the combined rates cell into the peak and average fields.
func patternCells(cells map[string]string) map[string]string {
	out := make(map[string]string, len(cells))
	for k, v := range cells {
		switch k {
		case "rps":
			nums := rpsNumber().FindAllString(v, 2)
			if len(nums) > 0 && cells["peak_rps"] == "" {
				out["peak_rps"] = strings.TrimSpace(nums[0])
			}
			if len(nums) > 1 && cells["avg_rps"] == "" {
				out["avg_rps"] = strings.TrimSpace(nums[1])
			}
			if len(nums) == 0 {
				out["peak_rps"] = v
			}
		case "number":
			out[k] = strings.TrimLeft(strings.TrimSpace(v), "#APap ")
		default:
			out[k] = v
		}
	}
	return out
}
