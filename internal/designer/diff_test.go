package designer_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// diffBase is a small shop design written for these tests: two patterns, one table with a GSI and
// three orders.
func diffBase(tb testing.TB) designer.Design {
	tb.Helper()
	peak, avg := 50.0, 10.0
	limit := 20
	d := designer.Normalize(designer.Design{
		Name:     "Shop",
		Overview: designer.Overview{Domain: "Retail"},
		Entities: []designer.Entity{{Name: "Customer", Attributes: []designer.Attribute{{Name: "customer_id", Type: designer.S}}},
			{Name: "Order", Attributes: []designer.Attribute{{Name: "order_id", Type: designer.S}, {Name: "status", Type: designer.S}}}},
		Patterns: []designer.Pattern{
			{Number: 1, Description: "Get a customer's orders", Type: designer.Read, PeakRPS: &peak, AvgRPS: &avg,
				Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Orders", KeyCondition: "customer_id = :c", Limit: &limit}}}},
			{Number: 2, Description: "Place an order", Type: designer.Write, PeakRPS: &peak, AvgRPS: &avg},
		},
		Tables: []designer.Table{{
			Name:         "Orders",
			PartitionKey: designer.KeyAttribute{Name: "customer_id", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "order_id", Type: designer.S},
			GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
				Projection: designer.Projection{Type: designer.KeysOnly}}},
			Items: []designer.SampleItem{
				{Item: designer.Item{"customer_id": designer.Str("C1"), "order_id": designer.Str("O1"), "status": designer.Str("open")}},
				{Item: designer.Item{"customer_id": designer.Str("C1"), "order_id": designer.Str("O2"), "status": designer.Str("shipped"), "total": designer.Num("12.5")}},
				{Item: designer.Item{"customer_id": designer.Str("C2"), "order_id": designer.Str("O3"), "status": designer.Str("open")}},
			},
		}},
	})
	if err := designer.Check(d); err != nil {
		tb.Fatalf("test design does not check: %v", err)
	}
	return d
}

func wantDiff(t *testing.T, got, want []designer.Difference) {
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

func diffLine(d designer.Difference) string {
	return d.Section + " | " + d.Subject + " | " + d.Path + " | " + d.Change + " | " + d.Field + " | " + d.Old + " → " + d.New
}

func TestDiff_sameDesignHasNoDifferences(t *testing.T) {
	t.Parallel()
	for name, d := range map[string]designer.Design{"shop": diffBase(t), "hr example": designertest.HRDesign(t), "empty": designer.Normalize(designer.Design{Name: "x"})} {
		if got := designer.Diff(d, d); len(got) != 0 {
			t.Errorf("%s: Diff(d, d) = %d differences, first %q", name, len(got), diffLine(got[0]))
		}
	}
}

func TestDiff_patternFieldShowsOldAndNewValue(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.SetPatternField{ID: "ap1", Field: "peak_rps", Value: "200"},
		designer.SetPatternField{ID: "ap1", Field: "consistency", Value: designer.Strong})
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: designer.DiffChanged, Field: "peak_rps", Old: "50", New: "200"},
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: designer.DiffChanged, Field: "consistency", Old: "", New: "strong"},
	})
}

func TestDiff_mappingOperationFieldIsNamedByItsRow(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.SetOperationField{Pattern: "ap1", Index: 0, Field: "key_condition", Value: "customer_id = :cid"})
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: designer.DiffChanged,
			Field: "mapping.operations[0].key_condition", Old: "customer_id = :c", New: "customer_id = :cid"},
	})
}

func TestDiff_addedAndRemovedPatterns(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.DeletePattern{ID: "ap1"}, designer.AddPattern{Type: designer.Read, Description: "List open orders"})
	added := b.Patterns[len(b.Patterns)-1]
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Access patterns", Subject: "Access pattern 1", Path: "access_patterns/ap1", Change: designer.DiffRemoved, Old: "Get a customer's orders"},
		{Section: "Access patterns", Subject: "Access pattern " + strconv.Itoa(added.Number), Path: "access_patterns/" + added.ID,
			Change: designer.DiffAdded, New: "List open orders"},
	})
}

func TestDiff_reorderedPatternsShowTheOrder(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.MovePattern{ID: "ap2", To: 0})
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Access patterns", Subject: "Order of the access patterns", Path: "access_patterns", Change: designer.DiffChanged, Field: "order", Old: "1, 2", New: "2, 1"},
	})
}

func TestDiff_indexProjectionAndNewIndex(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a,
		designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: []string{"total"}},
		designer.AddIndex{Table: "Orders", Name: "ByTotal", Local: true, SortKey: []designer.KeyAttribute{{Name: "total", Type: designer.N}}},
	)
	var got []designer.Difference
	for _, d := range designer.Diff(a, b) {
		if d.Section == "Indexes" {
			got = append(got, d)
		}
	}
	wantDiff(t, got, []designer.Difference{
		{Section: "Indexes", Subject: "GSI ByStatus of table Orders", Path: "tables/Orders/indexes/ByStatus", Change: designer.DiffChanged, Field: "projection.type", Old: "KEYS_ONLY", New: "INCLUDE"},
		{Section: "Indexes", Subject: "GSI ByStatus of table Orders", Path: "tables/Orders/indexes/ByStatus", Change: designer.DiffChanged, Field: "projection.attributes", Old: "", New: "total"},
		{Section: "Indexes", Subject: "LSI ByTotal of table Orders", Path: "tables/Orders/indexes/ByTotal", Change: designer.DiffAdded,
			New: "PK customer_id (S), SK total (N); projection ALL"},
	})
}

func TestDiff_keyedRowsOfAFieldAreNamedByTheirKey(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.AddTableAttribute{Table: "Orders", Name: "placed_at", Type: designer.N})
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Tables", Subject: "Table Orders", Path: "tables/Orders", Change: designer.DiffChanged, Field: "attributes[placed_at].type", Old: "", New: "N"},
	})
}

func TestDiff_itemsByIDWithChangedAttributes(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a,
		designer.SetItemCell{Table: "Orders", ID: "i2", Attribute: "total", Text: ""},
		designer.SetItemCell{Table: "Orders", ID: "i3", Attribute: "status", Text: "shipped"},
		designer.DeleteItems{Table: "Orders", IDs: []string{"i1"}},
		designer.AddItem{Table: "Orders", Item: designer.Item{"customer_id": designer.Str("C3"), "order_id": designer.Str("O9")}},
	)
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Sample items", Subject: "Item customer_id=C1 · order_id=O1 of table Orders", Path: "tables/Orders/items/i1", Change: designer.DiffRemoved,
			Old: "customer_id=C1 · order_id=O1 · status=open"},
		{Section: "Sample items", Subject: "Item customer_id=C1 · order_id=O2 of table Orders", Path: "tables/Orders/items/i2", Change: designer.DiffChanged, Field: "total", Old: "12.5", New: ""},
		{Section: "Sample items", Subject: "Item customer_id=C2 · order_id=O3 of table Orders", Path: "tables/Orders/items/i3", Change: designer.DiffChanged, Field: "status", Old: "open", New: "shipped"},
		{Section: "Sample items", Subject: "Item customer_id=C3 · order_id=O9 of table Orders", Path: "tables/Orders/items/i4", Change: designer.DiffAdded,
			New: "customer_id=C3 · order_id=O9"},
	})
}

func TestDiff_tableFieldsAndRenamedTable(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.SetTableField{Table: "Orders", Field: "purpose", Value: "Orders by customer"})
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Tables", Subject: "Table Orders", Path: "tables/Orders", Change: designer.DiffChanged, Field: "purpose", Old: "", New: "Orders by customer"},
	})

	c := designertest.ApplyAll(t, a, designer.RenameTable{Table: "Orders", To: "CustomerOrders"})
	got := designer.Diff(a, c)
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
		if d.Section == "Tables" && d.Change == designer.DiffAdded && d.New != "PK customer_id (S), SK order_id (S); 1 GSI, 0 LSIs, 3 items" {
			t.Errorf("added table described as %q", d.New)
		}
	}
}

func TestDiff_nameOverviewAndEntities(t *testing.T) {
	t.Parallel()
	a := diffBase(t)
	b := designertest.ApplyAll(t, a, designer.SetName{Name: "Shop 2"}, designer.SetOverviewField{Field: "domain", Value: "E-commerce"},
		designer.SetAttributeType{Entity: "Order", Attribute: "status", Type: designer.N})
	wantDiff(t, designer.Diff(a, b), []designer.Difference{
		{Section: "Overview", Subject: "Design name", Path: "name", Change: designer.DiffChanged, Field: "name", Old: "Shop", New: "Shop 2"},
		{Section: "Overview", Subject: "Overview", Path: "overview", Change: designer.DiffChanged, Field: "domain", Old: "Retail", New: "E-commerce"},
		{Section: "Entities", Subject: "Entity Order", Path: "entities/Order", Change: designer.DiffChanged, Field: "attributes[status].type", Old: "S", New: "N"},
	})
}

// Swapping the two designs swaps added with removed and old with new: nothing is seen from one
// side only.
func TestDiff_isSymmetric(t *testing.T) {
	t.Parallel()
	a := designertest.HRDesign(t)
	b := a
	b.Name = a.Name + " (copy)"
	b.Tables = append([]designer.Table(nil), a.Tables[1:]...)
	b.Patterns = append([]designer.Pattern(nil), a.Patterns...)
	b.Patterns[0].Description += " quickly"
	forward, backward := designer.Diff(a, b), designer.Diff(b, a)
	if len(forward) == 0 || len(forward) != len(backward) {
		t.Fatalf("Diff(a, b) has %d differences, Diff(b, a) %d", len(forward), len(backward))
	}
	mirror := map[string]string{designer.DiffAdded: designer.DiffRemoved, designer.DiffRemoved: designer.DiffAdded, designer.DiffChanged: designer.DiffChanged}
	seen := map[string]bool{}
	for _, d := range backward {
		seen[d.Subject+"|"+d.Field+"|"+d.Change+"|"+d.Old+"|"+d.New] = true
	}
	for _, d := range forward {
		if !seen[d.Subject+"|"+d.Field+"|"+mirror[d.Change]+"|"+d.New+"|"+d.Old] {
			t.Errorf("no mirror of %q in Diff(b, a)", diffLine(d))
		}
	}
	if again := designer.Diff(a, b); !reflect.DeepEqual(again, forward) {
		t.Errorf("Diff is not deterministic")
	}
}
