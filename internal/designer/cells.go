package designer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Cells are attribute values as the item grids show and edit them, one text per value:
//
//	S           the text itself
//	N           the number text as written (1.50 stays 1.50)
//	B           standard base64 (RFC 4648, padded)
//	BOOL, NULL  true / false, null
//	M           the map's DynamoDB JSON without the outer {"M": …}: {"a":{"S":"x"},"n":{"N":"1"}}
//	L           the list's DynamoDB JSON without the outer {"L": …}: [{"S":"x"},{"N":"1"}]
//	SS, NS, BS  a JSON array of strings: ["a","b"], ["1","2.5"], ["AAE=","Ag=="]
//
// M and L are written compactly, map keys sorted and <, > and & left as they are. Numbers in an NS
// cell are JSON strings so that every DynamoDB number survives as written; ParseCell also takes
// plain JSON numbers there ([1, 2.5]).
//
// An empty cell means the attribute is absent: callers check for empty text before calling
// ParseCell or InferCell. Given empty text, ParseCell returns the empty string for S and the empty
// binary for B (both legal outside keys) and an error for other types, and InferCell returns the
// empty string.

// FormatCell returns the text of a value as the grid shows it. A value without a valid type, or a
// map or list holding one, has no text.
func FormatCell(v Value) string {
	switch v.Type {
	case S, N:
		return v.S
	case B:
		return base64.StdEncoding.EncodeToString(v.B)
	case BOOL:
		if v.Bool {
			return "true"
		}
		return "false"
	case NULL:
		return "null"
	case M:
		m := v.M
		if m == nil {
			m = map[string]Value{}
		}
		return cellJSON(m)
	case L:
		l := v.L
		if l == nil {
			l = []Value{}
		}
		return cellJSON(l)
	case SS, NS:
		members := v.SS
		if members == nil {
			members = []string{}
		}
		return cellJSON(members)
	case BS:
		members := make([]string, len(v.BS))
		for i, b := range v.BS {
			members[i] = base64.StdEncoding.EncodeToString(b)
		}
		return cellJSON(members)
	}
	return ""
}

func cellJSON(x any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// ParseCell reads a cell's text as a value of the declared type t; it is the inverse of FormatCell.
// Surrounding spaces are ignored for every type but S. M, L and the sets also accept the full
// DynamoDB JSON of the value ({"M":{…}}, {"SS":[…]}). Errors say what is wrong with the text, such
// as `"abc" is not a number`.
func ParseCell(text string, t Type) (Value, error) {
	if t == S {
		return Str(text), nil
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		if t == B {
			return Bin([]byte{}), nil
		}
		if !t.Valid() {
			return Value{}, fmt.Errorf("unknown attribute type %q", t)
		}
		return Value{}, fmt.Errorf("an empty cell is not a %s", CellTypeName(t))
	}
	switch t {
	case N:
		if err := CheckNumber(trimmed); err != nil {
			return Value{}, err
		}
		return Num(trimmed), nil
	case B:
		b, ok := cellBase64(trimmed)
		if !ok {
			return Value{}, fmt.Errorf("%s is not base64", cellQuote(trimmed))
		}
		return Bin(b), nil
	case BOOL:
		switch {
		case strings.EqualFold(trimmed, "true"):
			return Boolean(true), nil
		case strings.EqualFold(trimmed, "false"):
			return Boolean(false), nil
		}
		return Value{}, fmt.Errorf("%s is not true or false", cellQuote(trimmed))
	case NULL:
		if strings.EqualFold(trimmed, "null") {
			return Null(), nil
		}
		return Value{}, fmt.Errorf("%s is not null", cellQuote(trimmed))
	case M, L, SS, NS, BS:
		v, err := parseDocumentCell(trimmed, t)
		if err == nil {
			return v, nil
		}
		if full, ok := TypedValueCell(trimmed); ok && full.Type == t {
			return full, nil
		}
		return Value{}, fmt.Errorf("%s is not a %s: %w", cellQuote(trimmed), CellTypeName(t), err)
	}
	return Value{}, fmt.Errorf("unknown attribute type %q", t)
}

// parseDocumentCell reads the JSON text of a map, list or set cell.
func parseDocumentCell(text string, t Type) (Value, error) {
	data := []byte(text)
	switch t {
	case M:
		if text[0] != '{' {
			return Value{}, errors.New(`a map is written {"name":{"S":"text"}}`)
		}
		m, err := decodeMap(data, 0)
		if err != nil {
			return Value{}, cellJSONError(err)
		}
		return Map(m), nil
	case L:
		if text[0] != '[' {
			return Value{}, errors.New(`a list is written [{"S":"text"},{"N":"1"}]`)
		}
		l, err := decodeList(data, 0)
		if err != nil {
			return Value{}, cellJSONError(err)
		}
		return List(l...), nil
	case SS:
		var members []string
		if err := json.Unmarshal(data, &members); err != nil || members == nil {
			return Value{}, errors.New(`a string set is written ["a","b"]`)
		}
		if err := CheckSet(members, nil); err != nil {
			return Value{}, err
		}
		return Value{Type: SS, SS: members}, nil
	case NS:
		members, ok := numberSetMembers(data)
		if !ok {
			return Value{}, errors.New(`a number set is written ["1","2.5"]`)
		}
		if err := CheckSet(members, CheckNumber); err != nil {
			return Value{}, err
		}
		return Value{Type: NS, SS: members}, nil
	case BS:
		var texts []string
		if err := json.Unmarshal(data, &texts); err != nil || texts == nil {
			return Value{}, errors.New(`a binary set is written ["AAE=","Ag=="]`)
		}
		members := make([][]byte, len(texts))
		keys := make([]string, len(texts))
		for i, s := range texts {
			b, ok := cellBase64(s)
			if !ok {
				return Value{}, fmt.Errorf("member %s is not base64", cellQuote(s))
			}
			members[i], keys[i] = b, string(b)
		}
		if err := CheckSet(keys, nil); err != nil {
			return Value{}, err
		}
		return Value{Type: BS, BS: members}, nil
	}
	return Value{}, fmt.Errorf("unknown attribute type %q", t)
}

// numberSetMembers reads a JSON array whose members are number strings or plain JSON numbers,
// keeping each number's text as written.
func numberSetMembers(data []byte) ([]string, bool) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		return nil, false
	}
	members := make([]string, len(raw))
	for i, r := range raw {
		switch {
		case len(r) > 0 && r[0] == '"':
			if err := json.Unmarshal(r, &members[i]); err != nil {
				return nil, false
			}
		case jsonNumberText(string(r)):
			members[i] = string(r)
		default:
			return nil, false
		}
	}
	return members, true
}

// TypedValueCell reads text that is one attribute value in full DynamoDB JSON, such as
// {"SS":["a"]}.
func TypedValueCell(text string) (Value, bool) {
	if text == "" || text[0] != '{' {
		return Value{}, false
	}
	var v Value
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return Value{}, false
	}
	return v, true
}

// InferCell reads a cell whose attribute has no declared type. In order: true and false are BOOL;
// null is NULL; a JSON number (no sign +, no leading zeros, so 007 and +1 stay text) that DynamoDB
// accepts is N; a JSON object of attribute values is M, and a full DynamoDB JSON value such as
// {"N":"1"} is that value; a JSON array of attribute values is L ([] is the empty list), of strings
// SS, of numbers NS; anything else is S, with the text exactly as given. A binary cannot be told
// from text, so B and BS are never inferred.
func InferCell(text string) Value {
	trimmed := strings.TrimSpace(text)
	switch trimmed {
	case "":
		return Str(text)
	case "true":
		return Boolean(true)
	case "false":
		return Boolean(false)
	case "null":
		return Null()
	}
	switch trimmed[0] {
	case '{':
		if v, err := parseDocumentCell(trimmed, M); err == nil {
			return v
		}
		if v, ok := TypedValueCell(trimmed); ok {
			return v
		}
	case '[':
		if v, err := parseDocumentCell(trimmed, L); err == nil {
			return v
		}
		if v, err := parseDocumentCell(trimmed, SS); err == nil {
			return v
		}
		if inferNumberSet(trimmed) {
			if v, err := parseDocumentCell(trimmed, NS); err == nil {
				return v
			}
		}
	default:
		if jsonNumberText(trimmed) && CheckNumber(trimmed) == nil {
			return Num(trimmed)
		}
	}
	return Str(text)
}

// inferNumberSet reports whether a JSON array holds only plain JSON numbers; ["1","2"] is a string
// set when nothing declares otherwise.
func inferNumberSet(text string) bool {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil || len(raw) == 0 {
		return false
	}
	for _, r := range raw {
		if !jsonNumberText(string(r)) {
			return false
		}
	}
	return true
}

// jsonNumberText reports whether s is a number as JSON writes it:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumberText(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// cellBase64 decodes standard base64, padded or not.
func cellBase64(s string) ([]byte, bool) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, true
	}
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, true
	}
	return nil, false
}

// cellJSONError shortens encoding/json's messages, which name Go types, to what a person can act
// on.
func cellJSONError(err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("invalid JSON at character %d", syntax.Offset)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("invalid DynamoDB JSON: found a JSON %s where an attribute value belongs", typeErr.Value)
	}
	return err
}

func CellTypeName(t Type) string {
	switch t {
	case S:
		return "string"
	case N:
		return "number"
	case B:
		return "binary"
	case BOOL:
		return "boolean"
	case NULL:
		return "null"
	case M:
		return "map"
	case L:
		return "list"
	case SS:
		return "string set"
	case NS:
		return "number set"
	case BS:
		return "binary set"
	}
	return string(t)
}

// cellQuote quotes text for an error message, cut to a readable length.
func cellQuote(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) <= limit {
		return fmt.Sprintf("%q", s)
	}
	runes := []rune(s)
	return fmt.Sprintf("%q…", string(runes[:limit]))
}
