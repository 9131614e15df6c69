package designer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

func init() {
	register[SetIndexPatternList]()
}

// SetIndexPatternList replaces every per-pattern attribute list of an index from the text people
// type in one cell: "4: first_name, last_name; 7: total". Empty text clears them.
type SetIndexPatternList struct {
	Table string `json:"table"`
	Index string `json:"index"`
	Text  string `json:"text"`
}

func (SetIndexPatternList) Kind() string { return "set_index_pattern_list" }

func (c SetIndexPatternList) Apply(d Design) (Design, error) {
	entries, err := ParsePatternList(c.Text)
	if err != nil {
		return d, err
	}
	_, _, ix, _, _, err := findIndex(d, c.Table, c.Index)
	if err != nil {
		return d, err
	}
	for _, pa := range ix.PatternAttributes {
		if d, err = (SetIndexPatternAttributes{Table: c.Table, Index: c.Index, Pattern: pa.Pattern}).Apply(d); err != nil {
			return d, err
		}
	}
	for _, pa := range entries {
		if d, err = (SetIndexPatternAttributes{Table: c.Table, Index: c.Index, Pattern: pa.Pattern, Attributes: pa.Attributes}).Apply(d); err != nil {
			return d, err
		}
	}
	return d, nil
}

func (c SetIndexPatternList) Summary() string {
	return fmt.Sprintf("Set the attributes each pattern reads through %s on %s", c.Index, c.Table)
}
func (c SetIndexPatternList) Paths() []Path {
	return []Path{IndexPath(c.Table, c.Index, "")}
}

// ParsePatternList reads "4: a, b; 7: c" (also "#4" or "AP4" for the numbers).
func ParsePatternList(text string) ([]PatternAttributes, error) {
	var out []PatternAttributes
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		num, attrs, ok := strings.Cut(part, ":")
		if !ok {
			return nil, Invalid("pattern_attributes", "write %q as \"<pattern number>: attribute, attribute\"", part)
		}
		num = strings.TrimLeft(strings.TrimSpace(num), "#APap ")
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 {
			return nil, Invalid("pattern_attributes", "%q is not a pattern number", strings.TrimSpace(part[:strings.Index(part, ":")]))
		}
		entry := PatternAttributes{Pattern: n}
		for _, a := range strings.Split(attrs, ",") {
			if a = strings.TrimSpace(a); a != "" {
				entry.Attributes = append(entry.Attributes, a)
			}
		}
		out = append(out, entry)
	}
	return out, nil
}

// FormatPatternList writes per-pattern attribute lists the way ParsePatternList reads them.
func FormatPatternList(list []PatternAttributes) string {
	parts := make([]string, len(list))
	for i, pa := range list {
		parts[i] = strconv.Itoa(pa.Pattern) + ": " + strings.Join(pa.Attributes, ", ")
	}
	return strings.Join(parts, "; ")
}

// ParseGenerator reads a sample-data generator as typed in the attributes table: "name", "email",
// "uuid", "date", "number 1..100", "text 3..8" (words), "one_of a|b|c", "template ORDER#{id}".
// Empty text means no generator.
func ParseGenerator(text string) (*Generator, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	kind, arg, _ := strings.Cut(text, " ")
	kind = strings.ToLower(strings.ReplaceAll(kind, "-", "_"))
	arg = strings.TrimSpace(arg)
	if !slices.Contains(generatorKinds, kind) {
		return nil, Invalid("generator", "%q is not a generator; use one of %s", kind, strings.Join(generatorKinds, ", "))
	}
	g := &Generator{Kind: kind}
	switch kind {
	case "number", "text":
		if arg == "" {
			break
		}
		lo, hi, ok := strings.Cut(arg, "..")
		minV, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		maxV, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if !ok || err1 != nil || err2 != nil || !(math.Abs(minV) <= MaxNumber && math.Abs(maxV) <= MaxNumber) || minV > maxV {
			return nil, Invalid("generator", "write a range as \"%s 1..100\", the smaller bound first", kind)
		}
		g.Min, g.Max = &minV, &maxV
	case "one_of":
		for _, v := range strings.Split(arg, "|") {
			g.Values = append(g.Values, strings.TrimSpace(v))
		}
		if arg == "" {
			return nil, Invalid("generator", "list the values as \"one_of a|b|c\"")
		}
	case "template":
		if arg == "" {
			return nil, Invalid("generator", "give the template, as in \"template ORDER#{order_id}\"")
		}
		g.Template = arg
	}
	return g, nil
}

// FormatGenerator writes a generator the way ParseGenerator reads it.
func FormatGenerator(g *Generator) string {
	if g == nil {
		return ""
	}
	switch {
	case (g.Kind == "number" || g.Kind == "text") && g.Min != nil && g.Max != nil:
		return g.Kind + " " + strconv.FormatFloat(*g.Min, 'f', -1, 64) + ".." + strconv.FormatFloat(*g.Max, 'f', -1, 64)
	case g.Kind == "one_of":
		return "one_of " + strings.Join(g.Values, "|")
	case g.Kind == "template":
		return "template " + g.Template
	}
	return g.Kind
}
