package datamodelmd

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// settingValues are values for every capacity setting, as a person types them.
var settingValues = map[string]string{
	"region": "eu-west-1", "read_request_price": "$0.1415", "write_request_price": "0.7075",
	"read_unit_hour_price": "0.000147", "write_unit_hour_price": "0.000735", "storage_price": "0.283",
	"target_utilization": "70 %", "hot_key_skew": "2.5x", "hot_key_model": "zipf", "hot_key_share": "12.5",
	"hot_key_zipf_s": "1.2", "horizon_months": "84 months", "replica_regions": "ap-south-1, us-west-2",
	"reserved_capacity": "3 years",
}

// costInputsDesign is the HR design with every capacity setting set, its first table
// Standard-IA and its first write pattern failing 5 conditions per 100 successes.
func costInputsDesign(t *testing.T) designer.Design {
	t.Helper()
	d := designertest.HRDesign(t)
	var changes []designer.Change
	for _, f := range designer.CapacityFields {
		v, ok := settingValues[f.Key]
		if !ok {
			t.Fatalf("capacity setting %s has no value in settingValues; give it one", f.Key)
		}
		changes = append(changes, designer.SetCapacityField{Field: f.Key, Value: v})
	}
	changes = append(changes, designer.SetTableField{Table: d.Tables[0].Name, Field: "table_class", Value: "Standard-IA"})
	write := slices.IndexFunc(d.Patterns, func(p designer.Pattern) bool { return p.Type == designer.Write })
	if write < 0 {
		t.Fatal("the HR design has no write pattern")
	}
	changes = append(changes, designer.SetPatternField{ID: d.Patterns[write].ID, Field: "conditional_failure_pct", Value: "5"})
	return designertest.ApplyAll(t, d, changes...)
}

func TestExport_costInputsRoundTrip(t *testing.T) {
	t.Parallel()
	d := costInputsDesign(t)
	out := Export(d)
	for _, want := range []string{
		"\n## Capacity Settings\n\n- **Price region:** eu-west-1\n- **$ per million reads (RRU):** 0.1415\n",
		"\n- **Target utilisation %:** 70\n",
		"\n- **Global Tables replica regions:** ap-south-1, us-west-2\n- **Reserved capacity:** 3y\n\n## Cost Report\n",
		"\n- **Table Class**: STANDARD_INFREQUENT_ACCESS (Standard-IA)\n",
		"| Failed conditions: 5% of successful writes",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the export lacks %q", want)
		}
	}
	back := assertDataModelFixedPoint(t, d)
	for _, f := range designer.CapacityFields {
		if got, want := f.Get(back.Capacity), f.Get(d.Capacity); got != want || want == "" {
			t.Errorf("%s read back as %q, want %q", f.Key, got, want)
		}
	}
	for i, tb := range d.Tables {
		if back.Tables[i].TableClass != tb.TableClass {
			t.Errorf("table %s: class %q read back as %q", tb.Name, tb.TableClass, back.Tables[i].TableClass)
		}
	}
	for _, p := range d.Patterns {
		bp := designertest.Pattern(t, back, p.Number)
		if got, want := designertest.RPS(bp.ConditionalFailurePct), designertest.RPS(p.ConditionalFailurePct); got != want {
			t.Errorf("pattern %d: conditional failures %s read back as %s", p.Number, want, got)
		}
		if bp.Mapping.Notes != p.Mapping.Notes {
			t.Errorf("pattern %d: notes %q read back as %q", p.Number, p.Mapping.Notes, bp.Mapping.Notes)
		}
	}
	// Read beside the requirement design, the data model's inputs are the design's.
	merged, _ := Merge(designertest.HRDesign(t), back)
	for _, f := range designer.CapacityFields {
		if got, want := f.Get(merged.Capacity), f.Get(d.Capacity); got != want {
			t.Errorf("merged: %s = %q, want %q", f.Key, got, want)
		}
	}
	for _, p := range d.Patterns {
		if got, want := designertest.RPS(designertest.Pattern(t, merged, p.Number).ConditionalFailurePct), designertest.RPS(p.ConditionalFailurePct); got != want {
			t.Errorf("merged: pattern %d fails %s conditions, want %s", p.Number, got, want)
		}
	}
}

func TestExport_noCapacitySettingsNoSection(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	if out := Export(d); bytes.Contains(out, []byte("Capacity Settings")) || bytes.Contains(out, []byte("Table Class")) || bytes.Contains(out, []byte("Failed conditions")) {
		t.Errorf("a design without cost inputs has them in its export:\n%s", out)
	}
}

// withLine is doc with line added after the line that starts with after.
func withLine(t *testing.T, doc []byte, after, line string) ([]byte, int) {
	t.Helper()
	lines := strings.Split(string(doc), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, after) })
	if i < 0 {
		t.Fatalf("no line starts with %q", after)
	}
	lines = slices.Insert(lines, i+1, line)
	return []byte(strings.Join(lines, "\n")), i + 2
}

// A setting its field refuses is noted on its line, naming the field, and kept as prose; the
// other settings and the rest of the design read as without it.
func TestImport_unreadableSettingIsANote(t *testing.T) {
	t.Parallel()
	d := designertest.ApplyAll(t, designertest.HRDesign(t),
		designer.SetCapacityField{Field: "region", Value: "eu-west-1"}, designer.SetCapacityField{Field: "reserved_capacity", Value: "1 year"})
	doc := Export(d)
	without, _, err := Import(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, field string }{
		{"- **Target utilisation %:** 95", "target utilisation"},
		{"- **Hot-key skew:** NaN", "hot-key skew"},
		{"- **Reserved capacity:** 5 years", "reserved capacity"},
		{"- **Price region:** us-east-1", "price region"}, // set on the line above already
		{"- **Currency:** EUR", `"Currency" is not a capacity setting`},
	} {
		t.Run(tc.field, func(t *testing.T) {
			bad, at := withLine(t, doc, "- **Price region:**", tc.line)
			back, notes, err := Import(bad)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool { return n.Line == at && strings.Contains(n.Message, tc.field) }) {
				t.Errorf("no note on line %d names %s: %v", at, tc.field, notes)
			}
			section, ok := designertest.ProseTitled(back, "Capacity Settings")
			if !ok || section.Body != tc.line {
				t.Errorf("the line was not kept as prose: %+v", back.Prose.Sections)
			}
			back.Prose.Sections = slices.DeleteFunc(back.Prose.Sections, func(s designer.Section) bool { return s.Title == "Capacity Settings" })
			if want, got := designertest.MustMarshal(t, without), designertest.MustMarshal(t, back); !bytes.Equal(want, got) {
				t.Errorf("the line changed the design:\n%s", designertest.FirstDifference(want, got))
			}
			// Written back, the kept line stays prose, and the document a fixed point.
			again, _, err := Import(Export(back))
			if err != nil || !slices.Equal(designertest.MustMarshal(t, again), designertest.MustMarshal(t, back)) {
				t.Errorf("the kept line does not read back as prose (%v)", err)
			}
		})
	}
}

// What people write for the cost inputs in their own words reads as the fields.
func TestImport_costInputsInPeoplesSpellings(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Data Model

## Table Designs

### Orders Table

- **Partition Key**: customer_id (S) - one customer
- **Sort Key**: sk (S) - orders by date
- **Billing Mode**: on-demand
- **Table class**: Standard-IA

### Archive Table

- **Partition Key**: order_id (S) - one order
- **Sort Key**: None
- **Table Class**: standard

## Access Pattern Mapping

| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |
|---|---|---|---|---|
| 1 | Place an order | Orders | PutItem | conditional put on sk<br>Conditional failure rate: 2.5% |
| 2 | Cancel an order | Orders | UpdateItem | Failed conditions: 12 per 100 successful writes |
| 3 | Archive an order | Archive | PutItem | Failed conditions: often |

## Capacity settings

- Region: eu-central-1
- Reserved capacity: 1 year
- Target utilization: 70%
- **Global Tables replicas:** eu-west-1, us-east-1
- **Hot-key model**: Zipfian
- **Zipf s**: 1.2
- Storage horizon: 36 months
- **$ per million writes (WRU)**: $0.7625
`
	d, notes, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := d.Capacity
	for key, want := range map[string]string{
		"region": "eu-central-1", "reserved_capacity": designer.Reserved1Year, "target_utilization": "70",
		"replica_regions": "eu-west-1, us-east-1", "hot_key_model": designer.HotKeyZipf, "hot_key_zipf_s": "1.2",
		"horizon_months": "36", "write_request_price": "0.7625",
	} {
		f, _ := designer.FieldNamed(designer.CapacityFields, key)
		if got := f.Get(c); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if c.ReadRequestPrice != nil || c.HotKeySkew != nil {
		t.Errorf("settings the document does not give were set: %+v", c)
	}
	if got := []string{d.Tables[0].TableClass, d.Tables[1].TableClass}; !slices.Equal(got, []string{designer.StandardIAClass, designer.StandardClass}) {
		t.Errorf("table classes = %q", got)
	}
	for n, want := range map[int]string{1: "2.5", 2: "12", 3: "nil"} {
		if got := designertest.RPS(designertest.Pattern(t, d, n).ConditionalFailurePct); got != want {
			t.Errorf("pattern %d: conditional failures %s, want %s", n, got, want)
		}
	}
	if p := designertest.Pattern(t, d, 1); p.Mapping.Notes != "conditional put on sk" {
		t.Errorf("pattern 1's notes = %q", p.Mapping.Notes)
	}
	p3 := designertest.Pattern(t, d, 3)
	if p3.Mapping.Notes != "Failed conditions: often" || !designertest.HasNote(notes, "pattern 3", "conditional-failure rate", "often") {
		t.Errorf("an unreadable rate was not kept with a note: notes %q, %v", p3.Mapping.Notes, notes)
	}
	if _, kept := designertest.ProseTitled(d, "Capacity settings"); kept {
		t.Errorf("settings that were read were kept as prose too: %+v", d.Prose.Sections)
	}
}

func TestImport_unreadableTableClassIsKeptWithANote(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	doc, at := withLine(t, Export(d), "- **Billing Mode**:", "- **Table Class**: Glacier")
	back, notes, err := Import(doc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Tables[0].TableClass != "" || !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
		return n.Line == at && strings.Contains(n.Message, "table class") && strings.Contains(n.Message, "Glacier")
	}) {
		t.Errorf("class %q, notes %v", back.Tables[0].TableClass, notes)
	}
	if s, ok := designertest.ProseTitled(back, d.Tables[0].Name+" Table"); !ok || !strings.Contains(s.Body, "Glacier") {
		t.Errorf("the bullet was not kept as prose: %+v", back.Prose.Sections)
	}
}

// A line of a pattern's own notes that reads like a conditional-failure rate stays notes: the
// export writes the pattern's rate, or that it has none, first.
func TestExport_notesThatLookLikeAFailureRateStayNotes(t *testing.T) {
	t.Parallel()
	for _, rate := range []*float64{nil, designertest.Ptr(7.0)} {
		t.Run(designertest.RPS(rate), func(t *testing.T) {
			d := designertest.HRDesign(t)
			d.Patterns[0].ConditionalFailurePct = rate
			d.Patterns[0].Mapping.Notes = "Failed conditions: " + strconv.Itoa(3) + "\nFailed conditions: lots"
			back := assertDataModelFixedPoint(t, d)
			bp := designertest.Pattern(t, back, d.Patterns[0].Number)
			if designertest.RPS(bp.ConditionalFailurePct) != designertest.RPS(rate) || bp.Mapping.Notes != d.Patterns[0].Mapping.Notes {
				t.Errorf("read back: rate %s, notes %q", designertest.RPS(bp.ConditionalFailurePct), bp.Mapping.Notes)
			}
		})
	}
}

// The fixture writes the cost inputs as a team might, with values the fields refuse among them.
func TestImport_costInputsFixture(t *testing.T) {
	t.Parallel()
	d, notes := mustImport(t, readFixture(t, "cost-inputs.md"))
	if f := designer.CapacityField.TargetUtilization; f.Get(d.Capacity) != "70" || !designertest.HasNote(notes, "target utilisation", "95") {
		t.Errorf("target utilisation %q, notes %v", f.Get(d.Capacity), notes)
	}
	if d.Capacity.ReservedCapacity != designer.Reserved1Year || len(d.Capacity.ReplicaRegions) != 2 || d.Capacity.Region != "eu-central-1" {
		t.Errorf("capacity = %+v", d.Capacity)
	}
	s, ok := designertest.ProseTitled(d, "Capacity settings")
	if !ok || !strings.Contains(s.Body, "June 2026") || !strings.Contains(s.Body, "95") || !strings.Contains(s.Body, "EUR") {
		t.Errorf("the prose and the unread lines under the heading were not kept: %+v", d.Prose.Sections)
	}
	if got := []string{d.Tables[0].TableClass, d.Tables[1].TableClass}; !slices.Equal(got, []string{designer.StandardIAClass, ""}) {
		t.Errorf("table classes = %q", got)
	}
	if got := designertest.RPS(designertest.Pattern(t, d, 2).ConditionalFailurePct); got != "12" {
		t.Errorf("pattern 2 fails %s conditions per 100, want 12", got)
	}
}
