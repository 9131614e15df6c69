package capacity

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// clinic is a table of appointments and vets with three GSIs: ByVet (vet_id + day, INCLUDE
// status), ByClinic (clinic_id, ALL) and Open (open_clinic_id, KEYS_ONLY, sparse: only an open
// appointment carries it). Sizes, worked by hand (name + value bytes):
//
//	a1: pk APPT#1 8, sk APPT 6, vet_id V1 8, day 13, clinic_id C1 11, status OPEN 10,
//	    open_clinic_id C1 16, notes 1,500 x 1,505 = 1,577 B (an ALL entry of it: 2 KB)
//	a2: as a1 with APPT#2, V2, status DONE and no open_clinic_id = 1,561 B (2 KB)
//	    ByVet entries (pk, sk, vet_id, day, status) 45 B: 1 KB; a1's Open entry (pk, sk,
//	    open_clinic_id) 30 B: 1 KB
//	v1: a vet, VET#V1 / PROFILE, in no index.
func clinic() designer.Table {
	notes := strings.Repeat("x", 1500)
	appt := func(id, vet, status string, open bool) designer.SampleItem {
		it := designer.Item{"pk": designer.Str("APPT#" + id), "sk": designer.Str("APPT"), "vet_id": designer.Str(vet),
			"day": designer.Str("2026-01-05"), "clinic_id": designer.Str("C1"), "status": designer.Str(status), "notes": designer.Str(notes)}
		if open {
			it["open_clinic_id"] = designer.Str("C1")
		}
		return designer.SampleItem{ID: "a" + id, Item: it}
	}
	gsi := func(name string, pk, sk string, proj designer.Projection) designer.Index {
		ix := designer.Index{Name: name, PartitionKey: []designer.KeyAttribute{{Name: pk, Type: designer.S}}, Projection: proj}
		if sk != "" {
			ix.SortKey = []designer.KeyAttribute{{Name: sk, Type: designer.S}}
		}
		return ix
	}
	return designer.Table{Name: "Clinic", BillingMode: designer.OnDemand,
		PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
		EntityTypes: []designer.EntityType{{Entity: "Appointment", PKTemplate: "APPT#{appointment_id}", SKTemplate: "APPT"},
			{Entity: "Vet", PKTemplate: "VET#{vet_id}", SKTemplate: "PROFILE"}},
		GSIs: []designer.Index{
			gsi("ByVet", "vet_id", "day", designer.Projection{Type: designer.Include, Attributes: []string{"status"}}),
			gsi("ByClinic", "clinic_id", "", designer.Projection{Type: designer.All}),
			gsi("Open", "open_clinic_id", "", designer.Projection{Type: designer.KeysOnly}),
		},
		Items: []designer.SampleItem{
			{ID: "v1", Item: designer.Item{"pk": designer.Str("VET#V1"), "sk": designer.Str("PROFILE"), "name": designer.Str("Ana")}},
			appt("1", "V1", "OPEN", true), appt("2", "V2", "DONE", false),
		},
	}
}

// indexWritesOf is the index writes of the one operation of a design of t and a pattern of the
// entities running op.
func indexWritesOf(t *testing.T, table designer.Table, entities []string, op designer.Operation) OperationLoad {
	t.Helper()
	one := 1.0
	op.Table = table.Name
	d := designer.Design{Name: "clinic", Tables: []designer.Table{table}, Patterns: []designer.Pattern{{ID: "p", Number: 1,
		Type: designer.Write, PeakRPS: &one, Entities: entities, Mapping: designer.Mapping{Operations: []designer.Operation{op}}}}}
	return Compute(d, nil).Patterns[0].Operations[0]
}

const (
	vetKeyChange  = "vet_id, the partition key of ByVet, changes: a delete and a put"
	leavesOpen    = "open_clinic_id (the key of Open) is removed: the item leaves the sparse index"
	entersOpen    = "open_clinic_id (the key of Open) is set: the item enters the sparse index"
	statusInByVet = "status is projected into ByVet"
)

func TestIndexWrites_onTheSampleItems(t *testing.T) {
	key := func(id string, kv ...string) map[string]designer.Value {
		return vals(append([]string{":pk", "APPT#" + id, ":sk", "APPT"}, kv...)...)
	}
	update := func(id, expr string, kv ...string) designer.Operation {
		return designer.Operation{Op: "UpdateItem", KeyCondition: "pk = :pk AND sk = :sk", Update: expr, Values: key(id, kv...)}
	}
	sampled := func(ix string, writes, units float64, keyChange bool, reason string) IndexWriteLoad {
		return IndexWriteLoad{Index: ix, Writes: writes, Units: units, KeyChange: keyChange, Reason: reason, WritesFrom: FromSamples, SizeFrom: FromSamples}
	}
	tests := []struct {
		name string
		op   designer.Operation
		want []IndexWriteLoad
	}{
		{name: "a projected attribute: INCLUDE and ALL write, KEYS_ONLY does not",
			op: update("1", "SET #s = :s", ":s", "DONE"),
			want: []IndexWriteLoad{sampled("ByVet", 1, 1, false, statusInByVet),
				sampled("ByClinic", 1, 2, false, "status is projected into ByClinic")}},
		{name: "an attribute INCLUDE does not list writes ALL only",
			op:   update("1", "SET notes = :n", ":n", strings.Repeat("y", 1500)),
			want: []IndexWriteLoad{sampled("ByClinic", 1, 2, false, "notes is projected into ByClinic")}},
		{name: "a key change is a delete and a put",
			op: update("1", "SET vet_id = :v", ":v", "V9"),
			want: []IndexWriteLoad{sampled("ByVet", 2, 2, true, vetKeyChange),
				sampled("ByClinic", 1, 2, false, "vet_id is projected into ByClinic")}},
		{name: "removing the sparse key leaves the index",
			op: update("1", "REMOVE open_clinic_id"),
			want: []IndexWriteLoad{sampled("ByClinic", 1, 2, false, "open_clinic_id is projected into ByClinic"),
				sampled("Open", 1, 1, false, leavesOpen)}},
		{name: "setting the sparse key enters the index",
			op: update("2", "SET open_clinic_id = :c", ":c", "C1"),
			want: []IndexWriteLoad{sampled("ByClinic", 1, 2, false, "open_clinic_id is projected into ByClinic"),
				sampled("Open", 1, 1, false, entersOpen)}},
		{name: "a put writes every index the item is in",
			op: designer.Operation{Op: "PutItem", Values: vals(":pk", "APPT#3", ":sk", "APPT", ":vet_id", "V3", ":day", "2026-02-01",
				":clinic_id", "C1", ":status", "OPEN")},
			want: []IndexWriteLoad{sampled("ByVet", 1, 1, false, "the item put is in ByVet: a put"),
				sampled("ByClinic", 1, 1, false, "the item put is in ByClinic: a put")}},
		{name: "a put over an item deletes its old entries where its keys change or go",
			op: designer.Operation{Op: "PutItem", Values: vals(":pk", "APPT#1", ":sk", "APPT", ":vet_id", "V9", ":day", "2026-01-05",
				":clinic_id", "C1", ":status", "DONE")},
			want: []IndexWriteLoad{sampled("ByVet", 2, 2, true, vetKeyChange),
				sampled("ByClinic", 1, 1, false, "notes, open_clinic_id, status and vet_id are projected into ByClinic"),
				sampled("Open", 1, 1, false, "the item put has no open_clinic_id (the key of Open): its old entry is deleted")}},
		{name: "a delete removes the item's entries",
			op: designer.Operation{Op: "DeleteItem", KeyCondition: "pk = :pk AND sk = :sk", Values: key("1")},
			want: []IndexWriteLoad{sampled("ByVet", 1, 1, false, "the item is deleted: its entry in ByVet is deleted"),
				sampled("ByClinic", 1, 2, false, "the item is deleted: its entry in ByClinic is deleted"),
				sampled("Open", 1, 1, false, "the item is deleted: its entry in Open is deleted")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.op.Names = map[string]string{}
			if strings.Contains(tt.op.Update, "#s") {
				tt.op.Names["#s"] = "status"
			}
			ol := indexWritesOf(t, clinic(), []string{"Appointment"}, tt.op)
			if ol.Note != "" {
				t.Fatalf("note: %s", ol.Note)
			}
			if !reflect.DeepEqual(ol.IndexWrites, tt.want) {
				t.Errorf("index writes:\n got %+v\nwant %+v", ol.IndexWrites, tt.want)
			}
		})
	}
}

func TestIndexWrites_fromTheClauses(t *testing.T) {
	// Without values the update is completed from the first sample item that holds what its
	// placeholders stand for, the vet v1 where only the key is missing: its index writes are
	// estimated from its clauses, for an appointment.
	missing := func(expr string, kv ...string) designer.Operation {
		return designer.Operation{Op: "UpdateItem", KeyCondition: "pk = :pk AND sk = :sk", Update: expr, Values: vals(kv...)}
	}
	est := func(ix string, writes, units float64, keyChange bool, reason, sizeFrom string) IndexWriteLoad {
		return IndexWriteLoad{Index: ix, Writes: writes, Units: units, KeyChange: keyChange, Reason: reason, WritesFrom: FromClauses, SizeFrom: sizeFrom}
	}
	byClinic := func(attr string) IndexWriteLoad {
		return est("ByClinic", 1, 2, false, attr+" is projected into ByClinic", FromSamples)
	}
	// Only a1 of the two appointments is open: a put or delete of an appointment is counted for an
	// open one.
	someOpen := " (for an item in it: only some Appointment items are)"
	empty := clinic()
	empty.Items = nil
	unknown := " (counted as in it: no sample Appointment item says)"
	// An entity type without sample items says nothing of the items a pattern naming no entity
	// writes, where others have some.
	invoiceFirst := clinic()
	invoiceFirst.EntityTypes = append([]designer.EntityType{{Entity: "Invoice", PKTemplate: "INV#{invoice_id}", SKTemplate: "INV"}}, invoiceFirst.EntityTypes...)
	tests := []struct {
		name      string
		table     designer.Table
		entities  []string
		op        designer.Operation
		cannotRun bool
		want      []IndexWriteLoad
	}{
		{name: "a projected attribute: INCLUDE and ALL write, KEYS_ONLY does not",
			op: missing("SET #s = :s"), want: []IndexWriteLoad{est("ByVet", 1, 1, false, statusInByVet, FromSamples), byClinic("status")}},
		{name: "an attribute INCLUDE does not list writes ALL only",
			op: missing("SET notes = :n"), want: []IndexWriteLoad{byClinic("notes")}},
		{name: "a key change is a delete and a put",
			op: missing("SET vet_id = :v"), want: []IndexWriteLoad{est("ByVet", 2, 2, true, vetKeyChange, FromSamples), byClinic("vet_id")}},
		{name: "removing the sparse key leaves the index",
			op: missing("REMOVE open_clinic_id"), want: []IndexWriteLoad{byClinic("open_clinic_id"), est("Open", 1, 1, false, leavesOpen, FromSamples)}},
		{name: "setting the sparse key enters the index",
			op: missing("SET open_clinic_id = :c"), want: []IndexWriteLoad{byClinic("open_clinic_id"), est("Open", 1, 1, false, entersOpen, FromSamples)}},
		{name: "closing an appointment: SET status, REMOVE the sparse key",
			op: missing("SET #s = :s REMOVE open_clinic_id"),
			want: []IndexWriteLoad{est("ByVet", 1, 1, false, statusInByVet, FromSamples),
				est("ByClinic", 1, 2, false, "open_clinic_id and status are projected into ByClinic", FromSamples),
				est("Open", 1, 1, false, leavesOpen, FromSamples)}},
		{name: "an update without an Update sets its values",
			op:   designer.Operation{Op: "UpdateItem", KeyCondition: "pk = :pk AND sk = :sk", Values: vals(":status", "DONE")},
			want: []IndexWriteLoad{est("ByVet", 1, 1, false, statusInByVet, FromSamples), byClinic("status")}},
		{name: "a put without values is an appointment like the samples",
			op: designer.Operation{Op: "PutItem"}, cannotRun: true,
			want: []IndexWriteLoad{est("ByVet", 1, 1, false, "the item put is in ByVet: a put", FromSamples),
				est("ByClinic", 1, 2, false, "the item put is in ByClinic: a put", FromSamples),
				est("Open", 1, 1, false, "the item put is in Open: a put"+someOpen, FromSamples)}},
		{name: "a put of values writes the indexes whose keys they carry",
			op: designer.Operation{Op: "PutItem", Values: vals(":vet_id", "V3", ":day", "2026-02-01", ":clinic_id", "C1")}, cannotRun: true,
			want: []IndexWriteLoad{est("ByVet", 1, 1, false, "the item put carries vet_id and day (keys of ByVet): a put", FromSamples),
				est("ByClinic", 1, 2, false, "the item put carries clinic_id (the key of ByClinic): a put", FromSamples)}},
		{name: "a delete removes the item's entries",
			op: designer.Operation{Op: "DeleteItem", KeyCondition: "pk = :pk", Values: vals(":pk", "APPT#1")}, cannotRun: true,
			want: []IndexWriteLoad{est("ByVet", 1, 1, false, "the item is deleted: its entry in ByVet is deleted", FromSamples),
				est("ByClinic", 1, 2, false, "the item is deleted: its entry in ByClinic is deleted", FromSamples),
				est("Open", 1, 1, false, "the item is deleted: its entry in Open is deleted"+someOpen, FromSamples)}},
		{name: "a pattern naming no entity writes the entity types the samples hold", table: invoiceFirst, entities: []string{},
			op: missing("SET #s = :s"), want: []IndexWriteLoad{est("ByVet", 1, 1, false, statusInByVet, FromSamples), byClinic("status")}},
		{name: "a vet's items are in no index", entities: []string{"Vet"},
			op: missing("SET #s = :s")},
		{name: "without sample items every index is counted, entries at the default 1 KB", table: empty,
			op: missing("SET vet_id = :v"), cannotRun: true,
			want: []IndexWriteLoad{est("ByVet", 2, 2, true, vetKeyChange+unknown, FromDefault),
				est("ByClinic", 1, 1, false, "vet_id is projected into ByClinic"+unknown, FromDefault)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.op.Update, "#s") {
				tt.op.Names = map[string]string{"#s": "status"}
			}
			table := tt.table
			if table.Name == "" {
				table = clinic()
			}
			entities := tt.entities
			if entities == nil {
				entities = []string{"Appointment"}
			}
			ol := indexWritesOf(t, table, entities, tt.op)
			estimated := strings.Contains(ol.Note, "cannot run on the sample items") && strings.Contains(ol.Note, "index writes estimated from its clauses")
			if tt.cannotRun && !estimated || !tt.cannotRun && ol.Note != "" {
				t.Errorf("note = %q, want it to say the write cannot run: %v", ol.Note, tt.cannotRun)
			}
			if !reflect.DeepEqual(ol.IndexWrites, tt.want) {
				t.Errorf("index writes:\n got %+v\nwant %+v", ol.IndexWrites, tt.want)
			}
		})
	}
}

func TestIndexWrites_aBatchCountsEachItem(t *testing.T) {
	// 25 appointments deleted per request (the result bound): 25 entries of each index, ByClinic's
	// at 2 KB each.
	one := 1.0
	op := designer.Operation{Op: "BatchWriteItem", Table: "Clinic", KeyCondition: "pk = :pk", Action: designer.ActionDelete}
	d := designer.Design{Name: "clinic", Tables: []designer.Table{clinic()}, Patterns: []designer.Pattern{{ID: "p", Number: 1,
		Type: designer.Write, PeakRPS: &one, ResultBound: "25 items", Entities: []string{"Appointment"},
		Mapping: designer.Mapping{Operations: []designer.Operation{op}}}}}
	ol := Compute(d, nil).Patterns[0].Operations[0]
	got := map[string][2]float64{}
	for _, iw := range ol.IndexWrites {
		got[iw.Index] = [2]float64{iw.Writes, iw.Units}
	}
	want := map[string][2]float64{"ByVet": {25, 25}, "ByClinic": {25, 50}, "Open": {25, 25}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("index writes = %v, want %v (note %q)", got, want, ol.Note)
	}
}

// The index writes estimated from a write's clauses follow the sample items of its entities:
// after each edit, the report taken over from the last one is the one worked out afresh.
func TestComputeFrom_estimatedIndexWritesFollowTheItems(t *testing.T) {
	one := 1.0
	write := func(n int, update string) designer.Pattern {
		op := designer.Operation{Op: "UpdateItem", Table: "Clinic", KeyCondition: "pk = :pk AND sk = :sk", Update: update,
			Names: map[string]string{"#s": "status"}}
		if !strings.Contains(update, "#s") {
			op.Names = nil
		}
		return designer.Pattern{ID: "p" + string(rune('0'+n)), Number: n, Type: designer.Write, PeakRPS: &one, AvgRPS: &one,
			Entities: []string{"Appointment"}, Mapping: designer.Mapping{Operations: []designer.Operation{op}}}
	}
	d := designer.Design{Name: "clinic", Tables: []designer.Table{clinic()},
		Patterns: []designer.Pattern{write(1, "SET open_clinic_id = :c"), write(2, "SET #s = :s")}}
	openWrites := func(r Report) float64 {
		for _, iw := range r.Patterns[0].Operations[0].IndexWrites {
			if iw.Index == "Open" {
				return iw.Writes
			}
		}
		return 0
	}
	byClinicUnits := func(r Report) float64 {
		for _, iw := range r.Patterns[1].Operations[0].IndexWrites {
			if iw.Index == "ByClinic" {
				return iw.Units
			}
		}
		return 0
	}
	c := dynamo.NewCache().For(d)
	r, memo := ComputeFrom(d, c, nil)
	if openWrites(r) != 1 || byClinicUnits(r) != 2 {
		t.Fatalf("before the edits: %v writes to Open, %v units on ByClinic; want 1 (a2 enters it) and 2", openWrites(r), byClinicUnits(r))
	}
	for _, e := range []struct {
		change            designer.Change
		open, clinicUnits float64
	}{
		// Every appointment open: setting open_clinic_id moves an entry, a delete and a put.
		{designer.SetItemCell{Table: "Clinic", ID: "a2", Attribute: "open_clinic_id", Text: "C2"}, 2, 2},
		{designer.SetItemCell{Table: "Clinic", ID: "a2", Attribute: "open_clinic_id", Text: ""}, 1, 2},
		// a1's notes short: ByClinic's entries average (82 + 1,561) / 2 = 821.5 B, 1 unit.
		{designer.SetItemCell{Table: "Clinic", ID: "a1", Attribute: "notes", Text: "short"}, 1, 1},
		// a1 alone, open: a key change again.
		{designer.DeleteItems{Table: "Clinic", IDs: []string{"a2"}}, 2, 1},
	} {
		next, err := e.change.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", e.change.Summary(), err)
		}
		c = c.For(next)
		fresh := Compute(next, nil)
		var got Report
		got, memo = ComputeFrom(next, c, memo)
		if !reflect.DeepEqual(got, fresh) {
			t.Fatalf("after %q the report taken over differs from Compute's: %s", e.change.Summary(), firstDifference(got, fresh))
		}
		if openWrites(got) != e.open || byClinicUnits(got) != e.clinicUnits {
			t.Errorf("after %q: %v writes to Open, %v units on ByClinic; want %v and %v", e.change.Summary(), openWrites(got), byClinicUnits(got), e.open, e.clinicUnits)
		}
		d = next
	}
}

func TestNewDocument_indexWritesSayWhy(t *testing.T) {
	one := 1.0
	op := designer.Operation{Op: "UpdateItem", Table: "Clinic", KeyCondition: "pk = :pk AND sk = :sk", Update: "REMOVE open_clinic_id"}
	d := designer.Design{Name: "clinic", Tables: []designer.Table{clinic()}, Patterns: []designer.Pattern{{ID: "p", Number: 1,
		Type: designer.Write, PeakRPS: &one, Entities: []string{"Appointment"}, Mapping: designer.Mapping{Operations: []designer.Operation{op}}}}}
	b, err := json.Marshal(NewDocument(d, Compute(d, nil)).Patterns[0].Operations[0].IndexWrites)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"index":"ByClinic","writes":1,"units":2,"key_change":false,"reason":"open_clinic_id is projected into ByClinic","writes_from":"write clauses (estimated)","size_from":"sample items"},` +
		`{"index":"Open","writes":1,"units":1,"key_change":false,"reason":"` + leavesOpen + `","writes_from":"write clauses (estimated)","size_from":"sample items"}]`
	if string(b) != want {
		t.Errorf("index_writes = %s\nwant %s", b, want)
	}
}
