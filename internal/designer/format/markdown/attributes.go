package markdown

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

// AttributeEntry is one attribute as the two documents and the paste box write it: its name, its
// type (empty when none is written), its description, and the marks beside the type.
type AttributeEntry struct {
	designer.Attribute
	// Key is set by a "PK", "SK" or "key" mark: "pet_id (S, PK)", "pet_id (partition key)".
	Key bool
	// TTL is set by a "TTL" type: "expires_at (TTL)".
	TTL bool
}

var attributeEntry = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-*+]?\s*` + "`?" + `([\p{L}\p{N}_][\p{L}\p{N}_.\-#@]*)` + "`?" +
		`\s*(?:\(([^()]*)\)|:\s*([A-Za-z][A-Za-z ]*?)\s*$)?\s*(?::\s*(.*)|[-–—]\s*(.*))?$`)
})

// keyMarks are the words beside a type that say the attribute is a key.
var keyMarks = map[string]bool{"pk": true, "sk": true, "key": true, "partition key": true, "sort key": true,
	"hash key": true, "range key": true, "primary key": true}

// ReadAttribute reads one entry of an attribute list: "pet_id (S)", "name:S", "`PK` (String):
// user email", "total (Number) - in cents", "pet_id (S, PK)", "owner_id (key)", "expires_at (TTL)";
// a bullet's marker before it is skipped. A word in the parentheses that is no type, TTL or key
// mark ("(epoch seconds)") opens the description. It reports false for text that is no entry.
func ReadAttribute(entry string) (AttributeEntry, bool) {
	m := attributeEntry().FindStringSubmatch(strings.TrimSpace(entry))
	if m == nil {
		return AttributeEntry{}, false
	}
	a := AttributeEntry{Attribute: designer.Attribute{Name: m[1], Description: strings.TrimSpace(m[4] + m[5])}}
	var words []string
	for _, w := range strings.Split(m[2]+m[3], ",") {
		w = strings.TrimSpace(w)
		switch lw := strings.ToLower(w); {
		case w == "":
		case keyMarks[lw]:
			a.Key = true
		case lw == "ttl":
			a.TTL = true
		case a.Type == "" && !a.TTL:
			if t, err := designer.ParseType(TypeWord(w)); err == nil {
				a.Type = t
				continue
			}
			words = append(words, w)
		default:
			words = append(words, w)
		}
	}
	if len(words) > 0 {
		a.Description = strings.TrimSpace(strings.Join(words, ", ") + " " + a.Description)
	}
	return a, true
}

// TypeWord reads the spellings of types documents use beside ParseType's: "StringSet",
// "Integer", "Bool".
func TypeWord(s string) string {
	w := strings.TrimSpace(s)
	switch strings.ToLower(strings.ReplaceAll(w, " ", "")) {
	case "stringset":
		return "SS"
	case "numberset":
		return "NS"
	case "binaryset":
		return "BS"
	case "integer", "int", "float", "decimal", "long", "double":
		return "N"
	case "str":
		return "S"
	}
	return w
}

// SplitTop splits at commas outside parentheses and brackets.
func SplitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// AttributeEntries splits an attribute list into its entries: one a line (bullets), or several a
// line between commas ("pet_id (S), name (S)").
func AttributeEntries(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		entries := []string{line}
		if !strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "*") && !strings.HasPrefix(line, "+") {
			entries = SplitTop(line)
		}
		for _, e := range entries {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// ReadAttributes reads an attribute list with ReadAttribute. It returns the entries read and the
// text of those it could not read.
func ReadAttributes(text string) ([]AttributeEntry, []string) {
	var out []AttributeEntry
	var left []string
	for _, e := range AttributeEntries(text) {
		if a, ok := ReadAttribute(e); ok {
			out = append(out, a)
		} else {
			left = append(left, e)
		}
	}
	return out, left
}

// PastedEntity reads a pasted entity row (cells by key: entity, attribute, type, description) as
// the documents read an entity's attributes: the attribute cell one attribute or a list ("pet_id
// (S), name:S"), its type written in the cell or in the type column in any spelling the documents
// use. The description is the entity's.
func PastedEntity(cells map[string]string) (designer.BulkEntity, error) {
	e := designer.BulkEntity{Name: cells["entity"], Description: cells["description"]}
	if e.Name == "" {
		return e, designer.Invalid("entity", "the row names no entity")
	}
	if strings.TrimSpace(cells["attribute"]) == "" {
		return e, nil
	}
	list, left := ReadAttributes(strings.ReplaceAll(cells["attribute"], ";", ","))
	if len(left) > 0 {
		return e, designer.Invalid("attribute", "%q is not an attribute; write a name, or name (TYPE)", left[0])
	}
	for _, a := range list {
		if a.Type == "" && len(list) == 1 && strings.TrimSpace(cells["type"]) != "" {
			// The type column in the spellings of a type in parentheses: "String", "S (PK)".
			typ, _ := ReadAttribute(a.Name + " (" + strings.NewReplacer("(", ",", ")", "").Replace(cells["type"]) + ")")
			if typ.Type == "" && !typ.Key {
				_, err := designer.ParseType(cells["type"])
				if err == nil {
					err = fmt.Errorf("%q is not a DynamoDB type", cells["type"])
				}
				return e, designer.Invalid("type", "%s", err.Error())
			}
			a.Type = typ.Type
		}
		if a.Type == "" {
			a.Type = designer.S
		}
		e.Attributes = append(e.Attributes, designer.BulkAttribute{Name: a.Name, Type: a.Type, Description: a.Description})
	}
	return e, nil
}
