package rules

import (
	"reflect"
	"slices"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Most of a validation's work is on sample items: the item rules read every item, MOD017 every
// item once per index, MAP009 and MAP011 run the patterns' operations against them, and MAP012
// gathers every attribute name they use. That work is done per table or per pattern, and a Memo
// keeps what it found, so that the next revision's validation repeats it only where its inputs
// changed (issue 14): an edit of one item cell re-runs the item rules of its table and the
// operations that read that table, nothing else.
//
// This relies on a design being an immutable value whose changes copy only what they change
// (package designer): a table whose Items slice is the same array of the same length, and whose
// other fields are equal, holds the same items; a pattern equal to its former self, whose
// operations name tables that are unchanged in that sense, runs to the same results. The findings
// of a part are appended in the order a full validation appends them, so ValidateFrom's result is
// Validate's, finding for finding.

// Memo is what one validation found per table and per pattern. It is never changed once
// ValidateFrom has returned it, so any number of later validations may read it at once.
type Memo struct {
	tables   map[string]*tableMemo   // by table name: the first table of that name
	patterns map[string]*patternMemo // by pattern id: the first pattern with that id
}

// The parts of a table's findings a Memo keeps.
const (
	partItems  = iota // MOD006–MOD011, MOD014, MOD015 (modItemRules)
	partSparse        // MOD017
	tableParts
)

type tableMemo struct {
	t     designer.Table
	done  [tableParts]bool
	parts [tableParts][]Finding
	attrs map[string]bool // MAP012's tableAttributeNames, nil until asked for
}

type patternMemo struct {
	p designer.Pattern
	// tables are the tables its operations name, as they were, in operation order; a zero Table
	// where the design had none of that name.
	tables   []designer.Table
	findings []Finding // MAP009, MAP011
}

// validation is one run of ValidateFrom: the design, the Cache its reads go through, the Memo it
// takes unchanged parts from, and the one it fills for the next run.
type validation struct {
	d      designer.Design
	cache  *dynamo.Cache
	prev   *Memo
	next   *Memo
	tables []*tableMemo // by position in d.Tables, filled as asked
}

func newValidation(d designer.Design, cache *dynamo.Cache, prev *Memo) *validation {
	if cache == nil {
		// The operations of one validation read the same tables' items.
		cache = dynamo.NewCache()
	}
	if prev == nil {
		prev = &Memo{}
	}
	return &validation{d: d, cache: cache, prev: prev,
		next:   &Memo{tables: map[string]*tableMemo{}, patterns: map[string]*patternMemo{}},
		tables: make([]*tableMemo, len(d.Tables)),
	}
}

// table returns the memo of table ti, starting from the last validation's when the table has not
// changed since.
func (v *validation) table(ti int) *tableMemo {
	if m := v.tables[ti]; m != nil {
		return m
	}
	t := v.d.Tables[ti]
	m := &tableMemo{t: t}
	if old, ok := v.prev.tables[t.Name]; ok && sameTable(old.t, t) {
		m.done, m.parts, m.attrs = old.done, old.parts, old.attrs
	}
	v.tables[ti] = m
	if _, taken := v.next.tables[t.Name]; !taken {
		v.next.tables[t.Name] = m
	}
	return m
}

// tablePart appends part of table ti's findings to out: those remembered, or what check appends.
func (v *validation) tablePart(ti, part int, out []Finding, check func([]Finding) []Finding) []Finding {
	m := v.table(ti)
	if m.done[part] {
		return append(out, m.parts[part]...)
	}
	from := len(out)
	out = check(out)
	m.parts[part], m.done[part] = slices.Clone(out[from:]), true
	return out
}

// attributeNames is tableAttributeNames of table ti, worked out once per state of the table.
func (v *validation) attributeNames(ti int) map[string]bool {
	m := v.table(ti)
	if m.attrs == nil {
		m.attrs = tableAttributeNames(m.t)
	}
	return m.attrs
}

// patternPart appends pattern pi's MAP009 and MAP011 findings to out: those remembered when
// neither the pattern nor a table its operations name has changed, or what check appends.
func (v *validation) patternPart(pi int, out []Finding, check func([]Finding) []Finding) []Finding {
	p := v.d.Patterns[pi]
	tables := make([]designer.Table, len(p.Mapping.Operations))
	for i, op := range p.Mapping.Operations {
		tables[i], _, _ = v.d.TableByName(op.Table)
	}
	m := &patternMemo{p: p, tables: tables}
	if old, ok := v.prev.patterns[p.ID]; ok && samePattern(old, m) {
		m.findings = old.findings
		out = append(out, m.findings...)
	} else {
		from := len(out)
		out = check(out)
		m.findings = slices.Clone(out[from:])
	}
	if _, taken := v.next.patterns[p.ID]; !taken {
		v.next.patterns[p.ID] = m
	}
	return out
}

// sameTable reports whether a and b hold the same items (the same array, not only equal ones)
// and are equal in every other field.
func sameTable(a, b designer.Table) bool {
	if len(a.Items) != len(b.Items) || len(a.Items) > 0 && &a.Items[0] != &b.Items[0] {
		return false
	}
	a.Items, b.Items = nil, nil
	return reflect.DeepEqual(a, b)
}

// samePattern reports whether two patterns are equal and their operations name tables that are
// the same (sameTable).
func samePattern(a, b *patternMemo) bool {
	if len(a.tables) != len(b.tables) || !reflect.DeepEqual(a.p, b.p) {
		return false
	}
	for i := range a.tables {
		if !sameTable(a.tables[i], b.tables[i]) {
			return false
		}
	}
	return true
}
