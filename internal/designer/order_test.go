package designer

import "testing"

func TestCompareKeyValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b Value
		want int
	}{
		{"strings by bytes: lower case after upper case", Str("a"), Str("A"), 1},
		{"strings by UTF-8 bytes: ¿ (C2 BF) after z", Str("¿"), Str("z"), 1},
		{"a prefix first", Str("USER#1"), Str("USER#10"), -1},
		{"USER#10 before USER#2", Str("USER#10"), Str("USER#2"), -1},
		{"equal strings", Str("x"), Str("x"), 0},
		{"numbers numerically", Num("10"), Num("9"), 1},
		{"negative before zero", Num("-1"), Num("0"), -1},
		{"more negative first", Num("-10"), Num("-9"), -1},
		{"negative fractions", Num("-0.5"), Num("-0.25"), -1},
		{"same number, different spelling", Num("1.50"), Num("15E-1"), 0},
		{"zero is zero", Num("-0"), Num("0.000"), 0},
		{"tiny positive after zero", Num("1E-130"), Num("0"), 1},
		{"exponents", Num("1E+125"), Num("99999999999999999999999999999999999999"), 1},
		{"38 digits differing in the last", Num("12345678901234567890123456789012345678"), Num("12345678901234567890123456789012345679"), -1},
		{"beyond float precision", Num("0.10000000000000000000000000000000000001"), Num("0.1"), 1},
		{"not a number after numbers", Num("abc"), Num("1"), 1},
		{"binary unsigned", Bin([]byte{0xff}), Bin([]byte{0x01}), 1},
		{"binary prefix first", Bin([]byte{1}), Bin([]byte{1, 0}), -1},
		{"mixed types by type name: N before S", Num("5"), Str("1"), -1},
		{"mixed types by type name: B before N", Bin(nil), Num("1"), -1},
		{"booleans by text", Boolean(false), Boolean(true), -1},
	} {
		if got := CompareKeyValues(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: CompareKeyValues = %d, want %d", tc.name, got, tc.want)
		}
		if got := CompareKeyValues(tc.b, tc.a); got != -tc.want {
			t.Errorf("%s (swapped): CompareKeyValues = %d, want %d", tc.name, got, -tc.want)
		}
	}
}

func TestCompareKeys_isLexicographic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b []Value
		want int
	}{
		{"first attribute decides", []Value{Str("a"), Num("9")}, []Value{Str("b"), Num("1")}, -1},
		{"then the second", []Value{Str("a"), Num("10")}, []Value{Str("a"), Num("9")}, 1},
		{"equal", []Value{Str("a"), Num("1")}, []Value{Str("a"), Num("1.0")}, 0},
		{"a prefix first", []Value{Str("a")}, []Value{Str("a"), Num("1")}, -1},
		{"empty keys", nil, nil, 0},
	} {
		if got := CompareKeys(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: CompareKeys = %d, want %d", tc.name, got, tc.want)
		}
	}
}
