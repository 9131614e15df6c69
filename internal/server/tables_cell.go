package server

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/a-h/templ"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"
)

// The answer to a one-cell edit of the tables step: the cell, its row size and what changed
// of the index grids.

// tableCell answers a one-cell edit of the tables step with the cell (showing the refusal, if any),
// the recomputed index grids and, for an item cell, its row's size. cell builds the cell from the
// edited element's identity in the table as it now stands; ok is false when it no longer exists
// (the table, index or item was renamed or deleted meanwhile), and the step reloads.
func tableCell(spot tablesSpot, table, value string, cell func(d *designContext, t designer.Table) (c templates.Cell, extra templ.Component, ok bool)) part {
	return func(d *designContext, r *refused) (templ.Component, error) {
		t, _, ok := d.Record.Design.TableByName(table)
		if !ok {
			return reload(tablesHref(d, table)), nil
		}
		c, extra, ok := cell(d, t)
		if !ok {
			return reload(tablesHref(d, table)), nil
		}
		parts := []templ.Component{templates.CellView(withRefusal(c, r, value)), templates.IndexGridsOOB(elemID("table", t.Name), indexGrids(d, t, spot))}
		if extra != nil {
			parts = append(parts, extra)
		}
		return templ.Join(parts...), nil
	}
}

// itemCellPart answers an edit of one item's cell: the cell, its row's size and the index grids
// the edit changed (all of them when that cannot be told).
func itemCellPart(spot tablesSpot, table, id, attr, value string) part {
	whole := tableCell(spot, table, value, func(d *designContext, t designer.Table) (templates.Cell, templ.Component, bool) {
		return itemCell(d, t, id, attr)
	})
	return func(d *designContext, r *refused) (templ.Component, error) {
		if r != nil {
			return whole(d, r)
		}
		t, _, ok := d.Record.Design.TableByName(table)
		if !ok {
			return whole(d, r)
		}
		grids, ok := changedIndexGrids(d, t, id, spot)
		if !ok {
			return whole(d, r)
		}
		c, size, ok := itemCell(d, t, id, attr)
		if !ok {
			return whole(d, r)
		}
		parts := []templ.Component{templates.CellView(withRefusal(c, r, value)), size}
		for _, g := range grids {
			parts = append(parts, g.part)
		}
		return templ.Join(parts...), nil
	}
}

// changedIndexGrids is what the edit of item id's cell that made the design's revision changed of
// table t's index grids, as spot pages them, each out of band: a grid the edit left as it was is
// not sent; one where only the item's entry changed, in its place on the page shown and with the
// same attributes (so the same columns), is that entry's row alone; any other it changed is the
// whole grid — one whose page shows the item before or after the edit, lists it as left out,
// whose page it moved past (every entry on it then shifts by one), or whose entries or left-out
// items it made more or fewer. An item cell edit moves at most that item, so no other grid can
// differ. ok is false when that cannot be told: the revision before is no longer held, or the
// table's indexes differ from it.
//
// Sending the grids unchanged again would cost the answer as much as the rest of it on a table of
// hundreds of items; the page keeps the grids it shows, as it does for other people's edits.
func changedIndexGrids(d *designContext, t designer.Table, id string, spot tablesSpot) (parts []fragment, ok bool) {
	if d.set == nil {
		return nil, false
	}
	before, held := d.set.Held(d.ID, d.Record.Revision-1)
	if !held {
		return nil, false
	}
	was, _, found := before.Design().TableByName(t.Name)
	if !found || !reflect.DeepEqual(was.GSIs, t.GSIs) || !reflect.DeepEqual(was.LSIs, t.LSIs) ||
		!reflect.DeepEqual(was.PartitionKey, t.PartitionKey) || !reflect.DeepEqual(was.SortKey, t.SortKey) {
		return nil, false
	}
	for _, group := range []struct {
		kind string
		lsi  bool
		ixs  []designer.Index
	}{{"GSI", false, t.GSIs}, {"LSI", true, t.LSIs}} {
		for _, ix := range group.ixs {
			then, now := before.IndexView(was, ix, group.lsi), d.derived().IndexView(t, ix, group.lsi)
			if then.Total == now.Total && len(then.Excluded) == len(now.Excluded) {
				page, _, _ := indexPage(now, ix, spot)
				from, to := entryAt(then, id), entryAt(now, id)
				if !pageChanges(then, now, from, to, page, id) {
					continue
				}
				if row, ok := changedEntry(t, ix, group.lsi, then, now, from, to, spot); ok {
					parts = append(parts, fragment{row.ID, templates.IndexRowOOB(row)})
					continue
				}
			}
			g := indexGrid(d, t, ix, group.kind, group.lsi, spot)
			g.OOB = true
			parts = append(parts, fragment{g.ID, templates.IndexGridView(g)})
		}
	}
	return parts, true
}

// entryAt is where item id's entry is among a view's rows, -1 when it has none.
func entryAt(v dynamo.IndexView, id string) int {
	return slices.IndexFunc(v.Rows, func(r dynamo.IndexRow) bool { return r.ID == id })
}

// changedEntry is the row of an item's entry in index ix's grid, as spot pages it, when the edit
// that took the index's view from then to now (with as many entries), and the entry from row from
// to row to, changed that entry alone: it is where it was, on the page shown, with the same
// attribute names, so the grid's columns and every other row stay as they were. ok is false
// otherwise.
func changedEntry(t designer.Table, ix designer.Index, lsi bool, then, now dynamo.IndexView, from, to int, spot tablesSpot) (templates.IndexGridRow, bool) {
	at := to
	if at < 0 || from != at || !sameNames(then.Rows[at].Item, now.Rows[at].Item) {
		return templates.IndexGridRow{}, false
	}
	page, _, shown := indexPage(now, ix, spot)
	if first := (page - 1) * indexRowsPerPage; at < first || at >= first+len(shown) {
		return templates.IndexGridRow{}, false
	}
	return indexRow(t, ix, now.Rows[at], indexColumns(t, ix, lsi, shown)), true
}

// sameNames reports whether two items hold the same attribute names.
func sameNames(a, b designer.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for name := range a {
		if _, ok := b[name]; !ok {
			return false
		}
	}
	return true
}

// pageChanges reports whether the edit of item id, which took an index's view from then to now
// (with as many entries and left-out items in both) and its entry from row from to row to (-1
// for none), changed what the grid shows at page: the item's entry (or its left-out line) is on
// that page and differs, the item moved onto or off the page, or it moved past the page,
// shifting every entry on it by one.
func pageChanges(then, now dynamo.IndexView, from, to, page int, id string) bool {
	out := func(v dynamo.IndexView) int {
		return slices.IndexFunc(v.Excluded, func(x dynamo.Excluded) bool { return x.ID == id })
	}
	switch {
	case from >= 0 && from == to && sameEntry(then.Rows[from], now.Rows[to]):
		return false // its entry is as it was, where it was
	case from < 0 && to < 0:
		if i, j := out(then), out(now); i == j && (i < 0 || reflect.DeepEqual(then.Excluded[i], now.Excluded[j])) {
			return false // left out as it was
		}
	}
	if showsItem(then, page, id) || showsItem(now, page, id) {
		return true
	}
	if from < 0 || to < 0 {
		return false
	}
	pages := max(1, (now.Total+indexRowsPerPage-1)/indexRowsPerPage)
	first := (clampPage(page, pages) - 1) * indexRowsPerPage
	return min(from, to) < first && max(from, to) >= first+indexRowsPerPage
}

// sameEntry reports whether two index entries read the same: the same item, size and partition,
// and every attribute written the same.
func sameEntry(a, b dynamo.IndexRow) bool {
	if a.ID != b.ID || a.Size != b.Size || a.Partition != b.Partition || len(a.Item) != len(b.Item) {
		return false
	}
	for name, v := range a.Item {
		if w, ok := b.Item[name]; !ok || !v.Identical(w) {
			return false
		}
	}
	return true
}

// showsItem reports whether an index grid at page (clamped as indexGrid clamps it) shows item id
// among its entries or among the items it lists as left out.
func showsItem(view dynamo.IndexView, page int, id string) bool {
	pages := max(1, (view.Total+indexRowsPerPage-1)/indexRowsPerPage)
	page = clampPage(page, pages)
	shown := view.Rows[min(len(view.Rows), (page-1)*indexRowsPerPage):min(len(view.Rows), page*indexRowsPerPage)]
	if slices.ContainsFunc(shown, func(r dynamo.IndexRow) bool { return r.ID == id }) {
		return true
	}
	return slices.ContainsFunc(view.Excluded[:min(len(view.Excluded), indexRowsPerPage)], func(x dynamo.Excluded) bool { return x.ID == id })
}

// itemCell is the grid cell of attribute attr of item id, with its row's size out of band.
func itemCell(d *designContext, t designer.Table, id, attr string) (templates.Cell, templ.Component, bool) {
	i := slices.IndexFunc(t.Items, func(it designer.SampleItem) bool { return it.ID == id })
	if i < 0 || !hasColumn(t, attr) {
		return templates.Cell{}, nil, false
	}
	it := t.Items[i]
	text := ""
	if v, ok := it.Item[attr]; ok {
		text = designer.FormatCell(v)
	}
	cell := templates.Cell{ID: itemCellID(t.Name, it.ID, attr), Label: attr + " of item " + it.ID, Value: text,
		Action: "/d/" + d.Token + "/items/cell", Vals: vals("table", t.Name, "id", it.ID, "attribute", attr),
		Kind: "text", CanEdit: d.canEdit()}
	size := templates.SizeOOB(elemID("size", t.Name, it.ID), strconv.Itoa(designer.ItemSize(it.Item))+" B")
	return cell, size, true
}
