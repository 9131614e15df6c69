package designer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

func init() {
	register[PatchDesign]()
}

// PatchDesign replaces the whole design, as ReplaceDesign does, written as the difference between
// the design it was made against and the new one: edits of the design-json document, in the
// shape of a JSON Patch (RFC 6902) limited to add, remove and replace. History stores a whole-design
// change this way when that is smaller than the new document, so that a PUT that changes one
// field stores about that field. Applied to the design it was made from, it gives exactly the new
// design; applied to another, it is refused unless every edit finds its place.
type PatchDesign struct {
	Ops []PatchOp `json:"ops"`
}

// PatchOp is one edit of a design-json document. Path is a JSON Pointer (RFC 6901); Op is "add"
// (a member, or an element inserted at that position of an array), "remove" or "replace".
type PatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

func (PatchDesign) Kind() string { return "patch_design" }

func (c PatchDesign) Apply(d Design) (Design, error) {
	next, err := patchTyped(Normalize(d), c.Ops)
	if err == nil {
		next = Normalize(next)
		if err := Check(next); err != nil {
			return d, err
		}
		return next, nil
	}
	return c.applyPlain(d)
}

// applyPlain applies the patch to d's whole design-json document: what Apply does when editing
// the Design in place is not sure to give the same.
func (c PatchDesign) applyPlain(d Design) (Design, error) {
	doc, err := genericDocument(d)
	if err != nil {
		return d, err
	}
	for i, op := range c.Ops {
		if doc, err = op.apply(doc); err != nil {
			return d, Invalid(fmt.Sprintf("ops[%d]", i), "%v", err)
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return d, fmt.Errorf("patch design: %w", err)
	}
	var next Design
	if err := json.Unmarshal(data, &next); err != nil {
		return d, Invalid("ops", "the patched document is not a design: %v", err)
	}
	next = Normalize(next)
	if err := Check(next); err != nil {
		return d, err
	}
	return next, nil
}

func (PatchDesign) Summary() string { return "Replaced the whole design" }
func (PatchDesign) Paths() []Path   { return []Path{""} }

// NewPatch is the PatchDesign that turns design from into design to.
func NewPatch(from, to Design) (PatchDesign, error) {
	a, err := genericDocument(from)
	if err != nil {
		return PatchDesign{}, err
	}
	b, err := genericDocument(to)
	if err != nil {
		return PatchDesign{}, err
	}
	ops, err := diffJSON(nil, "", a, b)
	if err != nil {
		return PatchDesign{}, err
	}
	return PatchDesign{Ops: NonNil(ops)}, nil
}

// genericDocument is d's design-json as maps, slices and json.Number values, so numbers keep the
// exact text they are written with.
func genericDocument(d Design) (any, error) {
	data, err := MarshalCompactJSON(d)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode design: %w", err)
	}
	return doc, nil
}

// diffJSON appends to ops the edits that turn a into b at path. Objects are compared member by
// member; an array keeps the elements it shares at its start and end, compares those between
// pairwise, and adds or removes the rest.
func diffJSON(ops []PatchOp, path string, a, b any) ([]PatchOp, error) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		var err error
		for _, k := range sortedKeys(av) {
			p := path + "/" + escapePointer(k)
			if w, ok := bv[k]; ok {
				if ops, err = diffJSON(ops, p, av[k], w); err != nil {
					return nil, err
				}
				continue
			}
			ops = append(ops, PatchOp{Op: "remove", Path: p})
		}
		for _, k := range sortedKeys(bv) {
			if _, ok := av[k]; !ok {
				if ops, err = appendOp(ops, "add", path+"/"+escapePointer(k), bv[k]); err != nil {
					return nil, err
				}
			}
		}
		return ops, nil
	case []any:
		bv, ok := b.([]any)
		if !ok {
			break
		}
		head := 0
		for head < len(av) && head < len(bv) && reflect.DeepEqual(av[head], bv[head]) {
			head++
		}
		tail := 0
		for tail < len(av)-head && tail < len(bv)-head && reflect.DeepEqual(av[len(av)-1-tail], bv[len(bv)-1-tail]) {
			tail++
		}
		am, bm := av[head:len(av)-tail], bv[head:len(bv)-tail]
		var err error
		for i := range min(len(am), len(bm)) {
			if ops, err = diffJSON(ops, path+"/"+strconv.Itoa(head+i), am[i], bm[i]); err != nil {
				return nil, err
			}
		}
		at := path + "/" + strconv.Itoa(head+min(len(am), len(bm)))
		for range len(am) - len(bm) {
			ops = append(ops, PatchOp{Op: "remove", Path: at})
		}
		for i := len(am); i < len(bm); i++ {
			if ops, err = appendOp(ops, "add", path+"/"+strconv.Itoa(head+i), bm[i]); err != nil {
				return nil, err
			}
		}
		return ops, nil
	}
	if reflect.DeepEqual(a, b) {
		return ops, nil
	}
	return appendOp(ops, "replace", path, b)
}

func appendOp(ops []PatchOp, op, path string, v any) ([]PatchOp, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode %s: %w", path, err)
	}
	return append(ops, PatchOp{Op: op, Path: path, Value: bytes.TrimSuffix(buf.Bytes(), []byte("\n"))}), nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// apply returns doc with op applied; containers on the way are changed in place.
func (op PatchOp) apply(doc any) (any, error) {
	var value any
	if op.Op != "remove" {
		dec := json.NewDecoder(bytes.NewReader(op.Value))
		dec.UseNumber()
		if err := dec.Decode(&value); err != nil {
			return nil, fmt.Errorf("%s %s: value: %w", op.Op, op.Path, err)
		}
	}
	if op.Path == "" {
		if op.Op != "replace" {
			return nil, fmt.Errorf("%s of the whole document", op.Op)
		}
		return value, nil
	}
	if !strings.HasPrefix(op.Path, "/") {
		return nil, fmt.Errorf("path %q does not start with /", op.Path)
	}
	tokens := strings.Split(op.Path[1:], "/")
	for i := range tokens {
		tokens[i] = unescapePointer(tokens[i])
	}
	edited, err := applyAt(doc, tokens, op.Op, value)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", op.Op, op.Path, err)
	}
	return edited, nil
}

// applyAt applies an edit at the member or element tokens lead to under container, and returns
// the container as edited.
func applyAt(container any, tokens []string, op string, value any) (any, error) {
	key, rest := tokens[0], tokens[1:]
	switch c := container.(type) {
	case map[string]any:
		old, ok := c[key]
		switch {
		case len(rest) > 0:
			if !ok {
				return nil, fmt.Errorf("no member %q", key)
			}
			inner, err := applyAt(old, rest, op, value)
			if err != nil {
				return nil, err
			}
			c[key] = inner
		case op == "remove" || op == "replace":
			if !ok {
				return nil, fmt.Errorf("no member %q", key)
			}
			if op == "remove" {
				delete(c, key)
			} else {
				c[key] = value
			}
		case op == "add":
			c[key] = value
		default:
			return nil, fmt.Errorf("unknown op %q", op)
		}
		return c, nil
	case []any:
		i, err := strconv.Atoi(key)
		limit := len(c)
		if op == "add" && len(rest) == 0 {
			limit++
		}
		if err != nil || i < 0 || i >= limit {
			return nil, fmt.Errorf("no element %q", key)
		}
		switch {
		case len(rest) > 0:
			inner, err := applyAt(c[i], rest, op, value)
			if err != nil {
				return nil, err
			}
			c[i] = inner
			return c, nil
		case op == "remove":
			return slices.Delete(c, i, i+1), nil
		case op == "replace":
			c[i] = value
			return c, nil
		case op == "add":
			return slices.Insert(c, i, value), nil
		}
		return nil, fmt.Errorf("unknown op %q", op)
	}
	return nil, fmt.Errorf("%q is inside a value that holds no members", key)
}
