package server

import (
	"net/http"
	"strings"
	"testing"
)

// The overview's offer follows the design live: a page on the overview gets the offer, as a part,
// when the key entities list changes or when someone adds one of the entities it names.
func TestRefresh_theOverviewOfferFollowsTheListAndTheEntities(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Shop"}`)
	edit := "/d/" + created.EditToken
	_, rev := a.design(created.EditToken)
	rec := a.hx(edit+"/overview/key_entities", "value", "Customer (1:M) Orders, Product")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="key-entities-offer"`) || !strings.Contains(rec.Body.String(), `value="Order"`) {
		t.Fatalf("saving the list answers without the offer: %d %s", rec.Code, rec.Body)
	}
	got := a.refreshStep(edit, rev)
	if got.Header().Get(fragmentsHeader) != "2" || !strings.Contains(got.Body.String(), `value="Product"`) {
		t.Fatalf("want the field and the offer: %v %s", got.Header(), got.Body)
	}
	_, rev = a.design(created.EditToken)
	if rec := a.hx(edit+"/entities/add", "name", "Product"); rec.Code != http.StatusOK {
		t.Fatalf("add entity: %d", rec.Code)
	}
	got = a.refreshStep(edit, rev)
	body := got.Body.String()
	if got.Header().Get(fragmentsHeader) != "1" || strings.Contains(body, `value="Product"`) || !strings.Contains(body, `value="Customer"`) {
		t.Fatalf("want the offer without Product: %v %s", got.Header(), body)
	}
}

// Rows added reach another page as the step drawn whole: the page has no element for a new
// entity's card.
func TestRefresh_rowsAddedDrawTheStepWhole(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Shop"}`)
	edit := "/d/" + created.EditToken
	for _, body := range []string{`{"kind": "add_entity", "change": {"name": "Invoice"}}`,
		`{"kind": "add_in_bulk", "change": {"entities": [{"name": "Customer"}]}}`} {
		_, rev := a.design(created.EditToken)
		if rec := a.request(http.MethodPost, "/api/designs/"+created.EditToken+"/changes", "application/json", strings.NewReader(body)); rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", body, rec.Code, rec.Body)
		}
		if rec := a.refreshStep(edit+"/entities", rev); rec.Header().Get(fragmentsHeader) != "" || !strings.Contains(rec.Body.String(), `id="entity-list"`) {
			t.Errorf("after %s the entities step answers %v, want it whole", body, rec.Header())
		}
	}
}

// Refusals change nothing and say what to do: nothing ticked, a paste box on no step, a paste that
// reads nothing, a scaffold with no decision.
func TestBulk_refusalsChangeNothing(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Shop", "overview": {"key_entities": "Customer, Order"},
		"entities": [{"name": "A", "attributes": []}, {"name": "B", "attributes": []}], "aggregates": [{"entity_a": "A", "entity_b": "B"}]}`)
	edit := "/d/" + created.EditToken
	_, before := a.design(created.EditToken)
	for _, tc := range []struct {
		path   string
		values []string
		status int
		says   string
	}{
		{"/entities/from-overview", nil, http.StatusBadRequest, "tick at least one"},
		{"/bulk/preview", []string{"step", "tables", "text", "x"}, http.StatusBadRequest, "has no paste box"},
		{"/bulk/add", []string{"step", "entities", "text", "Colour\tSize\nred\tL"}, http.StatusUnprocessableEntity, "not a header row"},
		{"/bulk/add", []string{"step", "patterns", "text", "  "}, http.StatusUnprocessableEntity, "Paste some rows first"},
		{"/aggregates/scaffold", []string{"id", "ag1"}, http.StatusBadRequest, "choose a decision"},
	} {
		rec := a.hx(edit+tc.path, tc.values...)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.says) {
			t.Errorf("%s %v: %d %s; want %d saying %q", tc.path, tc.values, rec.Code, rec.Body, tc.status, tc.says)
		}
	}
	if _, rev := a.design(created.EditToken); rev != before {
		t.Errorf("refusals changed the design: revision %d, was %d", rev, before)
	}
	// Ticked, the names are added, as one revision whose history line names them.
	rec := a.request(http.MethodPost, edit+"/entities/from-overview", formType, strings.NewReader("name=Customer&name=Order"), "HX-Request", "true")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "data-testid=\"key-entities-done\"") {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	revs := a.request(http.MethodGet, "/api/designs/"+created.EditToken+"/revisions", "", nil)
	if !strings.Contains(revs.Body.String(), `Added in bulk: 2 entities (Customer, Order)`) {
		t.Errorf("history: %s", revs.Body)
	}
}

// The overview's key entities, then the relationship rows pasted with their counts: the preview
// says each row merges, and adding leaves one relationship per pair, with its counts.
func TestBulk_relationshipsPastedAfterTheOverviewMerge(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Vets"}`)
	edit := "/d/" + created.EditToken
	if rec := a.hx(edit+"/bulk/add", "step", "entities", "text", "Entity | Attribute\nClinic | clinic_id\nVet | vet_id\n\nFrom | Kind | To\nClinic | 1:M | Vet"); rec.Code != http.StatusOK {
		t.Fatalf("first paste: %d %s", rec.Code, rec.Body)
	}
	rows := "From | Kind | To | Average | Maximum\nClinic | 1:M | Vet | 4 per year | 12"
	rec := a.hx(edit+"/bulk/preview", "step", "entities", "text", rows)
	if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, `data-testid="bulk-merge"`) ||
		!strings.Contains(body, "relationship Clinic 1:M Vet") || !strings.Contains(body, "fills in average count 4 per year, maximum count 12") {
		t.Fatalf("preview: %d %s", rec.Code, body)
	}
	if rec := a.hx(edit+"/bulk/add", "step", "entities", "text", rows); rec.Code != http.StatusOK {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	d, _ := a.design(created.EditToken)
	if r := d.Relationships; len(r) != 1 || r[0].Avg == nil || *r[0].Avg != 4 || r[0].AvgUnit != "per year" || r[0].Max == nil || *r[0].Max != 12 {
		t.Fatalf("relationships = %+v: want one, with its counts", r)
	}
}

// A paste that differs from the design on two lines offers a choice on each; the team takes one
// line's values and keeps the design's on the other.
func TestBulk_theTeamChoosesLineByLine(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Vets", "entities": [{"name": "Vet", "attributes": []}],
		"access_patterns": [{"number": 1, "description": "Get a vet", "type": "read", "peak_rps": 10},
			{"number": 2, "description": "List vets", "type": "read", "peak_rps": 20}]}`)
	edit := "/d/" + created.EditToken
	rows := "Description | Peak RPS\nGet a vet | 15\nList vets | 25"
	rec := a.hx(edit+"/bulk/preview", "step", "patterns", "text", rows)
	body := rec.Body.String()
	if rec.Code != http.StatusOK || strings.Count(body, `data-testid="bulk-take"`) != 2 || !strings.Contains(body, `name="take" value="3"`) {
		t.Fatalf("want a choice on each of the two lines: %d %s", rec.Code, body)
	}
	if rec := a.hx(edit+"/bulk/add", "step", "patterns", "text", rows, "take", "3"); rec.Code != http.StatusOK {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	d, _ := a.design(created.EditToken)
	if p := d.Patterns; len(p) != 2 || *p[0].PeakRPS != 10 || *p[1].PeakRPS != 25 {
		t.Errorf("peaks %v, %v: want 10 kept and 25 taken", *p[0].PeakRPS, *p[1].PeakRPS)
	}
}
