package reqmd_test

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/reqmd"
	"dynaloom/internal/designer/rules"
)

// The requirement's own pattern table, pasted into a design that has its entities, reads as the
// import reads it: Key Requirements split, entities linked, and no REQ004 or REQ005 the import
// does not give.
func TestPastedPattern_readsThePatternTableAsTheImportDoes(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../testdata/pairs/vetclinic-dynamodb_requirement.md")
	if err != nil {
		t.Fatal(err)
	}
	imported, _, err := reqmd.Import(doc)
	if err != nil {
		t.Fatal(err)
	}
	var table []string
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| Pattern #") || len(table) > 0 && strings.HasPrefix(line, "|") {
			table = append(table, line)
		} else if len(table) > 0 {
			break
		}
	}
	base := imported
	base.Patterns = nil
	paste := designer.ParseBulkWith(strings.Join(table, "\n"), base, designer.BulkReaders{Pattern: reqmd.PastedPattern})
	if len(paste.Problems) > 0 {
		t.Fatalf("problems: %+v", paste.Problems)
	}
	pasted, err := paste.Change.Apply(base)
	if err != nil {
		t.Fatal(err)
	}
	if len(pasted.Patterns) != len(imported.Patterns) {
		t.Fatalf("%d patterns pasted, %d imported", len(pasted.Patterns), len(imported.Patterns))
	}
	for i, p := range imported.Patterns {
		for _, f := range designer.PatternFields {
			if f.Key == designer.PatternField.Considerations.Key {
				continue // the import keeps unread cells there with its notes
			}
			if got, want := f.Get(pasted.Patterns[i]), f.Get(p); got != want {
				t.Errorf("pattern %d %s: pasted %q, imported %q", p.Number, f.Key, got, want)
			}
		}
	}
	count := func(d designer.Design, code string) int {
		return len(slices.DeleteFunc(rules.Validate(d), func(f rules.Finding) bool { return f.Code != code }))
	}
	for _, code := range []string{"REQ004", "REQ005"} {
		if got, want := count(pasted, code), count(imported, code); got != want {
			t.Errorf("%s: %d after the paste, %d after the import", code, got, want)
		}
	}
}

// The requirement's own aggregate section, pasted into a design with its entities, gives each
// pair the fields the import reads, with the plural heading resolved to the entity.
func TestPastedAggregates_readsTheSectionAsTheImportDoes(t *testing.T) {
	t.Parallel()
	d := designer.Design{Entities: []designer.Entity{{Name: "Owner"}, {Name: "Pet"}, {Name: "Clinic"}, {Name: "Vet"}}}
	section := `### Owner + Pets Item Collection Analysis
- **Access Correlation**: 90% of owner reads show the pets (pattern 1)
- **Size Constraints**: at most 13 small items, well under 1 KB per owner
- **Decision**: Item Collection
- **Justification**: one Query serves pattern 1

### Clinic + Vets Item Collection Analysis
- **Decision**: Separate tables
`
	pairs, _, err := reqmd.PastedAggregates(section, d, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 || pairs[0].EntityA != "Owner" || pairs[0].EntityB != "Pet" || pairs[1].EntityB != "Vet" {
		t.Fatalf("pairs = %+v", pairs)
	}
	// "well under 1 KB" is read as the import reads it: 1 KB combined, bounded.
	want := map[string]string{"correlation_pct": "90", "size_constraints": "at most 13 small items, well under 1 KB per owner",
		"combined_kb": "1", "bounded": "yes", "decision": designer.ItemCollection, "justification": "one Query serves pattern 1"}
	if !maps.Equal(pairs[0].Fill, want) {
		t.Errorf("fill = %v, want %v", pairs[0].Fill, want)
	}
	if pairs[1].Fill["decision"] != designer.SeparateTables {
		t.Errorf("second = %v", pairs[1].Fill)
	}

	// A card's paste may be its bullets alone; the heading is the card's pair.
	pairs, _, err = reqmd.PastedAggregates("- **Access Correlation**: 40%\n- **Decision**: separate", d, "Clinic", "Vet")
	if err != nil || len(pairs) != 1 || pairs[0].EntityA != "Clinic" || pairs[0].Fill["correlation_pct"] != "40" {
		t.Errorf("bullets alone = %+v, %v", pairs, err)
	}
	if _, _, err := reqmd.PastedAggregates("just some words", d, "", ""); err == nil || !strings.Contains(err.Error(), "text:") {
		t.Errorf("no section: %v", err)
	}
}

// The requirement's own relationship bullets, pasted after "add the key entities" made Clinic 1:M
// Vet, add the others with their counts and units and fill in the one there: no duplicate.
func TestPastedRelationship_readsTheBulletsAsTheImportDoes(t *testing.T) {
	t.Parallel()
	d := designer.Design{Entities: []designer.Entity{{Name: "Owner"}, {Name: "Pet"}, {Name: "Appointment"}, {Name: "Clinic"}, {Name: "Vet"}, {Name: "Invoice"}},
		Relationships: []designer.Relationship{{ID: "r1", From: "Clinic", To: "Vet", Kind: designer.OneToMany}}}
	text := `- **Owner → Pets**: 1:Many (avg 1.6 pets per owner, max 12)
- **Pet → Appointments**: 1:Many (4 appointments per pet per year, kept 7 years: about 28 per pet)
- **Clinic → Vets**: 1:Many (about 8 vets per clinic)
- **Vet → Appointments**: 1:Many (every appointment is with one vet)
- **Appointment → Invoice**: 1:1 (every appointment seen is invoiced; invoices are kept 7 years)`
	paste := designer.ParseBulkWith(text, d, designer.BulkReaders{Relationship: reqmd.PastedRelationship})
	if len(paste.Problems) > 0 {
		t.Fatalf("problems: %+v", paste.Problems)
	}
	after, err := paste.Change.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Relationships) != 5 {
		t.Fatalf("relationships = %+v, want 5", after.Relationships)
	}
	counts := map[string]string{}
	for _, r := range after.Relationships {
		counts[r.From+" "+r.Kind+" "+r.To] = r.Counts()
	}
	want := map[string]string{"Owner 1:M Pet": "avg 1.6 pets per owner, max 12", "Clinic 1:M Vet": "avg 8 vets per clinic",
		"Pet 1:M Appointment": "avg 4 appointments per pet per year", "Vet 1:M Appointment": "", "Appointment 1:1 Invoice": ""}
	if !maps.Equal(counts, want) {
		t.Errorf("counts = %v\nwant %v", counts, want)
	}
	if _, ok := reqmd.PastedRelationship("Entity | Attribute", d); ok {
		t.Error("a header row read as a relationship")
	}
}
