package designer

import (
	"bytes"
	"strings"
)

// CompareKeyValues orders two key values the way DynamoDB orders sort keys (§3.2) and returns -1, 0
// or +1: strings by their UTF-8 bytes, numbers by numeric value (exactly, on the decimal text: 1.50
// equals 15E-1), binaries byte by byte. Values of different types, which a key never mixes, are
// ordered by type name so that the order is still deterministic. Values of types a key cannot have
// are ordered by their cell text.
func CompareKeyValues(a, b Value) int {
	if a.Type != b.Type {
		return strings.Compare(string(a.Type), string(b.Type))
	}
	switch a.Type {
	case S:
		return strings.Compare(a.S, b.S)
	case N:
		return CompareNumberText(a.S, b.S)
	case B:
		return bytes.Compare(a.B, b.B)
	}
	return strings.Compare(FormatCell(a), FormatCell(b))
}

// CompareKeys orders multi-attribute keys element by element; a key that is a prefix of the other
// comes first.
func CompareKeys(a, b []Value) int {
	for i := range min(len(a), len(b)) {
		if c := CompareKeyValues(a[i], b[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// CompareNumberText compares two number texts numerically. Text that is not a number sorts after
// every number, and among itself by its bytes.
func CompareNumberText(a, b string) int {
	da, okA := ParseDecimal(a)
	db, okB := ParseDecimal(b)
	switch {
	case okA && okB:
		return CompareDecimals(da, db)
	case okA:
		return -1
	case okB:
		return 1
	}
	return strings.Compare(a, b)
}

// CompareDecimals compares two parsed numbers without converting them to floats, so that 38-digit
// numbers that differ in their last digit still compare unequal.
func CompareDecimals(a, b Decimal) int {
	sa, sb := decimalSign(a), decimalSign(b)
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := compareMagnitudes(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func decimalSign(d Decimal) int {
	switch {
	case d.Digits == "":
		return 0
	case d.Negative:
		return -1
	}
	return 1
}

// compareMagnitudes compares |a| and |b|, both non-zero. The power of ten of the leading digit
// decides; when it is equal the digit strings do, and since neither has trailing zeros a proper
// prefix is the smaller number.
func compareMagnitudes(a, b Decimal) int {
	ha := a.Exp + int64(len(a.Digits))
	hb := b.Exp + int64(len(b.Digits))
	switch {
	case ha < hb:
		return -1
	case ha > hb:
		return 1
	}
	return strings.Compare(a.Digits, b.Digits)
}
