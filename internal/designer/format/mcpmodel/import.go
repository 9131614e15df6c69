package mcpmodel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// Looks reports whether text is an executable model of the AWS DynamoDB MCP server's validator:
// a JSON object with a "tables" array and "items" or "access_patterns", and no design-json format.
func Looks(text []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(text, &probe) != nil {
		return false
	}
	if _, ok := probe["format"]; ok {
		return false
	}
	var tables []json.RawMessage
	if json.Unmarshal(probe["tables"], &tables) != nil || tables == nil {
		return false
	}
	_, items := probe["items"]
	_, patterns := probe["access_patterns"]
	return items || patterns
}

// Import reads an MCP validator model as a design: its tables (CreateTable requests) with their
// keys, indexes, TTL and billing, its items as sample items, and each access pattern with its
// description and type; the pattern's commands are kept as its mapping notes, since a command is
// not read back into operations. Notes say what was left out.
func Import(data []byte) (designer.Design, []designer.ImportNote, error) {
	var m struct {
		Tables         []tabledef.Table
		Items          map[string][]writeRequest
		AccessPatterns []accessPattern `json:"access_patterns"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return designer.Design{}, nil, designer.Invalid("file", "is not an MCP validator model Dynaloom reads: %v", err)
	}
	var notes []designer.ImportNote
	note := func(format string, args ...any) {
		notes = append(notes, designer.ImportNote{Message: fmt.Sprintf(format, args...)})
	}
	d := designer.Design{Name: "Imported MCP model"}
	for i, def := range m.Tables {
		t, tnotes, err := tabledef.DesignTable("tables/"+strconv.Itoa(i), def)
		if err != nil {
			return designer.Design{}, nil, err
		}
		for _, n := range tnotes {
			note("%s", n)
		}
		d.Tables = append(d.Tables, t)
	}
	for _, name := range sortedKeys(m.Items) {
		i := slices.IndexFunc(d.Tables, func(t designer.Table) bool { return t.Name == name })
		if i < 0 {
			note("%d items of table %s left out: the model has no such table", len(m.Items[name]), name)
			continue
		}
		for k, w := range m.Items[name] {
			if w.PutRequest == nil {
				note("items/%s/%d is not a PutRequest and was left out", name, k)
				continue
			}
			d.Tables[i].Items = append(d.Tables[i].Items, designer.SampleItem{
				ID: designer.ItemIDPrefix + strconv.Itoa(len(d.Tables[i].Items)+1), Item: w.PutRequest.Item})
		}
	}
	d.Patterns = patterns(m.AccessPatterns)
	d = designer.Normalize(d)
	if err := designer.Check(d); err != nil {
		return designer.Design{}, nil, fmt.Errorf("import MCP model: %w", err)
	}
	return d, notes, nil
}

// patterns groups the model's entries by pattern ("3a" and "3b" are pattern 3): the description,
// whether it reads or writes, and the commands as mapping notes.
func patterns(entries []accessPattern) []designer.Pattern {
	var out []designer.Pattern
	byNumber := map[int]int{}
	for _, e := range entries {
		digits := strings.TrimRightFunc(e.Pattern, unicode.IsLetter)
		n, err := strconv.Atoi(digits)
		if err != nil || n < 1 {
			n = len(out) + 1
		}
		i, ok := byNumber[n]
		if !ok {
			i = len(out)
			byNumber[n] = i
			out = append(out, designer.Pattern{ID: "ap" + strconv.Itoa(i+1), Number: n, Description: e.Description,
				Type: designer.Read, Status: designer.StatusOpen})
		}
		p := &out[i]
		if isWrite(e.DynamoDBOperation) {
			p.Type = designer.Write
		}
		line := e.Implementation
		if line == "" {
			line = e.Reason
		}
		if line != "" {
			p.Mapping.Notes = strings.TrimSpace(p.Mapping.Notes + "\n" + line)
		}
	}
	return out
}

func isWrite(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
}
