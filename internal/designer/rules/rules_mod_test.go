package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// cleanModel returns a design that no MOD rule reports anything about: an Orders table holding
// customer profiles and their orders, a sparse GSI by status and a sparse LSI by total, each read by
// a pattern, five items that follow the SK taxonomy, and a TTL attribute.
func cleanModel() designer.Design {
	profile := func(id, customer, note string) designer.SampleItem {
		return designer.SampleItem{ID: id, Item: designer.Item{"customer_id": designer.Str(customer), "order_key": designer.Str("PROFILE"), "note": designer.Str(note)}}
	}
	order := func(id, customer, date, status, total string) designer.SampleItem {
		return designer.SampleItem{ID: id, Item: designer.Item{
			"customer_id": designer.Str(customer), "order_key": designer.Str("ORDER#" + date), "status": designer.Str(status),
			"created_at": designer.Str(date), "total": designer.Num(total), "expires_at": designer.Num("1767225600"),
		}}
	}
	return designer.Normalize(designer.Design{
		Name: "Shop",
		Patterns: []designer.Pattern{
			{ID: "ap1", Number: 1, Description: "Get a customer", Type: designer.Read,
				Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "GetItem", Table: "Orders"}}}},
			{ID: "ap2", Number: 2, Description: "Orders by status", Type: designer.Read,
				Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Orders", Index: "OrdersByStatus"}}}},
			{ID: "ap3", Number: 3, Description: "A customer's largest orders", Type: designer.Read,
				Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Orders", Index: "OrdersByTotal"}}}},
		},
		Tables: []designer.Table{{
			Name:         "Orders",
			PartitionKey: designer.KeyAttribute{Name: "customer_id", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "order_key", Type: designer.S},
			EntityTypes: []designer.EntityType{
				{Entity: "Customer", PKTemplate: "{customer_id}", SKTemplate: "PROFILE"},
				{Entity: "Order", PKTemplate: "{customer_id}", SKTemplate: "ORDER#{created_at}"},
			},
			Attributes: []designer.Attribute{
				{Name: "customer_id", Type: designer.S}, {Name: "order_key", Type: designer.S}, {Name: "note", Type: designer.S},
				{Name: "status", Type: designer.S}, {Name: "created_at", Type: designer.S}, {Name: "total", Type: designer.N}, {Name: "expires_at", Type: designer.N},
			},
			TTLAttribute: "expires_at",
			GSIs: []designer.Index{{
				Name:              "OrdersByStatus",
				PartitionKey:      []designer.KeyAttribute{{Name: "status", Type: designer.S}},
				SortKey:           []designer.KeyAttribute{{Name: "created_at", Type: designer.S}},
				Projection:        designer.Projection{Type: designer.Include, Attributes: []string{"total"}},
				Sparse:            true,
				PatternAttributes: []designer.PatternAttributes{{Pattern: 2, Attributes: []string{"created_at", "total"}}},
			}},
			LSIs: []designer.Index{{
				Name:       "OrdersByTotal",
				SortKey:    []designer.KeyAttribute{{Name: "total", Type: designer.N}},
				Projection: designer.Projection{Type: designer.KeysOnly},
				Sparse:     true,
			}},
			Items: []designer.SampleItem{
				profile("i1", "c1", "prefers email"),
				order("i2", "c1", "2025-01-04", "OPEN", "25.50"),
				order("i3", "c1", "2025-02-11", "SHIPPED", "120"),
				profile("i4", "c2", "new"),
				order("i5", "c2", "2025-03-01", "OPEN", "9.99"),
			},
		}},
	})
}

// modFindings keeps the findings of the MOD rules.
func modFindings(fs []Finding) []Finding {
	return slices.DeleteFunc(slices.Clone(fs), func(f Finding) bool { return !strings.HasPrefix(f.Code, "MOD") })
}

func TestValidate_cleanModelHasNoModelFindings(t *testing.T) {
	t.Parallel()
	if got := modFindings(Validate(cleanModel())); len(got) != 0 {
		t.Fatalf("Validate(clean model) = %v\n%v", findingKeys(got), got)
	}
}

// orders returns the first table of d for editing.
func orders(d *designer.Design) *designer.Table { return &d.Tables[0] }

// item returns the attributes of the sample item with the given id for editing.
func item(d *designer.Design, id string) designer.Item {
	for _, it := range d.Tables[0].Items {
		if it.ID == id {
			return it.Item
		}
	}
	panic("no item " + id)
}

func gsiNamed(name string, pk ...string) designer.Index {
	ix := designer.Index{Name: name, Projection: designer.Projection{Type: designer.KeysOnly}}
	for _, a := range pk {
		ix.PartitionKey = append(ix.PartitionKey, designer.KeyAttribute{Name: a, Type: designer.S})
	}
	return ix
}

// renameAttribute renames an attribute of the Orders table everywhere: keys, declarations, TTL,
// templates and items.
func renameAttribute(d *designer.Design, from, to string) {
	t := orders(d)
	if t.PartitionKey.Name == from {
		t.PartitionKey.Name = to
	}
	if t.SortKey != nil && t.SortKey.Name == from {
		t.SortKey.Name = to
	}
	for i := range t.Attributes {
		if t.Attributes[i].Name == from {
			t.Attributes[i].Name = to
		}
	}
	for i := range t.EntityTypes {
		et := &t.EntityTypes[i]
		et.PKTemplate = strings.ReplaceAll(et.PKTemplate, "{"+from+"}", "{"+to+"}")
		et.SKTemplate = strings.ReplaceAll(et.SKTemplate, "{"+from+"}", "{"+to+"}")
	}
	for _, it := range t.Items {
		if v, ok := it.Item[from]; ok {
			delete(it.Item, from)
			it.Item[to] = v
		}
	}
}

func TestValidate_modelRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(d *designer.Design)
		want   []string // findings of the case's code, as "CODE severity path"
		inText string   // a phrase the first finding's message must contain
	}{
		// MOD001
		{name: "MOD001 fires for a short table name", edit: func(d *designer.Design) { orders(d).Name = "Or" },
			want: []string{"MOD001 error tables/Or"}, inText: `Table name "Or" is 2 characters long`},
		{name: "MOD001 fires for a space in a table name", edit: func(d *designer.Design) { orders(d).Name = "My Orders" },
			want: []string{"MOD001 error tables/My Orders"}, inText: `contains ' '`},
		{name: "MOD001 fires for a 256-character index name", edit: func(d *designer.Design) { orders(d).GSIs[0].Name = strings.Repeat("x", 256) },
			want: []string{"MOD001 error tables/Orders/indexes/" + strings.Repeat("x", 256)}, inText: "256 characters long"},
		{name: "MOD001 accepts dots, dashes and underscores", edit: func(d *designer.Design) {
			orders(d).Name = "shop.orders-v2_1"
			orders(d).GSIs[0].Name = strings.Repeat("x", 255)
		}},
		{name: "MOD001 fires for two tables of one name", edit: func(d *designer.Design) {
			d.Tables = append(d.Tables, designer.Table{Name: "Orders", PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.S}})
		}, want: []string{"MOD001 error tables/Orders"}, inText: `2 tables are named "Orders"`},
		{name: "MOD001 fires for a GSI and an LSI of one name", edit: func(d *designer.Design) { orders(d).LSIs[0].Name = "OrdersByStatus" },
			want: []string{"MOD001 error tables/Orders/indexes/OrdersByStatus"}, inText: `Orders has 2 indexes named "OrdersByStatus"`},
		{name: "MOD001 accepts one index name on two tables", edit: func(d *designer.Design) {
			d.Tables = append(d.Tables, designer.Table{Name: "Archive", PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.S},
				GSIs: []designer.Index{gsiNamed("OrdersByStatus", "id")}})
		}},

		// MOD002
		{name: "MOD002 fires for a BOOL table sort key", edit: func(d *designer.Design) { orders(d).SortKey.Type = designer.BOOL },
			want: []string{"MOD002 error tables/Orders/sort_key"}, inText: `Key attribute order_key, the sort key of Orders, has type "BOOL"`},
		{name: "MOD002 fires for a map GSI key", edit: func(d *designer.Design) { orders(d).GSIs[0].PartitionKey[0].Type = designer.M },
			want:   []string{"MOD002 error tables/Orders/indexes/OrdersByStatus/partition_key"},
			inText: "a partition key attribute of GSI OrdersByStatus on Orders"},
		{name: "MOD002 accepts B keys", edit: func(d *designer.Design) { orders(d).GSIs[0].SortKey[0].Type = designer.B }},
		{name: "MOD002 fires for a key without a type", edit: func(d *designer.Design) { orders(d).LSIs[0].SortKey[0].Type = "" },
			want: []string{"MOD002 error tables/Orders/indexes/OrdersByTotal/sort_key"}, inText: "has no type"},
		{name: "MOD002 leaves a key not chosen yet alone", edit: func(d *designer.Design) {
			orders(d).PartitionKey = designer.KeyAttribute{}
			orders(d).LSIs = nil
		}},

		// MOD003
		{name: "MOD003 fires for five GSI partition attributes", edit: func(d *designer.Design) {
			orders(d).GSIs = append(orders(d).GSIs, gsiNamed("Wide", "a", "b", "c", "d", "e"))
		}, want: []string{"MOD003 error tables/Orders/indexes/Wide/partition_key"}, inText: "has 5 partition key attributes (a, b, c, d and e)"},
		{name: "MOD003 fires for five GSI sort attributes", edit: func(d *designer.Design) {
			ix := gsiNamed("Wide", "a")
			for _, n := range []string{"b", "c", "d", "e", "f"} {
				ix.SortKey = append(ix.SortKey, designer.KeyAttribute{Name: n, Type: designer.N})
			}
			orders(d).GSIs = append(orders(d).GSIs, ix)
		}, want: []string{"MOD003 error tables/Orders/indexes/Wide/sort_key"}},
		{name: "MOD003 accepts four and four on a GSI", edit: func(d *designer.Design) {
			ix := gsiNamed("Wide", "a", "b", "c", "d")
			ix.SortKey = []designer.KeyAttribute{{Name: "e", Type: designer.S}, {Name: "f", Type: designer.S}, {Name: "g", Type: designer.S}, {Name: "h", Type: designer.S}}
			orders(d).GSIs = append(orders(d).GSIs, ix)
		}},
		{name: "MOD003 fires for an LSI with two sort attributes", edit: func(d *designer.Design) {
			orders(d).LSIs[0].SortKey = append(orders(d).LSIs[0].SortKey, designer.KeyAttribute{Name: "created_at", Type: designer.S})
		}, want: []string{"MOD003 error tables/Orders/indexes/OrdersByTotal/sort_key"}, inText: "multi-attribute keys are GSI-only"},

		// MOD004
		{name: "MOD004 fires for 21 GSIs", edit: func(d *designer.Design) {
			for i := range 20 {
				orders(d).GSIs = append(orders(d).GSIs, gsiNamed(fmt.Sprintf("ByStatus%02d", i), "status"))
			}
		}, want: []string{"MOD004 error tables/Orders"}, inText: "Orders has 21 GSIs"},
		{name: "MOD004 accepts 20 GSIs", edit: func(d *designer.Design) {
			for i := range 19 {
				orders(d).GSIs = append(orders(d).GSIs, gsiNamed(fmt.Sprintf("ByStatus%02d", i), "status"))
			}
		}},
		{name: "MOD004 fires for 6 LSIs", edit: func(d *designer.Design) {
			for i := range 5 {
				lsi := orders(d).LSIs[0]
				lsi.Name = fmt.Sprintf("ByTotal%d", i)
				orders(d).LSIs = append(orders(d).LSIs, lsi)
			}
		}, want: []string{"MOD004 error tables/Orders"}, inText: "Orders has 6 LSIs"},
		{name: "MOD004 fires for an LSI on another partition key", edit: func(d *designer.Design) {
			orders(d).LSIs[0].PartitionKey = []designer.KeyAttribute{{Name: "status", Type: designer.S}}
		}, want: []string{"MOD004 error tables/Orders/indexes/OrdersByTotal/partition_key"}, inText: "an LSI shares the table's, customer_id (S)"},
		{name: "MOD004 accepts an LSI that names the table's partition key", edit: func(d *designer.Design) {
			orders(d).LSIs[0].PartitionKey = []designer.KeyAttribute{{Name: "customer_id", Type: designer.S}}
		}},

		// MOD005
		{name: "MOD005 fires for a key attribute in INCLUDE", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection.Attributes = []string{"total", "customer_id", "status"}
		}, want: []string{"MOD005 error tables/Orders/indexes/OrdersByStatus/projection"}, inText: "lists key attributes customer_id and status in its INCLUDE projection"},
		{name: "MOD005 fires for 21 projected attributes", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection.Attributes = numbered("a", 21)
		}, want: []string{"MOD005 error tables/Orders/indexes/OrdersByStatus/projection"}, inText: "projects 21 non-key attributes"},
		{name: "MOD005 fires for 101 projected attributes on a table", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection.Attributes = numbered("a", 20)
			for i := range 4 {
				ix := gsiNamed(fmt.Sprintf("ByStatus%d", i), "status")
				ix.Projection = designer.Projection{Type: designer.Include, Attributes: numbered("b", 20)}
				orders(d).GSIs = append(orders(d).GSIs, ix)
			}
			orders(d).LSIs[0].Projection = designer.Projection{Type: designer.Include, Attributes: []string{"note"}}
		}, want: []string{"MOD005 error tables/Orders"}, inText: "project 101 non-key attributes in all"},
		{name: "MOD005 accepts 100 on a table and ignores ALL", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection.Attributes = numbered("a", 20)
			for i := range 4 {
				ix := gsiNamed(fmt.Sprintf("ByStatus%d", i), "status")
				ix.Projection = designer.Projection{Type: designer.Include, Attributes: numbered("b", 20)}
				orders(d).GSIs = append(orders(d).GSIs, ix)
			}
			orders(d).LSIs[0].Projection = designer.Projection{Type: designer.All}
		}},

		// MOD006
		{name: "MOD006 fires for a missing sort key", edit: func(d *designer.Design) { delete(item(d, "i2"), "order_key") },
			want: []string{"MOD006 error tables/Orders/items/i2/order_key"}, inText: `Item (customer_id = "c1") of Orders lacks order_key, the sort key of Orders`},
		{name: "MOD006 fires for a partition key of the wrong type", edit: func(d *designer.Design) { item(d, "i3")["customer_id"] = designer.Num("1") },
			want: []string{"MOD006 error tables/Orders/items/i3/customer_id"}, inText: "holds customer_id as N, but it is the partition key of Orders of type S"},
		{name: "MOD006 fires for an empty table key", edit: func(d *designer.Design) { item(d, "i1")["customer_id"] = designer.Str("") },
			want: []string{"MOD006 error tables/Orders/items/i1/customer_id"}, inText: "holds an empty string in customer_id, the partition key of Orders"},
		{name: "MOD006 fires for an empty GSI key", edit: func(d *designer.Design) { item(d, "i2")["status"] = designer.Str("") },
			want:   []string{"MOD006 error tables/Orders/items/i2/status"},
			inText: "a partition key attribute of GSI OrdersByStatus on Orders; DynamoDB refuses empty key values, so give it a value or leave the attribute out"},
		{name: "MOD006 fires for an empty binary index key", edit: func(d *designer.Design) {
			orders(d).GSIs[0].SortKey[0].Type = designer.B
			item(d, "i2")["created_at"] = designer.Bin(nil)
		}, want: []string{"MOD006 error tables/Orders/items/i2/created_at"}, inText: "holds an empty binary in created_at"},
		{name: "MOD006 accepts an empty non-key string and a missing index key", edit: func(d *designer.Design) {
			item(d, "i1")["note"] = designer.Str("")
			delete(item(d, "i2"), "status")
			orders(d).GSIs[0].Sparse = true
		}},

		// MOD007
		{name: "MOD007 warns over 100 KB", edit: func(d *designer.Design) { item(d, "i2")["note"] = designer.Str(strings.Repeat("x", 102400)) },
			want: []string{"MOD007 warning tables/Orders/items/i2"}, inText: `Item (customer_id = "c1", order_key = "ORDER#2025-01-04") of Orders is 102,`},
		{name: "MOD007 refuses over 400 KB", edit: func(d *designer.Design) { item(d, "i2")["note"] = designer.Str(strings.Repeat("x", 409600)) },
			want: []string{"MOD007 error tables/Orders/items/i2"}, inText: "DynamoDB refuses items over 400 KB"},
		{name: "MOD007 accepts exactly 100 KB", edit: func(d *designer.Design) {
			it := item(d, "i1")
			delete(it, "note")
			it["note"] = designer.Str(strings.Repeat("x", 102400-designer.ItemSize(it)-len("note")))
			if n := designer.ItemSize(it); n != 102400 {
				panic(fmt.Sprint("item size ", n))
			}
		}},

		// MOD008
		{name: "MOD008 fires for a sort key value over 1,024 bytes", edit: func(d *designer.Design) {
			item(d, "i1")["order_key"] = designer.Str(strings.Repeat("é", 513))
		}, want: []string{"MOD008 error tables/Orders/items/i1/order_key"}, inText: "holds a 1,026 bytes value in order_key, the sort key of Orders; a sort key value is at most 1,024 bytes"},
		{name: "MOD008 fires for a partition key value over 2,048 bytes", edit: func(d *designer.Design) {
			item(d, "i1")["customer_id"] = designer.Str(strings.Repeat("c", 2049))
		}, want: []string{"MOD008 error tables/Orders/items/i1/customer_id"}},
		{name: "MOD008 accepts 2,048 and 1,024 bytes", edit: func(d *designer.Design) {
			item(d, "i1")["customer_id"] = designer.Str(strings.Repeat("c", 2048))
			item(d, "i1")["order_key"] = designer.Str(strings.Repeat("k", 1024))
		}},
		{name: "MOD008 holds an attribute in a sort and a partition key to 1,024", edit: func(d *designer.Design) {
			orders(d).GSIs = append(orders(d).GSIs, gsiNamed("ByNote", "note"))
			orders(d).LSIs[0].SortKey = []designer.KeyAttribute{{Name: "note", Type: designer.S}}
			item(d, "i1")["note"] = designer.Str(strings.Repeat("n", 1025))
		}, want: []string{"MOD008 error tables/Orders/items/i1/note"}, inText: "a sort key attribute of LSI OrdersByTotal on Orders"},
		{name: "MOD008 fires for a binary GSI key", edit: func(d *designer.Design) {
			orders(d).GSIs[0].PartitionKey[0].Type = designer.B
			item(d, "i2")["status"] = designer.Bin(make([]byte, 2049))
		}, want: []string{"MOD008 error tables/Orders/items/i2/status"}},

		// MOD009
		{name: "MOD009 fires for a GSI key of another type", edit: func(d *designer.Design) { item(d, "i2")["status"] = designer.Num("1") },
			want:   []string{"MOD009 error tables/Orders/items/i2/status"},
			inText: `Item (customer_id = "c1", order_key = "ORDER#2025-01-04") of Orders holds status as N, but GSI OrdersByStatus on Orders declares it S; DynamoDB refuses the whole write`},
		{name: "MOD009 fires for an LSI key of another type", edit: func(d *designer.Design) { item(d, "i3")["total"] = designer.Str("120") },
			want: []string{"MOD009 error tables/Orders/items/i3/total"}},
		{name: "MOD009 leaves a table key to MOD006", edit: func(d *designer.Design) {
			orders(d).GSIs = append(orders(d).GSIs, gsiNamed("ByCustomer", "customer_id"))
			item(d, "i3")["customer_id"] = designer.Num("1")
		}},

		// MOD010
		{name: "MOD010 fires for a repeated primary key", edit: func(d *designer.Design) { item(d, "i3")["order_key"] = item(d, "i2")["order_key"] },
			want:   []string{"MOD010 error tables/Orders/items/i3"},
			inText: `Items i2 and i3 of Orders share the primary key customer_id = "c1", order_key = "ORDER#2025-01-04"`},
		{name: "MOD010 compares numbers by value", edit: func(d *designer.Design) {
			orders(d).SortKey = &designer.KeyAttribute{Name: "total", Type: designer.N}
			orders(d).LSIs = nil
			orders(d).EntityTypes = nil
			for _, it := range orders(d).Items {
				it.Item["total"] = designer.Num("1.50")
			}
			item(d, "i2")["total"] = designer.Num("15E-1")
			item(d, "i4")["customer_id"] = designer.Str("c3")
			item(d, "i5")["customer_id"] = designer.Str("c4")
		}, want: []string{"MOD010 error tables/Orders/items/i2"}, inText: "Items i1, i2 and i3 of Orders share the primary key"},
		{name: "MOD010 accepts the same sort key under another partition key", edit: func(d *designer.Design) {
			item(d, "i5")["order_key"] = item(d, "i2")["order_key"]
		}},

		// MOD011
		{name: "MOD011 fires for the text null", edit: func(d *designer.Design) { item(d, "i1")["note"] = designer.Str("null") },
			want: []string{"MOD011 warning tables/Orders/items/i1/note"}, inText: `holds the text "null" in note; leave the attribute out`},
		{name: "MOD011 fires for the text NULL", edit: func(d *designer.Design) { item(d, "i4")["note"] = designer.Str("NULL") },
			want: []string{"MOD011 warning tables/Orders/items/i4/note"}},
		{name: "MOD011 accepts the NULL type and longer text", edit: func(d *designer.Design) {
			item(d, "i1")["note"] = designer.Null()
			item(d, "i4")["note"] = designer.Str("nullable")
		}},

		// MOD012
		{name: "MOD012 advises on PK and SK", edit: func(d *designer.Design) {
			renameAttribute(d, "customer_id", "PK")
			renameAttribute(d, "order_key", "SK")
		}, want: []string{"MOD012 info tables/Orders/partition_key", "MOD012 info tables/Orders/sort_key"},
			inText: "The partition key of Orders is the generic PK; a natural name"},
		{name: "MOD012 advises on GSI1 and GSI1PK", edit: func(d *designer.Design) {
			ix := gsiNamed("GSI1", "GSI1PK")
			ix.SortKey = []designer.KeyAttribute{{Name: "gsi_1_sk", Type: designer.S}}
			orders(d).GSIs = append(orders(d).GSIs, ix)
		}, want: []string{
			"MOD012 info tables/Orders/indexes/GSI1",
			"MOD012 info tables/Orders/indexes/GSI1/partition_key",
			"MOD012 info tables/Orders/indexes/GSI1/sort_key",
		}, inText: "GSI GSI1 on Orders has a generic name; name it after the query it serves"},
		{name: "MOD012 advises on data", edit: func(d *designer.Design) { orders(d).GSIs = append(orders(d).GSIs, gsiNamed("ByData", "data")) },
			want: []string{"MOD012 info tables/Orders/indexes/ByData/partition_key"}},
		{name: "MOD012 accepts natural names that contain key words", edit: func(d *designer.Design) {
			orders(d).GSIs = append(orders(d).GSIs, gsiNamed("SkuIndex", "sku", "keyword", "record_key", "pk_hash_of_email"))
		}},

		// MOD013
		{name: "MOD013 fires under 5 items", edit: func(d *designer.Design) { orders(d).Items = orders(d).Items[:4] },
			want: []string{"MOD013 warning tables/Orders"}, inText: "Orders has 4 sample items; add representative items (the seed asks for 5 to 10)"},
		{name: "MOD013 fires for a table without items", edit: func(d *designer.Design) { orders(d).Items = nil },
			want: []string{"MOD013 warning tables/Orders"}, inText: "Orders has 0 sample items"},

		// MOD014
		{name: "MOD014 fires for a sort key outside the taxonomy", edit: func(d *designer.Design) { item(d, "i2")["order_key"] = designer.Str("INVOICE#1") },
			want:   []string{"MOD014 warning tables/Orders/items/i2/order_key"},
			inText: `Item (customer_id = "c1", order_key = "INVOICE#1") of Orders has sort key "INVOICE#1", which matches none of the SK taxonomy (PROFILE, ORDER#{created_at})`},
		{name: "MOD014 is silent without templates", edit: func(d *designer.Design) {
			orders(d).EntityTypes = []designer.EntityType{{Entity: "Order"}}
			item(d, "i2")["order_key"] = designer.Str("INVOICE#1")
		}},
		{name: "MOD014 checks the partition key of a table without a sort key", edit: func(d *designer.Design) {
			t := orders(d)
			t.SortKey, t.LSIs = nil, nil
			t.EntityTypes = []designer.EntityType{{Entity: "Customer", PKTemplate: "c{n}"}}
			t.Attributes = append(t.Attributes, designer.Attribute{Name: "n", Type: designer.N})
			for i, it := range t.Items {
				it.Item["customer_id"] = designer.Str(fmt.Sprintf("c%d", i))
			}
			item(d, "i5")["customer_id"] = designer.Str("x5")
		}, want: []string{"MOD014 warning tables/Orders/items/i5/customer_id"}, inText: "matches none of the partition-key templates (c{n})"},

		// MOD015
		{name: "MOD015 fires for a TTL held as text", edit: func(d *designer.Design) { item(d, "i2")["expires_at"] = designer.Str("2026-01-01") },
			want: []string{"MOD015 error tables/Orders/items/i2/expires_at"}, inText: "holds its TTL attribute expires_at as S"},
		{name: "MOD015 fires for a TTL declared as text", edit: func(d *designer.Design) {
			orders(d).Attributes[len(orders(d).Attributes)-1].Type = designer.S
		}, want: []string{"MOD015 error tables/Orders/ttl_attribute"}, inText: "The TTL attribute expires_at of Orders is declared S"},
		{name: "MOD015 accepts items without the TTL attribute", edit: func(d *designer.Design) { delete(item(d, "i2"), "expires_at") }},

		// MOD016
		{name: "MOD016 fires for an index no pattern uses", edit: func(d *designer.Design) {
			orders(d).GSIs = append(orders(d).GSIs, gsiNamed("ByNote", "note"))
		}, want: []string{"MOD016 warning tables/Orders/indexes/ByNote"}, inText: "GSI ByNote on Orders serves no access pattern"},
		{name: "MOD016 fires for an LSI whose pattern moved to another table", edit: func(d *designer.Design) {
			d.Patterns[2].Mapping.Operations[0].Table = "Archive"
		}, want: []string{"MOD016 warning tables/Orders/indexes/OrdersByTotal"}},
		{name: "MOD016 accepts an index with per-pattern attributes only", edit: func(d *designer.Design) {
			d.Patterns[1].Mapping.Operations = nil
		}},

		// MOD017
		{name: "MOD017 fires for a sparse index that holds every item", edit: func(d *designer.Design) {
			for _, id := range []string{"i1", "i4"} {
				item(d, id)["status"] = designer.Str("NONE")
				item(d, id)["created_at"] = designer.Str("2020-01-01")
			}
		}, want: []string{"MOD017 warning tables/Orders/indexes/OrdersByStatus/sparse"}, inText: "is marked sparse, but every sample item has its key attributes"},
		{name: "MOD017 fires for an index that leaves items out unmarked", edit: func(d *designer.Design) { orders(d).LSIs[0].Sparse = false },
			want: []string{"MOD017 warning tables/Orders/indexes/OrdersByTotal/sparse"}, inText: `LSI OrdersByTotal on Orders is not marked sparse, but it leaves out items (customer_id = "c1", order_key = "PROFILE") and (customer_id = "c2", order_key = "PROFILE"); the first has no total`},
		{name: "MOD017 does not count items refused for a wrong key type as sparse", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Sparse = false
			for _, id := range []string{"i1", "i4"} {
				item(d, id)["status"] = designer.Num("0")
				item(d, id)["created_at"] = designer.Str("2020-01-01")
			}
		}},
		{name: "MOD017 is silent without items", edit: func(d *designer.Design) { orders(d).Items = nil }},

		// MOD018
		{name: "MOD018 advises INCLUDE for an ALL projection", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection = designer.Projection{Type: designer.All}
		}, want: []string{"MOD018 info tables/Orders/indexes/OrdersByStatus/projection"},
			inText: "GSI OrdersByStatus on Orders projects ALL, but pattern 2 reads at most 1 other attribute (total): INCLUDE (total) would cut its storage and write cost"},
		{name: "MOD018 reads needs from ProjectionExpressions", edit: func(d *designer.Design) {
			orders(d).LSIs[0].Projection = designer.Projection{Type: designer.All}
			op := &d.Patterns[2].Mapping.Operations[0]
			op.Projection, op.Names = "customer_id, #n, total, created_at", map[string]string{"#n": "note"}
			d.Patterns = append(d.Patterns, designer.Pattern{ID: "ap4", Number: 4, Type: designer.Read, Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "Query", Table: "Orders", Index: "OrdersByTotal", Projection: "status"},
			}}})
		}, want: []string{"MOD018 info tables/Orders/indexes/OrdersByTotal/projection"},
			inText: "patterns 3 and 4 read at most 2 other attributes (note, created_at, status): INCLUDE (note, created_at, status)"},
		{name: "MOD018 is silent when a pattern reads whole entries", edit: func(d *designer.Design) {
			orders(d).LSIs[0].Projection = designer.Projection{Type: designer.All}
		}},
		{name: "MOD018 is silent when a pattern needs four attributes", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection = designer.Projection{Type: designer.All}
			orders(d).GSIs[0].PatternAttributes[0].Attributes = []string{"total", "note", "expires_at", "order_key", "extra"}
			orders(d).Attributes = append(orders(d).Attributes, designer.Attribute{Name: "extra", Type: designer.S})
		}},

		// MOD019
		{name: "MOD019 fires for undeclared index and template attributes", edit: func(d *designer.Design) {
			orders(d).GSIs[0].Projection.Attributes = append(orders(d).GSIs[0].Projection.Attributes, "currency")
			orders(d).GSIs[0].PatternAttributes[0].Attributes = append(orders(d).GSIs[0].PatternAttributes[0].Attributes, "currency")
			orders(d).GSIs = append(orders(d).GSIs, gsiNamed("ByRegion", "region"))
			d.Patterns = append(d.Patterns, designer.Pattern{ID: "ap4", Number: 4, Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Orders", Index: "ByRegion"}}}})
			orders(d).EntityTypes[1].SKTemplate = "ORDER#{created_at}#{order_id}"
		}, want: []string{
			"MOD019 warning tables/Orders/attributes/currency",
			"MOD019 warning tables/Orders/attributes/order_id",
			"MOD019 warning tables/Orders/attributes/region",
		}, inText: "Orders uses currency (projection of GSI OrdersByStatus, pattern 2 on GSI OrdersByStatus) but does not declare it; add currency to the table's attributes"},
		{name: "MOD019 names an entity type without a name by its place", edit: func(d *designer.Design) {
			orders(d).EntityTypes[1].Entity = ""
			orders(d).EntityTypes[1].SKTemplate = "ORDER#{created_at}#{order_id}"
		}, want: []string{"MOD019 warning tables/Orders/attributes/order_id"},
			inText: "Orders uses order_id (key template of entity type 2) but does not declare it"},
		{name: "MOD019 fires for an undeclared TTL attribute", edit: func(d *designer.Design) { orders(d).TTLAttribute = "ttl" },
			want: []string{"MOD019 warning tables/Orders/attributes/ttl"}, inText: "Orders uses ttl (TTL)"},
		{name: "MOD019 counts the table's keys as declared", edit: func(d *designer.Design) {
			orders(d).Attributes = orders(d).Attributes[2:]
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := tt.name[:6]
			d := cleanModel()
			tt.edit(&d)
			var got []Finding
			for _, f := range Validate(d) {
				if f.Code == code {
					got = append(got, f)
				}
			}
			if keys := findingKeys(got); !slices.Equal(keys, tt.want) && (len(keys) > 0 || len(tt.want) > 0) {
				t.Fatalf("%s findings =\n%s\nwant\n%s\nmessages: %v", code, strings.Join(keys, "\n"), strings.Join(tt.want, "\n"), got)
			}
			if tt.inText != "" && !strings.Contains(got[0].Message, tt.inText) {
				t.Errorf("message = %q, want it to contain %q", got[0].Message, tt.inText)
			}
		})
	}
}

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, i)
	}
	return out
}

func TestGenericName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"PK": true, "SK": true, "pk": true, "GSI1PK": true, "GSI1SK": true, "gsi_2_sk": true, "GSI1": true, "LSI1": true,
		"data": true, "Data": true, "key": true, "PK1": true, "hash_key": true, "idx": true,
		"customer_id": false, "sku": false, "record_key": false, "keyword": false, "OrdersByCustomer": false, "": false,
		"indexed_at": false, "skills": false,
	} {
		if got := genericName(name); got != want {
			t.Errorf("genericName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestValidate_hrExampleHasNoModelErrors(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	for _, f := range modFindings(Validate(d)) {
		if f.Severity != SeverityInfo {
			t.Errorf("hr-employees: %s %s %s: %s", f.Code, f.Severity, f.Path, f.Message)
		}
	}
}

// BenchmarkValidateLarge validates 50 tables of 200 items each, two GSIs per table and 10 mapped
// read patterns per table.
func BenchmarkValidateLarge(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 50, Items: 10_000, GSIs: 100, Patterns: 500})
	if n := len(modFindings(Validate(d))); n == 0 {
		b.Fatal("the large design has no model findings")
	}
	b.ReportAllocs()
	for b.Loop() {
		Validate(d)
	}
}
