package diagram

import (
	"cmp"
	"context"
	"slices"

	"dynaloom/internal/designer"
)

// Column gap of the model map: the room between the patterns' list and the tables, where the
// lines run.
const columnGap = 160.0

// columnLayout lays out the model map as two columns: the access patterns as a list, in their
// order, and the tables with their indexes in groups, placed by Graphviz's dot. Each line runs from
// its pattern's right side across the gap, then straight into its table or index from the left;
// as the boxes of each column are stacked, no line crosses a box. (Letting dot place 500 patterns
// and route their lines took it most of a second: this keeps the engine for the part that needs
// it.) The result is in the engine's coordinates, y upwards.
func columnLayout(ctx context.Context, g Graph, sizes [][2]float64, index map[string]int) (engineResult, error) {
	res := engineResult{edges: map[int]engineEdge{}, groups: map[int][4]float64{}, nodes: make([]designer.Point, len(g.Nodes))}
	if slices.ContainsFunc(g.Nodes, func(n Node) bool { return n.Kind != KindPattern }) {
		tables, err := runEngine(ctx, columnDOT(g, sizes))
		if err != nil {
			return engineResult{}, err
		}
		res.height, res.groups = tables.height, tables.groups
		copy(res.nodes, tables.nodes)
	}
	colLeft := 0.0
	first := true
	for i, n := range g.Nodes {
		if n.Kind == KindPattern {
			continue
		}
		if l := res.nodes[i].X - sizes[i][0]/2; first || l < colLeft {
			colLeft, first = l, false
		}
	}
	for _, bb := range res.groups {
		colLeft = min(colLeft, bb[0])
	}
	patW := 0.0
	for i, n := range g.Nodes {
		if n.Kind == KindPattern {
			patW = max(patW, sizes[i][0])
		}
	}
	patRight := colLeft - columnGap
	top := res.height
	for i, n := range g.Nodes {
		if n.Kind != KindPattern {
			continue
		}
		sizes[i][0] = patW // one width, so that every line leaves from the same x
		res.nodes[i] = designer.Point{X: patRight - patW/2, Y: top - sizes[i][1]/2}
		top -= sizes[i][1] + 12
	}
	routeColumns(g, sizes, index, &res, patRight, colLeft-GroupPad)
	return res, nil
}

// columnDOT is the tables and indexes of the model map, in their groups, for dot: with no lines
// between them they form one column.
func columnDOT(g Graph, sizes [][2]float64) string {
	// Positions in g name the nodes: a Graph holding only the kept nodes would renumber them, so
	// the patterns are given a group of their own that is never written.
	right := Graph{Kind: g.Kind, Groups: g.Groups, Nodes: slices.Clone(g.Nodes)}
	for i := range right.Nodes {
		if right.Nodes[i].Kind == KindPattern {
			right.Nodes[i].Group = "\x00left out"
		}
	}
	return layeredDOT(right, sizes, nil)
}

// routeColumns draws each line of the model map: from its pattern's right side at x from, an
// S-curve across the gap to x gapEnd at the height where it enters its box, then straight to
// the box's left side. Where several lines meet a box side they are spread along it, in the
// order of their other ends, so that they do not cross there.
func routeColumns(g Graph, sizes [][2]float64, index map[string]int, res *engineResult, from, gapEnd float64) {
	type end struct {
		edge  int
		other float64 // the y of the line's other end's box, to order lines meeting one side
	}
	outs, ins := map[int][]end{}, map[int][]end{}
	for ei, e := range g.Edges {
		a, ok1 := index[e.From]
		b, ok2 := index[e.To]
		if !ok1 || !ok2 {
			continue
		}
		outs[a] = append(outs[a], end{ei, res.nodes[b].Y})
		ins[b] = append(ins[b], end{ei, res.nodes[a].Y})
	}
	spread := func(lists map[int][]end) map[int]float64 {
		at := map[int]float64{}
		for node, list := range lists {
			slices.SortStableFunc(list, func(x, y end) int { return cmp.Compare(y.other, x.other) })
			h := sizes[node][1]
			topY := res.nodes[node].Y + h/2
			for j, e := range list {
				at[e.edge] = topY - float64(j+1)*h/float64(len(list)+1)
			}
		}
		return at
	}
	startY, endY := spread(outs), spread(ins)
	for ei, e := range g.Edges {
		b := index[e.To]
		y1, ok1 := startY[ei]
		y2, ok2 := endY[ei]
		if !ok1 || !ok2 {
			continue
		}
		x2 := res.nodes[b].X - sizes[b][0]/2
		mid := (from + gapEnd) / 2
		pts := []designer.Point{
			{X: from, Y: y1}, {X: mid, Y: y1}, {X: mid, Y: y2}, {X: gapEnd, Y: y2},
			{X: gapEnd + (x2-gapEnd)/3, Y: y2}, {X: gapEnd + 2*(x2-gapEnd)/3, Y: y2}, {X: x2, Y: y2},
		}
		res.edges[ei] = engineEdge{points: pts}
	}
}
