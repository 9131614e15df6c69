package reqmd

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/rules"
)

func f64(v float64) *float64 { return &v }
func i64(v int64) *int64     { return &v }
func yesNo(v bool) *bool     { return &v }

// richRequirementsDesign fills every field the requirement document holds, with text chosen to
// break a careless writer: pipes, newlines, HTML, backslashes, unicode, and values that look like
// the document's own separators. Its prose sections are in document order.
func richRequirementsDesign() designer.Design {
	return designer.Normalize(designer.Design{
		Name: `Bücher & Co | <script>alert(1)</script> ☕ \ backslash`,
		Overview: designer.Overview{
			Domain:          "Books | magazines\nsecond line with <script>x</script> and \\ a backslash",
			KeyEntities:     "Order (1:M) Line Item, User*Star",
			BusinessContext: "Line 1\n\nLine 3 after a blank line; literal <br> stays text",
			Scale:           "1,000 RPS — 東京 at peak",
			Notes:           "- first note\n- second note with | pipe",
		},
		Entities: []designer.Entity{
			{
				Name:        "Order",
				Description: "Holds | pipes\nand lines",
				Attributes: []designer.Attribute{
					{Name: "order_id", Type: designer.S, Description: "Like ORD#1 (S); never reused"},
					{Name: "weird (S) name", Type: designer.N},
					{Name: "lines", Type: designer.L, Description: "<b>bold</b>: yes"},
				},
				AcceptedGaps: []string{designer.GapNoRead},
			},
			{Name: "User*Star", Attributes: []designer.Attribute{}},
			{Name: "Line Item", Description: "ünïcödé", Attributes: []designer.Attribute{{Name: "qty", Type: designer.N}}},
		},
		Relationships: []designer.Relationship{
			{From: "Order", To: "Line Item", Kind: designer.OneToMany, Avg: f64(5), Max: i64(1000), Notes: "x | y\nz"},
			{From: "User*Star", To: "Order", Notes: "1:M looks like a kind (avg 3)"},
			{From: "Order", To: "Order", Kind: designer.ManyToMany},
			{From: "Line Item", To: "Order", Avg: f64(1.6), AvgUnit: "per *year*", Max: i64(4), MaxUnit: "orders | week"},
		},
		Patterns: []designer.Pattern{
			{
				Number: 1, Description: "Get <b>order</b> | by id\nsecond line", Type: designer.Read,
				PeakRPS: f64(500), AvgRPS: f64(120.5), Attributes: []string{"order_id", "a,b", "ünï"},
				LatencySLO: "<10 ms; p99", Consistency: designer.Strong, ResultBound: "1 item", SizeBand: "<1 KB",
				KeyNotes:       "Latency of the cache is separate; see ADR-4",
				Considerations: "Use GetItem\nEntities: fake", Status: designer.StatusSolved,
				Entities: []string{"Order", "User*Star"},
			},
			{
				Number: 2, Description: "List | everything", AvgRPS: f64(7),
				KeyNotes: "plain; notes", Considerations: "ends with\nEntities: Not really", Status: designer.StatusOutside,
			},
			{
				Number: 10, Description: "Write a line", Type: designer.Write, PeakRPS: f64(0.001),
				Consistency: designer.Eventual, KeyNotes: "Notes: a prefix of its own", Status: designer.StatusAtRisk,
				Entities: []string{"Line Item"},
			},
			{Number: 11, Status: designer.StatusOpen},
		},
		Aggregates: []designer.AggregateAnalysis{
			{
				EntityA: "Order", EntityB: "Line Item",
				CorrelationPct: f64(45.5), OnlyAPct: f64(30), OnlyBPct: f64(24.5), BothPct: f64(45.5),
				Size: "about 17 KB; grows with lines", CombinedKB: f64(17.25), Bounded: yesNo(false),
				Updates: "- hourly for lines\n- daily for orders",
				Identifying: designer.IdentifyingCheck{
					ChildIndependent: yesNo(false), ParentIDKnown: yesNo(true), SeparateTablePlanned: yesNo(true),
				},
				Decision: designer.ItemCollection, Justification: "because | reasons <script>",
			},
			{
				EntityA: "Order", EntityB: "Order", OnlyBPct: f64(10),
				Size:        "Combined max size 3 KB",
				Identifying: designer.IdentifyingCheck{SeparateTablePlanned: yesNo(false)},
				Decision:    designer.SingleItem,
			},
		},
		Consolidations: []designer.ConsolidationReview{
			{
				Parent: "Order", Child: "Line Item", Relationship: "1:M", OverlapPct: f64(55),
				Bounded: yesNo(true), Identifying: yesNo(false), Decision: designer.Consolidate,
				Justification: "why\nliteral <br> and a | pipe",
			},
			{Parent: "A|B", Child: "C", Relationship: "1:M (bounded)", Decision: designer.Separate},
			{},
		},
		Considerations: designer.Considerations{
			HotPartitions:      "Launch day | one key",
			GSIProjections:     "KEYS_ONLY\nthen INCLUDE",
			SparseGSIs:         "- open orders\n- late orders",
			ItemCollections:    "Order with lines",
			MultiEntityQueries: "Account page",
			Denormalization:    "Copy the title \\ onto lines",
		},
		Prose: designer.Prose{Sections: []designer.Section{
			{Title: "", Body: "An introduction kept before the first section.\n\n- a loose bullet", Document: designer.RequirementDocument},
			{Title: titleOverview, Body: "Extra overview text.", Document: designer.RequirementDocument},
			{Title: "Order + Line Item Item Collection Analysis", Body: "#### Reviewer remarks\nCheck the sizes.", Document: designer.RequirementDocument},
			{Title: titleConsiderations, Body: "- **Cost Optimization**: on-demand", Document: designer.RequirementDocument},
			{Title: "Open Questions", Body: "Who owns refunds?", Document: designer.RequirementDocument},
			{Title: "Empty section", Body: "", Document: designer.RequirementDocument},
			{Title: titleChecklist, Body: "Reviewed by the team.", Document: designer.RequirementDocument},
		}},
	})
}

// requirementsView is d without what the requirement document does not hold (tables, mappings,
// the data model's prose), which is what reading it back can give.
func requirementsView(d designer.Design) designer.Design {
	d.Tables = nil
	d.Prose = designer.Prose{Sections: d.Prose.Sections}
	d.Comments = nil
	d.Patterns = slices.Clone(d.Patterns)
	for i := range d.Patterns {
		d.Patterns[i].Mapping = designer.Mapping{}
	}
	return d
}

// requirementJSON is the design-json of what the requirement document holds.
func requirementJSON(tb testing.TB, d designer.Design) []byte {
	tb.Helper()
	return designertest.MustMarshal(tb, requirementsView(designer.Normalize(d)))
}

func TestExport_roundTripIsByteIdentical(t *testing.T) {
	t.Parallel()
	designs := designertest.Examples(t)
	designs["rich"] = richRequirementsDesign()
	designs["empty"] = designer.Normalize(designer.Design{Name: "Empty"})
	for name, d := range designs {
		t.Run(name, func(t *testing.T) {
			first := Export(d)
			back, _, err := Import(first)
			if err != nil {
				t.Fatalf("Import of an export: %v\n%s", err, first)
			}
			second := Export(back)
			if !bytes.Equal(maskChecklist(t, first), maskChecklist(t, second)) {
				t.Fatalf("export → import → export changed the document:\n%s", designertest.FirstDifference(first, second))
			}
			if want, got := requirementJSON(t, d), requirementJSON(t, back); !bytes.Equal(want, got) {
				t.Fatalf("import of the export is not the design:\n%s", designertest.FirstDifference(want, got))
			}
		})
	}
}

func TestExport_golden(t *testing.T) {
	t.Parallel()
	got := Export(richRequirementsDesign())
	designertest.Golden(t, "testdata/golden.md", got)
}

func TestExport_followsTheTemplate(t *testing.T) {
	t.Parallel()
	out := string(Export(designertest.HRDesign(t)))
	var headings []string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(l, "#") {
			headings = append(headings, l)
		}
	}
	want := []string{
		"# DynamoDB Modeling Session — HR employees",
		"## Application Overview",
		"## Access Patterns Analysis",
		"## Entity Relationships Deep Dive",
		"## Enhanced Aggregate Analysis",
		"### Employee + SalaryRecord Item Collection Analysis",
		"### Employee + TitleRecord Item Collection Analysis",
		"### Employee + DepartmentAssignment Item Collection Analysis",
		"### Department + DepartmentManager Item Collection Analysis",
		"### Identifying Relationship Check",
		"## Table Consolidation Analysis",
		"### Consolidation Decision Framework",
		"### Consolidation Candidates Review",
		"### Consolidation Rules",
		"## Design Considerations (Scratchpad - Subject to Change)",
		"## Validation Checklist",
		"## Appendix: Entities and Their Attributes",
	}
	if !slices.Equal(headings, want) {
		t.Fatalf("headings:\n%s\nwant:\n%s", strings.Join(headings, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range []string{
		"| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |",
		"| Parent | Child | Relationship | Access Overlap | Consolidation Decision | Justification |",
		"| 1 | Open an employee's profile from the intranet directory | 30 peak / 12 avg RPS | Read |",
		"- **Department → Employee**: 1:Many (avg 33000, max 62000) — Current members only;",
		"- **Employee**: A person employed now or in the past",
		"  - emp_no (N): Employee number issued by payroll; never reused.",
		"| Employee | SalaryRecord | 1:M (bounded, identifying) | 15% | ❌ Separate |",
		"- **Identifying Relationship**: Child independent: No; Parent ID always known: Yes; Separate table + GSI planned: Yes",
	} {
		if !strings.Contains(out, l) {
			t.Errorf("export lacks %q", l)
		}
	}
}

func TestExport_cellsCannotBreakTheTable(t *testing.T) {
	t.Parallel()
	d := richRequirementsDesign()
	out := string(Export(d))
	if regexp.MustCompile(`(^|[^\\])<(script|b>)`).MatchString(out) {
		t.Errorf("an HTML tag from user text reached the document unescaped")
	}
	rows := 0
	for l := range strings.SplitSeq(out, "\n") {
		if !strings.HasPrefix(l, "| ") {
			continue
		}
		cells := markdown.SplitRow(l)
		if len(cells) != 8 && len(cells) != 6 {
			t.Errorf("row has %d cells: %s", len(cells), l)
		}
		rows++
	}
	if want := 2 + len(d.Patterns) + len(d.Consolidations); rows != want {
		t.Errorf("%d table rows, want %d", rows, want)
	}
}

func TestExport_keyRequirementsAndRPS(t *testing.T) {
	t.Parallel()
	out := string(Export(richRequirementsDesign()))
	for _, want := range []string{
		`| 500 peak / 120.5 avg RPS | Read | order_id, a\,b, ünï | Latency <10 ms\; p99; Strong consistency; Result 1 item; Item size <1 KB; Notes: Latency of the cache is separate; see ADR-4 | Use GetItem<br>Entities: fake<br>Entities: Order, User*Star | ✅ |`,
		`| 7 avg RPS | None |  | plain; notes | ends with<br>Entities: Not really<br>Entities: | ❌ |`,
		`| 0.001 RPS | Write |  | Eventual consistency; Notes: Notes: a prefix of its own | Entities: Line Item | ⚠️ |`,
		`| 11 |  |  | None |  |  |  | ⏳ |`,
		`- **User\*Star → Order**: — 1:M looks like a kind (avg 3)`,
		`- **Line Item → Order**: (avg 1.6 per *year*, max 4 orders \| week)`,
		`- **Size Constraints**: — Combined max size 3 KB`,
		`| A\|B | C | 1:M (bounded) () |  | ❌ Separate |  |`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %q", want)
		}
	}
}

// The Validation Checklist is the design's, as the Validation step and the API show it: the
// identifying-relationship check, which reads the tables this document does not hold, is ticked.
func TestExport_checklistIsTheDesigns(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	var want []string
	for _, it := range rules.Checklist(d).Requirements {
		mark := "- [ ] "
		if it.OK {
			mark = "- [x] "
		}
		want = append(want, mark+it.Item)
	}
	out := string(Export(d))
	_, list, ok := strings.Cut(out, "## Validation Checklist\n")
	if !ok {
		t.Fatal("no Validation Checklist")
	}
	list, _, _ = strings.Cut(list, "\n## ")
	if got := strings.Split(strings.TrimSpace(list), "\n"); !slices.Equal(got, want) {
		t.Fatalf("checklist:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Contains(want, "- [x] Identifying relationships checked for consolidation opportunities") {
		t.Errorf("checklist = %v", want)
	}
}

// maskChecklist returns doc with the marks of its Validation Checklist lines replaced by [?]: they
// are the whole design's checklist, and read alone the document brings back no tables (the two
// documents read together are compared whole in package format).
func maskChecklist(tb testing.TB, doc []byte) []byte {
	tb.Helper()
	head, list, ok := strings.Cut(string(doc), "\n## Validation Checklist\n")
	if !ok {
		tb.Fatalf("no Validation Checklist in\n%s", doc)
	}
	lines := strings.SplitAfter(list, "\n")
	for i := range min(len(lines), len(rules.Checklist(designer.Design{}).Requirements)) {
		rest, ok := strings.CutPrefix(lines[i], "- [x] ")
		if !ok {
			rest, ok = strings.CutPrefix(lines[i], "- [ ] ")
		}
		if !ok {
			tb.Fatalf("Validation Checklist line %d is not a checklist line: %q", i+1, lines[i])
		}
		lines[i] = "- [?] " + rest
	}
	return []byte(head + "\n## Validation Checklist\n" + strings.Join(lines, ""))
}

func TestExport_isDeterministicAndLeavesItsArgument(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	before := designertest.MustMarshal(t, d)
	a, b := Export(d), Export(d)
	if !bytes.Equal(a, b) {
		t.Fatal("two exports of one design differ")
	}
	designertest.AssertUnchanged(t, before, d)
}

// largeRequirementsDesign has n patterns over ten entities.
func largeRequirementsDesign(n int) designer.Design {
	d := richRequirementsDesign()
	d.Patterns = nil
	for i := range n {
		d.Patterns = append(d.Patterns, designer.Pattern{
			Number: i + 1, Description: "Pattern | number " + strings.Repeat("x", i%20), Type: []string{designer.Read, designer.Write}[i%2],
			PeakRPS: f64(float64(i) * 1.5), AvgRPS: f64(float64(i)), Attributes: []string{"pk", "sk", "payload"},
			LatencySLO: "<20 ms", Consistency: designer.Eventual, ResultBound: "1 item", SizeBand: "<1 KB",
			Considerations: "GetItem on the main table", Status: designer.StatusSolved, Entities: []string{"Order"},
		})
	}
	return designer.Normalize(d)
}

func BenchmarkExport_200Patterns(b *testing.B) {
	d := largeRequirementsDesign(200)
	b.ReportAllocs()
	for b.Loop() {
		Export(d)
	}
}

// Prose written by people or other importers may hold headings, open code fences, or belong to an
// aggregate analysis since deleted; none of it may turn into structure when read back.
func TestExport_proseCannotBreakTheDocument(t *testing.T) {
	t.Parallel()
	d := richRequirementsDesign()
	d.Aggregates = d.Aggregates[1:]
	d.Prose.Sections = append(d.Prose.Sections,
		designer.Section{Title: "Loose", Body: "## Sub\n# Top\n## Access patterns\n| Pattern # | Description |\n```\n## in an open fence", Document: designer.RequirementDocument},
		designer.Section{Title: "", Body: "# Before\n## Application Overview", Document: designer.RequirementDocument},
	)
	assertFixedPoint(t, d)
	back, _, err := Import(Export(d))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Aggregates) != 1 || len(back.Patterns) != len(d.Patterns) || back.Overview != d.Overview {
		t.Fatalf("prose was read as structure: %d aggregates, %d patterns, overview %+v", len(back.Aggregates), len(back.Patterns), back.Overview)
	}
	if _, ok := designertest.ProseTitled(back, "Order + Line Item Item Collection Analysis (kept)"); !ok {
		t.Errorf("prose of the deleted aggregate analysis was not kept under a title of its own")
	}
}

// For random designs, design-json is lossless: reading the export gives the design back, and
// the markdown requirement document is a fixed point of export and import.
func TestRandomDesigns_designJSONRoundTripsAndRequirementsAreFixedPoints(t *testing.T) {
	t.Parallel()
	g := designertest.NewRandom(7, 11)
	for n := range 200 {
		d := designer.Normalize(g.Design(n))
		data, err := designer.MarshalJSON(d)
		if err != nil {
			t.Fatalf("design %d: %v", n, err)
		}
		back, err := designer.ParseJSON(data)
		if err != nil {
			t.Fatalf("design %d: ParseJSON of the export: %v", n, err)
		}
		again, err := designer.MarshalJSON(back)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, again) {
			t.Fatalf("design %d: design-json is not lossless:\n%s", n, designertest.FirstDifference(data, again))
		}
		req := Export(d)
		read, _, err := Import(req)
		if err != nil {
			t.Fatalf("design %d: import of the requirement export: %v", n, err)
		}
		if twice := Export(read); !bytes.Equal(maskChecklist(t, req), maskChecklist(t, twice)) {
			t.Fatalf("design %d: requirements-md is not a fixed point:\n%s", n, designertest.FirstDifference(req, twice))
		}
	}
}

// The Deep Dive is the template's: one line per relationship in its words, counts with their units
// and full precision, and no entity lines; entities the relationships name and nothing more need no
// appendix, and others are listed in it, after the checklist, and read back from it.
func TestExport_relationshipsInTheTemplatesWords(t *testing.T) {
	t.Parallel()
	in := "# DynamoDB Modeling Session\n\n## Entity Relationships Deep Dive\n" +
		"- **Owner → Pets**: 1:Many (avg 1.6 pets per owner, max 12)\n" +
		"- **Pet → Visits**: 1:Many (avg 4 visits per year, max 50)\n" +
		"- **Clinic → Vets**: Many:Many\n"
	d, _, err := Import([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Export(d))
	_, deepDive, _ := strings.Cut(out, "## Entity Relationships Deep Dive\n")
	deepDive, _, _ = strings.Cut(deepDive, "\n## ")
	// "Pets" is the entity Pet, which the next line names.
	if want := "- **Owner → Pet**: 1:Many (avg 1.6 pets per owner, max 12)\n- **Pet → Visits**: 1:Many (avg 4 visits per year, max 50)\n- **Clinic → Vets**: Many:Many\n"; deepDive != want {
		t.Errorf("Deep Dive:\n%s\nwant:\n%s", deepDive, want)
	}
	if strings.Contains(out, "** entity") || strings.Contains(out, titleEntities) {
		t.Errorf("entities named only by relationships were listed:\n%s", out)
	}

	d.Entities[1].Attributes = []designer.Attribute{{Name: "species", Type: designer.S, Description: "cat, dog, horse"}}
	out = string(Export(d))
	_, appendix, ok := strings.Cut(out, "\n## "+titleEntities+"\n")
	if !ok || !strings.Contains(appendix, "- **Pet**:\n  - species (S): cat, dog, horse\n") {
		t.Fatalf("no appendix with the attribute:\n%s", out)
	}
	back, _, err := Import([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if want, got := requirementJSON(t, d), requirementJSON(t, back); !bytes.Equal(want, got) {
		t.Fatalf("entities did not read back from the appendix:\n%s", designertest.FirstDifference(want, got))
	}
}
