package dynamo

import (
	"crypto/md5"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

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

// OperationResult is what one mapped operation returns against the sample items. For a write
// (eval_write.go) Items holds the items as written, none for a delete, CapacityUnits the base
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
}

// RunOperation evaluates a mapping Operation (op.Op, Table, Index, KeyCondition, Filter, Projection, Limit, Descending, Consistent, Names, Values). Reads (GetItem/Query/Scan/BatchGetItem/TransactGetItems) run against the sample items; for GetItem the Key comes from op.Values matched to the key attributes by a KeyCondition like "pk = :pk AND sk = :sk". Writes (PutItem/UpdateItem/DeleteItem/BatchWriteItem/TransactWriteItems) are evaluated on a scratch copy of the item they write, by the conventions of eval_write.go, without changing the design.
// It remembers nothing between calls; Cache.RunOperation is the same with remembered measurements.
func RunOperation(d designer.Design, op designer.Operation) OperationResult {
	return (*Cache)(nil).RunOperation(d, op)
}

// RunOperation is the package's RunOperation, measuring the items it reads through c.
func (c *Cache) RunOperation(d designer.Design, op designer.Operation) OperationResult {
	if designer.IsWriteOp(op.Op) {
		res, err := runWrite(d, op)
		if err != nil {
			return OperationResult{Error: err.Error()}
		}
		return res
	}
	res, err := runOperation(d, op, c)
	if err != nil {
		return OperationResult{Error: err.Error()}
	}
	out := OperationResult{Count: res.count, ScannedCount: res.scanned, CapacityUnits: res.units()}
	out.Items = res.items // already in DynamoDB's spelling
	if out.Items == nil {
		out.Items = []designer.Item{}
	}
	if res.lastKey != nil {
		out.LastEvaluatedKey = CanonicalItem(res.lastKey)
	}
	return out
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

// keysFromCondition builds the keys of a GetItem or BatchGetItem from a key condition such as
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
	at := map[string]int{}
	var out []designer.Item
	for _, si := range t.Items {
		sig, ok := validKey(si.Item, keys)
		if !ok {
			continue
		}
		if i, dup := at[sig]; dup {
			out[i] = si.Item
			continue
		}
		at[sig] = len(out)
		out = append(out, si.Item)
	}
	return out
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

// entries are the items or index entries a read sees.
func (tg target) entries() []designer.Item {
	items := storedItems(tg.table, tg.tableKeys)
	if !tg.isIndex {
		return items
	}
	t := tg.table
	t.Items = make([]designer.SampleItem, len(items))
	for i, it := range items {
		t.Items[i] = designer.SampleItem{Item: it}
	}
	rows := IndexItems(t, tg.index, tg.local).Rows
	out := make([]designer.Item, len(rows))
	for i, r := range rows {
		out[i] = r.Item
	}
	return out
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

// checkTableKey is dynalite's validateKey against the table's key schema.
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
	if it, ok := FindStored(t, keys, req.key); ok {
		res.found, res.count, res.scanned = true, 1, 1
		res.tableUnits = readUnits(designer.ItemSize(it), factor)
		if req.hasProj {
			it = projectItem(it, req.projPaths)
		}
		res.items = []designer.Item{CanonicalItem(it)}
		return res, nil
	}
	res.tableUnits = factor
	return res, nil
}

// findStored is the stored item with the given (valid) table key: of items sharing a key the last
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
			agg.items = append(agg.items, res.items...)
		}
		agg.count, agg.scanned = len(agg.items), len(agg.items)
		out[i] = agg
	}
	return out, nil
}

// keyCond is one condition of a KeyConditionExpression, as DynamoDB's KeyConditions.
type keyCond struct {
	op   string // EQ LT LE GT GE BETWEEN BEGINS_WITH
	vals []designer.Value
}

var swapped = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
var comparisonNames = map[string]string{"=": "EQ", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}

// keyConditions turns a parsed KeyConditionExpression into one condition per attribute, with
// DynamoDB's messages for what a key condition cannot hold.
func keyConditions(e *condExpr) (map[string]keyCond, []string, error) {
	conds := map[string]keyCond{}
	var order []string
	var walk func(*condExpr) error
	walk = func(c *condExpr) error {
		switch c.kind {
		case condAnd:
			if err := walk(c.left); err != nil {
				return err
			}
			return walk(c.right)
		case condOr:
			return validationErr("Invalid operator used in KeyConditionExpression: OR")
		case condNot:
			return validationErr("Invalid operator used in KeyConditionExpression: NOT")
		case condIn:
			return validationErr("Invalid operator used in KeyConditionExpression: IN")
		}
		var args []operand
		op := ""
		switch c.kind {
		case condCompare:
			if c.op == "<>" {
				return validationErr("Invalid operator used in KeyConditionExpression: <>")
			}
			args, op = c.args, c.op
		case condBetween:
			if c.args[0].kind != operandPath {
				return validationErr("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand")
			}
			args, op = c.args, "BETWEEN"
		case condFunc:
			switch c.fn.name {
			case "begins_with":
			case "size":
				return validationErr("KeyConditionExpressions cannot contain nested operations")
			default:
				return validationErr("Invalid operator used in KeyConditionExpression: %s", c.fn.name)
			}
			if c.fn.args[0].kind != operandPath {
				return validationErr("Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand")
			}
			args, op = c.fn.args, "BEGINS_WITH"
		}
		attr, attrAt := "", 0
		for i, a := range args {
			switch a.kind {
			case operandPath:
				if attr != "" {
					return validationErr("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition")
				}
				if len(a.path) > 1 {
					return validationErr("KeyConditionExpressions cannot have conditions on nested attributes")
				}
				attr, attrAt = a.path[0].name, i
			case operandFunc:
				return validationErr("KeyConditionExpressions cannot contain nested operations")
			}
		}
		if attr == "" {
			return validationErr("Invalid condition in KeyConditionExpression: No key attribute specified")
		}
		if _, dup := conds[attr]; dup {
			return validationErr("KeyConditionExpressions must only contain one condition per key")
		}
		var vals []designer.Value
		for i, a := range args {
			if i != attrAt {
				vals = append(vals, a.value)
			}
		}
		if c.kind == condCompare {
			o := c.op
			if attrAt != 0 {
				o = swapped[o]
			}
			op = comparisonNames[o]
		}
		conds[attr] = keyCond{op: op, vals: vals}
		order = append(order, attr)
		return nil
	}
	if err := walk(e); err != nil {
		return nil, nil, err
	}
	allowed := map[string][]designer.Type{"EQ": {designer.S, designer.N, designer.B, designer.SS, designer.NS, designer.BS}, "BEGINS_WITH": {designer.S, designer.B}}
	for _, attr := range order {
		c := conds[attr]
		types, ok := allowed[c.op]
		if !ok {
			types = []designer.Type{designer.S, designer.N, designer.B}
		}
		for _, v := range c.vals {
			if !slices.Contains(types, v.Type) {
				return nil, nil, validationErr("One or more parameter values were invalid: ComparisonOperator %s is not valid for %s AttributeValue type", c.op, v.Type)
			}
		}
	}
	return conds, order, nil
}

// matches reports whether a key value satisfies the condition.
func (c keyCond) matches(v designer.Value) bool {
	if v.Type != c.vals[0].Type {
		return false
	}
	if v.Type == designer.S && c.op == "EQ" {
		return v.S == c.vals[0].S
	}
	x := compareScalar(v, c.vals[0])
	switch c.op {
	case "EQ":
		return x == 0
	case "LT":
		return x < 0
	case "LE":
		return x <= 0
	case "GT":
		return x > 0
	case "GE":
		return x >= 0
	case "BETWEEN":
		return x >= 0 && compareScalar(v, c.vals[1]) <= 0
	case "BEGINS_WITH":
		if v.Type == designer.B {
			return strings.HasPrefix(string(v.B), string(c.vals[0].B))
		}
		return strings.HasPrefix(v.S, c.vals[0].S)
	}
	return false
}

// checkQueryKey applies DynamoDB's checks of a Query's key conditions and ExclusiveStartKey to the
// key schema read, attribute by attribute, and returns the conditions on the sort attributes.
// A multi-attribute GSI key needs equality on every partition attribute, and conditions on a
// leading run of its sort attributes, all equalities but the last.
func checkQueryKey(tg target, req readRequest, conds map[string]keyCond) error {
	nConds := len(conds)
	keys := slices.Concat(tg.pk, tg.sk)
	onKeys := 0
	for _, k := range keys {
		if _, ok := conds[k.Name]; ok {
			onKeys++
		}
	}
	rangeDone := false
	for i, k := range keys {
		isHash := i < len(tg.pk)
		if req.hasStartKey {
			if _, ok := req.startKey[k.Name]; !ok {
				return validationErr("The provided starting key is invalid")
			}
			if err := checkKeyPiece(req.startKey, k, isHash); err != nil {
				return err
			}
		}
		if isHash && len(tg.sk) == 0 && nConds > len(tg.pk) {
			return validationErr("Query key condition not supported")
		}
		c, ok := conds[k.Name]
		if !ok {
			if isHash || nConds > onKeys || laterSortCondition(tg.sk, conds, k.Name) {
				return validationErr("Query condition missed key schema element: %s", k.Name)
			}
			rangeDone = true
			continue
		}
		if rangeDone {
			return validationErr("Query condition missed key schema element: %s", k.Name)
		}
		for _, v := range c.vals {
			if v.Type != k.Type {
				return validationErr("One or more parameter values were invalid: Condition parameter type does not match schema type")
			}
		}
		if isHash && c.op != "EQ" {
			return validationErr("Query key condition not supported")
		}
		if !isHash && c.op != "EQ" {
			rangeDone = true
		}
	}
	if nConds > onKeys {
		for attr := range conds {
			if !slices.ContainsFunc(keys, func(k designer.KeyAttribute) bool { return k.Name == attr }) {
				return validationErr("Query condition missed key schema element: %s", attr)
			}
		}
	}
	return nil
}

func laterSortCondition(sk []designer.KeyAttribute, conds map[string]keyCond, after string) bool {
	seen := false
	for _, k := range sk {
		if seen {
			if _, ok := conds[k.Name]; ok {
				return true
			}
		}
		if k.Name == after {
			seen = true
		}
	}
	return false
}

func runQueryScan(d designer.Design, req readRequest) (readResult, error) {
	isQuery := req.op == "Query"
	tg, err := resolveReadTarget(d, req)
	if err != nil {
		return readResult{}, err
	}
	if req.hasStartKey && len(req.startKey) != len(tg.startKeyNames) {
		if isQuery || tg.isIndex {
			return readResult{}, validationErr("The provided starting key is invalid")
		}
		return readResult{}, validationErr("The provided starting key is invalid: The provided key element does not match the schema")
	}
	var conds map[string]keyCond
	if isQuery {
		var order []string
		conds, order, err = keyConditions(req.keyExpr)
		if err != nil {
			return readResult{}, err
		}
		if n := len(order); n < 1 || n > max(2, len(tg.pk)+len(tg.sk)) {
			return readResult{}, validationErr("Conditions can be of length 1 or 2 only")
		}
		if err := checkQueryKey(tg, req, conds); err != nil {
			return readResult{}, err
		}
	} else if req.hasStartKey && tg.isIndex {
		for i, k := range slices.Concat(tg.pk, tg.sk) {
			if _, ok := req.startKey[k.Name]; !ok {
				return readResult{}, validationErr("The provided starting key is invalid")
			}
			if err := checkKeyPiece(req.startKey, k, i < len(tg.pk)); err != nil {
				return readResult{}, err
			}
		}
	}
	if req.hasStartKey {
		tableStart := designer.Item{}
		for _, k := range tg.tableKeys {
			if v, ok := req.startKey[k.Name]; ok {
				tableStart[k.Name] = v
			}
		}
		if err := CheckTableKey(tableStart, tg.tableKeys); err != nil {
			return readResult{}, validationErr("The provided starting key is invalid: %s", err.(*EvalError).Message)
		}
		if isQuery {
			if err := checkStartKeyInQuery(tg, req, conds); err != nil {
				return readResult{}, err
			}
		}
	}
	if err := checkNestedKeyPaths(req.projNested, tg.table); err != nil {
		return readResult{}, err
	}
	if isQuery && req.filterParser != nil {
		for _, k := range slices.Concat(tg.pk, tg.sk) {
			if req.filterParser.pathHeads[k.Name] {
				return readResult{}, validationErr("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", k.Name)
			}
		}
	}
	if req.filterParser != nil {
		if err := checkNestedKeyPaths(req.filterParser.nestedPaths, tg.table); err != nil {
			return readResult{}, err
		}
	}
	return readPage(tg, req, conds), nil
}

// checkStartKeyInQuery refuses an ExclusiveStartKey outside the query's key conditions, with
// dynalite's messages.
func checkStartKeyInQuery(tg target, req readRequest, conds map[string]keyCond) error {
	samePartition := true
	for _, k := range tg.pk {
		if designer.CompareKeyValues(req.startKey[k.Name], conds[k.Name].vals[0]) != 0 {
			samePartition = false
		}
	}
	var rangeConds []designer.KeyAttribute
	for _, k := range tg.sk {
		if _, ok := conds[k.Name]; ok {
			rangeConds = append(rangeConds, k)
		}
	}
	if len(rangeConds) == 0 {
		if !samePartition {
			return validationErr("The provided starting key is outside query boundaries based on provided conditions")
		}
		return nil
	}
	for _, k := range rangeConds {
		if !conds[k.Name].matches(req.startKey[k.Name]) {
			return validationErr("The provided starting key does not match the range key predicate")
		}
	}
	if !samePartition {
		return validationErr("The query can return at most one row and cannot be restarted")
	}
	return nil
}

// entryOrder is an entry prepared for sorting. It is kept small: a large partition holds
// thousands of them.
type entryOrder struct {
	item   designer.Item
	out    designer.Item // the item returned, in DynamoDB's spelling, when there is no projection
	bucket string        // Scan: the hash of the partition key
	tie    string        // index entries: the hash of the table key, computed when first needed
	pk, sk []keyPart     // pk for Scan only
	seq    int32         // position among the items read, to keep sorting stable
	src    int32         // index in the table's items, or -1 for an index entry
	// Worked out only for the entries a page reads (measured):
	page, size int32 // pageItemSize and ItemSize
	measured   bool
	pass       bool // the filter keeps it
}

// parallelMeasureMin is the number of unmeasured entries from which two goroutines measure them.
const parallelMeasureMin = 4096

// pageScratch holds readPage's entry and key part arrays between reads. They are cleared before
// they go back, so a pooled array never keeps items alive.
type pageScratch struct {
	recs  []entryOrder
	parts []keyPart
}

var pageScratchPool = sync.Pool{New: func() any { return new(pageScratch) }}

// oneMB is the most a Query or Scan page reads.
const oneMB = 1 << 20

func readPage(tg target, req readRequest, conds map[string]keyCond) readResult {
	isQuery := req.op == "Query"
	res := readResult{table: tg.table.Name}
	if tg.isIndex {
		res.index, res.local = tg.index.Name, tg.local
	}
	keys := slices.Concat(tg.pk, tg.sk)
	// The condition on each key attribute, nil where there is none: looked up once, not per item.
	keyConds := make([]*keyCond, len(keys))
	for i, k := range keys {
		if c, ok := conds[k.Name]; ok {
			keyConds[i] = &c
		}
	}
	rangeKey := ""
	if tg.table.SortKey != nil {
		rangeKey = tg.table.SortKey.Name
	}
	// measure works out what reading an entry needs: its sizes, the filter's verdict and the item
	// returned. Entries are measured in their stored order, which walks memory far more locally
	// than key order does: for a large partition that is most of the cost. Without a Limit (or
	// with a large one) every entry matching the key conditions is measured as it is found;
	// otherwise only those the Limit lets the page read, a chunk at a time.
	measured := func(e *entryOrder, page, size int, canonical bool) {
		e.page, e.size = int32(page), int32(size)
		e.pass = req.filterExpr == nil || evalCondition(req.filterExpr, e.item)
		if e.pass && !req.hasProj {
			e.out = e.item
			if !canonical {
				e.out = CanonicalItem(e.item)
			}
		}
		e.measured = true
	}
	// Table items' measurements are remembered by the caller's Cache, if any (cache.go).
	var memo *itemMeasures
	if !tg.isIndex {
		memo = req.cache.measuresFor(tg.table.Items, rangeKey)
	}
	measure := func(e *entryOrder) {
		remembered := memo != nil && e.src >= 0
		if remembered {
			if page, size, canonical, ok := memo.get(int(e.src)); ok {
				measured(e, page, size, canonical)
				return
			}
		}
		page, size, canonical, _, _ := measureItem(e.item, rangeKey)
		if remembered {
			memo.put(int(e.src), page, size, canonical)
		}
		measured(e, page, size, canonical)
	}
	eager := req.limit == 0 || req.limit >= len(tg.table.Items)/4
	// Entries live in one array and their key parts in another, so that a large partition costs
	// few allocations.
	// Both are reused from read to read (pageScratch), since a large partition makes them large.
	scratch := pageScratchPool.Get().(*pageScratch)
	recs := scratch.recs[:0]
	parts := scratch.parts[:0]
	defer func() {
		clear(recs)
		clear(parts)
		scratch.recs, scratch.parts = recs[:0], parts[:0]
		pageScratchPool.Put(scratch)
	}()
	if tg.isIndex {
		for _, it := range tg.entries() {
			if isQuery && !keyConditionsMatch(it, keys, keyConds) {
				continue
			}
			recs = append(recs, entryOrder{item: it, seq: int32(len(recs)), src: -1})
			parts = appendEntryParts(parts, &recs[len(recs)-1], tg, !isQuery)
		}
	} else {
		// Table items are checked here rather than through storedItems, which would build a
		// signature per item: duplicates of a key end up next to each other once sorted. Each
		// key attribute is looked up once for the key check, the key condition and the sort.
		vals := make([]designer.Value, len(keys))
		// A table Query checks the partition key first, by itself, and the sort key only for
		// the items of the partition.
		onePass := isQuery && len(keys) == 2 && keys[1].Name == rangeKey
		for i, si := range tg.table.Items {
			if onePass {
				pv, ok := si.Item[keys[0].Name]
				if !validKeyValue(pv, ok, keys[0]) || keyConds[0] != nil && !keyConds[0].matches(pv) {
					continue
				}
				sv, ok := si.Item[rangeKey]
				if !validKeyValue(sv, ok, keys[1]) || keyConds[1] != nil && !keyConds[1].matches(sv) {
					continue
				}
				recs = append(recs, entryOrder{item: si.Item, seq: int32(len(recs)), src: int32(i)})
				parts = append(parts, newKeyPart(sv))
				continue
			}
			if !tableKeyMatches(si.Item, keys, keyConds, vals) {
				continue
			}
			recs = append(recs, entryOrder{item: si.Item, seq: int32(len(recs)), src: int32(i)})
			e := &recs[len(recs)-1]
			if !isQuery {
				e.bucket = hashPrefix(vals[:len(tg.pk)]...)
				for _, v := range vals[:len(tg.pk)] {
					parts = append(parts, newKeyPart(v))
				}
			}
			for _, v := range vals[len(tg.pk):] {
				parts = append(parts, newKeyPart(v))
			}
		}
	}
	if eager {
		// In stored order, which walks memory far more locally than key order does. Items not
		// measured before (a design just loaded) are measured by two goroutines when there are
		// many: the walk waits on memory, and two walks overlap their waits.
		if len(recs) >= parallelMeasureMin && (memo == nil || !memo.known(int(recs[0].src)) && !memo.known(int(recs[len(recs)-1].src))) {
			half := len(recs) / 2
			var wg sync.WaitGroup
			wg.Go(func() {
				for i := range recs[:half] {
					measure(&recs[i])
				}
			})
			for i := half; i < len(recs); i++ {
				measure(&recs[i])
			}
			wg.Wait()
		} else {
			for i := range recs {
				measure(&recs[i])
			}
		}
	}
	if !isQuery || tg.isIndex {
		packKeyTexts(parts) // sortQueryEntries packs them when it needs to
	}
	stride := len(tg.sk)
	if !isQuery {
		stride += len(tg.pk)
	}
	for i := range recs {
		recs[i].setParts(parts[i*stride:(i+1)*stride], tg, !isQuery)
	}
	var start *entryOrder
	if req.hasStartKey {
		start = &entryOrder{item: req.startKey, seq: -1, src: -1}
		start.setParts(appendEntryParts(nil, start, tg, !isQuery), tg, !isQuery)
	}
	cmp := func(a, b *entryOrder) int {
		if !isQuery {
			if c := strings.Compare(a.bucket, b.bucket); c != 0 {
				return c
			}
			if c := compareKeyParts(a.pk, b.pk); c != 0 {
				return c
			}
		}
		if c := compareKeyParts(a.sk, b.sk); c != 0 || !tg.isIndex {
			return c
		}
		return strings.Compare(a.tieHash(tg), b.tieHash(tg))
	}
	var order []*entryOrder
	if isQuery && !tg.isIndex {
		order = sortQueryEntries(recs, parts, len(tg.sk))
	} else {
		order = make([]*entryOrder, len(recs))
		for i := range recs {
			order[i] = &recs[i]
		}
		slices.SortFunc(order, func(a, b *entryOrder) int {
			if c := cmp(a, b); c != 0 {
				return c
			}
			return int(a.seq - b.seq)
		})
	}
	if !tg.isIndex && !isQuery {
		// Of items sharing a table key the last written wins, as a later put overwrites
		// (sortQueryEntries does this for a table Query).
		kept := order[:0]
		for i, e := range order {
			if i+1 < len(order) && cmp(e, order[i+1]) == 0 {
				continue
			}
			kept = append(kept, e)
		}
		order = kept
	}
	forward := req.forward || !isQuery
	if !forward {
		slices.Reverse(order)
	}
	if start != nil {
		i := 0
		for i < len(order) {
			c := cmp(order[i], start)
			if forward && c > 0 || !forward && c < 0 {
				break
			}
			i++
		}
		order = order[i:]
	}

	// The entries are read in key order, a chunk at a time; reading stops at Limit or 1 MB.
	const chunk = 512
	pageBytes, readBytes := 0, 0
	var last designer.Item
	var pending []*entryOrder
	full := func() bool { return req.limit > 0 && res.scanned >= req.limit || pageBytes >= oneMB }
	for from := 0; from < len(order) && !full(); from += chunk {
		part := order[from:min(from+chunk, len(order))]
		if req.limit > 0 && len(part) > req.limit-res.scanned {
			part = part[:req.limit-res.scanned]
		}
		pending = pending[:0]
		for _, e := range part {
			if !e.measured {
				pending = append(pending, e)
			}
		}
		slices.SortFunc(pending, func(a, b *entryOrder) int { return int(a.seq - b.seq) })
		for _, e := range pending {
			measure(e)
		}
		for _, e := range part {
			if pageBytes >= oneMB {
				break
			}
			res.scanned++
			pageBytes += int(e.page)
			readBytes += int(e.size)
			last = e.item
			if !e.pass {
				continue
			}
			it := e.out
			if req.hasProj {
				it = CanonicalItem(projectItem(e.item, req.projPaths))
			}
			res.items = append(res.items, it)
		}
	}
	res.count = len(res.items)
	if (req.limit > 0 && res.scanned >= req.limit || pageBytes >= oneMB) && last != nil {
		res.lastKey = designer.Item{}
		for _, k := range tg.startKeyNames {
			if v, ok := last[k.Name]; ok {
				res.lastKey[k.Name] = v
			}
		}
	}
	factor := consistencyFactor(req.consistent && !(tg.isIndex && !tg.local))
	if tg.isIndex {
		res.indexUnits = readUnits(readBytes, factor)
	} else {
		res.tableUnits = readUnits(readBytes, factor)
	}
	return res
}

// packKeyTexts copies the key parts' texts into one block: sorting compares them again and again,
// and side by side they stay in the cache where the items' own strings are spread over the heap.
func packKeyTexts(parts []keyPart) {
	n := 0
	for _, p := range parts {
		n += len(p.text)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, p := range parts {
		sb.WriteString(p.text)
	}
	block, at := sb.String(), 0
	for i := range parts {
		l := len(parts[i].text)
		parts[i].text = block[at : at+l]
		at += l
	}
}

// sortQueryEntries orders a table Query's entries by their sort key parts, ties by position, and
// keeps the last of entries sharing a key.
// It sorts positions rather than records: swapping integers needs no write barriers and the
// comparison reads the flat parts array directly, which keeps a 10,000-item partition fast.
// Sample items often come in key order already, which is checked first.
func sortQueryEntries(recs []entryOrder, parts []keyPart, stride int) []*entryOrder {
	idx := make([]int32, len(recs))
	for i := range idx {
		idx[i] = int32(i)
	}
	byKey := func(a, b int32) int {
		if c := compareKeyParts(parts[int(a)*stride:int(a+1)*stride], parts[int(b)*stride:int(b+1)*stride]); c != 0 {
			return c
		}
		return int(a - b)
	}
	switch {
	case slices.IsSortedFunc(idx, byKey):
	case stride == 1 && textOnly(parts):
		// One string or binary sort key, the usual case: comparing texts directly is faster.
		// Each text is led by the 8 bytes after the prefix all share, as a number, so that most
		// comparisons compare two integers.
		common := len(parts[0].text)
		for i := 1; i < len(parts) && common > 0; i++ {
			t := parts[i].text
			n := min(common, len(t))
			j := 0
			for j < n && t[j] == parts[0].text[j] {
				j++
			}
			common = j
		}
		keyed := make([]textAt, len(idx))
		for i := range keyed {
			t := parts[i].text[common:]
			var lead uint64
			for j := range 8 {
				lead <<= 8
				if j < len(t) {
					lead |= uint64(t[j])
				}
			}
			keyed[i] = textAt{lead, int32(i)}
		}
		radixByLead(keyed)
		// Texts that share their lead are ordered by the rest, ties kept in position order.
		for i := 0; i < len(keyed); {
			j := i + 1
			for j < len(keyed) && keyed[j].lead == keyed[i].lead {
				j++
			}
			if j-i > 1 {
				slices.SortStableFunc(keyed[i:j], func(a, b textAt) int { return strings.Compare(parts[a.at].text, parts[b.at].text) })
			}
			i = j
		}
		for i, k := range keyed {
			idx[i] = k.at
		}
	default:
		packKeyTexts(parts)
		slices.SortFunc(idx, byKey)
	}
	// Of items sharing a table key the last written wins, as a later put overwrites: ties are
	// in position order, so the last of a run is kept.
	kept := idx[:0]
	for i, j := range idx {
		if i+1 < len(idx) && compareKeyParts(parts[int(j)*stride:int(j+1)*stride], parts[int(idx[i+1])*stride:int(idx[i+1]+1)*stride]) == 0 {
			continue
		}
		kept = append(kept, j)
	}
	idx = kept
	order := make([]*entryOrder, len(idx))
	for i, j := range idx {
		order[i] = &recs[j]
	}
	return order
}

// textAt is a text key's leading bytes and its entry's position: no pointers, so that the
// collector need not scan it.
type textAt struct {
	lead uint64
	at   int32
}

// radixByLead sorts by lead, keeping the order of equal leads: a byte at a time from the last,
// skipping the bytes all leads share.
func radixByLead(keyed []textAt) {
	buf := make([]textAt, len(keyed))
	src, dst := keyed, buf
	for shift := 0; shift < 64; shift += 8 {
		var count [257]int
		for i := range src {
			count[int(byte(src[i].lead>>shift))+1]++
		}
		if count[int(byte(src[0].lead>>shift))+1] == len(src) {
			continue
		}
		for b := 1; b < 257; b++ {
			count[b] += count[b-1]
		}
		for i := range src {
			b := byte(src[i].lead >> shift)
			dst[count[b]] = src[i]
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keyed[0] {
		copy(keyed, src)
	}
}

// textOnly reports whether every part is a string, or every part a binary value: such parts
// compare as their texts do.
func textOnly(parts []keyPart) bool {
	if len(parts) == 0 || parts[0].rank != rankS && parts[0].rank != rankB {
		return false
	}
	for i := range parts {
		if parts[i].rank != parts[0].rank || parts[i].numOK {
			return false
		}
	}
	return true
}

// tableKeyMatches reports whether a table item has a valid key (every key attribute present,
// of its type, not empty) that satisfies the key conditions, and leaves the key values in vals.
func tableKeyMatches(it designer.Item, keys []designer.KeyAttribute, conds []*keyCond, vals []designer.Value) bool {
	for i, k := range keys {
		v, ok := it[k.Name]
		if !validKeyValue(v, ok, k) {
			return false
		}
		if conds[i] != nil && !conds[i].matches(v) {
			return false
		}
		vals[i] = v
	}
	return true
}

// validKeyValue reports whether a key attribute is there, of its type and not empty.
func validKeyValue(v designer.Value, ok bool, k designer.KeyAttribute) bool {
	return ok && v.Type == k.Type && !(v.Type == designer.S && v.S == "") && !(v.Type == designer.B && len(v.B) == 0)
}

func keyConditionsMatch(it designer.Item, keys []designer.KeyAttribute, conds []*keyCond) bool {
	for i, k := range keys {
		if conds[i] != nil && !conds[i].matches(it[k.Name]) {
			return false
		}
	}
	return true
}

// appendEntryParts appends the key parts an entry sorts by: for a Scan the partition key's,
// then the sort key's. It also sets the Scan's partition hash.
func appendEntryParts(parts []keyPart, e *entryOrder, tg target, scan bool) []keyPart {
	if scan {
		vals := make([]designer.Value, len(tg.pk))
		for i, k := range tg.pk {
			vals[i] = e.item[k.Name]
			parts = append(parts, newKeyPart(vals[i]))
		}
		e.bucket = hashPrefix(vals...)
	}
	for _, k := range tg.sk {
		parts = append(parts, newKeyPart(e.item[k.Name]))
	}
	return parts
}

func (e *entryOrder) setParts(parts []keyPart, tg target, scan bool) {
	if scan {
		e.pk, parts = parts[:len(tg.pk)], parts[len(tg.pk):]
	}
	e.sk = parts
}

func (e *entryOrder) tieHash(tg target) string {
	if e.tie == "" {
		vals := make([]designer.Value, len(tg.tableKeys))
		for i, k := range tg.tableKeys {
			vals[i] = e.item[k.Name]
		}
		e.tie = hashPrefix(vals...)
	}
	return e.tie
}

// hashPrefix is the hash dynalite orders partitions and tied index entries by: the first six hex
// digits of MD5("Outliers" + the key values' bytes), numbers in DynamoDB's binary number form.
func hashPrefix(vals ...designer.Value) string {
	h := md5.New()
	h.Write([]byte("Outliers"))
	for _, v := range vals {
		switch v.Type {
		case designer.S:
			h.Write([]byte(v.S))
		case designer.B:
			h.Write(v.B)
		case designer.N:
			h.Write(numberKeyBytes(v.S))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:6]
}

// numberKeyBytes encodes a number as DynamoDB's key bytes (dynalite's numToBuffer): an exponent
// byte, then base-100 digit pairs, complemented for negative numbers.
func numberKeyBytes(s string) []byte {
	d, ok := designer.ParseDecimal(s)
	if !ok || d.Digits == "" {
		return []byte{0x80}
	}
	mant := make([]int, len(d.Digits))
	for i := range d.Digits {
		mant[i] = int(d.Digits[i] - '0')
	}
	exponent := int(d.Exp) + len(mant)
	appendZero := 0
	if exponent%2 != 0 {
		appendZero = 1
	}
	n := (len(mant) + appendZero + 1) / 2
	var arr []int
	if n < 20 && d.Negative {
		arr = make([]int, n+2)
		arr[n+1] = 102
	} else {
		arr = make([]int, n+1)
	}
	arr[0] = floorDiv(exponent+appendZero, 2) - 64
	if d.Negative {
		arr[0] = ^arr[0]
	}
	appended := false
	for mi := 0; mi < len(mant); mi++ {
		bi := floorDiv(mi+appendZero, 2) + 1
		switch {
		case appendZero == 1 && mi == 0 && !appended:
			arr[bi] = 0
			appended = true
			mi--
		case (mi+appendZero)%2 == 0:
			arr[bi] = mant[mi] * 10
		default:
			arr[bi] += mant[mi]
		}
		if (mi+appendZero)%2 != 0 || mi == len(mant)-1 {
			if d.Negative {
				arr[bi] = 101 - arr[bi]
			} else {
				arr[bi]++
			}
		}
	}
	out := make([]byte, len(arr))
	for i, x := range arr {
		out[i] = byte(x & 0xff)
	}
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// pageItemSize is the size an item counts toward a Query or Scan page's 1 MB: dynalite's model of
// DynamoDB's internal encoding, fitted to real DynamoDB. Attribute names count one byte, values a
// little more than their size, and the table's sort key is charged per 3 KB block. String lengths
// are counted in UTF-16 code units, as dynalite counts them.
func pageItemSize(it designer.Item, rangeKey string) int {
	page, _ := pageAndItemSize(it, rangeKey)
	return page
}

// pageAndItemSize returns pageItemSize and ItemSize in one pass over the item.
func pageAndItemSize(it designer.Item, rangeKey string) (page, size int) {
	page, size, _, _, _ = measureItem(it, rangeKey)
	return page, size
}

// measureItem returns pageItemSize, ItemSize and whether the item is already in DynamoDB's
// spelling (isCanonical), in one pass over the item, and on the way the value of the table's
// sort key.
func measureItem(it designer.Item, rangeKey string) (page, size int, canonical bool, rangeVal designer.Value, hasRange bool) {
	stored, rangeSize := 0, 0
	canonical = true
	for name, v := range it {
		if name == rangeKey {
			rangeVal, hasRange = v, true
		}
		var value, inPage int
		switch v.Type {
		case designer.S:
			// For ASCII, which sample keys and values mostly are, UTF-16 units are bytes.
			value = len(v.S)
			units := value
			if !isASCII(v.S) {
				units = utf16Len(v.S)
			}
			inPage = units + 1
			if units >= 128 {
				inPage++
			}
			if units >= 16384 {
				inPage++
			}
			if name == rangeKey {
				rangeSize = units
			}
		case designer.N:
			value = designer.NumberSize(v.S)
			inPage = value + 1
			if name == rangeKey {
				rangeSize = value
			}
			canonical = canonical && isFixedNumber(v.S)
		default:
			value = designer.ValueSize(v)
			inPage = storedPageSize(v)
			if name == rangeKey {
				rangeSize = rawPageSize(v)
			}
			canonical = canonical && valueCanonical(v)
		}
		size += len(name) + value
		if name != rangeKey {
			stored += inPage + 1
		}
	}
	return 2 + stored + (1+(1+stored)/3072)*(18+rangeSize), size, canonical, rangeVal, hasRange
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func rawPageSize(v designer.Value) int {
	switch v.Type {
	case designer.S:
		return utf16Len(v.S)
	case designer.B:
		return len(v.B)
	case designer.N:
		return designer.NumberSize(v.S)
	}
	return storedPageSize(v)
}

func storedPageSize(v designer.Value) int {
	switch v.Type {
	case designer.S:
		n := utf16Len(v.S)
		switch {
		case n < 128:
			return n + 1
		case n < 16384:
			return n + 2
		}
		return n + 3
	case designer.B:
		return len(v.B) + 1
	case designer.N:
		return designer.NumberSize(v.S) + 1
	case designer.SS:
		n := 0
		for _, s := range v.SS {
			n += utf16Len(s)
		}
		return n + len(v.SS) + 1
	case designer.NS:
		n := 0
		for _, s := range v.SS {
			n += designer.NumberSize(s)
		}
		return n + len(v.SS) + 1
	case designer.BS:
		n := 0
		for _, b := range v.BS {
			n += len(b)
		}
		return n + len(v.BS) + 1
	case designer.NULL:
		return 0
	case designer.BOOL:
		return 1
	case designer.L:
		n := 3
		for _, e := range v.L {
			n += 1 + storedPageSize(e)
		}
		return n
	case designer.M:
		n := 3 + len(v.M)
		for _, e := range v.M {
			n += storedPageSize(e) + 1
		}
		return n
	}
	return 0
}
