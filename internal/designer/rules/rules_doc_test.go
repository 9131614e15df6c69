package rules

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
)

// rulesDoc is docs/rules.md, from this package's directory.
const rulesDoc = "../../../docs/rules.md"

// docRule is one row of a rule table in docs/rules.md.
type docRule struct {
	code, severity, when string
	heading              string // the section the table is in
	line                 int
}

// readRuleTables parses every table of docs/rules.md whose header is `code | severity | fires when`.
func readRuleTables(t *testing.T) []docRule {
	t.Helper()
	text, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatalf("read the rule catalogue's page: %v", err)
	}
	cells := func(line string) []string {
		parts := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	var rows []docRule
	heading, inTable := "", false
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(line, "#"):
			heading, inTable = strings.TrimSpace(strings.TrimLeft(line, "#")), false
		case !strings.HasPrefix(line, "|"):
			inTable = false
		case inTable:
			c := cells(line)
			if len(c) != 3 {
				t.Errorf("%s:%d has %d cells, want code | severity | fires when: %s", rulesDoc, i+1, len(c), line)
				continue
			}
			rows = append(rows, docRule{code: c[0], severity: c[1], when: c[2], heading: heading, line: i + 1})
		case strings.Join(cells(line), " | ") == "code | severity | fires when":
			inTable = true
			i++ // the |---| line
		}
	}
	return rows
}

func TestRulesDoc_isTheCatalogue(t *testing.T) {
	if designertest.Updating() {
		writeRuleTables(t)
	}
	rows := readRuleTables(t)
	if len(rows) == 0 {
		t.Fatalf("%s has no table headed | code | severity | fires when |", rulesDoc)
	}
	inDoc := map[string]docRule{}
	for _, r := range rows {
		if first, dup := inDoc[r.code]; dup {
			t.Errorf("%s:%d lists %s again (first on line %d)", rulesDoc, r.line, r.code, first.line)
			continue
		}
		inDoc[r.code] = r
	}
	inCode := map[string]int{}
	for i, c := range catalogue {
		inCode[c.code] = i
		r, ok := inDoc[c.code]
		if !ok {
			t.Errorf("%s is in the catalogue but not in %s; add the row | %s | %s | %s |", c.code, rulesDoc, c.code, c.severity, c.when)
			continue
		}
		if r.severity != c.severity {
			t.Errorf("%s:%d gives %s severity %q; the catalogue says %q", rulesDoc, r.line, c.code, r.severity, c.severity)
		}
		if r.when != c.when {
			t.Errorf("%s:%d says %s fires when\n\t%s\nthe catalogue says\n\t%s", rulesDoc, r.line, c.code, r.when, c.when)
		}
	}
	// Each family has one table, under a heading naming it, in catalogue order.
	tableOf := map[string]string{}
	last := -1
	for _, r := range rows {
		i, ok := inCode[r.code]
		if !ok {
			t.Errorf("%s:%d lists %s, which the catalogue does not have", rulesDoc, r.line, r.code)
			continue
		}
		family := strings.TrimRight(r.code, "0123456789")
		if !strings.Contains(r.heading, "("+family+")") {
			t.Errorf("%s:%d lists %s under %q, a heading that does not name %s", rulesDoc, r.line, r.code, r.heading, family)
		}
		if h, seen := tableOf[family]; seen && h != r.heading {
			t.Errorf("%s:%d lists %s under %q; the %s rules are under %q", rulesDoc, r.line, r.code, r.heading, family, h)
		}
		tableOf[family] = r.heading
		if i < last {
			t.Errorf("%s:%d lists %s after %s; the catalogue runs them the other way round", rulesDoc, r.line, r.code, catalogue[last].code)
		}
		last = max(last, i)
	}
}

func TestCatalogue_everyRowSaysWhenItFires(t *testing.T) {
	t.Parallel()
	for _, c := range catalogue {
		for _, s := range severities(c.severity) {
			if s != SeverityError && s != SeverityWarning && s != SeverityInfo {
				t.Errorf("%s has severity %q; a finding is %s, %s or %s", c.code, c.severity, SeverityError, SeverityWarning, SeverityInfo)
			}
		}
		// The text is a cell of a markdown table: one line, no bar.
		if strings.TrimSpace(c.when) == "" || strings.ContainsAny(c.when, "|\n") {
			t.Errorf("%s fires when %s; want one line of text without |", c.code, strconv.Quote(c.when))
		}
	}
}

// writeRuleTables rewrites the rows of each family's table in docs/rules.md (the table under the
// heading that names the family, "(REQ)") from the catalogue, and leaves every other line as it is.
func writeRuleTables(t *testing.T) {
	t.Helper()
	text, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	family, skipping := "", false
	for line := range strings.SplitSeq(string(text), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "#"):
			family, skipping = "", false
			if open := strings.LastIndex(trimmed, "("); open >= 0 && strings.HasSuffix(trimmed, ")") {
				family = trimmed[open+1 : len(trimmed)-1]
			}
		case skipping && strings.HasPrefix(trimmed, "|"):
			continue
		case skipping:
			skipping = false
		case trimmed == "|---|---|---|" && family != "":
			out = append(out, line)
			for _, c := range catalogue {
				if strings.TrimRight(c.code, "0123456789") == family {
					out = append(out, "| "+c.code+" | "+c.severity+" | "+c.when+" |")
				}
			}
			skipping = true
			continue
		}
		out = append(out, line)
	}
	if err := os.WriteFile(rulesDoc, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
