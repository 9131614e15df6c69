package dynamo

// Parts hands, under the Cache's lock, everything c holds beyond the items of the design it
// reads to add (memory.Counter.Add) or, for a container whose elements it hands one by one,
// shallow (memory.Counter.Shallow): for measuring what c takes. An index list still being worked
// out by another read counts only the items it pins.
func (c *Cache) Parts(add, shallow func(any)) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	list := func(l *indexList) {
		if l.built.Load() {
			add(l)
			return
		}
		add(l.items)
	}
	add(c.entries)
	add(c.order)
	shallow(c.indexes)
	for k, l := range c.indexes {
		add(k.sig)
		list(l)
	}
	// Key orders and attribute names count once built: until then only the items they pin,
	// which are the design's.
	shallow(c.orders)
	for _, e := range c.orders {
		if e.built.Load() {
			add(&e.o)
		}
	}
	shallow(c.latest)
	shallow(c.names)
	for _, e := range c.names {
		if e.built.Load() {
			add(e.counts)
			add(e.names)
		}
	}
	shallow(c.latestNames)
	shallow(c.edits)
	for _, e := range c.edits {
		add(e.old)
		add(e.at)
		shallow(e.lists)
		for sig, l := range e.lists {
			add(sig)
			list(l)
		}
	}
}
