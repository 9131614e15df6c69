package datamodelmd

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/rules"
)

// countingDerived is the Derived of a design that counts what the document asks of it, and
// gives a checklist of its own, so that a document can be seen to show what it was given.
type countingDerived struct {
	afresh
	checklists, capacity, orders, views int
}

func (c *countingDerived) Checklists() rules.Checklists {
	c.checklists++
	return rules.Checklists{DataModel: []rules.ChecklistItem{{Item: "Given by the revision's derived results", OK: true}}}
}

func (c *countingDerived) Capacity() capacity.Report {
	c.capacity++
	return c.afresh.Capacity()
}

func (c *countingDerived) TableOrder(t designer.Table) []designer.Row {
	c.orders++
	return c.afresh.TableOrder(t)
}

func (c *countingDerived) IndexView(t designer.Table, ix designer.Index, lsi bool) dynamo.IndexView {
	c.views++
	return c.afresh.IndexView(t, ix, lsi)
}

// ExportFrom works out none of what the revision's derived results hold: it asks for the
// checklists and the capacity report once, each table's order and each index's view once, and
// writes what it is given.
func TestExportFrom_readsTheRevisionsDerivedResults(t *testing.T) {
	t.Parallel()
	d := designertest.Large(designertest.Size{Tables: 3, Items: 60, GSIs: 5, Patterns: 12})
	x := &countingDerived{afresh: afresh{d}}
	doc := string(ExportFrom(x, markdown.ExportOptions{}))
	if !strings.Contains(doc, "- [x] Given by the revision's derived results\n") {
		t.Errorf("the Validation Results are not the checklist the derived results give:\n%s", doc[strings.Index(doc, "## "+validationHead):])
	}
	indexes := 0
	for _, tb := range d.Tables {
		indexes += len(tb.GSIs) + len(tb.LSIs)
	}
	if x.checklists != 1 || x.capacity != 1 || x.orders != len(d.Tables) || x.views != indexes {
		t.Errorf("asked for the checklists %d times, the capacity %d, table orders %d and index views %d; want 1, 1, %d and %d",
			x.checklists, x.capacity, x.orders, x.views, len(d.Tables), indexes)
	}
}
