package dynamo

import (
	"maps"
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// Completing an operation from the sample items. A design imported from markdown says
// "GetItem(owner_id)": its key condition "owner_id = :owner_id" names a placeholder without a value,
// and its expressions use attribute names such as status or day, which DynamoDB reserves. Complete
// gives every reserved word a #placeholder and each missing value the value of a sample item the
// operation then matches, found by running it: the first item of the table, in the table's order,
// that holds every attribute the placeholders stand for and that the completed operation reads (or,
// for a write, writes without a failed condition). The MCP model export writes the completed
// operation as its command; the rules (MAP011) say when no sample item completes one, so the two
// never disagree.

// maxCompleteTries bounds how many sample items are tried for one operation, so that a large table
// costs a bounded number of evaluations.
const maxCompleteTries = 50

// Missing is one :placeholder an operation uses without a value, and the attribute it stands for.
type Missing struct {
	Placeholder, Attribute string
}

// AliasReservedWords returns op with every reserved word used bare in its expressions given a
// #placeholder; op's own names are copied, never changed in place.
func AliasReservedWords(op designer.Operation) designer.Operation {
	names := op.Names
	for _, e := range []*string{&op.KeyCondition, &op.Filter, &op.Projection, &op.Condition} {
		if *e != "" {
			*e, names = AliasReserved(*e, names, false)
		}
	}
	if op.Update != "" {
		op.Update, names = AliasReserved(op.Update, names, true)
	}
	op.Names = names
	return op
}

// MissingValues are the :placeholders op's expressions use that its values do not give, in the
// order written, each with the attribute it is compared with (or, compared with none, the
// attribute named after it).
func MissingValues(op designer.Operation) []Missing {
	exprs := []string{op.KeyCondition, op.Filter, op.Condition, op.Update}
	var out []Missing
	for _, e := range exprs {
		for _, ph := range ValuePlaceholders(e) {
			if _, given := op.Values[ph]; given || slices.ContainsFunc(out, func(m Missing) bool { return m.Placeholder == ph }) {
				continue
			}
			m := Missing{Placeholder: ph}
			for _, e := range exprs {
				if m.Attribute = PlaceholderAttribute(e, ph, op.Names); m.Attribute != "" {
					break
				}
			}
			if m.Attribute == "" {
				m.Attribute = strings.TrimPrefix(ph, ":")
			}
			out = append(out, m)
		}
	}
	return out
}

// Complete returns op with reserved words aliased and its missing values taken from a sample item
// it then matches, as the comment above describes; ok is false, with the values still missing,
// when no sample item of its table completes it. An operation on a table the design does not have
// is returned aliased, ok, for its own checks to refuse.
func Complete(d designer.Design, op designer.Operation) (designer.Operation, []Missing, bool) {
	op = AliasReservedWords(op)
	missing := MissingValues(op)
	if len(missing) == 0 {
		return op, nil, true
	}
	t, _, found := d.TableByName(op.Table)
	if !found {
		return op, nil, true
	}
	tries := 0
	for _, it := range t.Items {
		values := maps.Clone(op.Values)
		if values == nil {
			values = map[string]designer.Value{}
		}
		complete := true
		for _, m := range missing {
			v, ok := it.Item[m.Attribute]
			if !ok {
				complete = false
				break
			}
			values[m.Placeholder] = v
		}
		if !complete {
			continue
		}
		if tries++; tries > maxCompleteTries {
			break
		}
		filled := op
		filled.Values = values
		if res := RunOperation(d, filled); res.Error == "" && !res.ConditionFailed && (designer.IsWriteOp(op.Op) || len(res.Items) > 0) {
			return filled, nil, true
		}
	}
	return op, missing, false
}
