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

// Lines of a team's note that the importer would read as structure (a field label under a table,
// a heading, a table's delimiter row) are written behind a backslash, and read back without it:
// the note comes back as the team wrote it, and renders as it did.
func TestImport_proseComesBackAsWrittenWithoutTheExportsBackslashes(t *testing.T) {
	t.Parallel()
	d := sparseIndexesDesign()
	notes := map[string]string{
		"Orders Table":                  "**Purpose:** what the finance team reads\n**Billing mode**: on demand, for now\nday|orders\n-|-\nmon|3",
		"OpenOrders GSI (Orders Table)": "## Why sparse\nOnly open orders carry the key.\n**Projection:** all, for the dashboard",
	}
	for title, body := range notes {
		d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: title, Body: body})
	}
	back := assertDataModelFixedPoint(t, d)
	out := string(Export(d))
	if !strings.Contains(out, `\**Purpose:**`) || !strings.Contains(out, `\## Why sparse`) {
		t.Errorf("the export did not escape the lines that read as structure:\n%s", out)
	}
	for title, body := range notes {
		got, ok := designertest.ProseTitled(back, title)
		if !ok || got.Body != body {
			t.Errorf("the note under %q came back as %q, want %q", title, got.Body, body)
		}
	}
}
