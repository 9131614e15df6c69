// Package workbench reads and writes NoSQL Workbench models (workbench-json). docs/exports.md
// ("workbench-json") says how a model maps onto a design.
package workbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Version and Service are what Export writes in ModelMetadata;
// NoSQL Workbench 3 refuses a model without them.
const (
	Version = "3.0"
	Service = "Amazon DynamoDB"
)

// Names of the model's members.
const (
	memberModelName      = "ModelName"
	memberModelMetadata  = "ModelMetadata"
	memberDataModel      = "DataModel"
	memberAuthor         = "Author"
	memberDateCreated    = "DateCreated"
	memberDateModified   = "DateLastModified"
	memberDescription    = "Description"
	memberService        = "AWSService"
	memberVersion        = "Version"
	memberTableName      = "TableName"
	memberKeyAttributes  = "KeyAttributes"
	memberPartitionKey   = "PartitionKey"
	memberSortKey        = "SortKey"
	memberNonKey         = "NonKeyAttributes"
	memberAttributeName  = "AttributeName"
	memberAttributeType  = "AttributeType"
	memberFacets         = "TableFacets"
	memberFacetName      = "FacetName"
	memberAlias          = "KeyAttributeAlias"
	memberPKAlias        = "PartitionKeyAlias"
	memberSKAlias        = "SortKeyAlias"
	memberGSIs           = "GlobalSecondaryIndexes"
	memberIndexName      = "IndexName"
	memberProjection     = "Projection"
	memberProjectionType = "ProjectionType"
	memberTableData      = "TableData"
	memberDataAccess     = "DataAccess"
	memberSampleFormats  = "SampleDataFormats"
	memberBillingMode    = "BillingMode"
	memberCapacity       = "ProvisionedCapacitySettings"
	memberThroughput     = "ProvisionedThroughput"
	memberReadUnits      = "ReadCapacityUnits"
	memberWriteUnits     = "WriteCapacityUnits"
	memberAutoRead       = "AutoScalingRead"
	memberAutoWrite      = "AutoScalingWrite"
)

// defaultDataAccess is the DataAccess every Workbench table and facet carries, in compact form.
const defaultDataAccess = `{"MySql":{}}`

// Looks reports whether text, a JSON object, has the members of a Workbench model rather than
// of design-json, which names its format.
func Looks(text []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(text, &probe) != nil {
		return false
	}
	if _, ok := probe["format"]; ok {
		return false
	}
	for _, k := range []string{memberModelName, memberModelMetadata, memberDataModel} {
		if _, ok := probe[k]; ok {
			return true
		}
	}
	return false
}

// Import reads a NoSQL Workbench model: ModelMetadata.Version 1.0, 2.0, 3.0 or
// none, with or without facets. The model must be a JSON object with at least one of ModelName,
// ModelMetadata and DataModel; a member of the wrong JSON type, a table without a name or a
// partition key, and a model for another service than DynamoDB are refused with a
// *ValidationError naming the member ("DataModel/0/KeyAttributes/PartitionKey"). Parts that
// cannot be placed (an attribute of unknown type, an index without a key, an unreadable item
// value) are left out with a note; members the design has no field for are kept in d.Workbench.
func Import(data []byte) (designer.Design, []designer.ImportNote, error) {
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return designer.Design{}, nil, designer.Invalid("file", "is not valid JSON (at byte %d): %v", syn.Offset, err)
		}
		return designer.Design{}, nil, designer.Invalid("file", "is not a NoSQL Workbench model: it must be a JSON object")
	}
	if top == nil || !slices.ContainsFunc([]string{memberModelName, memberModelMetadata, memberDataModel}, func(k string) bool { return top[k] != nil }) {
		return designer.Design{}, nil, designer.Invalid("file", "is not a NoSQL Workbench model: it has none of %s, %s and %s", memberModelName, memberModelMetadata, memberDataModel)
	}
	var im importer
	d, err := im.model(top)
	if err != nil {
		return designer.Design{}, nil, err
	}
	d = designer.Normalize(d)
	if err := designer.Check(d); err != nil {
		// The importer builds only what Check accepts; this guards against a gap in that promise.
		return designer.Design{}, nil, fmt.Errorf("import NoSQL Workbench model: %w", err)
	}
	return d, im.notes, nil
}

type importer struct {
	notes []designer.ImportNote
}

func (im *importer) note(format string, args ...any) {
	im.notes = append(im.notes, designer.ImportNote{Message: fmt.Sprintf(format, args...)})
}

// leftover notes the members of a Workbench object that nothing reads or keeps.
func (im *importer) leftover(path string, obj map[string]json.RawMessage) {
	for _, k := range sortedKeys(obj) {
		im.note("%s/%s is not a member Dynaloom reads; it was not kept", path, k)
	}
}

func (im *importer) model(top map[string]json.RawMessage) (designer.Design, error) {
	var d designer.Design
	var ex designer.WorkbenchExtras
	name, err := asString(memberModelName, take(top, memberModelName))
	if err != nil {
		return designer.Design{}, err
	}
	d.Name = cleanName(name)
	if d.Name == "" {
		d.Name = "Untitled design"
	}
	if strings.TrimSpace(name) != "" && d.Name != strings.TrimSpace(name) {
		im.note("%s was shortened or cleaned to %q", memberModelName, d.Name)
	}
	if err := im.metadata(&d, &ex, take(top, memberModelMetadata)); err != nil {
		return designer.Design{}, err
	}
	tables, err := asArray(memberDataModel, take(top, memberDataModel))
	if err != nil {
		return designer.Design{}, err
	}
	if len(tables) == 0 {
		im.note("the model has no tables (%s is empty or missing)", memberDataModel)
	}
	for i, raw := range tables {
		t, tex, err := im.table(memberDataModel+"/"+strconv.Itoa(i), raw)
		if err != nil {
			return designer.Design{}, err
		}
		if _, _, dup := d.TableByName(t.Name); dup {
			im.note("table %s appears twice in the model; both were kept, and what Dynaloom keeps of the second for export replaces the first's", t.Name)
		}
		d.Tables = append(d.Tables, t)
		if !tex.Empty() {
			if ex.Tables == nil {
				ex.Tables = map[string]designer.WorkbenchTableExtras{}
			}
			ex.Tables[t.Name] = tex
		}
	}
	if len(top) > 0 {
		ex.Model = top
	}
	if ex.Model != nil || ex.Metadata != nil || ex.Tables != nil {
		d.Workbench = &ex
	}
	return d, nil
}

func (im *importer) metadata(d *designer.Design, ex *designer.WorkbenchExtras, raw json.RawMessage) error {
	meta, err := asObject(memberModelMetadata, raw)
	if err != nil || meta == nil {
		return err
	}
	version, err := asString(memberModelMetadata+"/"+memberVersion, take(meta, memberVersion))
	if err != nil {
		return err
	}
	switch version {
	case "", "1.0", "2.0", "3.0":
	default:
		im.note("%s/%s is %q; Dynaloom knows versions 1.0, 2.0 and 3.0, so parts of the model may have been missed", memberModelMetadata, memberVersion, version)
	}
	service, err := asString(memberModelMetadata+"/"+memberService, take(meta, memberService))
	if err != nil {
		return err
	}
	if s := strings.TrimSpace(service); s != "" && !strings.EqualFold(s, Service) && !strings.EqualFold(s, "DynamoDB") {
		return designer.Invalid(memberModelMetadata+"/"+memberService, "is %q; Dynaloom reads models for %s only", service, Service)
	}
	if rawDesc, ok := meta[memberDescription]; ok {
		desc, err := asString(memberModelMetadata+"/"+memberDescription, rawDesc)
		if err == nil {
			var clean string
			if clean, err = designer.CleanText("overview/business_context", desc); err == nil {
				d.Overview.BusinessContext = clean
				delete(meta, memberDescription)
			}
		}
		if err != nil {
			im.note("%s/%s could not be the overview's business context (%v); it was kept for export only", memberModelMetadata, memberDescription, err)
		}
	}
	if len(meta) > 0 {
		ex.Metadata = meta
	}
	return nil
}

// facetDraft is a facet while its table is being read.
type facetDraft struct {
	name    string
	members map[string]json.RawMessage
	items   []int // positions in the table's items
}

func (im *importer) table(p string, raw json.RawMessage) (designer.Table, designer.WorkbenchTableExtras, error) {
	var ex designer.WorkbenchTableExtras
	obj, err := asObject(p, raw)
	if err != nil {
		return designer.Table{}, ex, err
	}
	if obj == nil {
		return designer.Table{}, ex, designer.Invalid(p, "must be a JSON object, not null")
	}
	name, err := asString(p+"/"+memberTableName, take(obj, memberTableName))
	if err != nil {
		return designer.Table{}, ex, err
	}
	var t designer.Table
	if t.Name, err = designer.CleanName(p+"/"+memberTableName, name); err != nil {
		return designer.Table{}, ex, err
	}
	keys, err := asObject(p+"/"+memberKeyAttributes, take(obj, memberKeyAttributes))
	if err != nil {
		return designer.Table{}, ex, err
	}
	if keys == nil {
		return designer.Table{}, ex, designer.Invalid(p+"/"+memberKeyAttributes, "is missing; table %s needs a partition key", t.Name)
	}
	if t.PartitionKey, err = keyAttr(p+"/"+memberKeyAttributes+"/"+memberPartitionKey, take(keys, memberPartitionKey), true); err != nil {
		return designer.Table{}, ex, err
	}
	t.Attributes = []designer.Attribute{{Name: t.PartitionKey.Name, Type: t.PartitionKey.Type}}
	if rawSK := take(keys, memberSortKey); !isNull(rawSK) {
		sk, err := keyAttr(p+"/"+memberKeyAttributes+"/"+memberSortKey, rawSK, true)
		if err != nil {
			return designer.Table{}, ex, err
		}
		t.SortKey = &sk
		if sk.Name != t.PartitionKey.Name {
			t.Attributes = append(t.Attributes, designer.Attribute{Name: sk.Name, Type: sk.Type})
		}
	}
	im.leftover(p+"/"+memberKeyAttributes, keys)
	if err := im.nonKeyAttributes(p, &t, take(obj, memberNonKey)); err != nil {
		return designer.Table{}, ex, err
	}
	if err := im.billing(p, &t, obj); err != nil {
		return designer.Table{}, ex, err
	}
	if err := im.indexes(p, &t, &ex, take(obj, memberGSIs)); err != nil {
		return designer.Table{}, ex, err
	}
	facets, err := im.facets(p, &t, take(obj, memberFacets))
	if err != nil {
		return designer.Table{}, ex, err
	}
	tableItems := len(t.Items)
	if err := im.items(p+"/"+memberTableData, &t, take(obj, memberTableData)); err != nil {
		return designer.Table{}, ex, err
	}
	if da, ok := obj[memberDataAccess]; ok && isDefaultDataAccess(da) {
		delete(obj, memberDataAccess)
	}
	if len(obj) > 0 {
		ex.Members = obj
	}
	for i := range t.Items {
		t.Items[i].ID = designer.ItemIDPrefix + strconv.Itoa(i+1)
	}
	settleFacets(t, facets, tableItems, &ex)
	return t, ex, nil
}

func (im *importer) nonKeyAttributes(p string, t *designer.Table, raw json.RawMessage) error {
	defs, err := asArray(p+"/"+memberNonKey, raw)
	if err != nil {
		return err
	}
	for i, def := range defs {
		ap := fmt.Sprintf("%s/%s/%d", p, memberNonKey, i)
		k, err := keyAttr(ap, def, false)
		if err == nil {
			_, err = designer.CleanName(ap+"/"+memberAttributeName, k.Name)
		}
		if err != nil {
			im.note("an attribute of table %s was left out: %v", t.Name, err)
			continue
		}
		if prev, _, dup := t.AttributeByName(k.Name); dup {
			if prev.Type != k.Type {
				im.note("table %s declares attribute %s twice, as %s and as %s; the first was kept", t.Name, k.Name, prev.Type, k.Type)
			}
			continue
		}
		t.Attributes = append(t.Attributes, designer.Attribute{Name: k.Name, Type: k.Type})
	}
	return nil
}

func (im *importer) billing(p string, t *designer.Table, obj map[string]json.RawMessage) error {
	mode, err := asString(p+"/"+memberBillingMode, take(obj, memberBillingMode))
	if err != nil {
		return err
	}
	switch mode {
	case "":
	case designer.OnDemand, designer.Provisioned:
		t.BillingMode = mode
	default:
		im.note("table %s has billing mode %q, which is neither %s nor %s; %s was assumed", t.Name, mode, designer.Provisioned, designer.OnDemand, designer.OnDemand)
	}
	cp := p + "/" + memberCapacity
	capacity, err := asObject(cp, obj[memberCapacity])
	if err != nil {
		return err
	}
	if capacity == nil {
		delete(obj, memberCapacity)
		return nil
	}
	throughput, err := asObject(cp+"/"+memberThroughput, take(capacity, memberThroughput))
	if err != nil {
		return err
	}
	for _, u := range []struct {
		name string
		dst  **int64
	}{{memberReadUnits, &t.ReadUnits}, {memberWriteUnits, &t.WriteUnits}} {
		rawUnits := take(throughput, u.name)
		if isNull(rawUnits) {
			continue
		}
		var n json.Number
		if json.Unmarshal(rawUnits, &n) == nil {
			if v, err := strconv.ParseInt(n.String(), 10, 64); err == nil && v >= 0 {
				*u.dst = &v
				continue
			}
		}
		im.note("%s/%s/%s of table %s is %s, not a whole number of zero or more; it was left out", cp, memberThroughput, u.name, t.Name, rawUnits)
	}
	im.leftover(cp+"/"+memberThroughput, throughput)
	if len(capacity) == 0 {
		delete(obj, memberCapacity)
	} else {
		rest, err := json.Marshal(capacity)
		if err != nil {
			return fmt.Errorf("%s: %w", cp, err)
		}
		obj[memberCapacity] = rest
	}
	return nil
}

func (im *importer) indexes(p string, t *designer.Table, ex *designer.WorkbenchTableExtras, raw json.RawMessage) error {
	list, err := asArray(p+"/"+memberGSIs, raw)
	if err != nil {
		return err
	}
	for i, rawIx := range list {
		ip := fmt.Sprintf("%s/%s/%d", p, memberGSIs, i)
		obj, err := asObject(ip, rawIx)
		if err != nil {
			return err
		}
		if obj == nil {
			im.note("%s is null; it was left out", ip)
			continue
		}
		ix, err := im.index(ip, t, obj)
		if err != nil {
			im.note("a GSI of table %s was left out: %v", t.Name, err)
			continue
		}
		t.GSIs = append(t.GSIs, ix)
		if len(obj) > 0 {
			if ex.Indexes == nil {
				ex.Indexes = map[string]map[string]json.RawMessage{}
			}
			ex.Indexes[ix.Name] = obj
		}
	}
	return nil
}

// index reads one GSI, taking the members it reads out of obj.
func (im *importer) index(ip string, t *designer.Table, obj map[string]json.RawMessage) (designer.Index, error) {
	name, err := asString(ip+"/"+memberIndexName, take(obj, memberIndexName))
	if err != nil {
		return designer.Index{}, err
	}
	var ix designer.Index
	if ix.Name, err = designer.CleanName(ip+"/"+memberIndexName, name); err != nil {
		return designer.Index{}, err
	}
	if _, _, _, dup := t.IndexByName(ix.Name); dup {
		return designer.Index{}, designer.Invalid(ip+"/"+memberIndexName, "is %s, the name of an earlier GSI of the table", ix.Name)
	}
	kp := ip + "/" + memberKeyAttributes
	keys, err := asObject(kp, take(obj, memberKeyAttributes))
	if err != nil {
		return designer.Index{}, err
	}
	if keys == nil {
		return designer.Index{}, designer.Invalid(kp, "is missing; GSI %s needs a partition key", ix.Name)
	}
	pk, err := keyAttr(kp+"/"+memberPartitionKey, take(keys, memberPartitionKey), true)
	if err != nil {
		return designer.Index{}, err
	}
	ix.PartitionKey = []designer.KeyAttribute{pk}
	if rawSK := take(keys, memberSortKey); !isNull(rawSK) {
		sk, err := keyAttr(kp+"/"+memberSortKey, rawSK, true)
		if err != nil {
			return designer.Index{}, err
		}
		ix.SortKey = []designer.KeyAttribute{sk}
	}
	im.leftover(kp, keys)
	pp := ip + "/" + memberProjection
	proj, err := asObject(pp, take(obj, memberProjection))
	if err != nil {
		return designer.Index{}, err
	}
	kind, err := asString(pp+"/"+memberProjectionType, take(proj, memberProjectionType))
	if err != nil {
		return designer.Index{}, err
	}
	attrs, err := asStrings(pp+"/"+memberNonKey, take(proj, memberNonKey))
	if err != nil {
		return designer.Index{}, err
	}
	switch kind {
	case designer.All, designer.KeysOnly:
		ix.Projection.Type = kind
		if len(attrs) > 0 {
			im.note("GSI %s of table %s lists attributes under a %s projection; they were left out", ix.Name, t.Name, kind)
		}
	case designer.Include:
		ix.Projection = designer.Projection{Type: designer.Include, Attributes: attrs}
	default:
		ix.Projection = designer.Projection{Type: designer.All}
		if kind == "" {
			im.note("GSI %s of table %s states no projection type; ALL was assumed", ix.Name, t.Name)
		} else {
			im.note("GSI %s of table %s has projection type %q; ALL was assumed", ix.Name, t.Name, kind)
		}
	}
	im.leftover(pp, proj)
	return ix, nil
}

func (im *importer) facets(p string, t *designer.Table, raw json.RawMessage) ([]facetDraft, error) {
	list, err := asArray(p+"/"+memberFacets, raw)
	if err != nil {
		return nil, err
	}
	var facets []facetDraft
	for i, rawFacet := range list {
		fp := fmt.Sprintf("%s/%s/%d", p, memberFacets, i)
		obj, err := asObject(fp, rawFacet)
		if err != nil {
			return nil, err
		}
		if obj == nil {
			im.note("%s is null; it was left out", fp)
			continue
		}
		name, err := asString(fp+"/"+memberFacetName, take(obj, memberFacetName))
		if err != nil {
			return nil, err
		}
		f := facetDraft{name: cleanName(name)}
		if f.name == "" {
			f.name = "Facet " + strconv.Itoa(i+1)
			im.note("facet %d of table %s has no name; it was called %s", i+1, t.Name, f.name)
		}
		if slices.ContainsFunc(facets, func(o facetDraft) bool { return o.name == f.name }) {
			base := f.name
			for n := 2; slices.ContainsFunc(facets, func(o facetDraft) bool { return o.name == f.name }); n++ {
				f.name = base + " " + strconv.Itoa(n)
			}
			im.note("table %s has two facets named %s; the second was called %s", t.Name, base, f.name)
		}
		ap := fp + "/" + memberAlias
		alias, err := asObject(ap, take(obj, memberAlias))
		if err != nil {
			return nil, err
		}
		pkAlias, err := asString(ap+"/"+memberPKAlias, take(alias, memberPKAlias))
		if err != nil {
			return nil, err
		}
		skAlias, err := asString(ap+"/"+memberSKAlias, take(alias, memberSKAlias))
		if err != nil {
			return nil, err
		}
		im.leftover(ap, alias)
		t.EntityTypes = append(t.EntityTypes, designer.EntityType{Entity: f.name, PKTemplate: template(pkAlias), SKTemplate: template(skAlias)})
		first := len(t.Items)
		if err := im.items(fp+"/"+memberTableData, t, take(obj, memberTableData)); err != nil {
			return nil, err
		}
		for j := first; j < len(t.Items); j++ {
			f.items = append(f.items, j)
		}
		if da, ok := obj[memberDataAccess]; ok && isDefaultDataAccess(da) {
			delete(obj, memberDataAccess)
		}
		f.members = obj
		facets = append(facets, f)
	}
	return facets, nil
}

// items appends the items of a TableData array to t. An attribute whose value is not DynamoDB
// JSON is left out of its item, with one note per attribute name and reason.
func (im *importer) items(p string, t *designer.Table, raw json.RawMessage) error {
	list, err := asArray(p, raw)
	if err != nil {
		return err
	}
	type dropped struct {
		attr, reason, first string
		count               int
	}
	// One note per attribute name says how many items lost it and why the first one did.
	var drops []dropped
	for i, rawItem := range list {
		itp := p + "/" + strconv.Itoa(i)
		obj, err := asObject(itp, rawItem)
		if err != nil {
			return err
		}
		if obj == nil {
			im.note("%s is null; it was left out", itp)
			continue
		}
		it := make(designer.Item, len(obj))
		for _, name := range sortedKeys(obj) {
			var v designer.Value
			if err := json.Unmarshal(obj[name], &v); err != nil {
				at := slices.IndexFunc(drops, func(d dropped) bool { return d.attr == name })
				if at < 0 {
					drops = append(drops, dropped{attr: name, reason: err.Error(), first: itp})
					at = len(drops) - 1
				}
				drops[at].count++
				continue
			}
			it[name] = v
		}
		t.Items = append(t.Items, designer.SampleItem{Item: it})
	}
	for _, d := range drops {
		items := "1 item"
		if d.count > 1 {
			items = strconv.Itoa(d.count) + " items"
		}
		im.note("attribute %s was left out of %s of table %s; the first, at %s: %s", d.attr, items, t.Name, d.first, d.reason)
	}
	return nil
}

// settleFacets records what export needs to write the facets back as they were: the facets of
// items their keys would not place there, and a facet's attribute list when its items do not
// give the same list.
func settleFacets(t designer.Table, facets []facetDraft, tableItems int, ex *designer.WorkbenchTableExtras) {
	keep := func(id, facet string) {
		if ex.ItemFacets == nil {
			ex.ItemFacets = map[string]string{}
		}
		ex.ItemFacets[id] = facet
	}
	matchers := designer.NewEntityMatcher(t)
	for _, f := range facets {
		var items []designer.Item
		for _, i := range f.items {
			items = append(items, t.Items[i].Item)
			if matchers.EntityType(t.Items[i].Item) != f.name {
				keep(t.Items[i].ID, f.name)
			}
		}
		if raw, ok := f.members[memberNonKey]; ok {
			var listed []string
			if json.Unmarshal(raw, &listed) == nil && slices.Equal(listed, itemAttributes(t, items)) {
				delete(f.members, memberNonKey)
			}
		}
		if len(f.members) > 0 {
			if ex.Facets == nil {
				ex.Facets = map[string]map[string]json.RawMessage{}
			}
			ex.Facets[f.name] = f.members
		}
	}
	if len(facets) == 0 {
		return
	}
	for _, si := range t.Items[tableItems:] {
		if matchers.EntityType(si.Item) != "" {
			keep(si.ID, "")
		}
	}
}

// keyAttr reads an attribute definition {"AttributeName": …, "AttributeType": …}. A key
// attribute must be there; other definitions may be null.
func keyAttr(p string, raw json.RawMessage, required bool) (designer.KeyAttribute, error) {
	obj, err := asObject(p, raw)
	if err != nil {
		return designer.KeyAttribute{}, err
	}
	if obj == nil {
		if required {
			return designer.KeyAttribute{}, designer.Invalid(p, "is missing")
		}
		return designer.KeyAttribute{}, designer.Invalid(p, "is null")
	}
	name, err := asString(p+"/"+memberAttributeName, obj[memberAttributeName])
	if err != nil {
		return designer.KeyAttribute{}, err
	}
	if strings.TrimSpace(name) == "" {
		return designer.KeyAttribute{}, designer.Invalid(p+"/"+memberAttributeName, "must not be empty")
	}
	kind, err := asString(p+"/"+memberAttributeType, obj[memberAttributeType])
	if err != nil {
		return designer.KeyAttribute{}, err
	}
	if required {
		if _, err := designer.CleanName(p+"/"+memberAttributeName, name); err != nil {
			return designer.KeyAttribute{}, err
		}
	}
	t := designer.Type(strings.ToUpper(strings.TrimSpace(kind)))
	if !t.Valid() {
		return designer.KeyAttribute{}, designer.Invalid(p+"/"+memberAttributeType, "of %s is %q; use one of S N B BOOL NULL M L SS NS BS", name, kind)
	}
	return designer.KeyAttribute{Name: name, Type: t}, nil
}

// template reads a facet's key alias as a key template: the placeholders "<id>" and "${id}"
// become "{id}"; all other text is kept as it is.
func template(alias string) string {
	var sb strings.Builder
	for i := 0; i < len(alias); {
		closer, skip := byte(0), 1
		switch {
		case alias[i] == '<':
			closer = '>'
		case alias[i] == '$' && i+1 < len(alias) && alias[i+1] == '{':
			closer, skip = '}', 2
		}
		if closer != 0 {
			rest := alias[i+skip:]
			if end := strings.IndexAny(rest, "<>{}"); end > 0 && rest[end] == closer {
				sb.WriteString("{" + rest[:end] + "}")
				i += skip + end + 1
				continue
			}
		}
		sb.WriteByte(alias[i])
		i++
	}
	return sb.String()
}

// cleanName makes s a name Check accepts, or "": control characters become spaces and an
// over-long name is shortened.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if designer.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return designer.TruncateRunes(strings.TrimSpace(s), designer.MaxNameLen)
}

func isDefaultDataAccess(raw json.RawMessage) bool {
	var buf bytes.Buffer
	return json.Compact(&buf, raw) == nil && buf.String() == defaultDataAccess
}

// take removes a member from obj and returns its value, nil when it is absent.
func take(obj map[string]json.RawMessage, key string) json.RawMessage {
	v, ok := obj[key]
	if !ok {
		return nil
	}
	delete(obj, key)
	return v
}

func isNull(raw json.RawMessage) bool {
	return raw == nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// asObject reads a JSON object; an absent member or null gives nil.
func asObject(p string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, designer.Invalid(p, "must be a JSON object")
	}
	return obj, nil
}

// asArray reads a JSON array; an absent member or null gives nil.
func asArray(p string, raw json.RawMessage) ([]json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, designer.Invalid(p, "must be a JSON array")
	}
	return list, nil
}

// asString reads a JSON string; an absent member or null gives "".
func asString(p string, raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", designer.Invalid(p, "must be a JSON string")
	}
	return s, nil
}

// asStrings reads a JSON array of strings; an absent member or null gives nil.
func asStrings(p string, raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, designer.Invalid(p, "must be a JSON array of strings")
	}
	return list, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// itemAttributes lists the non-key attributes the items hold: those the table declares in its
// order, then the others by name.
func itemAttributes(t designer.Table, items []designer.Item) []string {
	held := map[string]bool{}
	for _, it := range items {
		for name := range it {
			held[name] = true
		}
	}
	delete(held, t.PartitionKey.Name)
	if t.SortKey != nil {
		delete(held, t.SortKey.Name)
	}
	out := []string{}
	for _, a := range t.Attributes {
		if held[a.Name] {
			out = append(out, a.Name)
			delete(held, a.Name)
		}
	}
	return append(out, sortedKeys(held)...)
}

// workbenchDateLayout is how Workbench writes a model's dates: "Jan 12, 2023, 10:14 AM".
