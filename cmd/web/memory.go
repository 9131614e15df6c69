package main

import (
	"log/slog"
	"math"
	"os"
	"runtime/debug"

	"dynaloom/internal/storage"
)

// memoryBaseline is what the server's resident memory takes beyond --cache-bytes (README,
// Limits): the program, the Go runtime, SQLite's page caches and the requests in flight. The
// Go runtime is given a soft memory limit of the budget plus goHeadroom of it, so that the
// collector works before the heap outgrows the budget, instead of at twice the live heap.
const (
	memoryBaseline = 96 << 20
	goHeadroom     = 64 << 20
)

// limitMemory sets the Go runtime's soft memory limit for a budget of cacheBytes (0: the
// default, negative: none), unless GOMEMLIMIT sets one, and says which it is.
func limitMemory(log *slog.Logger, cacheBytes int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		log.Info("memory limit from GOMEMLIMIT", "bytes", debug.SetMemoryLimit(-1))
		return
	}
	if cacheBytes == 0 {
		cacheBytes = storage.DefaultCacheBytes
	}
	if cacheBytes < 0 || cacheBytes > math.MaxInt64-goHeadroom {
		return
	}
	debug.SetMemoryLimit(cacheBytes + goHeadroom)
}
