package designer

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// A table's key order patched from the revision before (KeyOrder.For) is the order sorted afresh,
// row for row, after each kind of change to its sample items: key and other cells edited, keys
// removed and typed wrong, items added, duplicated, pasted, generated and deleted. Every one of
// those changes is patched, not sorted again.
func TestKeyOrder_forAnEditedTableIsTheOrderSortedAfresh(t *testing.T) {
	t.Parallel()
	tb := Table{Name: "Orders", PartitionKey: KeyAttribute{Name: "pk", Type: S}, SortKey: &KeyAttribute{Name: "sk", Type: N},
		EntityTypes: []EntityType{{Entity: "Customer", PKTemplate: "C#{id}", SKTemplate: "0"}, {Entity: "Order", PKTemplate: "C#{id}"}},
		Attributes:  []Attribute{{Name: "status", Type: S, Generator: &Generator{Kind: "one_of", Values: []string{"A", "B"}}}}}
	for i := range 300 {
		tb.Items = append(tb.Items, SampleItem{ID: fmt.Sprint("i", i), Item: Item{"pk": Str(fmt.Sprintf("C#%d", i%17)), "sk": Num(fmt.Sprint(i % 23)), "status": Str("A")}})
	}
	d := Design{Name: "Shop", Tables: []Table{tb}}
	rng := rand.New(rand.NewPCG(1, 2))
	id := func(d Design) string { return d.Tables[0].Items[rng.IntN(len(d.Tables[0].Items))].ID }
	changes := []func(d Design) Change{
		func(d Design) Change {
			return SetItemCell{Table: "Orders", ID: id(d), Attribute: "sk", Text: fmt.Sprint(rng.IntN(40) - 5)}
		},
		func(d Design) Change {
			return SetItemCell{Table: "Orders", ID: id(d), Attribute: "pk", Text: fmt.Sprintf("C#%d", rng.IntN(20))}
		},
		func(d Design) Change { return SetItemCell{Table: "Orders", ID: id(d), Attribute: "sk", Text: ""} },
		func(d Design) Change { return SetItemCell{Table: "Orders", ID: id(d), Attribute: "pk", Text: ""} },
		func(d Design) Change { return SetItemCell{Table: "Orders", ID: id(d), Attribute: "status", Text: "B"} },
		func(d Design) Change {
			return AddItem{Table: "Orders", Item: Item{"pk": Str("C#3"), "sk": Num(fmt.Sprint(rng.IntN(30)))}}
		},
		func(d Design) Change { return AddItem{Table: "Orders", After: id(d)} },
		func(d Design) Change { return DuplicateItem{Table: "Orders", ID: id(d)} },
		func(d Design) Change { return DeleteItems{Table: "Orders", IDs: []string{id(d)}} },
		func(d Design) Change {
			return PasteItems{Table: "Orders", After: id(d), Text: fmt.Sprintf("pk\tsk\nC#1\t%d\nC#9\t4\n\t7\n", rng.IntN(30))}
		},
		func(d Design) Change { return GenerateSampleItems{Table: "Orders", Count: 5, Seed: rng.Uint64()} },
	}
	o := NewKeyOrder(d.Tables[0])
	for step := range 400 {
		c := changes[step%len(changes)](d)
		next, err := c.Apply(d)
		if err != nil {
			t.Fatalf("step %d, %s: %v", step, c.Kind(), err)
		}
		if _, ok := ItemsEdit(d.Tables[0].Items, next.Tables[0].Items, minOrderPatchCap); !ok {
			t.Fatalf("step %d, %s %+v: not seen as an edit of a few items, the order would be sorted again", step, c.Kind(), c)
		}
		d = next
		o = o.For(d.Tables[0])
		fresh := NewKeyOrder(d.Tables[0])
		if !reflect.DeepEqual(o.Rows, fresh.Rows) || !reflect.DeepEqual(o.at, fresh.at) {
			t.Fatalf("step %d, %s %+v: the patched order differs from the one sorted afresh", step, c.Kind(), c)
		}
		if !reflect.DeepEqual(o.Rows, TableOrder(d.Tables[0])) {
			t.Fatalf("step %d: the patched order is not TableOrder's", step)
		}
		for j := range d.Tables[0].Items {
			if step%10 != 0 {
				break
			}
			if got, want := o.SharesKey(j), sharesKey(d.Tables[0], j); got != want {
				t.Fatalf("step %d: item %d shares its key: %v, want %v", step, j, got, want)
			}
		}
	}
	// A change of the table's key or entity types orders it afresh.
	for _, c := range []Change{
		SetTableKey{Table: "Orders", Which: "sort", Name: "status", Type: "S"},
		SetTableKey{Table: "Orders", Which: "partition", Name: "sk", Type: "N"},
	} {
		next, err := c.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
		d, o = next, o.For(next.Tables[0])
		if !reflect.DeepEqual(o.Rows, TableOrder(d.Tables[0])) {
			t.Fatalf("%s: the order is not the new key's", c.Kind())
		}
	}
}

// ItemsEdit tells apart the changes one edit makes from the rest.
func TestItemsEdit_findsTheItemsOneChangeTouched(t *testing.T) {
	t.Parallel()
	var a []SampleItem
	for i := range 10 {
		a = append(a, SampleItem{ID: fmt.Sprint(i), Item: Item{"n": Num(fmt.Sprint(i))}})
	}
	edited := append([]SampleItem(nil), a...)
	edited[2] = SampleItem{ID: "2", Item: Item{"n": Num("20")}}
	edited[7] = SampleItem{ID: "7", Item: Item{"n": Num("70")}}
	inserted := append(append(append([]SampleItem(nil), a[:4]...), SampleItem{ID: "x", Item: Item{}}), a[4:]...)
	deleted := append(append([]SampleItem(nil), a[:3]...), a[5:]...)
	reordered := append([]SampleItem(nil), a...)
	reordered[1], reordered[8] = reordered[8], reordered[1]
	for _, c := range []struct {
		name           string
		b              []SampleItem
		limit          int
		ok             bool
		removed, added []int
	}{
		{"edited in place", edited, 2, true, []int{2, 7}, []int{2, 7}},
		{"too many edited", edited, 1, false, nil, nil},
		{"inserted", inserted, 2, true, []int{}, []int{4}},
		{"deleted", deleted, 2, true, []int{3, 4}, []int{}},
		{"two far apart swapped", reordered, 2, false, nil, nil},
		{"unchanged", a, 2, true, nil, nil},
	} {
		e, ok := ItemsEdit(a, c.b, c.limit)
		if ok != c.ok || ok && (!reflect.DeepEqual(e.Removed, c.removed) && len(e.Removed)+len(c.removed) > 0 || !reflect.DeepEqual(e.Added, c.added) && len(e.Added)+len(c.added) > 0) {
			t.Errorf("%s: %+v %v, want removed %v added %v (%v)", c.name, e, ok, c.removed, c.added, c.ok)
			continue
		}
		if !ok {
			continue
		}
		for j := range a {
			now, kept := e.NewPosition(j)
			if !kept {
				continue
			}
			if c.b[now].ID != a[j].ID {
				t.Errorf("%s: item %d is said to be at %d, which holds %s", c.name, j, now, c.b[now].ID)
			}
		}
	}
}

// sharesKey is KeyOrder.SharesKey by its definition: another item has every table key attribute
// of item j, equal.
func sharesKey(t Table, j int) bool {
	for i, si := range t.Items {
		if i == j {
			continue
		}
		same := true
		for _, name := range TableKeyNames(t) {
			x, xok := t.Items[j].Item[name]
			y, yok := si.Item[name]
			if !xok || !yok || CompareKeyValues(x, y) != 0 {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}
