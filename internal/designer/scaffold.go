package designer

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// ScaffoldPlan is what ScaffoldFor works out: the change, and one line for each choice it made,
// with the method's reason, for the preview to show before the change is sent.
type ScaffoldPlan struct {
	Change  ScaffoldAggregate
	Reasons []string
}

// ScaffoldFor works out the tables aggregate id's decision calls for, as the method writes them,
// holding only what the design lacks. Entity A of the analysis is the parent, B the child:
//
//   - single item: table As (plural) keyed on A's id; B lives inside A's item, as a list;
//   - item collection: table As keyed on A's id and the sort key sk; A's item has the sort key
//     PROFILE, each B's item B#{B's id} (upper case);
//   - separate tables: table As keyed on A's id, and table Bs keyed on B's id, or on A's id and
//     B's id when the identifying check says B cannot exist without A and A's id is always known.
//
// An entity that lives in a table already is kept there: no second table is made for it, and an
// item collection or single item joins the parent's table when its key allows. An entity's id is
// its attribute named after it (order_id), else the first of a key type ending in _id or _no,
// leaving out those naming another entity (pet_id in Appointment) and the parent's id; one named
// after it, of type S, is made when it has none. The error is a *ValidationError when the
// decision is not made yet, an entity is missing, or a table the scaffold needs has another key;
// the change has no tables when everything is there already.
func ScaffoldFor(d Design, id string) (ScaffoldPlan, error) {
	a, _, ok := d.AggregateByID(id)
	if !ok {
		return ScaffoldPlan{}, Invalid("aggregate", "no aggregate analysis with id %q; it may have been deleted", id)
	}
	parent, _, ok := d.EntityByName(a.EntityA)
	if !ok {
		return ScaffoldPlan{}, Invalid("entity_a", "no entity named %q", a.EntityA)
	}
	child, _, ok := d.EntityByName(a.EntityB)
	if !ok {
		return ScaffoldPlan{}, Invalid("entity_b", "no entity named %q", a.EntityB)
	}
	s := scaffolder{d: d, parent: parent, child: child}
	s.pid, s.pidWhy = entityID(d, parent, "")
	s.cid, s.cidWhy = entityID(d, child, s.pid.Name)
	var err error
	switch a.Decision {
	case SingleItem:
		err = s.singleItem()
	case ItemCollection:
		err = s.itemCollection()
	case SeparateTables:
		s.separateTables(a.Identifying)
	case "":
		return ScaffoldPlan{}, Invalid("decision", "choose a decision first: single item, item collection or separate tables")
	default:
		return ScaffoldPlan{}, Invalid("decision", "%q is no decision this can scaffold", a.Decision)
	}
	if err != nil {
		return ScaffoldPlan{}, err
	}
	plan := ScaffoldPlan{Change: ScaffoldAggregate{Aggregate: id}, Reasons: s.reasons}
	for _, st := range s.tables {
		_, _, there := d.TableByName(st.Name)
		st, err := missingFrom(d, st)
		if err != nil {
			return ScaffoldPlan{}, err
		}
		if st.Name == "" {
			continue
		}
		if there && !slices.Contains(s.kept, st.Name) {
			plan.Reasons = append(plan.Reasons, "Table "+st.Name+" is there already with this key: it gains only what it lacks")
		}
		plan.Change.Tables = append(plan.Change.Tables, st)
	}
	return plan, nil
}

// scaffolder builds one ScaffoldFor plan: the tables it wants and the reasons for them.
type scaffolder struct {
	d              Design
	parent, child  Entity
	pid, cid       KeyAttribute
	pidWhy, cidWhy string
	tables         []ScaffoldTable
	reasons        []string
	// kept names the tables the entities live in already, which the plan joins.
	kept []string
}

func (s *scaffolder) say(format string, args ...any) {
	s.reasons = append(s.reasons, fmt.Sprintf(format, args...))
}

// aggregateTable is the new table an item collection or single item lives in, named for the
// aggregate, which its parent roots.
func (s *scaffolder) aggregateTable(sk *KeyAttribute) ScaffoldTable {
	name := tableName(plural(s.parent.Name))
	s.say("Table %s: named for the aggregate, %s + %s, in the plural", name, s.parent.Name, s.child.Name)
	s.say("PK %s: %s", s.pid.Name, s.pidWhy)
	return ScaffoldTable{Name: name, PartitionKey: s.pid, SortKey: sk}
}

func (s *scaffolder) singleItem() error {
	list := snake(s.child.Name) + "_list"
	pk, sk := "{"+s.pid.Name+"}", ""
	var t ScaffoldTable
	if home, et, ok := homeOf(s.d, s.parent.Name); ok {
		s.say("%s already lives in table %s: kept, and its item there holds its %s", s.parent.Name, home.Name, plural(s.child.Name))
		s.kept = append(s.kept, home.Name)
		t = ScaffoldTable{Name: home.Name, PartitionKey: home.PartitionKey, SortKey: home.SortKey}
		pk, sk = et.PKTemplate, et.SKTemplate
	} else {
		t = s.aggregateTable(nil)
		t.EntityTypes = []EntityType{{Entity: s.parent.Name, PKTemplate: pk, Description: "One item per " + s.parent.Name + ", holding its " + s.child.Name + " list."}}
	}
	s.say("%s inside each %s's item, as %s (L): a single item aggregate reads and updates both in one item, within its 400 KB",
		plural(s.child.Name), s.parent.Name, list)
	if other, _, ok := homeOf(s.d, s.child.Name); ok && other.Name != t.Name {
		s.say("%s also lives in table %s: kept; each %s's item holds its %s as well", s.child.Name, other.Name, s.parent.Name, plural(s.child.Name))
	}
	t.EntityTypes = append(t.EntityTypes, EntityType{Entity: s.child.Name, PKTemplate: pk, SKTemplate: sk,
		Description: "Kept inside its " + s.parent.Name + "'s item, in " + list + "."})
	t.Attributes = append(entityAttributes(s.parent, s.pid), Attribute{Name: list, Type: L})
	s.tables = []ScaffoldTable{t}
	return nil
}

func (s *scaffolder) itemCollection() error {
	pk := "{" + s.pid.Name + "}"
	var t ScaffoldTable
	homes := homesOf(s.d, s.parent.Name)
	for _, h := range homes {
		if holds(h, s.child.Name) {
			s.say("%s and %s already live together in table %s: kept", s.parent.Name, s.child.Name, h.Name)
			return nil
		}
	}
	// The collection joins a table where the parent's item heads its own partition.
	i := slices.IndexFunc(homes, func(h Table) bool {
		et := typeIn(h, s.parent.Name)
		return h.SortKey != nil && h.SortKey.Type == S && strings.Contains(et.PKTemplate, pk) && !strings.Contains(et.SKTemplate, "{")
	})
	switch {
	case i >= 0:
		home := homes[i]
		s.say("%s already lives in table %s: kept, and %s join its collection", s.parent.Name, home.Name, plural(s.child.Name))
		s.kept = append(s.kept, home.Name)
		t = ScaffoldTable{Name: home.Name, PartitionKey: home.PartitionKey, SortKey: home.SortKey}
		pk = typeIn(home, s.parent.Name).PKTemplate
	case len(homes) > 0:
		home := homes[0]
		return Invalid("tables", "%s lives in table %s, keyed on %s, where an item collection of %s and %s needs its own partition on %s and a sort key of type S",
			s.parent.Name, home.Name, keyText(home.PartitionKey, home.SortKey), s.parent.Name, s.child.Name, s.pid.Name)
	default:
		sk := KeyAttribute{Name: "sk", Type: S}
		t = s.aggregateTable(&sk)
		s.say("SK sk: it holds each item's type, then its id, as the method writes an item collection's sort key")
		s.say("SK PROFILE for the %s item: the parent's own item in its collection", s.parent.Name)
		t.EntityTypes = []EntityType{{Entity: s.parent.Name, PKTemplate: pk, SKTemplate: "PROFILE", Description: "One per " + s.parent.Name + ": its own item in its collection."}}
	}
	skt := strings.ToUpper(snake(s.child.Name)) + "#{" + s.cid.Name + "}"
	s.say("SK %s for each %s: its type, then its id (%s), so one Query on %s reads %s %s with its %s", skt, s.child.Name, s.cidWhy,
		s.pid.Name, article(s.parent.Name), s.parent.Name, plural(s.child.Name))
	if other, _, ok := homeOf(s.d, s.child.Name); ok && other.Name != t.Name {
		s.say("%s also lives in table %s: kept; the collection holds each %s beside its %s as well", s.child.Name, other.Name, s.child.Name, s.parent.Name)
	}
	t.EntityTypes = append(t.EntityTypes, EntityType{Entity: s.child.Name, PKTemplate: pk, SKTemplate: skt,
		Description: "One per " + s.child.Name + ", in its " + s.parent.Name + "'s collection."})
	t.Attributes = joinAttributes(entityAttributes(s.parent, s.pid), entityAttributes(s.child, s.cid), s.pid)
	s.tables = []ScaffoldTable{t}
	return nil
}

func (s *scaffolder) separateTables(ic IdentifyingCheck) {
	if home, _, ok := homeOf(s.d, s.parent.Name); ok {
		s.say("%s already lives in table %s: kept, no second table", s.parent.Name, home.Name)
	} else {
		name := tableName(plural(s.parent.Name))
		s.say("Table %s: named for %s, in the plural", name, s.parent.Name)
		s.say("PK %s: %s", s.pid.Name, s.pidWhy)
		s.tables = append(s.tables, ScaffoldTable{Name: name, PartitionKey: s.pid,
			EntityTypes: []EntityType{{Entity: s.parent.Name, PKTemplate: "{" + s.pid.Name + "}", Description: "One per " + s.parent.Name + "."}},
			Attributes:  entityAttributes(s.parent, s.pid)})
	}
	if home, _, ok := homeOf(s.d, s.child.Name); ok {
		s.say("%s already lives in table %s: kept, no second table", s.child.Name, home.Name)
		return
	}
	name := tableName(plural(s.child.Name))
	s.say("Table %s: named for %s, in the plural", name, s.child.Name)
	t := ScaffoldTable{Name: name, PartitionKey: s.cid,
		EntityTypes: []EntityType{{Entity: s.child.Name, PKTemplate: "{" + s.cid.Name + "}", Description: "One per " + s.child.Name + "."}},
		Attributes:  entityAttributes(s.child, s.cid)}
	c, p := words(s.child.Name), words(s.parent.Name)
	if no(ic.ChildIndependent) && yes(ic.ParentIDKnown) {
		sk := s.cid
		t.PartitionKey, t.SortKey = s.pid, &sk
		t.EntityTypes[0].PKTemplate, t.EntityTypes[0].SKTemplate = "{"+s.pid.Name+"}", "{"+s.cid.Name+"}"
		t.Attributes = joinAttributes([]Attribute{{Name: s.pid.Name, Type: s.pid.Type}}, t.Attributes, s.pid)
		s.say("%s keyed on %s + %s: %s %s cannot exist without its %s (identifying) and its %s's id is always known, so a Query on %s reads them with no index; %s is %s",
			name, s.pid.Name, s.cid.Name, article(c), c, p, p, s.pid.Name, s.cid.Name, s.cidWhy)
	} else {
		why := "the identifying check is not answered No, then Yes"
		switch {
		case yes(ic.ChildIndependent):
			why = article(c) + " " + c + " can exist without its " + p
		case no(ic.ParentIDKnown):
			why = "its " + p + "'s id is not always known"
		}
		s.say("%s keyed on %s: %s; not under its %s's id, as %s; a %s's %s are then read through an index on %s",
			name, s.cid.Name, s.cidWhy, p, why, s.parent.Name, plural(s.child.Name), s.pid.Name)
	}
	s.tables = append(s.tables, t)
}

// homeOf is the first table holding an entity type of entity, and that entity type.
func homeOf(d Design, entity string) (Table, EntityType, bool) {
	if homes := homesOf(d, entity); len(homes) > 0 {
		return homes[0], typeIn(homes[0], entity), true
	}
	return Table{}, EntityType{}, false
}

// homesOf is every table holding an entity type of entity.
func homesOf(d Design, entity string) []Table {
	var out []Table
	for _, t := range d.Tables {
		if holds(t, entity) {
			out = append(out, t)
		}
	}
	return out
}

// typeIn is t's entity type of entity, its PK template "{pk}" when it gives none.
func typeIn(t Table, entity string) EntityType {
	i := slices.IndexFunc(t.EntityTypes, func(et EntityType) bool { return et.Entity == entity })
	if i < 0 {
		return EntityType{}
	}
	et := t.EntityTypes[i]
	if et.PKTemplate == "" {
		et.PKTemplate = "{" + t.PartitionKey.Name + "}"
	}
	return et
}

func holds(t Table, entity string) bool {
	return slices.ContainsFunc(t.EntityTypes, func(et EntityType) bool { return et.Entity == entity })
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

// entityID is the attribute that identifies e's items (see ScaffoldFor), never one named not, and
// why it was taken, for the plan's reasons.
func entityID(d Design, e Entity, not string) (KeyAttribute, string) {
	own := snake(e.Name) + "_id"
	var others []string
	foreign := func(name string) bool {
		if name == not {
			return true
		}
		for _, o := range d.Entities {
			if o.Name == e.Name {
				continue
			}
			if p := snake(o.Name); name == p+"_id" || strings.HasPrefix(name, p+"_") && !strings.HasPrefix(name, snake(e.Name)+"_") {
				return true
			}
		}
		return false
	}
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
	for _, a := range e.Attributes {
		if a.Name != own && foreign(a.Name) && (strings.HasSuffix(a.Name, "_id") || strings.HasSuffix(a.Name, "_no")) {
			others = append(others, a.Name)
		}
	}
	skipped := ""
	if len(others) > 0 {
		skipped = " (" + others[0] + " names another entity)"
		if len(others) > 1 {
			skipped = " (" + ListAnd(others) + " name other entities)"
		}
	}
	if k, ok := pick(func(a Attribute) bool { return a.Name == own }); ok {
		return k, e.Name + "'s natural key"
	}
	if k, ok := pick(func(a Attribute) bool {
		return a.Type.KeyType() && !foreign(a.Name) && (strings.HasSuffix(a.Name, "_id") || strings.HasSuffix(a.Name, "_no") || a.Name == "id")
	}); ok {
		return k, e.Name + "'s natural key, its first id attribute" + skipped
	}
	return KeyAttribute{Name: own, Type: S}, e.Name + "'s id, made (S) as it has none of its own" + skipped
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

// plural is a name for many of what name names, its last word made plural: Clinic is Clinics,
// Category Categories, Box Boxes, Analysis Analyses, Person People; Pets stays.
func plural(name string) string {
	lower := strings.ToLower(name)
	switch {
	case name == "" || strings.HasSuffix(lower, "people") || strings.HasSuffix(lower, "children"):
		return name
	case strings.HasSuffix(lower, "person"):
		return name[:len(name)-5] + "eople"
	case strings.HasSuffix(lower, "child"):
		return name + "ren"
	case singular(name) != name:
		return name
	case strings.HasSuffix(lower, "is") && len(name) > 3:
		return name[:len(name)-2] + "es"
	case strings.HasSuffix(lower, "s") || strings.HasSuffix(lower, "x") || strings.HasSuffix(lower, "ch") || strings.HasSuffix(lower, "sh"):
		return name + "es"
	case strings.HasSuffix(lower, "y") && len(name) > 1 && !strings.ContainsRune("aeiou", rune(lower[len(lower)-2])):
		return name[:len(name)-1] + "ies"
	}
	return name + "s"
}

// words is a name as a sentence says it: OrderLine is "order line".
func words(name string) string { return strings.ReplaceAll(snake(name), "_", " ") }

// article is "a" or "an" before w.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiouAEIOU", rune(w[0])) {
		return "an"
	}
	return "a"
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
