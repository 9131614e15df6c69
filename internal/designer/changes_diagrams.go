package designer

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

func init() {
	register[MoveDiagramNode]()
	register[ResetDiagramLayout]()
}

// MoveDiagramNode places node Node of diagram Diagram at (X, Y), where it stays until moved
// again, whatever the layout engine would choose.
type MoveDiagramNode struct {
	Diagram string  `json:"diagram"`
	Node    string  `json:"node"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
}

func (MoveDiagramNode) Kind() string { return "move_diagram_node" }

func (c MoveDiagramNode) Apply(d Design) (Design, error) {
	if err := checkDiagramPin(c.Diagram, c.Node, Point{c.X, c.Y}, ""); err != nil {
		return d, err
	}
	next := maps.Clone(d.Diagrams)
	if next == nil {
		next = Diagrams{}
	}
	pins := maps.Clone(next[c.Diagram])
	if pins == nil {
		pins = map[string]Point{}
	}
	pins[c.Node] = Point{X: c.X, Y: c.Y}
	next[c.Diagram] = pins
	d.Diagrams = next
	return d, nil
}

// Check refuses a box the diagram does not draw. Apply does not: a move stored before this check
// existed must replay as it was accepted.
func (c MoveDiagramNode) Check(before Design) error {
	if err := checkDiagramPin(c.Diagram, c.Node, Point{c.X, c.Y}, ""); err != nil {
		return err
	}
	if !hasDiagramNode(before, c.Diagram, c.Node) {
		return Invalid("node", "the %s has no box %q; it may have been renamed or deleted", diagramTitle(c.Diagram), c.Node)
	}
	return nil
}

// Summary words the box as people know it ("Moved table Orders on the model map"): the node id and
// the coordinates mean nothing to someone reading the history.
func (c MoveDiagramNode) Summary() string {
	return "Moved " + nodeLabel(Design{}, c.Node) + " on the " + diagramTitle(c.Diagram)
}

func (c MoveDiagramNode) Describe(before Design) string {
	return "Moved " + nodeLabel(before, c.Node) + " on the " + diagramTitle(c.Diagram)
}

func (c MoveDiagramNode) Paths() []Path {
	return []Path{DiagramPath(c.Diagram, c.Node)}
}

// ResetDiagramLayout takes away every position people gave the boxes of diagram Diagram, so that
// the layout engine places them all again. A diagram with no position given is refused: there is
// nothing to reset.
type ResetDiagramLayout struct {
	Diagram string `json:"diagram"`
}

func (ResetDiagramLayout) Kind() string { return "reset_diagram_layout" }

func (c ResetDiagramLayout) Apply(d Design) (Design, error) {
	if !slices.Contains(DiagramKinds, c.Diagram) {
		return d, Invalid("diagram", "is %q; use %q or %q", c.Diagram, EntityDiagram, ModelMap)
	}
	if len(d.Diagrams[c.Diagram]) == 0 {
		return d, Invalid("diagram", "the %s has no box placed by hand: it is laid out automatically already", diagramTitle(c.Diagram))
	}
	next := maps.Clone(d.Diagrams)
	delete(next, c.Diagram)
	if len(next) == 0 {
		next = nil
	}
	d.Diagrams = next
	return d, nil
}

func (c ResetDiagramLayout) Summary() string {
	return "Reset the layout of the " + diagramTitle(c.Diagram)
}

// Describe counts the positions the reset takes away, which an undo gives back.
func (c ResetDiagramLayout) Describe(before Design) string {
	n := len(before.Diagrams[c.Diagram])
	if n == 0 {
		return c.Summary()
	}
	boxes := "boxes"
	if n == 1 {
		boxes = "box"
	}
	return fmt.Sprintf("%s (%d %s placed by hand)", c.Summary(), n, boxes)
}

func (c ResetDiagramLayout) Paths() []Path { return []Path{DiagramPath(c.Diagram, "")} }

// diagramTitle names a diagram in a history line.
func diagramTitle(kind string) string {
	switch kind {
	case EntityDiagram:
		return "entity diagram"
	case ModelMap:
		return "model map"
	}
	return "diagram " + shorten(kind)
}

// nodeLabel names the box of node id (package diagram's "entity:Employee", "table:Orders",
// "index:Orders/ByStatus", "pattern:ap4") in words: "Employee", "table Orders", "index ByStatus of
// table Orders", "pattern 4" (a pattern by its number when d has it).
func nodeLabel(d Design, node string) string {
	kind, name, _ := strings.Cut(node, ":")
	switch kind {
	case "entity":
		return shorten(name)
	case "table":
		return "table " + shorten(name)
	case "index":
		if table, ix, ok := strings.Cut(name, "/"); ok {
			return "index " + shorten(ix) + " of table " + shorten(table)
		}
	case "pattern":
		return patternLabel(d, name)
	}
	return shorten(node)
}
