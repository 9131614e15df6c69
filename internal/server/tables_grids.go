package server

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"
)

// The item grid and the index grids of the tables step, as the page shows them.

// gridColumns lists the item grid's columns: the keys, the declared attributes, then whatever
// else the items hold (held, sorted).
func gridColumns(t designer.Table, held []string) []templates.GridColumn {
	cols := []templates.GridColumn{{Name: t.PartitionKey.Name, Type: string(t.PartitionKey.Type), Role: "pk"}}
	seen := map[string]bool{t.PartitionKey.Name: true}
	if t.SortKey != nil {
		cols = append(cols, templates.GridColumn{Name: t.SortKey.Name, Type: string(t.SortKey.Type), Role: "sk"})
		seen[t.SortKey.Name] = true
	}
	for _, a := range t.Attributes {
		if !seen[a.Name] {
			seen[a.Name] = true
			cols = append(cols, templates.GridColumn{Name: a.Name, Type: string(a.Type)})
		}
	}
	// The names the items hold come sorted, counted once per revision (dynamo.Cache.AttributeNames).
	for _, name := range held {
		if !seen[name] {
			cols = append(cols, templates.GridColumn{Name: name, Type: "any"})
		}
	}
	return cols
}

// spotFocus is the item a spot asks to see: the item it names, or the one "go to item" found.
func spotFocus(t designer.Table, rows []designer.Row, spot tablesSpot) string {
	switch {
	case spot.item != "":
		return spot.item
	case spot.goAsked:
		if i, _, err := goTo(t, rows, spot.goPK, spot.goSK); err == nil {
			return rows[i].ID
		}
	}
	return ""
}

// pageShown is the page of the item grid (rows cut at starts) holding the first of ids found, or
// else page, kept within the grid's pages.
func pageShown(rows []designer.Row, starts []int, page int, ids ...string) int {
	for _, id := range ids {
		if id == "" {
			continue
		}
		if i := slices.IndexFunc(rows, func(r designer.Row) bool { return r.ID == id }); i >= 0 {
			return clampPage(pageHolding(starts, i), len(starts))
		}
	}
	return clampPage(page, len(starts))
}

// onPage reports whether item id's row is on the page of the item grid spot shows.
func onPage(d *designContext, t designer.Table, spot tablesSpot, id string) bool {
	rows := d.derived().TableOrder(t)
	starts := gridPages(rows)
	i := slices.IndexFunc(rows, func(r designer.Row) bool { return r.ID == id })
	return i >= 0 && pageHolding(starts, i) == pageShown(rows, starts, spot.page, spotFocus(t, rows, spot))
}

// hasColumn reports whether the item grid of t has a column for attribute attr (gridColumns): a
// key, a declared attribute, or one an item holds.
func hasColumn(t designer.Table, attr string) bool {
	if attr == t.PartitionKey.Name || t.SortKey != nil && attr == t.SortKey.Name ||
		slices.ContainsFunc(t.Attributes, func(a designer.Attribute) bool { return a.Name == attr }) {
		return true
	}
	return slices.ContainsFunc(t.Items, func(it designer.SampleItem) bool { _, ok := it.Item[attr]; return ok })
}

func itemCellID(table, itemID, attr string) string { return elemID("it", table, itemID, attr) }

func itemGrid(d *designContext, t designer.Table, spot tablesSpot, state gridState) templates.ItemGrid {
	base := "/d/" + d.Token
	cols := gridColumns(t, d.derived().Cache().AttributeNames(t))
	g := templates.ItemGrid{
		ID: elemID("items", t.Name), Table: t.Name, Columns: cols, Count: len(t.Items), Message: state.message, Types: attributeTypeOptions,
		AddRow: templates.Button{Label: "Add an item to " + t.Name, Text: "+ Add item", Action: base + "/items/add",
			Params: []templates.Param{{Name: "table", Value: t.Name}}, Target: "#" + elemID("items", t.Name), Class: "primary", TestID: "add-item"},
		Paste: base + "/items/paste?table=" + url.QueryEscape(t.Name), Generate: base + "/items/generate?table=" + url.QueryEscape(t.Name),
		AddColumn: base + "/items/column?table=" + url.QueryEscape(t.Name),
		GoTo:      templates.GoToItem{Action: spot.path, Hidden: []templates.Param{{Name: "table", Value: t.Name}}, PK: t.PartitionKey.Name},
	}
	if d.Presenting {
		g.GoTo.Hidden = append(g.GoTo.Hidden, templates.Param{Name: "present", Value: "1"})
	}
	if t.SortKey != nil {
		g.GoTo.SK = t.SortKey.Name
	}
	rows := d.derived().TableOrder(t)
	starts := gridPages(rows)
	focus := state.focus
	switch {
	case focus != "":
	case spot.goAsked && spot.item == "":
		g.GoTo.PKValue, g.GoTo.SKValue = spot.goPK, spot.goSK
		if _, field, err := goTo(t, rows, spot.goPK, spot.goSK); err != nil {
			g.GoTo.Error, g.GoTo.Field = err.Error(), field
		}
		fallthrough
	default:
		focus = spotFocus(t, rows, spot)
	}
	page := pageShown(rows, starts, spot.page, focus, state.item)
	first, last := starts[page-1], len(rows)
	if page < len(starts) {
		last = starts[page]
	}
	g.Pager = pager("#"+g.ID, "items", page, len(starts), first+1, last, len(rows), func(n int) string { return spot.href(d, n) })
	if page > 1 {
		// An item not found leaves the grid on the page it was on.
		g.GoTo.Hidden = append(g.GoTo.Hidden, templates.Param{Name: "page", Value: itoa(page)})
	}
	if len(rows) == 0 {
		g.Pager.First = 0
	}
	entityIndex := map[string]int{}
	for i, et := range t.EntityTypes {
		if _, ok := entityIndex[et.Entity]; !ok {
			entityIndex[et.Entity] = i
		}
	}
	gridTarget := "#" + g.ID
	for _, r := range rows[first:last] {
		if len(g.Groups) == 0 || g.Groups[len(g.Groups)-1].Partition != r.Partition || r.Partition == "" {
			g.Groups = append(g.Groups, templates.ItemGroup{Partition: r.Partition})
		}
		row := templates.ItemRowView{RowID: elemID("row", t.Name, r.ID), ItemID: r.ID, Size: strconv.Itoa(designer.ItemSize(r.Item)) + " B",
			SizeID: elemID("size", t.Name, r.ID), EntityType: r.EntityType, Comments: commentBadge(d, designer.ItemTarget(t.Name, r.ID)),
			Target: focus == r.ID}
		if i, ok := entityIndex[r.EntityType]; ok {
			row.EntityClass = "et-" + strconv.Itoa(i%8)
		}
		for ci, col := range cols {
			text := ""
			if v, ok := r.Item[col.Name]; ok {
				text = designer.FormatCell(v)
			}
			cell := templates.Cell{ID: itemCellID(t.Name, r.ID, col.Name), Label: col.Name + " of item " + r.ID, Value: text,
				Action: base + "/items/cell", Vals: vals("table", t.Name, "id", r.ID, "attribute", col.Name),
				Kind: "text", CanEdit: d.canEdit(), Autofocus: ci == 0 && focus == r.ID}
			if col.Role != "" {
				// A key edit moves the row between partitions, and maybe pages: the answer is the whole grid.
				cell.Target = gridTarget
			}
			if r.ID == state.item && col.Name == state.attr {
				cell = withRefusal(cell, state.refused, state.value)
			}
			row.Cells = append(row.Cells, cell)
		}
		item := []templates.Param{{Name: "table", Value: t.Name}, {Name: "id", Value: r.ID}}
		row.Buttons = []templates.Button{
			{Label: "Duplicate item " + r.ID, Text: "⧉", Action: base + "/items/duplicate", Params: item, Target: gridTarget},
		}
		if len(t.EntityTypes) > 0 {
			row.Buttons = append(row.Buttons, templates.Button{Label: "Fill the keys of item " + r.ID + " from its entity type's templates",
				Text: "#{}", Action: base + "/items/fill-keys", Params: item, Target: gridTarget})
		}
		row.Buttons = append(row.Buttons, templates.Button{Label: "Delete item " + r.ID, Text: "✕", Action: base + "/items/delete",
			Params: item, Target: gridTarget, Class: "danger"})
		g.Groups[len(g.Groups)-1].Rows = append(g.Groups[len(g.Groups)-1].Rows, row)
	}
	if len(g.Groups) > 0 {
		samePartition := func(i, j int) bool { return rows[i].Partition != "" && rows[i].Partition == rows[j].Partition }
		g.Groups[0].Continued = first > 0 && samePartition(first-1, first)
		g.Groups[len(g.Groups)-1].Continues = last < len(rows) && samePartition(last-1, last)
	}
	return g
}

func indexGrids(d *designContext, t designer.Table, spot tablesSpot) []templates.IndexGrid {
	var out []templates.IndexGrid
	for _, group := range []struct {
		kind string
		lsi  bool
		ixs  []designer.Index
	}{{"GSI", false, t.GSIs}, {"LSI", true, t.LSIs}} {
		for _, ix := range group.ixs {
			out = append(out, indexGrid(d, t, ix, group.kind, group.lsi, spot))
		}
	}
	return out
}

// indexGrid is one page of an index's view: the first page unless spot pages this index.
func indexGrid(d *designContext, t designer.Table, ix designer.Index, kind string, lsi bool, spot tablesSpot) templates.IndexGrid {
	view := d.derived().IndexView(t, ix, lsi)
	page, pages, shown := indexPage(view, ix, spot)
	g := templates.IndexGrid{ID: elemID("ixgrid", t.Name, ix.Name), Name: ix.Name, Kind: kind, Projection: projectionText(ix.Projection),
		Columns: indexColumns(t, ix, lsi, shown), Total: view.Total}
	for _, r := range shown {
		g.Rows = append(g.Rows, indexRow(t, ix, r, g.Columns))
	}
	first := (page-1)*indexRowsPerPage + 1
	g.Pager = pager("#"+g.ID, "entries", page, pages, first, first+len(shown)-1, view.Total,
		func(n int) string { return spot.indexHref(d, ix.Name, n) })
	g.ExcludedTotal = len(view.Excluded)
	shownOut := view.Excluded[:min(len(view.Excluded), indexRowsPerPage)]
	if len(shownOut) == 0 {
		return g
	}
	keys := make(map[string]string, len(shownOut))
	for _, x := range shownOut {
		keys[x.ID] = ""
	}
	for i, it := range t.Items {
		if _, ok := keys[it.ID]; ok {
			keys[it.ID] = itemKeyText(t, it, i)
		}
	}
	for _, x := range shownOut {
		g.Excluded = append(g.Excluded, templates.ExcludedView{ItemID: x.ID, Key: keys[x.ID], Reason: x.Reason})
	}
	return g
}

// indexPage is the page of an index's view that spot shows (the first unless spot pages index
// ix; past the last page, the last one), how many pages the view has, and the entries on it.
func indexPage(view dynamo.IndexView, ix designer.Index, spot tablesSpot) (page, pages int, shown []dynamo.IndexRow) {
	page = 1
	if spot.index == ix.Name {
		page = max(1, spot.indexPage)
	}
	pages = max(1, (view.Total+indexRowsPerPage-1)/indexRowsPerPage)
	page = clampPage(page, pages)
	return page, pages, view.Rows[min(len(view.Rows), (page-1)*indexRowsPerPage):min(len(view.Rows), page*indexRowsPerPage)]
}

// indexColumns are the columns of an index grid showing the entries shown: the index's key
// attributes, the table's, then every other attribute the entries hold, by name.
func indexColumns(t designer.Table, ix designer.Index, lsi bool, shown []dynamo.IndexRow) []templates.GridColumn {
	var cols []templates.GridColumn
	seen := map[string]bool{}
	add := func(name, role string) {
		if name != "" && !seen[name] {
			seen[name] = true
			cols = append(cols, templates.GridColumn{Name: name, Role: role})
		}
	}
	pk := ix.PartitionKey
	if lsi {
		pk = []designer.KeyAttribute{t.PartitionKey}
	}
	for _, k := range pk {
		add(k.Name, "pk")
	}
	for _, k := range ix.SortKey {
		add(k.Name, "sk")
	}
	add(t.PartitionKey.Name, "")
	if t.SortKey != nil {
		add(t.SortKey.Name, "")
	}
	var rest []string
	for _, r := range shown {
		for name := range r.Item {
			if name != "" && !seen[name] {
				seen[name] = true
				rest = append(rest, name)
			}
		}
	}
	slices.Sort(rest)
	for _, name := range rest {
		cols = append(cols, templates.GridColumn{Name: name})
	}
	return cols
}

// indexRow is the row of entry r of index ix of table t in a grid of those columns.
func indexRow(t designer.Table, ix designer.Index, r dynamo.IndexRow, columns []templates.GridColumn) templates.IndexGridRow {
	row := templates.IndexGridRow{ID: elemID("ixrow", t.Name, ix.Name, r.ID), ItemID: r.ID, Size: strconv.Itoa(r.Size) + " B",
		Cells: make([]string, 0, len(columns))}
	for _, col := range columns {
		text := ""
		if v, ok := r.Item[col.Name]; ok {
			text = designer.FormatCell(v)
		}
		row.Cells = append(row.Cells, text)
	}
	return row
}

// itemKeyText names a sample item as the grid shows it, by its table key values joined by " · ";
// an item with none of them by its place among the table's items ("item 3"). Its id (i3) is the
// design's, not the room's.
func itemKeyText(t designer.Table, it designer.SampleItem, i int) string {
	var values []string
	for _, k := range designer.TableKeyNames(t) {
		if v, ok := it.Item[k]; ok {
			values = append(values, designer.FormatCell(v))
		}
	}
	if len(values) == 0 {
		return "item " + itoa(i+1)
	}
	return strings.Join(values, " · ")
}

func projectionText(p designer.Projection) string {
	if p.Type == designer.Include && len(p.Attributes) > 0 {
		return "INCLUDE (" + strings.Join(p.Attributes, ", ") + ")"
	}
	return p.Type
}
