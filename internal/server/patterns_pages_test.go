package server

import (
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/storage"
)

// A design of 120 patterns shows them 50 to a page: every pattern on exactly one page, a pattern
// just added on the page that holds it (whose address the browser takes), links to a pattern
// landing on its page, and a live edit sent only to the pages that show that pattern.
func TestPatternsStep_pagesThePatternsAndKeepsEachEditOnItsPage(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c, _ := a.createLarge(designertest.Size{Tables: 2, Items: 20, Patterns: 120})
	d, rev := a.design(c.EditToken)
	base := "/d/" + c.EditToken + "/patterns"

	seen := map[string]int{}
	for page, want := range map[string]int{"1": 50, "2": 50, "3": 20, "99": 20} {
		body := a.request(http.MethodGet, base+"?page="+page, "", nil).Body.String()
		if got := strings.Count(body, `data-testid="pattern-row"`); got != want {
			t.Errorf("page %s shows %d patterns, want %d", page, got, want)
		}
		if page == "99" {
			if !strings.Contains(body, "Page <strong>3</strong> of 3") {
				t.Errorf("a page past the end does not show the last page")
			}
			continue
		}
		for _, p := range d.Patterns {
			if strings.Contains(body, `id="row-`+p.ID+`"`) {
				seen[p.ID]++
			}
		}
	}
	for _, p := range d.Patterns {
		if seen[p.ID] != 1 {
			t.Errorf("pattern %d is on %d pages, want 1", p.Number, seen[p.ID])
		}
	}

	// Edited on page 3, a pattern's cell reaches page 3's refresh and not page 1's.
	last := d.Patterns[len(d.Patterns)-1]
	if rec := a.hx(base+"/field", "id", last.ID, "field", "description", "value", "Orders of a tenant by date"); rec.Code != http.StatusOK {
		t.Fatalf("edit: %d %s", rec.Code, rec.Body)
	}
	on3 := a.refreshStep(base+"?page=3", rev)
	if on3.Header().Get(fragmentsHeader) != "1" || !strings.Contains(on3.Body.String(), "Orders of a tenant by date") {
		t.Errorf("page 3's refresh: %v %s, want the edited cell", on3.Header(), on3.Body)
	}
	on1 := a.refreshStep(base+"?page=1", rev)
	if on1.Header().Get(fragmentsHeader) != "0" || strings.Contains(on1.Body.String(), "Orders of a tenant by date") {
		t.Errorf("page 1's refresh: %v, want the side panel only", on1.Header())
	}

	// A finding's or a comment's link to that pattern opens page 3.
	if href := patternHref(&designContext{Token: c.EditToken, Record: storage.Record{Design: d}}, last.ID); !strings.HasSuffix(href, "/patterns?page=3") {
		t.Errorf("the link to pattern %d is %s, want its page 3", last.Number, href)
	}

	// Added from page 1 after the last pattern, a pattern answers with page 3, focused there.
	rec := a.request(http.MethodPost, base+"/add", formType, strings.NewReader(form("after", last.ID)),
		"HX-Request", "true", "HX-Current-URL", "http://example.test"+base+"?page=1")
	if rec.Code != http.StatusOK {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("HX-Replace-Url"); !strings.HasSuffix(got, "/patterns?page=3") {
		t.Errorf("after adding, the browser is told the address %q, want page 3", got)
	}
	if body := rec.Body.String(); !strings.Contains(body, "Page <strong>3</strong> of 3") || !strings.Contains(body, "autofocus") {
		t.Errorf("the answer to an add is not page 3 with the new pattern focused")
	}
}
