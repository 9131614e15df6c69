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

// aggregateCell is the cell of one field of an aggregate analysis, by the field's name; ok is false
// for a name no field has.
func aggregateCell(d *designContext, a designer.AggregateAnalysis, field string) (lc templates.LabeledCell, ok bool) {
	var label, value, kind string
	var opts []templates.Option
	switch field {
	case "correlation_pct":
		label, value, kind = "Access correlation %", formatFloat(a.CorrelationPct), "number"
	case "only_a_pct":
		label, value, kind = a.EntityA+" only %", formatFloat(a.OnlyAPct), "number"
	case "only_b_pct":
		label, value, kind = a.EntityB+" only %", formatFloat(a.OnlyBPct), "number"
	case "both_pct":
		label, value, kind = "Both together %", formatFloat(a.BothPct), "number"
	case "combined_kb":
		label, value, kind = "Combined size (KB)", formatFloat(a.CombinedKB), "number"
	case "bounded":
		label, value, kind, opts = "Bounded growth", formatTri(a.Bounded), "select", triOptions
	case "size_constraints":
		label, value, kind = "Size constraints", a.Size, "text"
	case "update_patterns":
		label, value, kind = "Update patterns", a.Updates, "text"
	case "child_independent":
		label, value, kind, opts = "Can "+a.EntityB+" exist without "+a.EntityA+"?", formatTri(a.Identifying.ChildIndependent), "select", triOptions
	case "parent_id_known":
		label, value, kind, opts = "Is the "+a.EntityA+" id always known when reading "+a.EntityB+"?", formatTri(a.Identifying.ParentIDKnown), "select", triOptions
	case "separate_table_planned":
		label, value, kind, opts = "Is a separate table with a GSI planned?", formatTri(a.Identifying.SeparateTablePlanned), "select", triOptions
	case "decision":
		label, value, kind, opts = "Team decision", a.Decision, "select", decisionOptions
	case "justification":
		label, value, kind = "Justification", a.Justification, "textarea"
	default:
		return templates.LabeledCell{}, false
	}
	c := templates.Cell{ID: elemID("aggf", a.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/aggregates/field",
		Vals: vals("id", a.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	if field == "justification" {
		c.Class = "w-full"
	}
	return templates.LabeledCell{Label: label, Cell: c}, true
}

func aggregateCard(d *designContext, a designer.AggregateAnalysis) templates.AggregateCard {
	cardID := elemID("agg", a.ID)
	cell := func(field string) templates.LabeledCell {
		lc, _ := aggregateCell(d, a, field)
		return lc
	}
	cells := func(fields ...string) []templates.LabeledCell {
		out := make([]templates.LabeledCell, len(fields))
		for i, f := range fields {
			out[i] = cell(f)
		}
		return out
	}
	sug := rules.SuggestAggregate(a)
	card := templates.AggregateCard{
		ID:    cardID,
		Title: a.EntityA + " + " + a.EntityB,
		Cells: cells("correlation_pct", "only_a_pct", "only_b_pct", "both_pct", "combined_kb", "bounded",
			"size_constraints", "update_patterns"),
		Identifying: cells("child_independent", "parent_id_known", "separate_table_planned"),
		Decision:    cell("decision"),
		Justify:     cell("justification"),
		Suggestion:  suggestionText(sug.Decision, decisionOptions),
		Reason:      sug.Reason,
		Agrees:      sug.Decision != "" && sug.Decision == a.Decision,
		Delete: templates.Button{Label: "Delete the " + a.EntityA + " + " + a.EntityB + " analysis", Text: "Delete",
			Action: "/d/" + d.Token + "/aggregates/delete", Params: []templates.Param{{Name: "id", Value: a.ID}},
			Target: "#aggregate-list", Class: "danger", Confirm: "Delete this analysis? History keeps it."},
	}
	return card
}

// consolidationCell is the cell of one field of a consolidation review, by the field's name; ok is
// false for a name no field has.
func consolidationCell(d *designContext, r designer.ConsolidationReview, entities []templates.Option, field string) (templates.Cell, bool) {
	var label, value, kind string
	var opts []templates.Option
	switch field {
	case "parent":
		label, value, kind, opts = "Parent", r.Parent, "select", entities
	case "child":
		label, value, kind, opts = "Child", r.Child, "select", entities
	case "relationship":
		label, value, kind = "Relationship", r.Relationship, "text"
	case "overlap_pct":
		label, value, kind = "Access overlap %", formatFloat(r.OverlapPct), "number"
	case "bounded":
		label, value, kind, opts = "Bounded", formatTri(r.Bounded), "select", triOptions
	case "identifying":
		label, value, kind, opts = "Identifying", formatTri(r.Identifying), "select", triOptions
	case "decision":
		label, value, kind, opts = "Decision", r.Decision, "select", consolidationOptions
	case "justification":
		label, value, kind = "Justification", r.Justification, "text"
	default:
		return templates.Cell{}, false
	}
	c := templates.Cell{ID: elemID("consf", r.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/consolidations/field",
		Vals: vals("id", r.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	if field == "overlap_pct" {
		c.Class = "w-num"
	}
	return c, true
}

// consolidationFields are the fields of a consolidation review, in the order its row shows them.
var consolidationFields = []string{"parent", "child", "relationship", "overlap_pct", "bounded", "identifying", "decision", "justification"}

func consolidationRow(d *designContext, r designer.ConsolidationReview, entities []templates.Option) templates.ConsolidationRow {
	cells := make([]templates.Cell, len(consolidationFields))
	for i, f := range consolidationFields {
		cells[i], _ = consolidationCell(d, r, entities, f)
	}
	sug := rules.SuggestConsolidation(r)
	row := templates.ConsolidationRow{
		RowID:      elemID("cons", r.ID),
		Cells:      cells,
		Suggestion: suggestionText(sug.Decision, consolidationOptions),
		Reason:     sug.Reason,
		Agrees:     sug.Decision != "" && sug.Decision == r.Decision,
		Delete: templates.Button{Label: "Delete the " + r.Parent + " / " + r.Child + " review", Text: "✕",
			Action: "/d/" + d.Token + "/consolidations/delete", Params: []templates.Param{{Name: "id", Value: r.ID}},
			Target: "#consolidation", Class: "danger"},
	}
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
				a := d.Record.Design.Aggregates[i]
				if lc, ok := aggregateCell(d, a, field); ok {
					return templ.Join(templates.CellView(withRefusal(lc.Cell, r, value)), templates.AggregateSuggestion(aggregateCard(d, a), true)), nil
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
				cr, entities := design.Consolidations[i], entityOptions(design)
				if cell, ok := consolidationCell(d, cr, entities, field); ok {
					return templ.Join(templates.CellView(withRefusal(cell, r, value)), templates.ConsolidationSuggestion(consolidationRow(d, cr, entities), true)), nil
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
