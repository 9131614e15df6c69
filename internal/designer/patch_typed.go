package designer

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Applying a patch in place. The plain way (PatchDesign.Apply's fallback) turns the whole design
// into generic JSON, edits that and decodes it back: four passes over the document for an edit of
// one cell, tens of milliseconds on a design of a few hundred KB, paid again by every replay of
// that revision. patchTyped instead walks each edit's path down the Design value itself, following
// the json names of struct fields and the indexes of slices, and goes through JSON only for the
// smallest value on the way that has a JSON form of its own (an item's attributes, a Value) or
// that the edit adds, removes or replaces a member of. What it gives is the same design the plain
// way gives; anything it is not sure of (a path that finds no place, a nil pointer, a map on the
// way) makes it give up, and the plain way decides, with its own refusal.
//
// Designs share their slices with the revisions they were made from, so nothing reached here is
// written before it is copied: a slice on an edit's path is copied once per patch (owned), and a
// value decoded from JSON is always new.

// errNotTyped is patchTyped giving up: the plain way applies the patch instead.
var errNotTyped = errors.New("the edit is not applied in place")

// patchTyped applies ops to d (a normalized design) in place, or answers errNotTyped.
func patchTyped(d Design, ops []PatchOp) (Design, error) {
	p := typedPatch{owned: map[uintptr]bool{}}
	root := reflect.ValueOf(&d).Elem()
	for _, op := range ops {
		if op.Path == "" || !strings.HasPrefix(op.Path, "/") {
			return d, errNotTyped
		}
		// Edits of one value's JSON form are applied together and decoded once they are done:
		// on the way, such a value may not be one (a Value with its type member removed before
		// the new one is added).
		if p.pending != nil && !strings.HasPrefix(op.Path, p.pending.at+"/") {
			if err := p.flush(); err != nil {
				return d, err
			}
		}
		segs := strings.Split(op.Path[1:], "/")
		for i := range segs {
			segs[i] = unescapePointer(segs[i])
		}
		if err := p.at(root, "", segs, op); err != nil {
			return d, errNotTyped
		}
	}
	if err := p.flush(); err != nil {
		return d, err
	}
	return d, nil
}

type typedPatch struct {
	// owned holds the addresses of the slices (their first elements) and pointed-to values this
	// patch made, which it may write.
	owned map[uintptr]bool
	// pending is the value whose JSON form the latest edits changed, not yet decoded.
	pending *pendingJSON
}

// pendingJSON is a value being edited in its JSON form: v, at path at, is to become doc.
type pendingJSON struct {
	at  string
	v   reflect.Value
	doc any
}

// at applies op, whose path below v is segs (never empty), to v, an addressable value this patch
// may set, found at path here.
func (p *typedPatch) at(v reflect.Value, here string, segs []string, op PatchOp) error {
	t := v.Type()
	if ownJSON(t) || p.pending != nil && p.pending.at == here {
		return p.viaJSON(v, here, segs, op)
	}
	switch v.Kind() {
	case reflect.Struct:
		f, ok := jsonField(t, segs[0])
		if !ok {
			return p.viaJSON(v, here, segs, op)
		}
		if len(segs) == 1 {
			return p.member(v, here, f, segs, op)
		}
		return p.at(v.Field(f), here+"/"+escapePointer(segs[0]), segs[1:], op)
	case reflect.Slice:
		if len(segs) == 1 {
			return p.element(v, segs[0], op)
		}
		i, err := strconv.Atoi(segs[0])
		if err != nil || i < 0 || i >= v.Len() || segs[0] != strconv.Itoa(i) {
			return errNotTyped
		}
		p.own(v)
		return p.at(v.Index(i), here+"/"+segs[0], segs[1:], op)
	case reflect.Pointer:
		if v.IsNil() {
			return errNotTyped
		}
		if !p.owned[v.Pointer()] {
			fresh := reflect.New(t.Elem())
			fresh.Elem().Set(v.Elem())
			v.Set(fresh)
			p.owned[fresh.Pointer()] = true
		}
		return p.at(v.Elem(), here, segs, op)
	case reflect.Map, reflect.Interface:
		return p.viaJSON(v, here, segs, op)
	}
	return errNotTyped // a path into a number, a string or a bool
}

// member adds, removes or replaces field f of the struct in v, as the member its JSON form writes
// it as: a member the JSON form leaves out (omitempty) cannot be removed or replaced.
func (p *typedPatch) member(v reflect.Value, here string, f int, segs []string, op PatchOp) error {
	field := v.Field(f)
	_, opts, _ := strings.Cut(v.Type().Field(f).Tag.Get("json"), ",")
	written := !strings.Contains(","+opts+",", ",omitempty,") || !emptyJSON(field)
	switch {
	case op.Op == "remove" && written:
		field.Set(reflect.Zero(field.Type()))
		return nil
	case op.Op == "add" || op.Op == "replace" && written:
		fresh := reflect.New(field.Type())
		if err := json.Unmarshal(op.Value, fresh.Interface()); err != nil {
			return errNotTyped
		}
		field.Set(fresh.Elem())
		return nil
	}
	return p.viaJSON(v, here, segs, op)
}

// emptyJSON reports whether encoding/json's omitempty leaves v out.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// own makes the slice in v one this patch made, copying it the first time.
func (p *typedPatch) own(v reflect.Value) {
	if v.Len() > 0 && p.owned[v.Pointer()] {
		return
	}
	fresh := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(fresh, v)
	v.Set(fresh)
	if fresh.Len() > 0 {
		p.owned[fresh.Pointer()] = true
	}
}

// element adds, removes or replaces the element seg of the slice in v.
func (p *typedPatch) element(v reflect.Value, seg string, op PatchOp) error {
	i, err := strconv.Atoi(seg)
	limit := v.Len()
	if op.Op == "add" {
		limit++
	}
	if err != nil || i < 0 || i >= limit || seg != strconv.Itoa(i) {
		return errNotTyped
	}
	var elem reflect.Value
	if op.Op != "remove" {
		elem = reflect.New(v.Type().Elem())
		if err := json.Unmarshal(op.Value, elem.Interface()); err != nil {
			return errNotTyped
		}
	}
	switch op.Op {
	case "replace":
		p.own(v)
		v.Index(i).Set(elem.Elem())
	case "add", "remove":
		n := v.Len() + 1
		if op.Op == "remove" {
			n = v.Len() - 1
		}
		fresh := reflect.MakeSlice(v.Type(), 0, n)
		fresh = reflect.AppendSlice(fresh, v.Slice(0, i))
		if op.Op == "add" {
			fresh = reflect.Append(fresh, elem.Elem())
			fresh = reflect.AppendSlice(fresh, v.Slice(i, v.Len()))
		} else {
			fresh = reflect.AppendSlice(fresh, v.Slice(i+1, v.Len()))
		}
		v.Set(fresh)
		if fresh.Len() > 0 {
			p.owned[fresh.Pointer()] = true
		}
	default:
		return errNotTyped
	}
	return nil
}

// viaJSON applies op to v, at path here, the plain way, on v's JSON form alone; flush decodes the
// result into a new value for v.
func (p *typedPatch) viaJSON(v reflect.Value, here string, segs []string, op PatchOp) error {
	if p.pending == nil || p.pending.at != here {
		if err := p.flush(); err != nil {
			return err
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v.Interface()); err != nil {
			return errNotTyped
		}
		dec := json.NewDecoder(&buf)
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			return errNotTyped
		}
		p.pending = &pendingJSON{at: here, v: v, doc: doc}
	}
	rel := op
	escaped := make([]string, len(segs))
	for i, s := range segs {
		escaped[i] = escapePointer(s)
	}
	rel.Path = "/" + strings.Join(escaped, "/")
	doc, err := rel.apply(p.pending.doc)
	if err != nil {
		return errNotTyped
	}
	p.pending.doc = doc
	return nil
}

// flush decodes the pending JSON form into its value.
func (p *typedPatch) flush() error {
	if p.pending == nil {
		return nil
	}
	pj := p.pending
	p.pending = nil
	data, err := json.Marshal(pj.doc)
	if err != nil {
		return errNotTyped
	}
	fresh := reflect.New(pj.v.Type())
	if err := json.Unmarshal(data, fresh.Interface()); err != nil {
		return errNotTyped
	}
	pj.v.Set(fresh.Elem())
	return nil
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// ownJSON reports whether values of t write or read their JSON form themselves.
func ownJSON(t reflect.Type) bool {
	return t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) ||
		t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler)
}

// jsonFields caches, per struct type, the field index of each json member name.
var jsonFields sync.Map // reflect.Type -> map[string]int

// jsonField finds the field of struct type t that encoding/json writes as member name. Embedded
// structs and fields json leaves out do not count: a member only they could hold is not found,
// and the struct's JSON form is edited instead.
func jsonField(t reflect.Type, name string) (int, bool) {
	fields, ok := jsonFields.Load(t)
	if !ok {
		m := map[string]int{}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Anonymous {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			key, _, _ := strings.Cut(tag, ",")
			if key == "" {
				key = f.Name
			}
			m[key] = i
		}
		fields, _ = jsonFields.LoadOrStore(t, m)
	}
	i, ok := fields.(map[string]int)[name]
	return i, ok
}
