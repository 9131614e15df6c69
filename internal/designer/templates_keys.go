package designer

import "strings"

// Key templates describe how key values are built, such as USER#{user_id} or
// ORDER#{created_at}#{order_id}: literal text with placeholders naming attributes. A placeholder is
// "{" + a non-empty name without braces + "}"; a brace that does not open or close one is literal
// text.

// tmplPart is one piece of a template: literal text, or a placeholder when attr is set.
type tmplPart struct {
	literal string
	attr    string
}

func parseKeyTemplate(tmpl string) []tmplPart {
	var parts []tmplPart
	lit := 0 // start of the pending literal text
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '{' {
			continue
		}
		end := strings.IndexAny(tmpl[i+1:], "{}")
		if end <= 0 || tmpl[i+1+end] != '}' {
			continue
		}
		if lit < i {
			parts = append(parts, tmplPart{literal: tmpl[lit:i]})
		}
		parts = append(parts, tmplPart{attr: tmpl[i+1 : i+1+end]})
		i += end + 1
		lit = i + 1
	}
	if lit < len(tmpl) {
		parts = append(parts, tmplPart{literal: tmpl[lit:]})
	}
	return parts
}

// TemplateAttributes returns the attribute names a template refers to, in order of first use, each
// once.
func TemplateAttributes(tmpl string) []string {
	var names []string
	for _, p := range parseKeyTemplate(tmpl) {
		if p.attr != "" && !containsString(names, p.attr) {
			names = append(names, p.attr)
		}
	}
	return names
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FillTemplate builds a key value from an item's attributes: each placeholder becomes the
// attribute's cell text (FormatCell: strings and numbers as written, binaries as base64). It
// reports false when an attribute is missing or is a map, list or set, which cannot be part of a
// key.
func FillTemplate(tmpl string, it Item) (string, bool) {
	var sb strings.Builder
	for _, p := range parseKeyTemplate(tmpl) {
		if p.attr == "" {
			sb.WriteString(p.literal)
			continue
		}
		v, ok := it[p.attr]
		if !ok {
			return "", false
		}
		switch v.Type {
		case S, N:
			sb.WriteString(v.S)
		case B, BOOL, NULL:
			sb.WriteString(FormatCell(v))
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// MatchTemplate reports whether value could have been built from the template: its literal parts
// appear in order and every placeholder stands for at least one character. Matching takes each
// literal at its earliest possible place, which never rules out a match a later place would allow,
// and anchors the template's last literal at the end of the value.
func MatchTemplate(tmpl, value string) bool {
	return matchKeyTemplate(parseKeyTemplate(tmpl), value)
}

// matchKeyTemplate is MatchTemplate on a parsed template, for callers that match one template
// against many values.
func matchKeyTemplate(parts []tmplPart, value string) bool {
	pos := 0
	pending := 0 // placeholders seen since the last literal, each needing a character
	for i, p := range parts {
		if p.attr != "" {
			pending++
			continue
		}
		if i == len(parts)-1 {
			// The last literal ends the value; what is before it must cover the placeholders.
			if pending == 0 {
				return value[pos:] == p.literal
			}
			return strings.HasSuffix(value, p.literal) && len(value)-len(p.literal) >= pos+pending
		}
		if pending == 0 {
			if !strings.HasPrefix(value[pos:], p.literal) {
				return false
			}
			pos += len(p.literal)
			continue
		}
		from := pos + pending
		if from > len(value) {
			return false
		}
		at := strings.Index(value[from:], p.literal)
		if at < 0 {
			return false
		}
		pos = from + at + len(p.literal)
		pending = 0
	}
	return len(value)-pos >= pending && (pending > 0 || pos == len(value))
}
