package format

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/designer/designertest"
)

// benchItems are the sizes the export benchmarks double through: issue 26's bar is at most 2.2×
// the time per doubling up to 10,000 items.
var benchItems = []int{1250, 2500, 5000, 10_000}

// benchDesign is a Large design of 4 tables, 8 GSIs and 80 patterns with the given number of
// sample items, made once per size.
var benchDesign = sync.OnceValue(func() map[int]designer.Design {
	out := map[int]designer.Design{}
	for _, n := range benchItems {
		out[n] = designertest.Large(designertest.Size{Tables: 4, Items: n, GSIs: 8, Patterns: 80})
	}
	return out
})

// BenchmarkExport writes each format of designs that double in sample items, three ways:
// afresh (Write of the design alone, every derived result worked out for the document), once
// (the CLI: the design's Derived made, then WriteFrom) and cached (an HTTP download: WriteFrom
// a Derived whose parts the pages have already asked for). The ratio of one size to the one before is the cost
// of a doubling. cpu-ns/op counts the process's CPU time, the garbage collector's included, which
// a busy machine disturbs less than the wall clock.
func BenchmarkExport(b *testing.B) {
	designs := benchDesign()
	for _, f := range ExportFormats() {
		b.Run(f.ID, func(b *testing.B) {
			for _, way := range []string{"afresh", "once", "cached"} {
				if way != "afresh" && !f.Markdown {
					continue // the other formats read no derived result
				}
				for _, n := range benchItems {
					d := designs[n]
					b.Run(fmt.Sprintf("%s/items=%d", way, n), func(b *testing.B) {
						x := derive.New(d, nil)
						if way == "cached" {
							// What the pages have asked: the findings and the capacity, the
							// tables' order and the index views.
							if _, err := f.WriteFrom(x, time.Time{}, time.Time{}, Options{}); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportAllocs()
						start := cpuTime()
						for b.Loop() {
							var err error
							switch way {
							case "afresh":
								_, err = f.Write(d)
							case "once":
								_, err = f.WriteFrom(derive.New(d, nil), time.Time{}, time.Time{}, Options{})
							case "cached":
								_, err = f.WriteFrom(x, time.Time{}, time.Time{}, Options{})
							}
							if err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
					})
				}
			}
		})
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
