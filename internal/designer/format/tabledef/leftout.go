package tabledef

import (
	"fmt"
	"slices"

	"dynaloom/internal/designer"
)

// NotTables lists what a design holds beyond the definitions of its tables, which an export of
// the tables alone (infrastructure as code) has no place for: one line each, naming how many, and
// only what the design has.
func NotTables(d designer.Design) []string {
	out := Requirement(d, true)
	var entityTypes, nonKey, items int
	for _, t := range d.Tables {
		entityTypes += len(t.EntityTypes)
		items += len(t.Items)
		for _, a := range t.Attributes {
			if !isKey(t, a.Name) {
				nonKey++
			}
		}
	}
	out = count(out, entityTypes, "entity type", "entity types", " of the tables and their key templates")
	out = count(out, nonKey, "non-key attribute", "non-key attributes", " (DynamoDB declares key attributes only)")
	out = count(out, items, "sample item", "sample items", "")
	return append(out, Notes(d)...)
}

// Requirement lists what the design holds of the requirement and its analysis, the access
// patterns with their mappings among them when withPatterns is set.
func Requirement(d designer.Design, withPatterns bool) []string {
	var out []string
	out = count(out, len(d.Entities), "entity", "entities", " of the requirement, with their attributes")
	out = count(out, len(d.Relationships), "relationship", "relationships", "")
	if withPatterns {
		out = count(out, len(d.Patterns), "access pattern", "access patterns", " and their mappings to operations")
	}
	if d.Overview != (designer.Overview{}) {
		out = append(out, "the application overview")
	}
	if len(d.Aggregates) > 0 || len(d.Consolidations) > 0 || d.Considerations != (designer.Considerations{}) {
		out = append(out, "the aggregate analysis, consolidation reviews and design considerations")
	}
	return out
}

// Notes lists the design's prose about its tables and indexes, and its comments.
func Notes(d designer.Design) []string {
	var out []string
	notes := 0
	for _, t := range d.Tables {
		if t.Purpose != "" || t.AggregateBoundary != "" || t.PartitionKeyWhy != "" || t.SortKeyWhy != "" || t.BoundedReads != "" || t.Capacity != "" {
			notes++
		}
		for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
			if ix.Purpose != "" || ix.PartitionKeyWhy != "" || ix.SortKeyWhy != "" || ix.ProjectionWhy != "" || ix.SparseNote != "" {
				notes++
			}
		}
	}
	if notes > 0 {
		out = append(out, fmt.Sprintf("the purposes, justifications and notes of %d tables and indexes", notes))
	}
	return count(out, len(d.Comments), "comment", "comments", "")
}

// count appends "n things rest" to out when n is above 0.
func count(out []string, n int, one, many, rest string) []string {
	if n == 0 {
		return out
	}
	return append(out, fmt.Sprintf("%d %s%s", n, plural(n, one, many), rest))
}

// isKey reports whether name is in the key of the table or of one of its indexes.
func isKey(t designer.Table, name string) bool {
	if t.PartitionKey.Name == name || t.SortKey != nil && t.SortKey.Name == name {
		return true
	}
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			if k.Name == name {
				return true
			}
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count writes n with its noun: "1 table", "3 tables".
func Count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }
