package designer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// An entity's scale: how many items it has, how many new ones a period brings, and how long each
// is kept, each with where the figure came from ("team", "read from: Application Overview, line
// 7"). Storage at a horizon (CapacitySettings.HorizonMonths) is worked out from them.

// Units of time a growth is counted per and a retention counted in.
const (
	Day   = "day"
	Week  = "week"
	Month = "month"
	Year  = "year"
)

// FromTeam is the source of a figure the team set.
const FromTeam = "team"

// MaxRetentionYears is the longest retention an entity may have.
const MaxRetentionYears = 1000

// YearsOf is v of unit (Day, Week, Month, Year) in years: a year is 365 days, a month a twelfth of
// a year.
func YearsOf(v float64, unit string) float64 {
	switch unit {
	case Day:
		return v / 365
	case Week:
		return v * 7 / 365
	case Month:
		return v / 12
	}
	return v
}

// TimeUnit reads a unit of time in the spellings people use ("years", "yr", "daily"); ok is false
// for anything else.
func TimeUnit(s string) (string, bool) {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(s), ".,;:")) {
	case "day", "days", "d", "daily":
		return Day, true
	case "week", "weeks", "wk", "wks", "w", "weekly":
		return Week, true
	case "month", "months", "mo", "mos", "monthly":
		return Month, true
	case "year", "years", "yr", "yrs", "y", "annually", "yearly", "annum":
		return Year, true
	}
	return "", false
}

// ParseGrowth reads how many new items a period brings: a number, then "per", "a", "/" or
// "each" and a unit of time ("300 per day", "256,000/year", "12 a month"). Blank returns nil.
func ParseGrowth(s string) (*float64, string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, "", nil
	}
	bad := fmt.Errorf("%q is not a growth; give the new items per day, week, month or year (300 per day)", t)
	num, unit, ok := strings.Cut(t, "/")
	if !ok {
		f := strings.Fields(t)
		if len(f) < 2 {
			return nil, "", bad
		}
		num, unit = strings.Join(f[:len(f)-1], " "), f[len(f)-1]
		for _, w := range []string{" per", " a", " an", " each", " every"} {
			if cut, ok := strings.CutSuffix(num, w); ok {
				num = cut
				break
			}
		}
	}
	v, err := ParseFieldNumber(strings.TrimSpace(num))
	u, uok := TimeUnit(unit)
	if err != nil || !uok {
		return nil, "", bad
	}
	if v < 0 {
		return nil, "", fmt.Errorf("%q is negative; a growth is zero or more new items per period", t)
	}
	return &v, u, nil
}

// ParseRetention reads how long an item is kept: a number above 0 and a unit of time ("7 years",
// "90 days"), at most MaxRetentionYears. Blank returns nil.
func ParseRetention(s string) (*float64, string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, "", nil
	}
	f := strings.Fields(t)
	bad := fmt.Errorf("%q is not a retention; give how long an item is kept, above 0 and up to %d years (7 years, 90 days)", t, MaxRetentionYears)
	if len(f) != 2 {
		return nil, "", bad
	}
	v, err := ParseFieldNumber(f[0])
	u, ok := TimeUnit(f[1])
	if err != nil || !ok || !(v > 0) || YearsOf(v, u) > MaxRetentionYears {
		return nil, "", bad
	}
	return &v, u, nil
}

// FormatPeriod writes v of a unit of time as people read it: "7 years", "1 day".
func FormatPeriod(v float64, unit string) string {
	n := strconv.FormatFloat(v, 'f', -1, 64)
	if v == 1 {
		return n + " " + unit
	}
	return n + " " + unit + "s"
}

// FormatGrowth writes a growth as ParseGrowth reads it: "300 per day"; nil is blank.
func FormatGrowth(v *float64, unit string) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64) + " per " + unit
}

// FormatRetention writes a retention as ParseRetention reads it: "7 years"; nil is blank.
func FormatRetention(v *float64, unit string) string {
	if v == nil {
		return ""
	}
	return FormatPeriod(*v, unit)
}

// GrowthPerYear is the entity's new items a year; ok is false when it has no growth.
func (e Entity) GrowthPerYear() (float64, bool) {
	if e.Growth == nil {
		return 0, false
	}
	// A growth of g per unit is g / (the unit in years) a year.
	return *e.Growth / YearsOf(1, e.GrowthUnit), true
}

// RetentionYears is how long the entity's items are kept, in years; ok is false when not stated.
func (e Entity) RetentionYears() (float64, bool) {
	if e.Retention == nil {
		return 0, false
	}
	return YearsOf(*e.Retention, e.RetentionUnit), true
}

// checkScale refuses an entity scale no figure can be computed from.
func checkScale(p string, e Entity) error {
	if err := nonNegFloat(p+"/growth", e.Growth); err != nil {
		return err
	}
	if e.Growth != nil {
		if err := OneOf(p+"/growth_unit", e.GrowthUnit, Day, Week, Month, Year); err != nil {
			return err
		}
	}
	if e.Retention != nil {
		if err := OneOf(p+"/retention_unit", e.RetentionUnit, Day, Week, Month, Year); err != nil {
			return err
		}
		if r := *e.Retention; !(r > 0) || YearsOf(r, e.RetentionUnit) > MaxRetentionYears {
			return Invalid(p+"/retention", "must be above 0 and at most %d years", MaxRetentionYears)
		}
	}
	for i, sc := range e.InState {
		at := p + "/in_state/" + strconv.Itoa(i)
		if _, err := CleanName(at+"/state", sc.State); err != nil {
			return err
		}
		if err := nonNegInt(at+"/count", &sc.Count); err != nil {
			return err
		}
		if _, err := CleanText(at+"/from", sc.From); err != nil {
			return err
		}
	}
	for _, f := range []struct{ key, v string }{{"count_from", e.CountFrom}, {"growth_from", e.GrowthFrom}, {"retention_from", e.RetentionFrom}} {
		if _, err := CleanText(p+"/"+f.key, f.v); err != nil {
			return err
		}
	}
	return nil
}

// scaleField is a figure of an entity that reads with its unit, whose source becomes FromTeam when
// the team sets it (and is cleared with it).
func scaleField(key, label string, at func(*Entity) (**float64, *string, *string),
	parse func(string) (*float64, string, error), format func(*float64, string) string) Field[Entity] {
	return Field[Entity]{Key: key, Label: label, Also: []string{key + "_unit", key + "_from"},
		Get: func(e Entity) string {
			v, unit, _ := at(&e)
			return format(*v, *unit)
		},
		set: func(_ *Design, e *Entity, _, value string) error {
			v, unit, err := parse(value)
			if err != nil {
				return err
			}
			pv, pu, from := at(e)
			*pv, *pu, *from = v, unit, ""
			if v != nil {
				*from = FromTeam
			}
			return nil
		}}
}

// teamCount is the entity's count, whose source becomes FromTeam when the team sets it.
func teamCount() Field[Entity] {
	f := countField("count", "expected count", func(e *Entity) **int64 { return &e.Count }).titled("How many")
	set := f.set
	f.Also = []string{"count_from"}
	f.set = func(d *Design, e *Entity, name, value string) error {
		if err := set(d, e, name, value); err != nil {
			return err
		}
		e.CountFrom = ""
		if e.Count != nil {
			e.CountFrom = FromTeam
		}
		return nil
	}
	return f
}

// fieldKeys lists the keys of fields for a refusal.
func fieldKeys[R any](fields []Field[R]) string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}

// FormatStateCounts writes an entity's state counts as the field reads them: "10000 open, 40 overdue".
func FormatStateCounts(states []StateCount) string {
	parts := make([]string, len(states))
	for i, sc := range states {
		parts[i] = strconv.FormatInt(sc.Count, 10) + " " + sc.State
	}
	return strings.Join(parts, ", ")
}

// ParseStateCounts reads "10,000 open, 40 overdue": each part a whole count and the state's one
// word; blank is none.
func ParseStateCounts(field, value string) ([]StateCount, error) {
	var out []StateCount
	// Parts are split at ", " or ";", not at a bare comma, which separates thousands (10,000).
	for _, part := range strings.Split(strings.ReplaceAll(value, ";", ", "), ", ") {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, Invalid(field, "has %q; write each as a count and one word for the state (10,000 open)", shorten(part))
		}
		v, err := ParseFieldNumber(f[0])
		if err != nil || v < 0 || v != math.Trunc(v) || v > MaxNumber {
			return nil, Invalid(field, "has %q, whose count is not a whole number from 0 to %s", shorten(part), maxNumberText)
		}
		state, err := CleanName(field, strings.ToLower(f[1]))
		if err != nil {
			return nil, err
		}
		out = append(out, StateCount{State: state, Count: int64(v)})
	}
	return out, nil
}

// stateCountsField is an entity's state counts; a count the team keeps as it was keeps its
// source, one it sets or changes is the team's.
func stateCountsField() Field[Entity] {
	return Field[Entity]{Key: "in_state", Label: "counts in a state", Title: "In a state",
		Get: func(e Entity) string { return FormatStateCounts(e.InState) },
		set: func(_ *Design, e *Entity, name, value string) error {
			states, err := ParseStateCounts(name, value)
			if err != nil {
				return err
			}
			for i := range states {
				states[i].From = FromTeam
				for _, old := range e.InState {
					if old.State == states[i].State && old.Count == states[i].Count {
						states[i].From = old.From
					}
				}
			}
			e.InState = states
			return nil
		}}
}
