package markdown

import (
	"iter"
	"regexp"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

var listMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)]) `) })

// ListLines returns the escaped lines of a value that is a list of two or more lines, each of which
// reads back unchanged as a continuation line.
func ListLines(value string) ([]string, bool) {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(value, "\r\n", "\n"), "\r", "\n")), "\n")
	if len(lines) < 2 || !listMarker().MatchString(lines[0]) {
		return nil, false
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" || l != strings.TrimSpace(l) || strings.ContainsAny(l[:1], "#|>") ||
			strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			return nil, false
		}
		out[i] = Escape(l, "")
	}
	return out, true
}

// ProseBody trims a prose body, closes a code fence it leaves open, which would otherwise
// swallow the rest of the document, and escapes outside fences the lines a reader would take for
// more than a line of text: a line of "=" or "-" under a line of text, which makes that line a
// heading, and the start of an HTML comment, script, style or other block that runs until its own
// end marker, which a reader skips or takes for everything up to that marker.
func ProseBody(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	s = strings.TrimRight(strings.TrimLeft(s, "\n"), " \t\n")
	lines := strings.Split(s, "\n")
	open := ""
	for i, l := range lines {
		switch {
		case open != "":
			if ClosesFence(l, open) {
				open = ""
			}
		case FenceMarker(l) != "":
			open = FenceMarker(l)
		case IndentOf(l) < 4 && (htmlBlockUntilMarker().MatchString(l) ||
			i > 0 && !isBlank(lines[i-1]) && setextUnderline().MatchString(l)):
			lines[i] = `\` + strings.TrimLeft(l, " ")
		}
	}
	if open != "" {
		lines = append(lines, open)
	}
	return strings.Join(lines, "\n")
}

// htmlBlockUntilMarker is a line that opens an HTML block which runs, blank lines and headings
// included, until a marker of its own (</script>, -->, ?>, >, ]]>): CommonMark's HTML blocks of
// types 1 to 5. A reader would take the rest of the document for that block.
var htmlBlockUntilMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^ {0,3}<(?:(?:script|pre|style|textarea)(?:[ \t>]|$)|[?!])`)
})

// setextUnderline is a line that makes the line of text above it a heading.
var setextUnderline = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*$`) })

// OneLine joins the lines of s with spaces, for text that must stay on one line unescaped.
func OneLine(s string) string {
	return strings.TrimSpace(strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " "))
}

// Escape makes s safe inside a table cell or on a bullet line: newlines become <br>, and "\",
// "|", the characters in extra and a "<" that could open an HTML tag get a backslash. Markdown shows
// each escaped character as itself.
func Escape(s, extra string) string {
	s = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"))
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			b.WriteString("<br>")
		case c == '\\' || c == '|' || strings.IndexByte(extra, c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '<' && i+1 < len(s) && opensTag(s[i+1]):
			b.WriteString(`\<`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func opensTag(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/' || c == '!' || c == '?'
}

// EscapeLabel escapes a name written in bold, where "*" would end the bold.
func EscapeLabel(s string) string { return Escape(OneLine(s), "*") }

// StatusMarks are the marks both documents write for a pattern's status.
var StatusMarks = map[string]string{
	designer.StatusSolved: "✅", designer.StatusOpen: "⏳", "": "⏳", designer.StatusOutside: "❌", designer.StatusAtRisk: "⚠️",
}

// FencedLines yields each line of body with whether it belongs to a fenced code block, fences
// included: a writer escapes only the lines outside one, which a reader could take for structure.
func FencedLines(body string) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		fence := ""
		for l := range strings.SplitSeq(body, "\n") {
			fenced := true
			switch {
			case fence != "":
				if ClosesFence(l, fence) {
					fence = ""
				}
			case FenceMarker(l) != "":
				fence = FenceMarker(l)
			default:
				fenced = false
			}
			if !yield(l, fenced) {
				return
			}
		}
	}
}
