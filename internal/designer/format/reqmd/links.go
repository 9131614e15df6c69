package reqmd

import (
	"slices"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// Patterns and their entities. A document in the seed's template says which entities a pattern
// touches only in words: its description ("Get user profile by user ID") and its Attributes Needed
// ("userId, name, email"). The import links a pattern to each entity those name, for the team to
// correct on the Access patterns step; without the links REQ003 (read but never written) cannot
// see anything. Export writes the links as the "Entities: …" line, and an empty "Entities:" line
// when a pattern the team left without entities would otherwise be linked on the way back.

// linkPatterns links each pattern whose row did not say its entities to those it names, with a
// note on its line.
func (p *parser) linkPatterns(d *designer.Design) {
	ix := newEntityIndex(d.Entities)
	for i := range d.Patterns {
		pt := &d.Patterns[i]
		if p.patternRows[i].entitiesStated {
			continue
		}
		pt.Entities = ix.linked(*pt)
		if len(pt.Entities) > 0 {
			p.note(p.patternRows[i].line, "pattern %d was linked to %s, which its description or attributes name; correct its entities on the Access patterns step if that is wrong", pt.Number, designer.ListAnd(pt.Entities))
		}
	}
}

// entityIndex finds a design's entities by the words of their names and by the attributes they
// declare, built once for all the patterns of a document.
type entityIndex struct {
	entities []designer.Entity
	names    [][]string       // each entity's name in words
	byFirst  map[string][]int // entities by the first word of their name
	owners   map[string][]int // entities by an attribute they declare, in lower case
}

func newEntityIndex(entities []designer.Entity) *entityIndex {
	ix := &entityIndex{entities: entities, names: make([][]string, len(entities)), byFirst: map[string][]int{}, owners: map[string][]int{}}
	for i, e := range entities {
		ix.names[i] = markdown.NameWords(e.Name)
		if len(ix.names[i]) > 0 {
			ix.byFirst[ix.names[i][0]] = append(ix.byFirst[ix.names[i][0]], i)
		}
		for _, a := range e.Attributes {
			ix.owners[strings.ToLower(a.Name)] = append(ix.owners[strings.ToLower(a.Name)], i)
		}
	}
	return ix
}

// linked are the entities p names, in the design's order: an entity whose name (any case,
// singular or plural, "OrderItems" as "order items") is in the description or the attributes,
// unless it only names a key ("by user ID", "seller_id"); and the entity that alone declares an
// attribute the pattern needs.
func (ix *entityIndex) linked(p designer.Pattern) []string {
	if len(ix.entities) == 0 {
		return nil
	}
	linked := make([]bool, len(ix.entities))
	for _, a := range p.Attributes {
		if o := ix.owners[strings.ToLower(strings.TrimSpace(a))]; len(o) == 1 {
			linked[o[0]] = true
		}
	}
	type match struct{ entity, start, end int }
	var found []match
	for t, text := range append([]string{p.Description}, p.Attributes...) {
		words := markdown.NameWords(text)
		for at, w := range words {
			for _, i := range ix.byFirst[w] {
				if namedAt(words, ix.names[i], at) {
					found = append(found, match{i, t<<20 | at, t<<20 | (at + len(ix.names[i]))})
				}
			}
		}
	}
	for _, m := range found {
		// "order items" names OrderItems, not also Order.
		inside := slices.ContainsFunc(found, func(o match) bool {
			return o.end-o.start > m.end-m.start && o.start <= m.start && m.end <= o.end
		})
		if !inside {
			linked[m.entity] = true
		}
	}
	var out []string
	for i, e := range ix.entities {
		if linked[i] {
			out = append(out, e.Name)
		}
	}
	return out
}

// namedAt reports whether words hold name at at, and not as the start of a key's name ("user id").
func namedAt(words, name []string, at int) bool {
	if len(name) == 0 || at+len(name) > len(words) || !slices.Equal(words[at:at+len(name)], name) {
		return false
	}
	next := at + len(name)
	return next == len(words) || (words[next] != "id" && words[next] != "key")
}
