package designer

import "slices"

// NormalizeAfter is Normalize(after) for after made by a change from before, which is normalized
// already. A change copies what it touches and leaves the rest shared with before (the same
// slices), so the rows after still shares with before are not looked at again: normalizing the
// result of one cell edit costs the size of the edit, not a pass over every item and pattern of
// the design.
func NormalizeAfter(before, after Design) Design {
	if normalAfter(before, after) {
		return after
	}
	return Normalize(after)
}

// normalAfter reports whether Normalize would leave after as it is, looking only at what after
// does not share with before.
func normalAfter(before, after Design) bool {
	if after.Format != Format || after.Entities == nil || after.Relationships == nil || after.Patterns == nil ||
		after.Aggregates == nil || after.Consolidations == nil || after.Tables == nil || after.Comments == nil {
		return false
	}
	if !shared(before.Entities, after.Entities) && slices.ContainsFunc(after.Entities, func(e Entity) bool { return e.Attributes == nil }) {
		return false
	}
	if !shared(before.Relationships, after.Relationships) && slices.ContainsFunc(after.Relationships, func(r Relationship) bool { return r.ID == "" }) {
		return false
	}
	if !shared(before.Patterns, after.Patterns) && slices.ContainsFunc(after.Patterns, func(p Pattern) bool { return p.ID == "" || p.Status == "" }) {
		return false
	}
	if !shared(before.Aggregates, after.Aggregates) && slices.ContainsFunc(after.Aggregates, func(a AggregateAnalysis) bool { return a.ID == "" }) {
		return false
	}
	if !shared(before.Consolidations, after.Consolidations) && slices.ContainsFunc(after.Consolidations, func(c ConsolidationReview) bool { return c.ID == "" }) {
		return false
	}
	for i, t := range after.Tables {
		if t.BillingMode == "" || needsProjection(t) {
			return false
		}
		if i < len(before.Tables) && shared(before.Tables[i].Items, t.Items) {
			continue
		}
		if hasNilItem(t) || hasItemWithoutID(t) {
			return false
		}
	}
	return true
}

// shared reports whether a and b are the same rows: one slice, as a change passes on what it
// leaves alone.
func shared[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
