package reqmd

import (
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// PastedPattern reads a pasted pattern row as the import reads a row of the pattern table, so
// that a cell the import understands the paste understands too: the Key Requirements cell split
// into latency, consistency, result bound and item size, an "Entities: …" last line of the
// considerations taken as the entities, and a row that names none linked to the entities of d
// its description or attributes name. cells are field texts by key; a field the row gives in a
// column of its own is kept as given.
func PastedPattern(cells map[string]string, d designer.Design) map[string]string {
	pf := designer.PatternField
	out := make(map[string]string, len(cells))
	for k, v := range cells {
		out[k] = v
	}
	if raw, ok := out[pf.KeyNotes.Key]; ok {
		var kr keyRequirements
		kr.parse(raw)
		for _, f := range []struct {
			key, value string
		}{{pf.LatencySLO.Key, kr.latency}, {pf.Consistency.Key, kr.consistency}, {pf.ResultBound.Key, kr.result}, {pf.ItemSizeBand.Key, kr.size}} {
			if f.value != "" && out[f.key] == "" {
				out[f.key] = f.value
			}
		}
		if out[pf.KeyNotes.Key] = kr.notes; kr.notes == "" {
			delete(out, pf.KeyNotes.Key)
		}
	}
	if lines := strings.Split(out[pf.Considerations.Key], "\n"); isEntitiesLine(lines[len(lines)-1]) {
		last := strings.TrimSpace(lines[len(lines)-1])
		if out[pf.Entities.Key] == "" {
			out[pf.Entities.Key] = strings.Join(markdown.ParseList(last[len("entities:"):]), ", ")
		}
		if out[pf.Considerations.Key] = strings.TrimSpace(strings.Join(lines[:len(lines)-1], "\n")); out[pf.Considerations.Key] == "" {
			delete(out, pf.Considerations.Key)
		}
	}
	if _, stated := out[pf.Entities.Key]; !stated {
		p := designer.Pattern{Description: out[pf.Description.Key], Attributes: markdown.ParseList(out[pf.Attributes.Key])}
		if linked := newEntityIndex(d.Entities).linked(p); len(linked) > 0 {
			out[pf.Entities.Key] = strings.Join(linked, ", ")
		}
	}
	return out
}

// PastedAggregates reads a pasted aggregate section of the requirement template, as the import
// reads it, into the pairs it analyses with the fields it gives, names resolved against the
// entities of d ("Pets" is Pet). Bullets with no "A + B … Analysis" heading above them are about
// the pair a + b, when given. Each note says what was not read, by the line of the paste.
func PastedAggregates(text string, d designer.Design, a, b string) ([]designer.AddAggregate, []designer.ImportNote, error) {
	text = strings.TrimSpace(text)
	if first, _, _ := strings.Cut(text, "\n"); !strings.HasPrefix(first, "#") {
		if kind, _, _ := headingKind(first); kind == blockAggregate {
			text = "### " + text
		} else if a != "" && b != "" {
			text = "### " + a + " + " + b + " Aggregate Analysis\n" + text
		}
	}
	imported, notes, err := Import([]byte(text))
	if err != nil || len(imported.Aggregates) == 0 {
		return nil, notes, designer.Invalid("text", "no aggregate analysis found: paste a section such as \"### Order + OrderItems Item Collection Analysis\" with its bullets")
	}
	af := designer.AggregateField
	pairs := make([]designer.AddAggregate, 0, len(imported.Aggregates))
	for _, ag := range imported.Aggregates {
		p := designer.AddAggregate{EntityA: entityOf(d, ag.EntityA), EntityB: entityOf(d, ag.EntityB), Fill: map[string]string{}}
		for _, f := range designer.AggregateFields {
			if f.Key == af.EntityA.Key || f.Key == af.EntityB.Key {
				continue
			}
			if v := f.Get(ag); v != "" {
				p.Fill[f.Key] = v
			}
		}
		pairs = append(pairs, p)
	}
	return pairs, notes, nil
}

// entityOf is the entity of d a pasted name means: the same name in any case, or its singular.
func entityOf(d designer.Design, name string) string {
	for _, try := range []string{name, markdown.Singular(name)} {
		for _, e := range d.Entities {
			if strings.EqualFold(e.Name, try) {
				return e.Name
			}
		}
	}
	return name
}

// PastedRelationship reads a pasted line of the requirement's relationships section ("- **Owner →
// Pets**: 1:Many (avg 1.6 pets per owner, max 12)") as the import reads it, into a relationship's
// field texts, its ends resolved against the entities of d. A line that is no such bullet is none.
func PastedRelationship(line string, d designer.Design) (map[string]string, bool) {
	if !strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "*") && !strings.HasPrefix(line, "+") {
		return nil, false
	}
	// The design's entities go with the line, so that "Vets" is Vet and "8 vets per clinic" its
	// count, as in a whole document.
	var doc strings.Builder
	doc.WriteString("## " + titleRelationships + "\n\n" + line + "\n\n## " + titleEntities + "\n\n")
	for _, e := range d.Entities {
		doc.WriteString("- **" + markdown.EscapeLabel(e.Name) + "**:\n")
	}
	imported, _, err := Import([]byte(doc.String()))
	if err != nil || len(imported.Relationships) != 1 {
		return nil, false
	}
	r := imported.Relationships[0]
	r.From, r.To = entityOf(d, r.From), entityOf(d, r.To)
	cells := map[string]string{}
	for _, f := range designer.RelationshipFields {
		if v := f.Get(r); v != "" {
			cells[f.Key] = v
		}
	}
	return cells, true
}
