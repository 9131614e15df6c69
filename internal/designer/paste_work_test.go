package designer_test

import (
	"runtime"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// FuzzParsePaste_workGrowsWithSize repeats a unit of pasted rows (TSV, CSV, a markdown table,
// DynamoDB JSON lines) to about 4 KB and to four times as many copies: the larger paste may
// allocate at most 5.5 times what the smaller does, objects and bytes (linear work gives 4).
func FuzzParsePaste_workGrowsWithSize(f *testing.F) {
	for _, s := range []string{"A\tB\t1\n", "A,B,\"[\"\"x\"\"]\"\n", "| A | B | 1 |\n", "{\"PK\":{\"S\":\"A\"},\"SK\":{\"S\":\"B\"}}\n", "A\t\"quoted\ttab\"\n"} {
		f.Add("PK\tSK\ttotal\n", s)
	}
	f.Add("| PK | SK | total |\n|---|---|---|\n", "| A | B | 1 |\n")
	tbl := pasteTestTable()
	work := func(text string) (n, bytes uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		designer.ParsePaste(text, tbl)
		runtime.ReadMemStats(&after)
		return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
	}
	f.Fuzz(func(t *testing.T, head, unit string) {
		if unit == "" || len(unit) > 2048 || len(head) > 256 {
			return
		}
		// A multiple of 4 copies, so that both documents end the same way (an even number of
		// quotes, brackets paired as often).
		k := ((4<<10)/len(unit) + 3) / 4 * 4
		small, large := head+strings.Repeat(unit, k), head+strings.Repeat(unit, 4*k)
		designer.ParsePaste(small, tbl)
		ns, bs := work(small)
		nl, bl := work(large)
		if float64(nl) > 5.5*float64(ns)+2000 || float64(bl) > 5.5*float64(bs)+1<<20 {
			t.Fatalf("%d copies: %d allocations of %d bytes; %d copies: %d of %d bytes", k, ns, bs, 4*k, nl, bl)
		}
	})
}
