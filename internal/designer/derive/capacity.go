package derive

import "dynaloom/internal/designer/capacity"

// Capacity is the capacity report of the design: the one the CAP rules judged, worked out once
// per revision with the findings.
func (x *Derived) Capacity() capacity.Report {
	x.Findings()
	return x.memo.Load().Capacity()
}
