package server

import (
	"fmt"
	"net/http"
	"testing"

	"dynaloom/internal/designer"
)

// historyBench is a workshop's history: 5,000 revisions by 15 people over the HR example's
// patterns, tables and entities, made through the real edit path.
func historyBench(b *testing.B) (*testApp, createdDesign) {
	b.Helper()
	a := newTestApp(b)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		b.Fatal(err)
	}
	base := "/d/" + created.EditToken
	for i := range 4999 {
		who := fmt.Sprintf("Person %02d", i%15)
		var rec interface{ Result() *http.Response }
		switch i % 3 {
		case 0:
			p := d.Patterns[i%len(d.Patterns)]
			rec = a.as(who, base+"/patterns/field", "id", p.ID, "field", "description", "value", fmt.Sprintf("Draft %d", i))
		case 1:
			e := d.Entities[i%len(d.Entities)]
			rec = a.as(who, base+"/entities/field", "entity", e.Name, "field", "description", "value", fmt.Sprintf("Draft %d", i))
		default:
			rec = a.as(who, base+"/overview/domain", "value", fmt.Sprintf("Draft %d", i))
		}
		if code := rec.Result().StatusCode; code != http.StatusOK {
			b.Fatalf("edit %d: %d", i, code)
		}
	}
	return a, created
}

// BenchmarkHistoryPage_5000revisions draws the history step of 5,000 revisions in working
// periods and groups; its anchor is BenchmarkHistoryRevisions_5000, the read of the same
// revisions the page starts from.
func BenchmarkHistoryPage_5000revisions(b *testing.B) {
	a, created := historyBench(b)
	path := "/d/" + created.EditToken + "/history?gap=5"
	b.ResetTimer()
	size := 0
	for b.Loop() {
		rec := a.request(http.MethodGet, path, "", nil)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
		size = rec.Body.Len()
	}
	b.ReportMetric(float64(size), "page_bytes")
}

func BenchmarkHistoryRevisions_5000(b *testing.B) {
	a, created := historyBench(b)
	revs, err := a.store.Revisions(b.Context(), created.ID)
	if err != nil || len(revs) != 5000 {
		b.Fatalf("%d revisions, %v", len(revs), err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.store.Revisions(b.Context(), created.ID); err != nil {
			b.Fatal(err)
		}
	}
}
