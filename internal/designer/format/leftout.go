package format

import (
	"fmt"

	"dynaloom/internal/designer"
)

// requirementsLeftOut lists what of d the requirement document has no place for: the data
// model's part, and what neither document holds.
func requirementsLeftOut(d designer.Design) []string {
	var out []string
	mapped := 0
	for _, p := range d.Patterns {
		if len(p.Mapping.Operations) > 0 || p.Mapping.Notes != "" {
			mapped++
		}
	}
	if n := len(d.Tables); n > 0 {
		out = append(out, fmt.Sprintf("%d %s with their indexes and sample items (the data model document holds them)", n, plural(n, "table", "tables")))
	}
	if mapped > 0 {
		out = append(out, fmt.Sprintf("the mappings of %d access %s to operations (the data model document holds them)", mapped, plural(mapped, "pattern", "patterns")))
	}
	return append(out, neitherDocument(d)...)
}

// dataModelLeftOut lists what of d the data model document has no place for: the requirement's
// part, and what neither document holds.
func dataModelLeftOut(d designer.Design) []string {
	var out []string
	if d.Overview != (designer.Overview{}) || len(d.Entities) > 0 || len(d.Relationships) > 0 || len(d.Patterns) > 0 ||
		len(d.Aggregates) > 0 || len(d.Consolidations) > 0 || d.Considerations != (designer.Considerations{}) {
		out = append(out, "the overview, entities, relationships, access pattern requirements and aggregate analysis (the requirement document holds them)")
	}
	return append(out, neitherDocument(d)...)
}

// neitherDocument lists what of d neither markdown document holds.
func neitherDocument(d designer.Design) []string {
	var out []string
	if n := len(d.Comments); n > 0 {
		out = append(out, fmt.Sprintf("%d %s", n, plural(n, "comment", "comments")))
	}
	if d.Workbench != nil {
		out = append(out, "what the NoSQL Workbench model held beyond the design (the workbench-json export writes it back)")
	}
	if len(d.Diagrams) > 0 {
		out = append(out, "where boxes were placed on the diagrams")
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// leftOutHeaderMax bounds the Dynaloom-Left-Out header, in bytes: proxies refuse long headers.
const leftOutHeaderMax = 1024

// LeftOutHeader is the value of the Dynaloom-Left-Out response header for the lines LeftOut
// gives: the lines joined by "; ", printable ASCII only (anything else is "?"), and at most
// leftOutHeaderMax bytes, the lines that do not fit counted at the end.
func LeftOutHeader(lines []string) string {
	var b []byte
	for i, l := range lines {
		part := make([]byte, 0, len(l)+2)
		if i > 0 {
			part = append(part, "; "...)
		}
		for _, r := range l {
			if r < 0x20 || r > 0x7e {
				r = '?'
			}
			part = append(part, byte(r))
		}
		more := fmt.Sprintf("; and %d more", len(lines)-i)
		if i == 0 {
			more = fmt.Sprintf("%d items", len(lines))
		}
		if len(b)+len(part) > leftOutHeaderMax-len("; and 999 more") {
			return string(append(b, more...))
		}
		b = append(b, part...)
	}
	return string(b)
}
