package datamodelmd

import (
	"os"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// The vet-clinic data model read alone, held to what a reader of its SK taxonomies finds by hand:
// each line's entity ("`PROFILE` (the owner)" is Owner, "`INV#…` (one per invoice)" is Invoice,
// not Inv), and the partition key's own value as each one's PK template where the taxonomy lists
// sort keys only.
func TestImport_vetClinicTaxonomiesNameEveryEntityType(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../testdata/pairs/vetclinic-dynamodb_data_model.md")
	if err != nil {
		t.Fatal(err)
	}
	d, notes, err := Import(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]designer.EntityType{
		"Owners": {
			{Entity: "Owner", PKTemplate: "{owner_id}", SKTemplate: "PROFILE", Description: "the owner"},
			{Entity: "Pet", PKTemplate: "{owner_id}", SKTemplate: "PET#{pet_id}", Description: "one per pet"},
		},
		"Clinics": {
			{Entity: "Clinic", PKTemplate: "{clinic_id}", SKTemplate: "CLINIC", Description: "the clinic"},
			{Entity: "Vet", PKTemplate: "{clinic_id}", SKTemplate: "VET#{vet_id}", Description: "one per vet"},
		},
		"Appointments": {
			{Entity: "Appointment", PKTemplate: "{pet_id}", SKTemplate: "{slot_start}#{appt_id}", Description: "one per appointment"},
		},
		"Invoices": {
			{Entity: "Invoice", PKTemplate: "OWNER#{owner_id}", SKTemplate: "INV#{issued_on}#{invoice_id}", Description: "one per invoice"},
		},
	}
	for name, ets := range want {
		tb, _, ok := d.TableByName(name)
		if !ok {
			t.Fatalf("no table %s", name)
		}
		if !slices.Equal(tb.EntityTypes, ets) {
			t.Errorf("%s entity types =\n%+v\nwant\n%+v", name, tb.EntityTypes, ets)
		}
	}
	for _, n := range notes {
		if strings.Contains(n.Message, "names no entity") {
			t.Errorf("note %q: every line of these taxonomies names its entity", n.Message)
		}
	}
}

// A taxonomy line whose words name no entity gets the table's name, never none: an entity type
// without a name matches no entity and reads as nothing in a message ("key template of ").
func TestImport_anEntityTypeNoWordNamesIsNamedAfterItsTable(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Data Model

## Table Designs

### Bins Table

- **Purpose**: bins
- **Partition Key**: bin_id (S) - one per bin
- **Sort Key**: slot (S) - the slots
- **SK Taxonomy**: ` + "`TOP`" + ` (one on the top shelf), ` + "`LOW`" + ` (one on the low shelf)
- **Attributes**: bin_id (S), slot (S)
`
	d, notes, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tb, _, _ := d.TableByName("Bins")
	var got []string
	for _, et := range tb.EntityTypes {
		got = append(got, et.Entity+" "+et.SKTemplate)
	}
	if want := []string{"Bin TOP", "Bin 2 LOW"}; !slices.Equal(got, want) {
		t.Errorf("entity types %q, want each named after the table", got)
	}
	named := 0
	for _, n := range notes {
		if strings.Contains(n.Message, "table Bins: entity type") && strings.Contains(n.Message, "names no entity") {
			named++
		}
	}
	if named != 2 {
		t.Errorf("%d notes name an entity type named after its table, want 2: %v", named, notes)
	}
}
