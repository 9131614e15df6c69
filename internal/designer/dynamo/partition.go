package dynamo

import "dynaloom/internal/designer"

// ReadPartition is what a read's key condition says about the items it can return: the value it
// gives, with =, to each attribute of its target's partition key (the table's, or the index's). A
// read with a partition returns only items, or index entries of items, whose partition key
// attributes hold these values (InPartition): an edit of other items leaves its result as it was,
// as long as the edit keeps every table key, so that no item shadows another. ok is false when the
// read may return any item of its table: a Scan, a write, a condition that cannot be read, or a key
// given otherwise than with =.
func ReadPartition(t designer.Table, op designer.Operation) (key designer.Item, ok bool) {
	switch op.Op {
	case "Query", "GetItem", "BatchGetItem", "TransactGetItems":
	default:
		return nil, false
	}
	names := []string{t.PartitionKey.Name}
	if op.Index != "" {
		ix, local, _, found := t.IndexByName(op.Index)
		if !found || op.Op != "Query" {
			return nil, false
		}
		if !local {
			names = names[:0]
			for _, k := range ix.PartitionKey {
				names = append(names, k.Name)
			}
		}
	}
	e, _, msg := ParseCondition(op.KeyCondition, NewExprContext(op.Names, op.Values))
	if msg != "" || e == nil {
		return nil, false
	}
	given := designer.Item{}
	var walk func(c *condExpr)
	walk = func(c *condExpr) {
		switch {
		case c.kind == condAnd:
			walk(c.left)
			walk(c.right)
		case c.kind == condCompare && c.op == "=":
			attr, val := c.args[0], c.args[1]
			if attr.kind != operandPath {
				attr, val = val, attr
			}
			if attr.kind == operandPath && len(attr.path) == 1 && val.kind == operandVal {
				given[attr.path[0].name] = val.value
			}
		}
	}
	walk(e)
	key = designer.Item{}
	for _, name := range names {
		v, ok := given[name]
		if !ok || name == "" {
			return nil, false
		}
		key[name] = v
	}
	return key, true
}

// InPartition reports whether it holds every value of key (ReadPartition), as DynamoDB compares
// key values.
func InPartition(it designer.Item, key designer.Item) bool {
	for name, want := range key {
		if v, ok := it[name]; !ok || !v.Equal(want) {
			return false
		}
	}
	return true
}
