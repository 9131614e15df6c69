package graphviz

import (
	"context"

	"github.com/goccy/go-graphviz/internal/wasm"
)

// Compiled is the WebAssembly module compiled once, from which independent instances are made;
// each extra instance costs only its memory. It is apart from the module New uses.
type Compiled struct{ c *wasm.Compiled }

// Instance is one instance of the module: one layout at a time, its own memory, only Graphviz's
// own plugins (every layout engine, the text formats such as svg and json0; not PNG or JPEG).
// After an error, close it and make another.
type Instance struct{ in *wasm.Instance }

// Compile compiles the module on its first call (or reads it from the user's cache directory) and
// gives that result to every later one.
func Compile(ctx context.Context) (*Compiled, error) {
	c, err := wasm.Compile(ctx)
	if err != nil {
		return nil, err
	}
	return &Compiled{c: c}, nil
}

// NewInstance makes an instance of c.
func (c *Compiled) NewInstance(ctx context.Context) (*Instance, error) {
	in, err := c.c.NewInstance(ctx)
	if err != nil {
		return nil, err
	}
	return &Instance{in: in}, nil
}

// Render reads the DOT text dot, lays it out with layout and renders it in format.
func (i *Instance) Render(ctx context.Context, dot []byte, layout Layout, format Format) ([]byte, error) {
	return i.in.Render(ctx, dot, string(layout), string(format))
}

// MemoryBytes is the size of the instance's memory, which only grows.
func (i *Instance) MemoryBytes() uint64 { return i.in.MemoryBytes() }

// Close frees the instance.
func (i *Instance) Close(ctx context.Context) error { return i.in.Close(ctx) }
