package datamodelmd

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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

var mappingNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:ap|pattern|no\.?)?\s*#?\s*(\d{1,6})(?:\s*(?:-|–|to)\s*(?:ap|#)?\s*(\d{1,6}))?$`)
})

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
		m := mappingNumber().FindStringSubmatch(strings.TrimSpace(markdown.Unmark.Replace(number)))
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
		ops := operationsOf(get("operations"))
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
		rowNotes, failure, found, err := cutFailure(strings.Join(notes, "\n"))
		if found && err != nil {
			p.note(line, "pattern %d: the conditional-failure rate was not read: %s; it was kept in the mapping notes", lo, errorText(err))
		}
		for n := lo; n <= hi; n++ {
			p.mapPattern(line, n, status, get("description"), get("operations"), ops, rowNotes, peak, get("items"), get("size"), get("type"))
			if failure != nil {
				p.patternFailure(line, n, failure)
			}
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
	if _, seen := p.rowLines[n]; !seen {
		if p.rowLines == nil {
			p.rowLines = map[int]int{}
		}
		p.rowLines[n] = line
	}
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

// patternFailure gives pattern n the conditional-failure rate its mapping row states; a second row
// that states another keeps the first, with a note.
func (p *parser) patternFailure(line, n int, pct *float64) {
	for i := range p.patterns {
		pt := &p.patterns[i]
		if pt.Number != n {
			continue
		}
		switch {
		case pt.ConditionalFailurePct == nil:
			pt.ConditionalFailurePct = pct
		case *pt.ConditionalFailurePct != *pct:
			p.note(line, "pattern %d: another conditional-failure rate was given already; the first was kept", n)
		}
	}
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
