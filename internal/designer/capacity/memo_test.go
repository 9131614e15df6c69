package capacity

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// computeWhole is the report as the definition of Compute reads, with nothing taken over and
// nothing worked out per table: every pattern's operations run, every pattern charged to every
// account in the design's order, every key's load gathered over every pattern.
func computeWhole(d designer.Design) Report {
	r := Report{Prices: PricesOf(d.Capacity), Settings: SettingsOf(d.Capacity)}
	acc := newAccounts(d)
	for _, p := range d.Patterns {
		pl := patternLoad(p)
		for i, op := range p.Mapping.Operations {
			pl.Operations = append(pl.Operations, operationLoad(d, nil, p, i, op))
		}
		for _, ol := range pl.Operations {
			if t, _, ok := d.TableByName(ol.Table); ok {
				acc.charge(t, &pl, ol)
				addLoad(&pl, ol)
			}
		}
		r.Patterns = append(r.Patterns, pl)
	}
	for _, t := range d.Tables {
		r.Resources = appendResources(r.Resources, t, acc, tableStorage(d, nil, t), r.Prices, r.Settings)
	}
	sumUp(d, &r)
	fillHotKeys(d, &r)
	return r
}

// memoEdits are changes of every kind that moves a figure, for a design whose table tb has at
// least four items: item cells in and out of the partitions the patterns read, index keys (one
// whose values the samples count) and the sort key of an item, items added and deleted, a pattern's rate and place, an operation moved
// to another table, an entity's count,
// the capacity settings, the table's sort key and a new GSI; then item cells again, on a design
// the edits before reshaped. changes says which of them must change the report.
func memoEdits(d designer.Design, tb designer.Table) (edits []designer.Change, changes map[int]bool) {
	changes = map[int]bool{}
	add := func(moves bool, c designer.Change) {
		if moves {
			changes[len(edits)] = true
		}
		edits = append(edits, c)
	}
	first, last := tb.Items[0], tb.Items[len(tb.Items)-1]
	add(true, designer.SetItemCell{Table: tb.Name, ID: first.ID, Attribute: "note", Text: "a note that makes the item longer"})
	add(false, designer.SetItemCell{Table: tb.Name, ID: first.ID, Attribute: "note", Text: "a note that makes the item longer"})
	// As long as before: the item's size, and so every figure, stays as it was.
	add(false, designer.SetItemCell{Table: tb.Name, ID: first.ID, Attribute: "note", Text: "a NOTE that makes the item longer"})
	add(true, designer.SetItemCell{Table: tb.Name, ID: last.ID, Attribute: "note", Text: "x"})
	if read, ok := readItem(d, tb); ok {
		// An item some pattern reads: a longer note reads more bytes, one as long the same.
		add(true, designer.SetItemCell{Table: tb.Name, ID: read, Attribute: "note", Text: strings.Repeat("read ", 300)})
		add(false, designer.SetItemCell{Table: tb.Name, ID: read, Attribute: "note", Text: strings.Repeat("READ ", 300)})
	}
	if read, ok := readItem(d, tb); ok && tb.SortKey != nil {
		// An item added to a partition some pattern's Query reads, and deleted: it reads more
		// bytes, then as many as before.
		it := itemWithID(tb, read)
		more := maps.Clone(it)
		more[tb.SortKey.Name] = designer.Value{Type: designer.S, S: it[tb.SortKey.Name].S + "~"}
		more["note"] = designer.Value{Type: designer.S, S: strings.Repeat("more ", 900)}
		add(true, designer.AddItem{Table: tb.Name, Item: more, After: read})
	}
	if len(tb.GSIs) > 0 {
		key := tb.GSIs[0].PartitionKey[0].Name
		add(true, designer.SetItemCell{Table: tb.Name, ID: tb.Items[1].ID, Attribute: key, Text: "moved"})
		add(true, designer.SetItemCell{Table: tb.Name, ID: tb.Items[1].ID, Attribute: key, Text: ""})
	}
	// A key whose values the sample items count: its cardinality follows the items edited.
	add(true, designer.AddIndex{Table: tb.Name, Name: "ByTier", PartitionKey: []designer.KeyAttribute{{Name: "tier", Type: designer.S}}})
	add(true, designer.SetItemCell{Table: tb.Name, ID: first.ID, Attribute: "tier", Text: "GOLD"})
	add(true, designer.SetItemCell{Table: tb.Name, ID: last.ID, Attribute: "tier", Text: "SILVER"})
	add(true, designer.SetItemCell{Table: tb.Name, ID: first.ID, Attribute: "tier", Text: "SILVER"})
	if tb.SortKey != nil {
		add(true, designer.SetItemCell{Table: tb.Name, ID: tb.Items[2].ID, Attribute: tb.SortKey.Name, Text: "ZZZ#moved"})
		// An item given the key of another, which it hides from every read, and a key of its own
		// again.
		add(false, designer.SetItemCell{Table: tb.Name, ID: tb.Items[4].ID, Attribute: tb.SortKey.Name, Text: designer.FormatCell(tb.Items[5].Item[tb.SortKey.Name])})
		add(false, designer.SetItemCell{Table: tb.Name, ID: tb.Items[4].ID, Attribute: tb.SortKey.Name, Text: "ZZZ#own"})
	}
	// An item moved to another partition, which a pattern may read, and back.
	add(false, designer.SetItemCell{Table: tb.Name, ID: tb.Items[6].ID, Attribute: tb.PartitionKey.Name, Text: designer.FormatCell(last.Item[tb.PartitionKey.Name])})
	add(false, designer.SetItemCell{Table: tb.Name, ID: tb.Items[6].ID, Attribute: tb.PartitionKey.Name, Text: designer.FormatCell(tb.Items[6].Item[tb.PartitionKey.Name])})
	added := designer.Item{tb.PartitionKey.Name: first.Item[tb.PartitionKey.Name], "note": designer.Value{Type: designer.S, S: "added"}}
	if tb.SortKey != nil {
		added[tb.SortKey.Name] = designer.Value{Type: designer.S, S: "ADDED#1"}
	}
	add(true, designer.AddItem{Table: tb.Name, Item: added})
	add(true, designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[3].ID}})
	// Items added and deleted that make and break a duplicate key, pasted, generated and
	// duplicated: one run of items each.
	n := len(tb.Items)
	twin := maps.Clone(tb.Items[n-2].Item)
	twin["note"] = designer.Value{Type: designer.S, S: "a twin"}
	add(false, designer.AddItem{Table: tb.Name, Item: twin, After: tb.Items[0].ID})
	add(false, designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[n-2].ID}})
	add(false, designer.DuplicateItem{Table: tb.Name, ID: tb.Items[5].ID})
	pasted := designer.FormatCell(tb.Items[1].Item[tb.PartitionKey.Name])
	add(false, designer.PasteItems{Table: tb.Name, After: tb.Items[2].ID,
		Text: tb.PartitionKey.Name + ",note\n" + pasted + ",one\n" + pasted + ",two\n"})
	add(false, designer.GenerateSampleItems{Table: tb.Name, Count: 3, Seed: 11})
	add(false, designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[2].ID, tb.Items[n-3].ID}})
	p := d.Patterns[0]
	add(true, designer.SetPatternField{ID: p.ID, Field: "peak_rps", Value: "777"})
	for _, q := range d.Patterns {
		if len(q.Mapping.Operations) == 0 {
			add(true, designer.SetPatternField{ID: q.ID, Field: "peak_rps", Value: "5"})
			break
		}
	}
	other := d.Tables[len(d.Tables)-1]
	for _, q := range d.Patterns {
		if k := slices.IndexFunc(q.Mapping.Operations, func(op designer.Operation) bool { return op.Table == tb.Name && op.Op == "Query" }); k >= 0 {
			add(true, designer.SetOperationField{Pattern: q.ID, Index: k, Field: "table", Value: other.Name})
			break
		}
	}
	add(true, designer.MovePattern{ID: p.ID, To: len(d.Patterns)})
	add(true, designer.SetEntityField{Entity: d.Entities[0].Name, Field: "count", Value: "123456"})
	// Growth counts only past today; a horizon grows the items, a retention caps them, and each
	// figure's source is said.
	add(false, designer.SetEntityField{Entity: d.Entities[0].Name, Field: "growth", Value: "1,000,000 per year"})
	add(true, designer.SetCapacityField{Field: "horizon_months", Value: "24"})
	add(true, designer.SetEntityField{Entity: d.Entities[0].Name, Field: "retention", Value: "1 year"})
	add(true, designer.SetEntityField{Entity: d.Entities[0].Name, Field: "count_from", Value: "a survey"})
	add(true, designer.SetCapacityField{Field: "horizon_months", Value: ""})
	add(true, designer.SetCapacityField{Field: "hot_key_skew", Value: "3"})
	add(true, designer.SetCapacityField{Field: "hot_key_model", Value: "zipf"})
	add(true, designer.SetCapacityField{Field: "hot_key_zipf_s", Value: "1.2"})
	add(true, designer.SetCapacityField{Field: "hot_key_model", Value: "top_key_share"})
	add(true, designer.SetCapacityField{Field: "hot_key_share", Value: "40"})
	add(true, designer.SetCapacityField{Field: "target_utilization", Value: "50"})
	add(true, designer.SetCapacityField{Field: "write_request_price", Value: "0.7"})
	// The table's class, the replicas, a reservation and failed conditions each move the month.
	add(true, designer.SetTableField{Table: tb.Name, Field: "table_class", Value: "Standard-IA"})
	add(true, designer.SetCapacityField{Field: "replica_regions", Value: "eu-west-1"})
	add(true, designer.SetCapacityField{Field: "reserved_capacity", Value: "1 year"})
	add(true, designer.SetCapacityField{Field: "replica_regions", Value: ""})
	for _, q := range d.Patterns {
		if slices.ContainsFunc(q.Mapping.Operations, func(op designer.Operation) bool { return designer.IsWriteOp(op.Op) }) {
			add(true, designer.SetPatternField{ID: q.ID, Field: "conditional_failure_pct", Value: "25"})
			break
		}
	}
	add(true, designer.AddIndex{Table: tb.Name, Name: "ByNote", PartitionKey: []designer.KeyAttribute{{Name: "note", Type: designer.S}}})
	add(true, designer.SetItemCell{Table: tb.Name, ID: first.ID, Attribute: "note", Text: "in the new index"})
	add(true, designer.SetTableKey{Table: tb.Name, Which: "sort", Name: "note", Type: "S"})
	add(true, designer.SetItemCell{Table: tb.Name, ID: last.ID, Attribute: "note", Text: "a longer note after the key changed"})
	add(true, designer.SetItemCell{Table: other.Name, ID: other.Items[0].ID, Attribute: "note", Text: "another table, a longer note"})
	return edits, changes
}

// readItem is the id of an item of tb in the partition some pattern's Query of tb reads.
func readItem(d designer.Design, tb designer.Table) (string, bool) {
	for _, p := range d.Patterns {
		for _, op := range p.Mapping.Operations {
			if op.Table != tb.Name || op.Op != "Query" || op.Index != "" {
				continue
			}
			key, ok := dynamo.ReadPartition(tb, op)
			if !ok {
				continue
			}
			for _, it := range tb.Items {
				if dynamo.InPartition(it.Item, key) {
					return it.ID, true
				}
			}
		}
	}
	return "", false
}

// After each of a sequence of varied edits, the report ComputeFrom takes over from the revision
// before is, figure for figure, the one Compute works out afresh and the one the definition gives
// (computeWhole): on the HR example and on a large generated design.
func TestComputeFrom_everyEditGivesWhatComputeGivesAfresh(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     designer.Design
		table int
	}{
		{"hr", hrWithCounts(t), 0},
		{"large", designertest.Large(designertest.Size{Tables: 6, Items: 600, GSIs: 8, Patterns: 80}), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			c := dynamo.NewCache().For(d)
			before, memo := ComputeFrom(d, c, nil)
			edits, changes := memoEdits(d, d.Tables[tc.table])
			for i, e := range edits {
				next, err := e.Apply(d)
				if err != nil {
					t.Fatalf("%s: %v", e.Summary(), err)
				}
				c = c.For(next)
				// The reports to compare with are worked out first: what the sample items say of
				// an attribute is remembered across computations, and must be read from them.
				whole, fresh := computeWhole(next), Compute(next, nil)
				var got Report
				got, memo = ComputeFrom(next, c, memo)
				if !reflect.DeepEqual(got, fresh) {
					t.Fatalf("after %q the report taken over differs from Compute's: %s", e.Summary(), firstDifference(got, fresh))
				}
				if !reflect.DeepEqual(got, whole) {
					t.Fatalf("after %q the report differs from the definition's: %s", e.Summary(), firstDifference(got, whole))
				}
				if changes[i] && reflect.DeepEqual(got, before) {
					t.Fatalf("%q changed nothing in the report: the sequence does not test what it says", e.Summary())
				}
				d, before = next, got
			}
		})
	}
}

// firstDifference names the first pattern, resource or key where a and b differ.
func firstDifference(a, b Report) string {
	for i := range min(len(a.Patterns), len(b.Patterns)) {
		if !reflect.DeepEqual(a.Patterns[i], b.Patterns[i]) {
			return fmt.Sprintf("pattern %s: %+v, want %+v", a.Patterns[i].ID, a.Patterns[i], b.Patterns[i])
		}
	}
	for i := range min(len(a.Resources), len(b.Resources)) {
		if !reflect.DeepEqual(a.Resources[i], b.Resources[i]) {
			return fmt.Sprintf("resource %s/%s: %+v, want %+v", a.Resources[i].Table, a.Resources[i].Index, a.Resources[i], b.Resources[i])
		}
	}
	for i := range min(len(a.Keys), len(b.Keys)) {
		if !reflect.DeepEqual(a.Keys[i], b.Keys[i]) {
			return fmt.Sprintf("key %s/%s: %+v, want %+v", a.Keys[i].Table, a.Keys[i].Index, a.Keys[i], b.Keys[i])
		}
	}
	return fmt.Sprintf("%d/%d patterns, %d/%d resources, %d/%d keys, total %+v, want %+v",
		len(a.Patterns), len(b.Patterns), len(a.Resources), len(b.Resources), len(a.Keys), len(b.Keys), a.Total, b.Total)
}

// No add, paste, generation, duplication or deletion of sample items on a 4-table design makes
// ComputeFrom measure a table's items from nothing, but the one that gives two items one key,
// which hides one of them: the report is, figure for figure, Compute's afresh. It counts the
// tables measured whole; not parallel, for the count.
func TestComputeFrom_noItemAddOrDeleteMeasuresATableFromNothing(t *testing.T) {
	d := designertest.Large(designertest.Size{Tables: 4, Items: 400, GSIs: 8, Patterns: 40})
	c := dynamo.NewCache().For(d)
	_, memo := ComputeFrom(d, c, nil)
	tb := d.Tables[1]
	pk, sk := tb.PartitionKey.Name, tb.SortKey.Name
	fresh := designer.Item{pk: tb.Items[0].Item[pk], sk: designer.Str("FRESH#1"), "note": designer.Str("added")}
	edits := []struct {
		change designer.Change
		cold   bool
	}{
		{change: designer.AddItem{Table: tb.Name, Item: fresh, After: tb.Items[10].ID}},
		{change: designer.AddItem{Table: tb.Name, After: tb.Items[5].ID}},
		{change: designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[0].ID}}},
		{change: designer.PasteItems{Table: tb.Name, After: tb.Items[20].ID,
			Text: pk + "\t" + sk + "\tnote\n" + "pasted\tP#1\tone\npasted\tP#2\ttwo\n"}},
		{change: designer.GenerateSampleItems{Table: d.Tables[2].Name, Count: 5, Seed: 7}},
		{change: designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[3].ID, tb.Items[60].ID}}},
		{change: designer.DuplicateItem{Table: tb.Name, ID: tb.Items[40].ID}, cold: true},
	}
	before, want := coldStorages.Load(), int64(0)
	for _, e := range edits {
		next, err := e.change.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", e.change.Kind(), err)
		}
		d, c = next, c.For(next)
		fresh := Compute(d, nil)
		var got Report
		got, memo = ComputeFrom(d, c, memo)
		if !reflect.DeepEqual(got, fresh) {
			t.Fatalf("after %s the report taken over differs from Compute's: %s", e.change.Kind(), firstDifference(got, fresh))
		}
		if e.cold {
			want++
		}
	}
	if n := coldStorages.Load() - before; n != want {
		t.Fatalf("%d tables were measured whole after items were added or deleted, want %d", n, want)
	}
}

// itemWithID is the item of t with id, or nil.
func itemWithID(t designer.Table, id string) designer.Item {
	for _, it := range t.Items {
		if it.ID == id {
			return it.Item
		}
	}
	return nil
}
