package diagram

import (
	"context"

	"github.com/goccy/go-graphviz"
)

// LayoutFresh is Layout without pins and without the memory of recent layouts.
func LayoutFresh(ctx context.Context, g Graph) (Drawing, error) {
	Forget()
	return Layout(ctx, g, nil)
}

// Forget empties the memory of recent layouts.
func Forget() {
	layouts.Lock()
	clear(layouts.m)
	layouts.order = nil
	layouts.Unlock()
}

// FailEngineStart makes the engine's start fail with err, for a test's own process.
func FailEngineStart(err error) {
	compileEngine = func() (*graphviz.Compiled, error) { return nil, err }
}

// MaxEngines is how many layouts run at once by default.
var MaxEngines = maxEngines

// LimitEngines makes n layouts run at once and calls hold while each holds its instance, until
// the test ends; no layout may be running.
func LimitEngines(n int, hold func()) (restore func()) {
	engines.mu.Lock()
	tokens := engines.tokens
	engines.tokens, engines.hold = make(chan struct{}, n), hold
	engines.mu.Unlock()
	return func() {
		engines.mu.Lock()
		engines.tokens, engines.hold = tokens, nil
		engines.mu.Unlock()
	}
}

// EnginesWaiting is how many layouts wait for an instance.
func EnginesWaiting() int64 { return engines.waiting.Load() }
