package designer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

func init() {
	register[AddEntity]()
	register[RenameEntity]()
	register[SetEntityDescription]()
	register[SetEntityField]()
	register[DeleteEntity]()
	register[MoveEntity]()
	register[SetEntityGap]()
	register[AddAttribute]()
	register[RenameAttribute]()
	register[SetAttributeType]()
	register[DeleteAttribute]()
	register[MoveAttribute]()
	register[AddRelationship]()
	register[SetRelationshipField]()
	register[DeleteRelationship]()
}

// Changes to entities, their attributes and the relationships between them. Entities are addressed
// by name and attributes by name within their entity; both are unique and case-sensitive.

// findEntity returns the entity named name, or a *ValidationError for field.
func findEntity(d Design, field, name string) (Entity, int, error) {
	e, i, ok := d.EntityByName(name)
	if !ok {
		return Entity{}, -1, Invalid(field, "no entity named %q", name)
	}
	return e, i, nil
}

// findAttribute returns the entity and the attribute in it, or a *ValidationError.
func findAttribute(d Design, entity, attribute string) (Entity, int, int, error) {
	e, i, err := findEntity(d, "entity", entity)
	if err != nil {
		return Entity{}, -1, -1, err
	}
	_, j, ok := e.AttributeByName(attribute)
	if !ok {
		return Entity{}, -1, -1, Invalid("attribute", "entity %q has no attribute named %q", entity, attribute)
	}
	return e, i, j, nil
}

// AddEntity adds an entity without attributes at the end of the list.
type AddEntity struct {
	Name string `json:"name"`
}

func (AddEntity) Kind() string { return "add_entity" }

func (c AddEntity) Apply(d Design) (Design, error) {
	name, err := CleanName("name", c.Name)
	if err != nil {
		return d, err
	}
	if _, _, taken := d.EntityByName(name); taken {
		return d, Invalid("name", "there is already an entity named %q", name)
	}
	d.Entities = append(slices.Clip(d.Entities), Entity{Name: name, Attributes: []Attribute{}})
	return d, nil
}

func (c AddEntity) Summary() string { return fmt.Sprintf("Added entity %q", shorten(c.Name)) }
func (c AddEntity) Paths() []Path   { return []Path{EntityPath(c.Name, "")} }

// RenameEntity renames an entity; every reference to it follows: relationships, pattern entity
// lists, aggregate analyses, consolidation reviews and tables' SK taxonomies.
type RenameEntity struct {
	Entity string `json:"entity"`
	To     string `json:"to"`
}

func (RenameEntity) Kind() string { return "rename_entity" }

func (c RenameEntity) Apply(d Design) (Design, error) {
	e, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	to, err := CleanName("to", c.To)
	if err != nil {
		return d, err
	}
	if to == e.Name {
		return d, nil
	}
	if _, _, taken := d.EntityByName(to); taken {
		return d, Invalid("to", "there is already an entity named %q", to)
	}
	old := e.Name
	e.Name = to
	d.Entities = replaceAt(d.Entities, i, e)
	rename := func(s *string) bool {
		if *s == old {
			*s = to
			return true
		}
		return false
	}
	renamePair := func(a, b *string) bool {
		changedA, changedB := rename(a), rename(b)
		return changedA || changedB
	}
	d.Relationships = EditRows(d.Relationships, func(r *Relationship) bool { return renamePair(&r.From, &r.To) })
	d.Patterns = EditRows(d.Patterns, func(p *Pattern) bool {
		list, changed := renameInList(p.Entities, old, to)
		p.Entities = list
		return changed
	})
	d.Aggregates = EditRows(d.Aggregates, func(a *AggregateAnalysis) bool { return renamePair(&a.EntityA, &a.EntityB) })
	d.Consolidations = EditRows(d.Consolidations, func(r *ConsolidationReview) bool { return renamePair(&r.Parent, &r.Child) })
	d.Tables = EditRows(d.Tables, func(t *Table) bool {
		changed := false
		t.EntityTypes = EditRows(t.EntityTypes, func(et *EntityType) bool {
			renamed := rename(&et.Entity)
			changed = changed || renamed
			return renamed
		})
		return changed
	})
	d.Workbench = d.Workbench.renamedEntity("", old, to)
	d.Diagrams = renamePins(d.Diagrams, EntityDiagram, func(node string) (string, bool) {
		return "entity:" + to, node == "entity:"+old
	})
	return d, nil
}

// renameInList returns list with old replaced by to (once, if to was already listed), copying it
// only when old is listed.
func renameInList(list []string, old, to string) ([]string, bool) {
	i := slices.Index(list, old)
	if i < 0 {
		return list, false
	}
	out := slices.Clone(list)
	if slices.Contains(out, to) {
		return slices.Delete(out, i, i+1), true
	}
	out[i] = to
	return out, true
}

func (c RenameEntity) Summary() string {
	return fmt.Sprintf("Renamed entity %q to %q", shorten(c.Entity), shorten(c.To))
}

func (c RenameEntity) Paths() []Path {
	return []Path{EntityPath(c.Entity, ""), EntityPath(c.To, ""), PathRelationships, PathPatterns, PathAggregates, PathConsolidations, PathTables,
		DiagramPath(EntityDiagram, "entity:"+strings.TrimSpace(c.Entity)), DiagramPath(EntityDiagram, "entity:"+strings.TrimSpace(c.To))}
}

// SetEntityDescription sets an entity's description.
type SetEntityDescription struct {
	Entity      string `json:"entity"`
	Description string `json:"description"`
}

func (SetEntityDescription) Kind() string { return "set_entity_description" }

func (c SetEntityDescription) Apply(d Design) (Design, error) {
	e, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	if e.Description, err = CleanText("description", c.Description); err != nil {
		return d, err
	}
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c SetEntityDescription) Summary() string {
	return fieldSummary("the %s of entity "+strconv.Quote(shorten(c.Entity)), "description", c.Description, true)
}
func (c SetEntityDescription) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// SetEntityField sets one field of an entity (EntityFields) from what a person typed.
type SetEntityField struct {
	Entity string `json:"entity"`
	Field  string `json:"field"`
	Value  string `json:"value"`
}

func (SetEntityField) Kind() string { return "set_entity_field" }

func (c SetEntityField) Apply(d Design) (Design, error) {
	e, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	f, ok := FieldNamed(EntityFields, c.Field)
	if !ok {
		return d, Invalid("field", "entities have no field %q; use %s", c.Field, fieldKeys(EntityFields))
	}
	if err := f.apply(&d, &e, c.Value); err != nil {
		return d, err
	}
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c SetEntityField) Summary() string {
	f, ok := FieldNamed(EntityFields, c.Field)
	if !ok {
		f.Label = strings.ReplaceAll(c.Field, "_", " ")
	}
	return f.summary("the %s of entity "+strconv.Quote(shorten(c.Entity)), c.Value)
}
func (c SetEntityField) Paths() []Path {
	if f, ok := FieldNamed(EntityFields, c.Field); ok {
		return f.paths(EntityPath(c.Entity, ""))
	}
	return []Path{EntityPath(c.Entity, c.Field)}
}

// DeleteEntity deletes an entity with the relationships, aggregate analyses and consolidation
// reviews that name it, and drops it from patterns' entity lists. Tables' SK taxonomies keep their
// lines: they describe the table, and validation points out the missing entity.
type DeleteEntity struct {
	Entity string `json:"entity"`
}

func (DeleteEntity) Kind() string { return "delete_entity" }

func (c DeleteEntity) Apply(d Design) (Design, error) {
	_, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	name := c.Entity
	d.Entities = slices.Delete(slices.Clone(d.Entities), i, i+1)
	d.Relationships = deleteRows(d.Relationships, func(r Relationship) bool { return r.From == name || r.To == name })
	d.Aggregates = deleteRows(d.Aggregates, func(a AggregateAnalysis) bool { return a.EntityA == name || a.EntityB == name })
	d.Consolidations = deleteRows(d.Consolidations, func(r ConsolidationReview) bool { return r.Parent == name || r.Child == name })
	d.Patterns = EditRows(d.Patterns, func(p *Pattern) bool {
		if !slices.Contains(p.Entities, name) {
			return false
		}
		p.Entities = slices.DeleteFunc(slices.Clone(p.Entities), func(s string) bool { return s == name })
		return true
	})
	return d, nil
}

func (c DeleteEntity) Summary() string { return fmt.Sprintf("Deleted entity %q", shorten(c.Entity)) }
func (c DeleteEntity) Paths() []Path {
	return []Path{EntityPath(c.Entity, ""), PathRelationships, PathPatterns, PathAggregates, PathConsolidations}
}

// MoveEntity moves an entity to position To (from 0), clamped to the list.
type MoveEntity struct {
	Entity string `json:"entity"`
	To     int    `json:"to"`
}

func (MoveEntity) Kind() string { return "move_entity" }

func (c MoveEntity) Apply(d Design) (Design, error) {
	_, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	d.Entities = moveRow(d.Entities, i, c.To)
	return d, nil
}

func (c MoveEntity) Summary() string {
	return fmt.Sprintf("Moved entity %q to position %d", shorten(c.Entity), max(c.To, 0)+1)
}
func (MoveEntity) Paths() []Path { return []Path{PathEntities} }

// SetEntityGap accepts, or stops accepting, that an entity is never written (GapNoWrite) or never
// read (GapNoRead) by any pattern.
type SetEntityGap struct {
	Entity   string `json:"entity"`
	Gap      string `json:"gap"`
	Accepted bool   `json:"accepted"`
}

func (SetEntityGap) Kind() string { return "set_entity_gap" }

func (c SetEntityGap) Apply(d Design) (Design, error) {
	e, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	if c.Gap != GapNoWrite && c.Gap != GapNoRead {
		return d, Invalid("gap", "is %q; use %q or %q", c.Gap, GapNoWrite, GapNoRead)
	}
	gaps := slices.DeleteFunc(slices.Clone(e.AcceptedGaps), func(g string) bool { return g == c.Gap })
	if c.Accepted {
		gaps = append(gaps, c.Gap)
	}
	slices.Sort(gaps)
	gaps = slices.Compact(gaps)
	if len(gaps) == 0 {
		gaps = nil
	}
	e.AcceptedGaps = gaps
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c SetEntityGap) Summary() string {
	what := "is never read"
	if c.Gap == GapNoWrite {
		what = "is never written"
	}
	if c.Accepted {
		return fmt.Sprintf("Accepted that entity %q %s", shorten(c.Entity), what)
	}
	return fmt.Sprintf("No longer accepting that entity %q %s", shorten(c.Entity), what)
}
func (c SetEntityGap) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// AddAttribute adds an attribute at the end of an entity's list. An empty Type means S.
type AddAttribute struct {
	Entity string `json:"entity"`
	Name   string `json:"name"`
	Type   Type   `json:"type"`
}

func (AddAttribute) Kind() string { return "add_attribute" }

func (c AddAttribute) Apply(d Design) (Design, error) {
	e, i, err := findEntity(d, "entity", c.Entity)
	if err != nil {
		return d, err
	}
	name, err := CleanName("name", c.Name)
	if err != nil {
		return d, err
	}
	if _, _, taken := e.AttributeByName(name); taken {
		return d, Invalid("name", "entity %q already has an attribute named %q", e.Name, name)
	}
	t, err := ParseType(string(c.Type))
	if err != nil {
		return d, &ValidationError{Field: "type", Message: err.Error()}
	}
	e.Attributes = append(slices.Clip(e.Attributes), Attribute{Name: name, Type: t})
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c AddAttribute) Summary() string {
	return fmt.Sprintf("Added attribute %q to entity %q", shorten(c.Name), shorten(c.Entity))
}
func (c AddAttribute) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// RenameAttribute renames an attribute of an entity. Pattern attribute lists are not entity-scoped,
// so they keep the old name; validation points out names no entity has.
type RenameAttribute struct {
	Entity    string `json:"entity"`
	Attribute string `json:"attribute"`
	To        string `json:"to"`
}

func (RenameAttribute) Kind() string { return "rename_attribute" }

func (c RenameAttribute) Apply(d Design) (Design, error) {
	e, i, j, err := findAttribute(d, c.Entity, c.Attribute)
	if err != nil {
		return d, err
	}
	to, err := CleanName("to", c.To)
	if err != nil {
		return d, err
	}
	if _, k, taken := e.AttributeByName(to); taken && k != j {
		return d, Invalid("to", "entity %q already has an attribute named %q", e.Name, to)
	}
	a := e.Attributes[j]
	a.Name = to
	e.Attributes = replaceAt(e.Attributes, j, a)
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c RenameAttribute) Summary() string {
	return fmt.Sprintf("Renamed attribute %q of entity %q to %q", shorten(c.Attribute), shorten(c.Entity), shorten(c.To))
}
func (c RenameAttribute) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// SetAttributeType sets the DynamoDB type of an attribute.
type SetAttributeType struct {
	Entity    string `json:"entity"`
	Attribute string `json:"attribute"`
	Type      Type   `json:"type"`
}

func (SetAttributeType) Kind() string { return "set_attribute_type" }

func (c SetAttributeType) Apply(d Design) (Design, error) {
	e, i, j, err := findAttribute(d, c.Entity, c.Attribute)
	if err != nil {
		return d, err
	}
	if Words(string(c.Type)) == "" {
		return d, Invalid("type", "must be one of S N B BOOL NULL M L SS NS BS")
	}
	t, err := ParseType(string(c.Type))
	if err != nil {
		return d, &ValidationError{Field: "type", Message: err.Error()}
	}
	a := e.Attributes[j]
	a.Type = t
	e.Attributes = replaceAt(e.Attributes, j, a)
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c SetAttributeType) Summary() string {
	return fmt.Sprintf("Set the type of attribute %q of entity %q to %s", shorten(c.Attribute), shorten(c.Entity), shorten(string(c.Type)))
}
func (c SetAttributeType) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// DeleteAttribute deletes an attribute of an entity.
type DeleteAttribute struct {
	Entity    string `json:"entity"`
	Attribute string `json:"attribute"`
}

func (DeleteAttribute) Kind() string { return "delete_attribute" }

func (c DeleteAttribute) Apply(d Design) (Design, error) {
	e, i, j, err := findAttribute(d, c.Entity, c.Attribute)
	if err != nil {
		return d, err
	}
	e.Attributes = slices.Delete(slices.Clone(e.Attributes), j, j+1)
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c DeleteAttribute) Summary() string {
	return fmt.Sprintf("Deleted attribute %q from entity %q", shorten(c.Attribute), shorten(c.Entity))
}
func (c DeleteAttribute) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// MoveAttribute moves an attribute to position To (from 0) within its entity, clamped to the list.
type MoveAttribute struct {
	Entity    string `json:"entity"`
	Attribute string `json:"attribute"`
	To        int    `json:"to"`
}

func (MoveAttribute) Kind() string { return "move_attribute" }

func (c MoveAttribute) Apply(d Design) (Design, error) {
	e, i, j, err := findAttribute(d, c.Entity, c.Attribute)
	if err != nil {
		return d, err
	}
	e.Attributes = moveRow(e.Attributes, j, c.To)
	d.Entities = replaceAt(d.Entities, i, e)
	return d, nil
}

func (c MoveAttribute) Summary() string {
	return fmt.Sprintf("Moved attribute %q of entity %q to position %d", shorten(c.Attribute), shorten(c.Entity), max(c.To, 0)+1)
}
func (c MoveAttribute) Paths() []Path { return []Path{EntityPath(c.Entity, "")} }

// AddRelationship adds a relationship between two existing entities. RelationshipKind may be
// written in any form ParseRelationshipKind reads, or left empty while the team has not decided.
// (The field cannot be called Kind: that is the Change method.)
type AddRelationship struct {
	From             string `json:"from"`
	To               string `json:"to"`
	RelationshipKind string `json:"kind"`
}

func (AddRelationship) Kind() string { return "add_relationship" }

func (c AddRelationship) Apply(d Design) (Design, error) {
	if _, _, err := findEntity(d, "from", c.From); err != nil {
		return d, err
	}
	if _, _, err := findEntity(d, "to", c.To); err != nil {
		return d, err
	}
	kind, err := ParseRelationshipKind(c.RelationshipKind)
	if err != nil {
		return d, &ValidationError{Field: "kind", Message: err.Error()}
	}
	id := nextID(d.Relationships, relationshipIDPrefix, func(r *Relationship) string { return r.ID })
	d.Relationships = append(slices.Clip(d.Relationships), Relationship{ID: id, From: c.From, To: c.To, Kind: kind})
	return d, nil
}

func (c AddRelationship) Summary() string {
	s := fmt.Sprintf("Added relationship %s → %s", shorten(c.From), shorten(c.To))
	if kind, err := ParseRelationshipKind(c.RelationshipKind); err == nil && kind != "" {
		s += " (" + kind + ")"
	}
	return s
}
func (AddRelationship) Paths() []Path { return []Path{PathRelationships} }

// SetRelationshipField sets one field of a relationship from what a person typed. An empty count
// clears it.
type SetRelationshipField struct {
	ID    string `json:"id"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetRelationshipField) Kind() string { return "set_relationship_field" }

func (c SetRelationshipField) Apply(d Design) (Design, error) {
	r, i, ok := d.RelationshipByID(c.ID)
	if !ok {
		return d, Invalid("id", "no relationship with id %q; it may have been deleted", c.ID)
	}
	f, ok := FieldNamed(RelationshipFields, c.Field)
	if !ok {
		return d, Invalid("field", "relationships have no field %q", c.Field)
	}
	if err := f.apply(&d, &r, c.Value); err != nil {
		return d, err
	}
	d.Relationships = replaceAt(d.Relationships, i, r)
	return d, nil
}

func (c SetRelationshipField) Summary() string { return c.summary("relationship " + c.ID) }

func (c SetRelationshipField) Describe(before Design) string {
	return c.summary(relationshipLabel(before, c.ID))
}

func (c SetRelationshipField) summary(label string) string {
	f, _ := FieldNamed(RelationshipFields, c.Field)
	return f.summary("the %s of "+label, c.Value)
}
func (c SetRelationshipField) Paths() []Path {
	if f, ok := FieldNamed(RelationshipFields, c.Field); ok {
		return f.paths(RelationshipPath(c.ID, ""))
	}
	return []Path{RelationshipPath(c.ID, c.Field)}
}

func relationshipLabel(d Design, id string) string {
	if r, _, ok := d.RelationshipByID(id); ok {
		return fmt.Sprintf("relationship %s → %s", shorten(r.From), shorten(r.To))
	}
	return "relationship " + id
}

// DeleteRelationship deletes a relationship.
type DeleteRelationship struct {
	ID string `json:"id"`
}

func (DeleteRelationship) Kind() string { return "delete_relationship" }

func (c DeleteRelationship) Apply(d Design) (Design, error) {
	_, i, ok := d.RelationshipByID(c.ID)
	if !ok {
		return d, Invalid("id", "no relationship with id %q; it may have been deleted", c.ID)
	}
	d.Relationships = slices.Delete(slices.Clone(d.Relationships), i, i+1)
	return d, nil
}

func (c DeleteRelationship) Summary() string { return "Deleted relationship " + c.ID }
func (c DeleteRelationship) Describe(before Design) string {
	return "Deleted " + relationshipLabel(before, c.ID)
}
func (c DeleteRelationship) Paths() []Path { return []Path{RelationshipPath(c.ID, "")} }

// fieldError makes err, from a parser or cleanText, a *ValidationError for field.
func fieldError(field string, err error) error {
	if _, ok := err.(*ValidationError); ok {
		return err
	}
	return &ValidationError{Field: field, Message: err.Error()}
}
