package rules

import (
	"reflect"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// No edit of a sample item's cells on a 4-table design makes validation check a table's items
// from nothing: a cell that is no key, a GSI key, a sort key moved to a key of its own and a
// partition key moved to another partition are each checked alone, and what ValidateFrom finds is
// what Validate finds afresh. It counts the tables checked whole; not parallel, for the count.
func TestValidateFrom_noItemCellEditChecksATableFromNothing(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 400, GSIs: 8, Patterns: 40})
	c := dynamo.NewCache().For(d)
	_, memo := ValidateFrom(d, c, nil)
	tb := d.Tables[1]
	edits := []designer.SetItemCell{
		{Table: tb.Name, ID: tb.Items[15].ID, Attribute: "note", Text: "edited"},
		{Table: tb.Name, ID: tb.Items[13].ID, Attribute: "status", Text: "OPEN"},
		{Table: tb.Name, ID: tb.Items[12].ID, Attribute: "created_at", Text: "2030-01-01"},
		{Table: tb.Name, ID: tb.Items[17].ID, Attribute: "record_key", Text: "ORDER#2030-01-01#own"},
		{Table: tb.Name, ID: tb.Items[0].ID, Attribute: "record_key", Text: "PROFILE#moved"},
		{Table: tb.Name, ID: tb.Items[22].ID, Attribute: "tenant_id", Text: designer.FormatCell(tb.Items[55].Item["tenant_id"])},
		{Table: d.Tables[3].Name, ID: d.Tables[3].Items[3].ID, Attribute: "total", Text: "12.5"},
	}
	before := coldItemTables.Load()
	for _, e := range edits {
		next, err := e.Apply(d)
		if err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
		d, c = next, c.For(next)
		var got []Finding
		got, memo = ValidateFrom(d, c, memo)
		if want := Validate(d); !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: findings differ from a validation afresh", e)
		}
	}
	if n := coldItemTables.Load() - before; n != 0 {
		t.Fatalf("%d tables were checked whole after item cell edits; each edit is checked alone", n)
	}
}
