package server

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// tableFromForm reads the "table" value (form or query) and finds the table.
func tableFromForm(c echo.Context, form formValues) (string, designer.Table, error) {
	name := form.get("table")
	if name == "" {
		name = c.QueryParam("table")
	}
	t, _, ok := designFrom(c).Record.Design.TableByName(name)
	if !ok {
		return name, t, badInput("table: no table named %q; it may have been renamed or deleted", name)
	}
	return name, t, nil
}

func (s *Server) addTableAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := form.get("table")
	return s.apply(c, tablesBack(c), designer.AddTableAttribute{Table: table, Name: form.get("name"), Type: designer.Type(form.get("type"))}, reloadTables(table))
}

func (s *Server) saveTableAttributeField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table, attr, field, value := form.get("table"), form.get("attribute"), form.get("field"), form.get("value")
	back := tablesBack(c)
	cell := tableCell(spotOf(c, table), table, value, func(d *designContext, t designer.Table) (templates.Cell, templ.Component, bool) {
		i := slices.IndexFunc(t.Attributes, func(a designer.Attribute) bool { return a.Name == attr })
		if i < 0 {
			return templates.Cell{}, nil, false
		}
		cell, ok := tableAttributeCell(d, t, t.Attributes[i], field)
		return cell, nil, ok
	})
	switch field {
	case "name":
		return s.apply(c, back, designer.RenameTableAttribute{Table: table, Attribute: attr, To: value}, reloadOr(table, cell))
	case "type":
		return s.apply(c, back, designer.SetTableAttributeType{Table: table, Attribute: attr, Type: designer.Type(value)}, cell)
	case "generator":
		g, err := designer.ParseGenerator(value)
		if err != nil {
			return s.answer(c, back, err, cell)
		}
		return s.apply(c, back, designer.SetAttributeGenerator{Table: table, Attribute: attr, Generator: g}, cell)
	}
	return badInput("field: table attributes have no field %q", field)
}

func (s *Server) deleteTableAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := form.get("table")
	return s.apply(c, tablesBack(c), designer.DeleteTableAttribute{Table: table, Attribute: form.get("attribute")}, reloadTables(table))
}

func (s *Server) addEntityType(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	return s.apply(c, tablesBack(c), designer.AddEntityType{Table: table, Entity: form.get("entity"), PKTemplate: form.get("pk_template"), SKTemplate: form.get("sk_template")},
		reloadTables(table))
}

func (s *Server) saveEntityTypeField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table, field, value := form.get("table"), form.get("field"), form.get("value")
	i, err := form.int("index")
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.SetEntityTypeField{Table: table, Index: i, Field: field, Value: value},
		tableCell(spotOf(c, table), table, value, func(d *designContext, t designer.Table) (templates.Cell, templ.Component, bool) {
			f, ok := designer.FieldNamed(designer.EntityTypeFields, field)
			if i < 0 || i >= len(t.EntityTypes) || !ok {
				return templates.Cell{}, nil, false
			}
			return entityTypeCell(d, t, i, f), nil, true
		}))
}

func (s *Server) deleteEntityType(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	table := form.get("table")
	return s.apply(c, tablesBack(c), designer.DeleteEntityType{Table: table, Index: i}, reloadTables(table))
}

func (s *Server) addIndex(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	name, t, err := tableFromForm(c, form)
	if err != nil {
		return err
	}
	pk, err := designer.ParseKeyAttributes(form.get("partition_key"), t)
	if err != nil {
		return err
	}
	sk, err := designer.ParseKeyAttributes(form.get("sort_key"), t)
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.AddIndex{Table: name, Name: form.get("name"), Local: form.get("kind") == "lsi", PartitionKey: pk, SortKey: sk,
		Projection: form.get("projection")},
		reloadTables(name))
}

func (s *Server) saveIndexField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table, t, err := tableFromForm(c, form)
	if err != nil {
		return err
	}
	index, field, value := form.get("index"), form.get("field"), form.get("value")
	ix, _, _, ok := t.IndexByName(index)
	if !ok {
		return badInput("index: %s has no index named %q", table, index)
	}
	cell := tableCell(spotOf(c, table), table, value, func(d *designContext, t designer.Table) (templates.Cell, templ.Component, bool) {
		ix, _, _, ok := t.IndexByName(index)
		if !ok {
			return templates.Cell{}, nil, false
		}
		lc, ok := indexCell(d, t, ix, field)
		return lc.Cell, nil, ok
	})
	var change designer.Change
	switch field {
	case "name":
		return s.apply(c, tablesBack(c), designer.RenameIndex{Table: table, Index: index, To: value}, reloadOr(table, cell))
	case "partition_key", "sort_key":
		keys, perr := designer.ParseKeyAttributes(value, t)
		if perr != nil {
			return s.answer(c, tablesBack(c), perr, cell)
		}
		pk, sk := ix.PartitionKey, ix.SortKey
		if field == "partition_key" {
			pk = keys
		} else {
			sk = keys
		}
		change = designer.SetIndexKey{Table: table, Index: index, PartitionKey: pk, SortKey: sk}
	case "projection":
		change = designer.SetIndexProjection{Table: table, Index: index, Type: value, Attributes: ix.Projection.Attributes}
	case "include":
		var attrs []string
		for _, a := range strings.Split(value, ",") {
			if a = strings.TrimSpace(a); a != "" {
				attrs = append(attrs, a)
			}
		}
		typ := ix.Projection.Type
		if len(attrs) > 0 {
			typ = designer.Include
		}
		change = designer.SetIndexProjection{Table: table, Index: index, Type: typ, Attributes: attrs}
	case "pattern_attributes":
		change = designer.SetIndexPatternList{Table: table, Index: index, Text: value}
	default:
		change = designer.SetIndexField{Table: table, Index: index, Field: field, Value: value}
	}
	return s.apply(c, tablesBack(c), change, func(d *designContext, r *refused) (templ.Component, error) {
		if r == nil && (field == "projection" || field == "include") {
			// The projection and its attribute list show each other's effect: answer with the page.
			return reload(tablesHref(d, table)), nil
		}
		return cell(d, r)
	})
}

func (s *Server) deleteIndex(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := form.get("table")
	return s.apply(c, tablesBack(c), designer.DeleteIndex{Table: table, Index: form.get("index")}, reloadTables(table))
}

// gridPart answers a change to a table's items with the grid and the index grids, the new item
// (if any) taking the focus. A refused change leaves the design as it was and says why above the
// grid; a table gone meanwhile reloads the step.
func gridPart(c echo.Context, table string) part {
	spot := spotOf(c, table)
	before := map[string]bool{}
	if t, _, ok := designFrom(c).Record.Design.TableByName(table); ok {
		for _, it := range t.Items {
			before[it.ID] = true
		}
	}
	return func(d *designContext, r *refused) (templ.Component, error) {
		t, _, ok := d.Record.Design.TableByName(table)
		if !ok {
			return reload(tablesHref(d, "")), nil
		}
		state := gridState{}
		if r != nil {
			state.message = r.Message
		}
		// The first new item (the first pasted row) takes the focus, on the page that holds it.
		for _, it := range t.Items {
			if !before[it.ID] {
				state.focus = it.ID
				break
			}
		}
		return gridView(c, d, t, spot, state), nil
	}
}

// gridView is a table's item grid with its index grids out of band. The address bar follows the
// grid to the page it shows, so that a reload or a live refresh stays there.
func gridView(c echo.Context, d *designContext, t designer.Table, spot tablesSpot, state gridState) templ.Component {
	spot.table = t.Name
	g := itemGrid(d, t, spot, state)
	c.Response().Header().Set("HX-Replace-Url", spot.href(d, g.Pager.Page))
	return templ.Join(templates.ItemGridView(g, d.canEdit()), templates.IndexGridsOOB(elemID("table", t.Name), indexGrids(d, t, spot)))
}

func (s *Server) addItem(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.AddItem{Table: form.get("table"), Item: designer.Item{}, After: form.get("after")}, gridPart(c, form.get("table")))
}

func (s *Server) duplicateItem(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.DuplicateItem{Table: form.get("table"), ID: form.get("id")}, gridPart(c, form.get("table")))
}

func (s *Server) deleteItem(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.DeleteItems{Table: form.get("table"), IDs: []string{form.get("id")}}, gridPart(c, form.get("table")))
}

func (s *Server) fillItemKeys(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, tablesBack(c), designer.FillKeyFromTemplate{Table: form.get("table"), ID: form.get("id")}, gridPart(c, form.get("table")))
}

func (s *Server) pasteItems(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	return s.apply(c, tablesBack(c), designer.PasteItems{Table: table, Text: form.get("text")}, gridPart(c, table))
}

func (s *Server) generateItems(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	count, err := form.int("count")
	if err != nil {
		return err
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(form.get("seed")), 10, 64)
	if err != nil {
		return badInput("seed: %q is not a whole number of zero or more", form.get("seed"))
	}
	return s.apply(c, tablesBack(c), designer.GenerateSampleItems{Table: table, Count: count, Seed: seed}, gridPart(c, table))
}

func (s *Server) addItemColumn(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	return s.apply(c, tablesBack(c), designer.AddItemColumn{Table: table, Attribute: form.get("name"), Type: designer.Type(form.get("type"))}, gridPart(c, table))
}

// saveItemCell saves one grid cell. A key cell answers with the whole grid (the row may move to
// another partition); any other cell answers with itself, its row's size and the index grids.
func (s *Server) saveItemCell(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table, t, err := tableFromForm(c, form)
	if err != nil {
		return err
	}
	id, attr, value := form.get("id"), form.get("attribute"), form.get("value")
	change := designer.SetItemCell{Table: table, ID: id, Attribute: attr, Text: value}
	if attr == t.PartitionKey.Name || (t.SortKey != nil && attr == t.SortKey.Name) {
		// The row may move to another page: the grid answers with the page that now holds it.
		spot := spotOf(c, table)
		return s.apply(c, tablesBack(c), change, func(d *designContext, r *refused) (templ.Component, error) {
			t, _, _ := d.Record.Design.TableByName(table)
			return gridView(c, d, t, spot, gridState{item: id, attr: attr, value: value, refused: r}), nil
		})
	}
	return s.apply(c, tablesBack(c), change, itemCellPart(spotOf(c, table), table, id, attr, value))
}

type itemEntry struct {
	Item      designer.Item `json:"item"`
	SizeBytes int           `json:"size_bytes"`
}

func apiTable(c echo.Context) (designer.Table, error) {
	name := c.Param("table")
	t, _, ok := designFrom(c).Record.Design.TableByName(name)
	if !ok {
		return t, &apiError{http.StatusNotFound, "not_found", "table: this design has no table named " + strconv.Quote(name)}
	}
	return t, nil
}

// apiTableItems lists a table's items in key order with their sizes.
func (s *Server) apiTableItems(c echo.Context) error {
	t, err := apiTable(c)
	if err != nil {
		return err
	}
	out := []itemEntry{}
	for _, r := range designer.TableRows(t) {
		out = append(out, itemEntry{Item: r.Item, SizeBytes: r.Size})
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

// apiIndexItems lists an index's own view: sparse items left out, projected attributes only,
// index-key order.
func (s *Server) apiIndexItems(c echo.Context) error {
	t, err := apiTable(c)
	if err != nil {
		return err
	}
	name := c.Param("index")
	ix, _, _, ok := t.IndexByName(name)
	if !ok {
		return &apiError{http.StatusNotFound, "not_found", "index: table " + t.Name + " has no index named " + strconv.Quote(name)}
	}
	lsi := slices.ContainsFunc(t.LSIs, func(l designer.Index) bool { return l.Name == name })
	out := []itemEntry{}
	for _, r := range designFrom(c).derived().IndexView(t, ix, lsi).Rows {
		out = append(out, itemEntry{Item: r.Item, SizeBytes: r.Size})
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}
