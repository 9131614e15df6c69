package reqmd

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// The vet-clinic requirement states its scale in prose and relationships; each figure is read
// with the section and line it came from, and the entities it does not count are worked out.
func TestImport_readsScaleFromProse(t *testing.T) {
	t.Parallel()
	d, notes, err := Import(readFixture(t, "vet-clinic-scale.md"))
	if err != nil {
		t.Fatal(err)
	}
	count := func(name string) (string, string) {
		e, _, ok := d.EntityByName(name)
		if !ok {
			t.Fatalf("no entity %s", name)
		}
		return designer.EntityField.Count.Get(e), e.CountFrom
	}
	const overview = "read from: Application Overview, line "
	for _, tc := range []struct{ entity, count, from string }{
		{"Owner", "40000", overview + "5"},
		{"Clinic", "120", overview + "5"},
		{"Vet", "960", overview + "5"},          // "~960 vets"
		{"Reminder", "2000000", overview + "5"}, // "about 2 million reminders"
		// 40,000 owners × 1.6 pets per owner
		{"Pet", "64000", "derived: 40,000 owners × 1.6 pets per owner (Owner 1:M Pet)"},
		// 4 appointments per pet per year × 64,000 pets = 256,000 a year, kept 7 years
		{"Appointment", "1792000", "derived: 256,000 appointments per year × 7 years kept"},
	} {
		if got, from := count(tc.entity); got != tc.count || from != tc.from {
			t.Errorf("%s: count %s (%q), want %s (%q)", tc.entity, got, from, tc.count, tc.from)
		}
	}
	appt, _, _ := d.EntityByName("Appointment")
	if g := designer.EntityField.Growth.Get(appt); g != "256000 per year" ||
		appt.GrowthFrom != overview+"6 (4 appointments per pet per year) × 64,000 pets" {
		t.Errorf("appointment growth %s (%q)", g, appt.GrowthFrom)
	}
	if r := designer.EntityField.Retention.Get(appt); r != "7 years" || appt.RetentionFrom != overview+"6" {
		t.Errorf("appointment retention %s (%q)", r, appt.RetentionFrom)
	}
	owner, _, _ := d.EntityByName("Owner")
	if g := designer.EntityField.Growth.Get(owner); g != "300 per day" || owner.GrowthFrom != overview+"6 (300 new owners per day)" {
		t.Errorf("owner growth %s (%q)", g, owner.GrowthFrom)
	}
	inv, _, _ := d.EntityByName("Invoice")
	if r := designer.EntityField.Retention.Get(inv); r != "90 days" || inv.RetentionFrom != overview+"7" {
		t.Errorf("invoice retention %s (%q)", r, inv.RetentionFrom)
	}
	// One invoice per appointment, kept 90 days: 256,000 a year × 90/365.
	if inv.Count == nil || *inv.Count != 63123 || inv.GrowthFrom != "derived: one invoice per appointment (Appointment 1:1 Invoice)" {
		t.Errorf("invoice count %v, growth from %q; want 63123 from one invoice per appointment", inv.Count, inv.GrowthFrom)
	}
	// "List 20 pets" is a pattern, not a count; the maximum of 12 is the relationship's.
	for _, want := range [][]string{
		{"read 40000 as the count of Owner"}, {"read 960 as the count of Vet"},
		{"read \"4 appointments per pet per year\" as a growth of Appointment"},
		{"read 7 years as the retention of Appointment"},
	} {
		if !designertest.HasNote(notes, want...) {
			t.Errorf("no note %q in %v", want, notes)
		}
	}
	r := d.Relationships[0]
	if *r.Avg != 1.6 || *r.Max != 12 {
		t.Errorf("Owner 1:M Pet = %+v", r)
	}
}

// Each spelling of a count, a rate and a retention, read on its line.
func TestImport_scaleSpellings(t *testing.T) {
	t.Parallel()
	head := "# Shop\n\n## Application Overview\n"
	rels := "\n## Entity Relationships Deep Dive\n- **Customer → Order**: 1:Many\n- **Order → OrderLine**: 1:Many\n- **Customer → LoyaltyCard**: 1:1\n"
	for _, tc := range []struct {
		line, entity, field, want string
	}{
		{"- **Scale**: 40,000 customers", "Customer", "count", "40000"},
		{"We serve **12,500** Customers.", "Customer", "count", "12500"},
		{"about 2 million orders a year are placed", "Order", "growth", "2000000 per year"},
		{"About 2 million orders.", "Order", "count", "2000000"},
		{"10k registered customers", "Customer", "count", "10000"},
		{"1 loyalty card", "LoyaltyCard", "count", "1"},
		{"300 customers/day sign up", "Customer", "count", ""}, // "customers/day" is one word: not read
		{"300 customers per day", "Customer", "growth", "300 per day"},
		{"1,000 customers place 12 orders per customer per month", "Order", "growth", "12000 per month"},
		{"12 orders per customer per month", "Order", "growth", ""}, // customers not counted
		{"Order lines are kept for 3 months", "OrderLine", "retention", "3 months"},
		{"orders expire after 30 days", "Order", "retention", "30 days"},
		{"Orders have a TTL of 2 weeks", "Order", "retention", "2 weeks"},
		{"order retention: 1 year", "Order", "retention", "1 year"},
		{"$40,000 customers", "Customer", "count", ""},
		{"40% customers", "Customer", "count", ""},
		{"up to 12 orders", "Order", "count", ""},
	} {
		d, _, err := Import([]byte(head + tc.line + "\n" + rels))
		if err != nil {
			t.Fatal(err)
		}
		e, _, _ := d.EntityByName(tc.entity)
		f, _ := designer.FieldNamed(designer.EntityFields, tc.field)
		if got := f.Get(e); got != tc.want {
			t.Errorf("%q: %s of %s = %q, want %q", tc.line, tc.field, tc.entity, got, tc.want)
		}
		if src, _ := designer.FieldNamed(designer.EntityFields, tc.field+"_from"); tc.want != "" && !strings.HasPrefix(src.Get(e), "read from: Application Overview, line 4") {
			t.Errorf("%q: %s source %q", tc.line, tc.field, src.Get(e))
		}
	}
}

// An average stated in prose ("8 vets per clinic") is the relationship's, and counts the child.
func TestImport_proseAverageIsTheRelationships(t *testing.T) {
	t.Parallel()
	d, _, err := Import([]byte("# Vets\n\n## Application Overview\n120 clinics with 8 vets per clinic.\n\n## Entity Relationships Deep Dive\n- **Clinic → Vet**: 1:Many\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Relationships[0]; r.Avg == nil || *r.Avg != 8 {
		t.Fatalf("Clinic 1:M Vet = %+v, want avg 8", r)
	}
	if v, _, _ := d.EntityByName("Vet"); v.Count == nil || *v.Count != 960 {
		t.Errorf("vets = %v, want 120 × 8 = 960", v.Count)
	}
}

// An entity's scale and where each figure came from survive export and import.
func TestExport_scaleReadsBack(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d = designertest.ApplyAll(t, d,
		designer.SetEntityField{Entity: "Employee", Field: "count", Value: "300,000"},
		designer.SetEntityField{Entity: "Employee", Field: "growth", Value: "40 per week"},
		designer.SetEntityField{Entity: "Employee", Field: "retention", Value: "30 years"},
		designer.SetEntityField{Entity: "Employee", Field: "retention_from", Value: "HR policy (p. 4)"},
		designer.SetEntityField{Entity: "Department", Field: "growth", Value: "2 per year"},
	)
	out := Export(d)
	for _, want := range []string{"  - Expected items: 300000 (team)", "  - Growth: 40 per week (team)", "  - Retention: 30 years (HR policy (p. 4))"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("export has no line %q", want)
		}
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Employee", "Department"} {
		a, _, _ := d.EntityByName(name)
		b, _, _ := back.EntityByName(name)
		for _, f := range designer.EntityFields {
			if f.Get(a) != f.Get(b) {
				t.Errorf("%s %s: %q, read back %q", name, f.Key, f.Get(a), f.Get(b))
			}
		}
	}
}
