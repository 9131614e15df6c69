package datamodelmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// proseTaxonomyDoc is a data model whose Owners table gives its SK taxonomy as taxonomy.
func proseTaxonomyDoc(taxonomy string) string {
	return "# DynamoDB Data Model\n\n## Table Designs\n\n### Owners Table\n\n" +
		"| owner_id | record | name |\n|---|---|---|\n| o-1 | PROFILE | Ada |\n| o-1 | PET#p-1 | |\n\n" +
		"- **Purpose**: owners with their pets\n" +
		"- **Partition Key**: owner_id (S)\n" +
		"- **Sort Key**: record (S)\n" +
		"- **SK Taxonomy**: " + taxonomy + "\n" +
		"- **Attributes**: owner_id (S), record (S), pet_id (S)\n"
}

// An SK taxonomy written as prose, without backticks, gives the entity types and templates the
// backticked form gives: each form a team writes, held to what a reader of it understands.
func TestImport_proseSKTaxonomyBecomesKeyTemplates(t *testing.T) {
	t.Parallel()
	type et struct{ entity, sk string }
	for _, c := range []struct {
		name, taxonomy string
		want           []et
	}{
		{"a list with what each is", "PROFILE for the owner item, PET#<pet_id> for each pet",
			[]et{{"Owner", "PROFILE"}, {"Pet", "PET#{pet_id}"}}},
		{"sentences", "the owner's item has SK PROFILE; each pet PET#pet_id",
			[]et{{"Owner", "PROFILE"}, {"Pet", "PET#{pet_id}"}}},
		{"a bulleted list under the bullet", "\n  - PROFILE: the owner\n  - PET#{pet_id}: one per pet",
			[]et{{"Owner", "PROFILE"}, {"Pet", "PET#{pet_id}"}}},
		{"the backticked form, as before", "`PROFILE` (Owner), `PET#<pet_id>` (one per pet)",
			[]et{{"Owner", "PROFILE"}, {"Pet", "PET#{pet_id}"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, notes, err := Import([]byte(proseTaxonomyDoc(c.taxonomy)))
			if err != nil {
				t.Fatal(err)
			}
			var got []et
			for _, x := range d.Tables[0].EntityTypes {
				got = append(got, et{x.Entity, x.SKTemplate})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("entity types %v, want %v; notes %v", got, c.want, notes)
			}
		})
	}
}

// A prose taxonomy that cannot be read without guessing stays prose, with a note naming the table;
// one that names no template at all ("None") stays prose quietly, as before.
func TestImport_anUnclearProseTaxonomyStaysProseWithANote(t *testing.T) {
	t.Parallel()
	d, notes, err := Import([]byte(proseTaxonomyDoc("PROFILE for the owner, and pets under PET or PETS#pet_id")))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Tables[0].EntityTypes); n != 0 {
		t.Errorf("an unclear taxonomy gave %d entity types: %+v", n, d.Tables[0].EntityTypes)
	}
	if !hasNote(notes, "table Owners: the SK taxonomy") {
		t.Errorf("no note names the table; notes: %v", notes)
	}
	if !keptAsProse(d, "PETS#pet_id") {
		t.Errorf("the taxonomy's text was not kept: %+v", d.Prose.Sections)
	}

	_, notes, err = Import([]byte(proseTaxonomyDoc("None: one item per owner")))
	if err != nil {
		t.Fatal(err)
	}
	if hasNote(notes, "SK taxonomy") {
		t.Errorf("a taxonomy with no template drew a note: %v", notes)
	}
}

func hasNote(notes []designer.ImportNote, part string) bool {
	for _, n := range notes {
		if strings.Contains(n.Message, part) {
			return true
		}
	}
	return false
}

// keptAsProse reports whether text is anywhere in the design, wherever the import kept it.
func keptAsProse(d designer.Design, text string) bool {
	b, err := json.Marshal(d)
	return err == nil && strings.Contains(string(b), text)
}
