package designer

import (
	"fmt"
	"slices"
	"strings"
)

// Changes to the aggregate analyses, the consolidation reviews and the design-considerations
// scratchpad.

// entityPair checks the two entities of an analysis or review: both exist and they differ.
func entityPair(d Design, fieldA, a, fieldB, b string) error {
	if _, _, err := findEntity(d, fieldA, a); err != nil {
		return err
	}
	if _, _, err := findEntity(d, fieldB, b); err != nil {
		return err
	}
	if a == b {
		return Invalid(fieldB, "is %q too; pick two different entities", b)
	}
	return nil
}

func aggregateLabel(d Design, id string) string {
	if a, _, ok := d.AggregateByID(id); ok {
		return fmt.Sprintf("aggregate %s + %s", shorten(a.EntityA), shorten(a.EntityB))
	}
	return "aggregate " + id
}

func consolidationLabel(d Design, id string) string {
	if c, _, ok := d.ConsolidationByID(id); ok {
		return fmt.Sprintf("consolidation %s → %s", shorten(c.Parent), shorten(c.Child))
	}
	return "consolidation " + id
}

// AddAggregate adds an aggregate analysis of two entities.
type AddAggregate struct {
	EntityA string `json:"entity_a"`
	EntityB string `json:"entity_b"`
}

func (AddAggregate) Kind() string { return "add_aggregate" }

func (c AddAggregate) Apply(d Design) (Design, error) {
	if err := entityPair(d, "entity_a", c.EntityA, "entity_b", c.EntityB); err != nil {
		return d, err
	}
	if slices.ContainsFunc(d.Aggregates, func(a AggregateAnalysis) bool {
		return a.EntityA == c.EntityA && a.EntityB == c.EntityB || a.EntityA == c.EntityB && a.EntityB == c.EntityA
	}) {
		return d, Invalid("entity_b", "there is already an analysis of %q and %q", c.EntityA, c.EntityB)
	}
	id := nextID(d.Aggregates, AggregateIDPrefix, func(a *AggregateAnalysis) string { return a.ID })
	d.Aggregates = append(slices.Clip(d.Aggregates), AggregateAnalysis{ID: id, EntityA: c.EntityA, EntityB: c.EntityB})
	return d, nil
}

func (c AddAggregate) Summary() string {
	return fmt.Sprintf("Added an aggregate analysis of %q and %q", shorten(c.EntityA), shorten(c.EntityB))
}
func (AddAggregate) Paths() []string { return []string{"aggregates"} }

// AggregateFields are the fields SetAggregateField sets.
var AggregateFields = []string{
	"entity_a", "entity_b", "correlation_pct", "only_a_pct", "only_b_pct", "both_pct", "size_constraints",
	"combined_kb", "bounded", "update_patterns", "child_independent", "parent_id_known",
	"separate_table_planned", "decision", "justification",
}

var aggregateLabels = map[string]string{
	"entity_a": "first entity", "entity_b": "second entity", "correlation_pct": "access correlation",
	"only_a_pct": "share of reads of the first only", "only_b_pct": "share of reads of the second only",
	"both_pct": "share of reads of both", "size_constraints": "size constraints", "combined_kb": "combined size",
	"bounded": "bounded answer", "update_patterns": "update patterns",
	"child_independent":      "answer to \"can the child exist alone?\"",
	"parent_id_known":        "answer to \"is the parent id always known?\"",
	"separate_table_planned": "answer to \"is a separate table planned?\"",
	"decision":               "decision", "justification": "justification",
}

// SetAggregateField sets one field of an aggregate analysis from what a person typed. Percentages
// may end in "%"; yes/no answers accept yes, no, true, false or blank for "not answered"; the
// decision may be worded as the seed words it.
type SetAggregateField struct {
	ID    string `json:"id"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetAggregateField) Kind() string { return "set_aggregate_field" }

func (c SetAggregateField) Apply(d Design) (Design, error) {
	a, i, ok := d.AggregateByID(c.ID)
	if !ok {
		return d, Invalid("id", "no aggregate analysis with id %q; it may have been deleted", c.ID)
	}
	var err error
	switch c.Field {
	case "entity_a", "entity_b":
		if _, _, err = findEntity(d, c.Field, c.Value); err == nil {
			if c.Field == "entity_a" {
				a.EntityA = c.Value
			} else {
				a.EntityB = c.Value
			}
		}
	case "correlation_pct":
		a.CorrelationPct, err = ParsePercent(c.Value)
	case "only_a_pct":
		a.OnlyAPct, err = ParsePercent(c.Value)
	case "only_b_pct":
		a.OnlyBPct, err = ParsePercent(c.Value)
	case "both_pct":
		a.BothPct, err = ParsePercent(c.Value)
	case "size_constraints":
		a.Size, err = CleanText(c.Field, c.Value)
	case "combined_kb":
		a.CombinedKB, err = ParseKB(c.Value)
	case "bounded":
		a.Bounded, err = ParseTriState(c.Value)
	case "update_patterns":
		a.Updates, err = CleanText(c.Field, c.Value)
	case "child_independent":
		a.Identifying.ChildIndependent, err = ParseTriState(c.Value)
	case "parent_id_known":
		a.Identifying.ParentIDKnown, err = ParseTriState(c.Value)
	case "separate_table_planned":
		a.Identifying.SeparateTablePlanned, err = ParseTriState(c.Value)
	case "decision":
		a.Decision, err = ParseAggregateDecision(c.Value)
	case "justification":
		a.Justification, err = CleanText(c.Field, c.Value)
	default:
		return d, Invalid("field", "aggregate analyses have no field %q", c.Field)
	}
	if err != nil {
		return d, fieldError(c.Field, err)
	}
	d.Aggregates = replaceAt(d.Aggregates, i, a)
	return d, nil
}

func (c SetAggregateField) Summary() string { return c.summary("aggregate " + c.ID) }
func (c SetAggregateField) Describe(before Design) string {
	return c.summary(aggregateLabel(before, c.ID))
}
func (c SetAggregateField) summary(label string) string {
	prose := c.Field == "size_constraints" || c.Field == "update_patterns" || c.Field == "justification"
	return fieldSummary("the %s of "+label, aggregateLabels[c.Field], c.Value, prose)
}
func (c SetAggregateField) Paths() []string { return []string{"aggregates/" + c.ID + "/" + c.Field} }

// DeleteAggregate deletes an aggregate analysis.
type DeleteAggregate struct {
	ID string `json:"id"`
}

func (DeleteAggregate) Kind() string { return "delete_aggregate" }

func (c DeleteAggregate) Apply(d Design) (Design, error) {
	_, i, ok := d.AggregateByID(c.ID)
	if !ok {
		return d, Invalid("id", "no aggregate analysis with id %q; it may have been deleted", c.ID)
	}
	d.Aggregates = slices.Delete(slices.Clone(d.Aggregates), i, i+1)
	return d, nil
}

func (c DeleteAggregate) Summary() string { return "Deleted aggregate " + c.ID }
func (c DeleteAggregate) Describe(before Design) string {
	return "Deleted " + aggregateLabel(before, c.ID)
}
func (c DeleteAggregate) Paths() []string { return []string{"aggregates/" + c.ID} }

// AddConsolidation adds a consolidation review of a parent and a child entity.
type AddConsolidation struct {
	Parent string `json:"parent"`
	Child  string `json:"child"`
}

func (AddConsolidation) Kind() string { return "add_consolidation" }

func (c AddConsolidation) Apply(d Design) (Design, error) {
	if err := entityPair(d, "parent", c.Parent, "child", c.Child); err != nil {
		return d, err
	}
	if slices.ContainsFunc(d.Consolidations, func(r ConsolidationReview) bool { return r.Parent == c.Parent && r.Child == c.Child }) {
		return d, Invalid("child", "there is already a review of %q as a child of %q", c.Child, c.Parent)
	}
	id := nextID(d.Consolidations, ConsolidationIDPrefix, func(r *ConsolidationReview) string { return r.ID })
	d.Consolidations = append(slices.Clip(d.Consolidations), ConsolidationReview{ID: id, Parent: c.Parent, Child: c.Child})
	return d, nil
}

func (c AddConsolidation) Summary() string {
	return fmt.Sprintf("Added a consolidation review of %q into %q", shorten(c.Child), shorten(c.Parent))
}
func (AddConsolidation) Paths() []string { return []string{"consolidations"} }

// ConsolidationFields are the fields SetConsolidationField sets.
var ConsolidationFields = []string{
	"parent", "child", "relationship", "overlap_pct", "bounded", "identifying", "decision", "justification",
}

var consolidationLabels = map[string]string{
	"parent": "parent", "child": "child", "relationship": "relationship", "overlap_pct": "access overlap",
	"bounded": "bounded answer", "identifying": "identifying answer", "decision": "decision",
	"justification": "justification",
}

// SetConsolidationField sets one field of a consolidation review from what a person typed.
type SetConsolidationField struct {
	ID    string `json:"id"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetConsolidationField) Kind() string { return "set_consolidation_field" }

func (c SetConsolidationField) Apply(d Design) (Design, error) {
	r, i, ok := d.ConsolidationByID(c.ID)
	if !ok {
		return d, Invalid("id", "no consolidation review with id %q; it may have been deleted", c.ID)
	}
	var err error
	switch c.Field {
	case "parent", "child":
		if _, _, err = findEntity(d, c.Field, c.Value); err == nil {
			if c.Field == "parent" {
				r.Parent = c.Value
			} else {
				r.Child = c.Value
			}
		}
	case "relationship":
		r.Relationship, err = CleanText(c.Field, c.Value)
	case "overlap_pct":
		r.OverlapPct, err = ParsePercent(c.Value)
	case "bounded":
		r.Bounded, err = ParseTriState(c.Value)
	case "identifying":
		r.Identifying, err = ParseTriState(c.Value)
	case "decision":
		r.Decision, err = ParseConsolidationDecision(c.Value)
	case "justification":
		r.Justification, err = CleanText(c.Field, c.Value)
	default:
		return d, Invalid("field", "consolidation reviews have no field %q", c.Field)
	}
	if err != nil {
		return d, fieldError(c.Field, err)
	}
	d.Consolidations = replaceAt(d.Consolidations, i, r)
	return d, nil
}

func (c SetConsolidationField) Summary() string { return c.summary("consolidation " + c.ID) }
func (c SetConsolidationField) Describe(before Design) string {
	return c.summary(consolidationLabel(before, c.ID))
}
func (c SetConsolidationField) summary(label string) string {
	return fieldSummary("the %s of "+label, consolidationLabels[c.Field], c.Value, c.Field == "justification")
}
func (c SetConsolidationField) Paths() []string {
	return []string{"consolidations/" + c.ID + "/" + c.Field}
}

// DeleteConsolidation deletes a consolidation review.
type DeleteConsolidation struct {
	ID string `json:"id"`
}

func (DeleteConsolidation) Kind() string { return "delete_consolidation" }

func (c DeleteConsolidation) Apply(d Design) (Design, error) {
	_, i, ok := d.ConsolidationByID(c.ID)
	if !ok {
		return d, Invalid("id", "no consolidation review with id %q; it may have been deleted", c.ID)
	}
	d.Consolidations = slices.Delete(slices.Clone(d.Consolidations), i, i+1)
	return d, nil
}

func (c DeleteConsolidation) Summary() string { return "Deleted consolidation " + c.ID }
func (c DeleteConsolidation) Describe(before Design) string {
	return "Deleted " + consolidationLabel(before, c.ID)
}
func (c DeleteConsolidation) Paths() []string { return []string{"consolidations/" + c.ID} }

// ConsiderationFields are the headings of the design-considerations scratchpad, as used by
// SetConsideration and in paths.
var ConsiderationFields = []string{
	"hot_partitions", "gsi_projections", "sparse_gsis", "item_collections", "multi_entity_queries", "denormalization",
}

// SetConsideration sets the text under one heading of the design-considerations scratchpad.
type SetConsideration struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetConsideration) Kind() string { return "set_consideration" }

func (c SetConsideration) Apply(d Design) (Design, error) {
	target := d.Considerations.field(c.Field)
	if target == nil {
		return d, Invalid("field", "the design considerations have no heading %q", c.Field)
	}
	value, err := CleanText("considerations/"+c.Field, c.Value)
	if err != nil {
		return d, err
	}
	*target = value
	return d, nil
}

func (c SetConsideration) Summary() string {
	return "Edited the design considerations on " + strings.ReplaceAll(c.Field, "_", " ")
}
func (c SetConsideration) Paths() []string { return []string{"considerations/" + c.Field} }

// field returns a pointer into c for a heading, or nil. c must be a copy the caller owns.
func (c *Considerations) field(name string) *string {
	switch name {
	case "hot_partitions":
		return &c.HotPartitions
	case "gsi_projections":
		return &c.GSIProjections
	case "sparse_gsis":
		return &c.SparseGSIs
	case "item_collections":
		return &c.ItemCollections
	case "multi_entity_queries":
		return &c.MultiEntityQueries
	case "denormalization":
		return &c.Denormalization
	}
	return nil
}

// Field returns the text under one heading by name.
func (c Considerations) Field(name string) string {
	if p := c.field(name); p != nil {
		return *p
	}
	return ""
}
