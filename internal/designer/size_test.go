package designer

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestItemSize_awsWorkedExample(t *testing.T) {
	t.Parallel()
	// Constraints – Items: {"shirt-color":"R","shirt-size":"M"} is 23 bytes (11+1 + 10+1).
	it := Item{"shirt-color": Str("R"), "shirt-size": Str("M")}
	if got := ItemSize(it); got != 23 {
		t.Fatalf("ItemSize = %d, want 23", got)
	}
}

func TestItemSize_calculatorSample(t *testing.T) {
	t.Parallel()
	// The sample item of the calculator the reference cites (§1.2): 10 + 19 + 35 + 18 + 16 bytes.
	var it Item
	if err := json.Unmarshal([]byte(`{
		"id": {"S": "f0ba8d6c"},
		"fullName": {"S": "Zac Charles"},
		"someData": {"B": "dGhpcyB0ZXh0IGlzIGJhc2U2NC1lbmNvZGVk"},
		"favouriteNumber": {"N": "-1E-130"},
		"foods": {"SS": ["pizza", "burger"]}
	}`), &it); err != nil {
		t.Fatal(err)
	}
	if got := ItemSize(it); got != 98 {
		t.Fatalf("ItemSize = %d, want 98", got)
	}
}

func TestValueSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		v    Value
		want int
	}{
		{"ascii string", Str("abc"), 3},
		{"multi-byte string counts UTF-8 bytes", Str("café"), 5},
		{"empty string", Str(""), 0},
		{"binary counts raw bytes", Bin([]byte{0, 1, 2, 255}), 4},
		{"bool", Boolean(false), 1},
		{"null", Null(), 1},
		{"empty map", Map(map[string]Value{}), 3},
		{"empty list", List(), 3},
		{"map entry: key + value + 1", Map(map[string]Value{"a": Str("x")}), 3 + 1 + 1 + 1},
		{"map key counts UTF-8 bytes", Map(map[string]Value{"ñ": Null()}), 3 + 2 + 1 + 1},
		{"list elements: value + 1 each", List(Str("ab"), Num("1")), 3 + (2 + 1) + (2 + 1)},
		{"nested documents", List(Map(map[string]Value{"k": List(Boolean(true))})), 3 + 1 + (3 + 1 + (3 + 1 + 1) + 1)},
		{"string set: sum of members", Value{Type: SS, SS: []string{"a", "bc"}}, 3},
		{"number set: sum of member sizes", Value{Type: NS, SS: []string{"1", "10", "123"}}, 2 + 2 + 3},
		{"binary set: sum of raw lengths", Value{Type: BS, BS: [][]byte{{1}, {2, 3}}}, 3},
		{"no type", Value{}, 0},
	} {
		if got := ValueSize(tc.v); got != tc.want {
			t.Errorf("%s: ValueSize = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestValueSize_numbers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    string
		want int
	}{
		// The reference's examples (§1.2).
		{"123", 3},
		{"1.5", 3},
		{"-1E-130", 3},
		// Zero, however written, is 1 byte.
		{"0", 1}, {"-0", 1}, {"0.000", 1}, {"0E+5", 1},
		{"1", 2}, {"9", 2}, {"10", 2}, {"99", 2}, {"100", 2}, {"1000", 2}, {"10000", 2},
		{"101", 3}, {"1001", 3}, {"12345", 4}, {"-123", 4},
		{"0.5", 2}, {"0.05", 2}, {"0.005", 2}, {"0.15", 2}, {"0.123", 3},
		{"100.5", 4}, {"1.50", 3}, {"15E-1", 3}, {"1E+125", 2}, {"9.9999999999999999999999999999999999999E+125", 20},
		{"12345678901234567890123456789012345678", 20},
		{"-12345678901234567890123456789012345678", 21},
		// 20 digit pairs + 1 + 1 for the sign is capped at 21.
		{"1.2345678901234567890123456789012345678", 21},
		{"-1.2345678901234567890123456789012345678", 21},
		// Not a number: the official approximation of its length.
		{"abc", 2},
	} {
		if got := ValueSize(Num(tc.n)); got != tc.want {
			t.Errorf("ValueSize(N %s) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// TestValueSize_numbersMatchTheCalculator compares numberSize with a direct port of the cited
// calculator's string algorithm (calculateNumberSizeInBytes and measure) on many numbers.
func TestValueSize_numbersMatchTheCalculator(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		digits := make([]byte, 1+rng.IntN(38))
		for i := range digits {
			digits[i] = byte('0' + rng.IntN(10))
			if rng.IntN(3) == 0 {
				digits[i] = '0' // zero runs exercise the pair trimming
			}
		}
		text := string(digits)
		if point := rng.IntN(len(digits) + 1); point < len(digits) && rng.IntN(2) == 0 {
			text = text[:point] + "." + text[point:]
			if point == 0 {
				text = "0" + text
			}
		}
		if rng.IntN(3) == 0 {
			text += "E" + strconv.Itoa(rng.IntN(80)-40)
		}
		if rng.IntN(2) == 0 {
			text = "-" + text
		}
		if CheckNumber(text) != nil {
			continue
		}
		if got, want := NumberSize(text), calculatorNumberSize(text); got != want {
			t.Fatalf("numberSize(%s) = %d, calculator says %d", text, got, want)
		}
	}
}

// calculatorNumberSize is the calculator's algorithm, string for string.
func calculatorNumberSize(text string) int {
	d, _ := ParseDecimal(text)
	if d.Digits == "" {
		return 1
	}
	fixed := fixedNotation(d)
	size := calculatorMeasure(strings.TrimPrefix(fixed, "-")) + 1
	if strings.HasPrefix(fixed, "-") {
		size++
	}
	return min(size, 21)
}

// fixedNotation writes a number as decimal.js's toFixed() does: no exponent, no leading or
// trailing zeros beyond "0." before a fraction.
func fixedNotation(d Decimal) string {
	sign := ""
	if d.Negative {
		sign = "-"
	}
	if d.Exp >= 0 {
		return sign + d.Digits + strings.Repeat("0", int(d.Exp))
	}
	point := len(d.Digits) + int(d.Exp)
	if point > 0 {
		return sign + d.Digits[:point] + "." + d.Digits[point:]
	}
	return sign + "0." + strings.Repeat("0", -point) + d.Digits
}

func calculatorMeasure(n string) int {
	if p0, p1, ok := strings.Cut(n, "."); ok {
		if p0 == "0" {
			p0 = ""
			p1 = calculatorZeros(p1, true, false)
		}
		if len(p0)%2 != 0 {
			p0 = "Z" + p0
		}
		if len(p1)%2 != 0 {
			p1 += "Z"
		}
		return calculatorMeasure(p0 + p1)
	}
	n = calculatorZeros(n, true, true)
	return (len(n) + 1) / 2
}

func calculatorZeros(n string, left, right bool) string {
	for left && strings.HasPrefix(n, "00") {
		n = n[2:]
	}
	for right && strings.HasSuffix(n, "00") {
		n = n[:len(n)-2]
	}
	return n
}

func TestIndexEntrySize_isTheEntrysItemSize(t *testing.T) {
	t.Parallel()
	entry := Item{"pk": Str("USER#1"), "sk": Str("PROFILE"), "status": Str("active")}
	if got, want := IndexEntrySize(entry), 2+6+2+7+6+6; got != want {
		t.Fatalf("IndexEntrySize = %d, want %d", got, want)
	}
}

func BenchmarkItemSize(b *testing.B) {
	it := Item{
		"pk": Str("USER#12345"), "sk": Str("ORDER#2024-05-01#98765"), "total": Num("1234.56"),
		"status": Str("SHIPPED"), "tags": Value{Type: SS, SS: []string{"gift", "express"}},
		"address": Map(map[string]Value{"city": Str("Lisbon"), "zip": Str("1100-001")}),
		"lines":   List(Map(map[string]Value{"sku": Str("A1"), "qty": Num("2")})),
	}
	for b.Loop() {
		ItemSize(it)
	}
}

// TestNumberShape_agreesWithParseDecimal checks the allocation-free reading used for sizes against
// the package's number parser.
func TestNumberShape_agreesWithParseDecimal(t *testing.T) {
	t.Parallel()
	texts := []string{"", "-", "+", ".", "e5", "1e", "1e+", "0", "-0", "00.00", "+1", ".5", "5.", "1.5e-3", "-120E+2", "0.00120", "1x", "1.2.3", "١"}
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "0123456789.-+eE"
	for range 20000 {
		b := make([]byte, rng.IntN(10))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		d, ok := ParseDecimal(s)
		negative, high, low, zero, shapeOK := numberShape(s)
		if ok != shapeOK {
			t.Fatalf("%q: parseDecimal ok = %v, numberShape ok = %v", s, ok, shapeOK)
		}
		if !ok {
			continue
		}
		if zero != (d.Digits == "") {
			t.Fatalf("%q: zero = %v, digits %q", s, zero, d.Digits)
		}
		if zero {
			continue
		}
		if negative != d.Negative || high != d.Exp+int64(len(d.Digits))-1 || low != d.Exp {
			t.Fatalf("%q: shape (%v, %d, %d), decimal %+v", s, negative, high, low, d)
		}
	}
}
