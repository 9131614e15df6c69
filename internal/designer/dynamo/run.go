package dynamo

import (
	"errors"
	"math"
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// This file runs decoded reads against the sample items. Decisions worth knowing:
//
//   - Items whose table key is missing, of the wrong type or empty are left out, and of items
//     sharing a table key the last one wins: DynamoDB would have refused the one and overwritten
//     the other.
//   - Query returns items in sort-key order (§3.2). Index entries that share the whole index key
//     follow each other in the order of a hash of their table key, and Scan returns items in the
//     order of a hash of their partition key, then by key: DynamoDB documents neither order, and
//     these are the orders dynalite stores items in, so that pages cut by Limit hold the same items.
//   - Limit counts items read, before the filter. A page also ends once the items read reach 1 MB,
//     measured before filter and projection; the item that crosses 1 MB is still part of the page.
//     The measure is dynalite's model of DynamoDB's internal item size (pageItemSize).
//   - LastEvaluatedKey (the table keys and the index keys of the last item read) is returned
//     whenever Limit or 1 MB ended the page, even when no item follows, as DynamoDB does.
//   - Consumed capacity follows §2.2: Query and Scan sum the sizes of the items (or index entries)
//     read and round once up to 4 KB, at least one unit; GetItem and BatchGetItem round per item
//     and charge a missing item one unit; eventually consistent reads and every GSI read cost half.
//     An LSI read with Select ALL_ATTRIBUTES where the LSI projects fewer attributes is charged its
//     entries, summed, and each item it fetches from the table, whole and rounded by itself.

// OperationResult is what one mapped operation returns against the sample items. For a write
// (write.go) Items holds the items as written, none for a delete, CapacityUnits the base
// table's write units, IndexWrites what the write costs each of the table's indexes, Write the
// write applied to each key (PutItem, UpdateItem, DeleteItem or ConditionCheck) and Keys how many
// keys it was applied to.
type OperationResult struct {
	Items               []designer.Item
	Count, ScannedCount int
	CapacityUnits       float64
	Error               string
	LastEvaluatedKey    designer.Item
	IndexWrites         []IndexWrite
	Write               string
	Keys                int
	// ItemWrites is what a write did to each key; ConditionFailed says that a condition did not
	// hold, so nothing was written (ConditionalCheckFailed).
	ItemWrites      []ItemWrite
	ConditionFailed bool
	// Hint is Error in the room's words, when there are any.
	Hint string
	// BytesRead is what a read's capacity is worked out from: the sizes of the items (or index
	// entries) it read, before its filter and projection.
	BytesRead int
}

// RunOperation evaluates a mapping Operation (op.Op, Table, Index, KeyCondition, Filter, Projection, Limit, Descending, Consistent, Names, Values). Reads (GetItem/Query/Scan/BatchGetItem/TransactGetItems) run against the sample items; for GetItem the Key comes from op.Values matched to the key attributes by a KeyCondition like "pk = :pk AND sk = :sk". Writes (PutItem/UpdateItem/DeleteItem/BatchWriteItem/TransactWriteItems) are evaluated on a scratch copy of the item they write, by the conventions of write.go, without changing the design.
// It remembers nothing between calls; Cache.RunOperation is the same with remembered measurements.
func RunOperation(d designer.Design, op designer.Operation) OperationResult {
	return (*Cache)(nil).RunOperation(d, op)
}

// RunOperation is the package's RunOperation, measuring the items it reads through c.
func (c *Cache) RunOperation(d designer.Design, op designer.Operation) OperationResult {
	if designer.IsWriteOp(op.Op) {
		res, err := runWrite(d, op)
		if err != nil {
			return errorResult(d, op, err)
		}
		return res
	}
	res, err := runOperation(d, op, c)
	if err != nil {
		return errorResult(d, op, err)
	}
	out := OperationResult{Count: res.count, ScannedCount: res.scanned, CapacityUnits: res.units(), BytesRead: res.bytes}
	out.Items = res.items // already in DynamoDB's spelling
	if out.Items == nil {
		out.Items = []designer.Item{}
	}
	if res.lastKey != nil {
		out.LastEvaluatedKey = CanonicalItem(res.lastKey)
	}
	return out
}

// errorResult is the result of an operation DynamoDB refuses, with the room's words for it: a key
// that does not match the schema names the table's key.
func errorResult(d designer.Design, op designer.Operation, err error) OperationResult {
	out := OperationResult{Error: err.Error()}
	var ee *EvalError
	if errors.As(err, &ee) {
		out.Hint = ee.Hint
		if t, _, ok := d.TableByName(op.Table); ok && out.Hint == "" && ee.Message == "The provided key element does not match the schema" {
			out.Hint = keyHint(TableKeyAttrs(t))
		}
		if h := undefinedHint(ee.Message); h != "" {
			out.Hint = h // more to the point than a hint for the whole expression
		}
	}
	return out
}

// undefinedHint puts DynamoDB's refusal of a placeholder that nothing defines in the room's words:
// a value (:x) the operation's values do not give, or a name (#x) it does not name.
func undefinedHint(msg string) string {
	if _, v, ok := strings.Cut(msg, "An expression attribute value used in expression is not defined; attribute value: "); ok {
		return "The operation uses " + v + " but gives it no value: add " + v + "=… to its values (a key field writes its value there too)."
	}
	if _, n, ok := strings.Cut(msg, "An expression attribute name used in the document path is not defined; attribute name: "); ok {
		return "The operation uses " + n + " but does not say which attribute it stands for: write the attribute's name instead, or name " + n + "."
	}
	return ""
}

func runOperation(d designer.Design, op designer.Operation, c *Cache) (readResult, error) {
	req := readRequest{op: op.Op, table: op.Table, index: op.Index, hasIndex: op.Index != "",
		consistent: op.Consistent, forward: !op.Descending, cache: c}
	if op.Limit != nil {
		if *op.Limit < 1 {
			return readResult{}, validationErr("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1", *op.Limit)
		}
		req.limit = *op.Limit
	}
	setNames := func(names map[string]string) {
		if len(names) == 0 {
			return
		}
		req.names, req.hasNames = names, true
		for k := range names {
			req.nameOrder = append(req.nameOrder, k)
		}
		slices.Sort(req.nameOrder)
	}
	req.projection, req.hasProj = op.Projection, op.Projection != ""
	switch op.Op {
	case "Query", "Scan":
		if op.Op == "Scan" && op.KeyCondition != "" {
			return readResult{}, &EvalError{Type: "ValidationException", Message: "a Scan takes no key condition; move it to the filter"}
		}
		req.keyCond, req.hasKeyCond = op.KeyCondition, op.Op == "Query"
		req.filter, req.hasFilter = op.Filter, op.Filter != ""
		setNames(op.Names)
		if len(op.Values) > 0 {
			req.values, req.hasValues = op.Values, true
			for k := range op.Values {
				req.valueOrder = append(req.valueOrder, k)
			}
			slices.Sort(req.valueOrder)
		}
		if err := checkExpressionParams(&req); err != nil {
			return readResult{}, err
		}
		if op.Op == "Query" && op.KeyCondition == "" {
			return readResult{}, validationErr("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
		}
		if err := parseExpressions(&req); err != nil {
			return readResult{}, err
		}
		return runQueryScan(d, req)
	case "GetItem", "BatchGetItem", "TransactGetItems":
		if op.Index != "" {
			return readResult{}, validationErr("%s reads the table, not an index; use a Query on %s", op.Op, op.Index)
		}
		keys, err := KeysFromCondition(op)
		if err != nil {
			return readResult{}, err
		}
		// A GetItem takes only the names its projection uses; those of the key condition were
		// spent building the key.
		used := map[string]string{}
		for k, v := range op.Names {
			if strings.Contains(op.Projection, k) {
				used[k] = v
			}
		}
		setNames(used)
		if err := parseExpressions(&req); err != nil {
			return readResult{}, err
		}
		if op.Op == "GetItem" {
			if len(keys) != 1 {
				return readResult{}, validationErr("GetItem reads one key; its key condition gives %d", len(keys))
			}
			req.key = keys[0]
			return runGet(d, req)
		}
		req.transactional = op.Op == "TransactGetItems"
		req.batchKeys = keys
		results, err := runBatchGet(d, readRequest{op: op.Op, batchTables: []readRequest{req}, batchTableOrder: []string{op.Table}})
		if err != nil {
			return readResult{}, err
		}
		return results[0], nil
	}
	return readResult{}, &EvalError{Type: "not evaluated", Message: "unknown operation " + op.Op}
}

// KeysFromCondition builds the keys of a GetItem or BatchGetItem from a key condition such as
// "pk = :pk AND sk = :sk"; "pk IN (:a, :b)" asks for several keys.
func KeysFromCondition(op designer.Operation) ([]designer.Item, error) {
	bad := validationErr("%s needs a key condition such as \"pk = :pk AND sk = :sk\" to build its key", op.Op)
	if op.KeyCondition == "" {
		return nil, bad
	}
	e, _, msg := ParseCondition(op.KeyCondition, NewExprContext(op.Names, op.Values))
	if msg != "" {
		return nil, validationErr("Invalid KeyConditionExpression: %s", msg)
	}
	keys := []designer.Item{{}}
	var walk func(*condExpr) bool
	walk = func(c *condExpr) bool {
		switch {
		case c.kind == condAnd:
			return walk(c.left) && walk(c.right)
		case c.kind == condCompare && c.op == "=" || c.kind == condIn && op.Op != "GetItem":
		default:
			return false
		}
		attr, vals := c.args[0], c.args[1:]
		if attr.kind != operandPath {
			attr, vals = c.args[1], c.args[:1]
		}
		if attr.kind != operandPath || len(attr.path) != 1 {
			return false
		}
		var next []designer.Item
		for _, k := range keys {
			for _, v := range vals {
				if v.kind != operandVal {
					return false
				}
				nk := CloneItem(k)
				nk[attr.path[0].name] = v.value
				next = append(next, nk)
			}
		}
		keys = next
		return true
	}
	if !walk(e) {
		return nil, bad
	}
	return keys, nil
}

func CloneItem(it designer.Item) designer.Item {
	out := make(designer.Item, len(it)+1)
	for k, v := range it {
		out[k] = v
	}
	return out
}

// readResult is one page of a read.
type readResult struct {
	items          []designer.Item
	count, scanned int
	lastKey        designer.Item
	found          bool
	table, index   string
	local          bool
	tableUnits     float64
	indexUnits     float64
	bytes          int // the sizes of the items read
}

func (r readResult) units() float64 { return r.tableUnits + r.indexUnits }

// consumed is the ConsumedCapacity member of the response, or nil when not asked for.
func (r readResult) consumed(req readRequest) map[string]any {
	if req.returnCapacity != "TOTAL" && req.returnCapacity != "INDEXES" {
		return nil
	}
	c := map[string]any{"TableName": r.table, "CapacityUnits": r.units()}
	if req.returnCapacity == "INDEXES" {
		c["Table"] = map[string]any{"CapacityUnits": r.tableUnits}
		if r.index != "" {
			kind := "GlobalSecondaryIndexes"
			if r.local {
				kind = "LocalSecondaryIndexes"
			}
			c[kind] = map[string]any{r.index: map[string]any{"CapacityUnits": r.indexUnits}}
		}
	}
	return c
}

// readUnits converts bytes read to capacity units: rounded up to 4 KB, at least one unit.
func readUnits(bytes int, factor float64) float64 {
	return math.Max(math.Ceil(float64(bytes)/4096), 1) * factor
}

// target is the table or index a read runs on.
type target struct {
	table     designer.Table
	index     designer.Index
	isIndex   bool
	local     bool
	pk, sk    []designer.KeyAttribute // the key schema read: the table's or the index's
	tableKeys []designer.KeyAttribute
	// startKeyNames are the attributes of a LastEvaluatedKey: the table's keys, then the
	// index's keys that are not table keys.
	startKeyNames []designer.KeyAttribute
	// fetched names the attributes an LSI's entries hold when the read asks for every attribute
	// (Select ALL_ATTRIBUTES) and the LSI projects fewer: each item read is then fetched whole
	// from the table. nil otherwise.
	fetched map[string]bool
}

func KeyAttr(t designer.Table, k designer.KeyAttribute) designer.KeyAttribute {
	if k.Type == "" {
		k.Type = t.DeclaredType(k.Name)
	}
	return k
}

func TableKeyAttrs(t designer.Table) []designer.KeyAttribute {
	keys := []designer.KeyAttribute{KeyAttr(t, t.PartitionKey)}
	if t.SortKey != nil {
		keys = append(keys, KeyAttr(t, *t.SortKey))
	}
	return keys
}

// resolveTarget finds the table and index of a request, with DynamoDB's errors.
func resolveReadTarget(d designer.Design, req readRequest) (target, error) {
	t, _, ok := d.TableByName(req.table)
	if !ok {
		return target{}, notFoundErr()
	}
	tg := target{table: t, tableKeys: TableKeyAttrs(t)}
	tg.pk, tg.sk = tg.tableKeys[:1], tg.tableKeys[1:]
	tg.startKeyNames = tg.tableKeys
	if !req.hasIndex {
		return tg, nil
	}
	ix, local, _, found := t.IndexByName(req.index)
	if !found {
		return target{}, validationErr("The table does not have the specified index: %s", req.index)
	}
	if !local && req.consistent {
		return target{}, validationErr("Consistent reads are not supported on global secondary indexes")
	}
	if req.selectAll && ix.Projection.Type != designer.All {
		if !local {
			return target{}, validationErr("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", ix.Name)
		}
		// An LSI read that asks for every attribute fetches each item whole from the table.
		tg.fetched = map[string]bool{}
		for _, k := range slices.Concat(tg.tableKeys, ix.SortKey) {
			tg.fetched[k.Name] = true
		}
		if ix.Projection.Type == designer.Include {
			for _, a := range ix.Projection.Attributes {
				tg.fetched[a] = true
			}
		}
		ix.Projection = designer.Projection{Type: designer.All}
	}
	tg.index, tg.isIndex, tg.local = ix, true, local
	if local {
		tg.pk = tg.tableKeys[:1]
	} else {
		tg.pk = nil
		for _, k := range ix.PartitionKey {
			tg.pk = append(tg.pk, KeyAttr(t, k))
		}
	}
	tg.sk = nil
	for _, k := range ix.SortKey {
		tg.sk = append(tg.sk, KeyAttr(t, k))
	}
	tg.startKeyNames = slices.Clone(tg.tableKeys)
	for _, k := range slices.Concat(tg.pk, tg.sk) {
		if !slices.ContainsFunc(tg.startKeyNames, func(x designer.KeyAttribute) bool { return x.Name == k.Name }) {
			tg.startKeyNames = append(tg.startKeyNames, k)
		}
	}
	return tg, nil
}

// storedItems are the table's items DynamoDB could hold: with a valid table key, the last of
// any that share one.
func storedItems(t designer.Table, keys []designer.KeyAttribute) []designer.Item {
	out, _ := storedItemsAt(t, keys)
	return out
}

// storedItemsAt is storedItems with the position in t.Items of each item.
func storedItemsAt(t designer.Table, keys []designer.KeyAttribute) ([]designer.Item, []int32) {
	at := map[string]int{}
	var out []designer.Item
	var pos []int32
	for j, si := range t.Items {
		sig, ok := validKey(si.Item, keys)
		if !ok {
			continue
		}
		if i, dup := at[sig]; dup {
			out[i], pos[i] = si.Item, int32(j)
			continue
		}
		at[sig] = len(out)
		out = append(out, si.Item)
		pos = append(pos, int32(j))
	}
	return out, pos
}

func validKey(it designer.Item, keys []designer.KeyAttribute) (string, bool) {
	var sb strings.Builder
	for _, k := range keys {
		v, ok := it[k.Name]
		if !ok || v.Type != k.Type || (v.Type == designer.S && v.S == "") || (v.Type == designer.B && len(v.B) == 0) {
			return "", false
		}
		sb.WriteString(canonicalText(v))
		sb.WriteByte(0)
	}
	return sb.String(), true
}

// entries are the items or index entries a read sees. An index's entries are remembered by c, if
// any, for as long as it holds the table's items (Cache.indexEntries).
func (tg target) entries(c *Cache) []designer.Item {
	if tg.isIndex {
		return c.indexEntries(tg)
	}
	return storedItems(tg.table, tg.tableKeys)
}

// buildIndexEntries is an index's entries in index order: those of the items DynamoDB could hold.
func (tg target) buildIndexEntries() []designer.Item {
	entries, _ := tg.buildIndexEntriesAt()
	return entries
}

// buildIndexEntriesAt is buildIndexEntries with the position in the table's items of the item of
// each entry.
func (tg target) buildIndexEntriesAt() ([]designer.Item, []int32) {
	items, at := storedItemsAt(tg.table, tg.tableKeys)
	t := tg.table
	t.Items = make([]designer.SampleItem, len(items))
	for i, it := range items {
		t.Items[i] = designer.SampleItem{Item: it}
	}
	view, srcs := indexItems(t, tg.index, tg.local, -1)
	out := make([]designer.Item, len(view.Rows))
	for i, r := range view.Rows {
		out[i], srcs[i] = r.Item, at[srcs[i]]
	}
	return out, srcs
}

// checkKeyPiece is dynalite's validateKeyPiece: the attribute is there, has the key's type, is
// not empty and not too long.
func checkKeyPiece(key designer.Item, k designer.KeyAttribute, isHash bool) error {
	v, ok := key[k.Name]
	if !ok || v.Type != k.Type {
		return validationErr("The provided key element does not match the schema")
	}
	if (v.Type == designer.S && v.S == "") || (v.Type == designer.B && len(v.B) == 0) {
		kind := "string"
		if v.Type == designer.B {
			kind = "binary"
		}
		return validationErr("One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", kind, k.Name)
	}
	n := len(v.S)
	if v.Type == designer.B {
		n = len(v.B)
	}
	switch {
	case v.Type == designer.N:
	case isHash && n > 2048:
		return validationErr("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")
	case !isHash && n > 1024:
		return validationErr("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes")
	}
	return nil
}

// CheckTableKey is dynalite's validateKey against the table's key schema.
func CheckTableKey(key designer.Item, keys []designer.KeyAttribute) error {
	if len(key) != len(keys) {
		return validationErr("The provided key element does not match the schema")
	}
	for i, k := range keys {
		if err := checkKeyPiece(key, k, i == 0); err != nil {
			return err
		}
	}
	return nil
}

// checkNestedKeyPaths refuses "." and "[n]" into any key attribute of the table or its indexes.
func checkNestedKeyPaths(nested map[string]bool, t designer.Table) error {
	if len(nested) == 0 {
		return nil
	}
	for _, k := range TableKeyAttrs(t) {
		if nested[k.Name] {
			return validationErr("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: %s", k.Name)
		}
	}
	for _, ix := range t.GSIs {
		for _, k := range slices.Concat(ix.PartitionKey, ix.SortKey) {
			if nested[k.Name] {
				return validationErr("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: %s", k.Name)
			}
		}
	}
	for _, ix := range t.LSIs {
		for _, k := range ix.SortKey {
			if nested[k.Name] {
				return validationErr("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: %s", k.Name)
			}
		}
	}
	return nil
}

func consistencyFactor(consistent bool) float64 {
	if consistent {
		return 1
	}
	return 0.5
}

// runGet reads one item by its key, found through the request's Cache's key order of the table
// (findStored).
func runGet(d designer.Design, req readRequest) (readResult, error) {
	t, _, ok := d.TableByName(req.table)
	if !ok {
		return readResult{}, notFoundErr()
	}
	keys := TableKeyAttrs(t)
	if err := CheckTableKey(req.key, keys); err != nil {
		return readResult{}, err
	}
	if err := checkNestedKeyPaths(req.projNested, t); err != nil {
		return readResult{}, err
	}
	res := readResult{table: t.Name}
	factor := consistencyFactor(req.consistent)
	if req.transactional {
		factor = 2
	}
	if it, ok := req.cache.findStored(t, keys, req.key); ok {
		res.found, res.count, res.scanned = true, 1, 1
		res.bytes = designer.ItemSize(it)
		res.tableUnits = readUnits(res.bytes, factor)
		if req.hasProj {
			it = projectItem(it, req.projPaths)
		}
		res.items = []designer.Item{CanonicalItem(it)}
		return res, nil
	}
	res.tableUnits = factor
	return res, nil
}

// FindStored is the stored item with the given (valid) table key: of items sharing a key the last
// one, as storedItems keeps.
func FindStored(t designer.Table, keys []designer.KeyAttribute, key designer.Item) (designer.Item, bool) {
	conds := make([]*keyCond, len(keys))
	for i, k := range keys {
		conds[i] = &keyCond{op: "EQ", vals: []designer.Value{key[k.Name]}}
	}
	vals := make([]designer.Value, len(keys))
	for i := len(t.Items) - 1; i >= 0; i-- {
		if tableKeyMatches(t.Items[i].Item, keys, conds, vals) {
			return t.Items[i].Item, true
		}
	}
	return nil, false
}

// findStored is FindStored, found by key in c's key order of t (Cache.KeyOrder) rather than by
// reading every item; a nil c reads them.
func (c *Cache) findStored(t designer.Table, keys []designer.KeyAttribute, key designer.Item) (designer.Item, bool) {
	if c == nil || len(t.Items) == 0 || len(keys) != len(designer.TableKeyNames(t)) {
		return FindStored(t, keys, key)
	}
	var sk designer.Value
	if t.SortKey != nil {
		sk = key[t.SortKey.Name]
	}
	conds := make([]*keyCond, len(keys))
	for i, k := range keys {
		conds[i] = &keyCond{op: "EQ", vals: []designer.Value{key[k.Name]}}
	}
	vals := make([]designer.Value, len(keys))
	at := c.KeyOrder(t).Holding(key[t.PartitionKey.Name], sk)
	for i := len(at) - 1; i >= 0; i-- {
		if it := t.Items[at[i]].Item; tableKeyMatches(it, keys, conds, vals) {
			return it, true
		}
	}
	return nil, false
}

func runBatchGet(d designer.Design, req readRequest) ([]readResult, error) {
	for _, tr := range req.batchTables {
		t, _, ok := d.TableByName(tr.table)
		if !ok {
			return nil, notFoundErr()
		}
		for _, key := range tr.batchKeys {
			if err := CheckTableKey(key, TableKeyAttrs(t)); err != nil {
				return nil, err
			}
		}
	}
	out := make([]readResult, len(req.batchTables))
	for i, tr := range req.batchTables {
		agg := readResult{table: tr.table}
		for _, key := range tr.batchKeys {
			g := tr
			g.key = key
			res, err := runGet(d, g)
			if err != nil {
				return nil, err
			}
			agg.tableUnits += res.tableUnits
			agg.bytes += res.bytes
			agg.items = append(agg.items, res.items...)
		}
		agg.count, agg.scanned = len(agg.items), len(agg.items)
		out[i] = agg
	}
	return out, nil
}
