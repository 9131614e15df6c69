package server

import (
	"net/http"
	"strings"
	"testing"
)

// A facilitator with relationships, patterns and a consolidation review analyses every related
// pair in one action, each card filled in from the design, and pastes the template's section for
// the rest; a paste with no section is refused on the box and changes nothing.
func TestAggregates_relatedPairsAndAPastedSectionFillTheCards(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Clinics", "entities": [
		{"name": "Clinic", "attributes": []}, {"name": "Vet", "attributes": []}, {"name": "Owner", "attributes": []}, {"name": "Pet", "attributes": []}],
		"relationships": [{"from": "Clinic", "to": "Vet", "kind": "1:M", "max_count": 20}, {"from": "Owner", "to": "Pet", "kind": "1:M"}],
		"access_patterns": [
			{"number": 1, "description": "Clinic with its vets", "type": "read", "peak_rps": 30, "entities": ["Clinic", "Vet"]},
			{"number": 2, "description": "One vet", "type": "read", "peak_rps": 10, "entities": ["Vet"]},
			{"number": 3, "description": "One clinic", "type": "read", "peak_rps": 10, "entities": ["Clinic"]}],
		"consolidations": [{"parent": "Owner", "child": "Pet", "overlap_pct": 90, "bounded": true, "identifying": true, "decision": "consolidate"}]}`)
	edit := "/d/" + created.EditToken
	page := a.request(http.MethodGet, edit+"/aggregates", "", nil).Body.String()
	if !strings.Contains(page, "Analyse 2 related pairs") {
		t.Fatalf("no offer to analyse the two related pairs:\n%s", page)
	}
	if rec := a.hx(edit + "/aggregates/related"); rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "related pairs") {
		t.Fatalf("related: %d %s", rec.Code, rec.Body)
	}
	d, rev := a.design(created.EditToken)
	if len(d.Aggregates) != 2 {
		t.Fatalf("aggregates = %+v", d.Aggregates)
	}
	cv, op := d.Aggregates[0], d.Aggregates[1]
	// 30 of 50 RPS read both; at most 20 vets; the review says 90 %, bounded, identifying, consolidate.
	if *cv.CorrelationPct != 60 || *cv.OnlyAPct != 20 || cv.Bounded == nil || !*cv.Bounded {
		t.Errorf("Clinic + Vet = %+v", cv)
	}
	if *op.CorrelationPct != 90 || op.Identifying.ChildIndependent == nil || *op.Identifying.ChildIndependent || op.Decision != "item_collection" {
		t.Errorf("Owner + Pet = %+v", op)
	}

	section := "### Clinic + Vets Item Collection Analysis\n- **Access Correlation**: 75%\n- **Size Constraints**: 20 vets of 300 B\n- **Justification**: the booking screen\n"
	rec := a.hx(edit+"/aggregates/paste", "text", section)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Read Clinic + Vet (3 fields).") {
		t.Fatalf("paste: %d %s", rec.Code, rec.Body)
	}
	d, rev2 := a.design(created.EditToken)
	// The typed 60 % stays; the blank fields are filled in.
	if cv := d.Aggregates[0]; *cv.CorrelationPct != 60 || cv.Size != "20 vets of 300 B" || cv.Justification != "the booking screen" || rev2 != rev+1 {
		t.Errorf("after the paste: %+v, revision %d after %d", cv, rev2, rev)
	}
	if rec := a.hx(edit+"/aggregates/paste", "text", section, "replace", "1"); rec.Code != http.StatusOK {
		t.Fatalf("replace: %d", rec.Code)
	}
	if d, _ := a.design(created.EditToken); *d.Aggregates[0].CorrelationPct != 75 {
		t.Errorf("replaced correlation = %v", *d.Aggregates[0].CorrelationPct)
	}

	_, rev = a.design(created.EditToken)
	rec = a.hx(edit+"/aggregates/paste", "text", "<b>no section here</b>")
	body := rec.Body.String()
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="aggregate-paste-error"`) ||
		!strings.Contains(body, "no aggregate analysis found") || strings.Contains(body, "<b>no") {
		t.Errorf("no section: %d %s", rec.Code, body)
	}
	if _, now := a.design(created.EditToken); now != rev {
		t.Errorf("a refused paste changed the design: revision %d, want %d", now, rev)
	}
}
