package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
)

// The Capacity step of 120 patterns shows them 50 a page: following Next from the first page
// shows every pattern exactly once, and a settings change made on page 2 answers with the figures
// of page 2, so the table under the person's eyes stays where it was.
func TestCapacityStep_patternsArePagedAndASettingKeepsThePage(t *testing.T) {
	a := newTestAppWith(t, Options{BodyLimit: 64 << 20})
	c, d := a.createLarge(designertest.Size{Tables: 3, Items: 30, GSIs: 3, Patterns: 120})
	seen := map[string]int{}
	next := "/d/" + c.EditToken + "/capacity"
	pages := 0
	for next != "" {
		pages++
		doc := parseHTML(t, a.request(http.MethodGet, next, "", nil).Body.String())
		next = ""
		for _, n := range elements(doc, "tbody", "a") {
			switch {
			case attr(n, "data-testid") == "capacity-pattern":
				seen[attr(n, "id")]++
			case attr(n, "data-testid") == "page-next" && next == "":
				next = attr(n, "href")
			}
		}
		if pages > 10 {
			t.Fatal("the pages do not end")
		}
	}
	if pages != 3 || len(seen) != len(d.Patterns) {
		t.Fatalf("%d pages showed %d of %d patterns", pages, len(seen), len(d.Patterns))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("pattern %s shows on %d pages", id, n)
		}
	}

	page2 := "http://example.com/d/" + c.EditToken + "/capacity?" + url.Values{capacityPageParam: {"2"}}.Encode()
	rec := a.request(http.MethodPost, "/d/"+c.EditToken+"/capacity/setting", formType,
		strings.NewReader(form("field", "storage_price", "value", "0.3")), "HX-Request", "true", "HX-Current-URL", page2)
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `hx-swap-oob="morph"`) {
		t.Fatalf("save: %d %.300s", rec.Code, body)
	}
	if !strings.Contains(body, `id="cap-ap51"`) || strings.Contains(body, `id="cap-ap1"`) || !pageAt.MatchString(body) {
		t.Error("a setting changed on page 2 answered with figures of another page")
	}
}
