package designer

import (
	"fmt"
	"slices"
	"strconv"
)

func init() {
	register[AddPattern]()
	register[SetPatternField]()
	register[DeletePattern]()
	register[MovePattern]()
	register[RenumberPatterns]()
}

// Changes to access patterns. Patterns are addressed by id, because their numbers are themselves
// edited; people still know them by number, so history lines name the number (see Describe).

func findPattern(d Design, id string) (Pattern, int, error) {
	p, i, ok := d.PatternByID(id)
	if !ok {
		return Pattern{}, -1, Invalid("id", "no access pattern with id %q; it may have been deleted", id)
	}
	return p, i, nil
}

// patternLabel names a pattern in a history line: "pattern 4", or by id when it has no number or
// is not in d.
func patternLabel(d Design, id string) string {
	if p, _, ok := d.PatternByID(id); ok && p.Number > 0 {
		return "pattern " + strconv.Itoa(p.Number)
	}
	return "pattern " + id
}

// entityList checks that every name is an entity of d and returns the names without repeats.
func entityList(d Design, field string, names []string) ([]string, error) {
	var out []string
	for _, name := range names {
		if _, _, ok := d.EntityByName(name); !ok {
			return nil, Invalid(field, "no entity named %q", name)
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// AddPattern adds an open access pattern numbered one more than the highest number, after the
// pattern with id After, or at the end when After is empty.
type AddPattern struct {
	After       string   `json:"after,omitempty"`
	Type        string   `json:"type,omitempty"`
	Description string   `json:"description,omitempty"`
	Entities    []string `json:"entities,omitempty"`
}

func (AddPattern) Kind() string { return "add_pattern" }

func (c AddPattern) Apply(d Design) (Design, error) {
	at := len(d.Patterns)
	if c.After != "" {
		_, i, ok := d.PatternByID(c.After)
		if !ok {
			return d, Invalid("after", "no access pattern with id %q; it may have been deleted", c.After)
		}
		at = i + 1
	}
	typ, err := ParsePatternType(c.Type)
	if err != nil {
		return d, fieldError("type", err)
	}
	description, err := CleanText("description", c.Description)
	if err != nil {
		return d, err
	}
	entities, err := entityList(d, "entities", c.Entities)
	if err != nil {
		return d, err
	}
	number := 0
	for _, p := range d.Patterns {
		number = max(number, p.Number)
	}
	p := Pattern{
		ID:          nextID(d.Patterns, patternIDPrefix, func(p *Pattern) string { return p.ID }),
		Number:      number + 1,
		Description: description,
		Type:        typ,
		Status:      StatusOpen,
		Entities:    entities,
	}
	next := make([]Pattern, 0, len(d.Patterns)+1)
	next = append(append(append(next, d.Patterns[:at]...), p), d.Patterns[at:]...)
	d.Patterns = next
	return d, nil
}

func (c AddPattern) Summary() string {
	if s := shorten(c.Description); s != "" {
		return fmt.Sprintf("Added pattern %q", s)
	}
	return "Added an access pattern"
}
func (AddPattern) Paths() []Path { return []Path{PathPatterns} }

// SetPatternField sets one field of an access pattern from what a person typed: numbers may have
// thousands separators and units, enumerations may be spelt as people spell them, lists are
// comma-separated. An empty value clears an optional field. When the number changes, the indexes'
// per-pattern attribute lists follow it.
type SetPatternField struct {
	ID    string `json:"id"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetPatternField) Kind() string { return "set_pattern_field" }

func (c SetPatternField) Apply(d Design) (Design, error) {
	p, i, err := findPattern(d, c.ID)
	if err != nil {
		return d, err
	}
	f, ok := FieldNamed(PatternFields, c.Field)
	if !ok {
		return d, Invalid("field", "access patterns have no field %q", c.Field)
	}
	if err := f.apply(&d, &p, c.Value); err != nil {
		return d, err
	}
	d.Patterns = replaceAt(d.Patterns, i, p)
	return d, nil
}

// setPatternNumber renumbers a pattern; the indexes' per-pattern attribute lists follow it.
func setPatternNumber(d *Design, p *Pattern, name, value string) error {
	n, err := parsePatternNumber(value)
	if err != nil {
		return err
	}
	if other, _, taken := d.PatternByNumber(n); taken && other.ID != p.ID {
		return Invalid(name, "%d is already used by pattern %d %q", n, n, shorten(other.Description))
	}
	if n != p.Number {
		old := p.Number
		d.Tables = renumberIndexes(d.Tables, func(k int) (int, bool) { return n, k == old })
	}
	p.Number = n
	return nil
}

// nameList reads a comma-separated list of names; nil when it is empty.
func nameList(field, s string) ([]string, error) {
	names := splitList(s)
	for _, name := range names {
		if _, err := CleanName(field, name); err != nil {
			return nil, Invalid(field, "has %q, which %s", shorten(name), err.(*ValidationError).Message)
		}
	}
	return names, nil
}

func (c SetPatternField) Summary() string { return c.summary("pattern " + c.ID) }

func (c SetPatternField) Describe(before Design) string {
	return c.summary(patternLabel(before, c.ID))
}

func (c SetPatternField) summary(label string) string {
	f, _ := FieldNamed(PatternFields, c.Field)
	return f.summary(label+"'s %s", c.Value)
}

func (c SetPatternField) Paths() []Path {
	if c.Field == PatternField.Number.Key {
		return []Path{PatternPath(c.ID, ""), PathTables}
	}
	return []Path{PatternPath(c.ID, c.Field)}
}

// renumberIndexes returns tables with every index's per-pattern attribute list renumbered by
// follow, which reports the new number of an old one. Only what changes is copied.
func renumberIndexes(tables []Table, follow func(int) (int, bool)) []Table {
	renumber := func(ixs []Index) ([]Index, bool) {
		changed := false
		ixs = EditRows(ixs, func(ix *Index) bool {
			moved := false
			ix.PatternAttributes = EditRows(ix.PatternAttributes, func(pa *PatternAttributes) bool {
				n, ok := follow(pa.Pattern)
				if ok && n != pa.Pattern {
					pa.Pattern = n
					moved = true
					return true
				}
				return false
			})
			changed = changed || moved
			return moved
		})
		return ixs, changed
	}
	return EditRows(tables, func(t *Table) bool {
		gsis, g := renumber(t.GSIs)
		lsis, l := renumber(t.LSIs)
		t.GSIs, t.LSIs = gsis, lsis
		return g || l
	})
}

// DeletePattern deletes an access pattern.
type DeletePattern struct {
	ID string `json:"id"`
}

func (DeletePattern) Kind() string { return "delete_pattern" }

func (c DeletePattern) Apply(d Design) (Design, error) {
	_, i, err := findPattern(d, c.ID)
	if err != nil {
		return d, err
	}
	d.Patterns = slices.Delete(slices.Clone(d.Patterns), i, i+1)
	return d, nil
}

func (c DeletePattern) Summary() string               { return "Deleted pattern " + c.ID }
func (c DeletePattern) Describe(before Design) string { return "Deleted " + patternLabel(before, c.ID) }
func (c DeletePattern) Paths() []Path                 { return []Path{PatternPath(c.ID, "")} }

// MovePattern moves an access pattern to position To (from 0), clamped to the list. Numbers stay
// as they are; RenumberPatterns makes them follow the order.
type MovePattern struct {
	ID string `json:"id"`
	To int    `json:"to"`
}

func (MovePattern) Kind() string { return "move_pattern" }

func (c MovePattern) Apply(d Design) (Design, error) {
	_, i, err := findPattern(d, c.ID)
	if err != nil {
		return d, err
	}
	d.Patterns = moveRow(d.Patterns, i, c.To)
	return d, nil
}

func (c MovePattern) Summary() string { return c.summary("pattern " + c.ID) }
func (c MovePattern) Describe(before Design) string {
	return c.summary(patternLabel(before, c.ID))
}
func (c MovePattern) summary(label string) string {
	return fmt.Sprintf("Moved %s to position %d", label, max(c.To, 0)+1)
}
func (MovePattern) Paths() []Path { return []Path{PathPatterns} }

// RenumberPatterns numbers the access patterns 1, 2, 3… in list order. References to the old
// numbers (the indexes' per-pattern attribute lists) follow; where two patterns shared a number,
// references go to the first of them.
type RenumberPatterns struct{}

func (RenumberPatterns) Kind() string { return "renumber_patterns" }

func (RenumberPatterns) Apply(d Design) (Design, error) {
	renumbered := map[int]int{}
	patterns := slices.Clone(d.Patterns)
	for i := range patterns {
		if _, seen := renumbered[patterns[i].Number]; !seen {
			renumbered[patterns[i].Number] = i + 1
		}
		patterns[i].Number = i + 1
	}
	d.Patterns = patterns
	d.Tables = renumberIndexes(d.Tables, func(old int) (int, bool) {
		n, ok := renumbered[old]
		return n, ok
	})
	return d, nil
}

func (RenumberPatterns) Summary() string { return "Renumbered the access patterns in list order" }
func (RenumberPatterns) Paths() []Path   { return []Path{PathPatterns, PathTables} }
