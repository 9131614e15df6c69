package workbench

import (
	"fmt"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// LeftOut lists what of d a Workbench 3.x model has no place for (reference
// nosql-workbench.md §3): no model file holds LSIs, TTL, a table class, access patterns or more
// than one attribute in a key, and a facet has no description.
func LeftOut(d designer.Design) []string {
	out := tabledef.Requirement(d, true)
	var lsis, ttl, classes, described int
	var wide []string
	for _, t := range d.Tables {
		lsis += len(t.LSIs)
		if t.TTLAttribute != "" {
			ttl++
		}
		if t.TableClass != "" && t.TableClass != designer.StandardClass {
			classes++
		}
		for _, et := range t.EntityTypes {
			if et.Description != "" {
				described++
			}
		}
		for _, ix := range t.GSIs {
			if extra := extraKeys(ix); extra != "" {
				wide = append(wide, fmt.Sprintf("GSI %s of table %s keeps only the first attribute of each key: %s stay declared attributes, out of its key", ix.Name, t.Name, extra))
			}
		}
	}
	add := func(n int, what, one, many string) {
		if n > 0 {
			out = append(out, fmt.Sprintf(what, tabledef.Count(n, one, many)))
		}
	}
	add(lsis, "%s", "local secondary index", "local secondary indexes")
	add(ttl, "the TTL attribute of %s", "table", "tables")
	add(classes, "the table class of %s", "table", "tables")
	add(described, "the descriptions of %s", "entity type", "entity types")
	out = append(out, wide...)
	return append(out, tabledef.Notes(d)...)
}

// extraKeys names the key attributes of a multi-attribute GSI key beyond the first of each part.
func extraKeys(ix designer.Index) string {
	var names []string
	for _, keys := range [][]designer.KeyAttribute{ix.PartitionKey, ix.SortKey} {
		for _, k := range keys[min(1, len(keys)):] {
			names = append(names, k.Name)
		}
	}
	return strings.Join(names, ", ")
}
