package designer

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFormatCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{Str("hello, world"), "hello, world"},
		{Str(""), ""},
		{Num("1.50"), "1.50"},
		{Bin([]byte("hi")), "aGk="},
		{Boolean(true), "true"},
		{Boolean(false), "false"},
		{Null(), "null"},
		{Map(map[string]Value{"b": Num("1"), "a": Str("x<y & z")}), `{"a":{"S":"x<y & z"},"b":{"N":"1"}}`},
		{Map(nil), `{}`},
		{List(Str("x"), List()), `[{"S":"x"},{"L":[]}]`},
		{List(), `[]`},
		{Value{Type: SS, SS: []string{"a", `b"c`}}, `["a","b\"c"]`},
		{Value{Type: NS, SS: []string{"1", "2.50"}}, `["1","2.50"]`},
		{Value{Type: BS, BS: [][]byte{{0}, []byte("hi")}}, `["AA==","aGk="]`},
		{Value{}, ""},
	} {
		if got := FormatCell(tc.v); got != tc.want {
			t.Errorf("FormatCell(%+v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestParseCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		typ  Type
		want Value
	}{
		{" spaced ", S, Str(" spaced ")},
		{"", S, Str("")},
		{" 42 ", N, Num("42")},
		{"-1.5E3", N, Num("-1.5E3")},
		{"aGk=", B, Bin([]byte("hi"))},
		{"aGk", B, Bin([]byte("hi"))},
		{"", B, Bin([]byte{})},
		{"TRUE", BOOL, Boolean(true)},
		{"false", BOOL, Boolean(false)},
		{"null", NULL, Null()},
		{`{"a":{"S":"x"}}`, M, Map(map[string]Value{"a": Str("x")})},
		{`{"M":{"a":{"S":"x"}}}`, M, Map(map[string]Value{"a": Str("x")})},
		{`{"M":{"S":"x"}}`, M, Map(map[string]Value{"M": Str("x")})},
		{`{}`, M, Map(map[string]Value{})},
		{`[{"N":"1"},{"NULL":true}]`, L, List(Num("1"), Null())},
		{`{"L":[{"N":"1"}]}`, L, List(Num("1"))},
		{`[]`, L, List()},
		{`["a","b"]`, SS, Value{Type: SS, SS: []string{"a", "b"}}},
		{`{"SS":["a"]}`, SS, Value{Type: SS, SS: []string{"a"}}},
		{`["1", 2.5, "3E2"]`, NS, Value{Type: NS, SS: []string{"1", "2.5", "3E2"}}},
		{`["AA==","aGk="]`, BS, Value{Type: BS, BS: [][]byte{{0}, []byte("hi")}}},
	} {
		got, err := ParseCell(tc.text, tc.typ)
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
		typ  Type
		want string
	}{
		{"abc", N, `"abc" is not a number`},
		{"0x10", N, `"0x10" is not a number`},
		{"123456789012345678901234567890123456789", N, "39 significant digits"},
		{"1E126", N, "out of DynamoDB's range"},
		{"", N, "an empty cell is not a number"},
		{"not base64!", B, `"not base64!" is not base64`},
		{"yes", BOOL, `"yes" is not true or false`},
		{"nil", NULL, `"nil" is not null`},
		{`{"a":"x"}`, M, `is not a map`},
		{`{"a":`, M, "invalid JSON"},
		{`[1]`, M, `a map is written`},
		{`{"a":{"S":"x"}}`, L, `a list is written`},
		{`["a","a"]`, SS, `must not hold "a" twice`},
		{`[]`, SS, "must not be empty"},
		{`["1","1.0"]`, NS, `must not hold "1.0" twice`},
		{`["x"]`, NS, `"x" is not a number`},
		{`[true]`, NS, "a number set is written"},
		{`["!!"]`, BS, `member "!!" is not base64`},
		{"x", "XX", `unknown attribute type "XX"`},
	} {
		_, err := ParseCell(tc.text, tc.typ)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCell(%q, %s) error = %v, want it to contain %q", tc.text, tc.typ, err, tc.want)
		}
	}
}

func TestInferCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want Value
	}{
		{"hello", Str("hello")},
		{"", Str("")},
		{" padded text ", Str(" padded text ")},
		{"42", Num("42")},
		{"-1.5e3", Num("-1.5e3")},
		{" 7 ", Num("7")},
		{"007", Str("007")},
		{"+1", Str("+1")},
		{"1.", Str("1.")},
		{"1e200", Str("1e200")},
		{"NaN", Str("NaN")},
		{"true", Boolean(true)},
		{"false", Boolean(false)},
		{"True", Str("True")},
		{"null", Null()},
		{`{"a":{"N":"1"}}`, Map(map[string]Value{"a": Num("1")})},
		{`{"N":"5"}`, Num("5")},
		{`{"a":1}`, Str(`{"a":1}`)},
		{`[{"S":"x"}]`, List(Str("x"))},
		{`[]`, List()},
		{`["a","b"]`, Value{Type: SS, SS: []string{"a", "b"}}},
		{`[1, 2.5]`, Value{Type: NS, SS: []string{"1", "2.5"}}},
		{`["a","a"]`, Str(`["a","a"]`)},
		{`[1, "a"]`, Str(`[1, "a"]`)},
		{`[oops`, Str(`[oops`)},
		{"USER#1", Str("USER#1")},
	} {
		if got := InferCell(tc.text); !cellValueEqual(got, tc.want) {
			t.Errorf("InferCell(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

func TestParseCell_roundTripsEveryType(t *testing.T) {
	t.Parallel()
	for _, v := range cellSamples() {
		text := FormatCell(v)
		got, err := ParseCell(text, v.Type)
		if err != nil {
			t.Errorf("ParseCell(%q, %s): %v", text, v.Type, err)
			continue
		}
		if !cellValueEqual(got, v) {
			t.Errorf("round trip of %q as %s gave %+v, want %+v", text, v.Type, got, v)
		}
	}
}

func cellSamples() []Value {
	return []Value{
		Str("plain"), Str(""), Str(" spaced "), Str("{\"looks\":\"like json\"}"), Str("tab\there\nnewline"),
		Num("0"), Num("-1.50"), Num("1E-130"), Num("+7"), Num(".5"),
		Bin(nil), Bin([]byte{0, 255, 10}),
		Boolean(true), Boolean(false), Null(),
		Map(nil), Map(map[string]Value{"M": Str("x"), "S": Null(), "nested": Map(map[string]Value{"l": List(Bin([]byte{1}))})}),
		Map(map[string]Value{"html": Str("<b>&</b>"), "ünï": Value{Type: NS, SS: []string{"1"}}}),
		List(), List(Str("a"), Num("1"), Value{Type: BS, BS: [][]byte{{1}, {}}}),
		{Type: SS, SS: []string{"a", "", "ü"}},
		{Type: NS, SS: []string{"1", "-2.50", "3E+5"}},
		{Type: BS, BS: [][]byte{{1, 2}, {}}},
	}
}

// FuzzParseCell checks that every value FormatCell writes, ParseCell reads back as the same value
// of the same type.
func FuzzParseCell(f *testing.F) {
	for i, v := range cellSamples() {
		f.Add(uint8(i), FormatCell(v), "k")
	}
	f.Fuzz(func(t *testing.T, kind uint8, text, other string) {
		v, ok := fuzzCellValue(kind, text, other)
		if !ok {
			return
		}
		cell := FormatCell(v)
		got, err := ParseCell(cell, v.Type)
		if err != nil {
			t.Fatalf("ParseCell(%q, %s) of FormatCell(%+v): %v", cell, v.Type, v, err)
		}
		if !cellValueEqual(got, v) {
			t.Fatalf("ParseCell(FormatCell(%+v)) = %+v (cell %q)", v, got, cell)
		}
		InferCell(text) // must not panic
	})
}

// fuzzCellValue builds a well-formed value of the kind-th type from fuzzed text; false when the
// text cannot make one (an invalid number, invalid UTF-8 inside JSON, a set with duplicates).
func fuzzCellValue(kind uint8, text, other string) (Value, bool) {
	jsonSafe := utf8.ValidString(text) && utf8.ValidString(other)
	switch Types[int(kind)%len(Types)] {
	case S:
		return Str(text), true
	case N:
		return Num(text), CheckNumber(text) == nil
	case B:
		return Bin([]byte(text)), true
	case BOOL:
		return Boolean(len(text)%2 == 0), true
	case NULL:
		return Null(), true
	case M:
		inner := Str(other)
		if CheckNumber(other) == nil {
			inner = Value{Type: NS, SS: []string{other}}
		}
		return Map(map[string]Value{text: inner, "l": List(Bin([]byte(other)))}), jsonSafe
	case L:
		return List(Str(text), Map(map[string]Value{other: Boolean(true)})), jsonSafe
	case SS:
		return Value{Type: SS, SS: []string{text, other}}, jsonSafe && text != other
	case NS:
		return Value{Type: NS, SS: []string{text, other}}, CheckSet([]string{text, other}, CheckNumber) == nil
	case BS:
		return Value{Type: BS, BS: [][]byte{[]byte(text), []byte(other)}}, text != other
	}
	return Value{}, false
}

// cellValueEqual compares values, taking a nil and an empty slice or map as equal.
func cellValueEqual(a, b Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case S, N:
		return a.S == b.S
	case B:
		return bytes.Equal(a.B, b.B)
	case BOOL:
		return a.Bool == b.Bool
	case NULL:
		return true
	case M:
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
	case L:
		if len(a.L) != len(b.L) {
			return false
		}
		for i := range a.L {
			if !cellValueEqual(a.L[i], b.L[i]) {
				return false
			}
		}
		return true
	case SS, NS:
		if len(a.SS) != len(b.SS) {
			return false
		}
		for i := range a.SS {
			if a.SS[i] != b.SS[i] {
				return false
			}
		}
		return true
	case BS:
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
