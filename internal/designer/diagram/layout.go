package diagram

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/goccy/go-graphviz"

	"dynaloom/internal/designer"
)

// Measures of the drawing, in its units (SVG user units, which Graphviz calls points). The text is
// monospaced, so a line's width is its length times CharWidth of its size, and the engine, told
// the same (its Courier metrics are 0.6 em a character), reserves exactly the room the page draws.
const (
	TextSize  = 14.0
	TitleSize = 16.0
	LabelSize = 13.0
	CharWidth = 0.6 // of the font size
	LineGap   = 20.0
	TitleGap  = 26.0
	PadX      = 12.0
	PadY      = 8.0
	GroupPad  = 10.0
	minWidth  = 120.0
)

// Drawing is a laid-out diagram: every box, group and line with where it goes. Coordinates grow
// rightwards and downwards; the drawing covers (MinX, MinY) to (MinX+Width, MinY+Height), its
// SVG's viewBox.
type Drawing struct {
	Kind                      string
	MinX, MinY, Width, Height float64
	Nodes                     []PlacedNode
	Edges                     []PlacedEdge
	Groups                    []PlacedGroup
}

// PlacedNode is a box with its top-left corner and size.
type PlacedNode struct {
	Node
	X, Y, W, H float64
	// Pinned marks a box placed where a person put it.
	Pinned bool
}

// CX and CY are the centre of the box.
func (n PlacedNode) CX() float64 { return n.X + n.W/2 }
func (n PlacedNode) CY() float64 { return n.Y + n.H/2 }

// TitleBaseline is the y of the title's baseline; LineBaseline that of line i.
func (n PlacedNode) TitleBaseline() float64 { return n.Y + PadY + TitleSize }
func (n PlacedNode) LineBaseline(i int) float64 {
	return n.Y + PadY + TitleGap + float64(i)*LineGap + TextSize
}

// PlacedEdge is a line: an SVG path and, when it has a label, the label's box.
type PlacedEdge struct {
	Edge
	D string // the path's d attribute
	// LX, LY, LW, LH is the label's box (top-left and size); zero without a label.
	LX, LY, LW, LH float64
}

// PlacedGroup is a group's box; its title goes in its top-left corner.
type PlacedGroup struct {
	Group
	X, Y, W, H float64
}

// nodeSize is the size of n's box.
func nodeSize(n Node) (w, h float64) {
	w = textWidth(n.Title, TitleSize)
	for _, l := range n.Lines {
		w = max(w, textWidth(l.Text, TextSize))
	}
	return max(minWidth, math.Ceil(w+2*PadX)), 2*PadY + TitleGap + float64(len(n.Lines))*LineGap
}

func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * CharWidth
}

// labelBox is the size of an edge label as the engine reserves it.
func labelBox(s string) (w, h float64) {
	return textWidth(s, LabelSize) + 4, LabelSize + 6
}

// Draw builds diagram kind of d and lays it out, honouring the positions people gave its boxes.
func Draw(ctx context.Context, d designer.Design, kind string, marks Marks) (Drawing, error) {
	var g Graph
	switch kind {
	case designer.EntityDiagram:
		g = Entities(d)
	case designer.ModelMap:
		g = ModelMap(d, marks)
	default:
		return Drawing{}, fmt.Errorf("diagram: unknown kind %q", kind)
	}
	return Layout(ctx, g, d.Pins(kind))
}

// engines lays out graphs on instances of Graphviz's WebAssembly module, up to maxEngines at
// once, so that the diagrams of different designs are laid out in parallel. The module is compiled
// on the first layout rather than at the program's start (or read from the user's cache directory;
// no temporary directory is used), once: every instance shares its code and costs only its memory
// (about 1 MiB after a 50-entity diagram; see BenchmarkLayout_parallel). Instances are made as
// layouts need them, each serves one layout at a time, and one that failed, or whose memory grew
// past retireBytes, is closed rather than used again. When the module cannot be compiled, the
// error is logged once and every diagram shows it; everything else serves as usual.
var (
	engines  = &enginePool{tokens: make(chan struct{}, maxEngines)}
	compiled = sync.OnceValues(func() (*graphviz.Compiled, error) {
		c, err := compileEngine()
		if err != nil {
			err = fmt.Errorf("diagram: Graphviz could not start, so no diagram can be laid out until the server restarts: %w", err)
			slog.Error("diagrams are unavailable", "err", err)
		}
		return c, err
	})
	compileEngine = func() (*graphviz.Compiled, error) { return graphviz.Compile(context.Background()) }
)

// maxEngines is how many layouts run at once: one a core, at most four (a layout takes tens of
// milliseconds; more would take cores from the requests around it).
var maxEngines = min(runtime.GOMAXPROCS(0), 4)

// retireBytes is the memory past which an instance is closed after its layout (a module's memory
// never shrinks, so one huge diagram would otherwise hold it for good).
const retireBytes = 64 << 20

type enginePool struct {
	tokens chan struct{} // one per layout in an instance
	mu     sync.Mutex
	idle   []*graphviz.Instance
	// waiting counts layouts waiting for a token, made counts instances made; for tests.
	waiting, made atomic.Int64
	// hold, when set, is called while a layout holds its instance; for tests.
	hold func()
}

// render lays out dot with layout on an idle instance, or a new one when none is idle, waiting
// while maxEngines layouts are running.
func (p *enginePool) render(ctx context.Context, dot []byte, layout graphviz.Layout) ([]byte, error) {
	c, err := compiled()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	tokens, hold := p.tokens, p.hold
	p.mu.Unlock()
	p.waiting.Add(1)
	select {
	case tokens <- struct{}{}:
		p.waiting.Add(-1)
	case <-ctx.Done():
		p.waiting.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { <-tokens }()
	p.mu.Lock()
	var in *graphviz.Instance
	if n := len(p.idle); n > 0 {
		in, p.idle = p.idle[n-1], p.idle[:n-1]
	}
	p.mu.Unlock()
	if in == nil {
		if in, err = c.NewInstance(ctx); err != nil {
			return nil, fmt.Errorf("diagram: start an instance of Graphviz: %w", err)
		}
		p.made.Add(1)
	}
	if hold != nil {
		hold()
	}
	out, err := in.Render(ctx, dot, layout, "json0")
	if err != nil || in.MemoryBytes() > retireBytes {
		in.Close(context.Background())
		return out, err
	}
	p.mu.Lock()
	p.idle = append(p.idle, in)
	p.mu.Unlock()
	return out, nil
}

// layouts remembers the last layouts by their engine input: a revision that changed nothing a
// diagram shows (a sample item's cell) draws it again without running the engine.
var layouts = struct {
	sync.Mutex
	m     map[[32]byte]engineResult
	order [][32]byte
}{m: map[[32]byte]engineResult{}}

const rememberedLayouts = 64

// Layout places g's boxes, groups and lines. pins are positions (centres) people gave boxes; the
// engine places the others, and the lines to a pinned box are routed again around the boxes.
func Layout(ctx context.Context, g Graph, pins map[string]designer.Point) (Drawing, error) {
	sizes := make([][2]float64, len(g.Nodes))
	index := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		w, h := nodeSize(n)
		sizes[i] = [2]float64{w, h}
		index[n.ID] = i
	}
	var res engineResult
	var err error
	if g.Kind == designer.ModelMap {
		res, err = columnLayout(ctx, g, sizes, index)
	} else {
		res, err = runEngine(ctx, layeredDOT(g, sizes, index))
	}
	if err != nil {
		return Drawing{}, err
	}
	pinned := map[int]designer.Point{}
	for id, p := range pins {
		if i, ok := index[id]; ok {
			pinned[i] = p
		}
	}
	if len(pinned) > 0 {
		centres := make([]designer.Point, len(g.Nodes))
		for i := range g.Nodes {
			centres[i] = designer.Point{X: res.nodes[i].X, Y: res.height - res.nodes[i].Y}
			if p, ok := pinned[i]; ok {
				centres[i] = p
			}
		}
		again, err := runEngine(ctx, pinnedDOT(g, sizes, index, centres))
		if err != nil {
			return Drawing{}, err
		}
		again.groups = nil // groups are drawn around their members below
		again.height = 0   // neato -n keeps the coordinates it was given, y negated
		res = again
	}
	return res.drawing(g, sizes, pinned), nil
}

// engineResult is what the engine said, in its coordinates (y upwards).
type engineResult struct {
	// height is what a y is taken from to turn it downwards.
	height float64
	nodes  []designer.Point // centres, by node index
	edges  map[int]engineEdge
	groups map[int][4]float64 // by group index: llx, lly, urx, ury
}

type engineEdge struct {
	points   []designer.Point // a B-spline: a start, then three points per cubic segment
	end      *designer.Point  // the arrow's tip, when the line has one
	label    *designer.Point  // the label's centre
	hasLabel bool
}

// layeredDOT is g for Graphviz's dot: layers top to bottom for the entity diagram; for the model
// map's tables and indexes (given without patterns or lines), one column, left to right.
// Names are positions in g, never user text; a label is as many x as it has characters, which is
// all the engine needs to reserve its room.
func layeredDOT(g Graph, sizes [][2]float64, index map[string]int) string {
	var b strings.Builder
	b.WriteString("digraph G {\n")
	if g.Kind == designer.ModelMap {
		// One box under the other, in the design's order, held so by invisible lines.
		b.WriteString("rankdir=TB; ranksep=0.25;\n")
		prev := -1
		for i, n := range g.Nodes {
			if n.Kind == KindPattern {
				continue
			}
			if prev >= 0 {
				fmt.Fprintf(&b, "n%d -> n%d [style=invis];\n", prev, i)
			}
			prev = i
		}
	} else {
		b.WriteString("rankdir=TB; ranksep=0.8; nodesep=0.6;\n")
	}
	fmt.Fprintf(&b, "node [shape=box fixedsize=true label=\"\"]; edge [fontname=Courier fontsize=%g arrowsize=0.8];\n", LabelSize)
	fmt.Fprintf(&b, "graph [fontname=Courier fontsize=%g labeljust=l labelloc=t margin=%g];\n", TitleSize, GroupPad)
	members := map[string][]int{}
	for i, n := range g.Nodes {
		if n.Group != "" {
			members[n.Group] = append(members[n.Group], i)
		}
	}
	for gi, gr := range g.Groups {
		fmt.Fprintf(&b, "subgraph cluster_%d {\n", gi)
		if gr.Title != "" {
			fmt.Fprintf(&b, "label=\"%s\";\n", strings.Repeat("x", utf8.RuneCountInString(gr.Title)))
		}
		for _, i := range members[gr.ID] {
			writeNode(&b, i, sizes[i], "")
		}
		b.WriteString("}\n")
	}
	for i, n := range g.Nodes {
		if n.Group == "" || len(members[n.Group]) == 0 {
			writeNode(&b, i, sizes[i], "")
		}
	}
	writeEdges(&b, g, index, staggered(g))
	b.WriteString("}\n")
	return b.String()
}

// staggered is, per edge, the attributes that put every other leaf of a box with many leaves
// (entities nothing else hangs from) one layer further down, so that a parent of ten children
// draws them in two rows rather than one row as wide as the page (Graphviz's unflatten does the
// same).
func staggered(g Graph) map[int]string {
	out, in := map[string]int{}, map[string]int{}
	for _, e := range g.Edges {
		out[e.From]++
		in[e.To]++
	}
	leaves := map[string][]int{}
	for ei, e := range g.Edges {
		if e.From != e.To && out[e.To] == 0 && in[e.To] == 1 {
			leaves[e.From] = append(leaves[e.From], ei)
		}
	}
	extra := map[int]string{}
	for _, list := range leaves {
		if len(list) <= 3 {
			continue
		}
		for k, ei := range list {
			if k%2 == 1 {
				extra[ei] = " minlen=2"
			}
		}
	}
	return extra
}

// pinnedDOT is g for Graphviz's neato -n (nop1) with every box held where it is (centres, y downwards), so
// that only the lines are routed again.
func pinnedDOT(g Graph, sizes [][2]float64, index map[string]int, centres []designer.Point) string {
	var b strings.Builder
	b.WriteString("digraph G {\nlayout=nop1; splines=true; notranslate=true; sep=\"+6\";\n")
	fmt.Fprintf(&b, "node [shape=box fixedsize=true label=\"\"]; edge [fontname=Courier fontsize=%g arrowsize=0.8];\n", LabelSize)
	for i := range g.Nodes {
		writeNode(&b, i, sizes[i], fmt.Sprintf(" pos=\"%s,%s\"", num(centres[i].X), num(-centres[i].Y)))
	}
	writeEdges(&b, g, index, nil)
	b.WriteString("}\n")
	return b.String()
}

func writeNode(b *strings.Builder, i int, size [2]float64, extra string) {
	fmt.Fprintf(b, "n%d [width=%s height=%s%s];\n", i, num(size[0]/72), num(size[1]/72), extra)
}

func writeEdges(b *strings.Builder, g Graph, index map[string]int, extra map[int]string) {
	for ei, e := range g.Edges {
		from, ok1 := index[e.From]
		to, ok2 := index[e.To]
		if !ok1 || !ok2 {
			continue
		}
		fmt.Fprintf(b, "n%d -> n%d [id=e%d", from, to, ei)
		if e.Label != "" {
			fmt.Fprintf(b, " label=\"%s\"", strings.Repeat("x", utf8.RuneCountInString(e.Label)))
		}
		if from == to {
			b.WriteString(" dir=none")
		}
		b.WriteString(extra[ei] + "];\n")
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

// runEngine lays out a DOT text, or gives back the layout it gave that text lately.
func runEngine(ctx context.Context, dot string) (engineResult, error) {
	key := sha256.Sum256([]byte(dot))
	layouts.Lock()
	res, ok := layouts.m[key]
	layouts.Unlock()
	if ok {
		return res, nil
	}
	if _, err := compiled(); err != nil {
		return engineResult{}, err
	}
	layout := graphviz.DOT
	if strings.Contains(dot, "layout=nop1") {
		layout = graphviz.NOP1
	}
	out, err := engines.render(ctx, []byte(dot), layout)
	if err != nil {
		return engineResult{}, fmt.Errorf("diagram: lay out: %w", err)
	}
	res, err = parseEngine(out)
	if err != nil {
		return engineResult{}, err
	}
	layouts.Lock()
	if _, ok := layouts.m[key]; !ok {
		if len(layouts.order) >= rememberedLayouts {
			delete(layouts.m, layouts.order[0])
			layouts.order = layouts.order[1:]
		}
		layouts.m[key] = res
		layouts.order = append(layouts.order, key)
	}
	layouts.Unlock()
	return res, nil
}

// parseEngine reads Graphviz's json0 output: objects (clusters, then nodes) and edges.
func parseEngine(data []byte) (engineResult, error) {
	var raw struct {
		BB      string `json:"bb"`
		Objects []struct {
			Name string `json:"name"`
			Pos  string `json:"pos"`
			BB   string `json:"bb"`
		} `json:"objects"`
		Edges []struct {
			ID    string `json:"id"`
			Pos   string `json:"pos"`
			LP    string `json:"lp"`
			Label string `json:"label"`
		} `json:"edges"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return engineResult{}, fmt.Errorf("diagram: read the layout: %w", err)
	}
	res := engineResult{edges: map[int]engineEdge{}, groups: map[int][4]float64{}}
	if bb := floats(raw.BB); len(bb) == 4 {
		res.height = bb[3]
	}
	for _, o := range raw.Objects {
		switch {
		case strings.HasPrefix(o.Name, "cluster_"):
			i, err := strconv.Atoi(strings.TrimPrefix(o.Name, "cluster_"))
			if bb := floats(o.BB); err == nil && len(bb) == 4 {
				res.groups[i] = [4]float64{bb[0], bb[1], bb[2], bb[3]}
			}
		case strings.HasPrefix(o.Name, "n"):
			i, err := strconv.Atoi(strings.TrimPrefix(o.Name, "n"))
			p := floats(o.Pos)
			if err != nil || len(p) != 2 {
				continue
			}
			for len(res.nodes) <= i {
				res.nodes = append(res.nodes, designer.Point{})
			}
			res.nodes[i] = designer.Point{X: p[0], Y: p[1]}
		}
	}
	for _, e := range raw.Edges {
		i, err := strconv.Atoi(strings.TrimPrefix(e.ID, "e"))
		if err != nil || !strings.HasPrefix(e.ID, "e") {
			continue
		}
		var ee engineEdge
		for _, field := range strings.Fields(e.Pos) {
			switch {
			case strings.HasPrefix(field, "e,"):
				if p := floats(field[2:]); len(p) == 2 {
					ee.end = &designer.Point{X: p[0], Y: p[1]}
				}
			case strings.HasPrefix(field, "s,"):
			default:
				if p := floats(field); len(p) == 2 {
					ee.points = append(ee.points, designer.Point{X: p[0], Y: p[1]})
				}
			}
		}
		if p := floats(e.LP); len(p) == 2 {
			ee.label = &designer.Point{X: p[0], Y: p[1]}
		}
		ee.hasLabel = e.Label != ""
		res.edges[i] = ee
	}
	return res, nil
}

func floats(s string) []float64 {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make([]float64, 0, len(parts))
	for _, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil
		}
		out = append(out, f)
	}
	return out
}

// drawing turns the engine's result into the page's coordinates (y downwards, everything within
// a margin of (0, 0)).
func (res engineResult) drawing(g Graph, sizes [][2]float64, pinned map[int]designer.Point) Drawing {
	out := Drawing{Kind: g.Kind}
	flip := func(p designer.Point) designer.Point { return designer.Point{X: p.X, Y: res.height - p.Y} }
	for i, n := range g.Nodes {
		var c designer.Point
		if i < len(res.nodes) {
			c = flip(res.nodes[i])
		}
		w, h := sizes[i][0], sizes[i][1]
		_, isPinned := pinned[i]
		out.Nodes = append(out.Nodes, PlacedNode{Node: n, X: c.X - w/2, Y: c.Y - h/2, W: w, H: h, Pinned: isPinned})
	}
	for ei, e := range g.Edges {
		ee, ok := res.edges[ei]
		if !ok || len(ee.points) == 0 {
			continue
		}
		pe := PlacedEdge{Edge: e}
		var d strings.Builder
		p0 := flip(ee.points[0])
		fmt.Fprintf(&d, "M%s %s", num1(p0.X), num1(p0.Y))
		for k := 1; k+2 < len(ee.points); k += 3 {
			a, b, c := flip(ee.points[k]), flip(ee.points[k+1]), flip(ee.points[k+2])
			fmt.Fprintf(&d, " C%s %s %s %s %s %s", num1(a.X), num1(a.Y), num1(b.X), num1(b.Y), num1(c.X), num1(c.Y))
		}
		if ee.end != nil {
			t := flip(*ee.end)
			fmt.Fprintf(&d, " L%s %s", num1(t.X), num1(t.Y))
		}
		pe.D = d.String()
		if e.Label != "" && ee.label != nil {
			c := flip(*ee.label)
			pe.LW, pe.LH = labelBox(e.Label)
			pe.LX, pe.LY = c.X-pe.LW/2, c.Y-pe.LH/2
		}
		out.Edges = append(out.Edges, pe)
	}
	members := map[string][]PlacedNode{}
	for _, n := range out.Nodes {
		if n.Group != "" {
			members[n.Group] = append(members[n.Group], n)
		}
	}
	for gi, gr := range g.Groups {
		if len(members[gr.ID]) == 0 {
			continue
		}
		pg := PlacedGroup{Group: gr}
		if bb, ok := res.groups[gi]; ok {
			pg.X, pg.Y, pg.W, pg.H = bb[0], res.height-bb[3], bb[2]-bb[0], bb[3]-bb[1]
		} else {
			minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
			for _, n := range members[gr.ID] {
				minX, minY = min(minX, n.X), min(minY, n.Y)
				maxX, maxY = max(maxX, n.X+n.W), max(maxY, n.Y+n.H)
			}
			top := GroupPad
			if gr.Title != "" {
				top += TitleGap
			}
			pg.X, pg.Y, pg.W, pg.H = minX-GroupPad, minY-top, maxX-minX+2*GroupPad, maxY-minY+top+GroupPad
		}
		out.Groups = append(out.Groups, pg)
	}
	out.fit()
	return out
}

// fit sets the drawing's box: everything it holds, with a small margin. The box need not start
// at (0, 0): coordinates stay those of the layout, where a pinned box's position is given.
func (d *Drawing) fit() {
	const margin = 8.0
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	grow := func(x, y, w, h float64) {
		minX, minY = min(minX, x), min(minY, y)
		maxX, maxY = max(maxX, x+w), max(maxY, y+h)
	}
	for _, n := range d.Nodes {
		grow(n.X, n.Y, n.W, n.H)
	}
	for _, g := range d.Groups {
		grow(g.X, g.Y, g.W, g.H)
	}
	for _, e := range d.Edges {
		if e.LW > 0 {
			grow(e.LX, e.LY, e.LW, e.LH)
		}
		for _, p := range pathPoints(e.D) {
			grow(p.X, p.Y, 0, 0)
		}
	}
	if math.IsInf(minX, 1) {
		minX, minY, maxX, maxY = 0, 0, 0, 0
	}
	d.MinX, d.MinY = math.Floor(minX-margin), math.Floor(minY-margin)
	d.Width, d.Height = math.Ceil(maxX+margin)-d.MinX, math.Ceil(maxY+margin)-d.MinY
}

// pathPoints reads the points of a path written by drawing (M, C and L with absolute numbers).
func pathPoints(d string) []designer.Point {
	var nums []float64
	for _, f := range strings.Fields(d) {
		f = strings.TrimLeft(f, "MCL")
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			nums = append(nums, v)
		}
	}
	pts := make([]designer.Point, 0, len(nums)/2)
	for i := 0; i+1 < len(nums); i += 2 {
		pts = append(pts, designer.Point{X: nums[i], Y: nums[i+1]})
	}
	return pts
}

func num1(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }
