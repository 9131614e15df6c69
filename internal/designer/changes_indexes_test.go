package designer_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func keyAttrs(names ...string) []designer.KeyAttribute {
	out := make([]designer.KeyAttribute, len(names))
	for i, n := range names {
		out[i] = designer.KeyAttribute{Name: n}
	}
	return out
}

// withIndexes returns ordersDesign with Orders holding gsis GSIs and lsis LSIs in all.
func withIndexes(t *testing.T, gsis, lsis int) designer.Design {
	t.Helper()
	d := ordersDesign(t)
	for i := len(d.Tables[0].GSIs); i < gsis; i++ {
		var err error
		if d, err = (designer.AddIndex{Table: "Orders", Name: fmt.Sprintf("G%02d", i), PartitionKey: keyAttrs("order_id")}).Apply(d); err != nil {
			t.Fatalf("add GSI %d: %v", i, err)
		}
	}
	for i := len(d.Tables[0].LSIs); i < lsis; i++ {
		var err error
		if d, err = (designer.AddIndex{Table: "Orders", Name: fmt.Sprintf("L%02d", i), Local: true, SortKey: keyAttrs(fmt.Sprintf("l%d", i))}).Apply(d); err != nil {
			t.Fatalf("add LSI %d: %v", i, err)
		}
	}
	return d
}

func TestAddIndex(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "GSI projects ALL and declares new key attributes", Change: designer.AddIndex{Table: "Orders", Name: "ByOrder", PartitionKey: keyAttrs("order_id"), SortKey: []designer.KeyAttribute{{Name: "placed", Type: designer.N}}},
			Check: func(t *testing.T, _, after designer.Design) {
				ix := indexOf(t, after, "Orders", "ByOrder")
				if ix.Projection.Type != designer.All || ix.PartitionKey[0] != (designer.KeyAttribute{Name: "order_id", Type: designer.S}) || ix.SortKey[0] != (designer.KeyAttribute{Name: "placed", Type: designer.N}) {
					t.Errorf("index %+v", ix)
				}
				if a, _, ok := tableOf(t, after, "Orders").AttributeByName("placed"); !ok || a.Type != designer.N {
					t.Errorf("placed not declared as N: %+v", a)
				}
			}},
		{Name: "GSI projecting its keys only", Change: designer.AddIndex{Table: "Orders", Name: "ByKeys", PartitionKey: keyAttrs("order_id"), Projection: "keys only"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := indexOf(t, after, "Orders", "ByKeys").Projection.Type; got != designer.KeysOnly {
					t.Errorf("projection %s, want KEYS_ONLY", got)
				}
			}},
		{Name: "INCLUDE needs its attributes", Change: designer.AddIndex{Table: "Orders", Name: "ByIncl", PartitionKey: keyAttrs("order_id"), Projection: "INCLUDE"}, Field: "projection"},
		{Name: "unknown projection", Change: designer.AddIndex{Table: "Orders", Name: "ByOdd", PartitionKey: keyAttrs("order_id"), Projection: "SOME"}, Field: "projection"},
		{Name: "blank key type takes the declared type", Change: designer.AddIndex{Table: "Orders", Name: "ByTotalG", PartitionKey: keyAttrs("total")},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := indexOf(t, after, "Orders", "ByTotalG").PartitionKey[0].Type; got != designer.N {
					t.Errorf("type %s, want N", got)
				}
			}},
		{Name: "multi-attribute GSI key, 4 and 4", Change: designer.AddIndex{Table: "Orders", Name: "Wide", PartitionKey: keyAttrs("a", "b", "c", "d"), SortKey: keyAttrs("e", "f", "g", "h")}},
		{Name: "LSI uses the table's partition key", Change: designer.AddIndex{Table: "Orders", Name: "ByCreated", Local: true, SortKey: keyAttrs("created_at")},
			Check: func(t *testing.T, _, after designer.Design) {
				ix := indexOf(t, after, "Orders", "ByCreated")
				if len(ix.PartitionKey) != 1 || ix.PartitionKey[0] != (designer.KeyAttribute{Name: "customer_id", Type: designer.S}) {
					t.Errorf("LSI partition key %+v", ix.PartitionKey)
				}
				if len(tableOf(t, after, "Orders").LSIs) != 2 {
					t.Errorf("not added to the LSIs")
				}
			}},
		{Name: "LSI may name the table's partition key", Change: designer.AddIndex{Table: "Orders", Name: "ByCreated", Local: true, PartitionKey: keyAttrs("customer_id"), SortKey: keyAttrs("created_at")}},
		{Name: "duplicate of a GSI name", Change: designer.AddIndex{Table: "Orders", Name: "ByStatus", PartitionKey: keyAttrs("x")}, Field: "name"},
		{Name: "duplicate of an LSI name", Change: designer.AddIndex{Table: "Orders", Name: "ByTotal", PartitionKey: keyAttrs("x")}, Field: "name"},
		{Name: "name too short", Change: designer.AddIndex{Table: "Orders", Name: "By", PartitionKey: keyAttrs("x")}, Field: "name"},
		{Name: "name with a space", Change: designer.AddIndex{Table: "Orders", Name: "By status", PartitionKey: keyAttrs("x")}, Field: "name"},
		{Name: "no partition key", Change: designer.AddIndex{Table: "Orders", Name: "Bad", SortKey: keyAttrs("x")}, Field: "partition_key"},
		{Name: "5 partition attributes", Change: designer.AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a", "b", "c", "d", "e")}, Field: "partition_key"},
		{Name: "5 sort attributes", Change: designer.AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a"), SortKey: keyAttrs("b", "c", "d", "e", "f")}, Field: "sort_key"},
		{Name: "an attribute in both keys", Change: designer.AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a"), SortKey: keyAttrs("a")}, Field: "sort_key"},
		{Name: "an attribute twice", Change: designer.AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a", "a")}, Field: "partition_key"},
		{Name: "a key of type BOOL", Change: designer.AddIndex{Table: "Orders", Name: "Bad", PartitionKey: []designer.KeyAttribute{{Name: "a", Type: designer.BOOL}}}, Field: "partition_key"},
		{Name: "LSI with two sort attributes", Change: designer.AddIndex{Table: "Orders", Name: "Bad", Local: true, SortKey: keyAttrs("a", "b")}, Field: "sort_key"},
		{Name: "LSI without a sort attribute", Change: designer.AddIndex{Table: "Orders", Name: "Bad", Local: true}, Field: "sort_key"},
		{Name: "LSI with another partition key", Change: designer.AddIndex{Table: "Orders", Name: "Bad", Local: true, PartitionKey: keyAttrs("status"), SortKey: keyAttrs("a")}, Field: "partition_key"},
		{Name: "LSI sorted by the table's sort key", Change: designer.AddIndex{Table: "Orders", Name: "Bad", Local: true, SortKey: keyAttrs("sk")}, Field: "sort_key"},
		{Name: "LSI on a table without a sort key", Change: designer.AddIndex{Table: "Products", Name: "Bad", Local: true, SortKey: keyAttrs("a")}, Field: "local"},
		{Name: "unknown table", Change: designer.AddIndex{Table: "Nope", Name: "Bad", PartitionKey: keyAttrs("a")}, Field: "table"},
	})
}

func TestAddIndex_limits(t *testing.T) {
	t.Parallel()
	d := withIndexes(t, designer.MaxGSIs, designer.MaxLSIs)
	designertest.RunChangeCases(t, d, []designertest.ChangeCase{
		{Name: "a 21st GSI", Change: designer.AddIndex{Table: "Orders", Name: "G21", PartitionKey: keyAttrs("order_id")}, Field: "local", Err: "20 global secondary indexes"},
		{Name: "a 6th LSI", Change: designer.AddIndex{Table: "Orders", Name: "L06", Local: true, SortKey: keyAttrs("l6")}, Field: "local", Err: "5 local secondary indexes"},
	})
	_, err := designer.AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a", "b", "c", "d", "e")}.Apply(ordersDesign(t))
	wantMessage(t, err, "1 to 4")
}

func TestRenameIndex(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "operations follow", Change: designer.RenameIndex{Table: "Orders", Index: "ByStatus", To: "ByState"},
			Check: func(t *testing.T, _, after designer.Design) {
				indexOf(t, after, "Orders", "ByState")
				if got := after.Patterns[0].Mapping.Operations[0].Index; got != "ByState" {
					t.Errorf("operation index = %q", got)
				}
			}},
		{Name: "an LSI", Change: designer.RenameIndex{Table: "Orders", Index: "ByTotal", To: "ByAmount"},
			Check: func(t *testing.T, _, after designer.Design) { indexOf(t, after, "Orders", "ByAmount") }},
		{Name: "name taken by the LSI", Change: designer.RenameIndex{Table: "Orders", Index: "ByStatus", To: "ByTotal"}, Field: "to"},
		{Name: "name breaks the rule", Change: designer.RenameIndex{Table: "Orders", Index: "ByStatus", To: "B"}, Field: "to"},
		{Name: "unknown index", Change: designer.RenameIndex{Table: "Orders", Index: "Nope", To: "ByX"}, Field: "index"},
	})
}

func TestSetIndexKey(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "a projected attribute that becomes a key leaves the INCLUDE list", Change: designer.SetIndexKey{Table: "Orders", Index: "ByStatus", PartitionKey: keyAttrs("status"), SortKey: keyAttrs("total")},
			Check: func(t *testing.T, _, after designer.Design) {
				ix := indexOf(t, after, "Orders", "ByStatus")
				if ix.SortKey[0] != (designer.KeyAttribute{Name: "total", Type: designer.N}) {
					t.Errorf("sort key %+v", ix.SortKey)
				}
				if !slices.Equal(ix.Projection.Attributes, []string{"order_id"}) {
					t.Errorf("projection %v", ix.Projection.Attributes)
				}
			}},
		{Name: "LSI sort key", Change: designer.SetIndexKey{Table: "Orders", Index: "ByTotal", SortKey: keyAttrs("created_at")},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").SortKey[0].Name; got != "created_at" {
					t.Errorf("sort key %s", got)
				}
			}},
		{Name: "5 partition attributes", Change: designer.SetIndexKey{Table: "Orders", Index: "ByStatus", PartitionKey: keyAttrs("a", "b", "c", "d", "e")}, Field: "partition_key"},
		{Name: "LSI with two sort attributes", Change: designer.SetIndexKey{Table: "Orders", Index: "ByTotal", SortKey: keyAttrs("a", "b")}, Field: "sort_key"},
		{Name: "unknown index", Change: designer.SetIndexKey{Table: "Orders", Index: "Nope", PartitionKey: keyAttrs("a")}, Field: "index"},
	})
}

func TestSetIndexProjection(t *testing.T) {
	t.Parallel()
	many := make([]string, designer.MaxProjectedAttributes+1)
	for i := range many {
		many[i] = fmt.Sprintf("a%d", i)
	}
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "INCLUDE", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: "include", Attributes: []string{"order_id", " total ", "order_id"}},
			Check: func(t *testing.T, _, after designer.Design) {
				p := indexOf(t, after, "Orders", "ByStatus").Projection
				if p.Type != designer.Include || !slices.Equal(p.Attributes, []string{"order_id", "total"}) {
					t.Errorf("projection %+v", p)
				}
			}},
		{Name: "INCLUDE of exactly 20", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: many[:designer.MaxProjectedAttributes]}},
		{Name: "ALL drops the list", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: "ALL", Attributes: []string{"total"}},
			Check: func(t *testing.T, _, after designer.Design) {
				p := indexOf(t, after, "Orders", "ByStatus").Projection
				if p.Type != designer.All || p.Attributes != nil {
					t.Errorf("projection %+v", p)
				}
			}},
		{Name: "keys only", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByTotal", Type: "keys only"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").Projection.Type; got != designer.KeysOnly {
					t.Errorf("type %s", got)
				}
			}},
		{Name: "INCLUDE of the index key", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: []string{"status"}}, Field: "attributes"},
		{Name: "INCLUDE of the table key", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: []string{"sk"}}, Field: "attributes"},
		{Name: "INCLUDE of 21", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: many}, Field: "attributes"},
		{Name: "bad type", Change: designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: "SOME"}, Field: "type"},
	})
	_, err := designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: []string{"created_at"}}.Apply(ordersDesign(t))
	wantMessage(t, err, "created_at", "key attribute")
	_, err = designer.SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: designer.Include, Attributes: many}.Apply(ordersDesign(t))
	wantMessage(t, err, "21", "at most 20")
}

func TestSetIndexProjection_tableTotal(t *testing.T) {
	t.Parallel()
	d := withIndexes(t, 6, 1)
	for i := 1; i < 6; i++ {
		attrs := make([]string, designer.MaxProjectedAttributes)
		for j := range attrs {
			attrs[j] = fmt.Sprintf("p%d_%d", i, j)
		}
		var err error
		if d, err = (designer.SetIndexProjection{Table: "Orders", Index: fmt.Sprintf("G%02d", i), Type: designer.Include, Attributes: attrs}).Apply(d); err != nil && i < 5 {
			t.Fatalf("index %d: %v", i, err)
		} else if i == 5 {
			// 2 (ByStatus) + 4×20 + 20 = 102 > 100.
			designertest.WantValidationError(t, err, "attributes")
			wantMessage(t, err, "100")
		}
	}
}

func TestSetIndexField(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "sparse yes", Change: designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "yes"},
			Check: func(t *testing.T, _, after designer.Design) {
				if !indexOf(t, after, "Orders", "ByStatus").Sparse {
					t.Errorf("not sparse")
				}
			}},
		{Name: "sparse no", Change: designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "no"}},
		{Name: "purpose", Change: designer.SetIndexField{Table: "Orders", Index: "ByTotal", Field: "purpose", Value: "Biggest orders"},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").Purpose; got != "Biggest orders" {
					t.Errorf("purpose %q", got)
				}
			}},
		{Name: "bad sparse", Change: designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "maybe"}, Field: "sparse"},
		{Name: "unknown field", Change: designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: "colour"}, Field: "field"},
		{Name: "control character", Change: designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse_note", Value: "\x01"}, Field: "sparse_note"},
	})
	for _, f := range designer.IndexFields {
		if f.Label == "" {
			t.Errorf("field %q has no label", f.Key)
		}
		d, err := (designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: f.Key, Value: "no"}).Apply(ordersDesign(t))
		if err != nil {
			t.Errorf("%s: %v", f.Key, err)
			continue
		}
		if ix, _, _, _ := d.Tables[0].IndexByName("ByStatus"); f.Get(ix) != "no" {
			t.Errorf("%s reads %q after it was set to no", f.Key, f.Get(ix))
		}
	}
}

func TestSetIndexPatternAttributes(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "a new pattern", Change: designer.SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 2, Attributes: []string{"total"}},
			Check: func(t *testing.T, _, after designer.Design) {
				pas := indexOf(t, after, "Orders", "ByStatus").PatternAttributes
				if len(pas) != 2 || pas[1].Pattern != 2 || !slices.Equal(pas[1].Attributes, []string{"total"}) {
					t.Errorf("pattern attributes %+v", pas)
				}
			}},
		{Name: "replace", Change: designer.SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 1, Attributes: []string{"order_id"}},
			Check: func(t *testing.T, _, after designer.Design) {
				pas := indexOf(t, after, "Orders", "ByStatus").PatternAttributes
				if len(pas) != 1 || !slices.Equal(pas[0].Attributes, []string{"order_id"}) {
					t.Errorf("pattern attributes %+v", pas)
				}
			}},
		{Name: "empty removes", Change: designer.SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 1},
			Check: func(t *testing.T, _, after designer.Design) {
				if pas := indexOf(t, after, "Orders", "ByStatus").PatternAttributes; pas != nil {
					t.Errorf("pattern attributes %+v", pas)
				}
			}},
		{Name: "unknown pattern", Change: designer.SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 9, Attributes: []string{"x"}}, Field: "pattern"},
		{Name: "empty attribute name", Change: designer.SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 1, Attributes: []string{" "}}, Field: "attributes"},
	})
}

func TestDeleteIndex(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, ordersDesign(t), []designertest.ChangeCase{
		{Name: "GSI", Change: designer.DeleteIndex{Table: "Orders", Index: "ByStatus"},
			Check: func(t *testing.T, _, after designer.Design) {
				if tb := tableOf(t, after, "Orders"); len(tb.GSIs) != 0 || len(tb.LSIs) != 1 {
					t.Errorf("GSIs %d LSIs %d", len(tb.GSIs), len(tb.LSIs))
				}
			}},
		{Name: "LSI", Change: designer.DeleteIndex{Table: "Orders", Index: "ByTotal"},
			Check: func(t *testing.T, _, after designer.Design) {
				if tb := tableOf(t, after, "Orders"); len(tb.GSIs) != 1 || len(tb.LSIs) != 0 {
					t.Errorf("GSIs %d LSIs %d", len(tb.GSIs), len(tb.LSIs))
				}
			}},
		{Name: "unknown", Change: designer.DeleteIndex{Table: "Orders", Index: "Nope"}, Field: "index"},
	})
}

func TestIndexChanges_pathsAndSummaries(t *testing.T) {
	t.Parallel()
	c := designer.SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "yes"}
	if got := c.Summary(); got != "Marked index ByStatus of table Orders sparse" {
		t.Errorf("summary %q", got)
	}
	if got := c.Paths(); !slices.Equal(got, []designer.Path{"tables/Orders/indexes/ByStatus/sparse"}) {
		t.Errorf("paths %v", got)
	}
	s := designer.SetIndexKey{Table: "Orders", Index: "ByStatus", PartitionKey: keyAttrs("a", "b"), SortKey: keyAttrs("c")}.Summary()
	if !strings.Contains(s, "a + b / c") {
		t.Errorf("summary %q", s)
	}
}
