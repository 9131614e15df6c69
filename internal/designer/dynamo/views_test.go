package dynamo

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func viewsTable() designer.Table {
	return designer.Table{
		Name:         "App",
		PartitionKey: designer.KeyAttribute{Name: "PK", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "SK", Type: designer.S},
		EntityTypes: []designer.EntityType{
			{Entity: "User", PKTemplate: "USER#{user_id}", SKTemplate: "PROFILE"},
			{Entity: "Order", PKTemplate: "USER#{user_id}", SKTemplate: "ORDER#{created_at}#{order_id}"},
			{Entity: "Anything", PKTemplate: "USER#{user_id}", SKTemplate: "{sk}"},
		},
		Items: []designer.SampleItem{
			{ID: "o2", Item: designer.Item{"PK": designer.Str("USER#1"), "SK": designer.Str("ORDER#2024-02-01#2"), "status": designer.Str("SHIPPED"), "total": designer.Num("25")}},
			{ID: "nokey", Item: designer.Item{"PK": designer.Str("USER#0"), "status": designer.Str("NEW")}},
			{ID: "u2", Item: designer.Item{"PK": designer.Str("USER#2"), "SK": designer.Str("PROFILE"), "name": designer.Str("Bea")}},
			{ID: "u1", Item: designer.Item{"PK": designer.Str("USER#1"), "SK": designer.Str("PROFILE"), "name": designer.Str("Ada")}},
			{ID: "o1", Item: designer.Item{"PK": designer.Str("USER#1"), "SK": designer.Str("ORDER#2024-01-01#1"), "status": designer.Str("NEW"), "total": designer.Num("100")}},
			{ID: "x", Item: designer.Item{"PK": designer.Str("TENANT#9"), "SK": designer.Str("CONFIG")}},
			{ID: "nokey2", Item: designer.Item{"name": designer.Str("orphan")}},
			{ID: "misc", Item: designer.Item{"PK": designer.Str("USER#1"), "SK": designer.Str("NOTE#1")}},
		},
	}
}

func TestTableRows_keyOrderEntityTypesAndSizes(t *testing.T) {
	t.Parallel()
	rows := designer.TableRows(viewsTable())
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
		if r.Size != designer.ItemSize(r.Item) {
			t.Errorf("row %s: Size = %d, want %d", r.ID, r.Size, designer.ItemSize(r.Item))
		}
	}
}

func TestTableRows_numberKeysSortNumerically(t *testing.T) {
	t.Parallel()
	tbl := designer.Table{PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.N}}
	for i, n := range []string{"10", "9", "-1", "1.5", "100"} {
		tbl.Items = append(tbl.Items, designer.SampleItem{ID: strconv.Itoa(i), Item: designer.Item{"id": designer.Num(n)}})
	}
	var got []string
	for _, r := range designer.TableRows(tbl) {
		got = append(got, r.Partition)
	}
	if want := []string{"-1", "1.5", "9", "10", "100"}; !slices.Equal(got, want) {
		t.Fatalf("partitions = %q, want %q", got, want)
	}
}

func TestTableRows_entityTypeNeedsEveryStatedTemplate(t *testing.T) {
	t.Parallel()
	tbl := designer.Table{
		PartitionKey: designer.KeyAttribute{Name: "PK", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "SK", Type: designer.S},
		EntityTypes: []designer.EntityType{
			{Entity: "NoTemplates"},
			{Entity: "Profile", PKTemplate: "USER#{id}", SKTemplate: "PROFILE"},
			{Entity: "ByPKOnly", PKTemplate: "ORG#{id}"},
		},
		Items: []designer.SampleItem{
			{ID: "a", Item: designer.Item{"PK": designer.Str("USER#1"), "SK": designer.Str("OTHER")}},
			{ID: "b", Item: designer.Item{"PK": designer.Str("ORG#1"), "SK": designer.Str("ANYTHING")}},
			{ID: "c", Item: designer.Item{"PK": designer.Str("USER#1"), "SK": designer.Str("PROFILE")}},
		},
	}
	got := map[string]string{}
	for _, r := range designer.TableRows(tbl) {
		got[r.ID] = r.EntityType
	}
	if got["a"] != "" || got["b"] != "ByPKOnly" || got["c"] != "Profile" {
		t.Fatalf("entity types = %v", got)
	}
}

func TestIndexItems_sparseIndexLeavesItemsOutWithAReason(t *testing.T) {
	t.Parallel()
	tbl := viewsTable()
	ix := designer.Index{
		Name:         "ByStatus",
		PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
		SortKey:      []designer.KeyAttribute{{Name: "total", Type: designer.N}},
		Projection:   designer.Projection{Type: designer.KeysOnly},
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
	t.Parallel()
	tbl := designer.Table{
		Name:         "T",
		PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.S},
		Items: []designer.SampleItem{
			{ID: "n", Item: designer.Item{"id": designer.Str("1"), "status": designer.Num("3")}},
			{ID: "e", Item: designer.Item{"id": designer.Str("2"), "status": designer.Str("")}},
			{ID: "ok", Item: designer.Item{"id": designer.Str("3"), "status": designer.Str("A")}},
		},
	}
	ix := designer.Index{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}}
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
	t.Parallel()
	tbl := viewsTable()
	key := []designer.KeyAttribute{{Name: "status", Type: designer.S}}
	entry := func(p designer.Projection) designer.Item {
		view := IndexItems(tbl, designer.Index{Name: "ix", PartitionKey: key, Projection: p}, false)
		for _, r := range view.Rows {
			if r.ID == "o1" {
				if r.Size != designer.IndexEntrySize(r.Item) {
					t.Errorf("%s: Size = %d, want %d", p.Type, r.Size, designer.IndexEntrySize(r.Item))
				}
				return r.Item
			}
		}
		t.Fatalf("%s: o1 not in the index", p.Type)
		return nil
	}
	names := func(it designer.Item) string { return fmt.Sprint(it.SortedNames()) }
	if got := names(entry(designer.Projection{Type: designer.KeysOnly})); got != "[PK SK status]" {
		t.Errorf("KEYS_ONLY entry has %s", got)
	}
	if got := names(entry(designer.Projection{Type: designer.Include, Attributes: []string{"total", "absent"}})); got != "[PK SK status total]" {
		t.Errorf("INCLUDE entry has %s", got)
	}
	if got := names(entry(designer.Projection{Type: designer.All})); got != "[PK SK status total]" {
		t.Errorf("ALL entry has %s", got)
	}
	if got := names(entry(designer.Projection{Type: designer.KeysOnly, Attributes: []string{"total"}})); got != "[PK SK status]" {
		t.Errorf("KEYS_ONLY with attributes listed has %s", got)
	}
}

func TestIndexItems_ordersByIndexKeysThenTableKeys(t *testing.T) {
	t.Parallel()
	tbl := designer.Table{
		Name:         "T",
		PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.S},
		Items: []designer.SampleItem{
			{ID: "c", Item: designer.Item{"id": designer.Str("c"), "tenant": designer.Str("t1"), "region": designer.Str("eu"), "at": designer.Num("2")}},
			{ID: "b", Item: designer.Item{"id": designer.Str("b"), "tenant": designer.Str("t1"), "region": designer.Str("eu"), "at": designer.Num("2")}},
			{ID: "a", Item: designer.Item{"id": designer.Str("a"), "tenant": designer.Str("t1"), "region": designer.Str("eu"), "at": designer.Num("10")}},
			{ID: "d", Item: designer.Item{"id": designer.Str("d"), "tenant": designer.Str("t0"), "region": designer.Str("us"), "at": designer.Num("1")}},
			{ID: "e", Item: designer.Item{"id": designer.Str("e"), "tenant": designer.Str("t1"), "at": designer.Num("1")}},
		},
	}
	ix := designer.Index{
		Name:         "ByTenantRegion",
		PartitionKey: []designer.KeyAttribute{{Name: "tenant", Type: designer.S}, {Name: "region", Type: designer.S}},
		SortKey:      []designer.KeyAttribute{{Name: "at", Type: designer.N}},
		Projection:   designer.Projection{Type: designer.KeysOnly},
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
	t.Parallel()
	tbl := viewsTable()
	ix := designer.Index{Name: "ByTotal", SortKey: []designer.KeyAttribute{{Name: "total", Type: designer.N}}, Projection: designer.Projection{Type: designer.KeysOnly}}
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

// BenchmarkIndexItems1000x5 computes all five index views of a 1,000-item table, as every edit
// does.
func BenchmarkIndexItems1000x5(b *testing.B) {
	tbl := designertest.Large(designertest.Size{Tables: 1, Items: 1000, GSIs: 5}).Tables[0]
	b.ReportAllocs()
	for b.Loop() {
		for _, ix := range tbl.GSIs {
			IndexItems(tbl, ix, false)
		}
	}
}

func BenchmarkTableRows1000(b *testing.B) {
	tbl := designertest.Large(designertest.Size{Tables: 1, Items: 1000}).Tables[0]
	b.ReportAllocs()
	for b.Loop() {
		designer.TableRows(tbl)
	}
}

// TestCompareKeyParts_agreesWithCompareKeys checks the views' prepared comparison against
// CompareKeys on values of every type.
func TestCompareKeyParts_agreesWithCompareKeys(t *testing.T) {
	t.Parallel()
	values := []designer.Value{
		designer.Str(""), designer.Str("a"), designer.Str("A"), designer.Str("¿"), designer.Str("USER#10"), designer.Str("USER#2"),
		designer.Num("0"), designer.Num("-0"), designer.Num("1.50"), designer.Num("15E-1"), designer.Num("-2"), designer.Num("1E-130"), designer.Num("99"), designer.Num("abc"), designer.Num("zzz"),
		designer.Bin(nil), designer.Bin([]byte{0}), designer.Bin([]byte{0xff}), designer.Boolean(true), designer.Boolean(false), designer.Null(),
		designer.Map(map[string]designer.Value{"a": designer.Str("x")}), designer.List(designer.Num("1")), {Type: designer.SS, SS: []string{"a"}},
		{Type: designer.NS, SS: []string{"1"}}, {Type: designer.BS, BS: [][]byte{{1}}},
	}
	for _, a := range values {
		for _, b := range values {
			want := designer.CompareKeys([]designer.Value{a}, []designer.Value{b})
			got := compareKeyParts([]keyPart{newKeyPart(a)}, []keyPart{newKeyPart(b)})
			if (got < 0) != (want < 0) || (got > 0) != (want > 0) {
				t.Errorf("compare %+v with %+v: prepared %d, CompareKeys %d", a, b, got, want)
			}
		}
	}
}
