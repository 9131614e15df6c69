package format

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/format/reqmd"
)

// Exported with Mermaid diagrams, the pair reads back as the same design as without them, with no
// note about the diagrams, and writes again exactly the files without them: the importers skip the
// blocks, so the diagrams never become prose. For every example and for random designs.
func TestExportWithDiagrams_readsBackAsWithout(t *testing.T) {
	t.Parallel()
	var designs []designer.Design
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs = append(designs, d)
	}
	g := designertest.NewRandom(16, 4)
	for i := range 60 {
		designs = append(designs, g.FullDesign(i))
	}
	for i, d := range designs {
		with := []File{
			{Name: "dynamodb_requirement.md", Data: reqmd.ExportWith(d, markdown.ExportOptions{Mermaid: true})},
			{Name: "dynamodb_data_model.md", Data: datamodelmd.ExportWith(d, markdown.ExportOptions{Mermaid: true})},
		}
		for _, f := range with {
			if n := bytes.Count(f.Data, []byte("```mermaid")); n != 1 {
				t.Fatalf("design %d: %s holds %d Mermaid blocks, want 1", i, f.Name, n)
			}
		}
		fromWith, notes, err := Import(with)
		if err != nil {
			t.Fatalf("design %d: the pair with diagrams does not import: %v", i, err)
		}
		for _, n := range notes {
			if strings.Contains(n.Message, "comment") || strings.Contains(n.Message, "mermaid") {
				t.Errorf("design %d: a note about the diagrams: %+v", i, n)
			}
		}
		fromWithout, _, err := Import(exportPair(d))
		if err != nil {
			t.Fatalf("design %d: the pair does not import: %v", i, err)
		}
		if want, got := carried(t, fromWithout), carried(t, fromWith); !bytes.Equal(want, got) {
			t.Fatalf("design %d: with diagrams it reads back otherwise:\n%s", i, designertest.FirstDifference(want, got))
		}
		again := exportPair(fromWith)
		for k, f := range exportPair(fromWithout) {
			if !bytes.Equal(f.Data, again[k].Data) {
				t.Fatalf("design %d: %s differs after a cycle with diagrams:\n%s", i, f.Name, designertest.FirstDifference(f.Data, again[k].Data))
			}
		}
	}
}

func TestExportOptions(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "none", " Mermaid "} {
		if _, err := ParseOptions(s); err != nil {
			t.Errorf("ParseOptions(%q): %v", s, err)
		}
	}
	_, err := ParseOptions("graphviz")
	if err == nil || !strings.HasPrefix(err.Error(), "diagrams: ") || !strings.Contains(err.Error(), "mermaid") {
		t.Errorf("ParseOptions(graphviz) = %v, want an error naming the field and the choice", err)
	}
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Diagrams: "mermaid"}
	for _, f := range ExportFormats() {
		out, err := f.WriteWith(d, time.Time{}, time.Time{}, o)
		if f.Markdown {
			if err != nil || !bytes.Contains(out, []byte("\n"+markdown.DiagramMarker+"\n```mermaid\n")) {
				t.Errorf("%s with diagrams: err %v, marked Mermaid block %v", f.ID, err, err == nil)
			}
			plain, _ := f.WriteWith(d, time.Time{}, time.Time{}, Options{})
			if bytes.Contains(plain, []byte("mermaid")) {
				t.Errorf("%s without options carries a diagram", f.ID)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), "diagrams: ") {
			t.Errorf("%s with diagrams: err %v, want one naming the field", f.ID, err)
		}
	}
}
