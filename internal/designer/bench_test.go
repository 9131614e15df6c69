package designer_test

import (
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// BenchmarkSetItemCell1000 edits one cell of a table with 1,000 items and 5 GSIs.
func BenchmarkSetItemCell1000(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 1, Items: 1000, GSIs: 5})
	c := designer.SetItemCell{Table: "Table00", ID: "i500", Attribute: "total", Text: "19.99"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetPatternField200 measures one cell edit of a large design, as the workshop makes
// them: 200 mapped patterns over 20 tables.
func BenchmarkSetPatternField200(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 20, Patterns: 200})
	c := designer.SetPatternField{ID: d.Patterns[149].ID, Field: "peak_rps", Value: "1,500 RPS"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
}
