package designer

import (
	"strconv"
	"strings"
)

// Field is one field of a row kind (a table, an index) that a person sets by typing: its key, the
// name forms, changes and paths use; its label, as a change's summary names it; Get, its value as
// a form shows it; and set, how SetTableField or SetIndexField reads the text typed. TableFields
// and IndexFields are the one place each field is spelled.
type Field[R any] struct {
	Key, Label string
	Get        func(R) string
	set        func(r *R, key, value string) error
}

// textField is a free-text field, cleaned as CleanText cleans it; blank clears it.
func textField[R any](key, label string, at func(*R) *string) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string { return *at(&r) },
		set: func(r *R, key, value string) (err error) {
			*at(r), err = CleanText(key, value)
			return err
		}}
}

// countField is a whole number of capacity units; blank clears it.
func countField[R any](key, label string, at func(*R) **int64) Field[R] {
	return Field[R]{Key: key, Label: label,
		Get: func(r R) string {
			if n := *at(&r); n != nil {
				return strconv.FormatInt(*n, 10)
			}
			return ""
		},
		set: func(r *R, _, value string) (err error) {
			*at(r), err = parseCount(value)
			return err
		}}
}

func keyOfField[R any](f *Field[R]) string { return f.Key }

// TableFields are the fields SetTableField sets, in the order a form shows them. The billing mode
// may be written "on-demand" or "provisioned"; a blank TTL attribute turns TTL off.
var TableFields = []Field[Table]{
	textField("purpose", "purpose", func(t *Table) *string { return &t.Purpose }),
	textField("aggregate_boundary", "aggregate boundary", func(t *Table) *string { return &t.AggregateBoundary }),
	textField("partition_key_justification", "partition key justification", func(t *Table) *string { return &t.PartitionKeyWhy }),
	textField("sort_key_justification", "sort key justification", func(t *Table) *string { return &t.SortKeyWhy }),
	textField("bounded_read_strategy", "bounded read strategy", func(t *Table) *string { return &t.BoundedReads }),
	textField("capacity_notes", "capacity notes", func(t *Table) *string { return &t.Capacity }),
	{Key: "ttl_attribute", Label: "TTL attribute",
		Get: func(t Table) string { return t.TTLAttribute },
		set: func(t *Table, key, value string) (err error) {
			t.TTLAttribute = ""
			if strings.TrimSpace(value) != "" {
				t.TTLAttribute, err = CleanName(key, value)
			}
			return err
		}},
	{Key: "billing_mode", Label: "billing mode",
		Get: func(t Table) string { return t.BillingMode },
		set: func(t *Table, _, value string) (err error) {
			t.BillingMode, err = ParseBillingMode(value)
			return err
		}},
	countField("read_capacity_units", "read capacity units", func(t *Table) **int64 { return &t.ReadUnits }),
	countField("write_capacity_units", "write capacity units", func(t *Table) **int64 { return &t.WriteUnits }),
}

// IndexFields are the fields SetIndexField sets, in the order a form shows them; sparse is yes or
// no.
var IndexFields = []Field[Index]{
	textField("purpose", "purpose", func(ix *Index) *string { return &ix.Purpose }),
	textField("partition_key_justification", "partition key justification", func(ix *Index) *string { return &ix.PartitionKeyWhy }),
	textField("sort_key_justification", "sort key justification", func(ix *Index) *string { return &ix.SortKeyWhy }),
	textField("projection_justification", "projection justification", func(ix *Index) *string { return &ix.ProjectionWhy }),
	{Key: "sparse", Label: "sparse flag",
		Get: func(ix Index) string {
			if ix.Sparse {
				return "yes"
			}
			return "no"
		},
		set: func(ix *Index, _, value string) error {
			sparse, err := ParseTriState(value)
			if err == nil {
				ix.Sparse = sparse != nil && *sparse
			}
			return err
		}},
	textField("sparse_note", "sparse note", func(ix *Index) *string { return &ix.SparseNote }),
	textField("capacity_notes", "capacity notes", func(ix *Index) *string { return &ix.Capacity }),
}
