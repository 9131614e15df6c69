package rules

import (
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// BenchmarkValidateFromItemEdit is a validation after one edit of sample items on a design of 4
// tables and 4,000 items, from the memo of the revision before: a cell edit (the anchor), an item
// added, one deleted, and one duplicated, which gives two items one key. Report each against the
// cell edit of the same run.
func BenchmarkValidateFromItemEdit(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 4000, GSIs: 8, Patterns: 40})
	c := dynamo.NewCache().For(d)
	_, memo := ValidateFrom(d, c, nil)
	// The revision before has its tables' key orders, as the Tables step sorts them for each
	// revision: the next revision's are patched from them.
	for _, t := range d.Tables {
		c.KeyOrder(t)
	}
	tb := d.Tables[1]
	added := designer.Item{tb.PartitionKey.Name: tb.Items[0].Item[tb.PartitionKey.Name], tb.SortKey.Name: designer.Str("ADDED#1")}
	for _, e := range []struct {
		name   string
		change designer.Change
	}{
		{"cell", designer.SetItemCell{Table: tb.Name, ID: tb.Items[15].ID, Attribute: "note", Text: "edited"}},
		{"add_item", designer.AddItem{Table: tb.Name, Item: added, After: tb.Items[500].ID}},
		{"delete_items", designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[500].ID}}},
		{"duplicate_item", designer.DuplicateItem{Table: tb.Name, ID: tb.Items[500].ID}},
	} {
		next, err := e.change.Apply(d)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.name, func(b *testing.B) {
			for b.Loop() {
				ValidateFrom(next, c.For(next), memo)
			}
		})
	}
}
