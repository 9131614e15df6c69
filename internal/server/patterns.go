package server

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// patternColumn is one editable column of the access-patterns table: a field of
// designer.PatternFields and how the table shows it.
type patternColumn struct {
	designer.Field[designer.Pattern]
	kind, class string
	options     []templates.Option
}

var (
	typeOptions        = []templates.Option{{Value: "", Label: "—"}, {Value: designer.Read, Label: "Read"}, {Value: designer.Write, Label: "Write"}}
	consistencyOptions = []templates.Option{{Value: "", Label: "—"}, {Value: designer.Strong, Label: "Strong"}, {Value: designer.Eventual, Label: "Eventual"}}
	// Words only: the seed's ✅ ⏳ ❌ ⚠️ need an emoji font that projectors' machines often lack.
	statusOptions = []templates.Option{
		{Value: designer.StatusOpen, Label: "Open"},
		{Value: designer.StatusSolved, Label: "Solved"},
		{Value: designer.StatusAtRisk, Label: "At risk"},
		{Value: designer.StatusOutside, Label: "Outside DynamoDB"},
	}
)

// patternColumns are the columns of the access-patterns table, in its order: the ones a room
// reads first (number, description, rates, type, entities, status) fit a projector's 1280 pixels.
var patternColumns = []patternColumn{
	{designer.PatternField.Number, "number", "w-num", nil},
	{designer.PatternField.Description, "textarea", "w-xl", nil},
	{designer.PatternField.PeakRPS, "number", "w-rps", nil},
	{designer.PatternField.AvgRPS, "number", "w-rps", nil},
	{designer.PatternField.Type, "select", "w-sm", typeOptions},
	{designer.PatternField.Entities, "text", "w-md", nil},
	{designer.PatternField.Status, "select", "w-md", statusOptions},
	{designer.PatternField.ConditionalFailurePct, "number", "w-rps", nil},
	{designer.PatternField.Attributes, "text", "w-lg", nil},
	{designer.PatternField.LatencySLO, "text", "w-sm", nil},
	{designer.PatternField.Consistency, "select", "w-sm", consistencyOptions},
	{designer.PatternField.ResultBound, "text", "w-sm", nil},
	{designer.PatternField.ItemSizeBand, "text", "w-sm", nil},
	{designer.PatternField.KeyNotes, "text", "w-md", nil},
	{designer.PatternField.Considerations, "text", "w-lg", nil},
}

// failureHint says what the failed-conditions column counts.
const failureHint = "Writes only: attempts that fail their condition per 100 that succeed; DynamoDB bills each failed attempt as a write"

// patternColumnHints are the columns' hints, by column.
func patternColumnHints() []string {
	hints := make([]string, len(patternColumns)+1)
	for i, col := range patternColumns {
		if col.Key == designer.PatternField.ConditionalFailurePct.Key {
			hints[i] = failureHint
		}
	}
	return hints
}

func patternColumnLabels() []string {
	labels := make([]string, 0, len(patternColumns)+1)
	for _, col := range patternColumns {
		labels = append(labels, col.Heading())
	}
	return labels
}

// patternHeadings are the columns' headings, shared by every row.
var patternHeadings = patternColumnLabels()

// patternCell is the cell of one column of a pattern's row.
func patternCell(d *designContext, p designer.Pattern, col patternColumn) templates.Cell {
	cell := templates.Cell{
		ID: patternCellID(p.ID, col.Key), Label: "Pattern " + itoa(p.Number) + " " + strings.ToLower(col.Heading()),
		Value: col.Get(p), Action: "/d/" + d.Token + "/patterns/field", Vals: vals("id", p.ID, "field", col.Key),
		Kind: col.kind, Options: col.options, Class: col.class, CanEdit: d.canEdit(),
	}
	if col.options != nil {
		cell.Shown = optionLabel(col.options, cell.Value)
	}
	if col.Key == designer.PatternField.ConditionalFailurePct.Key {
		// Only a write has a condition that fails and is billed: a read's cell shows a dash.
		cell.Hint = failureHint
		if p.Type != designer.Write {
			cell.CanEdit, cell.Shown, cell.Class = false, "—", cell.Class+" not-applicable"
		}
		if !cell.CanEdit {
			// The id of an editable cell's outer element, so a change of type morphs one into
			// the other.
			cell.ID += "-cell"
		}
	}
	return cell
}

// failureCellOf is the failed-conditions cell of a pattern, out of band: a change of the pattern's
// type makes it editable or not.
func failureCellOf(d *designContext, p designer.Pattern) templates.Cell {
	i := slices.IndexFunc(patternColumns, func(col patternColumn) bool { return col.Key == designer.PatternField.ConditionalFailurePct.Key })
	cell := patternCell(d, p, patternColumns[i])
	cell.OOB = true
	return cell
}

func patternRow(d *designContext, p designer.Pattern, index, count int, focus string) templates.PatternRow {
	rowID := elemID("row", p.ID)
	r := templates.PatternRow{Headings: patternHeadings, RowID: rowID, Number: itoa(p.Number), CanEdit: d.canEdit(),
		Section:  string(designer.PatternPath(p.ID, "")),
		Comments: commentBadge(d, designer.PatternTarget(p.ID))}
	for _, col := range patternColumns {
		cell := patternCell(d, p, col)
		cell.Autofocus = focus == col.Key
		r.Cells = append(r.Cells, cell)
	}
	base := "/d/" + d.Token + "/patterns"
	id := templates.Param{Name: "id", Value: p.ID}
	if index > 0 {
		r.Buttons = append(r.Buttons, templates.Button{Label: "Move pattern " + itoa(p.Number) + " up", Text: "↑", Action: base + "/move",
			Params: []templates.Param{id, {Name: "to", Value: itoa(index - 1)}}, Target: "#patterns"})
	}
	if index < count-1 {
		r.Buttons = append(r.Buttons, templates.Button{Label: "Move pattern " + itoa(p.Number) + " down", Text: "↓", Action: base + "/move",
			Params: []templates.Param{id, {Name: "to", Value: itoa(index + 1)}}, Target: "#patterns"})
	}
	r.Buttons = append(r.Buttons, templates.Button{Label: "Delete pattern " + itoa(p.Number), Text: "✕", Action: base + "/delete",
		Params: []templates.Param{id}, Target: "#patterns", Class: "danger", Confirm: "Delete pattern " + itoa(p.Number) + "? History keeps it.",
		TestID: "delete-pattern"})
	return r
}

func (s *Server) patternsModel(c echo.Context, focusID string) (templates.Patterns, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "patterns")
	if err != nil {
		return templates.Patterns{}, err
	}
	// The last column holds the comment button, and for editors the row's buttons.
	p := templates.Patterns{Workspace: w, Columns: append(patternColumnLabels(), ""), ColumnHints: patternColumnHints(), Bulk: bulkBox(d, "patterns")}
	pats := d.Record.Design.Patterns
	spot := patternsSpot(c, focusID, pats)
	first, last, pager := spot.page(patternsPageParam, len(pats), "#patterns", "patterns")
	p.Pager = pager
	inOrder := true
	for i, pt := range pats {
		if pt.Number != i+1 {
			inOrder = false
		}
		if i < first || i >= last {
			continue
		}
		focus := ""
		if pt.ID == focusID {
			focus = designer.PatternField.Description.Key
		}
		p.Rows = append(p.Rows, patternRow(d, pt, i, len(pats), focus))
	}
	base := "/d/" + d.Token + "/patterns"
	p.Add = templates.Button{Label: "Add an access pattern", Text: "+ Add pattern", Action: base + "/add", Target: "#patterns",
		Class: "primary", TestID: "add-pattern"}
	if !inOrder {
		p.Renumber = &templates.Button{Label: "Renumber the patterns 1, 2, 3… in table order", Text: "Renumber 1…n",
			Action: base + "/renumber", Target: "#patterns", Confirm: "Renumber every pattern in table order? References to pattern numbers follow.",
			TestID: "renumber-patterns"}
	}
	return p, nil
}

// patternsSpot is the page of the patterns a request shows: the page it names, or, for an answer
// that focuses a pattern (one just added), the page holding that pattern, whose address the
// browser then shows.
func patternsSpot(c echo.Context, focusID string, pats []designer.Pattern) listSpot {
	spot := listSpotOf(c, "patterns")
	at := slices.IndexFunc(pats, func(p designer.Pattern) bool { return p.ID == focusID })
	if at < 0 || len(pats) <= patternsPerPage {
		return spot
	}
	page := at/patternsPerPage + 1
	if spot.q.Get(patternsPageParam) != itoa(page) {
		spot.q = maps.Clone(spot.q)
		spot.q.Set(patternsPageParam, itoa(page))
		c.Response().Header().Set("HX-Replace-Url", spot.href(patternsPageParam, page))
	}
	return spot
}

// patternOnPage says whether the patterns page the request shows holds pattern id.
func patternOnPage(c echo.Context, pats []designer.Pattern, id string) bool {
	first, last, _ := listSpotOf(c, "patterns").page(patternsPageParam, len(pats), "#patterns", "patterns")
	at := slices.IndexFunc(pats, func(p designer.Pattern) bool { return p.ID == id })
	return at >= first && at < last
}

func (s *Server) patternsPage(c echo.Context) error {
	p, err := s.patternsModel(c, "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.PatternsView(p))
}

// patternsTable is the answer to an add, move, delete or renumber: the whole table, with the focus
// on the description of the pattern focusID, if any.
func (s *Server) patternsTable(c echo.Context, focusID string) (templ.Component, error) {
	p, err := s.patternsModel(c, focusID)
	if err != nil {
		return nil, err
	}
	return templates.PatternsTable(p), nil
}

// savePatternField saves one cell and answers with that cell only, so saves of neighbouring cells
// in flight at the same time never overwrite each other.
func (s *Server) savePatternField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, field, value := form.get("id"), form.get("field"), form.get("value")
	return s.apply(c, stepHref(designFrom(c), "patterns"), designer.SetPatternField{ID: id, Field: field, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			p, _, ok := d.Record.Design.PatternByID(id)
			if !ok {
				return nil, badInput("id: no access pattern %q; it may have been deleted", id)
			}
			i := slices.IndexFunc(patternColumns, func(col patternColumn) bool { return col.Key == field })
			if i < 0 {
				return nil, badInput("field: access patterns have no field %q", field)
			}
			cell := templates.CellView(withRefusal(patternCell(d, p, patternColumns[i]), r, value))
			if r != nil {
				return cell, nil
			}
			if field != designer.PatternField.Type.Key {
				return cell, nil
			}
			return templ.Join(cell, templates.CellView(failureCellOf(d, p))), nil
		})
}

func (s *Server) addPattern(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	before := designFrom(c).Record.Design.Patterns
	return s.apply(c, stepHref(designFrom(c), "patterns"), designer.AddPattern{After: form.get("after")}, savedPart(func(d *designContext) (templ.Component, error) {
		added := ""
		for _, p := range d.Record.Design.Patterns {
			if !slices.ContainsFunc(before, func(q designer.Pattern) bool { return q.ID == p.ID }) {
				added = p.ID
			}
		}
		return s.patternsTable(c, added)
	}))
}

// patternsAnswer applies a change that reorders or removes patterns and answers with the table.
func (s *Server) patternsAnswer(c echo.Context, change designer.Change) error {
	return s.apply(c, stepHref(designFrom(c), "patterns"), change, savedPart(func(*designContext) (templ.Component, error) {
		return s.patternsTable(c, "")
	}))
}

func (s *Server) movePattern(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	to, err := form.int("to")
	if err != nil {
		return err
	}
	return s.patternsAnswer(c, designer.MovePattern{ID: form.get("id"), To: to})
}

func (s *Server) deletePattern(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.patternsAnswer(c, designer.DeletePattern{ID: form.get("id")})
}

func (s *Server) renumberPatterns(c echo.Context) error {
	return s.patternsAnswer(c, designer.RenumberPatterns{})
}
