package dynamo

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"dynaloom/internal/designer"
)

// Conditions evaluated against an item, and projections applied to one.

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
			return !(okA && okB && a.Equal(b))
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
			return a.Equal(b)
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
			if w, ok := resolveOperandValue(&e.args[i], it); ok && v.Equal(w) {
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
			if m.Equal(x) {
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
