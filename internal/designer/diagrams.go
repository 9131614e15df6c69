package designer

import (
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
)

// The diagrams a design has (package diagram draws them): the entity diagram of the Entities
// step and the model map of the Tables step.
const (
	EntityDiagram = "entities"
	ModelMap      = "model_map"
)

// DiagramKinds lists the diagrams, in the order the steps show them.
var DiagramKinds = []string{EntityDiagram, ModelMap}

// Diagrams holds, per diagram, where people placed boxes: node id → position. A node with no
// position is placed by the layout engine; what it computes is never stored. Node ids are package
// diagram's ("entity:User", "table:Orders", …); a position whose node no longer exists is kept and
// simply not used.
type Diagrams map[string]map[string]Point

// Point is a position on a diagram, in the diagram's units (the SVG's user units, y downwards):
// the centre of the node's box.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Limits of a pinned position: a node id is short, and a position stays within a plane a screen
// can scroll to.
const (
	MaxDiagramNodeLen = 2*MaxNameLen + 16
	MaxDiagramCoord   = 100000
)

// Pins returns the positions people gave the nodes of diagram kind; nil when none.
func (d Design) Pins(kind string) map[string]Point {
	return d.Diagrams[kind]
}

// renamePins returns ds with the boxes of diagram kind that rename gives a new id moved to it, so
// that a renamed table, index or entity keeps the place people gave its box; ds itself when no box
// is renamed.
func renamePins(ds Diagrams, kind string, rename func(node string) (string, bool)) Diagrams {
	var pins map[string]Point
	for node, p := range ds[kind] {
		to, ok := rename(node)
		if !ok || to == node {
			continue
		}
		if pins == nil {
			pins = maps.Clone(ds[kind])
		}
		delete(pins, node)
		pins[to] = p
	}
	if pins == nil {
		return ds
	}
	out := maps.Clone(ds)
	out[kind] = pins
	return out
}

// hasDiagramNode reports whether diagram kind of d draws node: an entity on the entity diagram; a
// table, one of its indexes or an access pattern on the model map (package diagram's node ids).
func hasDiagramNode(d Design, kind, node string) bool {
	what, name, _ := strings.Cut(node, ":")
	switch {
	case kind == EntityDiagram && what == "entity":
		_, _, ok := d.EntityByName(name)
		return ok
	case kind == ModelMap && what == "table":
		_, _, ok := d.TableByName(name)
		return ok
	case kind == ModelMap && what == "pattern":
		_, _, ok := d.PatternByID(name)
		return ok
	case kind == ModelMap && what == "index":
		// A table name may hold a slash: any table whose name and an index of it make the id.
		for _, t := range d.Tables {
			if ix, ok := strings.CutPrefix(name, t.Name+"/"); ok {
				if _, _, _, ok := t.IndexByName(ix); ok {
					return true
				}
			}
		}
	}
	return false
}

// checkDiagrams checks every pinned position of a whole document.
func checkDiagrams(ds Diagrams) error {
	for _, kind := range slices.Sorted(maps.Keys(ds)) {
		for _, node := range slices.Sorted(maps.Keys(ds[kind])) {
			if err := checkDiagramPin(kind, node, ds[kind][node], "diagrams/"+kind+"/"+node+"/"); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDiagramPin checks one position; prefix is put before the field names (empty for a change's
// own fields).
func checkDiagramPin(kind, node string, p Point, prefix string) error {
	if !slices.Contains(DiagramKinds, kind) {
		return Invalid(prefix+"diagram", "is %q; use %q or %q", kind, EntityDiagram, ModelMap)
	}
	if node == "" || len(node) > MaxDiagramNodeLen || strings.ContainsFunc(node, unicode.IsControl) {
		return Invalid(prefix+"node", "must be a node id of 1 to %d bytes without control characters", MaxDiagramNodeLen)
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"x", p.X}, {"y", p.Y}} {
		if math.IsNaN(c.v) || math.Abs(c.v) > MaxDiagramCoord {
			return Invalid(prefix+c.field, "must be a number between %d and %d", -MaxDiagramCoord, MaxDiagramCoord)
		}
	}
	return nil
}
