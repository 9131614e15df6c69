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
	var out []string
	add := func(n int, what string) {
		if n > 0 {
			out = append(out, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(len(d.Entities), plural(len(d.Entities), "entity", "entities")+" of the requirement, with their attributes")
	add(len(d.Relationships), plural(len(d.Relationships), "relationship", "relationships"))
	add(len(d.Patterns), plural(len(d.Patterns), "access pattern", "access patterns")+" and their mappings to operations")
	if d.Overview != (designer.Overview{}) {
		out = append(out, "the application overview")
	}
	if len(d.Aggregates) > 0 || len(d.Consolidations) > 0 || d.Considerations != (designer.Considerations{}) {
		out = append(out, "the aggregate analysis, consolidation reviews and design considerations")
	}
	var entityTypes, nonKey, items, notes int
	for _, t := range d.Tables {
		entityTypes += len(t.EntityTypes)
		items += len(t.Items)
		for _, a := range t.Attributes {
			if !isKey(t, a.Name) {
				nonKey++
			}
		}
		if t.Purpose != "" || t.AggregateBoundary != "" || t.PartitionKeyWhy != "" || t.SortKeyWhy != "" || t.BoundedReads != "" || t.Capacity != "" {
			notes++
		}
		for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
			if ix.Purpose != "" || ix.PartitionKeyWhy != "" || ix.SortKeyWhy != "" || ix.ProjectionWhy != "" || ix.SparseNote != "" {
				notes++
			}
		}
	}
	add(entityTypes, plural(entityTypes, "entity type", "entity types")+" of the tables and their key templates")
	add(nonKey, plural(nonKey, "non-key attribute", "non-key attributes")+" (DynamoDB declares key attributes only)")
	add(items, plural(items, "sample item", "sample items"))
	if notes > 0 {
		out = append(out, fmt.Sprintf("the purposes, justifications and notes of %d tables and indexes", notes))
	}
	add(len(d.Comments), plural(len(d.Comments), "comment", "comments"))
	return out
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
