package markdown

import (
	"strings"
	"unicode"
)

// NameWords splits s into lowercase singular words: "OrderItems" and "order_items" give
// "order item", "Get categories by parent ID" gives "get category by parent id".
func NameWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, Singular(strings.ToLower(string(cur))))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush() // "orderItems", "HTTPRequest"
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// Singular is an English word without its plural ending: "categories" → "category", "boxes" →
// "box", "orders" → "order"; "address", "status" and "analysis" stay.
func Singular(w string) string {
	switch {
	case len(w) <= 3:
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}
