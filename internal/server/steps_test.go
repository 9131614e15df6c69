package server

import (
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer"
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
		"access_patterns/3/mapping/notes": "mapping", "access_patterns/3/mapping": "mapping", "access_patterns": "patterns",
	} {
		if got := stepOfPath(path); got != want {
			t.Errorf("stepOfPath(%q) = %q, want %q", path, got, want)
		}
	}
}

// Which changes may redraw a step's diagram, read from the path's parts: a table whose name holds
// a slash is one table, and the notes of a table or an index draw nothing on the model map.
func TestDiagramShows_readsThePathsParts(t *testing.T) {
	t.Parallel()
	d := designer.Design{Tables: []designer.Table{{Name: "app"}, {Name: "app/orders", GSIs: []designer.Index{{Name: "by/status"}}}}}
	for _, tc := range []struct {
		path            designer.Path
		entities, model bool
	}{
		{"tables/app/orders", true, true},
		{"tables/app/orders/purpose", false, false},
		{"tables/app/orders/indexes/by/status/purpose", false, false},
		{"tables/app/orders/indexes/by/status/sparse", false, true},
		{"tables/app/orders/items/i1/sk", false, true},
		{"tables/app/orders/comments", false, true},
		{"tables", false, true},
		{"entities/Order/description", true, false},
		{"diagrams/entities/entity:Order", true, false},
		{"diagrams/model_map/table:app", false, true},
		{"access_patterns/ap1/peak_rps", false, true},
		{"overview/scale", false, false},
	} {
		pp := tc.path.Parts(d)
		if got := entityDiagramShows(pp); got != tc.entities {
			t.Errorf("entityDiagramShows(%q) = %v, want %v", tc.path, got, tc.entities)
		}
		if got := modelMapShows(pp); got != tc.model {
			t.Errorf("modelMapShows(%q) = %v, want %v", tc.path, got, tc.model)
		}
	}
}
