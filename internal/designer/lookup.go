package designer

// Lookup returns the first element of list whose key is key, with its index, or ok false: the one
// loop behind every XByName and XByID lookup. keyOf takes a pointer so that no element is copied
// until one is found.
func Lookup[T any, K comparable](list []T, key K, keyOf func(*T) K) (found T, i int, ok bool) {
	for i := range list {
		if keyOf(&list[i]) == key {
			return list[i], i, true
		}
	}
	var zero T
	return zero, -1, false
}

func nameOfEntity(e *Entity) string       { return e.Name }
func nameOfAttribute(a *Attribute) string { return a.Name }
func nameOfTable(t *Table) string         { return t.Name }
func nameOfIndex(ix *Index) string        { return ix.Name }
func numberOfPattern(p *Pattern) int      { return p.Number }
