package memory

import (
	"reflect"
	"sync"
	"unsafe"
)

// Size is what v holds on the heap, in bytes: v itself and everything it reaches through pointers,
// slices, maps, strings and interfaces, each counted once, as Go's allocator lays it out (objects
// rounded up to their size class, maps by their tables and groups). What shared reaches is taken
// as already counted, so that the Derived of a revision is not charged the design its cache
// already holds. Funcs and channels count as a word; unsafe pointers are followed only where an
// atomic.Pointer says what they point to.
//
// The walk is deterministic and costs time in proportion to what v holds, about what decoding it
// cost: callers measure an entry when it is made from scratch and scale that measure while it
// changes little (see Scale).
func Size(v any, shared ...any) int64 {
	c := NewCounter(shared...)
	c.Add(v)
	return c.Bytes()
}

// Counter sums what several values hold on the heap, each object counted once however many of
// them reach it, as Size does for one: for a value whose parts are read under different locks.
type Counter struct{ w walker }

// NewCounter returns a Counter that takes what shared reaches as already counted.
func NewCounter(shared ...any) *Counter {
	c := &Counter{w: walker{seen: map[uintptr]struct{}{}}}
	for _, s := range shared {
		c.w.root(reflect.ValueOf(s))
	}
	c.w.counting, c.w.n = true, 0
	return c
}

// Add counts what v reaches that nothing counted before reached; v's own bytes are its
// holder's: pass a pointer to count a struct too.
func (c *Counter) Add(v any) {
	if v := reflect.ValueOf(v); v.IsValid() {
		c.w.inner(v)
	}
}

// Shallow counts the table of map m, or the array of slice m, without what its keys and elements
// reach: for a container whose elements are counted one by one (Add), some perhaps not at all.
func (c *Counter) Shallow(m any) {
	v := reflect.ValueOf(m)
	if !v.IsValid() || v.IsNil() || !c.w.first(v.Pointer()) {
		return
	}
	switch v.Kind() {
	case reflect.Map:
		c.w.add(mapBytes(v.Type(), v.Len()))
	case reflect.Slice:
		c.w.add(roundAlloc(uintptr(v.Cap())*v.Type().Elem().Size(), hasPointers(v.Type().Elem())))
	}
}

// Bytes is what the values added hold.
func (c *Counter) Bytes() int64 { return c.w.n }

type walker struct {
	seen     map[uintptr]struct{}
	counting bool
	n        int64
}

func (w *walker) root(v reflect.Value) {
	if !v.IsValid() {
		return
	}
	w.add(roundAlloc(v.Type().Size(), hasPointers(v.Type())))
	w.inner(v)
}

func (w *walker) add(n uintptr) {
	if w.counting {
		w.n += int64(n)
	}
}

// first reports whether the object at p is met for the first time, and marks it met.
func (w *walker) first(p uintptr) bool {
	if p == 0 {
		return false
	}
	if _, ok := w.seen[p]; ok {
		return false
	}
	w.seen[p] = struct{}{}
	return true
}

// inner counts what v reaches outside its own bytes, which its container has counted.
func (w *walker) inner(v reflect.Value) {
	t := v.Type()
	if !hasPointers(t) {
		return
	}
	switch t.Kind() {
	case reflect.String:
		if s := v.String(); len(s) > 0 && w.first(uintptr(unsafe.Pointer(unsafe.StringData(s)))) {
			w.add(roundAlloc(uintptr(len(s)), false))
		}
	case reflect.Pointer:
		if v.IsNil() || !w.first(v.Pointer()) {
			return
		}
		e := t.Elem()
		w.add(roundAlloc(e.Size(), hasPointers(e)))
		w.inner(v.Elem())
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || !w.first(v.Pointer()) {
			return
		}
		e := t.Elem()
		w.add(roundAlloc(uintptr(v.Cap())*e.Size(), hasPointers(e)))
		if hasPointers(e) {
			for i := range v.Len() {
				w.inner(v.Index(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			w.inner(v.Index(i))
		}
	case reflect.Struct:
		if w.atomicPointer(v) {
			return
		}
		for i := range v.NumField() {
			w.inner(v.Field(i))
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
			// The interface's data word is the pointer itself.
		default:
			w.add(roundAlloc(e.Type().Size(), hasPointers(e.Type())))
		}
		w.inner(e)
	case reflect.Map:
		if v.IsNil() || !w.first(v.Pointer()) {
			return
		}
		w.add(mapBytes(t, v.Len()))
		kp, ep := hasPointers(t.Key()), hasPointers(t.Elem())
		kBig, eBig := t.Key().Size() > maxSlot, t.Elem().Size() > maxSlot
		it := v.MapRange()
		for it.Next() {
			if kBig {
				w.add(roundAlloc(t.Key().Size(), kp))
			}
			if eBig {
				w.add(roundAlloc(t.Elem().Size(), ep))
			}
			if kp {
				w.inner(it.Key())
			}
			if ep {
				w.inner(it.Value())
			}
		}
	}
}

// atomicPointer follows an atomic.Pointer[T]: a struct of a [0]*T, which says what its
// unsafe.Pointer field points to, and that field.
func (w *walker) atomicPointer(v reflect.Value) bool {
	t := v.Type()
	var elem reflect.Type
	ptr := -1
	for i := range t.NumField() {
		f := t.Field(i).Type
		switch {
		case f.Kind() == reflect.Array && f.Len() == 0 && f.Elem().Kind() == reflect.Pointer:
			elem = f.Elem().Elem()
		case f.Kind() == reflect.UnsafePointer:
			ptr = i
		}
	}
	if elem == nil || ptr < 0 {
		return false
	}
	p := v.Field(ptr).UnsafePointer()
	if p != nil {
		w.inner(reflect.NewAt(elem, p))
	}
	return true
}

// maxSlot is the largest key or element a map keeps in its slots; larger ones are allocated apart
// and the slot holds a pointer.
const maxSlot = 128

// mapBytes is what a map of n entries of type t takes beside its keys' and elements' own
// contents: its header and its tables of groups of eight slots, each with a control byte, grown
// by doubling to keep at most seven in eight slots full, a table holding at most 1,024 slots.
func mapBytes(t reflect.Type, n int) uintptr {
	slot := func(s uintptr) uintptr {
		if s > maxSlot {
			return unsafe.Sizeof(uintptr(0))
		}
		return s
	}
	ks, es := slot(t.Key().Size()), slot(t.Elem().Size())
	const header = 48
	if n == 0 {
		return header
	}
	group := 8 + 8*(ks+es) // control word and eight slots, as the allocator sees them
	ptrs := hasPointers(t.Key()) || hasPointers(t.Elem())
	if n <= 8 {
		return header + roundAlloc(group, ptrs)
	}
	slots := uintptr(8)
	for slots*7/8 < uintptr(n) {
		slots *= 2
	}
	const maxTable = 1024
	if slots <= maxTable {
		return header + 40 + roundAlloc(slots/8*group, ptrs)
	}
	tables := slots / maxTable
	return header + roundAlloc(tables*8, false) + tables*(40+roundAlloc(maxTable/8*group, ptrs))
}

// hasPointers reports whether values of t reach anything outside their own bytes.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		return structHasPointers(t)
	}
	return false
}

func structHasPointers(t reflect.Type) bool {
	if p, ok := pointerTypesGet(t); ok {
		return p
	}
	p := false
	for i := range t.NumField() {
		if hasPointers(t.Field(i).Type) {
			p = true
			break
		}
	}
	pointerTypesPut(t, p)
	return p
}

// roundAlloc is what the allocator takes for an object of n bytes: small objects without
// pointers share 16-byte blocks, others take their size class, large ones whole pages.
func roundAlloc(n uintptr, pointers bool) uintptr {
	if n == 0 {
		return 0
	}
	if !pointers && n < 16 {
		return n
	}
	if n > sizeClasses[len(sizeClasses)-1] {
		const page = 8192
		return (n + page - 1) / page * page
	}
	lo, hi := 0, len(sizeClasses)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if sizeClasses[mid] < n {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return sizeClasses[lo]
}

// sizeClasses are the Go allocator's object sizes up to 32 KiB (runtime/sizeclasses.go).
var sizeClasses = []uintptr{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
	2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240,
	10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// pointerTypes caches hasPointers of struct types, which the walk asks of every value.
var pointerTypes sync.Map // reflect.Type → bool

func pointerTypesGet(t reflect.Type) (bool, bool) {
	p, ok := pointerTypes.Load(t)
	if !ok {
		return false, false
	}
	return p.(bool), true
}

func pointerTypesPut(t reflect.Type, p bool) { pointerTypes.Store(t, p) }
