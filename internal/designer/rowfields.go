package designer

import (
	"strconv"
	"strings"
)

// Field is one field of a row kind (a table, a pattern, an operation…) that a person sets by
// typing: its key, the name forms, changes and paths use; its label, as a change's summary names
// it; Prose, whether it is free text, which a summary says was edited rather than quoting; Get, its
// value as a form shows it; and set, how the change that sets it reads the text typed. set may
// consult the design the row belongs to, and update it where other rows follow the field (a
// pattern's number); name is what a refusal names, usually the key. The XFields tables below are
// the one place each field is spelled.
type Field[R any] struct {
	Key, Label string
	Prose      bool
	Get        func(R) string
	set        func(d *Design, r *R, name, value string) error
}

// Keys a change treats specially besides setting the field: a pattern's number moves references
// in the tables, a billing mode is summarised as it reads, and sparse says "marked sparse".
const (
	patternNumberKey = "number"
	billingModeKey   = "billing_mode"
	sparseKey        = "sparse"
)

func keyOfField[R any](f *Field[R]) string { return f.Key }

// fieldNamed finds a field of a row kind by key.
func fieldNamed[R any](fields []Field[R], key string) (Field[R], bool) {
	f, _, ok := Lookup(fields, key, keyOfField)
	return f, ok
}

// apply sets f of r in d from value; a refusal names the field by its key.
func (f Field[R]) apply(d *Design, r *R, value string) error {
	if err := f.set(d, r, f.Key, value); err != nil {
		return fieldError(f.Key, err)
	}
	return nil
}

// summary is the history line of setting f to value; whose is a format of the row's name with one
// %s for the field's label.
func (f Field[R]) summary(whose, value string) string {
	return fieldSummary(whose, f.Label, value, f.Prose)
}

// textField is a short free text, cleaned as CleanText cleans it; blank clears it.
func textField[R any](key, label string, at func(*R) *string) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return *at(&r) },
		set: func(_ *Design, r *R, name, value string) error {
			text, err := CleanText(name, value)
			if err == nil {
				*at(r) = text
			}
			return err
		}}
}

// proseField is a textField of prose: a summary says it was edited rather than quoting it.
func proseField[R any](key, label string, at func(*R) *string) Field[R] {
	f := textField(key, label, at)
	f.Prose = true
	return f
}

// parsedField is a field whose text parse reads and format writes back as parse reads it.
func parsedField[R, V any](key, label string, at func(*R) *V, parse func(string) (V, error), format func(V) string) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return format(*at(&r)) },
		set: func(_ *Design, r *R, _, value string) error {
			v, err := parse(value)
			if err == nil {
				*at(r) = v
			}
			return err
		}}
}

// choiceField is one of a few words, which parse reads in any spelling people use.
func choiceField[R any](key, label string, at func(*R) *string, parse func(string) (string, error)) Field[R] {
	return parsedField(key, label, at, parse, func(s string) string { return s })
}

// numberField is a number parse reads (units and separators allowed); blank clears it.
func numberField[R any](key, label string, at func(*R) **float64, parse func(string) (*float64, error)) Field[R] {
	return parsedField(key, label, at, parse, func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	})
}

// countField is a whole number (capacity units, a count); blank clears it.
func countField[R any](key, label string, at func(*R) **int64) Field[R] {
	return parsedField(key, label, at, parseCount, func(n *int64) string {
		if n == nil {
			return ""
		}
		return strconv.FormatInt(*n, 10)
	})
}

// answerField is a yes/no answer; blank means not answered.
func answerField[R any](key, label string, at func(*R) **bool) Field[R] {
	return parsedField(key, label, at, ParseTriState, formatAnswer)
}

func formatAnswer(b *bool) string {
	switch {
	case b == nil:
		return ""
	case *b:
		return "yes"
	}
	return "no"
}

// entityField names an entity of the design.
func entityField[R any](key, label string, at func(*R) *string) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return *at(&r) },
		set: func(d *Design, r *R, name, value string) error {
			e, _, err := findEntity(*d, name, value)
			if err == nil {
				*at(r) = e.Name
			}
			return err
		}}
}

// listField is a comma-separated list read by parse; a form shows it joined by ", ".
func listField[R any](key, label string, at func(*R) *[]string, parse func(d Design, name, value string) ([]string, error)) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return strings.Join(*at(&r), ", ") },
		set: func(d *Design, r *R, name, value string) error {
			list, err := parse(*d, name, value)
			if err == nil {
				*at(r) = list
			}
			return err
		}}
}

// OverviewFields are the fields SetOverviewField sets, in the order the overview shows them.
var OverviewFields = []Field[Overview]{
	proseField("domain", "domain", func(o *Overview) *string { return &o.Domain }),
	proseField("key_entities", "key entities", func(o *Overview) *string { return &o.KeyEntities }),
	proseField("business_context", "business context", func(o *Overview) *string { return &o.BusinessContext }),
	proseField("scale", "scale", func(o *Overview) *string { return &o.Scale }),
	proseField("notes", "notes", func(o *Overview) *string { return &o.Notes }),
}

// RelationshipFields are the fields SetRelationshipField sets; an empty count clears it.
var RelationshipFields = []Field[Relationship]{
	entityField("from", "from entity", func(r *Relationship) *string { return &r.From }),
	entityField("to", "to entity", func(r *Relationship) *string { return &r.To }),
	choiceField("kind", "kind", func(r *Relationship) *string { return &r.Kind }, ParseRelationshipKind),
	countField("avg_count", "average count", func(r *Relationship) **int64 { return &r.Avg }),
	countField("max_count", "maximum count", func(r *Relationship) **int64 { return &r.Max }),
	proseField("notes", "notes", func(r *Relationship) *string { return &r.Notes }),
}

// PatternFields are the fields SetPatternField sets: numbers may have thousands separators and
// units, enumerations may be spelt as people spell them, lists are comma-separated.
var PatternFields = []Field[Pattern]{
	{Key: patternNumberKey, Label: "number", Get: func(p Pattern) string { return strconv.Itoa(p.Number) }, set: setPatternNumber},
	proseField("description", "description", func(p *Pattern) *string { return &p.Description }),
	choiceField("type", "type", func(p *Pattern) *string { return &p.Type }, ParsePatternType),
	numberField("peak_rps", "peak RPS", func(p *Pattern) **float64 { return &p.PeakRPS }, ParseRPS),
	numberField("avg_rps", "average RPS", func(p *Pattern) **float64 { return &p.AvgRPS }, ParseRPS),
	listField("attributes", "attributes", func(p *Pattern) *[]string { return &p.Attributes },
		func(_ Design, name, value string) ([]string, error) { return nameList(name, value) }),
	textField("latency_slo", "latency SLO", func(p *Pattern) *string { return &p.LatencySLO }),
	choiceField("consistency", "consistency", func(p *Pattern) *string { return &p.Consistency }, ParseConsistency),
	textField("result_bound", "result bound", func(p *Pattern) *string { return &p.ResultBound }),
	textField("item_size_band", "item size band", func(p *Pattern) *string { return &p.SizeBand }),
	proseField("key_notes", "key notes", func(p *Pattern) *string { return &p.KeyNotes }),
	proseField("considerations", "considerations", func(p *Pattern) *string { return &p.Considerations }),
	choiceField("status", "status", func(p *Pattern) *string { return &p.Status }, ParseStatus),
	listField("entities", "entities", func(p *Pattern) *[]string { return &p.Entities },
		func(d Design, name, value string) ([]string, error) { return entityList(d, name, splitList(value)) }),
}

// OperationFields are the fields SetOperationField sets, in the order its refusal lists them.
var OperationFields = []Field[Operation]{
	{Key: "op", Label: "API call", Get: func(op Operation) string { return op.Op }, set: setOperationName},
	{Key: "table", Label: "table", Get: func(op Operation) string { return op.Table }, set: setOperationTable},
	{Key: "index", Label: "index", Get: func(op Operation) string { return op.Index },
		set: func(d *Design, op *Operation, _, value string) (err error) {
			op.Index, err = operationIndex(*d, *op, strings.TrimSpace(value))
			return err
		}},
	textField("key_condition", "key condition", func(op *Operation) *string { return &op.KeyCondition }),
	textField("filter", "filter", func(op *Operation) *string { return &op.Filter }),
	textField("projection", "projection", func(op *Operation) *string { return &op.Projection }),
	parsedField("limit", "limit", func(op *Operation) **int { return &op.Limit }, parseLimit, func(n *int) string {
		if n == nil {
			return ""
		}
		return strconv.Itoa(*n)
	}),
	parsedField("direction", "direction", func(op *Operation) *bool { return &op.Descending }, parseDirection, func(desc bool) string {
		if desc {
			return "desc"
		}
		return "asc"
	}),
	parsedField("consistent", "consistency", func(op *Operation) *bool { return &op.Consistent }, parseConsistentRead, func(strong bool) string {
		return formatAnswer(&strong)
	}),
	{Key: "names", Label: "names", Get: FormatOperationNames,
		set: func(_ *Design, op *Operation, _, value string) (err error) {
			op.Names, err = ParseOperationNames(value)
			return err
		}},
	{Key: "values", Label: "values", Get: FormatOperationValues,
		set: func(_ *Design, op *Operation, _, value string) (err error) {
			op.Values, err = ParseOperationValues(value)
			return err
		}},
	{Key: "action", Label: "action", Get: func(op Operation) string { return op.Action },
		set: func(_ *Design, op *Operation, _, value string) (err error) {
			op.Action, err = parseAction(op.Op, value)
			return err
		}},
	proseField("notes", "notes", func(op *Operation) *string { return &op.Notes }),
}

// operationFieldKeys lists the keys of OperationFields for a refusal.
func operationFieldKeys() string {
	keys := make([]string, len(OperationFields))
	for i, f := range OperationFields {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}

// AggregateFields are the fields SetAggregateField sets. Percentages may end in "%"; yes/no
// answers accept yes, no, true, false or blank for "not answered"; the decision may be worded as
// the seed words it.
var AggregateFields = []Field[AggregateAnalysis]{
	entityField("entity_a", "first entity", func(a *AggregateAnalysis) *string { return &a.EntityA }),
	entityField("entity_b", "second entity", func(a *AggregateAnalysis) *string { return &a.EntityB }),
	numberField("correlation_pct", "access correlation", func(a *AggregateAnalysis) **float64 { return &a.CorrelationPct }, ParsePercent),
	numberField("only_a_pct", "share of reads of the first only", func(a *AggregateAnalysis) **float64 { return &a.OnlyAPct }, ParsePercent),
	numberField("only_b_pct", "share of reads of the second only", func(a *AggregateAnalysis) **float64 { return &a.OnlyBPct }, ParsePercent),
	numberField("both_pct", "share of reads of both", func(a *AggregateAnalysis) **float64 { return &a.BothPct }, ParsePercent),
	proseField("size_constraints", "size constraints", func(a *AggregateAnalysis) *string { return &a.Size }),
	numberField("combined_kb", "combined size", func(a *AggregateAnalysis) **float64 { return &a.CombinedKB }, ParseKB),
	answerField("bounded", "bounded answer", func(a *AggregateAnalysis) **bool { return &a.Bounded }),
	proseField("update_patterns", "update patterns", func(a *AggregateAnalysis) *string { return &a.Updates }),
	answerField("child_independent", "answer to \"can the child exist alone?\"",
		func(a *AggregateAnalysis) **bool { return &a.Identifying.ChildIndependent }),
	answerField("parent_id_known", "answer to \"is the parent id always known?\"",
		func(a *AggregateAnalysis) **bool { return &a.Identifying.ParentIDKnown }),
	answerField("separate_table_planned", "answer to \"is a separate table planned?\"",
		func(a *AggregateAnalysis) **bool { return &a.Identifying.SeparateTablePlanned }),
	choiceField("decision", "decision", func(a *AggregateAnalysis) *string { return &a.Decision }, ParseAggregateDecision),
	proseField("justification", "justification", func(a *AggregateAnalysis) *string { return &a.Justification }),
}

// ConsolidationFields are the fields SetConsolidationField sets.
var ConsolidationFields = []Field[ConsolidationReview]{
	entityField("parent", "parent", func(r *ConsolidationReview) *string { return &r.Parent }),
	entityField("child", "child", func(r *ConsolidationReview) *string { return &r.Child }),
	textField("relationship", "relationship", func(r *ConsolidationReview) *string { return &r.Relationship }),
	numberField("overlap_pct", "access overlap", func(r *ConsolidationReview) **float64 { return &r.OverlapPct }, ParsePercent),
	answerField("bounded", "bounded answer", func(r *ConsolidationReview) **bool { return &r.Bounded }),
	answerField("identifying", "identifying answer", func(r *ConsolidationReview) **bool { return &r.Identifying }),
	choiceField("decision", "decision", func(r *ConsolidationReview) *string { return &r.Decision }, ParseConsolidationDecision),
	proseField("justification", "justification", func(r *ConsolidationReview) *string { return &r.Justification }),
}

// ConsiderationFields are the headings of the design-considerations scratchpad, as SetConsideration
// and paths name them.
var ConsiderationFields = []Field[Considerations]{
	proseField("hot_partitions", "hot partitions", func(c *Considerations) *string { return &c.HotPartitions }),
	proseField("gsi_projections", "gsi projections", func(c *Considerations) *string { return &c.GSIProjections }),
	proseField("sparse_gsis", "sparse gsis", func(c *Considerations) *string { return &c.SparseGSIs }),
	proseField("item_collections", "item collections", func(c *Considerations) *string { return &c.ItemCollections }),
	proseField("multi_entity_queries", "multi entity queries", func(c *Considerations) *string { return &c.MultiEntityQueries }),
	proseField("denormalization", "denormalization", func(c *Considerations) *string { return &c.Denormalization }),
}

// TableFields are the fields SetTableField sets, in the order a form shows them. The billing mode
// may be written "on-demand" or "provisioned"; a blank TTL attribute turns TTL off.
var TableFields = []Field[Table]{
	proseField("purpose", "purpose", func(t *Table) *string { return &t.Purpose }),
	proseField("aggregate_boundary", "aggregate boundary", func(t *Table) *string { return &t.AggregateBoundary }),
	proseField("partition_key_justification", "partition key justification", func(t *Table) *string { return &t.PartitionKeyWhy }),
	proseField("sort_key_justification", "sort key justification", func(t *Table) *string { return &t.SortKeyWhy }),
	proseField("bounded_read_strategy", "bounded read strategy", func(t *Table) *string { return &t.BoundedReads }),
	proseField("capacity_notes", "capacity notes", func(t *Table) *string { return &t.Capacity }),
	{Key: "ttl_attribute", Label: "TTL attribute",
		Get: func(t Table) string { return t.TTLAttribute },
		set: func(_ *Design, t *Table, name, value string) (err error) {
			t.TTLAttribute = ""
			if strings.TrimSpace(value) != "" {
				t.TTLAttribute, err = CleanName(name, value)
			}
			return err
		}},
	choiceField(billingModeKey, "billing mode", func(t *Table) *string { return &t.BillingMode }, ParseBillingMode),
	countField("read_capacity_units", "read capacity units", func(t *Table) **int64 { return &t.ReadUnits }),
	countField("write_capacity_units", "write capacity units", func(t *Table) **int64 { return &t.WriteUnits }),
}

// EntityTypeFields are the fields SetEntityTypeField sets; a key template such as USER#{user_id}
// is one line, blank allowed.
var EntityTypeFields = []Field[EntityType]{
	{Key: "entity", Label: "entity", Get: func(et EntityType) string { return et.Entity },
		set: func(_ *Design, et *EntityType, name, value string) (err error) {
			et.Entity, err = CleanName(name, value)
			return err
		}},
	templateField("pk_template", "PK template", func(et *EntityType) *string { return &et.PKTemplate }),
	templateField("sk_template", "SK template", func(et *EntityType) *string { return &et.SKTemplate }),
	proseField("description", "description", func(et *EntityType) *string { return &et.Description }),
}

func templateField[R any](key, label string, at func(*R) *string) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return *at(&r) },
		set: func(_ *Design, r *R, name, value string) (err error) {
			*at(r), err = cleanTemplate(name, value)
			return err
		}}
}

// IndexFields are the fields SetIndexField sets, in the order a form shows them; sparse is yes or
// no.
var IndexFields = []Field[Index]{
	proseField("purpose", "purpose", func(ix *Index) *string { return &ix.Purpose }),
	proseField("partition_key_justification", "partition key justification", func(ix *Index) *string { return &ix.PartitionKeyWhy }),
	proseField("sort_key_justification", "sort key justification", func(ix *Index) *string { return &ix.SortKeyWhy }),
	proseField("projection_justification", "projection justification", func(ix *Index) *string { return &ix.ProjectionWhy }),
	{Key: sparseKey, Label: "sparse flag", Prose: true,
		Get: func(ix Index) string {
			if ix.Sparse {
				return "yes"
			}
			return "no"
		},
		set: func(_ *Design, ix *Index, _, value string) error {
			sparse, err := ParseTriState(value)
			if err == nil {
				ix.Sparse = sparse != nil && *sparse
			}
			return err
		}},
	proseField("sparse_note", "sparse note", func(ix *Index) *string { return &ix.SparseNote }),
	proseField("capacity_notes", "capacity notes", func(ix *Index) *string { return &ix.Capacity }),
}
