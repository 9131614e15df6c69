package designer_test

import (
	"encoding/json"
	"slices"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// NormalizeAfter looks again at every row a change did not share with the design before it: a
// row the change added without what Normalize gives (an id, an item, a status, a billing mode)
// gets it, exactly as Normalize of the whole design would give it.
func TestNormalizeAfter_whatAChangeAddedIsNormalized(t *testing.T) {
	before := designer.Normalize(designertest.Large(designertest.Size{Tables: 2, Items: 20, GSIs: 2, Patterns: 3}))
	withTable := func(i int, edit func(*designer.Table)) designer.Design {
		d := before
		d.Tables = slices.Clone(d.Tables)
		edit(&d.Tables[i])
		return d
	}
	for _, tc := range []struct {
		name  string
		after designer.Design
	}{
		{"an item without an id", withTable(1, func(t *designer.Table) {
			t.Items = append(slices.Clone(t.Items), designer.SampleItem{Item: designer.Item{"pk": designer.Str("new")}})
		})},
		{"an item without attributes", withTable(0, func(t *designer.Table) {
			t.Items = append(slices.Clone(t.Items), designer.SampleItem{ID: "i999"})
		})},
		{"a table without a billing mode", withTable(1, func(t *designer.Table) { t.BillingMode = "" })},
		{"a pattern without an id or a status", func() designer.Design {
			d := before
			d.Patterns = append(slices.Clone(d.Patterns), designer.Pattern{Number: 99, Description: "New"})
			return d
		}()},
		{"no comments", func() designer.Design {
			d := before
			d.Comments = nil
			return d
		}()},
	} {
		want := raw(t, designer.Normalize(tc.after))
		if string(want) == string(raw(t, tc.after)) {
			t.Fatalf("%s: the case needs no normalizing", tc.name)
		}
		if got := raw(t, designer.NormalizeAfter(before, tc.after)); string(got) != string(want) {
			t.Errorf("%s: NormalizeAfter gives\n%.400s\nwant\n%.400s", tc.name, got, want)
		}
	}
}

// raw is d in JSON as it is: MarshalJSON would normalize it first.
func raw(t *testing.T, d designer.Design) []byte {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
