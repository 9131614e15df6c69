// Package designertest holds the fixtures and checks that the tests of the packages beneath
// internal/designer share: the HR example and every bundled example, the Orders and mid-size
// designs the exports are tested on, Large designs of any number of tables, items, GSIs and patterns for benchmarks and load tests,
// golden files with the one -update flag, marshalling, the validation-error check, and the runner of
// change cases (RunChangeCases). Package designer's tests use it from the external test package
// designer_test; the few that check unexported names stay inside the package.
package designertest

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// HRDesign returns the bundled HR example, failing the test if it does not load.
func HRDesign(tb testing.TB) designer.Design {
	tb.Helper()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		tb.Fatalf("ExampleDesign(hr-employees): %v", err)
	}
	return d
}

// Examples returns every bundled example by id, failing the test if one does not load. Tests that
// hold the examples to the gallery's promise (complete, valid, round trips exact) range over it, so
// a new example file is checked by all of them without a line of test code.
func Examples(tb testing.TB) map[string]designer.Design {
	tb.Helper()
	out := map[string]designer.Design{}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			tb.Fatalf("ExampleDesign(%s): %v", ex.ID, err)
		}
		out[ex.ID] = d
	}
	return out
}

// MustMarshal returns d's design-json, failing the test if it does not marshal.
func MustMarshal(tb testing.TB, d designer.Design) []byte {
	tb.Helper()
	b, err := designer.MarshalJSON(d)
	if err != nil {
		tb.Fatalf("MarshalJSON: %v", err)
	}
	return b
}

// WantValidationError fails unless err is a *designer.ValidationError for field.
func WantValidationError(tb testing.TB, err error, field string) {
	tb.Helper()
	var ve *designer.ValidationError
	if !errors.As(err, &ve) {
		tb.Fatalf("error = %v (%T), want *ValidationError for %q", err, err, field)
	}
	if ve.Field != field {
		tb.Fatalf("ValidationError.Field = %q (%v), want %q", ve.Field, ve, field)
	}
}

// AssertUnchanged fails if d no longer marshals to before.
func AssertUnchanged(tb testing.TB, before []byte, d designer.Design) {
	tb.Helper()
	if after := MustMarshal(tb, d); !bytes.Equal(before, after) {
		tb.Fatalf("Apply modified the design it was given")
	}
}

// ApplyAll applies changes to d in order, failing the test at the first refused.
func ApplyAll(tb testing.TB, d designer.Design, changes ...designer.Change) designer.Design {
	tb.Helper()
	for _, c := range changes {
		var err error
		if d, err = c.Apply(d); err != nil {
			tb.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	return d
}

// FirstDifference shows where two byte slices first differ, with some context around it.
func FirstDifference(a, b []byte) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			lo := max(0, i-80)
			return "first:  …" + string(a[lo:min(len(a), i+80)]) + "\nsecond: …" + string(b[lo:min(len(b), i+80)])
		}
	}
	return "one is a prefix of the other"
}

// HasNote reports whether some note contains all the given fragments.
func HasNote(notes []designer.ImportNote, fragments ...string) bool {
	for _, n := range notes {
		all := true
		for _, f := range fragments {
			all = all && strings.Contains(n.Message, f)
		}
		if all {
			return true
		}
	}
	return false
}

// ProseTitled returns the prose section of d with the given title.
func ProseTitled(d designer.Design, title string) (designer.Section, bool) {
	for _, s := range d.Prose.Sections {
		if s.Title == title {
			return s, true
		}
	}
	return designer.Section{}, false
}

// Pattern returns the pattern of d numbered n, failing the test when there is none.
func Pattern(tb testing.TB, d designer.Design, n int) designer.Pattern {
	tb.Helper()
	p, _, ok := d.PatternByNumber(n)
	if !ok {
		tb.Fatalf("no pattern %d", n)
	}
	return p
}

// RPS writes an optional rate for comparing: "nil", or the number as the documents write it.
func RPS(v *float64) string {
	if v == nil {
		return "nil"
	}
	if *v == 0 {
		return "0"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// Ptr returns a pointer to v, for the optional fields of a design.
func Ptr[T any](v T) *T { return &v }
