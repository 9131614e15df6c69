package server

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// scaffoldReasonsOf is the reasons an aggregate card's scaffold offer lists, as text.
func scaffoldReasonsOf(t *testing.T, page, aggregate string) []string {
	t.Helper()
	offer := regexp.MustCompile(`(?s)id="agg-` + aggregate + `-scaffold".*?data-testid="scaffold-reasons">(.*?)</ul>`).FindStringSubmatch(page)
	if offer == nil {
		t.Fatalf("the %s card lists no scaffold reasons", aggregate)
	}
	var out []string
	for _, m := range regexp.MustCompile(`<li>(.*?)</li>`).FindAllStringSubmatch(offer[1], -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// The facilitator's two cases: the preview names each choice with the method's reason, and the
// scaffold adds no second table for Pet, which has one.
func TestScaffold_thePreviewSaysWhyAndKeepsAnEntitysTable(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Vets", "entities": [
		{"name": "Clinic", "attributes": [{"name": "clinic_id", "type": "S"}, {"name": "name", "type": "S"}]},
		{"name": "Vet", "attributes": [{"name": "vet_id", "type": "S"}, {"name": "clinic_id", "type": "S"}]},
		{"name": "Pet", "attributes": [{"name": "pet_id", "type": "S"}, {"name": "species", "type": "S"}]},
		{"name": "Appointment", "attributes": [{"name": "pet_id", "type": "S"}, {"name": "at", "type": "S"}]}],
		"tables": [{"name": "Pets", "partition_key": {"name": "pet_id", "type": "S"}, "entity_types": [{"entity": "Pet", "pk_template": "{pet_id}"}]}],
		"aggregates": [{"entity_a": "Clinic", "entity_b": "Vet", "decision": "item_collection"},
			{"entity_a": "Pet", "entity_b": "Appointment", "decision": "separate_tables", "identifying": {"child_independent": false, "parent_id_known": true}}]}`)
	edit := "/d/" + created.EditToken
	page := a.request(http.MethodGet, edit+"/aggregates", "", nil).Body.String()
	for id, want := range map[string][]string{
		"ag1": {"Table Clinics: named for the aggregate, Clinic + Vet, in the plural", "PK clinic_id: Clinic's natural key",
			"SK PROFILE for the Clinic item: the parent's own item in its collection"},
		"ag2": {"Pet already lives in table Pets: kept, no second table",
			"Appointments keyed on pet_id + appointment_id: an appointment cannot exist without its pet (identifying) and its pet's id is always known"},
	} {
		got := strings.Join(scaffoldReasonsOf(t, page, id), "\n")
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the reasons do not say %q:\n%s", id, w, got)
			}
		}
	}
	if !strings.Contains(page, "Table Clinics (new), key clinic_id (S) + sk (S)") || strings.Contains(page, "Table Pets (new)") {
		t.Errorf("the offers' tables:\n%s", page)
	}

	if rec := a.hx(edit+"/aggregates/scaffold", "id", "ag2"); rec.Code != http.StatusOK {
		t.Fatalf("scaffold: %d %s", rec.Code, rec.Body)
	}
	d, _ := a.design(created.EditToken)
	if len(d.Tables) != 2 || d.Tables[1].Name != "Appointments" || d.Tables[1].PartitionKey.Name != "pet_id" ||
		d.Tables[1].SortKey == nil || d.Tables[1].SortKey.Name != "appointment_id" {
		t.Fatalf("tables after the scaffold: %+v", d.Tables)
	}
	page = a.request(http.MethodGet, edit+"/aggregates", "", nil).Body.String()
	if got := scaffoldReasonsOf(t, page, "ag2"); !strings.Contains(page, "The tables this decision calls for are in place.") ||
		!strings.Contains(strings.Join(got, "\n"), "Appointment already lives in table Appointments: kept") {
		t.Errorf("in place, the card says %v", got)
	}
}
