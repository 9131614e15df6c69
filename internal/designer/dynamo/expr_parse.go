package dynamo

import (
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The expression parser: the grammar in expr.go read into conditions, operands and paths, with
// DynamoDB's checks and the order in which it reports mistakes.

// pathElem is one step of a document path: an attribute or map key name, or a list index.
type pathElem struct {
	name    string
	index   int
	isIndex bool
}

type operandKind uint8

const (
	operandPath operandKind = iota
	operandVal
	operandFunc
)

type operand struct {
	kind  operandKind
	path  []pathElem
	value designer.Value
	fn    *funcCall
	// pos is where the operand starts, to report mistakes in the order they are written.
	pos int
}

type funcCall struct {
	name string
	args []operand
	pos  int
}

type condKind uint8

const (
	condOr condKind = iota
	condAnd
	condNot
	condCompare
	condBetween
	condIn
	condFunc
)

// condExpr is one node of a parsed condition.
type condExpr struct {
	kind        condKind
	op          string // comparator of condCompare
	left, right *condExpr
	args        []operand // condCompare: 2; condBetween: 3; condIn: 1+n
	fn          *funcCall // condFunc, and an operand-less misuse such as a bare size(a)
}

// exprIssues collects semantic mistakes while an expression is parsed; the first of each kind is
// kept, and report returns the one DynamoDB reports.
type exprIssues struct {
	parens, unknownFunction, misusedFunction, reserved string
	attrNameVal, operand, distinct, function           string
}

func setFirst(dst *string, msg string) {
	if *dst == "" {
		*dst = msg
	}
}

func (is *exprIssues) report() string {
	for _, m := range []string{is.parens, is.unknownFunction, is.misusedFunction, is.reserved,
		is.attrNameVal, is.operand, is.distinct, is.function} {
		if m != "" {
			return m
		}
	}
	return ""
}

// exprContext holds the request's placeholders and records which ones the expressions use.
type exprContext struct {
	names      map[string]string
	values     map[string]designer.Value
	UsedNames  map[string]bool
	UsedValues map[string]bool
}

func NewExprContext(names map[string]string, values map[string]designer.Value) *exprContext {
	return &exprContext{names: names, values: values, UsedNames: map[string]bool{}, UsedValues: map[string]bool{}}
}

type exprParser struct {
	src   string
	toks  []token
	at    int
	depth int
	// furthest is the furthest token a failed match reached.
	furthest int
	ctx      *exprContext
	issues   exprIssues
	// pathHeads and nestedPaths name the top-level attributes the expression reads, and those it
	// reads into with "." or "[n]"; Query and the key checks need them.
	pathHeads   map[string]bool
	nestedPaths map[string]bool
	// tooDeep is set when nesting passed maxExpressionDepth; the parse then answers errTooDeep.
	tooDeep bool
	// memo holds the result of each rule that counts depth at each token it was tried at. The
	// grammar backtracks (Parens tries "((" Or "))" before "(" Or ")"), and without the memo every
	// unclosed parenthesis would multiply the work.
	memo map[memoKey]memoEntry
	// steps counts rule calls, so that tests can hold the parser to work linear in its input.
	steps int
}

type exprRule uint8

const (
	ruleOr exprRule = iota
	ruleAnd
	ruleOperandParens
	rulePath
)

type memoKey struct {
	rule exprRule
	at   int
}

// memoEntry is what a rule answered at a token: its result, the token it stopped at, and its error.
type memoEntry struct {
	result any
	end    int
	err    error
}

// memoised runs parse once per rule and token. A repeated call answers from the memo and leaves
// p.issues and p.furthest alone: both only ever keep the first or the largest of what they saw,
// and the first call has already recorded it.
func memoised[T any](p *exprParser, rule exprRule, parse func() (T, error)) (T, error) {
	p.steps++
	if p.tooDeep {
		var zero T
		return zero, errTooDeep
	}
	key := memoKey{rule, p.at}
	if m, ok := p.memo[key]; ok {
		p.at = m.end
		return m.result.(T), m.err
	}
	if p.depth == MaxExpressionDepth {
		p.tooDeep = true
		var zero T
		return zero, errTooDeep
	}
	p.depth++
	v, err := parse()
	p.depth--
	if p.memo == nil {
		p.memo = map[memoKey]memoEntry{}
	}
	p.memo[key] = memoEntry{result: v, end: p.at, err: err}
	return v, err
}

func (p *exprParser) peek() token { return p.toks[p.at] }

func (p *exprParser) isPunct(s string) bool {
	t := p.toks[p.at]
	return t.kind == tokPunct && t.text == s
}

// fail records a failed match at the current token. As in a PEG parser, the error reported is
// the one at the furthest token any alternative reached.
func (p *exprParser) fail() error {
	p.furthest = max(p.furthest, p.at)
	return p.syntaxError()
}

// syntaxError writes DynamoDB's syntax error for the furthest failure: the token, and the text
// from the token before it to the token after it.
func (p *exprParser) syntaxError() error {
	i := p.furthest
	t := p.toks[i]
	tok := t.text
	if t.kind == tokEOF {
		tok = "<EOF>"
	}
	from, to := t.pos, len(p.src)
	if i > 0 {
		from = p.toks[i-1].pos
	}
	if i+1 < len(p.toks) {
		n := p.toks[i+1]
		to = n.pos + len(n.text)
	}
	return &exprSyntaxError{"Syntax error; token: \"" + tok + "\", near: \"" + strings.TrimSpace(p.src[from:to]) + "\""}
}

// ParseCondition parses a condition expression. The error is an *exprSyntaxError for malformed
// text, or a plain message for the first semantic mistake.
func ParseCondition(src string, ctx *exprContext) (*condExpr, *exprParser, string) {
	if src == "" {
		return nil, nil, "The expression can not be empty;"
	}
	toks, err := lexExpression(src)
	if err != nil {
		return nil, nil, err.Error()
	}
	p := &exprParser{src: src, toks: toks, ctx: ctx, pathHeads: map[string]bool{}, nestedPaths: map[string]bool{}}
	e, err := p.parseOr()
	if err == nil && p.peek().kind != tokEOF {
		err = p.fail()
	}
	if p.tooDeep {
		return nil, nil, errTooDeep.Error()
	}
	if err != nil {
		return nil, nil, p.syntaxError().Error()
	}
	p.checkMisusedSize(e)
	p.resolve(e)
	if msg := p.issues.report(); msg != "" {
		return nil, nil, msg
	}
	return e, p, ""
}

func (p *exprParser) parseOr() (*condExpr, error) {
	return memoised(p, ruleOr, p.readOr)
}

func (p *exprParser) readOr() (*condExpr, error) {
	x, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tokOr {
		return x, nil
	}
	p.at++
	y, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	return &condExpr{kind: condOr, left: x, right: y}, nil
}

func (p *exprParser) parseAnd() (*condExpr, error) {
	return memoised(p, ruleAnd, p.readAnd)
}

func (p *exprParser) readAnd() (*condExpr, error) {
	x, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tokAnd {
		return x, nil
	}
	p.at++
	y, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	return &condExpr{kind: condAnd, left: x, right: y}, nil
}

func (p *exprParser) parseNot() (*condExpr, error) {
	p.steps++
	if p.peek().kind != tokNot {
		return p.parseParens()
	}
	p.at++
	e, err := p.parseParens()
	if err != nil {
		return nil, err
	}
	return &condExpr{kind: condNot, left: e}, nil
}

// parseParens tries, like the PEG it follows, "((" Or "))", a bare condition, then "(" Or ")".
func (p *exprParser) parseParens() (*condExpr, error) {
	p.steps++
	start := p.at
	if p.isPunct("(") && p.toks[p.at+1].kind == tokPunct && p.toks[p.at+1].text == "(" {
		p.at += 2
		if e, err := p.parseOr(); err == nil && p.isPunct(")") && p.toks[p.at+1].kind == tokPunct && p.toks[p.at+1].text == ")" {
			p.at += 2
			setFirst(&p.issues.parens, "The expression has redundant parentheses;")
			return e, nil
		}
		p.at = start
	}
	if e, err := p.parseComparison(); err == nil {
		return e, nil
	}
	p.at = start
	if !p.isPunct("(") {
		return nil, p.fail()
	}
	p.at++
	e, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if !p.isPunct(")") {
		return nil, p.fail()
	}
	p.at++
	return e, nil
}

func (p *exprParser) parseComparison() (*condExpr, error) {
	p.steps++
	start := p.at
	x, err := p.parseOperandParens()
	if err != nil {
		return nil, err
	}
	switch t := p.peek(); t.kind {
	case tokComparator:
		p.at++
		y, err := p.parseOperandParens()
		if err != nil {
			return nil, err
		}
		return &condExpr{kind: condCompare, op: t.text, args: []operand{x, y}}, nil
	case tokBetween:
		p.at++
		y, err := p.parseOperandParens()
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tokAnd {
			return nil, p.fail()
		}
		p.at++
		z, err := p.parseOperandParens()
		if err != nil {
			return nil, err
		}
		return &condExpr{kind: condBetween, args: []operand{x, y, z}}, nil
	case tokIn:
		p.at++
		if !p.isPunct("(") {
			return nil, p.fail()
		}
		p.at++
		list, err := p.parseArgs()
		if err != nil {
			return nil, err
		}
		if !p.isPunct(")") {
			return nil, p.fail()
		}
		p.at++
		return &condExpr{kind: condIn, args: append([]operand{x}, list...)}, nil
	}
	p.at = start
	if p.peek().kind == tokIdent {
		fn, err := p.parseFunction()
		if err != nil {
			return nil, err
		}
		return &condExpr{kind: condFunc, fn: fn}, nil
	}
	return nil, p.fail()
}

func (p *exprParser) parseArgs() ([]operand, error) {
	var out []operand
	for {
		o, err := p.parseOperandParens()
		if err != nil {
			return nil, err
		}
		out = append(out, o)
		if !p.isPunct(",") {
			return out, nil
		}
		p.at++
	}
}

func (p *exprParser) parseOperandParens() (operand, error) {
	return memoised(p, ruleOperandParens, p.readOperandParens)
}

func (p *exprParser) readOperandParens() (operand, error) {
	start := p.at
	if p.isPunct("(") {
		double := p.toks[p.at+1].kind == tokPunct && p.toks[p.at+1].text == "("
		if double {
			p.at += 2
			if o, err := p.parseOperand(); err == nil && p.isPunct(")") && p.toks[p.at+1].kind == tokPunct && p.toks[p.at+1].text == ")" {
				p.at += 2
				setFirst(&p.issues.parens, "The expression has redundant parentheses;")
				return o, nil
			}
			p.at = start
		}
		p.at++
		if o, err := p.parseOperand(); err == nil && p.isPunct(")") {
			p.at++
			return o, nil
		}
		p.at = start
	}
	return p.parseOperand()
}

func (p *exprParser) parseOperand() (operand, error) {
	p.steps++
	t := p.peek()
	switch {
	case t.kind == tokIdent && p.toks[p.at+1].kind == tokPunct && p.toks[p.at+1].text == "(":
		fn, err := p.parseFunction()
		if err != nil {
			return operand{}, err
		}
		return operand{kind: operandFunc, fn: fn, pos: t.pos}, nil
	case t.kind == tokValue:
		p.at++
		return operand{kind: operandVal, path: []pathElem{{name: t.text}}, pos: t.pos}, nil
	}
	path, err := p.parsePath(false)
	if err != nil {
		return operand{}, err
	}
	return operand{kind: operandPath, path: path, pos: t.pos}, nil
}

func (p *exprParser) parseFunction() (*funcCall, error) {
	p.steps++
	t := p.peek()
	if t.kind != tokIdent || !p.toks[p.at+1].isPunct("(") {
		return nil, p.fail()
	}
	p.at += 2
	args, err := p.parseArgs()
	if err != nil {
		return nil, err
	}
	if !p.isPunct(")") {
		return nil, p.fail()
	}
	p.at++
	return &funcCall{name: t.text, args: args, pos: t.pos}, nil
}

func (t token) isPunct(s string) bool { return t.kind == tokPunct && t.text == s }

// parsePath reads a document path. Names are kept as written (#name unresolved) and resolved
// afterwards. In a projection a path may start with "_"; in a condition it may not, and it may
// stand in parentheses, which makes it recursive.
func (p *exprParser) parsePath(projection bool) ([]pathElem, error) {
	if projection {
		p.steps++
		return p.readPath(true)
	}
	return memoised(p, rulePath, func() ([]pathElem, error) { return p.readPath(false) })
}

func (p *exprParser) readPath(projection bool) ([]pathElem, error) {
	var path []pathElem
	t := p.peek()
	switch {
	case t.kind == tokIdent && (projection || t.text[0] != '_'), t.kind == tokName:
		p.at++
		path = append(path, pathElem{name: t.text})
	case !projection && t.kind == tokPunct && t.text == "(":
		start := p.at
		p.at++
		double := p.isPunct("(")
		if double {
			p.at++
		}
		inner, err := p.parsePath(false)
		if err != nil {
			p.at = start
			return nil, p.fail()
		}
		for range map[bool]int{false: 1, true: 2}[double] {
			if !p.isPunct(")") {
				p.at = start
				return nil, p.fail()
			}
			p.at++
		}
		if double {
			setFirst(&p.issues.parens, "The expression has redundant parentheses;")
		}
		// inner is also in the memo: clipped, the elements appended below go to a copy.
		path = slices.Clip(inner)
	default:
		return nil, p.fail()
	}
	for {
		switch {
		case p.isPunct("["):
			d := p.toks[p.at+1]
			if d.kind != tokDigits || !p.toks[p.at+2].isPunct("]") {
				p.at++
				return nil, p.fail()
			}
			n, err := strconv.Atoi(d.text)
			if err != nil {
				return nil, syntaxErrorAt(p.src, d.text, d.pos)
			}
			path = append(path, pathElem{index: n, isIndex: true})
			p.at += 3
		case p.isPunct("."):
			n := p.toks[p.at+1]
			if !(n.kind == tokIdent && (projection || n.text[0] != '_') || n.kind == tokName) {
				p.at++
				return nil, p.fail()
			}
			path = append(path, pathElem{name: n.text})
			p.at += 2
		default:
			return path, nil
		}
	}
}

// functionArity lists the functions of condition expressions and how many operands each takes.
var functionArity = map[string]int{
	"attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2,
	"begins_with": 2, "contains": 2, "size": 1,
}

// checkMisusedSize reports a size() standing where a condition belongs.
func (p *exprParser) checkMisusedSize(e *condExpr) {
	if e.kind == condFunc && e.fn.name == "size" {
		setFirst(&p.issues.misusedFunction, "The function is not allowed to be used this way in an expression; function: size")
	}
}

// resolve walks the parsed condition in the order it was written, resolving placeholders and
// recording the mistakes DynamoDB checks for.
func (p *exprParser) resolve(e *condExpr) {
	switch e.kind {
	case condOr, condAnd:
		p.checkMisusedSize(e.left)
		p.checkMisusedSize(e.right)
		p.resolve(e.left)
		p.resolve(e.right)
	case condNot:
		p.checkMisusedSize(e.left)
		p.resolve(e.left)
	case condFunc:
		p.resolveFunc(e.fn)
	default:
		for i := range e.args {
			p.resolveOperand(&e.args[i])
		}
		p.checkMisusedFunction(e.args)
		switch e.kind {
		case condCompare:
			p.checkDistinct(e.op, e.args)
		case condBetween:
			p.checkBetween(e.args[1], e.args[2])
		}
	}
}

func (p *exprParser) resolveOperand(o *operand) {
	switch o.kind {
	case operandFunc:
		p.resolveFunc(o.fn)
	case operandVal:
		name := o.path[0].name
		v, ok := p.ctx.values[name]
		if !ok {
			setFirst(&p.issues.attrNameVal, "An expression attribute value used in expression is not defined; attribute value: "+name)
			return
		}
		p.ctx.UsedValues[name] = true
		o.value = v
	case operandPath:
		for i := range o.path {
			el := &o.path[i]
			switch {
			case el.isIndex:
			case strings.HasPrefix(el.name, "#"):
				real, ok := p.ctx.names[el.name]
				if !ok {
					setFirst(&p.issues.attrNameVal, "An expression attribute name used in the document path is not defined; attribute name: "+el.name)
					continue
				}
				p.ctx.UsedNames[el.name] = true
				el.name = real
			case isReservedWord(el.name):
				setFirst(&p.issues.reserved, "Attribute name is a reserved keyword; reserved keyword: "+el.name)
			}
		}
		if len(o.path) > 1 {
			p.nestedPaths[o.path[0].name] = true
		}
		p.pathHeads[o.path[0].name] = true
	}
}

func (p *exprParser) checkMisusedFunction(args []operand) {
	for _, a := range args {
		if a.kind == operandFunc && a.fn.name != "size" {
			setFirst(&p.issues.misusedFunction, "The function is not allowed to be used this way in an expression; function: "+a.fn.name)
			return
		}
	}
}

func (p *exprParser) resolveFunc(f *funcCall) {
	for i := range f.args {
		p.resolveOperand(&f.args[i])
	}
	p.checkMisusedFunction(f.args)
	arity, known := functionArity[f.name]
	if !known {
		setFirst(&p.issues.unknownFunction, "Invalid function name; function: "+f.name)
		return
	}
	if arity != len(f.args) {
		setFirst(&p.issues.operand, "Incorrect number of operands for operator or function; operator or function: "+
			f.name+", number of operands: "+strconv.Itoa(len(f.args)))
		return
	}
	p.checkDistinct(f.name, f.args)
	switch f.name {
	case "attribute_exists", "attribute_not_exists":
		if f.args[0].kind != operandPath {
			setFirst(&p.issues.function, "Operator or function requires a document path; operator or function: "+f.name)
		}
	case "begins_with":
		for _, a := range f.args {
			if t := operandType(a); t != "" && t != designer.S && t != designer.B {
				setFirst(&p.issues.function, "Incorrect operand type for operator or function; operator or function: begins_with, operand type: "+string(t))
				return
			}
		}
	case "attribute_type":
		t := operandType(f.args[1])
		if t != designer.S {
			name := string(t)
			if t == "" {
				name = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
			}
			setFirst(&p.issues.function, "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: "+name)
			return
		}
		if !designer.Type(f.args[1].value.S).Valid() {
			setFirst(&p.issues.function, "Invalid attribute type name found; type: "+f.args[1].value.S+", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}")
		}
	case "size":
		if t := operandType(f.args[0]); t == designer.N || t == designer.BOOL || t == designer.NULL {
			setFirst(&p.issues.function, "Incorrect operand type for operator or function; operator or function: size, operand type: "+string(t))
		}
	}
}

// operandType is the type an operand is known to have before any item is read: a value's own
// type, N for size(), BOOL for the other functions; "" for a path.
func operandType(o operand) designer.Type {
	switch o.kind {
	case operandVal:
		return o.value.Type
	case operandFunc:
		if o.fn.name == "size" {
			return designer.N
		}
		if _, ok := functionArity[o.fn.name]; ok {
			return designer.BOOL
		}
	}
	return ""
}

func (p *exprParser) checkDistinct(op string, args []operand) {
	if len(args) != 2 || args[0].kind != operandPath || args[1].kind != operandPath || !samePath(args[0].path, args[1].path) {
		return
	}
	setFirst(&p.issues.distinct, "The first operand must be distinct from the remaining operands for this operator or function; operator: "+
		op+", first operand: "+pathText(args[0].path))
}

func (p *exprParser) checkBetween(lo, hi operand) {
	if lo.kind != operandVal || hi.kind != operandVal || lo.value.Type == "" || hi.value.Type == "" {
		return
	}
	bounds := "lower bound operand: AttributeValue: {" + string(lo.value.Type) + ":" + valueText(lo.value) +
		"}, upper bound operand: AttributeValue: {" + string(hi.value.Type) + ":" + valueText(hi.value) + "}"
	switch {
	case lo.value.Type != hi.value.Type:
		setFirst(&p.issues.function, "The BETWEEN operator requires same data type for lower and upper bounds; "+bounds)
	case compareScalar(lo.value, hi.value) > 0:
		setFirst(&p.issues.function, "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "+bounds)
	}
}

// valueText is a value as DynamoDB's messages show it: the text of a string or number.
func valueText(v designer.Value) string {
	if v.Type == designer.S || v.Type == designer.N {
		return v.S
	}
	return designer.FormatCell(v)
}

func samePath(a, b []pathElem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pathText writes a path as DynamoDB's messages do: [a, b, [0]].
func pathText(path []pathElem) string {
	parts := make([]string, len(path))
	for i, el := range path {
		if el.isIndex {
			parts[i] = "[" + strconv.Itoa(el.index) + "]"
		} else {
			parts[i] = el.name
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ParseProjection parses a ProjectionExpression into its paths, resolving #names.
func ParseProjection(src string, ctx *exprContext) ([][]pathElem, map[string]bool, string) {
	if src == "" {
		return nil, nil, "The expression can not be empty;"
	}
	toks, err := lexExpression(src)
	if err != nil {
		return nil, nil, err.Error()
	}
	p := &exprParser{src: src, toks: toks, ctx: ctx}
	var paths [][]pathElem
	for {
		path, err := p.parsePath(true)
		if err != nil {
			return nil, nil, err.Error()
		}
		paths = append(paths, path)
		if !p.isPunct(",") {
			break
		}
		p.at++
	}
	if p.peek().kind != tokEOF {
		p.fail()
		return nil, nil, p.syntaxError().Error()
	}
	var reserved, undefined, overlap, conflict string
	nested := map[string]bool{}
	for _, path := range paths {
		for i := range path {
			el := &path[i]
			switch {
			case el.isIndex:
			case strings.HasPrefix(el.name, "#"):
				real, ok := ctx.names[el.name]
				if !ok {
					setFirst(&undefined, "An expression attribute name used in the document path is not defined; attribute name: "+el.name)
					continue
				}
				ctx.UsedNames[el.name] = true
				el.name = real
			case isReservedWord(el.name):
				setFirst(&reserved, "Attribute name is a reserved keyword; reserved keyword: "+el.name)
			}
		}
		if len(path) > 1 {
			nested[path[0].name] = true
		}
	}
	overlap, conflict = projectionClashes(paths)
	for _, m := range []string{reserved, undefined, overlap, conflict} {
		if m != "" {
			return nil, nil, m
		}
	}
	return paths, nested, ""
}

// projectionClashes returns DynamoDB's messages for the first pair of paths that overlap (one is
// the start of the other) and the first that conflict (one reads a map where the other reads a list),
// each the first by its later path, then by its earlier one. A trie of the paths read so far finds
// them in one walk per path; comparing every pair took the square of the path count.
func projectionClashes(paths [][]pathElem) (overlap, conflict string) {
	root := newProjTrie()
	for i, b := range paths {
		overlapWith, conflictWith := -1, -1
		n := root
		for k, el := range b {
			if j := n.next[1-elemKind(el)]; j >= 0 && (conflictWith < 0 || j < conflictWith) {
				conflictWith = j
			}
			if k > 0 && n.ends >= 0 && (overlapWith < 0 || n.ends < overlapWith) {
				overlapWith = n.ends
			}
			if n = n.children[el]; n == nil {
				break
			}
		}
		if n != nil && (overlapWith < 0 || n.first < overlapWith) {
			overlapWith = n.first
		}
		if overlap == "" && overlapWith >= 0 {
			overlap = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: " +
				pathText(paths[overlapWith]) + ", path two: " + pathText(b)
		}
		if conflict == "" && conflictWith >= 0 {
			conflict = "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: " +
				pathText(paths[conflictWith]) + ", path two: " + pathText(b)
		}
		root.insert(b, i)
	}
	return overlap, conflict
}

// projTrie is a node of the paths of a projection: each index is of the first path that passes
// through the node, ends at it, or goes on from it with a name (next[0]) or a list index (next[1]);
// -1 when none does.
type projTrie struct {
	first, ends int
	next        [2]int
	children    map[pathElem]*projTrie
}

func newProjTrie() *projTrie {
	return &projTrie{first: -1, ends: -1, next: [2]int{-1, -1}, children: map[pathElem]*projTrie{}}
}

func elemKind(el pathElem) int {
	if el.isIndex {
		return 1
	}
	return 0
}

func (n *projTrie) insert(path []pathElem, i int) {
	for _, el := range path {
		if k := elemKind(el); n.next[k] < 0 {
			n.next[k] = i
		}
		c, ok := n.children[el]
		if !ok {
			c = newProjTrie()
			n.children[el] = c
		}
		if c.first < 0 {
			c.first = i
		}
		n = c
	}
	if n.ends < 0 {
		n.ends = i
	}
}
