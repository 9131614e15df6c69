package diagram

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-graphviz"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// An instance gives the layout go-graphviz's own Graphviz gives (the whole package through
// graphviz.New, with its Go plugins), for both engines the diagrams use.
func TestEngine_layoutIsGoGraphvizs(t *testing.T) {
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer gv.Close()
	d := designertest.HRDesign(t)
	g := Entities(d)
	sizes := make([][2]float64, len(g.Nodes))
	index := map[string]int{}
	centres := make([]designer.Point, len(g.Nodes))
	for i, n := range g.Nodes {
		w, h := nodeSize(n)
		sizes[i], index[n.ID] = [2]float64{w, h}, i
		centres[i] = designer.Point{X: float64(200 * i), Y: float64(90 * (i % 3))}
	}
	m := ModelMap(d, Marks{})
	msizes := make([][2]float64, len(m.Nodes))
	for i, n := range m.Nodes {
		w, h := nodeSize(n)
		msizes[i] = [2]float64{w, h}
	}
	for _, tc := range []struct {
		name, dot string
		layout    graphviz.Layout
	}{
		{"entities", layeredDOT(g, sizes, index), graphviz.DOT},
		{"pinned", pinnedDOT(g, sizes, index, centres), graphviz.NOP1},
		{"model map tables", columnDOT(m, msizes), graphviz.DOT},
	} {
		graph, err := graphviz.ParseBytes([]byte(tc.dot))
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		gv.SetLayout(tc.layout)
		if err := gv.Render(ctx, graph, "json0", &want); err != nil {
			t.Fatal(err)
		}
		graph.Close()
		got, err := engines.render(ctx, []byte(tc.dot), tc.layout)
		if err != nil {
			t.Fatal(err)
		}
		wantRes, err := parseEngine(want.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		gotRes, err := parseEngine(got)
		if err != nil {
			t.Fatal(err)
		}
		if len(gotRes.nodes) == 0 || !reflect.DeepEqual(gotRes, wantRes) {
			t.Errorf("%s: the instance's layout differs from go-graphviz's:\n%+v\n%+v", tc.name, gotRes, wantRes)
		}
	}
}

// A layout that fails says why, and its instance is closed rather than given to the next one,
// which works.
func TestEngine_aFailedInstanceIsReplaced(t *testing.T) {
	ctx := context.Background()
	good := layeredDOT(Graph{Kind: designer.EntityDiagram, Nodes: []Node{{ID: "a", Title: "A"}}}, [][2]float64{{120, 60}}, map[string]int{"a": 0})
	if _, err := engines.render(ctx, []byte(good), graphviz.DOT); err != nil {
		t.Fatal(err)
	}
	engines.mu.Lock()
	idle := len(engines.idle)
	failing := engines.idle[idle-1]
	engines.mu.Unlock()
	_, err := runEngine(ctx, "digraph G { n0 -> ")
	if err == nil || !strings.Contains(err.Error(), "lay out") || !strings.Contains(err.Error(), "read the graph") {
		t.Fatalf("error %v, want one saying the graph could not be read", err)
	}
	engines.mu.Lock()
	after := append([]*graphviz.Instance(nil), engines.idle...)
	engines.mu.Unlock()
	if len(after) != idle-1 {
		t.Fatalf("%d idle instances after the failure, want %d (the failed one closed)", len(after), idle-1)
	}
	for _, in := range after {
		if in == failing {
			t.Fatal("the failed instance is idle again")
		}
	}
	if _, err := engines.render(ctx, []byte(good), graphviz.DOT); err != nil {
		t.Fatalf("the next layout: %v", err)
	}
}

// BenchmarkEngine_instanceMemory reports what one more instance costs: its module memory after
// laying out benchDesign's entity diagram (50 entities), and the Go heap it holds in all (that
// memory included), the compiled module being shared.
func BenchmarkEngine_instanceMemory(b *testing.B) {
	ctx := context.Background()
	c, err := compiled()
	if err != nil {
		b.Fatal(err)
	}
	d := designertest.Large(designertest.Size{Tables: 20, Items: 100, GSIs: 100, Patterns: 500})
	d.Entities = nil
	for i := range 50 {
		d.Entities = append(d.Entities, designer.Entity{Name: fmt.Sprintf("Entity%02d", i), Attributes: []designer.Attribute{{Name: "id", Type: designer.S}}})
		if i > 0 {
			d.Relationships = append(d.Relationships, designer.Relationship{From: fmt.Sprintf("Entity%02d", (i-1)/3), To: fmt.Sprintf("Entity%02d", i), Kind: designer.OneToMany})
		}
	}
	g := Entities(designer.Normalize(d))
	sizes := make([][2]float64, len(g.Nodes))
	index := map[string]int{}
	for i, n := range g.Nodes {
		w, h := nodeSize(n)
		sizes[i], index[n.ID] = [2]float64{w, h}, i
	}
	dot := []byte(layeredDOT(g, sizes, index))
	var module, heap float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		in, err := c.NewInstance(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := in.Render(ctx, dot, graphviz.DOT, "json0"); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		module += float64(in.MemoryBytes())
		heap += float64(after.HeapAlloc) - float64(before.HeapAlloc)
		in.Close(ctx)
	}
	b.ReportMetric(module/float64(b.N), "module-B/instance")
	b.ReportMetric(heap/float64(b.N), "heap-B/instance")
}
