package datamodelmd

import (
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// The grammar of a DynamoDB Operations cell of the Access Pattern Mapping table. One grammar
// reads the line the export writes and what people write:
//
//	cell      = line {newline line}
//	line      = {prose | operation}
//	operation = NAME {part}                  NAME: GetItem … TransactWriteItems, get_item, QUERY
//	part      = "(" arg {"," arg} ")"        positional keys, conditions, options, actions
//	          | ("on"|"from"|"against"|"into") ["the"] [kind] target | ("index"|"using"|"via") [kind] target
//	          | ":" condition | ("where"|"with") condition
//	          | ";" clause                   Filter: … Projection: … Condition: … Update: … Names: …
//	          | option                       Values: … Action: … Notes: (to the end of the line)
//	arg       = condition | option | value | action
//	condition = term {AND term}
//	term      = key cmp value | key BETWEEN value AND value | begins_with "(" key "," value ")"
//	          | key begins_with ["("] value [")"]
//	option    = Limit [=] N | ScanIndexForward = bool | ConsistentRead = bool | IndexName = name
//	          | ProjectionExpression = names | descending | newest first | strongly consistent
//
// A key condition written in DynamoDB's syntax is kept as written once the evaluator's parser
// (dynamo.ParseKeyCondition) accepts it; one written with literal values ("POST#", 42) or by
// position (GetItem(user_id, "PROFILE")) is written out in DynamoDB's syntax with placeholders
// and values, and that text is checked by the same parser. Positional keys and the generic
// names PK and SK need the target's key schema: they are settled with the tables (settleRow).
// Text the grammar does not read is tried as a write's effect (opcell_writes.go) and otherwise
// stays verbatim in the operation's notes; the importer notes it.

// cellOp is one operation read from a cell, with what only the target's keys can settle.
type cellOp struct {
	op designer.Operation
	// keys are the key conditions read from the arguments, in order.
	keys []keyArg
	// unread is the text of the operation that was not read, in order.
	unread []string
	// actions are the actions a transaction or batch lists, as written: "Put Order".
	actions []string
	// exact reports a table named in quotes: "Orders.ByStatus" in quotes is no table and index.
	exact bool
}

// keyArg is one argument that speaks about the key: positional (attr ""), or a condition on a
// named attribute.
type keyArg struct {
	attr string
	cmp  string // = < <= > >= BETWEEN begins_with
	vals []cellToken
	text string // as written
}

// cellParse is what a cell holds: its operations, and PartiQL statements, which Dynaloom keeps as
// written but does not map.
type cellParse struct {
	ops     []cellOp
	partiql []string
}

// parseCell reads an operations cell.
func parseCell(text string) cellParse {
	var out cellParse
	for line := range strings.SplitSeq(text, "\n") {
		lp := &lineParser{lx: newCellLexer(line), line: line}
		lp.parse(&out)
	}
	return out
}

// operationsOf reads a cell's operations as far as the cell alone says them.
func operationsOf(text string) []designer.Operation {
	cells := parseCell(text)
	out := make([]designer.Operation, len(cells.ops))
	for i, c := range cells.ops {
		out[i] = c.operation(nil)
	}
	return out
}

type lineParser struct {
	lx   *cellLexer
	line string
	pos  int
	// depth counts the parentheses open at pos.
	depth int
	cur   *cellOp
	// unreadFrom is where the text not read so far starts, -1 when there is none.
	unreadFrom, unreadTo int
	// semis are the places of the line's unescaped ";", found once.
	semis []int
	// partiQL is set while a PartiQL statement is read: "?" is then a value.
	partiQL bool
}

func (lp *lineParser) peek() cellToken { return lp.lx.lex(lp.pos) }

func (lp *lineParser) peekAt(pos int) cellToken { return lp.lx.lex(pos) }

func (lp *lineParser) take() cellToken {
	t := lp.peek()
	lp.pos = t.end
	return t
}

// opName reads an operation name: the API's names as one word in any case, with "_" inside;
// Query and Scan only capitalised, since "query" and "scan" are also prose.
func opName(t cellToken) (string, bool) {
	if t.kind != ctWord {
		return "", false
	}
	switch t.text {
	case "query", "scan", "Queries", "queries", "Scans", "scans":
		return "", false
	}
	if strings.EqualFold(t.text, "ExecuteStatement") || strings.EqualFold(t.text, "BatchExecuteStatement") ||
		strings.EqualFold(t.text, "ExecuteTransaction") || strings.EqualFold(t.text, "execute_statement") {
		return partiQL, true
	}
	if strings.Contains(t.text, ".") || strings.Contains(t.text, "-") {
		return "", false
	}
	name, err := designer.ParseOperationName(t.text)
	return name, err == nil
}

// partiQL stands for the PartiQL operations, which take a statement.
const partiQL = "PartiQL"

func (lp *lineParser) parse(out *cellParse) {
	lp.unreadFrom = -1
	for {
		t := lp.peek()
		if t.kind == ctEnd {
			break
		}
		name, ok := opName(t)
		if !ok || lp.depth > 0 {
			lp.skip(t)
			continue
		}
		lp.flush()
		lp.take()
		if name == partiQL {
			stmt := strings.TrimSpace(lp.line[t.pos:])
			if c, ok := partiQLSelect(lp.line[t.end:]); ok {
				c.op.Notes = stmt
				out.ops = append(out.ops, c)
			} else {
				out.partiql = append(out.partiql, stmt)
			}
			lp.pos = len(lp.line)
			break
		}
		out.ops = append(out.ops, cellOp{op: designer.Operation{Op: name}})
		lp.cur = &out.ops[len(out.ops)-1]
		start := len(out.ops) - 1
		lp.operation(t)
		lp.flush()
		if start > 0 && alternative(lp.line[:t.pos]) {
			// "Query(user_id) or GSI Query": the same call on another target.
			prev, c := out.ops[start-1], &out.ops[start]
			if prev.op.Op == c.op.Op && len(c.keys) == 0 && c.op.KeyCondition == "" {
				c.keys = slices.Clone(prev.keys)
			}
		}
		out.ops = append(out.ops[:start], lp.actions(out.ops[start])...)
		lp.cur = nil
	}
	lp.flush()
}

// alternative reports whether the text before an operation offers it as another way to do the
// one before: it ends with "or", a kind of target after it ("or GSI").
func alternative(before string) bool {
	// The words that can come between are few and short: the end of the text is enough.
	fields := strings.Fields(strings.ToLower(before[max(0, len(before)-32):]))
	for len(fields) > 0 && joiners[fields[len(fields)-1]] && fields[len(fields)-1] != "or" {
		fields = fields[:len(fields)-1]
	}
	return len(fields) > 0 && fields[len(fields)-1] == "or"
}

// skip passes over a token that is not read, keeping the depth of parentheses.
func (lp *lineParser) skip(t cellToken) {
	lp.take()
	switch {
	case t.is(ctPunct, "("):
		lp.depth++
	case t.is(ctPunct, ")") && lp.depth > 0:
		lp.depth--
	}
	if lp.cur == nil {
		return // prose before the first operation belongs to no operation
	}
	lp.unread(t.pos, t.end)
}

func (lp *lineParser) unread(from, to int) {
	if lp.unreadFrom < 0 {
		lp.unreadFrom = from
	}
	lp.unreadTo = to
}

// flush ends the run of text not read: its words, without the joining words and marks at either
// end, go to the current operation.
func (lp *lineParser) flush() {
	if lp.unreadFrom < 0 {
		return
	}
	text := lp.line[lp.unreadFrom:lp.unreadTo]
	lp.unreadFrom = -1
	if lp.cur == nil {
		return
	}
	if text = trimJoiners(text); text != "" {
		lp.cur.unread = append(lp.cur.unread, text)
	}
}

// joiners are the words and marks that join operations and parts of a cell.
var joiners = map[string]bool{"+": true, "/": true, ",": true, "&": true, ";": true, "->": true, "→": true,
	"and": true, "then": true, "or": true, "with": true, "plus": true, "followed": true, "by": true, "-": true, "—": true, "–": true, ":": true,
	// A kind alone says what the Tables/Indexes cell says: "Query(user_id) or GSI Query".
	"gsi": true, "lsi": true, "index": true, "table": true}

func trimJoiners(s string) string {
	for {
		s = strings.TrimSpace(s)
		cut := false
		for j := range joiners {
			if len(s) < len(j) {
				continue
			}
			// A word joiner ends at a word's end: "or" is not the start of "order".
			if strings.EqualFold(s[:len(j)], j) && (len(s) == len(j) || !isWordByte(j[0]) || !isWordByte(s[len(j)])) {
				s, cut = s[len(j):], true
				break
			}
			if end := len(s) - len(j); strings.EqualFold(s[end:], j) && (end == 0 || !isWordByte(j[0]) || !isWordByte(s[end-1])) {
				s, cut = s[:end], true
				break
			}
		}
		if !cut {
			return strings.TrimSpace(s)
		}
	}
}

// atOperation reports whether the next token starts another operation.
func (lp *lineParser) atOperation() bool {
	_, ok := opName(lp.peek())
	return ok && lp.depth == 0
}

// operation reads the parts after an operation name, up to the next operation or the end of
// the line.
func (lp *lineParser) operation(name cellToken) {
	first := true
	for {
		t := lp.peek()
		if t.kind == ctEnd || lp.atOperation() {
			return
		}
		switch {
		case t.is(ctPunct, "(") && lp.unreadFrom >= 0:
			// "attribute_not_exists(pk)": the parentheses of words not read are not read either.
			lp.skipParens()
		case t.is(ctPunct, "("):
			lp.args()
		case t.is(ctPunct, ":"):
			lp.flush()
			lp.take()
			lp.colon(name)
		case t.is(ctPunct, ";"):
			lp.flush()
			lp.take()
			if lp.clause() {
				continue
			}
		case t.isWord("on", "from", "against", "into") || t.isWord("in") && lp.kindFollows():
			if !lp.target(false) {
				lp.skip(t)
			}
		case t.isWord("index", "gsi", "lsi", "using", "via"):
			if !lp.target(true) {
				lp.skip(t)
			}
		case t.isWord("where", "with"):
			lp.flush()
			lp.take()
			if !lp.condition(true) {
				lp.unread(t.pos, t.end)
			}
		case lp.option():
		case first && t.kind == ctWord && !stopWord(t.text) && lp.directTarget(t):
		default:
			lp.skip(t)
		}
		first = false
	}
}

// kindFollows reports whether the word after the next is "the" or a kind of target.
func (lp *lineParser) kindFollows() bool {
	next := lp.peekAt(lp.peek().end)
	return next.isWord("the", "table", "index", "gsi", "lsi")
}

// target reads "on [the] [table|index|gsi|lsi] Name [table|index|gsi]", or with index true
// "index Name", "using [index] Name", "via GSI1". It reads nothing when no name follows, or the
// operation already has the table or index it would name.
func (lp *lineParser) target(index bool) bool {
	save := lp.pos
	if lp.unreadFrom >= 0 && conditionalBefore(lp.line[lp.unreadFrom:save]) {
		// "conditional put on owner_id" names the attribute the write is conditional on.
		return false
	}
	lp.take()
	t := lp.peek()
	if t.isWord("the") {
		lp.take()
		t = lp.peek()
	}
	named := func(t cellToken) bool { return t.kind == ctWord && !stopWord(t.text) || t.kind == ctString }
	if t.isWord("table", "index", "gsi", "lsi") && named(lp.peekAt(t.end)) {
		index = index || !t.isWord("table")
		lp.take()
		t = lp.peek()
	}
	name, ok := targetName(t)
	_, isOp := opName(t)
	// "on FollowersByUser GSI": a kind after the name, unless it starts "index ByStatus".
	after := lp.peekAt(t.end)
	suffix := after.isWord("table", "index", "gsi", "lsi") && !named(lp.peekAt(after.end))
	index = index || suffix && !after.isWord("table")
	op := &lp.cur.op
	// A name in quotes is a name even when it spells a word of the grammar: quoteName writes a
	// table named WHERE as "WHERE".
	if !ok || t.kind == ctWord && stopWord(name) || isOp || index && op.Index != "" || !index && op.Table != "" {
		lp.pos = save
		return false
	}
	lp.flush()
	lp.take()
	if suffix {
		lp.take()
	}
	lp.cur.exact = lp.cur.exact || t.kind == ctString
	if index {
		op.Index = name
	} else {
		op.Table = name
	}
	return true
}

// targetName is a table or index name: a word, or a string for a name with other characters.
func targetName(t cellToken) (string, bool) {
	switch t.kind {
	case ctWord:
		return t.text, len(t.text) <= 255
	case ctString:
		s := t.str()
		return s, s != "" && !strings.ContainsAny(s, "\n")
	}
	return "", false
}

// directTarget reads a name right after the operation name — "Query UserOrdersIndex: …", "Scan
// Users" — when what follows it ends it: ":", "(", the end, a joiner or another part.
func (lp *lineParser) directTarget(t cellToken) bool {
	if _, ok := targetName(t); !ok || len(t.text) < 3 || strings.HasPrefix(strings.ToLower(t.text), "attribute_") {
		return false
	}
	next := lp.peekAt(t.end)
	switch {
	case next.kind == ctEnd, next.is(ctPunct, ":"), next.is(ctPunct, "("), next.is(ctPunct, ";"),
		next.is(ctPunct, ","), next.is(ctPunct, "+"), next.is(ctPunct, "/"),
		next.isWord("with", "where", "using", "by", "on", "for", "then", "and", "limit"):
	default:
		if _, ok := opName(next); !ok {
			return false
		}
	}
	lp.flush()
	lp.take()
	if indexLike(t.text) {
		lp.cur.op.Index = t.text
	} else {
		lp.cur.op.Table = t.text
	}
	return true
}

// indexLike reports whether a name reads as an index name rather than a table name.
func indexLike(name string) bool {
	lower := strings.ToLower(name)
	return strings.Contains(lower, "index") || strings.HasPrefix(lower, "gsi") || strings.HasPrefix(lower, "lsi") ||
		strings.HasPrefix(lower, "by")
}

// stopWord reports words that follow an operation name without naming anything.
func stopWord(s string) bool {
	switch strings.ToLower(s) {
	case "the", "with", "where", "using", "and", "then", "for", "all", "each", "per", "one", "two", "index", "table", "gsi", "lsi",
		"by", "on", "key", "keys", "items", "item", "or", "to", "a", "an", "of", "in", "from", "via", "limit", "filter", "if",
		"multiple", "every", "any", "plus", "aggregation", "app", "application", "logic", "filterexpression", "conditional", "conditionexpression":
		return true
	}
	return false
}

// colon reads what follows a ":" after an operation: its key condition, a list of a
// transaction's actions, or prose.
func (lp *lineParser) colon(name cellToken) {
	op := &lp.cur.op
	raw, end := lp.rawClause()
	cond := ""
	if len(raw) <= maxCondition {
		cond = strings.TrimSpace(clauseUnescape(raw))
	}
	if cond != "" && op.KeyCondition == "" {
		terms, err := dynamo.ParseKeyCondition(cond, nil)
		if err == nil && len(terms) > 0 {
			op.KeyCondition = cond
			lp.pos = end
			return
		}
	}
	if isAction(lp.peek()) {
		start := lp.pos
		if lp.actionList(); lp.pos >= end || lp.peek().kind == ctEnd {
			return
		}
		lp.pos, lp.cur.actions = start, nil
	}
	// As the export writes it, "Query on Orders index ByStatus: <condition>; …", the condition is
	// kept as written even where it is none: what the file says is for validation to judge.
	head := op.Op
	if op.Table != "" {
		head += " on " + quoteName(op.Table)
	}
	if op.Index != "" {
		head += " index " + quoteName(op.Index)
	}
	if strings.TrimSpace(lp.line[name.pos:lp.pos]) == head+":" && strings.HasPrefix(raw, " ") && op.KeyCondition == "" {
		op.KeyCondition = clauseUnescape(raw[1:])
		lp.pos = end
		return
	}
	if !lp.condition(false) {
		lp.actionList()
	}
}

// rawClause returns the text from pos to the next ";" not escaped, or the end of the line, and
// where it ends.
func (lp *lineParser) rawClause() (string, int) {
	if lp.semis == nil {
		lp.semis = []int{}
		for i := 0; i < len(lp.line); i++ {
			switch lp.line[i] {
			case '\\':
				i++
			case ';':
				lp.semis = append(lp.semis, i)
			}
		}
	}
	if i, _ := slices.BinarySearch(lp.semis, lp.pos); i < len(lp.semis) {
		return lp.line[lp.pos:lp.semis[i]], lp.semis[i]
	}
	return lp.line[lp.pos:], len(lp.line)
}

// maxCondition bounds the text tried as a key condition written in DynamoDB's syntax: DynamoDB
// takes no expression over 4 KB, and the bound keeps a line of many colons linear to read.
const maxCondition = 4096

// clause reads a clause after ";" as the export writes them; one it cannot read is kept whole as
// text not read. It reports false, having read nothing, when the words after ";" are no clause.
func (lp *lineParser) clause() bool {
	op := &lp.cur.op
	word := lp.peek()
	colon := lp.peekAt(word.end)
	if word.kind != ctWord || !colon.is(ctPunct, ":") {
		return false
	}
	lp.pos = colon.end
	if word.text == "Notes" {
		appendText(&op.Notes, clauseUnescape(strings.TrimPrefix(lp.line[lp.pos:], " ")))
		lp.pos = len(lp.line)
		return true
	}
	raw, end := lp.rawClause()
	text := clauseUnescape(strings.TrimPrefix(raw, " "))
	var err error
	switch word.text {
	case "Filter":
		op.Filter = text
	case "Projection":
		op.Projection = text
	case "Condition":
		op.Condition = text
	case "Update":
		op.Update = text
	case "Names":
		op.Names, err = designer.ParseOperationNames(text)
	case "Values":
		op.Values, err = designer.ParseOperationValues(text)
	case "Action":
		op.Action = text
		if designer.CheckAction("action", *op) != nil {
			op.Action, err = "", errUnread
		}
	default:
		err = errUnread
	}
	if err != nil {
		// A clause as the export writes them, with what it cannot hold: kept whole.
		lp.unread(word.pos, end)
		lp.pos = end
		lp.flush()
		return true
	}
	lp.pos = end
	return true
}

type unreadError struct{}

func (unreadError) Error() string { return "not read" }

var errUnread = unreadError{}

// quoteName writes a table or index name as the grammar reads it back: as it is, or in quotes
// when it holds other characters than a word does or reads as a word of the grammar.
func quoteName(name string) string {
	lx := newCellLexer(name)
	if t := lx.lex(0); t.kind == ctWord && t.text == name && !stopWord(name) && !strings.Contains(name, ".") {
		if _, op := opName(t); !op {
			return name
		}
	}
	if !strings.Contains(name, `"`) {
		return `"` + name + `"`
	}
	return "'" + name + "'"
}

// option reads an option: Limit 20, Limit=20, ScanIndexForward=false, ConsistentRead=true,
// IndexName=ByStatus, ProjectionExpression=a, descending, newest first, strongly consistent.
func (lp *lineParser) option() bool {
	op := &lp.cur.op
	save := lp.pos
	t := lp.take()
	value := func() (cellToken, bool) {
		next := lp.peek()
		if next.is(ctPunct, "=") || next.is(ctPunct, ":") {
			lp.take()
			next = lp.peek()
		}
		if next.kind == ctEnd {
			return next, false
		}
		return lp.take(), true
	}
	ok := true
	switch {
	case t.isWord("limit"):
		v, got := value()
		sign := ""
		if got && v.is(ctPunct, "-") {
			sign = "-"
			v = lp.take()
		}
		n, err := strconv.Atoi(sign + strings.ReplaceAll(v.text, ",", ""))
		if ok = got && v.kind == ctWord && err == nil; ok {
			op.Limit = &n
		}
	case t.isWord("ScanIndexForward"), t.isWord("ConsistentRead"):
		v, got := value()
		b, err := strconv.ParseBool(strings.ToLower(v.text))
		if ok = got && v.kind == ctWord && err == nil; ok {
			if t.isWord("ScanIndexForward") {
				op.Descending = !b
			} else {
				op.Consistent = b
			}
		}
	case t.isWord("IndexName"):
		v, got := value()
		name, named := targetName(v)
		if ok = got && named; ok {
			op.Index = name
		}
	case t.isWord("ProjectionExpression"):
		v, got := value()
		switch {
		case !got:
			ok = false
		case v.kind == ctString:
			op.Projection = v.str()
		case v.kind == ctWord || v.kind == ctName:
			names := []string{v.text}
			for lp.depth > 0 && lp.peek().is(ctPunct, ",") {
				next, after := lp.peekAt(lp.peek().end), lp.peekAt(lp.peekAt(lp.peek().end).end)
				if next.kind != ctWord && next.kind != ctName || after.is(ctPunct, "=") {
					break
				}
				lp.take()
				names = append(names, lp.take().text)
			}
			op.Projection = strings.Join(names, ", ")
		default:
			ok = false
		}
	case t.isWord("descending", "desc"):
		op.Descending = true
	case t.isWord("newest", "latest") && lp.peek().isWord("first"), t.isWord("reverse") && lp.peek().isWord("order"):
		lp.take()
		op.Descending = true
	case t.isWord("strongly") && lp.peek().isWord("consistent"), t.isWord("strong") && lp.peek().isWord("consistency"):
		lp.take()
		op.Consistent = true
	default:
		ok = false
	}
	if !ok {
		lp.pos = save
		return false
	}
	lp.flush()
	return true
}

// args reads a parenthesised list of arguments.
func (lp *lineParser) args() {
	lp.take()
	lp.depth++
	defer func() { lp.depth-- }()
	for {
		t := lp.peek()
		switch {
		case t.kind == ctEnd:
			lp.flush()
			return
		case t.is(ctPunct, ")"):
			lp.flush()
			lp.take()
			return
		case t.is(ctPunct, ","):
			lp.flush()
			lp.take()
			continue
		}
		start := lp.pos
		if lp.arg() {
			continue
		}
		lp.pos = start
		// An argument not read is kept whole, to the next "," or ")".
		for t := lp.peek(); t.kind != ctEnd && !t.is(ctPunct, ",") && !t.is(ctPunct, ")"); t = lp.peek() {
			if t.is(ctPunct, "(") {
				lp.skipParens()
				continue
			}
			lp.unread(t.pos, t.end)
			lp.take()
		}
	}
}

// skipParens passes over a parenthesised part not read, keeping it as unread text.
func (lp *lineParser) skipParens() {
	depth := 0
	for t := lp.peek(); t.kind != ctEnd; t = lp.peek() {
		lp.unread(t.pos, t.end)
		lp.take()
		switch {
		case t.is(ctPunct, "("):
			depth++
		case t.is(ctPunct, ")"):
			depth--
			if depth == 0 {
				return
			}
		}
	}
}

// argEnds reports whether the next token ends an argument.
func (lp *lineParser) argEnds() bool {
	t := lp.peek()
	return t.kind == ctEnd || t.is(ctPunct, ",") || t.is(ctPunct, ")")
}

// arg reads one argument whole: an option, a condition, a value by position, or an action.
func (lp *lineParser) arg() bool {
	start := lp.pos
	if lp.option() && lp.argEnds() {
		return true
	}
	lp.pos = start
	if lp.condition(false) && lp.argEnds() {
		return true
	}
	lp.pos = start
	if isAction(lp.peek()) && (strings.HasPrefix(lp.cur.op.Op, "Transact") || strings.HasPrefix(lp.cur.op.Op, "Batch")) {
		lp.actionList()
		return lp.argEnds()
	}
	lp.pos = start
	if v, ok := lp.value(); ok && lp.argEnds() {
		lp.cur.keys = append(lp.cur.keys, keyArg{vals: []cellToken{v}, text: strings.TrimSpace(lp.line[start:lp.pos])})
		return true
	}
	lp.pos = start
	return false
}

// value reads a value: a :placeholder, a string, a number, a key template or a bare word, which
// names the value.
func (lp *lineParser) value() (cellToken, bool) {
	t := lp.peek()
	switch t.kind {
	case ctValue, ctString, ctTemplate:
		return lp.take(), true
	case ctOther:
		if t.text == "?" && lp.partiQL { // a PartiQL parameter
			return lp.take(), true
		}
	case ctWord:
		if t.isWord("null", "nil", "none", "and", "between", "begins_with") || optionWord(t.text) {
			return t, false
		}
		return lp.take(), true
	}
	return t, false
}

func optionWord(w string) bool {
	switch strings.ToLower(w) {
	case "limit", "scanindexforward", "consistentread", "indexname", "projectionexpression", "descending", "desc", "asc", "ascending":
		return true
	}
	return false
}

// condition reads "term {AND term}" from the tokens. With whole, a condition in DynamoDB syntax
// up to the next "," or ";" is first tried as written.
func (lp *lineParser) condition(whole bool) bool {
	start := lp.pos
	if whole {
		raw, end := lp.rawClause()
		long := len(raw) > maxCondition
		raw = raw[:min(len(raw), maxCondition)]
		if i := topLevelComma(raw); i >= 0 {
			raw, end, long = raw[:i], lp.pos+i, false
		}
		if long {
			raw = ""
		}
		if cond := strings.TrimSpace(raw); cond != "" && lp.cur.op.KeyCondition == "" {
			if terms, err := dynamo.ParseKeyCondition(cond, nil); err == nil && len(terms) > 0 {
				lp.cur.op.KeyCondition = cond
				lp.pos = end
				return true
			}
		}
	}
	var terms []keyArg
	for {
		term, ok := lp.term()
		if !ok {
			lp.pos = start
			return false
		}
		terms = append(terms, term)
		if !lp.peek().isWord("and") {
			break
		}
		and := lp.take()
		if _, ok := lp.termAhead(); !ok {
			lp.pos = and.pos
			break
		}
	}
	lp.cur.keys = append(lp.cur.keys, terms...)
	return true
}

// termAhead reports whether a term starts at pos, reading nothing.
func (lp *lineParser) termAhead() (keyArg, bool) {
	save := lp.pos
	t, ok := lp.term()
	lp.pos = save
	return t, ok
}

// topLevelComma returns the index of the first "," outside parentheses and quotes, or -1.
func topLevelComma(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth <= 0:
			return i
		}
	}
	return -1
}

// beginsWord reads "begins_with", "begins with", "starts with" or "startsWith" as one word.
func (lp *lineParser) beginsWord() bool {
	t := lp.peek()
	switch {
	case t.isWord("begins_with", "beginswith", "starts_with", "startswith", "begins_With"):
		lp.take()
		return true
	case t.isWord("begins", "starts") && lp.peekAt(t.end).isWord("with"):
		lp.take()
		lp.take()
		return true
	}
	return false
}

// keyName is an attribute in a condition: a word or a #placeholder.
func keyName(t cellToken) bool {
	return t.kind == ctName || t.kind == ctWord && !designer.IsDigit(t.text[0]) && !optionWord(t.text) && !t.isWord("and", "between")
}

// term reads one condition on a key attribute.
func (lp *lineParser) term() (keyArg, bool) {
	start := lp.pos
	done := func(k keyArg) (keyArg, bool) {
		k.text = strings.TrimSpace(lp.line[start:lp.pos])
		return k, true
	}
	if lp.beginsWord() {
		if !lp.peek().is(ctPunct, "(") {
			lp.pos = start
			return keyArg{}, false
		}
		lp.take()
		attr := lp.peek()
		if !keyName(attr) || !lp.peekAt(attr.end).is(ctPunct, ",") {
			lp.pos = start
			return keyArg{}, false
		}
		lp.take()
		lp.take()
		v, ok := lp.value()
		if !ok || !lp.peek().is(ctPunct, ")") {
			lp.pos = start
			return keyArg{}, false
		}
		lp.take()
		return done(keyArg{attr: attr.text, cmp: "begins_with", vals: []cellToken{v}})
	}
	attr := lp.peek()
	if !keyName(attr) {
		return keyArg{}, false
	}
	lp.take()
	switch t := lp.peek(); {
	case lp.beginsWord():
		paren := lp.peek().is(ctPunct, "(")
		if paren {
			lp.take()
		}
		v, ok := lp.value()
		if ok && paren {
			ok = lp.peek().is(ctPunct, ")")
			lp.take()
		}
		if ok {
			return done(keyArg{attr: attr.text, cmp: "begins_with", vals: []cellToken{v}})
		}
	case t.kind == ctPunct && (t.text == "=" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
		lp.take()
		if v, ok := lp.value(); ok {
			return done(keyArg{attr: attr.text, cmp: t.text, vals: []cellToken{v}})
		}
	case t.isWord("between"):
		lp.take()
		lo, ok := lp.value()
		if ok && lp.peek().isWord("and") {
			lp.take()
			if hi, ok := lp.value(); ok {
				return done(keyArg{attr: attr.text, cmp: "BETWEEN", vals: []cellToken{lo, hi}})
			}
		}
	}
	lp.pos = start
	return keyArg{}, false
}

// isAction reports whether t starts an action of a transaction or batch: Put, Update, Delete,
// ConditionCheck, Get, or the operation of that name.
func isAction(t cellToken) bool {
	return actionOf(t.text) != "" && t.kind == ctWord
}

func actionOf(w string) string {
	switch strings.ToLower(w) {
	case "put", "putitem", "insert", "create":
		return designer.ActionPut
	case "update", "updateitem":
		return designer.ActionUpdate
	case "delete", "deleteitem", "remove":
		return designer.ActionDelete
	case "conditioncheck", "check":
		return designer.ActionConditionCheck
	case "get", "getitem":
		return "get"
	}
	return ""
}

// actionList reads the actions a transaction or batch lists — "Put Order + Update User" — each
// kept as it is written, until ")" or the end of the line.
func (lp *lineParser) actionList() {
	if !strings.HasPrefix(lp.cur.op.Op, "Transact") && !strings.HasPrefix(lp.cur.op.Op, "Batch") {
		return
	}
	for {
		t := lp.peek()
		if !isAction(t) {
			return
		}
		start := t.pos
		end := t.end
		lp.take()
		for n := lp.peek(); n.kind != ctEnd && !n.is(ctPunct, ")") && !n.is(ctPunct, "(") && !isJoiner(n); n = lp.peek() {
			end = n.end
			lp.take()
		}
		lp.cur.actions = append(lp.cur.actions, lp.line[start:end])
		if !isJoiner(lp.peek()) {
			return
		}
		for isJoiner(lp.peek()) {
			lp.take()
		}
	}
}

func isJoiner(t cellToken) bool {
	return t.kind == ctPunct && joiners[t.text] || t.isWord("and", "then") || t.kind == ctOther && joiners[t.text]
}

// actions returns the operation, or one operation per action it lists.
func (lp *lineParser) actions(c cellOp) []cellOp {
	if len(c.actions) == 0 {
		return []cellOp{c}
	}
	out := make([]cellOp, 0, len(c.actions))
	for i, a := range c.actions {
		each := c
		each.actions = nil
		each.op.Notes = a
		verb, _, _ := strings.Cut(a, " ")
		each.op.Action = actionOf(verb)
		if designer.CheckAction("action", each.op) != nil || each.op.Action == "get" {
			each.op.Action = ""
		}
		if i > 0 {
			each.unread = nil
		}
		out = append(out, each)
	}
	return out
}

// partiQLSelect reads the statement after ExecuteStatement when it is a SELECT of one table or
// index with a WHERE of key conditions joined by AND — SELECT * FROM "Orders"."ByStatus" WHERE
// status = ? AND created_at > '2026' — as the Query it runs; the statement stays in its notes.
// Any other statement is kept as written.
func partiQLSelect(text string) (cellOp, bool) {
	text = strings.TrimSpace(text)
	if inner, ok := strings.CutPrefix(text, "("); ok {
		text = strings.TrimSpace(strings.TrimSuffix(inner, ")"))
	}
	text = strings.TrimSpace(strings.TrimPrefix(text, ":"))
	if len(text) > 2 && (text[0] == '"' || text[0] == '\'') && text[len(text)-1] == text[0] {
		text = text[1 : len(text)-1]
	}
	c := cellOp{op: designer.Operation{Op: "Query"}}
	lp := &lineParser{lx: newCellLexer(text), line: text, cur: &c, partiQL: true, unreadFrom: -1}
	if !lp.peek().isWord("SELECT") {
		return c, false
	}
	lp.take()
	var projection []string
	for t := lp.take(); !t.isWord("FROM"); t = lp.take() {
		switch {
		case t.kind == ctWord || t.kind == ctString:
			projection = append(projection, t.str())
		case t.is(ctPunct, ",") || t.is(ctOther, "*"):
		default:
			return c, false
		}
	}
	from := lp.take()
	name, ok := targetName(from)
	if !ok {
		return c, false
	}
	c.op.Table, c.exact = name, from.kind == ctString
	if dot := lp.peek(); dot.is(ctOther, ".") {
		lp.take()
		if c.op.Index, ok = targetName(lp.take()); !ok {
			return c, false
		}
	}
	if !lp.peek().isWord("WHERE") {
		return c, false
	}
	lp.take()
	if !lp.condition(false) {
		return c, false
	}
	if lp.peek().isWord("ORDER") {
		for t := lp.take(); t.kind != ctEnd; t = lp.take() {
			c.op.Descending = c.op.Descending || t.isWord("DESC")
		}
	}
	for t := lp.peek(); t.kind != ctEnd; t = lp.peek() {
		if !t.is(ctPunct, ")") && !(t.kind == ctOther && t.text == `"`) {
			return c, false
		}
		lp.take()
	}
	c.op.Projection = strings.Join(projection, ", ")
	return c, true
}
