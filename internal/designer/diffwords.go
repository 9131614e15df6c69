package designer

import (
	"strconv"
	"strings"
)

// diffNouns are the singular words for the lists and maps a Difference's Field names rows of.
var diffNouns = map[string]string{
	"operations": "operation", "attributes": "attribute", "values": "value", "names": "name",
	"expected": "expected item", "entities": "entity", "accepted_gaps": "accepted gap",
	"partition_key": "partition key attribute", "sort_key": "sort key attribute",
	"entity_types": "entity type", "sk_templates": "SK template", "pattern_attributes": "pattern",
}

// FieldWords words a Difference's Field of any section but the sample items (whose fields are
// attribute names, shown as they are) for people, as the page names things: list rows counted
// from 1 and named in the singular, members in words, an expression's placeholder as written.
// "mapping.operations[0].values.:c" is "operation 1, value :c"; "projection.type" is
// "projection type". The mapping a pattern's operations sit in goes unsaid.
func FieldWords(field string) string {
	parts := strings.Split(strings.TrimPrefix(field, "mapping."), ".")
	var groups []string
	member := ""
	flush := func() {
		if member != "" {
			groups = append(groups, member)
			member = ""
		}
	}
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		name, rest, indexed := strings.Cut(p, "[")
		switch {
		case indexed:
			flush()
			row := strings.TrimSuffix(rest, "]")
			if n, err := strconv.Atoi(row); err == nil {
				row = strconv.Itoa(n + 1)
			}
			groups = append(groups, nounOf(name)+" "+row)
		case (p == "values" || p == "names") && i+1 < len(parts):
			// A map's member: its key as written (":c", "#s").
			flush()
			groups = append(groups, diffNouns[p]+" "+parts[i+1])
			i++
		default:
			if member != "" {
				member += " "
			}
			member += memberWords(p)
		}
	}
	flush()
	return strings.Join(groups, ", ")
}

func nounOf(list string) string {
	if noun, ok := diffNouns[list]; ok {
		return noun
	}
	return memberWords(list)
}

// memberWords is a design-json member name in words: "peak_rps" is "peak RPS".
func memberWords(name string) string {
	words := strings.Split(name, "_")
	for i, w := range words {
		switch w {
		case "rps", "slo", "kb", "gsi", "lsi", "ttl":
			words[i] = strings.ToUpper(w)
		}
	}
	return strings.Join(words, " ")
}
