package designer

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed examples/*.json
var exampleFiles embed.FS

// ErrUnknownExample is returned (wrapped) by ExampleDesign for an id no example has.
var ErrUnknownExample = errors.New("unknown example")

// Example describes one design a new design can start from. ID is the base name of its file in
// examples/, such as "hr-employees".
type Example struct {
	ID      string
	Title   string
	Summary string
	// Teaches names the key design choices the example shows, a few words each.
	Teaches []string
}

// exampleText holds the title, one-line summary and key design choices shown in the gallery, by
// example id.
var exampleText = map[string]struct {
	title, summary string
	teaches        []string
}{
	"hiking-community": {
		title:   "Hiking community",
		summary: "A social app on eight tables: profiles with their reports and reports with their remarks as item collections, an inverted follower index, a sparse index of unseen alerts, and moments deleted by TTL.",
		teaches: []string{"Item collections", "Inverted index", "Sparse GSI", "TTL"},
	},
	"hr-employees": {
		title:   "HR employees",
		summary: "Four tables keyed by employee and department number, INCLUDE-projected GSIs, running totals for dashboards, and salary and title histories.",
		teaches: []string{"Identifying relationships", "INCLUDE projections", "Running totals", "Transactions"},
	},
	"punch-lists": {
		title:   "Renovation punch lists",
		summary: "A to-do API on one table: overloaded keys for contractors, their punch items and request receipts, four sparse GSIs sorting each contractor's items by stage, due date, urgency and trade, and receipts that expire by TTL.",
		teaches: []string{"Single table", "Overloaded keys", "Four sparse GSIs", "Idempotent writes", "TTL"},
	},
	"teacher-pay-scales": {
		title:   "Teacher pay scales",
		summary: "One table of school boards and their pay-grid cells under composite sort keys, five GSIs that compare and rank pay across boards, and import jobs that expire by TTL.",
		teaches: []string{"Single table", "Composite sort keys", "Five GSIs", "TTL"},
	},
}

// Examples lists the bundled examples, sorted by id.
func Examples() []Example {
	names, err := fs.Glob(exampleFiles, "examples/*.json")
	if err != nil {
		panic(fmt.Sprintf("designer: examples glob: %v", err)) // the pattern is a constant
	}
	out := make([]Example, 0, len(names))
	for _, name := range names {
		id := strings.TrimSuffix(path.Base(name), ".json")
		text, ok := exampleText[id]
		if !ok {
			text.title = id
		}
		out = append(out, Example{ID: id, Title: text.title, Summary: text.summary, Teaches: slices.Clone(text.teaches)})
	}
	slices.SortFunc(out, func(a, b Example) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// ExampleDesign returns the design of one example, ready to become a new design.
func ExampleDesign(id string) (Design, error) {
	if !validExampleID(id) {
		return Design{}, fmt.Errorf("example %q: %w", id, ErrUnknownExample)
	}
	data, err := exampleFiles.ReadFile("examples/" + id + ".json")
	if errors.Is(err, fs.ErrNotExist) {
		return Design{}, fmt.Errorf("example %q: %w", id, ErrUnknownExample)
	}
	if err != nil {
		return Design{}, fmt.Errorf("example %q: %w", id, err)
	}
	d, err := ParseJSON(data)
	if err != nil {
		return Design{}, fmt.Errorf("example %q: %w", id, err)
	}
	return d, nil
}

// validExampleID keeps ids to the file names we ship, so "../x" or "a/b" can never reach the file
// system lookup.
func validExampleID(id string) bool {
	if id == "" {
		return false
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
