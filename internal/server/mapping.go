package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"
)

var (
	operationOptions = func() []templates.Option {
		opts := make([]templates.Option, 0, len(designer.Operations))
		for _, op := range designer.Operations {
			opts = append(opts, templates.Option{Value: op, Label: op})
		}
		return opts
	}()
	directionOptions  = []templates.Option{{Value: "asc", Label: "Ascending"}, {Value: "desc", Label: "Descending"}}
	consistentOptions = []templates.Option{{Value: "no", Label: "Eventually consistent"}, {Value: "yes", Label: "Strongly consistent"}}
	actionLabels      = map[string]string{designer.ActionPut: "Put", designer.ActionUpdate: "Update",
		designer.ActionDelete: "Delete", designer.ActionConditionCheck: "Condition check"}
)

// writeVerbs says what a write did to its items, by the write RunOperation applied to each key.
var writeVerbs = map[string]string{"PutItem": "puts", "UpdateItem": "updates", "DeleteItem": "deletes", "ConditionCheck": "checks"}

// maxResultRows is how many candidate items a result box lists for marking.
const maxResultRows = 30

func (s *Server) mappingModel(c echo.Context) (templates.Mapping, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "mapping")
	if err != nil {
		return templates.Mapping{}, err
	}
	m := templates.Mapping{Workspace: w}
	for _, p := range d.Record.Design.Patterns {
		m.Cards = append(m.Cards, mappingCard(d, p, nil))
	}
	return m, nil
}

func mappingCard(d *designContext, p designer.Pattern, bad *cellError) templates.MappingCard {
	base := "/d/" + d.Token
	card := templates.MappingCard{
		ID: elemID("map", p.ID), Number: itoa(p.Number), Description: p.Description,
		Status: optionLabel(statusOptions, p.Status), StatusKind: p.Status, Source: p.Mapping.Source,
		Notes: bad.apply(templates.Cell{ID: elemID("mapnotes", p.ID), Label: "Pattern " + itoa(p.Number) + " implementation notes",
			Value: p.Mapping.Notes, Action: base + "/mapping/notes", Vals: vals("pattern", p.ID), Kind: "textarea", CanEdit: d.canEdit(), Class: "w-full"}),
		Add: templates.Button{Label: "Add an operation to pattern " + itoa(p.Number), Text: "+ Add operation", Action: base + "/mapping/add",
			Params: []templates.Param{{Name: "pattern", Value: p.ID}}, Target: "#" + elemID("map", p.ID), TestID: "add-operation"},
	}
	for i, op := range p.Mapping.Operations {
		card.Ops = append(card.Ops, operationView(d, p, i, op, bad))
	}
	return card
}

func operationView(d *designContext, p designer.Pattern, i int, op designer.Operation, bad *cellError) templates.OperationView {
	base := "/d/" + d.Token
	design := d.Record.Design
	cell := func(field, label, value, kind string, opts []templates.Option) templates.LabeledCell {
		c := templates.Cell{ID: elemID("opf", p.ID, itoa(i), field), Label: "Pattern " + itoa(p.Number) + " operation " + itoa(i+1) + " " + label,
			Value: value, Action: base + "/mapping/field", Vals: vals("pattern", p.ID, "index", itoa(i), "field", field),
			Kind: kind, Options: opts, CanEdit: d.canEdit()}
		if opts != nil {
			c.Shown = optionLabel(opts, value)
		}
		if field == "op" || field == "table" {
			// The answer to these is the whole card (setOperationField): it replaces the card.
			c.Target = "#" + elemID("map", p.ID)
		}
		return templates.LabeledCell{Label: label, Cell: bad.apply(c)}
	}
	tables := []templates.Option{{Value: "", Label: "—"}}
	for _, t := range design.Tables {
		tables = append(tables, templates.Option{Value: t.Name, Label: t.Name})
	}
	indexes := []templates.Option{{Value: "", Label: "(the table)"}}
	if t, ok := tableByName(design, op.Table); ok {
		for _, ix := range append(append([]designer.Index{}, t.GSIs...), t.LSIs...) {
			indexes = append(indexes, templates.Option{Value: ix.Name, Label: ix.Name})
		}
	}
	limit := ""
	if op.Limit != nil {
		limit = strconv.Itoa(*op.Limit)
	}
	direction, consistent := "asc", "no"
	if op.Descending {
		direction = "desc"
	}
	if op.Consistent {
		consistent = "yes"
	}
	v := templates.OperationView{
		ID: elemID("op", p.ID, itoa(i)),
		Cells: []templates.LabeledCell{
			cell("op", "Operation", op.Op, "select", operationOptions),
			cell("table", "Table", op.Table, "select", tables),
			cell("index", "Index", op.Index, "select", indexes),
			cell("key_condition", "Key condition", op.KeyCondition, "text", nil),
			cell("filter", "Filter", op.Filter, "text", nil),
			cell("projection", "Projection", op.Projection, "text", nil),
			cell("limit", "Limit", limit, "number", nil),
			cell("direction", "Direction", direction, "select", directionOptions),
			cell("consistent", "Consistency", consistent, "select", consistentOptions),
			cell("names", "Names (#n=name)", designer.FormatOperationNames(op), "text", nil),
			cell("values", "Values (:v=text)", designer.FormatOperationValues(op), "text", nil),
			cell("notes", "Notes", op.Notes, "text", nil),
		},
		Delete: templates.Button{Label: "Delete operation " + itoa(i+1) + " of pattern " + itoa(p.Number), Text: "Delete",
			Action: base + "/mapping/delete", Params: []templates.Param{{Name: "pattern", Value: p.ID}, {Name: "index", Value: itoa(i)}},
			Target: "#" + elemID("map", p.ID), Class: "danger"},
		Result: resultView(d, p, i, op),
	}
	if actions := designer.OperationActions(op.Op); len(actions) > 0 {
		// A batch or transaction row says what it does to its keys; only these rows have the cell.
		opts := []templates.Option{{Value: "", Label: "From the values (put, or delete without attributes)"}}
		for _, a := range actions {
			opts = append(opts, templates.Option{Value: a, Label: actionLabels[a]})
		}
		v.Cells = slices.Insert(v.Cells, 1, cell("action", "Action", op.Action, "select", opts))
	}
	return v
}

// resultView runs the operation against the sample items: derived on every render, never stored.
func resultView(d *designContext, p designer.Pattern, i int, op designer.Operation) templates.ResultView {
	base := "/d/" + d.Token
	design := d.Record.Design
	r := templates.ResultView{ID: elemID("result", p.ID, itoa(i))}
	t, ok := tableByName(design, op.Table)
	if !ok {
		r.Error = "Choose the table this operation reads."
		return r
	}
	// Which items come back does not depend on the projection, and the result box shows keys: run it
	// unprojected so a projection that leaves out a key still shows, and is judged on, its items.
	unprojected := op
	unprojected.Projection = ""
	res := dynamo.RunOperation(design, unprojected)
	if res.Error != "" {
		r.Error = res.Error
		return r
	}
	if designer.IsWriteOp(op.Op) {
		// A write is run on a scratch copy of the items: what it costs and what it does to indexes.
		r.Summary = fmt.Sprintf("%s %s · %s on %s", writeVerbs[res.Write], countNoun(res.Keys, "item"), unitsNoun(res.CapacityUnits, "write unit"), t.Name)
		for _, w := range res.IndexWrites {
			r.IndexWrites = append(r.IndexWrites, fmt.Sprintf("%s: %s · %s", w.Index, countNoun(w.Writes, "index write"), unitsNoun(w.Units, "write unit")))
		}
		return r
	}
	r.Summary = fmt.Sprintf("%d returned · %d read · %s", res.Count, res.ScannedCount, unitsNoun(res.CapacityUnits, "capacity unit"))
	if stated, pass := dynamo.Verdict(t, unprojected, res); stated {
		r.Verdict = "fail"
		if pass {
			r.Verdict = "pass"
		}
	}
	returned := make([]designer.Item, len(res.Items))
	for j, it := range res.Items {
		returned[j] = designer.TableKey(t, it)
	}
	var expected []designer.Item
	if op.Expected != nil {
		expected = *op.Expected
	}
	toggle := func(key designer.Item, on bool) templates.Button {
		raw, _ := json.Marshal(key) // an Item of valid values always encodes
		label, text := "Expect "+designer.KeyText(t, key), "Expect"
		if on {
			label, text = "Stop expecting "+designer.KeyText(t, key), "Expected ✓"
		}
		return templates.Button{Label: label, Text: text, Action: base + "/mapping/expected",
			Params: []templates.Param{{Name: "pattern", Value: p.ID}, {Name: "index", Value: itoa(i)}, {Name: "key", Value: string(raw)}},
			Target: "#" + r.ID, TestID: "toggle-expected"}
	}
	for _, row := range designer.TableRows(t) {
		key := designer.TableKey(t, row.Item)
		isReturned := containsKey(t, returned, key)
		isExpected := containsKey(t, expected, key)
		if len(r.Rows) >= maxResultRows && !isReturned && !isExpected {
			r.More++
			continue
		}
		r.Rows = append(r.Rows, templates.ResultRow{Key: designer.KeyText(t, key), Returned: isReturned, Expected: isExpected, Toggle: toggle(key, isExpected)})
	}
	if op.Expected != nil {
		r.Clear = &templates.Button{Label: "Clear the expected result", Text: "Clear expected", Action: base + "/mapping/expected/clear",
			Params: []templates.Param{{Name: "pattern", Value: p.ID}, {Name: "index", Value: itoa(i)}}, Target: "#" + r.ID}
	}
	return r
}

func containsKey(t designer.Table, keys []designer.Item, key designer.Item) bool {
	for _, k := range keys {
		if designer.SameKey(t, k, key) {
			return true
		}
	}
	return false
}

func (s *Server) mappingPage(c echo.Context) error {
	m, err := s.mappingModel(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.MappingView(m))
}

// mappingAnswer applies a change to one pattern's mapping and answers with what it touched: the
// cell that posted it and the operation's result, or the whole card.
func (s *Server) mappingAnswer(c echo.Context, patternID string, change designer.Change, cellID, value string, index int) error {
	err := s.edit(c, change)
	var bad *cellError
	status := http.StatusOK
	if r, refused := refusal(err); refused {
		if cellID == "" {
			return err
		}
		bad, status = &cellError{cellID, value, r.Message}, r.Status
	} else if err != nil {
		return err
	}
	d := designFrom(c)
	p, _, ok := d.Record.Design.PatternByID(patternID)
	if !ok {
		return badInput("pattern: no access pattern %q; it may have been deleted", patternID)
	}
	card := mappingCard(d, p, bad)
	if cellID != "" && index >= 0 && index < len(card.Ops) {
		op := card.Ops[index]
		for _, lc := range op.Cells {
			if lc.Cell.ID == cellID {
				return respond(c, status, "mapping", templ.Join(templates.CellView(lc.Cell), templates.ResultBox(op.Result, d.canEdit(), true)))
			}
		}
	}
	if cellID == card.Notes.ID && cellID != "" {
		return respond(c, status, "mapping", templates.CellView(card.Notes))
	}
	return respond(c, status, "mapping", templates.MappingCardView(card, d.canEdit()))
}

func (s *Server) addOperation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.mappingAnswer(c, form.get("pattern"), designer.AddOperation{Pattern: form.get("pattern"), Op: "Query"}, "", "", -1)
}

func (s *Server) deleteOperation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	return s.mappingAnswer(c, form.get("pattern"), designer.DeleteOperation{Pattern: form.get("pattern"), Index: i}, "", "", -1)
}

func (s *Server) saveOperationField(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	pattern, field, value := form.get("pattern"), form.get("field"), form.get("value")
	i, err := form.int("index")
	if err != nil {
		return err
	}
	change := designer.SetOperationField{Pattern: pattern, Index: i, Field: field, Value: value}
	if field == "op" || field == "table" {
		// The other cells' choices depend on these: answer with the whole card.
		return s.mappingAnswer(c, pattern, change, "", value, -1)
	}
	return s.mappingAnswer(c, pattern, change, elemID("opf", pattern, itoa(i), field), value, i)
}

func (s *Server) saveMappingNotes(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	pattern := form.get("pattern")
	return s.mappingAnswer(c, pattern, designer.SetMappingNotes{Pattern: pattern, Notes: form.get("value")}, elemID("mapnotes", pattern), form.get("value"), -1)
}

// toggleExpected marks or unmarks one item as part of an operation's expected result and answers
// with the result box.
func (s *Server) toggleExpected(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	var key designer.Item
	if err := json.Unmarshal([]byte(form.get("key")), &key); err != nil {
		return badInput("key: not an item key in DynamoDB JSON: %v", err)
	}
	return s.resultAnswer(c, form.get("pattern"), i, designer.ToggleExpected{Pattern: form.get("pattern"), Index: i, Key: key})
}

func (s *Server) clearExpected(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	return s.resultAnswer(c, form.get("pattern"), i, designer.ClearExpected{Pattern: form.get("pattern"), Index: i})
}

func (s *Server) resultAnswer(c echo.Context, pattern string, i int, change designer.Change) error {
	if err := s.edit(c, change); err != nil {
		return err
	}
	d := designFrom(c)
	p, _, ok := d.Record.Design.PatternByID(pattern)
	if !ok || i < 0 || i >= len(p.Mapping.Operations) {
		return badInput("index: pattern %q has no operation %d", pattern, i+1)
	}
	return respond(c, http.StatusOK, "mapping", templates.ResultBox(resultView(d, p, i, p.Mapping.Operations[i]), d.canEdit(), false))
}

func formatUnits(u float64) string { return strconv.FormatFloat(u, 'f', -1, 64) }

// countNoun writes a count with its noun, "1 item" or "3 items".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}

// unitsNoun writes capacity units with their noun, "1 write unit" or "0.5 write units".
func unitsNoun(u float64, noun string) string {
	if s := formatUnits(u); s != "1" {
		return s + " " + noun + "s"
	}
	return "1 " + noun
}
