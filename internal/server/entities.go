package server

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

var (
	attributeTypeOptions = func() []templates.Option {
		opts := make([]templates.Option, 0, len(designer.Types))
		for _, t := range designer.Types {
			opts = append(opts, templates.Option{Value: string(t), Label: string(t)})
		}
		return opts
	}()
	kindOptions = []templates.Option{
		{Value: designer.OneToOne, Label: "1:1"}, {Value: designer.OneToMany, Label: "1:M"}, {Value: designer.ManyToMany, Label: "M:M"},
	}
)

// entitiesView is what an entities answer needs beyond the design: a refused value to show.
type entitiesView struct {
	bad                *cellError
	addValue, addError string
}

func (s *Server) entitiesModel(c echo.Context, v entitiesView) (templates.Entities, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "entities")
	if err != nil {
		return templates.Entities{}, err
	}
	base := "/d/" + d.Token
	e := templates.Entities{Workspace: w, AddEntity: base + "/entities/add", AddValue: v.addValue, AddError: v.addError}
	ents := d.Record.Design.Entities
	entityOpts := make([]templates.Option, 0, len(ents))
	for i, ent := range ents {
		entityOpts = append(entityOpts, templates.Option{Value: ent.Name, Label: ent.Name})
		e.Cards = append(e.Cards, entityCard(d, ent, i, len(ents), v.bad))
	}
	e.AddRel = templates.AddRelationship{Action: base + "/relationships/add", Entities: entityOpts, Kinds: kindOptions}
	for _, r := range d.Record.Design.Relationships {
		e.Relationships = append(e.Relationships, relationshipRow(d, r, entityOpts, v.bad))
	}
	return e, nil
}

func entityCard(d *designContext, ent designer.Entity, index, count int, bad *cellError) templates.EntityCard {
	base := "/d/" + d.Token
	// Cell ids follow the entity's position, not its name, so a rename keeps the focus in place.
	prefix := "ent-" + itoa(index)
	cell := func(id, label, value, action, field, target string) templates.Cell {
		return bad.apply(templates.Cell{
			ID: id, Label: label, Value: value, Action: action, Vals: vals("entity", ent.Name, "field", field),
			Target: target, Kind: "text", CanEdit: d.canEdit(),
		})
	}
	card := templates.EntityCard{
		ID: entityElemID(ent.Name),
		// A rename changes what every other cell of the entity posts, so it answers with the list.
		Name:        cell(prefix+"-name", "Entity name", ent.Name, base+"/entities/field", "name", "#entity-list"),
		Description: cell(prefix+"-description", ent.Name+" description", ent.Description, base+"/entities/field", "description", ""),
		CanEdit:     d.canEdit(),
		AddAttr: templates.AddAttribute{Action: base + "/attributes/add", Entity: ent.Name, Types: attributeTypeOptions,
			Target: "#entity-list", ID: prefix + "-new-attribute"},
	}
	card.Name.Class = "entity-title"
	card.Description.Class, card.Description.Kind = "w-full", "textarea"
	name := templates.Param{Name: "entity", Value: ent.Name}
	if index > 0 {
		card.Buttons = append(card.Buttons, templates.Button{Label: "Move " + ent.Name + " up", Text: "↑", Action: base + "/entities/move",
			Params: []templates.Param{name, {Name: "to", Value: itoa(index - 1)}}, Target: "#entity-list"})
	}
	if index < count-1 {
		card.Buttons = append(card.Buttons, templates.Button{Label: "Move " + ent.Name + " down", Text: "↓", Action: base + "/entities/move",
			Params: []templates.Param{name, {Name: "to", Value: itoa(index + 1)}}, Target: "#entity-list"})
	}
	card.Buttons = append(card.Buttons, templates.Button{Label: "Delete " + ent.Name, Text: "Delete", Action: base + "/entities/delete",
		Params: []templates.Param{name}, Target: "#entity-list", Class: "danger",
		Confirm: "Delete " + ent.Name + " with its relationships? History keeps it."})
	for j, a := range ent.Attributes {
		ap := prefix + "-attr-" + itoa(j)
		attrVals := vals("entity", ent.Name, "attribute", a.Name, "field", "name")
		row := templates.AttributeRow{
			ID: ap,
			Name: bad.apply(templates.Cell{ID: ap + "-name", Label: ent.Name + " attribute name", Value: a.Name, Action: base + "/attributes/field",
				Vals: attrVals, Target: "#entity-list", Kind: "text", CanEdit: d.canEdit()}),
			Type: bad.apply(templates.Cell{ID: ap + "-type", Label: a.Name + " type", Value: string(a.Type), Action: base + "/attributes/field",
				Vals: vals("entity", ent.Name, "attribute", a.Name, "field", "type"), Kind: "select",
				Options: attributeTypeOptions, CanEdit: d.canEdit(), Class: "w-type"}),
		}
		attr := []templates.Param{name, {Name: "attribute", Value: a.Name}}
		if j > 0 {
			row.Buttons = append(row.Buttons, templates.Button{Label: "Move " + a.Name + " up", Text: "↑", Action: base + "/attributes/move",
				Params: append(attr, templates.Param{Name: "to", Value: itoa(j - 1)}), Target: "#entity-list"})
		}
		if j < len(ent.Attributes)-1 {
			row.Buttons = append(row.Buttons, templates.Button{Label: "Move " + a.Name + " down", Text: "↓", Action: base + "/attributes/move",
				Params: append(attr, templates.Param{Name: "to", Value: itoa(j + 1)}), Target: "#entity-list"})
		}
		row.Buttons = append(row.Buttons, templates.Button{Label: "Delete attribute " + a.Name, Text: "✕", Action: base + "/attributes/delete",
			Params: attr, Target: "#entity-list", Class: "danger"})
		card.Attributes = append(card.Attributes, row)
	}
	return card
}

func relationshipRow(d *designContext, r designer.Relationship, entities []templates.Option, bad *cellError) templates.RelationshipRow {
	base := "/d/" + d.Token
	rowID := elemID("rel", r.ID)
	cell := func(field, label, value, kind string, opts []templates.Option) templates.Cell {
		c := templates.Cell{ID: elemID("relf", r.ID, field), Label: label, Value: value, Action: base + "/relationships/field",
			Vals: vals("id", r.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
		if opts != nil {
			c.Shown = optionLabel(opts, value)
		}
		return bad.apply(c)
	}
	row := templates.RelationshipRow{
		RowID: rowID,
		From:  cell("from", "From entity", r.From, "select", withCurrent(entities, r.From)),
		Kind:  cell("kind", "Relationship kind", r.Kind, "select", kindOptions),
		To:    cell("to", "To entity", r.To, "select", withCurrent(entities, r.To)),
		Avg:   cell("avg_count", "Average count", formatInt(r.Avg), "number", nil),
		Max:   cell("max_count", "Maximum count", formatInt(r.Max), "number", nil),
		Notes: cell("notes", "Notes", r.Notes, "text", nil),
		Delete: templates.Button{Label: "Delete relationship " + r.From + " → " + r.To, Text: "✕", Action: base + "/relationships/delete",
			Params: []templates.Param{{Name: "id", Value: r.ID}}, Target: "#relationships", Class: "danger"},
	}
	row.Avg.Class, row.Max.Class = "w-num", "w-num"
	return row
}

func (s *Server) entitiesPage(c echo.Context) error {
	e, err := s.entitiesModel(c, entitiesView{})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.EntitiesView(e))
}

// entitiesAnswer applies a change and answers with the cell that posted it (cellID) when that cell
// targets itself, else with the entity list or the relationships, showing either the new state or
// why the change was refused.
func (s *Server) entitiesAnswer(c echo.Context, change designer.Change, relationships bool, v entitiesView, cellID, refusedValue string) error {
	err := s.edit(c, change)
	status := http.StatusOK
	if r, refused := refusal(err); refused {
		status = r.Status
		if cellID == "" {
			v.addError = r.Message
		} else {
			v.bad = &cellError{cellID, refusedValue, r.Message}
		}
	} else if err != nil {
		return err
	} else {
		v.addValue = ""
	}
	e, err := s.entitiesModel(c, v)
	if err != nil {
		return err
	}
	if cell, ok := findCell(entityCells(e), cellID); ok && cell.Target == "" {
		return respond(c, status, "entities", templates.CellView(cell))
	}
	if relationships {
		return respond(c, status, "entities", templates.RelationshipsSection(e))
	}
	return respond(c, status, "entities", templates.EntityList(e))
}

func (s *Server) addEntity(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.AddEntity{Name: form.get("name")}, false, entitiesView{addValue: form.get("name")}, "", "")
}

func (s *Server) entityIndex(c echo.Context, name string) int {
	for i, e := range designFrom(c).Record.Design.Entities {
		if e.Name == name {
			return i
		}
	}
	return -1
}

func (s *Server) saveEntityField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	entity, field, value := form.get("entity"), form.get("field"), form.get("value")
	cell := "ent-" + itoa(s.entityIndex(c, entity)) + "-" + field
	var change designer.Change
	switch field {
	case "name":
		change = designer.RenameEntity{Entity: entity, To: value}
	case "description":
		change = designer.SetEntityDescription{Entity: entity, Description: value}
	default:
		return badInput("field: entities have no field %q", field)
	}
	return s.entitiesAnswer(c, change, false, entitiesView{}, cell, value)
}

func (s *Server) moveEntity(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	to, err := form.int("to")
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.MoveEntity{Entity: form.get("entity"), To: to}, false, entitiesView{}, "", "")
}

func (s *Server) deleteEntity(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.DeleteEntity{Entity: form.get("entity")}, false, entitiesView{}, "", "")
}

func (s *Server) addAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	entity := form.get("entity")
	cell := "ent-" + itoa(s.entityIndex(c, entity)) + "-new-attribute"
	return s.entitiesAnswer(c, designer.AddAttribute{Entity: entity, Name: form.get("name"), Type: designer.Type(form.get("type"))}, false, entitiesView{}, cell, form.get("name"))
}

func (s *Server) saveAttributeField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	entity, attribute, field, value := form.get("entity"), form.get("attribute"), form.get("field"), form.get("value")
	ei := s.entityIndex(c, entity)
	cell := ""
	if ei >= 0 {
		for j, a := range designFrom(c).Record.Design.Entities[ei].Attributes {
			if a.Name == attribute {
				cell = "ent-" + itoa(ei) + "-attr-" + itoa(j) + "-" + field
			}
		}
	}
	var change designer.Change
	switch field {
	case "name":
		change = designer.RenameAttribute{Entity: entity, Attribute: attribute, To: value}
	case "type":
		change = designer.SetAttributeType{Entity: entity, Attribute: attribute, Type: designer.Type(value)}
	default:
		return badInput("field: attributes have no field %q", field)
	}
	return s.entitiesAnswer(c, change, false, entitiesView{}, cell, value)
}

func (s *Server) moveAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	to, err := form.int("to")
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.MoveAttribute{Entity: form.get("entity"), Attribute: form.get("attribute"), To: to}, false, entitiesView{}, "", "")
}

func (s *Server) deleteAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.DeleteAttribute{Entity: form.get("entity"), Attribute: form.get("attribute")}, false, entitiesView{}, "", "")
}

func (s *Server) addRelationship(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.AddRelationship{From: form.get("from"), To: form.get("to"), RelationshipKind: form.get("kind")}, true, entitiesView{}, "", "")
}

func (s *Server) saveRelationshipField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	return s.entitiesAnswer(c, designer.SetRelationshipField{ID: id, Field: field, Value: value}, true, entitiesView{}, elemID("relf", id, field), value)
}

func (s *Server) deleteRelationship(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.entitiesAnswer(c, designer.DeleteRelationship{ID: form.get("id")}, true, entitiesView{}, "", "")
}

// entityCells lists every editable cell of the entities step.
func entityCells(e templates.Entities) []templates.Cell {
	var cells []templates.Cell
	for _, card := range e.Cards {
		cells = append(cells, card.Name, card.Description)
		for _, a := range card.Attributes {
			cells = append(cells, a.Name, a.Type)
		}
	}
	for _, r := range e.Relationships {
		cells = append(cells, r.From, r.Kind, r.To, r.Avg, r.Max, r.Notes)
	}
	return cells
}

// withCurrent returns the entity options with the name a relationship holds added when no entity
// has it (a design written by a script, or an entity renamed by hand in its JSON), so the select
// shows the name rather than nothing.
func withCurrent(entities []templates.Option, name string) []templates.Option {
	if name == "" || slices.ContainsFunc(entities, func(o templates.Option) bool { return o.Value == name }) {
		return entities
	}
	return append(slices.Clip(entities), templates.Option{Value: name, Label: name + " (no such entity)"})
}
