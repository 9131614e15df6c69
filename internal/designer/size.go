package designer

import "unicode/utf8"

// Item sizes follow the DynamoDB rules used for the 400 KB limit and for capacity units
// (dynamodb-semantics §1.1, §1.2):
//
//   - every attribute counts the UTF-8 bytes of its name plus the size of its value;
//   - S counts its UTF-8 bytes, B its raw bytes, BOOL and NULL 1 byte;
//   - N counts by the empirical rule that matches ConsumedCapacity (§1.2), see numberSize;
//   - M and L count 3 bytes, plus 1 byte and the element's size per element (and the key's UTF-8
//     bytes per map entry);
//   - SS, NS and BS count the sum of their members' sizes with no overhead. AWS does not document
//     set sizes; this is the calculator's rule the reference cites, and it is an estimate.

// ItemSize returns the size of an item in bytes as DynamoDB counts it.
func ItemSize(it Item) int {
	n := 0
	for name, v := range it {
		n += len(name) + ValueSize(v)
	}
	return n
}

// ValueSize returns the size of one attribute value in bytes, without its name. A value without a
// valid type counts 0.
func ValueSize(v Value) int {
	switch v.Type {
	case S:
		return len(v.S)
	case N:
		return NumberSize(v.S)
	case B:
		return len(v.B)
	case BOOL, NULL:
		return 1
	case M:
		n := 3
		for k, e := range v.M {
			n += len(k) + ValueSize(e) + 1
		}
		return n
	case L:
		n := 3
		for _, e := range v.L {
			n += ValueSize(e) + 1
		}
		return n
	case SS:
		n := 0
		for _, s := range v.SS {
			n += len(s)
		}
		return n
	case NS:
		n := 0
		for _, s := range v.SS {
			n += NumberSize(s)
		}
		return n
	case BS:
		n := 0
		for _, b := range v.BS {
			n += len(b)
		}
		return n
	}
	return 0
}

// IndexEntrySize returns the size of an index entry as built by IndexItems: the table's key
// attributes, the index's key attributes and the projected attributes, each sized as in an item.
// This is the size index reads and writes are charged on (§1.5). It leaves out the 100 bytes per
// entry DynamoDB adds for storage billing only.
func IndexEntrySize(entry Item) int { return ItemSize(entry) }

// maxNumberSize is the largest size the calculator the reference cites gives a number.
const maxNumberSize = 21

// NumberSize sizes a number the way real consumed capacity does (§1.2): zero is 1 byte; otherwise
// the digits are grouped in pairs aligned on the decimal point, pairs of zeros at either end are
// dropped, and the size is one byte per pair plus one, plus one more when negative, at most 21.
// Text that is not a number, which validation reports elsewhere, gets the official approximation
// for its length: one byte per two characters plus one.
func NumberSize(text string) int {
	negative, high, low, zero, ok := numberShape(text)
	switch {
	case !ok:
		return min(utf8.RuneCountInString(text)/2+1, maxNumberSize)
	case zero:
		return 1
	}
	// The digit worth 10^p falls in pair floor(p/2); pairs run from the leading digit's to the last
	// digit's, and both of those hold a non-zero digit, so no zero pair is left at either end.
	size := floorHalf(high) - floorHalf(low) + 2
	if negative {
		size++
	}
	return int(min(size, maxNumberSize))
}

// numberShape reads a number as parseDecimal does, without allocating, since every item size
// needs it: the powers of ten of its first and last non-zero digits, or zero.
func numberShape(s string) (negative bool, high, low int64, zero, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		negative = s[i] == '-'
		i++
	}
	intStart := i
	for i < len(s) && IsDigit(s[i]) {
		i++
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < len(s) && s[i] == '.' {
		i++
		fracStart = i
		for i < len(s) && IsDigit(s[i]) {
			i++
		}
		fracEnd = i
	}
	if intStart == intEnd && fracStart == fracEnd {
		return false, 0, 0, false, false
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
			return false, 0, 0, false, false
		}
		if expNegative {
			exp = -exp
		}
	}
	if i != len(s) {
		return false, 0, 0, false, false
	}
	// Digit k of the integer and fraction digits taken together is worth 10^(intLen-1-k+exp).
	intLen := intEnd - intStart
	digit := func(k int) byte {
		if k < intLen {
			return s[intStart+k]
		}
		return s[fracStart+k-intLen]
	}
	n := intLen + fracEnd - fracStart
	first, last := -1, -1
	for k := range n {
		if digit(k) != '0' {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return false, 0, 0, true, true
	}
	high = int64(intLen-1-first) + exp
	low = int64(intLen-1-last) + exp
	return negative, high, low, false, true
}

func floorHalf(p int64) int64 {
	if p < 0 {
		return -((-p + 1) / 2)
	}
	return p / 2
}
