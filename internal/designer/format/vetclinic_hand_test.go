package format

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/rules"
)

// The vet-clinic pair, imported without an edit, gives docs/capacity.md's hand-worked figures
// ("A worked example"): every resource's requests to the cent, the month and the peak.
func TestVetClinicPair_monthlyCostIsTheHandFigure(t *testing.T) {
	in := readInputs(t, "testdata/pairs/vetclinic-dynamodb_requirement.md", "testdata/pairs/vetclinic-dynamodb_data_model.md")
	d, _, err := Import(in.files)
	if err != nil {
		t.Fatal(err)
	}
	r := capacity.Compute(d, nil)
	cents := func(v float64) float64 { return math.Round(v*100) / 100 }
	within := func(got, want, share float64) bool { return math.Abs(got-want) <= share*want }
	requests := map[string]float64{"Owners": 6.09, "Clinics": 1.65, "Appointments": 16.47, "Appointments/OpenByClinic": 16.47,
		"Appointments/AppointmentsByVet": 16.14, "Invoices": 12.02}
	// Storage by hand, in bytes. The sparse OpenByClinic holds the 10,000 open appointments the
	// requirement states ("About 10,000 appointments are open").
	storage := map[string]float64{"Owners": 19_531_733, "Clinics": 192_580, "Appointments": 482_048_000,
		"Appointments/OpenByClinic": 2_790_000, "Appointments/AppointmentsByVet": 346_080_000, "Invoices": 379_456_000}
	for _, res := range r.Resources {
		name := res.Table
		if res.Index != "" {
			name += "/" + res.Index
		}
		if got := cents(res.OnDemand.Reads + res.OnDemand.Writes + res.OnDemand.IndexWrites); got != requests[name] {
			t.Errorf("%s requests = $%.2f a month, want $%.2f by hand", name, got, requests[name])
		}
		if want, ok := storage[name]; ok && !within(res.Storage.Bytes, want, 0.05) {
			t.Errorf("%s storage = %.0f B, want within 5%% of %.0f by hand", name, res.Storage.Bytes, want)
		}
	}
	if got := r.Total.Storage.Bytes; !within(got, 1_230_098_313, 0.05) {
		t.Errorf("storage = %.0f B, want within 5%% of 1,230,098,313 by hand", got)
	}
	if got := r.Total.OnDemand.Total; !within(got, 69.13, 0.01) {
		t.Errorf("month on demand = $%.2f, want within 1%% of $69.13", got)
	}
	if got := r.Total.OnDemand.AtPeak; !within(got, 213.41, 0.01) {
		t.Errorf("month at peak = $%.2f, want within 1%% of $213.41", got)
	}
	if r.Total.Peak.RCU != 77 || r.Total.Peak.WCU != 114 || r.Total.Average.RCU != 26.5 || r.Total.Average.WCU != 36.5 {
		t.Errorf("peak = %+v, average %+v; want 77 RCU/s and 114 WCU/s, 26.5 and 36.5", r.Total.Peak, r.Total.Average)
	}
	// Every partition key has a count, with where it came from.
	for _, k := range r.Keys {
		if c := k.Cardinality; !c.Known && !c.Increasing {
			t.Errorf("%s/%s key %s: values not known (%s)", k.Table, k.Index, k.Attribute, c.Source)
		}
	}
	if len(r.Keys) != 6 {
		t.Errorf("%d partition keys, want the 4 tables' and the 2 GSIs'", len(r.Keys))
	}
}

// The vet-clinic pair keeps its structure, held to what a reader finds in it by hand: each
// entity's attributes from its table's items (keys too), the plural aggregate headings read as
// the entities, the sizes and identifying answers the words give, the identifying reviews, and
// the relationships' figures with their units.
func TestVetClinicPair_importKeepsTheStructure(t *testing.T) {
	in := readInputs(t, "testdata/pairs/vetclinic-dynamodb_requirement.md", "testdata/pairs/vetclinic-dynamodb_data_model.md")
	d, notes, err := Import(in.files)
	if err != nil {
		t.Fatal(err)
	}
	// A key the table overloads (record, appt_key, pk, sk) is the table's, not the entity's.
	attrs := map[string]string{
		"Owner":       "owner_id S, owner_name S, phone S, email S",
		"Pet":         "owner_id S, pet_id S, pet_name S, species S, birth_date S",
		"Clinic":      "clinic_id S, clinic_name S, city S, phone S",
		"Vet":         "clinic_id S, vet_id S, vet_name S, specialty S",
		"Appointment": "pet_id S, appt_id S, slot_start S, clinic_id S, vet_id S, owner_id S, pet_name S, reason S, status S, open_clinic_id S",
		"Invoice":     "invoice_id S, appt_id S, amount N, status S, issued_on S, paid_on S",
	}
	// "#9 → slot_start, pet_name, …" is the index's per-pattern attributes, arrow and all.
	for _, tb := range d.Tables {
		for _, ix := range tb.GSIs {
			if len(ix.PatternAttributes) != 1 || len(ix.PatternAttributes[0].Attributes) == 0 {
				t.Errorf("index %s: per-pattern attributes %+v, want its one pattern's", ix.Name, ix.PatternAttributes)
			}
		}
	}
	for _, n := range notes {
		if strings.Contains(n.Message, "without attributes") {
			t.Errorf("note %q: the data model gave the entity its attributes", n.Message)
		}
	}
	for _, e := range d.Entities {
		var got []string
		for _, a := range e.Attributes {
			got = append(got, a.Name+" "+string(a.Type))
		}
		if strings.Join(got, ", ") != attrs[e.Name] {
			t.Errorf("entity %s attributes %q, want %q", e.Name, strings.Join(got, ", "), attrs[e.Name])
		}
	}
	if len(d.Entities) != len(attrs) {
		t.Errorf("%d entities, want %d", len(d.Entities), len(attrs))
	}
	no, yes := false, true
	wantAggs := []designer.AggregateAnalysis{
		{EntityA: "Owner", EntityB: "Pet", CombinedKB: new(1.0), Bounded: &yes, Identifying: designer.IdentifyingCheck{ChildIndependent: &no, SeparateTablePlanned: &no}},
		{EntityA: "Clinic", EntityB: "Vet"},
	}
	if len(d.Aggregates) != len(wantAggs) {
		t.Fatalf("%d aggregates, want %d", len(d.Aggregates), len(wantAggs))
	}
	for i, w := range wantAggs {
		a := d.Aggregates[i]
		if a.EntityA != w.EntityA || a.EntityB != w.EntityB || !reflect.DeepEqual(a.CombinedKB, w.CombinedKB) || !reflect.DeepEqual(a.Bounded, w.Bounded) || !reflect.DeepEqual(a.Identifying, w.Identifying) {
			t.Errorf("aggregate %d = %s + %s, %v KB, bounded %v, identifying %+v; want %s + %s, %v KB, bounded %v, identifying %+v",
				i, a.EntityA, a.EntityB, a.CombinedKB, a.Bounded, a.Identifying, w.EntityA, w.EntityB, w.CombinedKB, w.Bounded, w.Identifying)
		}
	}
	// "identifying relationship for pets" (Owners' partition key), and the Identifying
	// Relationship Check's Appointment and Invoice.
	for i, want := range []*bool{&yes, nil, &yes, &yes} {
		if got := d.Consolidations[i].Identifying; !reflect.DeepEqual(got, want) {
			t.Errorf("consolidation %s → %s identifying %v, want %v", d.Consolidations[i].Parent, d.Consolidations[i].Child, got, want)
		}
	}
	counts := map[string]string{"Owner → Pet": "avg 1.6 pets per owner, max 12", "Pet → Appointment": "avg 4 appointments per pet per year",
		"Clinic → Vet": "avg 8 vets per clinic", "Vet → Appointment": "", "Appointment → Invoice": ""}
	for _, r := range d.Relationships {
		if got, want := r.Counts(), counts[r.From+" → "+r.To]; got != want {
			t.Errorf("relationship %s → %s counts %q, want %q", r.From, r.To, got, want)
		}
	}
	for _, tb := range d.Tables {
		for _, et := range tb.EntityTypes {
			if et.Entity == "" || et.PKTemplate == "" {
				t.Errorf("table %s entity type %+v: every one has a name and a PK template", tb.Name, et)
			}
		}
	}
	for _, n := range notes {
		if strings.Contains(n.Message, `entity ""`) {
			t.Errorf("note %q names an entity with no name", n.Message)
		}
	}
	for _, f := range rules.Validate(d) {
		if f.Severity == rules.SeverityError {
			t.Errorf("error %s %s: %s", f.Code, f.Path, f.Message)
		}
	}
}
