package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// The history in working periods: a workshop leaves hundreds of revisions, which read better as
// "the morning's session: Ada changed patterns 3–7, Bo table Orders". A pause longer than the gap
// between two revisions starts a new period, and within a period each person's changes make one
// group with a one-line summary. The grouping is worked out from the revisions each time the
// history is shown, never stored.

// defaultGap is the pause, in minutes, that starts a new working period unless the page asks
// for another; gapChoices are the pauses the page offers.
const defaultGap = 20

var gapChoices = []int{5, 10, 20, 30, 60, 120}

// maxGap bounds the pause a page may ask for: a day.
const maxGap = 24 * 60

// workingPeriod is a run of revisions with no pause longer than the gap between two of them.
type workingPeriod struct {
	// revs are the period's revisions, newest first.
	revs []storage.Revision
	// people are the period's groups, the person who changed the design last first.
	people []personGroup
}

// personGroup is one person's revisions within a working period, newest first.
type personGroup struct {
	author string
	revs   []storage.Revision
}

// workingPeriods groups a history listed newest first into working periods of people's changes.
func workingPeriods(revs []storage.Revision, gap time.Duration) []workingPeriod {
	var out []workingPeriod
	for i, r := range revs {
		if i == 0 || revs[i-1].At.Sub(r.At) > gap {
			out = append(out, workingPeriod{})
		}
		p := &out[len(out)-1]
		p.revs = append(p.revs, r)
		at := slices.IndexFunc(p.people, func(g personGroup) bool { return g.author == r.Author })
		if at < 0 {
			p.people = append(p.people, personGroup{author: r.Author})
			at = len(p.people) - 1
		}
		p.people[at].revs = append(p.people[at].revs, r)
	}
	return out
}

// changedWhat words what a group of revisions changed, from their paths: "patterns 3–7, table
// Orders". Patterns are named by their number in d, the design as it is now; one deleted since
// is counted as such.
func changedWhat(d designer.Design, revs []storage.Revision) string {
	var (
		numbers                      []int
		deleted                      int
		entities, tables, others     []string
		parts                        = map[string]bool{}
		patternList, entityList, any bool
	)
	addName := func(list *[]string, name string) {
		if !slices.Contains(*list, name) {
			*list = append(*list, name)
		}
	}
	for _, r := range revs {
		for _, path := range r.Paths {
			any = true
			pp := path.Parts(d)
			if pp.Comments {
				parts["comments"] = true
				continue
			}
			switch pp.Collection {
			case "":
				parts["the whole design"] = true
			case designer.PathName:
				parts["the name"] = true
			case designer.PathOverview:
				parts["the overview"] = true
			case designer.PathEntities:
				if pp.Key != "" {
					addName(&entities, pp.Key)
				} else {
					entityList = true
				}
			case designer.PathPatterns:
				if pp.Key == "" {
					patternList = true
					continue
				}
				if p, _, ok := d.PatternByID(pp.Key); ok {
					if !slices.Contains(numbers, p.Number) {
						numbers = append(numbers, p.Number)
					}
				} else {
					deleted++
				}
			case designer.PathTables:
				if pp.Key != "" {
					addName(&tables, pp.Key)
				} else {
					parts["tables"] = true
				}
			case designer.PathRelationships, designer.PathAggregates, designer.PathConsolidations, designer.PathConsiderations:
				parts[pp.Collection] = true
			case designer.PathDiagrams:
				parts[diagramWords(pp.Key)] = true
			default:
				addName(&others, pp.Collection)
			}
		}
	}
	if !any {
		return ""
	}
	slices.Sort(entities)
	slices.Sort(tables)
	var out []string
	for _, p := range []string{"the whole design", "the name", "the overview"} {
		if parts[p] {
			out = append(out, p)
		}
	}
	switch {
	case len(entities) > 0:
		out = append(out, named("entity", "entities", entities))
	case entityList:
		out = append(out, "entities")
	}
	if parts["relationships"] {
		out = append(out, "relationships")
	}
	switch {
	case len(numbers) > 0:
		out = append(out, patternNumbers(numbers))
	case patternList && deleted == 0:
		out = append(out, "patterns")
	}
	if deleted > 0 {
		out = append(out, plural(deleted, "deleted pattern", "deleted patterns"))
	}
	for _, p := range []string{"aggregates", "consolidations", "considerations"} {
		if parts[p] {
			out = append(out, p)
		}
	}
	switch {
	case len(tables) > 0:
		out = append(out, named("table", "tables", tables))
	case parts["tables"]:
		out = append(out, "tables")
	}
	for _, p := range []string{"the entity diagram", "the model map", "the diagrams", "comments"} {
		if parts[p] {
			out = append(out, p)
		}
	}
	slices.Sort(others)
	return strings.Join(append(out, others...), ", ")
}

// diagramWords names the diagram of kind that a path under "diagrams" touches: its title, or
// "the diagrams" for all of them.
func diagramWords(kind string) string {
	switch kind {
	case designer.EntityDiagram:
		return "the entity diagram"
	case designer.ModelMap:
		return "the model map"
	}
	return "the diagrams"
}

// namedAtMost is how many names a summary lists before counting the rest.
const namedAtMost = 3

// named words a few names of one kind: "table Orders", "tables Orders, Users and 2 more".
func named(one, many string, names []string) string {
	if len(names) == 1 {
		return one + " " + names[0]
	}
	if len(names) <= namedAtMost {
		return many + " " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s %s and %d more", many, strings.Join(names[:namedAtMost], ", "), len(names)-namedAtMost)
}

// patternNumbers words pattern numbers as ranges: "pattern 4", "patterns 3–7, 9".
func patternNumbers(numbers []int) string {
	slices.Sort(numbers)
	if len(numbers) == 1 {
		return "pattern " + strconv.Itoa(numbers[0])
	}
	var ranges []string
	for i := 0; i < len(numbers); {
		j := i
		for j+1 < len(numbers) && numbers[j+1] == numbers[j]+1 {
			j++
		}
		switch {
		case j == i:
			ranges = append(ranges, strconv.Itoa(numbers[i]))
		case j == i+1:
			ranges = append(ranges, strconv.Itoa(numbers[i]), strconv.Itoa(numbers[j]))
		default:
			ranges = append(ranges, strconv.Itoa(numbers[i])+"–"+strconv.Itoa(numbers[j]))
		}
		i = j + 1
	}
	if len(ranges) > 2*namedAtMost {
		return fmt.Sprintf("patterns %s and %d more", strings.Join(ranges[:2*namedAtMost], ", "), len(ranges)-2*namedAtMost)
	}
	return "patterns " + strings.Join(ranges, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// groupSummary is a person's group in one line: "Ada: 12 changes to patterns 3–7, table Orders";
// revision 1, which created the design, is told as such.
func groupSummary(d designer.Design, g personGroup) string {
	revs := slices.DeleteFunc(slices.Clone(g.revs), func(r storage.Revision) bool { return r.Revision == 1 })
	line := g.author + ": "
	if len(revs) < len(g.revs) {
		line += "created the design"
		if len(revs) == 0 {
			return line
		}
		line += ", then "
	}
	line += plural(len(revs), "change", "changes")
	if what := changedWhat(d, revs); what != "" {
		line += " to " + what
	}
	return line
}
