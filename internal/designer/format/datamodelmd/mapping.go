package datamodelmd

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The Access Pattern Mapping table and the operations written in its cells.

// Columns of the Access Pattern Mapping table, 5- and 9-column forms.
func mappingColumn(h string) string {
	switch {
	case h == "pattern" || h == "pattern #" || h == "#" || h == "ap" || h == "id" || h == "pattern id" || h == "ap #" || h == "no" || h == "no.":
		return "number"
	case strings.Contains(h, "description") || h == "access pattern":
		return "description"
	case strings.Contains(h, "operation"):
		return "operations"
	case strings.Contains(h, "table") || strings.Contains(h, "index") || strings.Contains(h, "gsi"):
		return "tables"
	case h == "type":
		return "type"
	case strings.Contains(h, "rps"):
		return "peak"
	case strings.Contains(h, "items returned") || h == "items" || strings.Contains(h, "item count"):
		return "items"
	case strings.Contains(h, "size"):
		return "size"
	case strings.Contains(h, "note"):
		return "notes"
	}
	return ""
}

var mappingNumber = regexp.MustCompile(`(?i)^(?:ap|pattern|no\.?)?\s*#?\s*(\d{1,6})(?:\s*(?:-|–|to)\s*(?:ap|#)?\s*(\d{1,6}))?$`)

// maxRange bounds "AP12-14": a wider range is more likely a typo than a group of patterns.
const maxRange = 50

func (p *parser) mappingTable(s *sectionDraft, it markdown.Item) bool {
	header := markdown.SplitRow(it.Lines[0])
	cols := map[string]int{}
	for i, h := range header {
		if c := mappingColumn(markdown.HeaderName(h)); c != "" {
			if _, dup := cols[c]; !dup {
				cols[c] = i
			}
		}
	}
	_, hasNumber := cols["number"]
	_, hasOps := cols["operations"]
	_, hasDesc := cols["description"]
	if !hasNumber || !hasOps && !hasDesc {
		return false
	}
	rows := it.Lines[1:]
	first := it.Line + 1
	if len(rows) > 0 && markdown.IsSeparatorRow(markdown.SplitRow(rows[0])) {
		rows, first = rows[1:], first+1
	}
	var unread []string
	for ri, l := range rows {
		line := first + ri
		cells := markdown.SplitRow(l)
		get := func(c string) string {
			if i, ok := cols[c]; ok && i < len(cells) {
				return markdown.Unescape(cells[i])
			}
			return ""
		}
		number, status := cutStatusMark(get("number"))
		m := mappingNumber.FindStringSubmatch(strings.TrimSpace(markdown.Unmark.Replace(number)))
		if m == nil {
			p.note(line, "mapping row %q has no pattern number Dynaloom can read; it was kept as prose", markdown.OneLine(get("number")))
			unread = append(unread, l)
			continue
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
			if hi < lo || hi-lo > maxRange {
				p.note(line, "mapping row %q: the range was read as pattern %d alone", get("number"), lo)
				hi = lo
			} else if hi > lo {
				p.note(line, "mapping row %s was applied to patterns %d to %d", get("number"), lo, hi)
			}
		}
		if lo < 1 {
			p.note(line, "mapping row %q has no pattern number Dynaloom can read; it was kept as prose", get("number"))
			unread = append(unread, l)
			continue
		}
		var notes []string
		add := func(label, v string) {
			if v != "" {
				notes = append(notes, label+": "+v)
			}
		}
		ops := parseOperationsCell(get("operations"))
		if tables := get("tables"); tables != targetsText(ops) {
			// What the operations say is not kept twice.
			add("Tables/Indexes", tables)
		}
		add("Operation type", get("type"))
		var peak *float64
		if raw := get("peak"); raw != "" {
			if v, err := designer.ParseRPS(raw); err == nil {
				peak = v
			} else {
				add("Peak RPS", raw)
				p.note(line, "pattern %d: peak RPS %q was kept in the mapping notes", lo, raw)
			}
		}
		for i, h := range header {
			if i >= len(cells) || slices.Contains(columnsUsed(cols), i) || cells[i] == "" {
				continue
			}
			add(cellText(h), markdown.Unescape(cells[i]))
		}
		if n := get("notes"); n != "" {
			notes = append(notes, n)
		}
		for n := lo; n <= hi; n++ {
			p.mapPattern(line, n, status, get("description"), get("operations"), ops, strings.Join(notes, "\n"), peak, get("items"), get("size"), get("type"))
		}
	}
	if len(unread) > 0 {
		head := it.Lines[:min(2, len(it.Lines)):min(2, len(it.Lines))]
		s.leftover = append(s.leftover, markdown.Leftover{First: it.Line, Last: it.Line + it.Span() - 1, Text: strings.Join(append(head, unread...), "\n")})
	}
	return true
}

func columnsUsed(m map[string]int) []int {
	out := make([]int, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func (p *parser) mapPattern(line, n int, status, desc, source string, ops []designer.Operation, notes string, peak *float64, items, size, opType string) {
	for i := range p.patterns {
		pt := &p.patterns[i]
		if pt.Number != n {
			continue
		}
		p.note(line, "pattern %d is mapped twice; the operations were joined", n)
		appendText(&pt.Mapping.Source, source)
		appendText(&pt.Mapping.Notes, notes)
		pt.Mapping.Operations = append(pt.Mapping.Operations, ops...)
		return
	}
	pt := designer.Pattern{Number: n, Description: desc, PeakRPS: peak, ResultBound: items, SizeBand: size, Status: status}
	// What the operation cell says, as far as it can be read; the cell itself stays in Source.
	pt.Mapping.Source, pt.Mapping.Notes, pt.Mapping.Operations = source, notes, slices.Clone(ops)
	switch opType {
	case "GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems":
		pt.Type = designer.Read
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		pt.Type = designer.Write
	}
	p.patterns = append(p.patterns, pt)
}

// cutStatusMark splits "4 ✅" into "4" and the status the mark stands for; without a mark the
// pattern is open.
func cutStatusMark(cell string) (string, string) {
	for status, mark := range markdown.StatusMarks {
		if status == "" {
			continue
		}
		for _, m := range []string{mark, strings.TrimSuffix(mark, "\ufe0f")} {
			if rest, ok := strings.CutSuffix(cell, m); ok && rest != cell {
				return strings.TrimSpace(rest), status
			}
		}
	}
	return cell, designer.StatusOpen
}

// parseOperationsCell reads the DynamoDB Operations cell of a mapping row: one operation per
// line in the form Export writes, or else whatever ParseOperationText makes of it.
func parseOperationsCell(text string) []designer.Operation {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var out []designer.Operation
	for l := range strings.SplitSeq(text, "\n") {
		op, ok := parseOperation(l)
		if !ok {
			return ParseOperationText(text)
		}
		out = append(out, op)
	}
	return out
}

// parseOperation reads "Query on Orders index ByStatus: status = :s; Limit 20; …".
func parseOperation(l string) (designer.Operation, bool) {
	var op designer.Operation
	// The notes run to the end of the line.
	notes, hasNotes := "", false
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' {
			i++
			continue
		}
		if l[i] == ';' && strings.HasPrefix(l[i:], "; Notes: ") {
			l, notes, hasNotes = l[:i], clauseUnescape(l[i+len("; Notes: "):]), true
			break
		}
	}
	if hasNotes && notes == "" {
		return op, false
	}
	op.Notes = notes
	parts := splitClauses(l)
	head := parts[0]
	name, rest := head, ""
	if i := strings.IndexAny(head, " :"); i >= 0 {
		name, rest = head[:i], head[i:]
	}
	if !slices.Contains(designer.Operations, name) {
		return op, false
	}
	op.Op = name
	for _, target := range []struct {
		word string
		dst  *string
	}{{" on ", &op.Table}, {" index ", &op.Index}} {
		after, ok := strings.CutPrefix(rest, target.word)
		if !ok {
			continue
		}
		end := strings.IndexAny(after, " :")
		if end < 0 {
			end = len(after)
		}
		if target.word == " on " {
			// A table name the file gave with spaces ("Order Lines") runs to " index " or ":".
			end = len(after)
			if i := strings.IndexByte(after, ':'); i >= 0 {
				end = i
			}
			if i := strings.Index(after[:end], " index "); i >= 0 {
				end = i
			}
		}
		if !plainName.MatchString(after[:end]) && (target.word != " on " || !spacedName.MatchString(after[:end])) {
			return op, false
		}
		*target.dst, rest = after[:end], after[end:]
	}
	if cond, ok := strings.CutPrefix(rest, ": "); ok {
		op.KeyCondition, rest = clauseUnescape(cond), ""
	}
	if rest != "" {
		return op, false
	}
	seen := map[string]bool{}
	for _, part := range parts[1:] {
		clause, ok := strings.CutPrefix(part, " ")
		word, text, _ := strings.Cut(clause, " ")
		if !ok || seen[word] {
			return op, false
		}
		seen[word] = true
		text = clauseUnescape(text)
		var err error
		switch word {
		case "Filter:":
			op.Filter = text
		case "Projection:":
			op.Projection = text
		case "Condition:":
			op.Condition = text
		case "Update:":
			op.Update = text
		case "Limit":
			n, convErr := strconv.Atoi(text)
			op.Limit, err = &n, convErr
		case "ScanIndexForward=false":
			op.Descending = text == ""
		case "ConsistentRead=true":
			op.Consistent = text == ""
		case "Names:":
			op.Names, err = designer.ParseOperationNames(text)
		case "Values:":
			op.Values, err = designer.ParseOperationValues(text)
		case "Action:":
			// Only an action the operation can take, spelt as the export writes it.
			op.Action = text
			if designer.CheckAction("action", op) != nil || text == "" {
				return op, false
			}
		default:
			return op, false
		}
		if err != nil || (word == "ScanIndexForward=false" && !op.Descending) || (word == "ConsistentRead=true" && !op.Consistent) {
			return op, false
		}
	}
	return op, true
}

// splitClauses splits an operation line at each unescaped ";".
func splitClauses(l string) []string {
	var out []string
	start := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case ';':
			out = append(out, l[start:i])
			start = i + 1
		}
	}
	return append(out, l[start:])
}

// clauseUnescape reverses clauseEscape.
func clauseUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '\\', ';':
			b.WriteByte(s[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
