package freeform

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// opWord finds an operation a pattern's text names, in DynamoDB's spelling or boto3's.
var opWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(GetItem|Query|Scan|PutItem|UpdateItem|DeleteItem|BatchGetItem|BatchWriteItem|TransactGetItems|TransactWriteItems|get_item|put_item|update_item|delete_item|batch_get_item|batch_write_item|transact_get_items|transact_write_items)\b`)
})

// splitPattern cuts "Get user by id: GetItem on Users" (or with " — ", " – ", " - ") into the
// pattern's description and the text that says how it is served, outside backticks.
func splitPattern(t string) (string, string, bool) {
	best, size := -1, 0
	for _, sep := range []string{": ", " — ", " – ", " - "} {
		if i := indexOutsideCode(t, sep); i > 0 && (best < 0 || i < best) {
			best, size = i, len(sep)
		}
	}
	if best < 0 {
		return t, "", false
	}
	return strings.TrimSpace(t[:best]), strings.TrimSpace(t[best+size:]), true
}

func indexOutsideCode(s, sep string) int {
	in := false
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			in = !in
			continue
		}
		if !in && strings.HasPrefix(s[i:], sep) {
			return i
		}
	}
	return -1
}

// patternLine reads a line of an access-pattern list. A line that starts no entry, or an entry
// that names neither a pattern and its operation nor anything after a separator, belongs to the
// pattern before it.
func (r *reader) patternLine(t string, n int, start bool) {
	t = strings.TrimSpace(numbering().ReplaceAllString(t, ""))
	desc, how, split := splitPattern(t)
	if k := len(r.patterns); k > 0 && (!start || !split && !opWord().MatchString(t)) {
		r.patterns[k-1].notes = append(r.patterns[k-1].notes, t)
		r.note(n, "kept in the notes of access pattern %d", k)
		return
	}
	if !split {
		how = t
	}
	r.patterns = append(r.patterns, patternDraft{line: n, description: plain(desc), how: how, entity: r.entity})
}

// plain is cell or list text without its emphasis and escapes, on one line.
func plain(s string) string {
	return strings.Join(strings.Fields(markdown.Unmark.Replace(markdown.Unescape(s))), " ")
}

var (
	patternHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`access pattern|^pattern|use case|^description$|^operation$`)
	})
	entityHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`entity|^item|^type$|^name$|record`) })
)

// tableItem reads a markdown table: a list of access patterns, or a key table with one row per
// entity type and a column per key attribute.
func (r *reader) tableItem(it markdown.Item) {
	var rows [][]string
	for _, l := range it.Lines {
		rows = append(rows, markdown.SplitRow(l))
	}
	if len(rows) < 2 || !markdown.IsSeparatorRow(rows[1]) {
		return
	}
	header := make([]string, len(rows[0]))
	for i, c := range rows[0] {
		header[i] = markdown.HeaderName(c)
	}
	patternCol, keyCols := -1, 0
	for i, h := range header {
		if patternCol < 0 && patternHeader().MatchString(h) {
			patternCol = i
		}
		if h == "pk" || h == "partition key" || keyish(h) {
			keyCols++
		}
	}
	switch {
	case keyCols > 0 && !strings.Contains(strings.Join(header, " "), "access pattern"):
		r.keyTable(it, rows[0], header, rows[2:])
	case patternCol >= 0 || r.headingAP || r.labelAP:
		r.patternTable(it, rows[0], max(patternCol, 0), rows[2:])
	}
}

func (r *reader) patternTable(it markdown.Item, header []string, col int, rows [][]string) {
	for i, row := range rows {
		if col >= len(row) || plain(row[col]) == "" {
			continue
		}
		p := patternDraft{line: it.Line + 2 + i, description: plain(row[col])}
		for j, cell := range row {
			if j == col || strings.TrimSpace(cell) == "" {
				continue
			}
			if p.how == "" && (strings.ContainsAny(cell, "`=") || opWord().MatchString(cell)) {
				p.how = cell
			}
			h := ""
			if j < len(header) {
				h = plain(header[j]) + ": "
			}
			p.notes = append(p.notes, h+cell)
		}
		r.patterns = append(r.patterns, p)
	}
}

func (r *reader) keyTable(it markdown.Item, rawHeader, header []string, rows [][]string) {
	entityCol := -1
	for i, h := range header {
		if entityCol < 0 && entityHeader().MatchString(h) && !keyish(h) {
			entityCol = i
		}
	}
	attr := func(i int) string {
		name := plain(rawHeader[i])
		switch header[i] {
		case "partition key":
			return "PK"
		case "sort key":
			return "SK"
		}
		return name
	}
	for i, row := range rows {
		n := it.Line + 2 + i
		et := entityTypeDraft{line: n, entity: r.entity}
		if entityCol >= 0 && entityCol < len(row) {
			et.entity = entityName(plain(row[entityCol]))
		}
		for j, cell := range row {
			if j >= len(header) || j == entityCol {
				continue
			}
			v := strings.Trim(plain(cell), "`")
			if v == "" || v == "-" || strings.EqualFold(v, "none") || strings.EqualFold(v, "n/a") {
				continue
			}
			name := attr(j)
			if !keyish(name) && header[j] != "partition key" && header[j] != "sort key" {
				continue
			}
			if r.isTableKey(name) || header[j] == "partition key" || header[j] == "sort key" {
				r.keyDefinition(name, map[bool]string{true: "sort", false: "partition"}[sortRole(name)], "", n)
				if sortRole(name) {
					et.sk = v
				} else {
					et.pk = v
				}
				continue
			}
			ixName := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(name, "PK"), "SK"), "_")
			if ixName == "" {
				continue
			}
			ix := r.index(ixName, "", "", false, n)
			r.indexKey(ix, name, sortRole(name), "")
			et.index = append(et.index, indexTemplate{ix, name, v})
		}
		if et.pk != "" {
			r.addEntityType(et)
		}
	}
}

// keyCond is one comparison a pattern's text makes on a key attribute.
type keyCond struct {
	attr, op string
	values   []string
}

// word is a name as the text of a pattern writes it: a table, an index or an attribute.
var word = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_.-]+`) })

var condAt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b([A-Za-z][A-Za-z0-9_]*)\s*(<=|>=|=|<|>|\bbegins_with\b|\bbegins with\b|\bbetween\b)\s*`)
})

// conditions finds the comparisons text makes on the given key attributes.
func conditions(text string, keys map[string]bool) []keyCond {
	text = strings.ReplaceAll(text, "`", "")
	var out []keyCond
	for _, m := range condAt().FindAllStringSubmatchIndex(text, -1) {
		attr := text[m[2]:m[3]]
		if !keys[attr] {
			continue
		}
		op := strings.ToLower(strings.ReplaceAll(text[m[4]:m[5]], " ", "_"))
		rest := text[m[1]:]
		c := keyCond{attr: attr, op: op}
		if op == "between" {
			lo, hi, ok := cutFold(rest, " and ")
			if !ok {
				continue
			}
			c.values = []string{valueToken(lo), valueToken(hi)}
		} else {
			c.values = []string{valueToken(rest)}
		}
		if c.values[0] == "" {
			continue
		}
		out = append(out, c)
	}
	return out
}

func cutFold(s, sep string) (string, string, bool) {
	i := strings.Index(strings.ToLower(s), sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// valueToken is the value a comparison's text starts with: up to white space, a comma or a
// closing bracket, without quotes.
func valueToken(s string) string {
	s = strings.TrimSpace(s)
	end := strings.IndexAny(s, " \t,)")
	if end >= 0 {
		s = s[:end]
	}
	return strings.Trim(s, `"'.;`)
}

// names finds what a pattern's words name: a table by its name, an index by its name or alias
// (the "GSI1" of ExactMatchIndex) or by a key attribute only it has (GSI1PK).
type names struct {
	tables  map[string]int
	indexes []map[string]string // per table: name, alias or key attribute → index name
}

func newNames(tables []designer.Table, drafts []*tableDraft) names {
	n := names{tables: map[string]int{}}
	for i, t := range tables {
		n.tables[t.Name] = i
		byWord, byKey := map[string]string{}, map[string]string{}
		for _, ix := range drafts[i].indexes {
			if ix.alias != "" {
				byWord[ix.alias] = ix.name
			}
		}
		for _, ix := range append(slices.Clone(t.GSIs), t.LSIs...) {
			byWord[ix.Name] = ix.Name
			for _, k := range append(slices.Clone(ix.PartitionKey), ix.SortKey...) {
				if _, taken := byKey[k.Name]; !taken && keyish(k.Name) && !isKeyOf(t, k.Name) {
					byKey[k.Name] = ix.Name
				}
			}
		}
		for k, ix := range byKey {
			if _, ok := byWord[k]; !ok {
				byWord[k] = ix
			}
		}
		n.indexes = append(n.indexes, byWord)
	}
	return n
}

// index is the index of table i the words name, or "".
func (n names) index(i int, words []string) string {
	for _, w := range words {
		if ix, ok := n.indexes[i][w]; ok {
			return ix
		}
	}
	return ""
}

// operation reads how a pattern is served: the operation it names (or the one its key
// conditions imply), the table and index, and the key condition; what it cannot place stays in
// the notes. It returns the operation, whether there is one, and what it says about the reading.
func operation(p patternDraft, tables []designer.Table, n names) (designer.Operation, bool, string) {
	text := p.how
	if text == "" {
		text = p.description
	}
	var op designer.Operation
	said := ""
	if m := opWord().FindString(text); m != "" {
		op.Op = opName(m)
	}
	// The table: the one the text names, else the one whose index or key attributes it uses.
	ti := -1
	words := word().FindAllString(strings.ReplaceAll(text, "`", " "), -1)
	for _, w := range words {
		if i, ok := n.tables[w]; ok {
			ti = i
		}
	}
	if ti < 0 {
		for i := range tables {
			if n.index(i, words) != "" {
				ti = i
				break
			}
		}
	}
	if ti < 0 && len(tables) > 0 {
		ti = 0
	}
	if ti < 0 {
		return op, op.Op != "", said
	}
	t := tables[ti]
	op.Index = n.index(ti, words)
	pk, sk := t.PartitionKey.Name, ""
	if t.SortKey != nil {
		sk = t.SortKey.Name
	}
	if op.Index != "" {
		ix, local, _, _ := t.IndexByName(op.Index)
		if len(ix.PartitionKey) > 0 {
			pk = ix.PartitionKey[0].Name
		} else if !local {
			pk = ""
		}
		sk = ""
		if len(ix.SortKey) > 0 {
			sk = ix.SortKey[0].Name
		}
	}
	conds := conditions(text, map[string]bool{pk: pk != "", sk: sk != ""})
	var pkc, skc *keyCond
	for i := range conds {
		if conds[i].attr == pk && pkc == nil && conds[i].op == "=" {
			pkc = &conds[i]
		} else if conds[i].attr == sk && skc == nil {
			skc = &conds[i]
		}
	}
	if op.Op == "" {
		switch {
		case op.Index != "" && pkc != nil:
			op.Op, said = "Query", "read as a Query: the text gives the index's partition key"
		case pkc != nil && (sk == "" || skc != nil && skc.op == "=") && op.Index == "":
			op.Op = "GetItem"
			if w := writeVerb(p.description); w != "" {
				op.Op = w
			}
			said = "read as a " + op.Op + ": the text gives the whole key"
			if op.Op != "GetItem" {
				said += " and the pattern's name says it writes"
			}
		case pkc != nil:
			op.Op, said = "Query", "read as a Query: the text gives the partition key"
		case writeVerb(p.description) != "":
			op.Op = writeVerb(p.description)
			said = "read as a " + op.Op + " from the pattern's name"
		}
	}
	if op.Op == "" {
		return op, false, said
	}
	// A read or write of one item listed under an entity whose key the document gives, stating no
	// key values of its own ("Update job status: UpdateItem" under Job, PK JOB#{jobId}, SK
	// METADATA): the item's key is the entity's.
	if wholeKeyOp(op.Op) && op.Index == "" && (pkc == nil || len(pkc.values) == 0) && skc == nil {
		if et, ok := entityKey(t, p.entity); ok {
			pkc = &keyCond{attr: pk, op: "=", values: []string{et.PKTemplate}}
			if sk != "" {
				skc = &keyCond{attr: sk, op: "=", values: []string{et.SKTemplate}}
			}
			if said != "" {
				said += "; "
			}
			said += "the key is " + p.entity + "'s, as the pattern is listed under it"
		}
	}
	// A key attribute named without a value ("Query GSI5 with GSI_COMP_PK", "UpdateItem on
	// PK/SK") is a condition on it whose value the document does not give.
	if pkc == nil && pk != "" && slices.Contains(words, pk) {
		pkc = &keyCond{attr: pk, op: "="}
		if skc == nil && sk != "" && slices.Contains(words, sk) {
			skc = &keyCond{attr: sk, op: "="}
		}
		if said != "" {
			said += "; "
		}
		said += "the text names the key, not its values"
	}
	op.Table = t.Name
	var parts []string
	var templates []string
	add := func(c *keyCond) {
		name := "#" + strings.ToLower(c.attr)
		op.Names = setName(op.Names, name, c.attr)
		phs := []string{":" + strings.ToLower(c.attr)} // the one placeholder of a key named without a value
		if len(c.values) > 0 {
			phs = nil
		}
		for i, v := range c.values {
			ph := ":" + strings.ToLower(c.attr)
			if len(c.values) > 1 {
				ph += []string{"_from", "_to"}[i]
			}
			phs = append(phs, ph)
			if strings.ContainsAny(v, "{<") {
				templates = append(templates, ph+" stands for "+v)
				continue
			}
			if op.Values == nil {
				op.Values = map[string]designer.Value{}
			}
			op.Values[ph] = designer.Str(v)
		}
		switch c.op {
		case "begins_with":
			parts = append(parts, fmt.Sprintf("begins_with(%s, %s)", name, phs[0]))
		case "between":
			parts = append(parts, fmt.Sprintf("%s BETWEEN %s AND %s", name, phs[0], phs[1]))
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", name, c.op, phs[0]))
		}
	}
	if pkc != nil && op.Op != "Scan" {
		add(pkc)
		if skc != nil {
			add(skc)
		}
	}
	op.KeyCondition = strings.Join(parts, " AND ")
	if len(templates) > 0 {
		op.Notes = "The document gives templates, not values: " + strings.Join(templates, "; ") + "."
	}
	readOptions(&op, text)
	return op, true, said
}

// moreOperations are the operations a pattern's text names after its first ("GetItem then
// UpdateItem", "PutItem + UpdateItem"), on the first one's table; the key conditions the text
// gives belong to the first.
func moreOperations(p patternDraft, first designer.Operation) []designer.Operation {
	text := p.how
	if text == "" {
		text = p.description
	}
	var out []designer.Operation
	seen := map[string]bool{first.Op: true}
	for _, w := range opWord().FindAllString(text, -1) {
		if o := opName(w); !seen[o] {
			seen[o] = true
			out = append(out, designer.Operation{Op: o, Table: first.Table})
		}
	}
	return out
}

var (
	limitOption = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bLimit\s*[=:]?\s*(\d{1,9})\b`) })
	newestFirst = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)ScanIndexForward\s*[=:]\s*false|\bnewest first\b|\bdescending\b|\blatest first\b`)
	})
	strongRead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)ConsistentRead\s*[=:]\s*true|\bstrongly consistent\b`)
	})
)

// readOptions reads the options a read states in words or as DynamoDB's parameters: a Limit,
// newest first, a strongly consistent read.
func readOptions(op *designer.Operation, text string) {
	if op.Op != "Query" && op.Op != "Scan" && op.Op != "GetItem" {
		return
	}
	if m := limitOption().FindStringSubmatch(text); m != nil && op.Op != "GetItem" {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			op.Limit = &n
		}
	}
	op.Descending = op.Op == "Query" && newestFirst().MatchString(text)
	op.Consistent = strongRead().MatchString(text)
}

// wholeKeyOp reports whether an operation addresses one item by its whole primary key.
func wholeKeyOp(op string) bool {
	return op == "GetItem" || op == "UpdateItem" || op == "DeleteItem"
}

// entityKey is the entity type of entity in t when its key templates give the whole key of t.
func entityKey(t designer.Table, entity string) (designer.EntityType, bool) {
	if entity == "" {
		return designer.EntityType{}, false
	}
	for _, et := range t.EntityTypes {
		if et.Entity == entity && strings.TrimSpace(et.PKTemplate) != "" && (t.SortKey == nil || strings.TrimSpace(et.SKTemplate) != "") {
			return et, true
		}
	}
	return designer.EntityType{}, false
}

func isKeyOf(t designer.Table, attr string) bool {
	return attr == t.PartitionKey.Name || t.SortKey != nil && attr == t.SortKey.Name
}

func setName(names map[string]string, k, v string) map[string]string {
	if names == nil {
		names = map[string]string{}
	}
	names[k] = v
	return names
}

// opName spells an operation as DynamoDB does.
func opName(w string) string {
	for _, o := range designer.Operations {
		if strings.EqualFold(strings.ReplaceAll(w, "_", ""), o) {
			return o
		}
	}
	return w
}

var writeVerbs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(create|insert|add|put|save|store|record|update|edit|change|set|mark|delete|remove)\b`)
})

// writeVerb is the write a pattern's name starts with, or "".
func writeVerb(desc string) string {
	m := writeVerbs().FindString(desc)
	switch strings.ToLower(m) {
	case "":
		return ""
	case "update", "edit", "change", "set", "mark":
		return "UpdateItem"
	case "delete", "remove":
		return "DeleteItem"
	}
	return "PutItem"
}
