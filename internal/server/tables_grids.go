package server

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"

	"github.com/labstack/echo/v4"
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

// gridState is what a grid answer carries beyond the design: a refused key cell (by its item and
// attribute) or a message above the grid, and the new item that takes the focus. The grid shows
// the page holding the focused item, else the edited one.
type gridState struct {
	// item and attr name the refused cell, value what was typed in it.
	item, attr, value string
	refused           *refused
	message           string
	focus             string // item id whose first cell takes the focus
}

// The tables step shows one page of a table's items and of each index's entries, so that a
// table of thousands of items stays a light page. Where a person is — the table, the item page,
// the index paged past its first page — lives in the step's URL, so a link, a reload, the back
// button and a live refresh all show the same page.

const (
	// itemsPerPage bounds the rows of one page of the item grid. A partition is never cut across
	// pages unless it alone holds more items than a page.
	itemsPerPage = 50
	// indexRowsPerPage is how many entries a page of an index grid shows; the API lists them all.
	indexRowsPerPage = 50
)

// tablesSpot is where a person is on the tables step.
type tablesSpot struct {
	// path is the step's path: the tables step, or the same step of a past revision.
	path  string
	table string
	// page is the item grid's page, from 1; 0 when the URL names none.
	page int
	// index is the one index grid shown past its first page, at indexPage.
	index     string
	indexPage int
	// item asks for the page holding this item, and marks its row (links from findings).
	item string
	// goPK and goSK ask for the page holding the item with these key values ("go to item");
	// goAsked is set when the form was sent, even empty.
	goPK, goSK string
	goAsked    bool
}

// spotFrom reads a spot from the step's path and query. A page that is not a number is the first:
// paging is navigation, and a link that went stale should still open the step.
func spotFrom(path string, q url.Values) tablesSpot {
	s := tablesSpot{path: path, table: q.Get("table"), index: q.Get("index"), item: q.Get("item"), goPK: q.Get("go_pk"), goSK: q.Get("go_sk")}
	s.page, _ = strconv.Atoi(q.Get("page"))
	s.indexPage, _ = strconv.Atoi(q.Get("ipage"))
	s.goAsked = q.Has("go_pk")
	return s
}

// spotOf is the spot of the page an edit was made on: htmx names the page's URL in HX-Current-URL.
// A plain form post, or one from another step, starts at the table's first page.
func spotOf(c echo.Context, table string) tablesSpot {
	spot := tablesSpot{path: stepHref(designFrom(c), "tables"), table: table}
	if u, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil && u.Path == spot.path {
		if from := spotFrom(u.Path, u.Query()); from.table == table || from.table == "" {
			spot.page, spot.index, spot.indexPage = from.page, from.index, from.indexPage
		}
	}
	return spot
}

// href is the step's URL for the spot, with the item grid at page and the paged index at its page.
func (s tablesSpot) href(d *designContext, page int) string {
	q := url.Values{}
	q.Set("table", s.table)
	if page > 1 {
		q.Set("page", itoa(page))
	}
	if s.index != "" && s.indexPage > 1 {
		q.Set("index", s.index)
		q.Set("ipage", itoa(s.indexPage))
	}
	if d.Presenting {
		q.Set("present", "1")
	}
	return s.path + "?" + q.Encode()
}

// indexHref is the step's URL with index shown at page, the item grid where it is.
func (s tablesSpot) indexHref(d *designContext, index string, page int) string {
	s.index, s.indexPage = index, page
	return s.href(d, s.page)
}

// gridPages cuts a table's rows, in key order, into pages of at most itemsPerPage rows and
// returns the position of each page's first row. A partition starts a new page when it does not
// fit on the current one; one longer than a page fills pages of its own.
func gridPages(rows []designer.Row) []int {
	starts := []int{0}
	filled := 0
	for i := 0; i < len(rows); {
		end := i + 1
		if rows[i].Partition != "" {
			for end < len(rows) && rows[end].Partition == rows[i].Partition {
				end++
			}
		}
		n := end - i
		switch {
		case filled+n <= itemsPerPage:
			filled += n
		case n <= itemsPerPage:
			starts = append(starts, i)
			filled = n
		default:
			at := i
			if filled > 0 {
				starts = append(starts, i)
			}
			for at+itemsPerPage < end {
				at += itemsPerPage
				starts = append(starts, at)
			}
			filled = end - at
		}
		i = end
	}
	return starts
}

// pageHolding is the page (from 1) whose rows include position i.
func pageHolding(starts []int, i int) int {
	return sort.Search(len(starts), func(p int) bool { return starts[p] > i })
}

// clampPage keeps a page asked for within 1..pages.
func clampPage(page, pages int) int { return max(1, min(page, pages)) }

// pager builds the links of a paged list showing rows first..last (1-based) of total.
func pager(target, noun string, page, pages, first, last, total int, href func(page int) string) templates.Pager {
	p := templates.Pager{Target: target, Noun: noun, Page: page, Pages: pages, First: first, Last: last, Total: total}
	if page > 1 {
		p.FirstHref, p.Prev = href(1), href(page-1)
	}
	if page < pages {
		p.Next, p.LastHref = href(page+1), href(pages)
	}
	return p
}

// goTo finds the row the "go to item" form asks for: the item with the partition key value and,
// when one is given, the sort key value, or the partition's first item when the sort key is left
// empty. Not found, the error names the field to correct.
func goTo(t designer.Table, rows []designer.Row, pk, sk string) (int, string, error) {
	pk, sk = strings.TrimSpace(pk), strings.TrimSpace(sk)
	if pk == "" {
		return 0, "go_pk", fmt.Errorf("%s: give the partition key value of the item to go to", t.PartitionKey.Name)
	}
	inPartition := false
	for i, r := range rows {
		v, ok := r.Item[t.PartitionKey.Name]
		if !ok || designer.FormatCell(v) != pk {
			continue
		}
		inPartition = true
		if t.SortKey == nil || sk == "" {
			return i, "", nil
		}
		if v, ok := r.Item[t.SortKey.Name]; ok && designer.FormatCell(v) == sk {
			return i, "", nil
		}
	}
	if !inPartition {
		return 0, "go_pk", fmt.Errorf("%s: no item of %s has the partition key %q", t.PartitionKey.Name, t.Name, pk)
	}
	return 0, "go_sk", fmt.Errorf("%s: partition %q of %s has no item with the sort key %q", t.SortKey.Name, pk, t.Name, sk)
}
