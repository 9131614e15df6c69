package designer

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
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
		if d, err = restorePath(d, from, p); err != nil {
			return d, err
		}
	}
	return d, nil
}

func restorePath(d, from Design, p Path) (Design, error) {
	if p == "" {
		return from, nil
	}
	pp := p.Parts(d, from)
	if pp.Comments {
		d.Comments = restoreGroup(d.Comments, from.Comments, func(c Comment) bool { return CommentsPath(Path(c.Target)) == p })
		return d, nil
	}
	var ok bool
	switch whole := pp.Key == "" && pp.Field == ""; pp.Collection {
	case PathName:
		d.Name, ok = from.Name, whole
	case PathOverview:
		d.Overview, ok = restoreMember(d.Overview, from.Overview, pp.Field)
	case PathConsiderations:
		d.Considerations, ok = restoreMember(d.Considerations, from.Considerations, pp.Field)
	case PathProse:
		d.Prose, ok = restoreMember(d.Prose, from.Prose, pp.Field)
	case PathCapacity:
		d.Capacity, ok = restoreMember(d.Capacity, from.Capacity, pp.Field)
	case PathEntities:
		d.Entities, ok = restoreList(d.Entities, from.Entities, pp, func(e Entity) string { return e.Name })
	case PathRelationships:
		d.Relationships, ok = restoreList(d.Relationships, from.Relationships, pp, func(r Relationship) string { return r.ID })
	case PathPatterns:
		d.Patterns, ok = restoreList(d.Patterns, from.Patterns, pp, func(pt Pattern) string { return pt.ID })
	case PathAggregates:
		d.Aggregates, ok = restoreList(d.Aggregates, from.Aggregates, pp, func(a AggregateAnalysis) string { return a.ID })
	case PathConsolidations:
		d.Consolidations, ok = restoreList(d.Consolidations, from.Consolidations, pp, func(c ConsolidationReview) string { return c.ID })
	case PathTables:
		if pp.Key == "" {
			d.Tables, ok = from.Tables, whole
			break
		}
		return restoreTablePath(d, from, p, pp)
	case PathDiagrams:
		if pp.Key == "" {
			d.Diagrams, ok = from.Diagrams, true
			break
		}
		d.Diagrams, ok = restorePins(d.Diagrams, from.Diagrams, pp.Key, pp.SubKey), true
	}
	if !ok {
		return d, Invalid("paths", "no part of the design is at %q", p)
	}
	return d, nil
}

// restoreMember returns row with its member field as it is in src, or the whole of src when field
// is empty; ok is false when row has no such member.
func restoreMember[T any](row, src T, field string) (T, bool) {
	if field == "" {
		return src, true
	}
	return withMember(row, src, field)
}

// restoreList returns dst with the part pp names as it is in src: the whole list, or the row
// whose key is pp.Key (only its member, when pp names one).
func restoreList[T any](dst, src []T, pp PathParts, key func(T) string) ([]T, bool) {
	if pp.Key == "" {
		return src, pp.Field == ""
	}
	return restoreRow(dst, src, func(r T) bool { return key(r) == pp.Key }, pp.Member()), true
}

// restoreTablePath restores the part of one table that pp names: the table, one of its fields,
// its items, one item or one attribute of it, or one index or one of its fields.
func restoreTablePath(d, from Design, p Path, pp PathParts) (Design, error) {
	name := pp.Key
	isTable := func(t Table) bool { return t.Name == name }
	src, _, inFrom := from.TableByName(name)
	t, i, inDst := d.TableByName(name)
	if pp.Sub == "" && pp.Field == "" || !inFrom || !inDst {
		d.Tables = restoreRow(d.Tables, from.Tables, isTable, "")
		return d, nil
	}
	switch {
	case pp.Sub == SubItems && pp.SubKey == "":
		t.Items = src.Items
	case pp.Sub == SubItems:
		id, attr := pp.SubKey, pp.Field
		was, _, wasThere := src.ItemByID(id)
		is, j, isThere := t.ItemByID(id)
		if attr == "" || !wasThere || !isThere {
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
	case pp.Sub == SubIndexes && pp.SubKey != "":
		ix := pp.SubKey
		isIndex := func(x Index) bool { return x.Name == ix }
		_, wasLocal, _, wasThere := src.IndexByName(ix)
		_, isLocal, _, isThere := t.IndexByName(ix)
		if wasThere && isThere && wasLocal == isLocal {
			t.GSIs = restoreRow(t.GSIs, src.GSIs, isIndex, pp.Member())
			t.LSIs = restoreRow(t.LSIs, src.LSIs, isIndex, pp.Member())
			break
		}
		t.GSIs = restoreRow(t.GSIs, src.GSIs, isIndex, "")
		t.LSIs = restoreRow(t.LSIs, src.LSIs, isIndex, "")
	default:
		member := pp.Member()
		if pp.Sub != "" {
			member = pp.Sub
		}
		row, ok := withMember(t, src, member)
		if !ok {
			return d, Invalid("paths", "no part of table %q is at %q", name, p)
		}
		t = row
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

// restoreRow returns dst with the row match finds as it is in src: replaced in place (only its
// member field, when both rows can hold it), put back at its old position, or removed
// when src has no such row. dst is copied when it changes.
func restoreRow[T any](dst, src []T, match func(T) bool, field string) []T {
	si, di := slices.IndexFunc(src, match), slices.IndexFunc(dst, match)
	switch {
	case si < 0 && di < 0:
		return dst
	case si < 0:
		return deleteRows(dst, match)
	case di >= 0:
		if field != "" {
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
