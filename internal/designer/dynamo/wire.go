package dynamo

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The evaluator answers read requests (GetItem, Query, Scan, BatchGetItem) against a design's
// sample items the way DynamoDB does. Where DynamoDB's documentation leaves a detail open it
// follows dynalite (the DynamoDB-compatible server the evaluator is checked against), whose
// behaviour was itself fitted to real DynamoDB answers: the checks and their messages, their
// order, the 1 MB page measure and the order of Scan results and of index entries that share a
// key. This file reads and validates the wire request; run.go runs it.

// EvalError is the error DynamoDB would return. Type is "ValidationException" or
// "ResourceNotFoundException"; Hint, when set, says what is wrong in the room's words, for the
// people mapping a pattern rather than for DynamoDB's client.
type EvalError struct{ Type, Message, Hint string }

func (e *EvalError) Error() string { return e.Type + ": " + e.Message }

func validationErr(format string, args ...any) *EvalError {
	return &EvalError{Type: "ValidationException", Message: fmt.Sprintf(format, args...)}
}

func notFoundErr() *EvalError {
	return &EvalError{Type: "ResourceNotFoundException", Message: "Requested resource not found"}
}

// readRequest is one read, decoded from the wire format or built from a mapping Operation.
type readRequest struct {
	op                             string
	selectAll                      bool // Select: ALL_ATTRIBUTES
	table, index                   string
	hasIndex                       bool
	key                            designer.Item
	keyCond, filter, projection    string
	hasKeyCond, hasFilter, hasProj bool
	names                          map[string]string
	nameOrder                      []string
	values                         map[string]designer.Value
	valueOrder                     []string
	hasNames, hasValues            bool
	badValue                       string // the first invalid ExpressionAttributeValues member
	limit                          int
	forward                        bool
	startKey                       designer.Item
	hasStartKey                    bool
	consistent                     bool
	returnCapacity                 string
	countOnly                      bool
	keyExpr, filterExpr            *condExpr
	filterParser                   *exprParser
	projPaths                      [][]pathElem
	projNested                     map[string]bool
	batchKeys                      []designer.Item // BatchGetItem, per table
	batchTables                    []readRequest
	batchTableOrder                []string
	transactional                  bool
	cache                          *Cache // remembers item measurements; nil for none
}

// EvaluateJSON runs one read request — op is GetItem, Query, Scan or BatchGetItem — given in DynamoDB's JSON wire format (TableName, IndexName, Key, KeyConditionExpression, FilterExpression, ProjectionExpression, ExpressionAttributeNames, ExpressionAttributeValues, Limit, ScanIndexForward, ExclusiveStartKey, ConsistentRead, ReturnConsumedCapacity; BatchGetItem's RequestItems) against the design's sample items, and returns DynamoDB's response JSON (Item, Items, Responses, Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity when asked) or an *EvalError. Table and index names are the design's.
// It remembers nothing between calls; Cache.EvaluateJSON is the same with remembered measurements.
func EvaluateJSON(d designer.Design, op string, body []byte) ([]byte, error) {
	return (*Cache)(nil).EvaluateJSON(d, op, body)
}

// EvaluateJSON is the package's EvaluateJSON, measuring the items it reads through c.
func (c *Cache) EvaluateJSON(d designer.Design, op string, body []byte) ([]byte, error) {
	req, err := decodeRequest(op, body)
	if err != nil {
		return nil, err
	}
	req.cache = c
	var out any
	switch op {
	case "GetItem":
		res, err := runGet(d, req)
		if err != nil {
			return nil, err
		}
		resp := map[string]any{}
		if res.found {
			resp["Item"] = res.items[0]
		}
		if c := res.consumed(req); c != nil {
			resp["ConsumedCapacity"] = c
		}
		out = resp
	case "Query", "Scan":
		res, err := runQueryScan(d, req)
		if err != nil {
			return nil, err
		}
		resp := map[string]any{"Count": res.count, "ScannedCount": res.scanned}
		if !req.countOnly {
			items := res.items // already in DynamoDB's spelling
			if items == nil {
				items = []designer.Item{}
			}
			resp["Items"] = items
		}
		if res.lastKey != nil {
			resp["LastEvaluatedKey"] = CanonicalItem(res.lastKey)
		}
		if c := res.consumed(req); c != nil {
			resp["ConsumedCapacity"] = c
		}
		out = resp
	case "BatchGetItem":
		results, err := runBatchGet(d, req)
		if err != nil {
			return nil, err
		}
		responses := map[string][]designer.Item{}
		var consumed []any
		for i, name := range req.batchTableOrder {
			items := results[i].items // already in DynamoDB's spelling
			if items == nil {
				items = []designer.Item{}
			}
			responses[name] = items
			if c := results[i].consumed(req); c != nil {
				consumed = append(consumed, c)
			}
		}
		resp := map[string]any{"Responses": responses, "UnprocessedKeys": map[string]any{}}
		if consumed != nil {
			resp["ConsumedCapacity"] = consumed
		}
		out = resp
	default:
		return nil, &EvalError{Type: "ValidationException", Message: "Unsupported operation: " + op}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// fieldChecks collects DynamoDB's "N validation errors detected" constraint messages.
type fieldChecks []string

func (fc *fieldChecks) fail(value *string, field, constraint string) {
	v := "null"
	if value != nil {
		v = "'" + *value + "'"
	}
	*fc = append(*fc, "Value "+v+" at '"+field+"' failed to satisfy constraint: "+constraint)
}

func (fc fieldChecks) err() error {
	if len(fc) == 0 {
		return nil
	}
	s := ""
	if len(fc) > 1 {
		s = "s"
	}
	return validationErr("%d validation error%s detected: %s", len(fc), s, strings.Join(fc, "; "))
}

var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

// checkName applies the table and index name constraints.
func (fc *fieldChecks) checkName(value *string, field string, required bool) {
	if value == nil {
		if required {
			fc.fail(nil, field, "Member must not be null")
		}
		return
	}
	if !namePattern.MatchString(*value) {
		fc.fail(value, field, "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
	}
	if len(*value) < 3 {
		fc.fail(value, field, "Member must have length greater than or equal to 3")
	}
	if len(*value) > 255 {
		fc.fail(value, field, "Member must have length less than or equal to 255")
	}
}

func (fc *fieldChecks) checkCapacity(value *string) {
	if value != nil && *value != "INDEXES" && *value != "TOTAL" && *value != "NONE" {
		fc.fail(value, "returnConsumedCapacity", "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")
	}
}

type wireRequest struct {
	TableName                 *string
	IndexName                 *string
	Key                       json.RawMessage
	KeyConditionExpression    *string
	FilterExpression          *string
	ProjectionExpression      *string
	ExpressionAttributeNames  json.RawMessage
	ExpressionAttributeValues json.RawMessage
	Limit                     *float64
	ScanIndexForward          *bool
	ExclusiveStartKey         json.RawMessage
	ConsistentRead            *bool
	ReturnConsumedCapacity    *string
	Select                    *string
	RequestItems              json.RawMessage
	Keys                      []json.RawMessage
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

func decodeRequest(op string, body []byte) (readRequest, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return readRequest{}, validationErr("The request body is not valid JSON for %s: %v", op, err)
	}
	req := readRequest{op: op, forward: w.ScanIndexForward == nil || *w.ScanIndexForward}
	var fc fieldChecks
	switch op {
	case "Query", "Scan":
		if w.Select != nil && !strings.Contains(" SPECIFIC_ATTRIBUTES COUNT ALL_ATTRIBUTES ALL_PROJECTED_ATTRIBUTES ", " "+*w.Select+" ") {
			fc.fail(w.Select, "select", "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]")
		}
		fc.checkName(w.IndexName, "indexName", false)
		fc.checkCapacity(w.ReturnConsumedCapacity)
		fc.checkName(w.TableName, "tableName", true)
		if w.Limit != nil && math.Floor(*w.Limit) < 1 {
			v := strconv.FormatFloat(math.Floor(*w.Limit), 'f', -1, 64)
			fc.fail(&v, "limit", "Member must have value greater than or equal to 1")
		}
	case "GetItem":
		fc.checkCapacity(w.ReturnConsumedCapacity)
		fc.checkName(w.TableName, "tableName", true)
		if !present(w.Key) {
			fc.fail(nil, "key", "Member must not be null")
		}
	case "BatchGetItem":
		fc.checkCapacity(w.ReturnConsumedCapacity)
		if !present(w.RequestItems) {
			fc.fail(nil, "requestItems", "Member must not be null")
		}
	default:
		return req, validationErr("Unsupported operation: %s", op)
	}
	if err := fc.err(); err != nil {
		return req, err
	}
	if w.TableName != nil {
		req.table = *w.TableName
	}
	if w.IndexName != nil {
		req.index, req.hasIndex = *w.IndexName, true
	}
	if w.Limit != nil {
		req.limit = int(math.Min(math.Floor(*w.Limit), math.MaxInt32))
	}
	req.consistent = w.ConsistentRead != nil && *w.ConsistentRead
	if w.ReturnConsumedCapacity != nil {
		req.returnCapacity = *w.ReturnConsumedCapacity
	}
	req.countOnly = w.Select != nil && *w.Select == "COUNT"
	req.selectAll = w.Select != nil && *w.Select == "ALL_ATTRIBUTES"
	setExpr := func(dst *string, has *bool, src *string) {
		if src != nil {
			*dst, *has = *src, true
		}
	}
	if op == "BatchGetItem" {
		return decodeBatch(req, w.RequestItems)
	}
	if op == "Query" || op == "Scan" {
		setExpr(&req.filter, &req.hasFilter, w.FilterExpression)
	}
	if op == "Query" {
		setExpr(&req.keyCond, &req.hasKeyCond, w.KeyConditionExpression)
	}
	setExpr(&req.projection, &req.hasProj, w.ProjectionExpression)
	if err := decodePlaceholders(&req, w.ExpressionAttributeNames, w.ExpressionAttributeValues, op != "GetItem"); err != nil {
		return req, err
	}
	// Custom checks, in dynalite's order for each operation.
	if err := checkExpressionParams(&req); err != nil {
		return req, err
	}
	switch op {
	case "GetItem":
		key, _, msg := decodeItem(w.Key)
		if msg != "" {
			return req, validationErr("%s", msg)
		}
		req.key = key
	case "Query", "Scan":
		if present(w.ExclusiveStartKey) {
			key, _, msg := decodeItem(w.ExclusiveStartKey)
			if msg != "" {
				if !startKeyMessageBare.MatchString(msg) {
					msg = "The provided starting key is invalid: " + msg
				}
				return req, validationErr("%s", msg)
			}
			req.startKey, req.hasStartKey = key, true
		}
		if op == "Query" && !req.hasKeyCond {
			return req, validationErr("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
		}
	}
	if err := parseExpressions(&req); err != nil {
		return req, err
	}
	return req, nil
}

var startKeyMessageBare = regexp.MustCompile(`contains duplicates|number set|numeric value|significant digits|number with magnitude`)

func decodeBatch(req readRequest, raw json.RawMessage) (readRequest, error) {
	order, tables, err := orderedObject(raw)
	if err != nil {
		return req, validationErr("RequestItems must be a map of table name to keys: %v", err)
	}
	var fc fieldChecks
	if len(order) == 0 {
		v := "{}"
		fc.fail(&v, "requestItems", "Member must have length greater than or equal to 1")
	}
	wires := make([]wireRequest, len(order))
	for i, name := range order {
		if len(name) < 3 || len(name) > 255 || !namePattern.MatchString(name) {
			v := name
			fc.fail(&v, "requestItems", "Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]")
		}
		if err := json.Unmarshal(tables[name], &wires[i]); err != nil {
			return req, validationErr("RequestItems.%s is not a KeysAndAttributes object: %v", name, err)
		}
		field := "requestItems." + name + ".member.keys"
		switch {
		case wires[i].Keys == nil:
			fc.fail(nil, field, "Member must not be null")
		case len(wires[i].Keys) == 0:
			v := "[]"
			fc.fail(&v, field, "Member must have length greater than or equal to 1")
		case len(wires[i].Keys) > 100:
			fc.fail(nil, field, "Member must have length less than or equal to 100")
		}
	}
	if err := fc.err(); err != nil {
		return req, err
	}
	total := 0
	for i, name := range order {
		w := wires[i]
		t := readRequest{op: "BatchGetItem", table: name, consistent: w.ConsistentRead != nil && *w.ConsistentRead,
			returnCapacity: req.returnCapacity}
		if w.ProjectionExpression != nil {
			t.projection, t.hasProj = *w.ProjectionExpression, true
		}
		if err := decodePlaceholders(&t, w.ExpressionAttributeNames, nil, false); err != nil {
			return req, err
		}
		if err := checkExpressionParams(&t); err != nil {
			return req, err
		}
		if err := parseExpressions(&t); err != nil {
			return req, err
		}
		seen := map[string]bool{}
		for _, raw := range w.Keys {
			key, _, msg := decodeItem(raw)
			if msg != "" {
				return req, validationErr("%s", msg)
			}
			sig := keySignature(key)
			if seen[sig] {
				return req, validationErr("Provided list of item keys contains duplicates")
			}
			seen[sig] = true
			total++
			if total > 100 {
				return req, validationErr("Too many items requested for the BatchGetItem call")
			}
			t.batchKeys = append(t.batchKeys, key)
		}
		req.batchTables = append(req.batchTables, t)
	}
	req.batchTableOrder = order
	return req, nil
}

// keySignature identifies a key by its attribute names and values, for duplicate detection.
func keySignature(key designer.Item) string {
	var sb strings.Builder
	for _, name := range key.SortedNames() {
		v := key[name]
		sb.WriteString(name)
		sb.WriteByte(0)
		sb.WriteString(string(v.Type))
		sb.WriteByte(0)
		sb.WriteString(canonicalText(v))
		sb.WriteByte(0)
	}
	return sb.String()
}

func canonicalText(v designer.Value) string {
	switch v.Type {
	case designer.N:
		return fixedNumber(v.S)
	case designer.B:
		return string(v.B)
	}
	return designer.FormatCell(v)
}

var placeholderName = regexp.MustCompile(`^#[0-9a-zA-Z_]+$`)
var placeholderValue = regexp.MustCompile(`^:[0-9a-zA-Z_]+$`)

// decodePlaceholders reads ExpressionAttributeNames and, when the operation takes them,
// ExpressionAttributeValues, keeping the order they were written in for DynamoDB's messages.
func decodePlaceholders(req *readRequest, names, values json.RawMessage, takesValues bool) error {
	if present(names) {
		order, raw, err := orderedObject(names)
		if err != nil {
			return validationErr("ExpressionAttributeNames must be a map of strings: %v", err)
		}
		req.names, req.nameOrder, req.hasNames = map[string]string{}, order, true
		for _, k := range order {
			var s string
			if err := json.Unmarshal(raw[k], &s); err != nil {
				return validationErr("ExpressionAttributeNames.%s must be a string", k)
			}
			req.names[k] = s
		}
	}
	if takesValues && present(values) {
		order, raw, err := orderedObject(values)
		if err != nil {
			return validationErr("ExpressionAttributeValues must be a map of attribute values: %v", err)
		}
		req.values, req.valueOrder, req.hasValues = map[string]designer.Value{}, order, true
		for _, k := range order {
			v, msg := decodeValue(raw[k], 0)
			if msg != "" && req.badValue == "" {
				req.badValue = "ExpressionAttributeValues contains invalid value: " + msg + " for key " + k
			}
			req.values[k] = v
		}
	}
	return nil
}

// checkExpressionParams applies dynalite's validateExpressionParams and the placeholder-map checks
// of validateExpressions, in its order.
func checkExpressionParams(req *readRequest) error {
	anyExpr := req.hasProj || req.hasFilter || req.hasKeyCond
	if req.hasNames && !anyExpr {
		return validationErr("ExpressionAttributeNames can only be specified when using expressions")
	}
	if req.hasValues && !req.hasFilter && !req.hasKeyCond {
		switch req.op {
		case "Query":
			return validationErr("ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null")
		case "Scan":
			return validationErr("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null")
		}
	}
	return nil
}

// parseExpressions checks the placeholder maps, parses the expressions and reports unused
// placeholders, as DynamoDB does before it looks at the table.
func parseExpressions(req *readRequest) error {
	if req.hasNames {
		if len(req.nameOrder) == 0 {
			return validationErr("ExpressionAttributeNames must not be empty")
		}
		for _, k := range req.nameOrder {
			if !placeholderName.MatchString(k) {
				return validationErr("ExpressionAttributeNames contains invalid key: Syntax error; key: \"%s\"", k)
			}
		}
	}
	if req.hasValues {
		if len(req.valueOrder) == 0 {
			return validationErr("ExpressionAttributeValues must not be empty")
		}
		for _, k := range req.valueOrder {
			if !placeholderValue.MatchString(k) {
				return validationErr("ExpressionAttributeValues contains invalid key: Syntax error; key: \"%s\"", k)
			}
		}
		if req.badValue != "" {
			return validationErr("%s", req.badValue)
		}
	}
	for _, e := range []struct{ name, src string }{
		{"KeyConditionExpression", req.keyCond}, {"FilterExpression", req.filter}, {"ProjectionExpression", req.projection},
	} {
		if msg := expressionTooLong(e.src); msg != "" {
			return validationErr("Invalid %s: %s", e.name, msg)
		}
	}
	ctx := NewExprContext(req.names, req.values)
	if req.hasKeyCond {
		e, _, msg := ParseCondition(req.keyCond, ctx)
		if msg != "" {
			return validationErr("Invalid KeyConditionExpression: %s", msg)
		}
		req.keyExpr = e
	}
	if req.hasFilter {
		e, p, msg := ParseCondition(req.filter, ctx)
		if msg != "" {
			return validationErr("Invalid FilterExpression: %s", msg)
		}
		req.filterExpr, req.filterParser = e, p
	}
	if req.hasProj {
		paths, nested, msg := ParseProjection(req.projection, ctx)
		if msg != "" {
			return validationErr("Invalid ProjectionExpression: %s", msg)
		}
		req.projPaths, req.projNested = paths, nested
	}
	var unused []string
	for _, k := range req.nameOrder {
		if !ctx.UsedNames[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		return validationErr("Value provided in ExpressionAttributeNames unused in expressions: keys: {%s}", strings.Join(unused, ", "))
	}
	for _, k := range req.valueOrder {
		if !ctx.UsedValues[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		return validationErr("Value provided in ExpressionAttributeValues unused in expressions: keys: {%s}", strings.Join(unused, ", "))
	}
	return nil
}

// orderedObject decodes a JSON object keeping its member order.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("not an object")
	}
	var order []string
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := out[k]; !dup {
			order = append(order, k)
		}
		out[k] = v
	}
	return order, out, nil
}

// decodeItem reads a map of attribute values (a Key or ExclusiveStartKey).
func decodeItem(raw json.RawMessage) (designer.Item, []string, string) {
	order, members, err := orderedObject(raw)
	if err != nil {
		return nil, nil, "The provided key element does not match the schema"
	}
	it := make(designer.Item, len(order))
	for _, k := range order {
		v, msg := decodeValue(members[k], 0)
		if msg != "" {
			return nil, nil, msg
		}
		it[k] = v
	}
	return it, order, ""
}

// decodeValue reads one attribute value, which depth lists and maps enclose, in DynamoDB JSON and
// checks it as DynamoDB does, with DynamoDB's messages. Numbers are kept in DynamoDB's canonical
// spelling.
func decodeValue(raw json.RawMessage, depth int) (designer.Value, string) {
	const empty = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return designer.Value{}, empty
	}
	var types []string
	for k, body := range m {
		if designer.Type(k).Valid() && present(body) {
			types = append(types, k)
		}
	}
	if len(types) == 0 {
		return designer.Value{}, empty
	}
	if len(types) > 1 {
		return designer.Value{}, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	}
	t := designer.Type(types[0])
	body := m[types[0]]
	bad := func() (designer.Value, string) {
		return designer.Value{}, "Supplied AttributeValue has an invalid " + string(t) + " value"
	}
	v := designer.Value{Type: t}
	switch t {
	case designer.S:
		if json.Unmarshal(body, &v.S) != nil {
			return bad()
		}
	case designer.N:
		if json.Unmarshal(body, &v.S) != nil {
			return bad()
		}
		n, msg := checkNum(v.S)
		if msg != "" {
			return designer.Value{}, msg
		}
		v.S = n
	case designer.B:
		b, ok := decodeBase64(body)
		if !ok {
			return bad()
		}
		v.B = b
	case designer.BOOL:
		if json.Unmarshal(body, &v.Bool) != nil {
			return bad()
		}
	case designer.NULL:
		var b bool
		if json.Unmarshal(body, &b) != nil {
			return bad()
		}
		if !b {
			return designer.Value{}, "One or more parameter values were invalid: Null attribute value types must have the value of true"
		}
	case designer.SS, designer.NS:
		if json.Unmarshal(body, &v.SS) != nil {
			return bad()
		}
		if len(v.SS) == 0 {
			if t == designer.SS {
				return designer.Value{}, "One or more parameter values were invalid: An string set  may not be empty"
			}
			return designer.Value{}, "One or more parameter values were invalid: An number set  may not be empty"
		}
		if t == designer.NS {
			for i, s := range v.SS {
				n, msg := checkNum(s)
				if msg != "" {
					return designer.Value{}, msg
				}
				v.SS[i] = n
			}
		}
		seen := map[string]bool{}
		for _, s := range v.SS {
			if seen[s] {
				if t == designer.NS {
					return designer.Value{}, "Input collection contains duplicates"
				}
				return designer.Value{}, "One or more parameter values were invalid: Input collection [" + strings.Join(v.SS, ", ") + "] contains duplicates."
			}
			seen[s] = true
		}
	case designer.BS:
		var raws []json.RawMessage
		if json.Unmarshal(body, &raws) != nil {
			return bad()
		}
		if len(raws) == 0 {
			return designer.Value{}, "One or more parameter values were invalid: Binary sets should not be empty"
		}
		seen := map[string]bool{}
		for _, r := range raws {
			b, ok := decodeBase64(r)
			if !ok {
				return bad()
			}
			if seen[string(b)] {
				return designer.Value{}, "One or more parameter values were invalid: Input collection contains duplicates of type BS."
			}
			seen[string(b)] = true
			v.BS = append(v.BS, b)
		}
	case designer.L:
		if depth >= designer.MaxValueDepth {
			return designer.Value{}, tooDeepMessage
		}
		var raws []json.RawMessage
		if json.Unmarshal(body, &raws) != nil {
			return bad()
		}
		v.L = make([]designer.Value, len(raws))
		for i, r := range raws {
			e, msg := decodeValue(r, depth+1)
			if msg != "" {
				return designer.Value{}, msg
			}
			v.L[i] = e
		}
	case designer.M:
		if depth >= designer.MaxValueDepth {
			return designer.Value{}, tooDeepMessage
		}
		var raws map[string]json.RawMessage
		if json.Unmarshal(body, &raws) != nil {
			return bad()
		}
		v.M = make(map[string]designer.Value, len(raws))
		for k, r := range raws {
			e, msg := decodeValue(r, depth+1)
			if msg != "" {
				return designer.Value{}, msg
			}
			v.M[k] = e
		}
	}
	return v, ""
}

// tooDeepMessage is DynamoDB's answer to lists and maps nested past its limit, with the limit.
var tooDeepMessage = "Nesting Levels have exceeded supported limits: " + designer.ErrValueTooDeep.Error()

func decodeBase64(body json.RawMessage) ([]byte, bool) {
	var s string
	if json.Unmarshal(body, &s) != nil {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return b, err == nil
}

// checkNum checks a number as DynamoDB does and returns it in canonical form.
func checkNum(s string) (string, string) {
	if s == "" {
		return "", "The parameter cannot be converted to a numeric value"
	}
	d, ok := designer.ParseDecimal(s)
	if !ok || s[0] == '+' {
		return "", "The parameter cannot be converted to a numeric value: " + s
	}
	if d.Digits != "" {
		magnitude := d.Exp + int64(len(d.Digits)) - 1
		switch {
		case magnitude > 125:
			return "", "Number overflow. Attempting to store a number with magnitude larger than supported range"
		case magnitude < -130:
			return "", "Number underflow. Attempting to store a number with magnitude smaller than supported range"
		}
		if len(d.Digits) > 38 {
			return "", "Attempting to store more than 38 significant digits in a Number"
		}
	}
	return fixedNumber(s), ""
}

// fixedNumber writes a number the way DynamoDB returns it: plain decimal notation, no exponent, no
// leading or trailing zeros ("1.50" → "1.5", "1E3" → "1000", "-0" → "0"). Text that is not a
// number is returned as it is.
func fixedNumber(s string) string {
	d, ok := designer.ParseDecimal(s)
	if !ok || d.Exp > 200 || d.Exp < -200 {
		return s
	}
	if d.Digits == "" {
		return "0"
	}
	var sb strings.Builder
	if d.Negative {
		sb.WriteByte('-')
	}
	switch intLen := int64(len(d.Digits)) + d.Exp; {
	case d.Exp >= 0:
		sb.WriteString(d.Digits)
		sb.WriteString(strings.Repeat("0", int(d.Exp)))
	case intLen > 0:
		sb.WriteString(d.Digits[:intLen])
		sb.WriteByte('.')
		sb.WriteString(d.Digits[intLen:])
	default:
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", int(-intLen)))
		sb.WriteString(d.Digits)
	}
	return sb.String()
}

// CanonicalItem returns the item with every number, at any depth, in DynamoDB's spelling.
func CanonicalItem(it designer.Item) designer.Item {
	if isCanonical(it) {
		return it
	}
	out := make(designer.Item, len(it))
	for k, v := range it {
		out[k] = canonicalValue(v)
	}
	return out
}

func canonicalValue(v designer.Value) designer.Value {
	switch v.Type {
	case designer.N:
		v.S = fixedNumber(v.S)
	case designer.NS:
		ns := make([]string, len(v.SS))
		for i, s := range v.SS {
			ns[i] = fixedNumber(s)
		}
		v.SS = ns
	case designer.L:
		l := make([]designer.Value, len(v.L))
		for i, e := range v.L {
			l[i] = canonicalValue(e)
		}
		v.L = l
	case designer.M:
		v.M = CanonicalItem(v.M)
	}
	return v
}

// isCanonical reports whether every number of the item is already in DynamoDB's spelling, so
// that the item can be returned as it is.
func isCanonical(it designer.Item) bool {
	for _, v := range it {
		if !valueCanonical(v) {
			return false
		}
	}
	return true
}

func valueCanonical(v designer.Value) bool {
	switch v.Type {
	case designer.N:
		return isFixedNumber(v.S)
	case designer.NS:
		for _, s := range v.SS {
			if !isFixedNumber(s) {
				return false
			}
		}
	case designer.L:
		for _, e := range v.L {
			if !valueCanonical(e) {
				return false
			}
		}
	case designer.M:
		return isCanonical(v.M)
	}
	return true
}

// isFixedNumber reports, without allocating, whether s is already written as fixedNumber writes
// it: an optional minus, an integer part without leading zeros, and a fraction without trailing
// zeros; "0" but not "-0".
func isFixedNumber(s string) bool {
	i := 0
	if strings.HasPrefix(s, "-") {
		i++
	}
	start := i
	for i < len(s) && designer.IsDigit(s[i]) {
		i++
	}
	intPart := s[start:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return false
	}
	if i == len(s) {
		return !(intPart == "0" && start == 1)
	}
	if s[i] != '.' || i+1 == len(s) || s[len(s)-1] == '0' {
		return false
	}
	for j := i + 1; j < len(s); j++ {
		if !designer.IsDigit(s[j]) {
			return false
		}
	}
	return true
}
