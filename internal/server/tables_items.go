package server

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"
)

// tableFromForm reads the "table" value (form or query) and finds the table.
func tableFromForm(c echo.Context, form formValues) (string, designer.Table, error) {
	name := form.get("table")
	if name == "" {
		name = c.QueryParam("table")
	}
	t, ok := tableByName(designFrom(c).Record.Design, name)
	if !ok {
		return name, t, badInput("table: no table named %q; it may have been renamed or deleted", name)
	}
	return name, t, nil
}

// structuralEdit applies a change that reshapes the step and reloads it.
func (s *Server) structuralEdit(c echo.Context, table string, change designer.Change) error {
	if err := s.edit(c, change); err != nil {
		return err
	}
	return reloadTables(c, table)
}

func (s *Server) addTableAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.structuralEdit(c, form.get("table"), designer.AddTableAttribute{Table: form.get("table"), Name: form.get("name"), Type: designer.Type(form.get("type"))})
}

func (s *Server) saveTableAttributeField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table, attr, field, value := form.get("table"), form.get("attribute"), form.get("field"), form.get("value")
	switch field {
	case "name":
		return s.structuralEdit(c, table, designer.RenameTableAttribute{Table: table, Attribute: attr, To: value})
	case "type":
		err := s.edit(c, designer.SetTableAttributeType{Table: table, Attribute: attr, Type: designer.Type(value)})
		if _, refused := refusal(err); err != nil && !refused {
			return err
		}
		return s.tableCellAnswer(c, table, elemID("taf", table, attr, "type"), value, err)
	case "generator":
		g, err := designer.ParseGenerator(value)
		if err == nil {
			err = s.edit(c, designer.SetAttributeGenerator{Table: table, Attribute: attr, Generator: g})
		}
		if _, refused := refusal(err); err != nil && !refused {
			return err
		}
		return s.tableCellAnswer(c, table, elemID("taf", table, attr, "generator"), value, err)
	}
	return badInput("field: table attributes have no field %q", field)
}

func (s *Server) deleteTableAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.structuralEdit(c, form.get("table"), designer.DeleteTableAttribute{Table: form.get("table"), Attribute: form.get("attribute")})
}

func (s *Server) addEntityType(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	return s.structuralEdit(c, table, designer.AddEntityType{Table: table, Entity: form.get("entity"), PKTemplate: form.get("pk_template"), SKTemplate: form.get("sk_template")})
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
	err = s.edit(c, designer.SetEntityTypeField{Table: table, Index: i, Field: field, Value: value})
	if _, refused := refusal(err); err != nil && !refused {
		return err
	}
	return s.tableCellAnswer(c, table, elemID("etf", table, itoa(i), field), value, err)
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
	return s.structuralEdit(c, form.get("table"), designer.DeleteEntityType{Table: form.get("table"), Index: i})
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
	return s.structuralEdit(c, name, designer.AddIndex{Table: name, Name: form.get("name"), Local: form.get("kind") == "lsi", PartitionKey: pk, SortKey: sk})
}

func findIndex(t designer.Table, name string) (designer.Index, bool) {
	for _, ix := range append(slices.Clone(t.GSIs), t.LSIs...) {
		if ix.Name == name {
			return ix, true
		}
	}
	return designer.Index{}, false
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
	ix, ok := findIndex(t, index)
	if !ok {
		return badInput("index: %s has no index named %q", table, index)
	}
	var change designer.Change
	switch field {
	case "name":
		return s.structuralEdit(c, table, designer.RenameIndex{Table: table, Index: index, To: value})
	case "partition_key", "sort_key":
		keys, perr := designer.ParseKeyAttributes(value, t)
		if perr != nil {
			return s.tableCellAnswer(c, table, elemID("ixf", table, index, field), value, perr)
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
	err = s.edit(c, change)
	if _, refused := refusal(err); err != nil && !refused {
		return err
	}
	if err == nil && (field == "projection" || field == "include") {
		// The projection and its attribute list show each other's effect: answer with the page.
		return reloadTables(c, table)
	}
	return s.tableCellAnswer(c, table, elemID("ixf", table, index, field), value, err)
}

func (s *Server) deleteIndex(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.structuralEdit(c, form.get("table"), designer.DeleteIndex{Table: form.get("table"), Index: form.get("index")})
}

// gridAnswer applies a change to a table's items and answers with the grid, the index grids and
// the live panel. A refused change leaves the design as it was and says why above the grid.
func (s *Server) gridAnswer(c echo.Context, table string, change designer.Change) error {
	d := designFrom(c)
	before := map[string]bool{}
	if t, ok := tableByName(d.Record.Design, table); ok {
		for _, it := range t.Items {
			before[it.ID] = true
		}
	}
	err := s.edit(c, change)
	state := gridState{}
	status := http.StatusOK
	if r, refused := refusal(err); refused {
		state.message, status = r.Message, r.Status
	} else if err != nil {
		return err
	}
	t, ok := tableByName(d.Record.Design, table)
	if !ok {
		return reloadTables(c, "")
	}
	for _, it := range t.Items {
		if !before[it.ID] {
			state.focus = it.ID
			break
		}
	}
	tv := tableView(d, t, state)
	return respond(c, status, "tables", templ.Join(templates.ItemGridView(tv.Grid, d.canEdit()), templates.IndexGridsOOB(tv.ID, tv.IndexGrids)))
}

func (s *Server) addItem(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.gridAnswer(c, form.get("table"), designer.AddItem{Table: form.get("table"), Item: designer.Item{}, After: form.get("after")})
}

func (s *Server) duplicateItem(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.gridAnswer(c, form.get("table"), designer.DuplicateItem{Table: form.get("table"), ID: form.get("id")})
}

func (s *Server) deleteItem(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.gridAnswer(c, form.get("table"), designer.DeleteItems{Table: form.get("table"), IDs: []string{form.get("id")}})
}

func (s *Server) fillItemKeys(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.gridAnswer(c, form.get("table"), designer.FillKeyFromTemplate{Table: form.get("table"), ID: form.get("id")})
}

func (s *Server) pasteItems(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	return s.gridAnswer(c, table, designer.PasteItems{Table: table, Text: form.get("text")})
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
	return s.gridAnswer(c, table, designer.GenerateSampleItems{Table: table, Count: count, Seed: seed})
}

func (s *Server) addItemColumn(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	table := c.QueryParam("table")
	return s.gridAnswer(c, table, designer.AddItemColumn{Table: table, Attribute: form.get("name"), Type: designer.Type(form.get("type"))})
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
	isKey := attr == t.PartitionKey.Name || (t.SortKey != nil && attr == t.SortKey.Name)
	if isKey {
		err := s.edit(c, change)
		state := gridState{}
		status := http.StatusOK
		if r, refused := refusal(err); refused {
			state.bad, status = &cellError{itemCellID(table, id, attr), value, r.Message}, r.Status
		} else if err != nil {
			return err
		}
		d := designFrom(c)
		t, _ = tableByName(d.Record.Design, table)
		tv := tableView(d, t, state)
		return respond(c, status, "tables", templ.Join(templates.ItemGridView(tv.Grid, d.canEdit()), templates.IndexGridsOOB(tv.ID, tv.IndexGrids)))
	}
	err = s.edit(c, change)
	if _, refused := refusal(err); err != nil && !refused {
		return err
	}
	return s.tableCellAnswer(c, table, itemCellID(table, id, attr), value, err)
}

type itemEntry struct {
	Item      designer.Item `json:"item"`
	SizeBytes int           `json:"size_bytes"`
}

func apiTable(c echo.Context) (designer.Table, error) {
	name := c.Param("table")
	t, ok := tableByName(designFrom(c).Record.Design, name)
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
	ix, ok := findIndex(t, name)
	if !ok {
		return &apiError{http.StatusNotFound, "not_found", "index: table " + t.Name + " has no index named " + strconv.Quote(name)}
	}
	lsi := slices.ContainsFunc(t.LSIs, func(l designer.Index) bool { return l.Name == name })
	out := []itemEntry{}
	for _, r := range dynamo.IndexItems(t, ix, lsi).Rows {
		out = append(out, itemEntry{Item: r.Item, SizeBytes: r.Size})
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}
