package reqmd

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/markdown"
)

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestImport_fixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file  string
		check func(t *testing.T, d designer.Design, notes []designer.ImportNote)
	}{
		{"template-style.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if d.Name != "Online bookshop" {
				t.Errorf("name %q, want the domain for the template's generic title", d.Name)
			}
			if d.Overview.Scale != "20,000 customers, 300 requests/second at peak" {
				t.Errorf("scale %q", d.Overview.Scale)
			}
			p1 := designertest.Pattern(t, d, 1)
			if designertest.RPS(p1.PeakRPS) != "200" || p1.AvgRPS != nil || p1.Type != designer.Read || p1.Status != designer.StatusSolved ||
				p1.LatencySLO != "<50ms" || p1.Considerations != "Simple PK lookup on main table" || len(p1.Attributes) != 3 {
				t.Errorf("pattern 1 = %+v", p1)
			}
			if p2 := designertest.Pattern(t, d, 2); p2.Status != designer.StatusOpen || p2.KeyNotes != "ACID compliance" || p2.Type != designer.Write {
				t.Errorf("pattern 2 = %+v", p2)
			}
			p3 := designertest.Pattern(t, d, 3)
			if designertest.RPS(p3.PeakRPS) != "80" || designertest.RPS(p3.AvgRPS) != "30" || p3.Consistency != designer.Eventual ||
				p3.ResultBound != "20 items per page" || p3.SizeBand != "<2 KB" || strings.Join(p3.Entities, ",") != "Customer,Order" {
				t.Errorf("pattern 3 = %+v", p3)
			}
			r := d.Relationships[0]
			if r.From != "Customer" || r.To != "Order" || r.Kind != designer.OneToMany || *r.Avg != 5 || *r.Max != 1000 {
				t.Errorf("relationship = %+v", r)
			}
			a := d.Aggregates[0]
			if *a.CorrelationPct != 45 || *a.OnlyAPct != 55 || *a.OnlyBPct != 20 || *a.BothPct != 45 || *a.CombinedKB != 17 ||
				!*a.Bounded || *a.Identifying.ChildIndependent || !*a.Identifying.ParentIDKnown || a.Decision != designer.ItemCollection {
				t.Errorf("aggregate = %+v", a)
			}
			if c := d.Consolidations[1]; c.Decision != designer.Separate || *c.OverlapPct != 90 || c.Relationship != "1:Many" {
				t.Errorf("consolidation = %+v", c)
			}
			if d.Considerations.Denormalization != "Copy the title onto order lines" {
				t.Errorf("considerations = %+v", d.Considerations)
			}
			if len(d.Prose.Sections) != 0 {
				t.Errorf("template guidance kept as prose: %+v", d.Prose.Sections)
			}
			if !designertest.HasNote(notes, "Validation Checklist") {
				t.Errorf("no note says the checklist was not read: %v", notes)
			}
		}},
		{"wild-single-rps.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if len(d.Patterns) != 4 {
				t.Fatalf("%d patterns", len(d.Patterns))
			}
			wantStatus := map[int]string{1: designer.StatusAtRisk, 2: designer.StatusOutside, 3: designer.StatusSolved, 4: designer.StatusSolved}
			for n, s := range wantStatus {
				if got := designertest.Pattern(t, d, n).Status; got != s {
					t.Errorf("pattern %d status %q, want %q", n, got, s)
				}
			}
			if p := designertest.Pattern(t, d, 1); designertest.RPS(p.PeakRPS) != "1500" || p.AvgRPS != nil {
				t.Errorf("pattern 1 RPS %s/%s, want a single value read as peak", designertest.RPS(p.PeakRPS), designertest.RPS(p.AvgRPS))
			}
			if p := designertest.Pattern(t, d, 3); p.Type != "" || !designertest.HasNote(notes, "pattern 3 has type None") {
				t.Errorf("type None: type %q, notes %v", p.Type, notes)
			}
			if r := d.Relationships[1]; r.Kind != "" || r.Notes != "Self-referencing series (a festival holds shows)" {
				t.Errorf("kind-less relationship = %+v", r)
			}
			if r := d.Relationships[0]; *r.Avg != 30 || r.Max != nil {
				t.Errorf("avg from the wild's words: %+v", r)
			}
			if d.Considerations.Denormalization != "- Copy the venue name onto events\n- Copy the event date onto tickets" {
				t.Errorf("denormalization %q", d.Considerations.Denormalization)
			}
			extra, ok := designertest.ProseTitled(d, titleConsiderations)
			if !ok || !strings.Contains(extra.Body, "**Alternative Solutions**") || !strings.Contains(extra.Body, "**Cost Optimization**") {
				t.Errorf("extra considerations not kept: %+v", extra)
			}
			if s, ok := designertest.ProseTitled(d, "Open Questions"); !ok || s.Body != "Do refunds need a pattern of their own?" {
				t.Errorf("extra section not kept: %+v", d.Prose.Sections)
			}
		}},
		{"wild-columns.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if d.Name != "Rental fleet" {
				t.Errorf("name %q, want the document's own title", d.Name)
			}
			if d.Overview.Domain != "Car rental across three cities" {
				t.Errorf("domain under a level-3 heading: %q", d.Overview.Domain)
			}
			numbers := []int{}
			for _, p := range d.Patterns {
				numbers = append(numbers, p.Number)
			}
			if len(numbers) != 4 || numbers[0] != 1 || numbers[1] != 2 || numbers[2] != 7 || numbers[3] != 8 {
				t.Errorf("numbers %v, want 1 2 7 and 8 for the unnumbered row", numbers)
			}
			p2 := designertest.Pattern(t, d, 2)
			if p2.Description != "Cars free in a city for dates" || designertest.RPS(p2.PeakRPS) != "1200" || designertest.RPS(p2.AvgRPS) != "300" ||
				p2.Type != designer.Read || strings.Join(p2.Attributes, "|") != "city|from|to" || p2.Considerations != "Priority: high" {
				t.Errorf("pattern 2 = %+v", p2)
			}
			if p8 := designertest.Pattern(t, d, 8); !strings.Contains(p8.Considerations, "Pattern #: soon") || !strings.Contains(p8.Considerations, "Peak RPS: n/a") {
				t.Errorf("unreadable cells not kept: %q", p8.Considerations)
			}
			if r := d.Relationships[0]; r.From != "City" || r.To != "Car" || r.Kind != designer.OneToMany || *r.Max != 400 {
				t.Errorf("-> arrow and one-to-many: %+v", r)
			}
			if r := d.Relationships[2]; r.From != "City" || r.To != "Booking" || r.Kind != designer.OneToMany || !designertest.HasNote(notes, "many-to-one") {
				t.Errorf("M:1 not turned round: %+v", r)
			}
			if s, ok := designertest.ProseTitled(d, "Appendix"); !ok || s.Body != "Pricing rules live in another document." {
				t.Errorf("appendix: %+v", d.Prose.Sections)
			}
			if !designertest.HasNote(notes, `"Priority"`) {
				t.Errorf("no note for the extra column: %v", notes)
			}
		}},
		{"wild-aggregates.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			a := d.Aggregates[0]
			if *a.CorrelationPct != 45 || *a.OnlyAPct != 55 || *a.OnlyBPct != 20 || *a.BothPct != 45 || a.Decision != designer.ItemCollection {
				t.Errorf("aggregate = %+v", a)
			}
			// The seed's words answer two of the three questions; the third is not asked of them.
			if id := a.Identifying; id.ChildIndependent == nil || *id.ChildIndependent || id.ParentIDKnown == nil || !*id.ParentIDKnown || id.SeparateTablePlanned != nil {
				t.Errorf("identifying = %s, want child independent no, parent ID always known yes, the third unanswered", identifyingText(id))
			}
			kept, ok := designertest.ProseTitled(d, "User + Orders Item Collection Analysis")
			for _, want := range []string{
				"need user profile with recent orders", "User profile only", "(AP31 pattern)",
				"Orders cannot exist without Users", "(UserOrders table)", "#### Reviewer remarks\nCheck the 15KB estimate",
			} {
				if !ok || !strings.Contains(kept.Body, want) {
					t.Errorf("prose of the aggregate lacks %q: %q", want, kept.Body)
				}
			}
			if a.Size != "User 2KB + 5 recent orders 15KB = 17KB total, bounded growth" || a.CombinedKB == nil || *a.CombinedKB != 17 || a.Bounded == nil || !*a.Bounded {
				t.Errorf("size %q, combined %v KB, bounded %v; want the words kept and 17 KB, bounded", a.Size, a.CombinedKB, a.Bounded)
			}
			placeholder, real := d.Consolidations[0], d.Consolidations[1]
			if placeholder.Decision != "" || placeholder.OverlapPct != nil || !strings.Contains(placeholder.Justification, "✅/❌ Consolidate/Separate") {
				t.Errorf("placeholder row = %+v", placeholder)
			}
			if real.Decision != designer.Consolidate || *real.OverlapPct != 45 || real.Justification != "Joint reads\nOwner: Ana" {
				t.Errorf("row = %+v", real)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := readFixture(t, tt.file)
			d, notes, err := Import(data)
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			if err := designer.Check(d); err != nil {
				t.Fatalf("Check of the import: %v", err)
			}
			tt.check(t, d, notes)
			assertFixedPoint(t, d)
		})
	}
}

// assertFixedPoint fails unless export(d) reads back to a design that exports identically, the
// checklist's marks aside (maskChecklist).
func assertFixedPoint(tb testing.TB, d designer.Design) {
	tb.Helper()
	first := Export(d)
	again, _, err := Import(first)
	if err != nil {
		tb.Fatalf("Import refused what Export wrote: %v\n%s", err, first)
	}
	if second := Export(again); !bytes.Equal(maskChecklist(tb, first), maskChecklist(tb, second)) {
		tb.Fatalf("export is not a fixed point:\n%s", designertest.FirstDifference(first, second))
	}
}

func TestImport_refusesWhatIsNotARequirementDocument(t *testing.T) {
	t.Parallel()
	for name, data := range map[string][]byte{
		"empty":         nil,
		"blank":         []byte("  \n\n"),
		"binary":        {0x89, 'P', 'N', 'G', 0, 0, 1},
		"latin-1":       bytes.Repeat([]byte{0xe9, 0xe8}, 20),
		"plain text":    []byte("hello world\n"),
		"json":          []byte(`{"name":"Orders"}`),
		"shopping list": []byte("# Shopping\n\n- eggs\n- **milk**: 2 l\n"),
		"other table":   []byte("| Item | Price |\n|---|---|\n| tea | 2 |\n"),
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := Import(data)
			designertest.WantValidationError(t, err, "file")
		})
	}
}

func TestImport_readsDamagedText(t *testing.T) {
	t.Parallel()
	doc := "# DynamoDB Modeling Session\r\n## Application Overview\r\n- **Domain**: Caf\xe9 orders\x07\r\n"
	d, notes, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if d.Overview.Domain != "Caf\uFFFD orders" {
		t.Errorf("domain %q", d.Overview.Domain)
	}
	if !designertest.HasNote(notes, "not UTF-8") || !designertest.HasNote(notes, "control character") {
		t.Errorf("notes %v", notes)
	}
}

func TestImport_keyRequirementsCell(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cell string
		want keyRequirements
	}{
		{"", keyRequirements{}},
		{"<50ms latency", keyRequirements{latency: "<50ms"}},
		{"ACID compliance", keyRequirements{notes: "ACID compliance"}},
		{"Latency <50ms; Strong consistency; Result ≤ 1 item; Item size < 1 KB; notes", keyRequirements{
			latency: "<50ms", consistency: designer.Strong, result: "≤ 1 item", size: "< 1 KB", notes: "notes"}},
		{"eventually consistent; Latency: 5 ms", keyRequirements{latency: "5 ms", consistency: designer.Eventual}},
		{"Point lookup; hot partition risk", keyRequirements{notes: "Point lookup; hot partition risk"}},
		{`Latency a\; b; Latency again`, keyRequirements{latency: "a; b", notes: "Latency again"}},
		{"Result 1 item; Notes: Latency x; Strong consistency", keyRequirements{result: "1 item", notes: "Latency x; Strong consistency"}},
	}
	for _, tt := range tests {
		var got keyRequirements
		got.parse(tt.cell)
		if got != tt.want {
			t.Errorf("%q → %+v, want %+v", tt.cell, got, tt.want)
		}
	}
}

func TestImport_rpsCell(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cell      string
		peak, avg string
		whole     bool
	}{
		{"500 RPS", "500", "nil", true},
		{"0.005 RPS", "0.005", "nil", true},
		{"1,400", "1400", "nil", true},
		{"500 peak / 120 avg RPS", "500", "120", true},
		{"120 avg RPS", "nil", "120", true},
		{"Peak: 500, Avg: 120", "500", "120", true},
		{"500/120 RPS", "500", "120", true},
		{"~50 RPS during sales", "50", "nil", false},
		{"n/a", "nil", "nil", false},
		{"1 2 3", "nil", "nil", false},
		// A minus sign is not dropped: a design holds no negative rate, so the cell stays text.
		{"-5 RPS", "nil", "nil", false},
		{"Peak: 500, Avg: − 20", "nil", "nil", false},
		{"500 peak / -120 avg", "nil", "nil", false},
	}
	for _, tt := range tests {
		peak, avg, whole := parseRPSCell(tt.cell)
		if designertest.RPS(peak) != tt.peak || designertest.RPS(avg) != tt.avg || whole != tt.whole {
			t.Errorf("%q → %s / %s whole=%v, want %s / %s whole=%v", tt.cell, designertest.RPS(peak), designertest.RPS(avg), whole, tt.peak, tt.avg, tt.whole)
		}
	}
}

func TestImport_escapingRoundTrips(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"a | b", "line\nbreak", `back\slash`, `\|`, "<br>", "<script>x</script>", "<50ms", "a,b", "x;y",
		"ünï ☕ 東京", `\<br>`, "trailing \\",
	} {
		for _, extra := range []string{"", ",;*"} {
			if got := markdown.Unescape(markdown.Escape(s, extra)); got != s {
				t.Errorf("escape %q (extra %q) reads back as %q", s, extra, got)
			}
		}
		if cells := markdown.SplitRow("| " + markdown.Escape(s, "") + " | x |"); len(cells) != 2 {
			t.Errorf("%q splits a row into %d cells", s, len(cells))
		}
	}
}

// TestImport_sharedFixtures reads the real documents in /work/shared/fixtures when
// that folder exists (it is not part of the repository).
// The seed's template lists entities only in its relationships. Each name becomes an entity, once,
// with a note at the relationship's line; an entity the document does define is not added again.
func TestImport_entitiesNamedOnlyInRelationships(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Modeling Session — Library

## Application Overview
- **Domain**: Lending library

## Entity Relationships Deep Dive
- **Member** entity: someone with a card
- **Member → Loans**: 1:Many (avg 3 loans per member, max 20)
- **Book → Loans**: 1:Many (avg 40 loans per book)
- **Book → Copies**: 1:Many
`
	d, notes, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range d.Entities {
		names = append(names, e.Name)
	}
	if want := []string{"Member", "Loans", "Book", "Copies"}; !slices.Equal(names, want) {
		t.Fatalf("entities %q, want %q", names, want)
	}
	if designertest.HasNote(notes, "entity Member is named only") || !designertest.HasNote(notes, "entity Loans is named only in a relationship") {
		t.Errorf("notes %v: want one for each added entity and none for Member", notes)
	}
	for i := 1; i < len(notes); i++ {
		if notes[i].Line < notes[i-1].Line {
			t.Errorf("notes are not in line order: %v", notes)
		}
	}
	if n := notes[len(notes)-1]; n.Line != 10 || !strings.Contains(n.Message, "Copies") {
		t.Errorf("the note for Copies is %+v, want it at line 10", n)
	}
	assertFixedPoint(t, d)
}

func TestImport_sharedFixtures(t *testing.T) {
	t.Parallel()
	const dir = "/work/shared/fixtures/aws-dynamodb-examples"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared fixtures not present (%v); skipping", err)
	}
	t.Run("requirement", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(dir, "modernizer-stage-02-dynamodb_requirement.md"))
		if err != nil {
			t.Skipf("fixture not readable: %v", err)
		}
		d, notes, err := Import(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Patterns) != 48 {
			t.Fatalf("%d patterns, want 48", len(d.Patterns))
		}
		count := map[string]int{}
		for i, p := range d.Patterns {
			if p.Number != i+1 {
				t.Errorf("pattern %d has number %d", i+1, p.Number)
			}
			if p.PeakRPS == nil || p.AvgRPS != nil {
				t.Errorf("pattern %d: a single RPS value should be the peak, got %s / %s", p.Number, designertest.RPS(p.PeakRPS), designertest.RPS(p.AvgRPS))
			}
			count[p.Status]++
		}
		if count[designer.StatusSolved] != 43 || count[designer.StatusOutside] != 2 || count[designer.StatusAtRisk] != 3 {
			t.Errorf("statuses %v, want 43 ✅, 2 ❌ (patterns 9 and 36), 3 ⚠️ (11, 25, 29)", count)
		}
		for _, n := range []int{6, 18} {
			if p := designertest.Pattern(t, d, n); p.Type != "" || !designertest.HasNote(notes, "pattern "+formatNumber(float64(n))+" has type None") {
				t.Errorf("pattern %d type %q: None should be stored as no type, with a note", n, p.Type)
			}
		}
		if p := designertest.Pattern(t, d, 2); p.LatencySLO != "<50ms" || p.KeyNotes != "high frequency" || designertest.RPS(p.PeakRPS) != "250" ||
			!designertest.HasNote(notes, `pattern 2: "high frequency" in Key Requirements is not a latency`) {
			t.Errorf("pattern 2 = %+v; its cell \"<50ms latency, high frequency\" should give the latency and keep the rest, with a note", p)
		}
		if d.Name != "E-commerce platform with multi-vendor support" || len(d.Relationships) != 8 {
			t.Errorf("name %q, %d relationships", d.Name, len(d.Relationships))
		}
		var names []string
		for _, e := range d.Entities {
			names = append(names, e.Name)
		}
		if want := []string{"Users", "Products", "Orders", "CartItems", "Categories", "OrderItems"}; !slices.Equal(names, want) {
			t.Errorf("entities %q, want the six the relationships name, %q", names, want)
		}
		if s, ok := designertest.ProseTitled(d, titleConsiderations); !ok || !strings.Contains(s.Body, "Pattern #9 (product text search)") {
			t.Errorf("extra considerations were not kept")
		}
		assertFixedPoint(t, d)
	})
	t.Run("access patterns with peak and average columns", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(dir, "modernizer-stage-02-access_patterns_with_rps.md"))
		if err != nil {
			t.Skipf("fixture not readable: %v", err)
		}
		d, _, err := Import(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Patterns) != 48 || d.Name != "Complete Access Patterns with RPS Estimates" {
			t.Fatalf("%d patterns, name %q", len(d.Patterns), d.Name)
		}
		if p := designertest.Pattern(t, d, 14); designertest.RPS(p.PeakRPS) != "0.005" || designertest.RPS(p.AvgRPS) != "0.005" || p.Type != designer.Write {
			t.Errorf("AP14 = %+v", p)
		}
		assertFixedPoint(t, d)
	})
}

func FuzzImport(f *testing.F) {
	for _, name := range []string{"template-style.md", "wild-single-rps.md", "wild-columns.md", "wild-aggregates.md", "golden.md"} {
		f.Add(readFixture(f, name))
	}
	f.Add(Export(designertest.HRDesign(f)))
	for _, s := range []string{
		"# DynamoDB Modeling Session\n",
		"## Access Patterns Analysis\n| Pattern # | Description |\n|--|--|\n| AP1 | x |\n",
		"## Entity Relationships Deep Dive\n- **A → B**: — 1:M\n- **A** entity\n  - x (Q)\n",
		"### a + b Item Collection Analysis\n- **Query Patterns**: x\n  - b only: 5%\n",
		"## Application Overview\n# x\n## y\n### z\n####### w\n```\n# not a heading\n",
		"| Parent | Child |\n| \\| | <br> |\n",
		"# -VAlidAtion CheCklist",
		"# EntitY RelAtionship\n* **00→0**:\nFor eACh potentiAl AggregAte, AnAlYZe:",
		"# Overview\n* **DomAin**:0 # ",
		"# Entity Relationships\n- **→ → 0**: 1:M\n",
		"## Entity Relationships Deep Dive\n- ***** entitY\n0000000000",
		"## Access Patterns Analysis\n| Pattern # | Description | Average RPS |\n|--|--|--|\n| 1 | 0 | -0 |\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := Import(data)
		if err != nil {
			return
		}
		if err := designer.Check(d); err != nil {
			t.Fatalf("import gave a design Check refuses: %v", err)
		}
		assertFixedPoint(t, d)
	})
}

func BenchmarkImport_200Patterns(b *testing.B) {
	data := Export(largeRequirementsDesign(200))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Import(data); err != nil {
			b.Fatal(err)
		}
	}
}

// "Owner → Pets" beside "Pet → Visits" names one entity, Pet, not two.
func TestImport_pluralRelationshipEndIsTheSingularsEntity(t *testing.T) {
	t.Parallel()
	in := "# DynamoDB Modeling Session\n\n## Entity Relationships Deep Dive\n" +
		"- **Owner → Pets**: 1:Many (avg 1.6 pets per owner, max 12)\n" +
		"- **Pet → Visits**: 1:Many (avg 4 visits per year, max 50)\n"
	d, notes, err := Import([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range d.Entities {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, ","); got != "Owner,Pet,Visits" {
		t.Errorf("entities %s, want Owner,Pet,Visits", got)
	}
	if r := d.Relationships[0]; r.To != "Pet" {
		t.Errorf("Owner's relationship goes to %q, want Pet", r.To)
	}
	said := false
	for _, n := range notes {
		said = said || strings.Contains(n.Message, "Pets in a relationship is read as the entity Pet")
	}
	if !said {
		t.Errorf("no note says Pets was read as Pet: %+v", notes)
	}
}

// identifyingText writes an identifying check's answers for a failure message.
func identifyingText(c designer.IdentifyingCheck) string {
	word := func(b *bool) string {
		if b == nil {
			return "unanswered"
		}
		return strconv.FormatBool(*b)
	}
	return "independent " + word(c.ChildIndependent) + ", parent known " + word(c.ParentIDKnown) + ", separate table " + word(c.SeparateTablePlanned)
}
