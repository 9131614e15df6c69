package designer

import (
	"fmt"
	"slices"
	"strings"
)

func init() {
	register[AddAggregate]()
	register[FillAggregates]()
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

// AddAggregate adds an aggregate analysis of two entities. Fill is the field texts it starts with
// (keys of AggregateFields but the entities), such as AggregateFill finds in the design; the
// change keeps them as they were shown, so that it replays the same whatever the design says later.
type AddAggregate struct {
	EntityA string            `json:"entity_a"`
	EntityB string            `json:"entity_b"`
	Fill    map[string]string `json:"fill,omitempty"`
}

func (AddAggregate) Kind() string { return "add_aggregate" }

func (c AddAggregate) Apply(d Design) (Design, error) {
	if err := entityPair(d, "entity_a", c.EntityA, "entity_b", c.EntityB); err != nil {
		return d, err
	}
	if sameAggregate(d, c.EntityA, c.EntityB) >= 0 {
		return d, Invalid("entity_b", "there is already an analysis of %q and %q", c.EntityA, c.EntityB)
	}
	id := nextID(d.Aggregates, aggregateIDPrefix, func(a *AggregateAnalysis) string { return a.ID })
	d.Aggregates = append(slices.Clip(d.Aggregates), AggregateAnalysis{ID: id, EntityA: c.EntityA, EntityB: c.EntityB})
	return d, fillAggregate(&d, len(d.Aggregates)-1, c.Fill, true)
}

func (c AddAggregate) Summary() string {
	s := fmt.Sprintf("Added an aggregate analysis of %q and %q", shorten(c.EntityA), shorten(c.EntityB))
	if len(c.Fill) > 0 {
		s += ", with " + counted(len(c.Fill), "field", "fields") + " filled in"
	}
	return s
}
func (AddAggregate) Paths() []Path { return []Path{PathAggregates} }

// sameAggregate is the index of the analysis of a and b, either way round; -1 for none.
func sameAggregate(d Design, a, b string) int {
	return slices.IndexFunc(d.Aggregates, func(x AggregateAnalysis) bool {
		return x.EntityA == a && x.EntityB == b || x.EntityA == b && x.EntityB == a
	})
}

// fillAggregate sets the fields fill gives of the analysis at i: all of them when replace, else
// those the analysis has blank. A fill names no entity: the pair is the analysis's identity.
func fillAggregate(d *Design, i int, fill map[string]string, replace bool) error {
	af := AggregateField
	if err := knownKeys(fill, AggregateFields); err != nil {
		return err
	}
	a := d.Aggregates[i]
	for _, f := range AggregateFields {
		v, ok := fill[f.Key]
		if !ok {
			continue
		}
		if f.Key == af.EntityA.Key || f.Key == af.EntityB.Key {
			return Invalid(f.Key, "a fill cannot change the pair; add an analysis of the other pair instead")
		}
		if !replace && f.Get(a) != "" {
			continue
		}
		if err := f.apply(d, &a, v); err != nil {
			return err
		}
	}
	d.Aggregates = replaceAt(d.Aggregates, i, a)
	return nil
}

// FillAggregates analyses several pairs in one change: a pair not analysed yet is added with its
// fill, as AddAggregate adds it; a pair analysed already, either way round, gains the fields it
// has blank, or with Replace every field the fill gives. It is what "analyse each related pair"
// and a pasted aggregate section make.
type FillAggregates struct {
	Pairs   []AddAggregate `json:"pairs"`
	Replace bool           `json:"replace,omitempty"`
}

func (FillAggregates) Kind() string { return "fill_aggregates" }

func (c FillAggregates) Apply(d Design) (Design, error) {
	if len(c.Pairs) == 0 {
		return d, Invalid("pairs", "no pair to analyse")
	}
	for _, p := range c.Pairs {
		i := sameAggregate(d, p.EntityA, p.EntityB)
		if i < 0 {
			var err error
			if d, err = p.Apply(d); err != nil {
				return d, pairError(p, err)
			}
			continue
		}
		fill := p.Fill
		if d.Aggregates[i].EntityA != p.EntityA {
			fill = swappedFill(fill)
		}
		if err := fillAggregate(&d, i, fill, c.Replace); err != nil {
			return d, pairError(p, err)
		}
	}
	return d, nil
}

// pairError names the pair a refusal is about.
func pairError(p AddAggregate, err error) error {
	v := fieldError("pairs", err).(*ValidationError)
	return &ValidationError{Field: v.Field, Message: p.EntityA + " + " + p.EntityB + ": " + v.Message}
}

// swappedFill is a fill of a + b for the analysis of b + a: the shares of each alone trade
// places, and the identifying answers, which are about b as the child, are dropped.
func swappedFill(fill map[string]string) map[string]string {
	af := AggregateField
	out := map[string]string{}
	for k, v := range fill {
		switch k {
		case af.OnlyAPct.Key:
			out[af.OnlyBPct.Key] = v
		case af.OnlyBPct.Key:
			out[af.OnlyAPct.Key] = v
		case af.ChildIndependent.Key, af.ParentIDKnown.Key, af.SeparateTablePlanned.Key:
		default:
			out[k] = v
		}
	}
	return out
}

func (c FillAggregates) Summary() string {
	names := make([]string, len(c.Pairs))
	for i, p := range c.Pairs {
		names[i] = shorten(p.EntityA) + " + " + shorten(p.EntityB)
	}
	return "Analysed " + ListAnd(names)
}
func (FillAggregates) Paths() []Path { return []Path{PathAggregates} }

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
