package designer

import (
	"maps"
	"strings"
)

// restorePins gives diagram positions at rest ("<kind>" or "<kind>/<node id>", where a node id may
// hold a slash) the value they had in from: a position nobody had given is taken away again.
func restorePins(d, from Diagrams, rest string) Diagrams {
	kind, node, one := strings.Cut(rest, "/")
	out := maps.Clone(d)
	if out == nil {
		out = Diagrams{}
	}
	if !one {
		out[kind] = maps.Clone(from[kind])
	} else {
		pins := maps.Clone(out[kind])
		if pins == nil {
			pins = map[string]Point{}
		}
		if p, ok := from[kind][node]; ok {
			pins[node] = p
		} else {
			delete(pins, node)
		}
		out[kind] = pins
	}
	if len(out[kind]) == 0 {
		delete(out, kind)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
