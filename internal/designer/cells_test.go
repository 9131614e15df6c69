package designer_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

func TestFormatCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    designer.Value
		want string
	}{
		{designer.Str("hello, world"), "hello, world"},
		{designer.Str(""), ""},
		{designer.Num("1.50"), "1.50"},
		{designer.Bin([]byte("hi")), "aGk="},
		{designer.Boolean(true), "true"},
		{designer.Boolean(false), "false"},
		{designer.Null(), "null"},
		{designer.Map(map[string]designer.Value{"b": designer.Num("1"), "a": designer.Str("x<y & z")}), `{"a":{"S":"x<y & z"},"b":{"N":"1"}}`},
		{designer.Map(nil), `{}`},
		{designer.List(designer.Str("x"), designer.List()), `[{"S":"x"},{"L":[]}]`},
		{designer.List(), `[]`},
		{designer.Value{Type: designer.SS, SS: []string{"a", `b"c`}}, `["a","b\"c"]`},
		{designer.Value{Type: designer.NS, SS: []string{"1", "2.50"}}, `["1","2.50"]`},
		{designer.Value{Type: designer.BS, BS: [][]byte{{0}, []byte("hi")}}, `["AA==","aGk="]`},
		{designer.Value{}, ""},
	} {
		if got := designer.FormatCell(tc.v); got != tc.want {
			t.Errorf("FormatCell(%+v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestParseCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		typ  designer.Type
		want designer.Value
	}{
		{" spaced ", designer.S, designer.Str(" spaced ")},
		{"", designer.S, designer.Str("")},
		{" 42 ", designer.N, designer.Num("42")},
		{"-1.5E3", designer.N, designer.Num("-1.5E3")},
		{"aGk=", designer.B, designer.Bin([]byte("hi"))},
		{"aGk", designer.B, designer.Bin([]byte("hi"))},
		{"", designer.B, designer.Bin([]byte{})},
		{"TRUE", designer.BOOL, designer.Boolean(true)},
		{"false", designer.BOOL, designer.Boolean(false)},
		{"null", designer.NULL, designer.Null()},
		{`{"a":{"S":"x"}}`, designer.M, designer.Map(map[string]designer.Value{"a": designer.Str("x")})},
		{`{"M":{"a":{"S":"x"}}}`, designer.M, designer.Map(map[string]designer.Value{"a": designer.Str("x")})},
		{`{"M":{"S":"x"}}`, designer.M, designer.Map(map[string]designer.Value{"M": designer.Str("x")})},
		{`{}`, designer.M, designer.Map(map[string]designer.Value{})},
		{`[{"N":"1"},{"NULL":true}]`, designer.L, designer.List(designer.Num("1"), designer.Null())},
		{`{"L":[{"N":"1"}]}`, designer.L, designer.List(designer.Num("1"))},
		{`[]`, designer.L, designer.List()},
		{`["a","b"]`, designer.SS, designer.Value{Type: designer.SS, SS: []string{"a", "b"}}},
		{`{"SS":["a"]}`, designer.SS, designer.Value{Type: designer.SS, SS: []string{"a"}}},
		{`["1", 2.5, "3E2"]`, designer.NS, designer.Value{Type: designer.NS, SS: []string{"1", "2.5", "3E2"}}},
		{`["AA==","aGk="]`, designer.BS, designer.Value{Type: designer.BS, BS: [][]byte{{0}, []byte("hi")}}},
	} {
		got, err := designer.ParseCell(tc.text, tc.typ)
		if err != nil {
			t.Errorf("ParseCell(%q, %s): %v", tc.text, tc.typ, err)
			continue
		}
		if !cellValueEqual(got, tc.want) {
			t.Errorf("ParseCell(%q, %s) = %+v, want %+v", tc.text, tc.typ, got, tc.want)
		}
	}
}

func TestParseCell_errorsSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		typ  designer.Type
		want string
	}{
		{"abc", designer.N, `"abc" is not a number`},
		{"0x10", designer.N, `"0x10" is not a number`},
		{"123456789012345678901234567890123456789", designer.N, "39 significant digits"},
		{"1E126", designer.N, "out of DynamoDB's range"},
		{"", designer.N, "an empty cell is not a number"},
		{"not base64!", designer.B, `"not base64!" is not base64`},
		{"yes", designer.BOOL, `"yes" is not true or false`},
		{"nil", designer.NULL, `"nil" is not null`},
		{`{"a":"x"}`, designer.M, `is not a map`},
		{`{"a":`, designer.M, "invalid JSON"},
		{`[1]`, designer.M, `a map is written`},
		{`{"a":{"S":"x"}}`, designer.L, `a list is written`},
		{`["a","a"]`, designer.SS, `must not hold "a" twice`},
		{`[]`, designer.SS, "must not be empty"},
		{`["1","1.0"]`, designer.NS, `must not hold "1.0" twice`},
		{`["x"]`, designer.NS, `"x" is not a number`},
		{`[true]`, designer.NS, "a number set is written"},
		{`["!!"]`, designer.BS, `member "!!" is not base64`},
		{"x", "XX", `unknown attribute type "XX"`},
	} {
		_, err := designer.ParseCell(tc.text, tc.typ)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCell(%q, %s) error = %v, want it to contain %q", tc.text, tc.typ, err, tc.want)
		}
	}
}

func TestInferCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want designer.Value
	}{
		{"hello", designer.Str("hello")},
		{"", designer.Str("")},
		{" padded text ", designer.Str(" padded text ")},
		{"42", designer.Num("42")},
		{"-1.5e3", designer.Num("-1.5e3")},
		{" 7 ", designer.Num("7")},
		{"007", designer.Str("007")},
		{"+1", designer.Str("+1")},
		{"1.", designer.Str("1.")},
		{"1e200", designer.Str("1e200")},
		{"NaN", designer.Str("NaN")},
		{"true", designer.Boolean(true)},
		{"false", designer.Boolean(false)},
		{"True", designer.Str("True")},
		{"null", designer.Null()},
		{`{"a":{"N":"1"}}`, designer.Map(map[string]designer.Value{"a": designer.Num("1")})},
		{`{"N":"5"}`, designer.Num("5")},
		{`{"a":1}`, designer.Str(`{"a":1}`)},
		{`[{"S":"x"}]`, designer.List(designer.Str("x"))},
		{`[]`, designer.List()},
		{`["a","b"]`, designer.Value{Type: designer.SS, SS: []string{"a", "b"}}},
		{`[1, 2.5]`, designer.Value{Type: designer.NS, SS: []string{"1", "2.5"}}},
		{`["a","a"]`, designer.Str(`["a","a"]`)},
		{`[1, "a"]`, designer.Str(`[1, "a"]`)},
		{`[oops`, designer.Str(`[oops`)},
		{"USER#1", designer.Str("USER#1")},
	} {
		if got := designer.InferCell(tc.text); !cellValueEqual(got, tc.want) {
			t.Errorf("InferCell(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

func TestParseCell_roundTripsEveryType(t *testing.T) {
	t.Parallel()
	for _, v := range cellSamples() {
		text := designer.FormatCell(v)
		got, err := designer.ParseCell(text, v.Type)
		if err != nil {
			t.Errorf("ParseCell(%q, %s): %v", text, v.Type, err)
			continue
		}
		if !cellValueEqual(got, v) {
			t.Errorf("round trip of %q as %s gave %+v, want %+v", text, v.Type, got, v)
		}
	}
}

func cellSamples() []designer.Value {
	return []designer.Value{
		designer.Str("plain"), designer.Str(""), designer.Str(" spaced "), designer.Str("{\"looks\":\"like json\"}"), designer.Str("tab\there\nnewline"),
		designer.Num("0"), designer.Num("-1.50"), designer.Num("1E-130"), designer.Num("+7"), designer.Num(".5"),
		designer.Bin(nil), designer.Bin([]byte{0, 255, 10}),
		designer.Boolean(true), designer.Boolean(false), designer.Null(),
		designer.Map(nil), designer.Map(map[string]designer.Value{"M": designer.Str("x"), "S": designer.Null(), "nested": designer.Map(map[string]designer.Value{"l": designer.List(designer.Bin([]byte{1}))})}),
		designer.Map(map[string]designer.Value{"html": designer.Str("<b>&</b>"), "ünï": designer.Value{Type: designer.NS, SS: []string{"1"}}}),
		designer.List(), designer.List(designer.Str("a"), designer.Num("1"), designer.Value{Type: designer.BS, BS: [][]byte{{1}, {}}}),
		{Type: designer.SS, SS: []string{"a", "", "ü"}},
		{Type: designer.NS, SS: []string{"1", "-2.50", "3E+5"}},
		{Type: designer.BS, BS: [][]byte{{1, 2}, {}}},
	}
}

// FuzzParseCell checks that every value FormatCell writes, ParseCell reads back as the same value
// of the same type.
func FuzzParseCell(f *testing.F) {
	for i, v := range cellSamples() {
		f.Add(uint8(i), designer.FormatCell(v), "k")
	}
	f.Fuzz(func(t *testing.T, kind uint8, text, other string) {
		v, ok := fuzzCellValue(kind, text, other)
		if !ok {
			return
		}
		cell := designer.FormatCell(v)
		got, err := designer.ParseCell(cell, v.Type)
		if err != nil {
			t.Fatalf("ParseCell(%q, %s) of FormatCell(%+v): %v", cell, v.Type, v, err)
		}
		if !cellValueEqual(got, v) {
			t.Fatalf("ParseCell(FormatCell(%+v)) = %+v (cell %q)", v, got, cell)
		}
		designer.InferCell(text) // must not panic
	})
}

// fuzzCellValue builds a well-formed value of the kind-th type from fuzzed text; false when the
// text cannot make one (an invalid number, invalid UTF-8 inside JSON, a set with duplicates).
func fuzzCellValue(kind uint8, text, other string) (designer.Value, bool) {
	jsonSafe := utf8.ValidString(text) && utf8.ValidString(other)
	switch designer.Types[int(kind)%len(designer.Types)] {
	case designer.S:
		return designer.Str(text), true
	case designer.N:
		return designer.Num(text), designer.CheckNumber(text) == nil
	case designer.B:
		return designer.Bin([]byte(text)), true
	case designer.BOOL:
		return designer.Boolean(len(text)%2 == 0), true
	case designer.NULL:
		return designer.Null(), true
	case designer.M:
		inner := designer.Str(other)
		if designer.CheckNumber(other) == nil {
			inner = designer.Value{Type: designer.NS, SS: []string{other}}
		}
		return designer.Map(map[string]designer.Value{text: inner, "l": designer.List(designer.Bin([]byte(other)))}), jsonSafe
	case designer.L:
		return designer.List(designer.Str(text), designer.Map(map[string]designer.Value{other: designer.Boolean(true)})), jsonSafe
	case designer.SS:
		return designer.Value{Type: designer.SS, SS: []string{text, other}}, jsonSafe && text != other
	case designer.NS:
		return designer.Value{Type: designer.NS, SS: []string{text, other}}, designer.CheckSet([]string{text, other}, designer.CheckNumber) == nil
	case designer.BS:
		return designer.Value{Type: designer.BS, BS: [][]byte{[]byte(text), []byte(other)}}, text != other
	}
	return designer.Value{}, false
}

// cellValueEqual compares values, taking a nil and an empty slice or map as equal.
func cellValueEqual(a, b designer.Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case designer.S, designer.N:
		return a.S == b.S
	case designer.B:
		return bytes.Equal(a.B, b.B)
	case designer.BOOL:
		return a.Bool == b.Bool
	case designer.NULL:
		return true
	case designer.M:
		if len(a.M) != len(b.M) {
			return false
		}
		for k, av := range a.M {
			bv, ok := b.M[k]
			if !ok || !cellValueEqual(av, bv) {
				return false
			}
		}
		return true
	case designer.L:
		if len(a.L) != len(b.L) {
			return false
		}
		for i := range a.L {
			if !cellValueEqual(a.L[i], b.L[i]) {
				return false
			}
		}
		return true
	case designer.SS, designer.NS:
		if len(a.SS) != len(b.SS) {
			return false
		}
		for i := range a.SS {
			if a.SS[i] != b.SS[i] {
				return false
			}
		}
		return true
	case designer.BS:
		if len(a.BS) != len(b.BS) {
			return false
		}
		for i := range a.BS {
			if !bytes.Equal(a.BS[i], b.BS[i]) {
				return false
			}
		}
		return true
	}
	return true
}
