package designertest

import (
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// Spelling rewrites a markdown document as a person might have written it, keeping what it means:
// a reader must take both for the same document.
type Spelling struct {
	Name    string
	Rewrite func(doc string) string
	// Prose is text the rewritten document holds that a reader keeps as prose, "" when the
	// rewrite adds nothing.
	Prose string
}

var (
	atxHeading = regexp.MustCompile(`(?m)^(#{1,2}) (.+)$`)
	boldBullet = regexp.MustCompile(`(?m)^(\s*- )\*\*([^*_\\]+)\*\*`)
	dashBullet = regexp.MustCompile(`(?m)^(\s*)- `)
	// outerPipes is a table row whose first and last cells are not empty: only then are its
	// outer pipes optional.
	outerPipes = regexp.MustCompile(`(?m)^\|(\s*[^|\s].*[^|\s\\]\s*)\|$`)
)

// Fake is a table with the value FAKE, which the spellings that hide a table put in a comment or
// a code fence: a design read from the document must not hold FAKE.
const Fake = "FAKE"

// MarkdownSpellings are the spellings of a document: setext headings, "__bold__" labels, "*"
// and "+" bullets, tables without outer pipes, a table commented out and a table in a code
// fence, each put after the first match of anchor, and all of them at once. table is a table
// whose cells say FAKE, written as the document's own would be.
func MarkdownSpellings(anchor *regexp.Regexp, table string) []Spelling {
	after := func(block string) func(string) string {
		return func(doc string) string {
			loc := anchor.FindStringIndex(doc)
			if loc == nil {
				return doc
			}
			return doc[:loc[1]] + "\n\n" + block + "\n" + doc[loc[1]:]
		}
	}
	fenced := "```\n" + table + "\n```"
	return []Spelling{
		{Name: "setext headings", Rewrite: setextHeadings},
		{Name: "__bold__ labels", Rewrite: underscoreBold},
		{Name: "* and + bullets", Rewrite: starsAndPluses},
		{Name: "tables without outer pipes", Rewrite: withoutOuterPipes},
		{Name: "a commented-out table", Rewrite: after("<!--\n" + table + "\n-->")},
		{Name: "a table in a code fence", Rewrite: after(fenced), Prose: fenced},
		{Name: "all of them at once", Rewrite: func(doc string) string {
			return after("<!-- " + table + " -->")(setextHeadings(underscoreBold(starsAndPluses(withoutOuterPipes(doc)))))
		}},
	}
}

// markerLine matches the comments a data model export writes as markers around what it computed
// (its hot-partition lines and its Cost Report), which the import reads as markers, not as
// comments it skips.
var markerLine = regexp.MustCompile(`(?m)^<!-- (computed by Dynaloom:[^>]*|end computed|end-cost-report) -->$`)

func withoutMarkers(doc string) string { return markerLine.ReplaceAllString(doc, "") }

func setextHeadings(doc string) string {
	return atxHeading.ReplaceAllStringFunc(doc, func(h string) string {
		m := atxHeading.FindStringSubmatch(h)
		under := "="
		if m[1] == "##" {
			under = "-"
		}
		return "\n" + m[2] + "\n" + strings.Repeat(under, len(m[2]))
	})
}

func underscoreBold(doc string) string { return boldBullet.ReplaceAllString(doc, "${1}__${2}__") }

func starsAndPluses(doc string) string {
	n := 0
	return dashBullet.ReplaceAllStringFunc(doc, func(m string) string {
		n++
		if n%2 == 0 {
			return strings.TrimSuffix(m, "- ") + "* "
		}
		return strings.TrimSuffix(m, "- ") + "+ "
	})
}

func withoutOuterPipes(doc string) string { return outerPipes.ReplaceAllString(doc, "$1") }

// AssertSameReading checks that got, read from the spelling sp of the document want was read
// from, is the same design. Prose is kept as written, so only its titles are compared; a fenced
// table must be kept in it, and a hidden table must be data nowhere.
func AssertSameReading(t testing.TB, want, got designer.Design, sp Spelling, variant string) {
	t.Helper()
	if sp.Prose != "" {
		kept := false
		for _, s := range got.Prose.Sections {
			kept = kept || strings.Contains(s.Body, sp.Prose)
		}
		if !kept {
			t.Errorf("the fenced table is not kept as prose: %+v", got.Prose.Sections)
		}
		got.Prose = want.Prose
	} else if strings.Contains(string(MustMarshal(t, got)), Fake) {
		t.Errorf("the commented-out table was read")
	}
	got.Prose, want.Prose = withoutBodies(got.Prose), withoutBodies(want.Prose)
	a, b := MustMarshal(t, want), MustMarshal(t, got)
	if strings.Contains(string(b), Fake) {
		t.Errorf("the hidden table became data")
	}
	if string(a) != string(b) {
		t.Errorf("the design differs: %s\n--- document ---\n%s", FirstDifference(a, b), variant)
	}
}

// withoutBodies is prose with its titles, and "…" for each text under them.
func withoutBodies(p designer.Prose) designer.Prose {
	mark := func(s string) string {
		if s == "" {
			return ""
		}
		return "…"
	}
	out := designer.Prose{DesignPhilosophy: mark(p.DesignPhilosophy), AggregateDecisions: mark(p.AggregateDecisions),
		HotPartitions: mark(p.HotPartitions), TradeOffs: mark(p.TradeOffs)}
	for _, s := range p.Sections {
		s.Body = mark(s.Body)
		out.Sections = append(out.Sections, s)
	}
	return out
}

// AssertEverySpellingReadsTheSame reads each document, then each of its spellings (MarkdownSpellings
// of anchor and table), with read, and requires the same design from every spelling, a note for a
// skipped HTML comment exactly where the spelling holds one.
func AssertEverySpellingReadsTheSame(t *testing.T, docs []string, anchor *regexp.Regexp, table string,
	read func([]byte) (designer.Design, []designer.ImportNote, error)) {
	t.Helper()
	for _, doc := range docs {
		want, _, err := read([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range MarkdownSpellings(anchor, table) {
			t.Run(want.Name+"/"+sp.Name, func(t *testing.T) {
				variant := sp.Rewrite(doc)
				if variant == doc {
					t.Fatal("the rewrite changed nothing")
				}
				got, notes, err := read([]byte(variant))
				if err != nil {
					t.Fatalf("%v\n%s", err, variant)
				}
				if commented := strings.Contains(withoutMarkers(variant), "<!--"); HasNote(notes, "HTML comment was skipped") != commented {
					t.Errorf("a note of the skipped comment: %v, want %v", !commented, commented)
				}
				AssertSameReading(t, want, got, sp, variant)
			})
		}
	}
}
