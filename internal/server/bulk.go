package server

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/format/reqmd"
	"dynaloom/web/templates"
)

// Saying it once: the overview's key entities made entities in one click, rows pasted in bulk
// with a preview, and an aggregate decision's tables scaffolded. Each adds its rows as one change.

// keyEntitiesOffer is the overview's offer of the entities its key entities list names.
func keyEntitiesOffer(d *designContext) templates.KeyEntitiesOffer {
	design := d.Record.Design
	c := designer.FromKeyEntities(design)
	o := templates.KeyEntitiesOffer{
		Action: "/d/" + d.Token + "/entities/from-overview", EntitiesHref: stepHref(d, "entities"), CanEdit: d.canEdit(),
		Written: strings.TrimSpace(design.Overview.KeyEntities) != "",
	}
	for _, e := range c.Entities {
		o.Names = append(o.Names, e.Name)
	}
	for _, r := range c.Relationships {
		o.Relationships = append(o.Relationships, relationshipText(r))
	}
	o.Done = len(o.Names) == 0 && len(o.Relationships) == 0
	switch n := len(o.Names); {
	case n == 0:
		o.Button = "Add the relationships"
	case n == 1:
		o.Button = "Add 1 entity"
	default:
		o.Button = "Add " + strconv.Itoa(n) + " entities"
	}
	return o
}

func relationshipText(r map[string]string) string {
	rf := designer.RelationshipField
	return r[rf.From.Key] + " " + r[rf.Kind.Key] + " " + r[rf.To.Key]
}

// addKeyEntities adds the ticked entities and relationships of the overview's offer, as one
// change, and answers with the offer as it now stands.
func (s *Server) addKeyEntities(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	d := designFrom(c)
	offered := designer.FromKeyEntities(d.Record.Design)
	names, rels := form.values["name"], form.values["relationship"]
	var change designer.AddInBulk
	for _, e := range offered.Entities {
		if slices.Contains(names, e.Name) {
			change.Entities = append(change.Entities, e)
		}
	}
	rf := designer.RelationshipField
	known := func(name string) bool {
		_, _, ok := d.Record.Design.EntityByName(name)
		return ok || slices.ContainsFunc(change.Entities, func(e designer.BulkEntity) bool { return e.Name == name })
	}
	for _, r := range offered.Relationships {
		if slices.Contains(rels, relationshipText(r)) && known(r[rf.From.Key]) && known(r[rf.To.Key]) {
			change.Relationships = append(change.Relationships, r)
		}
	}
	if len(change.Entities)+len(change.Relationships) == 0 {
		return badInput("name: tick at least one entity or relationship to add")
	}
	return s.apply(c, stepHref(d, "overview"), change, savedPart(func(d *designContext) (templ.Component, error) {
		return templates.KeyEntitiesOfferView(keyEntitiesOffer(d)), nil
	}))
}

// bulkSteps are the steps that show the paste box.
var bulkSteps = []string{"entities", "patterns"}

// bulkForm reads a paste box's form: the step it is on and the text.
func bulkForm(c echo.Context) (templates.BulkPaste, error) {
	form, err := postedForm(c)
	if err != nil {
		return templates.BulkPaste{}, err
	}
	step := form.get("step")
	if !slices.Contains(bulkSteps, step) {
		return templates.BulkPaste{}, badInput("step: %q has no paste box; use entities or patterns", step)
	}
	b := bulkBox(designFrom(c), step)
	b.Text, b.Open, b.Replace = form.get("text"), true, form.get("replace") != ""
	for _, v := range form.all("take") {
		if n, err := strconv.Atoi(v); err == nil {
			b.Take = append(b.Take, n)
		}
	}
	return b, nil
}

// previewed fills b's preview from its text against the design: what the paste adds, as the
// design would show it once added, and the lines it cannot read. It returns the change.
func previewed(d designer.Design, b *templates.BulkPaste) designer.AddInBulk {
	b.Previewed = true
	if strings.TrimSpace(b.Text) == "" {
		b.Error = "Paste some rows first."
		return designer.AddInBulk{}
	}
	paste := designer.ParseBulkWith(b.Text, d, designer.BulkReaders{Entity: markdown.PastedEntity, Pattern: reqmd.PastedPattern, Relationship: reqmd.PastedRelationship})
	b.Already = len(paste.Already)
	for _, p := range paste.Problems {
		b.Problems = append(b.Problems, templates.BulkProblem{Line: p.Line, Text: shortLine(p.Text), Message: p.Message})
	}
	for _, m := range paste.Merged {
		line := templates.BulkMerge{Line: m.Line, Row: shortLine(m.Row), Fills: shortLine(strings.Join(m.Fills, ", ")),
			Taken: b.Replace || slices.Contains(b.Take, m.Line)}
		for _, c := range m.Conflicts {
			line.Conflicts = append(line.Conflicts, c.Field+" is "+shortLine(c.Ours)+" in the design, "+shortLine(c.Theirs)+" in the paste")
		}
		b.Merged = append(b.Merged, line)
		b.Conflicts += len(m.Conflicts)
	}
	c := paste.Change
	if c.Replace = b.Replace; !b.Replace {
		c = paste.Taking(b.Take)
	}
	if len(c.Entities)+len(c.Relationships)+len(c.Patterns) == 0 {
		return c
	}
	after, err := c.Apply(d)
	if err != nil {
		b.Error = err.Error()
		return designer.AddInBulk{}
	}
	if g := entityLines(d, c); len(g.Lines) > 0 {
		b.Adds = append(b.Adds, g)
	}
	if rels := after.Relationships[len(d.Relationships):]; len(rels) > 0 {
		g := templates.BulkGroup{Title: counted(len(rels), "relationship", "relationships")}
		rf := designer.RelationshipField
		for _, r := range rels {
			line := r.From + " " + r.Kind + " " + r.To
			var counts []string
			if v := rf.AvgCount.Get(r); v != "" {
				counts = append(counts, "average "+v)
			}
			if v := rf.MaxCount.Get(r); v != "" {
				counts = append(counts, "maximum "+v)
			}
			if len(counts) > 0 {
				line += " (" + strings.Join(counts, ", ") + ")"
			}
			g.Lines = append(g.Lines, line)
		}
		b.Adds = append(b.Adds, g)
	}
	if pats := after.Patterns[len(d.Patterns):]; len(pats) > 0 {
		g := templates.BulkGroup{Title: counted(len(pats), "access pattern", "access patterns")}
		pf := designer.PatternField
		for _, p := range pats {
			line := strconv.Itoa(p.Number) + ". " + shortLine(p.Description)
			var facts []string
			if p.Type != "" {
				facts = append(facts, p.Type)
			}
			if peak := pf.PeakRPS.Get(p); peak != "" {
				facts = append(facts, peak+" peak RPS")
			}
			if avg := pf.AvgRPS.Get(p); avg != "" {
				facts = append(facts, avg+" average RPS")
			}
			if len(p.Entities) > 0 {
				facts = append(facts, strings.Join(p.Entities, ", "))
			}
			if len(facts) > 0 {
				line += " — " + strings.Join(facts, ", ")
			}
			g.Lines = append(g.Lines, line)
		}
		b.Adds = append(b.Adds, g)
	}
	return c
}

// entityLines says, per entity of c, whether it is new and which attributes it gains.
func entityLines(d designer.Design, c designer.AddInBulk) templates.BulkGroup {
	var g templates.BulkGroup
	added := 0
	for _, e := range c.Entities {
		attrs := make([]string, len(e.Attributes))
		for i, a := range e.Attributes {
			t := a.Type
			if t == "" {
				t = designer.S
			}
			attrs[i] = a.Name + " (" + string(t) + ")"
		}
		line := e.Name
		if _, _, ok := d.EntityByName(e.Name); ok {
			line += ", there already: " + counted(len(attrs), "more attribute", "more attributes")
		} else {
			added++
			line += " (new)"
		}
		if len(attrs) > 0 {
			line += ": " + strings.Join(attrs, ", ")
		}
		g.Lines = append(g.Lines, line)
	}
	g.Title = counted(added, "new entity", "new entities")
	if added < len(c.Entities) {
		g.Title = "Entities (" + strconv.Itoa(added) + " new)"
	}
	return g
}

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// shortLine keeps a pasted line readable in the preview.
func shortLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 140 {
		return string(r[:139]) + "…"
	}
	return s
}

// bulkPreview answers a paste box with what its text would add; nothing changes.
func (s *Server) bulkPreview(c echo.Context) error {
	b, err := bulkForm(c)
	if err != nil {
		return err
	}
	previewed(designFrom(c).Record.Design, &b)
	return render(c, http.StatusOK, templates.BulkPasteView(b))
}

// bulkAdd adds what a paste box's text holds, as one change, and draws the step again; a paste
// that adds nothing is shown in its box with why.
func (s *Server) bulkAdd(c echo.Context) error {
	b, err := bulkForm(c)
	if err != nil {
		return err
	}
	d := designFrom(c)
	change := previewed(d.Record.Design, &b)
	back := stepHref(d, b.Step)
	if len(change.Entities)+len(change.Relationships)+len(change.Patterns) == 0 {
		if b.Error == "" {
			b.Error = "Nothing here can be added; the preview says why."
		}
		return s.answer(c, back, designer.Invalid("text", "%s", b.Error), func(*designContext, *refused) (templ.Component, error) {
			return templates.BulkPasteView(b), nil
		})
	}
	return s.apply(c, back, change, func(d *designContext, r *refused) (templ.Component, error) {
		if r != nil {
			b.Error = r.Message
			return templates.BulkPasteView(b), nil
		}
		return reload(back), nil
	})
}

// scaffoldOffer is an aggregate card's offer of the tables its decision calls for.
func scaffoldOffer(d *designContext, a designer.AggregateAnalysis) templates.ScaffoldOffer {
	o := templates.ScaffoldOffer{ID: elemID("agg", a.ID) + "-scaffold", Action: "/d/" + d.Token + "/aggregates/scaffold",
		Aggregate: a.ID, CanEdit: d.canEdit()}
	design := d.Record.Design
	plan, err := designer.ScaffoldFor(design, a.ID)
	o.Reasons = plan.Reasons
	var ve *designer.ValidationError
	switch {
	case errors.As(err, &ve) && ve.Field == "decision":
		o.Note = "Choose a decision, and its tables can be scaffolded from it."
		return o
	case errors.As(err, &ve):
		o.Note = "Not scaffolded: " + ve.Message + "."
		return o
	case err != nil:
		o.Note = err.Error()
		return o
	case len(plan.Change.Tables) == 0:
		o.Note = "The tables this decision calls for are in place."
		return o
	}
	for _, st := range plan.Change.Tables {
		g := templates.BulkGroup{Title: "Table " + st.Name + " (new), key " + keyText(st.PartitionKey, st.SortKey)}
		if _, _, ok := design.TableByName(st.Name); ok {
			g.Title = "Table " + st.Name + ", there already"
		}
		for _, et := range st.EntityTypes {
			line := "Entity type " + et.Entity
			if et.PKTemplate != "" {
				line += ": PK " + et.PKTemplate
			}
			if et.SKTemplate != "" {
				line += ", SK " + et.SKTemplate
			}
			if et.Description != "" {
				line += " — " + et.Description
			}
			g.Lines = append(g.Lines, line)
		}
		if len(st.Attributes) > 0 {
			attrs := make([]string, len(st.Attributes))
			for i, at := range st.Attributes {
				attrs[i] = at.Name + " (" + string(at.Type) + ")"
			}
			g.Lines = append(g.Lines, "Attributes: "+strings.Join(attrs, ", "))
		}
		o.Tables = append(o.Tables, g)
	}
	return o
}

func keyText(pk designer.KeyAttribute, sk *designer.KeyAttribute) string {
	s := pk.Name + " (" + string(pk.Type) + ")"
	if sk != nil {
		s += " + " + sk.Name + " (" + string(sk.Type) + ")"
	}
	return s
}

// scaffoldAggregate adds the tables an aggregate's decision calls for, worked out again from the
// design as it now is, and goes to the first of them on the Tables step.
func (s *Server) scaffoldAggregate(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	d := designFrom(c)
	plan, err := designer.ScaffoldFor(d.Record.Design, form.get("id"))
	if err == nil && len(plan.Change.Tables) == 0 {
		err = designer.Invalid("id", "the tables this decision calls for are in place already")
	}
	back := stepHref(d, "aggregates")
	if err != nil {
		return s.answer(c, back, err, savedPart(nil))
	}
	if len(plan.Change.Tables) > 0 {
		back = tablesHref(d, plan.Change.Tables[0].Name)
	}
	return s.apply(c, back, plan.Change, savedPart(func(*designContext) (templ.Component, error) { return reload(back), nil }))
}

// declareEntityAttributes declares, as one change, every attribute of the entity posted that the
// table does not declare yet.
func (s *Server) declareEntityAttributes(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	d := designFrom(c)
	table, entity := form.get("table"), form.get("entity")
	t, _, ok := d.Record.Design.TableByName(table)
	if !ok {
		return s.answer(c, tablesBack(c), designer.Invalid("table", "no table named %q", table), savedPart(nil))
	}
	e, _, ok := d.Record.Design.EntityByName(entity)
	if !ok {
		return s.answer(c, tablesHref(d, table), designer.Invalid("entity", "no entity named %q", entity), savedPart(nil))
	}
	attrs := undeclaredAttributes(t, e)
	if len(attrs) == 0 {
		return s.answer(c, tablesHref(d, table), designer.Invalid("entity", "table %s declares every attribute of %s already", table, entity), savedPart(nil))
	}
	return s.apply(c, tablesHref(d, table), designer.AddTableAttributes{Table: table, Attributes: attrs}, reloadTables(table))
}
