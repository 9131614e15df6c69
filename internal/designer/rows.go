package designer

import (
	"slices"
)

// A table's grid: its items in key order with their sizes and entity types. It is computed from the
// design on every render and never stored. Its Items share maps with the table's items, so callers
// must not modify them.

// Row is one item of a table's grid.
type Row struct {
	ID   string
	Item Item
	Size int
	// Partition is the partition key value as the grid shows it; rows with the same Partition form
	// one item collection. It is empty when the item has no partition key.
	Partition string
	// EntityType is the Entity of the table's EntityType whose key templates the item's key values
	// match, or "" when none does.
	EntityType string
}

// TableRows returns a table's items in key order: by partition key, then by sort key, both compared
// by CompareKeyValues. Items lacking a key attribute come last, in their original order.
func TableRows(t Table) []Row {
	rows := TableOrder(t)
	for i := range rows {
		rows[i].Size = ItemSize(rows[i].Item)
	}
	return rows
}

// TableOrder is TableRows without the sizes, for a grid that shows a page of the rows and measures
// only those.
func TableOrder(t Table) []Row { return NewKeyOrder(t).Rows }

// orderKey is what places a row in a table's key order: its key values, whether it has them all,
// and where its item is in the table's items.
type orderKey struct {
	pk, sk Value
	keyed  bool
	at     int32
}

// compareOrder orders rows by partition key, then sort key; rows lacking a key attribute come
// last, and ties keep the items' order.
func compareOrder(a, b orderKey) int {
	switch {
	case a.keyed != b.keyed:
		if a.keyed {
			return -1
		}
		return 1
	case a.keyed:
		if c := CompareKeyValues(a.pk, b.pk); c != 0 {
			return c
		}
		if c := CompareKeyValues(a.sk, b.sk); c != 0 {
			return c
		}
	}
	return int(a.at - b.at)
}

// orderRow is the row of item si, at position at of t's items, and its place in the key order.
func orderRow(t Table, m EntityMatcher, si SampleItem, at int) (Row, orderKey) {
	r := Row{ID: si.ID, Item: si.Item}
	k := orderKey{at: int32(at)}
	pk, hasPK := si.Item[t.PartitionKey.Name]
	k.pk, k.keyed = pk, hasPK
	var skText string
	var hasSK bool
	if t.SortKey != nil {
		k.sk, hasSK = si.Item[t.SortKey.Name]
		k.keyed = k.keyed && hasSK
		if hasSK {
			skText = FormatCell(k.sk)
		}
	}
	if hasPK {
		r.Partition = FormatCell(pk)
	}
	r.EntityType = m.match(r.Partition, hasPK, skText, hasSK)
	return r, k
}

// EntityMatcher finds which of a table's entity types an item is from its key values and the
// entity types' key templates.
type EntityMatcher struct {
	t  Table
	ms []entityMatcher
}

// entityMatcher is an entity type ready to be matched against key values.
type entityMatcher struct {
	entity   string
	pk, sk   []tmplPart // nil when the entity type states no template for that key
	literals int        // literal characters in both templates; the more, the more specific
}

// NewEntityMatcher parses t's key templates once, for matching many of its items.
func NewEntityMatcher(t Table) EntityMatcher {
	m := EntityMatcher{t: t}
	for _, et := range t.EntityTypes {
		if et.PKTemplate == "" && et.SKTemplate == "" {
			continue
		}
		em := entityMatcher{entity: et.Entity, pk: parseKeyTemplate(et.PKTemplate), sk: parseKeyTemplate(et.SKTemplate)}
		for _, p := range slices.Concat(em.pk, em.sk) {
			em.literals += len(p.literal)
		}
		m.ms = append(m.ms, em)
	}
	return m
}

// EntityType returns the entity type whose templates the item's key values match, or "".
func (m EntityMatcher) EntityType(it Item) string {
	pk, hasPK := it[m.t.PartitionKey.Name]
	var pkText, skText string
	if hasPK {
		pkText = FormatCell(pk)
	}
	var hasSK bool
	if m.t.SortKey != nil {
		var sk Value
		if sk, hasSK = it[m.t.SortKey.Name]; hasSK {
			skText = FormatCell(sk)
		}
	}
	return m.match(pkText, hasPK, skText, hasSK)
}

// match returns the entity whose every stated template matches the key values. When several do,
// the one with the most literal text wins (USER#{id} + PROFILE over USER#{id} + {sk}); among
// equals, the first listed.
func (m EntityMatcher) match(pk string, hasPK bool, sk string, hasSK bool) string {
	best, bestLiterals := "", -1
	for _, em := range m.ms {
		if em.pk != nil && (!hasPK || !matchKeyTemplate(em.pk, pk)) {
			continue
		}
		if em.sk != nil && (!hasSK || !matchKeyTemplate(em.sk, sk)) {
			continue
		}
		if em.literals > bestLiterals {
			best, bestLiterals = em.entity, em.literals
		}
	}
	return best
}
