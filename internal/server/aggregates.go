package server

import (
	"net/http"
	"slices"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/reqmd"
	"dynaloom/internal/designer/rules"
	"dynaloom/web/templates"
)

func suggestionText(decision string, opts []templates.Option) string {
	if decision == "" {
		return "Not enough figures yet"
	}
	return optionLabel(opts, decision)
}

func aggregateCard(d *designContext, a designer.AggregateAnalysis) templates.AggregateCard {
	cardID := elemID("agg", a.ID)
	cell := func(f designer.Field[designer.AggregateAnalysis]) templates.LabeledCell {
		lc, _ := aggregateCell(d, a, f.Key)
		return lc
	}
	cells := func(fields ...designer.Field[designer.AggregateAnalysis]) []templates.LabeledCell {
		out := make([]templates.LabeledCell, len(fields))
		for i, f := range fields {
			out[i] = cell(f)
		}
		return out
	}
	af := designer.AggregateField
	sug := rules.SuggestAggregate(a)
	card := templates.AggregateCard{
		ID:      cardID,
		Section: string(designer.AggregatePath(a.ID, "")),
		Title:   a.EntityA + " + " + a.EntityB,
		Cells: cells(af.CorrelationPct, af.OnlyAPct, af.OnlyBPct, af.BothPct, af.CombinedKB, af.Bounded,
			af.SizeConstraints, af.UpdatePatterns),
		Identifying: cells(af.ChildIndependent, af.ParentIDKnown, af.SeparateTablePlanned),
		Decision:    cell(af.Decision),
		Justify:     cell(af.Justification),
		Suggestion:  suggestionText(sug.Decision, decisionOptions),
		Reason:      sug.Reason,
		Agrees:      sug.Decision != "" && sug.Decision == a.Decision,
		Delete: templates.Button{Label: "Delete the " + a.EntityA + " + " + a.EntityB + " analysis", Text: "Delete",
			Action: "/d/" + d.Token + "/aggregates/delete", Params: []templates.Param{{Name: "id", Value: a.ID}},
			Target: "#aggregate-list", Class: "danger", Confirm: "Delete this analysis? History keeps it."},
		Scaffold: scaffoldOffer(d, a),
	}
	return card
}

func consolidationRow(d *designContext, r designer.ConsolidationReview, entities []templates.Option) templates.ConsolidationRow {
	cells := make([]templates.Cell, len(designer.ConsolidationFields))
	for i, f := range designer.ConsolidationFields {
		cells[i], _ = consolidationCell(d, r, entities, f.Key)
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
	a := templates.Aggregates{Workspace: w, AddAggregate: base + "/aggregates/add", AddConsolidation: base + "/consolidations/add",
		Paste: templates.AggregatePaste{Action: base + "/aggregates/paste"}}
	design := d.Record.Design
	a.Entities = entityOptions(design)
	if n := len(designer.RelatedPairs(design)); n > 0 {
		a.Related = templates.Button{Text: "Analyse " + counted(n, "related pair", "related pairs"),
			Label:  "Add an analysis of each pair a relationship joins, filled in from the design",
			Action: base + "/aggregates/related", Target: "#aggregate-list"}
	}
	for _, ag := range design.Aggregates {
		a.Cards = append(a.Cards, aggregateCard(d, ag))
	}
	for _, r := range design.Consolidations {
		a.Consolidations = append(a.Consolidations, consolidationRow(d, r, a.Entities))
	}
	for _, f := range designer.ConsiderationFields {
		a.Considerations = append(a.Considerations, considerationField(d, f, f.Get(design.Considerations), "", false))
	}
	return a, nil
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

// addAggregate adds an analysis of the pair picked, filled in with what the design already says
// of it.
func (s *Server) addAggregate(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	a, b := form.get("entity_a"), form.get("entity_b")
	fill, _ := designer.AggregateFill(designFrom(c).Record.Design, a, b)
	return s.apply(c, aggregatesBack(c), designer.AddAggregate{EntityA: a, EntityB: b, Fill: fill}, s.aggregateList(c))
}

// analyseRelated adds an analysis of every pair a relationship joins, in one change.
func (s *Server) analyseRelated(c echo.Context) error {
	return s.apply(c, aggregatesBack(c), designer.FillAggregates{Pairs: designer.RelatedPairs(designFrom(c).Record.Design)}, s.aggregateList(c))
}

// pasteAggregates reads a pasted aggregate section of the requirement template into the analyses
// it names: new pairs are added, and those there gain what they lack (or, with replace, what
// the paste gives). The answer is the list, with the paste box saying what was read or why not.
func (s *Server) pasteAggregates(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	text := form.get("text")
	pairs, notes, err := reqmd.PastedAggregates(text, designFrom(c).Record.Design, "", "")
	answer := func(d *designContext, r *refused) (templ.Component, error) {
		a, err := s.aggregatesModel(c)
		if err != nil {
			return nil, err
		}
		a.Paste.Open = true
		if r != nil {
			a.Paste.Text, a.Paste.Error = text, r.Message
			return templates.AggregateList(a), nil
		}
		names := make([]string, len(pairs))
		for i, p := range pairs {
			names[i] = p.EntityA + " + " + p.EntityB + " (" + counted(len(p.Fill), "field", "fields") + ")"
		}
		a.Paste.Done = "Read " + designer.ListAnd(names) + "."
		for _, n := range notes {
			a.Paste.Notes = append(a.Paste.Notes, n.Message)
		}
		return templates.AggregateList(a), nil
	}
	if err != nil {
		return s.answer(c, aggregatesBack(c), err, answer)
	}
	return s.apply(c, aggregatesBack(c), designer.FillAggregates{Pairs: pairs, Replace: form.get("replace") != ""}, answer)
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
					card := aggregateCard(d, a)
					card.Scaffold.OOB = true
					return templ.Join(templates.CellView(withRefusal(lc.Cell, r, value)), templates.AggregateSuggestion(card, true),
						templates.ScaffoldOfferView(card.Scaffold)), nil
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
	f, ok := designer.FieldNamed(designer.ConsiderationFields, c.Param("field"))
	if !ok {
		return echo.ErrNotFound
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	value := form.get("value")
	return s.apply(c, aggregatesBack(c), designer.SetConsideration{Field: f.Key, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			if r != nil {
				return templates.FieldView(considerationField(d, f, value, r.Message, false)), nil
			}
			return templates.FieldView(considerationField(d, f, f.Get(d.Record.Design.Considerations), "", true)), nil
		})
}
