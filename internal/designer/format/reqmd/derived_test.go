package reqmd

import (
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/rules"
)

// givenChecklist is the Derived of a design whose checklist is its own, counting how often it
// is asked for.
type givenChecklist struct {
	afresh
	asked int
}

func (g *givenChecklist) Checklists() rules.Checklists {
	g.asked++
	return rules.Checklists{Requirements: []rules.ChecklistItem{{Item: "Given by the revision's derived results"}}}
}

// ExportFrom validates nothing: its Validation Checklist is the one the revision's derived
// results hold, asked for once.
func TestExportFrom_writesTheChecklistItIsGiven(t *testing.T) {
	t.Parallel()
	x := &givenChecklist{afresh: afresh{designertest.HRDesign(t)}}
	doc := string(ExportFrom(x, markdown.ExportOptions{}))
	if !strings.Contains(doc, "- [ ] Given by the revision's derived results\n") {
		t.Errorf("the Validation Checklist is not the one the derived results give:\n%s", doc[strings.Index(doc, "## "+titleChecklist):])
	}
	if x.asked != 1 {
		t.Errorf("asked for the checklists %d times; want once", x.asked)
	}
}
