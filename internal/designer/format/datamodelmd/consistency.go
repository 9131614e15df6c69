package datamodelmd

import (
	"regexp"
	"slices"

	"dynaloom/internal/designer"
)

// strongRead finds a strongly consistent read stated in a mapping row's notes: "ConsistentRead=true",
// "strongly consistent read", "strong consistency". A negation just before it ("not strongly
// consistent", "no strong consistency") is caught by the first group.
var strongRead = regexp.MustCompile(`(?i)(\b(?:not|no|without|never)\s+)?\b(?:consistent\s*read\s*[=:]\s*true|strongly[\s-]+consistent|strong[\s-]+consistency)\b`)

// consistentOps reads the consistency a mapping row's notes state onto its reads: each GetItem,
// Query, Scan or BatchGetItem of a pattern whose notes ask for a strongly consistent read is
// marked so, whatever it targets, for validation to report a GSI it cannot be asked of (MAP005).
// The notes stay as written.
func consistentOps(patterns []designer.Pattern) []designer.Pattern {
	return designer.EditRows(patterns, func(pt *designer.Pattern) bool {
		if !statesStrongRead(pt.Mapping.Notes) {
			return false
		}
		ops := slices.Clone(pt.Mapping.Operations)
		changed := false
		for i := range ops {
			switch ops[i].Op {
			case "GetItem", "Query", "Scan", "BatchGetItem":
				if !ops[i].Consistent {
					ops[i].Consistent, changed = true, true
				}
			}
		}
		if changed {
			pt.Mapping.Operations = ops
		}
		return changed
	})
}

// statesStrongRead reports whether notes ask for a strongly consistent read and never say the
// opposite.
func statesStrongRead(notes string) bool {
	found := false
	for _, m := range strongRead.FindAllStringSubmatch(notes, -1) {
		if m[1] != "" {
			return false
		}
		found = true
	}
	return found
}
