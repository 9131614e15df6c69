package format

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Locate says which of the files a design was read from holds the thing at path, and on which line
// (from 1), so that a pipeline can point a finding at its source: a pattern is its row of the
// requirement's pattern table, a table or index its heading in the data model, an entity its
// line in the requirement, a table of a JSON model the line that names it. It gives line 0 when
// the file is known but not the line, and no file when none of them holds the thing.
func Locate(d designer.Design, files []File, path string) (string, int) {
	parts := strings.Split(path, "/")
	// A pattern's own fields are the requirement's; its mapping and the tables, the data model's.
	first := KindRequirementsMD
	if parts[0] == "tables" || len(parts) > 2 && parts[2] == "mapping" {
		first = KindDataModelMD
	}
	ordered := slices.Clone(files)
	slices.SortStableFunc(ordered, func(a, b File) int {
		return cmpBool(Recognise(b.Data) == first, Recognise(a.Data) == first)
	})
	for _, a := range anchors(d, parts) {
		for _, f := range ordered {
			if line := lineOf(f.Data, a); line > 0 && f.Name != "-" {
				return f.Name, line
			}
		}
	}
	if len(files) == 1 && files[0].Name != "-" {
		return files[0].Name, 0
	}
	return "", 0
}

// anchor is a line a thing's text starts with (prefix) or holds (within).
type anchor struct{ prefix, within string }

// anchors are the lines that hold the thing at a path, most precise first, in each format that
// writes it: the two markdown documents, a Workbench model and the JSON formats.
func anchors(d designer.Design, parts []string) []anchor {
	if len(parts) < 2 {
		if len(parts) == 1 && parts[0] == "overview" {
			return []anchor{{prefix: "## Application Overview"}}
		}
		return nil
	}
	id := parts[1]
	switch parts[0] {
	case "access_patterns":
		// Findings name a pattern by its number, the change API by its id.
		p, _, ok := d.PatternByID(id)
		if n, err := strconv.Atoi(id); err == nil && !ok {
			p, _, ok = d.PatternByNumber(n)
		}
		if !ok {
			return nil
		}
		n := fmt.Sprint(p.Number)
		if len(parts) > 2 && parts[2] == "mapping" {
			return []anchor{{prefix: "| " + n + " "}, {within: p.Description}}
		}
		return []anchor{{prefix: "| " + n + " |"}, {within: p.Description}}
	case "tables":
		if len(parts) >= 4 && (parts[2] == "gsis" || parts[2] == "lsis" || parts[2] == "indexes") {
			return []anchor{{prefix: "### " + parts[3] + " "}, {within: `"IndexName": "` + parts[3] + `"`}}
		}
		return []anchor{{prefix: "### " + id + " Table"}, {prefix: "### " + id}, {within: `"TableName": "` + id + `"`}, {within: `"name": "` + id + `"`}}
	case "entities":
		return []anchor{{prefix: "- **" + id + "**:"}, {within: "**" + id + " →"}, {within: "→ " + id + "**"}, {within: `"name": "` + id + `"`}}
	case "relationships":
		r, _, ok := d.RelationshipByID(id)
		if !ok {
			return nil
		}
		return []anchor{{within: "**" + r.From + " → " + r.To + "**"}, {within: "**" + r.From + " → "}}
	case "aggregates":
		a, _, ok := d.AggregateByID(id)
		if !ok {
			return nil
		}
		return []anchor{{prefix: "### " + a.EntityA + " + "}, {prefix: "## Enhanced Aggregate Analysis"}}
	case "consolidations":
		return []anchor{{prefix: "### Consolidation Candidates Review"}}
	}
	return nil
}

// lineOf is the number of the first line of data the anchor matches, or 0.
func lineOf(data []byte, a anchor) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		l := strings.TrimSpace(string(line))
		if a.prefix != "" && strings.HasPrefix(l, a.prefix) || a.within != "" && strings.Contains(l, a.within) {
			return i + 1
		}
	}
	return 0
}

// cmpBool compares two booleans, false before true.
func cmpBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}
