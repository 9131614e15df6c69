package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func refOf[T any](v T) *T { return &v }

// cleanRequirements returns a small design that no REQ rule reports anything about: two entities,
// a counted relationship, a read and a write pattern for each, and aggregate and consolidation rows
// that follow the thresholds.
func cleanRequirements() designer.Design {
	pattern := func(n int, desc, typ, entity string) designer.Pattern {
		return designer.Pattern{
			ID: fmt.Sprintf("ap%d", n), Number: n, Description: desc, Type: typ,
			PeakRPS: refOf(100.0), AvgRPS: refOf(20.0),
			LatencySLO: "<20 ms", Consistency: designer.Eventual, ResultBound: "1 item", SizeBand: "<1 KB",
			Status: designer.StatusOpen, Entities: []string{entity},
		}
	}
	return designer.Normalize(designer.Design{
		Name:     "Shop",
		Entities: []designer.Entity{{Name: "User"}, {Name: "Order"}},
		Relationships: []designer.Relationship{
			{ID: "r1", From: "User", To: "Order", Kind: designer.OneToMany, Avg: refOf(5.0), Max: refOf(int64(1000))},
		},
		Patterns: []designer.Pattern{
			pattern(1, "Get user profile", designer.Read, "User"),
			pattern(2, "Create user", designer.Write, "User"),
			pattern(3, "List orders by user", designer.Read, "Order"),
			pattern(4, "Place order", designer.Write, "Order"),
		},
		Aggregates: []designer.AggregateAnalysis{{
			ID: "ag1", EntityA: "User", EntityB: "Order", CorrelationPct: refOf(62.0),
			CombinedKB: refOf(17.0), Bounded: refOf(true), Decision: designer.ItemCollection,
			Identifying: designer.IdentifyingCheck{ChildIndependent: refOf(false), ParentIDKnown: refOf(true), SeparateTablePlanned: refOf(false)},
		}},
		Consolidations: []designer.ConsolidationReview{{
			ID: "c1", Parent: "User", Child: "Order", Relationship: designer.OneToMany, OverlapPct: refOf(62.0),
			Bounded: refOf(true), Identifying: refOf(true), Decision: designer.Consolidate,
		}},
	})
}

// findingKeys renders findings as "CODE severity path" for comparison.
func findingKeys(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Code + " " + f.Severity + " " + f.Path
	}
	return out
}

// Clean requirements break no requirement rule; with no table yet, the one finding left says that
// nothing serves their patterns (MAP013), so the design is not called all clear.
func TestValidate_cleanRequirementsOnlyWaitForTables(t *testing.T) {
	t.Parallel()
	if got := findingKeys(Validate(cleanRequirements())); !slices.Equal(got, []string{"MAP013 warning tables"}) {
		t.Fatalf("Validate(clean) = %v, want only MAP013", got)
	}
}

func TestValidate_requirementRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(d *designer.Design)
		want   []string
		inText string // a phrase the first finding's message must contain
	}{
		// REQ001
		{name: "REQ001 fires without peak RPS", edit: func(d *designer.Design) { d.Patterns[2].PeakRPS = nil },
			want:   []string{"REQ001 error access_patterns/3/peak_rps"},
			inText: `Pattern 3 "List orders by user" has no peak RPS; every pattern needs its peak and average RPS`},
		{name: "REQ001 fires without average RPS", edit: func(d *designer.Design) { d.Patterns[2].AvgRPS = nil },
			want: []string{"REQ001 error access_patterns/3/avg_rps"}, inText: "has no average RPS"},
		{name: "REQ001 reports both missing once", edit: func(d *designer.Design) { d.Patterns[0].PeakRPS, d.Patterns[0].AvgRPS = nil, nil },
			want: []string{"REQ001 error access_patterns/1/peak_rps"}, inText: "no peak or average RPS"},
		{name: "REQ001 accepts zero RPS", edit: func(d *designer.Design) { d.Patterns[0].PeakRPS, d.Patterns[0].AvgRPS = refOf(0.0), refOf(0.0) }},

		// REQ002
		{name: "REQ002 fires once for a shared number", edit: func(d *designer.Design) { d.Patterns[1].Number = 1; d.Patterns[3].Number = 1 },
			want: []string{"REQ002 error access_patterns/1/number"}, inText: `3 patterns share number 1 ("Get user profile", "Create user" and "Place order")`},
		{name: "REQ002 distinct numbers out of order", edit: func(d *designer.Design) { d.Patterns[0].Number, d.Patterns[3].Number = 4, 1 }},

		// REQ003
		{name: "REQ003 read but never written", edit: func(d *designer.Design) { d.Patterns[3].Type = designer.Read },
			want:   []string{"REQ003 warning entities/Order"},
			inText: `Order is read by patterns 3 and 4 but written by no pattern; add a write pattern for Order`},
		{name: "REQ003 written but never read", edit: func(d *designer.Design) { d.Patterns[2].Type = designer.Write },
			want: []string{"REQ003 warning entities/Order"}, inText: "but read by no pattern; add a read pattern for Order"},
		{name: "REQ003 accepted no-write gap", edit: func(d *designer.Design) {
			d.Patterns[3].Type = designer.Read
			d.Entities[1].AcceptedGaps = []string{designer.GapNoWrite}
		}},
		{name: "REQ003 accepted no-read gap", edit: func(d *designer.Design) {
			d.Patterns[2].Type = designer.Write
			d.Entities[1].AcceptedGaps = []string{designer.GapNoRead}
		}},
		{name: "REQ003 the wrong accepted gap does not hide it", edit: func(d *designer.Design) {
			d.Patterns[3].Type = designer.Read
			d.Entities[1].AcceptedGaps = []string{designer.GapNoRead}
		}, want: []string{"REQ003 warning entities/Order"}},
		{name: "REQ003 an untyped pattern is neither read nor write", edit: func(d *designer.Design) { d.Patterns[3].Type = "" },
			want: []string{"REQ003 warning entities/Order"}, inText: `read by pattern 3 "List orders by user" but written by no pattern`},
		{name: "REQ003 silent when every pattern is untyped", edit: func(d *designer.Design) { d.Patterns[2].Type, d.Patterns[3].Type = "", "" }},

		// REQ004
		{name: "REQ004 names every missing key requirement", edit: func(d *designer.Design) {
			d.Patterns[1].LatencySLO, d.Patterns[1].Consistency, d.Patterns[1].SizeBand = "", "", " "
		}, want: []string{"REQ004 warning access_patterns/2/latency_slo"},
			inText: `Pattern 2 "Create user" has no latency SLO, consistency or item size band`},
		{name: "REQ004 points at the result bound", edit: func(d *designer.Design) { d.Patterns[1].ResultBound = "" },
			want: []string{"REQ004 warning access_patterns/2/result_bound"}, inText: "has no expected result bound"},

		// REQ005
		{name: "REQ005 entity without pattern", edit: func(d *designer.Design) { d.Entities = append(d.Entities, designer.Entity{Name: "Payment"}) },
			want: []string{"REQ005 warning entities/Payment"}, inText: "Payment has no access pattern"},
		{name: "REQ005 an untyped pattern still counts", edit: func(d *designer.Design) {
			d.Entities = append(d.Entities, designer.Entity{Name: "Payment"})
			d.Patterns[0].Entities = []string{"User", "Payment"}
			d.Patterns[0].Type = ""
		}, want: []string{"REQ003 warning entities/User"}},

		// REQ006
		{name: "REQ006 decision against the thresholds", edit: func(d *designer.Design) { d.Aggregates[0].Decision = designer.SeparateTables },
			want:   []string{"REQ006 warning aggregates/ag1/decision"},
			inText: "Aggregate User + Order is decided as separate tables, but 62 % correlation is between 50 % and 90 %: item collection"},
		{name: "REQ006 justified is advice", edit: func(d *designer.Design) {
			d.Aggregates[0].Decision, d.Aggregates[0].Justification = designer.SeparateTables, "Different scaling patterns."
		}, want: []string{"REQ006 info aggregates/ag1/decision"}},
		{name: "REQ006 size over 100 KB with a single item", edit: func(d *designer.Design) {
			d.Aggregates[0].CorrelationPct, d.Aggregates[0].CombinedKB, d.Aggregates[0].Decision = refOf(95.0), refOf(200.0), designer.SingleItem
		}, want: []string{"REQ006 warning aggregates/ag1/decision"}, inText: "over 100 KB"},
		{name: "REQ006 silent without a decision", edit: func(d *designer.Design) { d.Aggregates[0].Decision = "" }},
		{name: "REQ006 silent when the thresholds do not decide", edit: func(d *designer.Design) {
			d.Aggregates[0].CorrelationPct, d.Aggregates[0].Decision = nil, designer.SingleItem
		}},

		// REQ007
		{name: "REQ007 no/yes/yes", edit: func(d *designer.Design) { d.Aggregates[0].Identifying.SeparateTablePlanned = refOf(true) },
			want:   []string{"REQ007 warning aggregates/ag1/separate_table_planned"},
			inText: "PK = User id, SK = Order id"},
		{name: "REQ007 child independent", edit: func(d *designer.Design) {
			d.Aggregates[0].Identifying.SeparateTablePlanned = refOf(true)
			d.Aggregates[0].Identifying.ChildIndependent = refOf(true)
		}},
		{name: "REQ007 unanswered", edit: func(d *designer.Design) {
			d.Aggregates[0].Identifying = designer.IdentifyingCheck{SeparateTablePlanned: refOf(true), ParentIDKnown: refOf(true)}
		}},
		{name: "REQ007 tables show a separate table with a GSI", edit: func(d *designer.Design) {
			d.Aggregates[0].Identifying.SeparateTablePlanned = refOf(true)
			d.Tables = []designer.Table{{Name: "Orders", EntityTypes: []designer.EntityType{{Entity: "Order"}}, GSIs: []designer.Index{{Name: "ByUser"}}}}
		}, want: []string{"REQ007 warning aggregates/ag1/separate_table_planned"}},
		{name: "REQ007 tables show the child keyed without a GSI", edit: func(d *designer.Design) {
			d.Aggregates[0].Identifying.SeparateTablePlanned = refOf(true)
			d.Tables = []designer.Table{{Name: "Orders", EntityTypes: []designer.EntityType{{Entity: "Order"}}}}
		}},
		{name: "REQ007 tables show the child in the parent's table", edit: func(d *designer.Design) {
			d.Aggregates[0].Identifying.SeparateTablePlanned = refOf(true)
			d.Tables = []designer.Table{{Name: "Shop", EntityTypes: []designer.EntityType{{Entity: "User"}, {Entity: "Order"}}, GSIs: []designer.Index{{Name: "ByEmail"}}}}
		}},

		// REQ008
		{name: "REQ008 keep separate against the rule", edit: func(d *designer.Design) { d.Consolidations[0].Decision = designer.Separate },
			want:   []string{"REQ008 warning consolidations/c1/decision"},
			inText: "Consolidation of User and Order is decided as keep separate, but 62 % overlap is over 50 %"},
		{name: "REQ008 consolidate under 30 %", edit: func(d *designer.Design) { d.Consolidations[0].OverlapPct = refOf(29.0) },
			want: []string{"REQ008 warning consolidations/c1/decision"}, inText: "29 % overlap is under 30 %: keep separate"},
		{name: "REQ008 consolidate with unbounded growth", edit: func(d *designer.Design) { d.Consolidations[0].Bounded = refOf(false) },
			want: []string{"REQ008 warning consolidations/c1/decision"}, inText: "growth is unbounded"},
		{name: "REQ008 justified", edit: func(d *designer.Design) {
			d.Consolidations[0].Decision, d.Consolidations[0].Justification = designer.Separate, "Separate backups."
		}},
		{name: "REQ008 between 30 and 50 % is the team's call", edit: func(d *designer.Design) {
			d.Consolidations[0].OverlapPct, d.Consolidations[0].Decision = refOf(40.0), designer.Separate
		}},

		// REQ009
		{name: "REQ009 no counts", edit: func(d *designer.Design) { d.Relationships[0].Avg, d.Relationships[0].Max = nil, nil },
			want: []string{"REQ009 info relationships/r1/avg_count"}, inText: "Relationship User → Order (1:M) has no average or maximum count"},
		{name: "REQ009 no maximum", edit: func(d *designer.Design) { d.Relationships[0].Max = nil },
			want: []string{"REQ009 info relationships/r1/max_count"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := cleanRequirements()
			tt.edit(&d)
			// The REQ007 cases add bare tables, which the MOD rules have their own findings about.
			got := slices.DeleteFunc(Validate(d), func(f Finding) bool { return !strings.HasPrefix(f.Code, "REQ") })
			if keys := findingKeys(got); !slices.Equal(keys, tt.want) {
				t.Fatalf("findings = %q, want %q\n%v", keys, tt.want, got)
			}
			if tt.inText != "" && !strings.Contains(got[0].Message, tt.inText) {
				t.Errorf("message = %q, want it to contain %q", got[0].Message, tt.inText)
			}
		})
	}
}
