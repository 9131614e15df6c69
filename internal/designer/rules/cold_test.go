package rules

import (
	"maps"
	"reflect"
	"slices"
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

// No add, paste, generation, duplication or deletion of sample items on a 4-table design makes
// validation check a table's items from nothing: the run of items added or removed is checked
// alone, and what ValidateFrom finds is what Validate finds afresh. MOD010, which compares items
// with each other, runs over the whole table exactly for the two edits that make and break a
// duplicate key (a duplicated item, then its deletion), and for no other.
func TestValidateFrom_noItemAddOrDeleteChecksATableFromNothing(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 400, GSIs: 8, Patterns: 40})
	c := dynamo.NewCache().For(d)
	_, memo := ValidateFrom(d, c, nil)
	tb := d.Tables[1]
	first, dup := tb.Items[0], tb.Items[40]
	pk, sk := tb.PartitionKey.Name, tb.SortKey.Name
	fresh := designer.Item{pk: first.Item[pk], sk: designer.Str("FRESH#1"), "note": designer.Str("null")}
	edits := []struct {
		change designer.Change
		dupKey bool // it makes or breaks a duplicate key
	}{
		{change: designer.AddItem{Table: tb.Name, Item: fresh, After: tb.Items[10].ID}},
		{change: designer.AddItem{Table: tb.Name}},                        // a blank row at the end
		{change: designer.AddItem{Table: tb.Name, After: tb.Items[5].ID}}, // and one in the middle
		{change: designer.DuplicateItem{Table: tb.Name, ID: dup.ID}, dupKey: true},
		{change: designer.DeleteItems{Table: tb.Name, IDs: []string{first.ID}}},
		{change: designer.PasteItems{Table: tb.Name, After: tb.Items[20].ID,
			Text: pk + "\t" + sk + "\tnote\n" + "pasted\tP#1\tnull\npasted\tP#2\tone\n"}},
		{change: designer.GenerateSampleItems{Table: d.Tables[2].Name, Count: 5, Seed: 7}},
		{change: designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[3].ID, tb.Items[60].ID}}},
	}
	before, beforeDup := coldItemTables.Load(), coldDuplicateKeyTables.Load()
	wantDup := int64(0)
	for _, e := range edits {
		next, err := e.change.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", e.change.Kind(), err)
		}
		d, c = next, c.For(next)
		var got []Finding
		got, memo = ValidateFrom(d, c, memo)
		if want := Validate(d); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %+v: findings differ from a validation afresh", e.change.Kind(), e.change)
		}
		if e.dupKey {
			wantDup++
		}
		// The duplicate's deletion, right after it was made.
		if _, ok := e.change.(designer.DuplicateItem); ok {
			copyAt := slices.IndexFunc(d.Tables[1].Items, func(it designer.SampleItem) bool { return it.ID == dup.ID }) + 1
			del := designer.DeleteItems{Table: tb.Name, IDs: []string{d.Tables[1].Items[copyAt].ID}}
			if d, err = del.Apply(d); err != nil {
				t.Fatalf("delete the duplicate: %v", err)
			}
			c = c.For(d)
			got, memo = ValidateFrom(d, c, memo)
			if want := Validate(d); !reflect.DeepEqual(got, want) {
				t.Fatalf("deleting the duplicate: findings differ from a validation afresh")
			}
			wantDup++
		}
	}
	if n := coldItemTables.Load() - before; n != 0 {
		t.Errorf("%d tables were checked whole after items were added or deleted; each run is checked alone", n)
	}
	if n := coldDuplicateKeyTables.Load() - beforeDup; n != wantDup {
		t.Errorf("MOD010 ran over a whole table %d times, want %d (the edits that make or break a duplicate key)", n, wantDup)
	}
}

// A pattern whose Query reads the partition an item is deleted from, or added to, is run again:
// its MAP009 finding, which lists the keys the Query returns against an expected result of none,
// follows the items; what ValidateFrom finds is what Validate finds afresh.
func TestValidateFrom_itemAddedOrDeletedInAReadPartitionRunsItsReadAgain(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 400, GSIs: 8, Patterns: 40})
	tb := d.Tables[1]
	var read designer.Item
	for pi := range d.Patterns {
		for oi, op := range d.Patterns[pi].Mapping.Operations {
			if op.Table != tb.Name || op.Op != "Query" || op.Index != "" {
				continue
			}
			if _, ok := dynamo.ReadPartition(tb, op); !ok {
				continue
			}
			if res := dynamo.NewCache().RunOperation(d, op); res.Error == "" && len(res.Items) > 1 {
				d.Patterns[pi].Mapping.Operations[oi].Expected = &[]designer.Item{}
				read = res.Items[0]
				break
			}
		}
		if read != nil {
			break
		}
	}
	if read == nil {
		t.Fatal("no pattern of the design queries a partition of two items or more")
	}
	at := slices.IndexFunc(tb.Items, func(it designer.SampleItem) bool { return designer.SameKey(tb, it.Item, read) })
	c := dynamo.NewCache().For(d)
	before, memo := ValidateFrom(d, c, nil)
	for _, e := range []designer.Change{
		designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[at].ID}},
		designer.AddItem{Table: tb.Name, Item: tb.Items[at].Item, After: tb.Items[at+1].ID},
	} {
		next, err := e.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", e.Kind(), err)
		}
		d, c = next, c.For(next)
		var got []Finding
		got, memo = ValidateFrom(d, c, memo)
		if want := Validate(d); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: findings differ from a validation afresh", e.Kind())
		}
		if reflect.DeepEqual(got, before) {
			t.Fatalf("%s changed no finding: the test does not test what it says", e.Kind())
		}
		before = got
	}
}

// MAP012 follows the attribute names an added item brings and a deleted one takes away: an
// operation projecting a name no item of its table holds is reported until an item holds it,
// and again once that item is deleted; what ValidateFrom finds is what Validate finds afresh.
func TestValidateFrom_itemAddedOrDeletedChangesTheNamesATableHolds(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 400, GSIs: 8, Patterns: 40})
	tb := d.Tables[1]
	found := false
	for pi := range d.Patterns {
		ops := d.Patterns[pi].Mapping.Operations
		if k := slices.IndexFunc(ops, func(op designer.Operation) bool { return op.Table == tb.Name && op.Index == "" }); k >= 0 {
			ops[k].Projection = "brand_new"
			found = true
			break
		}
	}
	if !found {
		t.Fatal("no operation of the design reads table " + tb.Name)
	}
	c := dynamo.NewCache().For(d)
	before, memo := ValidateFrom(d, c, nil)
	item := maps.Clone(tb.Items[7].Item)
	item[tb.SortKey.Name] = designer.Str("NAMES#1")
	item["brand_new"] = designer.Str("here")
	d, err := designer.AddItem{Table: tb.Name, Item: item, After: tb.Items[7].ID}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	added := d.Tables[1].Items[8].ID
	for _, e := range []designer.Change{nil, designer.DeleteItems{Table: tb.Name, IDs: []string{added}}} {
		if e != nil {
			if d, err = e.Apply(d); err != nil {
				t.Fatal(err)
			}
		}
		c = c.For(d)
		var got []Finding
		got, memo = ValidateFrom(d, c, memo)
		if want := Validate(d); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %v: findings differ from a validation afresh", e)
		}
		if reflect.DeepEqual(got, before) {
			t.Fatalf("after %v no finding changed: the test does not test what it says", e)
		}
		before = got
	}
}
