package dynamo

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"dynaloom/internal/designer"
)

// The grid views of a table's indexes read through a Cache made For each revision are those
// IndexItems gives afresh, row for row, while cells of the items are edited whatever they do to
// the index keys: moved within and across partitions, taken out of a sparse index and put back,
// given a wrong type or an empty value, and the table's own keys changed. None of those views is
// sorted again from nothing. Not parallel: it counts the views sorted.
func TestCacheIndexItems_keyEditsMoveEntriesAsASortAfreshPlacesThem(t *testing.T) {
	tb := designer.Table{Name: "T", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}, SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.N},
		GSIs: []designer.Index{
			{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}}, SortKey: []designer.KeyAttribute{{Name: "at", Type: designer.N}},
				Projection: designer.Projection{Type: designer.All}},
			{Name: "ByTwo", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}, {Name: "pk", Type: designer.S}},
				Projection: designer.Projection{Type: designer.Include, Attributes: []string{"note"}}},
		},
		LSIs: []designer.Index{{Name: "ByAt", SortKey: []designer.KeyAttribute{{Name: "at", Type: designer.N}}, Projection: designer.Projection{Type: designer.KeysOnly}}},
	}
	for i := range 200 {
		it := designer.Item{"pk": designer.Str(fmt.Sprint("P", i%13)), "sk": designer.Num(fmt.Sprint(i)), "at": designer.Num(fmt.Sprint(i % 7)), "note": designer.Str("n")}
		if i%5 != 0 {
			it["status"] = designer.Str(fmt.Sprint("S", i%4))
		}
		tb.Items = append(tb.Items, designer.SampleItem{ID: fmt.Sprint("i", i), Item: it})
	}
	d := designer.Design{Name: "D", Tables: []designer.Table{tb}}
	rng := rand.New(rand.NewPCG(3, 4))
	texts := map[string][]string{
		"status": {"S0", "S1", "S9", "", "null", "A"},
		"at":     {"0", "3", "-1", "2.5", "", "x"},
		"pk":     {"P0", "P5", "Q", ""},
		"sk":     {"-3", "7", "500", ""},
		"note":   {"m", ""},
	}
	names := []string{"status", "at", "pk", "sk", "note"}
	views := func(c *Cache, d designer.Design, step string) {
		t.Helper()
		tb := d.Tables[0]
		for _, ix := range slices.Concat(tb.GSIs, tb.LSIs) {
			lsi := len(ix.PartitionKey) == 0
			got, want := c.IndexItems(tb, ix, lsi), IndexItems(tb, ix, lsi)
			if reflect.DeepEqual(got, want) {
				continue
			}
			for i := range min(len(got.Rows), len(want.Rows)) {
				if !reflect.DeepEqual(got.Rows[i], want.Rows[i]) {
					t.Fatalf("%s: view of %s: row %d is %+v, want %+v", step, ix.Name, i, got.Rows[i], want.Rows[i])
				}
			}
			t.Fatalf("%s: view of %s: %d rows, %d left out (%v), want %d, %d (%v)", step, ix.Name, len(got.Rows), len(got.Excluded), got.Excluded, len(want.Rows), len(want.Excluded), want.Excluded)
		}
	}
	c := NewCache().For(d)
	views(c, d, "first")
	before := sortedViews.Load()
	for range 300 {
		cell := designer.SetItemCell{Table: "T", ID: d.Tables[0].Items[rng.IntN(200)].ID}
		cell.Attribute = names[rng.IntN(len(names))]
		cell.Text = texts[cell.Attribute][rng.IntN(len(texts[cell.Attribute]))]
		next, err := cell.Apply(d)
		if err != nil {
			continue // an empty key value the change refuses
		}
		d, c = next, c.For(next)
		views(c, d, fmt.Sprintf("%+v", cell))
	}
	if n := sortedViews.Load() - before; n != 0 {
		t.Fatalf("%d views were sorted from nothing after a cell edit; each is patched", n)
	}
}
