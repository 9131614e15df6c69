package designer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// RelatedPairs are the analyses the relationships still call for, each filled in by
// AggregateFill: one per pair of entities a relationship joins that no analysis covers yet, in
// either order, in the order of the relationships. A relationship of an entity to itself calls for
// none.
func RelatedPairs(d Design) []AddAggregate {
	same := func(a, b string, r Relationship) bool { return a == r.From && b == r.To || a == r.To && b == r.From }
	var pairs []AddAggregate
	for _, r := range d.Relationships {
		if r.From == r.To ||
			slices.ContainsFunc(pairs, func(p AddAggregate) bool { return same(p.EntityA, p.EntityB, r) }) ||
			slices.ContainsFunc(d.Aggregates, func(a AggregateAnalysis) bool { return same(a.EntityA, a.EntityB, r) }) {
			continue
		}
		fill, _ := AggregateFill(d, r.From, r.To)
		pairs = append(pairs, AddAggregate{EntityA: r.From, EntityB: r.To, Fill: fill})
	}
	return pairs
}

// AggregateFill is what the design already says of the pair a + b, as the field texts a new
// analysis of it starts with (keys of AggregateFields), and whence each came, as a sentence per
// source. The sources are the seed's own:
//   - the consolidation review of the pair, as the team typed it: its overlap is the access
//     correlation, and its bounded, identifying and decision answers carry over;
//   - the access patterns that name a or b, weighted by peak RPS (average where no peak is given):
//     the shares read of a only, of b only and of both;
//   - the relationship from a to b: a most without a time unit bounds the growth.
//
// Where the review gives the correlation, the pattern shares of a only and b only are scaled to
// make up the rest, so that the three still add up to 100.
func AggregateFill(d Design, a, b string) (map[string]string, []string) {
	af := AggregateField
	fill := map[string]string{}
	var from []string
	set := func(f Field[AggregateAnalysis], v string) {
		if _, ok := fill[f.Key]; !ok && v != "" {
			fill[f.Key] = v
		}
	}
	pct := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

	var review *ConsolidationReview
	for i, r := range d.Consolidations {
		if r.Parent == a && r.Child == b || r.Parent == b && r.Child == a {
			review = &d.Consolidations[i]
			break
		}
	}
	var overlap *float64
	if review != nil {
		var took []string
		if overlap = review.OverlapPct; overlap != nil {
			set(af.CorrelationPct, pct(*overlap))
			set(af.BothPct, pct(*overlap))
			took = append(took, "the correlation")
		}
		if review.Bounded != nil {
			set(af.Bounded, formatAnswer(review.Bounded))
			took = append(took, "the bounded answer")
		}
		// The check asks whether b, the analysis's child, can exist without a.
		if review.Identifying != nil && review.Child == b {
			set(af.ChildIndependent, formatAnswer(new(!*review.Identifying)))
			took = append(took, "the identifying answer")
		}
		switch review.Decision {
		case Consolidate:
			set(af.Decision, "item collection")
			took = append(took, "the decision")
		case Separate:
			set(af.Decision, "separate tables")
			took = append(took, "the decision")
		}
		set(af.Justification, review.Justification)
		if len(took) > 0 {
			from = append(from, fmt.Sprintf("%s from the consolidation review of %s and %s", upperFirst(ListAnd(took)), review.Parent, review.Child))
		}
	}

	if shares, numbers := patternShares(d, a, b); numbers != nil {
		onlyA, onlyB, both := shares[0], shares[1], shares[2]
		if overlap != nil {
			rest := 100 - *overlap
			if onlyA+onlyB > 0 {
				onlyA, onlyB = rest*onlyA/(onlyA+onlyB), rest*onlyB/(onlyA+onlyB)
			} else {
				onlyA, onlyB = rest/2, rest/2
			}
			both = *overlap
		}
		r := roundShares([]float64{onlyA, onlyB, both})
		set(af.OnlyAPct, pct(r[0]))
		set(af.OnlyBPct, pct(r[1]))
		set(af.BothPct, pct(r[2]))
		set(af.CorrelationPct, pct(r[2]))
		from = append(from, fmt.Sprintf("Shares of reads from the peak RPS of %s %s", countedWord(len(numbers), "pattern", "patterns"), ListAnd(numbers)))
	}

	if _, ok := fill[af.Bounded.Key]; !ok {
		for _, r := range d.Relationships {
			if r.From == a && r.To == b && r.Max != nil && r.MaxUnit == "" {
				set(af.Bounded, "yes")
				from = append(from, fmt.Sprintf("Bounded from the relationship %s %s %s: at most %d", a, r.Kind, b, *r.Max))
				break
			}
		}
	}
	return fill, from
}

// patternShares are the shares of the weight of the patterns naming a or b that name a only, b
// only and both, in percent, with the numbers of those patterns; none when no such pattern has a
// rate.
func patternShares(d Design, a, b string) ([3]float64, []string) {
	var sum [3]float64
	var numbers []string
	for _, p := range d.Patterns {
		hasA, hasB := slices.Contains(p.Entities, a), slices.Contains(p.Entities, b)
		rate := p.PeakRPS
		if rate == nil {
			rate = p.AvgRPS
		}
		if !hasA && !hasB || rate == nil || *rate <= 0 {
			continue
		}
		switch {
		case hasA && hasB:
			sum[2] += *rate
		case hasA:
			sum[0] += *rate
		default:
			sum[1] += *rate
		}
		numbers = append(numbers, strconv.Itoa(p.Number))
	}
	total := sum[0] + sum[1] + sum[2]
	if total == 0 {
		return sum, nil
	}
	for i := range sum {
		sum[i] = 100 * sum[i] / total
	}
	return sum, numbers
}

// roundShares rounds shares that add up to 100 to whole numbers that still do, giving the points
// left over to the largest remainders.
func roundShares(shares []float64) []float64 {
	out := make([]float64, len(shares))
	left := 100.0
	for i, s := range shares {
		out[i] = math.Floor(s)
		left -= out[i]
	}
	order := make([]int, len(shares))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		rx, ry := shares[x]-out[x], shares[y]-out[y]
		switch {
		case rx > ry:
			return -1
		case rx < ry:
			return 1
		}
		return 0
	})
	for _, i := range order {
		if left < 1 {
			break
		}
		out[i]++
		left--
	}
	return out
}

func countedWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
