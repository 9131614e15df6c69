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
	types := indexedTypes(t, ix)
	if len(types) == 0 {
		return Cardinality{}, false
	}
	where := "in the sample items"
	switch {
	case name == t.PartitionKey.Name:
		where = "by the partition-key templates"
	case t.SortKey != nil && name == t.SortKey.Name:
		where = "by the SK taxonomy"
	}
	var templates []designer.EntityType // each with the attribute's template as its PKTemplate
	var written []string
	for _, et := range types {
		tmpl, ok := attributeTemplate(t, ix, et, name)
		if !ok {
			return Cardinality{}, false
		}
		if !slices.Contains(written, tmpl) {
			written = append(written, tmpl)
			templates = append(templates, designer.EntityType{Entity: et.Entity, PKTemplate: tmpl})
		}
	}
	got := c.templates(t, templates)
	switch {
	case len(written) > 1:
		got.Source += "; " + name + " is built by these templates " + where
	case written[0] != "{"+name+"}":
		got.Source += "; " + name + " is " + written[0] + " " + where
	}
	return got, true
}

// indexedTypes are the entity types of t whose sample items GSI ix holds: those with every key
// attribute of the index (a sparse index holds no other), in the SK taxonomy's order.
func indexedTypes(t designer.Table, ix designer.Index) []designer.EntityType {
	var out []designer.EntityType
	for _, it := range t.Items {
		if !holdsKey(it.Item, ix) {
			continue
		}
		et, ok := itemType(t, it.Item)
		if !ok {
			return nil // an item of no known entity type: what it builds is not told
		}
		if !slices.Contains(out, et) {
			out = append(out, et)
		}
	}
	slices.SortStableFunc(out, func(a, b designer.EntityType) int {
		return slices.Index(t.EntityTypes, a) - slices.Index(t.EntityTypes, b)
	})
	return out
}

// holdsKey reports whether an item has every key attribute of ix.
func holdsKey(it designer.Item, ix designer.Index) bool {
	for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
		if _, ok := it[k.Name]; !ok {
			return false
		}
	}
	return true
}

// itemType is the entity type of t whose key templates build the item's table key, the most
// specific when several do (the one with the most literal text).
func itemType(t designer.Table, it designer.Item) (designer.EntityType, bool) {
	var best designer.EntityType
	most := -1
	for _, et := range t.EntityTypes {
		if !builds(et.PKTemplate, it, t.PartitionKey.Name) || t.SortKey != nil && et.SKTemplate != "" && !builds(et.SKTemplate, it, t.SortKey.Name) {
			continue
		}
		if n := literalLength(et.PKTemplate) + literalLength(et.SKTemplate); n > most {
			best, most = et, n
		}
	}
	return best, most >= 0
}

// builds reports whether template tmpl has the shape of the item's value of key.
func builds(tmpl string, it designer.Item, key string) bool {
	v, ok := it[key]
	return ok && strings.TrimSpace(tmpl) != "" && designer.MatchTemplate(tmpl, designer.FormatCell(v))
}

// literalLength is how much of a template is literal text.
func literalLength(tmpl string) int {
	n := len(tmpl)
	for _, a := range designer.TemplateAttributes(tmpl) {
		n -= (len(a) + 2) * strings.Count(tmpl, "{"+a+"}")
	}
	return n
}

// attributeTemplate is the template by which entity type et's items build attribute name: the
// table's key templates for its key attributes, else read from the items.
func attributeTemplate(t designer.Table, ix designer.Index, et designer.EntityType, name string) (string, bool) {
	switch {
	case name == t.PartitionKey.Name:
		return et.PKTemplate, strings.TrimSpace(et.PKTemplate) != ""
	case t.SortKey != nil && name == t.SortKey.Name:
		return et.SKTemplate, strings.TrimSpace(et.SKTemplate) != ""
	}
	keys := keyNames(t)
	tmpl, held := "", 0
	for _, it := range t.Items {
		v, ok := it.Item[name]
		if !ok || v.Type != designer.S && v.Type != designer.N {
			continue
		}
		if got, ok := itemType(t, it.Item); !ok || got != et {
			continue
		}
		built := readTemplate(designer.FormatCell(v), it.Item, name, keys)
		if held > 0 && built != tmpl {
			return "", false
		}
		tmpl = built
		held++
	}
	// A literal read from fewer items than minSameSample could be one value of many by chance.
	if held == 0 || len(designer.TemplateAttributes(tmpl)) == 0 && held < minSameSample {
		return "", false
	}
	return tmpl, true
}

// readTemplate is the template that builds value from the item's other attributes: each part
// between #s that an attribute other than name and the keys holds becomes its placeholder, the
// first such attribute by name when several hold it.
func readTemplate(value string, it designer.Item, name string, keys []string) string {
	parts := strings.Split(value, "#")
	for i, p := range parts {
		if p == "" {
			continue
		}
		var holders []string
		for a, v := range it {
			if a != name && !slices.Contains(keys, a) && (v.Type == designer.S || v.Type == designer.N) && v.S == p {
				holders = append(holders, a)
			}
		}
		if len(holders) > 0 {
			parts[i] = "{" + slices.Min(holders) + "}"
		}
	}
	return strings.Join(parts, "#")
}

// keyNames are the key attributes of t and of its indexes: keys built from others, never a part
// of another's template.
func keyNames(t designer.Table) []string {
	names := designer.TableKeyNames(t)
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			names = append(names, k.Name)
		}
	}
	return names
}
