package designer

import (
	"bytes"
	"encoding/json"
	"slices"
)

// SizeChange is how many bytes longer the compact design-json of after (MarshalCompactJSON) is
// than that of before, when after differs from before only in the parts at paths: the Paths of
// the change that made one from the other. It encodes only those parts (one sample item for a
// cell edit, one pattern for a pattern field), so it costs the size of the change rather than of
// the design. The figure is exact but for separators and member names that appear or go when a
// list or an optional member becomes empty or stops being empty: a few bytes per path.
func SizeChange(before, after Design, paths []Path) int {
	n := 0
	for _, p := range sizeParts(before, after, paths) {
		n += partSize(p.of(after)) - partSize(p.of(before))
	}
	return n
}

// sizePart is one part of a design that a change may touch, measured whole: key names it as a
// path does, and of returns its value in a design, or nil when the design does not hold it.
type sizePart struct {
	key Path
	of  func(Design) any
}

// sizeParts maps paths to the parts to measure, each part once and none inside another.
func sizeParts(before, after Design, paths []Path) []sizePart {
	var parts []sizePart
	for _, p := range paths {
		parts = append(parts, partAt(p.Parts(before, after)))
	}
	slices.SortFunc(parts, func(a, b sizePart) int { return len(a.key) - len(b.key) })
	var out []sizePart
	for _, p := range parts {
		if !slices.ContainsFunc(out, func(o sizePart) bool { return p.key.In(o.key) }) {
			out = append(out, p)
		}
	}
	return out
}

// partAt is the part to measure for a change path: the row the path names (an item, a pattern,
// an index), or the table without its items and indexes for a table's own fields, or the whole
// top-level member of the design otherwise.
func partAt(pp PathParts) sizePart {
	switch {
	case pp.Collection == "":
		return sizePart{"", func(d Design) any { return d }}
	case pp.Comments:
		return sizePart{"comments", func(d Design) any { return d.Comments }}
	case pp.Collection == PathPatterns && pp.Key != "":
		return sizePart{PatternPath(pp.Key, ""), func(d Design) any { return rowOrNil(d.PatternByID(pp.Key)) }}
	case pp.Collection == PathRelationships && pp.Key != "":
		return sizePart{RelationshipPath(pp.Key, ""), func(d Design) any { return rowOrNil(d.RelationshipByID(pp.Key)) }}
	case pp.Collection == PathTables && pp.Key != "":
		return tablePart(pp)
	}
	return sizePart{Path(pp.Collection), func(d Design) any { return topMember(d, pp.Collection) }}
}

// tablePart is the part to measure for a path inside a table. The key only has to tell parts
// apart and nest as paths do: an item's attribute lies in its item, a table's field in the table.
func tablePart(pp PathParts) sizePart {
	name := pp.Key
	table := func(d Design) (Table, bool) {
		t, _, ok := d.TableByName(name)
		return t, ok
	}
	switch {
	case pp.Sub == "" && pp.Field == "":
		return sizePart{TablePath(name), func(d Design) any {
			if t, ok := table(d); ok {
				return t
			}
			return nil
		}}
	case pp.Sub == SubItems && pp.SubKey == "":
		return sizePart{ItemsPath(name), func(d Design) any {
			if t, ok := table(d); ok {
				return t.Items
			}
			return nil
		}}
	case pp.Sub == SubItems:
		// One cell of an item is measured alone: the part every cell edit measures.
		id, attr := pp.SubKey, pp.Field
		return sizePart{ItemsPath(name).Child(id).Child(attr), func(d Design) any {
			t, ok := table(d)
			if !ok {
				return nil
			}
			it, _, ok := t.ItemByID(id)
			switch {
			case !ok:
				return nil
			case attr == "":
				return it
			}
			if v, ok := it.Item[attr]; ok {
				return cellPart{attr, v}
			}
			return nil
		}}
	case pp.Sub == SubIndexes && pp.SubKey != "":
		return sizePart{IndexPath(name, pp.SubKey, ""), func(d Design) any {
			if t, ok := table(d); ok {
				if x, _, _, ok := t.IndexByName(pp.SubKey); ok {
					return x
				}
			}
			return nil
		}}
	}
	return sizePart{TablePath(name).Child("fields"), func(d Design) any {
		t, ok := table(d)
		if !ok {
			return nil
		}
		t.Items, t.GSIs, t.LSIs = nil, nil, nil
		return t
	}}
}

// cellPart is one attribute of a sample item, measured as its member of the item's JSON object.
type cellPart struct {
	name string
	v    Value
}

// rowOrNil is the row a lookup found, or nil.
func rowOrNil[T any](row T, _ int, ok bool) any {
	if !ok {
		return nil
	}
	return row
}

// topMember is the design-json member name of d.
func topMember(d Design, name string) any {
	switch name {
	case "name":
		return d.Name
	case "overview":
		return d.Overview
	case "entities":
		return d.Entities
	case "relationships":
		return d.Relationships
	case "access_patterns":
		return d.Patterns
	case "aggregates":
		return d.Aggregates
	case "consolidations":
		return d.Consolidations
	case "considerations":
		return d.Considerations
	case "tables":
		return d.Tables
	case "prose":
		return d.Prose
	case "diagrams":
		return d.Diagrams
	}
	return d
}

// partSize is the length of v as design-json writes it, plus the comma that separates a row from
// the next; 0 for nil.
func partSize(v any) int {
	if v == nil {
		return 0
	}
	if c, ok := v.(cellPart); ok {
		name, err := appendJSONString(nil, c.name)
		if err != nil {
			return 0
		}
		body, err := c.v.appendJSON(nil)
		if err != nil {
			return 0
		}
		return len(name) + len(`:`) + len(body) + len(`,`)
	}
	if it, ok := v.(SampleItem); ok {
		// The part every cell edit measures, twice: written as encoding/json writes a SampleItem,
		// without its reflection and the pass it makes over what a MarshalJSON wrote.
		id, err := appendJSONString(nil, it.ID)
		if err != nil {
			return 0
		}
		body, err := it.Item.MarshalJSON()
		if err != nil {
			return 0
		}
		return len(`{"id":`) + len(id) + len(`,"item":`) + len(body) + len(`}`) + 1
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return 0
	}
	return buf.Len() // the newline Encode ends with stands for the comma
}
