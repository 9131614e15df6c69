package designer

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrEmptyPaste is returned by ParsePaste for text that holds no item.
var ErrEmptyPaste = errors.New("the pasted text holds no item")

// PasteError locates a problem in pasted text. Row counts from 1: in TSV and CSV the header is row
// 1, so the first item is row 2, as a spreadsheet numbers them; in JSON it is the item's number.
// Column counts from 1 and is 0 when the problem is not in one cell; Attribute names the column or
// the JSON attribute when known.
type PasteError struct {
	Row       int
	Column    int
	Attribute string
	Err       error
}

func (e *PasteError) Error() string {
	var sb strings.Builder
	if e.Row > 0 {
		fmt.Fprintf(&sb, "row %d", e.Row)
	}
	if e.Column > 0 {
		fmt.Fprintf(&sb, ", column %d", e.Column)
	}
	if e.Attribute != "" {
		if sb.Len() > 0 {
			sb.WriteString(" ")
		}
		fmt.Fprintf(&sb, "(%s)", e.Attribute)
	}
	if sb.Len() > 0 {
		sb.WriteString(": ")
	}
	sb.WriteString(e.Err.Error())
	return sb.String()
}

func (e *PasteError) Unwrap() error { return e.Err }

// ParsePaste reads items pasted into a table's grid. The text is one of:
//
//   - DynamoDB JSON, when it starts with { or [: one item, an array of items, a Scan or Query
//     response ({"Items": […]}), a GetItem response ({"Item": {…}}), or several of these one after
//     the other, such as one item per line;
//   - TSV, when its first line holds a tab: a header row of attribute names, then one item per row.
//     Cells quoted as spreadsheets quote them ("a""b", or a quoted cell spanning lines) are
//     unquoted; a quote anywhere else is kept;
//   - CSV (RFC 4180) otherwise, also with a header row.
//
// In TSV and CSV a column's type is the one the table declares for it (key schema, index keys,
// then Attributes), read with ParseCell; an undeclared column is read with InferCell. An empty cell
// leaves the attribute out; blank rows are skipped. The first problem found is returned as a
// *PasteError naming its row and column.
func ParsePaste(text string, t Table) ([]Item, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil, ErrEmptyPaste
	}
	var items []Item
	var err error
	if trimmed[0] == '{' || trimmed[0] == '[' {
		items, err = pasteJSON(trimmed)
	} else {
		items, err = pasteTable(text, t)
	}
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, ErrEmptyPaste
	}
	return items, nil
}

func pasteJSON(text string) ([]Item, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	var items []Item
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return items, nil
		}
		if err != nil {
			return nil, &PasteError{Row: len(items) + 1, Err: cellJSONError(err)}
		}
		items, err = pasteJSONValue(raw, items)
		if err != nil {
			return nil, err
		}
	}
}

// pasteJSONValue appends the items of one top-level JSON value.
func pasteJSONValue(raw json.RawMessage, items []Item) ([]Item, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, &PasteError{Row: len(items) + 1, Err: cellJSONError(err)}
		}
		for _, r := range list {
			it, err := pasteJSONItem(r, len(items)+1)
			if err != nil {
				return nil, err
			}
			if len(it) > 0 {
				items = append(items, it)
			}
		}
		return items, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, &PasteError{Row: len(items) + 1, Err: errors.New("an item is a JSON object of attribute values")}
	}
	// A response wraps its items; an attribute named Items or Item holds an object, never an array
	// or a bare item, so the shapes cannot be confused.
	if inner, ok := obj["Items"]; ok && startsWith(inner, '[') {
		return pasteJSONValue(inner, items)
	}
	if inner, ok := obj["Item"]; ok && startsWith(inner, '{') && !isTypedValue(inner) {
		obj = nil
		if err := json.Unmarshal(inner, &obj); err != nil {
			return nil, &PasteError{Row: len(items) + 1, Err: cellJSONError(err)}
		}
	}
	it, err := pasteJSONAttributes(obj, len(items)+1)
	if err != nil {
		return nil, err
	}
	if len(it) == 0 {
		return items, nil
	}
	return append(items, it), nil
}

func startsWith(raw json.RawMessage, c byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == c
}

// isTypedValue reports whether raw is one attribute value such as {"M": {…}}.
func isTypedValue(raw json.RawMessage) bool {
	var v Value
	return json.Unmarshal(raw, &v) == nil
}

func pasteJSONItem(raw json.RawMessage, row int) (Item, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, &PasteError{Row: row, Err: errors.New("an item is a JSON object of attribute values")}
	}
	return pasteJSONAttributes(obj, row)
}

func pasteJSONAttributes(obj map[string]json.RawMessage, row int) (Item, error) {
	it := make(Item, len(obj))
	for name, raw := range obj {
		var v Value
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, &PasteError{Row: row, Attribute: name, Err: cellJSONError(err)}
		}
		it[name] = v
	}
	return it, nil
}

// pasteTable reads TSV or CSV with a header row.
func pasteTable(text string, t Table) ([]Item, error) {
	firstLine, _, _ := strings.Cut(strings.TrimLeft(text, "\r\n"), "\n")
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	if strings.Contains(firstLine, "\t") {
		r.Comma = '\t'
		r.LazyQuotes = true
	}

	header, err := r.Read()
	if err != nil {
		return nil, pasteCSVError(err, 1)
	}
	names := make([]string, len(header))
	types := make([]Type, len(header))
	for i, h := range header {
		name := strings.TrimSpace(h)
		if name == "" {
			return nil, &PasteError{Row: 1, Column: i + 1, Err: errors.New("the header row has no attribute name here")}
		}
		for j := range i {
			if names[j] == name {
				return nil, &PasteError{Row: 1, Column: i + 1, Attribute: name,
					Err: fmt.Errorf("the header names %s twice (columns %d and %d)", name, j+1, i+1)}
			}
		}
		names[i] = name
		types[i] = tableAttributeType(t, name)
	}

	var items []Item
	for row := 2; ; row++ {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			return items, nil
		}
		if err != nil {
			return nil, pasteCSVError(err, row)
		}
		if len(record) > len(names) {
			for _, extra := range record[len(names):] {
				if strings.TrimSpace(extra) != "" {
					return nil, &PasteError{Row: row, Column: len(names) + 1,
						Err: fmt.Errorf("the row has %d cells but the header names only %d attributes", len(record), len(names))}
				}
			}
		}
		it := make(Item, len(names))
		for i, cell := range record[:min(len(record), len(names))] {
			if cell == "" || (types[i] != S && strings.TrimSpace(cell) == "") {
				continue
			}
			if types[i] == "" {
				it[names[i]] = InferCell(cell)
				continue
			}
			v, err := ParseCell(cell, types[i])
			if err != nil {
				return nil, &PasteError{Row: row, Column: i + 1, Attribute: names[i], Err: err}
			}
			it[names[i]] = v
		}
		if len(it) > 0 {
			items = append(items, it)
		}
	}
}

// pasteCSVError turns encoding/csv's error into a PasteError. The reader counts lines and
// characters, not rows and cells (they differ when a quoted cell spans lines), so the row is the
// one counted here and the reader's position goes into the message.
func pasteCSVError(err error, row int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &PasteError{Row: row, Err: fmt.Errorf("%w (line %d, character %d)", pe.Err, pe.Line, pe.Column)}
	}
	return &PasteError{Row: row, Err: err}
}

// tableAttributeType is the type the table declares for an attribute, or "" when it declares none:
// its key schema, then its indexes' keys, then its Attributes.
func tableAttributeType(t Table, name string) Type {
	if t.PartitionKey.Name == name && t.PartitionKey.Type.Valid() {
		return t.PartitionKey.Type
	}
	if t.SortKey != nil && t.SortKey.Name == name && t.SortKey.Type.Valid() {
		return t.SortKey.Type
	}
	for _, indexes := range [][]Index{t.GSIs, t.LSIs} {
		for _, ix := range indexes {
			for _, keys := range [][]KeyAttribute{ix.PartitionKey, ix.SortKey} {
				for _, k := range keys {
					if k.Name == name && k.Type.Valid() {
						return k.Type
					}
				}
			}
		}
	}
	for _, a := range t.Attributes {
		if a.Name == name && a.Type.Valid() {
			return a.Type
		}
	}
	return ""
}
