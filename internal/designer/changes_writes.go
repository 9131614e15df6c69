package designer

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

func init() {
	register[SetOperationKey]()
	register[AddUpdateClause]()
	register[AddConditionClause]()
}

// The write builder: changes that write an operation's key, update clauses and condition clauses
// as DynamoDB's expressions, with #name and :value placeholders, so that nobody has to know the
// expression syntax or the placeholder rules to map a write.

// SetOperationKey sets one key attribute of an operation's key from what a person typed, by the
// key's type (a number must be one). The key condition is written again as equalities on every
// key attribute of the table, "#pk = :pk AND #sk = :sk", with a #name and a :value per attribute;
// the placeholders of the key condition it replaces go unless another expression uses them. An
// empty text takes the attribute out of the key.
type SetOperationKey struct {
	Pattern   string `json:"pattern"`
	Index     int    `json:"index"`
	Attribute string `json:"attribute"`
	Text      string `json:"text"`
}

func (SetOperationKey) Kind() string { return "set_operation_key" }

func (c SetOperationKey) Apply(d Design) (Design, error) {
	_, pi, op, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return d, Invalid("table", "choose the operation's table before its key")
	}
	keys := []KeyAttribute{t.PartitionKey}
	if t.SortKey != nil {
		keys = append(keys, *t.SortKey)
	}
	at := slices.IndexFunc(keys, func(k KeyAttribute) bool { return k.Name == c.Attribute })
	if at < 0 {
		return d, Invalid("attribute", "%s is not a key attribute of %s; its key is %s", c.Attribute, t.Name, keyNames(keys))
	}
	text := strings.TrimSpace(c.Text)
	var v Value
	if text != "" {
		if v, err = keyValue(keys[at], text); err != nil {
			return d, fieldError("text", err)
		}
	}
	// What the key condition gives now, read back attribute by attribute.
	given := OperationKeyValues(t, op)
	if text == "" {
		delete(given, c.Attribute)
	} else {
		given[c.Attribute] = v
	}
	op = withoutPlaceholdersOf(op, op.KeyCondition)
	var terms []string
	for _, k := range keys {
		kv, ok := given[k.Name]
		if !ok {
			continue
		}
		name, value := placeholderFor(op, k.Name)
		op.Names = withEntry(op.Names, name, k.Name)
		op.Values = withEntry(op.Values, value, kv)
		terms = append(terms, name+" = "+value)
	}
	op.KeyCondition = strings.Join(terms, " AND ")
	return withOperation(d, pi, c.Index, op), nil
}

func (c SetOperationKey) Summary() string { return c.summary("pattern " + c.Pattern) }
func (c SetOperationKey) Describe(before Design) string {
	return c.summary(patternLabel(before, c.Pattern))
}
func (c SetOperationKey) summary(label string) string {
	if strings.TrimSpace(c.Text) == "" {
		return fmt.Sprintf("Took %s out of the key of %s", c.Attribute, operationLabel(label, c.Index))
	}
	return fmt.Sprintf("Set %s = %s in the key of %s", c.Attribute, shorten(c.Text), operationLabel(label, c.Index))
}
func (c SetOperationKey) Paths() []Path {
	return []Path{OperationPath(c.Pattern, c.Index, "key_condition")}
}

// UpdateActions are the clauses of an UpdateExpression, as AddUpdateClause takes them.
var UpdateActions = []string{"SET", "REMOVE", "ADD", "DELETE"}

// AddUpdateClause adds one clause to an UpdateItem's update (or a TransactWriteItems update
// row's): SET attribute = value, REMOVE attribute, ADD attribute value (a number to add, or set
// members), DELETE attribute value (set members). The clause joins its section of the update, or
// starts it. The first clause added to an update that has none writes the values the operation
// gave as attributes (the convention of designs made before updates were written out) as SET
// clauses first, so that they are still set.
type AddUpdateClause struct {
	Pattern   string `json:"pattern"`
	Index     int    `json:"index"`
	Action    string `json:"action"`
	Attribute string `json:"attribute"`
	Text      string `json:"text,omitempty"`
}

func (AddUpdateClause) Kind() string { return "add_update_clause" }

func (c AddUpdateClause) Apply(d Design) (Design, error) {
	_, pi, op, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	if op.Op != "UpdateItem" && !(op.Op == "TransactWriteItems" && op.Action == ActionUpdate) {
		return d, Invalid("index", "only an UpdateItem, or a TransactWriteItems row whose action is update, takes update clauses; operation %d is a %s", c.Index+1, op.Op)
	}
	action := strings.ToUpper(strings.TrimSpace(c.Action))
	if !slices.Contains(UpdateActions, action) {
		return d, Invalid("action", "%q is not an update clause; use SET, REMOVE, ADD or DELETE", c.Action)
	}
	attr := strings.TrimSpace(c.Attribute)
	if attr == "" {
		return d, Invalid("attribute", "name the attribute the clause writes")
	}
	if t, _, ok := d.TableByName(op.Table); ok && (t.PartitionKey.Name == attr || t.SortKey != nil && t.SortKey.Name == attr) {
		return d, Invalid("attribute", "%s is part of %s's key: an update cannot change it; put the item under its new key and delete the old one instead", attr, t.Name)
	}
	text := strings.TrimSpace(c.Text)
	if action != "REMOVE" && text == "" {
		return d, Invalid("text", "give the value %s %s", strings.ToLower(action), attrWord(action))
	}
	if strings.TrimSpace(op.Update) == "" {
		op = legacySets(d, op)
	}
	name, value := placeholderFor(op, attr)
	op.Names = withEntry(op.Names, name, attr)
	clause := name
	if action != "REMOVE" {
		v, ok := TypedValueCell(text)
		if !ok {
			v = InferCell(text)
		}
		op.Values = withEntry(op.Values, value, v)
		if action == "SET" {
			clause += " = " + value
		} else {
			clause += " " + value
		}
	}
	op.Update = withClause(op.Update, action, clause)
	if len(op.Update) > MaxTextLen {
		return d, Invalid("text", "the update would be %d characters long; at most %d are allowed", len(op.Update), MaxTextLen)
	}
	return withOperation(d, pi, c.Index, op), nil
}

// attrWord says what a clause's value is for.
func attrWord(action string) string {
	switch action {
	case "SET":
		return "to"
	case "ADD":
		return "(a number, or set members)"
	}
	return "(the set members to take out)"
}

func (c AddUpdateClause) Summary() string { return c.summary("pattern " + c.Pattern) }
func (c AddUpdateClause) Describe(before Design) string {
	return c.summary(patternLabel(before, c.Pattern))
}
func (c AddUpdateClause) summary(label string) string {
	clause := strings.ToUpper(strings.TrimSpace(c.Action)) + " " + c.Attribute
	if strings.TrimSpace(c.Text) != "" {
		clause += " " + shorten(c.Text)
	}
	return fmt.Sprintf("Added %s to the update of %s", clause, operationLabel(label, c.Index))
}
func (c AddUpdateClause) Paths() []Path {
	return []Path{OperationPath(c.Pattern, c.Index, "update")}
}

// ConditionFunctions are the tests AddConditionClause writes.
var ConditionFunctions = []string{"attribute_not_exists", "attribute_exists", "=", "<>", "<", "<=", ">", ">=", "begins_with"}

// AddConditionClause adds one test to a write's condition, joined with AND:
// attribute_not_exists(attribute), attribute_exists(attribute), a comparison of the attribute with
// a value, or begins_with(attribute, value).
type AddConditionClause struct {
	Pattern   string `json:"pattern"`
	Index     int    `json:"index"`
	Function  string `json:"function"`
	Attribute string `json:"attribute"`
	Text      string `json:"text,omitempty"`
}

func (AddConditionClause) Kind() string { return "add_condition_clause" }

func (c AddConditionClause) Apply(d Design) (Design, error) {
	_, pi, op, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	if !IsWriteOp(op.Op) || op.Op == "BatchWriteItem" {
		return d, Invalid("index", "only a PutItem, UpdateItem, DeleteItem or TransactWriteItems row takes a condition; operation %d is a %s", c.Index+1, op.Op)
	}
	fn := strings.TrimSpace(c.Function)
	if !slices.Contains(ConditionFunctions, fn) {
		return d, Invalid("function", "%q is not a condition; use %s", c.Function, strings.Join(ConditionFunctions, ", "))
	}
	attr := strings.TrimSpace(c.Attribute)
	if attr == "" {
		return d, Invalid("attribute", "name the attribute the condition tests")
	}
	text := strings.TrimSpace(c.Text)
	exists := fn == "attribute_exists" || fn == "attribute_not_exists"
	if !exists && text == "" {
		return d, Invalid("text", "give the value %s compares %s with", fn, attr)
	}
	name, value := placeholderFor(op, attr)
	if existing, ok := op.Names[name]; ok && existing != attr {
		return d, Invalid("attribute", "the placeholder %s already stands for %s", name, existing)
	}
	op.Names = withEntry(op.Names, name, attr)
	var test string
	switch {
	case exists:
		test = fn + "(" + name + ")"
	default:
		v, ok := TypedValueCell(text)
		if !ok {
			v = InferCell(text)
		}
		op.Values = withEntry(op.Values, value, v)
		if fn == "begins_with" {
			test = "begins_with(" + name + ", " + value + ")"
		} else {
			test = name + " " + fn + " " + value
		}
	}
	switch cond := strings.TrimSpace(op.Condition); {
	case cond == "":
		op.Condition = test
	case strings.Contains(strings.ToUpper(cond), " OR "):
		op.Condition = "(" + cond + ") AND " + test
	default:
		op.Condition = cond + " AND " + test
	}
	if len(op.Condition) > MaxTextLen {
		return d, Invalid("text", "the condition would be %d characters long; at most %d are allowed", len(op.Condition), MaxTextLen)
	}
	return withOperation(d, pi, c.Index, op), nil
}

func (c AddConditionClause) Summary() string { return c.summary("pattern " + c.Pattern) }
func (c AddConditionClause) Describe(before Design) string {
	return c.summary(patternLabel(before, c.Pattern))
}
func (c AddConditionClause) summary(label string) string {
	test := c.Function + "(" + c.Attribute + ")"
	if c.Function != "attribute_exists" && c.Function != "attribute_not_exists" {
		test = c.Attribute + " " + c.Function + " " + shorten(c.Text)
	}
	return fmt.Sprintf("Added the condition %s to %s", test, operationLabel(label, c.Index))
}
func (c AddConditionClause) Paths() []Path {
	return []Path{OperationPath(c.Pattern, c.Index, "condition")}
}

// OperationKeyValues reads the key an operation's key condition gives: each key attribute of the
// table that the condition sets equal to a value ("pk = :p", "#k = :v", in either order).
func OperationKeyValues(t Table, op Operation) map[string]Value {
	out := map[string]Value{}
	for _, term := range splitAnd(op.KeyCondition) {
		left, right, ok := strings.Cut(term, "=")
		if !ok || strings.ContainsAny(left, "<>") {
			continue
		}
		left, right = strings.TrimSpace(left), strings.TrimSpace(right)
		if strings.HasPrefix(left, ":") {
			left, right = right, left
		}
		name := left
		if real, ok := op.Names[left]; ok {
			name = real
		}
		v, ok := op.Values[right]
		if !ok || !(t.PartitionKey.Name == name || t.SortKey != nil && t.SortKey.Name == name) {
			continue
		}
		out[name] = v
	}
	return out
}

// splitAnd splits a condition at its ANDs, in any case.
func splitAnd(s string) []string {
	var out []string
	rest := s
	for {
		i := strings.Index(strings.ToUpper(rest), " AND ")
		if i < 0 {
			return append(out, rest)
		}
		out = append(out, rest[:i])
		rest = rest[i+5:]
	}
}

// keyValue reads text as a value of key attribute k's type.
func keyValue(k KeyAttribute, text string) (Value, error) {
	switch k.Type {
	case N:
		if err := CheckNumber(text); err != nil {
			return Value{}, fmt.Errorf("%s is a number key; %q is not a number", k.Name, text)
		}
		return Num(text), nil
	case B:
		v, ok := TypedValueCell(text)
		if !ok || v.Type != B {
			return Value{}, fmt.Errorf("%s is a binary key; write it as {\"B\": \"<base64>\"}", k.Name)
		}
		return v, nil
	}
	return Str(text), nil
}

func keyNames(keys []KeyAttribute) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return strings.Join(names, " + ")
}

// placeholderFor is the #name and :value placeholders for attribute attr: the #name that already
// stands for it, or one spelt after it; a :value no other expression uses.
func placeholderFor(op Operation, attr string) (string, string) {
	base := placeholderWord(attr)
	name := ""
	for _, k := range slices.Sorted(maps.Keys(op.Names)) {
		if op.Names[k] == attr {
			name = k
			break
		}
	}
	if name == "" {
		name = "#" + base
		for n := 2; op.Names[name] != ""; n++ {
			name = fmt.Sprintf("#%s%d", base, n)
		}
	}
	value := ":" + base
	for n := 2; ; n++ {
		if _, taken := op.Values[value]; !taken {
			break
		}
		value = fmt.Sprintf(":%s%d", base, n)
	}
	return name, value
}

// placeholderWord spells attr with the letters, digits and "_" a placeholder may hold.
func placeholderWord(attr string) string {
	var b strings.Builder
	for _, r := range attr {
		if r < 128 && (IsDigit(byte(r)) || r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "a"
	}
	return b.String()
}

func withEntry[V any](m map[string]V, k string, v V) map[string]V {
	out := make(map[string]V, len(m)+1)
	maps.Copy(out, m)
	out[k] = v
	return out
}

// placeholdersIn lists the #name and :value placeholders written in an expression.
func placeholdersIn(expr string) []string {
	var out []string
	for i := 0; i < len(expr); i++ {
		if expr[i] != '#' && expr[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(expr) && (IsDigit(expr[j]) || expr[j] == '_' || 'a' <= expr[j] && expr[j] <= 'z' || 'A' <= expr[j] && expr[j] <= 'Z') {
			j++
		}
		out = append(out, expr[i:j])
		i = j - 1
	}
	return out
}

// withoutPlaceholdersOf takes the placeholders of expr out of op's names and values, but those
// another of its expressions uses.
func withoutPlaceholdersOf(op Operation, expr string) Operation {
	others := placeholdersIn(op.Filter + " " + op.Projection + " " + op.Condition + " " + op.Update)
	for _, ph := range placeholdersIn(expr) {
		if slices.Contains(others, ph) {
			continue
		}
		if strings.HasPrefix(ph, "#") {
			op.Names = withoutEntry(op.Names, ph)
		} else {
			op.Values = withoutEntry(op.Values, ph)
		}
	}
	return op
}

func withoutEntry[V any](m map[string]V, k string) map[string]V {
	if _, ok := m[k]; !ok {
		return m
	}
	out := maps.Clone(m)
	delete(out, k)
	if len(out) == 0 {
		return nil
	}
	return out
}

// legacySets writes the values an update gives as attributes (every value no expression uses,
// named after its placeholder) as SET clauses of its update.
func legacySets(d Design, op Operation) Operation {
	used := placeholdersIn(op.KeyCondition + " " + op.Condition)
	var clauses []string
	for _, ph := range slices.Sorted(maps.Keys(op.Values)) {
		if slices.Contains(used, ph) || len(ph) < 2 {
			continue
		}
		attr := ph[1:]
		name, _ := placeholderFor(op, attr)
		op.Names = withEntry(op.Names, name, attr)
		clauses = append(clauses, name+" = "+ph)
	}
	if len(clauses) > 0 {
		op.Update = "SET " + strings.Join(clauses, ", ")
	}
	return op
}

// withClause adds clause to the section of an update expression, or starts the section.
func withClause(update, action, clause string) string {
	update = strings.TrimSpace(update)
	starts := sectionStarts(update)
	for i, s := range starts {
		if s.action != action {
			continue
		}
		end := len(update)
		if i+1 < len(starts) {
			end = starts[i+1].at
		}
		return strings.TrimSpace(strings.TrimSpace(update[:end]) + ", " + clause + " " + update[end:])
	}
	if update == "" {
		return action + " " + clause
	}
	return update + " " + action + " " + clause
}

type sectionStart struct {
	action string
	at     int
}

// sectionStarts finds where each section of an update expression starts: the words SET, REMOVE,
// ADD and DELETE, in any case, standing alone (not part of a placeholder or a path).
func sectionStarts(update string) []sectionStart {
	var out []sectionStart
	isWord := func(c byte) bool {
		return IsDigit(c) || c == '_' || c == '#' || c == ':' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for i := 0; i < len(update); {
		if !isWord(update[i]) {
			i++
			continue
		}
		j := i
		for j < len(update) && isWord(update[j]) {
			j++
		}
		if w := strings.ToUpper(update[i:j]); slices.Contains(UpdateActions, w) {
			out = append(out, sectionStart{action: w, at: i})
		}
		i = j
	}
	return out
}
