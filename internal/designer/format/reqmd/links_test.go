package reqmd

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/rules"
)

func TestLinkedEntities_namesAndAttributes(t *testing.T) {
	t.Parallel()
	entities := []designer.Entity{
		{Name: "User", Attributes: []designer.Attribute{{Name: "hashedPassword", Type: designer.S}, {Name: "user_id", Type: designer.S}}},
		{Name: "Orders", Attributes: []designer.Attribute{{Name: "user_id", Type: designer.S}, {Name: "total", Type: designer.N}}},
		{Name: "OrderItems"},
		{Name: "Category"},
		{Name: "Address"},
	}
	tests := []struct {
		description string
		attributes  []string
		want        []string
	}{
		{"Get user profile by user ID", nil, []string{"User"}},
		{"Get USERS", nil, []string{"User"}},
		{"List an order", nil, []string{"Orders"}},
		{"Get child categories by parent ID", nil, []string{"Category"}},
		{"Show the order items of an order", nil, []string{"Orders", "OrderItems"}},
		{"Show order items", nil, []string{"OrderItems"}},
		{"Update addresses", nil, []string{"Address"}},
		// A name that only names a key links nothing.
		{"Get products by user ID", []string{"user_id"}, nil},
		// An attribute only one entity declares links it; one several declare links none.
		{"Change a password", []string{"hashedPassword"}, []string{"User"}},
		{"Sum totals", []string{"user_id", "total"}, []string{"Orders"}},
		{"Browse", []string{"category data"}, []string{"Category"}},
		{"Users' orders", nil, []string{"User", "Orders"}},
		{"Nothing here", []string{"price"}, nil},
	}
	for _, tt := range tests {
		got := newEntityIndex(entities).linked(designer.Pattern{Description: tt.description, Attributes: tt.attributes})
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q %q → %q, want %q", tt.description, tt.attributes, got, tt.want)
		}
	}
}

// A file in the template links each pattern to the entities it names, and REQ003 then sees that
// loans are read but never written.
func TestImport_patternsAreLinkedToTheEntitiesTheyName(t *testing.T) {
	t.Parallel()
	d, notes, err := Import(readFixture(t, "wild-links.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: "Member", 2: "Member", 3: "Book", 4: "Book", 5: "Member,Loans"}
	for n, w := range want {
		if got := strings.Join(designertest.Pattern(t, d, n).Entities, ","); got != w {
			t.Errorf("pattern %d entities %q, want %q", n, got, w)
		}
	}
	if !hasNoteAt(notes, 15, "pattern 5 was linked to Member and Loans") {
		t.Errorf("no note on line 15 says pattern 5 was linked: %v", notes)
	}
	var req003 []string
	for _, f := range rules.Validate(d) {
		switch f.Code {
		case "REQ003":
			req003 = append(req003, f.Message)
		case "REQ004":
			t.Errorf("every pattern states all four key requirements, yet: %s", f.Message)
		}
	}
	if len(req003) != 1 || !strings.HasPrefix(req003[0], "Loans is read by") {
		t.Errorf("REQ003 %q, want one: Loans is read but never written", req003)
	}
	assertFixedPoint(t, d)
}

// Links the team removed stay removed: the export says "Entities:" for a pattern the import would
// link again.
func TestExport_unlinkedPatternStaysUnlinked(t *testing.T) {
	t.Parallel()
	d, _, err := Import(readFixture(t, "wild-links.md"))
	if err != nil {
		t.Fatal(err)
	}
	d.Patterns[1].Entities = nil
	out := Export(d)
	if !strings.Contains(string(out), "| Simple PK lookup<br>Entities: |") {
		t.Errorf("pattern 2 without entities is not written with an empty Entities line")
	}
	back, _, err := Import(out)
	if err != nil {
		t.Fatal(err)
	}
	if e := designertest.Pattern(t, back, 2).Entities; len(e) != 0 {
		t.Errorf("pattern 2 came back linked to %q", e)
	}
	assertFixedPoint(t, d)
}

// Counts written in a relationship's own words are read exactly or not at all: "1,500" is not 1,
// "12.5" is not 12. The words stay in the notes either way.
func TestImport_relationshipCountsKeepTheirPrecision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value    string
		avg, max string
	}{
		{"1:Many (avg 1.6 pets per owner, max 12)", "1.6", "12"},
		{"1:Many (owners have pets, avg 1.6 pets per owner, max 12)", "1.6", "12"},
		{"1:Many (busy shops, avg 1,500 orders a day, up to 20,000)", "1500", "20000"},
		{"1:Many (avg 2.25, max 12.5 on average)", "2.25", ""},
		{"1:Many (average: 0.75 per day, maximum 3)", "0.75", "3"},
	}
	for _, tt := range tests {
		rv := parseRelationshipValue(tt.value)
		avg, maxCount := "", ""
		if rv.avg != nil {
			avg = formatNumber(*rv.avg)
		}
		if rv.max != nil {
			maxCount = formatNumber(float64(*rv.max))
		}
		if avg != tt.avg || maxCount != tt.max {
			t.Errorf("%q → avg %q max %q, want avg %q max %q", tt.value, avg, maxCount, tt.avg, tt.max)
		}
	}
	d, _, err := Import(readFixture(t, "wild-links.md"))
	if err != nil {
		t.Fatal(err)
	}
	if out := string(Export(d)); !strings.Contains(out, "(avg 1.6 loans per member, max 12)") || !strings.Contains(out, "(avg 2.5 loans per book, max 1500)") {
		t.Errorf("the relationships' counts changed on export:\n%s", out)
	}
}

// linkingDocument is a requirement document of 200 patterns over 50 entities whose rows do not say
// their entities: each pattern names two in its description and a third by an attribute only that
// entity declares.
func linkingDocument(tb testing.TB) []byte {
	tb.Helper()
	d := largeRequirementsDesign(200)
	d.Entities, d.Relationships = nil, nil
	for i := range 50 {
		d.Entities = append(d.Entities, designer.Entity{Name: fmt.Sprintf("Thing%dItems", i),
			Attributes: []designer.Attribute{{Name: fmt.Sprintf("thing%d_code", i), Type: designer.S}}})
	}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		p.Description = fmt.Sprintf("Get the thing%d items of a thing%d items by its id", i%50, (i+7)%50)
		p.Attributes = []string{"pk", fmt.Sprintf("thing%d_code", (i+3)%50)}
		p.Entities = nil
	}
	// Export says "no entities" where the import would link; this document says nothing.
	doc := bytes.ReplaceAll(Export(designer.Normalize(d)), []byte("<br>Entities: |"), []byte(" |"))
	if bytes.Contains(doc, []byte("Entities:")) {
		tb.Fatal("the document says its patterns' entities")
	}
	return doc
}

// Linking 200 patterns to 50 entities alone, against importing the whole document that holds
// them (the anchor): the ratio is linking's share of the import.
func BenchmarkImport_linkingPatternsToEntities(b *testing.B) {
	data := linkingDocument(b)
	d, _, err := Import(data)
	if err != nil {
		b.Fatal(err)
	}
	if got := strings.Join(d.Patterns[0].Entities, ","); got != "Thing0Items,Thing3Items,Thing7Items" {
		b.Fatalf("pattern 1 linked to %q", got)
	}
	b.Run("anchor_import", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Import(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("linking", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ix := newEntityIndex(d.Entities)
			for _, p := range d.Patterns {
				ix.linked(p)
			}
		}
	})
}
