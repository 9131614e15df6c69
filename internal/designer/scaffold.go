package designer

import (
	"slices"
	"strings"
	"unicode"
)

// ScaffoldFor works out the tables aggregate id's decision calls for, as a ScaffoldAggregate
// holding only what the design lacks (a table there with the same key gains the entity types and
// attributes it is missing). Entity A of the analysis is the parent, B the child:
//
//   - single item: table A keyed on A's id; B lives inside A's item, as a list attribute;
//   - item collection: table A keyed on A's id and a sort key record_key; A's item has the sort
//     key A (upper case), each B's item B#{B's id};
//   - separate tables: table A keyed on A's id, and table B keyed on B's id, or on A's id and B's
//     id when the identifying check says B cannot exist without A and A's id is always known.
//
// Each table declares the attributes of the entities it holds. An entity's id is its attribute
// named after it (order_id), else the first ending in _id or _no, else the first of a key type;
// one named after it is made, of type S, when it has none. The error is a *ValidationError when
// the decision is not made yet, an entity is missing, or a table of the name has another key;
// the change is empty when everything is there already.
func ScaffoldFor(d Design, id string) (ScaffoldAggregate, error) {
	a, _, ok := d.AggregateByID(id)
	if !ok {
		return ScaffoldAggregate{}, Invalid("aggregate", "no aggregate analysis with id %q; it may have been deleted", id)
	}
	parent, _, ok := d.EntityByName(a.EntityA)
	if !ok {
		return ScaffoldAggregate{}, Invalid("entity_a", "no entity named %q", a.EntityA)
	}
	child, _, ok := d.EntityByName(a.EntityB)
	if !ok {
		return ScaffoldAggregate{}, Invalid("entity_b", "no entity named %q", a.EntityB)
	}
	pid, cid := entityID(parent), entityID(child)
	var tables []ScaffoldTable
	switch a.Decision {
	case SingleItem:
		list := snake(child.Name) + "_list"
		tables = []ScaffoldTable{{
			Name: tableName(parent.Name), PartitionKey: pid,
			EntityTypes: []EntityType{
				{Entity: parent.Name, PKTemplate: "{" + pid.Name + "}", Description: "One item per " + parent.Name + ", holding its " + child.Name + " list."},
				{Entity: child.Name, PKTemplate: "{" + pid.Name + "}", Description: "Kept inside its " + parent.Name + "'s item, in " + list + "."},
			},
			Attributes: append(entityAttributes(parent, pid), Attribute{Name: list, Type: L}),
		}}
	case ItemCollection:
		sk := KeyAttribute{Name: "record_key", Type: S}
		tables = []ScaffoldTable{{
			Name: tableName(parent.Name), PartitionKey: pid, SortKey: &sk,
			EntityTypes: []EntityType{
				{Entity: parent.Name, PKTemplate: "{" + pid.Name + "}", SKTemplate: strings.ToUpper(snake(parent.Name)), Description: "One per " + parent.Name + "."},
				{Entity: child.Name, PKTemplate: "{" + pid.Name + "}", SKTemplate: strings.ToUpper(snake(child.Name)) + "#{" + cid.Name + "}",
					Description: "One per " + child.Name + ", in its " + parent.Name + "'s collection."},
			},
			Attributes: joinAttributes(entityAttributes(parent, pid), entityAttributes(child, cid), pid),
		}}
	case SeparateTables:
		parentTable := ScaffoldTable{Name: tableName(parent.Name), PartitionKey: pid,
			EntityTypes: []EntityType{{Entity: parent.Name, PKTemplate: "{" + pid.Name + "}", Description: "One per " + parent.Name + "."}},
			Attributes:  entityAttributes(parent, pid)}
		childTable := ScaffoldTable{Name: tableName(child.Name), PartitionKey: cid,
			EntityTypes: []EntityType{{Entity: child.Name, PKTemplate: "{" + cid.Name + "}", Description: "One per " + child.Name + "."}},
			Attributes:  entityAttributes(child, cid)}
		if no(a.Identifying.ChildIndependent) && yes(a.Identifying.ParentIDKnown) && pid.Name != cid.Name {
			// The identifying relationship: the child is read through its parent's id.
			sk := cid
			childTable.PartitionKey, childTable.SortKey = pid, &sk
			childTable.EntityTypes[0].PKTemplate, childTable.EntityTypes[0].SKTemplate = "{"+pid.Name+"}", "{"+cid.Name+"}"
			childTable.Attributes = joinAttributes([]Attribute{{Name: pid.Name, Type: pid.Type}}, childTable.Attributes, pid)
		}
		tables = []ScaffoldTable{parentTable, childTable}
	case "":
		return ScaffoldAggregate{}, Invalid("decision", "choose a decision first: single item, item collection or separate tables")
	default:
		return ScaffoldAggregate{}, Invalid("decision", "%q is no decision this can scaffold", a.Decision)
	}
	out := ScaffoldAggregate{Aggregate: id}
	for _, st := range tables {
		st, err := missingFrom(d, st)
		if err != nil {
			return ScaffoldAggregate{}, err
		}
		if st.Name != "" {
			out.Tables = append(out.Tables, st)
		}
	}
	return out, nil
}

// missingFrom is st less what its table in d has already; empty (no name) when it has it all.
func missingFrom(d Design, st ScaffoldTable) (ScaffoldTable, error) {
	t, _, ok := d.TableByName(st.Name)
	if !ok {
		return st, nil
	}
	if t.PartitionKey != st.PartitionKey || !sameSortKey(t.SortKey, st.SortKey) {
		return st, Invalid("tables", "table %s is already there with key %s, where this decision's scaffold keys it on %s",
			t.Name, keyText(t.PartitionKey, t.SortKey), keyText(st.PartitionKey, st.SortKey))
	}
	st.EntityTypes = slices.DeleteFunc(slices.Clone(st.EntityTypes), func(et EntityType) bool {
		return slices.ContainsFunc(t.EntityTypes, func(have EntityType) bool { return have.Entity == et.Entity })
	})
	st.Attributes = slices.DeleteFunc(slices.Clone(st.Attributes), func(a Attribute) bool {
		_, _, have := t.AttributeByName(a.Name)
		return have
	})
	if len(st.EntityTypes) == 0 && len(st.Attributes) == 0 {
		return ScaffoldTable{}, nil
	}
	return st, nil
}

func yes(b *bool) bool { return b != nil && *b }
func no(b *bool) bool  { return b != nil && !*b }

// entityID is the attribute that identifies e's items (see ScaffoldFor).
func entityID(e Entity) KeyAttribute {
	own := snake(e.Name) + "_id"
	pick := func(ok func(Attribute) bool) (KeyAttribute, bool) {
		for _, a := range e.Attributes {
			if ok(a) {
				t := a.Type
				if !t.KeyType() {
					t = S
				}
				return KeyAttribute{Name: a.Name, Type: t}, true
			}
		}
		return KeyAttribute{}, false
	}
	if k, ok := pick(func(a Attribute) bool { return a.Name == own }); ok {
		return k
	}
	if k, ok := pick(func(a Attribute) bool {
		return a.Type.KeyType() && (strings.HasSuffix(a.Name, "_id") || strings.HasSuffix(a.Name, "_no") || a.Name == "id")
	}); ok {
		return k
	}
	if k, ok := pick(func(a Attribute) bool { return a.Type.KeyType() }); ok {
		return k
	}
	return KeyAttribute{Name: own, Type: S}
}

// entityAttributes is e's attributes, its id first.
func entityAttributes(e Entity, id KeyAttribute) []Attribute {
	out := []Attribute{{Name: id.Name, Type: id.Type}}
	for _, a := range e.Attributes {
		if a.Name != id.Name {
			out = append(out, Attribute{Name: a.Name, Type: a.Type})
		}
	}
	return out
}

// joinAttributes is a then the attributes of b a does not name, with the key's first.
func joinAttributes(a, b []Attribute, key KeyAttribute) []Attribute {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.ContainsFunc(out, func(y Attribute) bool { return y.Name == x.Name }) {
			out = append(out, x)
		}
	}
	if i := slices.IndexFunc(out, func(y Attribute) bool { return y.Name == key.Name }); i > 0 {
		k := out[i]
		out = append([]Attribute{k}, slices.Delete(out, i, i+1)...)
	}
	return out
}

// tableName is an entity's name as a DynamoDB table name: the characters a table name cannot hold
// left out.
func tableName(entity string) string {
	name := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '-') {
			return r
		}
		return -1
	}, entity)
	for len(name) < 3 {
		name += "_"
	}
	return name
}

// snake is a CamelCase name in snake_case: OrderItem is order_item.
func snake(name string) string {
	var sb strings.Builder
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1]) ||
				(i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1]))) {
				sb.WriteByte('_')
			}
			sb.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			sb.WriteRune(r)
		case sb.Len() > 0 && !strings.HasSuffix(sb.String(), "_"):
			sb.WriteByte('_')
		}
	}
	return strings.Trim(sb.String(), "_")
}
