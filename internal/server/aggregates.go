package server

import (
	"net/http"
	"slices"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
	"dynaloom/web/templates"
)

var (
	triOptions      = []templates.Option{{Value: "", Label: "—"}, {Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}
	decisionOptions = []templates.Option{
		{Value: "", Label: "—"},
		{Value: designer.SingleItem, Label: "Single item aggregate"},
		{Value: designer.ItemCollection, Label: "Item collection"},
		{Value: designer.SeparateTables, Label: "Separate tables"},
	}
	consolidationOptions = []templates.Option{{Value: "", Label: "—"}, {Value: designer.Consolidate, Label: "✅ Consolidate"}, {Value: designer.Separate, Label: "❌ Separate"}}
	considerationFields  = []struct{ field, label string }{
		{"hot_partitions", "Hot partition concerns"},
		{"gsi_projections", "GSI projections"},
		{"sparse_gsis", "Sparse GSI opportunities"},
		{"item_collections", "Item collection opportunities"},
		{"multi_entity_queries", "Multi-entity query patterns"},
		{"denormalization", "Denormalization ideas"},
	}
)

func suggestionText(decision string, opts []templates.Option) string {
	if decision == "" {
		return "Not enough figures yet"
	}
	return optionLabel(opts, decision)
}

func aggregateCard(d *designContext, a designer.AggregateAnalysis, bad *cellError) templates.AggregateCard {
	cardID := elemID("agg", a.ID)
	cell := func(field, label, value, kind string, opts []templates.Option) templates.LabeledCell {
		c := templates.Cell{ID: elemID("aggf", a.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/aggregates/field",
			Vals: vals("id", a.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
		if opts != nil {
			c.Shown = optionLabel(opts, value)
		}
		return templates.LabeledCell{Label: label, Cell: bad.apply(c)}
	}
	sug := rules.SuggestAggregate(a)
	card := templates.AggregateCard{
		ID:    cardID,
		Title: a.EntityA + " + " + a.EntityB,
		Cells: []templates.LabeledCell{
			cell("correlation_pct", "Access correlation %", formatFloat(a.CorrelationPct), "number", nil),
			cell("only_a_pct", a.EntityA+" only %", formatFloat(a.OnlyAPct), "number", nil),
			cell("only_b_pct", a.EntityB+" only %", formatFloat(a.OnlyBPct), "number", nil),
			cell("both_pct", "Both together %", formatFloat(a.BothPct), "number", nil),
			cell("combined_kb", "Combined size (KB)", formatFloat(a.CombinedKB), "number", nil),
			cell("bounded", "Bounded growth", formatTri(a.Bounded), "select", triOptions),
			cell("size_constraints", "Size constraints", a.Size, "text", nil),
			cell("update_patterns", "Update patterns", a.Updates, "text", nil),
		},
		Identifying: []templates.LabeledCell{
			cell("child_independent", "Can "+a.EntityB+" exist without "+a.EntityA+"?", formatTri(a.Identifying.ChildIndependent), "select", triOptions),
			cell("parent_id_known", "Is the "+a.EntityA+" id always known when reading "+a.EntityB+"?", formatTri(a.Identifying.ParentIDKnown), "select", triOptions),
			cell("separate_table_planned", "Is a separate table with a GSI planned?", formatTri(a.Identifying.SeparateTablePlanned), "select", triOptions),
		},
		Decision:   cell("decision", "Team decision", a.Decision, "select", decisionOptions),
		Justify:    cell("justification", "Justification", a.Justification, "textarea", nil),
		Suggestion: suggestionText(sug.Decision, decisionOptions),
		Reason:     sug.Reason,
		Agrees:     sug.Decision != "" && sug.Decision == a.Decision,
		Delete: templates.Button{Label: "Delete the " + a.EntityA + " + " + a.EntityB + " analysis", Text: "Delete",
			Action: "/d/" + d.Token + "/aggregates/delete", Params: []templates.Param{{Name: "id", Value: a.ID}},
			Target: "#aggregate-list", Class: "danger", Confirm: "Delete this analysis? History keeps it."},
	}
	card.Justify.Cell.Class = "w-full"
	return card
}

func consolidationRow(d *designContext, r designer.ConsolidationReview, entities []templates.Option, bad *cellError) templates.ConsolidationRow {
	cell := func(field, label, value, kind string, opts []templates.Option) templates.Cell {
		c := templates.Cell{ID: elemID("consf", r.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/consolidations/field",
			Vals: vals("id", r.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
		if opts != nil {
			c.Shown = optionLabel(opts, value)
		}
		return bad.apply(c)
	}
	sug := rules.SuggestConsolidation(r)
	row := templates.ConsolidationRow{
		RowID: elemID("cons", r.ID),
		Cells: []templates.Cell{
			cell("parent", "Parent", r.Parent, "select", entities),
			cell("child", "Child", r.Child, "select", entities),
			cell("relationship", "Relationship", r.Relationship, "text", nil),
			cell("overlap_pct", "Access overlap %", formatFloat(r.OverlapPct), "number", nil),
			cell("bounded", "Bounded", formatTri(r.Bounded), "select", triOptions),
			cell("identifying", "Identifying", formatTri(r.Identifying), "select", triOptions),
			cell("decision", "Decision", r.Decision, "select", consolidationOptions),
			cell("justification", "Justification", r.Justification, "text", nil),
		},
		Suggestion: suggestionText(sug.Decision, consolidationOptions),
		Reason:     sug.Reason,
		Agrees:     sug.Decision != "" && sug.Decision == r.Decision,
		Delete: templates.Button{Label: "Delete the " + r.Parent + " / " + r.Child + " review", Text: "✕",
			Action: "/d/" + d.Token + "/consolidations/delete", Params: []templates.Param{{Name: "id", Value: r.ID}},
			Target: "#consolidation", Class: "danger"},
	}
	row.Cells[3].Class = "w-num"
	return row
}

func (s *Server) aggregatesModel(c echo.Context, bad *cellError) (templates.Aggregates, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "aggregates")
	if err != nil {
		return templates.Aggregates{}, err
	}
	base := "/d/" + d.Token
	a := templates.Aggregates{Workspace: w, AddAggregate: base + "/aggregates/add", AddConsolidation: base + "/consolidations/add"}
	design := d.Record.Design
	for _, e := range design.Entities {
		a.Entities = append(a.Entities, templates.Option{Value: e.Name, Label: e.Name})
	}
	for _, ag := range design.Aggregates {
		a.Cards = append(a.Cards, aggregateCard(d, ag, bad))
	}
	for _, r := range design.Consolidations {
		a.Consolidations = append(a.Consolidations, consolidationRow(d, r, a.Entities, bad))
	}
	for _, f := range considerationFields {
		a.Considerations = append(a.Considerations, considerationField(d, f.field, f.label, design.Considerations.Field(f.field), "", false))
	}
	return a, nil
}

func considerationField(d *designContext, field, label, value, errMsg string, saved bool) templates.Field {
	return templates.Field{ID: "consideration-" + field, Name: "value", Label: label, Value: value, Multiline: true,
		Action: "/d/" + d.Token + "/considerations/" + field, Error: errMsg, Saved: saved, CanEdit: d.canEdit()}
}

func (s *Server) aggregatesPage(c echo.Context) error {
	a, err := s.aggregatesModel(c, nil)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.AggregatesView(a))
}

// aggregatesAnswer applies a change and answers with the part of the step it touched.
func (s *Server) aggregatesAnswer(c echo.Context, change designer.Change, part func(templates.Aggregates) templ.Component, bad *cellError) error {
	err := s.edit(c, change)
	status := http.StatusOK
	if r, refused := refusal(err); refused && bad != nil {
		status, bad.message = r.Status, r.Message
	} else if err != nil {
		return err
	} else {
		bad = nil
	}
	a, err := s.aggregatesModel(c, bad)
	if err != nil {
		return err
	}
	return respond(c, status, "aggregates", part(a))
}

func (s *Server) addAggregate(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.aggregatesAnswer(c, designer.AddAggregate{EntityA: form.get("entity_a"), EntityB: form.get("entity_b")}, aggregateListPart, nil)
}

// saveAggregateField saves one figure and answers with its cell and, out of band, the suggestion
// those figures now give.
func (s *Server) saveAggregateField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	cellID := elemID("aggf", id, field)
	part := func(a templates.Aggregates) templ.Component {
		for _, card := range a.Cards {
			for _, lc := range append(append(card.Cells, card.Identifying...), card.Decision, card.Justify) {
				if lc.Cell.ID == cellID {
					return templ.Join(templates.CellView(lc.Cell), templates.AggregateSuggestion(card, true))
				}
			}
		}
		return templates.AggregateList(a)
	}
	return s.aggregatesAnswer(c, designer.SetAggregateField{ID: id, Field: field, Value: value}, part, &cellError{cell: cellID, value: value})
}

func (s *Server) deleteAggregate(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.aggregatesAnswer(c, designer.DeleteAggregate{ID: form.get("id")}, aggregateListPart, nil)
}

func (s *Server) addConsolidation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.aggregatesAnswer(c, designer.AddConsolidation{Parent: form.get("parent"), Child: form.get("child")}, consolidationPart, nil)
}

func (s *Server) saveConsolidationField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	cellID := elemID("consf", id, field)
	part := func(a templates.Aggregates) templ.Component {
		for _, row := range a.Consolidations {
			if cell, ok := findCell(row.Cells, cellID); ok {
				return templ.Join(templates.CellView(cell), templates.ConsolidationSuggestion(row, true))
			}
		}
		return templates.ConsolidationSection(a)
	}
	return s.aggregatesAnswer(c, designer.SetConsolidationField{ID: id, Field: field, Value: value}, part, &cellError{cell: cellID, value: value})
}

func (s *Server) deleteConsolidation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.aggregatesAnswer(c, designer.DeleteConsolidation{ID: form.get("id")}, consolidationPart, nil)
}

func aggregateListPart(a templates.Aggregates) templ.Component { return templates.AggregateList(a) }
func consolidationPart(a templates.Aggregates) templ.Component {
	return templates.ConsolidationSection(a)
}

func (s *Server) saveConsideration(c echo.Context) error {
	field := c.Param("field")
	i := slices.IndexFunc(considerationFields, func(f struct{ field, label string }) bool { return f.field == field })
	if i < 0 {
		return echo.ErrNotFound
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	value := form.get("value")
	d := designFrom(c)
	err = s.edit(c, designer.SetConsideration{Field: field, Value: value})
	if r, refused := refusal(err); refused {
		return respond(c, r.Status, "aggregates", templates.FieldView(considerationField(d, field, considerationFields[i].label, value, r.Message, false)))
	} else if err != nil {
		return err
	}
	saved := d.Record.Design.Considerations.Field(field)
	return respond(c, http.StatusOK, "aggregates", templates.FieldView(considerationField(d, field, considerationFields[i].label, saved, "", true)))
}
