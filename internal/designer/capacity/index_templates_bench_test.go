package capacity

import (
	"fmt"
	"maps"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// BenchmarkHotKeys_afterEditBuiltKey is BenchmarkHotKeys_afterEdit on the large design whose
// status indexes are keyed instead by owner_key = TENANT#<tenant_id>, which the order items build:
// each key's templates are read from the items of the table edited again, and taken over for the
// others. Its anchor, in the same run, is BenchmarkHotKeys_afterEdit.
func BenchmarkHotKeys_afterEditBuiltKey(b *testing.B) {
	d := designertest.Large(large)
	d.Entities[0].Count = designertest.Ptr[int64](1000)
	for ti := range d.Tables {
		t := &d.Tables[ti]
		for i := range t.Items {
			it := maps.Clone(t.Items[i].Item)
			if _, ok := it["order_id"]; ok {
				it["owner_key"] = designer.Str("TENANT#" + it["tenant_id"].S)
			}
			t.Items[i].Item = it
		}
		for g := range t.GSIs {
			if t.GSIs[g].PartitionKey[0].Name == "status" {
				t.GSIs[g].PartitionKey = []designer.KeyAttribute{{Name: "owner_key", Type: designer.S}}
			}
		}
	}
	c := dynamo.NewCache().For(d)
	r := Compute(d, c)
	if got := HotKeys(d, r)[1]; got.Attribute != "owner_key" || got.Cardinality.Values != 1000 {
		b.Fatalf("the built key is not counted: %+v", got)
	}
	tb := d.Tables[len(d.Tables)/2]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		next, err := designer.SetItemCell{Table: tb.Name, ID: tb.Items[len(tb.Items)/2].ID, Attribute: "note", Text: fmt.Sprint("edit ", i)}.Apply(d)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		HotKeys(next, r)
		d = next
	}
}
