package dynamo

import (
	"slices"

	"dynaloom/internal/designer"
)

// Verdict compares what an operation returned with the keys the team expects. stated is false when
// no expectation is recorded. The expected keys are a set, for a Query too: a team marks them one
// by one in no particular order, and the order the stored change keeps is the order they were
// marked in, so a result passes when it returns exactly those items, in the order DynamoDB gives.
func Verdict(t designer.Table, op designer.Operation, res OperationResult) (stated, pass bool) {
	if op.Expected == nil {
		return false, false
	}
	want := *op.Expected
	if len(res.Items) != len(want) {
		return true, false
	}
	for _, it := range res.Items {
		g := designer.TableKey(t, it)
		if !slices.ContainsFunc(want, func(w designer.Item) bool { return designer.SameKey(t, g, w) }) {
			return true, false
		}
	}
	return true, true
}
