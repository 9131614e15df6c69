package format

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/reqmd"
)

func TestRecognise_dataModelFixtures(t *testing.T) {
	t.Parallel()
	for format, want := range map[string]string{"datamodelmd": KindDataModelMD, "freeform": KindFreeformMD} {
		files, err := filepath.Glob(filepath.Join(format, "testdata", "*.md"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s fixtures: %v, %v", format, files, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := Recognise(data); got != want {
				t.Errorf("%s: Recognise = %q, want %q", f, got, want)
			}
		}
	}
}

// TestRecognise_sharedSeeds reads the real data models under /work/shared when they are there.
func TestRecognise_sharedSeeds(t *testing.T) {
	t.Parallel()
	for pattern, want := range map[string]string{"000_*.txt": KindDataModelMD, "002_*.txt": KindDataModelMD, "003_*.txt": KindFreeformMD, "004_*.txt": KindFreeformMD} {
		m, _ := filepath.Glob(filepath.Join("/work/shared/seeds", pattern))
		if len(m) == 0 {
			t.Logf("skipping %s: the shared seeds are not here", pattern)
			continue
		}
		data, err := os.ReadFile(m[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := Recognise(data); got != want {
			t.Errorf("%s: Recognise = %q, want %q", m[0], got, want)
		}
	}
}

// The requirement document and the data model document exported from one design read back as
// that design: requirements from the first, tables and mappings from the second.
func TestImport_dataModelWithTheRequirementDocumentMakesTheDesign(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	files := []File{
		{Name: "dynamodb_data_model.md", Data: datamodelmd.Export(d)},
		{Name: "dynamodb_requirement.md", Data: reqmd.Export(d)},
	}
	back, _, err := Import(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Entities) != len(d.Entities) || len(back.Aggregates) != len(d.Aggregates) {
		t.Errorf("requirements lost: %d entities, %d aggregates", len(back.Entities), len(back.Aggregates))
	}
	for _, p := range d.Patterns {
		bp, _, ok := back.PatternByNumber(p.Number)
		if !ok || bp.Type != p.Type || designertest.RPS(bp.PeakRPS) != designertest.RPS(p.PeakRPS) || bp.Consistency != p.Consistency {
			t.Errorf("pattern %d: %+v", p.Number, bp)
		}
	}
	if !bytes.Equal(datamodelmd.Export(back), files[0].Data) {
		t.Errorf("the merged design exports another data model")
	}
}

// assertPairFixedPoint fails unless the two markdown documents of d, read back together, give a
// design whose two documents are the same bytes, checklists included.
func assertPairFixedPoint(tb testing.TB, d designer.Design) {
	tb.Helper()
	req, model := reqmd.Export(d), datamodelmd.Export(d)
	back, _, err := Import([]File{{Name: "dynamodb_requirement.md", Data: req}, {Name: "dynamodb_data_model.md", Data: model}})
	if err != nil {
		tb.Fatalf("Import refused the two exports: %v", err)
	}
	if again := reqmd.Export(back); !bytes.Equal(req, again) {
		tb.Fatalf("requirement document changed on the round trip:\n%s", designertest.FirstDifference(req, again))
	}
	if again := datamodelmd.Export(back); !bytes.Equal(model, again) {
		tb.Fatalf("data model changed on the round trip:\n%s", designertest.FirstDifference(model, again))
	}
}

// The two documents read together are a fixed point, their checklists included: each checklist is
// the whole design's, and together they hold what every line reads.
func TestExport_twoDocumentsTogetherAreAFixedPoint(t *testing.T) {
	t.Parallel()
	assertPairFixedPoint(t, designertest.HRDesign(t))
	// Sections of their own are written in the document they belong to, and read back once.
	withSections := designertest.HRDesign(t)
	withSections.Prose.Sections = []designer.Section{
		{Title: "Introduction", Body: "Written for the review on Monday."},
		{Title: "Cost Estimates", Body: "About $40 a month."},
		{Title: "Open Questions", Body: "Who owns refunds?", Document: designer.RequirementDocument},
		{Title: "Application Overview", Body: "Kept under the overview.", Document: designer.RequirementDocument},
	}
	assertPairFixedPoint(t, withSections)
	assertPairFixedPoint(t, designer.Normalize(designer.Design{Name: "Empty"}))
	g := designertest.NewRandom(2026, 6)
	for n := range 100 {
		d := g.Design(n)
		t.Run(strconv.Itoa(n), func(t *testing.T) { assertPairFixedPoint(t, d) })
	}
}

func TestRecognise_dataModelDoesNotStealRequirements(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"template-style.md", "wild-single-rps.md", "wild-aggregates.md", "golden.md"} {
		data, err := os.ReadFile(filepath.Join("reqmd", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if got := Recognise(data); got != KindRequirementsMD {
			t.Errorf("%s: Recognise = %q", name, got)
		}
	}
}

func TestImport_requirementsAndDataModelMakeOneDesign(t *testing.T) {
	t.Parallel()
	req, err := os.ReadFile(filepath.Join("reqmd", "testdata", "template-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	model := readFixture(t, "datamodelmd", "template-style.md")
	rd, _, err := reqmd.Import(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]File{
		{{Name: "dynamodb_requirement.md", Data: req}, {Name: "dynamodb_data_model.md", Data: model}},
		{{Name: "dynamodb_data_model.md", Data: model}, {Name: "dynamodb_requirement.md", Data: req}},
	} {
		d, notes, err := Import(order)
		if err != nil {
			t.Fatalf("Import: %v", err)
		}
		if d.Name != rd.Name || len(d.Entities) != len(rd.Entities) || len(d.Tables) != 2 {
			t.Errorf("merged: name %q, %d entities, %d tables", d.Name, len(d.Entities), len(d.Tables))
		}
		for _, rp := range rd.Patterns {
			p, _, ok := d.PatternByNumber(rp.Number)
			if !ok || p.Description != rp.Description {
				t.Errorf("pattern %d lost its requirement: %+v", rp.Number, p)
			}
		}
		if p, _, _ := d.PatternByNumber(2); p.Mapping.Source == "" {
			t.Errorf("pattern 2 has no mapping source: %+v", p)
		}
		if d.Prose.DesignPhilosophy == "" {
			t.Errorf("prose lost")
		}
		if len(notes) > 0 && !strings.HasPrefix(notes[0].Message, "dynamodb_") {
			t.Errorf("notes do not name their file: %v", notes[0])
		}
	}
	_, _, err = Import([]File{{Name: "a.md", Data: model}, {Name: "b.md", Data: model}})
	designertest.WantValidationError(t, err, "file")
}
