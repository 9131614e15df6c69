package dynamo

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// clashesPairwise compares every pair of paths, as the first answer did; it is the reference for
// projectionClashes.
func clashesPairwise(paths [][]pathElem) (overlap, conflict string) {
	for i, b := range paths {
		for _, a := range paths[:i] {
			for k := 0; k < len(a) && k < len(b); k++ {
				if a[k].isIndex != b[k].isIndex {
					if conflict == "" {
						conflict = "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: " +
							pathText(a) + ", path two: " + pathText(b)
					}
					break
				}
				if a[k] != b[k] {
					break
				}
				if k == min(len(a), len(b))-1 && overlap == "" {
					overlap = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: " +
						pathText(a) + ", path two: " + pathText(b)
				}
			}
		}
	}
	return overlap, conflict
}

func TestProjectionClashes_answersAsComparingEveryPair(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	elems := []pathElem{{name: "a"}, {name: "b"}, {index: 0, isIndex: true}, {index: 1, isIndex: true}}
	for range 20_000 {
		paths := make([][]pathElem, 1+r.IntN(6))
		for i := range paths {
			paths[i] = []pathElem{{name: []string{"a", "b"}[r.IntN(2)]}}
			for range r.IntN(4) {
				paths[i] = append(paths[i], elems[r.IntN(len(elems))])
			}
		}
		o, c := projectionClashes(paths)
		wo, wc := clashesPairwise(paths)
		if o != wo || c != wc {
			t.Fatalf("%v:\n got %q, %q\nwant %q, %q", paths, o, c, wo, wc)
		}
	}
}

func TestParseProjection_workIsLinearInPaths(t *testing.T) {
	in := strings.TrimSuffix(strings.Repeat("a.b[0], ", 5_000), ", ")
	// Each path costs a few allocations; comparing every pair built a message for each of the
	// 12.5 million overlapping pairs.
	allocs := testing.AllocsPerRun(1, func() {
		_, _, msg := ParseProjection(in, NewExprContext(nil, nil))
		if !strings.HasPrefix(msg, "Two document paths overlap with each other;") {
			t.Fatalf("message %q", msg)
		}
	})
	if allocs > 20*5_000 {
		t.Errorf("%.0f allocations for 5,000 paths", allocs)
	}
}
