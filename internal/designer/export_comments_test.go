package designer

import (
	"bytes"
	"slices"
	"testing"
)

func TestComments_areInNoMarkdownExport(t *testing.T) {
	const secret = "Comment-only remark 7f3a: keep out of exports"
	d := applyAll(t, hrDesign(t),
		comment("access_patterns/ap4", "", secret),
		comment("tables/Employee", "", secret+" (table)"),
		comment("tables/Employee/indexes/EmployeesByTitle", "", secret+" (index)"),
	)
	var checked []string
	for _, f := range ExportFormats() {
		if !f.Markdown {
			continue
		}
		checked = append(checked, f.ID)
		out, err := f.Write(d)
		if err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		if bytes.Contains(out, []byte("7f3a")) {
			t.Errorf("%s export contains a comment", f.ID)
		}
		without, err := f.Write(hrDesign(t))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, without) {
			t.Errorf("%s export differs with comments added", f.ID)
		}
	}
	for _, id := range []string{"requirements-md", "data-model-md"} {
		if !slices.Contains(checked, id) {
			t.Errorf("%s is not a markdown export format; checked %v", id, checked)
		}
	}
}
