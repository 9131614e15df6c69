package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkTablesEditRender is what a person on the Tables step pays for one sample-item edit:
// the cell edit answered the whole way (the change, the durable write, the new revision's derived
// parts, the answer with its side panel), then the step rendered whole for that revision, as a
// reload or another tab asks for it. Run at 1×, 2×, 4× and 8× the items (1,250 to 10,000) and on
// a design of one page of items, the anchor: its cost follows the edit when the sizes cost near
// the same. "cell" edits an attribute the GSIs are keyed on, "key" the item's sort key, so the
// item moves in the table's key order.
func BenchmarkTablesEditRender(b *testing.B) {
	for _, kind := range []string{"cell", "key"} {
		for _, n := range []int{itemsPerPage, 1250, 2500, 5000, 10000} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) { benchTablesEditRender(b, n, kind) })
		}
	}
}

func benchTablesEditRender(b *testing.B, n int, kind string) {
	a := newTestApp(b)
	c := a.createJSON(bigTableDesign(n))
	base := "/d/" + c.EditToken
	step := base + "/tables?table=Orders"
	if rec := a.request(http.MethodGet, step, "", nil); rec.Code != http.StatusOK {
		b.Fatalf("tables step: %d", rec.Code)
	}
	id := fmt.Sprintf("i%d", n/2+1)
	rev := "1"
	var cpu cpuMeter
	cpu.begin()
	for i := 0; b.Loop(); i++ {
		attr, value := "status", fmt.Sprint("S", i%9)
		if kind == "key" {
			// To the start of its partition and back to its end.
			attr, value = "sk", "0.5"
			if i%2 == 1 {
				attr, value = "sk", fmt.Sprint(n+1)
			}
		}
		body := form("table", "Orders", "id", id, "attribute", attr, "value", value, "base_revision", rev)
		rec := a.request(http.MethodPost, base+"/items/cell", formType, strings.NewReader(body),
			"HX-Request", "true", "X-Dynaloom-Tab", "benchtab0123456789", "HX-Current-URL", "http://example.test"+step)
		if rec.Code != http.StatusOK {
			b.Fatalf("edit: %d %.200s", rec.Code, rec.Body)
		}
		rev = rec.Header().Get("X-Dynaloom-Revision")
		if page := a.request(http.MethodGet, step, "", nil); page.Code != http.StatusOK {
			b.Fatalf("tables step: %d", page.Code)
		}
	}
	cpu.end()
	cpu.report(b)
}
