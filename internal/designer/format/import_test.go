package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/workbench"
)

// readFixture reads a fixture of one format's package: testdata of the directory named.
func readFixture(tb testing.TB, format, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(format, "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func workbenchFixture(tb testing.TB, name string) (designer.Design, []ImportNote) {
	tb.Helper()
	d, notes, err := workbench.Import(readFixture(tb, "workbench", name))
	if err != nil {
		tb.Fatalf("workbench.Import: %v", err)
	}
	return d, notes
}

func TestImport_workbenchModelsAsTheirReaderReadsThem(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"v1-facets.json", "v2-dynobase.json", "v3-include.json", "no-version.json"} {
		t.Run(file, func(t *testing.T) {
			data := readFixture(t, "workbench", file)
			if got := Recognise(data); got != KindWorkbenchJSON {
				t.Errorf("Recognise = %q, want %q", got, KindWorkbenchJSON)
			}
			want, _ := workbenchFixture(t, file)
			got, _, err := Import([]File{{Name: file, Data: data}})
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			if !bytes.Equal(designertest.MustMarshal(t, got), designertest.MustMarshal(t, want)) {
				t.Errorf("Import gives another design than workbench.Import")
			}
		})
	}
}

func TestRecognise_workbenchModelOrDesignJSON(t *testing.T) {
	t.Parallel()
	imported, _ := workbenchFixture(t, "v3-include.json")
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"Workbench model", readFixture(t, "workbench", "v1-facets.json"), KindWorkbenchJSON},
		{"only DataModel", []byte(`{"DataModel": []}`), KindWorkbenchJSON},
		{"design-json", readFixture(t, "workbench", "library-design.json"), KindDesignJSON},
		{"design-json that came from Workbench", designertest.MustMarshal(t, imported), KindDesignJSON},
		{"format wins over Workbench members", []byte(`{"format": "dynaloom/1", "ModelName": "x"}`), KindDesignJSON},
		{"partial design-json", []byte(`{"name": "Orders"}`), KindDesignJSON},
		{"broken JSON", []byte(`{"ModelName": `), KindDesignJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Recognise(tt.data); got != tt.want {
				t.Errorf("Recognise = %q, want %q", got, tt.want)
			}
		})
	}
}

// A document that talks about DynamoDB but states no table, entity or pattern is refused naming
// the file and why, instead of importing as an empty design that passes validation.
func TestImport_aDocumentWithoutADesignIsRefused(t *testing.T) {
	t.Parallel()
	doc := "# Why we chose DynamoDB\n\nWe will pick a partition key and a sort key later, and maybe a GSI or two.\n"
	if got := Recognise([]byte(doc)); got != KindDataModelMD {
		t.Fatalf("Recognise = %q; the test wants a document read as a data model", got)
	}
	_, _, err := Import([]File{{Name: "decision.md", Data: []byte(doc)}})
	var ve *designer.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `"decision.md" holds no design`) || !strings.Contains(err.Error(), "no table, entity, access pattern or overview") {
		t.Errorf("error = %v", err)
	}
}

func TestImport_freeformDocumentsGoToTheirReader(t *testing.T) {
	t.Parallel()
	d, notes, err := Import([]File{{Name: "layout.md", Data: readFixture(t, "freeform", "layout-bullets.md")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Tables) != 1 || d.Tables[0].Name != "fleet-events" || len(d.Patterns) != 7 || len(notes) == 0 {
		t.Errorf("%d tables, %d patterns, %d notes", len(d.Tables), len(d.Patterns), len(notes))
	}
}

// What a team deployed is read by its content: a CloudFormation template in JSON or YAML, and the
// MCP validator's model, each become a design with its tables, not a refusal as design-json.
func TestImport_deployedModelsByContent(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	for _, id := range []string{"cloudformation-json", "cloudformation-yaml", "mcp-model-json"} {
		f, err := FindExportFormat(id)
		if err != nil {
			t.Fatal(err)
		}
		out, err := f.Write(d)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"mcp-model-json": KindMCPModel}[id]
		if want == "" {
			want = KindCloudFormation
		}
		if got := Recognise(out); got != want {
			t.Errorf("%s: Recognise = %q, want %q", id, got, want)
		}
		back, _, err := Import([]File{{Name: "deployed", Data: out}})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if len(back.Tables) != len(d.Tables) {
			t.Errorf("%s: %d tables read of %d", id, len(back.Tables), len(d.Tables))
		}
	}
}
