package designer

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field is one field of a row kind (a table, a pattern, an operation…) that a person sets by
// typing: its key, the name forms, changes and paths use; its label, as a change's summary names
// it; Title, the heading a page shows it under where that is not the label with a capital (see
// Heading); Prose, whether it is free text, which a summary says was edited rather than quoting;
// Get, its value as a form shows it; and set, how the change that sets it reads the text typed.
// set may consult the design the row belongs to, and update it where other rows follow the field
// (a pattern's number); name is what a refusal names, usually the key. Also are the row's other
// members set writes with it (a count's unit, a figure's source), which the change's paths name
// too, so that undo and conflicts see them.
//
// Each row kind has its fields by name (PatternField.LatencySLO) and as a list (PatternFields),
// the one place each field is spelled.
type Field[R any] struct {
	Key, Label, Title string
	Also              []string
	Prose             bool
	Get               func(R) string
	set               func(d *Design, r *R, name, value string) error
}

// Heading is the heading a page shows the field under: its Title, else its label with a capital.
func (f Field[R]) Heading() string {
	if f.Title != "" {
		return f.Title
	}
	return upperFirst(f.Label)
}

// upperFirst is s with its first letter a capital.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// paths are the paths of the members a change of field f of the row at row sets.
func (f Field[R]) paths(row Path) []Path {
	out := []Path{row.Child(f.Key)}
	for _, m := range f.Also {
		out = append(out, row.Child(m))
	}
	return out
}

// titled returns f with the heading a page shows it under.
func (f Field[R]) titled(title string) Field[R] {
	f.Title = title
	return f
}

// FieldNamed finds a field of a row kind by key.
func FieldNamed[R any](fields []Field[R], key string) (Field[R], bool) {
	f, _, ok := Lookup(fields, key, keyOfField)
	return f, ok
}

// fieldsOf lists the fields of a row kind's set of named fields, in the order the set declares
// them, so that the list and the names cannot disagree.
func fieldsOf[R any](set any) []Field[R] {
	v := reflect.ValueOf(set)
	out := make([]Field[R], v.NumField())
	for i := range out {
		out[i] = v.Field(i).Interface().(Field[R])
	}
	return out
}

// FieldOwning finds the field a row member belongs to: the field of that key, or the field that
// writes it with its own (a count's unit), as a change's paths name both.
func FieldOwning[R any](fields []Field[R], member string) (Field[R], bool) {
	for _, f := range fields {
		if f.Key == member || slices.Contains(f.Also, member) {
			return f, true
		}
	}
	return Field[R]{}, false
}

func keyOfField[R any](f *Field[R]) string { return f.Key }

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

// relationshipCount is a relationship's average (whole false) or maximum count with its unit, as
// typed: "1.6", "4 per year", "1,200 orders"; blank clears both.
func relationshipCount(key, label string, whole bool) Field[Relationship] {
	at := func(r *Relationship) (*float64, *string) {
		if whole {
			var v *float64
			if r.Max != nil {
				f := float64(*r.Max)
				v = &f
			}
			return v, &r.MaxUnit
		}
		return r.Avg, &r.AvgUnit
	}
	unit := "avg_unit"
	if whole {
		unit = "max_unit"
	}
	return Field[Relationship]{Key: key, Label: label, Also: []string{unit},
		Get: func(r Relationship) string {
			v, unit := at(&r)
			return FormatCount(v, *unit)
		},
		set: func(_ *Design, r *Relationship, _, value string) error {
			v, unit, err := ParseCount(value, whole)
			if err != nil {
				return err
			}
			if whole {
				r.Max, r.MaxUnit = nil, unit
				if v != nil {
					n := int64(*v)
					r.Max = &n
				}
				return nil
			}
			r.Avg, r.AvgUnit = v, unit
			return nil
		}}
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

// OverviewField names the fields SetOverviewField sets; OverviewFields lists them in the order
// the overview shows them.
var OverviewField = struct{ Domain, KeyEntities, BusinessContext, Scale, Notes Field[Overview] }{
	Domain:          proseField("domain", "domain", func(o *Overview) *string { return &o.Domain }),
	KeyEntities:     proseField("key_entities", "key entities", func(o *Overview) *string { return &o.KeyEntities }),
	BusinessContext: proseField("business_context", "business context", func(o *Overview) *string { return &o.BusinessContext }),
	Scale:           proseField("scale", "scale", func(o *Overview) *string { return &o.Scale }),
	Notes:           proseField("notes", "notes", func(o *Overview) *string { return &o.Notes }),
}

var OverviewFields = fieldsOf[Overview](OverviewField)

// EntityField names the fields SetEntityField sets: the count is a whole number ("40,000"), the
// growth new items per period ("300 per day"), the retention how long items are kept ("7 years");
// each one the team sets says it came from the team, and blank clears it. The sources are text.
var EntityField = struct {
	Count, Growth, Retention, CountFrom, GrowthFrom, RetentionFrom, InState Field[Entity]
}{
	Count: teamCount(),
	Growth: scaleField("growth", "growth", func(e *Entity) (**float64, *string, *string) {
		return &e.Growth, &e.GrowthUnit, &e.GrowthFrom
	}, ParseGrowth, FormatGrowth).titled("New items"),
	Retention: scaleField("retention", "retention", func(e *Entity) (**float64, *string, *string) {
		return &e.Retention, &e.RetentionUnit, &e.RetentionFrom
	}, ParseRetention, FormatRetention).titled("Kept for"),
	CountFrom:     textField("count_from", "count source", func(e *Entity) *string { return &e.CountFrom }),
	GrowthFrom:    textField("growth_from", "growth source", func(e *Entity) *string { return &e.GrowthFrom }),
	RetentionFrom: textField("retention_from", "retention source", func(e *Entity) *string { return &e.RetentionFrom }),
	InState:       stateCountsField(),
}

var EntityFields = fieldsOf[Entity](EntityField)

// RelationshipField names the fields SetRelationshipField sets; an empty count clears it.
var RelationshipField = struct{ From, To, Kind, AvgCount, MaxCount, Notes Field[Relationship] }{
	From:     entityField("from", "from entity", func(r *Relationship) *string { return &r.From }),
	To:       entityField("to", "to entity", func(r *Relationship) *string { return &r.To }),
	Kind:     choiceField("kind", "kind", func(r *Relationship) *string { return &r.Kind }, ParseRelationshipKind).titled("Relationship kind"),
	AvgCount: relationshipCount("avg_count", "average count", false),
	MaxCount: relationshipCount("max_count", "maximum count", true),
	Notes:    proseField("notes", "notes", func(r *Relationship) *string { return &r.Notes }),
}

var RelationshipFields = fieldsOf[Relationship](RelationshipField)

// PatternField names the fields SetPatternField sets: numbers may have thousands separators and
// units, enumerations may be spelt as people spell them, lists are comma-separated.
var PatternField = struct {
	Number, Description, Type, PeakRPS, AvgRPS, ConditionalFailurePct, Attributes, LatencySLO, Consistency,
	ResultBound, ItemSizeBand, KeyNotes, Considerations, Status, Entities Field[Pattern]
}{
	Number: Field[Pattern]{Key: "number", Label: "number", Title: "#",
		Get: func(p Pattern) string { return strconv.Itoa(p.Number) }, set: setPatternNumber},
	Description: proseField("description", "description", func(p *Pattern) *string { return &p.Description }),
	Type:        choiceField("type", "type", func(p *Pattern) *string { return &p.Type }, ParsePatternType),
	PeakRPS:     numberField("peak_rps", "peak RPS", func(p *Pattern) **float64 { return &p.PeakRPS }, ParseRPS),
	AvgRPS:      numberField("avg_rps", "average RPS", func(p *Pattern) **float64 { return &p.AvgRPS }, ParseRPS).titled("Avg RPS"),
	ConditionalFailurePct: numberField("conditional_failure_pct", "conditional-failure rate",
		func(p *Pattern) **float64 { return &p.ConditionalFailurePct }, parseFailurePct).titled("Failed conditions %"),
	Attributes: listField("attributes", "attributes", func(p *Pattern) *[]string { return &p.Attributes },
		func(_ Design, name, value string) ([]string, error) { return nameList(name, value) }).titled("Attributes needed"),
	LatencySLO:     textField("latency_slo", "latency SLO", func(p *Pattern) *string { return &p.LatencySLO }),
	Consistency:    choiceField("consistency", "consistency", func(p *Pattern) *string { return &p.Consistency }, ParseConsistency),
	ResultBound:    textField("result_bound", "result bound", func(p *Pattern) *string { return &p.ResultBound }),
	ItemSizeBand:   textField("item_size_band", "item size band", func(p *Pattern) *string { return &p.SizeBand }).titled("Item size"),
	KeyNotes:       proseField("key_notes", "key notes", func(p *Pattern) *string { return &p.KeyNotes }).titled("Other key requirements"),
	Considerations: proseField("considerations", "considerations", func(p *Pattern) *string { return &p.Considerations }).titled("Design considerations"),
	Status:         choiceField("status", "status", func(p *Pattern) *string { return &p.Status }, ParseStatus),
	Entities: listField("entities", "entities", func(p *Pattern) *[]string { return &p.Entities },
		func(d Design, name, value string) ([]string, error) { return entityList(d, name, splitList(value)) }),
}

var PatternFields = fieldsOf[Pattern](PatternField)

// OperationField names the fields SetOperationField sets; OperationFields lists them in the order
// its refusal of an unknown field does.
var OperationField = struct {
	Op, Table, Index, KeyCondition, Filter, Projection, Limit, Direction, Consistent, Names, Values,
	Action, Notes, Condition, Update Field[Operation]
}{
	Op: Field[Operation]{Key: "op", Label: "API call", Title: "Operation",
		Get: func(op Operation) string { return op.Op }, set: setOperationName},
	Table: Field[Operation]{Key: "table", Label: "table", Get: func(op Operation) string { return op.Table }, set: setOperationTable},
	Index: Field[Operation]{Key: "index", Label: "index", Get: func(op Operation) string { return op.Index },
		set: func(d *Design, op *Operation, _, value string) (err error) {
			op.Index, err = operationIndex(*d, *op, strings.TrimSpace(value))
			return err
		}},
	KeyCondition: textField("key_condition", "key condition", func(op *Operation) *string { return &op.KeyCondition }),
	Filter:       textField("filter", "filter", func(op *Operation) *string { return &op.Filter }),
	Projection:   textField("projection", "projection", func(op *Operation) *string { return &op.Projection }),
	Limit: parsedField("limit", "limit", func(op *Operation) **int { return &op.Limit }, parseLimit, func(n *int) string {
		if n == nil {
			return ""
		}
		return strconv.Itoa(*n)
	}),
	Direction: parsedField("direction", "direction", func(op *Operation) *bool { return &op.Descending }, parseDirection, func(desc bool) string {
		if desc {
			return "desc"
		}
		return "asc"
	}),
	Consistent: parsedField("consistent", "consistency", func(op *Operation) *bool { return &op.Consistent }, parseConsistentRead, func(strong bool) string {
		return formatAnswer(&strong)
	}),
	Names: Field[Operation]{Key: "names", Label: "names", Title: "Names (#n=name)", Get: FormatOperationNames,
		set: func(_ *Design, op *Operation, _, value string) (err error) {
			op.Names, err = ParseOperationNames(value)
			return err
		}},
	Values: Field[Operation]{Key: "values", Label: "values", Title: "Values (:v=text)", Get: FormatOperationValues,
		set: func(_ *Design, op *Operation, _, value string) (err error) {
			op.Values, err = ParseOperationValues(value)
			return err
		}},
	Action: Field[Operation]{Key: "action", Label: "action", Get: func(op Operation) string { return op.Action },
		set: func(_ *Design, op *Operation, _, value string) (err error) {
			op.Action, err = parseAction(op.Op, value)
			return err
		}},
	Notes:     proseField("notes", "notes", func(op *Operation) *string { return &op.Notes }),
	Condition: textField("condition", "condition", func(op *Operation) *string { return &op.Condition }),
	Update:    textField("update", "update", func(op *Operation) *string { return &op.Update }),
}

var OperationFields = fieldsOf[Operation](OperationField)

// operationFieldKeys lists the keys of OperationFields for a refusal.
func operationFieldKeys() string {
	keys := make([]string, len(OperationFields))
	for i, f := range OperationFields {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}

// AggregateField names the fields SetAggregateField sets. Percentages may end in "%"; yes/no
// answers accept yes, no, true, false or blank for "not answered"; the decision may be worded as
// the seed words it.
var AggregateField = struct {
	EntityA, EntityB, CorrelationPct, OnlyAPct, OnlyBPct, BothPct, SizeConstraints, CombinedKB, Bounded,
	UpdatePatterns, ChildIndependent, ParentIDKnown, SeparateTablePlanned, Decision, Justification Field[AggregateAnalysis]
}{
	EntityA: entityField("entity_a", "first entity", func(a *AggregateAnalysis) *string { return &a.EntityA }),
	EntityB: entityField("entity_b", "second entity", func(a *AggregateAnalysis) *string { return &a.EntityB }),
	CorrelationPct: numberField("correlation_pct", "access correlation",
		func(a *AggregateAnalysis) **float64 { return &a.CorrelationPct }, ParsePercent).titled("Access correlation %"),
	OnlyAPct:        numberField("only_a_pct", "share of reads of the first only", func(a *AggregateAnalysis) **float64 { return &a.OnlyAPct }, ParsePercent),
	OnlyBPct:        numberField("only_b_pct", "share of reads of the second only", func(a *AggregateAnalysis) **float64 { return &a.OnlyBPct }, ParsePercent),
	BothPct:         numberField("both_pct", "share of reads of both", func(a *AggregateAnalysis) **float64 { return &a.BothPct }, ParsePercent).titled("Both together %"),
	SizeConstraints: proseField("size_constraints", "size constraints", func(a *AggregateAnalysis) *string { return &a.Size }),
	CombinedKB:      numberField("combined_kb", "combined size", func(a *AggregateAnalysis) **float64 { return &a.CombinedKB }, ParseKB).titled("Combined size (KB)"),
	Bounded:         answerField("bounded", "bounded answer", func(a *AggregateAnalysis) **bool { return &a.Bounded }).titled("Bounded growth"),
	UpdatePatterns:  proseField("update_patterns", "update patterns", func(a *AggregateAnalysis) *string { return &a.Updates }),
	ChildIndependent: answerField("child_independent", "answer to \"can the child exist alone?\"",
		func(a *AggregateAnalysis) **bool { return &a.Identifying.ChildIndependent }),
	ParentIDKnown: answerField("parent_id_known", "answer to \"is the parent id always known?\"",
		func(a *AggregateAnalysis) **bool { return &a.Identifying.ParentIDKnown }),
	SeparateTablePlanned: answerField("separate_table_planned", "answer to \"is a separate table planned?\"",
		func(a *AggregateAnalysis) **bool { return &a.Identifying.SeparateTablePlanned }).titled("Is a separate table with a GSI planned?"),
	Decision:      choiceField("decision", "decision", func(a *AggregateAnalysis) *string { return &a.Decision }, ParseAggregateDecision).titled("Team decision"),
	Justification: proseField("justification", "justification", func(a *AggregateAnalysis) *string { return &a.Justification }),
}

var AggregateFields = fieldsOf[AggregateAnalysis](AggregateField)

// ConsolidationField names the fields SetConsolidationField sets; ConsolidationFields lists them in
// the order a review's row shows them.
var ConsolidationField = struct {
	Parent, Child, Relationship, OverlapPct, Bounded, Identifying, Decision, Justification Field[ConsolidationReview]
}{
	Parent:       entityField("parent", "parent", func(r *ConsolidationReview) *string { return &r.Parent }),
	Child:        entityField("child", "child", func(r *ConsolidationReview) *string { return &r.Child }),
	Relationship: textField("relationship", "relationship", func(r *ConsolidationReview) *string { return &r.Relationship }),
	OverlapPct: numberField("overlap_pct", "access overlap",
		func(r *ConsolidationReview) **float64 { return &r.OverlapPct }, ParsePercent).titled("Access overlap %"),
	Bounded:       answerField("bounded", "bounded answer", func(r *ConsolidationReview) **bool { return &r.Bounded }).titled("Bounded"),
	Identifying:   answerField("identifying", "identifying answer", func(r *ConsolidationReview) **bool { return &r.Identifying }).titled("Identifying"),
	Decision:      choiceField("decision", "decision", func(r *ConsolidationReview) *string { return &r.Decision }, ParseConsolidationDecision),
	Justification: proseField("justification", "justification", func(r *ConsolidationReview) *string { return &r.Justification }),
}

var ConsolidationFields = fieldsOf[ConsolidationReview](ConsolidationField)

// ConsiderationField names the headings of the design-considerations scratchpad, as
// SetConsideration and paths name them; ConsiderationFields lists them in the template's order.
var ConsiderationField = struct {
	HotPartitions, GSIProjections, SparseGSIs, ItemCollections, MultiEntityQueries, Denormalization Field[Considerations]
}{
	HotPartitions:      proseField("hot_partitions", "hot partitions", func(c *Considerations) *string { return &c.HotPartitions }).titled("Hot partition concerns"),
	GSIProjections:     proseField("gsi_projections", "gsi projections", func(c *Considerations) *string { return &c.GSIProjections }).titled("GSI projections"),
	SparseGSIs:         proseField("sparse_gsis", "sparse gsis", func(c *Considerations) *string { return &c.SparseGSIs }).titled("Sparse GSI opportunities"),
	ItemCollections:    proseField("item_collections", "item collections", func(c *Considerations) *string { return &c.ItemCollections }).titled("Item collection opportunities"),
	MultiEntityQueries: proseField("multi_entity_queries", "multi entity queries", func(c *Considerations) *string { return &c.MultiEntityQueries }).titled("Multi-entity query patterns"),
	Denormalization:    proseField("denormalization", "denormalization", func(c *Considerations) *string { return &c.Denormalization }).titled("Denormalization ideas"),
}

var ConsiderationFields = fieldsOf[Considerations](ConsiderationField)

// ProseField names the data model's narrative sections, as SetProse and paths name them;
// ProseFields lists them in the order the data model document writes them.
var ProseField = struct{ DesignPhilosophy, AggregateDecisions, HotPartitionAnalysis, TradeOffs Field[Prose] }{
	DesignPhilosophy:     proseField("design_philosophy", "design philosophy", func(p *Prose) *string { return &p.DesignPhilosophy }).titled("Design philosophy & approach"),
	AggregateDecisions:   proseField("aggregate_decisions", "aggregate design decisions", func(p *Prose) *string { return &p.AggregateDecisions }),
	HotPartitionAnalysis: proseField("hot_partition_analysis", "hot partition analysis", func(p *Prose) *string { return &p.HotPartitions }),
	TradeOffs:            proseField("trade_offs", "trade-offs", func(p *Prose) *string { return &p.TradeOffs }).titled("Trade-offs and optimizations"),
}

var ProseFields = fieldsOf[Prose](ProseField)

// TableField names the fields SetTableField sets. The billing mode may be written "on-demand" or
// "provisioned"; a blank TTL attribute turns TTL off.
var TableField = struct {
	Purpose, AggregateBoundary, PartitionKeyJustification, SortKeyJustification, BoundedReadStrategy,
	CapacityNotes, TTLAttribute, BillingMode, TableClass, ReadCapacityUnits, WriteCapacityUnits Field[Table]
}{
	Purpose:                   proseField("purpose", "purpose", func(t *Table) *string { return &t.Purpose }),
	AggregateBoundary:         proseField("aggregate_boundary", "aggregate boundary", func(t *Table) *string { return &t.AggregateBoundary }),
	PartitionKeyJustification: proseField("partition_key_justification", "partition key justification", func(t *Table) *string { return &t.PartitionKeyWhy }),
	SortKeyJustification:      proseField("sort_key_justification", "sort key justification", func(t *Table) *string { return &t.SortKeyWhy }),
	BoundedReadStrategy:       proseField("bounded_read_strategy", "bounded read strategy", func(t *Table) *string { return &t.BoundedReads }),
	CapacityNotes:             proseField("capacity_notes", "capacity notes", func(t *Table) *string { return &t.Capacity }).titled("Capacity planning"),
	TTLAttribute: Field[Table]{Key: "ttl_attribute", Label: "TTL attribute",
		Get: func(t Table) string { return t.TTLAttribute },
		set: func(_ *Design, t *Table, name, value string) (err error) {
			t.TTLAttribute = ""
			if strings.TrimSpace(value) != "" {
				t.TTLAttribute, err = CleanName(name, value)
			}
			return err
		}},
	BillingMode:        choiceField("billing_mode", "billing mode", func(t *Table) *string { return &t.BillingMode }, parseBillingMode),
	TableClass:         choiceField("table_class", "table class", func(t *Table) *string { return &t.TableClass }, ParseTableClass),
	ReadCapacityUnits:  countField("read_capacity_units", "read capacity units", func(t *Table) **int64 { return &t.ReadUnits }),
	WriteCapacityUnits: countField("write_capacity_units", "write capacity units", func(t *Table) **int64 { return &t.WriteUnits }),
}

var TableFields = fieldsOf[Table](TableField)

// EntityTypeField names the fields SetEntityTypeField sets; a key template such as USER#{user_id}
// is one line, blank allowed.
var EntityTypeField = struct{ Entity, PKTemplate, SKTemplate, Description Field[EntityType] }{
	Entity: Field[EntityType]{Key: "entity", Label: "entity", Title: "Entity type", Get: func(et EntityType) string { return et.Entity },
		set: func(_ *Design, et *EntityType, name, value string) (err error) {
			et.Entity, err = CleanName(name, value)
			return err
		}},
	PKTemplate:  templateField("pk_template", "PK template", func(et *EntityType) *string { return &et.PKTemplate }),
	SKTemplate:  templateField("sk_template", "SK template", func(et *EntityType) *string { return &et.SKTemplate }),
	Description: proseField("description", "description", func(et *EntityType) *string { return &et.Description }),
}

var EntityTypeFields = fieldsOf[EntityType](EntityTypeField)

func templateField[R any](key, label string, at func(*R) *string) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return *at(&r) },
		set: func(_ *Design, r *R, name, value string) (err error) {
			*at(r), err = cleanTemplate(name, value)
			return err
		}}
}

// IndexField names the fields SetIndexField sets; sparse is yes or no.
var IndexField = struct {
	Purpose, PartitionKeyJustification, SortKeyJustification, ProjectionJustification, Sparse, SparseNote,
	CapacityNotes Field[Index]
}{
	Purpose:                   proseField("purpose", "purpose", func(ix *Index) *string { return &ix.Purpose }),
	PartitionKeyJustification: proseField("partition_key_justification", "partition key justification", func(ix *Index) *string { return &ix.PartitionKeyWhy }),
	SortKeyJustification:      proseField("sort_key_justification", "sort key justification", func(ix *Index) *string { return &ix.SortKeyWhy }),
	ProjectionJustification:   proseField("projection_justification", "projection justification", func(ix *Index) *string { return &ix.ProjectionWhy }),
	Sparse: Field[Index]{Key: "sparse", Label: "sparse flag", Title: "Sparse",
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
	SparseNote:    proseField("sparse_note", "sparse note", func(ix *Index) *string { return &ix.SparseNote }).titled("Sparse on"),
	CapacityNotes: proseField("capacity_notes", "capacity notes", func(ix *Index) *string { return &ix.Capacity }).titled("Capacity planning"),
}

var IndexFields = fieldsOf[Index](IndexField)
