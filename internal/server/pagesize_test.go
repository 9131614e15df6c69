package server

import (
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
)

// Every step of a design of 10,000 sample items, and of one of 50 tables, is a page of at most a
// megabyte: long lists are paged, long documents previewed in parts, a huge model map drawn when
// asked. The quick tier (-short) renders a fifth of the items. A huge model map drawn on request
// is not listed: its SVG alone is 618 KB at 50 tables.
func TestEveryStep_isAPageUnderAMegabyteAt10000Items(t *testing.T) {
	sizes := []designertest.Size{
		{Tables: 1, Items: 10000, GSIs: 5, Patterns: 50},
		{Tables: 10, Items: 10000, GSIs: 20, Patterns: 200},
		{Tables: 50, Items: 10000, GSIs: 100, Patterns: 500},
	}
	if testing.Short() {
		t.Log("-short: 2,000 items a design, not 10,000")
		for i := range sizes {
			sizes[i].Items = 2000
		}
	}
	steps := []string{"", "/entities", "/patterns", "/patterns?page=9999", "/aggregates", "/tables", "/mapping", "/capacity", "/validation",
		"/export", "/history", "/agenda", "/history/1/tables", "/history/1/capacity"}
	for _, size := range sizes {
		a := newTestAppWith(t, Options{CreateLimit: NoLimit, WriteLimit: NoLimit, CostlyLimit: NoLimit, BodyLimit: 256 << 20})
		c, d := a.createLarge(size)
		last := d.Tables[len(d.Tables)-1].Name
		for _, step := range append(steps, "/tables?table="+last+"&page=9999", "/capacity?"+capacityPageParam+"=9999",
			"/export?"+partParam("data-model-md")+"=9999") {
			rec := a.request(http.MethodGet, "/d/"+c.EditToken+step, "", nil)
			t.Logf("%d tables, %d items, %d patterns: %-40s %8d bytes", size.Tables, size.Items, size.Patterns, step, rec.Body.Len())
			if rec.Code != http.StatusOK || rec.Body.Len() > maxPageBytes {
				t.Errorf("%d tables, %d items: %s answers %d with %d bytes; at most %d", size.Tables, size.Items, step, rec.Code, rec.Body.Len(), maxPageBytes)
			}
			if strings.HasPrefix(step, "/export") && strings.Contains(rec.Body.String(), `id="source-data-model-md"`) && size.Items >= 2000 {
				t.Errorf("%s carries the whole data model for its Copy button", step)
			}
		}
	}
}
