package designer

import (
	"fmt"
	"slices"
	"strings"
)

func init() {
	register[AddAggregate]()
	register[SetAggregateField]()
	register[DeleteAggregate]()
	register[AddConsolidation]()
	register[SetConsolidationField]()
	register[DeleteConsolidation]()
	register[SetConsideration]()
	register[SetProse]()
}

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
	id := nextID(d.Aggregates, aggregateIDPrefix, func(a *AggregateAnalysis) string { return a.ID })
	d.Aggregates = append(slices.Clip(d.Aggregates), AggregateAnalysis{ID: id, EntityA: c.EntityA, EntityB: c.EntityB})
	return d, nil
}

func (c AddAggregate) Summary() string {
	return fmt.Sprintf("Added an aggregate analysis of %q and %q", shorten(c.EntityA), shorten(c.EntityB))
}
func (AddAggregate) Paths() []Path { return []Path{PathAggregates} }

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
	f, ok := FieldNamed(AggregateFields, c.Field)
	if !ok {
		return d, Invalid("field", "aggregate analyses have no field %q", c.Field)
	}
	if err := f.apply(&d, &a, c.Value); err != nil {
		return d, err
	}
	d.Aggregates = replaceAt(d.Aggregates, i, a)
	return d, nil
}

func (c SetAggregateField) Summary() string { return c.summary("aggregate " + c.ID) }
func (c SetAggregateField) Describe(before Design) string {
	return c.summary(aggregateLabel(before, c.ID))
}
func (c SetAggregateField) summary(label string) string {
	f, _ := FieldNamed(AggregateFields, c.Field)
	return f.summary("the %s of "+label, c.Value)
}
func (c SetAggregateField) Paths() []Path { return []Path{AggregatePath(c.ID, c.Field)} }

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
func (c DeleteAggregate) Paths() []Path { return []Path{AggregatePath(c.ID, "")} }

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
	id := nextID(d.Consolidations, consolidationIDPrefix, func(r *ConsolidationReview) string { return r.ID })
	d.Consolidations = append(slices.Clip(d.Consolidations), ConsolidationReview{ID: id, Parent: c.Parent, Child: c.Child})
	return d, nil
}

func (c AddConsolidation) Summary() string {
	return fmt.Sprintf("Added a consolidation review of %q into %q", shorten(c.Child), shorten(c.Parent))
}
func (AddConsolidation) Paths() []Path { return []Path{PathConsolidations} }

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
	f, ok := FieldNamed(ConsolidationFields, c.Field)
	if !ok {
		return d, Invalid("field", "consolidation reviews have no field %q", c.Field)
	}
	if err := f.apply(&d, &r, c.Value); err != nil {
		return d, err
	}
	d.Consolidations = replaceAt(d.Consolidations, i, r)
	return d, nil
}

func (c SetConsolidationField) Summary() string { return c.summary("consolidation " + c.ID) }
func (c SetConsolidationField) Describe(before Design) string {
	return c.summary(consolidationLabel(before, c.ID))
}
func (c SetConsolidationField) summary(label string) string {
	f, _ := FieldNamed(ConsolidationFields, c.Field)
	return f.summary("the %s of "+label, c.Value)
}
func (c SetConsolidationField) Paths() []Path {
	return []Path{ConsolidationPath(c.ID, c.Field)}
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
func (c DeleteConsolidation) Paths() []Path { return []Path{ConsolidationPath(c.ID, "")} }

// SetConsideration sets the text under one heading of the design-considerations scratchpad.
type SetConsideration struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetConsideration) Kind() string { return "set_consideration" }

func (c SetConsideration) Apply(d Design) (Design, error) {
	f, ok := FieldNamed(ConsiderationFields, c.Field)
	if !ok {
		return d, Invalid("field", "the design considerations have no heading %q", c.Field)
	}
	if err := f.set(&d, &d.Considerations, "considerations/"+c.Field, c.Value); err != nil {
		return d, err
	}
	return d, nil
}

func (c SetConsideration) Summary() string {
	f, ok := FieldNamed(ConsiderationFields, c.Field)
	if !ok {
		f.Label = strings.ReplaceAll(c.Field, "_", " ")
	}
	return "Edited the design considerations on " + f.Label
}
func (c SetConsideration) Paths() []Path { return []Path{ConsiderationPath(c.Field)} }

// SetProse sets one narrative section of the data model (ProseFields).
type SetProse struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetProse) Kind() string { return "set_prose" }

func (c SetProse) Apply(d Design) (Design, error) {
	f, ok := FieldNamed(ProseFields, c.Field)
	if !ok {
		return d, Invalid("field", "the data model has no section %q", c.Field)
	}
	if err := f.set(&d, &d.Prose, "prose/"+c.Field, c.Value); err != nil {
		return d, err
	}
	return d, nil
}

func (c SetProse) Summary() string {
	f, ok := FieldNamed(ProseFields, c.Field)
	if !ok {
		f.Label = strings.ReplaceAll(c.Field, "_", " ")
	}
	return "Edited the data model's " + f.Label
}
func (c SetProse) Paths() []Path { return []Path{ProsePath(c.Field)} }

// Field returns the text under one heading by name.
func (c Considerations) Field(name string) string {
	if f, ok := FieldNamed(ConsiderationFields, name); ok {
		return f.Get(c)
	}
	return ""
}
