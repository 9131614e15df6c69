package dynamo

import (
	"fmt"
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

// A GetItem or BatchGetItem read through a Cache, which finds its item by key in the table's key
// order, returns what a read of every item returns: the last of items sharing a key, numbers
// equal however written, nothing for a key no item has or one only an item of the wrong type
// has, before and after edits that move keys.
func TestCacheGetItem_findsByKeyWhatAReadOfEveryItemFinds(t *testing.T) {
	t.Parallel()
	tb := designer.Table{Name: "T", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.N}, SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.S}}
	for i := range 60 {
		tb.Items = append(tb.Items, designer.SampleItem{ID: fmt.Sprint("i", i), Item: designer.Item{"pk": designer.Num(fmt.Sprint(i % 7)), "sk": designer.Str(fmt.Sprint("s", i%5)), "n": designer.Num(fmt.Sprint(i))}})
	}
	tb.Items = append(tb.Items,
		designer.SampleItem{ID: "typed", Item: designer.Item{"pk": designer.Str("3"), "sk": designer.Str("s9")}},
		designer.SampleItem{ID: "nosk", Item: designer.Item{"pk": designer.Num("3")}})
	d := designer.Design{Name: "D", Tables: []designer.Table{tb}}
	c := NewCache().For(d)
	check := func(step string) {
		t.Helper()
		for _, pk := range []string{"0", "3", "3.0", "6", "9"} {
			for _, sk := range []string{"s0", "s4", "s9", "zz"} {
				values := map[string]designer.Value{":pk": designer.Num(pk), ":sk": designer.Str(sk), ":b": designer.Str("s1")}
				for _, op := range []designer.Operation{
					{Op: "GetItem", Table: "T", KeyCondition: "pk = :pk AND sk = :sk", Values: values},
					{Op: "BatchGetItem", Table: "T", KeyCondition: "pk = :pk AND sk IN (:sk, :b)", Values: values},
				} {
					if got, want := c.RunOperation(d, op), RunOperation(d, op); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: %s %s/%s\n got %+v\nwant %+v", step, op.Op, pk, sk, got, want)
					}
				}
			}
		}
	}
	check("first")
	for i, e := range []designer.SetItemCell{
		{Table: "T", ID: "i8", Attribute: "pk", Text: "9"},
		{Table: "T", ID: "i9", Attribute: "sk", Text: "s9"},
		{Table: "T", ID: "i9", Attribute: "n", Text: "1000"},
		{Table: "T", ID: "i1", Attribute: "pk", Text: "6.00"},
	} {
		next, err := e.Apply(d)
		if err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
		d, c = next, c.For(next)
		check(fmt.Sprint("edit ", i+1))
	}
}
