package server

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// Surgical refreshes. A change event makes every other page ask for its step again, naming the
// revision it shows (sinceHeader). When each path changed since then is a part of that step drawn
// on its own — an overview field, a pattern's cell, an entity's card, a relationship's cell, an
// aggregate figure or a consolidation field with the suggestion it feeds, a design consideration,
// the design's name in the top bar — the answer is
// only those parts, each marked out of band for the page to morph in over the one with its id,
// with the side panel and HX-Reswap: none; otherwise it is the whole step, as for any visit. The
// parts are the components the step itself renders: there is one way to draw each.

// sinceHeader is the revision a refreshing page shows.
const sinceHeader = "X-Dynaloom-Since"

// fragmentsHeader marks an answer of parts (its value: how many) rather than the whole step.
const fragmentsHeader = "X-Dynaloom-Fragments"

// maxFragmentRevisions is how far behind a page may be and still get parts: past it, the step is
// drawn whole, which costs less than reading and mapping a long history.
const maxFragmentRevisions = 32

// patternPageParts: a pattern's cell shows on the page of patterns that holds it only.
func patternPageParts(c echo.Context, _ int64) stepParts {
	return func(d *designContext, path designer.Path) ([]fragment, bool) {
		parts, ok := patternParts(d, path)
		if ok && !patternOnPage(c, d.Record.Design.Patterns, path.Parts().Key) {
			return nil, true
		}
		return parts, ok
	}
}

// refreshParts answers a page's live refresh of st with the parts changed since the revision
// it shows, when that is possible, and otherwise lets the step draw itself (next). Either answer
// names the revision it shows (X-Dynaloom-Revision).
func (s *Server) refreshParts(st step) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			d := designFrom(c)
			c.Response().Header().Set("X-Dynaloom-Revision", strconv.FormatInt(d.Record.Revision, 10))
			raw := c.Request().Header.Get(sinceHeader)
			if raw == "" || !isHTMX(c) {
				return next(c)
			}
			since, err := strconv.ParseInt(raw, 10, 64)
			if err != nil || since < 1 || since > d.Record.Revision || d.Record.Revision-since > maxFragmentRevisions {
				return next(c)
			}
			parts, ok, err := s.changedParts(c, st, since)
			if err != nil {
				return err
			}
			if !ok {
				return next(c)
			}
			h := c.Response().Header()
			h.Set("HX-Reswap", "none")
			h.Set(fragmentsHeader, strconv.Itoa(len(parts)))
			all := make([]templ.Component, 0, len(parts)+1)
			for _, p := range parts {
				all = append(all, p.part)
			}
			return render(c, http.StatusOK, templ.Join(append(all, templates.AsideView(asideModel(d), true))...))
		}
	}
}

// changedParts is the parts of st showing what changed after revision since, each once, or
// false when some change is not such a part.
func (s *Server) changedParts(c echo.Context, st step, since int64) ([]fragment, bool, error) {
	d := designFrom(c)
	if st.parts == nil {
		return nil, false, nil
	}
	find := st.parts(c, since)
	revs, err := s.store.RevisionsAfter(c.Request().Context(), d.ID, since)
	if err != nil {
		return nil, false, err
	}
	var out []fragment
	for _, rev := range revs {
		if rev.Revision > d.Record.Revision {
			break // the page hears of it and asks again
		}
		if len(rev.Paths) == 0 {
			return nil, false, nil
		}
		for _, path := range rev.Paths {
			if !st.showsPath(path) {
				continue
			}
			if addsRows[rev.Kind] && !st.wholeLists {
				return nil, false, nil
			}
			parts, ok := find(d, path)
			if path == designer.PathName {
				// The top bar shows the name on every step.
				parts = append(parts, fragment{"design-title", templates.TitleOOB(d.Record.Design.Name)})
				ok = true
			}
			if !ok {
				return nil, false, nil
			}
			for _, p := range parts {
				if !slices.ContainsFunc(out, func(q fragment) bool { return q.id == p.id }) {
					out = append(out, p)
				}
			}
		}
	}
	return out, true, nil
}

// addsRows are the kinds of change that add rows under a row's own path (entities/Invoice): a page
// that did not have the row has no element for its part to replace, so the step is drawn whole,
// unless the step's part for such a path is the whole of what it shows of the list
// (step.wholeLists: the overview's offer of entities, the aggregate cards' scaffolds).
var addsRows = map[string]bool{
	designer.AddEntity{}.Kind():         true,
	designer.AddInBulk{}.Kind():         true,
	designer.ScaffoldAggregate{}.Kind(): true,
}

// patternParts: a field of a pattern is its cell; its comments are its comment button. A pattern's
// number, or a pattern added, moved or deleted, reshapes the table.
func patternParts(d *designContext, path designer.Path) ([]fragment, bool) {
	pp := path.Parts()
	if pp.Collection != designer.PathPatterns || pp.Key == "" || pp.Field == "" && !pp.Comments {
		return nil, false
	}
	p, _, found := d.Record.Design.PatternByID(pp.Key)
	if !found {
		return nil, false
	}
	if pp.Comments {
		b := commentBadge(d, designer.PatternTarget(pp.Key))
		return []fragment{{b.ID, templates.CommentBadgeView(b, true)}}, true
	}
	i := slices.IndexFunc(patternColumns, func(col patternColumn) bool { return col.Key == pp.Field })
	if i < 0 || pp.Sub != "" || pp.Field == designer.PatternField.Number.Key {
		return nil, false
	}
	parts, ok := oobCell(patternCell(d, p, patternColumns[i]), true)
	if pp.Field == designer.PatternField.Type.Key {
		// The type says whether the failed-conditions cell is editable.
		c := failureCellOf(d, p)
		parts = append(parts, fragment{c.ID, templates.CellView(c)})
	}
	return parts, ok
}

// overviewParts: the name and each overview field are their field; a view link has no name field.
func overviewParts(d *designContext, path designer.Path) ([]fragment, bool) {
	if path == designer.PathName {
		if !d.canEdit() {
			return nil, true // the page shows the name only in its title
		}
		f := nameField(d, d.Record.Design.Name, "", false)
		return oobField(f), true
	}
	offer := func() fragment {
		o := keyEntitiesOffer(d)
		o.OOB = true
		return fragment{"key-entities-offer", templates.KeyEntitiesOfferView(o)}
	}
	pp := path.Parts()
	switch pp.Collection {
	case designer.PathRelationships, designer.PathEntities:
		return []fragment{offer()}, true
	case designer.PathOverview:
	default:
		return nil, false
	}
	f, ok := designer.FieldNamed(designer.OverviewFields, pp.Field)
	if !ok {
		return nil, false
	}
	parts := oobField(overviewField(d, f, f.Get(d.Record.Design.Overview), "", false))
	if f.Key == designer.OverviewField.KeyEntities.Key {
		parts = append(parts, offer())
	}
	return parts, true
}

// oobField is a field as a part.
func oobField(f templates.Field) []fragment {
	f.OOB = true
	return []fragment{{f.ID, templates.FieldView(f)}}
}

// entityParts: anything within one entity (its description, its scale, its attributes) is its card, and a
// field of a relationship is its cell. A rename, or an entity or relationship added, moved or
// deleted, reshapes the step.
func entityParts(d *designContext, path designer.Path) ([]fragment, bool) {
	design := d.Record.Design
	pp := path.Parts(design)
	if pp.Key == "" {
		return nil, false
	}
	if pp.Collection == designer.PathRelationships {
		i := slices.IndexFunc(design.Relationships, func(r designer.Relationship) bool { return r.ID == pp.Key })
		if i < 0 {
			return nil, false
		}
		f, ok := designer.FieldOwning(designer.RelationshipFields, pp.Field)
		if !ok {
			return nil, false
		}
		return oobCell(relationshipCell(d, design.Relationships[i], entityOptions(design), f.Key))
	}
	_, scale := designer.FieldOwning(designer.EntityFields, pp.Field)
	if pp.Collection != designer.PathEntities || pp.Field != "" && !scale {
		return nil, false
	}
	card, found := entityCardOf(d, pp.Key)
	if !found {
		return nil, false
	}
	card.OOB = true
	return []fragment{{card.ID, templates.EntityCardView(card)}}, true
}

// aggregateParts: a figure of an aggregate analysis or a field of a consolidation review is its
// cell and the suggestion it feeds; a design consideration is its field.
func aggregateParts(d *designContext, path designer.Path) ([]fragment, bool) {
	design := d.Record.Design
	pp := path.Parts(design)
	switch pp.Collection {
	case designer.PathConsiderations:
		f, ok := designer.FieldNamed(designer.ConsiderationFields, pp.Field)
		if !ok {
			return nil, false
		}
		return oobField(considerationField(d, f, f.Get(design.Considerations), "", false)), true
	case designer.PathConsolidations:
		i := slices.IndexFunc(design.Consolidations, func(r designer.ConsolidationReview) bool { return r.ID == pp.Key })
		if pp.Key == "" || i < 0 {
			return nil, false
		}
		r, entities := design.Consolidations[i], entityOptions(design)
		parts, ok := oobCell(consolidationCell(d, r, entities, pp.Field))
		row := consolidationRow(d, r, entities)
		return append(parts, fragment{row.RowID + "-suggestion", templates.ConsolidationSuggestion(row, true)}), ok
	case designer.PathTables:
		// A table's items are nothing an aggregate shows; anything else of a table may change
		// what a decision's scaffold would add.
		if pp.Sub == designer.SubItems {
			return nil, true
		}
		var parts []fragment
		for _, a := range design.Aggregates {
			o := scaffoldOffer(d, a)
			o.OOB = true
			parts = append(parts, fragment{o.ID, templates.ScaffoldOfferView(o)})
		}
		return parts, true
	case designer.PathAggregates:
	default:
		return nil, false
	}
	i := slices.IndexFunc(design.Aggregates, func(a designer.AggregateAnalysis) bool { return a.ID == pp.Key })
	if pp.Key == "" || i < 0 {
		return nil, false
	}
	lc, ok := aggregateCell(d, design.Aggregates[i], pp.Field)
	parts, ok := oobCell(lc.Cell, ok)
	card := aggregateCard(d, design.Aggregates[i])
	card.Scaffold.OOB = true
	return append(parts, fragment{card.ID + "-suggestion", templates.AggregateSuggestion(card, true)},
		fragment{card.Scaffold.ID, templates.ScaffoldOfferView(card.Scaffold)}), ok
}

// oobCell is a cell as a part, when there is one.
func oobCell(cell templates.Cell, ok bool) ([]fragment, bool) {
	if !ok {
		return nil, false
	}
	cell.OOB = true
	return []fragment{{cell.ID, templates.CellView(cell)}}, true
}

// tableParts: a cell of an item other than its table key, seen on the table the page shows, is
// what the editor's own answer is — its cell when its row is on the page's page, its row's size,
// and those of the table's index grids, at the pages the page shows, that the change altered — as
// long as the grid's columns are still those the page drew (revision since, as the Set still
// holds it). On another table's tab
// nothing of it shows. A table's or an index's note is its cell. Anything else of a table (keys,
// rows added or deleted, indexes) redraws the step.
func tableParts(c echo.Context, since int64) stepParts {
	spot := spotFrom(c.Request().URL.Path, c.QueryParams())
	return func(d *designContext, path designer.Path) ([]fragment, bool) {
		design := d.Record.Design
		pp := path.Parts(design)
		switch {
		case pp.Collection == designer.PathPatterns && pp.Key != "":
			// The step shows a pattern in the model map only, which withDiagram sends when the
			// change redrew it, and in the side panel's findings, which go with every answer.
			return nil, true
		case pp.Collection != designer.PathTables || pp.Key == "" || pp.Sub == "" && pp.Field == "" && !pp.Comments:
			return nil, false
		}
		table := pp.Key
		shown := spot.table
		if shown == "" && len(design.Tables) > 0 {
			shown = design.Tables[0].Name
		}
		if f, ok := designer.FieldNamed(designer.TableFields, pp.Field); ok && f.Prose && pp.Sub == "" {
			// A table's note is its cell, and shows on its own tab only.
			t, _, found := design.TableByName(table)
			if table != shown || !found {
				return nil, found
			}
			return oobCell(tableFieldCell(d, t, shownTableField(f, "textarea", nil)).Cell, true)
		}
		if index, key := pp.SubKey, pp.Field; pp.Sub == designer.SubIndexes && index != "" && key != "" {
			// So is an index's note.
			f, ok := designer.FieldNamed(designer.IndexFields, key)
			t, _, found := design.TableByName(table)
			if !ok || !f.Prose || !found {
				return nil, false
			}
			ix, _, _, found := t.IndexByName(index)
			switch {
			case !found:
				return nil, false
			case table != shown:
				return nil, true
			}
			cell, ok := indexCell(d, t, ix, key)
			return oobCell(cell.Cell, ok)
		}
		id, attr := pp.SubKey, pp.Field
		if pp.Sub != designer.SubItems || id == "" || attr == "" && !pp.Comments {
			return nil, false
		}
		switch {
		case table != shown:
			// Nothing of another table's items, their comments included, shows on this tab.
			return nil, true
		case pp.Comments:
			return nil, false
		}
		t, _, found := design.TableByName(table)
		if !found || attr == t.PartitionKey.Name || t.SortKey != nil && attr == t.SortKey.Name {
			return nil, false
		}
		before, held := d.heldDesign(since)
		if !held {
			return nil, false
		}
		// A cell edit adds or removes at most its own attribute's column.
		was, _, found := before.TableByName(table)
		if !found || hasColumn(was, attr) != hasColumn(t, attr) || len(was.GSIs) != len(t.GSIs) || len(was.LSIs) != len(t.LSIs) {
			return nil, false
		}
		cell, size, found := itemCell(d, t, id, attr)
		if !found {
			return nil, false
		}
		// The index grids the page shows that the change left as they were are not sent again.
		// A page one revision behind, as a page in the room is, is told them from the two index
		// views, as the edit's own answer is; a page further behind compares the grids drawn.
		var parts []fragment
		told := false
		if since == d.Record.Revision-1 {
			parts, told = changedIndexGrids(d, t, id, spot)
		}
		if !told {
			then := *d
			then.Record.Design, then.Record.Revision = before, since
			drawn := indexGrids(&then, was, spot)
			for i, g := range indexGrids(d, t, spot) {
				if i >= len(drawn) || !reflect.DeepEqual(g, drawn[i]) {
					g.OOB = true
					parts = append(parts, fragment{g.ID, templates.IndexGridView(g)})
				}
			}
		}
		if onPage(d, t, spot, id) {
			cell.OOB = true
			parts = append(parts, fragment{cell.ID, templates.CellView(cell)}, fragment{elemID("size", t.Name, id), size})
		}
		return parts, true
	}
}

// mappingParts: a change of one pattern other than its number — its mapping's operations, notes
// or expected results, its description or status — is that pattern's card, open or collapsed as
// the page shows it (?open=), with its verdict. A pattern's operations read nothing of the others',
// so no other card changes. Anything else (items, tables, patterns added, moved or renumbered)
// redraws the step.
func mappingParts(c echo.Context, _ int64) stepParts {
	open := map[string]bool{}
	for _, id := range c.QueryParams()["open"] {
		open[id] = true
	}
	at := c.Request().URL.Path
	return func(d *designContext, path designer.Path) ([]fragment, bool) {
		pp := path.Parts()
		if pp.Collection != designer.PathPatterns || pp.Key == "" || pp.Comments ||
			pp.Sub == "" && (pp.Field == "" || pp.Field == designer.PatternField.Number.Key) {
			return nil, false
		}
		p, _, found := d.Record.Design.PatternByID(pp.Key)
		if !found {
			return nil, false
		}
		card := mappingCard(d, at, p, open[pp.Key])
		card.OOB = true
		return []fragment{{card.ID, templates.MappingCardView(card, d.canEdit())}}, true
	}
}
