package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestValidate_ordersBySeverityCodeAndPatternNumber(t *testing.T) {
	t.Parallel()
	d := cleanRequirements()
	for n := 5; n <= 11; n++ {
		d.Patterns = append(d.Patterns, designer.Pattern{Number: n, Type: designer.Read, Entities: []string{"User"}, PeakRPS: refOf(1.0), AvgRPS: refOf(1.0)})
	}
	d.Patterns[10].PeakRPS = nil                                // pattern 11: REQ001
	d.Patterns[5].PeakRPS = nil                                 // pattern 6: REQ001
	d.Relationships[0].Max = nil                                // REQ009
	d.Aggregates[0].Decision = designer.SeparateTables          // REQ006
	d.Entities = append(d.Entities, designer.Entity{Name: "Z"}) // REQ005

	want := []string{
		"REQ001 error access_patterns/6/peak_rps",
		"REQ001 error access_patterns/11/peak_rps",
		"MAP013 warning tables",
		"REQ004 warning access_patterns/5/latency_slo",
		"REQ004 warning access_patterns/6/latency_slo",
		"REQ004 warning access_patterns/7/latency_slo",
		"REQ004 warning access_patterns/8/latency_slo",
		"REQ004 warning access_patterns/9/latency_slo",
		"REQ004 warning access_patterns/10/latency_slo",
		"REQ004 warning access_patterns/11/latency_slo",
		"REQ005 warning entities/Z",
		"REQ006 warning aggregates/ag1/decision",
		"REQ009 info relationships/r1/max_count",
	}
	got := Validate(d)
	if keys := findingKeys(got); !slices.Equal(keys, want) {
		t.Fatalf("findings =\n%s\nwant\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
	if !HasErrors(got) {
		t.Error("HasErrors = false with REQ001 findings")
	}
	if HasErrors(got[2:]) {
		t.Error("HasErrors = true without error findings")
	}
	if fs := Validate(designer.Design{}); fs == nil || len(fs) != 0 {
		t.Errorf("Validate(empty) = %#v, want an empty, non-nil list", fs)
	}
}

func TestNaturalCompare(t *testing.T) {
	t.Parallel()
	sorted := []string{"", "a", "a/2/x", "a/9", "a/10", "a/10/x", "a/010", "ap2", "ap10", "b"}
	for i := range sorted {
		for j := range sorted {
			got := naturalCompare(sorted[i], sorted[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("naturalCompare(%q, %q) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
}

// benchDesign has 30 entities and 200 patterns, a third of them lacking something, with aggregates,
// consolidations and relationships for every pair of neighbours.
func benchDesign() designer.Design {
	var d designer.Design
	d.Name = "Bench"
	for i := range 30 {
		d.Entities = append(d.Entities, designer.Entity{Name: fmt.Sprintf("Entity%02d", i)})
		if i > 0 {
			a, b := d.Entities[i-1].Name, d.Entities[i].Name
			d.Relationships = append(d.Relationships, designer.Relationship{From: a, To: b, Kind: designer.OneToMany, Avg: refOf(float64(i))})
			d.Aggregates = append(d.Aggregates, designer.AggregateAnalysis{EntityA: a, EntityB: b, CorrelationPct: refOf(float64(i * 3)),
				Bounded: refOf(true), CombinedKB: refOf(10.0), Decision: designer.ItemCollection})
			d.Consolidations = append(d.Consolidations, designer.ConsolidationReview{Parent: a, Child: b, OverlapPct: refOf(float64(i * 3)),
				Bounded: refOf(true), Identifying: refOf(true), Decision: designer.Consolidate})
		}
	}
	for n := 1; n <= 200; n++ {
		p := designer.Pattern{Number: n, Description: fmt.Sprintf("Pattern number %d", n), Type: designer.Read,
			PeakRPS: refOf(100.0), AvgRPS: refOf(10.0), LatencySLO: "<20 ms", Consistency: designer.Eventual, ResultBound: "1", SizeBand: "<1 KB",
			Entities: []string{d.Entities[n%30].Name, d.Entities[(n*7)%30].Name}}
		if n%2 == 0 {
			p.Type = designer.Write
		}
		if n%3 == 0 {
			p.PeakRPS, p.LatencySLO = nil, ""
		}
		d.Patterns = append(d.Patterns, p)
	}
	return designer.Normalize(d)
}

func BenchmarkValidate200(b *testing.B) {
	d := benchDesign()
	if n := len(Validate(d)); n == 0 {
		b.Fatal("the benchmark design has no findings")
	}
	b.ReportAllocs()
	for b.Loop() {
		Validate(d)
	}
}

func TestCatalogue_everyCodeOnceAndEveryFindingWithItsSeverity(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, r := range catalogue {
		if _, dup := seen[r.code]; dup {
			t.Errorf("%s is in the catalogue twice", r.code)
		}
		seen[r.code] = r.severity
	}
	for _, f := range Validate(designertest.HRDesign(t)) {
		want, ok := seen[f.Code]
		if !ok {
			t.Errorf("finding %s has a code the catalogue lacks", f.Code)
		}
		if ok && !slices.Contains(severities(want), f.Severity) {
			t.Errorf("finding %s is %s; the catalogue says %s", f.Code, f.Severity, want)
		}
	}
}

// exampleWarnings lists, per bundled example, the warnings its design keeps on purpose because the
// seed's design has the same trade-off, each with words of the example's trade-offs prose that say
// why. Any other warning, and any error, is a mistake in the example: the gallery shows designs
// that pass.
var exampleWarnings = map[string][]struct{ finding, why string }{
	"hiking-community": {{"MAP004 access_patterns/24/mapping/operations/0", "Trending reports (pattern 24) are picked by a Scan"}},
	"punch-lists":      {{"CAP003 access_patterns/17/mapping/operations/0", "Moving an item to another stage (pattern 17) moves its entry in the stage index"}},
	"hr-employees": {
		{"CAP003 access_patterns/13/mapping/operations/2", "A promotion (pattern 13) or a transfer (pattern 14) moves the employee in the title or department index"},
		{"CAP003 access_patterns/14/mapping/operations/0", "A promotion (pattern 13) or a transfer (pattern 14) moves the employee in the title or department index"},
	},
}

func TestValidate_examplesHaveNoErrorAndOnlyTheWarningsTheirProseExplains(t *testing.T) {
	t.Parallel()
	for id, d := range designertest.Examples(t) {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			var warnings []string
			for _, f := range Validate(d) {
				switch f.Severity {
				case SeverityError:
					t.Errorf("%s %s: %s", f.Code, f.Path, f.Message)
				case SeverityWarning:
					warnings = append(warnings, f.Code+" "+f.Path)
				}
			}
			var kept []string
			for _, w := range exampleWarnings[id] {
				kept = append(kept, w.finding)
				if !strings.Contains(d.Prose.TradeOffs, w.why) {
					t.Errorf("%s is kept, but the trade-offs do not say %q", w.finding, w.why)
				}
			}
			if !slices.Equal(warnings, kept) {
				t.Errorf("warnings %q, want those the prose explains: %q", warnings, kept)
			}
		})
	}
}
