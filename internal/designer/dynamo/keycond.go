package dynamo

import (
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// Key conditions: a KeyConditionExpression read as DynamoDB's KeyConditions, and the checks a
// Query's key condition must pass against the table or index it reads.

// keyCond is one condition of a KeyConditionExpression, as DynamoDB's KeyConditions.
type keyCond struct {
	op   string // EQ LT LE GT GE BETWEEN BEGINS_WITH
	vals []designer.Value
}

var swapped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
var comparisonNames = map[string]string{"=": "EQ", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}

// keyConditions turns a parsed KeyConditionExpression into one condition per attribute, with
// DynamoDB's messages for what a key condition cannot hold.
func keyConditions(e *condExpr) (map[string]keyCond, []string, error) {
	conds := map[string]keyCond{}
	var order []string
	var walk func(*condExpr) error
	walk = func(c *condExpr) error {
		switch c.kind {
		case condAnd:
			if err := walk(c.left); err != nil {
				return err
			}
			return walk(c.right)
		case condOr:
			return validationErr("Invalid operator used in KeyConditionExpression: OR")
		case condNot:
			return validationErr("Invalid operator used in KeyConditionExpression: NOT")
		case condIn:
			return validationErr("Invalid operator used in KeyConditionExpression: IN")
		}
		var args []operand
		op := ""
		switch c.kind {
		case condCompare:
			if c.op == "<>" {
				return validationErr("Invalid operator used in KeyConditionExpression: <>")
			}
			args, op = c.args, c.op
		case condBetween:
			if c.args[0].kind != operandPath {
				return validationErr("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand")
			}
			args, op = c.args, "BETWEEN"
		case condFunc:
			switch c.fn.name {
			case "begins_with":
			case "size":
				return validationErr("KeyConditionExpressions cannot contain nested operations")
			default:
				return validationErr("Invalid operator used in KeyConditionExpression: %s", c.fn.name)
			}
			if c.fn.args[0].kind != operandPath {
				return validationErr("Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand")
			}
			args, op = c.fn.args, "BEGINS_WITH"
		}
		attr, attrAt := "", 0
		for i, a := range args {
			switch a.kind {
			case operandPath:
				if attr != "" {
					return validationErr("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition")
				}
				if len(a.path) > 1 {
					return validationErr("KeyConditionExpressions cannot have conditions on nested attributes")
				}
				attr, attrAt = a.path[0].name, i
			case operandFunc:
				return validationErr("KeyConditionExpressions cannot contain nested operations")
			}
		}
		if attr == "" {
			return validationErr("Invalid condition in KeyConditionExpression: No key attribute specified")
		}
		if _, dup := conds[attr]; dup {
			return validationErr("KeyConditionExpressions must only contain one condition per key")
		}
		var vals []designer.Value
		for i, a := range args {
			if i != attrAt {
				vals = append(vals, a.value)
			}
		}
		if c.kind == condCompare {
			o := c.op
			if attrAt != 0 {
				o = swapped[o]
			}
			op = comparisonNames[o]
		}
		conds[attr] = keyCond{op: op, vals: vals}
		order = append(order, attr)
		return nil
	}
	if err := walk(e); err != nil {
		return nil, nil, err
	}
	allowed := map[string][]designer.Type{"EQ": {designer.S, designer.N, designer.B, designer.SS, designer.NS, designer.BS}, "BEGINS_WITH": {designer.S, designer.B}}
	for _, attr := range order {
		c := conds[attr]
		types, ok := allowed[c.op]
		if !ok {
			types = []designer.Type{designer.S, designer.N, designer.B}
		}
		for _, v := range c.vals {
			if !slices.Contains(types, v.Type) {
				return nil, nil, validationErr("One or more parameter values were invalid: ComparisonOperator %s is not valid for %s AttributeValue type", c.op, v.Type)
			}
		}
	}
	return conds, order, nil
}

// matches reports whether a key value satisfies the condition.
func (c keyCond) matches(v designer.Value) bool {
	if v.Type != c.vals[0].Type {
		return false
	}
	if v.Type == designer.S && c.op == "EQ" {
		return v.S == c.vals[0].S
	}
	x := compareScalar(v, c.vals[0])
	switch c.op {
	case "EQ":
		return x == 0
	case "LT":
		return x < 0
	case "LE":
		return x <= 0
	case "GT":
		return x > 0
	case "GE":
		return x >= 0
	case "BETWEEN":
		return x >= 0 && compareScalar(v, c.vals[1]) <= 0
	case "BEGINS_WITH":
		if v.Type == designer.B {
			return strings.HasPrefix(string(v.B), string(c.vals[0].B))
		}
		return strings.HasPrefix(v.S, c.vals[0].S)
	}
	return false
}

// checkQueryKey applies DynamoDB's checks of a Query's key conditions and ExclusiveStartKey to the
// key schema read, attribute by attribute, and returns the conditions on the sort attributes.
// A multi-attribute GSI key needs equality on every partition attribute, and conditions on a
// leading run of its sort attributes, all equalities but the last.
func checkQueryKey(tg target, req readRequest, conds map[string]keyCond) error {
	nConds := len(conds)
	keys := slices.Concat(tg.pk, tg.sk)
	onKeys := 0
	for _, k := range keys {
		if _, ok := conds[k.Name]; ok {
			onKeys++
		}
	}
	rangeDone := false
	for i, k := range keys {
		isHash := i < len(tg.pk)
		if req.hasStartKey {
			if _, ok := req.startKey[k.Name]; !ok {
				return validationErr("The provided starting key is invalid")
			}
			if err := checkKeyPiece(req.startKey, k, isHash); err != nil {
				return err
			}
		}
		if isHash && len(tg.sk) == 0 && nConds > len(tg.pk) {
			return validationErr("Query key condition not supported")
		}
		c, ok := conds[k.Name]
		if !ok {
			if isHash || nConds > onKeys || laterSortCondition(tg.sk, conds, k.Name) {
				return validationErr("Query condition missed key schema element: %s", k.Name)
			}
			rangeDone = true
			continue
		}
		if rangeDone {
			return validationErr("Query condition missed key schema element: %s", k.Name)
		}
		for _, v := range c.vals {
			if v.Type != k.Type {
				return validationErr("One or more parameter values were invalid: Condition parameter type does not match schema type")
			}
		}
		if isHash && c.op != "EQ" {
			return validationErr("Query key condition not supported")
		}
		if !isHash && c.op != "EQ" {
			rangeDone = true
		}
	}
	if nConds > onKeys {
		for attr := range conds {
			if !slices.ContainsFunc(keys, func(k designer.KeyAttribute) bool { return k.Name == attr }) {
				return validationErr("Query condition missed key schema element: %s", attr)
			}
		}
	}
	return nil
}

func laterSortCondition(sk []designer.KeyAttribute, conds map[string]keyCond, after string) bool {
	seen := false
	for _, k := range sk {
		if seen {
			if _, ok := conds[k.Name]; ok {
				return true
			}
		}
		if k.Name == after {
			seen = true
		}
	}
	return false
}
