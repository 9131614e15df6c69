package designer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Type is a DynamoDB attribute type.
type Type string

// The DynamoDB attribute types.
const (
	S    Type = "S"
	N    Type = "N"
	B    Type = "B"
	BOOL Type = "BOOL"
	NULL Type = "NULL"
	M    Type = "M"
	L    Type = "L"
	SS   Type = "SS"
	NS   Type = "NS"
	BS   Type = "BS"
)

// Types lists every attribute type in the order DynamoDB documents them.
var Types = []Type{S, N, B, BOOL, NULL, M, L, SS, NS, BS}

// Valid reports whether t is one of the DynamoDB attribute types.
func (t Type) Valid() bool {
	for _, v := range Types {
		if t == v {
			return true
		}
	}
	return false
}

// KeyType reports whether t may be used in a key (S, N or B).
func (t Type) KeyType() bool { return t == S || t == N || t == B }

// MaxValueDepth is how deep lists and maps may nest in one attribute value: DynamoDB refuses
// deeper ones ("Nested attribute depth: 32", developer guide, Constraints, Attributes). Every
// reader of values from outside holds them to it, which also bounds what one upload can become
// once it is exported or rendered.
const MaxValueDepth = 32

// ErrValueTooDeep refuses a value whose lists and maps nest deeper than MaxValueDepth.
var ErrValueTooDeep = fmt.Errorf("attribute value nests deeper than %d levels, DynamoDB's limit", MaxValueDepth)

// Item is one DynamoDB item: attribute name to value.
type Item map[string]Value

// Value is one DynamoDB attribute value. Type says which of the other fields holds it; numbers keep
// their decimal text exactly as written.
type Value struct {
	Type Type
	S    string // S, and N as decimal text
	B    []byte
	Bool bool
	M    map[string]Value
	L    []Value
	SS   []string // SS, and NS as decimal texts
	BS   [][]byte
}

// Str, Num, Bin and the rest build values of each type.
func Str(s string) Value           { return Value{Type: S, S: s} }
func Num(n string) Value           { return Value{Type: N, S: n} }
func Bin(b []byte) Value           { return Value{Type: B, B: b} }
func Boolean(b bool) Value         { return Value{Type: BOOL, Bool: b} }
func Null() Value                  { return Value{Type: NULL} }
func Map(m map[string]Value) Value { return Value{Type: M, M: m} }
func List(l ...Value) Value        { return Value{Type: L, L: l} }

// MarshalJSON writes the item as a JSON object of its attributes in DynamoDB's JSON wire form,
// in the order of their names: the bytes encoding/json writes for a map[string]Value, without its
// reflection, which took most of the time of encoding a design full of sample items.
func (it Item) MarshalJSON() ([]byte, error) {
	if it == nil {
		return []byte("null"), nil
	}
	out := make([]byte, 0, 32*len(it))
	out = append(out, '{')
	for i, name := range slices.Sorted(maps.Keys(it)) {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = appendJSONString(out, name); err != nil {
			return nil, err
		}
		out = append(out, ':')
		if out, err = it[name].appendJSON(out); err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

// MarshalJSON writes the value in DynamoDB's JSON wire form, such as {"N":"42"}.
func (v Value) MarshalJSON() ([]byte, error) {
	return v.appendJSON(nil)
}

// appendJSON appends what MarshalJSON writes: strings, numbers, booleans and nulls straight away,
// the other types through encoding/json.
func (v Value) appendJSON(out []byte) ([]byte, error) {
	switch v.Type {
	case S, N:
		if plainJSON(v.S) {
			out = append(out, `{"`...)
			out = append(out, v.Type...)
			out = append(out, `":"`...)
			out = append(out, v.S...)
			return append(out, `"}`...), nil
		}
	case BOOL:
		return append(out, `{"BOOL":`+strconv.FormatBool(v.Bool)+`}`...), nil
	case NULL:
		return append(out, `{"NULL":true}`...), nil
	}
	enc, err := v.encodeJSON()
	if err != nil {
		return nil, err
	}
	return append(out, enc...), nil
}

// plainJSON reports whether s is written in JSON as it is, between quotes: printable ASCII
// without quotes or backslashes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// appendJSONString appends s as a JSON string, as encoding/json writes it with HTML left alone.
func appendJSONString(out []byte, s string) ([]byte, error) {
	if plainJSON(s) {
		out = append(out, '"')
		out = append(out, s...)
		return append(out, '"'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return append(out, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// encodeJSON is MarshalJSON through encoding/json, for every type.
func (v Value) encodeJSON() ([]byte, error) {
	var inner any
	switch v.Type {
	case S, N:
		inner = v.S
	case B:
		inner = v.B
	case BOOL:
		inner = v.Bool
	case NULL:
		inner = true
	case M:
		m := v.M
		if m == nil {
			m = map[string]Value{}
		}
		inner = m
	case L:
		l := v.L
		if l == nil {
			l = []Value{}
		}
		inner = l
	case SS, NS:
		inner = v.SS
	case BS:
		inner = v.BS
	default:
		return nil, fmt.Errorf("attribute value has no type")
	}
	var buf bytes.Buffer
	buf.WriteString(`{"`)
	buf.WriteString(string(v.Type))
	buf.WriteString(`":`)
	enc := json.NewEncoder(&buf)
	// Keep <, > and & as written, as MarshalJSON of a design does; an enclosing encoder that
	// escapes HTML still escapes them.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(inner); err != nil {
		return nil, err
	}
	buf.Truncate(buf.Len() - 1) // Encode ends with a newline
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads DynamoDB's JSON wire form and checks the value is well formed.
func (v *Value) UnmarshalJSON(data []byte) error {
	return v.decode(data, 0)
}

// decode reads a value that depth lists and maps enclose.
func (v *Value) decode(data []byte, depth int) error {
	if v.decodeScalar(data) {
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("attribute value must be an object such as {\"S\": \"text\"}")
	}
	if len(raw) != 1 {
		return fmt.Errorf("attribute value must have exactly one type key, has %d", len(raw))
	}
	for k, body := range raw {
		t := Type(k)
		var out Value
		out.Type = t
		var err error
		switch t {
		case S:
			err = json.Unmarshal(body, &out.S)
		case N:
			if err = json.Unmarshal(body, &out.S); err == nil {
				err = CheckNumber(out.S)
			}
		case B:
			err = json.Unmarshal(body, &out.B)
		case BOOL:
			err = json.Unmarshal(body, &out.Bool)
		case NULL:
			var b bool
			if err = json.Unmarshal(body, &b); err == nil && !b {
				err = fmt.Errorf("NULL must be true")
			}
		case M:
			out.M, err = decodeMap(body, depth)
		case L:
			out.L, err = decodeList(body, depth)
		case SS:
			err = json.Unmarshal(body, &out.SS)
			if err == nil {
				err = CheckSet(out.SS, nil)
			}
		case NS:
			err = json.Unmarshal(body, &out.SS)
			if err == nil {
				err = CheckSet(out.SS, CheckNumber)
			}
		case BS:
			err = json.Unmarshal(body, &out.BS)
			if err == nil {
				strs := make([]string, len(out.BS))
				for i, b := range out.BS {
					strs[i] = string(b)
				}
				err = CheckSet(strs, nil)
			}
		default:
			return fmt.Errorf("unknown attribute type %q (use one of S N B BOOL NULL M L SS NS BS)", k)
		}
		if errors.Is(err, ErrValueTooDeep) {
			return err
		}
		if err != nil {
			return fmt.Errorf("%s value: %w", k, err)
		}
		*v = out
	}
	return nil
}

// decodeScalar reads a string or number written compactly, {"S":"…"} or {"N":"…"}, the values
// design-json holds most, with one pass over its body instead of a map of members and a second
// pass; it reports false, having changed nothing, for anything else, which decode then reads
// (and refuses) the general way.
func (v *Value) decodeScalar(data []byte) bool {
	if len(data) < 8 || data[0] != '{' || data[1] != '"' || data[3] != '"' || data[4] != ':' || data[len(data)-1] != '}' {
		return false
	}
	t := Type(data[2:3])
	if t != S && t != N {
		return false
	}
	var s string
	if json.Unmarshal(data[5:len(data)-1], &s) != nil || t == N && CheckNumber(s) != nil {
		return false
	}
	*v = Value{Type: t, S: s}
	return true
}

// decodeMap reads the members of a map that depth lists and maps enclose; null is the empty map.
// Members are read in name order, so that of several bad ones the same is always reported.
func decodeMap(body []byte, depth int) (map[string]Value, error) {
	if depth >= MaxValueDepth {
		return nil, ErrValueTooDeep
	}
	var raws map[string]json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, err
	}
	m := make(map[string]Value, len(raws))
	for _, name := range slices.Sorted(maps.Keys(raws)) {
		var v Value
		if err := v.decode(raws[name], depth+1); err != nil {
			return nil, err
		}
		m[name] = v
	}
	return m, nil
}

// decodeList reads the elements of a list that depth lists and maps enclose; null is the empty
// list.
func decodeList(body []byte, depth int) ([]Value, error) {
	if depth >= MaxValueDepth {
		return nil, ErrValueTooDeep
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		return nil, err
	}
	l := make([]Value, len(raws))
	for i, r := range raws {
		if err := l[i].decode(r, depth+1); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func CheckSet(members []string, each func(string) error) error {
	if len(members) == 0 {
		return fmt.Errorf("a set must not be empty")
	}
	seen := make(map[string]bool, len(members))
	for _, m := range members {
		if each != nil {
			if err := each(m); err != nil {
				return err
			}
		}
		key := m
		if each != nil {
			key = canonicalNumber(m)
		}
		if seen[key] {
			return fmt.Errorf("a set must not hold %q twice", m)
		}
		seen[key] = true
	}
	return nil
}

// CheckNumber accepts what DynamoDB accepts as a number: a plain decimal, optionally with an
// exponent, with up to 38 significant digits and a magnitude from 1E-130 to below 1E+126. It parses
// the text itself: math/big would also take base prefixes (0x, 0b, 0o) and would compute huge
// powers of ten for exponents DynamoDB refuses anyway.
func CheckNumber(s string) error {
	n, ok := ParseDecimal(s)
	if !ok {
		return fmt.Errorf("%q is not a number", s)
	}
	if len(n.Digits) > 38 {
		return fmt.Errorf("%q has %d significant digits; DynamoDB keeps at most 38", s, len(n.Digits))
	}
	if n.Digits != "" {
		// magnitude is the power of ten of the leading digit: 1.5E3 has magnitude 3.
		magnitude := n.Exp + int64(len(n.Digits)) - 1
		if magnitude > 125 || magnitude < -130 {
			return fmt.Errorf("%q is out of DynamoDB's range (1E-130 to 9.99…E+125)", s)
		}
	}
	return nil
}

// Decimal is a number as significant digits (no leading or trailing zeros; empty for zero) times
// ten to the power exp.
type Decimal struct {
	Negative bool
	Digits   string
	Exp      int64
}

// maxExponent bounds the written exponent so that it cannot overflow; anything near it is far out
// of DynamoDB's range.
const maxExponent = 1 << 40

func ParseDecimal(s string) (Decimal, bool) {
	var n Decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		n.Negative = s[i] == '-'
		i++
	}
	intStart := i
	for i < len(s) && IsDigit(s[i]) {
		i++
	}
	intPart := s[intStart:i]
	fracPart := ""
	if i < len(s) && s[i] == '.' {
		i++
		fracStart := i
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
		fracPart = s[fracStart:i]
	}
	if intPart == "" && fracPart == "" {
		return Decimal{}, false
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNegative := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNegative = s[i] == '-'
			i++
		}
		expStart := i
		for i < len(s) && IsDigit(s[i]) {
			if exp < maxExponent {
				exp = exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == expStart {
			return Decimal{}, false
		}
		if expNegative {
			exp = -exp
		}
	}
	if i != len(s) {
		return Decimal{}, false
	}
	all := strings.TrimLeft(intPart+fracPart, "0")
	trimmed := strings.TrimRight(all, "0")
	n.Digits = trimmed
	n.Exp = exp - int64(len(fracPart)) + int64(len(all)-len(trimmed))
	if n.Digits == "" {
		n.Negative = false
		n.Exp = 0
	}
	return n, true
}

func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// canonicalNumber returns one spelling per numeric value, so that 1.50 and 15E-1 compare equal in a
// number set.
func canonicalNumber(s string) string {
	n, ok := ParseDecimal(s)
	if !ok {
		return s
	}
	sign := ""
	if n.Negative {
		sign = "-"
	}
	return sign + n.Digits + "e" + strconv.FormatInt(n.Exp, 10)
}

// SortedNames returns the attribute names of an item in byte order, for deterministic output.
func (it Item) SortedNames() []string {
	names := make([]string, 0, len(it))
	for k := range it {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
