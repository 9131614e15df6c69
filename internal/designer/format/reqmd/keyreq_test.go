package reqmd

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
)

// Every spelling of a Key Requirements cell seen in documents, and what it splits into.
func TestKeyRequirements_splitsEverySpelling(t *testing.T) {
	t.Parallel()
	type kr = keyRequirements
	tests := []struct {
		cell string
		want kr
	}{
		{"<50ms, eventual, ≤40 items, 1KB", kr{latency: "<50ms", consistency: designer.Eventual, result: "≤40 items", size: "1KB"}},
		{"p99 < 20 ms, strongly consistent, at most 40, ~1 KB", kr{latency: "p99 < 20 ms", consistency: designer.Strong, result: "at most 40", size: "~1 KB"}},
		{"<10 ms; strong consistency; single item; 2-4 KB", kr{latency: "<10 ms", consistency: designer.Strong, result: "single item", size: "2-4 KB"}},
		{"1KB, ≤40 items, eventual, <50ms", kr{latency: "<50ms", consistency: designer.Eventual, result: "≤40 items", size: "1KB"}},
		{"single-digit ms latency", kr{latency: "single-digit ms"}},
		{"sub-10ms p99", kr{latency: "sub-10ms p99"}},
		{"200 ms", kr{latency: "200 ms"}},
		{"< 1 second", kr{latency: "< 1 second"}},
		{"up to 1,000 items", kr{result: "up to 1,000 items"}},
		{"at most 40 pets per owner", kr{result: "at most 40 pets per owner"}},
		{"1 item", kr{result: "1 item"}},
		{"top 10", kr{result: "top 10"}},
		{"50 per page", kr{result: "50 per page"}},
		{"unbounded", kr{result: "unbounded"}},
		{"1KB items", kr{size: "1KB items"}},
		{"item size ~400 B", kr{size: "~400 B"}},
		{"< 1 KB", kr{size: "< 1 KB"}},
		{"eventually consistent reads", kr{consistency: designer.Eventual}},
		// Labelled parts take their whole value, as Export writes them.
		{"Latency <50ms, p99; Result 5, sometimes 6", kr{latency: "<50ms, p99", result: "5, sometimes 6"}},
		{"Consistency: strong", kr{consistency: designer.Strong}},
		// What is not one of the four stays as written.
		{"ACID compliance", kr{notes: "ACID compliance"}},
		{"Point lookup, hot partition risk", kr{notes: "Point lookup, hot partition risk"}},
		{"<50ms latency, high frequency", kr{latency: "<50ms", notes: "high frequency"}},
		{"40", kr{notes: "40"}},
		{"2 GSIs needed", kr{notes: "2 GSIs needed"}},
		{"50ms of 1KB", kr{notes: "50ms of 1KB"}},
		{"low latency", kr{notes: "low latency"}},
		// A second value for a field is a note, not a replacement.
		{"<50ms, <20ms", kr{latency: "<50ms", notes: "<20ms"}},
		{"strong; eventual", kr{consistency: designer.Strong, notes: "eventual"}},
	}
	for _, tt := range tests {
		var got kr
		got.parse(tt.cell)
		if got != tt.want {
			t.Errorf("%q → %+v, want %+v", tt.cell, got, tt.want)
		}
	}
}

// A cell that states all four parts gives a pattern REQ004 has nothing to say about; the cell is
// written back in one spelling, which reads back the same.
func TestImport_keyRequirementsSplitAndJoinedBack(t *testing.T) {
	t.Parallel()
	doc := "# DynamoDB Modeling Session\n\n## Access Patterns Analysis\n" +
		"| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |\n" +
		"|---|---|---|---|---|---|---|---|\n" +
		"| 1 | Get a pet | 500 peak / 100 avg RPS | Read | pet_id | <50ms, eventual, ≤40 items, 1KB | | ✅ |\n" +
		"| 2 | List pets | 50 peak / 10 avg RPS | Read | owner_id | p99 < 20 ms, strongly consistent, at most 40, ~1 KB, ACID compliance | | ⏳ |\n" +
		"| 3 | Add a pet | 5 peak / 1 avg RPS | Write | pet_id | <50ms | | ⏳ |\n"
	d, notes, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := d.Patterns[0], d.Patterns[1]
	if p1.LatencySLO != "<50ms" || p1.Consistency != designer.Eventual || p1.ResultBound != "≤40 items" || p1.SizeBand != "1KB" || p1.KeyNotes != "" {
		t.Errorf("pattern 1 = %+v", p1)
	}
	if p2.LatencySLO != "p99 < 20 ms" || p2.Consistency != designer.Strong || p2.ResultBound != "at most 40" || p2.SizeBand != "~1 KB" || p2.KeyNotes != "ACID compliance" {
		t.Errorf("pattern 2 = %+v", p2)
	}
	for _, n := range notes {
		if strings.Contains(n.Message, "pattern 1:") {
			t.Errorf("pattern 1 was read whole, yet: %v", n)
		}
	}
	if !hasNoteAt(notes, 7, `"ACID compliance"`) {
		t.Errorf("no note on line 7 says what was kept: %v", notes)
	}
	flagged := ""
	for _, f := range rules.Validate(d) {
		switch {
		case f.Code != "REQ004":
		case strings.HasPrefix(f.Path, "access_patterns/3/"):
			flagged = f.Message
		default:
			t.Errorf("patterns 1 and 2 state all four key requirements, yet: %s", f.Message)
		}
	}
	if !strings.Contains(flagged, "no consistency, expected result bound or item size band") {
		t.Errorf("pattern 3 states only its latency; REQ004 said %q", flagged)
	}
	out := string(Export(d))
	for _, row := range []string{
		"| Latency <50ms; Eventual consistency; Result ≤40 items; Item size 1KB |",
		"| Latency p99 < 20 ms; Strong consistency; Result at most 40; Item size ~1 KB; ACID compliance |",
	} {
		if !strings.Contains(out, row) {
			t.Errorf("export lacks %s", row)
		}
	}
	assertFixedPoint(t, d)
}

func hasNoteAt(notes []designer.ImportNote, line int, text string) bool {
	for _, n := range notes {
		if n.Line == line && strings.Contains(n.Message, text) {
			return true
		}
	}
	return false
}
