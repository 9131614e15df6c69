package dynamo

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"dynaloom/internal/designer"
)

// orderEntry is one table's key order (designer.KeyOrder), worked out once.
type orderEntry struct {
	items []designer.SampleItem // pins the array named by the key
	key   orderKey
	once  sync.Once
	o     designer.KeyOrder
	built atomic.Bool
}

// orderKey names a table's items, the array's first element and its length, and what else their
// order depends on (orderSignature).
type orderKey struct {
	first *designer.SampleItem
	n     int
	sig   string
}

// orderSignature is what a table's key order depends on besides its items: its keys and its
// entity types' templates, each text written with its length.
func orderSignature(t designer.Table) string {
	var sb strings.Builder
	text := func(s string) {
		sb.WriteString(strconv.Itoa(len(s)))
		sb.WriteByte(':')
		sb.WriteString(s)
	}
	text(t.PartitionKey.Name)
	text(string(t.PartitionKey.Type))
	if t.SortKey != nil {
		text(t.SortKey.Name)
		text(string(t.SortKey.Type))
	}
	sb.WriteByte('|')
	for _, et := range t.EntityTypes {
		text(et.Entity)
		text(et.PKTemplate)
		text(et.SKTemplate)
	}
	return sb.String()
}

// KeyOrder is designer.NewKeyOrder of t, remembered in c: worked out once per items array, and
// patched from the newest order the Cache c was made For from held of the table of the same name
// (designer.KeyOrder.For), so that an edit of a few items does not sort the table again. A nil c
// sorts every time. The order is shared: callers must not modify it.
func (c *Cache) KeyOrder(t designer.Table) designer.KeyOrder {
	if c == nil || len(t.Items) == 0 {
		return designer.NewKeyOrder(t)
	}
	k := orderKey{&t.Items[0], len(t.Items), orderSignature(t)}
	c.mu.Lock()
	e, ok := c.orders[k]
	var base *orderEntry
	if !ok {
		e = &orderEntry{items: t.Items, key: k}
		if c.orders == nil {
			c.orders = map[orderKey]*orderEntry{}
			c.latest = map[string]*orderEntry{}
		}
		base = c.latest[t.Name]
		c.orders[k] = e
		c.latest[t.Name] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		if base != nil && base.built.Load() {
			e.o = base.o.For(t)
		} else {
			e.o = designer.NewKeyOrder(t)
		}
		e.built.Store(true)
	})
	return e.o
}

// carryOrders gives next the orders c holds of the tables of d by name, the newest of each, to be
// patched from and read as the order of the table an edit started from; c.mu is held.
func (c *Cache) carryOrders(next *Cache, d designer.Design) {
	for _, t := range d.Tables {
		e, ok := c.latest[t.Name]
		if !ok || !e.built.Load() {
			continue
		}
		if next.orders == nil {
			next.orders = map[orderKey]*orderEntry{}
			next.latest = map[string]*orderEntry{}
		}
		next.orders[e.key] = e
		next.latest[t.Name] = e
	}
}
