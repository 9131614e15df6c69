package server

import (
	"net/http"
	"strings"
	"testing"
)

// A pattern edited on another tab costs a page on the Tables step of a table of 2,000 items the
// parts a pattern shows there, not the step: the side panel, and the model map when the edit
// redrew it (a peak rate thickens its line), never the item grid, and a small share of the
// step's bytes.
func TestRefresh_aPatternEditSendsTheTablesStepItsPartsOnly(t *testing.T) {
	a := newTestApp(t)
	c := a.createJSON(bigMappingDesign(10))
	edit := "/d/" + c.EditToken
	d, rev := a.design(c.EditToken)
	step := edit + "/tables?table=" + d.Tables[0].Name
	whole := a.request(http.MethodGet, step, "", nil, "HX-Request", "true")
	if whole.Code != http.StatusOK || !strings.Contains(whole.Body.String(), `data-testid="item-grid"`) {
		t.Fatalf("tables step: %d", whole.Code)
	}
	for i, e := range []struct{ field, value string }{
		{"description", "Orders of a <b>customer</b>"},
		{"peak_rps", "4000"},
	} {
		if rec := a.hx(edit+"/patterns/field", "id", d.Patterns[i].ID, "field", e.field, "value", e.value); rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", e.field, rec.Code, rec.Body)
		}
		rec := a.refreshStep(step, rev)
		body := rec.Body.String()
		if rec.Header().Get(fragmentsHeader) == "" || rec.Header().Get("HX-Reswap") != "none" || strings.Contains(body, `id="workspace"`) {
			t.Fatalf("%s: want parts, got the step (%v)", e.field, rec.Header())
		}
		if strings.Contains(body, `data-testid="item-grid"`) || strings.Contains(body, "<b>customer") || !strings.Contains(body, `id="aside"`) {
			t.Fatalf("%s: want the side panel, escaped, without the item grid: %.300s", e.field, body)
		}
		if len(body)*4 > whole.Body.Len() {
			t.Fatalf("%s: the parts are %d bytes of the step's %d; want at most a quarter", e.field, len(body), whole.Body.Len())
		}
		t.Logf("%s: %s parts, %d bytes; the step is %d", e.field, rec.Header().Get(fragmentsHeader), len(body), whole.Body.Len())
		rev++
	}
}
