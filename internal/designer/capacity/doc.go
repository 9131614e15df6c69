// Package capacity owns what a design costs to run: per access pattern, the items and bytes each
// of its operations reads, the read and write units each request takes and the index writes each
// write causes, evaluated against the sample items (package dynamo) or, where those are too few,
// taken from the requirement's result bound and item size band; per table and index, the read and
// write units per second at peak and average, the monthly cost on demand and provisioned, the
// cheaper mode and the break-even, and the storage; and the prices those figures use, with their
// source and date, overridden by the design's own (designer.CapacitySettings).
//
// Everything here is derived from one revision of a design and never stored (package derive holds
// it per revision). The hot-key figures of each partition key (HotKey) are filled in by the
// cardinality and hot-partition code of this package; the findings CAP001–CAP005 are package
// rules'. The package imports designer and dynamo only.
package capacity
