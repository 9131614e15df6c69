package designer_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func scaffoldBase(t *testing.T, decision string) designer.Design {
	t.Helper()
	d := blankDesign(t, "")
	return designertest.ApplyAll(t, d,
		designer.AddInBulk{Entities: []designer.BulkEntity{
			{Name: "Customer", Attributes: []designer.BulkAttribute{{Name: "email"}, {Name: "customer_id"}}},
			{Name: "OrderLine", Attributes: []designer.BulkAttribute{{Name: "line_no", Type: "N"}, {Name: "qty", Type: "N"}, {Name: "email"}}},
			{Name: "Address"},
		}},
		designer.AddAggregate{EntityA: "Customer", EntityB: "OrderLine"},
		designer.SetAggregateField{ID: "ag1", Field: "decision", Value: decision},
	)
}

// clinicBase is the facilitator's design: Clinic with its Vets, Pet with its Appointments, whose
// only id attribute is its pet's.
func clinicBase(t *testing.T) designer.Design {
	t.Helper()
	return designertest.ApplyAll(t, blankDesign(t, ""),
		designer.AddInBulk{Entities: []designer.BulkEntity{
			{Name: "Clinic", Attributes: []designer.BulkAttribute{{Name: "clinic_id"}, {Name: "name"}}},
			{Name: "Vet", Attributes: []designer.BulkAttribute{{Name: "vet_id"}, {Name: "clinic_id"}, {Name: "name"}}},
			{Name: "Pet", Attributes: []designer.BulkAttribute{{Name: "pet_id"}, {Name: "species"}}},
			{Name: "Appointment", Attributes: []designer.BulkAttribute{{Name: "pet_id"}, {Name: "at"}, {Name: "reason"}}},
		}, Relationships: []map[string]string{{"from": "Clinic", "to": "Vet", "kind": "1:M"}, {"from": "Pet", "to": "Appointment", "kind": "1:M"}}},
		designer.AddAggregate{EntityA: "Clinic", EntityB: "Vet"},
		designer.SetAggregateField{ID: "ag1", Field: "decision", Value: "item collection"},
		designer.AddAggregate{EntityA: "Pet", EntityB: "Appointment"},
		designer.SetAggregateField{ID: "ag2", Field: "decision", Value: "separate tables"},
	)
}

func mustScaffold(t *testing.T, d designer.Design, id string) designer.ScaffoldPlan {
	t.Helper()
	p, err := designer.ScaffoldFor(d, id)
	if err != nil {
		t.Fatalf("ScaffoldFor(%s): %v", id, err)
	}
	return p
}

func wantReasons(t *testing.T, p designer.ScaffoldPlan, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slicesContainsPrefix(p.Reasons, w) {
			t.Errorf("no reason starting %q in:\n%s", w, strings.Join(p.Reasons, "\n"))
		}
	}
}

func slicesContainsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func TestScaffoldFor_itemCollectionIsNamedForTheAggregateWithProfileItem(t *testing.T) {
	t.Parallel()
	p := mustScaffold(t, clinicBase(t), "ag1")
	if len(p.Change.Tables) != 1 {
		t.Fatalf("tables %+v", p.Change.Tables)
	}
	st := p.Change.Tables[0]
	if st.Name != "Clinics" || st.PartitionKey != (designer.KeyAttribute{Name: "clinic_id", Type: "S"}) ||
		st.SortKey == nil || *st.SortKey != (designer.KeyAttribute{Name: "sk", Type: "S"}) {
		t.Errorf("table %+v", st)
	}
	ets := []designer.EntityType{
		{Entity: "Clinic", PKTemplate: "{clinic_id}", SKTemplate: "PROFILE", Description: "One per Clinic: its own item in its collection."},
		{Entity: "Vet", PKTemplate: "{clinic_id}", SKTemplate: "VET#{vet_id}", Description: "One per Vet, in its Clinic's collection."},
	}
	if !reflect.DeepEqual(st.EntityTypes, ets) {
		t.Errorf("entity types %+v", st.EntityTypes)
	}
	wantReasons(t, p,
		"Table Clinics: named for the aggregate, Clinic + Vet, in the plural",
		"PK clinic_id: Clinic's natural key",
		"SK sk: it holds each item's type, then its id",
		"SK PROFILE for the Clinic item: the parent's own item in its collection",
		"SK VET#{vet_id} for each Vet: its type, then its id (Vet's natural key), so one Query on clinic_id reads a Clinic with its Vets")

	// A child with a table of its own joins the collection too, as the decision says, and keeps it.
	vets := designertest.ApplyAll(t, clinicBase(t), designer.ScaffoldAggregate{Aggregate: "ag1", Tables: []designer.ScaffoldTable{{Name: "Vets",
		PartitionKey: designer.KeyAttribute{Name: "vet_id", Type: "S"}, EntityTypes: []designer.EntityType{{Entity: "Vet"}}}}})
	p = mustScaffold(t, vets, "ag1")
	if len(p.Change.Tables) != 1 || p.Change.Tables[0].Name != "Clinics" || len(p.Change.Tables[0].EntityTypes) != 2 {
		t.Errorf("with Vets: %+v", p.Change)
	}
	wantReasons(t, p, "Vet also lives in table Vets: kept; the collection holds each Vet beside its Clinic as well")
}

func TestScaffoldFor_itemCollection(t *testing.T) {
	t.Parallel()
	d := scaffoldBase(t, "item collection")
	c := mustScaffold(t, d, "ag1").Change
	if len(c.Tables) != 1 {
		t.Fatalf("tables %+v", c.Tables)
	}
	st := c.Tables[0]
	if st.Name != "Customers" || st.PartitionKey != (designer.KeyAttribute{Name: "customer_id", Type: "S"}) || st.SortKey == nil || st.SortKey.Name != "sk" {
		t.Errorf("table %+v", st)
	}
	if got := st.EntityTypes[0].SKTemplate + " " + st.EntityTypes[1].SKTemplate; got != "PROFILE ORDER_LINE#{line_no}" {
		t.Errorf("SK taxonomy %q", got)
	}
	var names []string
	for _, a := range st.Attributes {
		names = append(names, a.Name+":"+string(a.Type))
	}
	if strings.Join(names, " ") != "customer_id:S email:S line_no:N qty:N" {
		t.Errorf("attributes %v", names)
	}
	after := designertest.ApplyAll(t, d, c)
	tb, _, _ := after.TableByName("Customers")
	if len(tb.Attributes) != 5 || tb.Attributes[1].Name != "sk" || tb.BillingMode != designer.OnDemand {
		t.Errorf("table %+v", tb)
	}
	if again := mustScaffold(t, after, "ag1"); len(again.Change.Tables) != 0 {
		t.Errorf("scaffolded again: %+v; want nothing left to add", again)
	}
	// A second pair with the same parent joins the same collection.
	after = designertest.ApplyAll(t, after, designer.AddAggregate{EntityA: "Customer", EntityB: "Address"},
		designer.SetAggregateField{ID: "ag2", Field: "decision", Value: "item collection"})
	p2 := mustScaffold(t, after, "ag2")
	c2 := p2.Change
	if len(c2.Tables) != 1 || c2.Tables[0].Name != "Customers" || len(c2.Tables[0].EntityTypes) != 1 || c2.Tables[0].EntityTypes[0].SKTemplate != "ADDRESS#{address_id}" {
		t.Fatalf("second pair: %+v", c2)
	}
	wantReasons(t, p2, "Customer already lives in table Customers: kept, and Addresses join its collection")
	joined := designertest.ApplyAll(t, after, c2)
	if tb, _, _ := joined.TableByName("Customers"); len(tb.EntityTypes) != 3 || len(joined.Tables) != 1 {
		t.Errorf("joined table %+v", tb)
	}
	undone := designertest.ApplyAll(t, joined, designer.UndoChange{Before: after, Revision: 9, Undone: c2.Summary(), Touched: c2.Paths()})
	if a, b := designertest.MustMarshal(t, after), designertest.MustMarshal(t, undone); !bytes.Equal(a, b) {
		t.Errorf("undo differs: %s", designertest.FirstDifference(a, b))
	}
}

// An item collection joins the table its parent lives in when the parent heads its own partition
// there, whatever that table is named; it is refused, by name, where it cannot.
func TestScaffoldFor_itemCollectionJoinsTheParentsTableOrSaysWhyNot(t *testing.T) {
	t.Parallel()
	d := scaffoldBase(t, "item collection")
	old := designertest.ApplyAll(t, d, designer.ScaffoldAggregate{Aggregate: "ag1", Tables: []designer.ScaffoldTable{{Name: "CustomerData",
		PartitionKey: designer.KeyAttribute{Name: "customer_id", Type: "S"}, SortKey: &designer.KeyAttribute{Name: "record_key", Type: "S"},
		EntityTypes: []designer.EntityType{{Entity: "Customer", PKTemplate: "{customer_id}", SKTemplate: "METADATA"}}}}})
	p := mustScaffold(t, old, "ag1")
	if len(p.Change.Tables) != 1 || p.Change.Tables[0].Name != "CustomerData" || p.Change.Tables[0].SortKey.Name != "record_key" ||
		len(p.Change.Tables[0].EntityTypes) != 1 || p.Change.Tables[0].EntityTypes[0].SKTemplate != "ORDER_LINE#{line_no}" {
		t.Errorf("joining CustomerData: %+v", p.Change)
	}
	wantReasons(t, p, "Customer already lives in table CustomerData: kept, and OrderLines join its collection")

	flat := designertest.ApplyAll(t, d, designer.AddTable{Name: "People", PartitionKey: "customer_id"},
		designer.AddEntityType{Table: "People", Entity: "Customer", PKTemplate: "{customer_id}"})
	_, err := designer.ScaffoldFor(flat, "ag1")
	designertest.WantValidationError(t, err, "tables")
	if !strings.Contains(err.Error(), "Customer lives in table People, keyed on customer_id (S), where an item collection") {
		t.Errorf("refusal %v", err)
	}

	together := designertest.ApplyAll(t, d, designer.ScaffoldAggregate{Aggregate: "ag1", Tables: []designer.ScaffoldTable{{Name: "Shop",
		PartitionKey: designer.KeyAttribute{Name: "PK", Type: "S"}, SortKey: &designer.KeyAttribute{Name: "SK", Type: "S"},
		EntityTypes: []designer.EntityType{{Entity: "Customer", PKTemplate: "C#{customer_id}", SKTemplate: "PROFILE"},
			{Entity: "OrderLine", PKTemplate: "C#{customer_id}", SKTemplate: "LINE#{line_no}"}}}}})
	if p := mustScaffold(t, together, "ag1"); len(p.Change.Tables) != 0 || !slicesContainsPrefix(p.Reasons, "Customer and OrderLine already live together in table Shop: kept") {
		t.Errorf("in place: %+v", p)
	}
}

// The facilitator's case: Pet has its table, so separate tables adds only Appointment's, keyed on
// its own id, never on its pet's id alone.
func TestScaffoldFor_separateTablesKeepsTheTableAnEntityHas(t *testing.T) {
	t.Parallel()
	d := clinicBase(t)
	for _, home := range []designer.ScaffoldTable{
		{Name: "Pets", PartitionKey: designer.KeyAttribute{Name: "pet_id", Type: "S"},
			EntityTypes: []designer.EntityType{{Entity: "Pet", PKTemplate: "{pet_id}"}}},
		{Name: "Owners", PartitionKey: designer.KeyAttribute{Name: "owner_id", Type: "S"}, SortKey: &designer.KeyAttribute{Name: "sk", Type: "S"},
			EntityTypes: []designer.EntityType{{Entity: "Pet", PKTemplate: "{owner_id}", SKTemplate: "PET#{pet_id}"}}},
	} {
		with := designertest.ApplyAll(t, d, designer.ScaffoldAggregate{Aggregate: "ag2", Tables: []designer.ScaffoldTable{home}})
		p := mustScaffold(t, with, "ag2")
		if len(p.Change.Tables) != 1 {
			t.Fatalf("with Pet in %s: tables %+v", home.Name, p.Change.Tables)
		}
		st := p.Change.Tables[0]
		if st.Name != "Appointments" || st.PartitionKey != (designer.KeyAttribute{Name: "appointment_id", Type: "S"}) || st.SortKey != nil {
			t.Errorf("with Pet in %s: table %+v", home.Name, st)
		}
		wantReasons(t, p, "Pet already lives in table "+home.Name+": kept, no second table",
			"Table Appointments: named for Appointment, in the plural",
			"Appointments keyed on appointment_id: Appointment's id, made (S) as it has none of its own (pet_id names another entity); not under its pet's id")
	}

	ident := designertest.ApplyAll(t, d, designer.SetAggregateField{ID: "ag2", Field: "child_independent", Value: "no"},
		designer.SetAggregateField{ID: "ag2", Field: "parent_id_known", Value: "yes"})
	p := mustScaffold(t, ident, "ag2")
	if len(p.Change.Tables) != 2 || p.Change.Tables[0].Name != "Pets" {
		t.Fatalf("tables %+v", p.Change.Tables)
	}
	st := p.Change.Tables[1]
	if st.Name != "Appointments" || st.PartitionKey.Name != "pet_id" || st.SortKey == nil || st.SortKey.Name != "appointment_id" ||
		st.EntityTypes[0].PKTemplate != "{pet_id}" || st.EntityTypes[0].SKTemplate != "{appointment_id}" {
		t.Errorf("identifying: %+v", st)
	}
	wantReasons(t, p, "Table Pets: named for Pet, in the plural", "PK pet_id: Pet's natural key",
		"Appointments keyed on pet_id + appointment_id: an appointment cannot exist without its pet (identifying) and its pet's id is always known")

	after := designertest.ApplyAll(t, ident, p.Change)
	if again := mustScaffold(t, after, "ag2"); len(again.Change.Tables) != 0 ||
		!slicesContainsPrefix(again.Reasons, "Appointment already lives in table Appointments: kept, no second table") {
		t.Errorf("again: %+v", again)
	}
}

func TestScaffoldFor_otherDecisions(t *testing.T) {
	t.Parallel()
	single := mustScaffold(t, scaffoldBase(t, "single item"), "ag1").Change
	if len(single.Tables) != 1 || single.Tables[0].Name != "Customers" || single.Tables[0].SortKey != nil ||
		single.Tables[0].Attributes[len(single.Tables[0].Attributes)-1] != (designer.Attribute{Name: "order_line_list", Type: designer.L}) {
		t.Errorf("single item: %+v", single)
	}
	d := scaffoldBase(t, "separate tables")
	sep := mustScaffold(t, d, "ag1").Change
	if len(sep.Tables) != 2 || sep.Tables[0].Name != "Customers" || sep.Tables[1].Name != "OrderLines" || sep.Tables[1].PartitionKey.Name != "line_no" || sep.Tables[1].SortKey != nil {
		t.Errorf("separate tables: %+v", sep)
	}
	d = designertest.ApplyAll(t, d, designer.SetAggregateField{ID: "ag1", Field: "child_independent", Value: "no"},
		designer.SetAggregateField{ID: "ag1", Field: "parent_id_known", Value: "yes"})
	ident := mustScaffold(t, d, "ag1").Change
	if ident.Tables[1].PartitionKey.Name != "customer_id" || ident.Tables[1].SortKey == nil || ident.Tables[1].SortKey.Name != "line_no" {
		t.Errorf("identifying: %+v", ident)
	}
	if _, err := designer.ScaffoldFor(scaffoldBase(t, ""), "ag1"); err == nil || !strings.Contains(err.Error(), "choose a decision") {
		t.Errorf("no decision: %v", err)
	}
	clash := designertest.ApplyAll(t, scaffoldBase(t, "item collection"), designer.AddTable{Name: "Customers", PartitionKey: "email"})
	if _, err := designer.ScaffoldFor(clash, "ag1"); err == nil ||
		!strings.Contains(err.Error(), "table Customers is already there with key email (S), where this decision's scaffold keys it on customer_id (S) + sk (S)") {
		t.Errorf("clash: %v", err)
	}
	designertest.RunChangeCases(t, clash, []designertest.ChangeCase{
		{Name: "a table with another key", Change: designer.ScaffoldAggregate{Aggregate: "ag1", Tables: []designer.ScaffoldTable{{Name: "Customers",
			PartitionKey: designer.KeyAttribute{Name: "customer_id", Type: "S"}}}}, Field: "tables/0/partition_key"},
		{Name: "an unknown aggregate", Change: designer.ScaffoldAggregate{Aggregate: "ag9"}, Field: "aggregate"},
		{Name: "a bad key type", Change: designer.ScaffoldAggregate{Aggregate: "ag1", Tables: []designer.ScaffoldTable{{Name: "Other",
			PartitionKey: designer.KeyAttribute{Name: "id", Type: "M"}}}}, Field: "tables/0/partition_key"},
	})
}

// A single item joins its parent's item where the parent lives already.
func TestScaffoldFor_singleItemJoinsTheParentsItem(t *testing.T) {
	t.Parallel()
	d := designertest.ApplyAll(t, scaffoldBase(t, "single item"), designer.AddTable{Name: "Accounts", PartitionKey: "customer_id"},
		designer.AddEntityType{Table: "Accounts", Entity: "Customer", PKTemplate: "{customer_id}"})
	p := mustScaffold(t, d, "ag1")
	if len(p.Change.Tables) != 1 || p.Change.Tables[0].Name != "Accounts" || len(p.Change.Tables[0].EntityTypes) != 1 ||
		p.Change.Tables[0].EntityTypes[0] != (designer.EntityType{Entity: "OrderLine", PKTemplate: "{customer_id}", Description: "Kept inside its Customer's item, in order_line_list."}) {
		t.Errorf("plan %+v", p.Change)
	}
	wantReasons(t, p, "Customer already lives in table Accounts: kept", "OrderLines inside each Customer's item, as order_line_list (L)")
}

// Tables are named in the plural, and a name already plural stays.
func TestScaffoldFor_namesTablesInThePlural(t *testing.T) {
	t.Parallel()
	for parent, want := range map[string]string{
		"Clinic": "Clinics", "Category": "Categories", "Day": "Days", "Box": "Boxes", "Branch": "Branches", "Address": "Addresses",
		"Status": "Statuses", "Analysis": "Analyses", "Person": "People", "Pets": "Pets", "Categories": "Categories", "OrderLine": "OrderLines",
	} {
		d := designertest.ApplyAll(t, blankDesign(t, ""),
			designer.AddInBulk{Entities: []designer.BulkEntity{{Name: parent}, {Name: "Note"}}},
			designer.AddAggregate{EntityA: parent, EntityB: "Note"},
			designer.SetAggregateField{ID: "ag1", Field: "decision", Value: "single item"})
		if got := mustScaffold(t, d, "ag1").Change.Tables[0].Name; got != want {
			t.Errorf("%s: table %s, want %s", parent, got, want)
		}
	}
}
