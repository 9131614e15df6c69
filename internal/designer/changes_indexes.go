package designer

import (
	"fmt"
	"slices"
	"strings"
)

func init() {
	register[AddIndex]()
	register[RenameIndex]()
	register[SetIndexKey]()
	register[SetIndexProjection]()
	register[SetIndexField]()
	register[SetIndexPatternAttributes]()
	register[DeleteIndex]()
}

// Changes to the secondary indexes of a table. Indexes are addressed by name within their table;
// GSIs and LSIs share one namespace. The limits are DynamoDB's (§4 of the semantics reference).
const (
	MaxGSIs                        = 20 // default quota per table
	MaxLSIs                        = 5
	MaxGSIKeyAttributes            = 4 // per partition key and per sort key
	MaxProjectedAttributes         = 20
	MaxProjectedAttributesPerTable = 100 // INCLUDE attributes across all indexes of a table
)

// findIndex returns the table, its position, the index named index in it, whether it is local and
// its position in its list.
func findIndex(d Design, table, index string) (Table, int, Index, bool, int, error) {
	t, i, err := findTable(d, "table", table)
	if err != nil {
		return Table{}, -1, Index{}, false, -1, err
	}
	ix, local, j, ok := t.IndexByName(index)
	if !ok {
		return Table{}, -1, Index{}, false, -1, Invalid("index", "table %s has no index named %q; it may have been renamed or deleted", t.Name, index)
	}
	return t, i, ix, local, j, nil
}

// withIndex returns t with the index at position j of its GSIs, or LSIs when local, replaced by ix.
func withIndex(t Table, local bool, j int, ix Index) Table {
	if local {
		t.LSIs = replaceAt(t.LSIs, j, ix)
	} else {
		t.GSIs = replaceAt(t.GSIs, j, ix)
	}
	return t
}

func indexKind(local bool) string {
	if local {
		return "local secondary index"
	}
	return "global secondary index"
}

// IndexKey checks the key of an index of t and returns it with blank types filled from the table
// (S for an attribute the table does not type). A GSI has 1–4 partition and 0–4 sort attributes.
// An LSI has the table's partition key, given or left out, and exactly one sort attribute that is
// not a key of the table.
func IndexKey(t Table, local bool, pk, sk []KeyAttribute) ([]KeyAttribute, []KeyAttribute, error) {
	var err error
	if local {
		if t.SortKey == nil {
			return nil, nil, Invalid("local", "table %s has no sort key; a local secondary index needs a table with a partition and a sort key", t.Name)
		}
		if len(pk) > 1 || len(pk) == 1 && strings.TrimSpace(pk[0].Name) != t.PartitionKey.Name {
			return nil, nil, Invalid("partition_key", "a local secondary index uses the table's partition key, %s", t.PartitionKey.Name)
		}
		if len(sk) != 1 {
			return nil, nil, Invalid("sort_key", "has %d attributes; a local secondary index has exactly one sort key attribute", len(sk))
		}
		if sk, err = keyAttributes(t, "sort_key", sk); err != nil {
			return nil, nil, err
		}
		if name := sk[0].Name; name == t.PartitionKey.Name || name == t.SortKey.Name {
			return nil, nil, Invalid("sort_key", "%s is a key of table %s; the sort key of a local secondary index is another attribute", name, t.Name)
		}
		return []KeyAttribute{t.PartitionKey}, sk, nil
	}
	if len(pk) < 1 || len(pk) > MaxGSIKeyAttributes {
		return nil, nil, Invalid("partition_key", "has %d attributes; a global secondary index's partition key has 1 to %d", len(pk), MaxGSIKeyAttributes)
	}
	if len(sk) > MaxGSIKeyAttributes {
		return nil, nil, Invalid("sort_key", "has %d attributes; a global secondary index's sort key has at most %d", len(sk), MaxGSIKeyAttributes)
	}
	if pk, err = keyAttributes(t, "partition_key", pk); err != nil {
		return nil, nil, err
	}
	if sk, err = keyAttributes(t, "sort_key", sk); err != nil {
		return nil, nil, err
	}
	for _, k := range sk {
		if slices.ContainsFunc(pk, func(p KeyAttribute) bool { return p.Name == k.Name }) {
			return nil, nil, Invalid("sort_key", "%s is in the partition key already; an attribute is in an index key once", k.Name)
		}
	}
	if len(sk) == 0 {
		sk = nil
	}
	return pk, sk, nil
}

// keyAttributes cleans the names of one key of an index, fills blank types and refuses repeats and
// types that cannot be keys.
func keyAttributes(t Table, field string, keys []KeyAttribute) ([]KeyAttribute, error) {
	out := make([]KeyAttribute, 0, len(keys))
	for _, k := range keys {
		name, err := CleanName(field, k.Name)
		if err != nil {
			return nil, err
		}
		fallback, ok := attributeType(t, name)
		if !ok || !fallback.KeyType() {
			fallback = S
		}
		typ, err := parseKeyType(string(k.Type), fallback)
		if err != nil {
			return nil, Invalid(field, "%s: %v", name, err)
		}
		if slices.ContainsFunc(out, func(o KeyAttribute) bool { return o.Name == name }) {
			return nil, Invalid(field, "lists %s twice", name)
		}
		out = append(out, KeyAttribute{Name: name, Type: typ})
	}
	return out, nil
}

// declareKeys returns the attributes with every key attribute declared, so the grid shows a column
// for it.
func declareKeys(attrs []Attribute, keys ...[]KeyAttribute) []Attribute {
	for _, list := range keys {
		for _, k := range list {
			if _, _, ok := (Table{Attributes: attrs}).AttributeByName(k.Name); !ok {
				attrs = declare(attrs, k.Name, k.Type)
			}
		}
	}
	return attrs
}

// IsIndexKey reports whether name is a key attribute of the index ix of t, counting the table's
// own keys, which every index entry holds.
func IsIndexKey(t Table, ix Index, name string) bool {
	if name == t.PartitionKey.Name || t.SortKey != nil && name == t.SortKey.Name {
		return true
	}
	has := func(k KeyAttribute) bool { return k.Name == name }
	return slices.ContainsFunc(ix.PartitionKey, has) || slices.ContainsFunc(ix.SortKey, has)
}

// AddIndex adds a global secondary index, or a local one when Local is set, projecting what
// Projection says: KEYS_ONLY or ALL; blank is ALL, as changes stored before it was given read.
// INCLUDE needs its attribute list, which SetIndexProjection sets.
type AddIndex struct {
	Table        string         `json:"table"`
	Name         string         `json:"name"`
	Local        bool           `json:"local,omitempty"`
	PartitionKey []KeyAttribute `json:"partition_key,omitempty"`
	SortKey      []KeyAttribute `json:"sort_key,omitempty"`
	Projection   string         `json:"projection,omitempty"`
}

func (AddIndex) Kind() string { return "add_index" }

func (c AddIndex) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	name, err := DynamoName("name", c.Name)
	if err != nil {
		return d, err
	}
	if _, _, _, taken := t.IndexByName(name); taken {
		return d, Invalid("name", "table %s already has an index named %q; GSIs and LSIs share one set of names", t.Name, name)
	}
	switch {
	case c.Local && len(t.LSIs) >= MaxLSIs:
		return d, Invalid("local", "table %s already has %d local secondary indexes, the most DynamoDB allows", t.Name, len(t.LSIs))
	case !c.Local && len(t.GSIs) >= MaxGSIs:
		return d, Invalid("local", "table %s already has %d global secondary indexes, DynamoDB's default quota per table", t.Name, len(t.GSIs))
	}
	projection := All
	if strings.TrimSpace(c.Projection) != "" {
		if projection, err = parseProjectionType(c.Projection); err != nil {
			return d, Invalid("projection", "%s", err)
		}
		if projection == Include {
			return d, Invalid("projection", "INCLUDE needs the attributes it projects; add the index with KEYS_ONLY, then choose INCLUDE and its attributes on the index")
		}
	}
	pk, sk, err := IndexKey(t, c.Local, c.PartitionKey, c.SortKey)
	if err != nil {
		return d, err
	}
	ix := Index{Name: name, PartitionKey: pk, SortKey: sk, Projection: Projection{Type: projection}}
	if c.Local {
		t.LSIs = append(slices.Clip(t.LSIs), ix)
	} else {
		t.GSIs = append(slices.Clip(t.GSIs), ix)
	}
	t.Attributes = declareKeys(t.Attributes, pk, sk)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c AddIndex) Summary() string {
	kind := "GSI"
	if c.Local {
		kind = "LSI"
	}
	return fmt.Sprintf("Added %s %s to table %s", kind, shorten(c.Name), shorten(c.Table))
}
func (c AddIndex) Paths() []Path { return []Path{IndexPath(c.Table, c.Name, "")} }

// RenameIndex renames an index; the access patterns' operations on it follow.
type RenameIndex struct {
	Table string `json:"table"`
	Index string `json:"index"`
	To    string `json:"to"`
}

func (RenameIndex) Kind() string { return "rename_index" }

func (c RenameIndex) Apply(d Design) (Design, error) {
	t, i, ix, local, j, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	to, err := DynamoName("to", c.To)
	if err != nil {
		return d, err
	}
	if to == ix.Name {
		return d, nil
	}
	if _, _, _, taken := t.IndexByName(to); taken {
		return d, Invalid("to", "table %s already has an index named %q", t.Name, to)
	}
	old := ix.Name
	ix.Name = to
	d.Tables = replaceAt(d.Tables, i, withIndex(t, local, j, ix))
	d.Patterns = EditRows(d.Patterns, func(p *Pattern) bool {
		changed := false
		p.Mapping.Operations = EditRows(p.Mapping.Operations, func(op *Operation) bool {
			if op.Table != t.Name || op.Index != old {
				return false
			}
			op.Index, changed = to, true
			return true
		})
		return changed
	})
	d.Comments = moveComments(d.Comments, IndexPath(t.Name, old, ""), IndexPath(t.Name, to, ""))
	if !local {
		d.Workbench = d.Workbench.renamedIndex(t.Name, old, to)
	}
	d.Diagrams = renamePins(d.Diagrams, ModelMap, func(node string) (string, bool) {
		return "index:" + t.Name + "/" + to, node == "index:"+t.Name+"/"+old
	})
	return d, nil
}

func (c RenameIndex) Summary() string {
	return fmt.Sprintf("Renamed index %s of table %s to %s", shorten(c.Index), shorten(c.Table), shorten(c.To))
}
func (c RenameIndex) Paths() []Path {
	return []Path{IndexPath(c.Table, c.Index, ""), IndexPath(c.Table, c.To, ""), PathPatterns,
		DiagramPath(ModelMap, "index:"+strings.TrimSpace(c.Table)+"/"+strings.TrimSpace(c.Index)), DiagramPath(ModelMap, "index:"+strings.TrimSpace(c.Table)+"/"+strings.TrimSpace(c.To))}
}

// SetIndexKey replaces the key of an index, with the limits AddIndex applies. Attributes of an
// INCLUDE projection that become keys leave the list: every entry holds them anyway.
type SetIndexKey struct {
	Table        string         `json:"table"`
	Index        string         `json:"index"`
	PartitionKey []KeyAttribute `json:"partition_key,omitempty"`
	SortKey      []KeyAttribute `json:"sort_key,omitempty"`
}

func (SetIndexKey) Kind() string { return "set_index_key" }

func (c SetIndexKey) Apply(d Design) (Design, error) {
	t, i, ix, local, j, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	if ix.PartitionKey, ix.SortKey, err = IndexKey(t, local, c.PartitionKey, c.SortKey); err != nil {
		return d, err
	}
	if slices.ContainsFunc(ix.Projection.Attributes, func(a string) bool { return IsIndexKey(t, ix, a) }) {
		ix.Projection.Attributes = slices.DeleteFunc(slices.Clone(ix.Projection.Attributes), func(a string) bool { return IsIndexKey(t, ix, a) })
	}
	t = withIndex(t, local, j, ix)
	t.Attributes = declareKeys(t.Attributes, ix.PartitionKey, ix.SortKey)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c SetIndexKey) Summary() string {
	names := func(keys []KeyAttribute) string {
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k.Name
		}
		return strings.Join(parts, " + ")
	}
	key := names(c.PartitionKey)
	if len(c.SortKey) > 0 {
		key += " / " + names(c.SortKey)
	}
	return fmt.Sprintf("Set the key of index %s of table %s to %s", shorten(c.Index), shorten(c.Table), shorten(key))
}
func (c SetIndexKey) Paths() []Path { return []Path{IndexPath(c.Table, c.Index, "")} }

// parseProjectionType reads a projection type: ALL, KEYS_ONLY or INCLUDE, in any case, with spaces
// or hyphens for the underscore.
func parseProjectionType(s string) (string, error) {
	switch Words(s) {
	case "all":
		return All, nil
	case "keys only", "keys", "keysonly":
		return KeysOnly, nil
	case "include", "included":
		return Include, nil
	}
	return "", fmt.Errorf("%q is not a projection type; use ALL, KEYS_ONLY or INCLUDE", strings.TrimSpace(s))
}

// SetIndexProjection sets what an index projects. Attributes is the INCLUDE list: 20 non-key
// attributes at most, and 100 across the table's indexes; with ALL or KEYS_ONLY it is dropped, as
// DynamoDB accepts no list there.
type SetIndexProjection struct {
	Table      string   `json:"table"`
	Index      string   `json:"index"`
	Type       string   `json:"type"`
	Attributes []string `json:"attributes,omitempty"`
}

func (SetIndexProjection) Kind() string { return "set_index_projection" }

func (c SetIndexProjection) Apply(d Design) (Design, error) {
	t, i, ix, local, j, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	typ, err := parseProjectionType(c.Type)
	if err != nil {
		return d, fieldError("type", err)
	}
	var attrs []string
	if typ == Include {
		for _, a := range c.Attributes {
			name, err := CleanName("attributes", a)
			if err != nil {
				return d, err
			}
			if IsIndexKey(t, ix, name) {
				return d, Invalid("attributes", "%s is a key attribute, which every entry of index %s holds already; INCLUDE lists only non-key attributes", name, ix.Name)
			}
			if !slices.Contains(attrs, name) {
				attrs = append(attrs, name)
			}
		}
		if len(attrs) > MaxProjectedAttributes {
			return d, Invalid("attributes", "lists %d non-key attributes; DynamoDB projects at most %d into one index", len(attrs), MaxProjectedAttributes)
		}
		total := len(attrs)
		for _, other := range slices.Concat(t.GSIs, t.LSIs) {
			if other.Name != ix.Name && other.Projection.Type == Include {
				total += len(other.Projection.Attributes)
			}
		}
		if total > MaxProjectedAttributesPerTable {
			return d, Invalid("attributes", "would make %d INCLUDE attributes across the indexes of table %s; DynamoDB allows at most %d", total, t.Name, MaxProjectedAttributesPerTable)
		}
	}
	ix.Projection = Projection{Type: typ, Attributes: attrs}
	d.Tables = replaceAt(d.Tables, i, withIndex(t, local, j, ix))
	return d, nil
}

func (c SetIndexProjection) Summary() string {
	what := strings.TrimSpace(c.Type)
	if typ, err := parseProjectionType(c.Type); err == nil {
		what = typ
		if typ == Include {
			what += " " + strings.Join(c.Attributes, ", ")
		}
	}
	return fmt.Sprintf("Set the projection of index %s of table %s to %s", shorten(c.Index), shorten(c.Table), shorten(what))
}
func (c SetIndexProjection) Paths() []Path { return []Path{IndexPath(c.Table, c.Index, "")} }

// SetIndexField sets one field of an index from what a person typed; sparse is yes or no.
type SetIndexField struct {
	Table string `json:"table"`
	Index string `json:"index"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetIndexField) Kind() string { return "set_index_field" }

func (c SetIndexField) Apply(d Design) (Design, error) {
	t, i, ix, local, j, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	f, ok := FieldNamed(IndexFields, c.Field)
	if !ok {
		return d, Invalid("field", "indexes have no field %q", c.Field)
	}
	if err := f.apply(&d, &ix, c.Value); err != nil {
		return d, err
	}
	d.Tables = replaceAt(d.Tables, i, withIndex(t, local, j, ix))
	return d, nil
}

func (c SetIndexField) Summary() string {
	subject := fmt.Sprintf("index %s of table %s", shorten(c.Index), shorten(c.Table))
	if c.Field == IndexField.Sparse.Key {
		if sparse, err := ParseTriState(c.Value); err == nil {
			if sparse != nil && *sparse {
				return "Marked " + subject + " sparse"
			}
			return "Marked " + subject + " not sparse"
		}
	}
	f, _ := FieldNamed(IndexFields, c.Field)
	return f.summary(escapePercent(subject)+"'s %s", c.Value)
}
func (c SetIndexField) Paths() []Path {
	return []Path{IndexPath(c.Table, c.Index, c.Field)}
}

// SetIndexPatternAttributes sets the attributes an access pattern, by number, reads through an
// index; an empty list removes the pattern's entry.
type SetIndexPatternAttributes struct {
	Table      string   `json:"table"`
	Index      string   `json:"index"`
	Pattern    int      `json:"pattern"`
	Attributes []string `json:"attributes,omitempty"`
}

func (SetIndexPatternAttributes) Kind() string { return "set_index_pattern_attributes" }

func (c SetIndexPatternAttributes) Apply(d Design) (Design, error) {
	t, i, ix, local, j, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	if _, _, ok := d.PatternByNumber(c.Pattern); !ok {
		return d, Invalid("pattern", "no access pattern is numbered %d", c.Pattern)
	}
	var attrs []string
	for _, a := range c.Attributes {
		name, err := CleanName("attributes", a)
		if err != nil {
			return d, err
		}
		if !slices.Contains(attrs, name) {
			attrs = append(attrs, name)
		}
	}
	k := slices.IndexFunc(ix.PatternAttributes, func(pa PatternAttributes) bool { return pa.Pattern == c.Pattern })
	switch {
	case len(attrs) == 0 && k >= 0:
		ix.PatternAttributes = slices.Delete(slices.Clone(ix.PatternAttributes), k, k+1)
	case len(attrs) == 0:
		return d, nil
	case k >= 0:
		ix.PatternAttributes = replaceAt(ix.PatternAttributes, k, PatternAttributes{Pattern: c.Pattern, Attributes: attrs})
	default:
		ix.PatternAttributes = append(slices.Clip(ix.PatternAttributes), PatternAttributes{Pattern: c.Pattern, Attributes: attrs})
	}
	if len(ix.PatternAttributes) == 0 {
		ix.PatternAttributes = nil
	}
	d.Tables = replaceAt(d.Tables, i, withIndex(t, local, j, ix))
	return d, nil
}

func (c SetIndexPatternAttributes) Summary() string {
	if len(c.Attributes) == 0 {
		return fmt.Sprintf("Cleared what pattern %d reads through index %s of table %s", c.Pattern, shorten(c.Index), shorten(c.Table))
	}
	return fmt.Sprintf("Set pattern %d to read %s through index %s of table %s", c.Pattern, shorten(strings.Join(c.Attributes, ", ")), shorten(c.Index), shorten(c.Table))
}
func (c SetIndexPatternAttributes) Paths() []Path { return []Path{IndexPath(c.Table, c.Index, "")} }

// DeleteIndex deletes an index. Operations that name it keep the name; validation points them out.
type DeleteIndex struct {
	Table string `json:"table"`
	Index string `json:"index"`
}

func (DeleteIndex) Kind() string { return "delete_index" }

func (c DeleteIndex) Apply(d Design) (Design, error) {
	t, i, _, local, j, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	if local {
		t.LSIs = slices.Delete(slices.Clone(t.LSIs), j, j+1)
	} else {
		t.GSIs = slices.Delete(slices.Clone(t.GSIs), j, j+1)
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c DeleteIndex) Summary() string {
	return fmt.Sprintf("Deleted index %s of table %s", shorten(c.Index), shorten(c.Table))
}
func (c DeleteIndex) Paths() []Path { return []Path{IndexPath(c.Table, c.Index, "")} }
