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

func aggregateCard(d *designContext, a designer.AggregateAnalysis) templates.AggregateCard {
	cardID := elemID("agg", a.ID)
	cell := func(field, label, value, kind string, opts []templates.Option) templates.LabeledCell {
		c := templates.Cell{ID: elemID("aggf", a.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/aggregates/field",
			Vals: vals("id", a.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
		if opts != nil {
			c.Shown = optionLabel(opts, value)
		}
		return templates.LabeledCell{Label: label, Cell: c}
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

func consolidationRow(d *designContext, r designer.ConsolidationReview, entities []templates.Option) templates.ConsolidationRow {
	cell := func(field, label, value, kind string, opts []templates.Option) templates.Cell {
		c := templates.Cell{ID: elemID("consf", r.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/consolidations/field",
			Vals: vals("id", r.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
		if opts != nil {
			c.Shown = optionLabel(opts, value)
		}
		return c
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

func (s *Server) aggregatesModel(c echo.Context) (templates.Aggregates, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "aggregates")
	if err != nil {
		return templates.Aggregates{}, err
	}
	base := "/d/" + d.Token
	a := templates.Aggregates{Workspace: w, AddAggregate: base + "/aggregates/add", AddConsolidation: base + "/consolidations/add"}
	design := d.Record.Design
	a.Entities = entityOptions(design)
	for _, ag := range design.Aggregates {
		a.Cards = append(a.Cards, aggregateCard(d, ag))
	}
	for _, r := range design.Consolidations {
		a.Consolidations = append(a.Consolidations, consolidationRow(d, r, a.Entities))
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
	a, err := s.aggregatesModel(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.AggregatesView(a))
}

// aggregatesBack is where a plain form post of the aggregates step goes back to.
func aggregatesBack(c echo.Context) string { return stepHref(designFrom(c), "aggregates") }

// aggregateList is the answer to an added or deleted analysis: the list of analyses.
func (s *Server) aggregateList(c echo.Context) part {
	return savedPart(func(*designContext) (templ.Component, error) {
		a, err := s.aggregatesModel(c)
		if err != nil {
			return nil, err
		}
		return templates.AggregateList(a), nil
	})
}

// consolidationSection is the answer to an added or deleted review: the consolidation section.
func (s *Server) consolidationSection(c echo.Context) part {
	return savedPart(func(*designContext) (templ.Component, error) {
		a, err := s.aggregatesModel(c)
		if err != nil {
			return nil, err
		}
		return templates.ConsolidationSection(a), nil
	})
}

func (s *Server) addAggregate(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, aggregatesBack(c), designer.AddAggregate{EntityA: form.get("entity_a"), EntityB: form.get("entity_b")}, s.aggregateList(c))
}

// saveAggregateField saves one figure and answers with its cell and, out of band, the suggestion
// those figures now give.
func (s *Server) saveAggregateField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	return s.apply(c, aggregatesBack(c), designer.SetAggregateField{ID: id, Field: field, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			i := slices.IndexFunc(d.Record.Design.Aggregates, func(a designer.AggregateAnalysis) bool { return a.ID == id })
			if i >= 0 {
				card := aggregateCard(d, d.Record.Design.Aggregates[i])
				for _, lc := range append(append(card.Cells, card.Identifying...), card.Decision, card.Justify) {
					if lc.Cell.ID == elemID("aggf", id, field) {
						return templ.Join(templates.CellView(withRefusal(lc.Cell, r, value)), templates.AggregateSuggestion(card, true)), nil
					}
				}
			}
			// No such analysis or figure: the list shows what there is.
			a, err := s.aggregatesModel(c)
			if err != nil {
				return nil, err
			}
			return templates.AggregateList(a), nil
		})
}

func (s *Server) deleteAggregate(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, aggregatesBack(c), designer.DeleteAggregate{ID: form.get("id")}, s.aggregateList(c))
}

func (s *Server) addConsolidation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, aggregatesBack(c), designer.AddConsolidation{Parent: form.get("parent"), Child: form.get("child")}, s.consolidationSection(c))
}

func (s *Server) saveConsolidationField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	return s.apply(c, aggregatesBack(c), designer.SetConsolidationField{ID: id, Field: field, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			design := d.Record.Design
			i := slices.IndexFunc(design.Consolidations, func(cr designer.ConsolidationReview) bool { return cr.ID == id })
			if i >= 0 {
				row := consolidationRow(d, design.Consolidations[i], entityOptions(design))
				for _, cell := range row.Cells {
					if cell.ID == elemID("consf", id, field) {
						return templ.Join(templates.CellView(withRefusal(cell, r, value)), templates.ConsolidationSuggestion(row, true)), nil
					}
				}
			}
			a, err := s.aggregatesModel(c)
			if err != nil {
				return nil, err
			}
			return templates.ConsolidationSection(a), nil
		})
}

func (s *Server) deleteConsolidation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, aggregatesBack(c), designer.DeleteConsolidation{ID: form.get("id")}, s.consolidationSection(c))
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
	return s.apply(c, aggregatesBack(c), designer.SetConsideration{Field: field, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			if r != nil {
				return templates.FieldView(considerationField(d, field, considerationFields[i].label, value, r.Message, false)), nil
			}
			saved := d.Record.Design.Considerations.Field(field)
			return templates.FieldView(considerationField(d, field, considerationFields[i].label, saved, "", true)), nil
		})
}
