package designer

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The parsers here read what a workshop participant types into one cell, or what an imported
// document wrote, and accept the spellings people actually use ("1,200", "500 RPS", "Strongly
// consistent", "✅", "one-to-many"). Each returns the stored form or an error whose text can be
// shown under the field as it is.

// ParseRPS reads a request rate: a non-negative decimal, optionally with thousands separators and
// a unit ("1,200", "0.5", "500 RPS"). Blank means "not stated" and returns nil.
func ParseRPS(s string) (*float64, error) {
	t := strings.TrimSpace(s)
	for _, unit := range []string{"requests per second", "requests/s", "req/s", "rps", "/s"} {
		if len(t) >= len(unit) && strings.EqualFold(t[len(t)-len(unit):], unit) {
			t = strings.TrimSpace(t[:len(t)-len(unit)])
			break
		}
	}
	if t == "" && strings.TrimSpace(s) == "" {
		return nil, nil
	}
	v, err := ParseFieldNumber(t)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number of requests per second from 0 to %s", strings.TrimSpace(s), maxNumberText)
	}
	if v < 0 {
		return nil, fmt.Errorf("%q is negative; a rate is zero or more requests per second", strings.TrimSpace(s))
	}
	return &v, nil
}

// ParseTriState reads a yes/no answer that may not be given yet: yes, no, true, false, y, n, ✓, ✗
// in any case; blank, "-", "?" and "unknown" return nil.
func ParseTriState(s string) (*bool, error) {
	yes, no := true, false
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "-", "?", "unknown", "n/a":
		return nil, nil
	case "yes", "y", "true", "t", "1", "✓", "✔", "✅":
		return &yes, nil
	case "no", "n", "false", "f", "0", "✗", "✘", "❌":
		return &no, nil
	}
	return nil, fmt.Errorf("%q is not an answer; use yes, no, or leave it blank", strings.TrimSpace(s))
}

// ParsePatternType reads an access pattern's type: Read, R, Write, W in any case; blank and "None"
// mean not stated and return "".
func ParsePatternType(s string) (string, error) {
	switch Words(s) {
	case "", "none", "-":
		return "", nil
	case "read", "r", "reads":
		return Read, nil
	case "write", "w", "writes":
		return Write, nil
	}
	return "", fmt.Errorf("%q is not a pattern type; use read or write", strings.TrimSpace(s))
}

// ParseStatus reads a pattern status: solved, open, outside, at risk, or the seed's marks ✅ ⏳ ❌ ⚠️.
func ParseStatus(s string) (string, error) {
	t := strings.TrimSpace(s)
	// A mark may be followed by its word, as tables often write it: "✅ Solved".
	for _, m := range statusMarks {
		if strings.HasPrefix(t, m.mark) {
			return m.status, nil
		}
	}
	switch Words(t) {
	case "solved", "done":
		return StatusSolved, nil
	case "open", "pending", "todo", "to do":
		return StatusOpen, nil
	case "outside", "outside dynamodb", "served outside dynamodb", "not dynamodb":
		return StatusOutside, nil
	case "at risk", "risk", "risky":
		return StatusAtRisk, nil
	}
	return "", fmt.Errorf("%q is not a status; use solved ✅, open ⏳, outside ❌ or at risk ⚠️", t)
}

var statusMarks = []struct{ mark, status string }{
	{"✅", StatusSolved}, {"⏳", StatusOpen}, {"❌", StatusOutside}, {"⚠", StatusAtRisk},
}

// ParseConsistency reads a read consistency: strong or eventual, with or without "consistent";
// blank returns "".
func ParseConsistency(s string) (string, error) {
	switch Words(s) {
	case "", "-", "none":
		return "", nil
	case "strong", "strongly", "strongly consistent", "strong consistency", "strongly consistent read", "strongly consistent reads":
		return Strong, nil
	case "eventual", "eventually", "eventually consistent", "eventual consistency", "eventually consistent read", "eventually consistent reads":
		return Eventual, nil
	}
	return "", fmt.Errorf("%q is not a consistency; use strong or eventual", strings.TrimSpace(s))
}

// ParseRelationshipKind reads a relationship kind in any usual spelling ("1:Many", "one-to-many",
// "M:N") and returns OneToOne, OneToMany or ManyToMany; blank returns "".
func ParseRelationshipKind(s string) (string, error) {
	k := strings.NewReplacer(" ", "", "-", "", "_", "", "to", ":").Replace(strings.ToLower(strings.TrimSpace(s)))
	switch k {
	case "":
		return "", nil
	case "1:1", "one:one", "11":
		return OneToOne, nil
	case "1:m", "1:n", "1:*", "1:many", "one:many", "1m", "1n":
		return OneToMany, nil
	case "m:m", "m:n", "n:m", "n:n", "*:*", "many:many", "mm", "mn", "nm":
		return ManyToMany, nil
	case "m:1", "n:1", "*:1", "many:1", "many:one":
		return "", fmt.Errorf("%q is many-to-one; swap from and to and use 1:M", strings.TrimSpace(s))
	}
	return "", fmt.Errorf("%q is not a relationship kind; use 1:1, 1:M or M:M", strings.TrimSpace(s))
}

// ParseAggregateDecision reads an aggregate decision as the seed words it ("Single Item Aggregate",
// "Item Collection", "Separate Tables") or as stored; blank returns "".
func ParseAggregateDecision(s string) (string, error) {
	switch strings.TrimSuffix(Words(s), " aggregate") {
	case "", "-", "none", "undecided":
		return "", nil
	case "single item", "single":
		return SingleItem, nil
	case "item collection", "collection":
		return ItemCollection, nil
	case "separate tables", "separate table", "separate":
		return SeparateTables, nil
	}
	return "", fmt.Errorf("%q is not an aggregate decision; use single item, item collection or separate tables", strings.TrimSpace(s))
}

// ParseConsolidationDecision reads a consolidation decision; blank returns "".
func ParseConsolidationDecision(s string) (string, error) {
	switch Words(s) {
	case "", "-", "none", "undecided":
		return "", nil
	case "consolidate", "consolidated", "merge", "merged", "same table":
		return Consolidate, nil
	case "separate", "separated", "keep separate", "separate tables", "separate table":
		return Separate, nil
	}
	return "", fmt.Errorf("%q is not a consolidation decision; use consolidate or separate", strings.TrimSpace(s))
}

// ParseType reads an attribute type: a DynamoDB type in any case, or its name ("string",
// "number"). Blank means S.
func ParseType(s string) (Type, error) {
	switch Words(s) {
	case "", "string":
		return S, nil
	case "number":
		return N, nil
	case "binary":
		return B, nil
	case "boolean", "bool":
		return BOOL, nil
	case "map":
		return M, nil
	case "list":
		return L, nil
	case "string set":
		return SS, nil
	case "number set":
		return NS, nil
	case "binary set":
		return BS, nil
	}
	t := Type(strings.ToUpper(strings.TrimSpace(s)))
	if !t.Valid() {
		return "", fmt.Errorf("%q is not a DynamoDB type; use one of S N B BOOL NULL M L SS NS BS", strings.TrimSpace(s))
	}
	return t, nil
}

// ParsePercent reads a percentage from 0 to 100, with or without "%"; blank returns nil.
func ParsePercent(s string) (*float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	if t == "" && strings.TrimSpace(s) == "" {
		return nil, nil
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 || v > 100 {
		return nil, fmt.Errorf("%q is not a percentage from 0 to 100", strings.TrimSpace(s))
	}
	return &v, nil
}

// ParseKB reads a size in kilobytes, zero or more, optionally followed by "KB"; blank returns nil.
func ParseKB(s string) (*float64, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && strings.EqualFold(t[len(t)-2:], "kb") {
		t = strings.TrimSpace(t[:len(t)-2])
	}
	if t == "" && strings.TrimSpace(s) == "" {
		return nil, nil
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 {
		return nil, fmt.Errorf("%q is not a size in KB from 0 to %s", strings.TrimSpace(s), maxNumberText)
	}
	return &v, nil
}

// parseCount reads a whole number of zero or more ("1,200"); blank returns nil.
func parseCount(s string) (*int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, nil
	}
	v, err := ParseFieldNumber(t)
	if err != nil || v < 0 || v != math.Trunc(v) || v > 1e15 {
		return nil, fmt.Errorf("%q is not a whole number from 0 to %s", t, maxNumberText)
	}
	n := int64(v)
	return &n, nil
}

// countWithUnit is a count as people write it: a number (thousands separators and a fraction
// allowed), then the unit it is counted in, if any.
var countWithUnit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+)\s*(.*)$`) })

// ParseCount reads a relationship's count with its unit ("1.6", "4 per year", "1,200 orders"):
// zero or more, a whole number when whole is set. Blank returns nil and no unit. The unit is one
// line of at most MaxNameLen characters, without commas or brackets, which the requirement
// document writes around it.
func ParseCount(s string, whole bool) (*float64, string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, "", nil
	}
	example := "1.6, or 4 per year"
	if whole {
		example = "400, or 12 per year"
	}
	m := countWithUnit().FindStringSubmatch(t)
	if m == nil {
		return nil, "", fmt.Errorf("%q is not a count; give a number of zero or more, then its unit if it has one (%s)", t, example)
	}
	v, err := ParseFieldNumber(m[1])
	switch {
	case err != nil || v > 1e15:
		return nil, "", fmt.Errorf("%q is not a count; give a number of zero or more, then its unit if it has one (%s)", t, example)
	case whole && v != math.Trunc(v):
		return nil, "", fmt.Errorf("%q: the most there can be is a whole number (%s)", t, example)
	}
	unit := strings.TrimSpace(m[2])
	if err := checkCountUnit(unit); err != nil {
		return nil, "", fmt.Errorf("%q: the unit %s", t, err)
	}
	return &v, unit, nil
}

// checkCountUnit says what is wrong with a count's unit, if anything.
func checkCountUnit(unit string) error {
	switch {
	case !utf8.ValidString(unit):
		return errors.New("must be valid UTF-8 text")
	case utf8.RuneCountInString(unit) > MaxNameLen:
		return fmt.Errorf("is %d characters long; at most %d are allowed", utf8.RuneCountInString(unit), MaxNameLen)
	case strings.ContainsFunc(unit, IsControl):
		return errors.New("must be a single line without control characters")
	case strings.ContainsAny(unit, ",()"):
		return errors.New("must not hold commas or brackets")
	}
	return nil
}

// FormatCount writes a count and its unit as ParseCount reads them; nil is blank.
func FormatCount(v *float64, unit string) string {
	if v == nil {
		return ""
	}
	n := strconv.FormatFloat(*v, 'f', -1, 64)
	if unit == "" {
		return n
	}
	return n + " " + unit
}

// parsePatternNumber reads a pattern number: a whole number of 1 or more, optionally written "#4".
func parsePatternNumber(s string) (int, error) {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "#"))
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a pattern number; use a whole number of 1 or more", strings.TrimSpace(s))
	}
	return n, nil
}

// CountWord reads a count as a word of requirement prose writes it, with the words after it:
// "62,000", "+50", "10k", "2m" (but not "2mb"), or "2.8" followed by "thousand", "million" or
// "billion". A sign or dash before it and punctuation that ends a clause (".,:;") after it are
// ignored. ok is false for anything else.
func CountWord(w string, rest []string) (n float64, ok bool) {
	w = strings.TrimRight(strings.TrimLeft(w, "+-"), ".,:;")
	mult := 1.0
	switch {
	case strings.HasSuffix(w, "k"):
		w, mult = strings.TrimSuffix(w, "k"), 1e3
	case strings.HasSuffix(w, "m") && !strings.HasSuffix(w, "mb"):
		w, mult = strings.TrimSuffix(w, "m"), 1e6
	}
	v, err := ParseFieldNumber(w)
	if err != nil {
		return 0, false
	}
	if len(rest) > 0 {
		switch strings.Trim(rest[0], ",.;") {
		case "thousand":
			mult = 1e3
		case "million":
			mult = 1e6
		case "billion":
			mult = 1e9
		}
	}
	return v * mult, true
}

var errNotNumber = errors.New("not a decimal number")

// ParseFieldNumber reads a plain decimal such as "1,200.5", "-3" or "1e3", at most MaxNumber in
// size. Commas are accepted only as thousands separators, so "0,5" is refused rather than misread
// as 5.
func ParseFieldNumber(s string) (float64, error) {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsDigit(r) && !strings.ContainsRune(".,eE+-", r)
	}) {
		return 0, errNotNumber
	}
	if strings.Contains(s, ",") {
		whole, _, _ := strings.Cut(strings.TrimLeft(s, "+-"), ".")
		groups := strings.Split(whole, ",")
		if len(groups[0]) == 0 || len(groups[0]) > 3 {
			return 0, errNotNumber
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return 0, errNotNumber
			}
		}
		s = strings.ReplaceAll(s, ",", "")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || math.Abs(v) > MaxNumber {
		return 0, errNotNumber
	}
	return v, nil
}

// splitList splits a comma-separated list, trimming each member and dropping empty and repeated
// ones.
func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part != "" && !slices.Contains(out, part) {
			out = append(out, part)
		}
	}
	return out
}

// Words lower-cases s, treats "_" and "-" as spaces, and collapses runs of spaces, so that
// "At-Risk", "at_risk" and "at  risk" compare equal.
func Words(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return unicode.ToLower(r)
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
