package designer

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func itemIDs(tb Table) []string {
	var ids []string
	for _, it := range tb.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

func TestAddItem(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "blank row after an item", change: AddItem{Table: "Orders", After: "i1"},
			check: func(t *testing.T, _, after Design) {
				tb := tableOf(t, after, "Orders")
				if !slices.Equal(itemIDs(tb), []string{"i1", "i4", "i2", "i3"}) {
					t.Errorf("ids %v", itemIDs(tb))
				}
				if tb.Items[1].Item == nil || len(tb.Items[1].Item) != 0 {
					t.Errorf("new item %v", tb.Items[1].Item)
				}
			}},
		{name: "an item at the end", change: AddItem{Table: "Orders", Item: Item{"customer_id": Str("C9")}},
			check: func(t *testing.T, _, after Design) {
				if got := itemOf(t, after, "Orders", "i4"); !reflect.DeepEqual(got, Item{"customer_id": Str("C9")}) {
					t.Errorf("item %v", got)
				}
			}},
		{name: "the first item of a table", change: AddItem{Table: "Products"},
			check: func(t *testing.T, _, after Design) {
				if ids := itemIDs(tableOf(t, after, "Products")); !slices.Equal(ids, []string{"i1"}) {
					t.Errorf("ids %v", ids)
				}
			}},
		{name: "after an unknown item", change: AddItem{Table: "Orders", After: "i9"}, field: "after"},
		{name: "a value without a type", change: AddItem{Table: "Orders", Item: Item{"x": {}}}, field: "item"},
		{name: "unknown table", change: AddItem{Table: "Nope"}, field: "table"},
	})
}

func TestAddItem_idIsHighestPlusOne(t *testing.T) {
	t.Parallel()
	d := ordersDesign(t)
	d, err := DeleteItems{Table: "Orders", IDs: []string{"i2"}}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = AddItem{Table: "Orders"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if ids := itemIDs(tableOf(t, d, "Orders")); !slices.Equal(ids, []string{"i1", "i3", "i4"}) {
		t.Errorf("ids %v: a deleted id must not come back while a higher one exists", ids)
	}
}

func TestDuplicateAndDeleteItems(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "duplicate", change: DuplicateItem{Table: "Orders", ID: "i1"},
			check: func(t *testing.T, before, after Design) {
				tb := tableOf(t, after, "Orders")
				if !slices.Equal(itemIDs(tb), []string{"i1", "i4", "i2", "i3"}) {
					t.Errorf("ids %v", itemIDs(tb))
				}
				if !reflect.DeepEqual(tb.Items[1].Item, itemOf(t, before, "Orders", "i1")) {
					t.Errorf("copy differs")
				}
			}},
		{name: "duplicate unknown", change: DuplicateItem{Table: "Orders", ID: "i9"}, field: "id"},
		{name: "delete two", change: DeleteItems{Table: "Orders", IDs: []string{"i3", "i1"}},
			check: func(t *testing.T, _, after Design) {
				if ids := itemIDs(tableOf(t, after, "Orders")); !slices.Equal(ids, []string{"i2"}) {
					t.Errorf("ids %v", ids)
				}
			}},
		{name: "delete unknown", change: DeleteItems{Table: "Orders", IDs: []string{"i1", "i9"}}, field: "ids"},
		{name: "delete none", change: DeleteItems{Table: "Orders"}, field: "ids"},
	})
}

func TestSetItemCell(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "a declared number", change: SetItemCell{Table: "Orders", ID: "i3", Attribute: "total", Text: "19.99"},
			check: func(t *testing.T, before, after Design) {
				if got := itemOf(t, after, "Orders", "i3")["total"]; !reflect.DeepEqual(got, Num("19.99")) {
					t.Errorf("total %+v", got)
				}
				if !reflect.DeepEqual(itemOf(t, after, "Orders", "i2"), itemOf(t, before, "Orders", "i2")) {
					t.Errorf("another item changed")
				}
			}},
		{name: "a key typed by the key schema", change: SetItemCell{Table: "Orders", ID: "i3", Attribute: "sk", Text: "42"},
			check: func(t *testing.T, _, after Design) {
				if got := itemOf(t, after, "Orders", "i3")["sk"]; !reflect.DeepEqual(got, Str("42")) {
					t.Errorf("sk %+v, want the string 42", got)
				}
			}},
		{name: "an undeclared attribute is inferred", change: SetItemCell{Table: "Orders", ID: "i3", Attribute: "qty", Text: "3"},
			check: func(t *testing.T, _, after Design) {
				if got := itemOf(t, after, "Orders", "i3")["qty"]; !reflect.DeepEqual(got, InferCell("3")) {
					t.Errorf("qty %+v", got)
				}
			}},
		{name: "empty text removes", change: SetItemCell{Table: "Orders", ID: "i2", Attribute: "status", Text: ""},
			check: func(t *testing.T, _, after Design) {
				if _, ok := itemOf(t, after, "Orders", "i2")["status"]; ok {
					t.Errorf("status still set")
				}
			}},
		{name: "empty text on an absent attribute", change: SetItemCell{Table: "Orders", ID: "i3", Attribute: "status", Text: ""}},
		{name: "not a number", change: SetItemCell{Table: "Orders", ID: "i3", Attribute: "total", Text: "cheap"}, field: "tables/Orders/items/i3/total"},
		{name: "unknown item", change: SetItemCell{Table: "Orders", ID: "i9", Attribute: "total", Text: "1"}, field: "id"},
		{name: "no attribute", change: SetItemCell{Table: "Orders", ID: "i3", Attribute: " ", Text: "1"}, field: "attribute"},
	})
	c := SetItemCell{Table: "Orders", ID: "i3", Attribute: "price", Text: "19.99"}
	if got := c.Summary(); got != "Set price of Orders item i3 to 19.99" {
		t.Errorf("summary %q", got)
	}
	// History names the item by its key, as the grid shows it.
	d := ordersDesign(t)
	orders, _, _ := d.TableByName("Orders")
	it, _, _ := orders.ItemByID("i3")
	if got, want := Describe(c, d), "Set price of Orders item "+KeyText(orders, it.Item)+" to 19.99"; got != want || !strings.Contains(got, "customer_id=") {
		t.Errorf("history line %q, want %q", got, want)
	}
	if got := (SetItemCell{Table: "Orders", ID: "i3", Attribute: "price"}).Paths(); !slices.Equal(got, []string{"tables/Orders/items/i3/price"}) {
		t.Errorf("paths %v", got)
	}
}

func TestPasteItems(t *testing.T) {
	t.Parallel()
	tsv := "customer_id\tsk\ttotal\nC7\tPROFILE\t\nC7\tORDER#1\t12.50\n"
	runOrdersCases(t, []changeCase{
		{name: "two rows after an item, one change", change: PasteItems{Table: "Orders", Text: tsv, After: "i1"},
			check: func(t *testing.T, _, after Design) {
				tb := tableOf(t, after, "Orders")
				if !slices.Equal(itemIDs(tb), []string{"i1", "i4", "i5", "i2", "i3"}) {
					t.Errorf("ids %v", itemIDs(tb))
				}
				if got := tb.Items[2].Item["total"]; !reflect.DeepEqual(got, Num("12.50")) {
					t.Errorf("total %+v", got)
				}
				if _, ok := tb.Items[1].Item["total"]; ok {
					t.Errorf("an empty cell made an attribute")
				}
			}},
		{name: "nothing to paste", change: PasteItems{Table: "Orders", Text: "  "}, field: "text"},
		{name: "a bad number", change: PasteItems{Table: "Orders", Text: "customer_id\ttotal\nC7\tcheap\n"}, field: "text"},
		{name: "after an unknown item", change: PasteItems{Table: "Orders", Text: tsv, After: "i9"}, field: "after"},
	})
	c := PasteItems{Table: "Orders", Text: tsv}
	if got := Describe(c, ordersDesign(t)); got != "Pasted 2 items into Orders" {
		t.Errorf("Describe = %q", got)
	}
}

func TestPasteItems_noRowCap(t *testing.T) {
	t.Parallel()
	text := "customer_id\tsk\n"
	for i := range 5000 {
		text += fmt.Sprintf("C%d\tPROFILE\n", i)
	}
	got, err := PasteItems{Table: "Products", Text: "product_id\n" + text[len("customer_id\tsk\n"):]}.Apply(ordersDesign(t))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if n := len(tableOf(t, got, "Products").Items); n != 5000 {
		t.Errorf("%d items, want 5000", n)
	}
	if err := Check(got); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestAddItemColumn(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "new", change: AddItemColumn{Table: "Orders", Attribute: "qty", Type: N},
			check: func(t *testing.T, _, after Design) {
				if a, _, ok := tableOf(t, after, "Orders").AttributeByName("qty"); !ok || a.Type != N {
					t.Errorf("qty %+v", a)
				}
			}},
		{name: "existing is left alone", change: AddItemColumn{Table: "Orders", Attribute: "total", Type: S},
			check: func(t *testing.T, before, after Design) {
				if !reflect.DeepEqual(tableOf(t, after, "Orders"), tableOf(t, before, "Orders")) {
					t.Errorf("table changed")
				}
			}},
		{name: "bad type", change: AddItemColumn{Table: "Orders", Attribute: "qty", Type: "DATE"}, field: "type"},
		{name: "no name", change: AddItemColumn{Table: "Orders", Attribute: ""}, field: "attribute"},
	})
}

func TestFillKeyFromTemplate(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "an empty sort key", change: FillKeyFromTemplate{Table: "Orders", ID: "i3"},
			check: func(t *testing.T, _, after Design) {
				if got := itemOf(t, after, "Orders", "i3")["sk"]; !reflect.DeepEqual(got, Str("ORDER#2025-02-02#A2")) {
					t.Errorf("sk %+v", got)
				}
			}},
		{name: "a key already right is left alone", change: FillKeyFromTemplate{Table: "Orders", ID: "i2"},
			check: func(t *testing.T, before, after Design) {
				if !reflect.DeepEqual(itemOf(t, after, "Orders", "i2"), itemOf(t, before, "Orders", "i2")) {
					t.Errorf("item changed")
				}
			}},
		{name: "the profile keeps its literal sort key", change: FillKeyFromTemplate{Table: "Orders", ID: "i1"},
			check: func(t *testing.T, _, after Design) {
				if got := itemOf(t, after, "Orders", "i1")["sk"]; !reflect.DeepEqual(got, Str("PROFILE")) {
					t.Errorf("sk %+v", got)
				}
			}},
		{name: "unknown item", change: FillKeyFromTemplate{Table: "Orders", ID: "i9"}, field: "id"},
	})
	// A stale key: the order's date changed after its key was written.
	d := ordersDesign(t)
	d, err := SetItemCell{Table: "Orders", ID: "i2", Attribute: "created_at", Text: "2025-03-03"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = FillKeyFromTemplate{Table: "Orders", ID: "i2"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := itemOf(t, d, "Orders", "i2")["sk"]; !reflect.DeepEqual(got, Str("ORDER#2025-03-03#A1")) {
		t.Errorf("stale sk not refreshed: %+v", got)
	}
	// An item none of whose entity types' templates can be filled.
	d, err = AddItem{Table: "Orders", Item: Item{"status": Str("OPEN")}}.Apply(ordersDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = FillKeyFromTemplate{Table: "Orders", ID: "i4"}.Apply(d)
	wantValidationError(t, err, "id")
	// A table without templates.
	d, err = AddItem{Table: "Products"}.Apply(ordersDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = FillKeyFromTemplate{Table: "Products", ID: "i1"}.Apply(d)
	wantValidationError(t, err, "table")
}

func TestGenerateSampleItems(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "three", change: GenerateSampleItems{Table: "Orders", Count: 3, Seed: 7},
			check: func(t *testing.T, _, after Design) {
				if ids := itemIDs(tableOf(t, after, "Orders")); !slices.Equal(ids, []string{"i1", "i2", "i3", "i4", "i5", "i6"}) {
					t.Errorf("ids %v", ids)
				}
			}},
		{name: "the most", change: GenerateSampleItems{Table: "Products", Count: MaxGeneratedItems, Seed: 1}},
		{name: "none", change: GenerateSampleItems{Table: "Orders", Count: 0}, field: "count"},
		{name: "too many", change: GenerateSampleItems{Table: "Orders", Count: MaxGeneratedItems + 1}, field: "count"},
	})
	d := ordersDesign(t)
	d, err := SetAttributeGenerator{Table: "Orders", Attribute: "status", Generator: &Generator{Kind: "one_of", Values: []string{"SHIPPED"}}}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := GenerateSampleItems{Table: "Orders", Count: 5, Seed: 3}.Apply(d)
	b, errB := GenerateSampleItems{Table: "Orders", Count: 5, Seed: 3}.Apply(d)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the same seed gave different items")
	}
	if got := itemOf(t, a, "Orders", "i8")["status"]; !reflect.DeepEqual(got, Str("SHIPPED")) {
		t.Errorf("generator not used: status %+v", got)
	}
}
