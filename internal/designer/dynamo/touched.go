package dynamo

import (
	"slices"

	"dynaloom/internal/designer"
)

// UpdateTouch is what an UpdateExpression does to an item's top-level attributes, names
// resolved: Written are those it SETs, ADDs or DELETEs (or changes inside, as "SET a.b"),
// Removed those it REMOVEs whole. Each name is listed once, in the order written.
type UpdateTouch struct {
	Written, Removed []string
}

// UpdateTouches reads op's Update for the attributes it touches, without running it: reserved
// words are aliased and a placeholder without a value stands for any value, as for an imported
// write whose values the samples do not give. ok is false when op has no Update or it does not
// parse.
func UpdateTouches(op designer.Operation) (UpdateTouch, bool) {
	if op.Update == "" {
		return UpdateTouch{}, false
	}
	op = AliasReservedWords(op)
	values := make(map[string]designer.Value, len(op.Values))
	for k, v := range op.Values {
		values[k] = v
	}
	for _, ph := range ValuePlaceholders(op.Update) {
		if _, ok := values[ph]; !ok {
			values[ph] = designer.Value{}
		}
	}
	actions, msg := ParseUpdate(op.Update, NewExprContext(op.Names, values))
	if msg != "" {
		return UpdateTouch{}, false
	}
	var u UpdateTouch
	for _, a := range actions {
		name := a.path[0].name
		if a.section == "REMOVE" && len(a.path) == 1 {
			if !slices.Contains(u.Removed, name) {
				u.Removed = append(u.Removed, name)
			}
		} else if !slices.Contains(u.Written, name) {
			u.Written = append(u.Written, name)
		}
	}
	return u, true
}
