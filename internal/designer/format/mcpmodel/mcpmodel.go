// Package mcpmodel writes the mcp-model-json export: the executable model the AWS DynamoDB MCP
// server's validator reads (dynamodb_data_model.json). docs/exports.md ("mcp-model-json") says how
// a design becomes it.
package mcpmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format/tabledef"
)

// modelFile is the whole document; its members are written in the order the guide asks for.
type modelFile struct {
	Tables         []tabledef.Table          `json:"tables"`
	Items          map[string][]writeRequest `json:"items"`
	AccessPatterns []accessPattern           `json:"access_patterns"`
}

type accessPattern struct {
	Pattern           string `json:"pattern"`
	Description       string `json:"description"`
	Table             string `json:"table,omitempty"`
	Index             string `json:"index,omitempty"`
	DynamoDBOperation string `json:"dynamodb_operation,omitempty"`
	Implementation    string `json:"implementation,omitempty"`
	Reason            string `json:"reason,omitempty"`
}

// writeRequest is one member of a BatchWriteItem request: a put or a delete.
type writeRequest struct {
	PutRequest    *putRequest    `json:"PutRequest,omitempty"`
	DeleteRequest *deleteRequest `json:"DeleteRequest,omitempty"`
}

type putRequest struct {
	Item designer.Item `json:"Item"`
}

type deleteRequest struct {
	Key designer.Item `json:"Key"`
}

type batchGetTable struct {
	Keys                     []designer.Item   `json:"Keys"`
	ProjectionExpression     string            `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ConsistentRead           bool              `json:"ConsistentRead,omitempty"`
}

type transactGet struct {
	Get getAction `json:"Get"`
}

type getAction struct {
	TableName                string            `json:"TableName"`
	Key                      designer.Item     `json:"Key"`
	ProjectionExpression     string            `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
}

type transactWrite struct {
	Put            *putAction       `json:"Put,omitempty"`
	Update         *updateAction    `json:"Update,omitempty"`
	Delete         *deleteAction    `json:"Delete,omitempty"`
	ConditionCheck *conditionAction `json:"ConditionCheck,omitempty"`
}

type putAction struct {
	TableName                 string                    `json:"TableName"`
	Item                      designer.Item             `json:"Item"`
	ConditionExpression       string                    `json:"ConditionExpression,omitempty"`
	ExpressionAttributeNames  map[string]string         `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues map[string]designer.Value `json:"ExpressionAttributeValues,omitempty"`
}

type deleteAction struct {
	TableName                 string                    `json:"TableName"`
	Key                       designer.Item             `json:"Key"`
	ConditionExpression       string                    `json:"ConditionExpression,omitempty"`
	ExpressionAttributeNames  map[string]string         `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues map[string]designer.Value `json:"ExpressionAttributeValues,omitempty"`
}

type updateAction struct {
	TableName                 string                    `json:"TableName"`
	Key                       designer.Item             `json:"Key"`
	UpdateExpression          string                    `json:"UpdateExpression"`
	ConditionExpression       string                    `json:"ConditionExpression,omitempty"`
	ExpressionAttributeNames  map[string]string         `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues map[string]designer.Value `json:"ExpressionAttributeValues"`
}

type conditionAction struct {
	TableName                 string                    `json:"TableName"`
	Key                       designer.Item             `json:"Key"`
	ConditionExpression       string                    `json:"ConditionExpression"`
	ExpressionAttributeNames  map[string]string         `json:"ExpressionAttributeNames,omitempty"`
	ExpressionAttributeValues map[string]designer.Value `json:"ExpressionAttributeValues,omitempty"`
}

// Export writes the design as the executable model JSON of the AWS DynamoDB MCP
// server's validator: its tables, its sample items and one AWS CLI command per mapped operation.
// A table DynamoDB could not create, or a sample value without a DynamoDB type, is a
// *ValidationError naming the field; an operation no command can express is listed with the reason.
func Export(d designer.Design) ([]byte, error) {
	tables, err := tabledef.Tables(d, false)
	if err != nil {
		return nil, err
	}
	model := modelFile{Tables: tables, Items: map[string][]writeRequest{}, AccessPatterns: []accessPattern{}}
	for i, t := range d.Tables {
		if len(t.Items) == 0 {
			continue
		}
		puts := make([]writeRequest, len(t.Items))
		for k, it := range t.Items {
			if err := checkTypedItem(fmt.Sprintf("tables/%d/items/%d/item", i, k), it.Item); err != nil {
				return nil, err
			}
			puts[k] = writeRequest{PutRequest: &putRequest{Item: it.Item}}
		}
		model.Items[t.Name] = puts
	}
	for i, p := range d.Patterns {
		model.AccessPatterns = append(model.AccessPatterns, patternEntries(d, "access_patterns/"+strconv.Itoa(i), p)...)
	}
	return tabledef.EncodeIndented(model)
}

// checkTypedItem refuses an attribute value without a DynamoDB type, at any depth, which DynamoDB
// JSON cannot write.
func checkTypedItem(field string, it designer.Item) error {
	for _, name := range sortedKeys(it) {
		if !typedValue(it[name]) {
			return designer.Invalid(field+"/"+name, "holds a value without a DynamoDB type")
		}
	}
	return nil
}

func typedValue(v designer.Value) bool {
	switch v.Type {
	case designer.M:
		for _, c := range v.M {
			if !typedValue(c) {
				return false
			}
		}
	case designer.L:
		for _, c := range v.L {
			if !typedValue(c) {
				return false
			}
		}
	}
	return v.Type.Valid()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// patternEntries is the access_patterns entries of one pattern: one per command, or one with a
// reason when nothing is mapped. A command that cannot be written is an entry with the reason.
func patternEntries(d designer.Design, pp string, p designer.Pattern) []accessPattern {
	cmds := patternCommands(d, pp, p.Mapping.Operations)
	id := strconv.Itoa(p.Number)
	if len(cmds) == 0 {
		reason := "No DynamoDB operation is mapped to this pattern yet."
		if p.Status == designer.StatusOutside {
			reason = "Served outside DynamoDB."
		}
		if notes := strings.TrimSpace(p.Mapping.Notes); notes != "" {
			reason += " " + notes
		}
		return []accessPattern{{Pattern: id, Description: p.Description, Reason: reason}}
	}
	out := make([]accessPattern, len(cmds))
	for k, c := range cmds {
		e := accessPattern{Pattern: id, Description: p.Description, Table: strings.Join(c.tables, ", "),
			Index: c.index, DynamoDBOperation: c.op, Reason: c.reason}
		if c.reason == "" {
			e.Implementation = c.words.String()
		}
		if len(cmds) > 1 {
			e.Pattern += letterSuffix(k)
		}
		out[k] = e
	}
	return out
}

// letterSuffix numbers the commands of one pattern: a, b, …, z, aa, ab, ….
func letterSuffix(k int) string {
	var b []byte
	for k++; k > 0; k = (k - 1) / 26 {
		b = append(b, byte('a'+(k-1)%26))
	}
	slices.Reverse(b)
	return string(b)
}

// opCommand is one command of a pattern and what the entry says about it; reason, when set, says
// why there is no command.
type opCommand struct {
	op     string
	tables []string
	index  string
	words  cliCommand
	reason string
}

// patternCommands turns a mapping's operations into commands; pp is the pattern's path. An
// operation no command can express, or a run of batch or transaction rows holding one, is a command
// with the reason instead.
func patternCommands(d designer.Design, pp string, ops []designer.Operation) []opCommand {
	var out []opCommand
	prepared := make([]designer.Operation, len(ops))
	reasons := make([]string, len(ops))
	for j, op := range ops {
		prepared[j], reasons[j] = prepareOperation(d, op)
	}
	refused := func(op designer.Operation, reason string) opCommand {
		return opCommand{op: op.Op, tables: []string{op.Table}, index: op.Index, reason: reason}
	}
	for j := 0; j < len(ops); {
		op := prepared[j]
		field := pp + "/mapping/operations/" + strconv.Itoa(j)
		var c opCommand
		var err error
		switch op.Op {
		case "BatchGetItem", "TransactGetItems", "BatchWriteItem", "TransactWriteItems":
			k := j + 1
			for k < len(ops) && ops[k].Op == op.Op {
				k++
			}
			cmds, err := multiItemCommands(d, pp, j, prepared[j:k])
			reason := ""
			if i := slices.IndexFunc(reasons[j:k], func(r string) bool { return r != "" }); i >= 0 {
				reason = reasons[j+i]
			}
			if reason = refusal(reason, op, err); reason != "" {
				cmds = []opCommand{refused(op, reason)}
			}
			out = append(out, cmds...)
			j = k
			continue
		case "Query", "Scan":
			c, err = queryCommand(d, field, op)
		case "GetItem", "PutItem", "UpdateItem", "DeleteItem":
			c, err = itemCommand(d, field, op)
		default:
			err = designer.OneOf(field+"/op", op.Op, designer.Operations...)
		}
		if reason := refusal(reasons[j], op, err); reason != "" {
			c = refused(op, reason)
		}
		out = append(out, c)
		j++
	}
	return out
}

// opTable finds the table an operation names; an operation other than Query and Scan must not
// name an index.
func opTable(d designer.Design, field string, op designer.Operation) (designer.Table, error) {
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		return designer.Table{}, designer.Invalid(field+"/table", "%s names table %q, which the design does not have", op.Op, op.Table)
	}
	if op.Index != "" && op.Op != "Query" && op.Op != "Scan" {
		return designer.Table{}, designer.Invalid(field+"/index", "%s works on table %s, not on an index; leave the index empty", op.Op, t.Name)
	}
	return t, nil
}

// keyError words an evaluator error about an operation's key as a field error.
func keyError(field string, op designer.Operation, err error) error {
	msg := err.Error()
	var ee *dynamo.EvalError
	if errors.As(err, &ee) {
		msg = ee.Message
	}
	return designer.Invalid(field+"/key_condition", "%s on table %s: %s", op.Op, op.Table, msg)
}

// readKeys builds and checks the keys a GetItem, BatchGetItem or TransactGetItems reads.
func readKeys(t designer.Table, field string, op designer.Operation) ([]designer.Item, error) {
	keys, err := dynamo.KeysFromCondition(op)
	if err != nil {
		return nil, keyError(field, op, err)
	}
	for _, k := range keys {
		if err := dynamo.CheckTableKey(k, dynamo.TableKeyAttrs(t)); err != nil {
			return nil, keyError(field, op, err)
		}
	}
	return keys, nil
}

// writtenItems reads a write the evaluator's way: its attributes and the keys it writes, checked
// against the table's key.
func writtenItems(t designer.Table, field string, op designer.Operation) (designer.Item, []designer.Item, error) {
	attrs, keys, err := dynamo.WriteParts(op, dynamo.TableKeyAttrs(t))
	if err != nil {
		return nil, nil, keyError(field, op, err)
	}
	for _, k := range keys {
		if err := dynamo.CheckTableKey(k, dynamo.TableKeyAttrs(t)); err != nil {
			return nil, nil, keyError(field, op, err)
		}
	}
	return attrs, keys, nil
}

// withAttributes is the item a put writes: the key and the attributes that are not part of it.
func withAttributes(key, attrs designer.Item) designer.Item {
	it := dynamo.CloneItem(key)
	for k, v := range attrs {
		if _, isKey := key[k]; !isKey {
			it[k] = v
		}
	}
	return it
}

// checkValues refuses operation values that DynamoDB JSON cannot write.
func checkValues(field string, op designer.Operation) error {
	for _, k := range sortedKeys(op.Values) {
		if !typedValue(op.Values[k]) {
			return designer.Invalid(field+"/values/"+k, "holds a value without a DynamoDB type")
		}
	}
	return nil
}

// usedPlaceholders returns the names and values of op that its expressions use, or all of them
// when an expression does not parse.
func usedPlaceholders(op designer.Operation, conditions []string, projection string) (map[string]string, map[string]designer.Value) {
	ctx := dynamo.NewExprContext(op.Names, op.Values)
	ok := true
	for _, c := range conditions {
		if c != "" {
			if _, _, msg := dynamo.ParseCondition(c, ctx); msg != "" {
				ok = false
			}
		}
	}
	if projection != "" {
		if _, _, msg := dynamo.ParseProjection(projection, ctx); msg != "" {
			ok = false
		}
	}
	if !ok {
		return op.Names, op.Values
	}
	names := map[string]string{}
	for k, v := range op.Names {
		if ctx.UsedNames[k] {
			names[k] = v
		}
	}
	values := map[string]designer.Value{}
	for k, v := range op.Values {
		if ctx.UsedValues[k] {
			values[k] = v
		}
	}
	return names, values
}

func queryCommand(d designer.Design, field string, op designer.Operation) (opCommand, error) {
	t, err := opTable(d, field, op)
	if err != nil {
		return opCommand{}, err
	}
	if err := checkValues(field, op); err != nil {
		return opCommand{}, err
	}
	if op.Index != "" {
		if _, _, _, ok := t.IndexByName(op.Index); !ok {
			return opCommand{}, designer.Invalid(field+"/index", "table %s has no index named %q", t.Name, op.Index)
		}
	}
	switch {
	case op.Op == "Query" && strings.TrimSpace(op.KeyCondition) == "":
		return opCommand{}, designer.Invalid(field+"/key_condition", "a Query needs a key condition such as \"pk = :pk\"")
	case op.Op == "Scan" && op.KeyCondition != "":
		return opCommand{}, designer.Invalid(field+"/key_condition", "a Scan takes no key condition; move it to the filter")
	case op.Limit != nil && *op.Limit < 1:
		return opCommand{}, designer.Invalid(field+"/limit", "is %d; a limit is 1 or more", *op.Limit)
	}
	c := opCommand{op: op.Op, tables: []string{t.Name}, index: op.Index}
	c.words = newCLI(strings.ToLower(op.Op))
	c.words.add("--table-name", t.Name)
	if op.Index != "" {
		c.words.add("--index-name", op.Index)
	}
	if op.Op == "Query" {
		c.words.add("--key-condition-expression", op.KeyCondition)
	}
	if op.Filter != "" {
		c.words.add("--filter-expression", op.Filter)
	}
	if op.Projection != "" {
		c.words.add("--projection-expression", op.Projection)
	}
	names, values := usedPlaceholders(op, []string{op.KeyCondition, op.Filter}, op.Projection)
	if err := c.words.addPlaceholders(names, values); err != nil {
		return opCommand{}, err
	}
	if op.Limit != nil {
		c.words.add("--limit", strconv.Itoa(*op.Limit))
	}
	if op.Descending && op.Op == "Query" {
		c.words.add("--no-scan-index-forward")
	}
	if op.Consistent {
		c.words.add("--consistent-read")
	}
	return c, nil
}

// itemCommand writes a GetItem, PutItem, UpdateItem or DeleteItem.
func itemCommand(d designer.Design, field string, op designer.Operation) (opCommand, error) {
	t, err := opTable(d, field, op)
	if err != nil {
		return opCommand{}, err
	}
	if err := checkValues(field, op); err != nil {
		return opCommand{}, err
	}
	c := opCommand{op: op.Op, tables: []string{t.Name}}
	c.words = newCLI(map[string]string{"GetItem": "get-item", "PutItem": "put-item",
		"UpdateItem": "update-item", "DeleteItem": "delete-item"}[op.Op])
	c.words.add("--table-name", t.Name)
	if op.Op == "GetItem" {
		keys, err := readKeys(t, field, op)
		if err != nil {
			return opCommand{}, err
		}
		if err := c.words.addJSON("--key", keys[0]); err != nil {
			return opCommand{}, err
		}
		if op.Projection != "" {
			c.words.add("--projection-expression", op.Projection)
			names, _ := usedPlaceholders(designer.Operation{Names: op.Names}, nil, op.Projection)
			if err := c.words.addPlaceholders(names, nil); err != nil {
				return opCommand{}, err
			}
		}
		if op.Consistent {
			c.words.add("--consistent-read")
		}
		return c, nil
	}
	attrs, keys, err := writtenItems(t, field, op)
	if err != nil {
		return opCommand{}, err
	}
	key := keys[0]
	names, values := writePlaceholders(op)
	switch op.Op {
	case "PutItem":
		err = c.words.addJSON("--item", withAttributes(key, attrs))
	case "DeleteItem":
		err = c.words.addJSON("--key", key)
	case "UpdateItem":
		if err = c.words.addJSON("--key", key); err != nil {
			break
		}
		if op.Update != "" {
			c.words.add("--update-expression", op.Update)
			break
		}
		var expr string
		var n map[string]string
		var v map[string]designer.Value
		if len(attrs) > 0 {
			if expr, n, v, err = updateExpression(field, t, attrs); err != nil {
				break
			}
			c.words.add("--update-expression", expr)
			maps.Copy(names, n)
			maps.Copy(values, v)
		}
	}
	if err != nil {
		return opCommand{}, err
	}
	if op.Condition != "" {
		c.words.add("--condition-expression", op.Condition)
	}
	if len(names) > 0 || len(values) > 0 {
		if err := c.words.addPlaceholders(names, values); err != nil {
			return opCommand{}, err
		}
	}
	return c, nil
}

// writePlaceholders are the names and values a write's condition and update use, or all of the
// operation's but those of its key condition when one does not parse.
func writePlaceholders(op designer.Operation) (map[string]string, map[string]designer.Value) {
	if op.Condition == "" && op.Update == "" {
		return map[string]string{}, map[string]designer.Value{}
	}
	names, values, ok := dynamo.WritePlaceholders(op)
	if ok {
		return names, values
	}
	keyNames, keyValues := usedPlaceholders(op, []string{op.KeyCondition}, "")
	names, values = maps.Clone(op.Names), maps.Clone(op.Values)
	for k := range keyNames {
		delete(names, k)
	}
	for k := range keyValues {
		delete(values, k)
	}
	return names, values
}

// updateExpression is "SET #a = :a, #b = :b" for the attributes of an update, with a name
// placeholder for every attribute so that no reserved word can break the expression.
func updateExpression(field string, t designer.Table, attrs designer.Item) (string, map[string]string, map[string]designer.Value, error) {
	names := make(map[string]string, len(attrs))
	values := make(map[string]designer.Value, len(attrs))
	var sets []string
	for _, name := range sortedKeys(attrs) {
		for _, k := range dynamo.TableKeyAttrs(t) {
			if k.Name == name {
				return "", nil, nil, designer.Invalid(field+"/values/:"+name, "sets %s, a key attribute of table %s; an update cannot change the key", name, t.Name)
			}
		}
		names["#"+name] = name
		values[":"+name] = attrs[name]
		sets = append(sets, "#"+name+" = :"+name)
	}
	return "SET " + strings.Join(sets, ", "), names, values, nil
}

// transactWrites is what one TransactWriteItems row asks for each of its keys; kind is the row's
// write (rowWrite). The row's condition and update go with each key's request.
func transactWrites(field string, t designer.Table, op designer.Operation, kind string, attrs designer.Item, keys []designer.Item) ([]transactWrite, error) {
	out := make([]transactWrite, 0, len(keys))
	names, values := writePlaceholders(op)
	orNil := func() (map[string]string, map[string]designer.Value) {
		n, v := names, values
		if len(n) == 0 {
			n = nil
		}
		if len(v) == 0 {
			v = nil
		}
		return n, v
	}
	for _, k := range keys {
		var w transactWrite
		switch kind {
		case "PutItem":
			n, v := orNil()
			w.Put = &putAction{TableName: t.Name, Item: withAttributes(k, attrs), ConditionExpression: op.Condition,
				ExpressionAttributeNames: n, ExpressionAttributeValues: v}
		case "DeleteItem":
			n, v := orNil()
			w.Delete = &deleteAction{TableName: t.Name, Key: k, ConditionExpression: op.Condition,
				ExpressionAttributeNames: n, ExpressionAttributeValues: v}
		case "UpdateItem":
			expr, n, v := op.Update, maps.Clone(names), maps.Clone(values)
			if expr == "" {
				if len(attrs) == 0 {
					return nil, designer.Invalid(field+"/values", "an update row of a TransactWriteItems gives no attribute to set and no update; give each attribute as a value named after it (:status=ACTIVE), write an update, or choose another action")
				}
				var err error
				var sn map[string]string
				var sv map[string]designer.Value
				if expr, sn, sv, err = updateExpression(field, t, attrs); err != nil {
					return nil, err
				}
				maps.Copy(n, sn)
				maps.Copy(v, sv)
			}
			w.Update = &updateAction{TableName: t.Name, Key: k, UpdateExpression: expr, ConditionExpression: op.Condition,
				ExpressionAttributeNames: n, ExpressionAttributeValues: v}
		case "ConditionCheck":
			if op.Condition == "" {
				w.ConditionCheck = &conditionAction{TableName: t.Name, Key: k, ConditionExpression: "attribute_exists(#pk)",
					ExpressionAttributeNames: map[string]string{"#pk": t.PartitionKey.Name}}
				break
			}
			n, v := orNil()
			w.ConditionCheck = &conditionAction{TableName: t.Name, Key: k, ConditionExpression: op.Condition,
				ExpressionAttributeNames: n, ExpressionAttributeValues: v}
		}
		out = append(out, w)
	}
	return out, nil
}

// multiItemCommands writes a run of BatchGetItem, TransactGetItems, BatchWriteItem or
// TransactWriteItems rows as one request (or, for BatchGetItem, as few as the rows allow); first
// is the position of the run's first row.
func multiItemCommands(d designer.Design, pp string, first int, ops []designer.Operation) ([]opCommand, error) {
	kind := ops[0].Op
	var out []opCommand
	var tables []string
	batchGet := map[string]batchGetTable{}
	batchWrite := map[string][]writeRequest{}
	var gets []transactGet
	var writes []transactWrite
	flush := func() error {
		if len(tables) == 0 {
			return nil
		}
		c := opCommand{op: kind, tables: tables}
		var err error
		switch kind {
		case "BatchGetItem":
			c.words = newCLI("batch-get-item")
			err = c.words.addJSON("--request-items", batchGet)
		case "BatchWriteItem":
			c.words = newCLI("batch-write-item")
			err = c.words.addJSON("--request-items", batchWrite)
		case "TransactGetItems":
			c.words = newCLI("transact-get-items")
			err = c.words.addJSON("--transact-items", gets)
		case "TransactWriteItems":
			c.words = newCLI("transact-write-items")
			err = c.words.addJSON("--transact-items", writes)
		}
		out = append(out, c)
		tables, batchGet, batchWrite, gets, writes = nil, map[string]batchGetTable{}, map[string][]writeRequest{}, nil, nil
		return err
	}
	for n, op := range ops {
		field := pp + "/mapping/operations/" + strconv.Itoa(first+n)
		t, err := opTable(d, field, op)
		if err != nil {
			return nil, err
		}
		if err := checkValues(field, op); err != nil {
			return nil, err
		}
		switch kind {
		case "BatchGetItem", "TransactGetItems":
			keys, err := readKeys(t, field, op)
			if err != nil {
				return nil, err
			}
			var names map[string]string
			if op.Projection != "" {
				names, _ = usedPlaceholders(designer.Operation{Names: op.Names}, nil, op.Projection)
			}
			if kind == "TransactGetItems" {
				for _, k := range keys {
					gets = append(gets, transactGet{getAction{TableName: t.Name, Key: k,
						ProjectionExpression: op.Projection, ExpressionAttributeNames: names}})
				}
				break
			}
			entry := batchGetTable{ProjectionExpression: op.Projection, ExpressionAttributeNames: names,
				ConsistentRead: op.Consistent}
			if prev, ok := batchGet[t.Name]; ok {
				if prev.ProjectionExpression == entry.ProjectionExpression && prev.ConsistentRead == entry.ConsistentRead &&
					sameNames(prev.ExpressionAttributeNames, entry.ExpressionAttributeNames) {
					prev.Keys = append(prev.Keys, keys...)
					batchGet[t.Name] = prev
					break
				}
				if err := flush(); err != nil {
					return nil, fmt.Errorf("%s: %w", field, err)
				}
			}
			entry.Keys = keys
			batchGet[t.Name] = entry
		case "BatchWriteItem", "TransactWriteItems":
			if err := designer.CheckAction(field+"/action", op); err != nil {
				return nil, err
			}
			attrs, keys, err := writtenItems(t, field, op)
			if err != nil {
				return nil, err
			}
			write := dynamo.RowWrite(op, attrs)
			if kind == "TransactWriteItems" {
				ws, err := transactWrites(field, t, op, write, attrs, keys)
				if err != nil {
					return nil, err
				}
				writes = append(writes, ws...)
				break
			}
			for _, k := range keys {
				if write == "DeleteItem" {
					batchWrite[t.Name] = append(batchWrite[t.Name], writeRequest{DeleteRequest: &deleteRequest{Key: k}})
				} else {
					batchWrite[t.Name] = append(batchWrite[t.Name], writeRequest{PutRequest: &putRequest{Item: withAttributes(k, attrs)}})
				}
			}
		}
		if !slices.Contains(tables, t.Name) {
			tables = append(tables, t.Name)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

func sameNames(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// cliCommand is an "aws dynamodb …" command as its words, before shell quoting.
type cliCommand []string

func newCLI(subcommand string) cliCommand { return cliCommand{"aws", "dynamodb", subcommand} }

func (c *cliCommand) add(words ...string) { *c = append(*c, words...) }

// addJSON adds a flag whose value is v as compact JSON.
func (c *cliCommand) addJSON(flag string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %s: %w", flag, err)
	}
	c.add(flag, strings.TrimSuffix(buf.String(), "\n"))
	return nil
}

// addPlaceholders adds --expression-attribute-names and --expression-attribute-values when there
// are any.
func (c *cliCommand) addPlaceholders(names map[string]string, values map[string]designer.Value) error {
	if len(names) > 0 {
		if err := c.addJSON("--expression-attribute-names", names); err != nil {
			return err
		}
	}
	if len(values) > 0 {
		return c.addJSON("--expression-attribute-values", values)
	}
	return nil
}

// String is the command line, each word quoted for a POSIX shell.
func (c cliCommand) String() string {
	quoted := make([]string, len(c))
	for i, w := range c {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}

// shellQuote makes s one word of a POSIX shell command line that reads back as s exactly. Words of
// letters, digits and _ - . , / : @ % + are left as they are; anything else is single-quoted, and
// each single quote in it becomes: end the quoting, a backslash-escaped quote, quote again.
// Nothing is special inside single quotes, so $(…), backquotes, newlines and globs stay text.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_-.,/:@%+", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// LeftOut lists what of d the model has no place for. Its tables are CreateTable requests, which
// take no TimeToLiveSpecification and no table class, and the validator passes each table to
// CreateTable as it is, so TTL stays out of the model rather than failing its validation.
func LeftOut(d designer.Design) []string {
	out := tabledef.Requirement(d, false)
	var ttl, classes, entityTypes int
	for _, t := range d.Tables {
		if t.TTLAttribute != "" {
			ttl++
		}
		if t.TableClass != "" && t.TableClass != designer.StandardClass {
			classes++
		}
		entityTypes += len(t.EntityTypes)
	}
	add := func(n int, what, one, many string) {
		if n > 0 {
			out = append(out, fmt.Sprintf(what, tabledef.Count(n, one, many)))
		}
	}
	add(ttl, "the TTL attribute of %s (CreateTable takes none)", "table", "tables")
	add(classes, "the table class of %s", "table", "tables")
	add(entityTypes, "%s of the tables and their key templates", "entity type", "entity types")
	return append(out, tabledef.Notes(d)...)
}
