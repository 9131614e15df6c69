package designer_test

import (
	"maps"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// clinicDesign has a clinic and its vets read together by one pattern at 30 RPS, and each alone by
// one at 10 RPS; owners are read at 100 RPS by a pattern that names neither.
func clinicDesign(t *testing.T) designer.Design {
	t.Helper()
	rps := designertest.Ptr[float64]
	d := designer.Design{
		Name: "Clinics",
		Entities: []designer.Entity{
			{Name: "Clinic", Attributes: []designer.Attribute{}},
			{Name: "Vet", Attributes: []designer.Attribute{}},
			{Name: "Owner", Attributes: []designer.Attribute{}},
		},
		Relationships: []designer.Relationship{{ID: "r1", From: "Clinic", To: "Vet", Kind: designer.OneToMany, Max: designertest.Ptr[int64](20)}},
		Patterns: []designer.Pattern{
			{ID: "ap1", Number: 1, Description: "Clinic page with its vets", Type: designer.Read, PeakRPS: rps(30), Entities: []string{"Clinic", "Vet"}},
			{ID: "ap2", Number: 2, Description: "One vet", Type: designer.Read, PeakRPS: rps(10), Entities: []string{"Vet"}},
			{ID: "ap3", Number: 3, Description: "One clinic", Type: designer.Read, AvgRPS: rps(10), Entities: []string{"Clinic"}},
			{ID: "ap4", Number: 4, Description: "One owner", Type: designer.Read, PeakRPS: rps(100), Entities: []string{"Owner"}},
		},
	}
	return designer.Normalize(d)
}

func TestAggregateFill_readsThePatternsRatesAndTheRelationship(t *testing.T) {
	t.Parallel()
	fill, from := designer.AggregateFill(clinicDesign(t), "Clinic", "Vet")
	// 30 of 50 RPS read both (60 %), 10 each read one alone (20 %); at most 20 vets bound it.
	want := map[string]string{"correlation_pct": "60", "both_pct": "60", "only_a_pct": "20", "only_b_pct": "20", "bounded": "yes"}
	if !maps.Equal(fill, want) {
		t.Errorf("fill = %v, want %v", fill, want)
	}
	says := strings.Join(from, "\n")
	for _, s := range []string{"peak RPS of patterns 1, 2 and 3", "relationship Clinic 1:M Vet: at most 20"} {
		if !strings.Contains(says, s) {
			t.Errorf("sources %q do not say %q", says, s)
		}
	}
}

func TestAggregateFill_takesTheConsolidationReviewFirst(t *testing.T) {
	t.Parallel()
	d := designertest.ApplyAll(t, clinicDesign(t), designer.AddConsolidation{Parent: "Clinic", Child: "Vet"})
	for field, v := range map[string]string{"overlap_pct": "70", "bounded": "no", "identifying": "yes", "decision": "consolidate", "justification": "Shown together"} {
		d = designertest.ApplyAll(t, d, designer.SetConsolidationField{ID: d.Consolidations[0].ID, Field: field, Value: v})
	}
	fill, from := designer.AggregateFill(d, "Clinic", "Vet")
	// The review's 70 % is the correlation; the 30 % left is split as the patterns split it, 20:20.
	want := map[string]string{"correlation_pct": "70", "both_pct": "70", "only_a_pct": "15", "only_b_pct": "15",
		"bounded": "no", "child_independent": "no", "decision": "item collection", "justification": "Shown together"}
	if !maps.Equal(fill, want) {
		t.Errorf("fill = %v, want %v", fill, want)
	}
	if !strings.Contains(strings.Join(from, "\n"), "consolidation review of Clinic and Vet") {
		t.Errorf("sources = %q", from)
	}
	// The other way round, the vet is the parent: the identifying answer is about the clinic, not given.
	if fill, _ := designer.AggregateFill(d, "Vet", "Clinic"); fill["child_independent"] != "" || fill["correlation_pct"] != "70" {
		t.Errorf("reversed fill = %v", fill)
	}
}

func TestAggregateFill_sharesAddUpToAHundred(t *testing.T) {
	t.Parallel()
	d := clinicDesign(t)
	for i := range d.Patterns[:3] {
		d.Patterns[i].PeakRPS, d.Patterns[i].AvgRPS = designertest.Ptr(1.0), nil
	}
	fill, _ := designer.AggregateFill(d, "Clinic", "Vet")
	if fill["only_a_pct"] != "34" || fill["only_b_pct"] != "33" || fill["both_pct"] != "33" {
		t.Errorf("thirds = %v", fill)
	}
	if fill, from := designer.AggregateFill(d, "Owner", "Vet"); fill["both_pct"] != "0" || len(from) != 1 {
		t.Errorf("owner and vet, never read together: %v %v", fill, from)
	}
}

func TestFillAggregates_addsAndFillsInWithoutOverwriting(t *testing.T) {
	t.Parallel()
	base := designertest.ApplyAll(t, clinicDesign(t), designer.AddAggregate{EntityA: "Vet", EntityB: "Clinic", Fill: map[string]string{"only_a_pct": "10"}})
	fill := map[string]string{"only_a_pct": "20", "only_b_pct": "30", "correlation_pct": "50", "child_independent": "yes"}
	designertest.RunChangeCases(t, base, []designertest.ChangeCase{
		{Name: "fill in reversed pair", Change: designer.FillAggregates{Pairs: []designer.AddAggregate{
			{EntityA: "Clinic", EntityB: "Vet", Fill: fill}, {EntityA: "Clinic", EntityB: "Owner", Fill: map[string]string{"correlation_pct": "5"}},
		}}, Check: func(t *testing.T, _, after designer.Design) {
			if len(after.Aggregates) != 2 {
				t.Fatalf("aggregates = %+v", after.Aggregates)
			}
			a := after.Aggregates[0]
			// The clinic's 20 % alone is the analysis's second entity's; the vet's 10 % typed stays.
			if *a.OnlyAPct != 10 || *a.OnlyBPct != 20 || *a.CorrelationPct != 50 || a.Identifying.ChildIndependent != nil {
				t.Errorf("filled = %+v", a)
			}
			if b := after.Aggregates[1]; b.EntityA != "Clinic" || b.EntityB != "Owner" || *b.CorrelationPct != 5 {
				t.Errorf("added = %+v", b)
			}
		}},
		{Name: "replace", Change: designer.FillAggregates{Replace: true, Pairs: []designer.AddAggregate{{EntityA: "Clinic", EntityB: "Vet", Fill: fill}}},
			Check: func(t *testing.T, _, after designer.Design) {
				if a := after.Aggregates[0]; *a.OnlyAPct != 30 {
					t.Errorf("replaced = %+v", a)
				}
			}},
		{Name: "no pairs", Change: designer.FillAggregates{}, Field: "pairs"},
		{Name: "bad figure", Change: designer.FillAggregates{Pairs: []designer.AddAggregate{{EntityA: "Clinic", EntityB: "Owner", Fill: map[string]string{"both_pct": "lots"}}}}, Field: "both_pct"},
		{Name: "fill names an entity", Change: designer.AddAggregate{EntityA: "Clinic", EntityB: "Owner", Fill: map[string]string{"entity_b": "Vet"}}, Field: "entity_b"},
		{Name: "unknown field", Change: designer.AddAggregate{EntityA: "Clinic", EntityB: "Owner", Fill: map[string]string{"colour": "red"}}, Field: "colour"},
	})
}

// Each pair a relationship joins is offered once, filled in, until an analysis covers it in either
// order; an entity related to itself is no pair.
func TestRelatedPairs_offersEachPairNotAnalysedOnce(t *testing.T) {
	t.Parallel()
	d := clinicDesign(t)
	d.Relationships = append(d.Relationships,
		designer.Relationship{ID: "r2", From: "Vet", To: "Clinic", Kind: designer.OneToOne},
		designer.Relationship{ID: "r3", From: "Owner", To: "Owner", Kind: designer.OneToMany},
		designer.Relationship{ID: "r4", From: "Owner", To: "Vet", Kind: designer.ManyToMany})
	pairs := designer.RelatedPairs(d)
	if len(pairs) != 2 || pairs[0].EntityA != "Clinic" || pairs[0].EntityB != "Vet" || pairs[1].EntityA != "Owner" || pairs[1].EntityB != "Vet" {
		t.Fatalf("pairs = %+v: want Clinic + Vet, then Owner + Vet", pairs)
	}
	if want, _ := designer.AggregateFill(d, "Clinic", "Vet"); !maps.Equal(pairs[0].Fill, want) {
		t.Errorf("Clinic + Vet fill = %v, want AggregateFill's %v", pairs[0].Fill, want)
	}
	analysed := designertest.ApplyAll(t, d, designer.AddAggregate{EntityA: "Vet", EntityB: "Clinic"})
	if pairs := designer.RelatedPairs(analysed); len(pairs) != 1 || pairs[0].EntityA != "Owner" {
		t.Errorf("after Vet + Clinic is analysed: pairs = %+v, want Owner + Vet only", pairs)
	}
}
