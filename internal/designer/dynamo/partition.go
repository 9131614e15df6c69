package dynamo

import (
	"reflect"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

// ReadPartition is what a read's key condition says about the items it can return: the value it
// gives, with =, to each attribute of its target's partition key (the table's, or the index's). A
// read with a partition returns only items, or index entries of items, whose partition key
// attributes hold these values (InPartition): an edit of other items leaves its result as it was,
// as long as the edit keeps every table key, so that no item shadows another. ok is false when the
// read may return any item of its table: a Scan, a write, a condition that cannot be read, or a key
// given otherwise than with =. The key it returns is shared and must not be changed.
func ReadPartition(t designer.Table, op designer.Operation) (key designer.Item, ok bool) {
	a := readPartition(t, op)
	return a.key, a.ok
}

// PartitionKey is a partition ReadPartition gives, as the list of its attributes' values: testing
// an item against it (Holds) walks no map, which an edit's check of every read of its table does
// for each edited item, on every revision.
type PartitionKey struct {
	names  []string
	values []designer.Value
}

// ReadPartitionKey is ReadPartition, as a PartitionKey.
func ReadPartitionKey(t designer.Table, op designer.Operation) (PartitionKey, bool) {
	a := readPartition(t, op)
	return a.pk, a.ok
}

// Holds is InPartition(it, k): it holds every value of k.
func (k PartitionKey) Holds(it designer.Item) bool {
	for i, name := range k.names {
		if v, ok := it[name]; !ok || !v.Equal(k.values[i]) {
			return false
		}
	}
	return true
}

func readPartition(t designer.Table, op designer.Operation) partitionAnswer {
	switch op.Op {
	case "Query", "GetItem", "BatchGetItem", "TransactGetItems":
	default:
		return partitionAnswer{}
	}
	names := []string{t.PartitionKey.Name}
	if op.Index != "" {
		ix, local, _, found := t.IndexByName(op.Index)
		if !found || op.Op != "Query" {
			return partitionAnswer{}
		}
		if !local {
			names = names[:0]
			for _, k := range ix.PartitionKey {
				names = append(names, k.Name)
			}
		}
	}
	return partitions.of(names, op)
}

// partitionOf is ReadPartition of op for a target whose partition key has the attributes names.
func partitionOf(names []string, op designer.Operation) (designer.Item, bool) {
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
	key := designer.Item{}
	for _, name := range names {
		v, ok := given[name]
		if !ok || name == "" {
			return nil, false
		}
		key[name] = v
	}
	return key, true
}

// partitionMemo remembers ReadPartition's answers, which the capacity figures and the rules ask for
// every read of an edited table on every revision: parsing the key condition each time made up a
// tenth of a cell edit's CPU on a design of hundreds of patterns. An operation's placeholder maps
// are never changed once in a design (a change copies what it changes), so an answer is kept for
// the maps themselves, by identity; the entry holds them, so that their addresses cannot be
// reused while it lives. The memo is emptied whole when it fills.
type partitionMemo struct {
	mu      sync.Mutex
	entries map[partitionQuestion]partitionAnswer
}

const maxPartitionAnswers = 1 << 14

type partitionQuestion struct {
	cond      string
	names     string // the target's partition-key attributes, joined by NUL
	namesMap  uintptr
	valuesMap uintptr
}

type partitionAnswer struct {
	names  map[string]string
	values map[string]designer.Value
	key    designer.Item
	pk     PartitionKey
	ok     bool
}

var partitions = &partitionMemo{entries: map[partitionQuestion]partitionAnswer{}}

func (m *partitionMemo) of(names []string, op designer.Operation) partitionAnswer {
	q := partitionQuestion{cond: op.KeyCondition, names: strings.Join(names, "\x00"),
		namesMap: mapAddress(op.Names), valuesMap: mapAddress(op.Values)}
	m.mu.Lock()
	a, hit := m.entries[q]
	m.mu.Unlock()
	if hit {
		return a
	}
	a = partitionAnswer{names: op.Names, values: op.Values}
	a.key, a.ok = partitionOf(names, op)
	for name, v := range a.key {
		a.pk.names, a.pk.values = append(a.pk.names, name), append(a.pk.values, v)
	}
	m.mu.Lock()
	if len(m.entries) >= maxPartitionAnswers {
		clear(m.entries)
	}
	m.entries[q] = a
	m.mu.Unlock()
	return a
}

// mapAddress is m's identity (0 for a nil map).
func mapAddress[K comparable, V any](m map[K]V) uintptr {
	return uintptr(reflect.ValueOf(m).UnsafePointer())
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
