package designer

import (
	"slices"
	"strings"
)

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
		if oka != okb || (oka && CompareKeyValues(va, vb) != 0) {
			return false
		}
	}
	return true
}

// Verdict compares what an operation returned with the keys the team expects. stated is false when
// no expectation is recorded. A Query's order matters (the method records results in the order the
// pattern needs them); for the other reads only the set of items does.
func Verdict(t Table, op Operation, res OperationResult) (stated, pass bool) {
	if op.Expected == nil {
		return false, false
	}
	want := *op.Expected
	got := make([]Item, len(res.Items))
	for i, it := range res.Items {
		got[i] = TableKey(t, it)
	}
	if len(got) != len(want) {
		return true, false
	}
	if op.Op == "Query" {
		for i := range got {
			if !SameKey(t, got[i], want[i]) {
				return true, false
			}
		}
		return true, true
	}
	for _, g := range got {
		if !slices.ContainsFunc(want, func(w Item) bool { return SameKey(t, g, w) }) {
			return true, false
		}
	}
	return true, true
}
