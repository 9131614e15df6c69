package designer

import (
	"bytes"
	"encoding/json"
)

// Equal is DynamoDB's equality, which conditions, filters, keys and verdicts use: same type and
// same value; numbers compare by value ("1.0" equals "1"), sets ignore the order of their members,
// lists and maps compare element by element. A round trip that must give back the very text uses
// Identical instead.
func (v Value) Equal(w Value) bool {
	if v.Type != w.Type {
		return false
	}
	switch v.Type {
	case S:
		return v.S == w.S
	case N:
		return CompareNumberText(v.S, w.S) == 0
	case B:
		return bytes.Equal(v.B, w.B)
	case BOOL:
		return v.Bool == w.Bool
	case NULL:
		return true
	case SS, NS:
		if len(v.SS) != len(w.SS) {
			return false
		}
		for _, x := range v.SS {
			found := false
			for _, y := range w.SS {
				if x == y || v.Type == NS && CompareNumberText(x, y) == 0 {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case BS:
		if len(v.BS) != len(w.BS) {
			return false
		}
		for _, x := range v.BS {
			found := false
			for _, y := range w.BS {
				if bytes.Equal(x, y) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case L:
		if len(v.L) != len(w.L) {
			return false
		}
		for i := range v.L {
			if !v.L[i].Equal(w.L[i]) {
				return false
			}
		}
		return true
	case M:
		if len(v.M) != len(w.M) {
			return false
		}
		for k, x := range v.M {
			y, ok := w.M[k]
			if !ok || !x.Equal(y) {
				return false
			}
		}
		return true
	}
	return false
}

// Identical reports whether two values are written the same in design-json: the same type and
// the same text, numbers and set members in the same order. It is the check for round trips (does
// this cell read back as the value it was written from?), where "1.0" and "1" differ.
func (v Value) Identical(w Value) bool {
	if v.Type == w.Type {
		// What these types write depends on these fields only: equal ones write the same, and
		// different ones differently.
		switch v.Type {
		case S, N:
			return v.S == w.S
		case BOOL:
			return v.Bool == w.Bool
		case NULL:
			return true
		}
	}
	ja, errA := json.Marshal(v)
	jb, errB := json.Marshal(w)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
