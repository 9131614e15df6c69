package format

import (
	"bytes"
	"slices"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestComments_areInNoMarkdownExport(t *testing.T) {
	t.Parallel()
	const secret = "Comment-only remark 7f3a: keep out of exports"
	comment := func(target, body string) designer.AddComment {
		return designer.AddComment{Target: target, Body: body, Author: "Ada", At: "2025-03-01T09:30:00Z"}
	}
	d := designertest.ApplyAll(t, designertest.HRDesign(t),
		comment("access_patterns/ap4", secret),
		comment("tables/Employee", secret+" (table)"),
		comment("tables/Employee/indexes/EmployeesByTitle", secret+" (index)"),
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
		without, err := f.Write(designertest.HRDesign(t))
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
