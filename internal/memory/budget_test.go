package memory

import (
	"slices"
	"testing"
)

// Two caches sharing a Budget: past the limit the least recently used entry goes, whichever cache
// holds it; one just used, held or resized stays; one larger than the limit is not kept.
func TestBudget_dropsTheLeastRecentlyUsedOfEveryCache(t *testing.T) {
	b := NewBudget(100)
	var dropped []string
	held := map[string]*Held{}
	hold := func(name string, bytes int64) {
		b.Lock()
		defer b.Unlock()
		held[name] = b.Hold(bytes, func() { dropped = append(dropped, name) })
	}
	hold("records/a", 30)
	hold("derived/a", 30)
	hold("records/b", 30)
	b.Lock()
	b.Use(held["records/a"])
	b.Unlock()
	hold("derived/b", 30) // 120: derived/a is the least recently used
	if !slices.Equal(dropped, []string{"derived/a"}) {
		t.Fatalf("dropped %v, want [derived/a]", dropped)
	}
	b.Lock()
	b.Resize(held["records/b"], 80) // 140: records/a, then derived/b go; records/b stays
	b.Unlock()
	if !slices.Equal(dropped, []string{"derived/a", "records/a", "derived/b"}) {
		t.Fatalf("dropped %v, want [derived/a records/a derived/b]", dropped)
	}
	if n, bytes := b.Used(); n != 1 || bytes != 80 {
		t.Fatalf("Used() = %d entries, %d bytes; want 1, 80", n, bytes)
	}
	hold("huge", 101)
	if held["huge"] != nil {
		t.Fatal("an entry larger than the whole limit was held")
	}
	b.Lock()
	b.Release(held["records/b"])
	b.Resize(held["records/b"], 10) // released: no longer charged
	b.Unlock()
	if n, bytes := b.Used(); n != 0 || bytes != 0 || len(dropped) != 3 {
		t.Fatalf("after Release: Used() = %d entries, %d bytes, dropped %v; want nothing held and no drop", n, bytes, dropped)
	}
}
