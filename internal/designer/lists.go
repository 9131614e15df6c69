package designer

import "strings"

// Lists of names in the sentences messages are made of.

func ListAnd(items []string) string { return listJoin(items, " and ") }

func ListOr(items []string) string { return listJoin(items, " or ") }

func listJoin(items []string, last string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}

// TableChoice names the design's tables as a message offers them: "Orders, Customers or Audit".
func TableChoice(d Design) string {
	names := make([]string, len(d.Tables))
	for i, t := range d.Tables {
		names[i] = t.Name
	}
	if len(names) == 0 {
		return "a table"
	}
	return ListOr(names)
}
