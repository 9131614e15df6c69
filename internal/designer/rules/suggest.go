package rules

import (
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Suggestion is what the seed's thresholds say about an aggregate or a consolidation candidate.
// An empty Decision means the thresholds do not decide; Reason then says what is missing or that
// the team has to weigh it.
type Suggestion struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// Thresholds from the seed's "Aggregate Boundaries Based on Access Patterns" and "Consolidation
// Rules". The single-item limit is the seed's "combined size exceed 100KB"; KB is 1,024 bytes as
// everywhere else in the design.
const (
	singleItemCorrelation = 90
	collectionCorrelation = 50
	singleItemMaxKB       = 100
	consolidateOverlap    = 50
	separateOverlap       = 30
)

// SuggestAggregate applies the seed's aggregate decision framework: over 90 % correlation with a
// bounded size of at most 100 KB suggests a single item, 50–90 % an item collection, under 50 %
// separate tables. Size rules out a single item but never moves a pair below item collection.
func SuggestAggregate(a designer.AggregateAnalysis) Suggestion {
	corr, what := a.CorrelationPct, "correlation"
	if corr == nil && a.BothPct != nil {
		// The seed's "Both together" share is the access correlation by definition.
		corr, what = a.BothPct, "joint access"
	}
	if corr == nil {
		return Suggestion{Reason: "no access correlation given: say what share of queries need " + pairName(a) + " together"}
	}
	c := pctText(*corr) + " " + what
	switch {
	case *corr < collectionCorrelation:
		return Suggestion{Decision: designer.SeparateTables, Reason: c + " is under 50 %: separate tables"}
	case *corr <= singleItemCorrelation:
		return Suggestion{Decision: designer.ItemCollection, Reason: c + " is between 50 % and 90 %: item collection"}
	case a.CombinedKB != nil && *a.CombinedKB > singleItemMaxKB:
		return Suggestion{Decision: designer.ItemCollection, Reason: c + " is over 90 %, but the combined " + kbText(*a.CombinedKB) + " is over 100 KB: item collection"}
	case a.Bounded != nil && !*a.Bounded:
		return Suggestion{Decision: designer.ItemCollection, Reason: c + " is over 90 %, but growth is unbounded: item collection"}
	case a.Bounded == nil:
		return Suggestion{Reason: c + " is over 90 %: a single item if the combined size is bounded; say whether it is"}
	case a.CombinedKB == nil:
		return Suggestion{Reason: c + " is over 90 % and bounded: a single item if the combined size stays within 100 KB; give the combined size"}
	}
	return Suggestion{Decision: designer.SingleItem, Reason: c + " is over 90 % and the bounded combined " + kbText(*a.CombinedKB) + " is within 100 KB: single item"}
}

// SuggestConsolidation applies the seed's consolidation rules: under 30 % overlap or unbounded
// growth keeps the tables separate; over 50 % overlap with a natural parent-child pair, bounded size
// and an identifying relationship consolidates; anything else is for the team to weigh.
func SuggestConsolidation(c designer.ConsolidationReview) Suggestion {
	if c.OverlapPct == nil {
		return Suggestion{Reason: "no access overlap given: say what share of " + c.Parent + " and " + c.Child + " patterns overlap"}
	}
	o := pctText(*c.OverlapPct) + " overlap"
	switch {
	case *c.OverlapPct < separateOverlap:
		return Suggestion{Decision: designer.Separate, Reason: o + " is under 30 %: keep separate"}
	case c.Bounded != nil && !*c.Bounded:
		return Suggestion{Decision: designer.Separate, Reason: "growth is unbounded: keep separate"}
	case *c.OverlapPct <= consolidateOverlap:
		return Suggestion{Reason: o + " is between 30 % and 50 %: weigh cost against complexity"}
	}
	if !parentChild(c) {
		return Suggestion{Reason: o + " is over 50 %, but a many-to-many pair is no natural parent and child: weigh cost against complexity"}
	}
	var missing []string
	if c.Bounded == nil {
		missing = append(missing, "whether its size is bounded")
	}
	if c.Identifying == nil {
		missing = append(missing, "whether the relationship is identifying")
	}
	if len(missing) > 0 {
		return Suggestion{Reason: o + " is over 50 %: say " + strings.Join(missing, " and ")}
	}
	if !*c.Identifying {
		return Suggestion{Reason: o + " is over 50 %, but " + c.Child + " can exist without " + c.Parent + ": weigh cost against complexity"}
	}
	return Suggestion{Decision: designer.Consolidate, Reason: o + " is over 50 %, with a bounded, identifying parent-child relationship: consolidate"}
}

// parentChild reports whether the pair is a natural parent and child. The review names a parent and
// a child by construction, so only a many-to-many relationship says otherwise.
func parentChild(c designer.ConsolidationReview) bool {
	r := strings.ToUpper(strings.ReplaceAll(c.Relationship, " ", ""))
	return r != designer.ManyToMany && !strings.Contains(r, "MANY-TO-MANY")
}

func pairName(a designer.AggregateAnalysis) string {
	return a.EntityA + " and " + a.EntityB
}

func pctText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " %" }

func kbText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " KB" }
