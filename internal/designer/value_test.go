package designer

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestValue_wireForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    Value
		want string
	}{
		{Str("hello"), `{"S":"hello"}`},
		{Str("a<b & c>d"), `{"S":"a<b & c>d"}`},
		{Num("42"), `{"N":"42"}`},
		{Num("-1.50E+3"), `{"N":"-1.50E+3"}`},
		{Bin([]byte("hi!")), `{"B":"aGkh"}`},
		{Boolean(true), `{"BOOL":true}`},
		{Boolean(false), `{"BOOL":false}`},
		{Null(), `{"NULL":true}`},
		{Map(map[string]Value{"b": Num("2"), "a": Str("x")}), `{"M":{"a":{"S":"x"},"b":{"N":"2"}}}`},
		{Map(nil), `{"M":{}}`},
		{List(Str("x"), List()), `{"L":[{"S":"x"},{"L":[]}]}`},
		{Value{Type: SS, SS: []string{"b", "a"}}, `{"SS":["b","a"]}`},
		{Value{Type: NS, SS: []string{"1", "2.5"}}, `{"NS":["1","2.5"]}`},
		{Value{Type: BS, BS: [][]byte{{0xff}, []byte("hi!")}}, `{"BS":["/w==","aGkh"]}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.v)
		if err != nil {
			t.Errorf("Marshal(%+v): %v", tt.v, err)
			continue
		}
		// json.Marshal escapes HTML around a Marshaler's output; compare without that.
		if s := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(got)); s != tt.want {
			t.Errorf("Marshal = %s, want %s", s, tt.want)
		}
		var back Value
		if err := json.Unmarshal([]byte(tt.want), &back); err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.want, err)
			continue
		}
		want := tt.v
		if want.Type == M && want.M == nil {
			want.M = map[string]Value{}
		}
		if want.Type == L {
			for i := range want.L {
				if want.L[i].Type == L && want.L[i].L == nil {
					want.L[i].L = []Value{}
				}
			}
		}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("Unmarshal(%s) = %+v, want %+v", tt.want, back, want)
		}
	}
}

func TestValue_marshalWithoutTypeFails(t *testing.T) {
	t.Parallel()
	if _, err := json.Marshal(Value{}); err == nil {
		t.Error("a value without a type was encoded")
	}
}

func TestValue_refusesMalformed(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"N":"fast"}`,
		`{"N":42}`,
		`{"N":""}`,
		`{"N":" 1"}`,
		`{"N":"0x10"}`,
		`{"N":"0b101"}`,
		`{"N":"0o17"}`,
		`{"N":"1_000"}`,
		`{"N":"Inf"}`,
		`{"N":"NaN"}`,
		`{"N":"1/3"}`,
		`{"N":"1e"}`,
		`{"N":"."}`,
		`{"N":"1e126"}`,
		`{"N":"1e-131"}`,
		`{"N":"1e999999999999999999999"}`,
		`{"N":"123456789012345678901234567890123456789"}`,
		`{"SS":[]}`,
		`{"SS":null}`,
		`{"SS":["a","a"]}`,
		`{"NS":["1","1.0"]}`,
		`{"NS":["1","x"]}`,
		`{"NS":[]}`,
		`{"BS":[]}`,
		`{"BS":["YQ==","YQ=="]}`,
		`{"B":"not base64!"}`,
		`{"BOOL":"true"}`,
		`{"NULL":false}`,
		`{"S":1}`,
		`{"X":"1"}`,
		`{"s":"lower case type"}`,
		`{"S":"a","N":"1"}`,
		`{}`,
		`"text"`,
		`null`,
		`[{"S":"a"}]`,
		`{"L":[{"N":"fast"}]}`,
		`{"M":{"inner":{"X":"1"}}}`,
		`{"L":[null]}`,
	} {
		var v Value
		if err := json.Unmarshal([]byte(in), &v); err == nil {
			t.Errorf("Unmarshal(%s) accepted it as %+v", in, v)
		}
	}
}

func TestValue_acceptsDynamoDBNumbers(t *testing.T) {
	t.Parallel()
	for _, n := range []string{
		"0", "-0", "42", "-17", "+5", "3.25", ".5", "5.", "007", "1e10", "1E-5", "-2.5e+3",
		"1e-130", "9.9999999999999999999999999999999999999e125",
		"12345678901234567890123456789012345678",
		"0.00000000000000000000000000000000000000000000000001",
		"1000000000000000000000000000000000000000000000000000",
	} {
		if err := CheckNumber(n); err != nil {
			t.Errorf("checkNumber(%q): %v", n, err)
		}
	}
}

func TestCanonicalNumber(t *testing.T) {
	t.Parallel()
	same := [][]string{
		{"1", "1.0", "01", "10e-1", "0.1e1", "+1"},
		{"0", "-0", "0.000", "0e99"},
		{"-150", "-1.5e2", "-1500E-1"},
	}
	for _, group := range same {
		for _, n := range group[1:] {
			if canonicalNumber(n) != canonicalNumber(group[0]) {
				t.Errorf("canonicalNumber(%q) = %q, want %q like %q", n, canonicalNumber(n), canonicalNumber(group[0]), group[0])
			}
		}
	}
	if canonicalNumber("1") == canonicalNumber("10") || canonicalNumber("1") == canonicalNumber("-1") {
		t.Error("different numbers share a canonical form")
	}
}

func TestItem_SortedNames(t *testing.T) {
	t.Parallel()
	got := Item{"b": Null(), "a": Null(), "B": Null()}.SortedNames()
	if want := []string{"B", "a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SortedNames = %v, want %v", got, want)
	}
}

func TestType_Valid(t *testing.T) {
	t.Parallel()
	for _, ty := range Types {
		if !ty.Valid() {
			t.Errorf("%s not valid", ty)
		}
	}
	for _, ty := range []Type{"", "s", "STRING", "NUMBER", "D"} {
		if ty.Valid() {
			t.Errorf("%q reported valid", ty)
		}
	}
	if !S.KeyType() || !N.KeyType() || !B.KeyType() || BOOL.KeyType() || SS.KeyType() {
		t.Error("KeyType wrong")
	}
}

// Strings and numbers written compactly take a shorter way through decode; it reads them as the
// general way does and leaves everything else, valid or not, to it.
func TestValue_compactScalarsDecodeAsTheGeneralWay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		want    Value
		wantErr string
	}{
		{in: `{"S":"plain"}`, want: Str("plain")},
		{in: `{"S":""}`, want: Str("")},
		{in: `{"S":"a\"b\u00e9\n"}`, want: Str("a\"bé\n")},
		{in: `{"S":"x" }`, want: Str("x")},
		{in: `{"N":"-12.5e3"}`, want: Num("-12.5e3")},
		{in: `{ "S": "spaced" }`, want: Str("spaced")},
		{in: `{"N":"twelve"}`, wantErr: "N value"},
		{in: `{"N":12}`, wantErr: "N value"},
		{in: `{"S":"a","N":"1"}`, wantErr: "exactly one type key"},
		{in: `{"X":"a"}`, wantErr: "unknown attribute type"},
	} {
		var v Value
		err := json.Unmarshal([]byte(tc.in), &v)
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one saying %q", tc.in, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || !v.Identical(tc.want)):
			t.Errorf("%s: %+v, %v; want %+v", tc.in, v, err, tc.want)
		}
	}
}

// Item and Value write their JSON by hand where that is plain, and through encoding/json where it
// is not: the bytes must be encoding/json's either way, inside a design (HTML left alone) and
// inside an API answer (HTML escaped).
func TestItem_JSONIsEncodingJSONsOwn(t *testing.T) {
	t.Parallel()
	texts := []string{"", "plain", "ORDER#2025-04-24#o00051", `quote " and \ backslash`, "tab\there\nline\r\b\f\x01\x1f",
		"<b>&amp;</b>", "Müller – ünïcödé ✓", "bad \xff utf-8", "line\u2028sep\u2029", "del\x7f"}
	items := []Item{nil, {}}
	for _, s := range texts {
		items = append(items, Item{
			s:        Str(s),
			"n" + s:  Num("1.5E+3"),
			"flag":   Boolean(true),
			"off":    Boolean(false),
			"none":   Null(),
			"bin":    Bin([]byte(s)),
			"nobin":  Value{Type: B},
			"map":    Map(map[string]Value{s: Str(s), "n": Num("1")}),
			"list":   List(Str(s), Num("2"), List()),
			"empty":  Value{Type: M},
			"ss":     {Type: SS, SS: []string{s, "x"}},
			"ns":     {Type: NS, SS: []string{"1", "2"}},
			"bs":     {Type: BS, BS: [][]byte{[]byte(s)}},
			"nolist": {Type: L},
		})
	}
	for _, it := range items {
		for _, escapeHTML := range []bool{false, true} {
			encode := func(v any) string {
				var b strings.Builder
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(escapeHTML)
				if err := enc.Encode(v); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			byHand := encode(struct{ I Item }{it})
			// A map[string]Value of values written by encoding/json alone.
			var want map[string]json.RawMessage
			if it != nil {
				want = map[string]json.RawMessage{}
				for name, v := range it {
					raw, err := v.encodeJSON()
					if err != nil {
						t.Fatal(err)
					}
					want[name] = raw
				}
			}
			if reflected := encode(struct{ I map[string]json.RawMessage }{want}); byHand != reflected {
				t.Errorf("escapeHTML %v:\n by hand       %s\n encoding/json %s", escapeHTML, byHand, reflected)
			}
		}
	}
}
