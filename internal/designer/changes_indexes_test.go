package designer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func keyAttrs(names ...string) []KeyAttribute {
	out := make([]KeyAttribute, len(names))
	for i, n := range names {
		out[i] = KeyAttribute{Name: n}
	}
	return out
}

// withIndexes returns ordersDesign with Orders holding gsis GSIs and lsis LSIs in all.
func withIndexes(t *testing.T, gsis, lsis int) Design {
	t.Helper()
	d := ordersDesign(t)
	for i := len(d.Tables[0].GSIs); i < gsis; i++ {
		var err error
		if d, err = (AddIndex{Table: "Orders", Name: fmt.Sprintf("G%02d", i), PartitionKey: keyAttrs("order_id")}).Apply(d); err != nil {
			t.Fatalf("add GSI %d: %v", i, err)
		}
	}
	for i := len(d.Tables[0].LSIs); i < lsis; i++ {
		var err error
		if d, err = (AddIndex{Table: "Orders", Name: fmt.Sprintf("L%02d", i), Local: true, SortKey: keyAttrs(fmt.Sprintf("l%d", i))}).Apply(d); err != nil {
			t.Fatalf("add LSI %d: %v", i, err)
		}
	}
	return d
}

func TestAddIndex(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "GSI projects ALL and declares new key attributes", change: AddIndex{Table: "Orders", Name: "ByOrder", PartitionKey: keyAttrs("order_id"), SortKey: []KeyAttribute{{Name: "placed", Type: N}}},
			check: func(t *testing.T, _, after Design) {
				ix := indexOf(t, after, "Orders", "ByOrder")
				if ix.Projection.Type != All || ix.PartitionKey[0] != (KeyAttribute{Name: "order_id", Type: S}) || ix.SortKey[0] != (KeyAttribute{Name: "placed", Type: N}) {
					t.Errorf("index %+v", ix)
				}
				if a, _, ok := tableOf(t, after, "Orders").AttributeByName("placed"); !ok || a.Type != N {
					t.Errorf("placed not declared as N: %+v", a)
				}
			}},
		{name: "blank key type takes the declared type", change: AddIndex{Table: "Orders", Name: "ByTotalG", PartitionKey: keyAttrs("total")},
			check: func(t *testing.T, _, after Design) {
				if got := indexOf(t, after, "Orders", "ByTotalG").PartitionKey[0].Type; got != N {
					t.Errorf("type %s, want N", got)
				}
			}},
		{name: "multi-attribute GSI key, 4 and 4", change: AddIndex{Table: "Orders", Name: "Wide", PartitionKey: keyAttrs("a", "b", "c", "d"), SortKey: keyAttrs("e", "f", "g", "h")}},
		{name: "LSI uses the table's partition key", change: AddIndex{Table: "Orders", Name: "ByCreated", Local: true, SortKey: keyAttrs("created_at")},
			check: func(t *testing.T, _, after Design) {
				ix := indexOf(t, after, "Orders", "ByCreated")
				if len(ix.PartitionKey) != 1 || ix.PartitionKey[0] != (KeyAttribute{Name: "customer_id", Type: S}) {
					t.Errorf("LSI partition key %+v", ix.PartitionKey)
				}
				if len(tableOf(t, after, "Orders").LSIs) != 2 {
					t.Errorf("not added to the LSIs")
				}
			}},
		{name: "LSI may name the table's partition key", change: AddIndex{Table: "Orders", Name: "ByCreated", Local: true, PartitionKey: keyAttrs("customer_id"), SortKey: keyAttrs("created_at")}},
		{name: "duplicate of a GSI name", change: AddIndex{Table: "Orders", Name: "ByStatus", PartitionKey: keyAttrs("x")}, field: "name"},
		{name: "duplicate of an LSI name", change: AddIndex{Table: "Orders", Name: "ByTotal", PartitionKey: keyAttrs("x")}, field: "name"},
		{name: "name too short", change: AddIndex{Table: "Orders", Name: "By", PartitionKey: keyAttrs("x")}, field: "name"},
		{name: "name with a space", change: AddIndex{Table: "Orders", Name: "By status", PartitionKey: keyAttrs("x")}, field: "name"},
		{name: "no partition key", change: AddIndex{Table: "Orders", Name: "Bad", SortKey: keyAttrs("x")}, field: "partition_key"},
		{name: "5 partition attributes", change: AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a", "b", "c", "d", "e")}, field: "partition_key"},
		{name: "5 sort attributes", change: AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a"), SortKey: keyAttrs("b", "c", "d", "e", "f")}, field: "sort_key"},
		{name: "an attribute in both keys", change: AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a"), SortKey: keyAttrs("a")}, field: "sort_key"},
		{name: "an attribute twice", change: AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a", "a")}, field: "partition_key"},
		{name: "a key of type BOOL", change: AddIndex{Table: "Orders", Name: "Bad", PartitionKey: []KeyAttribute{{Name: "a", Type: BOOL}}}, field: "partition_key"},
		{name: "LSI with two sort attributes", change: AddIndex{Table: "Orders", Name: "Bad", Local: true, SortKey: keyAttrs("a", "b")}, field: "sort_key"},
		{name: "LSI without a sort attribute", change: AddIndex{Table: "Orders", Name: "Bad", Local: true}, field: "sort_key"},
		{name: "LSI with another partition key", change: AddIndex{Table: "Orders", Name: "Bad", Local: true, PartitionKey: keyAttrs("status"), SortKey: keyAttrs("a")}, field: "partition_key"},
		{name: "LSI sorted by the table's sort key", change: AddIndex{Table: "Orders", Name: "Bad", Local: true, SortKey: keyAttrs("sk")}, field: "sort_key"},
		{name: "LSI on a table without a sort key", change: AddIndex{Table: "Products", Name: "Bad", Local: true, SortKey: keyAttrs("a")}, field: "local"},
		{name: "unknown table", change: AddIndex{Table: "Nope", Name: "Bad", PartitionKey: keyAttrs("a")}, field: "table"},
	})
}

func TestAddIndex_limits(t *testing.T) {
	t.Parallel()
	d := withIndexes(t, MaxGSIs, MaxLSIs)
	before := mustMarshal(t, d)
	_, err := AddIndex{Table: "Orders", Name: "G21", PartitionKey: keyAttrs("order_id")}.Apply(d)
	wantValidationError(t, err, "local")
	wantMessage(t, err, "20 global secondary indexes")
	_, err = AddIndex{Table: "Orders", Name: "L06", Local: true, SortKey: keyAttrs("l6")}.Apply(d)
	wantValidationError(t, err, "local")
	wantMessage(t, err, "5 local secondary indexes")
	assertUnchanged(t, before, d)
	_, err = AddIndex{Table: "Orders", Name: "Bad", PartitionKey: keyAttrs("a", "b", "c", "d", "e")}.Apply(ordersDesign(t))
	wantMessage(t, err, "1 to 4")
}

func TestRenameIndex(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "operations follow", change: RenameIndex{Table: "Orders", Index: "ByStatus", To: "ByState"},
			check: func(t *testing.T, _, after Design) {
				indexOf(t, after, "Orders", "ByState")
				if got := after.Patterns[0].Mapping.Operations[0].Index; got != "ByState" {
					t.Errorf("operation index = %q", got)
				}
			}},
		{name: "an LSI", change: RenameIndex{Table: "Orders", Index: "ByTotal", To: "ByAmount"},
			check: func(t *testing.T, _, after Design) { indexOf(t, after, "Orders", "ByAmount") }},
		{name: "name taken by the LSI", change: RenameIndex{Table: "Orders", Index: "ByStatus", To: "ByTotal"}, field: "to"},
		{name: "name breaks the rule", change: RenameIndex{Table: "Orders", Index: "ByStatus", To: "B"}, field: "to"},
		{name: "unknown index", change: RenameIndex{Table: "Orders", Index: "Nope", To: "ByX"}, field: "index"},
	})
}

func TestSetIndexKey(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "a projected attribute that becomes a key leaves the INCLUDE list", change: SetIndexKey{Table: "Orders", Index: "ByStatus", PartitionKey: keyAttrs("status"), SortKey: keyAttrs("total")},
			check: func(t *testing.T, _, after Design) {
				ix := indexOf(t, after, "Orders", "ByStatus")
				if ix.SortKey[0] != (KeyAttribute{Name: "total", Type: N}) {
					t.Errorf("sort key %+v", ix.SortKey)
				}
				if !slices.Equal(ix.Projection.Attributes, []string{"order_id"}) {
					t.Errorf("projection %v", ix.Projection.Attributes)
				}
			}},
		{name: "LSI sort key", change: SetIndexKey{Table: "Orders", Index: "ByTotal", SortKey: keyAttrs("created_at")},
			check: func(t *testing.T, _, after Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").SortKey[0].Name; got != "created_at" {
					t.Errorf("sort key %s", got)
				}
			}},
		{name: "5 partition attributes", change: SetIndexKey{Table: "Orders", Index: "ByStatus", PartitionKey: keyAttrs("a", "b", "c", "d", "e")}, field: "partition_key"},
		{name: "LSI with two sort attributes", change: SetIndexKey{Table: "Orders", Index: "ByTotal", SortKey: keyAttrs("a", "b")}, field: "sort_key"},
		{name: "unknown index", change: SetIndexKey{Table: "Orders", Index: "Nope", PartitionKey: keyAttrs("a")}, field: "index"},
	})
}

func TestSetIndexProjection(t *testing.T) {
	t.Parallel()
	many := make([]string, MaxProjectedAttributes+1)
	for i := range many {
		many[i] = fmt.Sprintf("a%d", i)
	}
	runOrdersCases(t, []changeCase{
		{name: "INCLUDE", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: "include", Attributes: []string{"order_id", " total ", "order_id"}},
			check: func(t *testing.T, _, after Design) {
				p := indexOf(t, after, "Orders", "ByStatus").Projection
				if p.Type != Include || !slices.Equal(p.Attributes, []string{"order_id", "total"}) {
					t.Errorf("projection %+v", p)
				}
			}},
		{name: "INCLUDE of exactly 20", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: many[:MaxProjectedAttributes]}},
		{name: "ALL drops the list", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: "ALL", Attributes: []string{"total"}},
			check: func(t *testing.T, _, after Design) {
				p := indexOf(t, after, "Orders", "ByStatus").Projection
				if p.Type != All || p.Attributes != nil {
					t.Errorf("projection %+v", p)
				}
			}},
		{name: "keys only", change: SetIndexProjection{Table: "Orders", Index: "ByTotal", Type: "keys only"},
			check: func(t *testing.T, _, after Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").Projection.Type; got != KeysOnly {
					t.Errorf("type %s", got)
				}
			}},
		{name: "INCLUDE of the index key", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: []string{"status"}}, field: "attributes"},
		{name: "INCLUDE of the table key", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: []string{"sk"}}, field: "attributes"},
		{name: "INCLUDE of 21", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: many}, field: "attributes"},
		{name: "bad type", change: SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: "SOME"}, field: "type"},
	})
	_, err := SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: []string{"created_at"}}.Apply(ordersDesign(t))
	wantMessage(t, err, "created_at", "key attribute")
	_, err = SetIndexProjection{Table: "Orders", Index: "ByStatus", Type: Include, Attributes: many}.Apply(ordersDesign(t))
	wantMessage(t, err, "21", "at most 20")
}

func TestSetIndexProjection_tableTotal(t *testing.T) {
	t.Parallel()
	d := withIndexes(t, 6, 1)
	for i := 1; i < 6; i++ {
		attrs := make([]string, MaxProjectedAttributes)
		for j := range attrs {
			attrs[j] = fmt.Sprintf("p%d_%d", i, j)
		}
		var err error
		if d, err = (SetIndexProjection{Table: "Orders", Index: fmt.Sprintf("G%02d", i), Type: Include, Attributes: attrs}).Apply(d); err != nil && i < 5 {
			t.Fatalf("index %d: %v", i, err)
		} else if i == 5 {
			// 2 (ByStatus) + 4×20 + 20 = 102 > 100.
			wantValidationError(t, err, "attributes")
			wantMessage(t, err, "100")
		}
	}
}

func TestSetIndexField(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "sparse yes", change: SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "yes"},
			check: func(t *testing.T, _, after Design) {
				if !indexOf(t, after, "Orders", "ByStatus").Sparse {
					t.Errorf("not sparse")
				}
			}},
		{name: "sparse no", change: SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "no"}},
		{name: "purpose", change: SetIndexField{Table: "Orders", Index: "ByTotal", Field: "purpose", Value: "Biggest orders"},
			check: func(t *testing.T, _, after Design) {
				if got := indexOf(t, after, "Orders", "ByTotal").Purpose; got != "Biggest orders" {
					t.Errorf("purpose %q", got)
				}
			}},
		{name: "bad sparse", change: SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "maybe"}, field: "sparse"},
		{name: "unknown field", change: SetIndexField{Table: "Orders", Index: "ByStatus", Field: "colour"}, field: "field"},
		{name: "control character", change: SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse_note", Value: "\x01"}, field: "sparse_note"},
	})
	for _, f := range IndexFields {
		if f.Label == "" {
			t.Errorf("field %q has no label", f.Key)
		}
		d, err := (SetIndexField{Table: "Orders", Index: "ByStatus", Field: f.Key, Value: "no"}).Apply(ordersDesign(t))
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
	runOrdersCases(t, []changeCase{
		{name: "a new pattern", change: SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 2, Attributes: []string{"total"}},
			check: func(t *testing.T, _, after Design) {
				pas := indexOf(t, after, "Orders", "ByStatus").PatternAttributes
				if len(pas) != 2 || pas[1].Pattern != 2 || !slices.Equal(pas[1].Attributes, []string{"total"}) {
					t.Errorf("pattern attributes %+v", pas)
				}
			}},
		{name: "replace", change: SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 1, Attributes: []string{"order_id"}},
			check: func(t *testing.T, _, after Design) {
				pas := indexOf(t, after, "Orders", "ByStatus").PatternAttributes
				if len(pas) != 1 || !slices.Equal(pas[0].Attributes, []string{"order_id"}) {
					t.Errorf("pattern attributes %+v", pas)
				}
			}},
		{name: "empty removes", change: SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 1},
			check: func(t *testing.T, _, after Design) {
				if pas := indexOf(t, after, "Orders", "ByStatus").PatternAttributes; pas != nil {
					t.Errorf("pattern attributes %+v", pas)
				}
			}},
		{name: "unknown pattern", change: SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 9, Attributes: []string{"x"}}, field: "pattern"},
		{name: "empty attribute name", change: SetIndexPatternAttributes{Table: "Orders", Index: "ByStatus", Pattern: 1, Attributes: []string{" "}}, field: "attributes"},
	})
}

func TestDeleteIndex(t *testing.T) {
	t.Parallel()
	runOrdersCases(t, []changeCase{
		{name: "GSI", change: DeleteIndex{Table: "Orders", Index: "ByStatus"},
			check: func(t *testing.T, _, after Design) {
				if tb := tableOf(t, after, "Orders"); len(tb.GSIs) != 0 || len(tb.LSIs) != 1 {
					t.Errorf("GSIs %d LSIs %d", len(tb.GSIs), len(tb.LSIs))
				}
			}},
		{name: "LSI", change: DeleteIndex{Table: "Orders", Index: "ByTotal"},
			check: func(t *testing.T, _, after Design) {
				if tb := tableOf(t, after, "Orders"); len(tb.GSIs) != 1 || len(tb.LSIs) != 0 {
					t.Errorf("GSIs %d LSIs %d", len(tb.GSIs), len(tb.LSIs))
				}
			}},
		{name: "unknown", change: DeleteIndex{Table: "Orders", Index: "Nope"}, field: "index"},
	})
}

func TestIndexChanges_pathsAndSummaries(t *testing.T) {
	t.Parallel()
	c := SetIndexField{Table: "Orders", Index: "ByStatus", Field: "sparse", Value: "yes"}
	if got := c.Summary(); got != "Marked index ByStatus of table Orders sparse" {
		t.Errorf("summary %q", got)
	}
	if got := c.Paths(); !slices.Equal(got, []string{"tables/Orders/indexes/ByStatus/sparse"}) {
		t.Errorf("paths %v", got)
	}
	s := SetIndexKey{Table: "Orders", Index: "ByStatus", PartitionKey: keyAttrs("a", "b"), SortKey: keyAttrs("c")}.Summary()
	if !strings.Contains(s, "a + b / c") {
		t.Errorf("summary %q", s)
	}
}
