package diagram

import (
	"context"

	"github.com/goccy/go-graphviz"
)

// LayoutFresh is Layout without pins and without the memory of recent layouts.
func LayoutFresh(ctx context.Context, g Graph) (Drawing, error) {
	forget()
	return Layout(ctx, g, nil)
}

func forget() {
	layouts.Lock()
	clear(layouts.m)
	layouts.order = nil
	layouts.Unlock()
}

// FailEngineStart makes the engine's start fail with err, for a test's own process.
func FailEngineStart(err error) {
	startEngine = func() (*graphviz.Graphviz, error) { return nil, err }
}
