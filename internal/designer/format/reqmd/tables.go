package reqmd

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The requirement document's tables: access patterns and the consolidation review, recognised by
// their header whatever the order of their columns.

// isEntitiesLine reports whether an escaped line is a pattern's "Entities: …" line.
func isEntitiesLine(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) >= 9 && strings.EqualFold(t[:9], "entities:")
}

// Columns of the two tables, recognised by their header whatever their order.
func patternColumn(h string) string {
	switch {
	case h == "pattern #" || h == "#" || h == "pattern" || h == "ap" || h == "id" || h == "pattern id" ||
		h == "no" || h == "no." || h == "pattern no" || h == "ap #" || h == "pattern number" || h == "number":
		return "number"
	case strings.Contains(h, "description") || h == "access pattern" || h == "use case":
		return "description"
	case strings.Contains(h, "rps") || strings.Contains(h, "qps") || strings.Contains(h, "requests"):
		peak := strings.Contains(h, "peak")
		avg := strings.Contains(h, "avg") || strings.Contains(h, "average") || strings.Contains(h, "mean")
		switch {
		case peak && !avg:
			return "peak"
		case avg && !peak:
			return "avg"
		}
		return "rps"
	case h == "type" || h == "operation type" || h == "r/w" || h == "read/write" || h == "operation":
		return "type"
	case strings.Contains(h, "attribute"):
		return "attributes"
	case strings.Contains(h, "key requirement") || h == "requirements":
		return "keyreq"
	case strings.Contains(h, "consideration") || h == "notes":
		return "considerations"
	case h == "status":
		return "status"
	case h == "entities" || h == "entity":
		return "entities"
	}
	return ""
}

func consolidationColumn(h string) string {
	switch {
	case h == "parent" || h == "parent entity":
		return "parent"
	case h == "child" || h == "child entity":
		return "child"
	case strings.Contains(h, "relationship"):
		return "relationship"
	case strings.Contains(h, "overlap"):
		return "overlap"
	case strings.Contains(h, "decision"):
		return "decision"
	case strings.Contains(h, "justification") || h == "reason" || h == "why" || h == "notes":
		return "justification"
	}
	return ""
}

// tableKindOf says which of the template's tables a header row starts: "patterns", "candidates"
// or "".
func tableKindOf(headerRow string) string {
	_, _, kind := tableColumns(markdown.SplitRow(headerRow))
	return kind
}

// tableColumns maps the columns of a header row for both tables, and says which table it is.
func tableColumns(header []string) (pcols, ccols map[string]int, kind string) {
	pcols, ccols = map[string]int{}, map[string]int{}
	for i, h := range header {
		name := markdown.HeaderName(h)
		if c := patternColumn(name); c != "" {
			if _, dup := pcols[c]; !dup {
				pcols[c] = i
			}
		}
		if c := consolidationColumn(name); c != "" {
			if _, dup := ccols[c]; !dup {
				ccols[c] = i
			}
		}
	}
	_, hasParent := ccols["parent"]
	_, hasChild := ccols["child"]
	_, hasDesc := pcols["description"]
	switch {
	case hasParent && hasChild:
		kind = "candidates"
	case hasDesc && len(pcols) >= 2:
		kind = "patterns"
	}
	return pcols, ccols, kind
}

// table reads an access pattern table or a consolidation table wherever it is, and reports whether
// it was one of them.
func (p *parser) table(b *block, it markdown.Item) bool {
	header := markdown.SplitRow(it.Lines[0])
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = markdown.HeaderName(h)
	}
	pcols, ccols, kind := tableColumns(header)
	rows := it.Lines[1:]
	if len(rows) > 0 && markdown.IsSeparatorRow(markdown.SplitRow(rows[0])) {
		rows = rows[1:]
	}
	switch kind {
	case "candidates":
		p.recognised = true
		p.rows(it, names, ccols, rows, p.consolidationRow)
		return true
	case "patterns":
		p.recognised = true
		p.rows(it, names, pcols, rows, p.patternRow)
		return true
	}
	return false
}

type rowCells struct {
	line  int
	get   func(col string) string // escaped cell of a known column
	extra []string                // "Header: value" of cells in columns the template does not have
}

func (p *parser) rows(it markdown.Item, names []string, cols map[string]int, rows []string, read func(rowCells)) {
	known := map[int]bool{}
	for _, i := range cols {
		known[i] = true
	}
	noted := map[string]bool{}
	for ri, l := range rows {
		cells := markdown.SplitRow(l)
		rc := rowCells{line: it.Line + len(it.Lines) - len(rows) + ri}
		rc.get = func(col string) string {
			if i, ok := cols[col]; ok && i < len(cells) {
				return cells[i]
			}
			return ""
		}
		for i, c := range cells {
			if known[i] || strings.TrimSpace(c) == "" {
				continue
			}
			name := "Column " + strconv.Itoa(i+1)
			if i < len(names) && names[i] != "" {
				name = strings.TrimSpace(markdown.Unescape(markdown.SplitRow(it.Lines[0])[i]))
			}
			rc.extra = append(rc.extra, markdown.Escape(markdown.OneLine(name), "")+": "+c)
			if !noted[name] {
				noted[name] = true
				p.note(it.Line, "column %q is not part of the template; its values were added to the row's notes", name)
			}
		}
		read(rc)
	}
}

var patternNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:ap|pattern|no\.?)?\s*[-#]?\s*(\d{1,9})$`) })

func (p *parser) patternRow(rc rowCells) {
	pt := designer.Pattern{Description: markdown.Unescape(rc.get("description"))}
	var extra []string
	keepRaw := func(label, raw string) {
		extra = append(extra, label+": "+raw)
	}

	rawNumber := markdown.Unmark.Replace(markdown.Unescape(rc.get("number")))
	if m := patternNumber().FindStringSubmatch(strings.TrimSpace(rawNumber)); m != nil {
		pt.Number, _ = strconv.Atoi(m[1])
		if p.numbers[pt.Number] {
			p.note(rc.line, "pattern number %d is used twice", pt.Number)
		}
	} else {
		pt.Number = p.maxNumber + 1
		if strings.TrimSpace(rawNumber) != "" {
			keepRaw("Pattern #", rc.get("number"))
		}
		p.note(rc.line, "pattern without a readable number was numbered %d", pt.Number)
	}

	if raw := rc.get("rps"); raw != "" {
		peak, avg, whole := parseRPSCell(raw)
		pt.PeakRPS, pt.AvgRPS = peak, avg
		if !whole {
			keepRaw("RPS", raw)
			p.note(rc.line, "pattern %d: the RPS %q was not read in full; it was kept in the design considerations", pt.Number, markdown.Unescape(raw))
		}
	}
	for _, c := range []struct {
		col    string
		target **float64
		label  string
	}{{"peak", &pt.PeakRPS, "Peak RPS"}, {"avg", &pt.AvgRPS, "Average RPS"}} {
		raw := rc.get(c.col)
		if raw == "" {
			continue
		}
		if v, err := designer.ParseRPS(markdown.Unescape(raw)); err == nil && *c.target == nil {
			*c.target = v
		} else {
			keepRaw(c.label, raw)
			p.note(rc.line, "pattern %d: %s %q was kept in the design considerations", pt.Number, c.label, markdown.Unescape(raw))
		}
	}

	if raw := rc.get("type"); raw != "" {
		plain := markdown.Unmark.Replace(markdown.Unescape(raw))
		t, err := designer.ParsePatternType(plain)
		switch {
		case err != nil:
			keepRaw("Type", raw)
			p.note(rc.line, "pattern %d: type %q is neither Read nor Write; it was kept in the design considerations", pt.Number, plain)
		case t == "" && strings.EqualFold(strings.TrimSpace(plain), "none"):
			p.note(rc.line, "pattern %d has type None (no database operation); it is stored without a type", pt.Number)
		}
		pt.Type = t
	}
	pt.Attributes = markdown.ParseList(rc.get("attributes"))

	var kr keyRequirements
	kr.parse(rc.get("keyreq"))
	pt.LatencySLO, pt.Consistency, pt.ResultBound, pt.SizeBand, pt.KeyNotes = kr.latency, kr.consistency, kr.result, kr.size, kr.notes
	if kr.notes != "" {
		p.note(rc.line, "pattern %d: %q in Key Requirements is not a latency, consistency, result bound or item size; it was kept as the pattern's other key requirements", pt.Number, kr.notes)
	}

	cons := rc.get("considerations")
	stated := false
	if parts := markdown.SplitBreaks(cons); len(parts) > 0 && isEntitiesLine(parts[len(parts)-1]) {
		last := strings.TrimSpace(parts[len(parts)-1])
		pt.Entities = markdown.ParseList(last[len("entities:"):])
		cons = strings.Join(parts[:len(parts)-1], "<br>")
		stated = true
	}
	if raw := rc.get("entities"); raw != "" && len(pt.Entities) == 0 {
		pt.Entities = markdown.ParseList(raw)
		stated = true
	}
	p.patternRows = append(p.patternRows, patternSource{line: rc.line, entitiesStated: stated})
	extra = append(extra, rc.extra...)
	texts := []string{}
	if c := markdown.Unescape(cons); c != "" {
		texts = append(texts, c)
	}
	for _, e := range extra {
		texts = append(texts, markdown.Unescape(e))
	}
	pt.Considerations = strings.Join(texts, "\n")

	pt.Status = designer.StatusOpen
	if raw := rc.get("status"); raw != "" {
		st, err := designer.ParseStatus(markdown.Unescape(raw))
		if err != nil {
			p.note(rc.line, "pattern %d: status %q is not one of ✅ ⏳ ❌ ⚠️; it was set to ⏳ and the text kept in the design considerations", pt.Number, markdown.Unescape(raw))
			pt.Considerations = strings.TrimSpace(pt.Considerations + "\nStatus: " + markdown.Unescape(raw))
		} else {
			pt.Status = st
		}
	}
	if p.numbers == nil {
		p.numbers = map[int]bool{}
	}
	p.numbers[pt.Number] = true
	p.maxNumber = max(p.maxNumber, pt.Number)
	p.d.Patterns = append(p.d.Patterns, pt)
}

var (
	rpsNumber     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+`) })
	rpsNoiseWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:rps|qps|req/s|requests per second|requests/s|peak|max|avg|average|mean|and|about|approx|at|per second)\b|[~≈/,:()\-–]`)
	})
)

// parseRPSCell reads "500 peak / 120 avg RPS", "500 RPS", "120 avg RPS" and looser spellings
// ("Peak: 500, Avg: 120", "500/120"). whole is false when words other than units and labels were
// left over, or numbers could not be placed.
func parseRPSCell(raw string) (peak, avg *float64, whole bool) {
	if peak, avg, ok := exportedRPS(raw); ok {
		return peak, avg, true
	}
	s := markdown.Unescape(raw)
	locs := rpsNumber().FindAllStringIndex(s, -1)
	if len(locs) == 0 || len(locs) > 2 || negativeRPS(s, locs) {
		return nil, nil, false
	}
	whole = strings.TrimSpace(rpsNoiseWords().ReplaceAllString(rpsNumber().ReplaceAllString(s, " "), " ")) == ""
	lower := strings.ToLower(s)
	// Labels follow their numbers ("500 peak / 120 avg") unless the text starts with one
	// ("Peak: 500, Avg: 120").
	labelsFirst := rpsLabel(lower[:locs[0][0]]) != ""
	for i, loc := range locs {
		v, err := designer.ParseRPS(s[loc[0]:loc[1]])
		if err != nil || v == nil {
			whole = false
			continue
		}
		// A label belongs to the number it follows ("500 peak") or, failing that, precedes
		// ("Peak: 500").
		after := lower[loc[1]:]
		if i+1 < len(locs) {
			after = lower[loc[1]:locs[i+1][0]]
		}
		before := lower[:loc[0]]
		if i > 0 {
			before = lower[locs[i-1][1]:loc[0]]
		}
		label := rpsLabel(after)
		if labelsFirst {
			label = rpsLabel(before)
		}
		switch {
		case label == "avg" && avg == nil:
			avg = v
		case label == "peak" && peak == nil:
			peak = v
		case label == "" && peak == nil:
			peak = v
		case label == "" && avg == nil:
			avg = v
		default:
			whole = false
		}
	}
	return peak, avg, whole
}

// negativeRPS reports whether a number of an RPS cell has a minus sign: a "-" before it that
// does not join it to a number before ("100-200"). A design holds no negative rate, and reading
// "-5" as 5 would repair the cell silently; it is kept as text instead.
func negativeRPS(s string, locs [][]int) bool {
	for _, loc := range locs {
		before := strings.TrimRight(s[:loc[0]], " ")
		if !strings.HasSuffix(before, "-") && !strings.HasSuffix(before, "−") {
			continue
		}
		before = strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(before, "-"), "−"), " ")
		if before == "" || !('0' <= before[len(before)-1] && before[len(before)-1] <= '9') {
			return true
		}
	}
	return false
}

// exportedRPS reads the three forms Export writes, without regular expressions.
func exportedRPS(s string) (peak, avg *float64, ok bool) {
	body, ok := strings.CutSuffix(s, " RPS")
	if !ok {
		return nil, nil, false
	}
	if p, a, found := strings.Cut(body, " peak / "); found {
		a, found = strings.CutSuffix(a, " avg")
		peak, avg = plainNumber(p), plainNumber(a)
		return peak, avg, found && peak != nil && avg != nil
	}
	if a, found := strings.CutSuffix(body, " avg"); found {
		avg = plainNumber(a)
		return nil, avg, avg != nil
	}
	peak = plainNumber(body)
	return peak, nil, peak != nil
}

// plainNumber reads digits with at most one decimal point, as formatNumber writes them.
func plainNumber(s string) *float64 {
	if s == "" || strings.Count(s, ".") > 1 || strings.Trim(s, "0123456789.") != "" || s == "." {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &v
}

func rpsLabel(s string) string {
	switch {
	case strings.Contains(s, "peak") || strings.Contains(s, "max"):
		return "peak"
	case strings.Contains(s, "avg") || strings.Contains(s, "average") || strings.Contains(s, "mean"):
		return "avg"
	}
	return ""
}

var flagGroup = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\(([a-z, -]*)\)$`) })

// splitFlags cuts the trailing "(bounded, identifying)" from an escaped Relationship cell.
func splitFlags(cell string) (rel string, bounded, identifying *bool, ok bool) {
	m := flagGroup().FindStringSubmatchIndex(cell)
	if m == nil {
		return cell, nil, nil, false
	}
	for _, f := range strings.Split(cell[m[2]:m[3]], ",") {
		f = strings.TrimSpace(f)
		yes, no := true, false
		switch {
		case f == "":
		case f == "bounded" && bounded == nil:
			bounded = &yes
		case f == "unbounded" && bounded == nil:
			bounded = &no
		case f == "identifying" && identifying == nil:
			identifying = &yes
		case f == "non-identifying" && identifying == nil:
			identifying = &no
		default:
			return cell, nil, nil, false
		}
	}
	return cell[:m[0]], bounded, identifying, true
}

func (p *parser) consolidationRow(rc rowCells) {
	c := designer.ConsolidationReview{
		Parent: markdown.OneLine(markdown.Unescape(rc.get("parent"))),
		Child:  markdown.OneLine(markdown.Unescape(rc.get("child"))),
	}
	var extra []string
	rel, bounded, identifying, _ := splitFlags(rc.get("relationship"))
	c.Relationship, c.Bounded, c.Identifying = markdown.Unescape(rel), bounded, identifying
	if raw := rc.get("overlap"); raw != "" {
		v := percentOf(strings.TrimSpace(markdown.Unescape(raw)))
		if v == nil {
			if m := correlationValue().FindStringSubmatch(markdown.Unescape(raw)); m != nil {
				v = percentOf(m[1])
			}
			extra = append(extra, "Access Overlap: "+markdown.Unescape(raw))
			p.note(rc.line, "consolidation %s → %s: access overlap %q was kept in the justification", c.Parent, c.Child, markdown.Unescape(raw))
		}
		c.OverlapPct = v
	}
	if raw := markdown.Unescape(rc.get("decision")); raw != "" {
		dec, whole := parseConsolidationCell(raw)
		c.Decision = dec
		if !whole {
			extra = append(extra, "Consolidation Decision: "+raw)
			p.note(rc.line, "consolidation %s → %s: decision %q was kept in the justification", c.Parent, c.Child, raw)
		}
	}
	texts := []string{}
	if j := markdown.Unescape(rc.get("justification")); j != "" {
		texts = append(texts, j)
	}
	texts = append(texts, extra...)
	for _, e := range rc.extra {
		texts = append(texts, markdown.Unescape(e))
	}
	c.Justification = strings.Join(texts, "\n")
	p.d.Consolidations = append(p.d.Consolidations, c)
}

// parseConsolidationCell reads "✅ Consolidate", "❌ Separate" and the template's placeholder
// "✅/❌ Consolidate/Separate" (which decides nothing).
func parseConsolidationCell(raw string) (string, bool) {
	t := strings.TrimSpace(raw)
	mark := ""
	for _, m := range []string{"✅", "❌"} {
		if rest, ok := strings.CutPrefix(t, m); ok {
			mark, t = m, strings.TrimSpace(rest)
			break
		}
	}
	if dec, err := designer.ParseConsolidationDecision(t); err == nil {
		if dec == "" {
			switch mark {
			case "✅":
				dec = designer.Consolidate
			case "❌":
				dec = designer.Separate
			}
		}
		return dec, true
	}
	l := strings.ToLower(t)
	switch {
	case strings.Contains(l, "consolidat") && !strings.Contains(l, "separate"):
		return designer.Consolidate, false
	case strings.Contains(l, "separate") && !strings.Contains(l, "consolidat"):
		return designer.Separate, false
	}
	return "", false
}
