package datamodelmd

import (
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A table named as a word of the operation grammar ("WHERE", "FROM", "AND", "Index") is written
// in quotes in the mapping, and reads back as the table each operation runs on, with no note.
func TestImport_aTableNamedAsAGrammarWordReadsBack(t *testing.T) {
	base := designertest.OrdersDesign()
	from := base.Tables[0].Name
	_, want, err := Import(Export(base))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"WHERE", "FROM", "where", "From", "AND", "using", "Index", "Limit", "filter", "Query", "Scan"} {
		d := designertest.ApplyAll(t, base, designer.RenameTable{Table: from, To: name})
		got, notes, err := Import(Export(d))
		if err != nil {
			t.Fatalf("table %s: %v", name, err)
		}
		// The notes are the ones the same design gives with its table named Orders.
		var gotNotes, wantNotes []string
		for _, n := range notes {
			gotNotes = append(gotNotes, strings.ReplaceAll(n.Message, name, from))
		}
		for _, n := range want {
			wantNotes = append(wantNotes, n.Message)
		}
		if !slices.Equal(gotNotes, wantNotes) {
			t.Errorf("table %s: notes\n%s\nwant\n%s", name, strings.Join(gotNotes, "\n"), strings.Join(wantNotes, "\n"))
		}
		for i, p := range d.Patterns {
			for j, op := range p.Mapping.Operations {
				if op.Table != name {
					continue
				}
				if back := got.Patterns[i].Mapping.Operations; j >= len(back) || back[j].Table != name {
					t.Errorf("table %s: pattern %d's operation %d reads back as %+v", name, p.Number, j+1, back)
				}
			}
		}
	}
}
