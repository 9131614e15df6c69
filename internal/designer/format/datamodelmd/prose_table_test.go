package datamodelmd

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A team's note under an index holding a table written without outer pipes ("0|0" over "-|-")
// is prose: the export writes it so that it reads back as the same note, and the index's own
// sample table, which the export writes after it, is not mistaken for prose (FuzzImport found this).
func TestExport_pipelessTableInIndexProseStaysProse(t *testing.T) {
	t.Parallel()
	d := sparseIndexesDesign()
	note := "Counts per day:\nday|orders\n-|-\nmon|3"
	d.Prose.Sections = append(d.Prose.Sections,
		designer.Section{Title: "OpenOrders GSI (Orders Table)", Body: note},
		designer.Section{Title: "Orders Table", Body: "a|b|c\n--|--|--"},
	)
	back := assertDataModelFixedPoint(t, d)
	out := string(Export(d))
	if !strings.Contains(out, "day|orders\n\\-|-\nmon|3") || !strings.Contains(out, "a|b|c\n\\--|--|--") {
		t.Errorf("the delimiter rows of the tables in prose were not escaped:\n%s", out)
	}
	for _, title := range []string{"OpenOrders GSI (Orders Table)", "Orders Table"} {
		if _, ok := designertest.ProseTitled(back, title); !ok {
			t.Errorf("the note under %q did not come back: %+v", title, back.Prose.Sections)
		}
	}
	if got, _ := designertest.ProseTitled(back, "OpenOrders GSI (Orders Table)"); !strings.Contains(got.Body, "day|orders") || strings.Contains(got.Body, "---") {
		t.Errorf("the index's note came back as %q; want the team's table and no sample table", got.Body)
	}
	if len(back.Tables) != 1 || len(back.Tables[0].Items) != len(d.Tables[0].Items) || len(back.Tables[0].GSIs) != len(d.Tables[0].GSIs) {
		t.Errorf("prose was read as structure: %d tables", len(back.Tables))
	}
}
