package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/designer/rules"
)

// writeDesign writes d as design-json into a temporary file and returns its path.
func writeDesign(t *testing.T, d designer.Design, name string) string {
	t.Helper()
	data, err := designer.MarshalJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func exampleDesign(t *testing.T) designer.Design {
	t.Helper()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestValidateExitStatus(t *testing.T) {
	good := writeDesign(t, exampleDesign(t), "hr.json")
	broken := exampleDesign(t)
	op := &broken.Patterns[0].Mapping.Operations[0]
	op.KeyCondition = strings.Replace(op.KeyCondition, "emp_no =", "first_name =", 1)
	bad := writeDesign(t, broken, "broken.json")
	junk := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(junk, []byte("shopping list: eggs, milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	var out, errOut bytes.Buffer
	if code := run([]string{"validate", good}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "0 errors") {
		t.Errorf("good design: exit %d, %q %q", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := run([]string{"validate", bad}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "MAP002") || !strings.Contains(out.String(), "first_name") {
		t.Errorf("broken mapping: exit %d, %q", code, out.String())
	}
	for _, args := range [][]string{{"validate", junk}, {"validate", filepath.Join(t.TempDir(), "missing.md")}, {"validate"}, {"validate", "--format", "xml", good}} {
		errOut.Reset()
		if code := run(args, &out, &errOut); code != 2 || errOut.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
	}
}

// A markdown file from which no design can be read is an input error (exit 2) naming the file and
// why, not an empty design with "0 errors".
func TestValidateRefusesAFileWithoutADesign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "adr.md")
	doc := "# ADR 9: DynamoDB\n\nWe will choose the partition key, the sort key and any GSI next sprint.\n"
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", path}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "adr.md") ||
		!strings.Contains(errOut.String(), "holds no design") || strings.Contains(out.String(), "0 errors") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// The JSON the CLI prints is the API's /validation object without the revision.
func TestValidateJSONIsTheReport(t *testing.T) {
	d := exampleDesign(t)
	op := &d.Patterns[0].Mapping.Operations[0]
	op.KeyCondition = strings.Replace(op.KeyCondition, "emp_no =", "first_name =", 1)
	path := writeDesign(t, d, "broken.json")
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", "--format", "json", path}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got rules.Report
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	imported, _, err := format.Import([]format.File{{Name: path, Data: mustRead(t, path)}})
	if err != nil {
		t.Fatal(err)
	}
	if want := rules.BuildReport(imported); !reflect.DeepEqual(got, want) {
		t.Errorf("printed %+v\nwant %+v", got, want)
	}
	if len(got.Findings) == 0 || got.Findings[0].Code != "MAP002" || got.Findings[0].Path == "" {
		t.Errorf("findings: %+v", got.Findings)
	}
}

func TestExportEveryFormat(t *testing.T) {
	path := writeDesign(t, exampleDesign(t), "hr.json")
	for _, f := range format.ExportFormats() {
		var out, errOut bytes.Buffer
		if code := run([]string{"export", "--to", f.ID, path}, &out, &errOut); code != 0 {
			t.Errorf("%s: exit %d: %s", f.ID, code, errOut.String())
			continue
		}
		want, err := f.Write(exampleDesign(t))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("%s: the CLI wrote %d bytes, the format writes %d", f.ID, out.Len(), len(want))
		}
		// What the format leaves out is said on stderr, a line each, and only then.
		for _, l := range f.LeftOutOf(exampleDesign(t)) {
			if !strings.Contains(errOut.String(), "  - "+l+"\n") {
				t.Errorf("%s: stderr does not say it leaves out %q:\n%s", f.ID, l, errOut.String())
			}
		}
		if len(f.LeftOutOf(exampleDesign(t))) == 0 && errOut.Len() > 0 {
			t.Errorf("%s: stderr says %q of an export that leaves nothing out", f.ID, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"export", "--to", "yaml", path}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `"yaml"`) || out.Len() != 0 {
		t.Errorf("unknown format: exit %d, %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"export", path}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--to") {
		t.Errorf("no --to: exit %d, %q", code, errOut.String())
	}
}

// The two markdown documents exported by the CLI read back, together, as the same documents.
func TestExportRequirementsReadsBack(t *testing.T) {
	path := writeDesign(t, exampleDesign(t), "hr.json")
	dir := t.TempDir()
	var paths []string
	for _, f := range []struct{ format, name string }{{"requirements-md", "dynamodb_requirement.md"}, {"data-model-md", "dynamodb_data_model.md"}} {
		var md, errOut bytes.Buffer
		if code := run([]string{"export", "--to", f.format, path}, &md, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, md.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for i, format := range []string{"requirements-md", "data-model-md"} {
		want, err := os.ReadFile(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		var again, errOut bytes.Buffer
		if code := run(append([]string{"export", "--to", format}, paths...), &again, &errOut); code != 0 || !bytes.Equal(again.Bytes(), want) {
			t.Errorf("%s: exit %d; second export differs (%d vs %d bytes)", format, code, again.Len(), len(want))
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// --diagrams mermaid adds one Mermaid block to each markdown document, which reads back as the
// document without it; asked of another format or with another value, it is refused naming the flag.
func TestExportWithMermaidDiagrams(t *testing.T) {
	path := writeDesign(t, exampleDesign(t), "hr.json")
	dir := t.TempDir()
	var paths []string
	for _, f := range []struct{ format, name, kind string }{
		{"requirements-md", "dynamodb_requirement.md", "erDiagram"}, {"data-model-md", "dynamodb_data_model.md", "flowchart LR"},
	} {
		var md, errOut bytes.Buffer
		if code := run([]string{"export", "--to", f.format, "--diagrams", "mermaid", path}, &md, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", f.format, code, errOut.String())
		}
		if strings.Count(md.String(), "```mermaid\n"+f.kind+"\n") != 1 {
			t.Errorf("%s: no %s block:\n%.600s", f.format, f.kind, md.String())
		}
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, md.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, format := range []string{"requirements-md", "data-model-md"} {
		var fromDiagrams, plain, errOut bytes.Buffer
		if code := run(append([]string{"export", "--to", format}, paths...), &fromDiagrams, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut.String())
		}
		run([]string{"export", "--to", format, path}, &plain, &errOut)
		if !bytes.Equal(fromDiagrams.Bytes(), plain.Bytes()) {
			t.Errorf("%s read back from the files with diagrams differs from the plain export", format)
		}
	}
	for _, args := range [][]string{{"--to", "workbench-json", "--diagrams", "mermaid"}, {"--to", "data-model-md", "--diagrams", "dot"}} {
		var out, errOut bytes.Buffer
		if code := run(append(append([]string{"export"}, args...), path), &out, &errOut); code != 2 || out.Len() != 0 ||
			!strings.Contains(errOut.String(), "--diagrams:") {
			t.Errorf("%v: exit %d, %q", args, code, errOut.String())
		}
	}
}
