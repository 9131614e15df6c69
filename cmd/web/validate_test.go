package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vetPair is the repo's vet clinic pair; pattern 2's row is line 16 of its requirement, and
// table Invoices' heading line 121 of its data model (checked by hand).
func vetPair(t *testing.T) (req, model string) {
	t.Helper()
	dir := filepath.Join("..", "..", "internal", "designer", "format", "testdata", "pairs")
	return filepath.Join(dir, "vetclinic-dynamodb_requirement.md"), filepath.Join(dir, "vetclinic-dynamodb_data_model.md")
}

// SARIF for code scanning: flags after the files, each finding with its rule, level, file and line.
func TestValidate_sarifPointsEachFindingAtItsFileAndLine(t *testing.T) {
	req, model := vetPair(t)
	var out, errOut bytes.Buffer
	code := run([]string{"validate", req, model, "--format", "sarif"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d (the pair has warnings, no errors): %s", code, errOut.String())
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine int }
					}
				}
				Properties map[string]string
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "dynaloom" {
		t.Fatalf("not one SARIF 2.1.0 run of dynaloom: %+v", log)
	}
	at := map[string]string{}
	for _, r := range log.Runs[0].Results {
		if len(r.Locations) == 1 && r.Locations[0].PhysicalLocation.Region != nil {
			l := r.Locations[0].PhysicalLocation
			at[r.RuleID+" "+r.Properties["path"]] = filepath.Base(l.ArtifactLocation.URI) + ":" + itoa(l.Region.StartLine) + " " + r.Level
		}
	}
	for finding, want := range map[string]string{
		"REQ004 access_patterns/2/latency_slo": "vetclinic-dynamodb_requirement.md:16 warning",
		"MOD013 tables/Invoices":               "vetclinic-dynamodb_data_model.md:121 warning",
		"MOD012 tables/Invoices/partition_key": "vetclinic-dynamodb_data_model.md:121 note",
	} {
		if at[finding] != want {
			t.Errorf("%s is at %q, want %q", finding, at[finding], want)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Workflow annotations name the file and line, and --fail-on sets what fails the run.
func TestValidate_githubAnnotationsAndFailOn(t *testing.T) {
	req, model := vetPair(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", "--format", "github", "--fail-on", "warning", req, model}, &out, &errOut); code != 1 {
		t.Errorf("--fail-on warning on a design with warnings: exit %d, want 1", code)
	}
	want := "::warning file=" + req + ",line=16,title=REQ004 access_patterns/2/latency_slo::Pattern 2 "
	if !strings.Contains(out.String(), want) {
		t.Errorf("no annotation %q in:\n%s", want, out.String())
	}
	out.Reset()
	if code := run([]string{"validate", req, model}, &out, &errOut); code != 0 {
		t.Errorf("the default --fail-on error on a design without errors: exit %d", code)
	}
	errOut.Reset()
	if code := run([]string{"validate", "--fail-on", "often", req}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--fail-on") {
		t.Errorf("a bad --fail-on: exit %d, %q", code, errOut.String())
	}
}

// A directory is walked, one design per folder, beside files that are no design; "-" reads one
// design from standard input.
func TestValidate_directoriesAndStandardInput(t *testing.T) {
	req, model := vetPair(t)
	root := t.TempDir()
	for src, dst := range map[string]string{req: "vet/dynamodb_requirement.md", model: "vet/dynamodb_data_model.md"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(root, dst), data)
	}
	hr, err := os.ReadFile(writeDesign(t, exampleDesign(t), "hr.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "hr", "design.json"), hr)
	writeFile(t, filepath.Join(root, "hr", "README.md"), []byte("# HR\n\nWhat this folder is.\n"))
	writeFile(t, filepath.Join(root, "hr", "package.json"), []byte(`{"name": "hr", "version": "1.0.0"}`))
	writeFile(t, filepath.Join(root, "node_modules", "x", "design.json"), []byte(`{"name": "x", "tables": [{}]}`))

	var out, errOut bytes.Buffer
	if code := run([]string{"validate", root}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var heads []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "errors, ") && strings.Contains(l, "advice") {
			heads = append(heads, l)
		}
	}
	if len(heads) != 2 || !strings.Contains(heads[0], "dynamodb_data_model.md + ") && !strings.Contains(heads[1], "dynamodb_data_model.md + ") {
		t.Errorf("want two designs, the vet pair and hr/design.json; got %q", heads)
	}

	stdin = bytes.NewReader(hr)
	defer func() { stdin = os.Stdin }()
	out.Reset()
	if code := run([]string{"validate", "-", "--format", "json"}, &out, &errOut); code != 0 {
		t.Fatalf("stdin: exit %d: %s", code, errOut.String())
	}
	var report struct{ Findings []map[string]any }
	if err := json.Unmarshal(out.Bytes(), &report); err != nil || report.Findings == nil {
		t.Errorf("stdin's report is not one report: %v\n%s", err, out.String())
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
