package server

import (
	"net/http"
	"strings"
	"testing"
)

// A design replaced whole (its change names the empty path) redraws every step whole in the
// other tabs: no step's list of what it shows leaves it out.
func TestRefresh_replacedDesignRedrawsEveryStepWhole(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	_, rev := a.design(created.EditToken)
	if rec := a.postChange(created.EditToken, `{"kind": "replace_design", "change": {"design": {"name": "HR employees, started over"}, "note": "Started over"}}`); rec.Code != http.StatusOK {
		t.Fatalf("replace: %d %s", rec.Code, rec.Body)
	}
	for _, st := range steps {
		rec := a.refreshStep("/d/"+created.ViewToken+st.path, rev)
		if rec.Header().Get(fragmentsHeader) != "" || !strings.Contains(rec.Body.String(), `id="workspace"`) {
			t.Errorf("%s: after the design was replaced the refresh answers parts (%q), want the whole step", st.label, rec.Header().Get(fragmentsHeader))
		}
	}
}

// The agenda files a question or finding under the step where its field is edited.
func TestStepOfPath_isWhereTheFieldIsEdited(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"name": "overview", "overview/scale": "overview", "entities/Employee/count": "entities",
		"relationships/r1/avg_count": "entities", "access_patterns/ap1/peak_rps": "patterns",
		"access_patterns/ap1/mapping/operations/0/key_condition": "mapping", "aggregates/ag1/decision": "aggregates",
		"consolidations/c1/x": "aggregates", "considerations/hot_keys": "aggregates", "tables/Employee/items/e1/name": "tables",
		"capacity/region": "capacity", "prose/summary": "validation", "": "validation",
	} {
		if got := stepOfPath(path); got != want {
			t.Errorf("stepOfPath(%q) = %q, want %q", path, got, want)
		}
	}
}
