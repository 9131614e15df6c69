package datamodelmd

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/rules"
)

// sparseIndexesDesign is a small order book whose indexes are sparse in different ways: an INCLUDE
// GSI only open orders have the key of, a KEYS_ONLY GSI on a multi-attribute key, an ALL GSI, and
// an LSI. Its text holds what a careless writer breaks: pipes, HTML, code spans with <…>.
func sparseIndexesDesign() designer.Design {
	orders := designer.Table{
		Name:              "Orders",
		PartitionKey:      designer.KeyAttribute{Name: "customer_id", Type: designer.S},
		SortKey:           &designer.KeyAttribute{Name: "order_id", Type: designer.S},
		Purpose:           "A customer's orders | newest first",
		AggregateBoundary: "One customer and their orders.",
		PartitionKeyWhy:   "Every read starts from a customer.",
		SortKeyWhy:        "Order ids sort by time: `ORD#<yyyymmdd>#<seq>`.",
		EntityTypes: []designer.EntityType{
			{Entity: "Order", PKTemplate: "CUST#{customer}", SKTemplate: "ORD#{date}#{seq}", Description: "One per order."},
		},
		Attributes: []designer.Attribute{
			{Name: "customer_id", Type: designer.S},
			{Name: "order_id", Type: designer.S},
			{Name: "status", Type: designer.S, Description: "OPEN while unpaid; removed when shipped"},
			{Name: "total", Type: designer.N},
			{Name: "open_since", Type: designer.S},
			{Name: "region", Type: designer.S},
			{Name: "expires_at", Type: designer.N},
		},
		BoundedReads: "Query with Limit 20.",
		Capacity:     "- 200 reads per second\n- 20 writes per second",
		TTLAttribute: "expires_at",
		BillingMode:  designer.Provisioned,
		ReadUnits:    designertest.Ptr[int64](200),
		WriteUnits:   designertest.Ptr[int64](25),
		GSIs: []designer.Index{
			{
				Name:            "OpenOrders",
				PartitionKey:    []designer.KeyAttribute{{Name: "status", Type: designer.S}},
				SortKey:         []designer.KeyAttribute{{Name: "open_since", Type: designer.S}},
				Projection:      designer.Projection{Type: designer.Include, Attributes: []string{"total"}},
				Sparse:          true,
				SparseNote:      "Only open orders carry status.",
				Purpose:         "The back office's list of unpaid orders.",
				PartitionKeyWhy: "One value; read rarely.",
				SortKeyWhy:      "Oldest first.",
				ProjectionWhy:   "The list shows the total.",
				PatternAttributes: []designer.PatternAttributes{
					{Pattern: 2, Attributes: []string{"customer_id", "order_id", "total"}},
				},
				Capacity: "5 RPS",
			},
			{
				Name:            "ByRegion",
				PartitionKey:    []designer.KeyAttribute{{Name: "region", Type: designer.S}, {Name: "status", Type: designer.S}},
				Projection:      designer.Projection{Type: designer.KeysOnly},
				Sparse:          true,
				Purpose:         "Open orders per region",
				PartitionKeyWhy: "Region and status together.",
				ProjectionWhy:   "Keys only; details by GetItem.",
			},
			{
				Name:            "ByTotal",
				PartitionKey:    []designer.KeyAttribute{{Name: "customer_id", Type: designer.S}},
				SortKey:         []designer.KeyAttribute{{Name: "total", Type: designer.N}},
				Projection:      designer.Projection{Type: designer.All},
				PartitionKeyWhy: "Per customer.",
				SortKeyWhy:      "Biggest orders.",
				ProjectionWhy:   "Everything.",
			},
		},
		LSIs: []designer.Index{{
			Name:         "ByRegionLocal",
			PartitionKey: []designer.KeyAttribute{{Name: "customer_id", Type: designer.S}},
			SortKey:      []designer.KeyAttribute{{Name: "region", Type: designer.S}},
			Projection:   designer.Projection{Type: designer.KeysOnly},
		}},
		Items: []designer.SampleItem{
			{Item: designer.Item{"customer_id": designer.Str("C1"), "order_id": designer.Str("ORD#20240105#1"), "status": designer.Str("OPEN"), "total": designer.Num("42.50"), "open_since": designer.Str("2024-01-05"), "region": designer.Str("eu")}},
			{Item: designer.Item{"customer_id": designer.Str("C1"), "order_id": designer.Str("ORD#20240201#2"), "total": designer.Num("10"), "region": designer.Str("eu"), "expires_at": designer.Num("1767225600")}},
			{Item: designer.Item{"customer_id": designer.Str("C2"), "order_id": designer.Str("ORD#20240309#3"), "status": designer.Str("OPEN"), "total": designer.Num("7"), "open_since": designer.Str("2024-03-09")}},
			{Item: designer.Item{"customer_id": designer.Str("C2"), "order_id": designer.Str("ORD#20240310#4"), "total": designer.Num("99"), "region": designer.Str("us"), "note": designer.Str("42")}},
			{Item: designer.Item{"customer_id": designer.Str("C3"), "order_id": designer.Str("ORD#20240311#5"), "status": designer.Str("OPEN"), "total": designer.Num("3"), "open_since": designer.Str("2024-03-11"), "region": designer.Str("us"), "label": designer.Str("gift | wrap")}},
		},
	}
	return designer.Normalize(designer.Design{
		Name:  "Order book <b>",
		Prose: designer.Prose{DesignPhilosophy: "Orders live with their customer.", TradeOffs: "Sparse indexes keep only open orders."},
		Patterns: []designer.Pattern{
			{Number: 1, Description: "A customer's orders", Status: designer.StatusSolved, Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "Query", Table: "Orders", KeyCondition: "customer_id = :c", Limit: intPtr(20), Descending: true, Values: map[string]designer.Value{":c": designer.Str("C1")}},
			}}},
			{Number: 2, Description: "Open orders, oldest first", Status: designer.StatusAtRisk, Mapping: designer.Mapping{Operations: []designer.Operation{
				{Op: "Query", Table: "Orders", Index: "OpenOrders", KeyCondition: "#s = :open", Names: map[string]string{"#s": "status"}, Values: map[string]designer.Value{":open": designer.Str("OPEN")}, Notes: "Page with LastEvaluatedKey; never a Scan."},
			}, Notes: "Back office only."}},
			{Number: 3, Description: "Export for finance", Status: designer.StatusOutside, Mapping: designer.Mapping{Notes: "Point-in-time export to S3."}},
		},
		Tables: []designer.Table{orders},
	})
}

func intPtr(v int) *int { return &v }

func TestExport_golden(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		file   string
		design designer.Design
	}{
		{"hr-employees.golden", designertest.HRDesign(t)},
		{"sparse-indexes.golden", sparseIndexesDesign()},
	} {
		t.Run(tt.file, func(t *testing.T) {
			got := Export(tt.design)
			designertest.Golden(t, filepath.Join("testdata", tt.file), got)
		})
	}
}

func TestExport_followsTheTemplate(t *testing.T) {
	t.Parallel()
	out := string(Export(designertest.HRDesign(t)))
	// The Cost Report block follows the template, as the MCP calculator appends it (its layout is
	// TestExport_costReportInTheCalculatorsLayout's).
	template, _, ok := strings.Cut(out, "\n## Cost Report\n")
	if !ok {
		t.Fatal("no Cost Report after the template")
	}
	var headings []string
	for l := range strings.SplitSeq(template, "\n") {
		if strings.HasPrefix(l, "#") {
			headings = append(headings, l)
		}
	}
	want := []string{
		"# DynamoDB Data Model — HR employees",
		"## Design Philosophy & Approach",
		"## Aggregate Design Decisions",
		"## Table Designs",
		"### Employee Table",
		"### EmployeesByDepartment GSI",
		"### EmployeesByTitle GSI",
		"### SalaryHistory Table",
		"### TitleHistory Table",
		"### Department Table",
		"## Access Pattern Mapping",
		"## Hot Partition Analysis",
		"## Trade-offs and Optimizations",
		"## Validation Results",
	}
	if !slices.Equal(headings, want) {
		t.Fatalf("headings:\n%s\nwant:\n%s", strings.Join(headings, "\n"), strings.Join(want, "\n"))
	}
	_, employee, _ := strings.Cut(out, "### Employee Table\n")
	employee, _, _ = strings.Cut(employee, "### EmployeesByDepartment GSI")
	var labels []string
	for l := range strings.SplitSeq(employee, "\n") {
		if m := regexp.MustCompile(`^- \*\*([^*]+)\*\*:`).FindStringSubmatch(l); m != nil {
			labels = append(labels, m[1])
		}
	}
	wantLabels := []string{"Purpose", "Aggregate Boundary", "Partition Key", "Sort Key", "SK Taxonomy", "Attributes",
		"Bounded Read Strategy", "Access Patterns Served", "Capacity Planning", "Billing Mode"}
	if !slices.Equal(labels, wantLabels) {
		t.Errorf("table bullets = %v, want %v", labels, wantLabels)
	}
	for _, l := range []string{
		"| emp_no | record_key | first_name |",
		"- **Partition Key**: emp_no (N) - The employee number is what every caller has in hand",
		"  - **DepartmentAssignment**: PK `{emp_no}`, SK `DEPT#{from_date}#{assigned_dept_no}` - One per period in a department.",
		"- **Projection**: INCLUDE (first_name, last_name, current_title, current_salary) - Exactly the columns of the member list.",
		"  - **Per-Pattern Projected Attributes**: Pattern #3: emp_no, first_name, last_name, current_title, current_salary",
		"- **Sparse**: Yes - Only PROFILE rows have dept_no.",
		"| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |",
		"| 3 ✅ | List the current members of a department, 50 per page, in employee-number order | EmployeesByDepartment (Employee) | Query on Employee index EmployeesByDepartment: dept_no = :dept; Limit 50; Values: :dept=d005;",
		"| 16 ❌ | Annual pay-equity report across every employee and every salary row |  |  | Export Employee and SalaryHistory to S3",
		"| 10001 | PROFILE | Amara | Okafor |",
	} {
		if !strings.Contains(out, l) {
			t.Errorf("export lacks %q", l)
		}
	}
}

// The index sample holds the index's own view: only the items it holds, only what it projects.
func TestExport_indexSamplesFollowProjectionAndSparseness(t *testing.T) {
	t.Parallel()
	d := sparseIndexesDesign()
	out := string(Export(d))
	// An index's sample table comes just before its heading, as in the template.
	sample := func(heading string) (header string, rows []string) {
		before, _, ok := strings.Cut(out, "\n\n"+heading+"\n")
		if !ok {
			t.Fatalf("no %q", heading)
		}
		lines := strings.Split(before, "\n")
		start := len(lines)
		for start > 0 && strings.HasPrefix(lines[start-1], "|") {
			start--
		}
		if len(lines)-start < 2 {
			t.Fatalf("no sample table before %q", heading)
		}
		return lines[start], lines[start+2:]
	}
	header, rows := sample("### OpenOrders GSI")
	if header != "| status | open_since | customer_id | order_id | total |" || len(rows) != 3 {
		t.Errorf("OpenOrders sample: %s, %d rows", header, len(rows))
	}
	if !slices.Contains(rows, "| OPEN | 2024-01-05 | C1 | ORD#20240105#1 | 42.50 |") {
		t.Errorf("OpenOrders rows = %q", rows)
	}
	header, rows = sample("### ByRegion GSI")
	if header != "| region | status | customer_id | order_id |" || len(rows) != 2 {
		t.Errorf("ByRegion (KEYS_ONLY, two-attribute key) sample: %s, %d rows", header, len(rows))
	}
	header, rows = sample("### ByTotal GSI")
	if !strings.HasPrefix(header, "| customer_id | total | order_id | status |") || len(rows) != 5 {
		t.Errorf("ByTotal (ALL) sample: %s, %d rows", header, len(rows))
	}
	header, rows = sample("### ByRegionLocal LSI")
	if header != "| customer_id | region | order_id |" || len(rows) != 4 {
		t.Errorf("ByRegionLocal sample: %s, %d rows", header, len(rows))
	}
	for _, r := range rows {
		if strings.Contains(strings.ToLower(r), "null") {
			t.Errorf("a cell says null: %s", r)
		}
	}
	// A string in a column of numbers is written so that it stays a string.
	if !strings.Contains(out, `| {"S":"42"} |`) {
		t.Errorf("the text 42 in a column of text is not written as a string value")
	}
}

// The Validation Results are the design's checklist, as the Validation step and the API show it:
// the cross-reference, which reads the requirements this document does not hold, is ticked.
func TestExport_checklistIsTheDesigns(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	var want []string
	for _, it := range rules.Checklist(d).DataModel {
		mark := "- [ ] "
		if it.OK {
			mark = "- [x] "
		}
		want = append(want, mark+it.Item)
	}
	_, list, ok := strings.Cut(string(Export(d)), "## Validation Results\n")
	if !ok {
		t.Fatal("no Validation Results")
	}
	list, _, _ = strings.Cut(list, "\n## Cost Report\n") // the calculator's block follows the template
	if got := strings.Split(strings.TrimSpace(list), "\n"); !slices.Equal(got, want) {
		t.Fatalf("checklist:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Pattern 7 is at risk, so not every pattern is solved; the trade-offs are written.
	if !slices.Contains(want, "- [ ] Every access pattern solved or alternative provided") ||
		!slices.Contains(want, "- [x] Trade-offs explicitly documented and justified") ||
		!slices.Contains(want, "- [x] Cross-referenced against `dynamodb_requirement.md` for accuracy") {
		t.Errorf("checklist = %v", want)
	}
}

func TestExport_isDeterministicAndLeavesItsArgument(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	before := designertest.MustMarshal(t, d)
	if a, b := Export(d), Export(d); !bytes.Equal(a, b) {
		t.Fatal("two exports of one design differ")
	}
	designertest.AssertUnchanged(t, before, d)
}

// assertDataModelFixedPoint fails unless the export of d reads back to a design that exports to
// the same bytes, and returns that design. The Validation Results are left out of the comparison:
// they are the whole design's checklist, and read alone the document brings back no requirements
// (the two documents read together are compared whole in package format).
func assertDataModelFixedPoint(tb testing.TB, d designer.Design) designer.Design {
	tb.Helper()
	first := Export(d)
	back, _, err := Import(first)
	if err != nil {
		tb.Fatalf("Import refused what Export wrote: %v\n%s", err, first)
	}
	if second := Export(back); !bytes.Equal(maskChecklist(tb, first), maskChecklist(tb, second)) {
		tb.Fatalf("export → import → export changed the document:\n%s", designertest.FirstDifference(first, second))
	}
	return back
}

// maskChecklist returns doc with the marks of its Validation Results lines replaced by [?], and
// the lines of its computed capacity blocks (maskComputed) left out.
func maskChecklist(tb testing.TB, doc []byte) []byte {
	tb.Helper()
	head, list, ok := strings.Cut(string(maskComputed(doc)), "\n## Validation Results\n\n")
	if !ok {
		tb.Fatalf("no Validation Results in\n%s", doc)
	}
	lines := strings.SplitAfter(list, "\n")
	for i := range min(len(lines), len(rules.Checklist(designer.Design{}).DataModel)) {
		rest, ok := strings.CutPrefix(lines[i], "- [x] ")
		if !ok {
			rest, ok = strings.CutPrefix(lines[i], "- [ ] ")
		}
		if !ok {
			tb.Fatalf("Validation Results line %d is not a checklist line: %q", i+1, lines[i])
		}
		lines[i] = "- [?] " + rest
	}
	return []byte(head + "\n## Validation Results\n\n" + strings.Join(lines, ""))
}

// maskComputed returns doc without the lines inside its computed capacity blocks (the hot-partition
// lines and the Cost Report), which are worked out again on import from figures the data model
// document alone does not carry (the patterns' RPS are the requirement's), as the checklist is.
func maskComputed(doc []byte) []byte {
	var b bytes.Buffer
	in := false
	for l := range strings.SplitAfterSeq(string(doc), "\n") {
		line := strings.TrimSpace(l)
		switch {
		case line == hotComputedStart || line == costComputedMark:
			in = true
		case in && (line == computedEnd || line == costReportEnd):
			in = false
		case in:
			continue
		}
		b.WriteString(l)
	}
	return b.Bytes()
}

// dataModelCarried is what the document holds of d: the name, every table field (items in key
// order, without ids or generators), and each mapped pattern's number, description, status,
// operations (without expected results) and notes.
func dataModelCarried(tb testing.TB, d designer.Design) string {
	tb.Helper()
	c := designer.Design{Name: d.Name, Capacity: d.Capacity}
	for _, t := range d.Tables {
		t.Attributes = slices.Clone(t.Attributes)
		for i := range t.Attributes {
			t.Attributes[i].Generator = nil
		}
		var items []designer.SampleItem
		for _, r := range designer.TableRows(t) {
			items = append(items, designer.SampleItem{Item: r.Item})
		}
		t.Items = items
		c.Tables = append(c.Tables, t)
	}
	for _, p := range mappedPatterns(d) {
		c.Patterns = append(c.Patterns, designer.Pattern{Number: p.Number, Description: p.Description, Status: p.Status,
			ConditionalFailurePct: p.ConditionalFailurePct, Mapping: designer.Mapping{Operations: withoutExpected(p.Mapping.Operations), Notes: p.Mapping.Notes}})
	}
	return string(designertest.MustMarshal(tb, c))
}

func TestExport_roundTripKeepsTablesItemsAndMappings(t *testing.T) {
	t.Parallel()
	designs := designertest.Examples(t)
	designs["sparse"] = sparseIndexesDesign()
	designs["empty"] = designer.Normalize(designer.Design{Name: "Empty"})
	for name, d := range designs {
		t.Run(name, func(t *testing.T) {
			back := assertDataModelFixedPoint(t, d)
			if want, got := dataModelCarried(t, d), dataModelCarried(t, back); want != got {
				t.Fatalf("import of the export lost something:\n%s", designertest.FirstDifference([]byte(want), []byte(got)))
			}
			if back.Prose.DesignPhilosophy != d.Prose.DesignPhilosophy || back.Prose.TradeOffs != d.Prose.TradeOffs {
				t.Errorf("prose = %+v", back.Prose)
			}
		})
	}
}

// What the app edits of the write-up and the justifications comes back from the document as it
// was typed, markdown lists and tables included, each under its own heading or bullet.
func TestExport_roundTripKeepsTheWriteUpAndJustifications(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d.Prose = designer.Prose{
		DesignPhilosophy:   "Aggregates first.\n\n- read together, stored together\n- one table per aggregate",
		AggregateDecisions: "Employee keeps its current salary.\n\n| entity | with |\n|---|---|\n| Salary | Employee |",
		HotPartitions:      "- **Employee**: 60 RPS over 300,000 ids ✅\n- **ByTitle**: 7 values - **Mitigation**: none needed",
		TradeOffs:          "- **Denormalization**: the department name is copied\n- **Sparse GSIs**: managers only",
	}
	ix := &d.Tables[0].GSIs[0]
	ix.PartitionKeyWhy, ix.SortKeyWhy = "Titles spread | over 7 values.\nSecond line.", "Hire date orders a title's staff."
	d.Tables[0].PartitionKeyWhy = "One partition per employee; identifying: no."
	back := assertDataModelFixedPoint(t, d)
	if back.Prose.DesignPhilosophy != d.Prose.DesignPhilosophy || back.Prose.AggregateDecisions != d.Prose.AggregateDecisions ||
		back.Prose.HotPartitions != d.Prose.HotPartitions || back.Prose.TradeOffs != d.Prose.TradeOffs || len(back.Prose.Sections) != 0 {
		t.Errorf("write-up read back as %+v", back.Prose)
	}
	got := back.Tables[0].GSIs[0]
	if got.PartitionKeyWhy != ix.PartitionKeyWhy || got.SortKeyWhy != ix.SortKeyWhy || back.Tables[0].PartitionKeyWhy != d.Tables[0].PartitionKeyWhy {
		t.Errorf("justifications read back as %q, %q, %q", got.PartitionKeyWhy, got.SortKeyWhy, back.Tables[0].PartitionKeyWhy)
	}
}

// Text chosen to break a careless writer: every line of it must come back as written.
func TestExport_escapesWhatWouldBreakTheDocument(t *testing.T) {
	t.Parallel()
	d := sparseIndexesDesign()
	tbl := &d.Tables[0]
	tbl.Purpose = "a | b\n# not a heading\n- **Sort Key**: not a field\n<script>alert(1)</script> \\ `x|y` `<id>`"
	tbl.Attributes = append(tbl.Attributes, designer.Attribute{Name: "wei(rd), na+me; `x` *y*", Type: designer.SS, Description: "ünï | ☕"})
	tbl.Items[0].Item["wei(rd), na+me; `x` *y*"] = designer.Value{Type: designer.SS, SS: []string{"a|b", "c\\d"}}
	tbl.EntityTypes = append(tbl.EntityTypes, designer.EntityType{Entity: "Odd**Entity", PKTemplate: "`A`", SKTemplate: "B``C <d>", Description: "PK `x` - not a template"})
	d.Patterns[0].Mapping.Operations[0].Filter = "a; b | c\nd"
	d.Patterns[0].Mapping.Operations[0].Notes = "first; second\\third"
	back := assertDataModelFixedPoint(t, d)
	if want, got := dataModelCarried(t, d), dataModelCarried(t, back); want != got {
		t.Fatalf("import of the export lost something:\n%s", designertest.FirstDifference([]byte(want), []byte(got)))
	}
	out := string(Export(d))
	if regexp.MustCompile(`(^|[^\\])<script`).MatchString(out) {
		t.Errorf("an HTML tag from user text reached the document unescaped")
	}
	if !strings.Contains(out, "`<id>`") {
		t.Errorf("a < inside a code span was escaped")
	}
}

// Prose sections are written where they were found and come back under the same titles.
func TestExport_proseSectionsComeBack(t *testing.T) {
	t.Parallel()
	d := sparseIndexesDesign()
	d.Prose.Sections = []designer.Section{
		{Title: introTitle, Body: "Written for the review on Monday.\n# A heading in the introduction"},
		{Title: "Orders Table", Body: "- **TTL**: expires_at, a year after delivery\n| a | b |\n|---|---|\n| 1 | 2 |"},
		{Title: "OpenOrders GSI (Orders Table)", Body: "### Not a section\nBack office notes."},
		{Title: "Cost Estimates", Body: "About $40 a month.\n\n---\n\n## Sub heading\n**Table Name:** ghost"},
		{Title: "Validation Results", Body: "- [ ] not a checklist line\nReviewed by the team."},
		{Title: "Trailing #", Body: "x"},
	}
	back := assertDataModelFixedPoint(t, d)
	for _, s := range d.Prose.Sections {
		if _, ok := designertest.ProseTitled(back, s.Title); !ok {
			t.Errorf("section %q did not come back: %+v", s.Title, back.Prose.Sections)
		}
	}
	if len(back.Tables) != 1 || back.Tables[0].TTLAttribute != "expires_at" || len(back.Tables[0].Items) != len(d.Tables[0].Items) {
		t.Errorf("prose was read as structure: %d tables", len(back.Tables))
	}
}

func TestExport_randomDesignsAreFixedPoints(t *testing.T) {
	t.Parallel()
	g := designertest.NewRandom(2024, 6)
	for n := range 200 {
		d := g.Design(n)
		if err := designer.Check(d); err != nil {
			t.Fatalf("design %d: the generator made a design Check refuses: %v", n, err)
		}
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			back := assertDataModelFixedPoint(t, d)
			if want, got := dataModelCarried(t, d), dataModelCarried(t, back); want != got {
				t.Fatalf("import of the export lost something:\n%s", designertest.FirstDifference([]byte(want), []byte(got)))
			}
		})
	}
}

func TestExport_largeDesignIsAFixedPoint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("large design skipped in -short mode")
	}
	d := designertest.Large(designertest.Size{Tables: 10, Items: 1000, GSIs: 20, Patterns: 200})
	back := assertDataModelFixedPoint(t, d)
	if want, got := dataModelCarried(t, d), dataModelCarried(t, back); want != got {
		t.Fatalf("import of the export lost something:\n%s", designertest.FirstDifference([]byte(want), []byte(got)))
	}
}

// BenchmarkExport exports 10 tables with 20 GSIs and 200 patterns, with 1,000 items in
// all and with 1,000 in each table.
func BenchmarkExport(b *testing.B) {
	for _, perTable := range []int{100, 1000} {
		d := designertest.Large(designertest.Size{Tables: 10, Items: 10 * perTable, GSIs: 20, Patterns: 200})
		b.Run(fmt.Sprintf("%d_items", 10*perTable), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Export(d)
			}
		})
	}
}

func TestExport_operationAction(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	p, pi, _ := d.PatternByID("ap11")
	p.Mapping.Source = ""
	p.Mapping.Operations = slices.Clone(p.Mapping.Operations)
	p.Mapping.Operations[0].Action = designer.ActionConditionCheck
	p.Mapping.Operations[1].Action = ""
	p.Mapping.Operations[4].Action = designer.ActionUpdate
	d.Patterns[pi] = p
	out := Export(d)
	if want := "TransactWriteItems on Employee: emp_no = :emp_no AND record_key = :profile; Action: condition_check; Values: "; !bytes.Contains(out, []byte(want)) {
		t.Fatalf("the export lacks %q", want)
	}
	back := assertDataModelFixedPoint(t, d)
	bp, _, _ := back.PatternByID("ap11")
	var got []string
	for _, op := range bp.Mapping.Operations {
		got = append(got, op.Action)
	}
	if want := []string{designer.ActionConditionCheck, "", designer.ActionPut, designer.ActionPut, designer.ActionUpdate}; !slices.Equal(got, want) {
		t.Fatalf("actions read back as %q, want %q", got, want)
	}
	// An action the operation cannot take is not read as its action; the notes keep it.
	for _, bad := range []string{"upsert", "update"} {
		line := "BatchWriteItem on Employee: emp_no = :e; Action: " + bad
		if ops := operationsOf(line); len(ops) != 1 || ops[0].Action != "" || ops[0].Notes != "Action: "+bad {
			t.Errorf("%q read as %+v", line, ops)
		}
	}
	if ops := operationsOf("BatchWriteItem on Employee: emp_no = :e; Action: delete"); len(ops) != 1 || ops[0].Action != designer.ActionDelete {
		t.Errorf("a batch delete line read as %+v", ops)
	}
}

// Merge with the requirement design gives the design back: its requirements, its tables and
// mappings, and patterns matched by number.
func TestMerge_withTheRequirementDesignMakesTheDesign(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	model, _, err := Import(Export(d))
	if err != nil {
		t.Fatal(err)
	}
	back, _ := Merge(d, model)
	if len(back.Entities) != len(d.Entities) || len(back.Aggregates) != len(d.Aggregates) {
		t.Errorf("requirements lost: %d entities, %d aggregates", len(back.Entities), len(back.Aggregates))
	}
	if want, got := dataModelCarried(t, d), dataModelCarried(t, back); want != got {
		t.Fatalf("tables or mappings differ:\n%s", designertest.FirstDifference([]byte(want), []byte(got)))
	}
	for _, p := range d.Patterns {
		bp, _, ok := back.PatternByNumber(p.Number)
		if !ok || bp.Type != p.Type || designertest.RPS(bp.PeakRPS) != designertest.RPS(p.PeakRPS) || bp.Consistency != p.Consistency {
			t.Errorf("pattern %d: %+v", p.Number, bp)
		}
	}
	if !bytes.Equal(Export(back), Export(d)) {
		t.Errorf("the merged design exports another data model")
	}
}

// A write's condition and update are clauses of its operation line and read back as written,
// semicolons and all.
func TestExport_writeConditionAndUpdateRoundTrip(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	p, pi, _ := d.PatternByID("ap13")
	p.Mapping.Operations = slices.Clone(p.Mapping.Operations)
	op := &p.Mapping.Operations[0]
	op.Condition = "attribute_exists(emp_no) AND #t <> :x"
	op.Update = "SET #t = :x REMOVE title"
	op.Names = map[string]string{"#t": "to_date"}
	op.Values = map[string]designer.Value{":emp_no": designer.Num("10003"), ":previous": designer.Str("1987-03-09"), ":x": designer.Str("2025;03;31")}
	d.Patterns[pi] = p
	out := Export(d)
	if want := "; Condition: attribute_exists(emp_no) AND #t <> :x; Update: SET #t = :x REMOVE title;"; !bytes.Contains(out, []byte(want)) {
		t.Fatalf("the export lacks %q", want)
	}
	back := assertDataModelFixedPoint(t, d)
	bp, _, _ := back.PatternByID("ap13")
	if got := bp.Mapping.Operations[0]; got.Condition != op.Condition || got.Update != op.Update || got.Values[":x"].S != "2025;03;31" {
		t.Fatalf("read back: condition %q, update %q, values %v", got.Condition, got.Update, got.Values)
	}
}
