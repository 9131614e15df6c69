package rules

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"dynaloom/internal/designer"
)

// modCatalogue holds the model rules of the catalogue, in the order they run.
var modCatalogue = []catalogueRow{
	{"MOD001", SeverityError, onDesign(mod001Names),
		"a table or index name is under 3 or over 255 characters or holds a character other than a letter, a digit, `_`, `-` or `.`, " +
			"or two tables, or two indexes of one table, share a name", readsNoItems},
	{"MOD002", SeverityError, onDesign(mod002KeyTypes),
		"a key attribute of a table or index has no type, or a type other than S, N or B", readsNoItems},
	{"MOD003", SeverityError, onDesign(mod003KeyShape),
		"an index key has too many attributes: over 4 in a GSI's partition or sort key, or more than one in an LSI's", readsNoItems},
	{"MOD004", SeverityError, onDesign(mod004IndexCounts),
		"a table has over 20 GSIs or over 5 LSIs, or an LSI's partition key is not the table's", readsNoItems},
	{"MOD005", SeverityError, onDesign(mod005Projections),
		"an INCLUDE projection lists a key attribute or over 20 non-key attributes, " +
			"or a table's INCLUDE projections add up to over 100 non-key attributes (an attribute counts once per index)", readsNoItems},
	{"MOD006", SeverityError, modItemRules,
		"a sample item lacks a table key attribute or holds it with another type than the table's, " +
			"or holds an empty string or binary in a key attribute of the table or of an index", readsItemsByPart},
	{"MOD007", SeverityError + " / " + SeverityWarning, nil, // modItemRules
		"a sample item is over 100 KB (102,400 bytes): a warning, or an error over 400 KB (409,600 bytes), the most DynamoDB stores", readsNoItems},
	{"MOD008", SeverityError, nil, // modItemRules
		"a sample item's value of a partition key is over 2,048 bytes, or of a sort key over 1,024, " +
			"in the table's key or an index's (an attribute in several keys is held to the smallest limit)", readsNoItems},
	{"MOD009", SeverityError, nil, // modItemRules
		"a sample item holds an index key attribute with another type than the index declares, so DynamoDB would refuse the whole write", readsNoItems},
	{"MOD010", SeverityError, nil, // modItemRules
		"two or more sample items of a table have the same primary key, compared as DynamoDB compares keys (1.50 and 1.5 are one number)", readsNoItems},
	{"MOD011", SeverityWarning, nil, // modItemRules
		"a sample item holds the text null, in any case, as a top-level string, where the attribute should be left out", readsNoItems},
	{"MOD014", SeverityWarning, nil, // modItemRules
		"a sample item's string or number sort key matches none of its table's sort key templates " +
			"(on a table without a sort key, its partition key none of the partition key templates); a table without templates is not checked", readsNoItems},
	{"MOD015", SeverityError, nil, // modItemRules
		"a table declares its TTL attribute with another type than N, or a sample item holds it as something other than a Number", readsNoItems},
	{"MOD012", SeverityInfo, onDesign(mod012GenericNames),
		"a key attribute of a table or index, or an index, has a generic name that only says it is a key or an index " +
			"(PK, SK, GSI1PK, GSI1, data and the like)", readsNoItems},
	{"MOD013", SeverityWarning, onDesign(mod013FewItems),
		"a table has fewer than 5 sample items", readsItems},
	{"MOD016", SeverityWarning, onDesign(mod016UnusedIndex),
		"no operation of any access pattern targets an index and no pattern's attributes are recorded on it", readsNoItems},
	{"MOD017", SeverityWarning, mod017Sparse,
		"an index of a table with sample items is marked sparse though every item has its key attributes, " +
			"or is not marked sparse though some item lacks one of them", readsItemsByPart},
	{"MOD018", SeverityInfo, onDesign(mod018AllProjection),
		"an index projects ALL, and every pattern that reads through it, one at least, is known to need at most 3 attributes beyond the keys " +
			"(from its attributes recorded on the index, else its ProjectionExpression)", readsNoItems},
	{"MOD019", SeverityWarning, onDesign(mod019Undeclared),
		"a table's index keys, INCLUDE projections, per-pattern index attributes, key templates or TTL name an attribute " +
			"that is neither a key of the table nor among its declared attributes", readsNoItems},
	{"MOD020", SeverityError, onDesign(mod020TableKeys),
		"CreateTable would refuse a key or projection no other rule reports: a table key attribute with no name or one over 255 bytes, " +
			"a sort key that is the partition key, an attribute given two types by the keys of one table, " +
			"an LSI on a table without a sort key, without a sort key of its own or sorted by a table key, " +
			"a GSI without a partition key, an index key attribute without a usable name or twice in one key, " +
			"a projection type other than ALL, KEYS_ONLY or INCLUDE, or an INCLUDE attribute name that is empty or over 255 bytes", readsNoItems},
	{"MOD021", SeverityError, onDesign(mod021Billing),
		"a table's billing mode is neither `PAY_PER_REQUEST` nor `PROVISIONED`, " +
			"or it is `PROVISIONED` without at least 1 read and 1 write capacity unit", readsNoItems},
}

// The model rules (MOD, docs/rules.md): what DynamoDB would refuse in the tables, indexes and
// sample items, and what the seed's method says about them.

// DynamoDB's limits, as reference/dynamodb-semantics.md gives them.
const (
	maxNameLen             = 255
	minNameLen             = 3
	maxGSIsPerTable        = 20
	maxLSIsPerTable        = 5
	maxGSIKeyAttributes    = 4
	maxProjectedPerIndex   = 20
	maxProjectedPerTable   = 100
	maxItemBytes           = 400 * 1024
	largeItemBytes         = 100 * 1024
	maxPartitionValueBytes = 2048
	maxSortValueBytes      = 1024
	minSampleItems         = 5
	// mod018MaxAttributes is the seed's "only 2-3 attributes beyond keys" for an INCLUDE projection.
	mod018MaxAttributes = 3
)

// modIndex is one secondary index of a table, with whether it is local.
type modIndex struct {
	ix  *designer.Index
	lsi bool
}

// modIndexes lists a table's GSIs, then its LSIs.
func modIndexes(t designer.Table) []modIndex {
	out := make([]modIndex, 0, len(t.GSIs)+len(t.LSIs))
	for i := range t.GSIs {
		out = append(out, modIndex{ix: &t.GSIs[i]})
	}
	for i := range t.LSIs {
		out = append(out, modIndex{ix: &t.LSIs[i], lsi: true})
	}
	return out
}

func (m modIndex) kind() string {
	if m.lsi {
		return "LSI"
	}
	return "GSI"
}

// label names the index as a message does: "GSI ByStatus on Orders".
func (m modIndex) label(t designer.Table) string { return m.kind() + " " + m.ix.Name + " on " + t.Name }

func tablePath(t designer.Table) string { return "tables/" + t.Name }

func indexPath(t designer.Table, ix *designer.Index) string {
	return tablePath(t) + "/indexes/" + ix.Name
}

// itemRowID is the id of a sample item, or its position when the item has none.
func itemRowID(it designer.SampleItem, i int) string { return rowID(it.ID, designer.ItemIDPrefix, i) }

func itemPath(t designer.Table, it designer.SampleItem, i int) string {
	return tablePath(t) + "/items/" + itemRowID(it, i)
}

func itemLabel(t designer.Table, it designer.SampleItem, i int) string {
	return "Item " + itemKeyWords(t, it, i) + " of " + t.Name
}

// itemKeyWords names a sample item as the room knows it, by its table key values
// (`order_id = "o1", placed_at = "2025-04-24"`), in brackets; an item with none of them by its
// place among the table's items ("number 3"). Its id (i3) is the design's, not the room's.
func itemKeyWords(t designer.Table, it designer.SampleItem, i int) string {
	var keys []string
	for _, k := range designer.TableKeyNames(t) {
		if v, ok := it.Item[k]; ok {
			keys = append(keys, k+" = "+keyValueText(v))
		}
	}
	if len(keys) == 0 {
		return "number " + strconv.Itoa(i+1)
	}
	return "(" + strings.Join(keys, ", ") + ")"
}

// keyUse is one attribute of one key: the table's (index nil) or an index's.
type keyUse struct {
	attr designer.KeyAttribute
	sort bool
	idx  modIndex
}

func (k keyUse) table() bool { return k.idx.ix == nil }

// role says what the attribute is to a reader: "the partition key of Orders", "a sort key
// attribute of GSI ByStatus on Orders".
func (k keyUse) role(t designer.Table) string {
	part := "partition key"
	if k.sort {
		part = "sort key"
	}
	if k.table() {
		return "the " + part + " of " + t.Name
	}
	return "a " + part + " attribute of " + k.idx.label(t)
}

// keyUses lists every key attribute of the table and of its indexes, the table's first. An LSI
// without a partition key of its own uses the table's, which the table's own entry already covers.
// A key without an attribute name is one the team has not chosen yet; the rules leave it alone.
func keyUses(t designer.Table) []keyUse {
	out := make([]keyUse, 0, 8)
	add := func(k keyUse) {
		if k.attr.Name != "" {
			out = append(out, k)
		}
	}
	add(keyUse{attr: t.PartitionKey})
	if t.SortKey != nil {
		add(keyUse{attr: *t.SortKey, sort: true})
	}
	for _, m := range modIndexes(t) {
		for _, k := range m.ix.PartitionKey {
			add(keyUse{attr: k, idx: m})
		}
		for _, k := range m.ix.SortKey {
			add(keyUse{attr: k, sort: true, idx: m})
		}
	}
	return out
}

// indexKeyNames are the attributes every entry of the index holds: the table's key and the index's.
func indexKeyNames(t designer.Table, ix *designer.Index) []string {
	names := designer.TableKeyNames(t)
	for _, k := range append(slices.Clone(ix.PartitionKey), ix.SortKey...) {
		if !slices.Contains(names, k.Name) {
			names = append(names, k.Name)
		}
	}
	return names
}

// mod001Names is MOD001: DynamoDB's naming rule for tables and indexes, and their uniqueness.
func mod001Names(d designer.Design, out []Finding) []Finding {
	seen := make(map[string]int, len(d.Tables))
	for _, t := range d.Tables {
		seen[t.Name]++
		if seen[t.Name] == 2 {
			out = append(out, finding("MOD001", tablePath(t),
				strconv.Itoa(countTables(d, t.Name))+" tables are named "+inQuotes(t.Name)+"; give each table its own name"))
		}
		if problem := nameProblem(t.Name); problem != "" {
			out = append(out, finding("MOD001", tablePath(t),
				"Table name "+inQuotes(t.Name)+" "+problem+"; a table name is 3 to 255 letters, digits, \"_\", \"-\" or \".\""))
		}
		indexSeen := map[string]int{}
		for _, m := range modIndexes(t) {
			indexSeen[m.ix.Name]++
			if indexSeen[m.ix.Name] == 2 {
				out = append(out, finding("MOD001", indexPath(t, m.ix),
					t.Name+" has "+strconv.Itoa(countIndexes(t, m.ix.Name))+" indexes named "+inQuotes(m.ix.Name)+"; GSIs and LSIs of one table need distinct names, so rename all but one"))
			}
			if problem := nameProblem(m.ix.Name); problem != "" {
				out = append(out, finding("MOD001", indexPath(t, m.ix),
					m.kind()+" name "+inQuotes(m.ix.Name)+" on "+t.Name+" "+problem+"; an index name is 3 to 255 letters, digits, \"_\", \"-\" or \".\""))
			}
		}
	}
	return out
}

func countTables(d designer.Design, name string) int {
	n := 0
	for _, t := range d.Tables {
		if t.Name == name {
			n++
		}
	}
	return n
}

func countIndexes(t designer.Table, name string) int {
	n := 0
	for _, m := range modIndexes(t) {
		if m.ix.Name == name {
			n++
		}
	}
	return n
}

// nameProblem says what is wrong with a table or index name, or "" when DynamoDB accepts it.
func nameProblem(name string) string {
	for _, r := range name {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.') {
			return "contains " + strconv.QuoteRune(r)
		}
	}
	if n := len(name); n < minNameLen || n > maxNameLen {
		return "is " + strconv.Itoa(n) + " characters long"
	}
	return ""
}

// mod002KeyTypes is MOD002: every key attribute, of the table and of its indexes, is S, N or B. An
// index key that repeats a table key is reported on the table.
func mod002KeyTypes(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		for _, k := range keyUses(t) {
			if k.attr.Type.KeyType() || !k.table() && isTableKey(t, k.attr) {
				continue
			}
			has := "has type " + inQuotes(string(k.attr.Type))
			if k.attr.Type == "" {
				has = "has no type"
			}
			out = append(out, finding("MOD002", keyPath(t, k),
				"Key attribute "+k.attr.Name+", "+k.role(t)+", "+has+"; key attributes are S, N or B, so change its type or key on another attribute"))
		}
	}
	return out
}

func keyPath(t designer.Table, k keyUse) string {
	p := tablePath(t)
	if !k.table() {
		p = indexPath(t, k.idx.ix)
	}
	if k.sort {
		return p + "/sort_key"
	}
	return p + "/partition_key"
}

// mod003KeyShape is MOD003: multi-attribute keys are GSI-only, up to 4 partition and 4 sort
// attributes. A table has one attribute of each in the document's types, so only indexes can break
// the rule; an LSI has the table's partition key and exactly one sort attribute.
func mod003KeyShape(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		for _, m := range modIndexes(t) {
			limit, advice := maxGSIKeyAttributes, "; a GSI key has at most 4 partition and 4 sort attributes, so drop some or combine them into one attribute"
			if m.lsi {
				limit, advice = 1, "; multi-attribute keys are GSI-only, so give the LSI one sort attribute or make it a GSI"
			}
			for _, part := range [...]struct {
				keys  []designer.KeyAttribute
				name  string
				field string
			}{{m.ix.PartitionKey, "partition", "/partition_key"}, {m.ix.SortKey, "sort", "/sort_key"}} {
				if len(part.keys) <= limit {
					continue
				}
				out = append(out, finding("MOD003", indexPath(t, m.ix)+part.field,
					m.label(t)+" has "+strconv.Itoa(len(part.keys))+" "+part.name+" key attributes ("+designer.ListAnd(keyNames(part.keys))+")"+advice))
			}
		}
	}
	return out
}

func keyNames(keys []designer.KeyAttribute) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return names
}

// mod004IndexCounts is MOD004: at most 20 GSIs (the default quota) and 5 LSIs per table, and an LSI
// shares the table's partition key.
func mod004IndexCounts(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		if n := len(t.GSIs); n > maxGSIsPerTable {
			out = append(out, finding("MOD004", tablePath(t),
				t.Name+" has "+strconv.Itoa(n)+" GSIs; a table has at most 20 (the default quota), so remove "+strconv.Itoa(n-maxGSIsPerTable)+" or serve their patterns with shared, overloaded GSIs"))
		}
		if n := len(t.LSIs); n > maxLSIsPerTable {
			out = append(out, finding("MOD004", tablePath(t),
				t.Name+" has "+strconv.Itoa(n)+" LSIs; a table has at most 5, so remove "+strconv.Itoa(n-maxLSIsPerTable)+" or make them GSIs"))
		}
		for i := range t.LSIs {
			ix := &t.LSIs[i]
			// More than one partition attribute is MOD003's; none means the table's.
			if len(ix.PartitionKey) != 1 || ix.PartitionKey[0] == t.PartitionKey {
				continue
			}
			k := ix.PartitionKey[0]
			out = append(out, finding("MOD004", indexPath(t, ix)+"/partition_key",
				"LSI "+ix.Name+" on "+t.Name+" has partition key "+k.Name+" ("+string(k.Type)+"), but an LSI shares the table's, "+t.PartitionKey.Name+" ("+string(t.PartitionKey.Type)+"); use the table's partition key, or make it a GSI"))
		}
	}
	return out
}

// mod005Projections is MOD005: INCLUDE lists only non-key attributes, at most 20 per index and 100
// across the table's indexes (the same name in two indexes counts twice).
func mod005Projections(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		total := 0
		for _, m := range modIndexes(t) {
			if m.ix.Projection.Type != designer.Include {
				continue
			}
			keys := indexKeyNames(t, m.ix)
			var listedKeys, nonKey []string
			for _, a := range m.ix.Projection.Attributes {
				switch {
				case slices.Contains(keys, a):
					if !slices.Contains(listedKeys, a) {
						listedKeys = append(listedKeys, a)
					}
				case !slices.Contains(nonKey, a):
					nonKey = append(nonKey, a)
				}
			}
			total += len(nonKey)
			path := indexPath(t, m.ix) + "/projection"
			if len(listedKeys) > 0 {
				out = append(out, finding("MOD005", path,
					m.label(t)+" lists key attribute"+plural(len(listedKeys))+" "+designer.ListAnd(listedKeys)+" in its INCLUDE projection; keys are always projected and DynamoDB refuses them there, so remove them from the list"))
			}
			if len(nonKey) > maxProjectedPerIndex {
				out = append(out, finding("MOD005", path,
					m.label(t)+" projects "+strconv.Itoa(len(nonKey))+" non-key attributes; INCLUDE allows at most 20, so trim the list to what its patterns read or project ALL"))
			}
		}
		if total > maxProjectedPerTable {
			out = append(out, finding("MOD005", tablePath(t),
				"The indexes of "+t.Name+" project "+strconv.Itoa(total)+" non-key attributes in all; DynamoDB allows at most 100 per table (a name in two indexes counts twice), so trim the INCLUDE lists"))
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// The item rules (MOD006–MOD011, MOD014, MOD015) read every sample item. modItemRules runs them item
// by item rather than rule by rule, so that each item is read from memory once however many rules
// look at it: with 10,000 items that is what keeps validation fast.

// itemRules is what the item rules know about one table before they look at its items.
type itemRules struct {
	t    designer.Table
	keys []itemKey // MOD006, MOD008, MOD009
	// pks and sks hold each item's primary key values, and keyed lists the items whose key is
	// well typed (MOD010).
	pks, sks []designer.Value
	keyed    []int
	// taxonomy is the key MOD014 holds to the templates; no templates means no check.
	taxonomy     designer.KeyAttribute
	taxonomyBySK bool
	templates    []string
	ttl          string // MOD015
}

// newItemRules prepares the item rules for t. With keys, it makes room for MOD010's keys of every
// item, reusing the key buffers of prev, the previous table's: they are as long as a table has
// items, and a design can hold thousands. Without, as when only a few edited items are checked
// again and MOD010's finding is taken over, it makes none: their cost would be the table's size.
func newItemRules(t designer.Table, prev *itemRules, keys bool) *itemRules {
	r := &itemRules{t: t, keys: itemKeys(t), taxonomy: t.PartitionKey, ttl: t.TTLAttribute}
	if prev != nil {
		r.pks, r.sks, r.keyed = prev.pks, prev.sks, prev.keyed[:0]
	}
	if t.SortKey != nil {
		r.taxonomy, r.taxonomyBySK = *t.SortKey, true
	}
	r.pks, r.sks = r.pks[:0], r.sks[:0]
	if keys {
		r.pks = slices.Grow(r.pks, len(t.Items))[:len(t.Items)]
		if t.SortKey != nil {
			r.sks = slices.Grow(r.sks, len(t.Items))[:len(t.Items)]
		}
	}
	for _, et := range t.EntityTypes {
		tmpl := et.PKTemplate
		if r.taxonomyBySK {
			tmpl = et.SKTemplate
		}
		if strings.TrimSpace(tmpl) != "" && !slices.Contains(r.templates, tmpl) {
			r.templates = append(r.templates, tmpl)
		}
	}
	return r
}

// modItemRules is MOD006–MOD011, MOD014 and MOD015 on every sample item, and the table-level half of
// MOD015 (the TTL attribute's declared type). A table whose items were edited in place since the
// last validation, keeping their ids, and their table keys or moving them to keys no other item has
// (memo.go), has its edited items checked again and the findings of the others taken over: each
// item's findings depend on the item and the table's fields only, and MOD010 on the keys items
// share, which the edit left as they were.
func modItemRules(v *validation, out []Finding) []Finding {
	var r *itemRules
	for ti, t := range v.d.Tables {
		m := v.table(ti)
		if m.done[partItems] {
			out = append(out, m.parts[partItems]...)
			continue
		}
		if m.runFrom != nil {
			from := len(out)
			out, m.itemEnds, r = modItemRulesRun(v, ti, m.runFrom, m.run, r, out)
			m.parts[partItems], m.done[partItems], m.runFrom = slices.Clone(out[from:]), true, nil
			continue
		}
		from := len(out)
		old := m.fromItems()
		ends := make([]int32, 0, len(t.Items)+1)
		out = mod015TTLDeclared(t, out)
		ends = append(ends, int32(len(out)-from))
		prepared := old == nil
		if old == nil && v.prev.tables[t.Name] != nil && len(t.Items) > 0 {
			coldItemTables.Add(1)
		}
		if prepared {
			r = newItemRules(t, r, true)
		}
		edited := m.edited
		for i, it := range t.Items {
			if old != nil && (len(edited) == 0 || edited[0] != i) {
				out = append(out, old.parts[partItems][old.itemEnds[i]:old.itemEnds[i+1]]...)
				ends = append(ends, int32(len(out)-from))
				continue
			}
			if old != nil {
				edited = edited[1:]
			}
			if !prepared {
				r, prepared = newItemRules(t, r, false), true
			}
			out = r.mod006ItemKeys(i, it, out)
			out = r.mod007ItemSize(i, it, out)
			if old == nil {
				r.mod010CollectKey(i, it)
			}
			out = r.mod011NullText(i, it, out)
			out = r.mod014Taxonomy(i, it, out)
			out = r.mod015TTLNumber(i, it, out)
			ends = append(ends, int32(len(out)-from))
		}
		if old != nil {
			out = append(out, old.parts[partItems][old.itemEnds[len(t.Items)]:]...)
		} else {
			out = r.mod010DuplicateKeys(out)
		}
		m.parts[partItems], m.done[partItems], m.itemEnds = slices.Clone(out[from:]), true, ends
		m.fromMemo = nil // taken over; kept, it would chain every revision's memo to the one before
	}
	return out
}

// coldItemTables counts the tables whose item rules ran over every item although the last
// validation had checked a table of that name: for tests that an item edit is checked alone.
var coldItemTables atomic.Int64

// itemKey is one attribute that is a key of the table or of some index, with everything the item
// rules check about it.
type itemKey struct {
	name string
	// uses are all its key uses; a table key's own use comes first, as keyUses lists it.
	uses []keyUse
	// typed are the index key uses whose declared type an item must match (MOD009); an index key
	// identical to a table key is left to MOD006.
	typed []keyUse
	// limit is the strictest key value size limit on it, from the use named by limitUse (MOD008).
	limit    int
	limitUse keyUse
}

// tableKey is the table's own key use of the attribute, if it is a table key.
func (k *itemKey) tableKey() (*keyUse, bool) { return &k.uses[0], k.uses[0].table() }

// itemKeys lists the key attributes of a table once each, in the order keyUses gives.
func itemKeys(t designer.Table) []itemKey {
	var out []itemKey
	for _, k := range keyUses(t) {
		j := slices.IndexFunc(out, func(ik itemKey) bool { return ik.name == k.attr.Name })
		if j < 0 {
			out = append(out, itemKey{name: k.attr.Name, limit: keyValueLimit(k), limitUse: k})
			j = len(out) - 1
		}
		ik := &out[j]
		ik.uses = append(ik.uses, k)
		if !k.table() && !isTableKey(t, k.attr) {
			ik.typed = append(ik.typed, k)
		}
		if limit := keyValueLimit(k); limit < ik.limit {
			ik.limit, ik.limitUse = limit, k
		}
	}
	return out
}

func keyValueLimit(k keyUse) int {
	if k.sort {
		return maxSortValueBytes
	}
	return maxPartitionValueBytes
}

// mod006ItemKeys is MOD006, MOD008 and MOD009, the checks of an item's key attributes:
//   - MOD006: the item holds the table's key attributes with their declared types, and no table or
//     index key attribute holds an empty string or binary;
//   - MOD008: a partition key value is at most 2,048 bytes and a sort key value at most 1,024, for
//     the table and every index; an attribute in several keys meets the strictest limit;
//   - MOD009: an item that carries an index key attribute with another type than the index declares
//     is refused whole, not merely left out of the index.
func (r *itemRules) mod006ItemKeys(i int, it designer.SampleItem, out []Finding) []Finding {
	t := r.t
	for ki := range r.keys {
		k := &r.keys[ki]
		v, ok := it.Item[k.name]
		tk, isTable := k.tableKey()
		if !ok {
			if isTable {
				out = append(out, finding("MOD006", itemPath(t, it, i)+"/"+k.name,
					itemLabel(t, it, i)+" lacks "+k.name+", "+tk.role(t)+"; every item needs the table's key attributes, so add it"))
			}
			continue
		}
		mistyped := isTable && v.Type != tk.attr.Type
		if mistyped {
			out = append(out, finding("MOD006", itemPath(t, it, i)+"/"+k.name,
				itemLabel(t, it, i)+" holds "+k.name+" as "+string(v.Type)+", but it is "+tk.role(t)+" of type "+string(tk.attr.Type)+"; store it as "+string(tk.attr.Type)))
		}
		switch size := keyValueBytes(v); {
		case mistyped:
			// One finding says what is wrong with the value.
		case emptyKeyValue(v):
			roles := make([]string, len(k.uses))
			for j, u := range k.uses {
				roles[j] = u.role(t)
			}
			out = append(out, finding("MOD006", itemPath(t, it, i)+"/"+k.name,
				itemLabel(t, it, i)+" holds an empty "+typeWord(v.Type)+" in "+k.name+", "+designer.ListAnd(roles)+"; DynamoDB refuses empty key values, so give it a value"+leaveOutAdvice(k)))
		case size > k.limit:
			out = append(out, finding("MOD008", itemPath(t, it, i)+"/"+k.name,
				itemLabel(t, it, i)+" holds a "+formatBytes(size)+" value in "+k.name+", "+k.limitUse.role(t)+"; a "+keyKind(k.limitUse)+" value is at most "+formatBytes(k.limit)+", so shorten it or key on a hash of it"))
		}
		for _, u := range k.typed {
			if v.Type == u.attr.Type {
				continue
			}
			out = append(out, finding("MOD009", itemPath(t, it, i)+"/"+k.name,
				itemLabel(t, it, i)+" holds "+k.name+" as "+string(v.Type)+", but "+u.idx.label(t)+" declares it "+string(u.attr.Type)+"; DynamoDB refuses the whole write, so store it as "+string(u.attr.Type)+" or leave it out"))
		}
	}
	return out
}

// keyValueBytes is the length DynamoDB's key value limits count: UTF-8 bytes of a string, bytes of a
// binary. A number is at most 21 bytes and never near a limit.
func keyValueBytes(v designer.Value) int {
	switch v.Type {
	case designer.S:
		return len(v.S)
	case designer.B:
		return len(v.B)
	}
	return 0
}

func emptyKeyValue(v designer.Value) bool {
	return v.Type == designer.S && v.S == "" || v.Type == designer.B && len(v.B) == 0
}

func typeWord(t designer.Type) string {
	if t == designer.B {
		return "binary"
	}
	return "string"
}

// leaveOutAdvice offers the sparse-index way out when the attribute is only an index key.
func leaveOutAdvice(k *itemKey) string {
	if _, isTable := k.tableKey(); isTable {
		return ""
	}
	return " or leave the attribute out to keep the item out of the index"
}

func keyKind(k keyUse) string {
	if k.sort {
		return "sort key"
	}
	return "partition key"
}

func isTableKey(t designer.Table, k designer.KeyAttribute) bool {
	return k == t.PartitionKey || t.SortKey != nil && k == *t.SortKey
}

// mod007ItemSize is MOD007: DynamoDB refuses items over 400 KB; the seed treats over 100 KB as a
// sign the aggregate should be split.
func (r *itemRules) mod007ItemSize(i int, it designer.SampleItem, out []Finding) []Finding {
	size := designer.ItemSize(it.Item)
	if size <= largeItemBytes {
		return out
	}
	f := finding("MOD007", itemPath(r.t, it, i), "")
	switch {
	case size > maxItemBytes:
		f.Severity = SeverityError
		f.Message = itemLabel(r.t, it, i) + " is " + formatBytes(size) +
			"; DynamoDB refuses items over 400 KB (409,600 bytes), so move large attributes to S3 or split the item"
	case size > largeItemBytes:
		f.Severity = SeverityWarning
		f.Message = itemLabel(r.t, it, i) + " is " + formatBytes(size) +
			"; over 100 KB every read and write of it is expensive, so split it into an item collection or move large attributes to S3"
	default:
		return out
	}
	return append(out, f)
}

// formatBytes writes a size as "123,456 bytes".
func formatBytes(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " bytes"
}

// mod010CollectKey keeps the primary key of an item for MOD010. Items lacking a key attribute or
// holding it with the wrong type are MOD006's and left out.
func (r *itemRules) mod010CollectKey(i int, it designer.SampleItem) {
	pk, ok := it.Item[r.t.PartitionKey.Name]
	if !ok || pk.Type != r.t.PartitionKey.Type {
		return
	}
	if sk := r.t.SortKey; sk != nil {
		v, ok := it.Item[sk.Name]
		if !ok || v.Type != sk.Type {
			return
		}
		r.sks[i] = v
	}
	r.pks[i] = pk
	r.keyed = append(r.keyed, i)
}

// mod010DuplicateKeys is MOD010: items sharing a primary key would overwrite each other. Keys are
// compared as DynamoDB compares them, so 1.50 and 1.5 are the same number.
func (r *itemRules) mod010DuplicateKeys(out []Finding) []Finding {
	sameKey := func(a, b int) int {
		if c := designer.CompareKeyValues(r.pks[a], r.pks[b]); c != 0 || r.t.SortKey == nil {
			return c
		}
		return designer.CompareKeyValues(r.sks[a], r.sks[b])
	}
	rows := r.keyed
	// Ties keep table order, so each run of equal keys lists its items as the table does.
	slices.SortFunc(rows, func(a, b int) int { return cmp.Or(sameKey(a, b), cmp.Compare(a, b)) })
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && sameKey(rows[start], rows[end]) == 0 {
			end++
		}
		if end-start > 1 {
			out = append(out, duplicateKeyFinding(r.t, rows[start:end]))
		}
		start = end
	}
	return out
}

// duplicateKeyFinding names the items that share a key, in table order, and points at the second:
// the first one a write would overwrite.
func duplicateKeyFinding(t designer.Table, rows []int) Finding {
	ids := make([]string, len(rows))
	for j, i := range rows {
		ids[j] = itemRowID(t.Items[i], i)
	}
	first := t.Items[rows[0]].Item
	key := t.PartitionKey.Name + " = " + keyValueText(first[t.PartitionKey.Name])
	if t.SortKey != nil {
		key += ", " + t.SortKey.Name + " = " + keyValueText(first[t.SortKey.Name])
	}
	second := rows[1]
	return finding("MOD010", itemPath(t, t.Items[second], second),
		"Items "+designer.ListAnd(ids)+" of "+t.Name+" share the primary key "+key+"; DynamoDB keeps only the last one written, so give each item its own key")
}

// keyValueText writes a key value as a message shows it: strings quoted, numbers as written.
func keyValueText(v designer.Value) string {
	switch v.Type {
	case designer.S:
		return strconv.Quote(v.S)
	case designer.B:
		return "binary of " + formatBytes(len(v.B))
	}
	return v.S
}

// mod011NullText is MOD011: the seed says an attribute with no value is left out, not filled with
// "null". Only a top-level string cell counts; the NULL type is DynamoDB's own and left alone. The
// findings have distinct paths, so Validate's sort puts them in order whatever the map's order.
func (r *itemRules) mod011NullText(i int, it designer.SampleItem, out []Finding) []Finding {
	for name, v := range it.Item {
		if v.Type != designer.S || len(v.S) != 4 || !strings.EqualFold(v.S, "null") {
			continue
		}
		out = append(out, finding("MOD011", itemPath(r.t, it, i)+"/"+name,
			itemLabel(r.t, it, i)+" holds the text "+inQuotes(v.S)+" in "+name+"; leave the attribute out of the item instead (an empty cell)"))
	}
	return out
}

// mod014Taxonomy is MOD014: every item's sort key follows one of the SK taxonomy's templates; a table
// without a sort key is held to its partition-key templates instead. A table that declares no
// template is not checked, nor binary keys, which templates cannot spell.
func (r *itemRules) mod014Taxonomy(i int, it designer.SampleItem, out []Finding) []Finding {
	if len(r.templates) == 0 {
		return out
	}
	v, ok := it.Item[r.taxonomy.Name]
	if !ok || v.Type != designer.S && v.Type != designer.N {
		return out
	}
	for _, tmpl := range r.templates {
		if designer.MatchTemplate(tmpl, v.S) {
			return out
		}
	}
	kind, taxonomy := "partition key", "partition-key templates"
	if r.taxonomyBySK {
		kind, taxonomy = "sort key", "SK taxonomy"
	}
	return append(out, finding("MOD014", itemPath(r.t, it, i)+"/"+r.taxonomy.Name,
		itemLabel(r.t, it, i)+" has "+kind+" "+strconv.Quote(v.S)+", which matches none of the "+taxonomy+" ("+strings.Join(r.templates, ", ")+"); fix the key, or add the entity type it belongs to"))
}

// mod015TTLNumber is MOD015 on an item: DynamoDB expires an item only when its TTL attribute is a
// Number of epoch seconds; anything else is silently never expired.
func (r *itemRules) mod015TTLNumber(i int, it designer.SampleItem, out []Finding) []Finding {
	if r.ttl == "" {
		return out
	}
	v, ok := it.Item[r.ttl]
	if !ok || v.Type == designer.N {
		return out
	}
	return append(out, finding("MOD015", itemPath(r.t, it, i)+"/"+r.ttl,
		itemLabel(r.t, it, i)+" holds its TTL attribute "+r.ttl+" as "+string(v.Type)+"; TTL ignores anything but a Number of Unix epoch seconds (such as 1767225600), so the item would never expire"))
}

// mod015TTLDeclared is MOD015 on the table: a TTL attribute declared with another type than N.
func mod015TTLDeclared(t designer.Table, out []Finding) []Finding {
	if t.TTLAttribute == "" {
		return out
	}
	typ, ok := declaredAttributeType(t, t.TTLAttribute)
	if !ok || typ == designer.N {
		return out
	}
	return append(out, finding("MOD015", tablePath(t)+"/ttl_attribute",
		"The TTL attribute "+t.TTLAttribute+" of "+t.Name+" is declared "+string(typ)+"; TTL needs a Number of Unix epoch seconds, so declare it N"))
}

// mod012GenericNames is MOD012: the seed's "Natural Keys Over Generic Identifiers". An index key
// that repeats a table key is reported on the table.
func mod012GenericNames(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		for _, k := range keyUses(t) {
			if !genericName(k.attr.Name) || !k.table() && isTableKey(t, k.attr) {
				continue
			}
			what := t.Name
			if !k.table() {
				what = k.idx.label(t)
			}
			out = append(out, finding("MOD012", keyPath(t, k),
				"The "+keyKind(k)+" of "+what+" is the generic "+k.attr.Name+"; a natural name (customer_id, order_date) says what the key identifies without extra documentation"))
		}
		for _, m := range modIndexes(t) {
			if !genericName(m.ix.Name) {
				continue
			}
			out = append(out, finding("MOD012", indexPath(t, m.ix),
				m.label(t)+" has a generic name; name it after the query it serves, such as OrdersByCustomer"))
		}
	}
	return out
}

// genericName reports whether a key attribute or index name only says it is a key or an index: PK,
// SK, GSI1, GSI1PK, gsi_2_sk, LSI1, data, key and the like.
func genericName(name string) bool {
	s := strings.ToLower(strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, name))
	if s == "" {
		return false
	}
	for _, prefix := range []string{"gsi", "lsi", "index", "idx"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			s = rest
			break
		}
	}
	s = strings.TrimLeft(s, "0123456789")
	for _, word := range []string{"partitionkey", "sortkey", "hashkey", "rangekey", "pk", "sk", "hk", "rk", "key", "data"} {
		if rest, ok := strings.CutPrefix(s, word); ok {
			s = rest
			break
		}
	}
	return strings.TrimLeft(s, "0123456789") == ""
}

// mod013FewItems is MOD013: the seed asks for 5-10 representative items per table.
func mod013FewItems(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		if n := len(t.Items); n < minSampleItems {
			out = append(out, finding("MOD013", tablePath(t),
				t.Name+" has "+strconv.Itoa(n)+" sample item"+plural(n)+"; add representative items (the seed asks for 5 to 10) so its access patterns can be checked against them"))
		}
	}
	return out
}

// declaredAttributeType is the type the table gives an attribute in its key or its attribute list.
func declaredAttributeType(t designer.Table, name string) (designer.Type, bool) {
	if t.PartitionKey.Name == name {
		return t.PartitionKey.Type, true
	}
	if t.SortKey != nil && t.SortKey.Name == name {
		return t.SortKey.Type, true
	}
	if a, _, ok := t.AttributeByName(name); ok {
		return a.Type, true
	}
	return "", false
}

// indexUse is what the access patterns say about one index: which patterns' operations target it
// and which attributes each pattern reads through it.
type indexUse struct {
	operations []int // pattern numbers with an operation on the index, in pattern order
	// projections is, per pattern number, the attributes its operations' ProjectionExpressions
	// name; nil for a pattern with an operation that has none (it reads whole entries).
	projections map[int][]string
}

// indexUses maps table name and index name to how the patterns use that index.
func indexUses(d designer.Design) map[[2]string]*indexUse {
	uses := map[[2]string]*indexUse{}
	for _, p := range d.Patterns {
		for _, op := range p.Mapping.Operations {
			if op.Index == "" {
				continue
			}
			k := [2]string{op.Table, op.Index}
			u := uses[k]
			if u == nil {
				u = &indexUse{projections: map[int][]string{}}
				uses[k] = u
			}
			attrs, seen := u.projections[p.Number]
			if !seen {
				u.operations = append(u.operations, p.Number)
			}
			if op.Projection == "" || (seen && attrs == nil) {
				u.projections[p.Number] = nil
				continue
			}
			for _, a := range projectionAttributes(op) {
				if !slices.Contains(attrs, a) {
					attrs = append(attrs, a)
				}
			}
			u.projections[p.Number] = attrs
		}
	}
	return uses
}

// projectionAttributes reads the top-level attribute names of an operation's ProjectionExpression,
// resolving #name placeholders.
func projectionAttributes(op designer.Operation) []string {
	var out []string
	for _, part := range strings.Split(op.Projection, ",") {
		name := strings.TrimSpace(part)
		if i := strings.IndexAny(name, ".["); i >= 0 {
			name = name[:i]
		}
		if real, ok := op.Names[name]; ok && strings.HasPrefix(name, "#") {
			name = real
		}
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// mod016UnusedIndex is MOD016: an index no pattern reads through still costs writes and storage.
func mod016UnusedIndex(d designer.Design, out []Finding) []Finding {
	uses := indexUses(d)
	for _, t := range d.Tables {
		for _, m := range modIndexes(t) {
			if uses[[2]string{t.Name, m.ix.Name}] != nil || len(m.ix.PatternAttributes) > 0 {
				continue
			}
			advice := "; map the pattern that needs it to a Query on it, or remove it"
			if m.lsi {
				advice = "; map the pattern that needs it to a Query on it (an LSI can only be removed by recreating the table)"
			}
			out = append(out, finding("MOD016", indexPath(t, m.ix),
				m.label(t)+" serves no access pattern but still costs writes and storage"+advice))
		}
	}
	return out
}

// mod017Sparse is MOD017: whether the sample items say the index is sparse. An item is left out of
// an index when it lacks one of the index's key attributes (§4), as IndexItems has it; an LSI's
// partition key is the table's, which every item must have anyway (MOD006). An item refused for a
// key of the wrong type or an empty one is a mistake MOD006 and MOD009 report, not sparseness.
//
// The rule asks only which items are left out, so it does not build the index's view: with 100
// indexes over 10,000 items, projecting every entry would cost more than all other rules together.
func mod017Sparse(v *validation, out []Finding) []Finding {
	for ti, t := range v.d.Tables {
		if len(t.Items) == 0 {
			continue
		}
		out = v.tablePart(ti, partSparse, out, func(out []Finding) []Finding {
			if v.sparseKept(ti) {
				return append(out, v.table(ti).fromSparse...)
			}
			return mod017SparseTable(t, out)
		})
	}
	return out
}

func mod017SparseTable(t designer.Table, out []Finding) []Finding {
	for _, m := range modIndexes(t) {
		keys := m.ix.SortKey
		if !m.lsi {
			keys = append(slices.Clone(m.ix.PartitionKey), m.ix.SortKey...)
		}
		if len(keys) == 0 {
			continue
		}
		var left []int
		for i, it := range t.Items {
			if slices.ContainsFunc(keys, func(k designer.KeyAttribute) bool { _, ok := it.Item[k.Name]; return !ok }) {
				left = append(left, i)
			}
		}
		f := finding("MOD017", indexPath(t, m.ix)+"/sparse", "")
		switch {
		case m.ix.Sparse && len(left) == 0:
			f.Message = m.label(t) + " is marked sparse, but every sample item has its key attributes" +
				"; add a sample item without them to show what stays out, or unmark it"
		case !m.ix.Sparse && len(left) > 0:
			ids := make([]string, 0, 4)
			for j, i := range left {
				if j == 3 {
					ids = append(ids, strconv.Itoa(len(left)-3)+" more")
					break
				}
				ids = append(ids, itemKeyWords(t, t.Items[i], i))
			}
			first := t.Items[left[0]]
			var missing []string
			for _, k := range keys {
				if _, ok := first.Item[k.Name]; !ok {
					missing = append(missing, k.Name)
				}
			}
			which := "the first"
			if len(left) == 1 {
				which = "it"
			}
			f.Message = m.label(t) + " is not marked sparse, but it leaves out item" + plural(len(left)) + " " + designer.ListAnd(ids) +
				"; " + which + " has no " + designer.ListOr(missing) + "; mark the index sparse and say why, or give those items its key attributes"
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}

// mod018AllProjection is MOD018: the seed's "Project Only What You Query". An ALL projection is worth
// its storage and write cost only when some pattern reads most of the item through the index.
// A pattern's needs come from the index's per-pattern attributes, else from its operations'
// ProjectionExpressions; while any pattern's needs are unknown the rule stays silent.
func mod018AllProjection(d designer.Design, out []Finding) []Finding {
	uses := indexUses(d)
	for _, t := range d.Tables {
		for _, m := range modIndexes(t) {
			if m.ix.Projection.Type != designer.All {
				continue
			}
			needs := map[int][]string{}
			var patterns []int
			for _, pa := range m.ix.PatternAttributes {
				if _, seen := needs[pa.Pattern]; !seen {
					patterns = append(patterns, pa.Pattern)
				}
				needs[pa.Pattern] = append(needs[pa.Pattern], pa.Attributes...)
			}
			known := true
			if u := uses[[2]string{t.Name, m.ix.Name}]; u != nil {
				for _, n := range u.operations {
					if _, given := needs[n]; given {
						continue
					}
					if u.projections[n] == nil {
						known = false
						break
					}
					patterns = append(patterns, n)
					needs[n] = u.projections[n]
				}
			}
			if !known || len(patterns) == 0 {
				continue
			}
			keys := indexKeyNames(t, m.ix)
			most := 0
			var union []string
			for _, n := range patterns {
				count := 0
				var counted []string
				for _, a := range needs[n] {
					if slices.Contains(keys, a) || slices.Contains(counted, a) {
						continue
					}
					counted = append(counted, a)
					count++
					if !slices.Contains(union, a) {
						union = append(union, a)
					}
				}
				most = max(most, count)
			}
			if most > mod018MaxAttributes {
				continue
			}
			slices.Sort(patterns)
			out = append(out, finding("MOD018", indexPath(t, m.ix)+"/projection",
				m.label(t)+" projects ALL, but "+patternNumbers(patterns)+" "+readsAtMost(len(patterns), most, union)+": "+projectionAdvice(union)))
		}
	}
	return out
}

func patternNumbers(ns []int) string {
	if len(ns) == 1 {
		return "pattern " + strconv.Itoa(ns[0])
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return "patterns " + designer.ListAnd(s)
}

// readsAtMost says what the patterns read, in the verb form their count needs.
func readsAtMost(patterns, most int, union []string) string {
	verb := "read"
	if patterns == 1 {
		verb = "reads"
	}
	if most == 0 {
		return verb + " only its key attributes"
	}
	return verb + " at most " + strconv.Itoa(most) + " other attribute" + plural(most) + " (" + strings.Join(union, ", ") + ")"
}

func projectionAdvice(union []string) string {
	switch {
	case len(union) == 0:
		return "KEYS_ONLY would cut its storage and write cost"
	case len(union) <= maxProjectedPerIndex:
		return "INCLUDE (" + strings.Join(union, ", ") + ") would cut its storage and write cost"
	}
	return "KEYS_ONLY with a GetItem for the rest, or INCLUDE per pattern on separate indexes, would cut its storage and write cost"
}

// mod019Undeclared is MOD019: every attribute the table's indexes, taxonomy and TTL use is a key of
// the table or one of its declared attributes. One finding per attribute names every use.
func mod019Undeclared(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		declared := make(map[string]bool, len(t.Attributes)+2)
		for _, name := range designer.TableKeyNames(t) {
			declared[name] = true
		}
		for _, a := range t.Attributes {
			declared[a.Name] = true
		}
		var order []string
		usesOf := map[string][]string{}
		use := func(attr, where string) {
			if attr == "" || declared[attr] {
				return
			}
			if _, seen := usesOf[attr]; !seen {
				order = append(order, attr)
			}
			if !slices.Contains(usesOf[attr], where) {
				usesOf[attr] = append(usesOf[attr], where)
			}
		}
		for _, m := range modIndexes(t) {
			label := m.kind() + " " + m.ix.Name
			for _, k := range m.ix.PartitionKey {
				use(k.Name, "key of "+label)
			}
			for _, k := range m.ix.SortKey {
				use(k.Name, "key of "+label)
			}
			if m.ix.Projection.Type == designer.Include {
				for _, a := range m.ix.Projection.Attributes {
					use(a, "projection of "+label)
				}
			}
			for _, pa := range m.ix.PatternAttributes {
				for _, a := range pa.Attributes {
					use(a, "pattern "+strconv.Itoa(pa.Pattern)+" on "+label)
				}
			}
		}
		for i, et := range t.EntityTypes {
			for _, tmpl := range [...]string{et.PKTemplate, et.SKTemplate} {
				for _, a := range designer.TemplateAttributes(tmpl) {
					use(a, "key template of "+entityTypeLabel(et, i))
				}
			}
		}
		use(t.TTLAttribute, "TTL")
		for _, attr := range order {
			out = append(out, finding("MOD019", tablePath(t)+"/attributes/"+attr,
				t.Name+" uses "+attr+" ("+strings.Join(usesOf[attr], ", ")+") but does not declare it; add "+attr+" to the table's attributes with its type, or correct the name"))
		}
	}
	return out
}

// entityTypeLabel names the i-th entity type of a table's SK taxonomy in a message: its entity, or
// "entity type 2" for one a design-json file left without a name, so that no message reads
// "key template of )".
func entityTypeLabel(et designer.EntityType, i int) string {
	if strings.TrimSpace(et.Entity) == "" {
		return "entity type " + strconv.Itoa(i+1)
	}
	return et.Entity
}
