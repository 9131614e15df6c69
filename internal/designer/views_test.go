package designer

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

func viewsTable() Table {
	return Table{
		Name:         "App",
		PartitionKey: KeyAttribute{Name: "PK", Type: S},
		SortKey:      &KeyAttribute{Name: "SK", Type: S},
		EntityTypes: []EntityType{
			{Entity: "User", PKTemplate: "USER#{user_id}", SKTemplate: "PROFILE"},
			{Entity: "Order", PKTemplate: "USER#{user_id}", SKTemplate: "ORDER#{created_at}#{order_id}"},
			{Entity: "Anything", PKTemplate: "USER#{user_id}", SKTemplate: "{sk}"},
		},
		Items: []SampleItem{
			{ID: "o2", Item: Item{"PK": Str("USER#1"), "SK": Str("ORDER#2024-02-01#2"), "status": Str("SHIPPED"), "total": Num("25")}},
			{ID: "nokey", Item: Item{"PK": Str("USER#0"), "status": Str("NEW")}},
			{ID: "u2", Item: Item{"PK": Str("USER#2"), "SK": Str("PROFILE"), "name": Str("Bea")}},
			{ID: "u1", Item: Item{"PK": Str("USER#1"), "SK": Str("PROFILE"), "name": Str("Ada")}},
			{ID: "o1", Item: Item{"PK": Str("USER#1"), "SK": Str("ORDER#2024-01-01#1"), "status": Str("NEW"), "total": Num("100")}},
			{ID: "x", Item: Item{"PK": Str("TENANT#9"), "SK": Str("CONFIG")}},
			{ID: "nokey2", Item: Item{"name": Str("orphan")}},
			{ID: "misc", Item: Item{"PK": Str("USER#1"), "SK": Str("NOTE#1")}},
		},
	}
}

func TestTableRows_keyOrderEntityTypesAndSizes(t *testing.T) {
	rows := TableRows(viewsTable())
	var got []string
	for _, r := range rows {
		got = append(got, r.ID+":"+r.EntityType+":"+r.Partition)
	}
	// nokey has no sort key, so even the catch-all {sk} template cannot match it.
	want := []string{
		"x::TENANT#9",
		"misc:Anything:USER#1",
		"o1:Order:USER#1",
		"o2:Order:USER#1",
		"u1:User:USER#1",
		"u2:User:USER#2",
		"nokey::USER#0",
		"nokey2::",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("TableRows =\n%q\nwant\n%q", got, want)
	}
	for _, r := range rows {
		if r.Size != ItemSize(r.Item) {
			t.Errorf("row %s: Size = %d, want %d", r.ID, r.Size, ItemSize(r.Item))
		}
	}
}

func TestTableRows_numberKeysSortNumerically(t *testing.T) {
	tbl := Table{PartitionKey: KeyAttribute{Name: "id", Type: N}}
	for i, n := range []string{"10", "9", "-1", "1.5", "100"} {
		tbl.Items = append(tbl.Items, SampleItem{ID: strconv.Itoa(i), Item: Item{"id": Num(n)}})
	}
	var got []string
	for _, r := range TableRows(tbl) {
		got = append(got, r.Partition)
	}
	if want := []string{"-1", "1.5", "9", "10", "100"}; !slices.Equal(got, want) {
		t.Fatalf("partitions = %q, want %q", got, want)
	}
}

func TestTableRows_entityTypeNeedsEveryStatedTemplate(t *testing.T) {
	tbl := Table{
		PartitionKey: KeyAttribute{Name: "PK", Type: S},
		SortKey:      &KeyAttribute{Name: "SK", Type: S},
		EntityTypes: []EntityType{
			{Entity: "NoTemplates"},
			{Entity: "Profile", PKTemplate: "USER#{id}", SKTemplate: "PROFILE"},
			{Entity: "ByPKOnly", PKTemplate: "ORG#{id}"},
		},
		Items: []SampleItem{
			{ID: "a", Item: Item{"PK": Str("USER#1"), "SK": Str("OTHER")}},
			{ID: "b", Item: Item{"PK": Str("ORG#1"), "SK": Str("ANYTHING")}},
			{ID: "c", Item: Item{"PK": Str("USER#1"), "SK": Str("PROFILE")}},
		},
	}
	got := map[string]string{}
	for _, r := range TableRows(tbl) {
		got[r.ID] = r.EntityType
	}
	if got["a"] != "" || got["b"] != "ByPKOnly" || got["c"] != "Profile" {
		t.Fatalf("entity types = %v", got)
	}
}

func TestIndexItems_sparseIndexLeavesItemsOutWithAReason(t *testing.T) {
	tbl := viewsTable()
	ix := Index{
		Name:         "ByStatus",
		PartitionKey: []KeyAttribute{{Name: "status", Type: S}},
		SortKey:      []KeyAttribute{{Name: "total", Type: N}},
		Projection:   Projection{Type: KeysOnly},
	}
	view := IndexItems(tbl, ix, false)
	var ids []string
	for _, r := range view.Rows {
		ids = append(ids, r.ID+"@"+r.Partition)
	}
	if want := []string{"o1@NEW", "o2@SHIPPED"}; !slices.Equal(ids, want) {
		t.Fatalf("rows = %q, want %q", ids, want)
	}
	reasons := map[string]string{}
	for _, e := range view.Excluded {
		reasons[e.ID] = e.Reason
	}
	if got, want := reasons["u1"], "has no status or total, so it is not in ByStatus"; got != want {
		t.Errorf("reason for u1 = %q, want %q", got, want)
	}
	if got, want := reasons["nokey"], "has no total, so it is not in ByStatus"; got != want {
		t.Errorf("reason for nokey = %q, want %q", got, want)
	}
	if len(view.Excluded) != 6 {
		t.Errorf("excluded = %v, want 6 items", view.Excluded)
	}
}

func TestIndexItems_wrongTypeOrEmptyKeyIsExplained(t *testing.T) {
	tbl := Table{
		Name:         "T",
		PartitionKey: KeyAttribute{Name: "id", Type: S},
		Items: []SampleItem{
			{ID: "n", Item: Item{"id": Str("1"), "status": Num("3")}},
			{ID: "e", Item: Item{"id": Str("2"), "status": Str("")}},
			{ID: "ok", Item: Item{"id": Str("3"), "status": Str("A")}},
		},
	}
	ix := Index{Name: "ByStatus", PartitionKey: []KeyAttribute{{Name: "status", Type: S}}, Projection: Projection{Type: All}}
	view := IndexItems(tbl, ix, false)
	if len(view.Rows) != 1 || view.Rows[0].ID != "ok" {
		t.Fatalf("rows = %+v", view.Rows)
	}
	want := []Excluded{
		{ID: "n", Reason: "its status is a number but ByStatus needs a string; DynamoDB would reject this item"},
		{ID: "e", Reason: "its status is empty but is a key of ByStatus; DynamoDB would reject this item"},
	}
	if !slices.Equal(view.Excluded, want) {
		t.Fatalf("excluded = %q\nwant %q", view.Excluded, want)
	}
}

func TestIndexItems_projection(t *testing.T) {
	tbl := viewsTable()
	key := []KeyAttribute{{Name: "status", Type: S}}
	entry := func(p Projection) Item {
		view := IndexItems(tbl, Index{Name: "ix", PartitionKey: key, Projection: p}, false)
		for _, r := range view.Rows {
			if r.ID == "o1" {
				if r.Size != IndexEntrySize(r.Item) {
					t.Errorf("%s: Size = %d, want %d", p.Type, r.Size, IndexEntrySize(r.Item))
				}
				return r.Item
			}
		}
		t.Fatalf("%s: o1 not in the index", p.Type)
		return nil
	}
	names := func(it Item) string { return fmt.Sprint(it.SortedNames()) }
	if got := names(entry(Projection{Type: KeysOnly})); got != "[PK SK status]" {
		t.Errorf("KEYS_ONLY entry has %s", got)
	}
	if got := names(entry(Projection{Type: Include, Attributes: []string{"total", "absent"}})); got != "[PK SK status total]" {
		t.Errorf("INCLUDE entry has %s", got)
	}
	if got := names(entry(Projection{Type: All})); got != "[PK SK status total]" {
		t.Errorf("ALL entry has %s", got)
	}
	if got := names(entry(Projection{Type: KeysOnly, Attributes: []string{"total"}})); got != "[PK SK status]" {
		t.Errorf("KEYS_ONLY with attributes listed has %s", got)
	}
}

func TestIndexItems_ordersByIndexKeysThenTableKeys(t *testing.T) {
	tbl := Table{
		Name:         "T",
		PartitionKey: KeyAttribute{Name: "id", Type: S},
		Items: []SampleItem{
			{ID: "c", Item: Item{"id": Str("c"), "tenant": Str("t1"), "region": Str("eu"), "at": Num("2")}},
			{ID: "b", Item: Item{"id": Str("b"), "tenant": Str("t1"), "region": Str("eu"), "at": Num("2")}},
			{ID: "a", Item: Item{"id": Str("a"), "tenant": Str("t1"), "region": Str("eu"), "at": Num("10")}},
			{ID: "d", Item: Item{"id": Str("d"), "tenant": Str("t0"), "region": Str("us"), "at": Num("1")}},
			{ID: "e", Item: Item{"id": Str("e"), "tenant": Str("t1"), "at": Num("1")}},
		},
	}
	ix := Index{
		Name:         "ByTenantRegion",
		PartitionKey: []KeyAttribute{{Name: "tenant", Type: S}, {Name: "region", Type: S}},
		SortKey:      []KeyAttribute{{Name: "at", Type: N}},
		Projection:   Projection{Type: KeysOnly},
	}
	view := IndexItems(tbl, ix, false)
	var got []string
	for _, r := range view.Rows {
		got = append(got, r.ID+"@"+r.Partition)
	}
	if want := []string{"d@t0 · us", "b@t1 · eu", "c@t1 · eu", "a@t1 · eu"}; !slices.Equal(got, want) {
		t.Fatalf("rows = %q, want %q", got, want)
	}
	if want := []Excluded{{ID: "e", Reason: "has no region, so it is not in ByTenantRegion"}}; !slices.Equal(view.Excluded, want) {
		t.Fatalf("excluded = %q, want %q", view.Excluded, want)
	}
}

func TestIndexItems_lsiUsesTheTablePartitionKey(t *testing.T) {
	tbl := viewsTable()
	ix := Index{Name: "ByTotal", SortKey: []KeyAttribute{{Name: "total", Type: N}}, Projection: Projection{Type: KeysOnly}}
	view := IndexItems(tbl, ix, true)
	var got []string
	for _, r := range view.Rows {
		got = append(got, r.ID+"@"+r.Partition)
	}
	if want := []string{"o2@USER#1", "o1@USER#1"}; !slices.Equal(got, want) {
		t.Fatalf("rows = %q, want %q", got, want)
	}
	for _, e := range view.Excluded {
		if e.ID == "nokey2" && e.Reason != "has no PK or total, so it is not in ByTotal" {
			t.Errorf("reason for nokey2 = %q", e.Reason)
		}
	}
}

// benchIndexTable is a table of n items with five GSIs of different shapes and projections.
func benchIndexTable(n int) Table {
	tbl := Table{
		Name:         "Bench",
		PartitionKey: KeyAttribute{Name: "PK", Type: S},
		SortKey:      &KeyAttribute{Name: "SK", Type: S},
		GSIs: []Index{
			{Name: "ByStatus", PartitionKey: []KeyAttribute{{Name: "status", Type: S}}, SortKey: []KeyAttribute{{Name: "created_at", Type: S}}, Projection: Projection{Type: All}},
			{Name: "ByEmail", PartitionKey: []KeyAttribute{{Name: "email", Type: S}}, Projection: Projection{Type: KeysOnly}},
			{Name: "ByTotal", PartitionKey: []KeyAttribute{{Name: "tenant", Type: S}}, SortKey: []KeyAttribute{{Name: "total", Type: N}}, Projection: Projection{Type: Include, Attributes: []string{"status", "email"}}},
			{Name: "ByTenantRegion", PartitionKey: []KeyAttribute{{Name: "tenant", Type: S}, {Name: "region", Type: S}}, SortKey: []KeyAttribute{{Name: "created_at", Type: S}, {Name: "total", Type: N}}, Projection: Projection{Type: KeysOnly}},
			{Name: "Sparse", PartitionKey: []KeyAttribute{{Name: "flagged", Type: S}}, Projection: Projection{Type: All}},
		},
	}
	for i := range n {
		it := Item{
			"PK":         Str(fmt.Sprintf("USER#%d", i%97)),
			"SK":         Str(fmt.Sprintf("ORDER#%05d", i)),
			"status":     Str([]string{"NEW", "PAID", "SHIPPED", "DONE"}[i%4]),
			"created_at": Str(fmt.Sprintf("2024-%02d-%02dT10:00:00Z", i%12+1, i%28+1)),
			"email":      Str(fmt.Sprintf("user%d@example.com", i%97)),
			"total":      Num(fmt.Sprintf("%d.%02d", i*37%1000, i%100)),
			"tenant":     Str(fmt.Sprintf("T%d", i%7)),
			"region":     Str([]string{"eu", "us", "ap"}[i%3]),
			"note":       Str("some longer free text that makes the item a little bigger"),
			"lines":      List(Map(map[string]Value{"sku": Str("A1"), "qty": Num("2")})),
		}
		if i%10 == 0 {
			it["flagged"] = Str("yes")
		}
		tbl.Items = append(tbl.Items, SampleItem{ID: strconv.Itoa(i), Item: it})
	}
	return tbl
}

// BenchmarkIndexItems1000x5 computes all five index views of a 1,000-item table, as every edit
// does.
func BenchmarkIndexItems1000x5(b *testing.B) {
	tbl := benchIndexTable(1000)
	b.ReportAllocs()
	for b.Loop() {
		for _, ix := range tbl.GSIs {
			IndexItems(tbl, ix, false)
		}
	}
}

func BenchmarkTableRows1000(b *testing.B) {
	tbl := benchIndexTable(1000)
	tbl.EntityTypes = []EntityType{{Entity: "Order", PKTemplate: "USER#{user_id}", SKTemplate: "ORDER#{order_id}"}}
	b.ReportAllocs()
	for b.Loop() {
		TableRows(tbl)
	}
}

// TestCompareKeyParts_agreesWithCompareKeys checks the views' prepared comparison against
// CompareKeys on values of every type.
func TestCompareKeyParts_agreesWithCompareKeys(t *testing.T) {
	values := []Value{
		Str(""), Str("a"), Str("A"), Str("¿"), Str("USER#10"), Str("USER#2"),
		Num("0"), Num("-0"), Num("1.50"), Num("15E-1"), Num("-2"), Num("1E-130"), Num("99"), Num("abc"), Num("zzz"),
		Bin(nil), Bin([]byte{0}), Bin([]byte{0xff}), Boolean(true), Boolean(false), Null(),
		Map(map[string]Value{"a": Str("x")}), List(Num("1")), {Type: SS, SS: []string{"a"}},
		{Type: NS, SS: []string{"1"}}, {Type: BS, BS: [][]byte{{1}}},
	}
	for _, a := range values {
		for _, b := range values {
			want := CompareKeys([]Value{a}, []Value{b})
			got := compareKeyParts([]keyPart{newKeyPart(a)}, []keyPart{newKeyPart(b)})
			if (got < 0) != (want < 0) || (got > 0) != (want > 0) {
				t.Errorf("compare %+v with %+v: prepared %d, CompareKeys %d", a, b, got, want)
			}
		}
	}
}
