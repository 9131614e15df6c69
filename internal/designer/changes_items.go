package designer

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

func init() {
	register[AddItem]()
	register[DuplicateItem]()
	register[DeleteItems]()
	register[SetItemCell]()
	register[PasteItems]()
	register[AddItemColumn]()
	register[FillKeyFromTemplate]()
	register[GenerateSampleItems]()
}

// Changes to the sample items of a table: the grid. Items are addressed by SampleItem.ID; an empty
// cell is an absent attribute.

// MaxGeneratedItems bounds one GenerateSampleItems change.
const MaxGeneratedItems = 1000

// findItem returns the table, its position, the item with the given id and the item's position.
func findItem(d Design, table, id string) (Table, int, SampleItem, int, error) {
	t, i, err := findTable(d, "table", table)
	if err != nil {
		return Table{}, -1, SampleItem{}, -1, err
	}
	it, j, ok := t.ItemByID(id)
	if !ok {
		return Table{}, -1, SampleItem{}, -1, Invalid("id", "table %s has no item %q; it may have been deleted", t.Name, id)
	}
	return t, i, it, j, nil
}

// newItemIDs returns n ids for items added to items: "i" and one more than the highest number
// used, counting up, as nextID does for one.
func newItemIDs(items []SampleItem, n int) []string {
	first := nextID(items, ItemIDPrefix, func(it *SampleItem) string { return it.ID })
	num, _ := strconv.Atoi(strings.TrimPrefix(first, ItemIDPrefix))
	taken := make(map[string]bool, len(items))
	for _, it := range items {
		taken[it.ID] = true
	}
	ids := make([]string, n)
	for k := range ids {
		for taken[ItemIDPrefix+strconv.Itoa(num)] {
			num++
		}
		ids[k] = ItemIDPrefix + strconv.Itoa(num)
		num++
	}
	return ids
}

// insertItems returns t's items with rows added after the item with id after, or at the end when
// after is empty. Each new row gets a new id.
func insertItems(t Table, after string, rows []Item) ([]SampleItem, error) {
	at := len(t.Items)
	if after != "" {
		_, i, ok := t.ItemByID(after)
		if !ok {
			return nil, Invalid("after", "table %s has no item %q; it may have been deleted", t.Name, after)
		}
		at = i + 1
	}
	ids := newItemIDs(t.Items, len(rows))
	out := make([]SampleItem, 0, len(t.Items)+len(rows))
	out = append(out, t.Items[:at]...)
	for k, row := range rows {
		if row == nil {
			row = Item{}
		}
		out = append(out, SampleItem{ID: ids[k], Item: row})
	}
	return append(out, t.Items[at:]...), nil
}

// checkItem refuses an item a design cannot hold: attributes without a name or a DynamoDB type.
func checkItem(field string, it Item) error {
	for _, name := range it.SortedNames() {
		if name == "" {
			return Invalid(field, "has an attribute without a name")
		}
		if !it[name].Type.Valid() {
			return Invalid(field, "attribute %q has no DynamoDB type", name)
		}
	}
	return nil
}

func itemsWord(n int) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.Itoa(n) + " items"
}

// AddItem adds an item after the item with id After, or at the end when After is empty. Item may be
// empty: a blank row.
type AddItem struct {
	Table string `json:"table"`
	Item  Item   `json:"item,omitempty"`
	After string `json:"after,omitempty"`
}

func (AddItem) Kind() string { return "add_item" }

func (c AddItem) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	if err := checkItem("item", c.Item); err != nil {
		return d, err
	}
	if t.Items, err = insertItems(t, c.After, []Item{maps.Clone(c.Item)}); err != nil {
		return d, err
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c AddItem) Summary() string {
	if len(c.Item) == 0 {
		return "Added a blank item to " + shorten(c.Table)
	}
	return "Added an item to " + shorten(c.Table)
}
func (c AddItem) Paths() []Path { return []Path{ItemsPath(c.Table)} }

// DuplicateItem inserts a copy of an item after it, with a new id.
type DuplicateItem struct {
	Table string `json:"table"`
	ID    string `json:"id"`
}

func (DuplicateItem) Kind() string { return "duplicate_item" }

func (c DuplicateItem) Apply(d Design) (Design, error) {
	t, i, it, _, err := findItem(d, c.Table, c.ID)
	if err != nil {
		return d, err
	}
	if t.Items, err = insertItems(t, it.ID, []Item{maps.Clone(it.Item)}); err != nil {
		return d, err
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c DuplicateItem) Summary() string {
	return fmt.Sprintf("Duplicated %s item %s", shorten(c.Table), shorten(c.ID))
}

func (c DuplicateItem) Describe(before Design) string {
	return fmt.Sprintf("Duplicated %s item %s", shorten(c.Table), itemWords(before, c.Table, c.ID))
}
func (c DuplicateItem) Paths() []Path {
	return []Path{ItemPath(c.Table, c.ID, ""), ItemsPath(c.Table)}
}

// DeleteItems deletes items by id.
type DeleteItems struct {
	Table string   `json:"table"`
	IDs   []string `json:"ids"`
}

func (DeleteItems) Kind() string { return "delete_items" }

func (c DeleteItems) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	if len(c.IDs) == 0 {
		return d, Invalid("ids", "name at least one item to delete")
	}
	drop := make(map[string]bool, len(c.IDs))
	for _, id := range c.IDs {
		if _, _, ok := t.ItemByID(id); !ok {
			return d, Invalid("ids", "table %s has no item %q; it may have been deleted", t.Name, id)
		}
		drop[id] = true
	}
	t.Items = deleteRows(t.Items, func(it SampleItem) bool { return drop[it.ID] })
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c DeleteItems) Summary() string {
	if len(c.IDs) == 1 {
		return fmt.Sprintf("Deleted %s item %s", shorten(c.Table), shorten(c.IDs[0]))
	}
	return fmt.Sprintf("Deleted %s from %s", itemsWord(len(c.IDs)), shorten(c.Table))
}

func (c DeleteItems) Describe(before Design) string {
	if len(c.IDs) != 1 {
		return c.Summary()
	}
	return fmt.Sprintf("Deleted %s item %s", shorten(c.Table), itemWords(before, c.Table, c.IDs[0]))
}

func (c DeleteItems) Paths() []Path {
	paths := make([]Path, len(c.IDs))
	for k, id := range c.IDs {
		paths[k] = ItemPath(c.Table, id, "")
	}
	return paths
}

// SetItemCell sets one attribute of an item from the text of a grid cell. Empty text removes the
// attribute. The text is read as the type the table gives the attribute (its key schema, then its
// declared attributes, then index keys) or, for an attribute the table does not type, as the type it
// looks like.
type SetItemCell struct {
	Table     string `json:"table"`
	ID        string `json:"id"`
	Attribute string `json:"attribute"`
	Text      string `json:"text"`
}

func (SetItemCell) Kind() string { return "set_item_cell" }

func (c SetItemCell) Apply(d Design) (Design, error) {
	t, i, it, j, err := findItem(d, c.Table, c.ID)
	if err != nil {
		return d, err
	}
	name, err := CleanName("attribute", c.Attribute)
	if err != nil {
		return d, err
	}
	if c.Text == "" {
		if _, ok := it.Item[name]; !ok {
			return d, nil
		}
		it.Item = maps.Clone(it.Item)
		delete(it.Item, name)
	} else {
		v, err := cellValue(t, name, c.Text)
		if err != nil {
			return d, Invalid(string(ItemPath(t.Name, it.ID, name)), "%v", err)
		}
		item := make(Item, len(it.Item)+1)
		maps.Copy(item, it.Item)
		item[name] = v
		it.Item = item
	}
	t.Items = replaceAt(t.Items, j, it)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

// cellValue reads the text of the cell of attribute name as t types it.
func cellValue(t Table, name, text string) (Value, error) {
	if typ, ok := attributeType(t, name); ok {
		return ParseCell(text, typ)
	}
	return InferCell(text), nil
}

func (c SetItemCell) Summary() string { return c.describe(shorten(c.ID)) }

// Describe names the item by its key, as people see it in the grid, rather than by its id.
func (c SetItemCell) Describe(before Design) string {
	return c.describe(itemWords(before, c.Table, c.ID))
}

func (c SetItemCell) describe(item string) string {
	subject := fmt.Sprintf("%s of %s item %s", shorten(c.Attribute), shorten(c.Table), item)
	if c.Text == "" {
		return "Cleared " + subject
	}
	return "Set " + subject + " to " + shorten(c.Text)
}

// itemWords names an item of a table for a history line: by its key ("emp_no=10001 ·
// record_key=PROFILE"), or by its id when the design does not hold it or it has no key yet.
func itemWords(d Design, table, id string) string {
	t, _, ok := d.TableByName(table)
	if !ok {
		return shorten(id)
	}
	it, _, ok := t.ItemByID(id)
	if !ok {
		return shorten(id)
	}
	if key := KeyText(t, it.Item); key != "" {
		return shorten(key)
	}
	return shorten(id)
}
func (c SetItemCell) Paths() []Path {
	return []Path{ItemPath(c.Table, c.ID, c.Attribute)}
}

// PasteItems adds the rows of pasted text (TSV, CSV or DynamoDB JSON, as ParsePaste reads them) as
// new items after the item with id After, or at the end; all rows in one change, without a cap.
type PasteItems struct {
	Table string `json:"table"`
	Text  string `json:"text"`
	After string `json:"after,omitempty"`
}

func (PasteItems) Kind() string { return "paste_items" }

func (c PasteItems) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	rows, err := ParsePaste(c.Text, t)
	if err != nil {
		return d, fieldError("text", err)
	}
	if len(rows) == 0 {
		return d, Invalid("text", "holds no items to add")
	}
	for k, row := range rows {
		if err := checkItem(fmt.Sprintf("text/%d", k+1), row); err != nil {
			return d, err
		}
	}
	if t.Items, err = insertItems(t, c.After, rows); err != nil {
		return d, err
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c PasteItems) Summary() string { return "Pasted items into " + shorten(c.Table) }

// Describe counts the pasted items, which needs the table the text is read against.
func (c PasteItems) Describe(before Design) string {
	t, _, ok := before.TableByName(c.Table)
	if !ok {
		return c.Summary()
	}
	rows, err := ParsePaste(c.Text, t)
	if err != nil {
		return c.Summary()
	}
	return fmt.Sprintf("Pasted %s into %s", itemsWord(len(rows)), shorten(c.Table))
}
func (c PasteItems) Paths() []Path { return []Path{ItemsPath(c.Table)} }

// AddItemColumn declares an attribute so the grid shows a column for it. An attribute the table
// already types is left as it is. An empty Type means S.
type AddItemColumn struct {
	Table     string `json:"table"`
	Attribute string `json:"attribute"`
	Type      Type   `json:"type"`
}

func (AddItemColumn) Kind() string { return "add_item_column" }

func (c AddItemColumn) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	name, err := CleanName("attribute", c.Attribute)
	if err != nil {
		return d, err
	}
	typ, err := ParseType(string(c.Type))
	if err != nil {
		return d, fieldError("type", err)
	}
	if _, ok := attributeType(t, name); ok {
		return d, nil
	}
	t.Attributes = append(slices.Clip(t.Attributes), Attribute{Name: name, Type: typ})
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c AddItemColumn) Summary() string {
	return fmt.Sprintf("Added column %s to %s", shorten(c.Attribute), shorten(c.Table))
}
func (c AddItemColumn) Paths() []Path { return []Path{TablePath(c.Table)} }

// FillKeyFromTemplate sets an item's key cells to what the templates of its entity type build from
// its other attributes (FillTemplate), so an empty or stale key follows the SK taxonomy.
//
// The item's entity type is, among those whose templates it has every attribute for: the one an
// entity-type attribute of the item names ("entity_type", "type", …), else the one whose templates
// its current key values match, else the one whose templates use the most attributes.
type FillKeyFromTemplate struct {
	Table string `json:"table"`
	ID    string `json:"id"`
}

func (FillKeyFromTemplate) Kind() string { return "fill_key_from_template" }

func (c FillKeyFromTemplate) Apply(d Design) (Design, error) {
	t, i, it, j, err := findItem(d, c.Table, c.ID)
	if err != nil {
		return d, err
	}
	et, err := entityTypeOf(t, it)
	if err != nil {
		return d, err
	}
	item, changed := it.Item, false
	set := func(key KeyAttribute, tmpl string) error {
		text, _ := FillTemplate(tmpl, it.Item)
		v, err := ParseCell(text, key.Type)
		if err != nil {
			return Invalid(string(ItemPath(t.Name, it.ID, key.Name)), "the template %s gives %q: %v", tmpl, text, err)
		}
		if old, ok := item[key.Name]; ok && old.Identical(v) {
			return nil
		}
		if !changed {
			item, changed = maps.Clone(it.Item), true
		}
		item[key.Name] = v
		return nil
	}
	if err := set(t.PartitionKey, et.PKTemplate); err != nil {
		return d, err
	}
	if t.SortKey != nil && et.SKTemplate != "" {
		if err := set(*t.SortKey, et.SKTemplate); err != nil {
			return d, err
		}
	}
	if !changed {
		return d, nil
	}
	it.Item = item
	t.Items = replaceAt(t.Items, j, it)
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

// entityTypeAttributes are the attribute names that commonly say which entity an item is.
var entityTypeAttributes = []string{"entity_type", "entityType", "entity", "type", "_type", "__typename", "_et"}

// entityTypeOf picks the entity type whose templates build it's keys; see FillKeyFromTemplate.
func entityTypeOf(t Table, it SampleItem) (EntityType, error) {
	var fillable []EntityType
	for _, et := range t.EntityTypes {
		if et.PKTemplate == "" {
			continue
		}
		if _, ok := FillTemplate(et.PKTemplate, it.Item); !ok {
			continue
		}
		if t.SortKey != nil && et.SKTemplate != "" {
			if _, ok := FillTemplate(et.SKTemplate, it.Item); !ok {
				continue
			}
		}
		fillable = append(fillable, et)
	}
	if len(fillable) == 0 {
		if !slices.ContainsFunc(t.EntityTypes, func(et EntityType) bool { return et.PKTemplate != "" }) {
			return EntityType{}, Invalid("table", "table %s has no entity type with a PK template; add one to its SK taxonomy first", t.Name)
		}
		return EntityType{}, Invalid("id", "item %s lacks attributes that every entity type's templates of table %s use", it.ID, t.Name)
	}
	for _, attr := range entityTypeAttributes {
		if v, ok := it.Item[attr]; ok && v.Type == S {
			for _, et := range fillable {
				if strings.EqualFold(et.Entity, v.S) {
					return et, nil
				}
			}
		}
	}
	for _, et := range fillable {
		if keyMatches(t.PartitionKey, et.PKTemplate, it.Item) &&
			(t.SortKey == nil || et.SKTemplate == "" || keyMatches(*t.SortKey, et.SKTemplate, it.Item)) {
			return et, nil
		}
	}
	best, most := fillable[0], -1
	for _, et := range fillable {
		if n := len(TemplateAttributes(et.PKTemplate)) + len(TemplateAttributes(et.SKTemplate)); n > most {
			best, most = et, n
		}
	}
	return best, nil
}

// keyMatches reports whether the item's value of key has the shape of tmpl.
func keyMatches(key KeyAttribute, tmpl string, it Item) bool {
	v, ok := it[key.Name]
	return ok && MatchTemplate(tmpl, FormatCell(v))
}

func (c FillKeyFromTemplate) Summary() string {
	return fmt.Sprintf("Filled the key of %s item %s from its entity type's templates", shorten(c.Table), shorten(c.ID))
}
func (c FillKeyFromTemplate) Paths() []Path { return []Path{ItemPath(c.Table, c.ID, "")} }

// GenerateSampleItems appends Count generated items (GenerateItems), each attribute filled as its
// declared Generator says; the same Seed gives the same items.
type GenerateSampleItems struct {
	Table string `json:"table"`
	Count int    `json:"count"`
	Seed  uint64 `json:"seed"`
}

func (GenerateSampleItems) Kind() string { return "generate_items" }

func (c GenerateSampleItems) Apply(d Design) (Design, error) {
	t, i, err := findTable(d, "table", c.Table)
	if err != nil {
		return d, err
	}
	if c.Count < 1 || c.Count > MaxGeneratedItems {
		return d, Invalid("count", "is %d; generate 1 to %d items at a time", c.Count, MaxGeneratedItems)
	}
	gens := make(map[string]Generator)
	for _, a := range t.Attributes {
		if a.Generator != nil {
			gens[a.Name] = *a.Generator
		}
	}
	if t.Items, err = insertItems(t, "", GenerateItems(t, gens, c.Count, c.Seed)); err != nil {
		return d, err
	}
	d.Tables = replaceAt(d.Tables, i, t)
	return d, nil
}

func (c GenerateSampleItems) Summary() string {
	return fmt.Sprintf("Generated %s in %s", itemsWord(c.Count), shorten(c.Table))
}
func (c GenerateSampleItems) Paths() []Path { return []Path{ItemsPath(c.Table)} }
