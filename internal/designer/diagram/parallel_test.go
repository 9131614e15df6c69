package diagram_test

import (
	"context"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/diagram"
)

// graphs are the diagrams of several designs, each different from the others.
func graphs(t testing.TB) []diagram.Graph {
	var names []string
	examples := designertest.Examples(t)
	for name := range examples {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []diagram.Graph
	for _, name := range names {
		out = append(out, diagram.Entities(examples[name]), diagram.ModelMap(examples[name], nil))
	}
	return append(out, diagram.Entities(designertest.OrdersDesign()), diagram.Entities(benchDesign()))
}

// until waits for cond, failing after a minute: the condition is a state the layouts reach only
// if they run as the test says, so the minute is a bound on a stuck test, not a timing.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// inEngine counts the layouts holding an instance and the most that ever did at once, and keeps
// each there until released.
type inEngine struct {
	now, most atomic.Int64
	release   chan struct{}
}

func (e *inEngine) hold() {
	n := e.now.Add(1)
	for m := e.most.Load(); n > m && !e.most.CompareAndSwap(m, n); m = e.most.Load() {
	}
	<-e.release
	e.now.Add(-1)
}

// The diagrams of two designs are laid out at once: both are in the engine together.
func TestLayout_twoDesignsAreLaidOutAtTheSameTime(t *testing.T) {
	e := &inEngine{release: make(chan struct{})}
	t.Cleanup(diagram.LimitEngines(2, e.hold))
	diagram.Forget()
	hr, orders := designertest.HRDesign(t), designertest.OrdersDesign()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, d := range []designer.Design{hr, orders} {
		wg.Go(func() {
			_, errs[i] = diagram.Draw(context.Background(), d, designer.EntityDiagram, diagram.Marks{})
		})
	}
	until(t, "both layouts in the engine at once", func() bool { return e.now.Load() == 2 })
	close(e.release)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// However many layouts are asked for at once, no more than the bound run: with the bound reached
// the others wait for an instance, and none ever ran beside more than bound-1 others.
func TestLayout_noMoreLayoutsAtOnceThanTheBound(t *testing.T) {
	const bound = 3
	e := &inEngine{release: make(chan struct{})}
	t.Cleanup(diagram.LimitEngines(bound, e.hold))
	diagram.Forget()
	gs := graphs(t)
	if len(gs) <= bound+2 {
		t.Fatalf("%d graphs: too few to test a bound of %d", len(gs), bound)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(gs))
	for i, g := range gs {
		wg.Go(func() { _, errs[i] = diagram.Layout(context.Background(), g, nil) })
	}
	until(t, "the bound in the engine and every other layout waiting", func() bool {
		return e.now.Load() == bound && diagram.EnginesWaiting() == int64(len(gs)-bound)
	})
	close(e.release)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if most := e.most.Load(); most != bound {
		t.Fatalf("%d layouts ran at once, want at most (and here exactly) %d", most, bound)
	}
}

// Laid out all at once, the diagrams are the ones laid out one after the other.
func TestLayout_atOnceGivesWhatOneAfterTheOtherGives(t *testing.T) {
	gs := graphs(t)
	ctx := context.Background()
	serial := make([]diagram.Drawing, len(gs))
	for i, g := range gs {
		var err error
		if serial[i], err = diagram.LayoutFresh(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	diagram.Forget()
	parallel := make([]diagram.Drawing, len(gs))
	errs := make([]error, len(gs))
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Go(func() { parallel[i], errs[i] = diagram.Layout(ctx, g, nil) })
	}
	wg.Wait()
	for i := range gs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !reflect.DeepEqual(serial[i], parallel[i]) {
			t.Errorf("graph %d (%s): laid out at once it differs from laid out alone", i, gs[i].Kind)
		}
	}
}
