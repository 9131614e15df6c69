package datamodelmd

import (
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The inputs the capacity report prices a design with, as the data model writes and reads them:
//
//   - the design's capacity settings (designer.CapacityFields) under "## Capacity Settings",
//     just before the Cost Report, one bullet per setting the design sets,
//     "- **Target utilisation %:** 70", the value as the field shows it; no section when none is
//     set. Each bullet is read back through the field's own parser, so a new setting needs no code
//     here; a bullet the parser refuses is kept as prose, with a note naming the field;
//   - a table's class, "- **Table Class**: STANDARD_INFREQUENT_ACCESS (Standard-IA)", after its
//     billing mode, when set;
//   - a write pattern's conditional-failure rate, the first line of its mapping row's
//     Implementation Notes, "Failed conditions: 5% of successful writes", when set. It is a
//     property of the write's condition, which the same row states; the requirement template's
//     pattern table has no column for it.

// settingsHead is the heading of the capacity settings.
const settingsHead = "Capacity Settings"

// capacitySettings writes the Capacity Settings section: a bullet per setting the design sets,
// then the prose kept under the heading; nothing when there is neither.
func (w *writer) capacitySettings() {
	var lines []string
	for _, f := range designer.CapacityFields {
		if v := f.Get(w.d.Capacity); v != "" {
			lines = append(lines, "- **"+f.Heading()+":** "+settingEscape(v))
		}
	}
	slot := proseSlot{kind: sectionCapacity}
	if len(lines) == 0 && !w.hasProse(slot) {
		return
	}
	w.heading(settingsHead)
	if len(lines) > 0 {
		w.line("")
		for _, l := range lines {
			w.line(l)
		}
	}
	w.prose(slot, ctxCapacity)
}

// hasProse reports whether a prose section with some text is placed in slot.
func (w *writer) hasProse(slot proseSlot) bool {
	for i, s := range w.d.Prose.Sections {
		if w.slots[i] == slot && markdown.ProseBody(s.Body) != "" {
			return true
		}
	}
	return false
}

// settingEscape keeps a setting's value text: a region's name may hold what markdown reads as
// emphasis or code, or start with what a field line reads as its label's "(Partition Key)" or
// colon.
func settingEscape(v string) string {
	e := markdown.Escape(markdown.OneLine(v), "*_`[]")
	if strings.HasPrefix(e, "(") || strings.HasPrefix(e, ":") {
		e = `\` + e
	}
	return e
}

// settingAliases are labels people write for settings beside the fields' own headings, labels and
// keys, as Words spells them.
var settingAliases = map[string]string{
	"region":                  designer.CapacityField.Region.Key,
	"aws region":              designer.CapacityField.Region.Key,
	"target utilisation":      designer.CapacityField.TargetUtilization.Key,
	"zipf s":                  designer.CapacityField.HotKeyZipfS.Key,
	"horizon":                 designer.CapacityField.HorizonMonths.Key,
	"horizon months":          designer.CapacityField.HorizonMonths.Key,
	"replicas":                designer.CapacityField.ReplicaRegions.Key,
	"global tables replicas":  designer.CapacityField.ReplicaRegions.Key,
	"global tables regions":   designer.CapacityField.ReplicaRegions.Key,
	"reserved capacity term":  designer.CapacityField.ReservedCapacity.Key,
	"reserved capacity terms": designer.CapacityField.ReservedCapacity.Key,
}

// settingKey is Words of a label, with American spellings British.
func settingKey(label string) string {
	return strings.ReplaceAll(designer.Words(label), "utilization", "utilisation")
}

// settingNamed is the capacity setting a bullet's label names: a field's heading, label or key in
// any case, or one of settingAliases.
func settingNamed(label string) (designer.Field[designer.CapacitySettings], bool) {
	k := settingKey(label)
	if key, ok := settingAliases[k]; ok {
		return designer.FieldNamed(designer.CapacityFields, key)
	}
	for _, f := range designer.CapacityFields {
		if k == settingKey(f.Heading()) || k == settingKey(f.Label) || k == settingKey(f.Key) {
			return f, true
		}
	}
	return designer.Field[designer.CapacitySettings]{}, false
}

// settingField reads a bullet of the Capacity Settings section into the settings read so far: a
// setting's line is read through its field's parser; one the parser refuses, one set twice or a
// labelled line that is no setting is left to be kept as prose, with a note naming its line.
func (p *parser) settingField(it markdown.Item) bool {
	f, ok := readField(it)
	if !ok || len(f.cont) > 0 {
		return false
	}
	field, ok := settingNamed(f.raw)
	if !ok {
		p.note(it.Line, "%q is not a capacity setting Dynaloom has (%s); the line was kept as prose", f.raw, settingHeadings())
		return false
	}
	if at, twice := p.settingLines[field.Key]; twice {
		p.note(it.Line, "the %s is set on line %d already; %q on this line was kept as prose", field.Label, at, markdown.OneLine(f.value))
		return false
	}
	next, err := designer.SetCapacityField{Field: field.Key, Value: f.value}.Apply(designer.Design{Capacity: p.settings})
	if err != nil {
		p.note(it.Line, "the %s %q was not read: %s; the line was kept as prose", field.Label, markdown.OneLine(f.value), errorText(err))
		return false
	}
	p.settings = next.Capacity
	if p.settingLines == nil {
		p.settingLines = map[string]int{}
	}
	p.settingLines[field.Key] = it.Line
	return true
}

// errorText is a refusal's message without the field it names, which the note says in words.
func errorText(err error) string {
	if ve, ok := err.(*designer.ValidationError); ok {
		return ve.Message
	}
	return err.Error()
}

// settingHeadings lists the headings of the capacity settings, for a note.
func settingHeadings() string {
	names := make([]string, len(designer.CapacityFields))
	for i, f := range designer.CapacityFields {
		names[i] = f.Heading()
	}
	return "the settings are " + strings.Join(names, ", ")
}

// lineIsSetting reports whether a line, read as the start of an item under the Capacity Settings
// heading, would be read as a setting.
func lineIsSetting(l string) bool {
	it := markdown.Item{Kind: markdown.KindText, Lines: []string{l}}
	if markdown.IndentOf(l) < 4 && markdown.BulletStart().MatchString(l) {
		it.Kind = markdown.KindBullet
	}
	f, ok := readField(it)
	if !ok {
		return false
	}
	_, ok = settingNamed(f.raw)
	return ok
}

// tableClassText is a table class as the data model writes it, DynamoDB's name and the one people
// say: "STANDARD_INFREQUENT_ACCESS (Standard-IA)".
func tableClassText(class string) string { return class + " (" + designer.TableClassName(class) + ")" }

// parseTableClass reads a Table Class bullet: the export's form, or a class as people write it
// ("Standard-IA", "infrequent access").
func parseTableClass(v string) (string, error) {
	class, err := designer.ParseTableClass(v)
	if err == nil {
		return class, nil
	}
	if head, paren := cutParen(v); paren != "" {
		if c, e := designer.ParseTableClass(head); e == nil {
			return c, nil
		}
	}
	return "", err
}

// failureLabel opens the line of a mapping row's notes that gives the pattern's conditional-failure
// rate; failureUnit follows the figure.
const (
	failureLabel = "Failed conditions: "
	failureUnit  = "% of successful writes"
	// failureNone says a pattern states no rate.
	failureNone = "none"
)

// failureLabels are the labels people give that line, as Words spells them.
var failureLabels = map[string]bool{
	"failed conditions": true, "failed condition": true, "conditional failures": true, "conditional failure rate": true,
	"conditional failure": true, "condition failures": true, "failed conditional writes": true, "conditional check failures": true,
	"failed condition checks": true, "conditional failure %": true, "failed conditions %": true,
}

// failureText is the notes line of a pattern's conditional-failure rate, "" when it has none.
func failureText(p designer.Pattern) string {
	v := designer.PatternField.ConditionalFailurePct.Get(p)
	if v == "" {
		return ""
	}
	return failureLabel + v + failureUnit
}

// withFailure is a mapping row's notes with the pattern's conditional-failure line first: the import
// reads the first line that gives a rate, so a line of the notes that looks like one stays notes.
// A pattern without a rate whose notes have such a line says it has none.
func withFailure(notes string, p designer.Pattern) string {
	line := failureText(p)
	if _, _, found, _ := cutFailure(notes); line == "" && found {
		line = failureLabel + failureNone
	}
	switch {
	case line == "":
		return notes
	case notes == "":
		return line
	}
	return line + "\n" + notes
}

// cutFailure takes the line that gives a conditional-failure rate out of a mapping row's notes and
// reads it through the pattern field's parser; "none" gives no rate. A line the parser refuses
// stays in the notes, and the error says why; found is false when no line gives a rate.
func cutFailure(notes string) (rest string, pct *float64, found bool, err error) {
	lines := strings.Split(notes, "\n")
	for i, l := range lines {
		label, value, ok := strings.Cut(l, ":")
		if !ok || !failureLabels[designer.Words(label)] {
			continue
		}
		v := strings.TrimSpace(value)
		for _, unit := range []string{"of successful writes", "of successful ones", "of successes", "of writes", "per 100 successful writes", "per 100 writes"} {
			if len(v) > len(unit) && strings.EqualFold(v[len(v)-len(unit):], unit) {
				v = strings.TrimSpace(v[:len(v)-len(unit)])
				break
			}
		}
		if w := designer.Words(v); w == failureNone || w == "n/a" || w == "" {
			return strings.Join(append(lines[:i:i], lines[i+1:]...), "\n"), nil, true, nil
		}
		one := designer.Design{Patterns: []designer.Pattern{{ID: "p"}}}
		next, e := designer.SetPatternField{ID: "p", Field: designer.PatternField.ConditionalFailurePct.Key, Value: v}.Apply(one)
		if e != nil {
			return notes, nil, true, e
		}
		pct = next.Patterns[0].ConditionalFailurePct
		return strings.Join(append(lines[:i:i], lines[i+1:]...), "\n"), pct, true, nil
	}
	return notes, nil, false, nil
}
