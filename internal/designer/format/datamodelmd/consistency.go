package datamodelmd

import (
	"regexp"
	"sync"
)

// strongRead finds a strongly consistent read stated in a mapping row's notes: "ConsistentRead=true",
// "strongly consistent read", "strong consistency". A negation just before it ("not strongly
// consistent", "no strong consistency") is caught by the first group.
var strongRead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\b(?:not|no|without|never)\s+)?\b(?:consistent\s*read\s*[=:]\s*true|strongly[\s-]+consistent|strong[\s-]+consistency)\b`)
})

// statesStrongRead reports whether notes ask for a strongly consistent read and never say the
// opposite. settleRow then marks each GetItem, Query, Scan or BatchGetItem of the row so, whatever
// it targets, for validation to report a GSI it cannot be asked of (MAP005); the notes stay as
// written.
func statesStrongRead(notes string) bool {
	found := false
	for _, m := range strongRead().FindAllStringSubmatch(notes, -1) {
		if m[1] != "" {
			return false
		}
		found = true
	}
	return found
}
