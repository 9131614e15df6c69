package format

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/rules"
)

// exportRefusals are designs some export refuses, beyond the table cases every table export shares
// (designertest.TableErrorCases): each names the field the refusal names.
func exportRefusals() []designertest.TableErrorCase {
	k := func(name string, t designer.Type) designer.KeyAttribute {
		return designer.KeyAttribute{Name: name, Type: t}
	}
	return []designertest.TableErrorCase{
		// CloudFormation takes no template without resources; MAP013 warns of patterns and no table
		// (a warning: a design starts without tables, and is not wrong for it).
		{Name: "no tables", Field: "tables", Edit: func(d *designer.Design) { d.Tables = nil }},
		{Name: "partition key name too long", Field: "tables/1/partition_key/name", Edit: func(d *designer.Design) {
			d.Tables[1].PartitionKey.Name = strings.Repeat("k", 256)
		}},
		{Name: "sort key without a name", Field: "tables/0/sort_key/name", Edit: func(d *designer.Design) { d.Tables[0].SortKey.Name = "" }},
		{Name: "GSI sort attribute also in its partition key", Field: "tables/1/gsis/0/sort_key", Edit: func(d *designer.Design) {
			d.Tables[1].GSIs[0].SortKey = d.Tables[1].GSIs[0].PartitionKey
		}},
		{Name: "GSI key listing an attribute twice", Field: "tables/1/gsis/0/partition_key", Edit: func(d *designer.Design) {
			d.Tables[1].GSIs[0].PartitionKey = []designer.KeyAttribute{k("sku", designer.S), k("sku", designer.S)}
		}},
		{Name: "LSI sorted by a table key", Field: "tables/0/lsis/0/sort_key", Edit: func(d *designer.Design) {
			d.Tables[0].LSIs[0].SortKey = []designer.KeyAttribute{*d.Tables[0].SortKey}
		}},
		{Name: "INCLUDE of an attribute name too long", Field: "tables/1/gsis/0/projection/attributes", Edit: func(d *designer.Design) {
			d.Tables[1].GSIs[0].Projection = designer.Projection{Type: designer.Include, Attributes: []string{strings.Repeat("a", 256)}}
		}},
		{Name: "provisioned GSI-bearing table with zero read units", Field: "tables/0/read_capacity_units", Edit: func(d *designer.Design) {
			d.Tables[0].BillingMode, d.Tables[0].ReadUnits = designer.Provisioned, new(int64)
		}},
	}
}

// Every refusal of an export is a validation finding first: a design an export refuses has an
// error-severity finding at the field the refusal names (or the field's table or index), and the
// design it was made from passes every export.
func TestExports_refuseOnlyWhatValidationReports(t *testing.T) {
	t.Parallel()
	base := designertest.OrdersDesign()
	for _, f := range ExportFormats() {
		if _, err := f.Write(base); err != nil {
			t.Fatalf("%s refuses the design every case starts from: %v", f.ID, err)
		}
	}
	cases := append(designertest.TableErrorCases(), exportRefusals()...)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			d := designertest.OrdersDesign()
			tc.Edit(&d)
			refused := 0
			var findings []rules.Finding
			for _, f := range ExportFormats() {
				_, err := f.Write(d)
				if err == nil {
					continue
				}
				var ve *designer.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("%s: %v is not a *ValidationError", f.ID, err)
				}
				refused++
				if findings == nil {
					findings = rules.Validate(d)
				}
				least := rules.SeverityError
				if tc.Name == "no tables" {
					least = rules.SeverityWarning
				}
				if !reportedAt(findings, namePath(d, ve.Field), least) {
					t.Errorf("%s refuses at %s (%s), and validation reports no error at %s:\n%s", f.ID, ve.Field, ve.Message, namePath(d, ve.Field), listFindings(findings))
				}
			}
			if refused == 0 {
				t.Fatalf("no export refuses the case: it tests nothing")
			}
		})
	}
}

// namePath writes an export's field (tables/1/gsis/0/name, by position) as a finding's path is
// written (tables/Orders/indexes/ByStatus/name, by name; items by id).
func namePath(d designer.Design, field string) string {
	parts := strings.Split(field, "/")
	if len(parts) < 2 || parts[0] != "tables" {
		return field
	}
	var i int
	if _, err := fmt.Sscan(parts[1], &i); err != nil || i >= len(d.Tables) {
		return field
	}
	t := d.Tables[i]
	parts[1] = t.Name
	if len(parts) >= 4 {
		var j int
		if _, err := fmt.Sscan(parts[3], &j); err == nil {
			switch parts[2] {
			case "gsis":
				parts[2], parts[3] = "indexes", t.GSIs[j].Name
			case "lsis":
				parts[2], parts[3] = "indexes", t.LSIs[j].Name
			case "items":
				parts[3] = t.Items[j].ID
			}
		}
	}
	return strings.Join(parts, "/")
}

// reportedAt reports whether an error finding (or one of severity least) points at field, at a field inside it, or at the
// table or index holding it.
func reportedAt(findings []rules.Finding, field, least string) bool {
	for _, f := range findings {
		if f.Severity != rules.SeverityError && f.Severity != least {
			continue
		}
		if f.Path == field || strings.HasPrefix(f.Path, field+"/") || strings.HasPrefix(field, f.Path+"/") {
			return true
		}
	}
	return false
}

func listFindings(findings []rules.Finding) string {
	var b strings.Builder
	for _, f := range findings {
		if f.Severity == rules.SeverityError {
			fmt.Fprintf(&b, "  %s %s: %s\n", f.Code, f.Path, f.Message)
		}
	}
	return b.String()
}

// Every operation the MCP model export lists without a command is a finding of its pattern's
// mapping first (an error, or MAP011/MAP014 when the samples cannot complete it): the examples,
// the export tests' design and, when ../shared is there, every seed and fixture.
func TestMCPModel_operationsWithoutACommandAreFindingsFirst(t *testing.T) {
	t.Parallel()
	designs := map[string]designer.Design{"orders": designertest.OrdersDesign()}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs["example "+ex.ID] = d
	}
	if dir := sharedDir(t); dir == "" {
		t.Log("../shared is not beside the repository: only our own designs are checked")
	} else {
		paths, _ := filepath.Glob(filepath.Join(dir, "seeds", "0*.txt"))
		more, _ := filepath.Glob(filepath.Join(dir, "fixtures", "*", "*.*"))
		for _, p := range append(paths, more...) {
			if strings.HasSuffix(p, ".txt") && strings.Contains(p, "fixtures") {
				continue // licence texts
			}
			in := readInputs(t, p)
			d, _, err := Import(in.files)
			if err != nil {
				t.Logf("%s is not read as a design: %v", in.name, err)
				continue
			}
			designs[in.name] = d
		}
	}
	mcp, err := FindExportFormat("mcp-model-json")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for name, d := range designs {
		out, err := mcp.Write(d)
		if err != nil {
			continue // a table refusal: TestExports_refuseOnlyWhatValidationReports
		}
		var m struct {
			AccessPatterns []struct{ Pattern, Reason, Implementation string } `json:"access_patterns"`
		}
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		findings := rules.Validate(d)
		for _, e := range m.AccessPatterns {
			if e.Implementation != "" || !strings.HasPrefix(e.Reason, "Not ") {
				continue
			}
			checked++
			number := strings.TrimRight(e.Pattern, "abcdefghijklmnopqrstuvwxyz")
			if !slices.ContainsFunc(findings, func(f rules.Finding) bool {
				return strings.HasPrefix(f.Path, "access_patterns/"+number+"/mapping") &&
					(f.Severity == rules.SeverityError || f.Code == "MAP011" || f.Code == "MAP014")
			}) {
				t.Errorf("%s: pattern %s has no command (%s), and validation says nothing of its mapping", name, e.Pattern, e.Reason)
			}
		}
	}
	t.Logf("%d operations without a command, each a finding first, in %d designs", checked, len(designs))
}
