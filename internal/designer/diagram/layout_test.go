package diagram_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/diagram"
	"dynaloom/internal/designer/format"
)

type box struct {
	name       string
	x, y, w, h float64
}

// overlaps reports whether a and b share more than a sliver (half a unit) of area.
func overlaps(a, b box) bool {
	const slack = 0.5
	return a.x+slack < b.x+b.w && b.x+slack < a.x+a.w && a.y+slack < b.y+b.h && b.y+slack < a.y+a.h
}

func inside(inner, outer box) bool {
	return inner.x >= outer.x-0.5 && inner.y >= outer.y-0.5 && inner.x+inner.w <= outer.x+outer.w+0.5 && inner.y+inner.h <= outer.y+outer.h+0.5
}

// checkDrawing asserts what a person looking at the drawing would: no two boxes overlap, no label
// covers a box or another label, every box is inside its group and outside the others, groups do
// not overlap, every line is drawn, and everything is within the drawing.
func checkDrawing(t *testing.T, name string, g diagram.Graph, dr diagram.Drawing) {
	t.Helper()
	var nodes, labels, groups []box
	frame := box{"drawing", dr.MinX, dr.MinY, dr.Width, dr.Height}
	for _, n := range dr.Nodes {
		b := box{"box " + n.ID, n.X, n.Y, n.W, n.H}
		if !inside(b, frame) {
			t.Errorf("%s: %s is outside the drawing %+v", name, b.name, frame)
		}
		nodes = append(nodes, b)
	}
	for _, e := range dr.Edges {
		if e.LW > 0 {
			labels = append(labels, box{"label of " + e.ID, e.LX, e.LY, e.LW, e.LH})
		}
	}
	for _, gr := range dr.Groups {
		groups = append(groups, box{"group " + gr.ID, gr.X, gr.Y, gr.W, gr.H})
	}
	for i, a := range nodes {
		for _, b := range nodes[i+1:] {
			if overlaps(a, b) {
				t.Errorf("%s: %s overlaps %s", name, a.name, b.name)
			}
		}
		for _, l := range labels {
			if overlaps(a, l) {
				t.Errorf("%s: %s covers %s", name, l.name, a.name)
			}
		}
		for gi, gr := range groups {
			in := dr.Nodes[i].Group == dr.Groups[gi].ID
			if in && !inside(a, gr) {
				t.Errorf("%s: %s is not inside its %s", name, a.name, gr.name)
			}
			if !in && overlaps(a, gr) {
				t.Errorf("%s: %s overlaps %s, which it is not in", name, a.name, gr.name)
			}
		}
	}
	for i, a := range labels {
		for _, b := range labels[i+1:] {
			if overlaps(a, b) {
				t.Errorf("%s: %s overlaps %s", name, a.name, b.name)
			}
		}
	}
	for i, a := range groups {
		for _, b := range groups[i+1:] {
			if overlaps(a, b) {
				t.Errorf("%s: %s overlaps %s", name, a.name, b.name)
			}
		}
	}
	drawn := 0
	for _, e := range g.Edges {
		if _, ok := g.NodeByID(e.From); ok {
			drawn++
		}
	}
	if len(dr.Edges) != drawn || len(dr.Nodes) != len(g.Nodes) {
		t.Errorf("%s: %d of %d boxes and %d of %d lines drawn", name, len(dr.Nodes), len(g.Nodes), len(dr.Edges), drawn)
	}
	for _, e := range dr.Edges {
		if !strings.HasPrefix(e.D, "M") || strings.Contains(e.D, "NaN") {
			t.Errorf("%s: line %s has the path %q", name, e.ID, e.D)
		}
	}
}

// designs are the examples, and, when ../shared is beside the repository, the real designs there
// (the seeds' data models and the Workbench models).
func designs(t *testing.T) map[string]designer.Design {
	t.Helper()
	out := map[string]designer.Design{}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		out["example "+ex.ID] = d
	}
	shared := filepath.Join("..", "..", "..", "..", "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Logf("../shared is not beside the repository: only the examples are laid out")
		return out
	}
	var files []string
	for _, pattern := range []string{"seeds/00[0234]_*.txt", "fixtures/aws-dynamodb-examples/*"} {
		m, _ := filepath.Glob(filepath.Join(shared, pattern))
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := format.Import([]format.File{{Name: filepath.Base(f), Data: data}})
		if err != nil {
			continue // not a design (a licence, a list of patterns alone)
		}
		out[filepath.Base(f)] = d
	}
	return out
}

func TestLayout_noBoxOverlapsAndNoLabelCoversABox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, d := range designs(t) {
		for _, kind := range designer.DiagramKinds {
			g := diagram.Entities(d)
			if kind == designer.ModelMap {
				g = diagram.ModelMap(d, nil)
			}
			dr, err := diagram.Layout(ctx, g, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", name, kind, err)
			}
			checkDrawing(t, name+" "+kind, g, dr)
		}
	}
}

func TestLayout_benchDesign(t *testing.T) {
	t.Parallel()
	d := benchDesign()
	for _, g := range []diagram.Graph{diagram.Entities(d), diagram.ModelMap(d, nil)} {
		dr, err := diagram.Layout(context.Background(), g, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkDrawing(t, "bench design "+g.Kind, g, dr)
	}
}

func TestLayout_aPinnedBoxStaysWhereItWasPut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := designertest.HRDesign(t)
	for _, kind := range designer.DiagramKinds {
		free, err := diagram.Draw(ctx, d, kind, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Put the first box to the right of everything, a little below the top.
		moved := free.Nodes[0]
		at := designer.Point{X: free.MinX + free.Width + 300, Y: free.MinY + 100}
		pinned := designertest.ApplyAll(t, d, designer.MoveDiagramNode{Diagram: kind, Node: moved.ID, X: at.X, Y: at.Y})
		dr, err := diagram.Draw(ctx, pinned, kind, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := dr.Nodes[0]
		if !n.Pinned || math.Abs(n.CX()-at.X) > 0.5 || math.Abs(n.CY()-at.Y) > 0.5 {
			t.Errorf("%s: %s is at (%v, %v) pinned=%v, want (%v, %v)", kind, n.ID, n.CX(), n.CY(), n.Pinned, at.X, at.Y)
		}
		if dr.MinX+dr.Width < n.X+n.W {
			t.Errorf("%s: the drawing (to x %v) does not reach the moved box (to %v)", kind, dr.MinX+dr.Width, n.X+n.W)
		}
		// Every line that touches the box now ends or starts at its border.
		touching := 0
		for _, e := range dr.Edges {
			if e.From != n.ID && e.To != n.ID {
				continue
			}
			touching++
			pts := pathNumbers(e.D)
			x, y := pts[0], pts[1]
			if e.To == n.ID {
				x, y = pts[len(pts)-2], pts[len(pts)-1]
			}
			if x < n.X-12 || x > n.X+n.W+12 || y < n.Y-12 || y > n.Y+n.H+12 {
				t.Errorf("%s: line %s ends at (%v, %v), away from the moved box %+v", kind, e.ID, x, y, n)
			}
		}
		if touching == 0 {
			t.Errorf("%s: no line touches %s", kind, n.ID)
		}
		for _, other := range dr.Nodes[1:] {
			if other.Pinned {
				t.Errorf("%s: %s is marked pinned", kind, other.ID)
			}
		}
	}
}

func pathNumbers(d string) []float64 {
	var out []float64
	for _, f := range strings.Fields(d) {
		v, err := strconv.ParseFloat(strings.TrimLeft(f, "MCL"), 64)
		if err == nil {
			out = append(out, v)
		}
	}
	return out
}
