package reqmd_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/reqmd"
	"dynaloom/internal/designer/rules"
)

// The requirement's own pattern table, pasted into a design that has its entities, reads as the
// import reads it: Key Requirements split, entities linked, and no REQ004 or REQ005 the import
// does not give.
func TestPastedPattern_readsThePatternTableAsTheImportDoes(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../testdata/pairs/vetclinic-dynamodb_requirement.md")
	if err != nil {
		t.Fatal(err)
	}
	imported, _, err := reqmd.Import(doc)
	if err != nil {
		t.Fatal(err)
	}
	var table []string
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| Pattern #") || len(table) > 0 && strings.HasPrefix(line, "|") {
			table = append(table, line)
		} else if len(table) > 0 {
			break
		}
	}
	base := imported
	base.Patterns = nil
	paste := designer.ParseBulkWith(strings.Join(table, "\n"), base, reqmd.PastedPattern)
	if len(paste.Problems) > 0 {
		t.Fatalf("problems: %+v", paste.Problems)
	}
	pasted, err := paste.Change.Apply(base)
	if err != nil {
		t.Fatal(err)
	}
	if len(pasted.Patterns) != len(imported.Patterns) {
		t.Fatalf("%d patterns pasted, %d imported", len(pasted.Patterns), len(imported.Patterns))
	}
	for i, p := range imported.Patterns {
		for _, f := range designer.PatternFields {
			if f.Key == designer.PatternField.Considerations.Key {
				continue // the import keeps unread cells there with its notes
			}
			if got, want := f.Get(pasted.Patterns[i]), f.Get(p); got != want {
				t.Errorf("pattern %d %s: pasted %q, imported %q", p.Number, f.Key, got, want)
			}
		}
	}
	count := func(d designer.Design, code string) int {
		return len(slices.DeleteFunc(rules.Validate(d), func(f rules.Finding) bool { return f.Code != code }))
	}
	for _, code := range []string{"REQ004", "REQ005"} {
		if got, want := count(pasted, code), count(imported, code); got != want {
			t.Errorf("%s: %d after the paste, %d after the import", code, got, want)
		}
	}
}
