package datamodelmd

import (
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Settling the operations of a mapping row with the design's tables: the targets the row names in
// its Tables/Indexes cell, and the keys its operations give by position or as PK and SK.

// keySchema is the key of an operation's target: partition attributes, then sort attributes.
type keySchema struct {
	pk, sk []designer.KeyAttribute
}

func (k keySchema) all() []designer.KeyAttribute { return slices.Concat(k.pk, k.sk) }

// operation returns the operation with its key arguments written as its key condition, when the
// arguments name their attributes or keys (the target's key, nil when unknown) says which they
// are, and what was not read kept in its notes.
func (c cellOp) operation(keys *keySchema) designer.Operation {
	op := c.op
	unread := slices.Clone(c.unread)
	if len(c.keys) > 0 {
		cond, values, ok := keyCondition(c.keys, keys)
		if ok && op.KeyCondition == "" {
			// A key named by a reserved word (status, date, name) is aliased, as DynamoDB refuses
			// it bare; a condition the document writes out is kept as written.
			op.KeyCondition, op.Names = dynamo.AliasReserved(cond, op.Names, false)
			if len(values) > 0 {
				merged := make(map[string]designer.Value, len(op.Values)+len(values))
				for k, v := range values {
					merged[k] = v
				}
				for k, v := range op.Values {
					merged[k] = v
				}
				op.Values = merged
			}
		} else {
			for _, k := range c.keys {
				unread = append(unread, k.text)
			}
		}
	}
	for _, u := range unread {
		if !writeEffect(&op, u, keys) {
			appendText(&op.Notes, u)
		}
	}
	return op
}

// notRead is the text of an operation that its notes keep because it was not read.
func (c cellOp) notRead(keys *keySchema) []string {
	var out []string
	op := c.op
	for _, u := range c.unread {
		if !writeEffect(&op, u, keys) {
			out = append(out, u)
		}
	}
	if len(c.keys) > 0 {
		if _, _, ok := keyCondition(c.keys, keys); !ok || c.op.KeyCondition != "" {
			for _, k := range c.keys {
				out = append(out, k.text)
			}
		}
	}
	return out
}

// genericKey reports which part of the key a generic name stands for: "pk", "sk" or "".
func genericKey(name string) string {
	switch strings.ToLower(name) {
	case "pk", "partition_key", "partitionkey", "hash":
		return "pk"
	case "sk", "sort_key", "sortkey", "range":
		return "sk"
	}
	return ""
}

// keyCondition writes key arguments as a key condition in DynamoDB's syntax, with the values
// written as literals. The i-th argument given by position is the i-th key attribute.
func keyCondition(args []keyArg, keys *keySchema) (string, map[string]designer.Value, bool) {
	var all []designer.KeyAttribute
	if keys != nil {
		all = keys.all()
	}
	var conds []string
	values := map[string]designer.Value{}
	used := map[string]bool{}
	placeholder := func(base string) string {
		ph := ":" + sanitizePlaceholder(base)
		for n := 2; used[ph]; n++ {
			ph = ":" + sanitizePlaceholder(base) + "_" + strconv.Itoa(n)
		}
		used[ph] = true
		return ph
	}
	for i, a := range args {
		attr, typ := a.attr, designer.Type("")
		known := func(name string) (designer.KeyAttribute, bool) {
			for _, k := range all {
				if k.Name == name {
					return k, true
				}
			}
			return designer.KeyAttribute{}, false
		}
		switch k, ok := known(attr); {
		case attr == "":
			if i >= len(all) {
				return "", nil, false
			}
			attr, typ = all[i].Name, all[i].Type
		case ok:
			typ = k.Type
		case genericKey(attr) != "" && keys == nil:
			return "", nil, false
		case genericKey(attr) == "pk" && len(keys.pk) > 0:
			attr, typ = keys.pk[0].Name, keys.pk[0].Type
		case genericKey(attr) == "sk" && len(keys.sk) > 0:
			attr, typ = keys.sk[0].Name, keys.sk[0].Type
		}
		if !bareWord(attr) && !strings.HasPrefix(attr, "#") {
			return "", nil, false
		}
		var phs []string
		for j, v := range a.vals {
			suffix := ""
			if len(a.vals) == 2 {
				suffix = [2]string{"_from", "_to"}[j]
			}
			_, isKey := known(v.text)
			ph, value, literal := argValue(v, typ, a.cmp == "begins_with", isKey || v.text == attr)
			switch {
			case literal:
				ph = placeholder(strings.TrimPrefix(attr, "#") + suffix)
				values[ph] = value
			case ph == "" && (a.attr == "" || v.kind != ctWord):
				// A value by position, or a template with a part to fill in, is named after its key.
				ph = placeholder(strings.TrimPrefix(attr, "#") + suffix)
			case ph == "":
				ph = placeholder(v.text + suffix)
			default:
				used[ph] = true
			}
			phs = append(phs, ph)
		}
		switch a.cmp {
		case "", "=":
			conds = append(conds, attr+" = "+phs[0])
		case "begins_with":
			conds = append(conds, "begins_with("+attr+", "+phs[0]+")")
		case "BETWEEN":
			conds = append(conds, attr+" BETWEEN "+phs[0]+" AND "+phs[1])
		default:
			conds = append(conds, attr+" "+a.cmp+" "+phs[0])
		}
	}
	cond := strings.Join(conds, " AND ")
	if terms, err := dynamo.ParseKeyCondition(cond, nil); err != nil || len(terms) != len(args) {
		return "", nil, false
	}
	return cond, values, true
}

// argValue reads a value of a key of type typ: a :placeholder as written (ph), a bare word naming
// the value (neither), or a literal: a string, a number, a word in capitals (PROFILE) unless it
// names a key attribute. A key template with a part to fill in is no literal; in a begins_with its
// text before that part is.
func argValue(t cellToken, typ designer.Type, prefix, keyName bool) (ph string, v designer.Value, literal bool) {
	switch t.kind {
	case ctValue:
		return t.text, designer.Value{}, false
	case ctOther: // a PartiQL parameter, "?"
		return "", designer.Value{}, false
	case ctWord:
		if _, ok := designer.ParseDecimal(t.text); ok && designer.IsDigit(t.text[0]) {
			if typ == designer.S || typ == designer.B {
				return "", designer.Str(t.text), true
			}
			return "", designer.Num(t.text), true
		}
		if !keyName && capitals(t.text) {
			return "", designer.Str(t.text), true
		}
		return "", designer.Value{}, false
	}
	text := t.str()
	if before, open := templateParts(text); open {
		if !prefix || before == "" {
			return "", designer.Value{}, false
		}
		text = before
	}
	if typ == designer.N {
		if _, ok := designer.ParseDecimal(text); ok {
			return "", designer.Num(text), true
		}
	}
	return "", designer.Str(text), true
}

// capitals reports a word of capital letters, digits and "_" with two letters at least, which
// people write for a constant: PROFILE, ACTIVE, ORDER_LINE.
func capitals(w string) bool {
	letters := 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case 'A' <= c && c <= 'Z':
			letters++
		case designer.IsDigit(c) || c == '_':
		default:
			return false
		}
	}
	return letters >= 2
}

func bareWord(s string) bool {
	if s == "" || designer.IsDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !designer.IsNameByte(s[i]) {
			return false
		}
	}
	return true
}

func sanitizePlaceholder(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !designer.IsNameByte(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

// targetKeys is the key of the table or index an operation names, or nil when it names none of
// the design's.
func targetKeys(tables []designer.Table, op designer.Operation) *keySchema {
	ti := slices.IndexFunc(tables, func(t designer.Table) bool { return t.Name == op.Table })
	if ti < 0 {
		return nil
	}
	t := tables[ti]
	if op.Index != "" {
		ix, _, _, found := t.IndexByName(op.Index)
		if !found {
			return nil
		}
		return &keySchema{pk: ix.PartitionKey, sk: ix.SortKey}
	}
	keys := dynamo.TableKeyAttrs(t)
	return &keySchema{pk: keys[:1], sk: keys[1:]}
}

// placeNamed settles a target the operation names itself: "Orders.ByStatus" is index ByStatus of
// Orders unless a table has that name or the name was in quotes (exact); an index named alone gets
// its table; a table named as an index is the table.
func placeNamed(tables []designer.Table, op *designer.Operation, exact bool) {
	if op.Table != "" && !hasTable(tables, op.Table) {
		if table, index, ok := strings.Cut(op.Table, "."); ok && !exact && op.Index == "" && hasTable(tables, table) {
			op.Table, op.Index = table, index
			return
		}
		if op.Index == "" {
			if table, index, ok := findTarget(tables, op.Table); ok && index != "" {
				op.Table, op.Index = table, index
				return
			}
		}
	}
	if op.Table == "" && op.Index != "" {
		if table, index, ok := findTarget(tables, op.Index); ok && index != "" {
			op.Table = table
		} else if ok && index == "" {
			op.Table, op.Index = table, ""
		}
	}
}

func hasTable(tables []designer.Table, name string) bool {
	return slices.ContainsFunc(tables, func(t designer.Table) bool { return t.Name == name })
}

// findTarget finds a table or an index by name.
func findTarget(tables []designer.Table, name string) (table, index string, ok bool) {
	if t, _, ok := designer.Lookup(tables, name, func(t *designer.Table) string { return t.Name }); ok {
		return t.Name, "", true
	}
	for _, t := range tables {
		if _, _, _, found := t.IndexByName(name); found {
			return t.Name, name, true
		}
	}
	return "", "", false
}

// cellTargets reads a Tables/Indexes cell: "Orders", "FollowersByUser GSI", "Likes, UserPosts",
// "ByStatus (Orders)". It reports false when a part names nothing of the design.
func cellTargets(tables []designer.Table, cell string) ([][2]string, bool) {
	var out [][2]string
	lx := newCellLexer(cell)
	var words []cellToken
	flush := func() bool {
		defer func() { words = words[:0] }()
		var names []string
		for _, w := range words {
			if !w.isWord("table", "tables", "gsi", "lsi", "index") {
				names = append(names, w.str())
			}
		}
		if len(names) == 0 {
			return true
		}
		// A name of words ("Order Lines"), which DynamoDB refuses and validation reports.
		if table, index, ok := findTarget(tables, strings.Join(names, " ")); ok {
			out = append(out, [2]string{table, index})
			return true
		}
		if len(names) == 2 { // "ByStatus (Orders)": an index with its table
			if t, _, ok := designer.Lookup(tables, names[1], func(t *designer.Table) string { return t.Name }); ok {
				if _, _, _, found := t.IndexByName(names[0]); found {
					out = append(out, [2]string{t.Name, names[0]})
					return true
				}
			}
		}
		return false
	}
	for pos := 0; ; {
		t := lx.lex(pos)
		pos = t.end
		switch {
		case t.kind == ctEnd:
			if !flush() {
				return nil, false
			}
			return out, len(out) > 0
		case t.is(ctPunct, ",") || t.is(ctPunct, "+") || t.is(ctPunct, "&") || t.is(ctPunct, "/") || t.isWord("and"):
			if !flush() {
				return nil, false
			}
		case t.is(ctPunct, "("):
			// "ByStatus (Orders)" names the index's table; "Products (multiple)" says no more.
			end := strings.IndexByte(cell[pos:], ')')
			if end < 0 {
				return nil, false
			}
			inner := strings.TrimSpace(cell[pos : pos+end])
			pos += end + 1
			if hasTable(tables, inner) {
				words = append(words, ctToken(inner))
			}
		case t.kind == ctWord || t.kind == ctString:
			words = append(words, t)
		default:
			return nil, false
		}
	}
}

// ctToken is a word token of text s.
func ctToken(s string) cellToken { return cellToken{kind: ctWord, text: s} }

// settledRow is what a mapping row's operations are once settled with the tables.
type settledRow struct {
	ops []designer.Operation
	// notRead holds, per operation, the text its notes keep because it was not read.
	notRead [][]string
	// targeted reports that the Tables/Indexes cell gave every operation its target.
	targeted bool
	partiql  []string
}

// settleRow reads a mapping row's operations cell with the design's tables, its Tables/Indexes
// cell when the operations do not say their targets ("" when they do), and its notes.
func settleRow(tables []designer.Table, source, targetsCell, notes string) settledRow {
	cells := parseCell(source)
	row := settledRow{partiql: cells.partiql}
	ops := cells.ops
	for i := range ops {
		placeNamed(tables, &ops[i].op, ops[i].exact)
	}
	targets, ok := cellTargets(tables, targetsCell)
	if !slices.ContainsFunc(ops, func(c cellOp) bool { return !designer.IsWriteOp(c.op.Op) }) {
		// A write keeps the table's indexes up to date; naming them says no more than the table.
		targets = writeTargets(targets)
	} else if len(ops) == 1 && len(targets) == 2 && targets[0][0] == targets[1][0] && (targets[0][1] == "") != (targets[1][1] == "") {
		// One read and "Orders / GSI1", the 9-column table's Table/GSI Used: the index it reads.
		if targets[0][1] == "" {
			targets = targets[1:]
		} else {
			targets = targets[:1]
		}
	}
	if ok && len(ops) > 0 &&
		(len(targets) == 1 || len(targets) == len(ops)) &&
		!slices.ContainsFunc(ops, func(c cellOp) bool { return c.op.Table != "" || c.op.Index != "" }) {
		for i := range ops {
			tg := targets[min(i, len(targets)-1)]
			ops[i].op.Table, ops[i].op.Index = tg[0], tg[1]
		}
		row.targeted = true
	}
	strong := statesStrongRead(notes)
	for _, c := range ops {
		keys := targetKeys(tables, c.op)
		op := c.operation(keys)
		if len(ops) == 1 {
			notesEffects(&op, notes, keys)
		}
		if strong && readsConsistently(op.Op) {
			op.Consistent = true
		}
		row.ops = append(row.ops, op)
		row.notRead = append(row.notRead, c.notRead(keys))
	}
	return row
}

// writeTargets is targets with each index named beside its table left out.
func writeTargets(targets [][2]string) [][2]string {
	var out [][2]string
	for _, tg := range targets {
		if tg[1] != "" && slices.Contains(targets, [2]string{tg[0], ""}) {
			continue
		}
		out = append(out, tg)
	}
	return out
}

// readsConsistently reports whether an operation takes ConsistentRead.
func readsConsistently(op string) bool {
	switch op {
	case "GetItem", "Query", "Scan", "BatchGetItem":
		return true
	}
	return false
}
