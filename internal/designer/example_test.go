package designer_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestExamples_listsEveryFileWithText(t *testing.T) {
	t.Parallel()
	list := designer.Examples()
	if len(list) == 0 {
		t.Fatal("no examples")
	}
	if !slices.IsSortedFunc(list, func(a, b designer.Example) int { return strings.Compare(a.ID, b.ID) }) {
		t.Errorf("Examples not sorted: %v", list)
	}
	ids := make([]string, 0, len(list))
	for _, ex := range list {
		ids = append(ids, ex.ID)
		if ex.Title == "" || ex.Title == ex.ID || ex.Summary == "" {
			t.Errorf("example %q lacks a title or summary in exampleText", ex.ID)
		}
		if strings.Contains(ex.Summary, "\n") {
			t.Errorf("example %q summary is not one line", ex.ID)
		}
		if n := len(ex.Teaches); n < 2 || n > 5 {
			t.Errorf("example %q names %d design choices it teaches in exampleText, want 2–5", ex.ID, n)
		}
		for _, choice := range ex.Teaches {
			if choice == "" || len(choice) > 30 {
				t.Errorf("example %q: design choice %q is not a few words", ex.ID, choice)
			}
		}
		if _, err := designer.ExampleDesign(ex.ID); err != nil {
			t.Errorf("ExampleDesign(%q): %v", ex.ID, err)
		}
	}
	if !slices.Contains(ids, "hr-employees") {
		t.Errorf("hr-employees missing from %v", ids)
	}
	for id := range designer.ExampleText {
		if !slices.Contains(ids, id) {
			t.Errorf("exampleText has %q but there is no examples/%s.json", id, id)
		}
	}
}

func TestExampleDesign_unknown(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"", "nope", "HR-EMPLOYEES", "hr-employees.json", "../example", "examples/hr-employees", "*"} {
		d, err := designer.ExampleDesign(id)
		if !errors.Is(err, designer.ErrUnknownExample) {
			t.Errorf("ExampleDesign(%q) = %v, %v; want ErrUnknownExample", id, d.Name, err)
		}
	}
}

func TestExampleDesign_returnsAnIndependentCopy(t *testing.T) {
	t.Parallel()
	a := designertest.HRDesign(t)
	a.Tables[0].Items[0].Item["first_name"] = designer.Str("changed")
	b := designertest.HRDesign(t)
	if b.Tables[0].Items[0].Item["first_name"].S == "changed" {
		t.Error("two calls share sample items")
	}
}

// exampleShape is what one example is held to beyond what every example shares: the size of the
// seed design it is modelled on, and that design's key choices counted.
type exampleShape struct {
	entities, patterns, tables [2]int // inclusive bounds
	include                    bool   // the seed's design projects an index with INCLUDE
	unproved                   []int  // patterns left without an expected result on purpose
	counted                    bool   // every entity states how many there will be
	// gsis, sparse and ttl count the seed design's GSIs, its GSIs that leave items out, and its
	// tables that expire items by TTL.
	gsis, sparse, ttl int
}

// exampleShapes has every bundled example; TestExamples_areComplete fails for one missing here.
var exampleShapes = map[string]exampleShape{
	// Seed 000: four tables, INCLUDE-projected GSIs.
	// Pattern 6 and the writes stay unproved so the Mapping step shows patterns whose verdict is
	// still open.
	"hr-employees": {entities: [2]int{5, 6}, patterns: [2]int{12, 16}, tables: [2]int{3, 4}, include: true, unproved: []int{6, 11, 12, 13, 14, 15}, gsis: 2, sparse: 2},
	// Seed 002: eight tables, two of them item collections (profile + posts, post + comments), an
	// INCLUDE-projected inverted index of followers, a sparse KEYS_ONLY index of unread
	// notifications, stories expired by TTL.
	"hiking-community": {entities: [2]int{9, 9}, patterns: [2]int{22, 26}, tables: [2]int{8, 8}, include: true, gsis: 2, sparse: 1, ttl: 1, counted: true},
	// Seed 003: one table with overloaded keys for three entity types, four GSIs all keyed by the
	// user, each sorting by one attribute, idempotency records expired by TTL.
	"punch-lists": {entities: [2]int{3, 3}, patterns: [2]int{20, 25}, tables: [2]int{1, 1}, include: true, gsis: 4, sparse: 4, ttl: 1, counted: true},
	// Seed 004: one table of six entity types under composite sort keys, five GSIs projecting ALL.
	"teacher-pay-scales": {entities: [2]int{6, 6}, patterns: [2]int{16, 22}, tables: [2]int{1, 1}, gsis: 5, sparse: 5, ttl: 1, counted: true},
}

// TestExamples_areComplete holds every example to what the gallery promises: every part of the
// method filled in, so a new user sees what a finished design looks like.
func TestExamples_areComplete(t *testing.T) {
	t.Parallel()
	for _, ex := range designer.Examples() {
		t.Run(ex.ID, func(t *testing.T) {
			t.Parallel()
			shape, ok := exampleShapes[ex.ID]
			if !ok {
				t.Fatalf("example %s has no entry in exampleShapes", ex.ID)
			}
			d, err := designer.ExampleDesign(ex.ID)
			if err != nil {
				t.Fatal(err)
			}
			assertExampleComplete(t, d, shape)
		})
	}
}

func within(n int, bounds [2]int) bool { return bounds[0] <= n && n <= bounds[1] }

func assertExampleComplete(t *testing.T, d designer.Design, shape exampleShape) {
	t.Helper()
	if d.Name == "" || d.Overview.Domain == "" || d.Overview.KeyEntities == "" || d.Overview.BusinessContext == "" || d.Overview.Scale == "" {
		t.Errorf("overview incomplete: %+v", d.Overview)
	}
	if n := len(d.Entities); !within(n, shape.entities) {
		t.Errorf("%d entities, want %d–%d", n, shape.entities[0], shape.entities[1])
	}
	entities := map[string]bool{}
	for _, e := range d.Entities {
		entities[e.Name] = true
		if len(e.Attributes) == 0 {
			t.Errorf("entity %s has no attributes", e.Name)
		}
		if shape.counted && e.Count == nil {
			t.Errorf("entity %s states no count", e.Name)
		}
	}
	for _, r := range d.Relationships {
		if !entities[r.From] || !entities[r.To] || r.Avg == nil || r.Max == nil {
			t.Errorf("relationship %s→%s: unknown entity or missing counts", r.From, r.To)
		}
	}
	if n := len(d.Patterns); !within(n, shape.patterns) {
		t.Errorf("%d access patterns, want %d–%d", n, shape.patterns[0], shape.patterns[1])
	}
	tables := map[string]designer.Table{}
	for _, tb := range d.Tables {
		tables[tb.Name] = tb
	}
	statuses := map[string]bool{}
	for i, p := range d.Patterns {
		statuses[p.Status] = true
		if p.Number != i+1 {
			t.Errorf("pattern %d numbered %d", i+1, p.Number)
		}
		if p.Description == "" || p.Type == "" || p.PeakRPS == nil || p.AvgRPS == nil || len(p.Attributes) == 0 ||
			p.LatencySLO == "" || p.Consistency == "" || p.ResultBound == "" || p.SizeBand == "" || len(p.Entities) == 0 {
			t.Errorf("pattern %d lacks a field: %+v", p.Number, p)
		}
		if *p.AvgRPS > *p.PeakRPS {
			t.Errorf("pattern %d average RPS above peak", p.Number)
		}
		for _, e := range p.Entities {
			if !entities[e] {
				t.Errorf("pattern %d names unknown entity %q", p.Number, e)
			}
		}
		if p.Status != designer.StatusOutside && len(p.Mapping.Operations) == 0 {
			t.Errorf("pattern %d has no operation", p.Number)
		}
		if p.Status != designer.StatusOutside && !slices.Contains(shape.unproved, p.Number) &&
			!slices.ContainsFunc(p.Mapping.Operations, func(op designer.Operation) bool { return op.Expected != nil }) {
			t.Errorf("pattern %d records no expected result", p.Number)
		}
		for _, op := range p.Mapping.Operations {
			tb, ok := tables[op.Table]
			if !ok {
				t.Errorf("pattern %d uses unknown table %q", p.Number, op.Table)
				continue
			}
			if op.Index != "" && !slices.ContainsFunc(tb.GSIs, func(ix designer.Index) bool { return ix.Name == op.Index }) {
				t.Errorf("pattern %d uses unknown index %q", p.Number, op.Index)
			}
			if op.KeyCondition == "" && op.Op != "Scan" {
				t.Errorf("pattern %d: %s on %s has no key condition", p.Number, op.Op, op.Table)
			}
			for placeholder := range op.Values {
				if strings.Contains(op.KeyCondition, placeholder) || strings.Contains(op.Notes, placeholder) ||
					strings.Contains(op.Filter, placeholder) || strings.Contains(op.Condition, placeholder) || strings.Contains(op.Update, placeholder) {
					continue
				}
				// A write's other values are the attributes it writes (dynamo/write.go).
				name := strings.TrimPrefix(placeholder, ":")
				if !designer.IsWriteOp(op.Op) {
					t.Errorf("pattern %d: value %s is used nowhere", p.Number, placeholder)
				} else if !slices.ContainsFunc(tb.Attributes, func(a designer.Attribute) bool { return a.Name == name }) {
					t.Errorf("pattern %d: value %s writes %s, which is no attribute of %s", p.Number, placeholder, name, tb.Name)
				}
			}
			// A write expects the items it writes, new ones among them; a read expects sample items.
			if op.Expected != nil && !designer.IsWriteOp(op.Op) {
				for _, key := range *op.Expected {
					if !slices.ContainsFunc(tb.Items, func(it designer.SampleItem) bool { return sameKey(tb, it.Item, key) }) {
						t.Errorf("pattern %d expects %v, which is no sample item of %s", p.Number, key, tb.Name)
					}
				}
			}
		}
	}
	for _, s := range []string{designer.StatusSolved, designer.StatusAtRisk, designer.StatusOutside} {
		if !statuses[s] {
			t.Errorf("no pattern with status %q; the example should show it", s)
		}
	}
	if len(d.Aggregates) < 2 || len(d.Consolidations) < 2 {
		t.Errorf("%d aggregates and %d consolidations, want a few of each", len(d.Aggregates), len(d.Consolidations))
	}
	if c := d.Considerations; c.HotPartitions == "" || c.GSIProjections == "" || c.SparseGSIs == "" ||
		c.ItemCollections == "" || c.MultiEntityQueries == "" || c.Denormalization == "" {
		t.Errorf("considerations incomplete: %+v", c)
	}
	if n := len(d.Tables); !within(n, shape.tables) {
		t.Errorf("%d tables, want %d–%d", n, shape.tables[0], shape.tables[1])
	}
	include, gsis, sparse, ttl := 0, 0, 0, 0
	for _, tb := range d.Tables {
		assertSampleItems(t, tb)
		gsis += len(tb.GSIs)
		for _, ix := range tb.GSIs {
			if ix.Projection.Type == designer.Include {
				include++
			}
			if ix.Sparse {
				sparse++
			}
		}
		if tb.TTLAttribute != "" {
			ttl++
		}
	}
	if gsis != shape.gsis || sparse != shape.sparse || ttl != shape.ttl {
		t.Errorf("%d GSIs, %d of them sparse, %d tables with TTL; the seed's design has %d, %d and %d", gsis, sparse, ttl, shape.gsis, shape.sparse, shape.ttl)
	}
	if shape.include && include == 0 {
		t.Error("no GSI with an INCLUDE projection")
	}
	if p := d.Prose; p.DesignPhilosophy == "" || p.AggregateDecisions == "" || p.HotPartitions == "" || p.TradeOffs == "" {
		t.Error("prose incomplete")
	}
}

// assertSampleItems holds a table's sample items to the method's "5-10 representative items": a
// table of one entity type has 5–8; a table of several has at least 5, and every entity type of
// its taxonomy has 1–8 of them (a record that exists once, such as a table-wide settings item,
// has one).
func assertSampleItems(t *testing.T, tb designer.Table) {
	t.Helper()
	n := len(tb.Items)
	if len(tb.EntityTypes) <= 1 && (n < 5 || n > 8) {
		t.Errorf("table %s has %d sample items, want 5–8", tb.Name, n)
	}
	if len(tb.EntityTypes) > 1 {
		if n < 5 {
			t.Errorf("table %s has %d sample items, want at least 5", tb.Name, n)
		}
		perType := map[string]int{}
		m := designer.NewEntityMatcher(tb)
		for _, it := range tb.Items {
			et := m.EntityType(it.Item)
			if et == "" {
				t.Errorf("table %s item %s matches no entity type's key templates", tb.Name, it.ID)
			}
			perType[et]++
		}
		for _, et := range tb.EntityTypes {
			if c := perType[et.Entity]; c < 1 || c > 8 {
				t.Errorf("table %s has %d sample items of %s, want 1–8", tb.Name, c, et.Entity)
			}
		}
	}
	ids := map[string]bool{}
	keys := map[string]bool{}
	for _, it := range tb.Items {
		if it.ID == "" || ids[it.ID] {
			t.Errorf("table %s: empty or repeated item id %q", tb.Name, it.ID)
		}
		ids[it.ID] = true
		pk, ok := it.Item[tb.PartitionKey.Name]
		if !ok || pk.Type != tb.PartitionKey.Type {
			t.Errorf("table %s item %s: partition key missing or of the wrong type", tb.Name, it.ID)
		}
		k := pk.S
		if tb.SortKey != nil {
			sk, ok := it.Item[tb.SortKey.Name]
			if !ok || sk.Type != tb.SortKey.Type {
				t.Errorf("table %s item %s: sort key missing or of the wrong type", tb.Name, it.ID)
			}
			k += "\x00" + sk.S
		}
		if keys[k] {
			t.Errorf("table %s: two items share the key of %s", tb.Name, it.ID)
		}
		keys[k] = true
	}
}

func sameKey(tb designer.Table, item, key designer.Item) bool {
	names := []string{tb.PartitionKey.Name}
	if tb.SortKey != nil {
		names = append(names, tb.SortKey.Name)
	}
	if len(key) != len(names) {
		return false
	}
	for _, n := range names {
		a, okA := item[n]
		b, okB := key[n]
		if !okA || !okB || a.Type != b.Type || a.S != b.S {
			return false
		}
	}
	return true
}
