package server

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

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

// tableFieldCell is the cell of one field of a table.
func tableFieldCell(d *designContext, t designer.Table, f tableField) templates.LabeledCell {
	c := templates.Cell{ID: elemID("tf", t.Name, f.field), Label: f.label, Value: f.value(t), Action: "/d/" + d.Token + "/tables/field",
		Vals: vals("table", t.Name, "field", f.field), Kind: f.kind, Options: f.options, CanEdit: d.canEdit()}
	if f.options != nil {
		c.Shown = optionLabel(f.options, c.Value)
	}
	return templates.LabeledCell{Label: f.label, Cell: c}
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
		ID:      id,
		Section: string(designer.TablePath(t.Name)),
		Name:    t.Name,
		Header:  fieldCells(tableHeaderFields),
		Schema:  fieldCells(tableSchemaFields),
		Notes:   fieldCells(tableNotes()),
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

// reloadOr is the answer to a structural edit of one field (a rename): the step reloads when it
// is saved, and a refusal is shown on the field's cell.
func reloadOr(table string, cell part) part {
	return func(d *designContext, r *refused) (templ.Component, error) {
		if r != nil {
			return cell(d, r)
		}
		return reload(tablesHref(d, table)), nil
	}
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
