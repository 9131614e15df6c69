package designer

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

func init() {
	register[AddOperation]()
	register[SetOperationField]()
	register[DeleteOperation]()
	register[ToggleExpected]()
	register[ClearExpected]()
	register[SetMappingNotes]()
}

// Changes to how access patterns are served: the DynamoDB operations each pattern runs, their
// expected results and the mapping notes. Patterns are addressed by id, operations by position in
// their pattern's list.

// ParseOperationName reads a DynamoDB operation name in any case, with or without spaces or
// underscores ("query", "Get Item", "transact_write_items").
func ParseOperationName(s string) (string, error) {
	squeezed := strings.ReplaceAll(Words(s), " ", "")
	for _, op := range Operations {
		if strings.EqualFold(op, squeezed) {
			return op, nil
		}
	}
	if squeezed == "" {
		return "", fmt.Errorf("must name an operation: one of %s", strings.Join(Operations, ", "))
	}
	return "", fmt.Errorf("%q is not a DynamoDB operation; use one of %s", strings.TrimSpace(s), strings.Join(Operations, ", "))
}

// findOperation returns the pattern with id and its operation at position i.
func findOperation(d Design, id string, i int) (Pattern, int, Operation, error) {
	p, pi, err := findPattern(d, id)
	if err != nil {
		return Pattern{}, -1, Operation{}, err
	}
	if i < 0 || i >= len(p.Mapping.Operations) {
		return Pattern{}, -1, Operation{}, Invalid("index", "%s has no operation %d; it has %d", patternLabel(d, id), i+1, len(p.Mapping.Operations))
	}
	return p, pi, p.Mapping.Operations[i], nil
}

// withOperation returns d with operation i of the pattern at pi replaced by op.
func withOperation(d Design, pi, i int, op Operation) Design {
	p := d.Patterns[pi]
	p.Mapping.Operations = replaceAt(p.Mapping.Operations, i, op)
	d.Patterns = replaceAt(d.Patterns, pi, p)
	return d
}

// operationLabel names an operation in a history line: "pattern 4's operation 2".
func operationLabel(patternLabel string, i int) string {
	return patternLabel + "'s operation " + strconv.Itoa(i+1)
}

// AddOperation appends an operation to a pattern's mapping. With a single table in the design the
// operation targets it; otherwise the table is left to choose.
type AddOperation struct {
	Pattern string `json:"pattern"`
	Op      string `json:"op"`
}

func (AddOperation) Kind() string { return "add_operation" }

func (c AddOperation) Apply(d Design) (Design, error) {
	p, pi, err := findPattern(d, c.Pattern)
	if err != nil {
		return d, err
	}
	name, err := ParseOperationName(c.Op)
	if err != nil {
		return d, fieldError("op", err)
	}
	op := Operation{Op: name}
	if len(d.Tables) == 1 {
		op.Table = d.Tables[0].Name
	}
	p.Mapping.Operations = append(slices.Clip(p.Mapping.Operations), op)
	d.Patterns = replaceAt(d.Patterns, pi, p)
	return d, nil
}

func (c AddOperation) Summary() string { return c.summary("pattern " + c.Pattern) }
func (c AddOperation) Describe(before Design) string {
	return c.summary(patternLabel(before, c.Pattern))
}
func (c AddOperation) summary(label string) string {
	name, err := ParseOperationName(c.Op)
	if err != nil {
		name = strings.TrimSpace(c.Op)
	}
	return "Added a " + name + " to " + label
}
func (c AddOperation) Paths() []Path { return []Path{MappingPath(c.Pattern)} }

// SetOperationField sets one field of an operation from what a person typed:
//
//	op             a DynamoDB operation name, in any case; an action the new operation cannot take
//	               is cleared
//	table          a table of the design; an index the new table lacks is cleared
//	index          an index of the operation's table; empty targets the table
//	key_condition, filter, projection, condition, update, notes   text, kept as written
//	limit          a whole number of 1 or more; empty clears it
//	direction      asc or desc (ascending, descending, forward, backward)
//	consistent     yes or no (strong, eventual)
//	names          #n=name, #s=status (see ParseOperationNames)
//	values         :pk=USER#1, :n=5 (see ParseOperationValues)
//	action         what a BatchWriteItem or TransactWriteItems row does: put, update, delete or
//	               condition_check (OperationActions); empty leaves it to the values
//
// Expressions are not refused for their content: the MAP rules say what is wrong with them, so a
// half-typed condition can be saved and fixed.
type SetOperationField struct {
	Pattern string `json:"pattern"`
	Index   int    `json:"index"`
	Field   string `json:"field"`
	Value   string `json:"value"`
}

func (SetOperationField) Kind() string { return "set_operation_field" }

func (c SetOperationField) Apply(d Design) (Design, error) {
	_, pi, op, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	f, ok := FieldNamed(OperationFields, c.Field)
	if !ok {
		return d, Invalid("field", "operations have no field %q; the fields are %s", c.Field, operationFieldKeys())
	}
	if err := f.apply(&d, &op, c.Value); err != nil {
		return d, err
	}
	return withOperation(d, pi, c.Index, op), nil
}

// setOperationName sets the API call; an action the new call cannot take is cleared.
func setOperationName(_ *Design, op *Operation, _, value string) error {
	name, err := ParseOperationName(value)
	if err != nil {
		return err
	}
	op.Op = name
	if !slices.Contains(OperationActions(op.Op), op.Action) {
		op.Action = ""
	}
	return nil
}

// setOperationTable points the operation at a table of the design; an index the new table lacks
// is cleared.
func setOperationTable(d *Design, op *Operation, name, value string) error {
	if strings.TrimSpace(value) == "" {
		return Invalid(name, "must name a table: %s", TableChoice(*d))
	}
	t, _, err := findTable(*d, name, strings.TrimSpace(value))
	if err != nil {
		return err
	}
	op.Table = t.Name
	if _, _, _, ok := t.IndexByName(op.Index); !ok {
		op.Index = ""
	}
	return nil
}

// operationIndex checks that name is an index of the operation's table; empty means the table.
func operationIndex(d Design, op Operation, name string) (string, error) {
	if name == "" {
		return "", nil
	}
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return "", fmt.Errorf("choose the operation's table before its index")
	}
	if _, _, _, ok := t.IndexByName(name); !ok {
		var names []string
		for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
			names = append(names, ix.Name)
		}
		if len(names) == 0 {
			return "", fmt.Errorf("table %s has no index named %q; it has no indexes", t.Name, name)
		}
		return "", fmt.Errorf("table %s has no index named %q; its indexes are %s", t.Name, name, strings.Join(names, ", "))
	}
	return name, nil
}

// parseAction reads what a BatchWriteItem or TransactWriteItems row does, in any case, with spaces
// or underscores ("Condition Check", "ConditionCheck"). Blank leaves it to the values.
func parseAction(op, s string) (string, error) {
	squeezed := strings.NewReplacer(" ", "", "_", "").Replace(Words(s))
	if squeezed == "" {
		return "", nil
	}
	allowed := OperationActions(op)
	if len(allowed) == 0 {
		return "", fmt.Errorf("a %s takes no action; only BatchWriteItem and TransactWriteItems rows do", op)
	}
	for _, a := range allowed {
		if strings.EqualFold(strings.ReplaceAll(a, "_", ""), squeezed) {
			return a, nil
		}
	}
	return "", fmt.Errorf("%q is not an action of a %s row; use %s, or leave it blank to put the item when the row gives attributes and delete it when it gives none",
		strings.TrimSpace(s), op, strings.Join(allowed, ", "))
}

// parseLimit reads a Query or Scan Limit: a whole number of 1 or more; blank clears it.
func parseLimit(s string) (*int, error) {
	n, err := parseCount(s)
	if err != nil || (n != nil && *n < 1) {
		return nil, fmt.Errorf("%q is not a limit; use a whole number of 1 or more, or leave it blank", strings.TrimSpace(s))
	}
	if n == nil {
		return nil, nil
	}
	limit := int(*n)
	return &limit, nil
}

// parseDirection reads a Query's sort direction and reports whether it is descending. Blank is
// DynamoDB's default, ascending.
func parseDirection(s string) (bool, error) {
	switch Words(s) {
	case "", "asc", "ascending", "forward", "oldest first":
		return false, nil
	case "desc", "descending", "backward", "reverse", "newest first":
		return true, nil
	}
	return false, fmt.Errorf("%q is not a direction; use asc or desc", strings.TrimSpace(s))
}

// parseConsistentRead reads whether a read is strongly consistent. Blank is DynamoDB's default,
// eventually consistent.
func parseConsistentRead(s string) (bool, error) {
	switch Words(s) {
	case "strong", "strongly consistent", "consistent":
		return true, nil
	case "eventual", "eventually consistent":
		return false, nil
	}
	b, err := ParseTriState(s)
	if err != nil {
		return false, fmt.Errorf("%q is not an answer; use yes (strongly consistent) or no (eventually consistent)", strings.TrimSpace(s))
	}
	return b != nil && *b, nil
}

func (c SetOperationField) Summary() string { return c.summary("pattern " + c.Pattern) }
func (c SetOperationField) Describe(before Design) string {
	return c.summary(patternLabel(before, c.Pattern))
}
func (c SetOperationField) summary(label string) string {
	f, _ := FieldNamed(OperationFields, c.Field)
	return f.summary("the %s of "+escapePercent(operationLabel(label, c.Index)), c.Value)
}
func (c SetOperationField) Paths() []Path {
	return []Path{OperationPath(c.Pattern, c.Index, c.Field)}
}

// ParseOperationNames reads expression attribute names written "#n=name, #s=status". Blank gives
// nil. A placeholder is # followed by letters, digits or "_"; each is given once.
func ParseOperationNames(text string) (map[string]string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	out := map[string]string{}
	for part := range strings.SplitSeq(text, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		key, name, ok := strings.Cut(part, "=")
		key, name = strings.TrimSpace(key), strings.TrimSpace(name)
		switch {
		case !ok:
			return nil, fmt.Errorf("%q has no \"=\"; write each name as #placeholder=attribute", strings.TrimSpace(part))
		case !placeholder(key, '#'):
			return nil, fmt.Errorf("%q is not a name placeholder; it is # followed by letters, digits or \"_\"", key)
		case name == "":
			return nil, fmt.Errorf("%s names no attribute", key)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s is given twice", key)
		}
		if _, err := CleanName("names", name); err != nil {
			return nil, fmt.Errorf("%s=%s: the attribute name %s", key, shorten(name), err.(*ValidationError).Message)
		}
		out[key] = name
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// FormatOperationNames writes an operation's names as ParseOperationNames reads them, sorted.
func FormatOperationNames(op Operation) string {
	parts := make([]string, 0, len(op.Names))
	for _, k := range slices.Sorted(maps.Keys(op.Names)) {
		parts = append(parts, k+"="+op.Names[k])
	}
	return strings.Join(parts, ", ")
}

// placeholder reports whether s is sigil followed by one or more letters, digits or "_".
func placeholder(s string, sigil byte) bool {
	if len(s) < 2 || s[0] != sigil {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsNameByte(s[i]) {
			return false
		}
	}
	return true
}

func IsNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || IsDigit(c) || c == '_'
}

// ParseOperationValues reads expression attribute values written ":pk=USER#1, :n=5". Each value is
// read as a cell of no declared type (InferCell: 5 is a number, USER#1 a string), or given as
// DynamoDB JSON when that guess is wrong: :id={"S":"10001"}. A comma ends a value only where the
// next placeholder starts, so `:tags=["a","b"]` keeps its comma. Blank gives nil.
func ParseOperationValues(text string) (map[string]Value, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	if _, err := CleanText("values", text); err != nil {
		return nil, errors.New(err.(*ValidationError).Message)
	}
	starts := valueStarts(text)
	if len(starts) == 0 || strings.TrimSpace(text[:starts[0]]) != "" {
		return nil, fmt.Errorf("write each value as :placeholder=value, such as :id=10001")
	}
	out := map[string]Value{}
	for i, start := range starts {
		end := len(text)
		if i+1 < len(starts) {
			end = strings.LastIndexByte(text[:starts[i+1]], ',')
		}
		key, cell, _ := strings.Cut(text[start:end], "=")
		key, cell = strings.TrimSpace(key), strings.TrimSpace(cell)
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s is given twice", key)
		}
		v, ok := TypedValueCell(cell)
		if !ok {
			v = InferCell(cell)
		}
		out[key] = v
	}
	// The cell shows the values as FormatOperationValues writes them, which may be longer than
	// what was typed (a text becomes {"S": "…"}); values whose written form could not be saved
	// back unchanged are refused now rather than stored.
	if n := utf8.RuneCountInString(FormatOperationValues(Operation{Values: out})); n > MaxTextLen {
		return nil, fmt.Errorf("written out, the values are %d characters long; at most %d are allowed", n, MaxTextLen)
	}
	return out, nil
}

// valueStarts returns where each ":placeholder=" of a values text starts: at the start of the text
// or after a comma, outside JSON strings, arrays and objects.
func valueStarts(text string) []int {
	var out []int
	depth, quoted, escaped, afterComma := 0, false, false, true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quoted:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				quoted = false
			}
			continue
		case c == '"':
			quoted = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth = max(depth-1, 0)
		case c == ',' && depth == 0:
			afterComma = true
			continue
		case c == ' ' || c == '\t':
			continue
		case c == ':' && depth == 0 && afterComma:
			j := i + 1
			for j < len(text) && IsNameByte(text[j]) {
				j++
			}
			if j > i+1 && strings.HasPrefix(strings.TrimLeft(text[j:], " \t"), "=") {
				out = append(out, i)
			}
		}
		afterComma = false
	}
	return out
}

// FormatOperationValues writes an operation's values as ParseOperationValues reads them, sorted:
// as cell text where that reads back as the same value and holds no quote, bracket, comma or
// control character (which the text field refuses), else as DynamoDB JSON, which escapes them.
func FormatOperationValues(op Operation) string {
	parts := make([]string, 0, len(op.Values))
	for _, k := range slices.Sorted(maps.Keys(op.Values)) {
		v := op.Values[k]
		text := FormatCell(v)
		document := v.Type == M || v.Type == L || v.Type == SS || v.Type == NS || v.Type == BS
		if text == "" || text != strings.TrimSpace(text) || !document && strings.ContainsAny(text, "\"{}[],") ||
			strings.ContainsFunc(text, IsControl) ||
			!InferCell(text).Identical(v) {
			if b, err := marshalPlain(v); err == nil {
				text = b
			}
		}
		parts = append(parts, k+"="+text)
	}
	return strings.Join(parts, ", ")
}

// marshalPlain writes v as DynamoDB JSON without escaping &, < and >, which json.Marshal turns
// into \u0026 and the like: the text is shown and typed by people, not embedded in HTML.
func marshalPlain(v Value) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// DeleteOperation deletes one operation of a pattern.
type DeleteOperation struct {
	Pattern string `json:"pattern"`
	Index   int    `json:"index"`
}

func (DeleteOperation) Kind() string { return "delete_operation" }

func (c DeleteOperation) Apply(d Design) (Design, error) {
	p, pi, _, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	p.Mapping.Operations = slices.Delete(slices.Clone(p.Mapping.Operations), c.Index, c.Index+1)
	if len(p.Mapping.Operations) == 0 {
		p.Mapping.Operations = nil
	}
	d.Patterns = replaceAt(d.Patterns, pi, p)
	return d, nil
}

func (c DeleteOperation) Summary() string {
	return "Deleted " + operationLabel("pattern "+c.Pattern, c.Index)
}
func (c DeleteOperation) Describe(before Design) string {
	return "Deleted " + operationLabel(patternLabel(before, c.Pattern), c.Index)
}
func (c DeleteOperation) Paths() []Path { return []Path{MappingPath(c.Pattern)} }

// ToggleExpected adds an item's key to an operation's expected result, creating the list, or
// removes it when it is there; removing the last key leaves "returns nothing". Only the table's
// key attributes of Key are kept. The keys stay in the order they were marked: what the change
// stores depends on what the person did, never on what the evaluator returns, so an old revision
// rebuilds the same after any evaluator fix.
type ToggleExpected struct {
	Pattern string `json:"pattern"`
	Index   int    `json:"index"`
	Key     Item   `json:"key"`
}

func (ToggleExpected) Kind() string { return "toggle_expected" }

func (c ToggleExpected) Apply(d Design) (Design, error) {
	_, pi, op, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return d, Invalid("table", "choose the operation's table before its expected result")
	}
	key := TableKey(t, c.Key)
	for _, name := range TableKeyNames(t) {
		if _, ok := key[name]; !ok && name != "" {
			return d, Invalid("key", "has no %s; an expected item is given by its key in %s (%s)", name, t.Name, strings.Join(TableKeyNames(t), ", "))
		}
	}
	var expected []Item
	if op.Expected != nil {
		expected = *op.Expected
	}
	if j := slices.IndexFunc(expected, func(it Item) bool { return SameKey(t, it, key) }); j >= 0 {
		expected = slices.Delete(slices.Clone(expected), j, j+1)
	} else {
		expected = append(slices.Clip(expected), key)
	}
	op.Expected = &expected
	return withOperation(d, pi, c.Index, op), nil
}

func (c ToggleExpected) Summary() string {
	return "Toggled " + itemKeyText(c.Key) + " in the expected result of " + operationLabel("pattern "+c.Pattern, c.Index)
}

func (c ToggleExpected) Describe(before Design) string {
	label := operationLabel(patternLabel(before, c.Pattern), c.Index)
	_, _, op, err := findOperation(before, c.Pattern, c.Index)
	if err != nil {
		return c.Summary()
	}
	t, _, ok := before.TableByName(op.Table)
	if !ok {
		return c.Summary()
	}
	key := TableKey(t, c.Key)
	if op.Expected != nil && slices.ContainsFunc(*op.Expected, func(it Item) bool { return SameKey(t, it, key) }) {
		return "Removed " + KeyText(t, key) + " from the expected result of " + label
	}
	return "Added " + KeyText(t, key) + " to the expected result of " + label
}

func (c ToggleExpected) Paths() []Path { return []Path{MappingPath(c.Pattern)} }

// itemKeyText shows a key without its table: its attributes in name order.
func itemKeyText(key Item) string {
	parts := make([]string, 0, len(key))
	for _, name := range key.SortedNames() {
		parts = append(parts, name+"="+FormatCell(key[name]))
	}
	return strings.Join(parts, " · ")
}

// ClearExpected takes an operation's expected result back to "not stated".
type ClearExpected struct {
	Pattern string `json:"pattern"`
	Index   int    `json:"index"`
}

func (ClearExpected) Kind() string { return "clear_expected" }

func (c ClearExpected) Apply(d Design) (Design, error) {
	_, pi, op, err := findOperation(d, c.Pattern, c.Index)
	if err != nil {
		return d, err
	}
	op.Expected = nil
	return withOperation(d, pi, c.Index, op), nil
}

func (c ClearExpected) Summary() string {
	return "Cleared the expected result of " + operationLabel("pattern "+c.Pattern, c.Index)
}
func (c ClearExpected) Describe(before Design) string {
	return "Cleared the expected result of " + operationLabel(patternLabel(before, c.Pattern), c.Index)
}
func (c ClearExpected) Paths() []Path { return []Path{MappingPath(c.Pattern)} }

// SetMappingNotes sets the notes of a pattern's mapping: how it is served, or, for a pattern served
// outside DynamoDB, by what.
type SetMappingNotes struct {
	Pattern string `json:"pattern"`
	Notes   string `json:"notes"`
}

func (SetMappingNotes) Kind() string { return "set_mapping_notes" }

func (c SetMappingNotes) Apply(d Design) (Design, error) {
	p, pi, err := findPattern(d, c.Pattern)
	if err != nil {
		return d, err
	}
	notes, err := CleanText("notes", c.Notes)
	if err != nil {
		return d, err
	}
	p.Mapping.Notes = notes
	d.Patterns = replaceAt(d.Patterns, pi, p)
	return d, nil
}

func (c SetMappingNotes) Summary() string { return c.summary("pattern " + c.Pattern) }
func (c SetMappingNotes) Describe(before Design) string {
	return c.summary(patternLabel(before, c.Pattern))
}
func (c SetMappingNotes) summary(label string) string {
	return fieldSummary(escapePercent(label)+"'s mapping %s", "notes", c.Notes, true)
}
func (c SetMappingNotes) Paths() []Path { return []Path{MappingPath(c.Pattern)} }
