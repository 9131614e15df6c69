package designer_test

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/markdown"
)

// parseBulk reads a paste with the entity reader the documents share, as the server does.
func parseBulk(text string, d designer.Design) designer.BulkPaste {
	return designer.ParseBulkWith(text, d, designer.BulkReaders{Entity: markdown.PastedEntity})
}

func blankDesign(t *testing.T, keyEntities string) designer.Design {
	t.Helper()
	d, err := designer.New("Shop")
	if err != nil {
		t.Fatal(err)
	}
	d.Overview.KeyEntities = keyEntities
	return d
}

func bulkNames(c designer.AddInBulk) []string {
	var names []string
	for _, e := range c.Entities {
		names = append(names, e.Name)
	}
	return names
}

func TestFromKeyEntities_readsNamesAndRelationships(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text  string
		names []string
		rels  []string
	}{
		{"User (1:M) Orders, Order (1:M) OrderItems", []string{"User", "Order", "OrderItem"}, []string{"User 1:M Order", "Order 1:M OrderItem"}},
		// The bundled HR example's list: remarks in brackets hold commas of their own.
		{"Employee (the person and their current position), Department (nine of them, each with a manager history), " +
			"SalaryRecord and TitleRecord (dated history rows), DepartmentAssignment (which department an employee belonged to and when).",
			[]string{"Employee", "Department", "SalaryRecord", "TitleRecord", "DepartmentAssignment"}, nil},
		{"- Customer: who buys\n- Order Line with its price\n- Categories\n- Address\n* Invoice belongs to Customer\n- the Warehouse",
			[]string{"Customer", "OrderLine", "Category", "Address", "Invoice", "Warehouse"}, []string{"Customer 1:M Invoice"}},
		{"Tenant has many Projects; Project M:M Tag", []string{"Tenant", "Project", "Tag"}, []string{"Tenant 1:M Project", "Project M:M Tag"}},
		{"customers and their orders", nil, nil},
	}
	for _, tc := range cases {
		c := designer.FromKeyEntities(blankDesign(t, tc.text))
		if got := bulkNames(c); !reflect.DeepEqual(got, tc.names) {
			t.Errorf("%q: entities %q, want %q", tc.text, got, tc.names)
		}
		var rels []string
		for _, r := range c.Relationships {
			rels = append(rels, r["from"]+" "+r["kind"]+" "+r["to"])
		}
		if !reflect.DeepEqual(rels, tc.rels) {
			t.Errorf("%q: relationships %q, want %q", tc.text, rels, tc.rels)
		}
	}
}

func TestFromKeyEntities_leavesOutWhatIsThere(t *testing.T) {
	t.Parallel()
	d := blankDesign(t, "User (1:M) Orders, Order (1:M) OrderItems, Payment")
	d = designertest.ApplyAll(t, d, designer.AddEntity{Name: "user"}, designer.AddEntity{Name: "Order"},
		designer.AddRelationship{From: "Order", To: "user", RelationshipKind: "1:1"})
	c := designer.FromKeyEntities(d)
	if got := bulkNames(c); !reflect.DeepEqual(got, []string{"OrderItem", "Payment"}) {
		t.Errorf("entities %q, want OrderItem and Payment only", got)
	}
	// The relationship names the entity as the design spells it.
	if len(c.Relationships) != 2 || c.Relationships[0]["from"] != "user" {
		t.Errorf("relationships %v, want user → Order and Order → OrderItem", c.Relationships)
	}
	after := designertest.ApplyAll(t, d, c)
	if again := designer.FromKeyEntities(after); len(again.Entities)+len(again.Relationships) != 0 {
		t.Errorf("after adding them, still offered %v", again)
	}
}

const shopPaste = "Entity\tAttribute\tType\tDescription\n" +
	"Customer\tcustomer_id\tS\tWho buys\n" +
	"Customer\temail\tS\n" +
	"Order\torder_id:S, total:N, placed_at\t\n" +
	"Order\tstatus\tText\n" +
	"\n" +
	"## Relationships\n" +
	"| From | Kind | To | Average | Maximum | Colour |\n" +
	"|------|------|----|---------|---------|--------|\n" +
	"| Customer | 1:M | Order | 4 | 40 | red |\n" +
	"| Order | 1:M | Basket | 1 | 1 | |\n" +
	"\n" +
	"Pattern #\tDescription\tRPS (Peak and Average)\tType\tEntities\tStatus\n" +
	"1\tGet a customer\t500 peak / 100 avg\tRead\tCustomer\t⏳\n" +
	"AP2\tPlace an order\t50 / 10\tWrite\tOrder, Customer\n" +
	"3\tList orders\tlots\tRead\tOrder\n" +
	"\n" +
	"Colour\tSize\n"

func TestParseBulk_readsBlocksAndNamesWhatItCannot(t *testing.T) {
	t.Parallel()
	d := blankDesign(t, "")
	got := parseBulk(shopPaste, d)
	c := got.Change
	if names := bulkNames(c); !reflect.DeepEqual(names, []string{"Customer", "Order"}) {
		t.Fatalf("entities %q", names)
	}
	order := c.Entities[1]
	want := []designer.BulkAttribute{{Name: "order_id", Type: "S"}, {Name: "total", Type: "N"}, {Name: "placed_at", Type: "S"}}
	if !reflect.DeepEqual(order.Attributes, want) {
		t.Errorf("Order's attributes %v, want %v", order.Attributes, want)
	}
	if c.Entities[0].Description != "Who buys" {
		t.Errorf("Customer's description %q", c.Entities[0].Description)
	}
	if len(c.Relationships) != 1 || c.Relationships[0]["avg_count"] != "4" {
		t.Errorf("relationships %v, want Customer → Order only", c.Relationships)
	}
	if len(c.Patterns) != 2 || c.Patterns[0]["peak_rps"] != "500" || c.Patterns[0]["avg_rps"] != "100" || c.Patterns[1]["number"] != "2" {
		t.Errorf("patterns %v", c.Patterns)
	}
	lines := map[int]string{}
	for _, p := range got.Problems {
		lines[p.Line] += p.Message + ";"
	}
	for line, fragment := range map[int]string{5: "not a DynamoDB type", 8: `column "Colour" is not read`, 11: `no entity named "Basket"`,
		16: "peak rps", 18: "not a header row"} {
		if !strings.Contains(lines[line], fragment) {
			t.Errorf("line %d: problems %q, want one containing %q (all: %v)", line, lines[line], fragment, lines)
		}
	}
	if len(lines) != 5 {
		t.Errorf("problems on lines %v, want 5, 8, 11, 16 and 18", lines)
	}

	after := designertest.ApplyAll(t, d, c)
	// Pasted again, the attributes there already with the same type are no problem and add nothing.
	again := parseBulk("Entity\tAttribute\tType\nCustomer\temail\tS\nOrder\ttotal\tN\nOrder\tnote\n", after)
	if !reflect.DeepEqual(again.Already, []int{2, 3}) || len(again.Problems) != 0 || len(again.Change.Entities) != 1 || len(again.Change.Entities[0].Attributes) != 1 {
		t.Errorf("pasted again: %+v", again)
	}
	p := designertest.Pattern(t, after, 1)
	if p.Type != designer.Read || designertest.RPS(p.PeakRPS) != "500" || p.Status != designer.StatusOpen || !reflect.DeepEqual(p.Entities, []string{"Customer"}) {
		t.Errorf("pattern 1 = %+v", p)
	}
	if got := after.Relationships[0]; got.From != "Customer" || got.Kind != designer.OneToMany || got.Max == nil {
		t.Errorf("relationship = %+v", got)
	}
}

func TestParseBulk_fifteenPatternsFromTheRequirementTemplate(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString("| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|\n")
	for i := 1; i <= 15; i++ {
		n := strconv.Itoa(i)
		sb.WriteString("| " + n + " | Pattern " + n + " \\| with a pipe | " + strconv.Itoa(i*10) + " RPS peak, " + n + " RPS avg | Read | id, name | <50 ms | note<br>two | ✅ |\n")
	}
	got := parseBulk(sb.String(), blankDesign(t, ""))
	if len(got.Problems) != 0 || len(got.Change.Patterns) != 15 {
		t.Fatalf("%d patterns, problems %v", len(got.Change.Patterns), got.Problems)
	}
	after := designertest.ApplyAll(t, blankDesign(t, ""), got.Change)
	p := designertest.Pattern(t, after, 15)
	if p.Description != "Pattern 15 | with a pipe" || designertest.RPS(p.AvgRPS) != "15" || p.Considerations != "note\ntwo" ||
		p.KeyNotes != "<50 ms" || p.Status != designer.StatusSolved {
		t.Errorf("pattern 15 = %+v", p)
	}
}

func TestAddInBulk_refusalsNameTheRow(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, blankDesign(t, ""), []designertest.ChangeCase{
		{Name: "nothing", Change: designer.AddInBulk{}, Field: "entities"},
		{Name: "a bad rate", Change: designer.AddInBulk{Patterns: []map[string]string{{"description": "a"}, {"peak_rps": "lots"}}}, Field: "access_patterns/1/peak_rps"},
		{Name: "an unknown field", Change: designer.AddInBulk{Patterns: []map[string]string{{"colour": "red"}}}, Field: "access_patterns/0/colour"},
		{Name: "an attribute without a name", Change: designer.AddInBulk{Entities: []designer.BulkEntity{{Name: "A", Attributes: []designer.BulkAttribute{{Name: "x"}, {Name: " "}}}}},
			Field: "entities/0/attributes/1/name"},
		{Name: "a relationship to nothing", Change: designer.AddInBulk{Entities: []designer.BulkEntity{{Name: "A"}},
			Relationships: []map[string]string{{"from": "A", "to": "B"}}}, Field: "relationships/0/to"},
		{Name: "all of it", Change: designer.AddInBulk{Entities: []designer.BulkEntity{{Name: "A", Attributes: []designer.BulkAttribute{{Name: "a_id"}}}, {Name: "B"}},
			Relationships: []map[string]string{{"from": "A", "to": "B", "kind": "1:M", "max_count": "3"}},
			Patterns:      []map[string]string{{"number": "7", "description": "Get an A", "entities": "A, B"}}},
			Check: func(t *testing.T, _, after designer.Design) {
				if len(after.Entities) != 2 || len(after.Entities[0].Attributes) != 1 || len(after.Relationships) != 1 {
					t.Errorf("after = %+v", after)
				}
				if p := designertest.Pattern(t, after, 7); len(p.Entities) != 2 {
					t.Errorf("pattern 7 = %+v", p)
				}
			}},
	})
}

// One undo of a bulk change puts the design back as it was, attributes added to an entity that
// was there included.
func TestAddInBulk_oneUndoTakesAllBack(t *testing.T) {
	t.Parallel()
	before := designertest.HRDesign(t)
	paste := strings.Replace(shopPaste, "Pattern #\t", "Pattern\t", 1)
	paste = strings.NewReplacer("\n1\t", "\n\t", "\nAP2\t", "\n\t").Replace(paste)
	c := parseBulk(paste+"\nEntity\tAttribute\nEmployee\tbadge_no\n", before).Change
	if len(c.Entities) != 3 || len(c.Patterns) != 2 {
		t.Fatalf("change = %+v", c)
	}
	after := designertest.ApplyAll(t, before, c)
	undone := designertest.ApplyAll(t, after, designer.UndoChange{Before: before, Revision: 9, Undone: c.Summary(), Touched: c.Paths()})
	a, b := designertest.MustMarshal(t, before), designertest.MustMarshal(t, undone)
	if !bytes.Equal(a, b) {
		t.Errorf("undo differs from before: %s", designertest.FirstDifference(a, b))
	}
	if s := c.Summary(); s != "Added in bulk: 3 entities (Customer, Order, Employee), 6 attributes, 1 relationship and 2 access patterns" {
		t.Errorf("summary %q", s)
	}
}

func TestAddTableAttributes(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "none", Change: designer.AddTableAttributes{Table: "Department"}, Field: "attributes"},
		{Name: "no such table", Change: designer.AddTableAttributes{Table: "Nope", Attributes: []designer.BulkAttribute{{Name: "a"}}}, Field: "table"},
		{Name: "one declared already", Change: designer.AddTableAttributes{Table: "Department", Attributes: []designer.BulkAttribute{{Name: "budget"}, {Name: "dept_name"}}},
			Field: "attributes/1/name"},
		{Name: "a bad type", Change: designer.AddTableAttributes{Table: "Department", Attributes: []designer.BulkAttribute{{Name: "budget", Type: "money"}}},
			Field: "attributes/0/type"},
		{Name: "two", Change: designer.AddTableAttributes{Table: "Department", Attributes: []designer.BulkAttribute{{Name: "budget", Type: "N"}, {Name: "floor"}}},
			Check: func(t *testing.T, before, after designer.Design) {
				b, _, _ := before.TableByName("Department")
				a, _, _ := after.TableByName("Department")
				if len(a.Attributes) != len(b.Attributes)+2 || a.Attributes[len(a.Attributes)-1] != (designer.Attribute{Name: "floor", Type: designer.S}) {
					t.Errorf("attributes %v", a.Attributes)
				}
			}},
	})
}

// FuzzParseBulk checks that ParseBulkWith never panics and that the change it returns, when it adds
// anything, is one the design takes: every row it kept was checked as the change applies it.
// The same holds for FromKeyEntities over the same text as a key entities list.
func FuzzParseBulk(f *testing.F) {
	for _, seed := range []string{shopPaste, "", "Entity\n", "| # | Description |\n|---|---|\n| 1 | a \\| b |\n",
		"From\tTo\nA\tB\n", "Customer (1:M) Orders, Order has many Lines; Tag M:M Post", "Entity\tAttribute\nX\ta:S, b:N, c (BOOL)\n"} {
		f.Add(seed)
	}
	hr := designertest.HRDesign(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, d := range []designer.Design{hr, blankDesign(t, text)} {
			if c := parseBulk(text, d).Change; len(c.Entities)+len(c.Relationships)+len(c.Patterns) > 0 {
				if _, err := c.Apply(d); err != nil {
					t.Fatalf("ParseBulkWith(%q) gave a change the design refuses: %v", text, err)
				}
			}
			if c := designer.FromKeyEntities(d); len(c.Entities)+len(c.Relationships) > 0 {
				if _, err := c.Apply(d); err != nil {
					t.Fatalf("FromKeyEntities(%q) gave a change the design refuses: %v", d.Overview.KeyEntities, err)
				}
			}
		}
	})
}

// Rows the design has already are merged: a relationship with the same ends gains its counts, a
// pattern with the same description its rates, and a differing value stays the design's unless
// the change says to replace it.
func TestAddInBulk_mergesWhatIsThereAndNeverDuplicates(t *testing.T) {
	t.Parallel()
	d := blankDesign(t, "")
	d, err := designer.AddInBulk{
		Entities:      []designer.BulkEntity{{Name: "Clinic", Attributes: []designer.BulkAttribute{{Name: "clinic_id"}}}, {Name: "Vet"}},
		Relationships: []map[string]string{{"from": "Clinic", "kind": "1:M", "to": "Vet"}},
		Patterns:      []map[string]string{{"description": "List a clinic's vets", "peak_rps": "50"}},
	}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	paste := designer.AddInBulk{
		Entities:      []designer.BulkEntity{{Name: "Clinic", Attributes: []designer.BulkAttribute{{Name: "clinic_id", Type: designer.N}, {Name: "name"}}}},
		Relationships: []map[string]string{{"from": "Clinic", "kind": "1:M", "to": "Vet", "avg_count": "4 per year", "max_count": "12"}},
		Patterns:      []map[string]string{{"description": "list a  clinic's vets", "peak_rps": "80", "avg_rps": "20"}},
	}
	kept, err := paste.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	r, p := kept.Relationships, kept.Patterns
	if len(r) != 1 || r[0].Avg == nil || *r[0].Avg != 4 || r[0].AvgUnit != "per year" || r[0].Max == nil || *r[0].Max != 12 {
		t.Errorf("relationships = %+v: want the one, with its counts", r)
	}
	if len(p) != 1 || *p[0].PeakRPS != 50 || p[0].AvgRPS == nil || *p[0].AvgRPS != 20 {
		t.Errorf("patterns = %+v: want the one, its peak kept and its average filled in", p)
	}
	clinic, _, _ := kept.EntityByName("Clinic")
	if len(clinic.Attributes) != 2 || clinic.Attributes[0].Type != designer.S {
		t.Errorf("Clinic = %+v: want clinic_id kept as S and name added", clinic.Attributes)
	}

	paste.Replace = true
	replaced, err := paste.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	clinic, _, _ = replaced.EntityByName("Clinic")
	if len(replaced.Patterns) != 1 || *replaced.Patterns[0].PeakRPS != 80 || clinic.Attributes[0].Type != designer.N {
		t.Errorf("with Replace: peak %v, clinic_id %s: want the pasted 80 and N", *replaced.Patterns[0].PeakRPS, clinic.Attributes[0].Type)
	}

	// Between the same two entities, a 1:1 the other way round is the same one; a 1:M is not.
	if i := designer.SameRelationship(kept, map[string]string{"from": "Vet", "to": "Clinic", "kind": "1:M"}); i >= 0 {
		t.Errorf("Vet 1:M Clinic matched %d: a 1:M has a direction", i)
	}
}

// Each header the paste box offers for example reads, written with or without outer pipes, with
// tabs or as CSV, under a row of its kind.
func TestParseBulk_readsEachHintInEveryForm(t *testing.T) {
	t.Parallel()
	rows := map[string][]string{
		designer.BulkHints[0]: {"Clinic", "clinic_id", "S"},
		designer.BulkHints[1]: {"Clinic", "1:M", "Vet", "4 per year", "12"},
		designer.BulkHints[2]: {"1", "List a clinic's vets", "Read", "50", "10", "Clinic, Vet"},
	}
	if len(rows) != len(designer.BulkHints) {
		t.Fatalf("a row for each of the %d hints", len(designer.BulkHints))
	}
	forms := map[string]func([]string) string{
		"outer pipes":    func(c []string) string { return "| " + strings.Join(c, " | ") + " |" },
		"no outer pipes": func(c []string) string { return strings.Join(c, " | ") },
		"tabs":           func(c []string) string { return strings.Join(c, "\t") },
		"CSV": func(c []string) string {
			q := make([]string, len(c))
			for i, s := range c {
				q[i] = strconv.Quote(s)
			}
			return strings.Join(q, ",")
		},
	}
	for _, hint := range designer.BulkHints {
		header := strings.Split(hint, " | ")
		for name, form := range forms {
			d := blankDesign(t, "")
			d, _ = designer.AddInBulk{Entities: []designer.BulkEntity{{Name: "Clinic"}, {Name: "Vet"}}}.Apply(d)
			text := form(header) + "\n" + form(rows[hint])
			paste := parseBulk(text, d)
			c := paste.Change
			if len(paste.Problems) > 0 || len(c.Entities)+len(c.Relationships)+len(c.Patterns) != 1 {
				t.Errorf("%s, %s: %q read as %+v, problems %+v", hint, name, text, c, paste.Problems)
			}
		}
	}
}

// Where a paste differs from the design on several lines, the team takes the pasted value on the
// lines it picks and keeps the design's on the rest; the fills of every line are taken.
func TestBulkPaste_takingChoosesLineByLine(t *testing.T) {
	t.Parallel()
	d := designertest.ApplyAll(t, blankDesign(t, ""), designer.AddInBulk{
		Entities: []designer.BulkEntity{{Name: "Clinic", Attributes: []designer.BulkAttribute{{Name: "clinic_id"}}}, {Name: "Vet"}},
		Patterns: []map[string]string{{"description": "List a clinic's vets", "peak_rps": "50"}, {"description": "Get a vet", "peak_rps": "10"}},
	})
	text := "Entity | Attribute | Type\nClinic | clinic_id | N\n\n" +
		"Description | Peak RPS | Avg RPS\nList a clinic's vets | 80 | 20\nGet a vet | 30 | 5\n"
	paste := parseBulk(text, d)
	if len(paste.Merged) != 3 {
		t.Fatalf("merged = %+v: want the entity line and both pattern lines", paste.Merged)
	}
	lines := make([]int, len(paste.Merged))
	for i, m := range paste.Merged {
		lines[i] = m.Line
	}
	// Take the second pattern's and the entity's values; keep the first pattern's peak.
	after := designertest.ApplyAll(t, d, paste.Taking([]int{lines[0], lines[2]}))
	clinic, _, _ := after.EntityByName("Clinic")
	p1, p2 := after.Patterns[0], after.Patterns[1]
	if clinic.Attributes[0].Type != designer.N || *p1.PeakRPS != 50 || *p1.AvgRPS != 20 || *p2.PeakRPS != 30 || *p2.AvgRPS != 5 {
		t.Errorf("clinic_id %s, pattern 1 %v/%v, pattern 2 %v/%v: want N, 50/20, 30/5",
			clinic.Attributes[0].Type, *p1.PeakRPS, *p1.AvgRPS, *p2.PeakRPS, *p2.AvgRPS)
	}
	// Taking no line keeps every value of the design, and still fills in the blanks.
	kept := designertest.ApplyAll(t, d, paste.Taking(nil))
	if clinic, _, _ := kept.EntityByName("Clinic"); clinic.Attributes[0].Type != designer.S || *kept.Patterns[1].PeakRPS != 10 || *kept.Patterns[1].AvgRPS != 5 {
		t.Errorf("taking none: %+v %+v", clinic.Attributes, kept.Patterns[1])
	}
	if paste.Change.Patterns[0]["peak_rps"] != "80" {
		t.Errorf("Taking changed the paste's own change: %v", paste.Change.Patterns[0])
	}
}

// A pasted pattern that merges into one the design has, naming its entities, is read against the
// design: the same entities written otherwise are no difference, others fill in or differ. This
// crashed the server when the entities were read against no design.
func TestAddInBulk_aMergedPatternsEntitiesReadAgainstTheDesign(t *testing.T) {
	t.Parallel()
	d := designertest.ApplyAll(t, blankDesign(t, ""), designer.AddInBulk{
		Entities: []designer.BulkEntity{{Name: "Clinic"}, {Name: "Vet"}},
		Patterns: []map[string]string{{"description": "List a clinic's vets", "peak_rps": "50", "entities": "Clinic, Vet"}, {"description": "Get a vet", "peak_rps": "5"}},
	})
	change := designer.AddInBulk{Patterns: []map[string]string{{"description": "List a clinic's vets", "entities": "clinic,  Vet"}, {"description": "Get a vet", "entities": "Vet"}}}
	after := designertest.ApplyAll(t, d, change)
	if got := after.Patterns[1].Entities; len(got) != 1 || got[0] != "Vet" {
		t.Errorf("Get a vet's entities = %q, want Vet filled in", got)
	}
	paste := parseBulk("Description | Entities\nList a clinic's vets | Clinic, Vet\nGet a vet | Vet", d)
	if len(paste.Merged) != 1 || paste.Merged[0].Fills[0] != "entities Vet" || len(paste.Already) != 1 {
		t.Errorf("merged %+v, already %v: want the second line to fill in and the first to be there", paste.Merged, paste.Already)
	}
}
