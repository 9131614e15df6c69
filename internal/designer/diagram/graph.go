// Package diagram owns the two pictures of a design (issue 18): the entity diagram (entities with
// their key attributes, relationships with their counts, aggregates as groups) and the model map
// (tables with the entity types of their item collections and their indexes, and the access
// patterns with a line to what serves each). It builds each as a graph of boxes and lines, and
// lays it out with Graphviz (github.com/goccy/go-graphviz: Graphviz compiled to WebAssembly, run
// in-process without cgo); the page draws the result as SVG itself. Positions people dragged
// (designer.Diagrams) win over the engine's. Nothing here is stored: a layout is computed from the
// design, and package derive holds it once per revision.
package diagram

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Node kinds.
const (
	KindEntity  = "entity"
	KindTable   = "table"
	KindIndex   = "index"
	KindPattern = "pattern"
)

// Graph is one diagram before layout: what is drawn, not where.
type Graph struct {
	Kind   string // designer.EntityDiagram or designer.ModelMap
	Nodes  []Node
	Edges  []Edge
	Groups []Group
}

// Node is one box: a title and lines of text under it.
type Node struct {
	// ID is stable across revisions while the element keeps its name (or a pattern its id); it is
	// the key of a position people give the box (designer.MoveDiagramNode).
	ID    string
	Kind  string
	Title string
	Lines []Line
	// Path is the element's path in the design ("entities/User", "tables/Orders/indexes/ByDate",
	// "access_patterns/4/mapping"), the same as a finding's: the page links the box to it.
	Path string
	// Group is the id of the group the box is drawn in, if any.
	Group string
	// Flag says why the box is marked (a failing verdict, a finding), empty when it is not.
	Flag string
	// Full is the title before it was cut to fit the box, for the box's accessible name and
	// tooltip; empty when the title is whole.
	Full string
}

// Line is one line of text in a box; Key marks a key (drawn stronger), Note a remark (drawn fainter).
type Line struct {
	Text string
	Key  bool
	Note bool
	// Full is the text before it was cut to fit the box, for a tooltip; "" when it was not cut.
	Full string
}

// Edge is one line between two boxes.
type Edge struct {
	ID       string
	From, To string // node ids
	Label    string
	// Name is the edge's accessible name, a sentence.
	Name string
	// Path is the element the edge stands for, as Node.Path; empty for none of its own.
	Path  string
	Write bool // drawn dashed
	// Weight is the line's thickness class, 1 (thin) to 4 (thickest).
	Weight int
	Flag   string
}

// Group is a box drawn around some nodes: an aggregate of the entity diagram, or a table with its
// indexes on the model map.
type Group struct {
	ID    string
	Title string
}

// Marks is what the model map takes from the design's evaluation (package derive): per pattern id,
// why the pattern is marked red, when it is.
type Marks map[string]string

// maxLine bounds a line of text in a box, in characters; the rest is cut with "…" (the full text
// is in the text alternative).
const maxLine = 44

// maxPatternTitle is shorter: the patterns' list takes room from the tables beside it.
const maxPatternTitle = 34

// Entities builds the entity diagram of d.
func Entities(d designer.Design) Graph {
	g := Graph{Kind: designer.EntityDiagram}
	groups := aggregateGroups(d)
	keys := entityKeyAttributes(d)
	for _, e := range d.Entities {
		n := Node{ID: EntityNodeID(e.Name), Kind: KindEntity, Title: e.Name, Path: "entities/" + e.Name, Group: groups.of[e.Name]}
		shown := 0
		for _, a := range e.Attributes {
			if keys[e.Name][a.Name] {
				n.Lines = append(n.Lines, Line{Text: a.Name + " " + string(a.Type), Key: true})
				shown++
			}
		}
		if shown == 0 && len(e.Attributes) > 0 {
			a := e.Attributes[0]
			n.Lines = append(n.Lines, Line{Text: a.Name + " " + string(a.Type)})
			shown++
		}
		if rest := len(e.Attributes) - shown; rest > 0 {
			n.Lines = append(n.Lines, Line{Text: plural(rest, "more attribute", "more attributes"), Note: true})
		}
		if len(e.Attributes) == 0 {
			n.Lines = append(n.Lines, Line{Text: "no attributes yet", Note: true})
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, r := range d.Relationships {
		if _, _, ok := d.EntityByName(r.From); !ok {
			continue
		}
		if _, _, ok := d.EntityByName(r.To); !ok {
			continue
		}
		label := r.Kind
		if counts := r.Counts(); counts != "" {
			label += " " + counts
		}
		g.Edges = append(g.Edges, Edge{
			ID: "rel:" + r.ID, From: EntityNodeID(r.From), To: EntityNodeID(r.To), Label: cut(label),
			Name:   fmt.Sprintf("Relationship %s to %s, %s", r.From, r.To, label),
			Path:   "relationships/" + r.ID,
			Weight: 1,
		})
	}
	g.Groups = groups.list
	return g.cut()
}

// EntityNodeID is the node id of entity name on the entity diagram.
func EntityNodeID(name string) string { return "entity:" + name }

// TableNodeID is the node id of table name on the model map.
func TableNodeID(name string) string { return "table:" + name }

// IndexNodeID is the node id of index ix of table on the model map.
func IndexNodeID(table, ix string) string { return "index:" + table + "/" + ix }

// PatternNodeID is the node id of the pattern with id on the model map.
func PatternNodeID(id string) string { return "pattern:" + id }

type entityGroups struct {
	of   map[string]string // entity → group id
	list []Group
}

// aggregateGroups joins the entities the design's aggregate decisions keep together (one item or
// one item collection) into groups, an entity in several decisions joining them into one.
func aggregateGroups(d designer.Design) entityGroups {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if p, ok := parent[x]; ok && p != x {
			root := find(p)
			parent[x] = root
			return root
		}
		return x
	}
	kinds := map[string][]string{}
	for _, a := range d.Aggregates {
		if a.Decision != designer.SingleItem && a.Decision != designer.ItemCollection {
			continue
		}
		if _, _, ok := d.EntityByName(a.EntityA); !ok {
			continue
		}
		if _, _, ok := d.EntityByName(a.EntityB); !ok || a.EntityA == a.EntityB {
			continue
		}
		ra, rb := find(a.EntityA), find(a.EntityB)
		parent[a.EntityA], parent[a.EntityB] = ra, rb
		if ra != rb {
			parent[rb] = ra
		}
		kinds[a.EntityA] = append(kinds[a.EntityA], a.Decision)
	}
	out := entityGroups{of: map[string]string{}}
	members := map[string][]string{}
	var roots []string
	for _, e := range d.Entities {
		if _, ok := parent[e.Name]; !ok {
			continue
		}
		r := find(e.Name)
		if _, seen := members[r]; !seen {
			roots = append(roots, r)
		}
		members[r] = append(members[r], e.Name)
	}
	for _, r := range roots {
		decisions := map[string]bool{}
		for _, m := range members[r] {
			for _, k := range kinds[m] {
				decisions[k] = true
			}
		}
		what := "item collection"
		switch {
		case decisions[designer.SingleItem] && !decisions[designer.ItemCollection]:
			what = "single item"
		case decisions[designer.SingleItem]:
			what = "single item and item collection"
		}
		id := "aggregate:" + members[r][0]
		out.list = append(out.list, Group{ID: id, Title: cut("Aggregate (" + what + ")")})
		for _, m := range members[r] {
			out.of[m] = id
		}
	}
	return out
}

// entityKeyAttributes is, per entity, the attributes its keys are built from: those the key
// templates of its entity types name, or else those named id or ending in _id.
func entityKeyAttributes(d designer.Design) map[string]map[string]bool {
	keys := map[string]map[string]bool{}
	add := func(entity, attr string) {
		if keys[entity] == nil {
			keys[entity] = map[string]bool{}
		}
		keys[entity][attr] = true
	}
	for _, t := range d.Tables {
		for _, et := range t.EntityTypes {
			for _, a := range designer.TemplateAttributes(et.PKTemplate) {
				add(et.Entity, a)
			}
			for _, a := range designer.TemplateAttributes(et.SKTemplate) {
				add(et.Entity, a)
			}
		}
	}
	for _, e := range d.Entities {
		if len(keys[e.Name]) > 0 {
			continue
		}
		for _, a := range e.Attributes {
			lower := strings.ToLower(a.Name)
			if lower == "id" || strings.HasSuffix(lower, "_id") || strings.HasSuffix(a.Name, "Id") {
				add(e.Name, a.Name)
			}
		}
	}
	return keys
}

// ModelMap builds the model map of d: a box per table listing the entity types of its item
// collections with their key templates, a box per index in the table's group, and a box per
// access pattern with a line to each table or index its operations use.
func ModelMap(d designer.Design, marks Marks) Graph {
	g := Graph{Kind: designer.ModelMap}
	for _, t := range d.Tables {
		gid := "group:" + t.Name
		g.Groups = append(g.Groups, Group{ID: gid})
		n := Node{ID: TableNodeID(t.Name), Kind: KindTable, Title: "Table " + t.Name, Path: "tables/" + t.Name, Group: gid}
		key := "PK " + t.PartitionKey.Name
		if t.SortKey != nil {
			key += " SK " + t.SortKey.Name
		}
		n.Lines = append(n.Lines, Line{Text: key, Key: true})
		for _, et := range t.EntityTypes {
			n.Lines = append(n.Lines, Line{Text: et.Entity})
			if et.PKTemplate != "" {
				n.Lines = append(n.Lines, Line{Text: "  PK = " + shownTemplate(et.PKTemplate)})
			}
			if et.SKTemplate != "" {
				n.Lines = append(n.Lines, Line{Text: "  SK = " + shownTemplate(et.SKTemplate)})
			}
		}
		if len(t.EntityTypes) == 0 {
			n.Lines = append(n.Lines, Line{Text: "no entity types yet", Note: true})
		}
		if t.TTLAttribute != "" {
			n.Lines = append(n.Lines, Line{Text: "TTL " + t.TTLAttribute, Note: true})
		}
		g.Nodes = append(g.Nodes, n)
		for _, list := range []struct {
			kind string
			ixs  []designer.Index
		}{{"GSI", t.GSIs}, {"LSI", t.LSIs}} {
			for _, ix := range list.ixs {
				g.Nodes = append(g.Nodes, indexNode(t, ix, list.kind, gid))
			}
		}
	}
	for _, p := range d.Patterns {
		n := Node{ID: PatternNodeID(p.ID), Kind: KindPattern, Path: "access_patterns/" + strconv.Itoa(p.Number) + "/mapping", Flag: marks[p.ID]}
		n.Full = strings.Join(strings.Fields(fmt.Sprintf("#%d %s", p.Number, p.Description)), " ")
		if n.Title = cutTo(n.Full, maxPatternTitle); n.Title == n.Full {
			n.Full = ""
		}
		about := p.Type
		if p.PeakRPS != nil {
			about += " · " + strconv.FormatFloat(*p.PeakRPS, 'f', -1, 64) + " RPS peak"
		}
		n.Lines = append(n.Lines, Line{Text: about, Note: true})
		seen := map[string]bool{}
		for _, op := range p.Mapping.Operations {
			t, _, ok := d.TableByName(op.Table)
			if !ok {
				continue
			}
			to := TableNodeID(t.Name)
			if op.Index != "" {
				if _, _, _, ok := t.IndexByName(op.Index); !ok {
					continue
				}
				to = IndexNodeID(t.Name, op.Index)
			}
			write := designer.IsWriteOp(op.Op)
			if seen[to] {
				continue
			}
			seen[to] = true
			target := t.Name
			if op.Index != "" {
				target += " index " + op.Index
			}
			verb := "reads"
			if write {
				verb = "writes"
			}
			e := Edge{
				ID: "use:" + p.ID + ">" + to, From: n.ID, To: to, Write: write, Weight: rpsWeight(p.PeakRPS), Flag: n.Flag,
				Name: fmt.Sprintf("Pattern %d %s %s with %s", p.Number, verb, target, op.Op),
				Path: n.Path,
			}
			g.Edges = append(g.Edges, e)
		}
		if len(seen) == 0 {
			n.Lines = append(n.Lines, Line{Text: "not mapped", Note: true})
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g.cut()
}

// cut shortens every title and line of g to maxLine characters.
func (g Graph) cut() Graph {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if t := cut(n.Title); t != n.Title {
			if n.Full == "" {
				n.Full = n.Title
			}
			n.Title = t
		}
		for j := range n.Lines {
			l := &n.Lines[j]
			if t := cutKeepIndent(l.Text); t != l.Text {
				l.Full, l.Text = strings.TrimSpace(l.Text), t
			}
		}
	}
	return g
}

func cutKeepIndent(s string) string {
	rest := strings.TrimLeft(s, " ")
	return s[:len(s)-len(rest)] + cut(rest)
}

func indexNode(t designer.Table, ix designer.Index, kind, group string) Node {
	n := Node{ID: IndexNodeID(t.Name, ix.Name), Kind: KindIndex, Title: kind + " " + ix.Name, Path: "tables/" + t.Name + "/indexes/" + ix.Name, Group: group}
	pk, sk := ix.PartitionKey, ix.SortKey
	if kind == "LSI" && len(pk) == 0 {
		pk = []designer.KeyAttribute{t.PartitionKey}
	}
	key := "PK " + keyNames(pk)
	if len(sk) > 0 {
		key += " SK " + keyNames(sk)
	}
	n.Lines = append(n.Lines, Line{Text: key, Key: true})
	proj := ix.Projection.Type
	if proj == designer.Include && len(ix.Projection.Attributes) > 0 {
		proj += " " + strings.Join(ix.Projection.Attributes, ", ")
	}
	n.Lines = append(n.Lines, Line{Text: "projects " + proj, Note: true})
	if ix.Sparse {
		n.Lines = append(n.Lines, Line{Text: "sparse", Note: true})
	}
	return n
}

func keyNames(keys []designer.KeyAttribute) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return strings.Join(names, "+")
}

// shownTemplate writes a key template as the method's documents do: USER#<user_id>.
func shownTemplate(tmpl string) string {
	return strings.NewReplacer("{", "<", "}", ">").Replace(tmpl)
}

// rpsWeight is the thickness class of a line carrying peak requests per second: one class per
// factor of ten from 10 RPS.
func rpsWeight(peak *float64) int {
	if peak == nil || *peak < 10 {
		return 1
	}
	return min(4, 1+int(math.Log10(*peak)))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "+1 " + one
	}
	return "+" + strconv.Itoa(n) + " " + many
}

// cut shortens text to maxLine characters.
func cut(s string) string { return cutTo(s, maxLine) }

// cutTo shortens text to n characters, its spaces made single.
func cutTo(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// NodeByID returns the node with the given id.
func (g Graph) NodeByID(id string) (Node, bool) {
	i := slices.IndexFunc(g.Nodes, func(n Node) bool { return n.ID == id })
	if i < 0 {
		return Node{}, false
	}
	return g.Nodes[i], true
}
