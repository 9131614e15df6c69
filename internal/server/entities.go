package server

import (
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// entitiesView is what an entities answer needs beyond the design: a refused value to show in the
// list, on the cell it was typed in or, for any other refusal, under the add form. The cell is
// named by its entity, its attribute ("" for a field of the entity itself) and its field; a field
// that is no cell of the list ("new-attribute", the box of a new attribute) shows the refusal
// nowhere, and the list answers as it was.
type entitiesView struct {
	entity, attribute, field, value string
	refused                         *refused
	addValue, addError              string
}

// entityOptions lists the design's entities as the choices of a select.
func entityOptions(design designer.Design) []templates.Option {
	opts := make([]templates.Option, 0, len(design.Entities))
	for _, e := range design.Entities {
		opts = append(opts, templates.Option{Value: e.Name, Label: e.Name})
	}
	return opts
}

func (s *Server) entitiesModel(c echo.Context, v entitiesView) (templates.Entities, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "entities")
	if err != nil {
		return templates.Entities{}, err
	}
	base := "/d/" + d.Token
	e := templates.Entities{Workspace: w, AddEntity: base + "/entities/add", AddValue: v.addValue, AddError: v.addError, Bulk: bulkBox(d, "entities"),
		Diagram: diagramModel(d, designer.EntityDiagram, false)}
	ents := d.Record.Design.Entities
	entityOpts := entityOptions(d.Record.Design)
	for i, ent := range ents {
		card := entityCard(d, ent, i, len(ents))
		if ent.Name == v.entity {
			// A refused rename is shown on its cell in the list it answers with.
			if c := entityCell(&card, ent, v.attribute, v.field); c != nil {
				*c = withRefusal(*c, v.refused, v.value)
			}
		}
		e.Cards = append(e.Cards, card)
	}
	e.AddRel = templates.AddRelationship{Action: base + "/relationships/add", Entities: entityOpts, Kinds: kindOptions}
	for _, r := range d.Record.Design.Relationships {
		e.Relationships = append(e.Relationships, relationshipRow(d, r, entityOpts))
	}
	return e, nil
}

// entityCell is the cell of field of card, the card of ent: a field of the entity itself when
// attribute is "", of that attribute otherwise; nil when there is no such cell.
func entityCell(card *templates.EntityCard, ent designer.Entity, attribute, field string) *templates.Cell {
	if attribute == "" {
		switch field {
		case "name":
			return &card.Name
		case "description":
			return &card.Description
		}
		return nil
	}
	j := slices.IndexFunc(ent.Attributes, func(a designer.Attribute) bool { return a.Name == attribute })
	switch {
	case j < 0:
		return nil
	case field == "name":
		return &card.Attributes[j].Name
	case field == "type":
		return &card.Attributes[j].Type
	}
	return nil
}

// scaleFigure is one figure of an entity's scale as its card shows it, with the field holding its
// source.
type scaleFigure struct {
	field             designer.Field[designer.Entity]
	from              func(designer.Entity) string
	label, kind, hint string
}

// scaleFigures are the figures of an entity's scale, in the order its card shows them.
var scaleFigures = []scaleFigure{
	{designer.EntityField.Count, designer.EntityField.CountFrom.Get, "Expected items", "number", "how many items there are today"},
	{designer.EntityField.Growth, designer.EntityField.GrowthFrom.Get, "New items", "text", "new items per day, week, month or year: 4 per year"},
	{designer.EntityField.Retention, designer.EntityField.RetentionFrom.Get, "Kept for", "text", "how long each item is kept: 7 years, 90 days"},
	{designer.EntityField.InState, stateSources, "In a state", "text",
		"how many are in a state at a time, a count and a word each: 10,000 open; a sparse index of that state holds them"},
}

// stateSources says where an entity's state counts came from: their one source, or each state's.
func stateSources(e designer.Entity) string {
	var parts []string
	same := true
	for _, sc := range e.InState {
		same = same && sc.From == e.InState[0].From
		if sc.From != "" {
			parts = append(parts, sc.State+": "+scaleSource(sc.From))
		}
	}
	if same && len(e.InState) > 0 {
		return e.InState[0].From
	}
	return strings.Join(parts, "; ")
}

// scaleFigureOf is the figure of field, one of scaleFigures, on card; ok is false for another field.
func scaleFigureOf(card templates.EntityCard, field string) (templates.ScaleFigure, bool) {
	i := slices.IndexFunc(scaleFigures, func(f scaleFigure) bool { return f.field.Key == field })
	if i < 0 || i >= len(card.Scale) {
		return templates.ScaleFigure{}, false
	}
	return card.Scale[i], true
}

// scaleSource says where a figure came from as its card shows it: the document line it was read
// from, how it was derived, or that the team set it.
func scaleSource(from string) string {
	if from == designer.FromTeam {
		return "set by the team"
	}
	return from
}

func entityCard(d *designContext, ent designer.Entity, index, count int) templates.EntityCard {
	base := "/d/" + d.Token
	// Cell ids follow the entity's position, not its name, so a rename keeps the focus in place.
	prefix := "ent-" + itoa(index)
	cell := func(id, label, value, action, field, target string) templates.Cell {
		return templates.Cell{
			ID: id, Label: label, Value: value, Action: action, Vals: vals("entity", ent.Name, "field", field),
			Target: target, Kind: "text", CanEdit: d.canEdit(),
		}
	}
	card := templates.EntityCard{
		ID:      entityElemID(ent.Name),
		Section: string(designer.EntityPath(ent.Name, "")),
		// A rename changes what every other cell of the entity posts, so it answers with the list.
		Name:        cell(prefix+"-name", "Entity name", ent.Name, base+"/entities/field", "name", "#entity-list"),
		Description: cell(prefix+"-description", ent.Name+" description", ent.Description, base+"/entities/field", "description", ""),
		CanEdit:     d.canEdit(),
		AddAttr: templates.AddAttribute{Action: base + "/attributes/add", Entity: ent.Name, Types: attributeTypeOptions,
			Target: "#entity-list", ID: prefix + "-new-attribute"},
	}
	for _, f := range scaleFigures {
		fig := templates.ScaleFigure{ID: prefix + "-" + f.field.Key + "-figure", Label: f.label, Source: scaleSource(f.from(ent)),
			Cell: cell(prefix+"-"+f.field.Key, ent.Name+" "+strings.ToLower(f.label), f.field.Get(ent), base+"/entities/field", f.field.Key, "")}
		// The answer is the figure with its source, which a save sets to the team.
		fig.Cell.Target, fig.Cell.Kind, fig.Cell.Hint = "#"+fig.ID, f.kind, f.hint
		card.Scale = append(card.Scale, fig)
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
			Name: templates.Cell{ID: ap + "-name", Label: ent.Name + " attribute name", Value: a.Name, Action: base + "/attributes/field",
				Vals: attrVals, Target: "#entity-list", Kind: "text", CanEdit: d.canEdit()},
			Type: templates.Cell{ID: ap + "-type", Label: a.Name + " type", Value: string(a.Type), Action: base + "/attributes/field",
				Vals: vals("entity", ent.Name, "attribute", a.Name, "field", "type"), Kind: "select",
				Options: attributeTypeOptions, CanEdit: d.canEdit(), Class: "w-type"},
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

// relationshipCell is the cell of one field of a relationship, by the field's name; ok is false
// for a name no field has.
func relationshipCell(d *designContext, r designer.Relationship, entities []templates.Option, field string) (templates.Cell, bool) {
	f, ok := designer.FieldNamed(designer.RelationshipFields, field)
	if !ok {
		return templates.Cell{}, false
	}
	rf := designer.RelationshipField
	label, value, kind := f.Heading(), f.Get(r), "text"
	var opts []templates.Option
	switch field {
	case rf.From.Key, rf.To.Key:
		kind, opts = "select", withCurrent(entities, value)
	case rf.Kind.Key:
		kind, opts = "select", kindOptions
	case rf.AvgCount.Key, rf.MaxCount.Key:
		// A count may carry its unit ("4 per year"): text, wide enough to show it.
		kind = "count"
	}
	c := templates.Cell{ID: elemID("relf", r.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/relationships/field",
		Vals: vals("id", r.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	switch kind {
	case "number":
		c.Class = "w-num"
	case "count":
		c.Kind, c.Class = "text", "w-count"
	}
	return c, true
}

func relationshipRow(d *designContext, r designer.Relationship, entities []templates.Option) templates.RelationshipRow {
	cell := func(f designer.Field[designer.Relationship]) templates.Cell {
		c, _ := relationshipCell(d, r, entities, f.Key)
		return c
	}
	rf := designer.RelationshipField
	return templates.RelationshipRow{
		RowID: elemID("rel", r.ID),
		From:  cell(rf.From),
		Kind:  cell(rf.Kind),
		To:    cell(rf.To),
		Avg:   cell(rf.AvgCount),
		Max:   cell(rf.MaxCount),
		Notes: cell(rf.Notes),
		Delete: templates.Button{Label: "Delete relationship " + r.From + " → " + r.To, Text: "✕", Action: "/d/" + d.Token + "/relationships/delete",
			Params: []templates.Param{{Name: "id", Value: r.ID}}, Target: "#relationships", Class: "danger"},
	}
}

func (s *Server) entitiesPage(c echo.Context) error {
	e, err := s.entitiesModel(c, entitiesView{})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.EntitiesView(e))
}

// entitiesBack is where a plain form post of the entities step goes back to.
func entitiesBack(c echo.Context) string { return stepHref(designFrom(c), "entities") }

// entityList answers with the entity list, showing a refusal on the cell v.cell or, for any other,
// under the add form with the name v.addValue.
func (s *Server) entityList(c echo.Context, v entitiesView) part {
	return func(d *designContext, r *refused) (templ.Component, error) {
		if r == nil {
			v.addValue = ""
		} else if v.field == "" {
			v.addError = r.Message
		}
		v.refused = r
		e, err := s.entitiesModel(c, v)
		if err != nil {
			return nil, err
		}
		return templates.EntityList(e), nil
	}
}

// relationshipsSection answers with the relationships; a refusal leaves them as they were.
func (s *Server) relationshipsSection(c echo.Context) part {
	return func(*designContext, *refused) (templ.Component, error) {
		e, err := s.entitiesModel(c, entitiesView{})
		if err != nil {
			return nil, err
		}
		return templates.RelationshipsSection(e, false), nil
	}
}

// entityAt finds an entity by name, with its position.
func entityAt(design designer.Design, name string) (designer.Entity, int, bool) {
	i := slices.IndexFunc(design.Entities, func(e designer.Entity) bool { return e.Name == name })
	if i < 0 {
		return designer.Entity{}, -1, false
	}
	return design.Entities[i], i, true
}

// entityCardOf builds the card of the entity named name, as it now stands.
func entityCardOf(d *designContext, name string) (templates.EntityCard, bool) {
	ent, i, ok := entityAt(d.Record.Design, name)
	if !ok {
		return templates.EntityCard{}, false
	}
	return entityCard(d, ent, i, len(d.Record.Design.Entities)), true
}

func (s *Server) addEntity(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, entitiesBack(c), designer.AddEntity{Name: form.get("name")}, s.entityList(c, entitiesView{addValue: form.get("name")}))
}

func (s *Server) saveEntityField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	entity, field, value := form.get("entity"), form.get("field"), form.get("value")
	v := entitiesView{entity: entity, field: field, value: value}
	switch field {
	case "name":
		// A rename changes what every other cell of the entity posts: the answer is the list, and
		// the relationships, which name the entity, once it is saved.
		list := s.entityList(c, v)
		return s.apply(c, entitiesBack(c), designer.RenameEntity{Entity: entity, To: value}, func(d *designContext, r *refused) (templ.Component, error) {
			l, err := list(d, r)
			if err != nil || r != nil {
				return l, err
			}
			e, err := s.entitiesModel(c, entitiesView{})
			if err != nil {
				return nil, err
			}
			return templ.Join(l, templates.RelationshipsSection(e, true)), nil
		})
	case "description":
		return s.apply(c, entitiesBack(c), designer.SetEntityDescription{Entity: entity, Description: value},
			func(d *designContext, r *refused) (templ.Component, error) {
				card, ok := entityCardOf(d, entity)
				if !ok {
					return s.entityList(c, v)(d, r)
				}
				return templates.CellView(withRefusal(card.Description, r, value)), nil
			})
	case designer.EntityField.Count.Key, designer.EntityField.Growth.Key, designer.EntityField.Retention.Key, designer.EntityField.InState.Key:
		return s.apply(c, entitiesBack(c), designer.SetEntityField{Entity: entity, Field: field, Value: value},
			func(d *designContext, r *refused) (templ.Component, error) {
				card, ok := entityCardOf(d, entity)
				if !ok {
					return s.entityList(c, v)(d, r)
				}
				fig, _ := scaleFigureOf(card, field)
				fig.Cell = withRefusal(fig.Cell, r, value)
				return templates.ScaleFigureView(fig), nil
			})
	}
	return badInput("field: entities have no field %q", field)
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
	return s.apply(c, entitiesBack(c), designer.MoveEntity{Entity: form.get("entity"), To: to}, s.entityList(c, entitiesView{}))
}

func (s *Server) deleteEntity(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, entitiesBack(c), designer.DeleteEntity{Entity: form.get("entity")}, s.entityList(c, entitiesView{}))
}

func (s *Server) addAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	entity := form.get("entity")
	// The new attribute's box is not a cell: a refusal is answered with the list as it was.
	v := entitiesView{entity: entity, field: "new-attribute", value: form.get("name")}
	return s.apply(c, entitiesBack(c), designer.AddAttribute{Entity: entity, Name: form.get("name"), Type: designer.Type(form.get("type"))}, s.entityList(c, v))
}

func (s *Server) saveAttributeField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	entity, attribute, field, value := form.get("entity"), form.get("attribute"), form.get("field"), form.get("value")
	ent, _, _ := entityAt(designFrom(c).Record.Design, entity)
	v := entitiesView{value: value}
	if slices.ContainsFunc(ent.Attributes, func(a designer.Attribute) bool { return a.Name == attribute }) {
		v.entity, v.attribute, v.field = entity, attribute, field
	}
	switch field {
	case "name":
		// A rename changes what the attribute's other cells post: the answer is the list.
		return s.apply(c, entitiesBack(c), designer.RenameAttribute{Entity: entity, Attribute: attribute, To: value}, s.entityList(c, v))
	case "type":
		return s.apply(c, entitiesBack(c), designer.SetAttributeType{Entity: entity, Attribute: attribute, Type: designer.Type(value)},
			func(d *designContext, r *refused) (templ.Component, error) {
				ent, i, ok := entityAt(d.Record.Design, entity)
				if !ok {
					return s.entityList(c, v)(d, r)
				}
				card := entityCard(d, ent, i, len(d.Record.Design.Entities))
				cell := entityCell(&card, ent, attribute, "type")
				if cell == nil {
					return s.entityList(c, v)(d, r)
				}
				return templates.CellView(withRefusal(*cell, r, value)), nil
			})
	}
	return badInput("field: attributes have no field %q", field)
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
	return s.apply(c, entitiesBack(c), designer.MoveAttribute{Entity: form.get("entity"), Attribute: form.get("attribute"), To: to}, s.entityList(c, entitiesView{}))
}

func (s *Server) deleteAttribute(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, entitiesBack(c), designer.DeleteAttribute{Entity: form.get("entity"), Attribute: form.get("attribute")}, s.entityList(c, entitiesView{}))
}

func (s *Server) addRelationship(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, entitiesBack(c), designer.AddRelationship{From: form.get("from"), To: form.get("to"), RelationshipKind: form.get("kind")}, s.relationshipsSection(c))
}

func (s *Server) saveRelationshipField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	return s.apply(c, entitiesBack(c), designer.SetRelationshipField{ID: id, Field: field, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			design := d.Record.Design
			i := slices.IndexFunc(design.Relationships, func(rel designer.Relationship) bool { return rel.ID == id })
			if i >= 0 {
				if cell, ok := relationshipCell(d, design.Relationships[i], entityOptions(design), field); ok {
					return templates.CellView(withRefusal(cell, r, value)), nil
				}
			}
			return s.relationshipsSection(c)(d, r)
		})
}

func (s *Server) deleteRelationship(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, entitiesBack(c), designer.DeleteRelationship{ID: form.get("id")}, s.relationshipsSection(c))
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
