package datamodelmd

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

// Key templates written on the key bullets of a table: "- **Partition Key**: `PK = <user_email>` -
// why", "- **Partition Key**: pk - `CUST#<id>` for every item", and below a sort key the forms it
// takes, "  - `SK = CART#<product_id>` - Shopping cart items". They belong to the table's entity
// types, where the SK Taxonomy and entity paragraphs put theirs.

var (
	// keyFormHead is a key bullet that opens with its template: "`PK = <user_email>` - why".
	keyFormHead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^`\\s*([A-Za-z_][A-Za-z0-9_.\\-#]*)\\s*=\\s*([^`]+?)\\s*`\\s*(.*)$")
	})
	// keyFormLine is a line below a key bullet with one form of the key and what it stands for.
	keyFormLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^[-*+]\\s+`\\s*([A-Za-z_][A-Za-z0-9_.\\-#]*)\\s*=\\s*([^`]+?)\\s*`\\s*(?:[-–—:]\\s*(.*))?$")
	})
	// templateSpan is a why that opens with a key template in a code span: "`CUST#<id>` for every
	// item". A template has a placeholder or a TYPE# prefix.
	templateSpan = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^`([^`]*(?:#|<[^<>]+>|\\{[^{}]+\\})[^`]*)`\\s*(.*)$")
	})
	// bareName is a template that is only an attribute's name, "product_id": the attribute's value.
	bareName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

// keyTemplate reads the template of "`PK = …`": "<user_email>" and "USER#<id>" as readTemplate
// does, and a bare attribute name, "product_id", as the placeholder it stands for, {product_id}.
// A word in capitals ("ROOT", "PROFILE") is literal text.
func keyTemplate(s string) string {
	t := readTemplate(s)
	if bareName().MatchString(t) && t != strings.ToUpper(t) {
		return "{" + t + "}"
	}
	return t
}

// keyForms is what a key bullet of a table says about the templates of key name: the template
// its first line gives, the forms on the lines below it (each an entity type with its SK or PK
// template and description), and the justification that is left. found is false when it gives
// no template; the bullet is then read as before.
func keyForms(f fieldItem, name string, sort bool) (head string, forms []designer.EntityType, why string, found bool) {
	first := strings.TrimSpace(f.value)
	var rest []string
	if m := keyFormHead().FindStringSubmatch(first); m != nil && m[1] == name {
		head, first, found = keyTemplate(m[2]), strings.TrimSpace(m[3]), true
	} else if _, tail, dashed := cutDash(first); dashed {
		// "pk - `CUST#<id>` for every item": the template opens the justification.
		if m := templateSpan().FindStringSubmatch(tail); m != nil && !sort {
			head, first, found = readTemplate(m[1]), strings.TrimSpace(m[2]), true
		}
	}
	first = strings.TrimSpace(strings.TrimLeft(first, "-–—: "))
	if first != "" {
		rest = append(rest, first)
	}
	for _, c := range f.cont {
		m := keyFormLine().FindStringSubmatch(strings.TrimSpace(c))
		if m == nil || m[1] != name {
			rest = append(rest, c)
			continue
		}
		et := designer.EntityType{Description: strings.TrimSpace(m[3])}
		if sort {
			et.SKTemplate = keyTemplate(m[2])
		} else {
			et.PKTemplate = keyTemplate(m[2])
		}
		forms, found = append(forms, et), true
	}
	return head, forms, strings.Join(rest, "\n"), found
}

// settleKeyForms puts the key templates of a table's key bullets on its entity types: a sort key
// form is the entity type with that SK template (its description filled in when it has none) or a
// new one; the partition key's template goes on every entity type that has none, or makes the one
// entity type of a table that lists none.
func settleKeyForms(t *designer.Table, pk string, pkForms []designer.EntityType, sk string, skForms []designer.EntityType) {
	if sk != "" {
		skForms = append([]designer.EntityType{{SKTemplate: sk}}, skForms...)
	}
	if pk == "" && len(pkForms) == 0 && len(skForms) == 0 {
		return
	}
	ets := slices.Clone(t.EntityTypes)
	for _, form := range skForms {
		if i := slices.IndexFunc(ets, func(et designer.EntityType) bool { return et.SKTemplate == form.SKTemplate }); i >= 0 {
			if ets[i].Description == "" {
				ets[i].Description = form.Description
			}
			continue
		}
		form.Entity = entityName(form.SKTemplate, form.Description)
		ets = append(ets, form)
	}
	for _, form := range pkForms {
		if !slices.ContainsFunc(ets, func(et designer.EntityType) bool { return et.PKTemplate == form.PKTemplate }) {
			form.Entity = entityName(form.PKTemplate, form.Description)
			ets = append(ets, form)
		}
	}
	if pk != "" {
		if len(ets) == 0 {
			ets = append(ets, designer.EntityType{})
		}
		for i := range ets {
			if ets[i].PKTemplate == "" {
				ets[i].PKTemplate = pk
			}
		}
	}
	t.EntityTypes = ets
}
