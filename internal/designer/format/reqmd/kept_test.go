package reqmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
)

// An RPS written with a minus sign is not read as its number without the sign: the pattern has
// no rate, REQ001 says so, and the cell's text stays in its design considerations with a note
// naming its line.
func TestImport_negativeRPSIsKeptNotRepaired(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "kept-negative-rps.md"))
	if err != nil {
		t.Fatal(err)
	}
	d, notes, err := Import(data)
	if err != nil {
		t.Fatal(err)
	}
	p, _, ok := d.PatternByNumber(1)
	if !ok || p.PeakRPS != nil || p.AvgRPS != nil || !strings.Contains(p.Considerations, "-5 RPS") {
		t.Fatalf("pattern 1: peak %v, avg %v, considerations %q; want no rate and the cell kept", p.PeakRPS, p.AvgRPS, p.Considerations)
	}
	if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool { return n.Line == 11 && strings.Contains(n.Message, `"-5 RPS"`) }) {
		t.Errorf("no note names line 11: %+v", notes)
	}
	if !slices.ContainsFunc(rules.Validate(d), func(f rules.Finding) bool { return f.Code == "REQ001" && f.Path == "access_patterns/1/peak_rps" }) {
		t.Errorf("REQ001 does not fire on pattern 1: %+v", rules.Validate(d))
	}
	again, _, err := Import(Export(d))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := Export(again), Export(d); string(a) != string(b) {
		t.Errorf("export → import → export changed the document")
	}
}
