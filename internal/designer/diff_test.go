package designer

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// diffBase is a small shop design written for these tests: two patterns, one table with a GSI and
// three orders.
func diffBase(tb testing.TB) Design {
	tb.Helper()
	peak, avg := 50.0, 10.0
	limit := 20
	d := Normalize(Design{
		Name:     "Shop",
		Overview: Overview{Domain: "Retail"},
		Entities: []Entity{{Name: "Customer", Attributes: []Attribute{{Name: "customer_id", Type: S}}},
			{Name: "Order", Attributes: []Attribute{{Name: "order_id", Type: S}, {Name: "status", Type: S}}}},
		Patterns: []Pattern{
			{Number: 1, Description: "Get a customer's orders", Type: Read, PeakRPS: &peak, AvgRPS: &avg,
				Mapping: Mapping{Operations: []Operation{{Op: "Query", Table: "Orders", KeyCondition: "customer_id = :c", Limit: &limit}}}},
			{Number: 2, Description: "Place an order", Type: Write, PeakRPS: &peak, AvgRPS: &avg},
		},
		Tables: []Table{{
			Name:         "Orders",
			PartitionKey: KeyAttribute{Name: "customer_id", Type: S},
			SortKey:      &KeyAttribute{Name: "order_id", Type: S},
			GSIs: []Index{{Name: "ByStatus", PartitionKey: []KeyAttribute{{Name: "status", Type: S}},
				Projection: Projection{Type: KeysOnly}}},
			Items: []SampleItem{
				{Item: Item{"customer_id": Str("C1"), "order_id": Str("O1"), "status": Str("open")}},
				{Item: Item{"customer_id": Str("C1"), "order_id": Str("O2"), "status": Str("shipped"), "total": Num("12.5")}},
				{Item: Item{"customer_id": Str("C2"), "order_id": Str("O3"), "status": Str("open")}},
			},
		}},
	})
	if err := Check(d); err != nil {
		tb.Fatalf("test design does not check: %v", err)
	}
	return d
}

// applyAll applies changes in order, failing the test on the first refusal.
func applyAll(tb testing.TB, d Design, changes ...Change) Design {
	tb.Helper()
	for _, c := range changes {
		var err error
		if d, err = c.Apply(d); err != nil {
			tb.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	return d
}

func wantDiff(t *testing.T, got, want []Difference) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	var b strings.Builder
	for _, d := range got {
		b.WriteString("\n\t" + diffLine(d))
	}
	b.WriteString("\nwant:")
	for _, d := range want {
		b.WriteString("\n\t" + diffLine(d))
	}
	t.Errorf("Diff =%s", b.String())
}

func diffLine(d Difference) string {
	return d.Section + " | " + d.Subject + " | " + d.Path + " | " + d.Change + " | " + d.Field + " | " + d.Old + " → " + d.New
}

func TestDiff_sameDesignHasNoDifferences(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]Design{"shop": diffBase(t), "hr example": hrDesign(t), "empty": Normalize(Design{Name: "x"})} {
		if got := Diff(d, d); len(got) != 0 {
			t.Errorf("%s: Diff(d, d) = %d differences, first %q", name, len(got), diffLine(got[0]))
		}
	}
}

func TestDiff_patternFieldShowsOldAndNewValue(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, SetPatternField{ID: "ap1", Field: "peak_rps", Value: "200"},
		SetPatternField{ID: "ap1", Field: "consistency", Value: Strong})
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: DiffChanged, Field: "peak_rps", Old: "50", New: "200"},
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: DiffChanged, Field: "consistency", Old: "", New: "strong"},
	})
}

func TestDiff_mappingOperationFieldIsNamedByItsRow(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, SetOperationField{Pattern: "ap1", Index: 0, Field: "key_condition", Value: "customer_id = :cid"})
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: DiffChanged,
			Field: "mapping.operations[0].key_condition", Old: "customer_id = :c", New: "customer_id = :cid"},
	})
}

func TestDiff_addedAndRemovedPatterns(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, DeletePattern{ID: "ap1"}, AddPattern{Type: Read, Description: "List open orders"})
	added := b.Patterns[len(b.Patterns)-1]
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: DiffRemoved, Old: "Get a customer's orders"},
		{Section: "Access patterns", Subject: "Access pattern " + strconv.Itoa(added.Number), Path: "access_patterns/" + added.ID,
			Change: DiffAdded, New: "List open orders"},
	})
}

func TestDiff_reorderedPatternsShowTheOrder(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, MovePattern{ID: "ap2", To: 0})
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Access patterns", Subject: "Order of the access patterns", Path: "access_patterns", Change: DiffChanged, Field: "order", Old: "1, 2", New: "2, 1"},
	})
}

func TestDiff_indexProjectionAndNewIndex(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a,
		SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: []string{"total"}},
		AddIndex{Table: "Orders", Name: "ByTotal", Local: true, SortKey: []KeyAttribute{{Name: "total", Type: N}}},
	)
	var got []Difference
	for _, d := range Diff(a, b) {
		if d.Section == "Indexes" {
			got = append(got, d)
		}
	}
	wantDiff(t, got, []Difference{
		{Section: "Indexes", Subject: "GSI ByStatus of table Orders", Path: "tables/Orders/indexes/ByStatus", Change: DiffChanged, Field: "projection.type", Old: "KEYS_ONLY", New: "INCLUDE"},
		{Section: "Indexes", Subject: "GSI ByStatus of table Orders", Path: "tables/Orders/indexes/ByStatus", Change: DiffChanged, Field: "projection.attributes", Old: "", New: "total"},
		{Section: "Indexes", Subject: "LSI ByTotal of table Orders", Path: "tables/Orders/indexes/ByTotal", Change: DiffAdded,
			New: "PK customer_id (S), SK total (N); projection ALL"},
	})
}

func TestDiff_keyedRowsOfAFieldAreNamedByTheirKey(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, AddTableAttribute{Table: "Orders", Name: "placed_at", Type: N})
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Tables", Subject: "Table Orders", Path: "tables/Orders", Change: DiffChanged, Field: "attributes[placed_at].type", Old: "", New: "N"},
	})
}

func TestDiff_itemsByIDWithChangedAttributes(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a,
		SetItemCell{Table: "Orders", ID: "i2", Attribute: "total", Text: ""},
		SetItemCell{Table: "Orders", ID: "i3", Attribute: "status", Text: "shipped"},
		DeleteItems{Table: "Orders", IDs: []string{"i1"}},
		AddItem{Table: "Orders", Item: Item{"customer_id": Str("C3"), "order_id": Str("O9")}},
	)
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Sample items", Subject: "Item customer_id=C1 · order_id=O1 of table Orders", Path: "tables/Orders/items/i1", Change: DiffRemoved,
			Old: "customer_id=C1 · order_id=O1 · status=open"},
		{Section: "Sample items", Subject: "Item customer_id=C1 · order_id=O2 of table Orders", Path: "tables/Orders/items/i2", Change: DiffChanged, Field: "total", Old: "12.5", New: ""},
		{Section: "Sample items", Subject: "Item customer_id=C2 · order_id=O3 of table Orders", Path: "tables/Orders/items/i3", Change: DiffChanged, Field: "status", Old: "open", New: "shipped"},
		{Section: "Sample items", Subject: "Item customer_id=C3 · order_id=O9 of table Orders", Path: "tables/Orders/items/i4", Change: DiffAdded,
			New: "customer_id=C3 · order_id=O9"},
	})
}

func TestDiff_tableFieldsAndRenamedTable(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, SetTableField{Table: "Orders", Field: "purpose", Value: "Orders by customer"})
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Tables", Subject: "Table Orders", Path: "tables/Orders", Change: DiffChanged, Field: "purpose", Old: "", New: "Orders by customer"},
	})

	c := applyAll(t, a, RenameTable{Table: "Orders", To: "CustomerOrders"})
	got := Diff(a, c)
	var tables []string
	for _, d := range got {
		if d.Section == "Tables" {
			tables = append(tables, d.Change+" "+d.Subject)
		}
	}
	if want := []string{"removed Table Orders", "added Table CustomerOrders"}; !reflect.DeepEqual(tables, want) {
		t.Errorf("renamed table: %q, want %q", tables, want)
	}
	for _, d := range got {
		if d.Section == "Tables" && d.Change == DiffAdded && d.New != "PK customer_id (S), SK order_id (S); 1 GSI, 0 LSIs, 3 items" {
			t.Errorf("added table described as %q", d.New)
		}
	}
}

func TestDiff_nameOverviewAndEntities(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := applyAll(t, a, SetName{Name: "Shop 2"}, SetOverviewField{Field: "domain", Value: "E-commerce"},
		SetAttributeType{Entity: "Order", Attribute: "status", Type: N})
	wantDiff(t, Diff(a, b), []Difference{
		{Section: "Overview", Subject: "Design name", Path: "name", Change: DiffChanged, Field: "name", Old: "Shop", New: "Shop 2"},
		{Section: "Overview", Subject: "Overview", Path: "overview", Change: DiffChanged, Field: "domain", Old: "Retail", New: "E-commerce"},
		{Section: "Entities", Subject: "Entity Order", Path: "entities/Order", Change: DiffChanged, Field: "attributes[status].type", Old: "S", New: "N"},
	})
}

// Swapping the two designs swaps added with removed and old with new: nothing is seen from one
// side only.
func TestDiff_isSymmetric(t *testing.T) {
	t.Parallel()
	a := hrDesign(t)
	b := a
	b.Name = a.Name + " (copy)"
	b.Tables = append([]Table(nil), a.Tables[1:]...)
	b.Patterns = append([]Pattern(nil), a.Patterns...)
	b.Patterns[0].Description += " quickly"
	forward, backward := Diff(a, b), Diff(b, a)
	if len(forward) == 0 || len(forward) != len(backward) {
		t.Fatalf("Diff(a, b) has %d differences, Diff(b, a) %d", len(forward), len(backward))
	}
	mirror := map[string]string{DiffAdded: DiffRemoved, DiffRemoved: DiffAdded, DiffChanged: DiffChanged}
	seen := map[string]bool{}
	for _, d := range backward {
		seen[d.Subject+"|"+d.Field+"|"+d.Change+"|"+d.Old+"|"+d.New] = true
	}
	for _, d := range forward {
		if !seen[d.Subject+"|"+d.Field+"|"+mirror[d.Change]+"|"+d.New+"|"+d.Old] {
			t.Errorf("no mirror of %q in Diff(b, a)", diffLine(d))
		}
	}
	if again := Diff(a, b); !reflect.DeepEqual(again, forward) {
		t.Errorf("Diff is not deterministic")
	}
}
