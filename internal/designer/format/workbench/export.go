package workbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"dynaloom/internal/designer"
)

// Writing a design as a NoSQL Workbench model, keeping what an imported model held.

const workbenchDateLayout = "Jan 02, 2006, 03:04 PM"

// Dated returns d with ModelMetadata's DateCreated and DateLastModified set from created
// and modified, in UTC and Workbench's layout, where d has no date of its own (a design that did not
// come from Workbench, or one whose model left them empty). d itself is not changed.
func Dated(d designer.Design, created, modified time.Time) designer.Design {
	var ex designer.WorkbenchExtras
	if d.Workbench != nil {
		ex = *d.Workbench
	}
	meta := make(map[string]json.RawMessage, len(ex.Metadata)+2)
	for k, v := range ex.Metadata {
		meta[k] = v
	}
	changed := false
	for k, t := range map[string]time.Time{memberDateCreated: created, memberDateModified: modified} {
		if raw := meta[k]; t.IsZero() || !isNull(raw) && string(raw) != `""` {
			continue
		}
		meta[k], _ = json.Marshal(t.UTC().Format(workbenchDateLayout))
		changed = true
	}
	if !changed {
		return d
	}
	ex.Metadata = meta
	d.Workbench = &ex
	return d
}

// Export writes d as a NoSQL Workbench model of version 3.0, one model for the
// design, indented, with a trailing newline. The output is deterministic. See the comment at the
// top of this file for what Workbench has no place for.
func Export(d designer.Design) ([]byte, error) {
	d = designer.Normalize(d)
	var ex designer.WorkbenchExtras
	if d.Workbench != nil {
		ex = *d.Workbench
	}
	facetNames := map[string]bool{}
	tables := make([]any, len(d.Tables))
	for i, t := range d.Tables {
		tables[i] = exportTable(t, ex.Tables[t.Name], facetNames)
	}
	meta := keptMembers(ex.Metadata, memberService, memberVersion)
	for _, k := range []string{memberAuthor, memberDateCreated, memberDateModified, memberDescription} {
		if _, ok := meta[k]; !ok {
			meta[k] = ""
		}
	}
	if d.Overview.BusinessContext != "" {
		meta[memberDescription] = d.Overview.BusinessContext
	}
	meta[memberService] = Service
	meta[memberVersion] = Version
	model := keptMembers(ex.Model, memberModelName, memberModelMetadata, memberDataModel)
	model[memberModelName] = d.Name
	model[memberModelMetadata] = ordered(meta, memberAuthor, memberDateCreated, memberDateModified, memberDescription, memberService, memberVersion)
	model[memberDataModel] = tables

	var w writer
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	if err := w.value(ordered(model, memberModelName, memberModelMetadata, memberDataModel)); err != nil {
		return nil, fmt.Errorf("export NoSQL Workbench model: %w", err)
	}
	var out bytes.Buffer
	out.Grow(w.buf.Len() * 2)
	if err := json.Indent(&out, w.buf.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("export NoSQL Workbench model: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func exportTable(t designer.Table, ex designer.WorkbenchTableExtras, facetNames map[string]bool) object {
	members := keptMembers(ex.Members, memberTableName, memberKeyAttributes, memberNonKey, memberFacets, memberGSIs, memberTableData, memberBillingMode, memberCapacity)
	members[memberTableName] = t.Name
	keys := map[string]any{memberPartitionKey: attrDef(t.PartitionKey.Name, t.PartitionKey.Type)}
	if t.SortKey != nil {
		keys[memberSortKey] = attrDef(t.SortKey.Name, t.SortKey.Type)
	}
	members[memberKeyAttributes] = ordered(keys, memberPartitionKey, memberSortKey)
	members[memberNonKey] = nonKeyDefs(t)

	// Each item goes to the facet it was imported from, or else to the facet its keys match.
	matchers := designer.NewEntityMatcher(t)
	order := newAttrOrder(t)
	facetItems := make([][]any, len(t.EntityTypes))
	var tableItems []any
	for _, si := range t.Items {
		entity, kept := ex.ItemFacets[si.ID]
		if !kept || (entity != "" && !slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return et.Entity == entity })) {
			entity = matchers.EntityType(si.Item)
		}
		at := slices.IndexFunc(t.EntityTypes, func(et designer.EntityType) bool { return et.Entity == entity })
		if entity == "" || at < 0 {
			tableItems = append(tableItems, itemObject{item: si.Item, order: order})
			continue
		}
		facetItems[at] = append(facetItems[at], itemObject{item: si.Item, order: order})
	}
	if len(t.EntityTypes) > 0 {
		facets := make([]any, len(t.EntityTypes))
		for i, et := range t.EntityTypes {
			facets[i] = exportFacet(t, et, facetItems[i], ex.Facets[et.Entity], facetNames)
		}
		members[memberFacets] = facets
	}
	if len(t.GSIs) > 0 {
		gsis := make([]any, len(t.GSIs))
		for i, ix := range t.GSIs {
			gsis[i] = exportIndex(ix, ex.Indexes[ix.Name])
		}
		members[memberGSIs] = gsis
	}
	if len(tableItems) > 0 || len(t.EntityTypes) == 0 {
		members[memberTableData] = designer.NonNil(tableItems)
	}
	if _, ok := members[memberDataAccess]; !ok {
		members[memberDataAccess] = json.RawMessage(defaultDataAccess)
	}
	members[memberBillingMode] = t.BillingMode
	if t.BillingMode == designer.Provisioned {
		var capacity map[string]json.RawMessage
		if raw, ok := ex.Members[memberCapacity]; ok && json.Unmarshal(raw, &capacity) != nil {
			capacity = nil
		}
		settings := keptMembers(capacity, memberThroughput)
		units := map[string]any{}
		if t.ReadUnits != nil {
			units[memberReadUnits] = *t.ReadUnits
		}
		if t.WriteUnits != nil {
			units[memberWriteUnits] = *t.WriteUnits
		}
		if len(units) > 0 {
			settings[memberThroughput] = ordered(units, memberReadUnits, memberWriteUnits)
		}
		members[memberCapacity] = ordered(settings, memberThroughput, memberAutoRead, memberAutoWrite)
	}
	return ordered(members, memberTableName, memberKeyAttributes, memberNonKey, memberFacets, memberGSIs, memberTableData, memberDataAccess, memberSampleFormats, memberBillingMode, memberCapacity)
}

// nonKeyDefs lists the table's non-key attributes: those it declares, in order, then the
// attributes an index key or an item uses without a declaration, by name, typed as the index or
// the first item that has them says.
func nonKeyDefs(t designer.Table) []any {
	isKey := func(name string) bool {
		return name == t.PartitionKey.Name || (t.SortKey != nil && name == t.SortKey.Name)
	}
	seen := map[string]bool{}
	defs := []any{}
	for _, a := range t.Attributes {
		if !isKey(a.Name) && !seen[a.Name] {
			seen[a.Name] = true
			defs = append(defs, attrDef(a.Name, a.Type))
		}
	}
	undeclared := map[string]designer.Type{}
	note := func(name string, typ designer.Type) {
		if _, ok := undeclared[name]; !ok && !seen[name] && !isKey(name) {
			undeclared[name] = typ
		}
	}
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			note(k.Name, k.Type)
		}
	}
	for _, si := range t.Items {
		for _, name := range si.Item.SortedNames() {
			note(name, si.Item[name].Type)
		}
	}
	for _, name := range sortedKeys(undeclared) {
		defs = append(defs, attrDef(name, undeclared[name]))
	}
	return defs
}

func exportFacet(t designer.Table, et designer.EntityType, items []any, kept map[string]json.RawMessage, used map[string]bool) object {
	name := et.Entity
	for n := 2; used[name]; n++ {
		name = et.Entity + " " + strconv.Itoa(n)
	}
	used[name] = true
	members := keptMembers(kept, memberFacetName, memberAlias, memberTableData, memberNonKey)
	members[memberFacetName] = name
	alias := map[string]any{memberPKAlias: et.PKTemplate}
	if t.SortKey != nil || et.SKTemplate != "" {
		alias[memberSKAlias] = et.SKTemplate
	}
	members[memberAlias] = ordered(alias, memberPKAlias, memberSKAlias)
	members[memberTableData] = designer.NonNil(items)

	// The facet's own list first, then what its items hold that the list lacks.
	var listed []string
	if raw, ok := kept[memberNonKey]; ok && json.Unmarshal(raw, &listed) != nil {
		listed = nil
	}
	var facetItems []designer.Item
	for _, it := range items {
		facetItems = append(facetItems, it.(itemObject).item)
	}
	attrs := []string{}
	for _, a := range slices.Concat(listed, itemAttributes(t, facetItems)) {
		if !slices.Contains(attrs, a) {
			attrs = append(attrs, a)
		}
	}
	members[memberNonKey] = attrs
	if _, ok := members[memberDataAccess]; !ok {
		members[memberDataAccess] = json.RawMessage(defaultDataAccess)
	}
	return ordered(members, memberFacetName, memberAlias, memberTableData, memberNonKey, memberDataAccess)
}

func exportIndex(ix designer.Index, kept map[string]json.RawMessage) object {
	members := keptMembers(kept, memberIndexName, memberKeyAttributes, memberProjection)
	members[memberIndexName] = ix.Name
	keys := map[string]any{}
	if len(ix.PartitionKey) > 0 {
		keys[memberPartitionKey] = attrDef(ix.PartitionKey[0].Name, ix.PartitionKey[0].Type)
	}
	if len(ix.SortKey) > 0 {
		keys[memberSortKey] = attrDef(ix.SortKey[0].Name, ix.SortKey[0].Type)
	}
	members[memberKeyAttributes] = ordered(keys, memberPartitionKey, memberSortKey)
	proj := map[string]any{memberProjectionType: ix.Projection.Type}
	if ix.Projection.Type == designer.Include {
		proj[memberNonKey] = designer.NonNil(ix.Projection.Attributes)
	}
	members[memberProjection] = ordered(proj, memberProjectionType, memberNonKey)
	return ordered(members, memberIndexName, memberKeyAttributes, memberProjection)
}

func attrDef(name string, t designer.Type) object {
	return object{{memberAttributeName, name}, {memberAttributeType, string(t)}}
}

// itemObject is an item as export writes it: its attributes in the order of the table's
// attributes, keys first, then the others by name, as Workbench writes its grid's columns.
type itemObject struct {
	item  designer.Item
	order *attrOrder
}

// attrOrder is the order of a table's attributes in its exported items.
type attrOrder struct {
	names []string
	known map[string]bool
}

func newAttrOrder(t designer.Table) *attrOrder {
	o := &attrOrder{known: map[string]bool{}}
	add := func(name string) {
		if !o.known[name] {
			o.known[name] = true
			o.names = append(o.names, name)
		}
	}
	add(t.PartitionKey.Name)
	if t.SortKey != nil {
		add(t.SortKey.Name)
	}
	for _, a := range t.Attributes {
		add(a.Name)
	}
	return o
}

// keptMembers copies the kept members of an object, leaving out those export computes.
func keptMembers(kept map[string]json.RawMessage, computed ...string) map[string]any {
	out := make(map[string]any, len(kept)+len(computed))
	for k, v := range kept {
		if !slices.Contains(computed, k) {
			out[k] = v
		}
	}
	return out
}

// member is one member of a JSON object whose member order matters.
type member struct {
	name  string
	value any
}

type object []member

// ordered orders an object's members: those named in order first, then the rest by name, as
// Workbench writes its known members before any others.
func ordered(members map[string]any, order ...string) object {
	out := make(object, 0, len(members))
	for _, k := range order {
		if v, ok := members[k]; ok {
			out = append(out, member{k, v})
		}
	}
	for _, k := range sortedKeys(members) {
		if !slices.Contains(order, k) {
			out = append(out, member{k, members[k]})
		}
	}
	return out
}

// writer writes compact JSON, objects in their given member order; Export
// indents the result once at the end.
type writer struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func (w *writer) value(v any) error {
	switch v := v.(type) {
	case object:
		w.buf.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.leaf(m.name); err != nil {
				return err
			}
			w.buf.WriteByte(':')
			if err := w.value(m.value); err != nil {
				return err
			}
		}
		w.buf.WriteByte('}')
	case []any:
		w.buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.value(e); err != nil {
				return err
			}
		}
		w.buf.WriteByte(']')
	case itemObject:
		w.buf.WriteByte('{')
		n := 0
		write := func(name string) error {
			val, ok := v.item[name]
			if !ok {
				return nil
			}
			if n > 0 {
				w.buf.WriteByte(',')
			}
			n++
			if err := w.leaf(name); err != nil {
				return err
			}
			w.buf.WriteByte(':')
			return w.leaf(val)
		}
		for _, k := range v.order.names {
			if err := write(k); err != nil {
				return err
			}
		}
		for _, name := range v.item.SortedNames() {
			if !v.order.known[name] {
				if err := write(name); err != nil {
					return err
				}
			}
		}
		w.buf.WriteByte('}')
	default:
		return w.leaf(v)
	}
	return nil
}

// leaf writes a value encoding/json can write, without the newline Encode adds.
func (w *writer) leaf(v any) error {
	if err := w.enc.Encode(v); err != nil {
		return err
	}
	w.buf.Truncate(w.buf.Len() - 1)
	return nil
}
