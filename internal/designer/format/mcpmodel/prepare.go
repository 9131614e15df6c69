package mcpmodel

import (
	"errors"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// prepareOperation returns op completed from the sample items (dynamo.Complete: reserved words
// aliased, missing values taken from a sample item the operation matches), or the reason no
// command can be written for it.
func prepareOperation(d designer.Design, op designer.Operation) (designer.Operation, string) {
	op, missing, ok := dynamo.Complete(d, op)
	if ok {
		return op, ""
	}
	words := make([]string, len(missing))
	for i, m := range missing {
		words[i] = m.Placeholder + " (" + m.Attribute + ")"
	}
	return op, "Not run: " + describe(op) + " needs a value for " + strings.Join(words, ", ") +
		", and no sample item of " + op.Table + " that the operation matches gives one. Add a sample item it reads, or give the value in the mapping."
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
