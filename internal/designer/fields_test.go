package designer

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseRPS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    float64
		wantNil bool
		wantErr string
	}{
		{in: "500", want: 500},
		{in: "1,200", want: 1200},
		{in: "12,345,678.5", want: 12345678.5},
		{in: "0.5", want: 0.5},
		{in: "500 RPS", want: 500},
		{in: "500rps", want: 500},
		{in: " 40 req/s ", want: 40},
		{in: "1e3", want: 1000},
		{in: "0", want: 0},
		{in: "", wantNil: true},
		{in: "   ", wantNil: true},
		{in: "fast", wantErr: `"fast" is not a number of requests per second`},
		{in: "RPS", wantErr: "is not a number"},
		{in: "-5", wantErr: "negative"},
		{in: "0,5", wantErr: "is not a number"},
		{in: "1,20", wantErr: "is not a number"},
		{in: "1234,567", wantErr: "is not a number"},
		{in: "0x10", wantErr: "is not a number"},
		{in: "Inf", wantErr: "is not a number"},
		{in: "NaN", wantErr: "is not a number"},
		{in: "1e400", wantErr: "is not a number"},
		{in: "1e308", wantErr: "is not a number of requests per second from 0 to 1,000,000,000,000,000"},
		{in: "1.2k", wantErr: "is not a number"},
	}
	for _, tt := range tests {
		got, err := ParseRPS(tt.in)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseRPS(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("ParseRPS(%q): %v", tt.in, err)
		case tt.wantNil:
			if got != nil {
				t.Errorf("ParseRPS(%q) = %v, want nil", tt.in, *got)
			}
		case got == nil || *got != tt.want:
			t.Errorf("ParseRPS(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseTriState(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	for in, want := range map[string]*bool{
		"yes": &yes, "Yes": &yes, "Y": &yes, "true": &yes, "✅": &yes, " TRUE ": &yes,
		"no": &no, "No": &no, "n": &no, "false": &no, "❌": &no,
		"": nil, " ": nil, "-": nil, "unknown": nil, "?": nil,
	} {
		got, err := ParseTriState(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseTriState(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseTriState("maybe"); err == nil || !strings.Contains(err.Error(), `"maybe"`) {
		t.Errorf("ParseTriState(maybe) error = %v", err)
	}
}

func TestParseEnumerations(t *testing.T) {
	t.Parallel()
	type parser func(string) (string, error)
	tests := []struct {
		name  string
		parse parser
		ok    map[string]string
		bad   []string
	}{
		{"pattern type", ParsePatternType, map[string]string{
			"read": Read, "Read": Read, "R": Read, "r": Read, "write": Write, "Write": Write, "W": Write,
			"None": "", "": "", " ": "",
		}, []string{"query", "rw", "Read/Write"}},
		{"status", ParseStatus, map[string]string{
			"solved": StatusSolved, "✅": StatusSolved, "✅ Solved": StatusSolved, "open": StatusOpen, "⏳": StatusOpen,
			"Outside": StatusOutside, "❌": StatusOutside, "at_risk": StatusAtRisk, "At risk": StatusAtRisk,
			"at-risk": StatusAtRisk, "⚠️": StatusAtRisk, "⚠": StatusAtRisk,
		}, []string{"", "finished", "✔"}},
		{"consistency", ParseConsistency, map[string]string{
			"strong": Strong, "Strong": Strong, "strongly consistent": Strong, "Strongly Consistent": Strong,
			"eventual": Eventual, "eventually consistent": Eventual, "Eventually-consistent": Eventual, "": "",
		}, []string{"linearizable", "weak"}},
		{"relationship kind", ParseRelationshipKind, map[string]string{
			"1:1": OneToOne, "one-to-one": OneToOne, "1:M": OneToMany, "1:Many": OneToMany, "1:N": OneToMany,
			"one-to-many": OneToMany, "One to many": OneToMany, "1-n": OneToMany, "M:M": ManyToMany, "M:N": ManyToMany,
			"many-to-many": ManyToMany, "N:M": ManyToMany, "": "",
		}, []string{"M:1", "many-to-one", "1:2", "some"}},
		{"aggregate decision", ParseAggregateDecision, map[string]string{
			"Single Item Aggregate": SingleItem, "single_item": SingleItem, "Item Collection": ItemCollection,
			"item collection aggregate": ItemCollection, "Separate Tables": SeparateTables, "separate_tables": SeparateTables,
			"": "",
		}, []string{"one table", "merge"}},
		{"consolidation decision", ParseConsolidationDecision, map[string]string{
			"consolidate": Consolidate, "Consolidated": Consolidate, "separate": Separate, "Keep separate": Separate, "": "",
		}, []string{"maybe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for in, want := range tt.ok {
				if got, err := tt.parse(in); err != nil || got != want {
					t.Errorf("parse(%q) = %q, %v; want %q", in, got, err, want)
				}
			}
			for _, in := range tt.bad {
				got, err := tt.parse(in)
				if err == nil {
					t.Errorf("parse(%q) = %q, want an error", in, got)
				} else if !strings.Contains(err.Error(), "use ") && !strings.Contains(err.Error(), "swap") {
					t.Errorf("parse(%q) error %q does not say what to use", in, err)
				}
			}
		})
	}
}

func TestParseRelationshipKind_manyToOneSaysToSwap(t *testing.T) {
	t.Parallel()
	_, err := ParseRelationshipKind("M:1")
	if err == nil || !strings.Contains(err.Error(), "swap from and to") {
		t.Errorf("error = %v", err)
	}
}

func TestParsePercentAndCounts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"45": 45, "45%": 45, " 12.5 % ": 12.5, "0": 0, "100": 100} {
		if got, err := ParsePercent(in); err != nil || *got != want {
			t.Errorf("parsePercent(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"101", "-1", "half", "%"} {
		if _, err := ParsePercent(in); err == nil {
			t.Errorf("parsePercent(%q) accepted", in)
		}
	}
	if got, err := ParsePercent(""); got != nil || err != nil {
		t.Errorf("parsePercent(\"\") = %v, %v", got, err)
	}
	if got, err := parseCount("1,200"); err != nil || *got != 1200 {
		t.Errorf("parseCount(1,200) = %v, %v", got, err)
	}
	for _, in := range []string{"2.5", "-1", "many"} {
		if _, err := parseCount(in); err == nil {
			t.Errorf("parseCount(%q) accepted", in)
		}
	}
	if got, err := ParseKB("1.7 KB"); err != nil || *got != 1.7 {
		t.Errorf("parseKB(1.7 KB) = %v, %v", got, err)
	}
	for in, want := range map[string]int{"4": 4, "#12": 12, " 7 ": 7} {
		if got, err := parsePatternNumber(in); err != nil || got != want {
			t.Errorf("parsePatternNumber(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"0", "-2", "4.5", "", "four"} {
		if _, err := parsePatternNumber(in); err == nil {
			t.Errorf("parsePatternNumber(%q) accepted", in)
		}
	}
}

func TestParseType(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Type{"": S, "s": S, "N": N, "string": S, "Number": N, "bool": BOOL, "string set": SS, "ns": NS} {
		if got, err := ParseType(in); err != nil || got != want {
			t.Errorf("parseType(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseType("DATE"); err == nil {
		t.Errorf("parseType(DATE) accepted")
	}
}

func TestSplitList(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"a, b ,c":       {"a", "b", "c"},
		" , a,,b, ":     {"a", "b"},
		"a, a, b":       {"a", "b"},
		"":              nil,
		"first_name":    {"first_name"},
		"x,  y  z , w ": {"x", "y  z", "w"},
	}
	for in, want := range tests {
		if got := splitList(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitList(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseRPS(f *testing.F) {
	for _, s := range []string{"500", "1,200", "0.5", "500 RPS", "", "fast", "-1", "1e400", "0,5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseRPS(s)
		if err == nil && v != nil && !(*v >= 0) {
			t.Fatalf("ParseRPS(%q) = %v", s, *v)
		}
		if err == nil && v != nil {
			if err := nonNegFloat("peak_rps", v); err != nil {
				t.Fatalf("ParseRPS(%q) gave a value Check refuses: %v", s, *v)
			}
		}
	})
}

func TestCountWord(t *testing.T) {
	for _, c := range []struct {
		word, next string
		want       float64
		ok         bool
	}{
		{"62,000", "", 62000, true},
		{"62,000,", "in", 62000, true},
		{"+50", "items", 50, true},
		{"-", "", 0, false},
		{"- 20", "", 0, false}, // one word at a time: the dash is a word of its own
		{"10k", "", 10000, true},
		{"2m", "", 2e6, true},
		{"2mb", "", 0, false},
		{"2.8", "million", 2.8e6, true},
		{"3", "billion.", 3e9, true},
		{"12", "thousand", 12000, true},
		{"0,5", "", 0, false}, // a comma only groups thousands
		{"items", "", 0, false},
		{"", "", 0, false},
	} {
		var rest []string
		if c.next != "" {
			rest = []string{c.next}
		}
		got, ok := CountWord(c.word, rest)
		if got != c.want || ok != c.ok {
			t.Errorf("CountWord(%q, %q) = %v, %v; want %v, %v", c.word, rest, got, ok, c.want, c.ok)
		}
	}
}
