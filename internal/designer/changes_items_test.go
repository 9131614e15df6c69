package designer_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func itemIDs(tb designer.Table) []string {
	var ids []string
	for _, it := range tb.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

func TestAddItem(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "blank row after an item", Change: designer.AddItem{Table: "Orders", After: "i1"},
			Check: func(t *testing.T, _, after designer.Design) {
				tb := tableOf(t, after, "Orders")
				if !slices.Equal(itemIDs(tb), []string{"i1", "i4", "i2", "i3"}) {
					t.Errorf("ids %v", itemIDs(tb))
				}
				if tb.Items[1].Item == nil || len(tb.Items[1].Item) != 0 {
					t.Errorf("new item %v", tb.Items[1].Item)
				}
			}},
		{Name: "an item at the end", Change: designer.AddItem{Table: "Orders", Item: designer.Item{"customer_id": designer.Str("C9")}},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := itemOf(t, after, "Orders", "i4"); !reflect.DeepEqual(got, designer.Item{"customer_id": designer.Str("C9")}) {
					t.Errorf("item %v", got)
				}
			}},
		{Name: "the first item of a table", Change: designer.AddItem{Table: "Products"},
			Check: func(t *testing.T, _, after designer.Design) {
				if ids := itemIDs(tableOf(t, after, "Products")); !slices.Equal(ids, []string{"i1"}) {
					t.Errorf("ids %v", ids)
				}
			}},
		{Name: "after an unknown item", Change: designer.AddItem{Table: "Orders", After: "i9"}, Field: "after"},
		{Name: "a value without a type", Change: designer.AddItem{Table: "Orders", Item: designer.Item{"x": {}}}, Field: "item"},
		{Name: "unknown table", Change: designer.AddItem{Table: "Nope"}, Field: "table"},
	})
}

func TestAddItem_idIsHighestPlusOne(t *testing.T) {
	t.Parallel()
	d := ordersDesign(t)
	d, err := designer.DeleteItems{Table: "Orders", IDs: []string{"i2"}}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = designer.AddItem{Table: "Orders"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if ids := itemIDs(tableOf(t, d, "Orders")); !slices.Equal(ids, []string{"i1", "i3", "i4"}) {
		t.Errorf("ids %v: a deleted id must not come back while a higher one exists", ids)
	}
}

func TestDuplicateAndDeleteItems(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "duplicate", Change: designer.DuplicateItem{Table: "Orders", ID: "i1"},
			Check: func(t *testing.T, before, after designer.Design) {
				tb := tableOf(t, after, "Orders")
				if !slices.Equal(itemIDs(tb), []string{"i1", "i4", "i2", "i3"}) {
					t.Errorf("ids %v", itemIDs(tb))
				}
				if !reflect.DeepEqual(tb.Items[1].Item, itemOf(t, before, "Orders", "i1")) {
					t.Errorf("copy differs")
				}
			}},
		{Name: "duplicate unknown", Change: designer.DuplicateItem{Table: "Orders", ID: "i9"}, Field: "id"},
		{Name: "delete two", Change: designer.DeleteItems{Table: "Orders", IDs: []string{"i3", "i1"}},
			Check: func(t *testing.T, _, after designer.Design) {
				if ids := itemIDs(tableOf(t, after, "Orders")); !slices.Equal(ids, []string{"i2"}) {
					t.Errorf("ids %v", ids)
				}
			}},
		{Name: "delete unknown", Change: designer.DeleteItems{Table: "Orders", IDs: []string{"i1", "i9"}}, Field: "ids"},
		{Name: "delete none", Change: designer.DeleteItems{Table: "Orders"}, Field: "ids"},
	})
}

func TestSetItemCell(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "a declared number", Change: designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "total", Text: "19.99"},
			Check: func(t *testing.T, before, after designer.Design) {
				if got := itemOf(t, after, "Orders", "i3")["total"]; !reflect.DeepEqual(got, designer.Num("19.99")) {
					t.Errorf("total %+v", got)
				}
				if !reflect.DeepEqual(itemOf(t, after, "Orders", "i2"), itemOf(t, before, "Orders", "i2")) {
					t.Errorf("another item changed")
				}
			}},
		{Name: "a key typed by the key schema", Change: designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "sk", Text: "42"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := itemOf(t, after, "Orders", "i3")["sk"]; !reflect.DeepEqual(got, designer.Str("42")) {
					t.Errorf("sk %+v, want the string 42", got)
				}
			}},
		{Name: "an undeclared attribute is inferred", Change: designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "qty", Text: "3"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := itemOf(t, after, "Orders", "i3")["qty"]; !reflect.DeepEqual(got, designer.InferCell("3")) {
					t.Errorf("qty %+v", got)
				}
			}},
		{Name: "empty text removes", Change: designer.SetItemCell{Table: "Orders", ID: "i2", Attribute: "status", Text: ""},
			Check: func(t *testing.T, _, after designer.Design) {
				if _, ok := itemOf(t, after, "Orders", "i2")["status"]; ok {
					t.Errorf("status still set")
				}
			}},
		{Name: "empty text on an absent attribute", Change: designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "status", Text: ""}},
		{Name: "not a number", Change: designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "total", Text: "cheap"}, Field: "tables/Orders/items/i3/total"},
		{Name: "unknown item", Change: designer.SetItemCell{Table: "Orders", ID: "i9", Attribute: "total", Text: "1"}, Field: "id"},
		{Name: "no attribute", Change: designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: " ", Text: "1"}, Field: "attribute"},
	})
	c := designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "price", Text: "19.99"}
	if got := c.Summary(); got != "Set price of Orders item i3 to 19.99" {
		t.Errorf("summary %q", got)
	}
	// History names the item by its key, as the grid shows it.
	d := ordersDesign(t)
	orders, _, _ := d.TableByName("Orders")
	it, _, _ := orders.ItemByID("i3")
	if got, want := designer.Describe(c, d), "Set price of Orders item "+designer.KeyText(orders, it.Item)+" to 19.99"; got != want || !strings.Contains(got, "customer_id=") {
		t.Errorf("history line %q, want %q", got, want)
	}
	if got := (designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "price"}).Paths(); !slices.Equal(got, []designer.Path{"tables/Orders/items/i3/price"}) {
		t.Errorf("paths %v", got)
	}
}

func TestPasteItems(t *testing.T) {
	t.Parallel()
	tsv := "customer_id\tsk\ttotal\nC7\tPROFILE\t\nC7\tORDER#1\t12.50\n"
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "two rows after an item, one change", Change: designer.PasteItems{Table: "Orders", Text: tsv, After: "i1"},
			Check: func(t *testing.T, _, after designer.Design) {
				tb := tableOf(t, after, "Orders")
				if !slices.Equal(itemIDs(tb), []string{"i1", "i4", "i5", "i2", "i3"}) {
					t.Errorf("ids %v", itemIDs(tb))
				}
				if got := tb.Items[2].Item["total"]; !reflect.DeepEqual(got, designer.Num("12.50")) {
					t.Errorf("total %+v", got)
				}
				if _, ok := tb.Items[1].Item["total"]; ok {
					t.Errorf("an empty cell made an attribute")
				}
			}},
		{Name: "nothing to paste", Change: designer.PasteItems{Table: "Orders", Text: "  "}, Field: "text"},
		{Name: "a bad number", Change: designer.PasteItems{Table: "Orders", Text: "customer_id\ttotal\nC7\tcheap\n"}, Field: "text"},
		{Name: "after an unknown item", Change: designer.PasteItems{Table: "Orders", Text: tsv, After: "i9"}, Field: "after"},
	})
	c := designer.PasteItems{Table: "Orders", Text: tsv}
	if got := designer.Describe(c, ordersDesign(t)); got != "Pasted 2 items into Orders" {
		t.Errorf("Describe = %q", got)
	}
}

func TestPasteItems_noRowCap(t *testing.T) {
	t.Parallel()
	text := "customer_id\tsk\n"
	for i := range 5000 {
		text += fmt.Sprintf("C%d\tPROFILE\n", i)
	}
	got, err := designer.PasteItems{Table: "Products", Text: "product_id\n" + text[len("customer_id\tsk\n"):]}.Apply(ordersDesign(t))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if n := len(tableOf(t, got, "Products").Items); n != 5000 {
		t.Errorf("%d items, want 5000", n)
	}
	if err := designer.Check(got); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestAddItemColumn(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "new", Change: designer.AddItemColumn{Table: "Orders", Attribute: "qty", Type: designer.N},
			Check: func(t *testing.T, _, after designer.Design) {
				if a, _, ok := tableOf(t, after, "Orders").AttributeByName("qty"); !ok || a.Type != designer.N {
					t.Errorf("qty %+v", a)
				}
			}},
		{Name: "existing is left alone", Change: designer.AddItemColumn{Table: "Orders", Attribute: "total", Type: designer.S},
			Check: func(t *testing.T, before, after designer.Design) {
				if !reflect.DeepEqual(tableOf(t, after, "Orders"), tableOf(t, before, "Orders")) {
					t.Errorf("table changed")
				}
			}},
		{Name: "bad type", Change: designer.AddItemColumn{Table: "Orders", Attribute: "qty", Type: "DATE"}, Field: "type"},
		{Name: "no name", Change: designer.AddItemColumn{Table: "Orders", Attribute: ""}, Field: "attribute"},
	})
}

func TestFillKeyFromTemplate(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "an empty sort key", Change: designer.FillKeyFromTemplate{Table: "Orders", ID: "i3"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := itemOf(t, after, "Orders", "i3")["sk"]; !reflect.DeepEqual(got, designer.Str("ORDER#2025-02-02#A2")) {
					t.Errorf("sk %+v", got)
				}
			}},
		{Name: "a key already right is left alone", Change: designer.FillKeyFromTemplate{Table: "Orders", ID: "i2"},
			Check: func(t *testing.T, before, after designer.Design) {
				if !reflect.DeepEqual(itemOf(t, after, "Orders", "i2"), itemOf(t, before, "Orders", "i2")) {
					t.Errorf("item changed")
				}
			}},
		{Name: "the profile keeps its literal sort key", Change: designer.FillKeyFromTemplate{Table: "Orders", ID: "i1"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := itemOf(t, after, "Orders", "i1")["sk"]; !reflect.DeepEqual(got, designer.Str("PROFILE")) {
					t.Errorf("sk %+v", got)
				}
			}},
		{Name: "unknown item", Change: designer.FillKeyFromTemplate{Table: "Orders", ID: "i9"}, Field: "id"},
	})
	// A stale key: the order's date changed after its key was written.
	d := ordersDesign(t)
	d, err := designer.SetItemCell{Table: "Orders", ID: "i2", Attribute: "created_at", Text: "2025-03-03"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = designer.FillKeyFromTemplate{Table: "Orders", ID: "i2"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := itemOf(t, d, "Orders", "i2")["sk"]; !reflect.DeepEqual(got, designer.Str("ORDER#2025-03-03#A1")) {
		t.Errorf("stale sk not refreshed: %+v", got)
	}
	// An item none of whose entity types' templates can be filled.
	d, err = designer.AddItem{Table: "Orders", Item: designer.Item{"status": designer.Str("OPEN")}}.Apply(ordersDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = designer.FillKeyFromTemplate{Table: "Orders", ID: "i4"}.Apply(d)
	designertest.WantValidationError(t, err, "id")
	// A table without templates.
	d, err = designer.AddItem{Table: "Products"}.Apply(ordersDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = designer.FillKeyFromTemplate{Table: "Products", ID: "i1"}.Apply(d)
	designertest.WantValidationError(t, err, "table")
}

func TestGenerateSampleItems(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "three", Change: designer.GenerateSampleItems{Table: "Orders", Count: 3, Seed: 7},
			Check: func(t *testing.T, _, after designer.Design) {
				if ids := itemIDs(tableOf(t, after, "Orders")); !slices.Equal(ids, []string{"i1", "i2", "i3", "i4", "i5", "i6"}) {
					t.Errorf("ids %v", ids)
				}
			}},
		{Name: "the most", Change: designer.GenerateSampleItems{Table: "Products", Count: designer.MaxGeneratedItems, Seed: 1}},
		{Name: "none", Change: designer.GenerateSampleItems{Table: "Orders", Count: 0}, Field: "count"},
		{Name: "too many", Change: designer.GenerateSampleItems{Table: "Orders", Count: designer.MaxGeneratedItems + 1}, Field: "count"},
	})
	d := ordersDesign(t)
	d, err := designer.SetAttributeGenerator{Table: "Orders", Attribute: "status", Generator: &designer.Generator{Kind: "one_of", Values: []string{"SHIPPED"}}}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	a, errA := designer.GenerateSampleItems{Table: "Orders", Count: 5, Seed: 3}.Apply(d)
	b, errB := designer.GenerateSampleItems{Table: "Orders", Count: 5, Seed: 3}.Apply(d)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the same seed gave different items")
	}
	if got := itemOf(t, a, "Orders", "i8")["status"]; !reflect.DeepEqual(got, designer.Str("SHIPPED")) {
		t.Errorf("generator not used: status %+v", got)
	}
}
