package designer

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

func init() {
	register[AddInBulk]()
	register[ScaffoldAggregate]()
	register[AddTableAttributes]()
}

// Changes that add many rows at once: entities from the overview's list or a paste, and a table
// scaffolded from an aggregate decision. Each is one change, so one undo takes all of it back.

// AddInBulk adds entities with their attributes, relationships and access patterns in one change.
// It does what the one-row changes do, in order: every entity (a name already an entity gets the
// attributes listed with it), then every relationship, then every access pattern, so that a
// relationship or a pattern may name an entity added by the same change. Relationships and
// patterns are given as the text a person would type in their cells, by field key
// (RelationshipFields, PatternFields); a pattern without a number gets the next one. Anything
// refused refuses the whole change, naming the row ("access_patterns/3/peak_rps").
//
// A row the design has already is merged, never added twice: an attribute of the same name, a
// relationship with the same ends, a pattern with the same description fills in the fields the
// design leaves empty. Where both hold a value and they differ, the design's stays, unless
// Replace says to take the row's.
type AddInBulk struct {
	Entities      []BulkEntity        `json:"entities,omitempty"`
	Relationships []map[string]string `json:"relationships,omitempty"`
	Patterns      []map[string]string `json:"access_patterns,omitempty"`
	Replace       bool                `json:"replace,omitempty"`
}

// BulkEntity is an entity of AddInBulk: a new one, or attributes for one there already is. A
// description is given to an entity that has none yet.
type BulkEntity struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Attributes  []BulkAttribute `json:"attributes,omitempty"`
}

// BulkAttribute is an attribute of a BulkEntity; an empty type means S. The description is
// given to an attribute the change adds, and to one there without a description.
type BulkAttribute struct {
	Name        string `json:"name"`
	Type        Type   `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}

func (AddInBulk) Kind() string { return "add_in_bulk" }

func (c AddInBulk) Apply(d Design) (Design, error) {
	if len(c.Entities)+len(c.Relationships)+len(c.Patterns) == 0 {
		return d, Invalid("entities", "nothing to add: give at least one entity, relationship or access pattern")
	}
	next := d
	var err error
	for i, e := range c.Entities {
		if next, err = e.apply(next, c.Replace); err != nil {
			return d, within("entities/"+strconv.Itoa(i), err)
		}
	}
	for i, row := range c.Relationships {
		if next, err = addRelationshipRow(next, row, c.Replace); err != nil {
			return d, within("relationships/"+strconv.Itoa(i), err)
		}
	}
	for i, row := range c.Patterns {
		if next, err = addPatternRow(next, row, c.Replace); err != nil {
			return d, within("access_patterns/"+strconv.Itoa(i), err)
		}
	}
	return next, nil
}

// within names a refusal of one row of a bulk change by the row's path.
func within(row string, err error) error {
	var ve *ValidationError
	if errors.As(err, &ve) {
		return &ValidationError{Field: row + "/" + ve.Field, Message: ve.Message}
	}
	return &ValidationError{Field: row, Message: err.Error()}
}

func (e BulkEntity) apply(d Design, replace bool) (Design, error) {
	name, err := CleanName("name", e.Name)
	if err != nil {
		return d, err
	}
	if _, _, ok := d.EntityByName(name); !ok {
		if d, err = (AddEntity{Name: name}).Apply(d); err != nil {
			return d, err
		}
	}
	if ent, _, _ := d.EntityByName(name); e.Description != "" && ent.Description == "" {
		if d, err = (SetEntityDescription{Entity: name, Description: e.Description}).Apply(d); err != nil {
			return d, err
		}
	}
	for j, a := range e.Attributes {
		ent, _, _ := d.EntityByName(name)
		if have, _, ok := ent.AttributeByName(a.Name); ok {
			if replace && a.Type != "" && a.Type != have.Type {
				if d, err = (SetAttributeType{Entity: name, Attribute: have.Name, Type: a.Type}).Apply(d); err != nil {
					return d, within("attributes/"+strconv.Itoa(j), err)
				}
			}
		} else if d, err = (AddAttribute{Entity: name, Name: a.Name, Type: a.Type}).Apply(d); err != nil {
			return d, within("attributes/"+strconv.Itoa(j), err)
		}
		if d, err = describeAttribute(d, name, a); err != nil {
			return d, within("attributes/"+strconv.Itoa(j), err)
		}
	}
	return d, nil
}

// describeAttribute gives an entity's attribute a's description when it has none.
func describeAttribute(d Design, entity string, a BulkAttribute) (Design, error) {
	if a.Description == "" {
		return d, nil
	}
	desc, err := CleanText("description", a.Description)
	if err != nil {
		return d, err
	}
	ent, i, _ := d.EntityByName(entity)
	at, j, ok := ent.AttributeByName(a.Name)
	if !ok || at.Description != "" {
		return d, nil
	}
	ent.Attributes = slices.Clone(ent.Attributes)
	ent.Attributes[j].Description = desc
	d.Entities = slices.Clone(d.Entities)
	d.Entities[i] = ent
	return d, nil
}

// addRelationshipRow adds one relationship from the text of its fields, or merges it into the
// one the design has between the same ends.
func addRelationshipRow(d Design, row map[string]string, replace bool) (Design, error) {
	if err := knownKeys(row, RelationshipFields); err != nil {
		return d, err
	}
	rf := RelationshipField
	if i := SameRelationship(d, row); i >= 0 {
		r := d.Relationships[i]
		var err error
		for _, m := range RowMerge(d, RelationshipFields, r, row) {
			if m.Ours == "" || replace {
				if d, err = (SetRelationshipField{ID: r.ID, Field: m.Field.Key, Value: m.Theirs}).Apply(d); err != nil {
					return d, err
				}
			}
		}
		return d, nil
	}
	d, err := (AddRelationship{From: strings.TrimSpace(row[rf.From.Key]), To: strings.TrimSpace(row[rf.To.Key]),
		RelationshipKind: row[rf.Kind.Key]}).Apply(d)
	if err != nil {
		return d, err
	}
	id := d.Relationships[len(d.Relationships)-1].ID
	for _, f := range RelationshipFields {
		v, ok := row[f.Key]
		if !ok || f.Key == rf.From.Key || f.Key == rf.To.Key || f.Key == rf.Kind.Key {
			continue
		}
		if d, err = (SetRelationshipField{ID: id, Field: f.Key, Value: v}).Apply(d); err != nil {
			return d, err
		}
	}
	return d, nil
}

// addPatternRow adds one access pattern, at the end, from the text of its fields, or merges it
// into the pattern the design has with the same description.
func addPatternRow(d Design, row map[string]string, replace bool) (Design, error) {
	if err := knownKeys(row, PatternFields); err != nil {
		return d, err
	}
	pf := PatternField
	if i := SamePattern(d, row); i >= 0 {
		p := d.Patterns[i]
		var err error
		for _, m := range RowMerge(d, PatternFields, p, row) {
			if m.Ours == "" || replace {
				if d, err = (SetPatternField{ID: p.ID, Field: m.Field.Key, Value: m.Theirs}).Apply(d); err != nil {
					return d, err
				}
			}
		}
		return d, nil
	}
	d, err := (AddPattern{Type: row[pf.Type.Key], Description: row[pf.Description.Key]}).Apply(d)
	if err != nil {
		return d, err
	}
	id := d.Patterns[len(d.Patterns)-1].ID
	for _, f := range PatternFields {
		v, ok := row[f.Key]
		if !ok || f.Key == pf.Type.Key || f.Key == pf.Description.Key {
			continue
		}
		if d, err = (SetPatternField{ID: id, Field: f.Key, Value: v}).Apply(d); err != nil {
			return d, err
		}
	}
	return d, nil
}

// FieldMerge is one field a pasted row would set on a row the design has: Ours is the design's
// value as a cell shows it ("" for none), Theirs the row's.
type FieldMerge[R any] struct {
	Field        Field[R]
	Ours, Theirs string
}

// RowMerge lists the fields of row, a row's field texts, that differ from r's, a row of d; the
// pattern number and a relationship's ends are the row's identity and never merged.
func RowMerge[R any](d Design, fields []Field[R], r R, row map[string]string) []FieldMerge[R] {
	var out []FieldMerge[R]
	for _, f := range fields {
		theirs, ok := row[f.Key]
		theirs = strings.TrimSpace(theirs)
		if !ok || theirs == "" || f.Key == PatternField.Number.Key || f.Key == RelationshipField.From.Key || f.Key == RelationshipField.To.Key {
			continue
		}
		ours := f.Get(r)
		if sameText(ours, theirs) {
			continue
		}
		// A value that reads back as ours is the same value written another way ("500" and "500.0").
		// The probe reads the text against a copy of d: a field such as the entities checks names.
		if probe, scratch := r, d; f.set != nil && f.set(&scratch, &probe, f.Key, theirs) == nil && sameText(f.Get(probe), ours) {
			continue
		}
		out = append(out, FieldMerge[R]{Field: f, Ours: ours, Theirs: theirs})
	}
	return out
}

func sameText(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// SameRelationship is the index of the relationship of d with the ends of row (a relationship's
// field texts), either way round for a 1:1 or M:M one; -1 for none.
func SameRelationship(d Design, row map[string]string) int {
	rf := RelationshipField
	from, to, kind := strings.TrimSpace(row[rf.From.Key]), strings.TrimSpace(row[rf.To.Key]), strings.TrimSpace(row[rf.Kind.Key])
	return slices.IndexFunc(d.Relationships, func(r Relationship) bool {
		if r.From == from && r.To == to {
			return true
		}
		symmetric := func(k string) bool { return k == "" || k == OneToOne || k == ManyToMany }
		return r.From == to && r.To == from && symmetric(r.Kind) && symmetric(kind)
	})
}

// SamePattern is the index of the pattern of d with the description of row (a pattern's field
// texts), in any case and spacing; -1 for none.
func SamePattern(d Design, row map[string]string) int {
	desc := strings.TrimSpace(row[PatternField.Description.Key])
	if desc == "" {
		return -1
	}
	return slices.IndexFunc(d.Patterns, func(p Pattern) bool { return sameText(p.Description, desc) })
}

// knownKeys refuses a row with a key none of fields has.
func knownKeys[R any](row map[string]string, fields []Field[R]) error {
	keys := make([]string, 0, len(row))
	for k := range row {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := FieldNamed(fields, k); !ok {
			names := make([]string, len(fields))
			for i, f := range fields {
				names[i] = f.Key
			}
			return Invalid(k, "is no field of this row; use %s", ListOr(names))
		}
	}
	return nil
}

func (c AddInBulk) Summary() string {
	var newOnes []string
	attrs := 0
	for _, e := range c.Entities {
		newOnes = append(newOnes, shorten(e.Name))
		attrs += len(e.Attributes)
	}
	var parts []string
	if len(newOnes) > 0 {
		parts = append(parts, counted(len(newOnes), "entity", "entities")+" ("+shorten(strings.Join(newOnes, ", "))+")")
	}
	if attrs > 0 {
		parts = append(parts, counted(attrs, "attribute", "attributes"))
	}
	if n := len(c.Relationships); n > 0 {
		parts = append(parts, counted(n, "relationship", "relationships"))
	}
	if n := len(c.Patterns); n > 0 {
		parts = append(parts, counted(n, "access pattern", "access patterns"))
	}
	return "Added in bulk: " + ListAnd(parts)
}

func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func (c AddInBulk) Paths() []Path {
	var paths []Path
	for _, e := range c.Entities {
		if p := EntityPath(e.Name, ""); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	if len(c.Relationships) > 0 {
		paths = append(paths, PathRelationships)
	}
	if len(c.Patterns) > 0 {
		paths = append(paths, PathPatterns)
	}
	return paths
}

// ScaffoldAggregate adds the tables an aggregate decision calls for, with their keys, SK
// taxonomy lines and declared attributes, in one change. A table of that name already there keeps
// its key, which must be the one given, and gains the entity types (by entity) and attributes (by
// name) it lacks. ScaffoldFor works out the tables from the decision; the change holds them as
// they were shown, so it replays the same whatever the decision says later.
type ScaffoldAggregate struct {
	Aggregate string          `json:"aggregate"`
	Tables    []ScaffoldTable `json:"tables"`
}

// ScaffoldTable is one table of a ScaffoldAggregate.
type ScaffoldTable struct {
	Name         string        `json:"name"`
	PartitionKey KeyAttribute  `json:"partition_key"`
	SortKey      *KeyAttribute `json:"sort_key,omitempty"`
	EntityTypes  []EntityType  `json:"entity_types,omitempty"`
	Attributes   []Attribute   `json:"attributes,omitempty"`
}

func (ScaffoldAggregate) Kind() string { return "scaffold_aggregate" }

func (c ScaffoldAggregate) Apply(d Design) (Design, error) {
	if _, _, ok := d.AggregateByID(c.Aggregate); !ok {
		return d, Invalid("aggregate", "no aggregate analysis with id %q; it may have been deleted", c.Aggregate)
	}
	if len(c.Tables) == 0 {
		return d, Invalid("tables", "nothing to add: give at least one table")
	}
	next := d
	for i, st := range c.Tables {
		var err error
		if next, err = st.apply(next); err != nil {
			return d, within("tables/"+strconv.Itoa(i), err)
		}
	}
	return next, nil
}

func (st ScaffoldTable) apply(d Design) (Design, error) {
	name, err := DynamoName("name", st.Name)
	if err != nil {
		return d, err
	}
	pk, err := scaffoldKey("partition_key", st.PartitionKey)
	if err != nil {
		return d, err
	}
	var sk *KeyAttribute
	if st.SortKey != nil {
		k, err := scaffoldKey("sort_key", *st.SortKey)
		if err != nil {
			return d, err
		}
		sk = &k
	}
	t, i, exists := d.TableByName(name)
	if exists {
		if t.PartitionKey != pk || !sameSortKey(t.SortKey, sk) {
			return d, Invalid("partition_key", "table %s is already there with key %s; the scaffold's is %s", name, keyText(t.PartitionKey, t.SortKey), keyText(pk, sk))
		}
	} else {
		t = Table{Name: name, PartitionKey: pk, SortKey: sk, BillingMode: OnDemand}
		t.Attributes = []Attribute{{Name: pk.Name, Type: pk.Type}}
		if sk != nil {
			t.Attributes = append(t.Attributes, Attribute{Name: sk.Name, Type: sk.Type})
		}
	}
	for j, et := range st.EntityTypes {
		if et.Entity, err = CleanName("entity", et.Entity); err != nil {
			return d, within("entity_types/"+strconv.Itoa(j), err)
		}
		if slices.ContainsFunc(t.EntityTypes, func(have EntityType) bool { return have.Entity == et.Entity }) {
			continue
		}
		if et.PKTemplate, err = cleanTemplate("pk_template", et.PKTemplate); err == nil {
			et.SKTemplate, err = cleanTemplate("sk_template", et.SKTemplate)
		}
		if err == nil {
			et.Description, err = CleanText("description", et.Description)
		}
		if err != nil {
			return d, within("entity_types/"+strconv.Itoa(j), err)
		}
		t.EntityTypes = append(slices.Clip(t.EntityTypes), et)
	}
	for j, a := range st.Attributes {
		attr := Attribute{Type: a.Type}
		if attr.Name, err = CleanName("name", a.Name); err == nil {
			attr.Type, err = ParseType(string(a.Type))
		}
		if err != nil {
			return d, within("attributes/"+strconv.Itoa(j), fieldError("type", err))
		}
		if _, _, have := t.AttributeByName(attr.Name); !have {
			t.Attributes = append(slices.Clip(t.Attributes), attr)
		}
	}
	if exists {
		d.Tables = replaceAt(d.Tables, i, t)
	} else {
		d.Tables = append(slices.Clip(d.Tables), t)
	}
	return d, nil
}

func scaffoldKey(field string, k KeyAttribute) (KeyAttribute, error) {
	name, err := CleanName(field, k.Name)
	if err != nil {
		return k, err
	}
	typ, err := parseKeyType(string(k.Type), S)
	if err != nil {
		return k, fieldError(field, err)
	}
	return KeyAttribute{Name: name, Type: typ}, nil
}

func sameSortKey(a, b *KeyAttribute) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// keyText is a table's key as a person reads it: "customer_id (S) + record_key (S)".
func keyText(pk KeyAttribute, sk *KeyAttribute) string {
	s := fmt.Sprintf("%s (%s)", pk.Name, pk.Type)
	if sk != nil {
		s += fmt.Sprintf(" + %s (%s)", sk.Name, sk.Type)
	}
	return s
}

func (c ScaffoldAggregate) Summary() string {
	names := make([]string, len(c.Tables))
	for i, t := range c.Tables {
		names[i] = shorten(t.Name)
	}
	return "Scaffolded from aggregate " + c.Aggregate + ": table " + ListAnd(names)
}

func (c ScaffoldAggregate) Describe(before Design) string {
	a, _, ok := before.AggregateByID(c.Aggregate)
	if !ok {
		return c.Summary()
	}
	names := make([]string, len(c.Tables))
	for i, t := range c.Tables {
		names[i] = shorten(t.Name)
	}
	return fmt.Sprintf("Scaffolded from aggregate %s + %s: table %s", shorten(a.EntityA), shorten(a.EntityB), ListAnd(names))
}

func (c ScaffoldAggregate) Paths() []Path {
	var paths []Path
	for _, t := range c.Tables {
		if p := TablePath(t.Name); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths
}

// AddTableAttributes declares several attributes of a table in one change, such as every
// attribute of an entity the table holds; each name must be new to the table. An empty type
// means S.
type AddTableAttributes struct {
	Table      string          `json:"table"`
	Attributes []BulkAttribute `json:"attributes"`
}

func (AddTableAttributes) Kind() string { return "add_table_attributes" }

func (c AddTableAttributes) Apply(d Design) (Design, error) {
	if len(c.Attributes) == 0 {
		return d, Invalid("attributes", "nothing to add: give at least one attribute")
	}
	next := d
	for i, a := range c.Attributes {
		var err error
		if next, err = (AddTableAttribute{Table: c.Table, Name: a.Name, Type: a.Type}).Apply(next); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) && ve.Field == "table" {
				return d, err
			}
			return d, within("attributes/"+strconv.Itoa(i), err)
		}
	}
	return next, nil
}

func (c AddTableAttributes) Summary() string {
	names := make([]string, len(c.Attributes))
	for i, a := range c.Attributes {
		names[i] = a.Name
	}
	return fmt.Sprintf("Added %s to table %s: %s", counted(len(names), "attribute", "attributes"), shorten(c.Table), shorten(strings.Join(names, ", ")))
}

func (c AddTableAttributes) Paths() []Path { return []Path{TablePath(c.Table)} }
