package designer

import "maps"

// restorePins gives the positions on diagram kind, or only that of node when node is not empty,
// the value they had in from: a position nobody had given is taken away again.
func restorePins(d, from Diagrams, kind, node string) Diagrams {
	out := maps.Clone(d)
	if out == nil {
		out = Diagrams{}
	}
	if node == "" {
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
