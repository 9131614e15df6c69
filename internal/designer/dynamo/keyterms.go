package dynamo

import (
	"fmt"
	"strings"
)

// Reading a key condition for the rules and the readers of written operations, which need to know
// which attribute each condition holds and with which comparator, not to evaluate it. The text is
// read by the evaluator's own lexer and parser, so nothing is accepted here that a run refuses.

// KeyTerm is one condition of a key condition: the attribute (#placeholders resolved), the
// comparator ("=", "<", "<=", ">", ">=", "<>", "BETWEEN", "begins_with", or "IN" where ParseItemKeys
// allows it, written as if the attribute came first), and whether the attribute is a #placeholder names does not define.
type KeyTerm struct {
	Attr       string
	Op         string
	Unresolved bool
}

// Unresolved reports whether some term names an undefined #placeholder.
func Unresolved(terms []KeyTerm) bool {
	for _, t := range terms {
		if t.Unresolved {
			return true
		}
	}
	return false
}

// ParseKeyCondition reads a key condition: conditions joined by AND, each `a = :v` (any comparator,
// either way round), `a BETWEEN :x AND :y` or `begins_with(a, :p)`, in parentheses or not. Text the
// evaluator cannot parse is refused with its syntax error; a condition a key condition cannot hold
// (OR, NOT, IN, another function, a document path) with a sentence saying so. The values are not
// looked up: a key condition is read before its values are given; nor are reserved words refused,
// which people write in a mapping's text and a run reports with the placeholder to use instead.
func ParseKeyCondition(expr string, names map[string]string) ([]KeyTerm, error) {
	return parseKeyTerms(expr, names, false)
}

// ParseItemKeys reads the key condition of an operation that names its items by their keys, as
// ParseKeyCondition does; when the operation takes several keys (SeveralKeys), `a IN (:x, :y)`
// gives several values of a key attribute, a term whose Op is "IN", as the evaluator reads it.
func ParseItemKeys(op string, expr string, names map[string]string) ([]KeyTerm, error) {
	return parseKeyTerms(expr, names, SeveralKeys(op))
}

// SeveralKeys reports whether an operation names several items in one request, so that its key
// condition may give a key attribute several values with IN: BatchGetItem, TransactGetItems,
// BatchWriteItem and TransactWriteItems. GetItem, PutItem, UpdateItem and DeleteItem name one.
func SeveralKeys(op string) bool {
	switch op {
	case "BatchGetItem", "TransactGetItems", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
}

func parseKeyTerms(expr string, names map[string]string, in bool) ([]KeyTerm, error) {
	toks, err := lexExpression(expr)
	if err != nil {
		return nil, err
	}
	p := &exprParser{src: expr, toks: toks, pathHeads: map[string]bool{}, nestedPaths: map[string]bool{}}
	e, err := p.parseOr()
	if err == nil && p.peek().kind != tokEOF {
		err = p.fail()
	}
	switch {
	case p.tooDeep:
		return nil, fmt.Errorf("the condition nests parentheses deeper than %d levels", MaxExpressionDepth)
	case err != nil:
		return nil, p.syntaxError()
	case p.issues.parens != "":
		return nil, fmt.Errorf("%s", strings.TrimSuffix(p.issues.parens, ";"))
	}
	var terms []KeyTerm
	var walk func(*condExpr) error
	walk = func(c *condExpr) error {
		switch c.kind {
		case condAnd:
			if err := walk(c.left); err != nil {
				return err
			}
			return walk(c.right)
		case condOr:
			return fmt.Errorf("a key condition joins conditions only with AND, not OR")
		case condNot:
			return fmt.Errorf("a key condition joins conditions only with AND, not NOT")
		case condIn:
			if !in {
				return fmt.Errorf("a key condition compares with = < <= > >= BETWEEN or begins_with, not IN")
			}
			if c.args[0].kind != operandPath {
				return fmt.Errorf("IN needs the key attribute first, then its values in parentheses")
			}
			term, err := keyTerm(c.args, names, "IN")
			terms = append(terms, term)
			return err
		case condFunc:
			if c.fn.name != "begins_with" {
				return fmt.Errorf("a key condition allows only the function begins_with, not %s", c.fn.name)
			}
			if len(c.fn.args) != 2 || c.fn.args[0].kind != operandPath {
				return fmt.Errorf("begins_with takes the key attribute, then a :value")
			}
			term, err := keyTerm(c.fn.args, names, "begins_with")
			terms = append(terms, term)
			return err
		case condBetween:
			if c.args[0].kind != operandPath {
				return fmt.Errorf("BETWEEN needs the key attribute first, then two values joined by AND")
			}
			term, err := keyTerm(c.args, names, "BETWEEN")
			terms = append(terms, term)
			return err
		}
		op := c.op
		if len(c.args) == 2 && c.args[0].kind == operandVal && c.args[1].kind == operandPath {
			op = swapped[op]
			if op == "" {
				op = c.op // "=" and "<>" read the same either way round
			}
		}
		term, err := keyTerm(c.args, names, op)
		terms = append(terms, term)
		return err
	}
	if err := walk(e); err != nil {
		return nil, err
	}
	return terms, nil
}

// keyTerm reads the operands of one condition: exactly one top-level attribute, and values.
func keyTerm(args []operand, names map[string]string, op string) (KeyTerm, error) {
	term := KeyTerm{Op: op}
	found := false
	for _, a := range args {
		switch a.kind {
		case operandFunc:
			return term, fmt.Errorf("a key condition allows only the function begins_with, not %s", a.fn.name)
		case operandVal:
			continue
		}
		if found {
			return term, fmt.Errorf("%s compares two attributes; a key condition compares a key attribute with a :value", op)
		}
		found = true
		name := a.path[0].name
		if len(a.path) > 1 {
			sep := "."
			if a.path[1].isIndex {
				sep = "["
			}
			return term, fmt.Errorf("%s%s…: a key attribute is a top-level attribute, not a document path", name, sep)
		}
		switch real, ok := names[name]; {
		case strings.HasPrefix(name, "#") && !ok:
			term.Attr, term.Unresolved = name, true
		case strings.HasPrefix(name, "#"):
			term.Attr = real
		default:
			term.Attr = name
		}
	}
	if !found {
		return term, fmt.Errorf("the condition names no key attribute, only values")
	}
	return term, nil
}

// ExpressionAttributes returns the top-level attributes an expression (condition, filter or
// projection) names, #placeholders resolved, and the placeholders names does not define, each once
// in the order written. Function names and the attributes below a "." are not attributes of the
// item; "x.y" names x.
func ExpressionAttributes(expr string, names map[string]string) (attrs, missing []string, err error) {
	toks, err := lexExpression(expr)
	if err != nil {
		return nil, nil, err
	}
	seenAttr, seenMissing := map[string]bool{}, map[string]bool{}
	for i, t := range toks {
		if t.kind != tokIdent && t.kind != tokName {
			continue
		}
		nested := i > 0 && toks[i-1].isPunct(".")
		function := toks[i+1].isPunct("(")
		if nested || t.kind == tokIdent && function {
			continue
		}
		name := t.text
		if t.kind == tokName {
			real, ok := names[t.text]
			if !ok {
				if !seenMissing[t.text] {
					seenMissing[t.text] = true
					missing = append(missing, t.text)
				}
				continue
			}
			name = real
		}
		if !seenAttr[name] {
			seenAttr[name] = true
			attrs = append(attrs, name)
		}
	}
	return attrs, missing, nil
}

// NamePlaceholders returns the #placeholders an expression uses, at any depth of a path.
func NamePlaceholders(expr string) ([]string, error) {
	toks, err := lexExpression(expr)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range toks {
		if t.kind == tokName {
			out = append(out, t.text)
		}
	}
	return out, nil
}
