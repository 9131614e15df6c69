package designer

import (
	"slices"
	"strings"
)

// The views below are what the item grids show: a table's items in key order with their sizes and
// entity types, and each index's own entries. They are computed from the design on every render and
// never stored. Their Items share maps with the table's items, so callers must not modify them.

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
	entityTypes := viewEntityMatchers(t)
	type sortable struct {
		row    Row
		pk, sk Value
		keyed  bool
	}
	rows := make([]sortable, len(t.Items))
	for i, si := range t.Items {
		r := sortable{row: Row{ID: si.ID, Item: si.Item, Size: ItemSize(si.Item)}}
		pk, hasPK := si.Item[t.PartitionKey.Name]
		r.pk, r.keyed = pk, hasPK
		var skText string
		var hasSK bool
		if t.SortKey != nil {
			r.sk, hasSK = si.Item[t.SortKey.Name]
			r.keyed = r.keyed && hasSK
			if hasSK {
				skText = FormatCell(r.sk)
			}
		}
		if hasPK {
			r.row.Partition = FormatCell(pk)
		}
		r.row.EntityType = matchEntityType(entityTypes, r.row.Partition, hasPK, skText, hasSK)
		rows[i] = r
	}
	slices.SortStableFunc(rows, func(a, b sortable) int {
		switch {
		case a.keyed != b.keyed:
			if a.keyed {
				return -1
			}
			return 1
		case !a.keyed:
			return 0
		}
		if c := CompareKeyValues(a.pk, b.pk); c != 0 {
			return c
		}
		return CompareKeyValues(a.sk, b.sk)
	})
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = r.row
	}
	return out
}

// viewEntityMatcher is an entity type ready to be matched against key values.
type viewEntityMatcher struct {
	entity   string
	pk, sk   []tmplPart // nil when the entity type states no template for that key
	literals int        // literal characters in both templates; the more, the more specific
}

func viewEntityMatchers(t Table) []viewEntityMatcher {
	var out []viewEntityMatcher
	for _, et := range t.EntityTypes {
		if et.PKTemplate == "" && et.SKTemplate == "" {
			continue
		}
		m := viewEntityMatcher{entity: et.Entity, pk: parseKeyTemplate(et.PKTemplate), sk: parseKeyTemplate(et.SKTemplate)}
		for _, p := range slices.Concat(m.pk, m.sk) {
			m.literals += len(p.literal)
		}
		out = append(out, m)
	}
	return out
}

// matchEntityType returns the entity whose every stated template matches the key values. When
// several do, the one with the most literal text wins (USER#{id} + PROFILE over USER#{id} +
// {sk}); among equals, the first listed.
func matchEntityType(ms []viewEntityMatcher, pk string, hasPK bool, sk string, hasSK bool) string {
	best, bestLiterals := "", -1
	for _, m := range ms {
		if m.pk != nil && (!hasPK || !matchKeyTemplate(m.pk, pk)) {
			continue
		}
		if m.sk != nil && (!hasSK || !matchKeyTemplate(m.sk, sk)) {
			continue
		}
		if m.literals > bestLiterals {
			best, bestLiterals = m.entity, m.literals
		}
	}
	return best
}

// IndexRow is one entry of an index's grid.
type IndexRow struct {
	ID   string
	Item Item
	// Size is the entry's size (IndexEntrySize): keys and projected attributes only.
	Size int
	// Partition is the index partition key value as the grid shows it, the values of a
	// multi-attribute key joined by " · ".
	Partition string
}

// Excluded is a table item that has no entry in an index, and why.
type Excluded struct {
	ID, Reason string
}

// IndexView is an index as its grid shows it: its entries in index order and the items left out.
type IndexView struct {
	Rows     []IndexRow
	Excluded []Excluded
	// Total counts the index's entries; Rows holds them all, or the first ones for IndexItemsFirst.
	Total int
}

// partitionSeparator joins the values of a multi-attribute partition key for display.
const partitionSeparator = " · "

// IndexItems returns the entries of index ix of table t (§4). An item gets an entry only when it
// has every index key attribute (for an LSI, the table's partition key and the index's sort key);
// an item that lacks one, or whose key attribute has the wrong type or is empty, is listed in
// Excluded with a reason. An entry holds the table's keys, the index's keys and the projected
// attributes: everything for ALL, the listed attributes for INCLUDE (and for a projection whose type
// is not set yet), nothing more for KEYS_ONLY. Entries are ordered by the index partition key, then
// the index sort key, then the table's keys, so that ties keep a stable order.
func IndexItems(t Table, ix Index, lsi bool) IndexView {
	return indexItems(t, ix, lsi, -1)
}

// IndexItemsFirst is IndexItems for a grid that shows only the first n entries: every entry is
// still ordered and every left-out item listed, but only the first n entries are built.
func IndexItemsFirst(t Table, ix Index, lsi bool, n int) IndexView {
	return indexItems(t, ix, lsi, n)
}

func indexItems(t Table, ix Index, lsi bool, limit int) IndexView {
	pkAttrs := ix.PartitionKey
	if lsi {
		pkAttrs = []KeyAttribute{t.PartitionKey}
	}
	skAttrs := ix.SortKey
	keyAttrs := make([]KeyAttribute, 0, len(pkAttrs)+len(skAttrs))
	keyAttrs = append(append(keyAttrs, pkAttrs...), skAttrs...)
	tableKeys := []string{t.PartitionKey.Name}
	if t.SortKey != nil {
		tableKeys = append(tableKeys, t.SortKey.Name)
	}

	projectAll := ix.Projection.Type == All
	var projected []string
	if !projectAll {
		projected = append(projected, tableKeys...)
		for _, k := range keyAttrs {
			projected = append(projected, k.Name)
		}
		if ix.Projection.Type != KeysOnly {
			projected = append(projected, ix.Projection.Attributes...)
		}
		slices.Sort(projected)
		projected = slices.Compact(projected)
	}

	// Every edit recomputes every view, so sorting moves small records over a flat array of
	// pre-parsed key parts: comparing two entries neither copies rows nor re-parses numbers. Rows
	// are built afterwards, in order.
	nKeys := len(keyAttrs)
	stride := nKeys + len(tableKeys)
	parts := make([]keyPart, 0, len(t.Items)*stride)
	type sortable struct {
		at          int32 // index of the entry's first part in parts
		item        int32 // index of the item in t.Items
		tableKeyLen int32 // how many table key values the item has
	}
	var view IndexView
	order := make([]sortable, 0, len(t.Items))
	partitions := make([]string, 0, len(t.Items))
	values := make([]Value, nKeys)
	found := make([]bool, nKeys)
	for i, si := range t.Items {
		for j, k := range keyAttrs {
			values[j], found[j] = si.Item[k.Name]
		}
		if reason := indexExclusion(keyAttrs, values, found, ix.Name); reason != "" {
			view.Excluded = append(view.Excluded, Excluded{ID: si.ID, Reason: reason})
			continue
		}
		e := sortable{at: int32(len(order)), item: int32(i)}
		for _, v := range values {
			parts = append(parts, newKeyPart(v))
		}
		for _, name := range tableKeys {
			if v, ok := si.Item[name]; ok {
				parts = append(parts, newKeyPart(v))
				e.tableKeyLen++
			}
		}
		for range len(tableKeys) - int(e.tableKeyLen) {
			parts = append(parts, keyPart{})
		}
		order = append(order, e)
		partitions = append(partitions, partitionText(values[:len(pkAttrs)]))
	}
	slices.SortFunc(order, func(a, b sortable) int {
		pa := parts[int(a.at)*stride : int(a.at+1)*stride]
		pb := parts[int(b.at)*stride : int(b.at+1)*stride]
		if c := compareKeyParts(pa[:nKeys], pb[:nKeys]); c != 0 {
			return c
		}
		// An item lacking a table key, which validation reports, sorts after those that have them.
		if a.tableKeyLen != b.tableKeyLen {
			return int(b.tableKeyLen - a.tableKeyLen)
		}
		if c := compareKeyParts(pa[nKeys:nKeys+int(a.tableKeyLen)], pb[nKeys:nKeys+int(b.tableKeyLen)]); c != 0 {
			return c
		}
		return int(a.item - b.item)
	})
	view.Total = len(order)
	if limit >= 0 && len(order) > limit {
		order = order[:limit]
	}
	view.Rows = make([]IndexRow, len(order))
	buf := make([]Value, len(projected))
	for i, e := range order {
		si := t.Items[e.item]
		row := IndexRow{ID: si.ID, Item: si.Item, Partition: partitions[e.at]}
		if projectAll {
			row.Size = IndexEntrySize(si.Item)
		} else {
			row.Item, row.Size = projectEntry(si.Item, projected, buf)
		}
		view.Rows[i] = row
	}
	return view
}

// partitionText is an index partition key value as the grid shows it.
func partitionText(values []Value) string {
	if len(values) == 1 {
		return FormatCell(values[0])
	}
	var sb strings.Builder
	for i, v := range values {
		if i > 0 {
			sb.WriteString(partitionSeparator)
		}
		sb.WriteString(FormatCell(v))
	}
	return sb.String()
}

// projectEntry copies the projected attributes the item has and returns the entry with its size
// (IndexEntrySize), summed while copying. An item whose every attribute is projected is shared, not
// copied. buf holds one value per projected name, so that each is looked up once.
func projectEntry(it Item, projected []string, buf []Value) (Item, int) {
	n := 0
	for i, name := range projected {
		v, ok := it[name]
		if ok {
			n++
		}
		buf[i] = v
	}
	if n == len(it) {
		return it, IndexEntrySize(it)
	}
	entry, size := make(Item, n), 0
	for i, name := range projected {
		if v := buf[i]; v.Type != "" {
			entry[name] = v
			size += len(name) + ValueSize(v)
		}
	}
	return entry, size
}

// keyPart is a key value prepared for repeated comparison, kept small because a view sorts
// thousands of them: numbers parsed once into their significant digits (text) and exponent, other
// values as the text they compare by.
type keyPart struct {
	text  string // S; B's bytes; N's significant digits, or its text when it is not a number; else the cell text
	exp   int64  // N: the power of ten of the last significant digit
	rank  uint8  // orders types as CompareKeyValues does, by type name
	neg   bool   // N: negative
	numOK bool   // N: the text is a number
}

// keyTypeRanks orders the types by name, as CompareKeyValues orders values of different types;
// the zero rank is an absent value, and an unknown type ranks last.
var keyTypeRanks = map[Type]uint8{B: rankB, BOOL: 2, BS: 3, L: 4, M: 5, N: rankN, NS: 7, NULL: 8, S: rankS, SS: 10}

// The ranks of the key types, as constants for the hot paths.
const (
	rankB uint8 = 1
	rankN uint8 = 6
	rankS uint8 = 9
)

const unknownTypeRank = 255

func newKeyPart(v Value) keyPart {
	p := keyPart{rank: unknownTypeRank}
	switch v.Type {
	case S:
		p.rank, p.text = rankS, v.S
		return p
	case N:
		p.rank = rankN
		d, ok := parseDecimal(v.S)
		if !ok {
			p.text = v.S
			return p
		}
		p.text, p.exp, p.neg, p.numOK = d.digits, d.exp, d.negative, true
		return p
	case B:
		p.rank, p.text = rankB, string(v.B)
		return p
	}
	if r, ok := keyTypeRanks[v.Type]; ok {
		p.rank, p.text = r, FormatCell(v)
	} else {
		p.text = string(v.Type)
	}
	return p
}

// compareKeyParts orders prepared keys exactly as CompareKeys orders the values they came from,
// except that values of two unknown types compare by type name only.
func compareKeyParts(a, b []keyPart) int {
	for i := range min(len(a), len(b)) {
		x, y := &a[i], &b[i]
		if x.rank != y.rank {
			return int(x.rank) - int(y.rank)
		}
		var c int
		switch {
		case x.numOK && y.numOK:
			c = compareDecimals(decimal{negative: x.neg, digits: x.text, exp: x.exp},
				decimal{negative: y.neg, digits: y.text, exp: y.exp})
		case x.numOK:
			c = -1
		case y.numOK:
			c = 1
		default:
			c = strings.Compare(x.text, y.text)
		}
		if c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// indexExclusion says why an item has no entry in the index, or returns "" when it has one; values
// and found are the item's index key attributes, in the order of keys. A missing key attribute is
// the normal way an item stays out of a sparse index; a key attribute of the wrong type or an empty
// one is a mistake DynamoDB would refuse the write for.
func indexExclusion(keys []KeyAttribute, values []Value, found []bool, index string) string {
	var missing []string
	for i, k := range keys {
		if !found[i] {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		return "has no " + listOr(missing) + ", so it is not in " + index
	}
	for i, k := range keys {
		v := values[i]
		if k.Type != "" && v.Type != k.Type {
			return "its " + k.Name + " is " + withArticle(cellTypeName(v.Type)) + " but " + index +
				" needs " + withArticle(cellTypeName(k.Type)) + "; DynamoDB would reject this item"
		}
		if (v.Type == S && v.S == "") || (v.Type == B && len(v.B) == 0) {
			return "its " + k.Name + " is empty but is a key of " + index +
				"; DynamoDB would reject this item"
		}
	}
	return ""
}

func withArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
