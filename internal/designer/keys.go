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

// SharesKey reports whether another item of t has the primary key of item j: every table key
// attribute present in both, equal as DynamoDB compares keys. Such items overwrite each other, so
// a read sees only one of them; an edit that gives an item a key no other item has, and took it
// from a key no other item had, changes what reads of other keys see in nothing.
func SharesKey(t Table, j int) bool {
	names := TableKeyNames(t)
	mine := make([]Value, len(names))
	for k, name := range names {
		v, ok := t.Items[j].Item[name]
		if !ok {
			return false
		}
		mine[k] = v
	}
	for i, si := range t.Items {
		if i == j {
			continue
		}
		same := true
		for k, name := range names {
			v, ok := si.Item[name]
			if !ok || CompareKeyValues(v, mine[k]) != 0 {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// KeysMovedAlone reports whether each item of b at the positions rekeyed, which an edit gave a
// new table key, shared its key with no other item in a, before the edit, and shares it with none
// in b (SharesKey). a and b are the same table, with as many items.
func KeysMovedAlone(a, b Table, rekeyed []int) bool {
	for _, j := range rekeyed {
		if SharesKey(a, j) || SharesKey(b, j) {
			return false
		}
	}
	return true
}
