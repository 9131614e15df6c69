package datamodelmd

import (
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// The effect of a write as documents state it in words, read into the operation's Update and
// Condition: "SET status, REMOVE open_clinic_id", "ADD visit_count :one", "DELETE tags :t",
// "attribute_not_exists(pk)", "conditional put on owner_id", "if status = OPEN", "only if
// version = :v", "if not exists". A SET of an attribute alone sets it to a placeholder of its
// name (:status); a literal (OPEN, 1) gets a placeholder of its attribute with that value.
// "Conditional on a" means the write must not replace an item that has a (a put:
// attribute_not_exists(a)) or must find it (an update or delete: attribute_exists(a)).

// writeEffect reads one text not read of a write operation; it reports whether it read it.
func writeEffect(op *designer.Operation, text string, keys *keySchema) bool {
	if !designer.IsWriteOp(op.Op) || strings.HasPrefix(op.Op, "Batch") || strings.HasPrefix(op.Op, "Transact") {
		return false
	}
	if op.Update == "" && op.Op == "UpdateItem" {
		if upd, vals, ok := updateWords(text); ok && adopt(op, &op.Update, upd, vals, true) {
			return true
		}
	}
	if op.Condition == "" {
		if cond, vals, ok := conditionWords(op.Op, text, keys); ok && adopt(op, &op.Condition, cond, vals, false) {
			return true
		}
	}
	return false
}

// adopt sets *into, op's update (update) or condition, to expr with its values, reserved words
// aliased, when the evaluator reads it.
func adopt(op *designer.Operation, into *string, expr string, vals map[string]designer.Value, update bool) bool {
	expr, names := dynamo.AliasReserved(expr, op.Names, update)
	if !checks(expr, names, vals, update) {
		return false
	}
	*into, op.Names = expr, names
	op.Values = mergeValues(op.Values, vals)
	return true
}

func mergeValues(a, b map[string]designer.Value) map[string]designer.Value {
	if len(b) == 0 {
		return a
	}
	out := make(map[string]designer.Value, len(a)+len(b))
	for k, v := range b {
		out[k] = v
	}
	for k, v := range a {
		out[k] = v
	}
	return out
}

// checks reports whether the evaluator's parser reads an expression; placeholders with no value
// stand for values the request gives.
func checks(expr string, names map[string]string, vals map[string]designer.Value, update bool) bool {
	if len(expr) > maxCondition {
		return false
	}
	all := map[string]designer.Value{}
	for _, w := range strings.FieldsFunc(expr, func(r rune) bool { return r != ':' && !designer.IsNameByte(byte(r)) || r > 127 }) {
		if strings.HasPrefix(w, ":") {
			all[w] = designer.Num("1")
		}
	}
	for k, v := range vals {
		all[k] = v
	}
	ctx := dynamo.NewExprContext(names, all)
	var msg string
	if update {
		_, msg = dynamo.ParseUpdate(expr, ctx)
	} else {
		_, _, msg = dynamo.ParseCondition(expr, ctx)
	}
	return msg == "" || !strings.Contains(msg, "yntax") && !strings.Contains(msg, "empty")
}

// updateVerbs are the clauses of an UpdateExpression.
var updateVerbs = map[string]bool{"SET": true, "REMOVE": true, "ADD": true, "DELETE": true}

// updateWords reads "SET a, REMOVE b", "SET a = :a", "ADD n :one", "ADD n 1", "DELETE tags :t":
// the verbs written in capitals, as DynamoDB writes them, so that prose ("add a comment") is no
// clause.
func updateWords(text string) (string, map[string]designer.Value, bool) {
	fields := strings.Fields(strings.NewReplacer(",", " , ").Replace(text))
	if len(fields) < 2 || !updateVerbs[fields[0]] {
		return "", nil, false
	}
	vals := map[string]designer.Value{}
	clauses := map[string][]string{}
	var order []string
	verb := ""
	var cur []string
	end := func() bool {
		if len(cur) == 0 {
			return true
		}
		item, ok := updateItem(verb, cur, vals)
		if !ok {
			return false
		}
		if _, seen := clauses[verb]; !seen {
			order = append(order, verb)
		}
		clauses[verb] = append(clauses[verb], item)
		cur = nil
		return true
	}
	for _, f := range fields {
		switch {
		case updateVerbs[f]:
			if !end() {
				return "", nil, false
			}
			verb = f
		case f == ",":
			if !end() {
				return "", nil, false
			}
		case strings.EqualFold(f, "and") && len(cur) > 0 && verb != "SET":
			if !end() {
				return "", nil, false
			}
		default:
			cur = append(cur, f)
		}
	}
	if !end() {
		return "", nil, false
	}
	var parts []string
	for _, v := range order {
		parts = append(parts, v+" "+strings.Join(clauses[v], ", "))
	}
	return strings.Join(parts, " "), vals, len(parts) > 0
}

// updateItem writes one action of a clause.
func updateItem(verb string, words []string, vals map[string]designer.Value) (string, bool) {
	attr := strings.Trim(words[0], "`")
	if !bareWord(attr) && !strings.HasPrefix(attr, "#") {
		return "", false
	}
	switch verb {
	case "REMOVE":
		return attr, len(words) == 1
	case "SET":
		if len(words) == 1 {
			return attr + " = :" + sanitizePlaceholder(strings.TrimPrefix(attr, "#")), true
		}
		if words[1] != "=" {
			return "", false
		}
		if len(words) == 3 {
			return attr + " = " + literal(attr, words[2], vals), true
		}
		return strings.Join(words, " "), true
	case "ADD", "DELETE":
		if len(words) != 2 {
			return "", false
		}
		return attr + " " + literal(attr, words[1], vals), true
	}
	return "", false
}

// literal is a value as an expression writes it: a :placeholder as written, else a placeholder
// of its attribute holding the literal (a number, a constant, a quoted string).
func literal(attr, v string, vals map[string]designer.Value) string {
	v = strings.Trim(v, "`")
	if strings.HasPrefix(v, ":") || strings.HasPrefix(v, "#") || strings.ContainsAny(v, "()") {
		return v
	}
	ph := ":" + sanitizePlaceholder(strings.TrimPrefix(attr, "#"))
	for n := 2; ; n++ {
		if _, used := vals[ph]; !used {
			break
		}
		ph = ":" + sanitizePlaceholder(strings.TrimPrefix(attr, "#")) + "_" + string(rune('0'+n%10))
	}
	if _, ok := designer.ParseDecimal(v); ok && designer.IsDigit(v[0]) {
		vals[ph] = designer.Num(v)
	} else {
		vals[ph] = designer.Str(strings.Trim(v, `"'`))
	}
	return ph
}

// conditionWords reads a write's condition as words: attribute_not_exists(pk) and
// attribute_exists(pk) as written, "conditional [put|write|update|delete] on a", "if a = V",
// "only if a = :v", "if not exists" (the partition key of the target, when known).
func conditionWords(op, text string, keys *keySchema) (string, map[string]designer.Value, bool) {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(text), "`"))
	lower := strings.ToLower(t)
	for _, p := range []string{"with ", "using ", "condition "} {
		if strings.HasPrefix(lower, p) {
			t, lower = strings.TrimSpace(t[len(p):]), lower[len(p):]
			lower = strings.TrimSpace(lower)
		}
	}
	vals := map[string]designer.Value{}
	exists := "attribute_exists("
	if op == "PutItem" {
		exists = "attribute_not_exists("
	}
	switch {
	case strings.HasPrefix(lower, "attribute_not_exists(") || strings.HasPrefix(lower, "attribute_exists("):
		return t, vals, true
	case strings.HasPrefix(lower, "conditional"):
		w := strings.Fields(t)
		i := 1
		if i < len(w) && (strings.EqualFold(w[i], "put") || strings.EqualFold(w[i], "write") || strings.EqualFold(w[i], "update") || strings.EqualFold(w[i], "delete")) {
			i++
		}
		if i+2 != len(w) || !strings.EqualFold(w[i], "on") || !bareWord(strings.Trim(w[i+1], "`")) {
			return "", nil, false
		}
		return exists + strings.Trim(w[i+1], "`") + ")", vals, true
	}
	rest, ok := strings.CutPrefix(lower, "only if ")
	if !ok {
		rest, ok = strings.CutPrefix(lower, "if ")
	}
	if !ok {
		return "", nil, false
	}
	t = t[len(t)-len(rest):]
	if rest == "not exists" || rest == "not exist" || rest == "it does not exist" {
		if keys == nil || len(keys.pk) == 0 {
			return "", nil, false
		}
		return "attribute_not_exists(" + keys.pk[0].Name + ")", vals, true
	}
	if rest == "exists" || rest == "it exists" {
		if keys == nil || len(keys.pk) == 0 {
			return "", nil, false
		}
		return "attribute_exists(" + keys.pk[0].Name + ")", vals, true
	}
	w := strings.Fields(t)
	if len(w) == 3 && bareWord(w[0]) && (w[1] == "=" || w[1] == "<>" || w[1] == "<" || w[1] == ">" || w[1] == "<=" || w[1] == ">=") {
		return w[0] + " " + w[1] + " " + literal(w[0], w[2], vals), vals, true
	}
	if strings.HasPrefix(strings.ToLower(t), "attribute_") {
		return t, vals, true
	}
	return "", nil, false
}

// conditionalBefore reports text not read that ends "conditional [put|write|update|delete]", which
// an attribute follows.
func conditionalBefore(s string) bool {
	w := strings.Fields(strings.ToLower(s[max(0, len(s)-32):]))
	if n := len(w); n > 0 && (w[n-1] == "put" || w[n-1] == "write" || w[n-1] == "update" || w[n-1] == "delete") {
		w = w[:n-1]
	}
	return len(w) > 0 && w[len(w)-1] == "conditional"
}

// notesEffects reads the effect of a row's one write from its Implementation Notes, where
// documents often state it ("SET status = COMPLETED, REMOVE open_clinic_id: it leaves
// OpenByClinic"; "attribute_not_exists(pk); …"): each part between semicolons, sentence ends and
// a colon that ends a clause, with ", if …" taken as a part of its own, is tried as the
// operations cell's unread text is. The notes stay as written: they are the team's prose.
func notesEffects(op *designer.Operation, notes string, keys *keySchema) {
	if notes == "" || len(notes) > maxCondition*4 {
		return
	}
	parts := strings.FieldsFunc(strings.NewReplacer(": ", ";", ". ", ";", ", if ", "; if ", ", only if ", "; only if ").Replace(notes),
		func(r rune) bool { return r == ';' || r == '\n' })
	for _, part := range parts {
		if t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), ".")); t != "" {
			writeEffect(op, t, keys)
		}
	}
}
