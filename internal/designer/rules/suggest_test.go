package rules

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func TestSuggestAggregate_thresholds(t *testing.T) {
	t.Parallel()
	bounded := func(corr, kb float64) designer.AggregateAnalysis {
		return designer.AggregateAnalysis{EntityA: "Order", EntityB: "OrderItem", CorrelationPct: refOf(corr), CombinedKB: refOf(kb), Bounded: refOf(true)}
	}
	tests := []struct {
		name   string
		in     designer.AggregateAnalysis
		want   string
		reason string
	}{
		{name: "49.9 % is separate", in: bounded(49.9, 10), want: designer.SeparateTables, reason: "49.9 % correlation is under 50 %: separate tables"},
		{name: "50 % is an item collection", in: bounded(50, 10), want: designer.ItemCollection, reason: "50 % correlation is between 50 % and 90 %: item collection"},
		{name: "62 % is an item collection", in: bounded(62, 10), want: designer.ItemCollection, reason: "62 % correlation is between 50 % and 90 %: item collection"},
		{name: "90 % is still an item collection", in: bounded(90, 10), want: designer.ItemCollection},
		{name: "90.1 % bounded is a single item", in: bounded(90.1, 10), want: designer.SingleItem,
			reason: "90.1 % correlation is over 90 % and the bounded combined 10 KB is within 100 KB: single item"},
		{name: "exactly 100 KB is a single item", in: bounded(95, 100), want: designer.SingleItem},
		{name: "over 100 KB rules out a single item", in: bounded(95, 100.5), want: designer.ItemCollection, reason: "combined 100.5 KB is over 100 KB"},
		{name: "unbounded rules out a single item", in: designer.AggregateAnalysis{CorrelationPct: refOf(95.0), CombinedKB: refOf(10.0), Bounded: refOf(false)},
			want: designer.ItemCollection, reason: "growth is unbounded"},
		{name: "boundedness unknown", in: designer.AggregateAnalysis{CorrelationPct: refOf(95.0), CombinedKB: refOf(10.0)}, reason: "say whether it is"},
		{name: "size unknown", in: designer.AggregateAnalysis{CorrelationPct: refOf(95.0), Bounded: refOf(true)}, reason: "give the combined size"},
		{name: "size over 100 KB decides without boundedness", in: designer.AggregateAnalysis{CorrelationPct: refOf(95.0), CombinedKB: refOf(150.0)}, want: designer.ItemCollection},
		{name: "no correlation", in: designer.AggregateAnalysis{EntityA: "Order", EntityB: "OrderItem"},
			reason: "no access correlation given: say what share of queries need Order and OrderItem together"},
		{name: "both-together share stands in", in: designer.AggregateAnalysis{BothPct: refOf(45.0)}, want: designer.SeparateTables,
			reason: "45 % joint access is under 50 %"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SuggestAggregate(tt.in)
			if got.Decision != tt.want {
				t.Errorf("Decision = %q (%s), want %q", got.Decision, got.Reason, tt.want)
			}
			if got.Reason == "" || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", got.Reason, tt.reason)
			}
		})
	}
}

func TestSuggestConsolidation_rules(t *testing.T) {
	t.Parallel()
	review := func(overlap float64) designer.ConsolidationReview {
		return designer.ConsolidationReview{Parent: "User", Child: "Order", Relationship: designer.OneToMany, OverlapPct: refOf(overlap),
			Bounded: refOf(true), Identifying: refOf(true)}
	}
	with := func(c designer.ConsolidationReview, edit func(*designer.ConsolidationReview)) designer.ConsolidationReview {
		edit(&c)
		return c
	}
	tests := []struct {
		name   string
		in     designer.ConsolidationReview
		want   string
		reason string
	}{
		{name: "29.9 % is separate", in: review(29.9), want: designer.Separate, reason: "29.9 % overlap is under 30 %: keep separate"},
		{name: "30 % is for the team", in: review(30), reason: "30 % overlap is between 30 % and 50 %: weigh cost against complexity"},
		{name: "50 % is for the team", in: review(50), reason: "between 30 % and 50 %"},
		{name: "50.1 % consolidates", in: review(50.1), want: designer.Consolidate,
			reason: "50.1 % overlap is over 50 %, with a bounded, identifying parent-child relationship: consolidate"},
		{name: "unbounded is separate at any overlap", in: with(review(90), func(c *designer.ConsolidationReview) { c.Bounded = refOf(false) }),
			want: designer.Separate, reason: "growth is unbounded: keep separate"},
		{name: "not identifying is for the team", in: with(review(90), func(c *designer.ConsolidationReview) { c.Identifying = refOf(false) }),
			reason: "Order can exist without User"},
		{name: "many-to-many is no parent and child", in: with(review(90), func(c *designer.ConsolidationReview) { c.Relationship = designer.ManyToMany }),
			reason: "many-to-many"},
		{name: "missing answers are named", in: with(review(90), func(c *designer.ConsolidationReview) { c.Bounded, c.Identifying = nil, nil }),
			reason: "say whether its size is bounded and whether the relationship is identifying"},
		{name: "no overlap", in: designer.ConsolidationReview{Parent: "User", Child: "Order"}, reason: "no access overlap given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SuggestConsolidation(tt.in)
			if got.Decision != tt.want {
				t.Errorf("Decision = %q (%s), want %q", got.Decision, got.Reason, tt.want)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", got.Reason, tt.reason)
			}
		})
	}
}
