package datamodelmd

import (
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
)

// The tokens of an operation cell. A cell is read one line at a time; nothing a token holds
// crosses a line.

type cellKind uint8

const (
	ctEnd      cellKind = iota
	ctWord              // a name or a number: letters, digits, "_", "." and "-" inside
	ctTemplate          // a key value with a part to fill in or a prefix: USER#<id>, ORDER#, {id}
	ctValue             // :placeholder
	ctName              // #placeholder
	ctString            // "text" or 'text'
	ctPunct             // ( ) , + / & ; : = < <= > >= <> ->
	ctOther             // any other character
)

type cellToken struct {
	kind cellKind
	text string // as written
	pos  int    // where it starts in the line
	end  int    // where it ends
}

// str is the text a string token holds, or the token's text.
func (t cellToken) str() string {
	if t.kind == ctString {
		return t.text[1 : len(t.text)-1]
	}
	return t.text
}

func (t cellToken) is(kind cellKind, text string) bool { return t.kind == kind && t.text == text }

// isWord reports whether t is the word w in any case.
func (t cellToken) isWord(w ...string) bool {
	if t.kind != ctWord {
		return false
	}
	for _, x := range w {
		if strings.EqualFold(t.text, x) {
			return true
		}
	}
	return false
}

// cellLexer lexes one line of a cell on demand, so that a part read as raw text (a filter
// expression, the notes) is never lexed.
type cellLexer struct {
	line string
	// lastQuote is the position of the last '"' and of the last '\'' in the line: a quote at or
	// after it opens no string, which keeps lexing linear however many quotes a line holds.
	lastDouble, lastSingle int
}

func newCellLexer(line string) *cellLexer {
	return &cellLexer{line: line, lastDouble: strings.LastIndexByte(line, '"'), lastSingle: strings.LastIndexByte(line, '\'')}
}

func isWordByte(c byte) bool { return designer.IsNameByte(c) }

// lex returns the token at pos, skipping blanks and the backquotes of code spans.
func (lx *cellLexer) lex(pos int) cellToken {
	s := lx.line
	for pos < len(s) && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r' || s[pos] == '`') {
		pos++
	}
	if pos >= len(s) {
		return cellToken{kind: ctEnd, pos: len(s), end: len(s)}
	}
	tok := func(kind cellKind, end int) cellToken { return cellToken{kind, s[pos:end], pos, end} }
	c := s[pos]
	switch {
	case isWordByte(c):
		end := pos + 1
		for end < len(s) && (isWordByte(s[end]) || s[end] == '.' || s[end] == '-') {
			end++
		}
		for s[end-1] == '.' || s[end-1] == '-' {
			end--
		}
		if t := templateEnd(s, end); t > end {
			return tok(ctTemplate, t)
		}
		return tok(ctWord, end)
	case c == '<' || c == '{':
		if t := templateEnd(s, pos); t > pos {
			return tok(ctTemplate, t)
		}
	case (c == ':' || c == '#') && pos+1 < len(s) && (designer.IsNameByte(s[pos+1]) && !designer.IsDigit(s[pos+1])):
		end := pos + 1
		for end < len(s) && designer.IsNameByte(s[end]) {
			end++
		}
		if c == ':' {
			return tok(ctValue, end)
		}
		return tok(ctName, end)
	case c == '"' && pos < lx.lastDouble:
		return tok(ctString, pos+1+strings.IndexByte(s[pos+1:], '"')+1)
	case c == '\'' && pos < lx.lastSingle && (pos == 0 || !isWordByte(s[pos-1])):
		if end := pos + 1 + strings.IndexByte(s[pos+1:], '\''); end+1 == len(s) || !isWordByte(s[end+1]) {
			return tok(ctString, end+1)
		}
	}
	for _, p := range []string{"<=", ">=", "<>", "->"} {
		if strings.HasPrefix(s[pos:], p) {
			return tok(ctPunct, pos+2)
		}
	}
	if strings.IndexByte("(),+/&;:=<>", c) >= 0 {
		return tok(ctPunct, pos+1)
	}
	_, n := utf8.DecodeRuneInString(s[pos:])
	return tok(ctOther, pos+n)
}

// templateEnd returns where a key template that continues a word at i ends: "#" and name bytes,
// and parts to fill in written <name> or {name}; i when none starts there. A word alone is no
// template: it needs a "#" or a part to fill in.
func templateEnd(s string, i int) int {
	j, marked := i, false
	for j < len(s) {
		switch c := s[j]; {
		case c == '#':
			j++
			marked = true
		case isWordByte(c) && j > i:
			j++
		case c == '<' || c == '{':
			closer := byte('>')
			if c == '{' {
				closer = '}'
			}
			k := j + 1
			for k < len(s) && k-j < 64 && (isWordByte(s[k]) || s[k] == '-' || s[k] == '.' || s[k] == '#') {
				k++
			}
			if k == j+1 || k >= len(s) || s[k] != closer {
				return endOfTemplate(i, j, marked)
			}
			j = k + 1
			marked = true
		default:
			return endOfTemplate(i, j, marked)
		}
	}
	return endOfTemplate(i, j, marked)
}

func endOfTemplate(i, j int, marked bool) int {
	if !marked {
		return i
	}
	return j
}

// templateParts reports whether a key value holds a part to fill in (<id>, {id}), and the text
// before the first such part.
func templateParts(v string) (prefix string, open bool) {
	if i := strings.IndexAny(v, "<{"); i >= 0 && strings.ContainsAny(v[i:], ">}") {
		return v[:i], true
	}
	return v, false
}
