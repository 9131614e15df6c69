package capacity

import (
	"strconv"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
)

// requestBound is how many items one request reads by the pattern's result bound, as people write
// it: "at most 20 items", "1 item", "50 items per page; up to 62,000 in total" (a number said to
// be per page, call or request wins over the others, else the largest), "10k"; never more than
// the operation's Limit. ok is false when the bound gives no number ("unbounded", blank).
func requestBound(s string, limit *int) (n float64, ok bool) {
	lower := strings.ToLower(s)
	words := strings.FieldsFunc(lower, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(";()/–~≈<>≤", r)
	})
	var largest, perRequest float64
	found, per := false, false
	for i, w := range words {
		v, ok := designer.CountWord(w, words[i+1:])
		if !ok {
			continue
		}
		found, largest = true, max(largest, v)
		if followedBy(words[i+1:], "per", "page", "call", "request") {
			per, perRequest = true, max(perRequest, v)
		}
	}
	n, ok = largest, found
	if per {
		n = perRequest
	}
	if limit != nil && *limit > 0 && (!ok || float64(*limit) < n) {
		n, ok = float64(*limit), true
	}
	return n, ok
}

// followedBy reports whether "per <unit>" follows within the next three words ("50 items per page").
func followedBy(rest []string, per string, units ...string) bool {
	for i := 0; i < len(rest) && i < 3; i++ {
		if strings.Trim(rest[i], ",.;:") != per || i+1 >= len(rest) {
			continue
		}
		next := strings.Trim(rest[i+1], ",.;:")
		for _, u := range units {
			if next == u {
				return true
			}
		}
	}
	return false
}

// sizeBand is the upper end of an item size band in bytes: "<1 KB" 1,024, "2-4 KB" 4,096,
// "500 B" 500, "1.5KB" 1,536. A number without a unit is in KB. ok is false when the band gives no
// number.
func sizeBand(s string) (bytes float64, ok bool) {
	lower := strings.ToLower(s)
	var last float64
	found := false
	i := 0
	for i < len(lower) {
		r := rune(lower[i])
		if !unicode.IsDigit(r) && r != '.' {
			i++
			continue
		}
		j := i
		for j < len(lower) && (unicode.IsDigit(rune(lower[j])) || lower[j] == '.' || lower[j] == ',') {
			j++
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimRight(lower[i:j], ".,"), ",", ""), 64)
		i = j
		if err != nil {
			continue
		}
		unit := strings.TrimLeft(lower[j:], " ")
		mult := 1024.0
		switch {
		case strings.HasPrefix(unit, "mb"):
			mult = 1024 * 1024
		case strings.HasPrefix(unit, "kb"), strings.HasPrefix(unit, "k"):
			mult = 1024
		case strings.HasPrefix(unit, "b"):
			mult = 1
		case strings.HasPrefix(unit, "-"), strings.HasPrefix(unit, "–"), strings.HasPrefix(unit, "to "):
			// "2-4 KB": the unit of the upper end is the band's
			continue
		}
		if v*mult > last {
			last = v * mult
		}
		found = true
	}
	return last, found && last > 0
}
