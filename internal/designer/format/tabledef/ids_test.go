package tabledef_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

func TestLogicalIDs_alphanumericUniqueAndStable(t *testing.T) {
	t.Parallel()
	tables := []designer.Table{{Name: "a.b"}, {Name: "A-B"}, {Name: "ab"}, {Name: "AB"}, {Name: "ABTable"}, {Name: "___"}, {Name: "2024_orders"},
		{Name: strings.Repeat("x", 255)}, {Name: strings.Repeat("x", 254) + "y"}}
	ids := tabledef.LogicalIDs(tables)
	want := []string{"ABTable", "ABTable2", "AbTable", "ABTable3", "ABTableTable", "Table", "2024OrdersTable"}
	if !slices.Equal(ids[:len(want)], want) {
		t.Fatalf("logical ids = %v, want %v", ids[:len(want)], want)
	}
	alnum := regexp.MustCompile(`^[A-Za-z0-9]{1,255}$`)
	seen := map[string]bool{}
	for i, id := range ids {
		if !alnum.MatchString(id) {
			t.Fatalf("id %d %q is not 1–255 letters and digits", i, id)
		}
		if seen[id] {
			t.Fatalf("id %q given twice: %v", id, ids)
		}
		seen[id] = true
	}
	if again := tabledef.LogicalIDs(tables); !slices.Equal(again, ids) {
		t.Fatalf("second derivation differs: %v vs %v", again, ids)
	}
}
