package dynamo

import (
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// pageItemSize is the size an item counts toward a Query or Scan page's 1 MB: dynalite's model of
// DynamoDB's internal encoding, fitted to real DynamoDB. Attribute names count one byte, values a
// little more than their size, and the table's sort key is charged per 3 KB block. String lengths
// are counted in UTF-16 code units, as dynalite counts them.
func pageItemSize(it designer.Item, rangeKey string) int {
	page, _ := pageAndItemSize(it, rangeKey)
	return page
}

// pageAndItemSize returns pageItemSize and ItemSize in one pass over the item.
func pageAndItemSize(it designer.Item, rangeKey string) (page, size int) {
	page, size, _, _, _ = measureItem(it, rangeKey)
	return page, size
}

// measureItem returns pageItemSize, ItemSize and whether the item is already in DynamoDB's
// spelling (isCanonical), in one pass over the item, and on the way the value of the table's
// sort key.
func measureItem(it designer.Item, rangeKey string) (page, size int, canonical bool, rangeVal designer.Value, hasRange bool) {
	stored, rangeSize := 0, 0
	canonical = true
	for name, v := range it {
		if name == rangeKey {
			rangeVal, hasRange = v, true
		}
		var value, inPage int
		switch v.Type {
		case designer.S:
			// For ASCII, which sample keys and values mostly are, UTF-16 units are bytes.
			value = len(v.S)
			units := value
			if !isASCII(v.S) {
				units = utf16Len(v.S)
			}
			inPage = units + 1
			if units >= 128 {
				inPage++
			}
			if units >= 16384 {
				inPage++
			}
			if name == rangeKey {
				rangeSize = units
			}
		case designer.N:
			value = designer.NumberSize(v.S)
			inPage = value + 1
			if name == rangeKey {
				rangeSize = value
			}
			canonical = canonical && isFixedNumber(v.S)
		default:
			value = designer.ValueSize(v)
			inPage = storedPageSize(v)
			if name == rangeKey {
				rangeSize = rawPageSize(v)
			}
			canonical = canonical && valueCanonical(v)
		}
		size += len(name) + value
		if name != rangeKey {
			stored += inPage + 1
		}
	}
	return 2 + stored + (1+(1+stored)/3072)*(18+rangeSize), size, canonical, rangeVal, hasRange
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func rawPageSize(v designer.Value) int {
	switch v.Type {
	case designer.S:
		return utf16Len(v.S)
	case designer.B:
		return len(v.B)
	case designer.N:
		return designer.NumberSize(v.S)
	}
	return storedPageSize(v)
}

func storedPageSize(v designer.Value) int {
	switch v.Type {
	case designer.S:
		n := utf16Len(v.S)
		switch {
		case n < 128:
			return n + 1
		case n < 16384:
			return n + 2
		}
		return n + 3
	case designer.B:
		return len(v.B) + 1
	case designer.N:
		return designer.NumberSize(v.S) + 1
	case designer.SS:
		n := 0
		for _, s := range v.SS {
			n += utf16Len(s)
		}
		return n + len(v.SS) + 1
	case designer.NS:
		n := 0
		for _, s := range v.SS {
			n += designer.NumberSize(s)
		}
		return n + len(v.SS) + 1
	case designer.BS:
		n := 0
		for _, b := range v.BS {
			n += len(b)
		}
		return n + len(v.BS) + 1
	case designer.NULL:
		return 0
	case designer.BOOL:
		return 1
	case designer.L:
		n := 3
		for _, e := range v.L {
			n += 1 + storedPageSize(e)
		}
		return n
	case designer.M:
		n := 3 + len(v.M)
		for _, e := range v.M {
			n += storedPageSize(e) + 1
		}
		return n
	}
	return 0
}
