package designer

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// What happened to the subject of a Difference.
const (
	DiffAdded   = "added"
	DiffRemoved = "removed"
	DiffChanged = "changed"
)

// Difference is one thing that differs between two versions of a design, worded for people.
type Difference struct {
	// Section groups differences for display: "Overview", "Entities", "Access patterns", "Tables",
	// "Indexes", "Sample items", …
	Section string
	// Subject names what differs the way people know it: "Access pattern 4", "Table Orders",
	// "GSI ByStatus of table Orders", "Item order_id=O1 of table Orders".
	Subject string
	// Path addresses the subject as change paths do ("tables/Orders/indexes/ByStatus").
	Path string
	// Change is DiffAdded, DiffRemoved or DiffChanged.
	Change string
	// Field names the changed field of a DiffChanged: its design-json name, nested with dots and
	// list rows in brackets ("projection.type", "mapping.operations[1].key_condition"), an item's
	// attribute name, or "order" when rows were reordered. Empty for DiffAdded and DiffRemoved.
	Field string
	// Old and New are the field's values as text, empty where the field is absent. For an added or
	// removed subject, New or Old is a one-line description of it.
	Old, New string
}

// Diff lists what differs from design a to design b: the design name, the overview and other
// texts, and entities, relationships, access patterns, aggregate analyses, consolidation reviews,
// tables, their indexes and sample items, and comments, each added, removed or with the fields
// that changed, old → new. Rows are matched by what identifies them across edits (ids for
// patterns and items, names for entities, tables and indexes), so a renamed table shows as one
// removed and one added. The result follows the document's order and is the same for the same
// two designs; it is empty when they are equal.
func Diff(a, b Design) []Difference {
	var out []Difference
	single := func(section, subject, path string, fa, fb []leaf) {
		out = appendFieldChanges(out, Difference{Section: section, Subject: subject, Path: path, Change: DiffChanged}, fa, fb)
	}
	single("Overview", "Design name", "name", []leaf{{"name", a.Name}}, []leaf{{"name", b.Name}})
	single("Overview", "Overview", "overview", flatten(a.Overview), flatten(b.Overview))

	out = diffRows(out, rowSpec[Entity]{
		section: "Entities", list: "entities",
		key:     func(e Entity) string { return e.Name },
		subject: func(e Entity) string { return "Entity " + e.Name },
		path:    func(e Entity) string { return string(EntityPath(e.Name, "")) },
		brief:   entityBrief,
		fields:  func(e Entity) []leaf { return flatten(e) },
	}, a.Entities, b.Entities, nil)
	out = diffRows(out, rowSpec[Relationship]{
		section: "Relationships",
		key:     func(r Relationship) string { return r.ID },
		subject: func(r Relationship) string {
			return fmt.Sprintf("Relationship %s → %s", shorten(r.From), shorten(r.To))
		},
		path:   func(r Relationship) string { return "relationships/" + r.ID },
		brief:  func(r Relationship) string { return strings.TrimSpace(r.From + " " + r.Kind + " " + r.To) },
		fields: func(r Relationship) []leaf { return flatten(r) },
	}, a.Relationships, b.Relationships, nil)
	out = diffRows(out, rowSpec[Pattern]{
		section: "Access patterns", list: "access patterns",
		key:     func(p Pattern) string { return p.ID },
		subject: func(p Pattern) string { return "Access pattern " + strconv.Itoa(p.Number) },
		short:   func(p Pattern) string { return strconv.Itoa(p.Number) },
		path:    func(p Pattern) string { return string(PatternPath(p.ID, "")) },
		brief:   func(p Pattern) string { return shorten(p.Description) },
		fields:  func(p Pattern) []leaf { return flatten(p) },
	}, a.Patterns, b.Patterns, nil)
	out = diffRows(out, rowSpec[AggregateAnalysis]{
		section: "Aggregates",
		key:     func(g AggregateAnalysis) string { return g.ID },
		subject: func(g AggregateAnalysis) string {
			return fmt.Sprintf("Aggregate analysis %s + %s", shorten(g.EntityA), shorten(g.EntityB))
		},
		path:   func(g AggregateAnalysis) string { return "aggregates/" + g.ID },
		brief:  func(g AggregateAnalysis) string { return g.Decision },
		fields: func(g AggregateAnalysis) []leaf { return flatten(g) },
	}, a.Aggregates, b.Aggregates, nil)
	out = diffRows(out, rowSpec[ConsolidationReview]{
		section: "Aggregates",
		key:     func(c ConsolidationReview) string { return c.ID },
		subject: func(c ConsolidationReview) string {
			return fmt.Sprintf("Consolidation review %s → %s", shorten(c.Parent), shorten(c.Child))
		},
		path:   func(c ConsolidationReview) string { return "consolidations/" + c.ID },
		brief:  func(c ConsolidationReview) string { return c.Decision },
		fields: func(c ConsolidationReview) []leaf { return flatten(c) },
	}, a.Consolidations, b.Consolidations, nil)
	single("Aggregates", "Design considerations", "considerations", flatten(a.Considerations), flatten(b.Considerations))

	out = diffRows(out, rowSpec[Table]{
		section: "Tables", list: "tables",
		key:     func(t Table) string { return t.Name },
		subject: func(t Table) string { return "Table " + t.Name },
		path:    func(t Table) string { return string(TablePath(t.Name)) },
		brief:   tableBrief,
		fields:  func(t Table) []leaf { return flattenSkipping(t, "gsis", "lsis", "items") },
	}, a.Tables, b.Tables, func(out []Difference, ta, tb Table) []Difference {
		out = diffIndexes(out, ta, tb)
		return diffItems(out, ta, tb)
	})

	single("Prose", "Prose", "prose", flatten(a.Prose), flatten(b.Prose))
	out = diffRows(out, rowSpec[Comment]{
		section: "Comments",
		key:     func(c Comment) string { return c.ID },
		subject: func(c Comment) string { return "Comment by " + c.Author + " on " + c.Target },
		path:    func(c Comment) string { return "comments/" + c.ID },
		brief:   func(c Comment) string { return shorten(c.Body) },
		fields:  func(c Comment) []leaf { return flatten(c) },
	}, a.Comments, b.Comments, nil)
	return out
}

// tableIndex is a GSI or LSI with its kind, so an index that moves between the two shows as a
// changed kind.
type tableIndex struct {
	local bool
	ix    Index
}

func (t tableIndex) kind() string {
	if t.local {
		return "LSI"
	}
	return "GSI"
}

func tableIndexes(t Table) []tableIndex {
	out := make([]tableIndex, 0, len(t.GSIs)+len(t.LSIs))
	for _, ix := range t.GSIs {
		out = append(out, tableIndex{false, ix})
	}
	for _, ix := range t.LSIs {
		out = append(out, tableIndex{true, ix})
	}
	return out
}

func diffIndexes(out []Difference, ta, tb Table) []Difference {
	return diffRows(out, rowSpec[tableIndex]{
		section: "Indexes",
		key:     func(x tableIndex) string { return x.ix.Name },
		subject: func(x tableIndex) string { return x.kind() + " " + x.ix.Name + " of table " + tb.Name },
		path:    func(x tableIndex) string { return string(IndexPath(tb.Name, x.ix.Name, "")) },
		brief:   func(x tableIndex) string { return indexBrief(x.ix) },
		fields:  func(x tableIndex) []leaf { return append([]leaf{{"kind", x.kind()}}, flatten(x.ix)...) },
	}, tableIndexes(ta), tableIndexes(tb), nil)
}

func diffItems(out []Difference, ta, tb Table) []Difference {
	return diffRows(out, rowSpec[SampleItem]{
		section: "Sample items",
		key:     func(it SampleItem) string { return it.ID },
		subject: func(it SampleItem) string {
			t := tb
			if _, _, ok := tb.ItemByID(it.ID); !ok {
				t = ta
			}
			if key := KeyText(t, it.Item); key != "" {
				return "Item " + key + " of table " + tb.Name
			}
			return "Item " + it.ID + " of table " + tb.Name
		},
		path:   func(it SampleItem) string { return string(ItemPath(tb.Name, it.ID, "")) },
		brief:  func(it SampleItem) string { return shortenTo(itemKeyText(it.Item), 160) },
		fields: func(it SampleItem) []leaf { return itemLeaves(it.Item) },
	}, ta.Items, tb.Items, nil)
}

func itemLeaves(it Item) []leaf {
	out := make([]leaf, 0, len(it))
	for _, name := range it.SortedNames() {
		out = append(out, leaf{name, FormatCell(it[name])})
	}
	return out
}

func entityBrief(e Entity) string {
	names := make([]string, len(e.Attributes))
	for i, a := range e.Attributes {
		names[i] = a.Name
	}
	if len(names) == 0 {
		return shorten(e.Description)
	}
	return shortenTo("attributes "+strings.Join(names, ", "), 160)
}

func tableBrief(t Table) string {
	key := "PK " + keyAttrText(t.PartitionKey)
	if t.SortKey != nil {
		key += ", SK " + keyAttrText(*t.SortKey)
	}
	return fmt.Sprintf("%s; %s, %s, %s", key, count(len(t.GSIs), "GSI"), count(len(t.LSIs), "LSI"), count(len(t.Items), "item"))
}

func indexBrief(ix Index) string {
	s := "PK " + keyAttrsText(ix.PartitionKey)
	if len(ix.SortKey) > 0 {
		s += ", SK " + keyAttrsText(ix.SortKey)
	}
	return s + "; projection " + ix.Projection.Type
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func keyAttrText(k KeyAttribute) string { return k.Name + " (" + string(k.Type) + ")" }

func keyAttrsText(ks []KeyAttribute) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = keyAttrText(k)
	}
	return strings.Join(parts, " + ")
}

func shortenTo(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// rowSpec says how to compare one list of rows.
type rowSpec[T any] struct {
	section string
	// list names the rows in an "order" difference; empty when their order carries no meaning.
	list string
	// short names a row in an "order" difference; the key when nil.
	short   func(T) string
	key     func(T) string
	subject func(T) string
	path    func(T) string
	brief   func(T) string
	fields  func(T) []leaf
}

// diffRows matches the rows of as and bs by key and appends what was removed, changed (then
// whatever more adds for a matched pair) and added, and a reordering of the rows both keep.
func diffRows[T any](out []Difference, spec rowSpec[T], as, bs []T, more func([]Difference, T, T) []Difference) []Difference {
	aKeys, bKeys := rowKeys(as, spec.key), rowKeys(bs, spec.key)
	inB := make(map[string]int, len(bs))
	for i, k := range bKeys {
		inB[k] = i
	}
	inA := make(map[string]bool, len(as))
	var keptA []string
	for i, ra := range as {
		inA[aKeys[i]] = true
		j, ok := inB[aKeys[i]]
		if !ok {
			out = append(out, Difference{Section: spec.section, Subject: spec.subject(ra), Path: spec.path(ra), Change: DiffRemoved, Old: spec.brief(ra)})
			continue
		}
		keptA = append(keptA, aKeys[i])
		rb := bs[j]
		base := Difference{Section: spec.section, Subject: spec.subject(rb), Path: spec.path(rb), Change: DiffChanged}
		out = appendFieldChanges(out, base, spec.fields(ra), spec.fields(rb))
		if more != nil {
			out = more(out, ra, rb)
		}
	}
	var keptB []string
	for j, rb := range bs {
		if inA[bKeys[j]] {
			keptB = append(keptB, bKeys[j])
			continue
		}
		out = append(out, Difference{Section: spec.section, Subject: spec.subject(rb), Path: spec.path(rb), Change: DiffAdded, New: spec.brief(rb)})
	}
	if spec.list != "" && !slices.Equal(keptA, keptB) {
		out = append(out, Difference{
			Section: spec.section, Subject: "Order of the " + spec.list, Path: strings.ReplaceAll(spec.list, " ", "_"),
			Change: DiffChanged, Field: "order", Old: spec.orderText(as, aKeys, keptA), New: spec.orderText(bs, bKeys, keptB),
		})
	}
	return out
}

// orderText lists the kept rows, in the order of rows, by their short names.
func (spec rowSpec[T]) orderText(rows []T, keys, kept []string) string {
	byKey := make(map[string]T, len(rows))
	for i, r := range rows {
		byKey[keys[i]] = r
	}
	names := make([]string, len(kept))
	for i, k := range kept {
		names[i] = k
		if spec.short != nil {
			names[i] = spec.short(byKey[k])
		}
	}
	return strings.Join(names, ", ")
}

// rowKeys returns the key of every row, made unique: a key seen before gets its occurrence number,
// so two rows that share a name (which Check refuses, but an import may carry) are still matched
// one to one.
func rowKeys[T any](rows []T, key func(T) string) []string {
	seen := make(map[string]int, len(rows))
	out := make([]string, len(rows))
	for i, r := range rows {
		k := key(r)
		seen[k]++
		if n := seen[k]; n > 1 {
			k += "\x00" + strconv.Itoa(n)
		}
		out[i] = k
	}
	return out
}

// leaf is one field of a flattened row: its dotted name and its value as text.
type leaf struct {
	name, value string
}

// appendFieldChanges appends one DiffChanged per field whose text differs between fa and fb, in
// fa's order and then fb's new fields in theirs.
func appendFieldChanges(out []Difference, base Difference, fa, fb []leaf) []Difference {
	bv := make(map[string]string, len(fb))
	for _, l := range fb {
		bv[l.name] = l.value
	}
	seen := make(map[string]bool, len(fa))
	for _, l := range fa {
		seen[l.name] = true
		if nv := bv[l.name]; nv != l.value {
			d := base
			d.Field, d.Old, d.New = l.name, l.value, nv
			out = append(out, d)
		}
	}
	for _, l := range fb {
		if !seen[l.name] && l.value != "" {
			d := base
			d.Field, d.New = l.name, l.value
			out = append(out, d)
		}
	}
	return out
}

// flatten lists the fields of a document value that hold something, by design-json name.
func flatten(v any) []leaf { return flattenSkipping(v) }

// flattenSkipping is flatten without the named top-level members.
func flattenSkipping(v any, skip ...string) []leaf {
	var out []leaf
	rv := reflect.ValueOf(v)
	for i := 0; i < rv.NumField(); i++ {
		name, ok := jsonName(rv.Type().Field(i))
		if !ok || slices.Contains(skip, name) {
			continue
		}
		out = flattenValue(out, name, rv.Field(i))
	}
	return out
}

var (
	valueType        = reflect.TypeOf(Value{})
	itemType         = reflect.TypeOf(Item{})
	keyAttributeType = reflect.TypeOf(KeyAttribute{})
)

// flattenValue appends the leaves of v under name. Values, key attributes and lists of plain
// values are single leaves; structs and maps open into dotted members; lists of rows open into
// bracketed rows, addressed by their id or name where they have one, by position otherwise.
func flattenValue(out []leaf, name string, v reflect.Value) []leaf {
	switch {
	case v.Type() == valueType:
		return append(out, leaf{name, FormatCell(v.Interface().(Value))})
	case v.Type() == keyAttributeType:
		return append(out, leaf{name, keyAttrText(v.Interface().(KeyAttribute))})
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return out
		}
		if e := v.Elem(); e.Kind() == reflect.Slice && e.Len() == 0 {
			// A pointer to a list tells "stated: none" (an expected result of nothing) from "not stated".
			return append(out, leaf{name, "(none)"})
		}
		return flattenValue(out, name, v.Elem())
	case reflect.Struct:
		return flattenStruct(out, name, v, -1)
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = flattenValue(out, name+"."+k, v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())))
		}
		return out
	case reflect.Slice:
		if v.Len() == 0 {
			return out
		}
		elem := v.Type().Elem()
		if elem.Kind() != reflect.Struct || elem == valueType || elem == keyAttributeType {
			parts := make([]string, v.Len())
			for i := range parts {
				parts[i] = scalarText(v.Index(i))
			}
			return append(out, leaf{name, strings.Join(parts, ", ")})
		}
		keyField := rowKeyField(elem)
		seen := map[string]int{}
		for i := 0; i < v.Len(); i++ {
			k := strconv.Itoa(i)
			if keyField >= 0 {
				k = scalarText(v.Index(i).Field(keyField))
				seen[k]++
				if seen[k] > 1 {
					k += "#" + strconv.Itoa(seen[k])
				}
			}
			row := name + "[" + k + "]"
			if keyField < 0 {
				out = flattenValue(out, row, v.Index(i))
				continue
			}
			// The row's key is in its name already; a row with nothing else still shows.
			n := len(out)
			if out = flattenStruct(out, row, v.Index(i), keyField); len(out) == n {
				out = append(out, leaf{row, k})
			}
		}
		return out
	case reflect.Bool:
		if !v.Bool() {
			return out
		}
	case reflect.String:
		if v.String() == "" {
			return out
		}
	}
	return append(out, leaf{name, scalarText(v)})
}

// flattenStruct appends the leaves of the members of struct v under name, leaving out the field
// at position skip.
func flattenStruct(out []leaf, name string, v reflect.Value, skip int) []leaf {
	for i := 0; i < v.NumField(); i++ {
		if member, ok := jsonName(v.Type().Field(i)); ok && i != skip {
			out = flattenValue(out, name+"."+member, v.Field(i))
		}
	}
	return out
}

// rowKeyField is the position of the field that identifies a row of a list (its id, name, title
// or pattern number), or -1 when rows are known by position.
func rowKeyField(t reflect.Type) int {
	for _, want := range []string{"id", "name", "title", "pattern", "entity"} {
		for i := 0; i < t.NumField(); i++ {
			if name, ok := jsonName(t.Field(i)); ok && name == want {
				return i
			}
		}
	}
	return -1
}

// scalarText prints a plain value: a string as it is, numbers in their shortest form.
func scalarText(v reflect.Value) string {
	switch {
	case v.Type() == valueType:
		return FormatCell(v.Interface().(Value))
	case v.Type() == itemType:
		return "{" + itemKeyText(v.Interface().(Item)) + "}"
	case v.Type() == keyAttributeType:
		return keyAttrText(v.Interface().(KeyAttribute))
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		return scalarText(v.Elem())
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// jsonName is a struct field's design-json member name; ok is false for fields not in the JSON.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return f.Name, true
}
