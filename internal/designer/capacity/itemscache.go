package capacity

import (
	"sync"
	"weak"

	"dynaloom/internal/designer"
)

// itemsKey names the sample items of one state of a table (a design never changes an items array
// in place: an edit makes a new one) and what was read of them. The weak pointer lets a table's old
// items go.
type itemsKey struct {
	items weak.Pointer[designer.SampleItem]
	n     int
	what  string
}

// keyOfItems is the key of what, read of items (which are not empty).
func keyOfItems(items []designer.SampleItem, what string) itemsKey {
	return itemsKey{items: weak.Make(&items[0]), n: len(items), what: what}
}

// itemsCache remembers what was read of a table's items across the revisions of every design: at
// most maxRemembered entries, those of items gone first.
type itemsCache[V any] struct {
	mu sync.Mutex
	m  map[itemsKey]V
}

const maxRemembered = 4096

func (c *itemsCache[V]) get(k itemsKey) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *itemsCache[V]) put(k itemsKey, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[itemsKey]V{}
	}
	if len(c.m) >= maxRemembered {
		for k := range c.m {
			if k.items.Value() == nil {
				delete(c.m, k)
			}
		}
		if len(c.m) >= maxRemembered {
			clear(c.m)
		}
	}
	c.m[k] = v
}
