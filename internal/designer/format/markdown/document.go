package markdown

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// CleanInput turns data into lines of valid text, refusing what is not text at all.
func CleanInput(data []byte) (string, []designer.ImportNote, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return "", nil, designer.Invalid("file", "is empty")
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", nil, designer.Invalid("file", "is binary, not a markdown document")
	}
	var notes []designer.ImportNote
	text := string(data)
	if !utf8.ValidString(text) {
		bad := 0
		for i := 0; i < len(text); {
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n == 1 {
				bad++
			}
			i += n
		}
		if bad*10 > len(text) {
			return "", nil, designer.Invalid("file", "is not UTF-8 text")
		}
		text = strings.ToValidUTF8(text, "\uFFFD")
		notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("%d byte(s) that are not UTF-8 were replaced by �", bad)})
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	controls := 0
	text = strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && designer.IsControl(r) {
			controls++
			return ' '
		}
		return r
	}, text)
	if controls > 0 {
		notes = append(notes, designer.ImportNote{Message: fmt.Sprintf("%d control character(s) were replaced by spaces", controls)})
	}
	if err := CheckShape(text); err != nil {
		return "", nil, err
	}
	return text, notes, nil
}

// Leftover is text of a block that was kept as prose, with the source lines it spans so that
// parts adjacent in the source stay adjacent in the prose.
type Leftover struct {
	First, Last int
	Text        string
}

// FenceMarker returns the run of backticks or tildes (three or more) that opens a fenced code
// block on l, as CommonMark reads one: at most three spaces before it, and no backtick after a
// backtick run. It is "" when l opens no fence.
func FenceMarker(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.IndexByte(t[n:], '`') >= 0 {
				return ""
			}
			return t[:n]
		}
	}
	return ""
}

// ClosesFence reports whether l closes a fenced code block opened with marker open: at most
// three spaces, then a run of the same character at least as long, then only white space.
func ClosesFence(l, open string) bool {
	t := strings.TrimLeft(l, " ")
	if open == "" || len(l)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " \t")
	return len(t) >= len(open) && strings.Trim(t, open[:1]) == ""
}

// Heading reads an ATX heading: up to three spaces, 1–6 "#", a space, the text.
func Heading(l string) (int, string, bool) {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return 0, "", false
	}
	level := 0
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	text := strings.TrimSpace(t[level:])
	if trimmed := strings.TrimRight(text, "#"); trimmed == "" || strings.HasSuffix(trimmed, " ") {
		text = strings.TrimSpace(trimmed)
	}
	return level, text, true
}

// ProseOf joins a block's leftover parts: with a blank line between parts that were apart in the
// source, without one between parts that were adjacent.
func ProseOf(parts []Leftover) string {
	var b strings.Builder
	for i, part := range parts {
		if i > 0 {
			b.WriteString("\n")
			if part.First != parts[i-1].Last+1 {
				b.WriteString("\n")
			}
		}
		b.WriteString(part.Text)
	}
	return b.String()
}

// CutPrefixFold is strings.CutPrefix ignoring ASCII and Unicode case.
func CutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
