package capacity

import (
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// A GSI's partition key is often an attribute the items build for it from others: owner_key =
// CONTRACTOR#<contractor_id> on punch items, qual_pk = YEAR#<school_year>#<pay_basis>#Q#<qual>…, or
// the table's own sort key, whose SK taxonomy gives each entity type's template. Nothing in its
// name says how many values it takes; the templates of the entity types whose items the index
// holds do, counted as the table's key is: a template's placeholders multiply their attributes'
// values, different templates add theirs, entity types sharing a template share its values. The
// template of an attribute the SK taxonomy does not give is read from the entity type's sample
// items: each part of a value between #s that another attribute of the item holds is that
// attribute's placeholder, the rest literal text, and every item must give the same template.

// indexAttribute is the cardinality of attribute name of GSI ix's partition key from the templates
// of the entity types the index holds, or nothing (what the attribute alone gives) when they do
// not all have one.
func (c *cardinalities) indexAttribute(t designer.Table, ix designer.Index, name string, nothing Cardinality) Cardinality {
	k := [2]string{t.Name + "\x00" + ix.Name, name}
	if got, ok := c.indexes[k]; ok {
		return got
	}
	got, ok := c.fromTemplates(t, ix, name)
	if !ok {
		got = nothing
	}
	if c.indexes == nil {
		c.indexes = map[[2]string]Cardinality{}
	}
	c.indexes[k] = got
	return got
}

// fromTemplates is indexAttribute's figure; ok is false when some entity type the index holds has
// no template for the attribute, or the index holds none that the design tells.
func (c *cardinalities) fromTemplates(t designer.Table, ix designer.Index, name string) (Cardinality, bool) {
	templates, ok := builtTemplates(t, ix, name)
	if !ok {
		return Cardinality{}, false
	}
	where := "in the sample items"
	switch {
	case name == t.PartitionKey.Name:
		where = "by the partition-key templates"
	case t.SortKey != nil && name == t.SortKey.Name:
		where = "by the SK taxonomy"
	}
	got := c.templates(t, templates)
	switch {
	case len(templates) > 1:
		got.Source += "; " + name + " is built by these templates " + where
	case templates[0].PKTemplate != "{"+name+"}":
		got.Source += "; " + name + " is " + templates[0].PKTemplate + " " + where
	}
	return got, true
}

// builts remembers builtTemplates across revisions, so that an edit elsewhere does not read a
// table's thousands of items again. What it reads is named by the table's entity types and key
// attributes, the index's key and the attribute.
var builts itemsCache[[]designer.EntityType]

// builtTemplates are the distinct templates by which the entity types whose items GSI ix holds
// build attribute name, each as the PKTemplate of an entity type of its first entity, in the SK
// taxonomy's order; ok is false when some has none, or the index holds no item of a known type.
func builtTemplates(t designer.Table, ix designer.Index, name string) ([]designer.EntityType, bool) {
	if len(t.Items) == 0 || len(t.EntityTypes) == 0 {
		return nil, false
	}
	var shape strings.Builder
	for _, et := range t.EntityTypes {
		shape.WriteString(et.Entity + "\x00" + et.PKTemplate + "\x00" + et.SKTemplate + "\x00")
	}
	shape.WriteString("\x01" + strings.Join(keyNames(t), "\x00") + "\x01")
	for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
		shape.WriteString(k.Name + "\x00")
	}
	shape.WriteString("\x01" + name)
	k := keyOfItems(t.Items, shape.String())
	got, ok := builts.get(k)
	if !ok {
		got = readBuiltTemplates(t, ix, name)
		builts.put(k, got)
	}
	return got, len(got) > 0
}

// readBuiltTemplates is builtTemplates, read from the items; nil when they do not tell.
func readBuiltTemplates(t designer.Table, ix designer.Index, name string) []designer.EntityType {
	types := newItemTypes(t)
	keys := keyNames(t)
	// Per entity type (by its place in the SK taxonomy): the template its items give, and how many.
	tmpls := make([]string, len(t.EntityTypes))
	held := make([]int, len(t.EntityTypes))
	for _, it := range t.Items {
		if !holdsKey(it.Item, ix) {
			continue
		}
		i := types.of(it.Item)
		if i < 0 {
			return nil // an item of no known entity type: what it builds is not told
		}
		et := t.EntityTypes[i]
		var tmpl string
		switch {
		case name == t.PartitionKey.Name:
			tmpl = et.PKTemplate
		case t.SortKey != nil && name == t.SortKey.Name:
			tmpl = et.SKTemplate
		default:
			v := it.Item[name]
			if v.Type != designer.S && v.Type != designer.N {
				return nil
			}
			tmpl = readTemplate(v.S, it.Item, name, keys)
		}
		if strings.TrimSpace(tmpl) == "" || held[i] > 0 && tmpl != tmpls[i] {
			return nil
		}
		tmpls[i] = tmpl
		held[i]++
	}
	var out []designer.EntityType
	for i, tmpl := range tmpls {
		if held[i] == 0 {
			continue
		}
		// A literal read from fewer items than minSameSample could be one value of many by chance.
		own := name == t.PartitionKey.Name || t.SortKey != nil && name == t.SortKey.Name
		if !own && held[i] < minSameSample && len(designer.TemplateAttributes(tmpl)) == 0 {
			return nil
		}
		if !slices.ContainsFunc(out, func(o designer.EntityType) bool { return o.PKTemplate == tmpl }) {
			out = append(out, designer.EntityType{Entity: t.EntityTypes[i].Entity, PKTemplate: tmpl})
		}
	}
	return out
}

// holdsKey reports whether an item has every key attribute of ix.
func holdsKey(it designer.Item, ix designer.Index) bool {
	for _, k := range ix.PartitionKey {
		if _, ok := it[k.Name]; !ok {
			return false
		}
	}
	for _, k := range ix.SortKey {
		if _, ok := it[k.Name]; !ok {
			return false
		}
	}
	return true
}

// itemTypes tells the entity type of t's items: the one whose key templates build the item's
// table key, the most specific when several do (the one with the most literal text).
type itemTypes struct {
	t designer.Table
	// literal is how much of each entity type's templates is literal text; prefix the literal text
	// its partition-key template starts with.
	literal []int
	prefix  []string
}

func newItemTypes(t designer.Table) itemTypes {
	x := itemTypes{t: t, literal: make([]int, len(t.EntityTypes)), prefix: make([]string, len(t.EntityTypes))}
	for i, et := range t.EntityTypes {
		x.literal[i] = literalLength(et.PKTemplate) + literalLength(et.SKTemplate)
		x.prefix[i], _, _ = strings.Cut(et.PKTemplate, "{")
	}
	return x
}

// of is the place in the SK taxonomy of the item's entity type, -1 when none builds its key.
func (x itemTypes) of(it designer.Item) int {
	pk, ok := it[x.t.PartitionKey.Name]
	if !ok {
		return -1
	}
	pkText := designer.FormatCell(pk)
	best := -1
	for i, et := range x.t.EntityTypes {
		// An entity type the SK taxonomy gives only a sort-key template is told by that alone.
		noPK := strings.TrimSpace(et.PKTemplate) == ""
		if best >= 0 && x.literal[i] <= x.literal[best] || !strings.HasPrefix(pkText, x.prefix[i]) ||
			noPK && (x.t.SortKey == nil || et.SKTemplate == "") || !noPK && !designer.MatchTemplate(et.PKTemplate, pkText) {
			continue
		}
		if x.t.SortKey != nil && et.SKTemplate != "" {
			sk, ok := it[x.t.SortKey.Name]
			if !ok || !designer.MatchTemplate(et.SKTemplate, designer.FormatCell(sk)) {
				continue
			}
		}
		best = i
	}
	return best
}

// literalLength is how much of a template is literal text.
func literalLength(tmpl string) int {
	n := len(tmpl)
	for _, a := range designer.TemplateAttributes(tmpl) {
		n -= (len(a) + 2) * strings.Count(tmpl, "{"+a+"}")
	}
	return n
}

// readTemplate is the template that builds value from the item's other attributes: each part
// between #s that another attribute holds becomes its placeholder, the first such attribute by
// name when several hold it, one that is no key of the table or its indexes first (a key copied
// from another is built for it).
func readTemplate(value string, it designer.Item, name string, keys []string) string {
	parts := strings.Split(value, "#")
	for i, p := range parts {
		if p == "" {
			continue
		}
		plain, keyed := "", ""
		for a, v := range it {
			if a == name || v.Type != designer.S && v.Type != designer.N || v.S != p {
				continue
			}
			if slices.Contains(keys, a) {
				if keyed == "" || a < keyed {
					keyed = a
				}
			} else if plain == "" || a < plain {
				plain = a
			}
		}
		switch {
		case plain != "":
			parts[i] = "{" + plain + "}"
		case keyed != "":
			parts[i] = "{" + keyed + "}"
		}
	}
	return strings.Join(parts, "#")
}

// keyNames are the key attributes of t and of its indexes.
func keyNames(t designer.Table) []string {
	names := designer.TableKeyNames(t)
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			names = append(names, k.Name)
		}
	}
	return names
}
