// The links and element ids the pages point at: where a finding, a comment or a question
// takes the reader (anchorFor), and each step's hrefs.

package server

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
	"dynaloom/web/templates"
	"net/url"
	"slices"
	"strconv"
)

func findingView(d *designContext, f rules.Finding) templates.FindingView {
	return templates.FindingView{Code: f.Code, Severity: f.Severity, Message: f.Message, Href: anchorFor(d, f.Path)}
}

// anchorFor turns a finding or question path into a link to the step and the element at fault.
// Finding paths name a pattern by its number ("access_patterns/4/peak_rps").
func anchorFor(d *designContext, path string) string {
	design := d.Record.Design
	pp := designer.Path(path).Parts(design)
	switch pp.Collection {
	case designer.PathOverview:
		if pp.Field != "" {
			return stepHref(d, "overview") + "#field-overview-" + pp.Field
		}
		return stepHref(d, "overview")
	case designer.PathName:
		return stepHref(d, "overview") + "#field-name"
	case designer.PathEntities:
		if pp.Key != "" {
			return stepHref(d, "entities") + "#" + entityElemID(pp.Key)
		}
		return stepHref(d, "entities") + "#new-entity"
	case designer.PathRelationships:
		if pp.Key != "" {
			return stepHref(d, "entities") + "#" + elemID("rel", pp.Key)
		}
		return stepHref(d, "entities") + "#relationships"
	case designer.PathPatterns:
		i := slices.IndexFunc(design.Patterns, func(p designer.Pattern) bool { return pp.Key != "" && itoa(p.Number) == pp.Key })
		switch {
		case i < 0:
			return stepHref(d, "patterns") + "#patterns"
		case pp.Member() == "mapping":
			p := design.Patterns[i]
			return stepHref(d, "mapping") + "?open=" + url.QueryEscape(p.ID) + "#" + mappingElemID(p, pp)
		case pp.Field != "":
			return patternHref(d, design.Patterns[i].ID) + "#" + patternCellID(design.Patterns[i].ID, pp.Member())
		}
		return patternHref(d, design.Patterns[i].ID) + "#" + elemID("row", design.Patterns[i].ID)
	case designer.PathAggregates:
		if pp.Field != "" {
			if _, ok := aggregateCell(d, designer.AggregateAnalysis{ID: pp.Key}, pp.Field); ok {
				return stepHref(d, "aggregates") + "#" + elemID("aggf", pp.Key, pp.Field)
			}
		}
		if pp.Key != "" {
			return stepHref(d, "aggregates") + "#" + elemID("agg", pp.Key)
		}
		return stepHref(d, "aggregates") + "#aggregate-list"
	case designer.PathConsolidations:
		if pp.Field != "" {
			if _, ok := consolidationCell(d, designer.ConsolidationReview{ID: pp.Key}, nil, pp.Field); ok {
				return stepHref(d, "aggregates") + "#" + elemID("consf", pp.Key, pp.Field)
			}
		}
		if pp.Key != "" {
			return stepHref(d, "aggregates") + "#" + elemID("cons", pp.Key)
		}
		return stepHref(d, "aggregates") + "#consolidation"
	case designer.PathConsiderations:
		if f, ok := designer.FieldNamed(designer.ConsiderationFields, pp.Field); ok {
			return stepHref(d, "aggregates") + "#" + considerationField(d, f, "", "", false).ID
		}
		return stepHref(d, "aggregates") + "#considerations"
	case designer.PathProse:
		if _, ok := designer.FieldNamed(designer.ProseFields, pp.Field); ok {
			return stepHref(d, "validation") + "#" + proseElemID(pp.Field)
		}
		return stepHref(d, "validation") + "#data-model-prose"
	case designer.PathTables:
		if pp.Key == "" {
			return stepHref(d, "tables") + "#new-table-name"
		}
		table, href := pp.Key, tablesHref(d, pp.Key)
		switch {
		case pp.Sub == designer.SubIndexes && pp.SubKey != "" && slices.Contains(indexFields, pp.Field):
			return href + "#" + elemID("ixf", table, pp.SubKey, pp.Field)
		case pp.Sub == designer.SubIndexes && pp.SubKey != "":
			return href + "#" + elemID("index", table, pp.SubKey)
		case pp.Sub == designer.SubItems && pp.SubKey != "":
			return itemHref(d, table, pp.SubKey)
		case pp.Sub == designer.SubEntityTypes && slices.ContainsFunc(designer.EntityTypeFields, func(f designer.Field[designer.EntityType]) bool { return f.Key == pp.Field }):
			return href + "#" + elemID("etf", table, pp.SubKey, pp.Field)
		case pp.Sub == "":
			if _, ok := tableFieldNamed(pp.Field); ok {
				return href + "#" + elemID("tf", table, pp.Field)
			}
		}
		return href + "#" + elemID("table", table)
	}
	return stepHref(d, "validation")
}

// mappingElemID is the id, in pattern p's open Mapping card, of what a path inside its mapping
// names: its notes, an operation's field, an operation, else the card.
func mappingElemID(p designer.Pattern, pp designer.PathParts) string {
	switch {
	case pp.Field == "mapping/notes":
		return elemID("mapnotes", p.ID)
	case pp.Sub == designer.SubOperations:
		i, err := strconv.Atoi(pp.SubKey)
		if err != nil || i < 0 || i >= len(p.Mapping.Operations) {
			break
		}
		if _, ok := designer.FieldNamed(designer.OperationFields, pp.Field); ok {
			return elemID("opf", p.ID, pp.SubKey, pp.Field)
		}
		return elemID("op", p.ID, pp.SubKey)
	}
	return elemID("map", p.ID)
}

func entityElemID(name string) string { return elemID("entity", name) }

func patternCellID(id, field string) string { return elemID("ap", id, field) }

// aggregateCell is the cell of one field of an aggregate analysis, by the field's name; ok is false
// for a name no field has.
func aggregateCell(d *designContext, a designer.AggregateAnalysis, field string) (lc templates.LabeledCell, ok bool) {
	f, ok := designer.FieldNamed(designer.AggregateFields, field)
	if !ok {
		return templates.LabeledCell{}, false
	}
	af := designer.AggregateField
	label, value, kind := f.Heading(), f.Get(a), "text"
	var opts []templates.Option
	switch field {
	case af.CorrelationPct.Key, af.BothPct.Key, af.CombinedKB.Key:
		kind = "number"
	case af.OnlyAPct.Key:
		label, kind = a.EntityA+" only %", "number"
	case af.OnlyBPct.Key:
		label, kind = a.EntityB+" only %", "number"
	case af.Bounded.Key, af.SeparateTablePlanned.Key:
		kind, opts = "select", triOptions
	case af.SizeConstraints.Key, af.UpdatePatterns.Key:
		// one line of text, as set above
	case af.ChildIndependent.Key:
		label, kind, opts = "Can "+a.EntityB+" exist without "+a.EntityA+"?", "select", triOptions
	case af.ParentIDKnown.Key:
		label, kind, opts = "Is the "+a.EntityA+" id always known when reading "+a.EntityB+"?", "select", triOptions
	case af.Decision.Key:
		kind, opts = "select", decisionOptions
	case af.Justification.Key:
		kind = "textarea"
	default:
		// The two entities are the card's title, not cells of it.
		return templates.LabeledCell{}, false
	}
	c := templates.Cell{ID: elemID("aggf", a.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/aggregates/field",
		Vals: vals("id", a.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	if field == af.Justification.Key {
		c.Class = "w-full"
	}
	return templates.LabeledCell{Label: label, Cell: c}, true
}

// consolidationCell is the cell of one field of a consolidation review, by the field's name; ok is
// false for a name no field has.
func consolidationCell(d *designContext, r designer.ConsolidationReview, entities []templates.Option, field string) (templates.Cell, bool) {
	f, ok := designer.FieldNamed(designer.ConsolidationFields, field)
	if !ok {
		return templates.Cell{}, false
	}
	cf := designer.ConsolidationField
	label, value, kind := f.Heading(), f.Get(r), "text"
	var opts []templates.Option
	switch field {
	case cf.Parent.Key, cf.Child.Key:
		kind, opts = "select", entities
	case cf.OverlapPct.Key:
		kind = "number"
	case cf.Bounded.Key, cf.Identifying.Key:
		kind, opts = "select", triOptions
	case cf.Decision.Key:
		kind, opts = "select", consolidationOptions
	}
	c := templates.Cell{ID: elemID("consf", r.ID, field), Label: label, Value: value, Action: "/d/" + d.Token + "/consolidations/field",
		Vals: vals("id", r.ID, "field", field), Kind: kind, Options: opts, CanEdit: d.canEdit()}
	if opts != nil {
		c.Shown = optionLabel(opts, value)
	}
	if field == cf.OverlapPct.Key {
		c.Class = "w-num"
	}
	return c, true
}

func considerationField(d *designContext, f designer.Field[designer.Considerations], value, errMsg string, saved bool) templates.Field {
	return templates.Field{ID: "consideration-" + f.Key, Name: "value", Label: f.Heading(), Value: value, Multiline: true,
		Action: "/d/" + d.Token + "/considerations/" + f.Key, Error: errMsg, Saved: saved, CanEdit: d.canEdit()}
}

func tablesHref(d *designContext, table string) string {
	href := stepHref(d, "tables")
	if table != "" {
		href += "?table=" + url.QueryEscape(table)
	}
	return href
}

// tableFieldNamed finds a field of the header, the key schema or the notes by name.
func tableFieldNamed(field string) (tableField, bool) {
	for _, fields := range [][]tableField{tableHeaderFields, tableSchemaFields, tableNotes()} {
		if i := slices.IndexFunc(fields, func(f tableField) bool { return f.field == field }); i >= 0 {
			return fields[i], true
		}
	}
	return tableField{}, false
}

// indexFields are the fields of an index, in the order its card shows them.
var indexFields = []string{"name", "partition_key", "sort_key", "projection", "include", designer.IndexField.Sparse.Key,
	designer.IndexField.SparseNote.Key, "pattern_attributes", designer.IndexField.Purpose.Key,
	designer.IndexField.PartitionKeyJustification.Key, designer.IndexField.SortKeyJustification.Key,
	designer.IndexField.ProjectionJustification.Key, designer.IndexField.CapacityNotes.Key}

// itemHref links to the page of the tables step that holds an item, its row marked.
func itemHref(d *designContext, table, id string) string {
	return tablesHref(d, table) + "&item=" + url.QueryEscape(id) + "#" + elemID("row", table, id)
}

func proseElemID(field string) string { return elemID("prose", field) }

// allClear is what the panel and the validation step say when nothing is found: on a design with no
// access pattern and no table there is nothing to check yet, which is not the same as all being well.
func allClear(s designer.Summary) string {
	if s.Patterns == 0 && s.Tables == 0 {
		return "Nothing to check yet: findings appear as access patterns and tables are added."
	}
	return "No findings. Every rule is satisfied."
}

func stepHref(d *designContext, id string) string {
	for _, s := range steps {
		if s.id == id {
			return "/d/" + d.Token + s.path
		}
	}
	return "/d/" + d.Token
}

// patternHref is the address of the access-patterns page that holds pattern id.
func patternHref(d *designContext, id string) string {
	at := slices.IndexFunc(d.Record.Design.Patterns, func(p designer.Pattern) bool { return p.ID == id })
	if at < patternsPerPage {
		return stepHref(d, "patterns")
	}
	return stepHref(d, "patterns") + "?" + patternsPageParam + "=" + strconv.Itoa(at/patternsPerPage+1)
}

// capacityPageParam names the page of the Capacity step's per-pattern table; patternsPageParam
// the page of the access-patterns step.
const (
	capacityPageParam = "patterns_page"
	patternsPageParam = "page"
)

// patternsPerPage is how many access patterns a paged list shows at once.
const patternsPerPage = 50
