package diagram_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/diagram"
	"dynaloom/internal/designer/rules"
)

// benchDesign is issue 18's bar: 50 entities (in a tree of 1:M relationships, every fifth pair
// an item collection), 20 tables, 100 GSIs and 500 patterns.
func benchDesign() designer.Design {
	d := designertest.Large(designertest.Size{Tables: 20, Items: 100, GSIs: 100, Patterns: 500})
	d.Entities = nil
	for i := range 50 {
		name := fmt.Sprintf("Entity%02d", i)
		d.Entities = append(d.Entities, designer.Entity{Name: name, Attributes: []designer.Attribute{
			{Name: fmt.Sprintf("entity%02d_id", i), Type: designer.S}, {Name: "created_at", Type: designer.S}, {Name: "note", Type: designer.S},
		}})
		if i > 0 {
			parent := fmt.Sprintf("Entity%02d", (i-1)/3)
			avg, most := 4.0, int64(40)
			d.Relationships = append(d.Relationships, designer.Relationship{From: parent, To: name, Kind: designer.OneToMany, Avg: &avg, Max: &most})
			if i%5 == 0 {
				d.Aggregates = append(d.Aggregates, designer.AggregateAnalysis{EntityA: parent, EntityB: name, Decision: designer.ItemCollection})
			}
		}
	}
	return designer.Normalize(d)
}

// BenchmarkLayout lays out each diagram of benchDesign, each time anew (the memory of recent
// layouts is emptied); BenchmarkLayout_anchor validates the same design, the work every revision
// does anyway. Issue 18's bar is 200 ms for a layout.
func BenchmarkLayout(b *testing.B) {
	d := benchDesign()
	ctx := context.Background()
	for _, kind := range designer.DiagramKinds {
		g := diagram.Entities(d)
		if kind == designer.ModelMap {
			g = diagram.ModelMap(d, nil)
		}
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				if _, err := diagram.LayoutFresh(ctx, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLayout_anchor(b *testing.B) {
	d := benchDesign()
	for b.Loop() {
		rules.Validate(d)
	}
}

// designsAtOnce is the entity diagrams of as many designs as layouts run at once (at least two),
// each benchDesign's with a box more than the one before, so that each is laid out anew.
func designsAtOnce() []diagram.Graph {
	base := diagram.Entities(benchDesign())
	var gs []diagram.Graph
	for i := range max(diagram.MaxEngines, 2) {
		g := base
		g.Nodes = slices.Clone(base.Nodes)
		for k := range i {
			g.Nodes = append(g.Nodes, diagram.Node{ID: fmt.Sprintf("extra%d", k), Kind: diagram.KindEntity, Title: "Extra"})
		}
		gs = append(gs, g)
	}
	return gs
}

// BenchmarkLayout_serial lays out designsAtOnce one after the other, BenchmarkLayout_parallel all
// at once: serial's time over parallel's is how much the pool of instances gains (at most the
// number of cores, or of instances).
func BenchmarkLayout_serial(b *testing.B) {
	gs := designsAtOnce()
	ctx := context.Background()
	for b.Loop() {
		diagram.Forget()
		for _, g := range gs {
			if _, err := diagram.Layout(ctx, g, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLayout_parallel(b *testing.B) {
	gs := designsAtOnce()
	ctx := context.Background()
	errs := make([]error, len(gs))
	for b.Loop() {
		diagram.Forget()
		var wg sync.WaitGroup
		for i, g := range gs {
			wg.Go(func() { _, errs[i] = diagram.Layout(ctx, g, nil) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
