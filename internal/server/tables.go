package server

import (
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"
)

var (
	keyTypeOptions     = []templates.Option{{Value: "S", Label: "S"}, {Value: "N", Label: "N"}, {Value: "B", Label: "B"}}
	sortKeyTypeOptions = []templates.Option{{Value: "", Label: "—"}, {Value: "S", Label: "S"}, {Value: "N", Label: "N"}, {Value: "B", Label: "B"}}
	billingOptions     = []templates.Option{{Value: designer.OnDemand, Label: "On-demand"}, {Value: designer.Provisioned, Label: "Provisioned"}}
	// tableClassOptions: "" is Standard, the default, so choosing it keeps the table at the default.
	tableClassOptions = []templates.Option{{Value: "", Label: designer.TableClassName("")},
		{Value: designer.StandardIAClass, Label: designer.TableClassName(designer.StandardIAClass)}}
	projectionOptions = []templates.Option{{Value: designer.KeysOnly, Label: "KEYS_ONLY"}, {Value: designer.Include, Label: "INCLUDE"}, {Value: designer.All, Label: "ALL"}}
	yesNoOptions      = []templates.Option{{Value: "no", Label: "No"}, {Value: "yes", Label: "Yes"}}
	// tableNoteFields are the free-text fields of a table, in the order its notes show them.
	tableNoteFields = []designer.Field[designer.Table]{
		designer.TableField.Purpose,
		designer.TableField.AggregateBoundary,
		designer.TableField.PartitionKeyJustification,
		designer.TableField.SortKeyJustification,
		designer.TableField.BoundedReadStrategy,
		designer.TableField.CapacityNotes,
	}
)

func tablesHref(d *designContext, table string) string {
	href := stepHref(d, "tables")
	if table != "" {
		href += "?table=" + url.QueryEscape(table)
	}
	return href
}

func (s *Server) tablesModel(c echo.Context, spot tablesSpot, grid gridState) (templates.Tables, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "tables")
	if err != nil {
		return templates.Tables{}, err
	}
	m := templates.Tables{Workspace: w, AddTable: "/d/" + d.Token + "/tables/add", Map: foldDiagram(diagramModel(d, designer.ModelMap, false), c.Request().URL)}
	design := d.Record.Design
	table := spot.table
	if table == "" && len(design.Tables) > 0 {
		table = design.Tables[0].Name
	}
	spot.table = table
	for _, t := range design.Tables {
		m.Tabs = append(m.Tabs, templates.Step{ID: elemID("t", t.Name), Label: t.Name, Href: tablesHref(d, t.Name), Current: t.Name == table})
	}
	if t, _, ok := design.TableByName(table); ok {
		tv := tableView(d, t, spot, grid)
		m.Table = &tv
	}
	return m, nil
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

// tableField is one field of a table's header, key schema or notes, each shown as one cell.
type tableField struct {
	field, label, kind string
	options            []templates.Option
	value              func(designer.Table) string
}

func sortKeyPart(t designer.Table, typ bool) string {
	switch {
	case t.SortKey == nil:
		return ""
	case typ:
		return string(t.SortKey.Type)
	}
	return t.SortKey.Name
}

var (
	tableHeaderFields = []tableField{
		{"name", "Table name", "text", nil, func(t designer.Table) string { return t.Name }},
		shownTableField(designer.TableField.BillingMode, "select", billingOptions),
		tableClassField(),
		shownTableField(designer.TableField.TTLAttribute, "text", nil),
	}
	tableSchemaFields = []tableField{
		{"pk_name", "Partition key", "text", nil, func(t designer.Table) string { return t.PartitionKey.Name }},
		{"pk_type", "Partition key type", "select", keyTypeOptions, func(t designer.Table) string { return string(t.PartitionKey.Type) }},
		{"sk_name", "Sort key", "text", nil, func(t designer.Table) string { return sortKeyPart(t, false) }},
		{"sk_type", "Sort key type", "select", sortKeyTypeOptions, func(t designer.Table) string { return sortKeyPart(t, true) }},
	}
)

// shownTableField is a field of designer.TableFields as a table's form shows it.
func shownTableField(f designer.Field[designer.Table], kind string, options []templates.Option) tableField {
	return tableField{f.Key, f.Heading(), kind, options, f.Get}
}

// tableClassField is the table's class, Standard shown for both the default and STANDARD spelt out.
func tableClassField() tableField {
	f := shownTableField(designer.TableField.TableClass, "select", tableClassOptions)
	f.value = func(t designer.Table) string {
		if t.TableClass == designer.StandardClass {
			return ""
		}
		return t.TableClass
	}
	return f
}

// tableFieldCell is the cell of one field of a table.
func tableFieldCell(d *designContext, t designer.Table, f tableField) templates.LabeledCell {
	c := templates.Cell{ID: elemID("tf", t.Name, f.field), Label: f.label, Value: f.value(t), Action: "/d/" + d.Token + "/tables/field",
		Vals: vals("table", t.Name, "field", f.field), Kind: f.kind, Options: f.options, CanEdit: d.canEdit()}
	if f.options != nil {
		c.Shown = optionLabel(f.options, c.Value)
	}
	return templates.LabeledCell{Label: f.label, Cell: c}
}

// tableFieldNamed finds a field of the header, the key schema or the notes by name.
func tableFieldNamed(field string) (tableField, bool) {
	for _, fields := range [][]tableField{tableHeaderFields, tableSchemaFields, tableNotes()} {
		if i := slices.IndexFunc(fields, func(f tableField) bool { return f.field == field }); i >= 0 {
			return fields[i], true
		}
	}
	return tableField{}, false
}

// tableNotes are the free-text fields of a table.
func tableNotes() []tableField {
	out := make([]tableField, len(tableNoteFields))
	for i, f := range tableNoteFields {
		out[i] = shownTableField(f, "textarea", nil)
	}
	return out
}

// entityTypeCell is the cell of one field of entity type i of a table.
func entityTypeCell(d *designContext, t designer.Table, i int, f designer.Field[designer.EntityType]) templates.Cell {
	return templates.Cell{ID: elemID("etf", t.Name, itoa(i), f.Key), Label: f.Heading(), Value: f.Get(t.EntityTypes[i]),
		Action: "/d/" + d.Token + "/tables/entity-types/field", Vals: vals("table", t.Name, "index", itoa(i), "field", f.Key),
		Kind: "text", CanEdit: d.canEdit()}
}

// tableAttributeFields are the fields of a declared attribute of a table, in the order its row
// shows them.
var tableAttributeFields = []string{"name", "type", "generator"}

// tableAttributeCells are the cells of one declared attribute of a table.
func tableAttributeCells(d *designContext, t designer.Table, a designer.Attribute) []templates.Cell {
	cells := make([]templates.Cell, len(tableAttributeFields))
	for i, f := range tableAttributeFields {
		cells[i], _ = tableAttributeCell(d, t, a, f)
	}
	return cells
}

// tableAttributeCell is the cell of one field of a declared attribute, by the field's name; ok is
// false for a name no field has.
func tableAttributeCell(d *designContext, t designer.Table, a designer.Attribute, field string) (templates.Cell, bool) {
	c := templates.Cell{ID: elemID("taf", t.Name, a.Name, field), Action: "/d/" + d.Token + "/tables/attributes/field",
		Vals: vals("table", t.Name, "attribute", a.Name, "field", field), Kind: "text", CanEdit: d.canEdit()}
	switch field {
	case "name":
		c.Label, c.Value = "Attribute name", a.Name
	case "type":
		c.Label, c.Value, c.Kind, c.Options, c.Class = a.Name+" type", string(a.Type), "select", attributeTypeOptions, "w-type"
	case "generator":
		c.Label, c.Value = a.Name+" sample-data generator", designer.FormatGenerator(a.Generator)
	default:
		return templates.Cell{}, false
	}
	return c, true
}

func tableView(d *designContext, t designer.Table, spot tablesSpot, grid gridState) templates.TableView {
	base := "/d/" + d.Token
	id := elemID("table", t.Name)
	fieldCells := func(fields []tableField) []templates.LabeledCell {
		out := make([]templates.LabeledCell, len(fields))
		for i, f := range fields {
			out[i] = tableFieldCell(d, t, f)
		}
		return out
	}
	tv := templates.TableView{
		ID:     id,
		Name:   t.Name,
		Header: fieldCells(tableHeaderFields),
		Schema: fieldCells(tableSchemaFields),
		Notes:  fieldCells(tableNotes()),
		Delete: templates.Button{Label: "Delete table " + t.Name, Text: "Delete table", Action: base + "/tables/delete",
			Params: []templates.Param{{Name: "table", Value: t.Name}}, Class: "danger", Swap: "none",
			Confirm: "Delete table " + t.Name + " with its indexes and items? History keeps it."},
		AddEntity: base + "/tables/entity-types/add?table=" + url.QueryEscape(t.Name),
		AddAttr:   templates.AddAttribute{Action: base + "/tables/attributes/add", Entity: t.Name, Types: attributeTypeOptions},
		AddIndex:  base + "/tables/indexes/add?table=" + url.QueryEscape(t.Name),
		Comments:  commentBadge(d, designer.TableTarget(t.Name)),
	}
	tv.EntityAttrs, tv.EntityNames = entityAttributeOptions(d.Record.Design, t), entityTypeNames(d.Record.Design, t)
	tv.DeclareFrom = declareEntityAttributes(d, t)
	for i, et := range t.EntityTypes {
		row := templates.CellRow{RowID: elemID("et", t.Name, itoa(i)),
			Buttons: []templates.Button{{Label: "Delete entity type " + et.Entity, Text: "✕", Action: base + "/tables/entity-types/delete",
				Params: []templates.Param{{Name: "table", Value: t.Name}, {Name: "index", Value: itoa(i)}}, Class: "danger", Swap: "none"}}}
		for _, f := range designer.EntityTypeFields {
			row.Cells = append(row.Cells, entityTypeCell(d, t, i, f))
		}
		tv.EntityTypes = append(tv.EntityTypes, row)
	}
	for _, a := range t.Attributes {
		tv.Attributes = append(tv.Attributes, templates.CellRow{
			RowID: elemID("ta", t.Name, a.Name),
			Cells: tableAttributeCells(d, t, a),
			Buttons: []templates.Button{{Label: "Delete attribute " + a.Name, Text: "✕", Action: base + "/tables/attributes/delete",
				Params: []templates.Param{{Name: "table", Value: t.Name}, {Name: "attribute", Value: a.Name}}, Class: "danger", Swap: "none"}},
		})
	}
	for _, group := range []struct {
		kind string
		ixs  []designer.Index
	}{{"GSI", t.GSIs}, {"LSI", t.LSIs}} {
		for _, ix := range group.ixs {
			tv.Indexes = append(tv.Indexes, indexCard(d, t, ix, group.kind))
		}
	}
	tv.Grid = itemGrid(d, t, spot, grid)
	tv.IndexGrids = indexGrids(d, t, spot)
	return tv
}

// indexFields are the fields of an index, in the order its card shows them.
var indexFields = []string{"name", "partition_key", "sort_key", "projection", "include", designer.IndexField.Sparse.Key,
	designer.IndexField.SparseNote.Key, "pattern_attributes", designer.IndexField.Purpose.Key,
	designer.IndexField.PartitionKeyJustification.Key, designer.IndexField.SortKeyJustification.Key,
	designer.IndexField.ProjectionJustification.Key, designer.IndexField.CapacityNotes.Key}

// indexCell is the cell of one field of an index, by the field's name; ok is false for a name no
// field has.
func indexCell(d *designContext, t designer.Table, ix designer.Index, field string) (templates.LabeledCell, bool) {
	var label, value, kind string
	var opts []templates.Option
	if f, ok := designer.FieldNamed(designer.IndexFields, field); ok {
		label, value = f.Heading(), f.Get(ix)
	}
	ixf := designer.IndexField
	switch field {
	case "name":
		label, value, kind = "Name", ix.Name, "text"
	case "partition_key":
		label, value, kind = "Partition key", designer.FormatKeyAttributes(ix.PartitionKey), "text"
	case "sort_key":
		label, value, kind = "Sort key", designer.FormatKeyAttributes(ix.SortKey), "text"
	case "projection":
		label, value, kind, opts = "Projection", ix.Projection.Type, "select", projectionOptions
	case "include":
		label, value, kind = "Projected attributes (INCLUDE)", strings.Join(ix.Projection.Attributes, ", "), "text"
	case ixf.Sparse.Key:
		kind, opts = "select", yesNoOptions
	case ixf.SparseNote.Key:
		kind = "text"
	case "pattern_attributes":
		label, value, kind = "Per-pattern attributes (4: a, b; 7: c)", designer.FormatPatternList(ix.PatternAttributes), "text"
	case ixf.Purpose.Key, ixf.PartitionKeyJustification.Key, ixf.SortKeyJustification.Key, ixf.ProjectionJustification.Key,
		ixf.CapacityNotes.Key:
		kind = "textarea"
	default:
		return templates.LabeledCell{}, false
	}
	c := templates.Cell{ID: elemID("ixf", t.Name, ix.Name, field), Label: ix.Name + " " + strings.ToLower(label), Value: value,
		Action: "/d/" + d.Token + "/tables/indexes/field", Vals: vals("table", t.Name, "index", ix.Name, "field", field),
		Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	return templates.LabeledCell{Label: label, Cell: c}, true
}

func indexCard(d *designContext, t designer.Table, ix designer.Index, kind string) templates.IndexCard {
	base := "/d/" + d.Token
	cells := make([]templates.LabeledCell, len(indexFields))
	for i, f := range indexFields {
		cells[i], _ = indexCell(d, t, ix, f)
	}
	card := templates.IndexCard{
		ID: elemID("index", t.Name, ix.Name), Name: ix.Name, Kind: kind,
		Cells: cells,
		Delete: templates.Button{Label: "Delete index " + ix.Name, Text: "Delete", Action: base + "/tables/indexes/delete",
			Params: []templates.Param{{Name: "table", Value: t.Name}, {Name: "index", Value: ix.Name}}, Class: "danger", Swap: "none",
			Confirm: "Delete index " + ix.Name + "? History keeps it."},
		Comments: commentBadge(d, designer.IndexTarget(t.Name, ix.Name)),
	}
	return card
}

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

func (s *Server) tablesPage(c echo.Context) error {
	spot := spotFrom(c.Request().URL.Path, c.QueryParams())
	m, err := s.tablesModel(c, spot, gridState{})
	if err != nil {
		return err
	}
	if target := c.Request().Header.Get("HX-Target"); isHTMX(c) && (strings.HasPrefix(target, "items-") || strings.HasPrefix(target, "ixgrid-")) {
		// A page link swaps one grid in: the rest of the page still shows the revision it showed,
		// which the live refresh goes by.
		c.Response().Header().Del("X-Dynaloom-Revision")
	}
	if m.Table != nil && isHTMX(c) && (spot.item != "" || spot.goAsked && m.Table.Grid.GoTo.Error == "") {
		// The address bar shows the page the item is on, not the question that found it.
		spot.table = m.Table.Name
		c.Response().Header().Set("HX-Push-Url", spot.href(designFrom(c), m.Table.Grid.Pager.Page))
	}
	return render(c, http.StatusOK, templates.TablesView(m))
}

// tablesBack is where a plain form post of the tables step goes back to.
func tablesBack(c echo.Context) string { return stepHref(designFrom(c), "tables") }

// reloadTables is the answer to a structural edit (a rename, a key, an index): the step reloads,
// since the grids' columns and every cell's parameters may have changed.
func reloadTables(table string) part {
	return savedPart(func(d *designContext) (templ.Component, error) {
		return reload(tablesHref(d, table)), nil
	})
}

func (s *Server) addTable(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(form.get("name"))
	return s.apply(c, tablesBack(c), designer.AddTable{Name: form.get("name"), PartitionKey: form.get("partition_key"), PartitionKeyType: form.get("type")},
		reloadTables(name))
}

func (s *Server) deleteTable(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.DeleteTable{Table: form.get("table")}, reloadTables(""))
}

// saveTableField saves one field of a table. Names and keys reshape the page and reload it; the
// rest answer with their cell.
func (s *Server) saveTableField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table, field, value := form.get("table"), form.get("field"), form.get("value")
	t, _, ok := designFrom(c).Record.Design.TableByName(table)
	if !ok {
		return badInput("table: no table named %q; it may have been renamed or deleted", table)
	}
	var change designer.Change
	structural := true
	switch field {
	case "name":
		change = designer.RenameTable{Table: table, To: value}
	case "pk_name":
		change = designer.SetTableKey{Table: table, Which: "partition", Name: value, Type: string(t.PartitionKey.Type)}
	case "pk_type":
		change = designer.SetTableKey{Table: table, Which: "partition", Name: t.PartitionKey.Name, Type: value}
	case "sk_name", "sk_type":
		name, typ := "", string(designer.S)
		if t.SortKey != nil {
			name, typ = t.SortKey.Name, string(t.SortKey.Type)
		}
		if field == "sk_name" {
			name = value
		} else {
			typ = value
		}
		if typ == "" {
			name = ""
		}
		change = designer.SetTableKey{Table: table, Which: "sort", Name: name, Type: typ}
	default:
		change, structural = designer.SetTableField{Table: table, Field: field, Value: value}, false
	}
	cell := tableCell(spotOf(c, table), table, value, func(d *designContext, t designer.Table) (templates.Cell, templ.Component, bool) {
		f, ok := tableFieldNamed(field)
		if !ok {
			return templates.Cell{}, nil, false
		}
		return tableFieldCell(d, t, f).Cell, nil, true
	})
	return s.apply(c, tablesBack(c), change, func(d *designContext, r *refused) (templ.Component, error) {
		if r == nil && structural {
			if field == "name" {
				table = strings.TrimSpace(value)
			}
			return reload(tablesHref(d, table)), nil
		}
		return cell(d, r)
	})
}

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
