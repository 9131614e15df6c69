package dynamo

import (
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// Each index's own entries as its grid shows them. They are computed from the design on every
// render and never stored. Their Items share maps with the table's items, so callers must not
// modify them.

// IndexRow is one entry of an index's grid.
type IndexRow struct {
	ID   string
	Item designer.Item
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
func IndexItems(t designer.Table, ix designer.Index, lsi bool) IndexView {
	view, _ := indexItems(t, ix, lsi, -1)
	return view
}

// IndexItemsFirst is IndexItems for a grid that shows only the first n entries: every entry is
// still ordered and every left-out item listed, but only the first n entries are built.
func IndexItemsFirst(t designer.Table, ix designer.Index, lsi bool, n int) IndexView {
	view, _ := indexItems(t, ix, lsi, n)
	return view
}

// indexItems is IndexItems for the first limit entries (all for a negative limit), with the
// position in t.Items of the item of each row.
func indexItems(t designer.Table, ix designer.Index, lsi bool, limit int) (IndexView, []int32) {
	pkAttrs, keyAttrs, tableKeys := entryKeyAttrs(t, ix, lsi)

	projectAll := ix.Projection.Type == designer.All
	var projected []string
	if !projectAll {
		projected = append(projected, tableKeys...)
		for _, k := range keyAttrs {
			projected = append(projected, k.Name)
		}
		if ix.Projection.Type != designer.KeysOnly {
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
	values := make([]designer.Value, nKeys)
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
		parts, e.tableKeyLen = appendViewParts(parts, si.Item, keyAttrs, tableKeys)
		order = append(order, e)
		partitions = append(partitions, partitionText(values[:len(pkAttrs)]))
	}
	slices.SortFunc(order, func(a, b sortable) int {
		return compareEntries(parts[int(a.at)*stride:int(a.at+1)*stride], parts[int(b.at)*stride:int(b.at+1)*stride],
			nKeys, a.tableKeyLen, b.tableKeyLen, a.item, b.item)
	})
	view.Total = len(order)
	if limit >= 0 && len(order) > limit {
		order = order[:limit]
	}
	view.Rows = make([]IndexRow, len(order))
	srcs := make([]int32, len(order))
	buf := make([]designer.Value, len(projected))
	for i, e := range order {
		srcs[i] = e.item
		si := t.Items[e.item]
		row := IndexRow{ID: si.ID, Item: si.Item, Partition: partitions[e.at]}
		if projectAll {
			row.Size = designer.IndexEntrySize(si.Item)
		} else {
			row.Item, row.Size = projectEntry(si.Item, projected, buf)
		}
		view.Rows[i] = row
	}
	return view, srcs
}

// entryKeyAttrs are the attributes that order an index's entries: its partition key (for an LSI,
// the table's), then all of its keys, and the table's keys that break ties.
func entryKeyAttrs(t designer.Table, ix designer.Index, lsi bool) (pkAttrs, keyAttrs []designer.KeyAttribute, tableKeys []string) {
	pkAttrs = ix.PartitionKey
	if lsi {
		pkAttrs = []designer.KeyAttribute{t.PartitionKey}
	}
	keyAttrs = make([]designer.KeyAttribute, 0, len(pkAttrs)+len(ix.SortKey))
	keyAttrs = append(append(keyAttrs, pkAttrs...), ix.SortKey...)
	tableKeys = []string{t.PartitionKey.Name}
	if t.SortKey != nil {
		tableKeys = append(tableKeys, t.SortKey.Name)
	}
	return pkAttrs, keyAttrs, tableKeys
}

// appendViewParts appends an entry's key parts to parts: one per index key attribute, which the
// entry has, then one per table key, those it lacks as zero parts at the end. It returns how many
// table key values the entry has.
func appendViewParts(parts []keyPart, it designer.Item, keyAttrs []designer.KeyAttribute, tableKeys []string) ([]keyPart, int32) {
	for _, k := range keyAttrs {
		parts = append(parts, newKeyPart(it[k.Name]))
	}
	var n int32
	for _, name := range tableKeys {
		if v, ok := it[name]; ok {
			parts = append(parts, newKeyPart(v))
			n++
		}
	}
	for range len(tableKeys) - int(n) {
		parts = append(parts, keyPart{})
	}
	return parts, n
}

// compareEntries orders two entries of an index by their parts (appendViewParts): by the nKeys
// index key parts, then the table's keys, then the positions of their items, so that ties keep a
// stable order.
func compareEntries(pa, pb []keyPart, nKeys int, la, lb, ia, ib int32) int {
	if c := compareKeyParts(pa[:nKeys], pb[:nKeys]); c != 0 {
		return c
	}
	// An item lacking a table key, which validation reports, sorts after those that have them.
	if la != lb {
		return int(lb - la)
	}
	if c := compareKeyParts(pa[nKeys:nKeys+int(la)], pb[nKeys:nKeys+int(lb)]); c != 0 {
		return c
	}
	return int(ia - ib)
}

// partitionText is an index partition key value as the grid shows it.
func partitionText(values []designer.Value) string {
	if len(values) == 1 {
		return designer.FormatCell(values[0])
	}
	var sb strings.Builder
	for i, v := range values {
		if i > 0 {
			sb.WriteString(partitionSeparator)
		}
		sb.WriteString(designer.FormatCell(v))
	}
	return sb.String()
}

// projectEntry copies the projected attributes the item has and returns the entry with its size
// (IndexEntrySize), summed while copying. An item whose every attribute is projected is shared, not
// copied. buf holds one value per projected name, so that each is looked up once.
func projectEntry(it designer.Item, projected []string, buf []designer.Value) (designer.Item, int) {
	n := 0
	for i, name := range projected {
		v, ok := it[name]
		if ok {
			n++
		}
		buf[i] = v
	}
	if n == len(it) {
		return it, designer.IndexEntrySize(it)
	}
	entry, size := make(designer.Item, n), 0
	for i, name := range projected {
		if v := buf[i]; v.Type != "" {
			entry[name] = v
			size += len(name) + designer.ValueSize(v)
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
var keyTypeRanks = map[designer.Type]uint8{designer.B: rankB, designer.BOOL: 2, designer.BS: 3, designer.L: 4, designer.M: 5, designer.N: rankN, designer.NS: 7, designer.NULL: 8, designer.S: rankS, designer.SS: 10}

// The ranks of the key types, as constants for the hot paths.
const (
	rankB uint8 = 1
	rankN uint8 = 6
	rankS uint8 = 9
)

const unknownTypeRank = 255

func newKeyPart(v designer.Value) keyPart {
	p := keyPart{rank: unknownTypeRank}
	switch v.Type {
	case designer.S:
		p.rank, p.text = rankS, v.S
		return p
	case designer.N:
		p.rank = rankN
		d, ok := designer.ParseDecimal(v.S)
		if !ok {
			p.text = v.S
			return p
		}
		p.text, p.exp, p.neg, p.numOK = d.Digits, d.Exp, d.Negative, true
		return p
	case designer.B:
		p.rank, p.text = rankB, string(v.B)
		return p
	}
	if r, ok := keyTypeRanks[v.Type]; ok {
		p.rank, p.text = r, designer.FormatCell(v)
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
			c = designer.CompareDecimals(designer.Decimal{Negative: x.neg, Digits: x.text, Exp: x.exp},
				designer.Decimal{Negative: y.neg, Digits: y.text, Exp: y.exp})
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
func indexExclusion(keys []designer.KeyAttribute, values []designer.Value, found []bool, index string) string {
	var missing []string
	for i, k := range keys {
		if !found[i] {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		return "has no " + designer.ListOr(missing) + ", so it is not in " + index
	}
	for i, k := range keys {
		v := values[i]
		if k.Type != "" && v.Type != k.Type {
			return "its " + k.Name + " is " + withArticle(designer.CellTypeName(v.Type)) + " but " + index +
				" needs " + withArticle(designer.CellTypeName(k.Type)) + "; DynamoDB would reject this item"
		}
		if (v.Type == designer.S && v.S == "") || (v.Type == designer.B && len(v.B) == 0) {
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
