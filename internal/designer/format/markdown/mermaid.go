package markdown

import (
	"fmt"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// DiagramMarker is the HTML comment the documents write on the line before a Mermaid diagram drawn
// from the design (an export with diagrams). Walk skips the comment and the code block after it,
// so a document read back holds what it would hold without them: the diagram is derived, never data.
const DiagramMarker = "<!-- dynaloom:diagram (drawn from the design when exported; not read back) -->"

// ExportOptions are what a person may ask of a markdown document beyond the seed's template.
type ExportOptions struct {
	// Mermaid adds the design's diagrams as Mermaid code blocks, which GitHub draws: an erDiagram
	// of the entities to the requirement document and a flowchart of the model map to the data model.
	Mermaid bool
}

// MermaidEntities is the entity diagram of d as the lines of a marked Mermaid erDiagram block:
// each entity with its typed attributes, each relationship with its cardinality and counts.
func MermaidEntities(d designer.Design) []string {
	out := []string{DiagramMarker, "```mermaid", "erDiagram"}
	for _, e := range d.Entities {
		out = append(out, "    "+mermaidEntityName(e.Name)+" {")
		for _, a := range e.Attributes {
			name, comment := mermaidAttribute(a.Name)
			typ := string(a.Type)
			if typ == "" {
				typ = "S"
			}
			line := "        " + typ + " " + name
			if comment != "" {
				line += " " + comment
			}
			out = append(out, line)
		}
		out = append(out, "    }")
	}
	for _, r := range d.Relationships {
		if r.From == "" || r.To == "" {
			continue
		}
		out = append(out, "    "+mermaidEntityName(r.From)+" "+mermaidCardinality(r.Kind)+" "+
			mermaidEntityName(r.To)+" : "+mermaidQuote(relationshipLabel(r)))
	}
	return append(out, "```")
}

// MermaidModelMap is the model map of d as the lines of a marked Mermaid flowchart block: each table
// with the entity types of its item collections and their key templates, its indexes attached, and
// each mapped access pattern pointing at the tables and indexes it uses — a solid arrow for a read,
// a dashed one for a write.
func MermaidModelMap(d designer.Design) []string {
	out := []string{DiagramMarker, "```mermaid", "flowchart LR"}
	tableID := map[string]string{}
	indexID := map[string]string{} // "table\x00index"
	for ti, t := range d.Tables {
		id := "t" + strconv.Itoa(ti+1)
		tableID[t.Name] = id
		lines := []string{"<b>" + mermaidText(t.Name) + "</b>", "PK " + mermaidText(t.PartitionKey.Name)}
		if t.SortKey != nil {
			lines = append(lines, "SK "+mermaidText(t.SortKey.Name))
		}
		for _, et := range t.EntityTypes {
			l := mermaidText(et.Entity)
			if et.PKTemplate != "" {
				l += ": PK = " + mermaidText(et.PKTemplate)
			}
			if et.SKTemplate != "" {
				l += ", SK = " + mermaidText(et.SKTemplate)
			}
			lines = append(lines, l)
		}
		out = append(out, "    "+id+"[\""+strings.Join(lines, "<br/>")+"\"]")
		indexes := func(kind string, list []designer.Index) {
			for xi, ix := range list {
				xid := id + strings.ToLower(kind) + strconv.Itoa(xi+1)
				indexID[t.Name+"\x00"+ix.Name] = xid
				l := []string{"<b>" + kind + " " + mermaidText(ix.Name) + "</b>", "PK " + mermaidText(keyNames(ix.PartitionKey))}
				if len(ix.SortKey) > 0 {
					l = append(l, "SK "+mermaidText(keyNames(ix.SortKey)))
				}
				proj := ix.Projection.Type
				if proj == designer.Include && len(ix.Projection.Attributes) > 0 {
					proj += " (" + strings.Join(ix.Projection.Attributes, ", ") + ")"
				}
				if proj != "" {
					l = append(l, "projects "+mermaidText(proj))
				}
				if ix.Sparse {
					l = append(l, "sparse")
				}
				out = append(out, "    "+xid+"[/\""+strings.Join(l, "<br/>")+"\"/]", "    "+id+" --- "+xid)
			}
		}
		indexes("GSI", t.GSIs)
		indexes("LSI", t.LSIs)
	}
	for _, p := range d.Patterns {
		targets := patternTargets(p, tableID, indexID)
		if len(targets) == 0 {
			continue
		}
		id := "p" + strconv.Itoa(p.Number)
		label := "#" + strconv.Itoa(p.Number) + " " + designer.TruncateRunes(OneLine(p.Description), 60)
		if p.PeakRPS != nil {
			label += " · " + strconv.FormatFloat(*p.PeakRPS, 'f', -1, 64) + " RPS"
		}
		out = append(out, "    "+id+"([\""+mermaidText(label)+"\"])")
		arrow := " --> "
		if p.Type == designer.Write {
			arrow = " -.-> "
		}
		for _, to := range targets {
			out = append(out, "    "+id+arrow+to)
		}
	}
	return append(out, "```")
}

// patternTargets are the node ids of the tables and indexes p's operations use, each once, in order.
func patternTargets(p designer.Pattern, tableID, indexID map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, op := range p.Mapping.Operations {
		id := tableID[op.Table]
		if op.Index != "" {
			id = indexID[op.Table+"\x00"+op.Index]
		}
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func keyNames(keys []designer.KeyAttribute) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return strings.Join(names, " + ")
}

// relationshipLabel is what a relationship's line says: its kind and its counts.
func relationshipLabel(r designer.Relationship) string {
	if counts := r.Counts(); counts != "" {
		return r.Kind + " (" + counts + ")"
	}
	return r.Kind
}

// mermaidCardinality is the crow's-foot link of a relationship kind.
func mermaidCardinality(kind string) string {
	switch kind {
	case designer.OneToOne:
		return "||--o|"
	case designer.ManyToMany:
		return "}o--o{"
	}
	return "||--o{"
}

// mermaidEntityName is an entity name as Mermaid's erDiagram takes it: a plain word as it is, any
// other name quoted, with every character Mermaid reads as markup inside the quotes written as its
// numeric entity code, so the drawing shows the name as written.
func mermaidEntityName(name string) string {
	if plainWord(name) {
		return name
	}
	var b strings.Builder
	for _, r := range OneLine(name) {
		switch r {
		case '#', '"', '<', '>', '&', '%', '\\', '_', '*', '`', '~':
			fmt.Fprintf(&b, "#%d;", r) // an erDiagram's names are read as markdown too
		default:
			b.WriteRune(r)
		}
	}
	return `"` + b.String() + `"`
}

// mermaidAttribute is an attribute's name as Mermaid's erDiagram takes it, and, when the name had
// to change to be taken, the name as written, as the attribute's comment.
func mermaidAttribute(name string) (string, string) {
	if plainWord(name) {
		return name, ""
	}
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || r == '-' && i > 0 || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String(), mermaidQuote(name)
}

// plainWord reports whether s is a letter or underscore followed by letters, digits, '_' and '-'.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && (r == '-' || '0' <= r && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// mermaidQuote is s as a double-quoted Mermaid string: one line, '"' and '%' replaced.
func mermaidQuote(s string) string {
	s = strings.NewReplacer(`"`, "'", "%", " pct", "\n", " ", "\r", " ", "\\", "/").Replace(s)
	return `"` + s + `"`
}

// mermaidText is s for a flowchart's quoted label: one line, every character Mermaid or HTML would
// read as markup written as Mermaid's numeric entity code (#35; for '#'), so a key template such as
// USER#<user_id> shows as written and user text cannot become markup.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range OneLine(s) {
		switch r {
		case '#', '"', '<', '>', '&':
			fmt.Fprintf(&b, "#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
