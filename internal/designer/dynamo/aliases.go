package dynamo

import (
	"slices"
	"strconv"
	"strings"
)

// Rewriting expressions for a command that must run as written (the mcp-model-json export): a
// reserved word used bare as an attribute name is given a #placeholder, and a :placeholder is
// traced to the attribute it is compared with. Both work on the lexer's tokens, so the text between
// tokens is kept as written.

// updateSections are the words that open a section of an update expression.
var updateSections = map[string]bool{"SET": true, "REMOVE": true, "ADD": true, "DELETE": true}

// AliasReserved rewrites every attribute name of expr that is one of DynamoDB's reserved words
// (status, name, day…), at any depth of a path, as a #placeholder, and returns the expression and
// names with the placeholders it added. A name already given a placeholder keeps it; a new one is
// "#word", or "#word_2"… when names uses "#word" for another attribute. Function names and the
// section words of an update (update true) are left alone. An expression the lexer refuses is
// returned as it is, for DynamoDB to report.
func AliasReserved(expr string, names map[string]string, update bool) (string, map[string]string) {
	punct := "()[],."
	if update {
		punct = "()[],.+-"
	}
	toks, err := lexTokens(expr, punct)
	if err != nil {
		return expr, names
	}
	out := names
	copied := false
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if t.kind != tokIdent || !isReservedWord(t.text) || i+1 < len(toks) && toks[i+1].isPunct("(") {
			continue
		}
		if update && updateSections[strings.ToUpper(t.text)] && sectionWord(toks, i) {
			continue
		}
		if !copied {
			out = make(map[string]string, len(names)+1)
			for k, v := range names {
				out[k] = v
			}
			copied = true
		}
		ph := placeholderFor(out, t.text)
		b.WriteString(expr[last:t.pos])
		b.WriteString(ph)
		last = t.pos + len(t.text)
	}
	if last == 0 {
		return expr, names
	}
	b.WriteString(expr[last:])
	return b.String(), out
}

// placeholderFor is the #placeholder names gives attr, adding one when it has none.
func placeholderFor(names map[string]string, attr string) string {
	var given []string
	for k, v := range names {
		if v == attr {
			given = append(given, k)
		}
	}
	if len(given) > 0 {
		slices.Sort(given)
		return given[0]
	}
	for n := 1; ; n++ {
		ph := "#" + attr
		if n > 1 {
			ph += "_" + strconv.Itoa(n)
		}
		if _, taken := names[ph]; !taken {
			names[ph] = attr
			return ph
		}
	}
}

// sectionWord reports whether the identifier at toks[i] opens a section of an update expression
// rather than naming an attribute: it starts the expression or follows the end of an action.
func sectionWord(toks []token, i int) bool {
	if i == 0 {
		return true
	}
	prev := toks[i-1]
	switch {
	case prev.kind == tokPunct:
		return prev.text == ")" || prev.text == "]"
	case prev.kind == tokIdent:
		return !updateSections[strings.ToUpper(prev.text)] || !sectionWord(toks, i-1)
	case prev.kind == tokComparator:
		return false
	}
	return true
}

// ValuePlaceholders returns the :placeholders an expression (condition, projection or update) uses,
// each once in the order written; nil when the lexer refuses it.
func ValuePlaceholders(expr string) []string {
	toks, err := lexTokens(expr, "()[],.+-")
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range toks {
		if t.kind == tokValue && !seen[t.text] {
			seen[t.text] = true
			out = append(out, t.text)
		}
	}
	return out
}

// PlaceholderAttribute is the top-level attribute expr compares the :placeholder ph with
// ("a = :v", ":v < a", "begins_with(a, :v)", "a BETWEEN :v AND :w", "SET a = :v"), #names resolved
// through names; "" when ph is compared with no single attribute there.
func PlaceholderAttribute(expr, ph string, names map[string]string) string {
	toks, err := lexTokens(expr, "()[],.+-")
	if err != nil {
		return ""
	}
	attrAt := func(j int) string {
		if j < 0 || j >= len(toks) || toks[j].kind != tokIdent && toks[j].kind != tokName {
			return ""
		}
		if j > 0 && (toks[j-1].isPunct(".") || toks[j-1].isPunct("]")) {
			return ""
		}
		if j+1 < len(toks) && (toks[j+1].isPunct(".") || toks[j+1].isPunct("[")) {
			return ""
		}
		if toks[j].kind == tokName {
			return names[toks[j].text]
		}
		return toks[j].text
	}
	is := func(j int, kind tokKind, text string) bool {
		return j >= 0 && j < len(toks) && toks[j].kind == kind && (text == "" || strings.EqualFold(toks[j].text, text))
	}
	for i, t := range toks {
		if t.kind != tokValue || t.text != ph {
			continue
		}
		var a string
		switch {
		case is(i-1, tokComparator, ""):
			a = attrAt(i - 2)
		case is(i+1, tokComparator, ""):
			a = attrAt(i + 2)
		case is(i-1, tokPunct, ",") && is(i-3, tokPunct, "(") && is(i-4, tokIdent, "begins_with"):
			a = attrAt(i - 2)
		case is(i-1, tokBetween, ""):
			a = attrAt(i - 2)
		case is(i-1, tokAnd, "") && is(i-3, tokBetween, ""):
			a = attrAt(i - 4)
		}
		if a != "" {
			return a
		}
	}
	return ""
}
