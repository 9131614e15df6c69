package datamodelmd

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/rules"
)

// Derived is what the document shows of a revision that is worked out from it rather than
// written in it: the validation checklists, the capacity report, each table's items in key order
// and each index's view of them. Package derive works them out once per revision (derive.Derived has these
// methods); the document reads them there instead of working them out again.
type Derived interface {
	// Design is the revision, normalized (designer.Normalize), as every stored revision is.
	Design() designer.Design
	Checklists() rules.Checklists
	Capacity() capacity.Report
	// TableOrder is designer.TableOrder of a table of the design; it is not modified.
	TableOrder(t designer.Table) []designer.Row
	IndexView(t designer.Table, ix designer.Index, lsi bool) dynamo.IndexView
}

// afresh is the Derived of a design no one has worked anything out for: each part is worked out
// when the document asks for it.
type afresh struct{ d designer.Design }

func (a afresh) Design() designer.Design                    { return a.d }
func (a afresh) Checklists() rules.Checklists               { return rules.Checklist(a.d) }
func (a afresh) Capacity() capacity.Report                  { return capacity.Compute(a.d, nil) }
func (a afresh) TableOrder(t designer.Table) []designer.Row { return designer.TableOrder(t) }
func (a afresh) IndexView(t designer.Table, ix designer.Index, lsi bool) dynamo.IndexView {
	return dynamo.IndexItems(t, ix, lsi)
}
