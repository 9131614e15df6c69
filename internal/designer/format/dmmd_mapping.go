package format

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The Access Pattern Mapping table and the operations written in its cells.

// Columns of the Access Pattern Mapping table, 5- and 9-column forms.
func dmMappingColumn(h string) string {
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

var dmMappingNumber = regexp.MustCompile(`(?i)^(?:ap|pattern|no\.?)?\s*#?\s*(\d{1,6})(?:\s*(?:-|–|to)\s*(?:ap|#)?\s*(\d{1,6}))?$`)

// dmMaxRange bounds "AP12-14": a wider range is more likely a typo than a group of patterns.
const dmMaxRange = 50

func (p *dmParser) mappingTable(s *dmSection, it mdItem) bool {
	header := splitRow(it.lines[0])
	cols := map[string]int{}
	for i, h := range header {
		if c := dmMappingColumn(headerName(h)); c != "" {
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
	rows := it.lines[1:]
	first := it.line + 1
	if len(rows) > 0 && isSeparatorRow(splitRow(rows[0])) {
		rows, first = rows[1:], first+1
	}
	var unread []string
	for ri, l := range rows {
		line := first + ri
		cells := splitRow(l)
		get := func(c string) string {
			if i, ok := cols[c]; ok && i < len(cells) {
				return unescapeInline(cells[i])
			}
			return ""
		}
		number, status := dmCutStatusMark(get("number"))
		m := dmMappingNumber.FindStringSubmatch(strings.TrimSpace(markup.Replace(number)))
		if m == nil {
			p.note(line, "mapping row %q has no pattern number Dynaloom can read; it was kept as prose", oneLine(get("number")))
			unread = append(unread, l)
			continue
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
			if hi < lo || hi-lo > dmMaxRange {
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
		ops := dmParseOperationsCell(get("operations"))
		if tables := get("tables"); tables != dmTargetsText(ops) {
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
			if i >= len(cells) || slices.Contains(dmColumnsUsed(cols), i) || cells[i] == "" {
				continue
			}
			add(dmCellText(h), unescapeInline(cells[i]))
		}
		if n := get("notes"); n != "" {
			notes = append(notes, n)
		}
		for n := lo; n <= hi; n++ {
			p.mapPattern(line, n, status, get("description"), get("operations"), ops, strings.Join(notes, "\n"), peak, get("items"), get("size"), get("type"))
		}
	}
	if len(unread) > 0 {
		head := it.lines[:min(2, len(it.lines)):min(2, len(it.lines))]
		s.leftover = append(s.leftover, leftoverPart{first: it.line, last: it.line + it.span() - 1, text: strings.Join(append(head, unread...), "\n")})
	}
	return true
}

func dmColumnsUsed(m map[string]int) []int {
	out := make([]int, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func (p *dmParser) mapPattern(line, n int, status, desc, source string, ops []designer.Operation, notes string, peak *float64, items, size, opType string) {
	for i := range p.patterns {
		pt := &p.patterns[i]
		if pt.Number != n {
			continue
		}
		p.note(line, "pattern %d is mapped twice; the operations were joined", n)
		dmAppend(&pt.Mapping.Source, source)
		dmAppend(&pt.Mapping.Notes, notes)
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

// dmCutStatusMark splits "4 ✅" into "4" and the status the mark stands for; without a mark the
// pattern is open.
func dmCutStatusMark(cell string) (string, string) {
	for status, mark := range statusMarkOf {
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

// dmParseOperationsCell reads the DynamoDB Operations cell of a mapping row: one operation per
// line in the form ExportDataModelMD writes, or else whatever ParseOperationText makes of it.
func dmParseOperationsCell(text string) []designer.Operation {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var out []designer.Operation
	for l := range strings.SplitSeq(text, "\n") {
		op, ok := dmParseOperation(l)
		if !ok {
			return ParseOperationText(text)
		}
		out = append(out, op)
	}
	return out
}

// dmParseOperation reads "Query on Orders index ByStatus: status = :s; Limit 20; …".
func dmParseOperation(l string) (designer.Operation, bool) {
	var op designer.Operation
	// The notes run to the end of the line.
	notes, hasNotes := "", false
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' {
			i++
			continue
		}
		if l[i] == ';' && strings.HasPrefix(l[i:], "; Notes: ") {
			l, notes, hasNotes = l[:i], dmClauseUnescape(l[i+len("; Notes: "):]), true
			break
		}
	}
	if hasNotes && notes == "" {
		return op, false
	}
	op.Notes = notes
	parts := dmSplitClauses(l)
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
		if !dmPlainName.MatchString(after[:end]) {
			return op, false
		}
		*target.dst, rest = after[:end], after[end:]
	}
	if cond, ok := strings.CutPrefix(rest, ": "); ok {
		op.KeyCondition, rest = dmClauseUnescape(cond), ""
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
		text = dmClauseUnescape(text)
		var err error
		switch word {
		case "Filter:":
			op.Filter = text
		case "Projection:":
			op.Projection = text
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

// dmSplitClauses splits an operation line at each unescaped ";".
func dmSplitClauses(l string) []string {
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

// dmClauseUnescape reverses dmClauseEscape.
func dmClauseUnescape(s string) string {
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
