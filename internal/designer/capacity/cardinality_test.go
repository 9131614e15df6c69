package capacity

import (
	"maps"
	"slices"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// shopForKeys is a design whose keys take every kind of cardinality: 3,000 orders counted by the
// team, customers derived from them through the relationship (4 orders per customer), a literal
// key, a status with four values in the sample items, a date, a boolean, and an attribute nothing
// says anything about.
func shopForKeys() designer.Design {
	order := func(id, customer, status, day string, gift bool) designer.SampleItem {
		return designer.SampleItem{ID: id, Item: designer.Item{
			"pk": designer.Str("ORDER#" + id), "sk": designer.Str("ORDER"), "order_id": designer.Str(id),
			"customer_id": designer.Str(customer), "status": designer.Str(status), "order_day": designer.Str(day),
			"is_gift": designer.Boolean(gift), "warehouse": designer.Str("W1"), "channel": designer.Str("web-" + id),
		}}
	}
	return designer.Normalize(designer.Design{
		Name: "Shop",
		Entities: []designer.Entity{
			{Name: "Customer", Attributes: []designer.Attribute{{Name: "customer_id", Type: designer.S}}},
			{Name: "Order", Count: designertest.Ptr[int64](3000), Attributes: []designer.Attribute{
				{Name: "order_id", Type: designer.S}, {Name: "customer_id", Type: designer.S}, {Name: "status", Type: designer.S},
				{Name: "order_day", Type: designer.S}, {Name: "is_gift", Type: designer.BOOL},
			}},
			{Name: "OrderLine", Attributes: []designer.Attribute{{Name: "order_id", Type: designer.S}}},
			{Name: "Settings", Attributes: []designer.Attribute{{Name: "name", Type: designer.S}}},
			{Name: "Warehouse", Attributes: []designer.Attribute{{Name: "warehouse_id", Type: designer.S}}},
		},
		Relationships: []designer.Relationship{
			{From: "Customer", To: "Order", Kind: designer.OneToMany, Avg: designertest.Ptr(4.0)},
			{From: "Order", To: "OrderLine", Kind: designer.OneToMany, Avg: designertest.Ptr(2.5)},
		},
		Tables: []designer.Table{{
			Name:         "Shop",
			PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
			EntityTypes: []designer.EntityType{
				{Entity: "Order", PKTemplate: "ORDER#{order_id}", SKTemplate: "ORDER"},
				{Entity: "OrderLine", PKTemplate: "ORDER#{order_id}", SKTemplate: "LINE#{line_no}"},
				{Entity: "Customer", PKTemplate: "CUSTOMER#{customer_id}", SKTemplate: "PROFILE"},
				{Entity: "Settings", PKTemplate: "SETTINGS", SKTemplate: "{name}"},
			},
			GSIs: []designer.Index{
				{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}}},
				{Name: "ByDay", PartitionKey: []designer.KeyAttribute{{Name: "order_day", Type: designer.S}}},
				{Name: "ByStatusDay", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}, {Name: "order_day", Type: designer.S}}},
				{Name: "ByCustomer", PartitionKey: []designer.KeyAttribute{{Name: "customer_id", Type: designer.S}}},
				{Name: "ByGift", PartitionKey: []designer.KeyAttribute{{Name: "is_gift", Type: designer.S}}},
				{Name: "ByWarehouse", PartitionKey: []designer.KeyAttribute{{Name: "warehouse", Type: designer.S}}},
				{Name: "ByChannel", PartitionKey: []designer.KeyAttribute{{Name: "channel", Type: designer.S}}},
				{Name: "ByStatusCustomer", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}, {Name: "customer_id", Type: designer.S}}},
			},
			Items: []designer.SampleItem{
				order("o1", "c1", "OPEN", "2026-11-01", false),
				order("o2", "c1", "PAID", "2026-11-02", true),
				order("o3", "c2", "SHIPPED", "2026-11-02", false),
				order("o4", "c3", "DELIVERED", "2026-11-03", false),
				order("o5", "c3", "OPEN", "2026-11-04", false),
			},
		}},
	})
}

func TestKeyCardinality_saysHowManyValuesAndWhereTheFigureCameFrom(t *testing.T) {
	t.Parallel()
	d := shopForKeys()
	tbl := d.Tables[0]
	index := func(name string) Cardinality {
		ix, local, _, ok := tbl.IndexByName(name)
		if !ok {
			t.Fatalf("no index %s", name)
		}
		return IndexKeyCardinality(d, tbl, ix, local)
	}
	cases := []struct {
		name        string
		got         Cardinality
		want        Cardinality
		description string
	}{
		{"the table: three templates, their values added", TableKeyCardinality(d, tbl),
			Cardinality{Values: 3751, Known: true, WriteValues: 3751,
				Source: "3,751: ORDER#{order_id} takes 3,000 orders (entity count) + CUSTOMER#{customer_id} takes 750 customers (3,000 orders ÷ 4 per customer) + 1 (literal SETTINGS)"}, ""},
		{"a status: the sample items' values", index("ByStatus"),
			Cardinality{Values: 4, Known: true, WriteValues: 4, Source: "4 distinct values of status in the sample items"}, ""},
		{"a date: increasing, writes on the newest value", index("ByDay"),
			Cardinality{Increasing: true, WriteValues: 1, Source: "order_day is a date or time: new items take its newest value"}, ""},
		{"status and date: writes spread over the statuses", index("ByStatusDay"),
			Cardinality{Increasing: true, WriteValues: 4,
				Source: "4 distinct values of status in the sample items × order_day is a date or time: new items take its newest value"}, ""},
		{"a derived count", index("ByCustomer"),
			Cardinality{Values: 750, Known: true, WriteValues: 750, Source: "750 customers (3,000 orders ÷ 4 per customer)"}, ""},
		{"a boolean, by its declared type", index("ByGift"),
			Cardinality{Values: 2, Known: true, WriteValues: 2, Source: "2 (is_gift is a boolean)"}, ""},
		{"one value in every sample item", index("ByWarehouse"),
			Cardinality{Values: 1, Known: true, WriteValues: 1, Source: "1 (every one of the 5 sample items has the same warehouse)"}, ""},
		{"nothing says", index("ByChannel"),
			Cardinality{Source: "not known: nothing says how many values channel takes (an entity count would)"}, ""},
		{"a product", index("ByStatusCustomer"),
			Cardinality{Values: 3000, Known: true, WriteValues: 3000,
				Source: "3,000: 4 distinct values of status in the sample items × 750 customers (3,000 orders ÷ 4 per customer)"}, ""},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, c.got, c.want)
		}
	}
}

func TestKeyCardinality_childCountsMultiplyAndAnEntityWithoutCountIsNotKnown(t *testing.T) {
	t.Parallel()
	d := shopForKeys()
	d.Tables[0].EntityTypes = []designer.EntityType{{Entity: "OrderLine", PKTemplate: "LINE#{order_id}#{line_no}"}}
	got := TableKeyCardinality(d, d.Tables[0])
	want := Cardinality{Source: "not known: nothing says how many values line_no takes (an entity count would)"}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	d.Tables[0].EntityTypes = []designer.EntityType{{Entity: "Warehouse", PKTemplate: "{warehouse_id}"}}
	got = TableKeyCardinality(d, d.Tables[0])
	want = Cardinality{Source: "not known: warehouse_id has as many values as Warehouse has items, and Warehouse has no count"}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestKeyCardinality_anEntitysOwnIdentifierInItsTemplateCountsItsItems(t *testing.T) {
	t.Parallel()
	d := shopForKeys()
	d.Entities = append(d.Entities, designer.Entity{Name: "ImportJob", Count: designertest.Ptr[int64](160),
		Attributes: []designer.Attribute{{Name: "job_id", Type: designer.S}, {Name: "board_id", Type: designer.S}}})
	d.Tables[0].EntityTypes = []designer.EntityType{{Entity: "ImportJob", PKTemplate: "IMPORT#{job_id}"}}
	got := TableKeyCardinality(d, d.Tables[0])
	want := Cardinality{Values: 160, Known: true, WriteValues: 160, Source: "160 import jobs (entity count)"}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestIdentifiedEntity_readsTheIdentifiersPeopleWrite(t *testing.T) {
	t.Parallel()
	d := designer.Design{Entities: []designer.Entity{{Name: "Employee"}, {Name: "Department"}, {Name: "DepartmentManager"}, {Name: "Order"}, {Name: "OrderItem"}, {Name: "Video"}}}
	for attr, want := range map[string]string{
		"emp_no": "Employee", "dept_no": "Department", "order_id": "Order", "orderId": "Order", "OrderID": "Order",
		"order_item_id": "OrderItem", "video": "", "status": "", "id": "", "departmentmanager_id": "DepartmentManager", "ord_no": "Order", "emp_id": "Employee", "xyz_id": "",
	} {
		got, _ := identifiedEntity(d, attr)
		if got != want {
			t.Errorf("%s identifies %q, want %q", attr, got, want)
		}
	}
}

func TestFigure_groupsThousandsAndRounds(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 3751: "3,751", 1234567: "1,234,567", 2.5: "2.5", -4000: "-4,000",
		1234.5678: "1,234.57", 0.19999999999999998: "0.2", 1.0 / 300: "0.00333", 500.4: "500.4", 0.05: "0.05"} {
		if got := Figure(v); got != want {
			t.Errorf("Figure(%v) = %q, want %q", v, got, want)
		}
	}
}

// followsForKeys is a social design in the hiking example's shape: follows keyed by the follower,
// then the followee, and direct messages keyed by a thread named after its two members.
func followsForKeys() designer.Design {
	return designer.Normalize(designer.Design{
		Name: "Follows",
		Entities: []designer.Entity{
			{Name: "Member", Count: designertest.Ptr[int64](400), Attributes: []designer.Attribute{{Name: "member_id", Type: designer.S}}},
			{Name: "Follow", Count: designertest.Ptr[int64](18000), Attributes: []designer.Attribute{
				{Name: "follower_id", Type: designer.S}, {Name: "followee_id", Type: designer.S}}},
			{Name: "DirectMessage", Count: designertest.Ptr[int64](25000), Attributes: []designer.Attribute{
				{Name: "thread_id", Type: designer.S}, {Name: "sent_at", Type: designer.S}}},
		},
		Relationships: []designer.Relationship{
			{From: "Member", To: "Follow", Kind: designer.OneToMany, Avg: designertest.Ptr(45.0)},
			{From: "Member", To: "DirectMessage", Kind: designer.OneToMany, Avg: designertest.Ptr(62.5)},
		},
		Tables: []designer.Table{{
			Name:         "Follows",
			PartitionKey: designer.KeyAttribute{Name: "follower_id", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "followee_id", Type: designer.S},
			EntityTypes:  []designer.EntityType{{Entity: "Follow", PKTemplate: "{follower_id}", SKTemplate: "{followee_id}"}},
		}, {
			Name:         "Threads",
			PartitionKey: designer.KeyAttribute{Name: "thread_id", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "sent_at", Type: designer.S},
			EntityTypes:  []designer.EntityType{{Entity: "DirectMessage", PKTemplate: "{thread_id}", SKTemplate: "{sent_at}"}},
			Items: []designer.SampleItem{
				{ID: "m1", Item: designer.Item{"thread_id": designer.Str("m_ana#m_bo"), "sent_at": designer.Str("2026-11-01T10:00:00Z")}},
				{ID: "m2", Item: designer.Item{"thread_id": designer.Str("m_ana#m_bo"), "sent_at": designer.Str("2026-11-01T10:05:00Z")}},
			},
		}},
	})
}

func TestKeyCardinality_aKeyThatGroupsAnEntityByItsParentHasTheParentsValues(t *testing.T) {
	t.Parallel()
	d := followsForKeys()
	follows := TableKeyCardinality(d, d.Tables[0])
	want := Cardinality{Values: 400, Known: true, WriteValues: 400,
		Source: "400 members (entity count); follower_id names the member of each follow (Member 1:M Follow)"}
	if follows != want {
		t.Errorf("the follower:\n got %+v\nwant %+v", follows, want)
	}

	// A thread named after its two members is neither member: the rule stands aside. Nor is
	// thread_id a direct message's identifier, though it is DirectMessage's first attribute: many
	// messages share a thread, and nothing counts the threads.
	threads := TableKeyCardinality(d, d.Tables[1])
	want = nothingSays("thread_id")
	if threads != want {
		t.Errorf("the thread:\n got %+v\nwant %+v", threads, want)
	}

	// With a second parent the design does not say which one the key names.
	d.Entities = append(d.Entities, designer.Entity{Name: "Club", Count: designertest.Ptr[int64](30)})
	d.Relationships = append(d.Relationships, designer.Relationship{From: "Club", To: "Follow", Kind: designer.OneToMany, Avg: designertest.Ptr(600.0)})
	if got := TableKeyCardinality(d, d.Tables[0]); got.Values == 400 || got.Values == 30 {
		t.Errorf("with two parents the follower still counts one of them: %+v", got)
	}

	// A key of the follower alone (one item per follower) is the follow's own identifier.
	d = followsForKeys()
	d.Tables[0].EntityTypes[0].SKTemplate = "FOLLOW"
	if got := TableKeyCardinality(d, d.Tables[0]); got.Values != 18000 {
		t.Errorf("a key of one item per value counts the follows: %+v", got)
	}
}

func TestKeyCardinality_aGSIKeyBuiltFromOtherAttributesCountsTheirTemplates(t *testing.T) {
	t.Parallel()
	d := shopForKeys()
	tbl := &d.Tables[0]
	for i := range tbl.Items {
		it := maps.Clone(tbl.Items[i].Item)
		it["gsi1pk"] = designer.Str("CUSTOMER#" + it["customer_id"].S)
		tbl.Items[i].Item = it
	}
	line := func(id, order, no string) designer.SampleItem {
		return designer.SampleItem{ID: id, Item: designer.Item{"pk": designer.Str("ORDER#" + order), "sk": designer.Str("LINE#" + no),
			"order_id": designer.Str(order), "line_no": designer.Str(no), "gsi1pk": designer.Str("ORDER#" + order)}}
	}
	ownerIndex := designer.Index{Name: "ByOwner", PartitionKey: []designer.KeyAttribute{{Name: "gsi1pk", Type: designer.S}}}
	sortKeyIndex := designer.Index{Name: "BySortKey", PartitionKey: []designer.KeyAttribute{{Name: "sk", Type: designer.S}},
		SortKey: []designer.KeyAttribute{{Name: "order_day", Type: designer.S}}}
	tbl.GSIs = []designer.Index{ownerIndex, sortKeyIndex}

	cases := []struct {
		name  string
		items []designer.SampleItem
		index designer.Index
		want  Cardinality
	}{
		{"one entity type's template, read from its items", tbl.Items, ownerIndex,
			Cardinality{Values: 750, Known: true, WriteValues: 750,
				Source: "750 customers (3,000 orders ÷ 4 per customer); gsi1pk is CUSTOMER#{customer_id} in the sample items"}},
		{"two entity types' templates add up", append(slices.Clone(tbl.Items), line("l1", "o1", "1"), line("l2", "o2", "1")), ownerIndex,
			Cardinality{Values: 3750, Known: true, WriteValues: 3750,
				Source: "3,750: CUSTOMER#{customer_id} takes 750 customers (3,000 orders ÷ 4 per customer) + ORDER#{order_id} takes 3,000 orders (entity count); gsi1pk is built by these templates in the sample items"}},
		{"items that build it differently tell nothing", append(slices.Clone(tbl.Items), line("l1", "o1", "1"),
			designer.SampleItem{ID: "l2", Item: designer.Item{"pk": designer.Str("ORDER#o2"), "sk": designer.Str("LINE#1"), "order_id": designer.Str("o2"), "gsi1pk": designer.Str("LINES")}}), ownerIndex,
			Cardinality{Source: "not known: nothing says how many values gsi1pk takes (an entity count would)"}},
		{"the table's sort key, by the SK taxonomy of the entity types a sparse index holds", append(slices.Clone(tbl.Items), line("l1", "o1", "1")), sortKeyIndex,
			Cardinality{Values: 1, Known: true, WriteValues: 1, Source: "1 (literal ORDER); sk is ORDER by the SK taxonomy"}},
	}
	for _, c := range cases {
		d := d
		d.Tables = slices.Clone(d.Tables)
		d.Tables[0].Items = c.items
		if got := IndexKeyCardinality(d, d.Tables[0], c.index, false); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// TestKeyCardinality_galleryExamplesCountWhatTheirDesignsSay checks the examples' keys by hand:
// Hiking's follows are grouped by 420,000 members (Member 1:M Follow) on the table and its
// follower index; the punch lists' four GSIs are keyed CONTRACTOR#{contractor_id} on punch items,
// 12,000 contractors; the pay scales' board directory is keyed by the boards' sort key PROFILE.
func TestKeyCardinality_galleryExamplesCountWhatTheirDesignsSay(t *testing.T) {
	t.Parallel()
	examples := designertest.Examples(t)
	cases := []struct {
		example, table, index string
		values                float64
	}{
		{"hiking-community", "Follows", "", 420_000},
		{"hiking-community", "Follows", "FollowersOf", 420_000},
		{"hiking-community", "MemberReports", "", 420_000},
		{"hiking-community", "SignInKeys", "", 840_000},
		{"punch-lists", "PunchLists", "ByStage", 12_000},
		{"punch-lists", "PunchLists", "ByTrade", 12_000},
		{"punch-lists", "PunchLists", "", 12_000 + 12_000 + 1_100_000},
		{"teacher-pay-scales", "PayScales", "BoardDirectory", 1},
		{"teacher-pay-scales", "PayScales", "", 410 + 1 + 1 + 160},
	}
	for _, c := range cases {
		d := examples[c.example]
		tbl, _, ok := d.TableByName(c.table)
		if !ok {
			t.Fatalf("%s has no table %s", c.example, c.table)
		}
		got := TableKeyCardinality(d, tbl)
		if c.index != "" {
			ix, local, _, ok := tbl.IndexByName(c.index)
			if !ok {
				t.Fatalf("%s has no index %s", c.table, c.index)
			}
			got = IndexKeyCardinality(d, tbl, ix, local)
		}
		if !got.Known || got.Values != c.values {
			t.Errorf("%s %s %s: %+v, want %s values", c.example, c.table, c.index, got, Figure(c.values))
		}
	}

	// Hiking's threads are counted by nothing: not by their messages.
	hiking := examples["hiking-community"]
	threads, _, _ := hiking.TableByName("Threads")
	if got := TableKeyCardinality(hiking, threads); got.Known {
		t.Errorf("Threads' thread_id counts %s", got.Source)
	}

	// The punch lists' table key takes a value per contractor under each of two templates: two
	// partitions per contractor, which its source says rather than listing the contractors twice.
	d := examples["punch-lists"]
	got := TableKeyCardinality(d, d.Tables[0]).Source
	want := "1,124,000: CONTRACTOR#{contractor_id} takes 12,000 contractors (entity count) + ITEMS#{contractor_id} takes 12,000 contractors (entity count) + RECEIPT#{request_id} takes 1,100,000 request receipts (entity count)"
	if got != want {
		t.Errorf("punch lists' pk comes from\n%s\nwant\n%s", got, want)
	}
}

func TestKeyCardinality_aGSIKeyBuiltFromTheTablesKeyCountsIt(t *testing.T) {
	t.Parallel()
	d := followsForKeys()
	follow := func(id, follower, followee string) designer.SampleItem {
		return designer.SampleItem{ID: id, Item: designer.Item{"follower_id": designer.Str(follower), "followee_id": designer.Str(followee),
			"gsi1pk": designer.Str("F#" + follower)}}
	}
	d.Tables[0].Items = []designer.SampleItem{follow("f1", "m_ana", "m_bo"), follow("f2", "m_bo", "m_ana")}
	ix := designer.Index{Name: "ByFollower", PartitionKey: []designer.KeyAttribute{{Name: "gsi1pk", Type: designer.S}}}
	d.Tables[0].GSIs = []designer.Index{ix}
	got := IndexKeyCardinality(d, d.Tables[0], ix, false)
	want := Cardinality{Values: 400, Known: true, WriteValues: 400,
		Source: "400 members (entity count); follower_id names the member of each follow (Member 1:M Follow); gsi1pk is F#{follower_id} in the sample items"}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestKeyCardinality_aTableWithoutSortKeyHasAValuePerItem(t *testing.T) {
	t.Parallel()
	d := designer.Design{
		Entities: []designer.Entity{{Name: "SignInKey", Count: designertest.Ptr[int64](840),
			Attributes: []designer.Attribute{{Name: "sign_in_key", Type: designer.S}, {Name: "email", Type: designer.S}, {Name: "handle", Type: designer.S}}}},
		Tables: []designer.Table{{
			Name:         "SignInKeys",
			PartitionKey: designer.KeyAttribute{Name: "sign_in_key", Type: designer.S},
			EntityTypes: []designer.EntityType{
				{Entity: "SignInKey", PKTemplate: "email#{email}"},
				{Entity: "SignInKey", PKTemplate: "handle#{handle}"},
			},
		}},
	}
	got := TableKeyCardinality(d, d.Tables[0])
	want := Cardinality{Values: 840, Known: true, WriteValues: 840,
		Source: "840 sign in keys (entity count); SignInKeys has no sort key, so each item has a partition-key value of its own"}
	if got != want {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	// With a sort key, many items may share a value: nothing says how many.
	d.Tables[0].SortKey = &designer.KeyAttribute{Name: "kind", Type: designer.S}
	if got := TableKeyCardinality(d, d.Tables[0]); got.Known {
		t.Errorf("with a sort key: %+v", got)
	}

	// An entity without a count counts nothing.
	d.Tables[0].SortKey = nil
	d.Entities[0].Count = nil
	if got := TableKeyCardinality(d, d.Tables[0]); got.Known {
		t.Errorf("without a count: %+v", got)
	}
}
