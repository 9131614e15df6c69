// Package sdkcode writes each access pattern's DynamoDB requests as code for three AWS SDKs: the
// SDK for JavaScript v3 through @aws-sdk/lib-dynamodb, boto3's client for Python and the SDK for
// Go v2. docs/exports.md ("Code per pattern") says what the files hold.
package sdkcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"dynaloom/internal/designer"
)

// Request is one API request of a pattern: the body the mcp-model-json export builds for its
// command, handed over by the format dispatcher, since one format shares no code with another.
type Request struct {
	Pattern     int
	ID          string // "3", or "3a", "3b", … when the pattern makes several requests
	Description string // the pattern's
	Operation   string // GetItem, Query, BatchWriteItem, …
	Tables      []string
	Index       string
	Body        json.RawMessage
	// Reason, set when Body is nil, says why the request cannot be made.
	Reason string
}

// kind is what a node of a request is; the printers of each language write each kind their way.
type kind int

const (
	kString kind = iota
	kInt
	kBool
	kStruct  // named members: the input, or one of the SDK's structures inside it
	kList    // a list of nodes of elem
	kMap     // string keys to nodes of elem
	kNames   // ExpressionAttributeNames: string keys to strings
	kItem    // attribute name to attribute value: a key, an item, the expression values
	kAttrVal // one attribute value
)

// node is one part of a request, typed as the SDKs type it.
type node struct {
	kind kind
	// goType is the Go type of a struct, or of the elements of a list or map.
	goType string
	// pointer says the struct is held by pointer in the Go type around it.
	pointer bool
	str     string
	num     int
	boolean bool
	members []member // struct members in the order written, map entries by key
	elems   []*node  // list elements
	value   designer.Value
}

type member struct {
	name string
	node *node
}

// memberOrder is the order members are written in: what is read first, then its options.
var memberOrder = []string{"TableName", "IndexName", "Key", "Item", "Keys", "KeyConditionExpression",
	"UpdateExpression", "ConditionExpression", "FilterExpression", "ProjectionExpression",
	"ExpressionAttributeNames", "ExpressionAttributeValues", "RequestItems", "TransactItems",
	"Get", "Put", "Update", "Delete", "ConditionCheck", "PutRequest", "DeleteRequest",
	"Limit", "ScanIndexForward", "ConsistentRead"}

// structMembers are the members that hold one of the SDK's structures, by their Go type.
var structMembers = map[string]string{"PutRequest": "types.PutRequest", "DeleteRequest": "types.DeleteRequest",
	"Get": "types.Get", "Put": "types.Put", "Update": "types.Update", "Delete": "types.Delete",
	"ConditionCheck": "types.ConditionCheck"}

// parse reads a request body into the nodes the printers write. A member it does not know is an
// error, so that a request the model export learns to make cannot be written incompletely.
func parse(op string, body json.RawMessage) (*node, error) {
	return parseStruct(op, "dynamodb."+op+"Input", body)
}

func parseStruct(op, goType string, raw json.RawMessage) (*node, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	n := &node{kind: kStruct, goType: goType}
	for name := range fields {
		if !slices.Contains(memberOrder, name) {
			return nil, fmt.Errorf("%s has a member %s the code writers do not know", op, name)
		}
	}
	for _, name := range memberOrder {
		raw, ok := fields[name]
		if !ok {
			continue
		}
		m, err := parseMember(op, name, raw)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", op, name, err)
		}
		n.members = append(n.members, member{name, m})
	}
	return n, nil
}

func parseMember(op, name string, raw json.RawMessage) (*node, error) {
	switch name {
	case "Limit":
		n := &node{kind: kInt}
		return n, json.Unmarshal(raw, &n.num)
	case "ScanIndexForward", "ConsistentRead":
		n := &node{kind: kBool}
		return n, json.Unmarshal(raw, &n.boolean)
	case "Key", "Item", "ExpressionAttributeValues":
		return parseItem(raw)
	case "ExpressionAttributeNames":
		var names map[string]string
		if err := json.Unmarshal(raw, &names); err != nil {
			return nil, err
		}
		n := &node{kind: kNames}
		for _, k := range sortedKeys(names) {
			n.members = append(n.members, member{k, &node{kind: kString, str: names[k]}})
		}
		return n, nil
	case "Keys":
		var keys []json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil {
			return nil, err
		}
		n := &node{kind: kList, goType: "map[string]types.AttributeValue"}
		for _, k := range keys {
			item, err := parseItem(k)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, item)
		}
		return n, nil
	case "RequestItems":
		return parseRequestItems(op, raw)
	case "TransactItems":
		var actions []json.RawMessage
		if err := json.Unmarshal(raw, &actions); err != nil {
			return nil, err
		}
		elem := "types.TransactWriteItem"
		if op == "TransactGetItems" {
			elem = "types.TransactGetItem"
		}
		n := &node{kind: kList, goType: elem}
		for _, a := range actions {
			s, err := parseStruct(op, elem, a)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, s)
		}
		return n, nil
	}
	if t, ok := structMembers[name]; ok {
		s, err := parseStruct(op, t, raw)
		if s != nil {
			s.pointer = true
		}
		return s, err
	}
	n := &node{kind: kString}
	return n, json.Unmarshal(raw, &n.str)
}

// parseRequestItems reads BatchGetItem's tables of keys or BatchWriteItem's tables of writes.
func parseRequestItems(op string, raw json.RawMessage) (*node, error) {
	var tables map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tables); err != nil {
		return nil, err
	}
	n := &node{kind: kMap, goType: "types.KeysAndAttributes"}
	if op == "BatchWriteItem" {
		n.goType = "[]types.WriteRequest"
	}
	for _, table := range sortedKeys(tables) {
		var entry *node
		var err error
		if op == "BatchWriteItem" {
			var writes []json.RawMessage
			if err = json.Unmarshal(tables[table], &writes); err != nil {
				return nil, err
			}
			entry = &node{kind: kList, goType: "types.WriteRequest"}
			for _, w := range writes {
				s, err := parseStruct(op, "types.WriteRequest", w)
				if err != nil {
					return nil, err
				}
				entry.elems = append(entry.elems, s)
			}
		} else if entry, err = parseStruct(op, "types.KeysAndAttributes", tables[table]); err != nil {
			return nil, err
		}
		n.members = append(n.members, member{table, entry})
	}
	return n, nil
}

func parseItem(raw json.RawMessage) (*node, error) {
	var item designer.Item
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&item); err != nil {
		return nil, err
	}
	n := &node{kind: kItem}
	for _, k := range sortedKeys(item) {
		n.members = append(n.members, member{k, &node{kind: kAttrVal, value: item[k]}})
	}
	return n, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
