package format

import (
	"bytes"
	"reflect"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/reqmd"
)

// Every bundled example round-trips exactly: its design-json reads back as the same design and
// writes the same bytes; its two markdown documents read back together are a fixed point; and
// what those documents carry (entities, patterns with their operations, tables with their keys,
// indexes and sample items, in key order) comes back as it was. Expected results are design-json's
// alone: the markdown documents have no place for them.
func TestExamples_roundTripExactly(t *testing.T) {
	t.Parallel()
	for _, ex := range designer.Examples() {
		t.Run(ex.ID, func(t *testing.T) {
			t.Parallel()
			d, err := designer.ExampleDesign(ex.ID)
			if err != nil {
				t.Fatal(err)
			}
			data := designertest.MustMarshal(t, d)
			back, err := designer.ParseJSON(data)
			if err != nil {
				t.Fatalf("design-json does not read back: %v", err)
			}
			if !reflect.DeepEqual(back, d) {
				t.Error("design-json read back as another design")
			}
			if again := designertest.MustMarshal(t, back); !bytes.Equal(again, data) {
				t.Errorf("design-json changed on the round trip:\n%s", designertest.FirstDifference(data, again))
			}

			assertPairFixedPoint(t, d)
			md, _, err := Import([]File{
				{Name: "dynamodb_requirement.md", Data: reqmd.Export(d)},
				{Name: "dynamodb_data_model.md", Data: datamodelmd.Export(d)},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(md.Entities) != len(d.Entities) || len(md.Relationships) != len(d.Relationships) ||
				len(md.Aggregates) != len(d.Aggregates) || len(md.Consolidations) != len(d.Consolidations) {
				t.Errorf("requirements lost: %d/%d entities, %d/%d relationships, %d/%d aggregates, %d/%d consolidations",
					len(md.Entities), len(d.Entities), len(md.Relationships), len(d.Relationships),
					len(md.Aggregates), len(d.Aggregates), len(md.Consolidations), len(d.Consolidations))
			}
			for _, p := range d.Patterns {
				mp, _, ok := md.PatternByNumber(p.Number)
				if !ok {
					t.Errorf("pattern %d lost", p.Number)
					continue
				}
				if mp.Type != p.Type || mp.Status != p.Status || designertest.RPS(mp.PeakRPS) != designertest.RPS(p.PeakRPS) ||
					designertest.RPS(mp.AvgRPS) != designertest.RPS(p.AvgRPS) || len(mp.Mapping.Operations) != len(p.Mapping.Operations) {
					t.Errorf("pattern %d came back as %+v", p.Number, mp)
					continue
				}
				for i, op := range p.Mapping.Operations {
					got := mp.Mapping.Operations[i]
					if got.Op != op.Op || got.Table != op.Table || got.Index != op.Index || got.KeyCondition != op.KeyCondition ||
						got.Descending != op.Descending || got.Consistent != op.Consistent || !reflect.DeepEqual(got.Limit, op.Limit) ||
						!reflect.DeepEqual(got.Values, op.Values) {
						t.Errorf("pattern %d operation %d came back as %s %s %s %q", p.Number, i+1, got.Op, got.Table, got.Index, got.KeyCondition)
					}
				}
			}
			if len(md.Tables) != len(d.Tables) {
				t.Fatalf("%d tables came back, want %d", len(md.Tables), len(d.Tables))
			}
			for i, tb := range d.Tables {
				got := md.Tables[i]
				if got.Name != tb.Name || !reflect.DeepEqual(got.PartitionKey, tb.PartitionKey) || !reflect.DeepEqual(got.SortKey, tb.SortKey) ||
					got.TTLAttribute != tb.TTLAttribute || len(got.GSIs) != len(tb.GSIs) || len(got.EntityTypes) != len(tb.EntityTypes) {
					t.Errorf("table %s came back as %s with other keys, TTL, indexes or entity types", tb.Name, got.Name)
					continue
				}
				for j, ix := range tb.GSIs {
					g := got.GSIs[j]
					if g.Name != ix.Name || !reflect.DeepEqual(g.PartitionKey, ix.PartitionKey) || !reflect.DeepEqual(g.SortKey, ix.SortKey) ||
						!reflect.DeepEqual(g.Projection, ix.Projection) || g.Sparse != ix.Sparse {
						t.Errorf("table %s index %s came back as %+v", tb.Name, ix.Name, g)
					}
				}
				if len(got.Items) != len(tb.Items) {
					t.Errorf("table %s: %d sample items came back, want %d", tb.Name, len(got.Items), len(tb.Items))
					continue
				}
				for j, row := range designer.TableOrder(tb) {
					if !reflect.DeepEqual(got.Items[j].Item, row.Item) {
						t.Errorf("table %s: item %d in key order came back as %v", tb.Name, j+1, got.Items[j].Item)
					}
				}
			}
		})
	}
}
