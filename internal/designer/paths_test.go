package designer_test

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func TestPathsOverlap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b []designer.Path
		want bool
	}{
		{"same path", []designer.Path{"name"}, []designer.Path{"name"}, true},
		{"a row and one of its fields", []designer.Path{"access_patterns/ap1"}, []designer.Path{"access_patterns/ap1/description"}, true},
		{"a field and its row", []designer.Path{"access_patterns/ap1/description"}, []designer.Path{"access_patterns/ap1"}, true},
		{"two fields of one row", []designer.Path{"access_patterns/ap1/description"}, []designer.Path{"access_patterns/ap1/peak_rps"}, false},
		{"a row whose id is a prefix of another's", []designer.Path{"access_patterns/ap1"}, []designer.Path{"access_patterns/ap10"}, false},
		{"a name that is a prefix of another", []designer.Path{"overview/scale"}, []designer.Path{"overview/scale_note"}, false},
		{"the whole design and a field", []designer.Path{""}, []designer.Path{"tables/t1/name"}, true},
		{"a field and the whole design", []designer.Path{"name"}, []designer.Path{""}, true},
		{"any of several", []designer.Path{"name", "tables/t1"}, []designer.Path{"entities", "tables/t1/gsis/g1"}, true},
		{"none of several", []designer.Path{"name", "tables/t1"}, []designer.Path{"entities", "tables/t2"}, false},
		{"no paths", nil, []designer.Path{""}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := designer.PathsOverlap(tc.a, tc.b); got != tc.want {
				t.Fatalf("PathsOverlap(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

// slashed is a design whose entity, table and index names hold slashes, beside names that are
// the first part of them.
var slashed = designer.Design{
	Entities: []designer.Entity{{Name: "Order"}, {Name: "Order/Line"}},
	Tables: []designer.Table{
		{Name: "app"},
		{Name: "app/orders", GSIs: []designer.Index{{Name: "by"}, {Name: "by/status"}}, LSIs: []designer.Index{{Name: "local/one"}}},
	},
}

// slashedComments is a design with names that end as the comments on an element do.
var slashedComments = designer.Design{
	Tables: []designer.Table{{Name: "app/comments"}, {Name: "app/orders", GSIs: []designer.Index{{Name: "by"}, {Name: "by/comments"}}}},
}

func TestPathParts(t *testing.T) {
	t.Parallel()
	type parts = designer.PathParts
	for _, tc := range []struct {
		name  string
		path  designer.Path
		known []designer.Design
		want  parts
	}{
		{"the whole design", "", nil, parts{}},
		{"the name", "name", nil, parts{Collection: "name"}},
		{"an overview field", "overview/scale", nil, parts{Collection: "overview", Field: "scale"}},
		{"a consideration", "considerations/hot_keys", nil, parts{Collection: "considerations", Field: "hot_keys"}},
		{"a data model section", "prose/summary", nil, parts{Collection: "prose", Field: "summary"}},
		{"a capacity setting", "capacity/target_utilization", nil, parts{Collection: "capacity", Field: "target_utilization"}},
		{"the patterns", "access_patterns", nil, parts{Collection: "access_patterns"}},
		{"a pattern", "access_patterns/ap1", nil, parts{Collection: "access_patterns", Key: "ap1"}},
		{"a pattern's field", "access_patterns/ap1/description", nil, parts{Collection: "access_patterns", Key: "ap1", Field: "description"}},
		{"a pattern's mapping notes", "access_patterns/3/mapping/notes", nil, parts{Collection: "access_patterns", Key: "3", Field: "mapping/notes"}},
		{"an operation's field", "access_patterns/ap1/mapping/operations/2/update", nil,
			parts{Collection: "access_patterns", Key: "ap1", Sub: "operations", SubKey: "2", Field: "update"}},
		{"a pattern's comments", "access_patterns/ap1/comments", nil, parts{Collection: "access_patterns", Key: "ap1", Comments: true}},
		{"an entity", "entities/Order", nil, parts{Collection: "entities", Key: "Order"}},
		{"an entity's field", "entities/Order/description", nil, parts{Collection: "entities", Key: "Order", Field: "description"}},
		{"an entity whose name holds a slash", "entities/Order/Line/description", []designer.Design{slashed},
			parts{Collection: "entities", Key: "Order/Line", Field: "description"}},
		{"an entity whose name holds a slash, no field", "entities/Order/Line", []designer.Design{slashed},
			parts{Collection: "entities", Key: "Order/Line"}},
		{"an unknown name ends at its first slash", "entities/Order/Line/description", nil,
			parts{Collection: "entities", Key: "Order", Field: "Line/description"}},
		{"a name only a second design knows", "entities/Order/Line/description", []designer.Design{{}, slashed},
			parts{Collection: "entities", Key: "Order/Line", Field: "description"}},
		{"a relationship's field", "relationships/r1/cardinality", nil, parts{Collection: "relationships", Key: "r1", Field: "cardinality"}},
		{"an aggregate's field", "aggregates/ag1/decision", nil, parts{Collection: "aggregates", Key: "ag1", Field: "decision"}},
		{"a consolidation", "consolidations/c1", nil, parts{Collection: "consolidations", Key: "c1"}},
		{"the tables", "tables", nil, parts{Collection: "tables"}},
		{"a table", "tables/Orders", nil, parts{Collection: "tables", Key: "Orders"}},
		{"a table's field", "tables/Orders/billing_mode", nil, parts{Collection: "tables", Key: "Orders", Field: "billing_mode"}},
		{"a table's items", "tables/Orders/items", nil, parts{Collection: "tables", Key: "Orders", Sub: "items"}},
		{"an item", "tables/Orders/items/i3", nil, parts{Collection: "tables", Key: "Orders", Sub: "items", SubKey: "i3"}},
		{"an item's attribute", "tables/Orders/items/i3/status", nil, parts{Collection: "tables", Key: "Orders", Sub: "items", SubKey: "i3", Field: "status"}},
		{"an attribute whose name holds a slash", "tables/Orders/items/i3/a/b", nil, parts{Collection: "tables", Key: "Orders", Sub: "items", SubKey: "i3", Field: "a/b"}},
		{"an item's comments", "tables/Orders/items/i3/comments", nil, parts{Collection: "tables", Key: "Orders", Sub: "items", SubKey: "i3", Comments: true}},
		{"an index", "tables/Orders/indexes/ByStatus", nil, parts{Collection: "tables", Key: "Orders", Sub: "indexes", SubKey: "ByStatus"}},
		{"an index's field", "tables/Orders/indexes/ByStatus/purpose", nil,
			parts{Collection: "tables", Key: "Orders", Sub: "indexes", SubKey: "ByStatus", Field: "purpose"}},
		{"an index's comments", "tables/Orders/indexes/ByStatus/comments", nil,
			parts{Collection: "tables", Key: "Orders", Sub: "indexes", SubKey: "ByStatus", Comments: true}},
		{"a table's comments", "tables/Orders/comments", nil, parts{Collection: "tables", Key: "Orders", Comments: true}},
		{"an entity type's field", "tables/Orders/entity_types/0/entity", nil,
			parts{Collection: "tables", Key: "Orders", Sub: "entity_types", SubKey: "0", Field: "entity"}},
		{"a table whose name holds a slash", "tables/app/orders", []designer.Design{slashed}, parts{Collection: "tables", Key: "app/orders"}},
		{"the table a slashed name starts with", "tables/app/billing_mode", []designer.Design{slashed},
			parts{Collection: "tables", Key: "app", Field: "billing_mode"}},
		{"an item of a table whose name holds a slash", "tables/app/orders/items/i1/sk", []designer.Design{slashed},
			parts{Collection: "tables", Key: "app/orders", Sub: "items", SubKey: "i1", Field: "sk"}},
		{"an index whose name holds a slash", "tables/app/orders/indexes/by/status/purpose", []designer.Design{slashed},
			parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by/status", Field: "purpose"}},
		{"a local index whose name holds a slash", "tables/app/orders/indexes/local/one", []designer.Design{slashed},
			parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "local/one"}},
		{"the index a slashed name starts with", "tables/app/orders/indexes/by/purpose", []designer.Design{slashed},
			parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by", Field: "purpose"}},
		{"comments on a slashed index", "tables/app/orders/indexes/by/status/comments", []designer.Design{slashed},
			parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by/status", Comments: true}},
		{"the diagrams", "diagrams", nil, parts{Collection: "diagrams"}},
		{"a diagram", "diagrams/model_map", nil, parts{Collection: "diagrams", Key: "model_map"}},
		{"a diagram's node", "diagrams/model_map/index:Orders/ByStatus", nil,
			parts{Collection: "diagrams", Key: "model_map", SubKey: "index:Orders/ByStatus"}},
		{"a table named comments", "tables/comments", nil, parts{Collection: "tables", Key: "comments"}},
		{"an index whose name ends in comments", "tables/app/orders/indexes/by/comments", []designer.Design{slashedComments},
			parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by/comments"}},
		{"a table whose name ends in comments", "tables/app/comments", []designer.Design{slashedComments},
			parts{Collection: "tables", Key: "app/comments"}},
		{"an operation's comments are no comments", "access_patterns/ap1/mapping/operations/0/comments", nil,
			parts{Collection: "access_patterns", Key: "ap1", Sub: "operations", SubKey: "0", Field: "comments"}},
		{"an entity's comments are no comments", "entities/Order/comments", nil, parts{Collection: "entities", Key: "Order", Field: "comments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.path.Parts(tc.known...); got != tc.want {
				t.Fatalf("Path(%q).Parts() = %+v, want %+v", tc.path, got, tc.want)
			}
		})
	}
}

func TestPathBuilders_readBackByParts(t *testing.T) {
	t.Parallel()
	type parts = designer.PathParts
	for _, tc := range []struct {
		path designer.Path
		want parts
	}{
		{designer.PatternPath("ap4", ""), parts{Collection: "access_patterns", Key: "ap4"}},
		{designer.PatternPath("ap4", "peak_rps"), parts{Collection: "access_patterns", Key: "ap4", Field: "peak_rps"}},
		{designer.OperationPath("ap4", 1, "key_condition"), parts{Collection: "access_patterns", Key: "ap4", Sub: "operations", SubKey: "1", Field: "key_condition"}},
		{designer.EntityPath(" Order/Line ", "count"), parts{Collection: "entities", Key: "Order/Line", Field: "count"}},
		{designer.RelationshipPath("r2", ""), parts{Collection: "relationships", Key: "r2"}},
		{designer.AggregatePath("ag1", "decision"), parts{Collection: "aggregates", Key: "ag1", Field: "decision"}},
		{designer.ConsolidationPath("c1", "overlap_pct"), parts{Collection: "consolidations", Key: "c1", Field: "overlap_pct"}},
		{designer.Path(designer.PathOverview).Child("scale"), parts{Collection: "overview", Field: "scale"}},
		{designer.TablePath("app/orders"), parts{Collection: "tables", Key: "app/orders"}},
		{designer.TablePath("app/orders").Child("purpose"), parts{Collection: "tables", Key: "app/orders", Field: "purpose"}},
		{designer.ItemsPath("app/orders"), parts{Collection: "tables", Key: "app/orders", Sub: "items"}},
		{designer.ItemPath("app/orders", "i1", " sk "), parts{Collection: "tables", Key: "app/orders", Sub: "items", SubKey: "i1", Field: "sk"}},
		{designer.IndexPath("app/orders", "by/status", ""), parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by/status"}},
		{designer.IndexPath("app/orders", "by/status", "sparse"), parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by/status", Field: "sparse"}},
		{designer.DiagramPath("entities", "entity:Order/Line"), parts{Collection: "diagrams", Key: "entities", SubKey: "entity:Order/Line"}},
		{designer.CommentsPath(designer.IndexPath("app/orders", "by/status", "")), parts{Collection: "tables", Key: "app/orders", Sub: "indexes", SubKey: "by/status", Comments: true}},
	} {
		if got := tc.path.Parts(slashed); got != tc.want {
			t.Errorf("Path(%q).Parts() = %+v, want %+v", tc.path, got, tc.want)
		}
	}
}

func TestPathParts_member(t *testing.T) {
	t.Parallel()
	for path, want := range map[designer.Path]string{
		"access_patterns/ap1/peak_rps":                   "peak_rps",
		"access_patterns/3/mapping/notes":                "mapping",
		"access_patterns/ap1/mapping/operations/0/index": "mapping",
		"tables/Orders/items/i1/a/b":                     "a/b",
		"tables/Orders/billing_mode":                     "billing_mode",
		"entities/Order":                                 "",
	} {
		if got := path.Parts().Member(); got != want {
			t.Errorf("Path(%q).Parts().Member() = %q, want %q", path, got, want)
		}
	}
}

func TestPathIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p, q designer.Path
		want bool
	}{
		{"tables/Orders/items/i1", "tables/Orders", true},
		{"tables/Orders", "tables/Orders", true},
		{"tables/Orders", "tables/Orders/items", false},
		{"tables/Orders2", "tables/Orders", false},
		{"name", "", true},
		{"", "name", false},
	} {
		if got := tc.p.In(tc.q); got != tc.want {
			t.Errorf("Path(%q).In(%q) = %v, want %v", tc.p, tc.q, got, tc.want)
		}
	}
}

// FuzzPathParts reads any text without failing, and reads back the item and index paths the
// builders make from names the design knows, slashes and all.
func FuzzPathParts(f *testing.F) {
	f.Add("app/orders", "by/status", "i1", "sk")
	f.Add("Orders", "ByStatus", "i3", "a/b")
	f.Fuzz(func(t *testing.T, table, index, id, attr string) {
		designer.Path(table + "/" + index + "/" + id + "/" + attr).Parts()
		table, index, attr = strings.TrimSpace(table), strings.TrimSpace(index), strings.TrimSpace(attr)
		if table == "" || index == "" || id == "" || strings.Contains(id, "/") || attr == designer.SubItems {
			return
		}
		d := designer.Design{Tables: []designer.Table{{Name: table, GSIs: []designer.Index{{Name: index}}}}}
		item := designer.PathParts{Collection: "tables", Key: table, Sub: "items", SubKey: id, Field: attr}
		if attr == "comments" {
			item.Field, item.Comments = "", true
		}
		if got := designer.ItemPath(table, id, attr).Parts(d); got != item {
			t.Fatalf("item path of %q, %q, %q read back as %+v", table, id, attr, got)
		}
		ix := designer.PathParts{Collection: "tables", Key: table, Sub: "indexes", SubKey: index}
		if got := designer.IndexPath(table, index, "").Parts(d); got != ix {
			t.Fatalf("index path of %q, %q read back as %+v", table, index, got)
		}
	})
}
