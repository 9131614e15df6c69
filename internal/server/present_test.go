package server

import (
	"net/http"
	"strings"
	"testing"
)

// Present mode shows the room what it must act on: the Validation step leaves advice (info
// findings) out, which the same page without present=1 lists. (The side panel, which lists
// findings too, is not shown in Present mode.)
func TestPresent_validationLeavesAdviceOut(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Generic", "tables": [{"name": "Things", "partition_key": {"name": "PK", "type": "S"}}]}`)
	read := func(path string) string {
		t.Helper()
		rec := a.request(http.MethodGet, path, "", nil)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		page := rec.Body.String()
		// The step's content; the side panel is not shown in Present mode.
		return page[strings.Index(page, `<main`):strings.Index(page, `</main>`)]
	}
	const advice = `data-code="MOD012"`
	if page := read("/d/" + created.ViewToken + "/validation"); !strings.Contains(page, advice) {
		t.Fatal("the validation step should list MOD012 (a generic key name) as advice")
	}
	if page := read("/d/" + created.ViewToken + "/validation?present=1"); strings.Contains(page, advice) || strings.Contains(page, "sev-info") {
		t.Fatal("in Present mode the validation step lists advice")
	}
}
