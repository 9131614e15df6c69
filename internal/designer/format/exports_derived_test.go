package format

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/designer/designertest"
)

// assertWriteFromSameAsAfresh checks that every format written from x, the Derived of d, is byte
// for byte what it is written from d alone, with and without diagrams.
func assertWriteFromSameAsAfresh(t *testing.T, name string, d designer.Design, x *derive.Derived) {
	t.Helper()
	created := time.Date(2026, 3, 5, 9, 7, 0, 0, time.UTC)
	modified := time.Date(2026, 11, 21, 16, 45, 0, 0, time.UTC)
	for _, f := range ExportFormats() {
		options := []Options{{}}
		if f.Markdown {
			options = append(options, Options{Diagrams: "mermaid"})
		}
		for _, o := range options {
			want, errWant := f.WriteWith(d, created, modified, o)
			got, errGot := f.WriteFrom(x, created, modified, o)
			if fmt.Sprint(errWant) != fmt.Sprint(errGot) {
				t.Fatalf("%s, %s, diagrams %q: error %v from the Derived, %v afresh", name, f.ID, o.Diagrams, errGot, errWant)
			}
			if !bytes.Equal(want, got) {
				t.Fatalf("%s, %s, diagrams %q: written from the Derived differs from afresh:\n%s", name, f.ID, o.Diagrams, designertest.FirstDifference(want, got))
			}
		}
	}
}

// Every export written from a revision's derived results is the export of the revision afresh:
// for the examples, random designs, and a revision derived from the one before an edit, whose
// Derived took over what the edit left alone.
func TestWriteFrom_sameAsAfresh(t *testing.T) {
	t.Parallel()
	for name, d := range designertest.Examples(t) {
		d = designer.Normalize(d)
		assertWriteFromSameAsAfresh(t, name, d, derive.New(d, nil))
	}
	g := designertest.NewRandom(26, 7)
	for i := range 40 {
		d := designer.Normalize(g.FullDesign(i))
		assertWriteFromSameAsAfresh(t, fmt.Sprint("random design ", i), d, derive.New(d, nil))
	}

	// Two tables of one name, which Check lets through (a finding says so), each with items of
	// its own.
	twins := designertest.Large(designertest.Size{Tables: 2, Items: 40, GSIs: 2, Patterns: 4})
	twins.Tables[1].Name = twins.Tables[0].Name
	twins.Tables[1].Items = twins.Tables[1].Items[5:]
	assertWriteFromSameAsAfresh(t, "two tables of one name", twins, derive.New(twins, nil))

	d := designertest.Large(designertest.Size{Tables: 3, Items: 300, GSIs: 6, Patterns: 30})
	x := derive.New(d, nil)
	x.Report()
	x.Capacity()
	assertWriteFromSameAsAfresh(t, "large", d, x)
	tb := d.Tables[1]
	for i, c := range []designer.Change{
		designer.SetItemCell{Table: tb.Name, ID: tb.Items[7].ID, Attribute: "status", Text: "SHIPPED"},
		designer.SetItemCell{Table: tb.Name, ID: tb.Items[8].ID, Attribute: "tenant_id", Text: "tenant-001"},
		designer.SetItemCell{Table: tb.Name, ID: tb.Items[9].ID, Attribute: "note", Text: "null"},
	} {
		next, err := c.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
		d, x = next, derive.New(next, x)
		assertWriteFromSameAsAfresh(t, fmt.Sprint("large after edit ", i+1), d, x)
	}
}

// Written from a revision's derived results, each markdown document costs allocations in
// proportion to the design's items: at most 2.2 times as many for twice the items (issue 26).
// Allocations are counted, not timed, so the check holds on a busy machine; the benchmark
// BenchmarkExport times the same doublings.
func TestWriteFrom_allocationsGrowLinearlyWithTheItems(t *testing.T) {
	if testing.Short() {
		t.Skip("the designs of 5,000 items take seconds to derive; the full tier counts them")
	}
	for _, id := range []string{"requirements-md", "data-model-md"} {
		f, err := FindExportFormat(id)
		if err != nil {
			t.Fatal(err)
		}
		var last float64
		for _, n := range []int{1250, 2500, 5000} {
			d := designertest.Large(designertest.Size{Tables: 4, Items: n, GSIs: 8, Patterns: 80})
			x := derive.New(d, nil)
			if _, err := f.WriteFrom(x, time.Time{}, time.Time{}, Options{}); err != nil {
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(2, func() { f.WriteFrom(x, time.Time{}, time.Time{}, Options{}) })
			if last > 0 && allocs > 2.2*last {
				t.Errorf("%s at %d items: %.0f allocations, %.2f times the %.0f at half the items", id, n, allocs, allocs/last, last)
			}
			last = allocs
		}
	}
}
