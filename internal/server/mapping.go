package server

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/designer/format/sdkcode"
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

func (s *Server) mappingModel(c echo.Context) (templates.Mapping, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "mapping")
	if err != nil {
		return templates.Mapping{}, err
	}
	m := templates.Mapping{Workspace: w}
	open := map[string]bool{}
	for _, id := range c.QueryParams()["open"] {
		open[id] = true
	}
	for _, p := range d.Record.Design.Patterns {
		m.Cards = append(m.Cards, mappingCard(d, c.Request().URL.Path, p, open[p.ID]))
	}
	return m, nil
}

// mappingNotes is the cell of a pattern's implementation notes.
func mappingNotes(d *designContext, p designer.Pattern) templates.Cell {
	return templates.Cell{ID: elemID("mapnotes", p.ID), Label: "Pattern " + itoa(p.Number) + " implementation notes",
		Value: p.Mapping.Notes, Action: "/d/" + d.Token + "/mapping/notes", Vals: vals("pattern", p.ID), Kind: "textarea", CanEdit: d.canEdit(), Class: "w-full"}
}

// mappingCard is pattern p's card on the mapping step at path: its summary line and verdict, and
// when open its operations with their results.
func mappingCard(d *designContext, path string, p designer.Pattern, open bool) templates.MappingCard {
	base := "/d/" + d.Token
	present := ""
	if d.Presenting {
		present = "&present=1"
	}
	card := templates.MappingCard{
		ID: elemID("map", p.ID), Number: itoa(p.Number), Description: p.Description, Open: open,
		Status: optionLabel(statusOptions, p.Status), StatusKind: p.Status, Source: p.Mapping.Source,
		OpsSummary: opsSummary(p), Verdict: patternVerdict(d, p), VerdictID: elemID("verdict", p.ID),
		Detail: path + "?card=" + url.QueryEscape(p.ID) + present, OpenHref: path + "?open=" + url.QueryEscape(p.ID) + present + "#" + elemID("map", p.ID),
	}
	if !open {
		return card
	}
	card.Notes = mappingNotes(d, p)
	card.Add = templates.Button{Label: "Add an operation to pattern " + itoa(p.Number), Text: "+ Add operation", Action: base + "/mapping/add",
		Params: []templates.Param{{Name: "pattern", Value: p.ID}}, Target: "#" + elemID("map", p.ID), TestID: "add-operation"}
	for i, op := range p.Mapping.Operations {
		card.Ops = append(card.Ops, operationView(d, p, i, op))
	}
	card.Code, card.CodeID = patternCode(d.Record.Design, p), elemID("code", p.ID)
	return card
}

// codeLanguages are the code blocks of a request, in the order the card shows them.
var codeLanguages = append(slices.Clone(sdkcode.Languages), sdkcode.Language{ID: "cli", Name: "AWS CLI"})

// patternCode is pattern p's requests as code to paste (format.PatternCode).
func patternCode(d designer.Design, p designer.Pattern) []templates.RequestCode {
	i := slices.IndexFunc(d.Patterns, func(q designer.Pattern) bool { return q.ID == p.ID })
	if i < 0 {
		return nil
	}
	var out []templates.RequestCode
	for _, s := range format.PatternCode(d, i) {
		r := templates.RequestCode{ID: s.ID, Reason: s.Reason}
		for _, l := range codeLanguages {
			if code, ok := s.Code[l.ID]; ok {
				r.Blocks = append(r.Blocks, templates.CodeBlock{ID: elemID("code", p.ID, s.ID, l.ID),
					Lang: l.ID, Label: "Request " + s.ID + ": " + l.Name, Code: code})
			}
		}
		out = append(out, r)
	}
	return out
}

// operationFields are the fields of an operation, in the order its row shows them; a batch or
// transaction row also has its action, after its call.
var operationFields = []designer.Field[designer.Operation]{designer.OperationField.Op, designer.OperationField.Table,
	designer.OperationField.Index, designer.OperationField.KeyCondition, designer.OperationField.Filter,
	designer.OperationField.Projection, designer.OperationField.Limit, designer.OperationField.Direction,
	designer.OperationField.Consistent, designer.OperationField.Names, designer.OperationField.Values,
	designer.OperationField.Notes}

// operationCell is the cell of one field of operation i of pattern p, by the field's name; ok is
// false for a name no field of this operation has.
func operationCell(d *designContext, p designer.Pattern, i int, op designer.Operation, field string) (templates.LabeledCell, bool) {
	f, ok := designer.FieldNamed(designer.OperationFields, field)
	if !ok {
		return templates.LabeledCell{}, false
	}
	design := d.Record.Design
	of := designer.OperationField
	label, value, kind := f.Heading(), f.Get(op), "text"
	var opts []templates.Option
	switch field {
	case of.Op.Key:
		kind, opts = "select", operationOptions
	case of.Action.Key:
		actions := designer.OperationActions(op.Op)
		if len(actions) == 0 {
			// Only a batch or transaction row says what it does to its keys.
			return templates.LabeledCell{}, false
		}
		opts = []templates.Option{{Value: "", Label: "From the values (put, or delete without attributes)"}}
		for _, a := range actions {
			opts = append(opts, templates.Option{Value: a, Label: actionLabels[a]})
		}
		kind = "select"
	case of.Table.Key:
		opts = []templates.Option{{Value: "", Label: "—"}}
		for _, t := range design.Tables {
			opts = append(opts, templates.Option{Value: t.Name, Label: t.Name})
		}
		kind = "select"
	case of.Index.Key:
		opts = []templates.Option{{Value: "", Label: "(the table)"}}
		if t, _, ok := design.TableByName(op.Table); ok {
			for _, ix := range append(append([]designer.Index{}, t.GSIs...), t.LSIs...) {
				opts = append(opts, templates.Option{Value: ix.Name, Label: ix.Name})
			}
		}
		kind = "select"
	case of.Limit.Key:
		kind = "number"
	case of.Direction.Key:
		kind, opts = "select", directionOptions
	case of.Consistent.Key:
		kind, opts = "select", consistentOptions
	}
	c := templates.Cell{ID: elemID("opf", p.ID, itoa(i), field), Label: "Pattern " + itoa(p.Number) + " operation " + itoa(i+1) + " " + label,
		Value: value, Action: "/d/" + d.Token + "/mapping/field", Vals: vals("pattern", p.ID, "index", itoa(i), "field", field),
		Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	if reshapesCard(field) {
		// The answer to these is the whole card (saveOperationField): it replaces the card.
		c.Target = "#" + elemID("map", p.ID)
	}
	return templates.LabeledCell{Label: label, Cell: c}, true
}

// reshapesCard reports whether setting an operation's field changes the choices of its other
// cells (its call, its table), so the answer is the whole card.
func reshapesCard(field string) bool {
	return field == designer.OperationField.Op.Key || field == designer.OperationField.Table.Key
}

// opsSummary names a pattern's operations in one line: "Query Orders (ByStatus), PutItem Orders".
func opsSummary(p designer.Pattern) string {
	if len(p.Mapping.Operations) == 0 {
		return "No operation yet"
	}
	parts := make([]string, len(p.Mapping.Operations))
	for i, op := range p.Mapping.Operations {
		parts[i] = op.Op
		if op.Table != "" {
			parts[i] += " " + op.Table
		}
		if op.Index != "" {
			parts[i] += " (" + op.Index + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// writeFields are the fields of a PutItem, UpdateItem or DeleteItem, in the order its row shows
// them: its key has a field per key attribute instead of a key condition, and it reads no index.
var writeFields = []designer.Field[designer.Operation]{designer.OperationField.Op, designer.OperationField.Table,
	designer.OperationField.Condition, designer.OperationField.Update, designer.OperationField.Names,
	designer.OperationField.Values, designer.OperationField.Notes}

// batchWriteFields are the fields of a BatchWriteItem or TransactWriteItems row.
var batchWriteFields = []designer.Field[designer.Operation]{designer.OperationField.Op, designer.OperationField.Table,
	designer.OperationField.KeyCondition, designer.OperationField.Condition, designer.OperationField.Update,
	designer.OperationField.Names, designer.OperationField.Values, designer.OperationField.Notes}

// singleWrite reports whether op writes one item given by its key fields.
func singleWrite(op designer.Operation) bool {
	return op.Op == "PutItem" || op.Op == "UpdateItem" || op.Op == "DeleteItem"
}

// takesUpdate reports whether op takes update clauses.
func takesUpdate(op designer.Operation) bool {
	return op.Op == "UpdateItem" || op.Op == "TransactWriteItems" && op.Action == designer.ActionUpdate
}

// takesCondition reports whether op takes a condition.
func takesCondition(op designer.Operation) bool {
	return designer.IsWriteOp(op.Op) && op.Op != "BatchWriteItem"
}

func operationView(d *designContext, p designer.Pattern, i int, op designer.Operation) templates.OperationView {
	base := "/d/" + d.Token
	v := templates.OperationView{
		ID: elemID("op", p.ID, itoa(i)),
		Delete: templates.Button{Label: "Delete operation " + itoa(i+1) + " of pattern " + itoa(p.Number), Text: "Delete",
			Action: base + "/mapping/delete", Params: []templates.Param{{Name: "pattern", Value: p.ID}, {Name: "index", Value: itoa(i)}},
			Target: "#" + elemID("map", p.ID), Class: "danger"},
		Result: resultView(d, p, i, op),
	}
	fields := operationFields
	switch {
	case singleWrite(op):
		fields = writeFields
	case designer.IsWriteOp(op.Op):
		fields = batchWriteFields
	}
	of := designer.OperationField
	for _, f := range fields {
		if f.Key == of.Update.Key && !takesUpdate(op) && op.Update == "" || f.Key == of.Condition.Key && !takesCondition(op) && op.Condition == "" {
			continue
		}
		lc, _ := operationCell(d, p, i, op, f.Key)
		if f.Key == of.Values.Key && op.Op == "PutItem" {
			lc.Label = "Item attributes (:name=value)"
		}
		v.Cells = append(v.Cells, lc)
		if f.Key == of.Op.Key {
			if lc, ok := operationCell(d, p, i, op, of.Action.Key); ok {
				v.Cells = append(v.Cells, lc)
			}
		}
		if f.Key == of.Table.Key && singleWrite(op) {
			v.Cells = append(v.Cells, keyCells(d, p, i, op)...)
		}
	}
	if singleWrite(op) {
		// The key fields write the key condition; a finding about it links here.
		v.KeyCondition, v.KeyConditionID = op.KeyCondition, elemID("opf", p.ID, itoa(i), of.KeyCondition.Key)
	}
	if d.canEdit() && takesUpdate(op) {
		v.Builders = append(v.Builders, clauseForm(d, p, i, "update", "Add to the update", designer.UpdateActions))
	}
	if d.canEdit() && takesCondition(op) {
		v.Builders = append(v.Builders, clauseForm(d, p, i, "condition", "Add to the condition", designer.ConditionFunctions))
	}
	return v
}

// keyCells are the fields of a write's key, one per key attribute of its table.
func keyCells(d *designContext, p designer.Pattern, i int, op designer.Operation) []templates.LabeledCell {
	t, _, ok := d.Record.Design.TableByName(op.Table)
	if !ok {
		return nil
	}
	given := designer.OperationKeyValues(t, op)
	keys := []designer.KeyAttribute{t.PartitionKey}
	if t.SortKey != nil {
		keys = append(keys, *t.SortKey)
	}
	var out []templates.LabeledCell
	for _, k := range keys {
		value := ""
		if v, ok := given[k.Name]; ok {
			value = designer.FormatCell(v)
		}
		label := "Key: " + k.Name + " (" + designer.CellTypeName(k.Type) + ")"
		out = append(out, templates.LabeledCell{Label: label, Cell: templates.Cell{
			ID: elemID("opkey", p.ID, itoa(i), k.Name), Label: "Pattern " + itoa(p.Number) + " operation " + itoa(i+1) + " key " + k.Name,
			Value: value, Action: "/d/" + d.Token + "/mapping/key", Vals: vals("pattern", p.ID, "index", itoa(i), "attribute", k.Name),
			Kind: "text", CanEdit: d.canEdit(), Target: "#" + elemID("map", p.ID)}})
	}
	return out
}

// clauseForm is the form that adds one clause to an operation's update or condition.
func clauseForm(d *designContext, p designer.Pattern, i int, part, title string, choices []string) templates.ClauseForm {
	f := templates.ClauseForm{ID: elemID("build", part, p.ID, itoa(i)), Title: title, Action: "/d/" + d.Token + "/mapping/" + part,
		Target: "#" + elemID("map", p.ID), Pattern: p.ID, Index: itoa(i), TestID: "build-" + part}
	for _, c := range choices {
		f.Choices = append(f.Choices, templates.Option{Value: c, Label: c})
	}
	if t, _, ok := d.Record.Design.TableByName(p.Mapping.Operations[i].Table); ok {
		f.Attributes = tableAttributeNames(t)
	}
	return f
}

// tableAttributeNames are the attributes a table declares or its items hold, for a builder's list.
func tableAttributeNames(t designer.Table) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, a := range t.Attributes {
		add(a.Name)
	}
	for _, it := range t.Items {
		for _, n := range slices.Sorted(maps.Keys(it.Item)) {
			add(n)
		}
		if len(out) > 200 {
			break
		}
	}
	return out
}

// mappingPage is the mapping step, its cards collapsed but those the query opens; asked for one
// card (?card=), it answers with that card alone, open, as a collapsed card loads it when opened.
func (s *Server) mappingPage(c echo.Context) error {
	if id := c.QueryParam("card"); id != "" {
		d := designFrom(c)
		p, err := patternFor(d, id)
		if err != nil {
			return err
		}
		card := mappingCard(d, c.Request().URL.Path, p, true)
		// One card swaps in: the rest of the page still shows the revision it showed, which the
		// live refresh goes by.
		c.Response().Header().Del("X-Dynaloom-Revision")
		return render(c, http.StatusOK, templates.MappingCardView(card, d.canEdit()))
	}
	m, err := s.mappingModel(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.MappingView(m))
}

// patternFor finds the pattern an answer of the mapping step is about.
func patternFor(d *designContext, id string) (designer.Pattern, error) {
	p, _, ok := d.Record.Design.PatternByID(id)
	if !ok {
		return p, badInput("pattern: no access pattern %q; it may have been deleted", id)
	}
	return p, nil
}

// openCard is the open card of pattern p, as an edit of the mapping step answers with it.
func openCard(d *designContext, p designer.Pattern) templates.MappingCard {
	return mappingCard(d, stepHref(d, "mapping"), p, true)
}

// mappingCardPart answers with the whole card of pattern, for changes the other cells' choices
// depend on.
func mappingCardPart(pattern string) part {
	return savedPart(func(d *designContext) (templ.Component, error) {
		p, err := patternFor(d, pattern)
		if err != nil {
			return nil, err
		}
		return templates.MappingCardView(openCard(d, p), d.canEdit()), nil
	})
}

func (s *Server) addOperation(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	return s.apply(c, mappingBack(c), designer.AddOperation{Pattern: form.get("pattern"), Op: "Query"}, mappingCardPart(form.get("pattern")))
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
	return s.apply(c, mappingBack(c), designer.DeleteOperation{Pattern: form.get("pattern"), Index: i}, mappingCardPart(form.get("pattern")))
}

// saveOperationField saves one cell of an operation and answers with the cell and the operation's
// result, run again.
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
	if reshapesCard(field) {
		// The other cells' choices depend on these: answer with the whole card.
		return s.apply(c, mappingBack(c), change, mappingCardPart(pattern))
	}
	return s.apply(c, mappingBack(c), change, func(d *designContext, r *refused) (templ.Component, error) {
		p, err := patternFor(d, pattern)
		if err != nil {
			return nil, err
		}
		if i >= 0 && i < len(p.Mapping.Operations) {
			op := p.Mapping.Operations[i]
			if lc, ok := operationCell(d, p, i, op, field); ok {
				return templ.Join(templates.CellView(withRefusal(lc.Cell, r, value)), templates.ResultBox(resultView(d, p, i, op), d.canEdit(), true), verdictOOB(d, p),
					templates.PatternCodeBlocks(elemID("code", p.ID), patternCode(d.Record.Design, p), true)), nil
			}
		}
		return templates.MappingCardView(openCard(d, p), d.canEdit()), nil
	})
}

// saveOperationKey sets one key attribute of a write's key and answers with the card: the key
// condition, names and values change with it.
func (s *Server) saveOperationKey(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	pattern, attr, value := form.get("pattern"), form.get("attribute"), form.get("value")
	return s.apply(c, mappingBack(c), designer.SetOperationKey{Pattern: pattern, Index: i, Attribute: attr, Text: value},
		builderPart(pattern, i, func(v *templates.OperationView, r *refused) bool {
			for j := range v.Cells {
				if v.Cells[j].Cell.ID == elemID("opkey", pattern, itoa(i), attr) {
					v.Cells[j].Cell = withRefusal(v.Cells[j].Cell, r, value)
					return true
				}
			}
			return false
		}))
}

// builderPart answers a write builder's post with the card; a refusal is shown where it was
// made, on the operation's key field or clause form, with what was typed kept.
func builderPart(pattern string, i int, show func(*templates.OperationView, *refused) bool) part {
	return func(d *designContext, r *refused) (templ.Component, error) {
		p, err := patternFor(d, pattern)
		if err != nil {
			return nil, err
		}
		card := openCard(d, p)
		if r != nil && (i < 0 || i >= len(card.Ops) || !show(&card.Ops[i], r)) {
			return nil, errNotShown
		}
		return templates.MappingCardView(card, d.canEdit()), nil
	}
}

// refusedClause shows a refused clause on its form, with what was typed.
func refusedClause(part string, form formValues) func(*templates.OperationView, *refused) bool {
	return func(v *templates.OperationView, r *refused) bool {
		for j := range v.Builders {
			if b := &v.Builders[j]; b.TestID == "build-"+part {
				b.Error, b.Choice, b.Attribute, b.Text = r.Message, form.get("choice"), form.get("attribute"), form.get("text")
				return true
			}
		}
		return false
	}
}

// addUpdateClause adds a SET, REMOVE, ADD or DELETE clause to an update and answers with the card.
func (s *Server) addUpdateClause(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	pattern := form.get("pattern")
	return s.apply(c, mappingBack(c), designer.AddUpdateClause{Pattern: pattern, Index: i, Action: form.get("choice"),
		Attribute: form.get("attribute"), Text: form.get("text")}, builderPart(pattern, i, refusedClause("update", form)))
}

// addConditionClause adds a test to a write's condition and answers with the card.
func (s *Server) addConditionClause(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	pattern := form.get("pattern")
	return s.apply(c, mappingBack(c), designer.AddConditionClause{Pattern: pattern, Index: i, Function: form.get("choice"),
		Attribute: form.get("attribute"), Text: form.get("text")}, builderPart(pattern, i, refusedClause("condition", form)))
}

func (s *Server) saveMappingNotes(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	pattern, value := form.get("pattern"), form.get("value")
	return s.apply(c, mappingBack(c), designer.SetMappingNotes{Pattern: pattern, Notes: value}, func(d *designContext, r *refused) (templ.Component, error) {
		p, err := patternFor(d, pattern)
		if err != nil {
			return nil, err
		}
		return templates.CellView(withRefusal(mappingNotes(d, p), r, value)), nil
	})
}
