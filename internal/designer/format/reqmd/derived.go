package reqmd

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
)

// Derived is what the document shows of a revision that is worked out from it rather than
// written in it: the validation checklists. Package derive works them out once per revision
// (derive.Derived has these methods); the document reads them there instead of working them out
// again.
type Derived interface {
	Design() designer.Design
	Checklists() rules.Checklists
}

// afresh is the Derived of a design no one has worked anything out for.
type afresh struct{ d designer.Design }

func (a afresh) Design() designer.Design      { return a.d }
func (a afresh) Checklists() rules.Checklists { return rules.Checklist(a.d) }
