package mcpmodel

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Making an operation into a command that runs as written. A design imported from markdown says
// "GetItem(owner_id)": its key condition "owner_id = :owner_id" names a placeholder without a value,
// and its expressions use attribute names such as status or day, which DynamoDB reserves. The
// export gives every reserved word a #placeholder, and each missing value the value of a sample
// item the operation then matches, found by running it with the evaluator: the first item of the
// table, in the table's order, that holds every attribute the placeholders stand for and that the
// completed operation reads (or, for a write, writes without a failed condition). When no sample
// item does, the pattern is listed with the reason instead of a command.

// maxFillTries bounds how many sample items are tried for one operation, so that a large table
// costs a bounded number of evaluations.
const maxFillTries = 50

// prepareOperation returns op with reserved words aliased and missing values filled in, or the
// reason no command can be written for it.
func prepareOperation(d designer.Design, op designer.Operation) (designer.Operation, string) {
	op = aliasReserved(op)
	return fillValues(d, op)
}

// aliasReserved gives every reserved word used bare in op's expressions a #placeholder; the
// operation's own names and values are copied, never changed in place.
func aliasReserved(op designer.Operation) designer.Operation {
	names := op.Names
	for _, e := range []*string{&op.KeyCondition, &op.Filter, &op.Projection, &op.Condition} {
		if *e != "" {
			*e, names = dynamo.AliasReserved(*e, names, false)
		}
	}
	if op.Update != "" {
		op.Update, names = dynamo.AliasReserved(op.Update, names, true)
	}
	op.Names = names
	return op
}

// missingValues are the :placeholders op's expressions use that its values do not give, in the
// order written.
func missingValues(op designer.Operation) []string {
	var out []string
	for _, e := range []string{op.KeyCondition, op.Filter, op.Condition, op.Update} {
		for _, ph := range dynamo.ValuePlaceholders(e) {
			if _, given := op.Values[ph]; !given && !slices.Contains(out, ph) {
				out = append(out, ph)
			}
		}
	}
	return out
}

// fillValues gives each missing value of op the value of a sample item op matches, as the package
// comment above describes.
func fillValues(d designer.Design, op designer.Operation) (designer.Operation, string) {
	missing := missingValues(op)
	if len(missing) == 0 {
		return op, ""
	}
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return op, "" // the command's own checks name the table
	}
	attrs := make([]string, len(missing))
	for i, ph := range missing {
		for _, e := range []string{op.KeyCondition, op.Filter, op.Condition, op.Update} {
			if attrs[i] = dynamo.PlaceholderAttribute(e, ph, op.Names); attrs[i] != "" {
				break
			}
		}
		if attrs[i] == "" {
			attrs[i] = strings.TrimPrefix(ph, ":")
		}
	}
	tries := 0
	for _, it := range t.Items {
		values := maps.Clone(op.Values)
		if values == nil {
			values = map[string]designer.Value{}
		}
		complete := true
		for i, ph := range missing {
			v, ok := it.Item[attrs[i]]
			if !ok {
				complete = false
				break
			}
			values[ph] = v
		}
		if !complete {
			continue
		}
		if tries++; tries > maxFillTries {
			break
		}
		filled := op
		filled.Values = values
		if res := dynamo.RunOperation(d, filled); res.Error == "" && !res.ConditionFailed && (designer.IsWriteOp(op.Op) || len(res.Items) > 0) {
			return filled, ""
		}
	}
	words := make([]string, len(missing))
	for i, ph := range missing {
		words[i] = ph + " (" + attrs[i] + ")"
	}
	return op, "Not run: " + describe(op) + " needs a value for " + strings.Join(words, ", ") +
		", and no sample item of " + t.Name + " that the operation matches gives one. Add a sample item it reads, or give the value in the mapping."
}

// describe names an operation in a reason: "Query on Orders (index ByStatus): status = :status".
func describe(op designer.Operation) string {
	s := op.Op + " on " + op.Table
	if op.Index != "" {
		s += " (index " + op.Index + ")"
	}
	if op.KeyCondition != "" {
		s += ": " + op.KeyCondition
	}
	return s
}

// refusal is why an operation has no command, if it has none: the command's own refusal err, or
// the reason no value could be filled in (fill), which is more to the point than DynamoDB's word
// that a value is not defined.
func refusal(fill string, op designer.Operation, err error) string {
	if err != nil && (fill == "" || !strings.Contains(err.Error(), "attribute value used in expression is not defined")) {
		return refusedReason(op, err)
	}
	return fill
}

// refusedReason words why no command could be written for an operation, keeping its field.
func refusedReason(op designer.Operation, err error) string {
	var ve *designer.ValidationError
	if errors.As(err, &ve) {
		return "Not exported: " + ve.Message + " (" + ve.Field + ")."
	}
	return "Not exported: " + describe(op) + ": " + err.Error() + "."
}
