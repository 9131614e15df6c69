package designertest_test

import (
	"bytes"
	"fmt"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/rules"
)

func TestLarge_hasTheSizeAskedForIsTheSameEachTimeAndIsValid(t *testing.T) {
	t.Parallel()
	for _, s := range []designertest.Size{
		{Tables: 1, Items: 1000, GSIs: 5},
		{Tables: 3, Items: 10, GSIs: 7, Patterns: 11},
		{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500},
		{Patterns: 3},
	} {
		t.Run(fmt.Sprintf("%+v", s), func(t *testing.T) {
			t.Parallel()
			d := designertest.Large(s)
			if err := designer.Check(d); err != nil {
				t.Fatalf("Check: %v", err)
			}
			var items, gsis, mapped int
			for _, tb := range d.Tables {
				items += len(tb.Items)
				gsis += len(tb.GSIs)
			}
			for _, p := range d.Patterns {
				if len(p.Mapping.Operations) > 0 {
					mapped++
				}
			}
			if got := (designertest.Size{Tables: len(d.Tables), Items: items, GSIs: gsis, Patterns: len(d.Patterns)}); got != s {
				t.Fatalf("size %+v", got)
			}
			if s.Tables > 0 && mapped != s.Patterns {
				t.Fatalf("%d of %d patterns mapped", mapped, s.Patterns)
			}
			if !bytes.Equal(designertest.MustMarshal(t, d), designertest.MustMarshal(t, designertest.Large(s))) {
				t.Fatal("two designs of the same size differ")
			}
			nulls := 0
			for _, f := range rules.Validate(d) {
				if f.Severity == rules.SeverityError {
					t.Errorf("%s %s: %s", f.Code, f.Path, f.Message)
				}
				if f.Code == "MOD011" {
					nulls++
				}
			}
			if want := min(s.Tables, s.Items); nulls != want {
				t.Errorf("%d null notes, want one per table with items (%d)", nulls, want)
			}
		})
	}
}
