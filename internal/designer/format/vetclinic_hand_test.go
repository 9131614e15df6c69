package format

import (
	"math"
	"testing"

	"dynaloom/internal/designer/capacity"
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
