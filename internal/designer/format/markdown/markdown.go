// Package markdown is what the requirement and data model documents share of markdown. It owns
// the reading of a document's structure — headings, paragraphs, bullets, tables, code and HTML —
// which goldmark parses (CommonMark with GFM tables) and Walk hands to the importers as headings
// and Items in one canonical spelling with their source lines; labelled bullets and table rows
// read from those items; CommonMark's escapes read and written; and the line-level checks and
// prose bodies the writers use so that what they write reads back as they meant it.
package markdown

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// IndentOf is the width of l's leading white space, a tab counting four.
func IndentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// BulletStart matches the marker of a bullet line.
var BulletStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*[-*+]\s+`) })

// IsTableLine reports whether l is a line of a pipe table.
func IsTableLine(l string) bool {
	return IndentOf(l) < 4 && strings.HasPrefix(strings.TrimSpace(l), "|")
}

// labelled is a bullet with a bold label, which ParseBullet splits into the label and the rest.
// A label may hold escaped characters ("User\*Star") but no unescaped "**".
var labelled = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*[-*+]\s+\*\*((?:\\.|[^\\*]|\*[^*])+?)\*\*\s*(.*)$`)
})

// Bullet is a labelled bullet: "- **Label**rest", with its continuation lines.
type Bullet struct {
	Label, Rest string // rest follows the bold label, still raw (": value", " entity: …")
	Cont        []string
}

// ParseBullet reads a bullet item whose text starts with a bold label.
func ParseBullet(it Item) (Bullet, bool) {
	if it.Kind != KindBullet {
		return Bullet{}, false
	}
	m := labelled().FindStringSubmatch(it.Lines[0])
	if m == nil {
		return Bullet{}, false
	}
	b := Bullet{Label: strings.TrimSpace(m[1]), Rest: m[2]}
	if strings.HasSuffix(b.Label, ":") {
		b.Label = strings.TrimSpace(strings.TrimSuffix(b.Label, ":"))
		b.Rest = ":" + b.Rest
	}
	b.Cont = Dedent(it.Lines[1:])
	return b, true
}

// Value returns the text after "label:", joined with the continuation lines.
func (b Bullet) Value() (string, bool) {
	r := strings.TrimSpace(b.Rest)
	if !strings.HasPrefix(r, ":") {
		return "", false
	}
	return joinValue(strings.TrimSpace(r[1:]), b.Cont), true
}

func joinValue(first string, cont []string) string {
	if len(cont) == 0 {
		return first
	}
	if first == "" {
		return strings.Join(cont, "<br>")
	}
	return first + "<br>" + strings.Join(cont, "<br>")
}

// Dedent removes the indentation the lines share.
func Dedent(lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	cut := -1
	for _, l := range lines {
		if n := len(l) - len(strings.TrimLeft(l, " \t")); cut < 0 || n < cut {
			cut = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l[cut:], " \t")
	}
	return out
}

// Unescape reverses Escape: "\" before ASCII punctuation is dropped, and <br> in any
// spelling becomes a newline. The result is trimmed.
func Unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if n := breakAt(s, i); n > 0 {
			b.WriteByte('\n')
			i += n - 1
			continue
		}
		b.WriteByte(c)
	}
	return strings.TrimSpace(b.String())
}

func isASCIIPunct(c byte) bool {
	return c < 0x80 && unicode.IsPunct(rune(c)) || c < 0x80 && unicode.IsSymbol(rune(c))
}

// breakAt returns the length of a <br> written at s[i:], or 0.
func breakAt(s string, i int) int {
	if s[i] != '<' || len(s)-i < 4 || !strings.EqualFold(s[i+1:i+3], "br") {
		return 0
	}
	j := i + 3
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1 - i
	}
	return 0
}

// SplitUnescaped splits escaped text at each unescaped sep (a single byte).
func SplitUnescaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i++
		case s[i] == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// SplitBreaks splits escaped text at each unescaped <br>.
func SplitBreaks(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			continue
		}
		if n := breakAt(s, i); n > 0 {
			out = append(out, s[start:i])
			start = i + n
			i += n - 1
		}
	}
	return append(out, s[start:])
}

// ParseList reads a comma-separated list of escaped text, dropping empty members.
func ParseList(s string) []string {
	var out []string
	for _, part := range SplitUnescaped(s, ',') {
		if v := OneLine(Unescape(part)); v != "" {
			out = append(out, v)
		}
	}
	return out
}
