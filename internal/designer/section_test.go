package designer_test

import (
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestCheck_sectionDocumentIsTheRequirementDocumentOrLeftOut(t *testing.T) {
	t.Parallel()
	d := designer.Normalize(designer.Design{Name: "Orders"})
	for _, doc := range []string{"", designer.RequirementDocument} {
		d.Prose.Sections = []designer.Section{{Title: "Notes", Body: "text", Document: doc}}
		if err := designer.Check(d); err != nil {
			t.Errorf("document %q: %v", doc, err)
		}
	}
	d.Prose.Sections = []designer.Section{{Title: "Notes", Body: "text"}, {Title: "More", Body: "text", Document: "data-model"}}
	designertest.WantValidationError(t, designer.Check(d), "prose/sections/1/document")
}
