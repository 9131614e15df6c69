package format_test

import (
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/format/reqmd"
)

// An entity's attributes, in each spelling the documents use, read the same pasted as an entity
// row ("Entity | Attribute | Type"), imported from the requirement's entities appendix and
// imported from a data model table's attribute list: one reader reads all three.
func TestEntityRows_pastedAndImportedAlike(t *testing.T) {
	t.Parallel()
	desc := "the pet's name"
	for _, tc := range []struct {
		name string
		// cell is the attribute cell pasted, typ the paste's Type column.
		cell, typ string
		// bullet is the requirement's attribute sub-bullet; "" where it writes none (a list).
		bullet string
		want   []designer.Attribute
	}{
		{"letter", "pet_id (S)", "", "- pet_id (S)", []designer.Attribute{{Name: "pet_id", Type: "S"}}},
		{"type column", "pet_id", "S", "- pet_id (S)", []designer.Attribute{{Name: "pet_id", Type: "S"}}},
		{"string", "pet_id (string)", "", "- pet_id (string)", []designer.Attribute{{Name: "pet_id", Type: "S"}}},
		{"String column", "pet_id", "String", "- pet_id (String)", []designer.Attribute{{Name: "pet_id", Type: "S"}}},
		{"N", "weight (N)", "", "- weight (N)", []designer.Attribute{{Name: "weight", Type: "N"}}},
		{"number column", "weight", "number", "- weight (number)", []designer.Attribute{{Name: "weight", Type: "N"}}},
		{"Integer", "weight (Integer)", "", "- weight (Integer)", []designer.Attribute{{Name: "weight", Type: "N"}}},
		{"colon", "weight: N", "", "- weight: N", []designer.Attribute{{Name: "weight", Type: "N"}}},
		{"PK mark", "pet_id (S, PK)", "", "- pet_id (S, PK)", []designer.Attribute{{Name: "pet_id", Type: "S"}}},
		{"key mark in the type column", "owner_id", "S (key)", "- owner_id (S, key)", []designer.Attribute{{Name: "owner_id", Type: "S"}}},
		{"description", "name (S): " + desc, "", "- name (S): " + desc, []designer.Attribute{{Name: "name", Type: "S", Description: desc}}},
		{"code and dash", "`name` (String) - " + desc, "", "- `name` (String) - " + desc, []designer.Attribute{{Name: "name", Type: "S", Description: desc}}},
		{"list in one cell", "pet_id (S), name (S), weight (N)", "", "",
			[]designer.Attribute{{Name: "pet_id", Type: "S"}, {Name: "name", Type: "S"}, {Name: "weight", Type: "N"}}},
		{"list of names and types", "pet_id:S, weight:number", "", "",
			[]designer.Attribute{{Name: "pet_id", Type: "S"}, {Name: "weight", Type: "N"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := designer.New("Pets")
			if err != nil {
				t.Fatal(err)
			}
			paste := designer.ParseBulkWith("Entity | Attribute | Type\nPet | "+strings.ReplaceAll(tc.cell, "|", `\|`)+" | "+tc.typ, d,
				designer.BulkReaders{Entity: markdown.PastedEntity})
			if len(paste.Problems) > 0 {
				t.Fatalf("paste problems: %+v", paste.Problems)
			}
			after, err := paste.Change.Apply(d)
			if err != nil {
				t.Fatal(err)
			}
			pet, _, _ := after.EntityByName("Pet")
			if !slices.Equal(pet.Attributes, tc.want) {
				t.Errorf("pasted: %+v, want %+v", pet.Attributes, tc.want)
			}

			if tc.bullet != "" {
				req, _, err := reqmd.Import([]byte("# DynamoDB Modeling Session\n\n## Appendix: Entities and Their Attributes\n\n- **Pet**:\n  " + tc.bullet + "\n"))
				if err != nil {
					t.Fatal(err)
				}
				if e, _, _ := req.EntityByName("Pet"); !slices.Equal(e.Attributes, tc.want) {
					t.Errorf("requirement: %+v, want %+v", e.Attributes, tc.want)
				}
			}

			list := tc.cell
			if tc.typ != "" {
				list += " (" + strings.NewReplacer("(", "", ")", "").Replace(strings.Replace(tc.typ, " (", ", ", 1)) + ")"
			}
			dm, _, err := datamodelmd.Import([]byte("# DynamoDB Data Model\n\n## Table Designs\n\n### Pets Table\n\n" +
				"- **Partition Key**: pet_id (S) - one item per pet\n- **Attributes**: " + list + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			tbl, _, _ := dm.TableByName("Pets")
			got := slices.DeleteFunc(slices.Clone(tbl.Attributes), func(a designer.Attribute) bool {
				return !slices.ContainsFunc(tc.want, func(w designer.Attribute) bool { return w.Name == a.Name })
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("data model: %+v (of %+v), want %+v", got, tbl.Attributes, tc.want)
			}
		})
	}
}
