package designer

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

func init() {
	register[UndoChange]()
}

// UndoChange takes back one earlier change: every part of the design that change touched (its
// paths) is put back as it was before it, and nothing else moves. Whether that is safe (no later
// change touched the same parts or built on them) is the caller's judgement, made against the
// history; Apply only puts the parts back.
type UndoChange struct {
	// Before is the design as it was before the undone change.
	Before Design `json:"before"`
	// Revision is the revision whose change is undone, Undone its history line and Touched its
	// paths.
	Revision int64  `json:"revision"`
	Undone   string `json:"undone"`
	Touched  []Path `json:"paths"`
}

func (UndoChange) Kind() string { return "undo_change" }

func (c UndoChange) Apply(d Design) (Design, error) {
	if c.Revision < 2 {
		return d, Invalid("revision", "must be a revision after the first; creating the design cannot be undone")
	}
	next, err := restorePaths(d, c.Before, c.Touched)
	if err != nil {
		return d, err
	}
	next = Normalize(next)
	if err := Check(next); err != nil {
		return d, err
	}
	return next, nil
}

func (c UndoChange) Summary() string {
	return fmt.Sprintf("Undid revision %d: %s", c.Revision, c.Undone)
}

func (c UndoChange) Paths() []Path { return c.Touched }

// restorePaths returns d with the part at each path as it is in from: copied where from has it,
// removed where from does not. Paths are those changes report (Change.Paths): a row ("tables/T"),
// or one field of a row ("access_patterns/ap4/peak_rps"), which is restored alone when it names a
// design-json member of the row and with its whole row otherwise.
func restorePaths(d, from Design, paths []Path) (Design, error) {
	for _, p := range paths {
		var err error
		if d, err = restorePath(d, from, string(p)); err != nil {
			return d, err
		}
	}
	return d, nil
}

func restorePath(d, from Design, p string) (Design, error) {
	if target, ok := strings.CutSuffix(p, "/comments"); ok {
		d.Comments = restoreGroup(d.Comments, from.Comments, func(c Comment) bool { return c.Target == target })
		return d, nil
	}
	head, rest, _ := strings.Cut(p, "/")
	// Row ids never hold a slash: what follows the id is a field of the row.
	id, field, _ := strings.Cut(rest, "/")
	switch {
	case p == "":
		return from, nil
	case head == "name" && rest == "":
		d.Name = from.Name
	case head == "overview" && rest == "":
		d.Overview = from.Overview
	case head == "overview":
		o, ok := withMember(d.Overview, from.Overview, rest)
		if !ok {
			return d, Invalid("paths", "no overview field %q", rest)
		}
		d.Overview = o
	case head == "considerations" && rest == "":
		d.Considerations = from.Considerations
	case head == "considerations":
		c, ok := withMember(d.Considerations, from.Considerations, rest)
		if !ok {
			return d, Invalid("paths", "no design consideration %q", rest)
		}
		d.Considerations = c
	case head == "prose" && rest == "":
		d.Prose = from.Prose
	case head == "prose":
		p, ok := withMember(d.Prose, from.Prose, rest)
		if !ok {
			return d, Invalid("paths", "no data model section %q", rest)
		}
		d.Prose = p
	case head == "entities" && rest == "":
		d.Entities = from.Entities
	case head == "entities":
		name, field := splitName(rest, entityNames(d.Entities, from.Entities))
		d.Entities = restoreRow(d.Entities, from.Entities, func(e Entity) bool { return e.Name == name }, field)
	case head == "relationships" && rest == "":
		d.Relationships = from.Relationships
	case head == "relationships":
		d.Relationships = restoreRow(d.Relationships, from.Relationships, func(r Relationship) bool { return r.ID == id }, field)
	case head == "access_patterns" && rest == "":
		d.Patterns = from.Patterns
	case head == "access_patterns":
		d.Patterns = restoreRow(d.Patterns, from.Patterns, func(pt Pattern) bool { return pt.ID == id }, field)
	case head == "aggregates" && rest == "":
		d.Aggregates = from.Aggregates
	case head == "aggregates":
		d.Aggregates = restoreRow(d.Aggregates, from.Aggregates, func(a AggregateAnalysis) bool { return a.ID == id }, field)
	case head == "consolidations" && rest == "":
		d.Consolidations = from.Consolidations
	case head == "consolidations":
		d.Consolidations = restoreRow(d.Consolidations, from.Consolidations, func(c ConsolidationReview) bool { return c.ID == id }, field)
	case head == "tables" && rest == "":
		d.Tables = from.Tables
	case head == "tables":
		return restoreTablePath(d, from, rest)
	case head == "diagrams" && rest == "":
		d.Diagrams = from.Diagrams
	case head == "diagrams":
		d.Diagrams = restorePins(d.Diagrams, from.Diagrams, rest)
	default:
		return d, Invalid("paths", "no part of the design is at %q", p)
	}
	return d, nil
}

// splitName splits "name/more" where name is one of names and may itself hold a slash; without
// such a name, the name is everything up to the first slash.
func splitName(path string, names []string) (name, more string) {
	for _, n := range names {
		if rest, ok := strings.CutPrefix(path, n+"/"); ok {
			return n, rest
		}
	}
	if path == "" || slices.Contains(names, path) {
		return path, ""
	}
	name, more, _ = strings.Cut(path, "/")
	return name, more
}

func entityNames(es ...[]Entity) []string {
	var out []string
	for _, list := range es {
		for _, e := range list {
			out = append(out, e.Name)
		}
	}
	return out
}

func tableNames(ts ...[]Table) []string {
	var out []string
	for _, list := range ts {
		for _, t := range list {
			out = append(out, t.Name)
		}
	}
	return out
}

func indexNames(ts ...Table) []string {
	var out []string
	for _, t := range ts {
		for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
			out = append(out, ix.Name)
		}
	}
	return out
}

// restoreTablePath restores the part of one table at rest: the table, one of its fields, its
// items, one item or one attribute of it, or one index or one of its fields.
func restoreTablePath(d, from Design, rest string) (Design, error) {
	name, sub := splitName(rest, tableNames(d.Tables, from.Tables))
	isTable := func(t Table) bool { return t.Name == name }
	src, _, inFrom := from.TableByName(name)
	t, i, inDst := d.TableByName(name)
	if sub == "" || !inFrom || !inDst {
		d.Tables = restoreRow(d.Tables, from.Tables, isTable, "")
		return d, nil
	}
	switch {
	case sub == "items":
		t.Items = src.Items
	case strings.HasPrefix(sub, "items/"):
		id, attr, oneAttr := strings.Cut(strings.TrimPrefix(sub, "items/"), "/")
		was, _, wasThere := src.ItemByID(id)
		is, j, isThere := t.ItemByID(id)
		if !oneAttr || !wasThere || !isThere {
			t.Items = restoreRow(t.Items, src.Items, func(it SampleItem) bool { return it.ID == id }, "")
			break
		}
		item := maps.Clone(is.Item)
		if v, ok := was.Item[attr]; ok {
			item[attr] = v
		} else {
			delete(item, attr)
		}
		t.Items = replaceAt(t.Items, j, SampleItem{ID: id, Item: item})
	case strings.HasPrefix(sub, "indexes/"):
		ix, field := splitName(strings.TrimPrefix(sub, "indexes/"), indexNames(t, src))
		isIndex := func(x Index) bool { return x.Name == ix }
		_, wasLocal, _, wasThere := src.IndexByName(ix)
		_, isLocal, _, isThere := t.IndexByName(ix)
		if wasThere && isThere && wasLocal == isLocal {
			t.GSIs = restoreRow(t.GSIs, src.GSIs, isIndex, field)
			t.LSIs = restoreRow(t.LSIs, src.LSIs, isIndex, field)
			break
		}
		t.GSIs = restoreRow(t.GSIs, src.GSIs, isIndex, "")
		t.LSIs = restoreRow(t.LSIs, src.LSIs, isIndex, "")
	default:
		row, ok := withMember(t, src, sub)
		if !ok {
			return d, Invalid("paths", "no part of table %q is at %q", name, sub)
		}
		t = row
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

// restoreRow returns dst with the row match finds as it is in src: replaced in place (only its
// field, when field names a member both rows can hold), put back at its old position, or removed
// when src has no such row. dst is copied when it changes.
func restoreRow[T any](dst, src []T, match func(T) bool, field string) []T {
	si, di := slices.IndexFunc(src, match), slices.IndexFunc(dst, match)
	switch {
	case si < 0 && di < 0:
		return dst
	case si < 0:
		return deleteRows(dst, match)
	case di >= 0:
		if field, _, _ = strings.Cut(field, "/"); field != "" {
			if row, ok := withMember(dst[di], src[si], field); ok {
				return replaceAt(dst, di, row)
			}
		}
		return replaceAt(dst, di, src[si])
	}
	return slices.Insert(slices.Clone(dst), min(si, len(dst)), src[si])
}

// withMember returns row with its design-json member name as it is in src; ok is false when
// the row has no such member.
func withMember[T any](row, src T, name string) (T, bool) {
	known := false
	rt := reflect.TypeOf(row)
	for i := 0; i < rt.NumField(); i++ {
		if n, ok := jsonName(rt.Field(i)); ok && n == name {
			known = true
		}
	}
	if !known {
		return row, false
	}
	var have, want map[string]json.RawMessage
	if !roundTrip(row, &have) || !roundTrip(src, &want) {
		return row, false
	}
	if v, ok := want[name]; ok {
		have[name] = v
	} else {
		delete(have, name)
	}
	var out T
	if !roundTrip(have, &out) {
		return row, false
	}
	return out, true
}

// roundTrip decodes the JSON of v into out.
func roundTrip(v, out any) bool {
	data, err := json.Marshal(v)
	return err == nil && json.Unmarshal(data, out) == nil
}

// restoreGroup returns dst with the rows match finds replaced by those of src, where the first
// of them was (or, when dst has none, where the first was in src).
func restoreGroup[T any](dst, src []T, match func(T) bool) []T {
	var back []T
	for _, s := range src {
		if match(s) {
			back = append(back, s)
		}
	}
	at := slices.IndexFunc(dst, match)
	if at < 0 {
		at = min(max(slices.IndexFunc(src, match), 0), len(dst))
	}
	out := make([]T, 0, len(dst)+len(back))
	for i, r := range dst {
		if i == at {
			out = append(out, back...)
		}
		if !match(r) {
			out = append(out, r)
		}
	}
	if at == len(dst) {
		out = append(out, back...)
	}
	return out
}
