package designer

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// SizeChange is how many bytes longer the compact design-json of after (MarshalCompactJSON) is
// than that of before, when after differs from before only in the parts at paths: the Paths of
// the change that made one from the other. It encodes only those parts (one sample item for a
// cell edit, one pattern for a pattern field), so it costs the size of the change rather than of
// the design. The figure is exact but for separators and member names that appear or go when a
// list or an optional member becomes empty or stops being empty: a few bytes per path.
func SizeChange(before, after Design, paths []Path) int {
	n := 0
	for _, p := range sizeParts(paths) {
		n += partSize(p.of(after)) - partSize(p.of(before))
	}
	return n
}

// sizePart is one part of a design that a change may touch, measured whole: key names it as a
// path does, and of returns its value in a design, or nil when the design does not hold it.
type sizePart struct {
	key string
	of  func(Design) any
}

// sizeParts maps paths to the parts to measure, each part once and none inside another.
func sizeParts(paths []Path) []sizePart {
	var parts []sizePart
	for _, p := range paths {
		parts = append(parts, partAt(string(p)))
	}
	slices.SortFunc(parts, func(a, b sizePart) int { return len(a.key) - len(b.key) })
	var out []sizePart
	for _, p := range parts {
		inside := slices.ContainsFunc(out, func(o sizePart) bool {
			return o.key == "" || p.key == o.key || strings.HasPrefix(p.key, o.key+"/")
		})
		if !inside {
			out = append(out, p)
		}
	}
	return out
}

// partAt is the part to measure for a change path: the row the path names (an item, a pattern,
// an index), or the table without its items and indexes for a table's own fields, or the whole
// top-level member of the design otherwise.
func partAt(p string) sizePart {
	if p == "" {
		return sizePart{"", func(d Design) any { return d }}
	}
	if _, ok := strings.CutSuffix(p, "/comments"); ok {
		return sizePart{"comments", func(d Design) any { return d.Comments }}
	}
	head, rest, _ := strings.Cut(p, "/")
	id, _, _ := strings.Cut(rest, "/")
	switch {
	case head == "access_patterns" && id != "":
		return sizePart{head + "/" + id, func(d Design) any { return rowOrNil(d.PatternByID(id)) }}
	case head == "relationships" && id != "":
		return sizePart{head + "/" + id, func(d Design) any { return rowOrNil(d.RelationshipByID(id)) }}
	case head == "tables" && rest != "":
		return tablePart(rest)
	}
	return sizePart{head, func(d Design) any { return topMember(d, head) }}
}

// tablePart is the part to measure for the path tables/rest.
func tablePart(rest string) sizePart {
	// A table name may hold a slash, so the name is the longest table name the path starts with,
	// in either design; the part is looked up when measured.
	whole := sizePart{"tables/" + rest, nil}
	whole.of = func(d Design) any {
		name, sub := splitName(rest, tableNames(d.Tables))
		t, _, ok := d.TableByName(name)
		if !ok {
			return nil
		}
		switch {
		case sub == "":
			return t
		case sub == "items":
			return t.Items
		case strings.HasPrefix(sub, "items/"):
			id, attr, cell := strings.Cut(strings.TrimPrefix(sub, "items/"), "/")
			it, _, ok := t.ItemByID(id)
			switch {
			case !ok:
				return nil
			case !cell:
				return it
			}
			if v, ok := it.Item[attr]; ok {
				return cellPart{attr, v}
			}
			return nil
		case strings.HasPrefix(sub, "indexes/"):
			ix, _ := splitName(strings.TrimPrefix(sub, "indexes/"), indexNames(t))
			if x, _, _, ok := t.IndexByName(ix); ok {
				return x
			}
			return nil
		}
		t.Items, t.GSIs, t.LSIs = nil, nil, nil
		return t
	}
	// The key only has to tell parts apart and nest as paths do: an item's attribute lies in its
	// item, a table's field in the table.
	name, sub, _ := strings.Cut(rest, "/")
	switch {
	case sub == "" || sub == "items":
		whole.key = "tables/" + rest
	case strings.HasPrefix(sub, "items/"):
		// One cell of an item is measured alone: the part every cell edit measures.
		whole.key = "tables/" + name + "/" + sub
	case strings.HasPrefix(sub, "indexes/"):
		parts := strings.SplitN(sub, "/", 3)
		whole.key = "tables/" + name + "/" + parts[0] + "/" + parts[1]
	default:
		whole.key = "tables/" + name + "/fields"
	}
	return whole
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
