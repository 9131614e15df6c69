package derive

import (
	"fmt"
	"testing"

	"dynaloom/internal/designer"
)

// benchAfterEdit derives the report of a design after one item cell edit, from the Derived of the
// revision before, which has been asked for everything.
func benchAfterEdit(b *testing.B, scale int) {
	d := largeDesign(scale)
	x := New(d, nil)
	warm(x)
	x.Report()
	tb := d.Tables[len(d.Tables)/2]
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		next, err := designer.SetItemCell{Table: tb.Name, ID: tb.Items[500].ID, Attribute: "status", Text: fmt.Sprint("S", i)}.Apply(d)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		y := New(next, x)
		y.Report()
		y.Questions(3)
		b.StopTimer()
		d, x = next, y
		b.StartTimer()
	}
}

func BenchmarkReportAfterEdit(b *testing.B)       { benchAfterEdit(b, 1) }
func BenchmarkReportAfterEditDouble(b *testing.B) { benchAfterEdit(b, 2) }

func BenchmarkReportCold(b *testing.B) {
	d := largeDesign(1)
	for b.Loop() {
		New(d, nil).Report()
	}
}
