package datamodelmd

import (
	"bytes"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// ourCostReport is a cost report in the MCP calculator's current layout (reference/awslabs-dynamodb-mcp.md
// §2.3), in our own words and numbers: its headings name tables and a GSI as the design's own
// sections do, which the import must not take for them.
const ourCostReport = `## Cost Report

> **Disclaimer:** Requests and storage only; Standard table class, us-east-1 on-demand prices of January 2026.

**Total Monthly Cost: $41.21**

| Source | Monthly Cost |
|--------|-------------:|
| Storage | $0.03 |
| Read and write requests | $41.18 |

### Storage Costs

**Monthly Cost:** $0.03

| Resource | Type | Storage (GB) | Monthly Cost |
|----------|------|-------------:|-------------:|
| Employee | Table | 0.09 | $0.02 |
| EmployeesByDepartment | GSI | 0.03 | $0.01 |

### Read and Write Request Costs

**Monthly Cost:** $41.18

| Resource | Type | Monthly Cost |
|----------|------|-------------:|
| Employee | Table | $37.06 |
| EmployeesByDepartment | GSI | $4.12 |

#### Employee Table

**Monthly Cost:** $37.06

| Pattern | Operation | RPS | RRU / WRU | Monthly Cost |
|---------|-----------|----:|----------:|-------------:|
| 1 | GetItem | 100.0 | 0.50 | $16.47 |
| 13 | PutItem | 12.5 | 1.00 | $20.59 |

#### Employee Table / EmployeesByDepartment GSI

**Monthly Cost:** $4.12

| Pattern | Operation | RPS | RRU / WRU | Monthly Cost |
|---------|-----------|----:|----------:|-------------:|
| 13¹ | PutItem | 2.5 | 1.00 | $4.12 |

¹ **GSI additional writes** - A write to the table also writes each GSI whose key the item holds.

<!-- end-cost-report -->`

func hrModel(t *testing.T) (designer.Design, string) {
	t.Helper()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	return d, string(Export(d))
}

func TestCostReport_keptAsWrittenAndWrittenBackAtTheEnd(t *testing.T) {
	t.Parallel()
	d, doc := hrModel(t)
	// The calculator appends its report; a team may have moved it up, before the Hot Partition
	// Analysis. Both places read the same.
	for name, file := range map[string]string{
		"appended": doc + "\n" + ourCostReport + "\n",
		"moved up": strings.Replace(doc, "## Hot Partition Analysis", ourCostReport+"\n\n## Hot Partition Analysis", 1),
	} {
		t.Run(name, func(t *testing.T) {
			got, notes, err := Import([]byte(file))
			if err != nil {
				t.Fatal(err)
			}
			if got.Prose.CostReport != ourCostReport {
				t.Fatalf("cost report kept as\n%s\nwant\n%s", got.Prose.CostReport, ourCostReport)
			}
			if len(got.Tables) != len(d.Tables) || len(got.Prose.Sections) != len(d.Prose.Sections) {
				t.Fatalf("%d tables and %d sections, want %d and %d: the report was read as the design's", len(got.Tables), len(got.Prose.Sections), len(d.Tables), len(d.Prose.Sections))
			}
			if got.Prose.HotPartitions != d.Prose.HotPartitions {
				t.Fatalf("hot partition analysis %q, want %q", got.Prose.HotPartitions, d.Prose.HotPartitions)
			}
			said := false
			for _, n := range notes {
				said = said || strings.Contains(n.Message, "Cost Report") && n.Line == 1+strings.Count(file[:strings.Index(file, "## Cost Report")], "\n")
			}
			if !said {
				t.Fatalf("no note says where the Cost Report was: %v", notes)
			}
			out := Export(got)
			if !bytes.HasSuffix(out, []byte("\n\n"+ourCostReport+"\n")) {
				t.Fatalf("the export does not end with the report:\n%s", out[max(0, len(out)-400):])
			}
			if bytes.Count(out, []byte("## Cost Report")) != 1 {
				t.Fatal("the report is written more than once")
			}
			again, _, err := Import(out)
			if err != nil {
				t.Fatal(err)
			}
			if twice := Export(again); !bytes.Equal(twice, out) {
				t.Fatalf("export → import → export is not a fixed point:\n%s", twice)
			}
		})
	}
}

func TestCostReport_withoutItsEndMarkerEndsAtTheNextSection(t *testing.T) {
	t.Parallel()
	d, doc := hrModel(t)
	open := strings.TrimSuffix(ourCostReport, "\n\n"+costReportEnd)
	file := strings.Replace(doc, "## Hot Partition Analysis", open+"\n\n## Hot Partition Analysis", 1)
	got, _, err := Import([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if got.Prose.CostReport != open || got.Prose.HotPartitions != d.Prose.HotPartitions {
		t.Fatalf("report %q, hot partitions %q", got.Prose.CostReport, got.Prose.HotPartitions)
	}
	if out := Export(got); !bytes.HasSuffix(out, []byte(open+"\n"+costReportEnd+"\n")) {
		t.Fatalf("the export does not close the report with its marker:\n%s", out[max(0, len(out)-300):])
	}
}

func TestCostReport_inACodeFenceIsNotOne(t *testing.T) {
	t.Parallel()
	_, doc := hrModel(t)
	fenced := "```markdown\n" + ourCostReport + "\n```"
	file := strings.Replace(doc, "## Hot Partition Analysis", "## Hot Partition Analysis\n\n"+fenced+"\n", 1)
	got, _, err := Import([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if got.Prose.CostReport != "" || !strings.Contains(got.Prose.HotPartitions, "## Cost Report") {
		t.Fatalf("report %q; hot partitions %q", got.Prose.CostReport, got.Prose.HotPartitions)
	}
}

// A section of a design's own text titled like the Cost Report would read back as the cost report:
// the export writes it as the cost report when the design has none, and under a title of its own
// when it has one; either way the document is a fixed point. And "# Cost Report" at level 1 is the
// cost report, not a section written back at level 2 (FuzzImport found this).
func TestExport_aSectionTitledCostReport(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: "cost report", Body: "Our own notes on cost."})
	back := assertDataModelFixedPoint(t, d)
	if !strings.Contains(back.Prose.CostReport, "Our own notes on cost.") || len(back.Prose.Sections) != len(designertest.HRDesign(t).Prose.Sections) {
		t.Errorf("the section did not come back as the cost report: %q, %+v", back.Prose.CostReport, back.Prose.Sections)
	}

	d.Prose.CostReport = "## Cost Report\n\nFrom the calculator."
	back = assertDataModelFixedPoint(t, d)
	if !strings.Contains(back.Prose.CostReport, "From the calculator.") {
		t.Errorf("the cost report is %q", back.Prose.CostReport)
	}
	if s, ok := designertest.ProseTitled(back, "cost report (notes)"); !ok || s.Body != "Our own notes on cost." {
		t.Errorf("the section beside a cost report did not come back under a title of its own: %+v", back.Prose.Sections)
	}

	for _, doc := range []string{"# ACCess PAttern MApping\n# Cost Report", "# Access Pattern Mapping\n\nCost Report\n===========\n\nAbout $40 a month."} {
		d, _, err := Import([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if d.Prose.CostReport == "" {
			t.Errorf("%q: no cost report read", doc)
		}
		assertDataModelFixedPoint(t, d)
	}
}
