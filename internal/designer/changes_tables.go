package designer

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

func init() {
	register[AddTable]()
	register[RenameTable]()
	register[SetTableField]()
	register[SetTableKey]()
	register[DeleteTable]()
	register[MoveTable]()
	register[AddTableAttribute]()
	register[RenameTableAttribute]()
	register[SetTableAttributeType]()
	register[DeleteTableAttribute]()
	register[SetAttributeGenerator]()
	register[AddEntityType]()
	register[SetEntityTypeField]()
	register[DeleteEntityType]()
}

// Changes to tables, their declared attributes and their SK taxonomies. Tables are addressed by
// name, unique in the design; attributes by name within their table; entity types by position.

// findTable returns the table named name, or a *ValidationError for field.
func findTable(d Design, field, name string) (Table, int, error) {
	t, i, ok := d.TableByName(name)
	if !ok {
		return Table{}, -1, Invalid(field, "no table named %q; it may have been renamed or deleted", name)
	}
	return t, i, nil
}

// DynamoDB's rule for table and index names (§5): 3–255 characters from A–Z a–z 0–9 _ . -.
const (
	minDynamoNameLen = 3
	MaxDynamoNameLen = 255
)

// DynamoName checks a table or index name against DynamoDB's naming rule.
func DynamoName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) < minDynamoNameLen || len(s) > MaxDynamoNameLen {
		return "", Invalid(field, "is %d characters long; DynamoDB names are %d to %d characters", len(s), minDynamoNameLen, MaxDynamoNameLen)
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '.' || r == '-') {
			return "", Invalid(field, "contains %q; DynamoDB names use only letters, digits, \"_\", \".\" and \"-\"", r)
		}
	}
	return s, nil
}

// escapePercent keeps a name that is part of a format string, such as fieldSummary's whose, literal.
func escapePercent(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// parseKeyType reads the type of a key attribute: S, N or B, or their names. Blank gives fallback.
func parseKeyType(s string, fallback Type) (Type, error) {
	if strings.TrimSpace(s) == "" {
		return fallback, nil
	}
	t, err := ParseType(s)
	if err != nil {
		return "", err
	}
	if !t.KeyType() {
		return "", fmt.Errorf("%s cannot be a key type; a key attribute is S, N or B", t)
	}
	return t, nil
}

// parseBillingMode reads a billing mode as people write it: on-demand, pay per request, provisioned.
func parseBillingMode(s string) (string, error) {
	switch Words(s) {
	case "pay per request", "on demand", "ondemand", "payperrequest":
		return OnDemand, nil
	case "provisioned":
		return Provisioned, nil
	}
	return "", fmt.Errorf("%q is not a billing mode; use on-demand or provisioned", strings.TrimSpace(s))
}

// attributeType is the type t gives the attribute name: its key type, its declared type, or an
// index key's type, in that order.
func attributeType(t Table, name string) (Type, bool) {
	if t.PartitionKey.Name == name {
		return t.PartitionKey.Type, true
	}
	if t.SortKey != nil && t.SortKey.Name == name {
		return t.SortKey.Type, true
	}
	if a, _, ok := t.AttributeByName(name); ok {
		return a.Type, true
	}
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			if k.Name == name {
				return k.Type, true
			}
		}
	}
	return "", false
}

// declare returns the attributes with name declared as typ, added at the end if it is new.
func declare(attrs []Attribute, name string, typ Type) []Attribute {
	if a, i, ok := Lookup(attrs, name, nameOfAttribute); ok {
		if a.Type == typ {
			return attrs
		}
		a.Type = typ
		return replaceAt(attrs, i, a)
	}
	return append(slices.Clip(attrs), Attribute{Name: name, Type: typ})
}

// keyRoles says which keys of t the attribute name is part of, such as "the partition key of table
// Orders" or "the sort key of index ByCustomer".
func keyRoles(t Table, name string) []string {
	var roles []string
	if t.PartitionKey.Name == name {
		roles = append(roles, fmt.Sprintf("the partition key of table %s", t.Name))
	}
	if t.SortKey != nil && t.SortKey.Name == name {
		roles = append(roles, fmt.Sprintf("the sort key of table %s", t.Name))
	}
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		has := func(k KeyAttribute) bool { return k.Name == name }
		if slices.ContainsFunc(ix.PartitionKey, has) {
			roles = append(roles, fmt.Sprintf("the partition key of index %s", ix.Name))
		}
		if slices.ContainsFunc(ix.SortKey, has) {
			roles = append(roles, fmt.Sprintf("the sort key of index %s", ix.Name))
		}
	}
	return roles
}

// usesAttribute reports whether the attribute name appears anywhere in t: declared, in a key, or in
// an item.
func usesAttribute(t Table, name string) bool {
	if _, ok := attributeType(t, name); ok {
		return true
	}
	return slices.ContainsFunc(t.Items, func(it SampleItem) bool {
		_, ok := it.Item[name]
		return ok
	})
}

// AddTable adds an on-demand table with a partition key at the end of the list. The key attribute is
// declared too. An empty PartitionKeyType means S.
type AddTable struct {
	Name             string `json:"name"`
	PartitionKey     string `json:"partition_key"`
	PartitionKeyType string `json:"partition_key_type,omitempty"`
}

func (AddTable) Kind() string { return "add_table" }

func (c AddTable) Apply(d Design) (Design, error) {
	name, err := DynamoName("name", c.Name)
	if err != nil {
		return d, err
	}
	if _, _, taken := d.TableByName(name); taken {
		return d, Invalid("name", "there is already a table named %q", name)
	}
	pk, err := CleanName("partition_key", c.PartitionKey)
	if err != nil {
		return d, err
	}
	typ, err := parseKeyType(c.PartitionKeyType, S)
	if err != nil {
		return d, fieldError("partition_key_type", err)
	}
	d.Tables = append(slices.Clip(d.Tables), Table{
		Name:         name,
		PartitionKey: KeyAttribute{Name: pk, Type: typ},
		Attributes:   []Attribute{{Name: pk, Type: typ}},
		BillingMode:  OnDemand,
	})
	return d, nil
}

func (c AddTable) Summary() string { return fmt.Sprintf("Added table %s", shorten(c.Name)) }
func (c AddTable) Paths() []Path   { return []Path{TablePath(c.Name)} }

// RenameTable renames a table; the access patterns' operations on it follow.
type RenameTable struct {
	Table string `json:"table"`
	To    string `json:"to"`
}

func (RenameTable) Kind() string { return "rename_table" }

func (c RenameTable) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	to, err := DynamoName("to", c.To)
	if err != nil {
		return d, err
	}
	if to == t.Name {
		return d, nil
	}
	if _, _, taken := d.TableByName(to); taken {
		return d, Invalid("to", "there is already a table named %q", to)
	}
	old := t.Name
	t.Name = to
	d.Tables = replaceAt(d.Tables, i, t)
	d.Patterns = EditRows(d.Patterns, func(p *Pattern) bool {
		changed := false
		p.Mapping.Operations = EditRows(p.Mapping.Operations, func(op *Operation) bool {
			if op.Table != old {
				return false
			}
			op.Table, changed = to, true
			return true
		})
		return changed
	})
	d.Comments = moveComments(d.Comments, TablePath(old), TablePath(to))
	d.Workbench = d.Workbench.renamedTable(old, to)
	d.Diagrams = renamePins(d.Diagrams, ModelMap, func(node string) (string, bool) {
		if node == "table:"+old {
			return "table:" + to, true
		}
		if ix, ok := strings.CutPrefix(node, "index:"+old+"/"); ok {
			return "index:" + to + "/" + ix, true
		}
		return node, false
	})
	return d, nil
}

// moveComments re-addresses the comments on an element (and on what it holds) that was renamed
// from the path from to the path to, so they stay with it.
func moveComments(comments []Comment, from, to Path) []Comment {
	return EditRows(comments, func(c *Comment) bool {
		if !Path(c.Target).In(from) {
			return false
		}
		c.Target = string(to) + c.Target[len(from):]
		return true
	})
}

func (c RenameTable) Summary() string {
	return fmt.Sprintf("Renamed table %s to %s", shorten(c.Table), shorten(c.To))
}
func (c RenameTable) Paths() []Path {
	// The model map as a whole: its boxes of the table's indexes move with it, and which indexes
	// the table has is not known here.
	return []Path{TablePath(c.Table), TablePath(c.To), PathPatterns, DiagramPath(ModelMap, "")}
}

// SetTableField sets one field of a table from what a person typed. The billing mode may be written
// "on-demand" or "provisioned"; capacity units are whole numbers, blank clearing them; a blank TTL
// attribute turns TTL off.
type SetTableField struct {
	Table string `json:"table"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetTableField) Kind() string { return "set_table_field" }

func (c SetTableField) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	f, ok := FieldNamed(TableFields, c.Field)
	if !ok {
		return d, Invalid("field", "tables have no field %q", c.Field)
	}
	if err := f.apply(&d, &t, c.Value); err != nil {
		return d, err
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c SetTableField) Summary() string {
	value := c.Value
	if c.Field == TableField.BillingMode.Key {
		if mode, err := parseBillingMode(c.Value); err == nil {
			value = mode
		}
	}
	f, _ := FieldNamed(TableFields, c.Field)
	return f.summary("table "+escapePercent(shorten(c.Table))+"'s %s", value)
}
func (c SetTableField) Paths() []Path { return []Path{TablePath(c.Table).Child(c.Field)} }

// SetTableKey sets the partition or sort key of a table. Naming an attribute the table already has
// makes it the key; naming a new one renames the key attribute everywhere in the table, items
// included, as RenameTableAttribute does. A blank Name for the sort key removes it. A blank Type
// keeps the attribute's type (S for a new one). LSIs follow the table's partition key.
type SetTableKey struct {
	Table string `json:"table"`
	// Which is "partition" or "sort".
	Which string `json:"which"`
	Name  string `json:"name"`
	Type  string `json:"type,omitempty"`
}

func (SetTableKey) Kind() string { return "set_table_key" }

func (c SetTableKey) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	var current *KeyAttribute
	switch c.Which {
	case "partition":
		current = &t.PartitionKey
	case "sort":
		current = t.SortKey
	default:
		return d, Invalid("which", "is %q; use partition or sort", c.Which)
	}
	if c.Which == "sort" && strings.TrimSpace(c.Name) == "" {
		if len(t.LSIs) > 0 {
			return d, Invalid("name", "table %s has local secondary indexes, which need its sort key; delete them first", t.Name)
		}
		t.SortKey = nil
		d.Tables = replaceAt(d.Tables, i, t)
		return d, nil
	}
	name, err := CleanName("name", c.Name)
	if err != nil {
		return d, err
	}
	other := t.SortKey
	if c.Which == "sort" {
		other = &t.PartitionKey
	}
	if other != nil && other.Name == name {
		return d, Invalid("name", "%q is already the other key of table %s", name, t.Name)
	}
	fallback := S
	if current != nil {
		fallback = current.Type
	}
	renaming := current != nil && current.Name != name && !usesAttribute(t, name)
	if existing, ok := attributeType(t, name); ok && existing.KeyType() {
		fallback = existing
	}
	typ, err := parseKeyType(c.Type, fallback)
	if err != nil {
		return d, fieldError("type", err)
	}
	if renaming {
		t, d.Patterns = renameTableAttribute(t, d.Patterns, current.Name, name)
	}
	key := KeyAttribute{Name: name, Type: typ}
	if c.Which == "partition" {
		t.PartitionKey = key
		t.LSIs = EditRows(t.LSIs, func(ix *Index) bool {
			ix.PartitionKey = []KeyAttribute{key}
			return true
		})
	} else {
		t.SortKey = &key
	}
	t = retypeKeys(t, name, typ)
	t.Attributes = declare(t.Attributes, name, typ)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c SetTableKey) Summary() string {
	if strings.TrimSpace(c.Name) == "" {
		return fmt.Sprintf("Removed the %s key of table %s", c.Which, shorten(c.Table))
	}
	return fmt.Sprintf("Set the %s key of table %s to %s", c.Which, shorten(c.Table), shorten(c.Name))
}
func (c SetTableKey) Paths() []Path { return []Path{TablePath(c.Table), PathPatterns} }

// DeleteTable deletes a table with its indexes and items. Operations that name it keep the name;
// validation points them out.
type DeleteTable struct {
	Table string `json:"table"`
}

func (DeleteTable) Kind() string { return "delete_table" }

func (c DeleteTable) Apply(d Design) (Design, error) {
	_, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	d.Tables = slices.Delete(slices.Clone(d.Tables), i, i+1)
	return d, nil
}

func (c DeleteTable) Summary() string { return fmt.Sprintf("Deleted table %s", shorten(c.Table)) }
func (c DeleteTable) Paths() []Path   { return []Path{TablePath(c.Table)} }

// MoveTable moves a table to position To (from 0), clamped to the list.
type MoveTable struct {
	Table string `json:"table"`
	To    int    `json:"to"`
}

func (MoveTable) Kind() string { return "move_table" }

func (c MoveTable) Apply(d Design) (Design, error) {
	_, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	d.Tables = moveRow(d.Tables, i, c.To)
	return d, nil
}

func (c MoveTable) Summary() string {
	return fmt.Sprintf("Moved table %s to position %d", shorten(c.Table), max(c.To, 0)+1)
}
func (MoveTable) Paths() []Path { return []Path{PathTables} }

// AddTableAttribute declares an attribute of a table. An empty Type means S.
type AddTableAttribute struct {
	Table string `json:"table"`
	Name  string `json:"name"`
	Type  Type   `json:"type"`
}

func (AddTableAttribute) Kind() string { return "add_table_attribute" }

func (c AddTableAttribute) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	name, err := CleanName("name", c.Name)
	if err != nil {
		return d, err
	}
	if _, _, taken := t.AttributeByName(name); taken {
		return d, Invalid("name", "table %s already declares an attribute named %q", t.Name, name)
	}
	typ, err := ParseType(string(c.Type))
	if err != nil {
		return d, fieldError("type", err)
	}
	t.Attributes = append(slices.Clip(t.Attributes), Attribute{Name: name, Type: typ})
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c AddTableAttribute) Summary() string {
	return fmt.Sprintf("Added attribute %s to table %s", shorten(c.Name), shorten(c.Table))
}
func (c AddTableAttribute) Paths() []Path { return []Path{TablePath(c.Table)} }

// RenameTableAttribute renames an attribute of a table, declared or only present in items. Every
// reference in the table follows: the key schema, index keys, INCLUDE projections, the indexes'
// per-pattern attributes, the TTL attribute, the placeholders of the SK taxonomy's templates and
// the attribute in every item; so do the expected keys and expression attribute names of the
// operations on the table.
type RenameTableAttribute struct {
	Table     string `json:"table"`
	Attribute string `json:"attribute"`
	To        string `json:"to"`
}

func (RenameTableAttribute) Kind() string { return "rename_table_attribute" }

func (c RenameTableAttribute) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	if !usesAttribute(t, c.Attribute) {
		return d, Invalid("attribute", "table %s has no attribute named %q", t.Name, c.Attribute)
	}
	to, err := CleanName("to", c.To)
	if err != nil {
		return d, err
	}
	if to == c.Attribute {
		return d, nil
	}
	if usesAttribute(t, to) {
		return d, Invalid("to", "table %s already has an attribute named %q", t.Name, to)
	}
	t, d.Patterns = renameTableAttribute(t, d.Patterns, c.Attribute, to)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c RenameTableAttribute) Summary() string {
	return fmt.Sprintf("Renamed attribute %s of table %s to %s", shorten(c.Attribute), shorten(c.Table), shorten(c.To))
}
func (c RenameTableAttribute) Paths() []Path {
	return []Path{TablePath(c.Table), PathPatterns}
}

// renameTableAttribute returns t and patterns with every reference to the attribute old in t
// renamed to; see RenameTableAttribute. Only what changes is copied.
func renameTableAttribute(t Table, patterns []Pattern, old, to string) (Table, []Pattern) {
	rename := func(s *string) bool {
		if *s == old {
			*s = to
			return true
		}
		return false
	}
	rename(&t.PartitionKey.Name)
	if t.SortKey != nil && t.SortKey.Name == old {
		sk := *t.SortKey
		sk.Name = to
		t.SortKey = &sk
	}
	rename(&t.TTLAttribute)
	t.Attributes = EditRows(t.Attributes, func(a *Attribute) bool { return rename(&a.Name) })
	placeholder, replacement := "{"+old+"}", "{"+to+"}"
	t.EntityTypes = EditRows(t.EntityTypes, func(et *EntityType) bool {
		pk := strings.ReplaceAll(et.PKTemplate, placeholder, replacement)
		sk := strings.ReplaceAll(et.SKTemplate, placeholder, replacement)
		changed := pk != et.PKTemplate || sk != et.SKTemplate
		et.PKTemplate, et.SKTemplate = pk, sk
		return changed
	})
	renameIndex := func(ix *Index) bool {
		changed := false
		renameKeys := func(keys []KeyAttribute) []KeyAttribute {
			return EditRows(keys, func(k *KeyAttribute) bool {
				renamed := rename(&k.Name)
				changed = changed || renamed
				return renamed
			})
		}
		ix.PartitionKey = renameKeys(ix.PartitionKey)
		ix.SortKey = renameKeys(ix.SortKey)
		if list, ok := renameInList(ix.Projection.Attributes, old, to); ok {
			ix.Projection.Attributes, changed = list, true
		}
		ix.PatternAttributes = EditRows(ix.PatternAttributes, func(pa *PatternAttributes) bool {
			list, ok := renameInList(pa.Attributes, old, to)
			pa.Attributes = list
			changed = changed || ok
			return ok
		})
		return changed
	}
	t.GSIs = EditRows(t.GSIs, renameIndex)
	t.LSIs = EditRows(t.LSIs, renameIndex)
	t.Items = EditRows(t.Items, func(it *SampleItem) bool {
		item, ok := renameInItem(it.Item, old, to)
		it.Item = item
		return ok
	})
	patterns = EditRows(patterns, func(p *Pattern) bool {
		changed := false
		p.Mapping.Operations = EditRows(p.Mapping.Operations, func(op *Operation) bool {
			if op.Table != t.Name {
				return false
			}
			opChanged := false
			for k, v := range op.Names {
				if v == old {
					if !opChanged {
						op.Names = maps.Clone(op.Names)
					}
					op.Names[k], opChanged = to, true
				}
			}
			if op.Expected != nil {
				renamed := false
				expected := EditRows(*op.Expected, func(it *Item) bool {
					item, ok := renameInItem(*it, old, to)
					*it = item
					renamed = renamed || ok
					return ok
				})
				if renamed {
					op.Expected, opChanged = &expected, true
				}
			}
			changed = changed || opChanged
			return opChanged
		})
		return changed
	})
	return t, patterns
}

// renameInItem returns item with the attribute old renamed to, copying it only if it has old.
func renameInItem(item Item, old, to string) (Item, bool) {
	v, ok := item[old]
	if !ok {
		return item, false
	}
	out := maps.Clone(item)
	delete(out, old)
	out[to] = v
	return out, true
}

// SetTableAttributeType sets the type of a declared attribute. A key attribute keeps a key type,
// and the table and index keys follow.
type SetTableAttributeType struct {
	Table     string `json:"table"`
	Attribute string `json:"attribute"`
	Type      Type   `json:"type"`
}

func (SetTableAttributeType) Kind() string { return "set_table_attribute_type" }

func (c SetTableAttributeType) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	a, j, ok := t.AttributeByName(c.Attribute)
	if !ok {
		return d, Invalid("attribute", "table %s declares no attribute named %q", t.Name, c.Attribute)
	}
	if Words(string(c.Type)) == "" {
		return d, Invalid("type", "must be one of S N B BOOL NULL M L SS NS BS")
	}
	typ, err := ParseType(string(c.Type))
	if err != nil {
		return d, fieldError("type", err)
	}
	if roles := keyRoles(t, a.Name); len(roles) > 0 && !typ.KeyType() {
		return d, Invalid("type", "is %s, but %q is %s, and a key attribute is S, N or B", typ, a.Name, roles[0])
	}
	a.Type = typ
	t.Attributes = replaceAt(t.Attributes, j, a)
	t = retypeKeys(t, a.Name, typ)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

// retypeKeys returns t with every key on the attribute name typed typ.
func retypeKeys(t Table, name string, typ Type) Table {
	if t.PartitionKey.Name == name {
		t.PartitionKey.Type = typ
	}
	if t.SortKey != nil && t.SortKey.Name == name {
		t.SortKey = &KeyAttribute{Name: name, Type: typ}
	}
	retypeIndex := func(ix *Index) bool {
		changed := false
		retype := func(k *KeyAttribute) bool {
			if k.Name == name && k.Type != typ {
				k.Type, changed = typ, true
				return true
			}
			return false
		}
		ix.PartitionKey, ix.SortKey = EditRows(ix.PartitionKey, retype), EditRows(ix.SortKey, retype)
		return changed
	}
	t.GSIs = EditRows(t.GSIs, retypeIndex)
	t.LSIs = EditRows(t.LSIs, retypeIndex)
	return t
}

func (c SetTableAttributeType) Summary() string {
	return fmt.Sprintf("Set the type of attribute %s of table %s to %s", shorten(c.Attribute), shorten(c.Table), shorten(string(c.Type)))
}
func (c SetTableAttributeType) Paths() []Path { return []Path{TablePath(c.Table)} }

// DeleteTableAttribute deletes an attribute of a table: its declaration, its value in every item,
// and its place in INCLUDE projections, per-pattern attribute lists and the TTL setting. An attribute
// in a table or index key cannot be deleted.
type DeleteTableAttribute struct {
	Table     string `json:"table"`
	Attribute string `json:"attribute"`
}

func (DeleteTableAttribute) Kind() string { return "delete_table_attribute" }

func (c DeleteTableAttribute) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	name := c.Attribute
	if !usesAttribute(t, name) {
		return d, Invalid("attribute", "table %s has no attribute named %q", t.Name, name)
	}
	if roles := keyRoles(t, name); len(roles) > 0 {
		return d, Invalid("attribute", "%q is %s; change that key first", name, strings.Join(roles, " and "))
	}
	t.Attributes = deleteRows(t.Attributes, func(a Attribute) bool { return a.Name == name })
	if t.TTLAttribute == name {
		t.TTLAttribute = ""
	}
	without := func(list []string) ([]string, bool) {
		if !slices.Contains(list, name) {
			return list, false
		}
		return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return s == name }), true
	}
	dropFromIndex := func(ix *Index) bool {
		list, changed := without(ix.Projection.Attributes)
		ix.Projection.Attributes = list
		ix.PatternAttributes = EditRows(ix.PatternAttributes, func(pa *PatternAttributes) bool {
			list, ok := without(pa.Attributes)
			pa.Attributes = list
			changed = changed || ok
			return ok
		})
		return changed
	}
	t.GSIs = EditRows(t.GSIs, dropFromIndex)
	t.LSIs = EditRows(t.LSIs, dropFromIndex)
	t.Items = EditRows(t.Items, func(it *SampleItem) bool {
		if _, ok := it.Item[name]; !ok {
			return false
		}
		it.Item = maps.Clone(it.Item)
		delete(it.Item, name)
		return true
	})
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c DeleteTableAttribute) Summary() string {
	return fmt.Sprintf("Deleted attribute %s from table %s", shorten(c.Attribute), shorten(c.Table))
}
func (c DeleteTableAttribute) Paths() []Path { return []Path{TablePath(c.Table)} }

// SetAttributeGenerator sets how GenerateItems fills a declared attribute; nil stops generating it.
type SetAttributeGenerator struct {
	Table     string     `json:"table"`
	Attribute string     `json:"attribute"`
	Generator *Generator `json:"generator,omitempty"`
}

func (SetAttributeGenerator) Kind() string { return "set_attribute_generator" }

func (c SetAttributeGenerator) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	a, j, ok := t.AttributeByName(c.Attribute)
	if !ok {
		return d, Invalid("attribute", "table %s declares no attribute named %q", t.Name, c.Attribute)
	}
	a.Generator = nil
	if c.Generator != nil {
		g, err := cleanGenerator(*c.Generator)
		if err != nil {
			return d, err
		}
		a.Generator = &g
	}
	t.Attributes = replaceAt(t.Attributes, j, a)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c SetAttributeGenerator) Summary() string {
	if c.Generator == nil {
		return fmt.Sprintf("Stopped generating attribute %s of table %s", shorten(c.Attribute), shorten(c.Table))
	}
	return fmt.Sprintf("Set the generator of attribute %s of table %s to %s", shorten(c.Attribute), shorten(c.Table), shorten(c.Generator.Kind))
}
func (c SetAttributeGenerator) Paths() []Path { return []Path{TablePath(c.Table)} }

// maxGeneratorValues bounds the list a generator picks values from.
const maxGeneratorValues = 1000

// cleanGenerator checks a generator as a person set it up: one of generatorKinds, finite bounds in
// order, and values and a template that fit in a field.
func cleanGenerator(g Generator) (Generator, error) {
	g.Kind = strings.TrimSpace(g.Kind)
	if !slices.Contains(generatorKinds, g.Kind) {
		return g, Invalid("generator/kind", "is %q; use one of %s", g.Kind, strings.Join(generatorKinds, ", "))
	}
	for _, bound := range []struct {
		field string
		v     *float64
	}{{"generator/min", g.Min}, {"generator/max", g.Max}} {
		if err := finite(bound.field, bound.v); err != nil {
			return g, err
		}
	}
	if g.Min != nil && g.Max != nil && *g.Min > *g.Max {
		return g, Invalid("generator/max", "is %v, below the minimum %v", *g.Max, *g.Min)
	}
	if len(g.Values) > maxGeneratorValues {
		return g, Invalid("generator/values", "lists %d values; at most %d are allowed", len(g.Values), maxGeneratorValues)
	}
	// An empty value is kept: one_of then leaves the attribute out, making it sparse.
	values := make([]string, 0, len(g.Values))
	for _, v := range g.Values {
		if strings.TrimSpace(v) != "" {
			var err error
			if v, err = CleanName("generator/values", v); err != nil {
				return g, err
			}
		}
		values = append(values, strings.TrimSpace(v))
	}
	if len(values) == 0 {
		values = nil
	}
	g.Values = values
	var err error
	if g.Template, err = cleanTemplate("generator/template", g.Template); err != nil {
		return g, err
	}
	return g, nil
}

func finite(field string, v *float64) error {
	if v != nil && !(math.Abs(*v) <= MaxNumber) {
		return Invalid(field, "must be a number from -%s to %s", maxNumberText, maxNumberText)
	}
	return nil
}

// cleanTemplate reads a key template such as USER#{user_id}: one line, blank allowed.
func cleanTemplate(field, s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	return CleanName(field, s)
}

// AddEntityType adds a line to a table's SK taxonomy. Entity need not exist yet; validation points
// out a missing one, as it does after DeleteEntity.
type AddEntityType struct {
	Table      string `json:"table"`
	Entity     string `json:"entity"`
	PKTemplate string `json:"pk_template,omitempty"`
	SKTemplate string `json:"sk_template,omitempty"`
}

func (AddEntityType) Kind() string { return "add_entity_type" }

func (c AddEntityType) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	var et EntityType
	if et.Entity, err = CleanName("entity", c.Entity); err != nil {
		return d, err
	}
	if et.PKTemplate, err = cleanTemplate("pk_template", c.PKTemplate); err != nil {
		return d, err
	}
	if et.SKTemplate, err = cleanTemplate("sk_template", c.SKTemplate); err != nil {
		return d, err
	}
	t.EntityTypes = append(slices.Clip(t.EntityTypes), et)
	t.Attributes = declareTemplateAttributes(d, t, et)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

// declareTemplateAttributes returns t's attributes with each attribute et's key templates name
// declared, typed as et's entity types it, when t has no key or attribute of that name: the entity
// has said the type once, so the table need not be told again (MOD019 asks for it otherwise). An
// attribute the entity does not type is left for MOD019 to point out.
func declareTemplateAttributes(d Design, t Table, et EntityType) []Attribute {
	e, _, ok := d.EntityByName(et.Entity)
	if !ok {
		return t.Attributes
	}
	attrs := t.Attributes
	for _, tmpl := range [...]string{et.PKTemplate, et.SKTemplate} {
		for _, name := range TemplateAttributes(tmpl) {
			if slices.Contains(TableKeyNames(t), name) {
				continue
			}
			if _, _, declared := Lookup(attrs, name, nameOfAttribute); declared {
				continue
			}
			if a, _, typed := Lookup(e.Attributes, name, nameOfAttribute); typed && a.Type != "" {
				attrs = declare(attrs, name, a.Type)
			}
		}
	}
	return attrs
}

func (c AddEntityType) Summary() string {
	return fmt.Sprintf("Added entity type %s to table %s", shorten(c.Entity), shorten(c.Table))
}
func (c AddEntityType) Paths() []Path { return []Path{TablePath(c.Table)} }

// findEntityType returns the table and the position of one line of its SK taxonomy.
func findEntityType(d Design, table string, index int) (Table, int, error) {
	t, i, err := findTable(d, "table", table)
	if err != nil {
		return Table{}, -1, err
	}
	if index < 0 || index >= len(t.EntityTypes) {
		return Table{}, -1, Invalid("index", "table %s has no entity type %d; it has %d", t.Name, index+1, len(t.EntityTypes))
	}
	return t, i, nil
}

// SetEntityTypeField sets one field of a line of a table's SK taxonomy, addressed by its position
// (from 0).
type SetEntityTypeField struct {
	Table string `json:"table"`
	Index int    `json:"index"`
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetEntityTypeField) Kind() string { return "set_entity_type_field" }

func (c SetEntityTypeField) Apply(d Design) (Design, error) {
	t, i, err := findEntityType(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	et := t.EntityTypes[c.Index]
	f, ok := FieldNamed(EntityTypeFields, c.Field)
	if !ok {
		return d, Invalid("field", "entity types have no field %q", c.Field)
	}
	if err := f.apply(&d, &et, c.Value); err != nil {
		return d, err
	}
	old := t.EntityTypes[c.Index].Entity
	t.EntityTypes = replaceAt(t.EntityTypes, c.Index, et)
	t.Attributes = declareTemplateAttributes(d, t, et)
	d.Tables = replaceAt(d.Tables, i, t)
	if et.Entity != old && !slices.ContainsFunc(t.EntityTypes, func(e EntityType) bool { return e.Entity == old }) {
		// The facet an imported model kept for this entity type goes with it.
		d.Workbench = d.Workbench.renamedEntity(t.Name, old, et.Entity)
	}
	return d, nil
}

func (c SetEntityTypeField) Summary() string {
	whose := fmt.Sprintf("entity type %d of table %s's %%s", c.Index+1, escapePercent(shorten(c.Table)))
	f, _ := FieldNamed(EntityTypeFields, c.Field)
	return f.summary(whose, c.Value)
}
func (c SetEntityTypeField) Paths() []Path { return []Path{TablePath(c.Table)} }

// DeleteEntityType deletes a line of a table's SK taxonomy.
type DeleteEntityType struct {
	Table string `json:"table"`
	Index int    `json:"index"`
}

func (DeleteEntityType) Kind() string { return "delete_entity_type" }

func (c DeleteEntityType) Apply(d Design) (Design, error) {
	t, i, err := findEntityType(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	t.EntityTypes = slices.Delete(slices.Clone(t.EntityTypes), c.Index, c.Index+1)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c DeleteEntityType) Summary() string {
	return fmt.Sprintf("Deleted entity type %d of table %s", c.Index+1, shorten(c.Table))
}

func (c DeleteEntityType) Describe(before Design) string {
	if t, _, ok := before.TableByName(c.Table); ok && c.Index >= 0 && c.Index < len(t.EntityTypes) {
		return fmt.Sprintf("Deleted entity type %s of table %s", shorten(t.EntityTypes[c.Index].Entity), shorten(c.Table))
	}
	return c.Summary()
}
func (c DeleteEntityType) Paths() []Path { return []Path{TablePath(c.Table)} }
