package designer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

func init() {
	register[SetName]()
	register[SetOverviewField]()
	register[ReplaceDesign]()
}

// Limits on what a person can type into one field. They keep a stray paste from bloating a design.
const (
	MaxNameLen = 120
	MaxTextLen = 20000
)

// Change is one typed edit. Apply is a pure function: it returns the next design, or a
// *ValidationError naming the field and leaves its argument untouched.
type Change interface {
	// Kind names the change in stored history; it never changes once released.
	Kind() string
	Apply(Design) (Design, error)
	// Summary is the one line shown in history.
	Summary() string
	// Paths are the parts of the design the change touches, for live updates.
	Paths() []Path
}

// checker is a Change that is refused as a new edit where it would make no sense, though it
// still applies: replaying the history must give what was accepted when it was made, before the
// check existed.
type checker interface {
	Check(before Design) error
}

// CheckChange returns the error for which c is refused as a new edit of before: that of its Check when
// it has one, else nil. The store calls it for every new edit, never when it replays one.
func CheckChange(c Change, before Design) error {
	if ch, ok := c.(checker); ok {
		return ch.Check(before)
	}
	return nil
}

// describer is a Change whose history line reads better with the design it is applied to: rows are
// addressed by id, but people know them as "pattern 4" or "relationship Department → Employee".
type describer interface {
	Describe(before Design) string
}

// Describe returns the history line of c applied to before: Describe for a describer whose row
// is in before, and Summary otherwise.
func Describe(c Change, before Design) string {
	if d, ok := c.(describer); ok {
		return d.Describe(before)
	}
	return c.Summary()
}

// SetName renames the design.
type SetName struct {
	Name string `json:"name"`
}

func (SetName) Kind() string { return "set_name" }

func (c SetName) Apply(d Design) (Design, error) {
	name, err := CleanName("name", c.Name)
	if err != nil {
		return d, err
	}
	d.Name = name
	return d, nil
}

func (c SetName) Summary() string {
	return fmt.Sprintf("Renamed the design to %q", strings.TrimSpace(c.Name))
}
func (SetName) Paths() []Path { return []Path{PathName} }

// SetOverviewField sets one text field of the overview.
type SetOverviewField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetOverviewField) Kind() string { return "set_overview_field" }

func (c SetOverviewField) Apply(d Design) (Design, error) {
	f, ok := FieldNamed(OverviewFields, c.Field)
	if !ok {
		return d, Invalid("field", "unknown overview field %q", c.Field)
	}
	if err := f.set(&d, &d.Overview, "overview/"+c.Field, c.Value); err != nil {
		return d, err
	}
	return d, nil
}

func (c SetOverviewField) Summary() string {
	f, ok := FieldNamed(OverviewFields, c.Field)
	if !ok {
		f.Label = strings.ReplaceAll(c.Field, "_", " ")
	}
	return "Edited the overview's " + f.Label
}
func (c SetOverviewField) Paths() []Path { return []Path{OverviewPath(c.Field)} }

// Field returns the value of one overview field by name.
func (o Overview) Field(name string) string {
	if f, ok := FieldNamed(OverviewFields, name); ok {
		return f.Get(o)
	}
	return ""
}

// ReplaceDesign replaces the whole document, as a PUT of design-json or a restore does.
type ReplaceDesign struct {
	Design Design `json:"design"`
	// Note says why, for history ("Restored revision 4").
	Note string `json:"note,omitempty"`
}

func (ReplaceDesign) Kind() string { return "replace_design" }

func (c ReplaceDesign) Apply(Design) (Design, error) {
	next := Normalize(c.Design)
	if err := Check(next); err != nil {
		return Design{}, err
	}
	return next, nil
}

func (c ReplaceDesign) Summary() string {
	if c.Note != "" {
		return c.Note
	}
	return "Replaced the whole design"
}
func (ReplaceDesign) Paths() []Path { return []Path{""} }

// changeKinds decodes each kind of change; each kind's file registers its kinds with register.
var changeKinds = map[string]func(raw json.RawMessage, strict bool) (Change, error){}

// register makes change type T decodable by its kind.
func register[T Change]() {
	var c T
	changeKinds[c.Kind()] = decodeAs[T]
}

// decodeAs decodes a change of type T. Strict decoding refuses members T does not have, so that
// a misspelt member is named rather than read as nothing.
func decodeAs[T Change](raw json.RawMessage, strict bool) (Change, error) {
	var c T
	if !strict {
		err := json.Unmarshal(raw, &c)
		return c, err
	}
	err := decodeStrict(raw, &c)
	return c, err
}

var errMoreJSON = errors.New("more than one JSON value")

// decodeStrict decodes one JSON value into v, refusing members v has no field for and anything
// after the value.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errMoreJSON
	}
	return nil
}

// ChangeKinds lists the kinds of change there are, sorted: every kind MarshalChange writes and
// UnmarshalChange and ParseChange read.
func ChangeKinds() []string {
	kinds := make([]string, 0, len(changeKinds))
	for k := range changeKinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

type changeEnvelope struct {
	Kind   string          `json:"kind"`
	Change json.RawMessage `json:"change"`
}

// MarshalChange encodes a change with its kind, for history.
func MarshalChange(c Change) ([]byte, error) {
	body, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", c.Kind(), err)
	}
	return json.Marshal(changeEnvelope{Kind: c.Kind(), Change: body})
}

// UnmarshalChange decodes what MarshalChange wrote.
func UnmarshalChange(data []byte) (Change, error) {
	var env changeEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("decode change: %w", err)
	}
	decode, ok := changeKinds[env.Kind]
	if !ok {
		return nil, fmt.Errorf("decode change: unknown kind %q", env.Kind)
	}
	c, err := decode(env.Change, false)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", env.Kind, err)
	}
	return c, nil
}

// ParseChange reads one change sent by a person or a script in the envelope MarshalChange writes:
// {"kind": "set_item_cell", "change": {"table": "Orders", ...}}. It reads strictly, so that a
// misspelt kind or member is refused rather than read as nothing, and every refusal is a
// *ValidationError naming the member at fault ("kind", "change/text"). Whether the change fits
// the design is for its Apply to say.
func ParseChange(data []byte) (Change, error) {
	var env changeEnvelope
	if err := decodeStrict(data, &env); err != nil {
		return nil, jsonError("", err, `the envelope, which holds "kind" and "change"`)
	}
	switch {
	case env.Kind == "":
		return nil, Invalid("kind", "is missing; give the kind of change, such as \"set_item_cell\"")
	case changeKinds[env.Kind] == nil:
		return nil, Invalid("kind", "%q is not a kind of change; docs/changes.md lists every kind with an example", shorten(env.Kind))
	case len(env.Change) == 0 || string(env.Change) == "null":
		return nil, Invalid("change", "is missing; give the %s change's members as an object", env.Kind)
	}
	c, err := changeKinds[env.Kind](env.Change, true)
	if err != nil {
		return nil, jsonError("change", err, "a "+env.Kind+" change; docs/changes.md lists the members of each kind")
	}
	return c, nil
}

func CleanName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", Invalid(field, "must not be empty")
	case !utf8.ValidString(s):
		return "", Invalid(field, "must be valid UTF-8 text")
	case utf8.RuneCountInString(s) > MaxNameLen:
		return "", Invalid(field, "is %d characters long; at most %d are allowed", utf8.RuneCountInString(s), MaxNameLen)
	case strings.ContainsFunc(s, IsControl):
		return "", Invalid(field, "must be a single line without control characters")
	}
	return s, nil
}

func CleanText(field, s string) (string, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	switch {
	case !utf8.ValidString(s):
		return "", Invalid(field, "must be valid UTF-8 text")
	case utf8.RuneCountInString(s) > MaxTextLen:
		return "", Invalid(field, "is %d characters long; at most %d are allowed", utf8.RuneCountInString(s), MaxTextLen)
	case strings.ContainsFunc(s, func(r rune) bool { return IsControl(r) && r != '\n' && r != '\t' }):
		return "", Invalid(field, "must not contain control characters")
	}
	return strings.TrimRight(s, " \n\t"), nil
}

func IsControl(r rune) bool { return r < 0x20 || r == 0x7f }

// replaceAt returns a copy of rows with rows[i] replaced by v.
func replaceAt[T any](rows []T, i int, v T) []T {
	out := slices.Clone(rows)
	out[i] = v
	return out
}

// EditRows calls edit on a copy of each row and returns rows with the rows edit reports changed
// replaced. The list is copied only if a row changed.
func EditRows[T any](rows []T, edit func(*T) bool) []T {
	var out []T
	for i := range rows {
		v := rows[i]
		if edit(&v) {
			if out == nil {
				out = slices.Clone(rows)
			}
			out[i] = v
		}
	}
	if out == nil {
		return rows
	}
	return out
}

// deleteRows returns rows without those drop reports, copying the list only if one is dropped.
func deleteRows[T any](rows []T, drop func(T) bool) []T {
	if !slices.ContainsFunc(rows, drop) {
		return rows
	}
	return slices.DeleteFunc(slices.Clone(rows), drop)
}

// moveRow returns a copy of rows with the row at from moved to position to, clamped to the list.
func moveRow[T any](rows []T, from, to int) []T {
	to = max(0, min(to, len(rows)-1))
	out := slices.Clone(rows)
	if from == to {
		return out
	}
	v := out[from]
	out = slices.Delete(out, from, from+1)
	return slices.Insert(out, to, v)
}

// fieldSummary words the history line of a one-field edit. whose is the owner with a %s for the
// field's label, such as "pattern 4's %s". Prose fields say "Edited"; others quote the new value.
func fieldSummary(whose, label, value string, prose bool) string {
	subject := fmt.Sprintf(whose, label)
	value = strings.TrimSpace(value)
	switch {
	case value == "":
		return "Cleared " + subject
	case prose:
		return "Edited " + subject
	}
	return "Set " + subject + " to " + shorten(value)
}

// shorten keeps a value quoted in a history line to one short line.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	return string([]rune(s)[:59]) + "…"
}
