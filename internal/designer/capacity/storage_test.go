package capacity

import (
	"math"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// Storage at a horizon, by hand: the MCP shop's 1,000,000 orders of 1,024 B (each 1,124 B with
// the 100 B overhead) growing by 1,000 a day, 365,000 a year:
//
//	6 months:                  1,000,000 + 365,000 × 6/12 = 1,182,500 items × 1,124 B = 1,329,130,000 B = 1.2378 GB
//	24 months, kept 4 years:   1,000,000 + 730,000 = 1,730,000, at most 365,000 × 4 = 1,460,000 items
//	                           × 1,124 B = 1,641,040,000 B = 1.5283 GB
//	24 months, kept 90 days:   at most 90,000, which is less than today's 1,000,000: 1,000,000 items
//	today (no horizon):        1,000,000 items, the growth not counted
func TestStorage_atAHorizonGrowsUpToTheRetention(t *testing.T) {
	for _, tc := range []struct {
		name, horizon, retention string
		items, bytes, gb         float64
		source                   string
	}{
		{"6 months", "6", "", 1_182_500, 1_329_130_000, 1.2378,
			"1,000,000 orders (team) + 365,000 a year (team) × 6 months = 1,182,500"},
		{"capped by retention", "24", "4 years", 1_460_000, 1_641_040_000, 1.5283,
			"1,000,000 orders (team) + 365,000 a year (team) × 24 months, at most 365,000 a year × 4 years kept (team) = 1,460,000"},
		{"retention below today's count", "24", "90 days", 1_000_000, 1_124_000_000, 1.0468, ""},
		{"today", "", "", 1_000_000, 1_124_000_000, 1.0468, "1,000,000 orders (team)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := designertest.ApplyAll(t, mcpShop(t),
				designer.SetEntityField{Entity: "Order", Field: "count", Value: "1,000,000"},
				designer.SetEntityField{Entity: "Order", Field: "growth", Value: "1,000 per day"},
				designer.SetEntityField{Entity: "Order", Field: "retention", Value: tc.retention},
				designer.SetCapacityField{Field: "horizon_months", Value: tc.horizon})
			r := Compute(d, nil)
			s := r.Resources[0].Storage
			if s.Items != tc.items || s.Bytes != tc.bytes || math.Round(s.GB*1e4)/1e4 != tc.gb || s.AvgItemBytes != 1024 {
				t.Errorf("storage = %v items, %v B, %v GB at %v B, want %v, %v, %v at 1,024 B", s.Items, s.Bytes, s.GB, s.AvgItemBytes, tc.items, tc.bytes, tc.gb)
			}
			if len(s.Sources) != 1 || tc.source != "" && s.Sources[0] != tc.source {
				t.Errorf("sources = %q, want %q", s.Sources, tc.source)
			}
			// The GSI holds every order: it grows with them.
			if g := r.Resources[1].Storage; g.Items != tc.items {
				t.Errorf("GSI entries = %v, want %v", g.Items, tc.items)
			}
		})
	}
}

// An entity with a growth and no count has only what the horizon brings.
func TestStorage_growthWithoutACount(t *testing.T) {
	d := mcpShop(t)
	d.Entities[0].Count = nil
	d = designertest.ApplyAll(t, d,
		designer.SetEntityField{Entity: "Order", Field: "growth", Value: "10,000 per month"},
		designer.SetCapacityField{Field: "horizon_months", Value: "12"})
	s := Compute(d, nil).Resources[0].Storage
	if s.Items != 120_000 || s.ItemsFrom != FromDesign || !strings.HasPrefix(s.Sources[0], "120,000 a year (team) × 12 months") {
		t.Errorf("storage = %v items from %q (%q), want 120,000 from the growth", s.Items, s.ItemsFrom, s.Sources)
	}
	d = designertest.ApplyAll(t, d, designer.SetCapacityField{Field: "horizon_months", Value: "0"})
	if s := Compute(d, nil).Resources[0].Storage; s.Items != 3 || s.ItemsFrom != FromSamples {
		t.Errorf("today: %v items from %q, want the 3 sample items", s.Items, s.ItemsFrom)
	}
}

func TestBytes_readsInTheUnitThatFits(t *testing.T) {
	for _, tc := range []struct {
		b    float64
		want string
	}{
		{0, "0 B"}, {740, "740 B"}, {1023, "1,023 B"}, {1024, "1 KB"}, {12_800, "12.5 KB"},
		{8_192, "8 KB"}, {1_329_130_000, "1.24 GB"}, {1.55e12, "1.41 TB"}, {8.1e-6 * (1 << 30), "8.49 KB"},
	} {
		if got := Bytes(tc.b); got != tc.want {
			t.Errorf("Bytes(%v) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

// A key counted by an imported entity count says the line it was read from.
func TestKeyCardinality_saysWhereTheCountWasRead(t *testing.T) {
	d := mcpShop(t)
	d.Entities = append(d.Entities, designer.Entity{Name: "Customer", Count: designertest.Ptr(int64(40_000)), CountFrom: "read from: Application Overview, line 5"})
	got := TableKeyCardinality(d, d.Tables[0])
	if got.Values != 40_000 || got.Source != "40,000 customers (entity count, read from: Application Overview, line 5)" {
		t.Errorf("cardinality = %+v", got)
	}
}
