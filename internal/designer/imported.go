package designer

import (
	"strings"
	"unicode/utf8"
)

// ImportNote reports something an imported document held that could not be placed in the design
// as written. Line is 1-based; 0 means the note is about the whole document.
type ImportNote struct {
	Line    int
	Message string
}

// TruncateRunes cuts s to at most n runes, trimming the white space the cut leaves: how a reader
// fits a name taken from a file into MaxNameLen.
func TruncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}
