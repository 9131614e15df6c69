// Package memory bounds what the server keeps in memory per design: one Budget shared by every
// cache of it (the store's records and decoded history snapshots, and what is derived from each
// revision), charged the bytes each entry holds as Size measures them, the least recently used
// going first. Standard library only: storage and derive both charge it.
package memory

import (
	"container/list"
	"sync"
)

// Budget is a limit in bytes on the entries of every cache sharing it, with their order of use.
// Its lock is the lock of those caches too: they take it (Lock) around every look-up and change
// of their maps, and the Budget calls an entry's drop with it held, so dropping needs no other
// lock and no two caches can wait on each other.
type Budget struct {
	mu    sync.Mutex
	limit int64
	used  int64
	order list.List // of *Held, most recently used first
}

// Held is one entry's charge on a Budget.
type Held struct {
	bytes int64
	el    *list.Element
	drop  func()
}

// NewBudget returns a Budget of limit bytes.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Lock and Unlock guard the Budget and the maps of the caches sharing it.
func (b *Budget) Lock()   { b.mu.Lock() }
func (b *Budget) Unlock() { b.mu.Unlock() }

// Limit is the Budget's limit in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Hold charges an entry of bytes to b as its most recently used, then drops the least recently
// used others until b fits its limit. drop removes the entry from its cache; it is called with b
// locked. An entry larger than the whole limit is not held: Hold returns nil. b must be locked.
func (b *Budget) Hold(bytes int64, drop func()) *Held {
	if bytes > b.limit {
		return nil
	}
	h := &Held{bytes: bytes, drop: drop}
	h.el = b.order.PushFront(h)
	b.used += bytes
	b.fit(h)
	return h
}

// Use makes h the most recently used. b must be locked.
func (b *Budget) Use(h *Held) {
	if h != nil && h.el != nil {
		b.order.MoveToFront(h.el)
	}
}

// Resize charges h bytes instead of what it was charged, then drops the least recently used
// others until b fits; an entry grown larger than the whole limit is dropped itself. b must be
// locked.
func (b *Budget) Resize(h *Held, bytes int64) {
	if h == nil || h.el == nil {
		return
	}
	if bytes > b.limit {
		b.Release(h)
		h.drop()
		return
	}
	b.used += bytes - h.bytes
	h.bytes = bytes
	b.fit(h)
}

// Release takes h off b without calling its drop: its cache let the entry go. b must be locked.
func (b *Budget) Release(h *Held) {
	if h == nil || h.el == nil {
		return
	}
	b.order.Remove(h.el)
	h.el = nil
	b.used -= h.bytes
}

// fit drops the least recently used entries but keep until b fits its limit.
func (b *Budget) fit(keep *Held) {
	for b.used > b.limit {
		el := b.order.Back()
		if el == nil {
			return
		}
		h := el.Value.(*Held)
		if h == keep {
			if el = el.Prev(); el == nil {
				return
			}
			h = el.Value.(*Held)
		}
		b.Release(h)
		h.drop()
	}
}

// Used is how many entries and bytes b holds.
func (b *Budget) Used() (entries int, bytes int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.order.Len(), b.used
}

// Bytes is what h is charged.
func (h *Held) Bytes() int64 {
	if h == nil {
		return 0
	}
	return h.bytes
}
