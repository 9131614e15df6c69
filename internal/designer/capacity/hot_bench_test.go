package capacity

import (
	"fmt"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// BenchmarkHotKeys_afterEdit is the hot keys of issue 17's large design (10,000 items, 500
// patterns, 100 GSIs over 50 tables) after one item cell edit: every key's cardinality and every
// operation's share, worked out again from the report of the revision. Its anchor, in the same
// run, is BenchmarkHotKeys_anchorCompute: the report itself worked out from nothing.
func BenchmarkHotKeys_afterEdit(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500})
	c := dynamo.NewCache().For(d)
	r := Compute(d, c)
	HotKeys(d, r)
	tb := d.Tables[len(d.Tables)/2]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		next, err := designer.SetItemCell{Table: tb.Name, ID: tb.Items[len(tb.Items)/2].ID, Attribute: "note", Text: fmt.Sprint("edit ", i)}.Apply(d)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		HotKeys(next, r)
		d = next
	}
}

func BenchmarkHotKeys_anchorCompute(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500})
	b.ReportAllocs()
	for b.Loop() {
		Compute(d, nil)
	}
}
