package datamodelmd

import (
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

// Every spelling of a write's effect in an operations cell becomes its Update and Condition.
func TestWriteEffectSpellings(t *testing.T) {
	keys := &keySchema{pk: []designer.KeyAttribute{{Name: "pk", Type: designer.S}}}
	for _, c := range []struct {
		cell, update, cond string
		names              map[string]string
		values             map[string]designer.Value
	}{
		{cell: "UpdateItem SET status, REMOVE open_clinic_id", update: "SET #status = :status REMOVE open_clinic_id", names: map[string]string{"#status": "status"}},
		{cell: "UpdateItem SET vet_id = :v", update: "SET vet_id = :v"},
		{cell: "UpdateItem REMOVE open_clinic_id", update: "REMOVE open_clinic_id"},
		{cell: "UpdateItem ADD visit_count :one", update: "ADD visit_count :one"},
		{cell: "UpdateItem ADD visit_count 1", update: "ADD visit_count :visit_count", values: map[string]designer.Value{":visit_count": designer.Num("1")}},
		{cell: "UpdateItem DELETE tags :t", update: "DELETE tags :t"},
		{cell: "PutItem conditional put on owner_id", cond: "attribute_not_exists(owner_id)"},
		{cell: "UpdateItem conditional on owner_id", cond: "attribute_exists(owner_id)"},
		{cell: "DeleteItem conditional on owner_id", cond: "attribute_exists(owner_id)"},
		{cell: "PutItem with attribute_not_exists(pk)", cond: "attribute_not_exists(pk)"},
		{cell: "DeleteItem attribute_exists(pk)", cond: "attribute_exists(pk)"},
		{cell: "UpdateItem if status = OPEN", cond: "#status = :status", names: map[string]string{"#status": "status"}, values: map[string]designer.Value{":status": designer.Str("OPEN")}},
		{cell: "PutItem if not exists", cond: "attribute_not_exists(pk)"},
		{cell: "UpdateItem only if version = :v", cond: "version = :v"},
		{cell: "UpdateItem; Condition: attribute_exists(pk); Update: SET a = :a", update: "SET a = :a", cond: "attribute_exists(pk)"},
	} {
		cells := parseCell(c.cell)
		if len(cells.ops) != 1 {
			t.Fatalf("%q: %d operations", c.cell, len(cells.ops))
		}
		op := cells.ops[0].operation(keys)
		if op.Update != c.update || op.Condition != c.cond || op.Notes != "" {
			t.Errorf("%q: update %q condition %q notes %q, want %q %q and no notes", c.cell, op.Update, op.Condition, op.Notes, c.update, c.cond)
		}
		if len(op.Names)+len(c.names) > 0 && !reflect.DeepEqual(op.Names, c.names) {
			t.Errorf("%q: names %v, want %v", c.cell, op.Names, c.names)
		}
		if len(op.Values)+len(c.values) > 0 && !reflect.DeepEqual(op.Values, c.values) {
			t.Errorf("%q: values %v, want %v", c.cell, op.Values, c.values)
		}
		if n := cells.ops[0].notRead(keys); len(n) != 0 {
			t.Errorf("%q: not read %q", c.cell, n)
		}
	}
	// Prose is no clause: it stays a note.
	for _, cell := range []string{"PutItem + UpdateItem Add comment + update count", "UpdateItem if the owner agrees"} {
		for _, c := range parseCell(cell).ops {
			if op := c.operation(keys); op.Update != "" || op.Condition != "" {
				t.Errorf("%q: read %q %q", cell, op.Update, op.Condition)
			}
		}
	}
}

// A row's Implementation Notes state its one write's effect as often as its operations cell does.
func TestWriteEffectInTheNotes(t *testing.T) {
	for _, c := range []struct {
		cell, notes, update, cond string
	}{
		{"UpdateItem(order_id)", "SET status = COMPLETED, REMOVE open_region: it leaves OpenOrders; the clerk sees it at once",
			"SET #status = :status REMOVE open_region", ""},
		{"UpdateItem(order_id)", "SET status = CANCELLED, REMOVE open_region, if status = OPEN", "SET #status = :status REMOVE open_region", "#status = :status"},
		{"PutItem", "attribute_not_exists(order_id); the order enters OpenOrders", "", "attribute_not_exists(order_id)"},
		{"PutItem", "conditional put on order_id.", "", "attribute_not_exists(order_id)"},
		{"UpdateItem(order_id)", "the clerk sets it when the parcel leaves", "", ""},
	} {
		row := settleRow(cellTables(), c.cell, "Orders", c.notes)
		if len(row.ops) != 1 {
			t.Fatalf("%q: %d operations", c.cell, len(row.ops))
		}
		if op := row.ops[0]; op.Update != c.update || op.Condition != c.cond {
			t.Errorf("%q with notes %q: update %q condition %q, want %q %q", c.cell, c.notes, op.Update, op.Condition, c.update, c.cond)
		}
	}
	// Two operations: the notes say no more which one they mean.
	row := settleRow(cellTables(), "GetItem(order_id)\nUpdateItem(order_id)", "Orders", "SET status = DONE")
	if row.ops[1].Update != "" {
		t.Errorf("two operations: update %q read from the notes", row.ops[1].Update)
	}
}
