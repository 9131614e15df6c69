package datamodelmd

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"dynaloom/internal/designer/designertest"
)

// fiveMB is a data model document of at least 5 MB, exported from a large design: 10 tables, 20
// GSIs, 200 patterns and as many sample items as it takes.
var fiveMB = sync.OnceValue(func() []byte {
	for items := 10_000; ; items *= 2 {
		doc := Export(designertest.Large(designertest.Size{Tables: 10, Items: items, GSIs: 20, Patterns: 200}))
		if len(doc) >= 5<<20 {
			return doc
		}
	}
})

// BenchmarkImport5MB imports the 5 MB document, beside two anchors run on the same bytes: counting
// its lines, and goldmark parsing it alone. The bar is 1 s and 200 MB for the import.
func BenchmarkImport5MB(b *testing.B) {
	doc := fiveMB()
	b.Run("anchor_count_lines", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			bytes.Count(doc, []byte("\n"))
		}
	})
	b.Run("anchor_goldmark_parse", func(b *testing.B) {
		p := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser()
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			p.Parse(text.NewReader(doc))
		}
	})
	b.Run("import", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		peak := 0.0
		for b.Loop() {
			peak = max(peak, peakHeapMB(func() {
				if _, _, err := Import(doc); err != nil {
					b.Fatal(err)
				}
			}))
		}
		b.ReportMetric(peak, "peak-heap-MB")
	})
}

// peakHeapMB runs f and returns the most heap in use while it ran, sampled every millisecond, above
// what was in use before it.
func peakHeapMB(f func()) float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	peak := base
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-sampled
	return float64(peak-base) / (1 << 20)
}

func TestImport5MB_readsEveryTable(t *testing.T) {
	if testing.Short() {
		t.Skip("the 5 MB document takes seconds to build; the full tier reads it")
	}
	d, _, err := Import(fiveMB())
	if err != nil {
		t.Fatal(err)
	}
	items := 0
	for _, tb := range d.Tables {
		items += len(tb.Items)
	}
	if len(d.Tables) != 10 || len(d.Patterns) != 200 || items < 10_000 {
		t.Errorf("read %d tables, %d patterns, %d items; want 10, 200 and all the items", len(d.Tables), len(d.Patterns), items)
	}
}
