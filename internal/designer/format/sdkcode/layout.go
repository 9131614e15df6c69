package sdkcode

import (
	"strings"
	"unicode"
)

// block is code laid out on one line when it fits and one part per line when not: a leaf, or
// open, parts separated by commas, close.
type block struct {
	open, close string
	parts       []block
	leaf        bool
	// spaced puts a space inside open and close on one line: "{ a: 1 }" in JavaScript.
	spaced bool
	// broken is always written one part per line.
	broken bool
}

func leaf(s string) block { return block{open: s, leaf: true} }

// prefixed is b after s: "Key: " before a literal.
func prefixed(s string, b block) block {
	b.open = s + b.open
	return b
}

// lineWidth is how long a line may grow before a block is broken over several.
const lineWidth = 96

// write appends b at the indent level, its first line already indented by the caller.
func (b block) write(out *strings.Builder, level int, indent string) {
	if b.leaf {
		out.WriteString(b.open)
		return
	}
	if one, ok := b.oneLine(); ok && !b.broken && len(indent)*level+len(one) <= lineWidth {
		out.WriteString(one)
		return
	}
	out.WriteString(b.open)
	out.WriteByte('\n')
	for _, p := range b.parts {
		out.WriteString(strings.Repeat(indent, level+1))
		p.write(out, level+1, indent)
		out.WriteString(",\n")
	}
	out.WriteString(strings.Repeat(indent, level))
	out.WriteString(b.close)
}

// oneLine is b on one line; false when a part must be broken.
func (b block) oneLine() (string, bool) {
	if b.leaf {
		return b.open, true
	}
	if b.broken {
		return "", false
	}
	parts := make([]string, len(b.parts))
	for i, p := range b.parts {
		s, ok := p.oneLine()
		if !ok {
			return "", false
		}
		parts[i] = s
	}
	if len(parts) == 0 {
		return b.open + b.close, true
	}
	inner := strings.Join(parts, ", ")
	if b.spaced {
		inner = " " + inner + " "
	}
	return b.open + inner + b.close, true
}

func (b block) String(indent string) string {
	var out strings.Builder
	b.write(&out, 0, indent)
	return out.String()
}

// words are the ASCII words of a pattern's description that name its function, at most five.
func words(description string) []string {
	description = strings.NewReplacer("'", "", "’", "").Replace(description)
	var out []string
	for _, f := range strings.FieldsFunc(description, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		if f = strings.ToLower(f); !fillers[f] && len(out) < 5 {
			out = append(out, f)
		}
	}
	return out
}

// fillers are the words a function name does without.
var fillers = map[string]bool{"a": true, "an": true, "the": true, "of": true, "from": true, "with": true,
	"and": true, "in": true, "on": true, "to": true, "per": true, "its": true, "their": true, "for": true}

// camel joins words as "getOrdersByCustomer" (or "GetOrdersByCustomer" when upper).
func camel(upper bool, ws ...string) string {
	var b strings.Builder
	for i, w := range ws {
		if w == "" {
			continue
		}
		if i > 0 || upper {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// oneLineText is text fit for a line comment: its lines joined by spaces.
func oneLineText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// summary is the comment over a request's function, two lines: "3. Get an order" and
// "Query on Orders, index ByCustomer".
func summary(r Request, comment string) string {
	head := r.ID + ". " + oneLineText(r.Description)
	if r.Description == "" {
		head = "Pattern " + r.ID
	}
	s := r.Operation
	if len(r.Tables) > 0 {
		s += " on " + strings.Join(r.Tables, ", ")
	}
	if r.Index != "" {
		s += ", index " + r.Index
	}
	return comment + head + "\n" + comment + s + "\n"
}

// writeTable writes the map from each request's id to its function's name, table holding id and
// name in turn, one entry a line between open and end.
func writeTable(b *strings.Builder, open, indent, end string, table []string) {
	b.WriteString(open)
	for i := 0; i+1 < len(table); i += 2 {
		b.WriteString("\n" + indent + jsString(table[i]) + ": " + table[i+1] + ",")
	}
	if len(table) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(end)
}
