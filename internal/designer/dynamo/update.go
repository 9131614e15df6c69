package dynamo

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// UpdateExpression (dynamodb-semantics §3.5): parsed here, applied to a copy of an item. The grammar,
// with the lexer of expr.go plus "+" and "-":
//
//	Update  = Section {Section}            each of SET, REMOVE, ADD, DELETE at most once
//	Section = SET SetAction {"," SetAction} | REMOVE path {"," path}
//	        | ADD path :value {"," path :value} | DELETE path :value {"," path :value}
//	SetAction = path "=" Operand [("+" | "-") Operand]
//	Operand   = path | :value | if_not_exists(path, Operand) | list_append(Operand, Operand)
//
// Every operand of SET reads the item as it was before the update, and the mistakes are reported
// in DynamoDB's order: reserved word, unknown function, repeated section, undefined name, undefined
// value, overlapping paths, operand type, function operands.

// updateAction is one clause of an update: the section it belongs to, the path it writes and, for
// SET, ADD and DELETE, what it writes.
type updateAction struct {
	section string // SET, REMOVE, ADD or DELETE
	path    []pathElem
	value   setValue
}

// setValue is SET's right-hand side: one operand, or two joined by "+" or "-"; ADD and DELETE
// use left alone.
type setValue struct {
	left, right operand
	arith       string // "+", "-" or ""
}

// updateIssues are the mistakes of an update expression, in DynamoDB's order of report.
type updateIssues struct {
	reserved, unknownFunction, section, attrName, attrVal, overlap, operand, function string
}

func (is *updateIssues) report() string {
	for _, m := range []string{is.reserved, is.unknownFunction, is.section, is.attrName, is.attrVal, is.overlap, is.operand, is.function} {
		if m != "" {
			return m
		}
	}
	return ""
}

// ParseUpdate parses an UpdateExpression, resolving its placeholders through ctx. The message is
// DynamoDB's, without the "Invalid UpdateExpression: " it is given in a request's answer.
func ParseUpdate(src string, ctx *exprContext) ([]updateAction, string) {
	if strings.TrimSpace(src) == "" {
		return nil, "The expression can not be empty;"
	}
	if msg := expressionTooLong(src); msg != "" {
		return nil, msg
	}
	toks, err := lexTokens(src, "()[],.+-")
	if err != nil {
		return nil, err.Error()
	}
	p := &exprParser{src: src, toks: toks, ctx: ctx, pathHeads: map[string]bool{}, nestedPaths: map[string]bool{}}
	var actions []updateAction
	var is updateIssues
	seen := map[string]bool{}
	for p.peek().kind != tokEOF {
		t := p.peek()
		section := strings.ToUpper(t.text)
		if t.kind != tokIdent || (section != "SET" && section != "REMOVE" && section != "ADD" && section != "DELETE") {
			return nil, p.fail().Error()
		}
		p.at++
		if seen[section] {
			setFirst(&is.section, `The "`+section+`" section can only be used once in an update expression;`)
		}
		seen[section] = true
		for {
			a := updateAction{section: section}
			if a.path, err = p.parsePath(false); err != nil {
				return nil, p.syntaxError().Error()
			}
			switch section {
			case "SET":
				if !p.isEquals() {
					return nil, p.fail().Error()
				}
				p.at++
				if a.value.left, err = p.parseUpdateOperand(); err != nil {
					return nil, p.syntaxError().Error()
				}
				if t := p.peek(); t.isPunct("+") || t.isPunct("-") {
					p.at++
					a.value.arith = t.text
					if a.value.right, err = p.parseUpdateOperand(); err != nil {
						return nil, p.syntaxError().Error()
					}
				}
			case "ADD", "DELETE":
				v := p.peek()
				if v.kind != tokValue {
					return nil, p.fail().Error()
				}
				p.at++
				a.value.left = operand{kind: operandVal, path: []pathElem{{name: v.text}}, pos: v.pos}
			}
			actions = append(actions, a)
			if !p.isPunct(",") {
				break
			}
			p.at++
		}
	}
	var paths [][]pathElem
	for i := range actions {
		a := &actions[i]
		path := operand{kind: operandPath, path: a.path}
		p.resolveUpdateOperand(&path, &is)
		a.path = path.path
		p.resolveUpdateOperand(&a.value.left, &is)
		if a.value.arith != "" {
			p.resolveUpdateOperand(&a.value.right, &is)
			checkUpdateFunc(&is, a.value.arith, []operand{a.value.left, a.value.right})
		}
		for _, q := range paths {
			if is.overlap == "" && overlaps(q, a.path) {
				is.overlap = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: " +
					pathText(q) + ", path two: " + pathText(a.path)
			}
		}
		paths = append(paths, a.path)
		if (a.section == "ADD" || a.section == "DELETE") && is.operand == "" {
			t := a.value.left.value.Type
			allowed := t == designer.SS || t == designer.NS || t == designer.BS || a.section == "ADD" && t == designer.N
			if t != "" && !allowed {
				is.operand = "Incorrect operand type for operator or function; operator: " + a.section + ", operand type: " + typeWord(t)
			}
		}
	}
	if msg := is.report(); msg != "" {
		return nil, msg
	}
	return actions, ""
}

func (p *exprParser) isEquals() bool {
	t := p.peek()
	return t.kind == tokComparator && t.text == "="
}

// parseUpdateOperand reads an operand of SET: a path, a value, or a function of operands.
func (p *exprParser) parseUpdateOperand() (operand, error) {
	t := p.peek()
	if t.kind == tokIdent && p.toks[p.at+1].isPunct("(") {
		p.at += 2
		var args []operand
		for {
			a, err := p.parseUpdateOperand()
			if err != nil {
				return operand{}, err
			}
			args = append(args, a)
			if !p.isPunct(",") {
				break
			}
			p.at++
		}
		if !p.isPunct(")") {
			return operand{}, p.fail()
		}
		p.at++
		return operand{kind: operandFunc, fn: &funcCall{name: t.text, args: args, pos: t.pos}, pos: t.pos}, nil
	}
	if t.kind == tokValue {
		p.at++
		return operand{kind: operandVal, path: []pathElem{{name: t.text}}, pos: t.pos}, nil
	}
	path, err := p.parsePath(false)
	if err != nil {
		return operand{}, err
	}
	return operand{kind: operandPath, path: path, pos: t.pos}, nil
}

// resolveUpdateOperand resolves the placeholders of o and checks its functions.
func (p *exprParser) resolveUpdateOperand(o *operand, is *updateIssues) {
	switch o.kind {
	case operandVal:
		name := o.path[0].name
		v, ok := p.ctx.values[name]
		if !ok {
			setFirst(&is.attrVal, "An expression attribute value used in expression is not defined; attribute value: "+name)
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
					setFirst(&is.attrName, "An expression attribute name used in the document path is not defined; attribute name: "+el.name)
					continue
				}
				p.ctx.UsedNames[el.name] = true
				el.name = real
			case isReservedWord(el.name):
				setFirst(&is.reserved, "Attribute name is a reserved keyword; reserved keyword: "+el.name)
			}
		}
	case operandFunc:
		for i := range o.fn.args {
			p.resolveUpdateOperand(&o.fn.args[i], is)
		}
		checkUpdateFunc(is, o.fn.name, o.fn.args)
	}
}

// checkUpdateFunc checks a function of SET (or "+" and "-") and its operands.
func checkUpdateFunc(is *updateIssues, name string, args []operand) {
	arity := map[string]int{"if_not_exists": 2, "list_append": 2, "+": 2, "-": 2}
	n, known := arity[name]
	if !known {
		setFirst(&is.unknownFunction, "Invalid function name; function: "+name)
		return
	}
	if is.unknownFunction != "" || is.function != "" {
		return
	}
	if n != len(args) {
		is.function = "Incorrect number of operands for operator or function; operator or function: " + name + ", number of operands: " + strconv.Itoa(len(args))
		return
	}
	want := designer.N
	switch name {
	case "if_not_exists":
		if args[0].kind != operandPath {
			is.function = "Operator or function requires a document path; operator or function: " + name
		}
		return
	case "list_append":
		want = designer.L
	}
	for _, a := range args {
		if a.kind == operandVal && a.value.Type != "" && a.value.Type != want {
			is.function = "Incorrect operand type for operator or function; operator or function: " + name + ", operand type: " + string(a.value.Type)
			return
		}
	}
}

// typeWord names a type as DynamoDB's operand-type messages do.
func typeWord(t designer.Type) string {
	switch t {
	case designer.S:
		return "STRING"
	case designer.N:
		return "NUMBER"
	case designer.B:
		return "BINARY"
	case designer.BOOL:
		return "BOOLEAN"
	case designer.L:
		return "LIST"
	case designer.M:
		return "MAP"
	}
	return string(t)
}

// overlaps reports whether one path is the other or lies inside it.
func overlaps(a, b []pathElem) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// errWrongType is DynamoDB's answer to an operand of the wrong type met while applying an update.
const errWrongType = "An operand in the update expression has an incorrect data type"

// indexTypes maps each index key attribute of the table to its type.
func indexTypes(t designer.Table) map[string]designer.Type {
	out := map[string]designer.Type{}
	_ = indexKeyTypes(t, func(name string, typ designer.Type, _ string) error {
		out[name] = typ
		return nil
	})
	return out
}

// applyUpdate applies actions to a copy of it and returns the copy, or DynamoDB's message;
// keyTypes are the table's index key attributes, which SET may only give their own type.
func applyUpdate(actions []updateAction, it designer.Item, keyTypes map[string]designer.Type) (designer.Item, string) {
	// SET reads the item before the update: resolve every right-hand side first.
	values := make([]designer.Value, len(actions))
	for i, a := range actions {
		if a.section != "SET" {
			continue
		}
		v, msg := updateValue(a.value, it)
		if msg != "" {
			return nil, msg
		}
		values[i] = v
	}
	out := CloneItem(it)
	for i, a := range actions {
		if typ, isKey := keyTypes[a.path[0].name]; isKey && a.section == "SET" && len(a.path) == 1 && values[i].Type != typ {
			return nil, "The update expression attempted to update the secondary index key to unsupported type"
		}
		head := a.path[0].name
		if len(a.path) > 1 {
			v, ok := out[head]
			if !ok {
				return nil, "The document path provided in the update expression is invalid for update"
			}
			nv, msg := updateNested(v, a.path[1:], a, values[i])
			if msg != "" {
				return nil, msg
			}
			out[head] = nv
			continue
		}
		old, exists := out[head]
		nv, remove, msg := updateOne(a, old, exists, values[i])
		if msg != "" {
			return nil, msg
		}
		if remove {
			delete(out, head)
		} else if nv.Type != "" {
			out[head] = nv
		}
	}
	return out, ""
}

// updateOne is what action a makes of one attribute (old, when exists): its new value, or remove
// to take it away. A zero value with remove false leaves it as it is.
func updateOne(a updateAction, old designer.Value, exists bool, set designer.Value) (designer.Value, bool, string) {
	switch a.section {
	case "SET":
		return set, false, ""
	case "REMOVE":
		return designer.Value{}, exists, ""
	case "ADD":
		v := a.value.left.value
		if !exists {
			return v, false, ""
		}
		if old.Type != v.Type {
			return designer.Value{}, false, errWrongType
		}
		if v.Type == designer.N {
			sum, msg := addNumbers(old.S, v.S, false)
			return designer.Num(sum), false, msg
		}
		return setUnion(old, v), false, ""
	default: // DELETE
		if !exists {
			return designer.Value{}, false, ""
		}
		v := a.value.left.value
		if old.Type != v.Type {
			return designer.Value{}, false, errWrongType
		}
		left := setMinus(old, v)
		return left, len(left.SS)+len(left.BS) == 0, ""
	}
}

// updateNested applies a to the path inside v, copying what it changes.
func updateNested(v designer.Value, path []pathElem, a updateAction, set designer.Value) (designer.Value, string) {
	el := path[0]
	switch {
	case el.isIndex && v.Type == designer.L:
		list := slices.Clone(v.L)
		if len(path) > 1 {
			if el.index >= len(list) {
				return v, "The document path provided in the update expression is invalid for update"
			}
			nv, msg := updateNested(list[el.index], path[1:], a, set)
			list[el.index] = nv
			return designer.Value{Type: designer.L, L: list}, msg
		}
		exists := el.index < len(list)
		var old designer.Value
		if exists {
			old = list[el.index]
		}
		nv, remove, msg := updateOne(a, old, exists, set)
		switch {
		case msg != "":
			return v, msg
		case remove:
			list = slices.Delete(list, el.index, el.index+1)
		case nv.Type != "" && exists:
			list[el.index] = nv
		case nv.Type != "":
			list = append(list, nv) // past the end: appended, as DynamoDB does
		}
		return designer.Value{Type: designer.L, L: list}, ""
	case !el.isIndex && v.Type == designer.M:
		m := make(map[string]designer.Value, len(v.M))
		for k, x := range v.M {
			m[k] = x
		}
		if len(path) > 1 {
			child, ok := m[el.name]
			if !ok {
				return v, "The document path provided in the update expression is invalid for update"
			}
			nv, msg := updateNested(child, path[1:], a, set)
			m[el.name] = nv
			return designer.Value{Type: designer.M, M: m}, msg
		}
		old, exists := m[el.name]
		nv, remove, msg := updateOne(a, old, exists, set)
		switch {
		case msg != "":
			return v, msg
		case remove:
			delete(m, el.name)
		case nv.Type != "":
			m[el.name] = nv
		}
		return designer.Value{Type: designer.M, M: m}, ""
	}
	return v, "The document path provided in the update expression is invalid for update"
}

// updateValue resolves SET's right-hand side against the item before the update.
func updateValue(sv setValue, it designer.Item) (designer.Value, string) {
	left, msg := updateOperand(sv.left, it)
	if msg != "" || sv.arith == "" {
		return left, msg
	}
	if left.Type != designer.N {
		return designer.Value{}, errWrongType
	}
	right, msg := updateOperand(sv.right, it)
	if msg != "" {
		return designer.Value{}, msg
	}
	if right.Type != designer.N {
		return designer.Value{}, errWrongType
	}
	sum, msg := addNumbers(left.S, right.S, sv.arith == "-")
	return designer.Num(sum), msg
}

func updateOperand(o operand, it designer.Item) (designer.Value, string) {
	switch o.kind {
	case operandVal:
		return o.value, ""
	case operandPath:
		if v, ok := lookupPath(it, o.path); ok {
			return v, ""
		}
	case operandFunc:
		switch o.fn.name {
		case "if_not_exists":
			if v, ok := lookupPath(it, o.fn.args[0].path); ok {
				return v, ""
			}
			return updateOperand(o.fn.args[1], it)
		case "list_append":
			a, msg := updateOperand(o.fn.args[0], it)
			if msg != "" {
				return a, msg
			}
			if a.Type != designer.L {
				return designer.Value{}, errWrongType
			}
			b, msg := updateOperand(o.fn.args[1], it)
			if msg != "" {
				return b, msg
			}
			if b.Type != designer.L {
				return designer.Value{}, errWrongType
			}
			return designer.Value{Type: designer.L, L: slices.Concat(a.L, b.L)}, ""
		}
	}
	return designer.Value{}, "The provided expression refers to an attribute that does not exist in the item"
}

// addNumbers adds (or subtracts) two DynamoDB numbers exactly, as their decimal text.
func addNumbers(a, b string, subtract bool) (string, string) {
	x, okA := new(big.Rat).SetString(a)
	y, okB := new(big.Rat).SetString(b)
	if !okA || !okB {
		return "", errWrongType
	}
	if subtract {
		y.Neg(y)
	}
	s := x.Add(x, y).FloatString(130) // DynamoDB's smallest magnitude is 1E-130
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	if err := designer.CheckNumber(s); err != nil {
		return "", "Number overflow. Attempting to store a number with magnitude larger than supported range"
	}
	return s, ""
}

// setUnion adds the members of b that a lacks, after a's own.
func setUnion(a, b designer.Value) designer.Value {
	out := designer.Value{Type: a.Type, SS: slices.Clone(a.SS), BS: slices.Clone(a.BS)}
	for _, s := range b.SS {
		if !slices.ContainsFunc(out.SS, func(x string) bool { return sameMember(a.Type, x, s) }) {
			out.SS = append(out.SS, s)
		}
	}
	for _, m := range b.BS {
		if !slices.ContainsFunc(out.BS, func(x []byte) bool { return string(x) == string(m) }) {
			out.BS = append(out.BS, m)
		}
	}
	return out
}

// setMinus is a without the members of b.
func setMinus(a, b designer.Value) designer.Value {
	out := designer.Value{Type: a.Type}
	for _, s := range a.SS {
		if !slices.ContainsFunc(b.SS, func(x string) bool { return sameMember(a.Type, x, s) }) {
			out.SS = append(out.SS, s)
		}
	}
	for _, m := range a.BS {
		if !slices.ContainsFunc(b.BS, func(x []byte) bool { return string(x) == string(m) }) {
			out.BS = append(out.BS, m)
		}
	}
	return out
}

// sameMember compares two members of a string or number set; numbers by value.
func sameMember(t designer.Type, a, b string) bool {
	if t == designer.NS {
		return designer.CompareNumberText(a, b) == 0
	}
	return a == b
}
