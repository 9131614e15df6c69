package cgraph

import "github.com/goccy/go-graphviz/internal/wasm"

// bindEnums sets the values the WebAssembly module defines, once it is loaded.
func bindEnums() {
	GRAPH = ObjectTag(wasm.GRAPH)
	NODE = ObjectTag(wasm.NODE)
	OUTEDGE = ObjectTag(wasm.OUT_EDGE)
	INEDGE = ObjectTag(wasm.IN_EDGE)
	EDGE = ObjectTag(wasm.EDGE)
}
