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

// servedBullet is a bullet as written, with its line, read once the whole document is: an "Access
// Patterns Served" bullet, which Dynaloom writes from the mapping, so it is read only to compare,
// or a TTL bullet's explanation, which goes to the TTL attribute's description.
type servedBullet struct {
	line  int
	text  string // the value, unescaped
	lines string // the bullet as written, kept as prose when it says more than the list
}

func (b *servedBullet) add(it markdown.Item, f fieldItem) {
	if b.line == 0 {
		b.line = it.Line
	}
	appendText(&b.text, f.full())
	if b.lines != "" {
		b.lines += "\n"
	}
	b.lines += it.Text()
}

var (
	servedParens = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\([^()]*\)`) })
	servedWords  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bpatterns?\b|#|\bAPs?\b|\bAP(\d)|\band\b|[,;:.]`)
	})
	servedDash  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*(?:-|–|\bto\b)\s*`) })
	servedRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d{1,6})(?:-(\d{1,6}))?$`) })
)

// servedNumbers reads a list of patterns: "Pattern #1, #3, #7", "AP1-7 (user management),
// AP29-37", "Patterns 2 and 5". A pattern's label in parentheses is its description, which the
// mapping holds. It fails on any other word.
func servedNumbers(text string) ([]int, bool) {
	s := servedParens().ReplaceAllString(text, " ")
	s = servedWords().ReplaceAllString(s, " ${1}")
	s = servedDash().ReplaceAllString(s, "-")
	var out []int
	for _, tok := range strings.Fields(s) {
		m := servedRange().FindStringSubmatch(tok)
		if m == nil {
			return nil, false
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
		}
		if hi < lo || hi-lo > maxRange {
			return nil, false
		}
		for n := lo; n <= hi; n++ {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), len(out) > 0
}

// servedBy are the numbers of the patterns whose operations target a table or index.
func servedBy(patterns []designer.Pattern, table, index string) []int {
	var out []int
	for _, p := range patterns {
		if p.Number >= 1 && slices.ContainsFunc(p.Mapping.Operations, func(op designer.Operation) bool { return op.Table == table && op.Index == index }) {
			out = append(out, p.Number)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// placeServed settles an "Access Patterns Served" bullet once the mapping's targets are known. A
// bullet that lists just the patterns the mapping gives is what the export writes, and is not kept
// (with a note when its wording was more than the list). Any other bullet stays as prose under its
// table or index, as written, with a note naming its line: before, it was copied into the
// capacity notes and written twice.
func (p *parser) placeServed(d *designer.Design, b servedBullet, table, index string, local bool) {
	if b.line == 0 {
		return
	}
	what := "table " + table
	title := tableProseTitle(table)
	if index != "" {
		what = "index " + index
		title = indexProseTitle(table, index, local)
	}
	got, listOnly := servedNumbers(b.text)
	want := servedBy(d.Patterns, table, index)
	switch {
	case listOnly && slices.Equal(got, want):
		if b.text != servedText(d.Patterns, table, index) {
			p.note(b.line, "%s: Access Patterns Served lists the patterns the mapping gives it; Dynaloom writes that list from the mapping", what)
		}
		return
	case listOnly:
		p.note(b.line, "%s: Access Patterns Served lists %s, but the mapping gives it %s; the bullet was kept as prose", what, numberList(got), numberList(want))
	default:
		p.note(b.line, "%s: Access Patterns Served says more than a list of patterns; the bullet was kept as prose (Dynaloom writes the list from the mapping)", what)
	}
	keepUnder(d, title, b.lines)
}

// keepUnder adds text, as written, to the prose kept under a table or index (its section titled
// title), after what is there.
func keepUnder(d *designer.Design, title, text string) {
	for i, s := range d.Prose.Sections {
		if s.Title == title {
			d.Prose.Sections = slices.Clone(d.Prose.Sections)
			d.Prose.Sections[i].Body += "\n\n" + text
			return
		}
	}
	d.Prose.Sections = append(d.Prose.Sections, designer.Section{Title: designer.TruncateRunes(title, designer.MaxNameLen), Body: text})
}

// numberList writes pattern numbers with runs as ranges: "pattern #1-7, #29".
func numberList(ns []int) string {
	if len(ns) == 0 {
		return "no pattern"
	}
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		part := "#" + strconv.Itoa(ns[i])
		if j > i {
			part += "-" + strconv.Itoa(ns[j])
		}
		parts = append(parts, part)
		i = j + 1
	}
	return "pattern " + strings.Join(parts, ", ")
}
