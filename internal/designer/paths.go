package designer

import (
	"slices"
	"strings"
)

// PathsOverlap reports whether two changes touch a common part of a design, given their Paths: a
// path meets another that equals it or lies inside it ("access_patterns/ap1" meets
// "access_patterns/ap1/description" but not "access_patterns/ap10"). The empty path is the whole
// design (ReplaceDesign), which meets every path.
func PathsOverlap(a, b []string) bool {
	return slices.ContainsFunc(a, func(p string) bool {
		return slices.ContainsFunc(b, func(q string) bool { return pathsMeet(p, q) })
	})
}

func pathsMeet(p, q string) bool {
	if len(p) > len(q) {
		p, q = q, p
	}
	return p == "" || p == q || strings.HasPrefix(q, p) && q[len(p)] == '/'
}
