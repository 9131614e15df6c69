package wasm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// Compiled is the module compiled once, in a runtime of its own, from which any number of
// independent instances are made: they share its code, each has its own memory. Apart from the
// package's one module (Load), it serves layouts and renderings by Graphviz's own plugins only: the
// functions Graphviz calls back into Go are stubs that fail, so an instance touches no Go state.
type Compiled struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	seq      atomic.Uint64
}

var (
	compileOnce sync.Once
	compiled    *Compiled
	compileErr  error
)

// Compile compiles the module, once: the first call does the work (or reads it from the user's
// cache directory; a cache that cannot be used is done without), later ones give its result.
func Compile(ctx context.Context) (*Compiled, error) {
	compileOnce.Do(func() {
		compiled, compileErr = compileRecovered(ctx, true)
		if compileErr != nil {
			compiled, compileErr = compileRecovered(ctx, false)
		}
		if compileErr != nil {
			compileErr = fmt.Errorf("compile the Graphviz WebAssembly module: %w", compileErr)
		}
	})
	return compiled, compileErr
}

func compileRecovered(ctx context.Context, useCache bool) (c *Compiled, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("%v", r)
		}
	}()
	cfg := wazero.NewRuntimeConfig()
	if cache := getCompilationCache(); cache != nil && useCache {
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	cm, err := rt.CompileModule(ctx, wasmFile)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	env := rt.NewHostModuleBuilder("env")
	for _, f := range cm.ImportedFunctions() {
		module, name, _ := f.Import()
		if module != "env" {
			continue
		}
		env = env.NewFunctionBuilder().WithGoModuleFunction(
			api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
				panic(fmt.Sprintf("Graphviz called %s, a Go plugin, which this instance does not have", name))
			}),
			f.ParamTypes(), f.ResultTypes(),
		).Export(name)
	}
	if _, err := env.Instantiate(ctx); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return &Compiled{rt: rt, compiled: cm}, nil
}

// Instance is one instance of the module with a Graphviz context of its own (Graphviz's own
// plugins: every layout engine and the text formats, not PNG or JPEG). It is not safe for
// concurrent use. After an error its state is unknown: close it and make another.
type Instance struct {
	m     api.Module
	gvc   uint64
	names map[string]uint64 // engine and format names, kept in its memory
}

// NewInstance instantiates the module anew (no file system, no standard streams) and makes its
// Graphviz context.
func (c *Compiled) NewInstance(ctx context.Context) (*Instance, error) {
	m, err := c.rt.InstantiateModule(ctx, c.compiled,
		wazero.NewModuleConfig().WithName(fmt.Sprintf("graphviz-%d", c.seq.Add(1))))
	if err != nil {
		return nil, fmt.Errorf("instantiate the Graphviz WebAssembly module: %w", err)
	}
	in := &Instance{m: m, names: map[string]uint64{}}
	if err := in.start(ctx); err != nil {
		m.Close(ctx)
		return nil, fmt.Errorf("start Graphviz: %w", err)
	}
	return in, nil
}

func (in *Instance) start(ctx context.Context) error {
	p, err := in.call(ctx, "malloc", 4)
	if err != nil {
		return err
	}
	defer in.call(ctx, "free", p)
	if _, err := in.call(ctx, "wasm_bridge_SymList_default", p); err != nil {
		return err
	}
	plugins, err := in.u32(p)
	if err != nil {
		return err
	}
	in.gvc, err = in.callWithRet(ctx, "getContextWithPlugins", plugins, 1)
	if err != nil {
		return err
	}
	if in.gvc == 0 {
		return errors.New("no Graphviz context")
	}
	return nil
}

// Render reads dot, lays it out with the engine layout ("dot", "nop1", …) and renders it in format
// ("json0", "svg", …).
func (in *Instance) Render(ctx context.Context, dot []byte, layout, format string) ([]byte, error) {
	text, err := in.cString(ctx, string(dot))
	if err != nil {
		return nil, err
	}
	g, err := in.callWithRet(ctx, "memRead", text)
	in.call(ctx, "free", text)
	if err != nil {
		return nil, err
	}
	if g == 0 {
		return nil, in.lastError(ctx, "read the graph")
	}
	defer in.callWithRet(ctx, "Graph_close", g)
	engine, err := in.name(ctx, layout)
	if err != nil {
		return nil, err
	}
	if res, err := in.callWithRet(ctx, "Context_layout", in.gvc, g, engine); err != nil {
		return nil, err
	} else if res != 0 {
		return nil, in.lastError(ctx, "lay out with "+layout)
	}
	defer in.callWithRet(ctx, "Context_freeLayout", in.gvc, g)
	f, err := in.name(ctx, format)
	if err != nil {
		return nil, err
	}
	cells, err := in.call(ctx, "malloc", 8) // the result's address and its length
	if err != nil {
		return nil, err
	}
	defer in.call(ctx, "free", cells)
	if res, err := in.callWithRet(ctx, "Context_renderData", in.gvc, g, f, cells, cells+4); err != nil {
		return nil, err
	} else if res != 0 {
		return nil, in.lastError(ctx, "render "+format)
	}
	str, err := in.u32(cells)
	if err != nil {
		return nil, err
	}
	data, err := in.u32(str)
	if err != nil {
		return nil, err
	}
	n, err := in.u32(str + 4)
	if err != nil {
		return nil, err
	}
	b, ok := in.m.Memory().Read(uint32(data), uint32(n))
	if !ok {
		return nil, fmt.Errorf("the rendering (%d bytes at %d) is outside the memory", n, data)
	}
	out := append([]byte(nil), b...)
	in.call(ctx, "wasm_bridge_freeRenderData", data)
	in.call(ctx, "free", str)
	return out, nil
}

// MemoryBytes is the size of the instance's memory, which only grows.
func (in *Instance) MemoryBytes() uint64 { return uint64(in.m.Memory().Size()) }

// Close frees the instance.
func (in *Instance) Close(ctx context.Context) error { return in.m.Close(ctx) }

func (in *Instance) name(ctx context.Context, s string) (uint64, error) {
	if p, ok := in.names[s]; ok {
		return p, nil
	}
	p, err := in.cString(ctx, s)
	if err == nil {
		in.names[s] = p
	}
	return p, err
}

func (in *Instance) cString(ctx context.Context, s string) (uint64, error) {
	p, err := in.call(ctx, "malloc", uint64(len(s))+1)
	if err != nil {
		return 0, err
	}
	if p == 0 || !in.m.Memory().Write(uint32(p), append([]byte(s), 0)) {
		return 0, fmt.Errorf("no room for %d bytes in the module's memory", len(s)+1)
	}
	return p, nil
}

func (in *Instance) lastError(ctx context.Context, what string) error {
	p, err := in.callWithRet(ctx, "lastError")
	if err != nil || p == 0 {
		return fmt.Errorf("Graphviz could not %s", what)
	}
	data, err1 := in.u32(p)
	n, err2 := in.u32(p + 4)
	b, ok := in.m.Memory().Read(uint32(data), uint32(n))
	if err1 != nil || err2 != nil || !ok || n == 0 {
		return fmt.Errorf("Graphviz could not %s", what)
	}
	return fmt.Errorf("Graphviz could not %s: %s", what, b)
}

func (in *Instance) call(ctx context.Context, fn string, args ...uint64) (uint64, error) {
	f := in.m.ExportedFunction(fn)
	if f == nil {
		return 0, fmt.Errorf("the module has no function %s", fn)
	}
	res, err := f.Call(ctx, args...)
	if err != nil {
		return 0, err
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

// callWithRet calls a bridge function that writes its result to a cell given last.
func (in *Instance) callWithRet(ctx context.Context, fn string, args ...uint64) (uint64, error) {
	cell, err := in.call(ctx, "malloc", 4)
	if err != nil {
		return 0, err
	}
	defer in.call(ctx, "free", cell)
	if _, err := in.call(ctx, "wasm_bridge_"+fn, append(args, cell)...); err != nil {
		return 0, err
	}
	return in.u32(cell)
}

func (in *Instance) u32(p uint64) (uint64, error) {
	v, ok := in.m.Memory().ReadUint32Le(uint32(p))
	if !ok {
		return 0, fmt.Errorf("address %d is outside the module's memory", p)
	}
	return uint64(v), nil
}
