package dynamo

import (
	"slices"
	"sort"

	"dynaloom/internal/designer"
)

// movedView is the grid view of index ix over t's items when they are old's items with those at
// the positions edited (ascending) edited in place, ids kept, whatever the edit did to their keys:
// the rows of the edited items are taken out and their new rows, if they have any, put where the
// order places them, found by binary search; the other rows keep their place. The result is the
// view indexItems builds, row for row, at the cost of the edited items and a copy.
func movedView(old *indexList, t designer.Table, ix designer.Index, lsi bool, edited []int) (IndexView, []int32) {
	isEdited := func(j int32) bool {
		_, hit := slices.BinarySearch(edited, int(j))
		return hit
	}
	_, keyAttrs, tableKeys := entryKeyAttrs(t, ix, lsi)
	nKeys := len(keyAttrs)

	// The edited items as they are now: a row each, or the reason they are left out.
	type moved struct {
		row   IndexRow
		at    int32
		parts []keyPart
		tkl   int32
	}
	var rows []moved
	var excluded []Excluded
	var excludedAt []int32
	for _, j := range edited {
		one := t
		one.Items = t.Items[j : j+1]
		v, _ := indexItems(one, ix, lsi, -1)
		if len(v.Rows) == 1 {
			parts, tkl := appendViewParts(nil, t.Items[j].Item, keyAttrs, tableKeys)
			rows = append(rows, moved{row: v.Rows[0], at: int32(j), parts: parts, tkl: tkl})
			continue
		}
		excluded = append(excluded, v.Excluded...)
		for range v.Excluded {
			excludedAt = append(excludedAt, int32(j))
		}
	}
	slices.SortFunc(rows, func(a, b moved) int {
		return compareEntries(a.parts, b.parts, nKeys, a.tkl, b.tkl, a.at, b.at)
	})

	// The rows of the items not edited, in their order.
	keptRows := make([]IndexRow, 0, len(old.view.Rows)+len(rows))
	keptSrcs := make([]int32, 0, len(old.view.Rows)+len(rows))
	inView := make([]bool, len(t.Items))
	for i, j := range old.srcs {
		inView[j] = true
		if !isEdited(j) {
			keptRows = append(keptRows, old.view.Rows[i])
			keptSrcs = append(keptSrcs, j)
		}
	}
	// Where each moved row goes among them: before the first kept row that orders after it.
	var buf []keyPart
	places := make([]int, len(rows))
	for r := range rows {
		places[r] = sort.Search(len(keptRows), func(m int) bool {
			var tkl int32
			buf, tkl = appendViewParts(buf[:0], t.Items[keptSrcs[m]].Item, keyAttrs, tableKeys)
			return compareEntries(rows[r].parts, buf, nKeys, rows[r].tkl, tkl, rows[r].at, keptSrcs[m]) < 0
		})
	}
	view := IndexView{Rows: make([]IndexRow, 0, len(keptRows)+len(rows))}
	srcs := make([]int32, 0, len(keptRows)+len(rows))
	from := 0
	for r, m := range places {
		view.Rows = append(view.Rows, keptRows[from:m]...)
		srcs = append(srcs, keptSrcs[from:m]...)
		view.Rows = append(view.Rows, rows[r].row)
		srcs = append(srcs, rows[r].at)
		from = m
	}
	view.Rows = append(view.Rows, keptRows[from:]...)
	srcs = append(srcs, keptSrcs[from:]...)
	view.Total = len(view.Rows)

	// The items left out are listed in item order: every item the old view had no row for, in
	// order, is old's next Excluded.
	if len(old.view.Excluded)+len(excluded) > 0 {
		view.Excluded = make([]Excluded, 0, len(old.view.Excluded)+len(excluded))
	}
	next, e := 0, 0
	for j := range t.Items {
		for e < len(excludedAt) && int(excludedAt[e]) == j {
			view.Excluded = append(view.Excluded, excluded[e])
			e++
		}
		if inView[j] {
			continue
		}
		if !isEdited(int32(j)) {
			view.Excluded = append(view.Excluded, old.view.Excluded[next])
		}
		next++
	}
	if len(view.Excluded) == 0 {
		view.Excluded = nil // as indexItems leaves it
	}
	return view, srcs
}
