package designer

import "strings"

// A table's primary key as the document knows it: which attributes it has, the key part of an
// item, how a key reads for people and when two keys name the same item.

// TableKeyNames are the attributes of the table's primary key.
func TableKeyNames(t Table) []string {
	if t.SortKey == nil {
		return []string{t.PartitionKey.Name}
	}
	return []string{t.PartitionKey.Name, t.SortKey.Name}
}

// TableKey is the primary-key part of an item of t: the attributes a team records as an expected
// result. Index results carry the table's keys too, so this works for them as well.
func TableKey(t Table, it Item) Item {
	key := Item{}
	if v, ok := it[t.PartitionKey.Name]; ok {
		key[t.PartitionKey.Name] = v
	}
	if t.SortKey != nil {
		if v, ok := it[t.SortKey.Name]; ok {
			key[t.SortKey.Name] = v
		}
	}
	return key
}

// KeyText shows a key for people: "order_id=O1 · created=5".
func KeyText(t Table, key Item) string {
	parts := []string{}
	for _, name := range []string{t.PartitionKey.Name, sortKeyName(t)} {
		if v, ok := key[name]; ok && name != "" {
			parts = append(parts, name+"="+FormatCell(v))
		}
	}
	return strings.Join(parts, " · ")
}

func sortKeyName(t Table) string {
	if t.SortKey == nil {
		return ""
	}
	return t.SortKey.Name
}

// SameKey reports whether two keys of t name the same item.
func SameKey(t Table, a, b Item) bool {
	for _, name := range []string{t.PartitionKey.Name, sortKeyName(t)} {
		if name == "" {
			continue
		}
		va, oka := a[name]
		vb, okb := b[name]
		if oka != okb || (oka && !va.Equal(vb)) {
			return false
		}
	}
	return true
}

// KeysMovedAlone reports whether each item at the positions rekeyed, which an edit gave a new
// table key, shared its key with no other item before the edit, in the table whose key order is
// before, and shares it with none after it, in after's (KeyOrder.SharesKey). No other item is then
// hidden or revealed by the edit.
func KeysMovedAlone(before, after KeyOrder, rekeyed []int) bool {
	for _, j := range rekeyed {
		if before.SharesKey(j) || after.SharesKey(j) {
			return false
		}
	}
	return true
}
