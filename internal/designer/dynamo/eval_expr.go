package dynamo

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// This file parses and evaluates DynamoDB condition expressions (KeyConditionExpression,
// FilterExpression) and projection expressions. The grammar and the order in which mistakes are
// reported follow dynalite's conditionParser.pegjs and projectionParser.pegjs, which were written
// against real DynamoDB answers (dynamodb-semantics §3.4):
//
//	Or     = And [OR Or]
//	And    = Not [AND And]
//	Not    = NOT Parens | Parens
//	Parens = "((" Or "))" | Condition | "(" Or ")"
//	Condition = Operand comparator Operand | Operand BETWEEN Operand AND Operand
//	          | Operand IN "(" Operand {"," Operand} ")" | Function
//	Operand   = Function | :value | path     (each may be wrapped in one pair of parentheses)
//
// so NOT binds tighter than AND, and AND tighter than OR. A whole expression is parsed before any
// semantic mistake is reported; when there are several, the one DynamoDB reports first wins:
// redundant parentheses, unknown function, misused function, reserved word, then the first
// undefined placeholder, wrong operand count, identical operands, wrong operand type.

// maxExpressionDepth bounds nesting so that a hostile expression cannot exhaust the stack.
const MaxExpressionDepth = 200

// maxExpressionBytes is DynamoDB's limit on the length of one expression string (4 KB). A request
// is held to it before its expressions are parsed: beyond keeping to DynamoDB's rules it bounds
// the parser's memo, which grows with the tokens, for a request body of megabytes. Expressions
// stored in a design are bounded by the design's own field limits.
const maxExpressionBytes = 4096

// expressionTooLong is the message for an expression past maxExpressionBytes, or "".
func expressionTooLong(src string) string {
	if len(src) <= maxExpressionBytes {
		return ""
	}
	return "Expression size has exceeded the maximum allowed size; expression size: " + strconv.Itoa(len(src)) + " bytes, at most 4096"
}

// errTooDeep ends the whole parse: once any alternative nests past maxExpressionDepth the answer
// no longer depends on which alternative got there, nor on what the memo already held.
var errTooDeep = &exprSyntaxError{"Syntax error; the expression is nested too deeply"}

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokIdent
	tokName  // #name
	tokValue // :value
	tokDigits
	tokPunct // ( ) [ ] , .
	tokComparator
	tokAnd
	tokOr
	tokNot
	tokBetween
	tokIn
)

type token struct {
	kind tokKind
	text string
	pos  int
}

// exprSyntaxError is a malformed expression; its text follows DynamoDB's
// `Syntax error; token: "x", near: "a x b"`.
type exprSyntaxError struct{ msg string }

func (e *exprSyntaxError) Error() string { return e.msg }

func lexExpression(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case isLetter(c) || c == '_':
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			word := s[i:j]
			kind := tokIdent
			switch strings.ToUpper(word) {
			case "AND":
				kind = tokAnd
			case "OR":
				kind = tokOr
			case "NOT":
				kind = tokNot
			case "BETWEEN":
				kind = tokBetween
			case "IN":
				kind = tokIn
			}
			toks = append(toks, token{kind, word, i})
			i = j
		case c == '#' || c == ':':
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			kind := tokName
			if c == ':' {
				kind = tokValue
			}
			toks = append(toks, token{kind, s[i:j], i})
			i = j
		case designer.IsDigit(c):
			j := i + 1
			for j < len(s) && designer.IsDigit(s[j]) {
				j++
			}
			toks = append(toks, token{tokDigits, s[i:j], i})
			i = j
		case strings.IndexByte("()[],.", c) >= 0:
			toks = append(toks, token{tokPunct, s[i : i+1], i})
			i++
		case c == '<' || c == '>' || c == '=':
			op := s[i : i+1]
			if i+1 < len(s) && (c == '<' && (s[i+1] == '=' || s[i+1] == '>') || c == '>' && s[i+1] == '=') {
				op = s[i : i+2]
			}
			toks = append(toks, token{tokComparator, op, i})
			i += len(op)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			return nil, syntaxErrorAt(s, s[i:i+n], i)
		}
	}
	return append(toks, token{kind: tokEOF, pos: len(s)}), nil
}

func isLetter(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentPart(c byte) bool { return isLetter(c) || designer.IsDigit(c) || c == '_' }

func syntaxErrorAt(s, tok string, pos int) error {
	if tok == "" {
		tok = "<EOF>"
	}
	start := max(pos-10, 0)
	end := min(pos+10, len(s))
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return &exprSyntaxError{"Syntax error; token: \"" + tok + "\", near: \"" + s[start:end] + "\""}
}

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

// parseCondition parses a condition expression. The error is an *exprSyntaxError for malformed
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

// parseProjection parses a ProjectionExpression into its paths, resolving #names.
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

// evalCondition reports whether item satisfies the condition.
func evalCondition(e *condExpr, it designer.Item) bool {
	switch e.kind {
	case condOr:
		return evalCondition(e.left, it) || evalCondition(e.right, it)
	case condAnd:
		return evalCondition(e.left, it) && evalCondition(e.right, it)
	case condNot:
		return !evalCondition(e.left, it)
	case condFunc:
		return evalFunc(e.fn, it)
	case condCompare:
		a, okA := resolveOperandValue(&e.args[0], it)
		b, okB := resolveOperandValue(&e.args[1], it)
		if e.op == "<>" {
			return !(okA && okB && ValuesEqual(a, b))
		}
		if !okA || !okB || a.Type != b.Type {
			return false
		}
		if e.op == "=" {
			switch a.Type {
			case designer.S:
				return a.S == b.S
			case designer.N:
				return designer.CompareNumberText(a.S, b.S) == 0
			}
			return ValuesEqual(a, b)
		}
		if a.Type != designer.S && a.Type != designer.N && a.Type != designer.B {
			return false
		}
		c := compareScalar(a, b)
		switch e.op {
		case "<":
			return c < 0
		case "<=":
			return c <= 0
		case ">":
			return c > 0
		}
		return c >= 0
	case condBetween:
		v, ok := resolveOperandValue(&e.args[0], it)
		lo, okLo := resolveOperandValue(&e.args[1], it)
		hi, okHi := resolveOperandValue(&e.args[2], it)
		if !ok || !okLo || !okHi || v.Type != lo.Type || v.Type != hi.Type || (v.Type != designer.S && v.Type != designer.N && v.Type != designer.B) {
			return false
		}
		return compareScalar(v, lo) >= 0 && compareScalar(v, hi) <= 0
	case condIn:
		v, ok := resolveOperandValue(&e.args[0], it)
		if !ok {
			return false
		}
		for i := 1; i < len(e.args); i++ {
			if w, ok := resolveOperandValue(&e.args[i], it); ok && ValuesEqual(v, w) {
				return true
			}
		}
	}
	return false
}

func evalFunc(f *funcCall, it designer.Item) bool {
	switch f.name {
	case "attribute_exists":
		_, ok := resolveOperandValue(&f.args[0], it)
		return ok
	case "attribute_not_exists":
		_, ok := resolveOperandValue(&f.args[0], it)
		return !ok
	case "attribute_type":
		v, ok := resolveOperandValue(&f.args[0], it)
		t, okT := resolveOperandValue(&f.args[1], it)
		return ok && okT && t.Type == designer.S && string(v.Type) == t.S
	case "begins_with":
		v, ok := resolveOperandValue(&f.args[0], it)
		pre, okP := resolveOperandValue(&f.args[1], it)
		if !ok || !okP || v.Type != pre.Type {
			return false
		}
		switch v.Type {
		case designer.S:
			return strings.HasPrefix(v.S, pre.S)
		case designer.B:
			return bytes.HasPrefix(v.B, pre.B)
		}
		return false
	case "contains":
		v, ok := resolveOperandValue(&f.args[0], it)
		x, okX := resolveOperandValue(&f.args[1], it)
		return ok && okX && containsValue(v, x)
	}
	return false
}

// containsValue is contains(path, operand): a substring of a String or Binary, or a member of a
// set or list.
func containsValue(v, x designer.Value) bool {
	switch {
	case v.Type == designer.S && x.Type == designer.S:
		return strings.Contains(v.S, x.S)
	case v.Type == designer.B && x.Type == designer.B:
		return bytes.Contains(v.B, x.B)
	case v.Type == designer.SS && x.Type == designer.S:
		for _, m := range v.SS {
			if m == x.S {
				return true
			}
		}
	case v.Type == designer.NS && x.Type == designer.N:
		for _, m := range v.SS {
			if designer.CompareNumberText(m, x.S) == 0 {
				return true
			}
		}
	case v.Type == designer.BS && x.Type == designer.B:
		for _, m := range v.BS {
			if bytes.Equal(m, x.B) {
				return true
			}
		}
	case v.Type == designer.L:
		for _, m := range v.L {
			if ValuesEqual(m, x) {
				return true
			}
		}
	}
	return false
}

// operandVal resolves an operand against an item; false when the path leads nowhere or size()
// is taken of something that has none.
func resolveOperandValue(o *operand, it designer.Item) (designer.Value, bool) {
	switch o.kind {
	case operandVal:
		return o.value, o.value.Type != ""
	case operandPath:
		if len(o.path) == 1 {
			v, ok := it[o.path[0].name]
			return v, ok
		}
		return lookupPath(it, o.path)
	}
	if o.fn.name != "size" || len(o.fn.args) != 1 {
		return designer.Value{}, false
	}
	v, ok := resolveOperandValue(&o.fn.args[0], it)
	if !ok {
		return designer.Value{}, false
	}
	var n int
	switch v.Type {
	case designer.S:
		n = utf16Len(v.S)
	case designer.B:
		n = len(v.B)
	case designer.SS, designer.NS:
		n = len(v.SS)
	case designer.BS:
		n = len(v.BS)
	case designer.L:
		n = len(v.L)
	case designer.M:
		n = len(v.M)
	default:
		return designer.Value{}, false
	}
	return designer.Num(strconv.Itoa(n)), true
}

// utf16Len counts a string as DynamoDB's size() does, in UTF-16 code units (the length a Java
// or JavaScript string has); it equals the byte length for ASCII.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func lookupPath(it designer.Item, path []pathElem) (designer.Value, bool) {
	v, ok := it[path[0].name]
	if !ok {
		return designer.Value{}, false
	}
	for _, el := range path[1:] {
		switch {
		case el.isIndex && v.Type == designer.L:
			if el.index >= len(v.L) {
				return designer.Value{}, false
			}
			v = v.L[el.index]
		case !el.isIndex && v.Type == designer.M:
			if v, ok = v.M[el.name]; !ok {
				return designer.Value{}, false
			}
		default:
			return designer.Value{}, false
		}
	}
	return v, true
}

// compareScalar orders two S, N or B values of the same type.
func compareScalar(a, b designer.Value) int {
	switch a.Type {
	case designer.N:
		return designer.CompareNumberText(a.S, b.S)
	case designer.B:
		return bytes.Compare(a.B, b.B)
	}
	return strings.Compare(a.S, b.S)
}

// valuesEqual is DynamoDB's equality: same type and same value; numbers compare by value, sets
// ignore order, lists and maps compare element by element.
func ValuesEqual(a, b designer.Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case designer.S:
		return a.S == b.S
	case designer.N:
		return designer.CompareNumberText(a.S, b.S) == 0
	case designer.B:
		return bytes.Equal(a.B, b.B)
	case designer.BOOL:
		return a.Bool == b.Bool
	case designer.NULL:
		return true
	case designer.SS, designer.NS:
		if len(a.SS) != len(b.SS) {
			return false
		}
		for _, x := range a.SS {
			found := false
			for _, y := range b.SS {
				if x == y || a.Type == designer.NS && designer.CompareNumberText(x, y) == 0 {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case designer.BS:
		if len(a.BS) != len(b.BS) {
			return false
		}
		for _, x := range a.BS {
			found := false
			for _, y := range b.BS {
				if bytes.Equal(x, y) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case designer.L:
		if len(a.L) != len(b.L) {
			return false
		}
		for i := range a.L {
			if !ValuesEqual(a.L[i], b.L[i]) {
				return false
			}
		}
		return true
	case designer.M:
		if len(a.M) != len(b.M) {
			return false
		}
		for k, x := range a.M {
			y, ok := b.M[k]
			if !ok || !ValuesEqual(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

// projectItem keeps the attributes and document paths of a ProjectionExpression. List elements
// picked by index keep their source order and close up, as in DynamoDB's answer.
func projectItem(it designer.Item, paths [][]pathElem) designer.Item {
	root := &projNode{}
	for _, path := range paths {
		v, ok := lookupPath(it, path)
		if !ok {
			continue
		}
		n := root
		for _, el := range path {
			n = n.child(el)
		}
		n.whole = &v
	}
	out := make(designer.Item, len(root.fields))
	for name, n := range root.fields {
		out[name] = n.value()
	}
	return out
}

// projNode is a part of a projection being built: a whole value, or the picked map entries or
// list elements of one.
type projNode struct {
	whole  *designer.Value
	fields map[string]*projNode
	elems  map[int]*projNode
}

func (n *projNode) child(el pathElem) *projNode {
	if el.isIndex {
		if n.elems == nil {
			n.elems = map[int]*projNode{}
		}
		c, ok := n.elems[el.index]
		if !ok {
			c = &projNode{}
			n.elems[el.index] = c
		}
		return c
	}
	if n.fields == nil {
		n.fields = map[string]*projNode{}
	}
	c, ok := n.fields[el.name]
	if !ok {
		c = &projNode{}
		n.fields[el.name] = c
	}
	return c
}

func (n *projNode) value() designer.Value {
	switch {
	case n.whole != nil:
		return *n.whole
	case n.elems != nil:
		idx := make([]int, 0, len(n.elems))
		for i := range n.elems {
			idx = append(idx, i)
		}
		slices.Sort(idx)
		l := make([]designer.Value, len(idx))
		for k, i := range idx {
			l[k] = n.elems[i].value()
		}
		return designer.Value{Type: designer.L, L: l}
	}
	m := make(map[string]designer.Value, len(n.fields))
	for name, c := range n.fields {
		m[name] = c.value()
	}
	return designer.Value{Type: designer.M, M: m}
}

// reservedWords are DynamoDB's reserved words (ReservedWords.html, as dynalite lists them); one used
// bare as an attribute name in an expression is refused.
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(reservedWordList) {
		m[w] = true
	}
	return m
}()

func isReservedWord(name string) bool { return reservedWords[strings.ToUpper(name)] }

const reservedWordList = "" +
	"ABORT ABSOLUTE ACTION ADD AFTER AGENT AGGREGATE ALL ALLOCATE ALTER ANALYZE AND ANY ARCHIVE ARE " +
	"ARRAY AS ASC ASCII ASENSITIVE ASSERTION ASYMMETRIC AT ATOMIC ATTACH ATTRIBUTE AUTH AUTHORIZATION " +
	"AUTHORIZE AUTO AVG BACK BACKUP BASE BATCH BEFORE BEGIN BETWEEN BIGINT BINARY BIT BLOB BLOCK " +
	"BOOLEAN BOTH BREADTH BUCKET BULK BY BYTE CALL CALLED CALLING CAPACITY CASCADE CASCADED CASE CAST " +
	"CATALOG CHAR CHARACTER CHECK CLASS CLOB CLOSE CLUSTER CLUSTERED CLUSTERING CLUSTERS COALESCE " +
	"COLLATE COLLATION COLLECTION COLUMN COLUMNS COMBINE COMMENT COMMIT COMPACT COMPILE COMPRESS " +
	"CONDITION CONFLICT CONNECT CONNECTION CONSISTENCY CONSISTENT CONSTRAINT CONSTRAINTS CONSTRUCTOR " +
	"CONSUMED CONTINUE CONVERT COPY CORRESPONDING COUNT COUNTER CREATE CROSS CUBE CURRENT CURSOR " +
	"CYCLE DATA DATABASE DATE DATETIME DAY DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFERRABLE DEFERRED " +
	"DEFINE DEFINED DEFINITION DELETE DELIMITED DEPTH DEREF DESC DESCRIBE DESCRIPTOR DETACH " +
	"DETERMINISTIC DIAGNOSTICS DIRECTORIES DISABLE DISCONNECT DISTINCT DISTRIBUTE DO DOMAIN DOUBLE " +
	"DROP DUMP DURATION DYNAMIC EACH ELEMENT ELSE ELSEIF EMPTY ENABLE END EQUAL EQUALS ERROR ESCAPE " +
	"ESCAPED EVAL EVALUATE EXCEEDED EXCEPT EXCEPTION EXCEPTIONS EXCLUSIVE EXEC EXECUTE EXISTS EXIT " +
	"EXPLAIN EXPLODE EXPORT EXPRESSION EXTENDED EXTERNAL EXTRACT FAIL FALSE FAMILY FETCH FIELDS FILE " +
	"FILTER FILTERING FINAL FINISH FIRST FIXED FLATTERN FLOAT FOR FORCE FOREIGN FORMAT FORWARD FOUND " +
	"FREE FROM FULL FUNCTION FUNCTIONS GENERAL GENERATE GET GLOB GLOBAL GO GOTO GRANT GREATER GROUP " +
	"GROUPING HANDLER HASH HAVE HAVING HEAP HIDDEN HOLD HOUR IDENTIFIED IDENTITY IF IGNORE IMMEDIATE " +
	"IMPORT IN INCLUDING INCLUSIVE INCREMENT INCREMENTAL INDEX INDEXED INDEXES INDICATOR INFINITE " +
	"INITIALLY INLINE INNER INNTER INOUT INPUT INSENSITIVE INSERT INSTEAD INT INTEGER INTERSECT " +
	"INTERVAL INTO INVALIDATE IS ISOLATION ITEM ITEMS ITERATE JOIN KEY KEYS LAG LANGUAGE LARGE LAST " +
	"LATERAL LEAD LEADING LEAVE LEFT LENGTH LESS LEVEL LIKE LIMIT LIMITED LINES LIST LOAD LOCAL " +
	"LOCALTIME LOCALTIMESTAMP LOCATION LOCATOR LOCK LOCKS LOG LOGED LONG LOOP LOWER MAP MATCH " +
	"MATERIALIZED MAX MAXLEN MEMBER MERGE METHOD METRICS MIN MINUS MINUTE MISSING MOD MODE MODIFIES " +
	"MODIFY MODULE MONTH MULTI MULTISET NAME NAMES NATIONAL NATURAL NCHAR NCLOB NEW NEXT NO NONE NOT " +
	"NULL NULLIF NUMBER NUMERIC OBJECT OF OFFLINE OFFSET OLD ON ONLINE ONLY OPAQUE OPEN OPERATOR " +
	"OPTION OR ORDER ORDINALITY OTHER OTHERS OUT OUTER OUTPUT OVER OVERLAPS OVERRIDE OWNER PAD " +
	"PARALLEL PARAMETER PARAMETERS PARTIAL PARTITION PARTITIONED PARTITIONS PATH PERCENT PERCENTILE " +
	"PERMISSION PERMISSIONS PIPE PIPELINED PLAN POOL POSITION PRECISION PREPARE PRESERVE PRIMARY " +
	"PRIOR PRIVATE PRIVILEGES PROCEDURE PROCESSED PROJECT PROJECTION PROPERTY PROVISIONING PUBLIC PUT " +
	"QUERY QUIT QUORUM RAISE RANDOM RANGE RANK RAW READ READS REAL REBUILD RECORD RECURSIVE REDUCE " +
	"REF REFERENCE REFERENCES REFERENCING REGEXP REGION REINDEX RELATIVE RELEASE REMAINDER RENAME " +
	"REPEAT REPLACE REQUEST RESET RESIGNAL RESOURCE RESPONSE RESTORE RESTRICT RESULT RETURN RETURNING " +
	"RETURNS REVERSE REVOKE RIGHT ROLE ROLES ROLLBACK ROLLUP ROUTINE ROW ROWS RULE RULES SAMPLE " +
	"SATISFIES SAVE SAVEPOINT SCAN SCHEMA SCOPE SCROLL SEARCH SECOND SECTION SEGMENT SEGMENTS SELECT " +
	"SELF SEMI SENSITIVE SEPARATE SEQUENCE SERIALIZABLE SESSION SET SETS SHARD SHARE SHARED SHORT " +
	"SHOW SIGNAL SIMILAR SIZE SKEWED SMALLINT SNAPSHOT SOME SOURCE SPACE SPACES SPARSE SPECIFIC " +
	"SPECIFICTYPE SPLIT SQL SQLCODE SQLERROR SQLEXCEPTION SQLSTATE SQLWARNING START STATE STATIC " +
	"STATUS STORAGE STORE STORED STREAM STRING STRUCT STYLE SUB SUBMULTISET SUBPARTITION SUBSTRING " +
	"SUBTYPE SUM SUPER SYMMETRIC SYNONYM SYSTEM TABLE TABLESAMPLE TEMP TEMPORARY TERMINATED TEXT THAN " +
	"THEN THROUGHPUT TIME TIMESTAMP TIMEZONE TINYINT TO TOKEN TOTAL TOUCH TRAILING TRANSACTION " +
	"TRANSFORM TRANSLATE TRANSLATION TREAT TRIGGER TRIM TRUE TRUNCATE TTL TUPLE TYPE UNDER UNDO UNION " +
	"UNIQUE UNIT UNKNOWN UNLOGGED UNNEST UNPROCESSED UNSIGNED UNTIL UPDATE UPPER URL USAGE USE USER " +
	"USERS USING UUID VACUUM VALUE VALUED VALUES VARCHAR VARIABLE VARIANCE VARINT VARYING VIEW VIEWS " +
	"VIRTUAL VOID WAIT WHEN WHENEVER WHERE WHILE WINDOW WITH WITHIN WITHOUT WORK WRAPPED WRITE YEAR " +
	"ZONE"
