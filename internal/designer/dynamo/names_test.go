package dynamo

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"dynaloom/internal/designer"
)

// The attribute names a Cache made For each revision gives are those the items hold, counted
// afresh, while cells are set and cleared and items added, duplicated, pasted and deleted.
func TestCacheAttributeNames_followEveryItemEdit(t *testing.T) {
	t.Parallel()
	tb := designer.Table{Name: "T", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}}
	for i := range 50 {
		tb.Items = append(tb.Items, designer.SampleItem{ID: fmt.Sprint("i", i), Item: designer.Item{"pk": designer.Str(fmt.Sprint("p", i)), "a": designer.Str("x")}})
	}
	d := designer.Design{Name: "D", Tables: []designer.Table{tb}}
	rng := rand.New(rand.NewPCG(5, 6))
	id := func() string { return d.Tables[0].Items[rng.IntN(len(d.Tables[0].Items))].ID }
	c := NewCache().For(d)
	for step := range 200 {
		var ch designer.Change
		switch step % 5 {
		case 0:
			ch = designer.SetItemCell{Table: "T", ID: id(), Attribute: fmt.Sprint("n", rng.IntN(6)), Text: "v"}
		case 1:
			ch = designer.SetItemCell{Table: "T", ID: id(), Attribute: fmt.Sprint("n", rng.IntN(6)), Text: ""}
		case 2:
			ch = designer.AddItem{Table: "T", After: id(), Item: designer.Item{"pk": designer.Str(fmt.Sprint("q", step)), fmt.Sprint("m", step%3): designer.Num("1")}}
		case 3:
			ch = designer.DeleteItems{Table: "T", IDs: []string{id()}}
		case 4:
			ch = designer.PasteItems{Table: "T", Text: fmt.Sprintf("pk\tz%d\nr%d\t1\n", step%2, step)}
		}
		next, err := ch.Apply(d)
		if err != nil {
			t.Fatalf("step %d, %s: %v", step, ch.Kind(), err)
		}
		d, c = next, c.For(next)
		want := map[string]bool{}
		for _, it := range d.Tables[0].Items {
			for name := range it.Item {
				want[name] = true
			}
		}
		if got := c.AttributeNames(d.Tables[0]); !slices.Equal(got, slices.Sorted(maps.Keys(want))) {
			t.Fatalf("step %d, %s: names %v, want %v", step, ch.Kind(), got, slices.Sorted(maps.Keys(want)))
		}
	}
}
