package designer_test

import (
	"testing"

	"dynaloom/internal/designer"
)

func TestCompareKeyValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b designer.Value
		want int
	}{
		{"strings by bytes: lower case after upper case", designer.Str("a"), designer.Str("A"), 1},
		{"strings by UTF-8 bytes: ¿ (C2 BF) after z", designer.Str("¿"), designer.Str("z"), 1},
		{"a prefix first", designer.Str("USER#1"), designer.Str("USER#10"), -1},
		{"USER#10 before USER#2", designer.Str("USER#10"), designer.Str("USER#2"), -1},
		{"equal strings", designer.Str("x"), designer.Str("x"), 0},
		{"numbers numerically", designer.Num("10"), designer.Num("9"), 1},
		{"negative before zero", designer.Num("-1"), designer.Num("0"), -1},
		{"more negative first", designer.Num("-10"), designer.Num("-9"), -1},
		{"negative fractions", designer.Num("-0.5"), designer.Num("-0.25"), -1},
		{"same number, different spelling", designer.Num("1.50"), designer.Num("15E-1"), 0},
		{"zero is zero", designer.Num("-0"), designer.Num("0.000"), 0},
		{"tiny positive after zero", designer.Num("1E-130"), designer.Num("0"), 1},
		{"exponents", designer.Num("1E+125"), designer.Num("99999999999999999999999999999999999999"), 1},
		{"38 digits differing in the last", designer.Num("12345678901234567890123456789012345678"), designer.Num("12345678901234567890123456789012345679"), -1},
		{"beyond float precision", designer.Num("0.10000000000000000000000000000000000001"), designer.Num("0.1"), 1},
		{"not a number after numbers", designer.Num("abc"), designer.Num("1"), 1},
		{"binary unsigned", designer.Bin([]byte{0xff}), designer.Bin([]byte{0x01}), 1},
		{"binary prefix first", designer.Bin([]byte{1}), designer.Bin([]byte{1, 0}), -1},
		{"mixed types by type name: N before S", designer.Num("5"), designer.Str("1"), -1},
		{"mixed types by type name: B before N", designer.Bin(nil), designer.Num("1"), -1},
		{"booleans by text", designer.Boolean(false), designer.Boolean(true), -1},
	} {
		if got := designer.CompareKeyValues(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: CompareKeyValues = %d, want %d", tc.name, got, tc.want)
		}
		if got := designer.CompareKeyValues(tc.b, tc.a); got != -tc.want {
			t.Errorf("%s (swapped): CompareKeyValues = %d, want %d", tc.name, got, -tc.want)
		}
	}
}

func TestCompareKeys_isLexicographic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b []designer.Value
		want int
	}{
		{"first attribute decides", []designer.Value{designer.Str("a"), designer.Num("9")}, []designer.Value{designer.Str("b"), designer.Num("1")}, -1},
		{"then the second", []designer.Value{designer.Str("a"), designer.Num("10")}, []designer.Value{designer.Str("a"), designer.Num("9")}, 1},
		{"equal", []designer.Value{designer.Str("a"), designer.Num("1")}, []designer.Value{designer.Str("a"), designer.Num("1.0")}, 0},
		{"a prefix first", []designer.Value{designer.Str("a")}, []designer.Value{designer.Str("a"), designer.Num("1")}, -1},
		{"empty keys", nil, nil, 0},
	} {
		if got := designer.CompareKeys(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: CompareKeys = %d, want %d", tc.name, got, tc.want)
		}
	}
}
