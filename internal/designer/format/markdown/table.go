package markdown

import (
	"regexp"
	"strings"
	"sync"
)

// SplitRow splits a table row into its escaped cells.
func SplitRow(l string) []string {
	cells := SplitUnescaped(strings.TrimPrefix(strings.TrimSpace(l), "|"), '|')
	if len(cells) > 1 && strings.TrimSpace(cells[len(cells)-1]) == "" {
		cells = cells[:len(cells)-1]
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

var separatorCell = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^:?-+:?$`) })

// IsSeparatorRow reports whether the cells are a table's header separator ("---", ":--:").
func IsSeparatorRow(cells []string) bool {
	for _, c := range cells {
		if !separatorCell().MatchString(c) {
			return false
		}
	}
	return len(cells) > 0
}

// HeaderName is a header cell as a column name: lower case, without emphasis.
func HeaderName(cell string) string {
	return strings.Join(strings.Fields(strings.ToLower(Unmark.Replace(Unescape(cell)))), " ")
}

// Unmark removes the emphasis people put around table cells ("**AP1**", "`Read`").
var Unmark = strings.NewReplacer("*", "", "`", "")
