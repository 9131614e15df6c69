package format

import (
	"regexp"
	"strings"
	"unicode"
)

// Markdown as both document readers see it: items (paragraphs, bullets, tables, fences) of the
// lines under a heading, labelled bullets, and CommonMark's escapes.

// Kinds of item: the pieces of a block's text.
const (
	itemText = iota
	itemBullet
	itemTable
	itemFence
)

type mdItem struct {
	kind      int
	line      int
	lines     []string
	spanLines int
}

// span is the number of source lines the item covers, including lines since removed from it.
func (it mdItem) span() int { return max(it.spanLines, len(it.lines)) }

func indentOf(l string) int {
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

var bulletStart = regexp.MustCompile(`^\s*[-*+]\s+`)

func isTopBullet(l string) bool { return indentOf(l) < 2 && bulletStart.MatchString(l) }
func isTableLine(l string) bool {
	return indentOf(l) < 4 && strings.HasPrefix(strings.TrimSpace(l), "|")
}
func isBlank(l string) bool       { return strings.TrimSpace(l) == "" }
func startsHeading(l string) bool { _, _, ok := headingLine(l); return ok }

// items splits a block's lines into paragraphs, bullets (with their continuation lines), tables
// and fenced blocks.
func items(lines []srcLine) []mdItem {
	var out []mdItem
	for i := 0; i < len(lines); {
		l := lines[i].text
		it := mdItem{line: lines[i].n, lines: []string{l}}
		i++
		switch {
		case isBlank(l):
			continue
		case fenceMarker(l) != "":
			it.kind = itemFence
			m := fenceMarker(l)
			for i < len(lines) {
				it.lines = append(it.lines, lines[i].text)
				i++
				if strings.TrimSpace(it.lines[len(it.lines)-1]) == m {
					break
				}
			}
		case isTableLine(l):
			it.kind = itemTable
			for i < len(lines) && isTableLine(lines[i].text) {
				it.lines = append(it.lines, lines[i].text)
				i++
			}
		case indentOf(l) < 4 && bulletStart.MatchString(l):
			it.kind = itemBullet
			for i < len(lines) && continues(lines[i].text) {
				it.lines = append(it.lines, lines[i].text)
				i++
			}
		default:
			it.kind = itemText
			for i < len(lines) && !isBlank(lines[i].text) && !isTopBullet(lines[i].text) &&
				!isTableLine(lines[i].text) && fenceMarker(lines[i].text) == "" {
				it.lines = append(it.lines, lines[i].text)
				i++
			}
		}
		out = append(out, it)
	}
	return out
}

func continues(l string) bool {
	return !isBlank(l) && !isTopBullet(l) && fenceMarker(l) == "" && !startsHeading(l) &&
		(indentOf(l) >= 2 || !isTableLine(l))
}

// bulletValue splits a bullet into its bold label and its value, joining continuation lines with
// newlines; the value is still escaped.
// A label may hold escaped characters ("User\*Star") but no unescaped "**".
var labelled = regexp.MustCompile(`^\s*[-*+]\s+\*\*((?:\\.|[^\\*]|\*[^*])+?)\*\*\s*(.*)$`)

type bullet struct {
	label, rest string // rest follows the bold label, still raw (": value", " entity: …")
	cont        []string
}

func parseBullet(it mdItem) (bullet, bool) {
	m := labelled.FindStringSubmatch(it.lines[0])
	if m == nil {
		return bullet{}, false
	}
	b := bullet{label: strings.TrimSpace(m[1]), rest: m[2]}
	if strings.HasSuffix(b.label, ":") {
		b.label = strings.TrimSpace(strings.TrimSuffix(b.label, ":"))
		b.rest = ":" + b.rest
	}
	b.cont = dedent(it.lines[1:])
	return b, true
}

// value returns the text after "label:", joined with the continuation lines.
func (b bullet) value() (string, bool) {
	r := strings.TrimSpace(b.rest)
	if !strings.HasPrefix(r, ":") {
		return "", false
	}
	return joinValue(strings.TrimSpace(r[1:]), b.cont), true
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

func dedent(lines []string) []string {
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

// unescapeInline reverses escapeInline: "\" before ASCII punctuation is dropped, and <br> in any
// spelling becomes a newline. The result is trimmed.
func unescapeInline(s string) string {
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

// splitUnescaped splits escaped text at each unescaped sep (a single byte).
func splitUnescaped(s string, sep byte) []string {
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

// splitBreaks splits escaped text at each unescaped <br>.
func splitBreaks(s string) []string {
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

// parseList reads a comma-separated list of escaped text, dropping empty members.
func parseList(s string) []string {
	var out []string
	for _, part := range splitUnescaped(s, ',') {
		if v := oneLine(unescapeInline(part)); v != "" {
			out = append(out, v)
		}
	}
	return out
}
