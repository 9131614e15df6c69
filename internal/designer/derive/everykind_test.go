package derive

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/designertest"
)

// docExample is one JSON example of docs/changes.md, under the heading of its change kind.
type docExample struct {
	kind, json string
	line       int
}

// changeExamples are every JSON example of docs/changes.md, in the page's order.
func changeExamples(t *testing.T) []docExample {
	t.Helper()
	raw, err := os.ReadFile("../../../docs/changes.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	kind := ""
	var block *strings.Builder
	start := 0
	for i, line := range strings.Split(string(raw), "\n") {
		switch {
		case block != nil && line == "```":
			out = append(out, docExample{kind: kind, json: block.String(), line: start})
			block = nil
		case block != nil:
			block.WriteString(line + "\n")
		case strings.HasPrefix(line, "### "):
			kind = strings.Trim(strings.TrimPrefix(line, "### "), "` ")
		case line == "```json" && kind != "":
			block, start = &strings.Builder{}, i+1
		}
	}
	return out
}

// The net under every incremental result (issue 28): every change kind, by each example of
// docs/changes.md applied in turn to the HR example, changes nothing outside the paths it names
// (Paths drives conflicts, undo, live parts and history), and the revision derived from the one
// before it (findings, questions, checklists, key orders, index views, verdicts, evaluations and
// the capacity report) is what a derivation from nothing gives.
func TestEveryChangeKind_staysInItsPathsAndDerivesAsAfresh(t *testing.T) {
	t.Parallel()
	t.Run("hr", func(t *testing.T) {
		t.Parallel()
		everyKind(t, designertest.HRDesign(t))
	})
	// The HR example beside a design of the load test's shape, so that the same examples run
	// where most of what is derived is taken over from the revision before.
	t.Run("hr+large", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: the HR example alone; the large design's walk takes about 10 s")
		}
		t.Parallel()
		everyKind(t, withLarge(t, designertest.HRDesign(t), designertest.Size{Tables: 4, Items: 400, GSIs: 8, Patterns: 100}))
	})
}

// withLarge is d with the tables, entities and patterns of a Large design of size s added, the
// patterns numbered after d's.
func withLarge(t *testing.T, d designer.Design, s designertest.Size) designer.Design {
	t.Helper()
	l := designertest.Large(s)
	last := 0
	for _, p := range d.Patterns {
		last = max(last, p.Number)
	}
	for i, p := range l.Patterns {
		p.Number = last + 1 + i
		p.ID = fmt.Sprintf("apl%d", p.Number)
		d.Patterns = append(d.Patterns, p)
	}
	d.Entities = append(d.Entities, l.Entities...)
	d.Tables = append(d.Tables, l.Tables...)
	raw, err := designer.MarshalJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	out, err := designer.ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// everyKind walks the examples of docs/changes.md from d.
func everyKind(t *testing.T, d designer.Design) {
	x := New(d, nil)
	warm(x)
	applied := map[string]bool{}
	for _, ex := range changeExamples(t) {
		c, err := designer.UnmarshalChange([]byte(ex.json))
		if err != nil {
			t.Fatalf("docs/changes.md:%d: %v", ex.line, err)
		}
		if ac, ok := c.(designer.AddComment); ok && ac.Author == "" {
			// Whoever makes the change sets its author and time, as the server does.
			ac.Author, ac.At = "Ada", "2026-12-02T10:00:00Z"
			c = ac
		}
		next, err := c.Apply(d)
		if err != nil {
			// An example documented against a state an earlier one changed; the kind is tried
			// by another example, which the count below checks.
			t.Logf("docs/changes.md:%d: %s refused here: %v", ex.line, ex.kind, err)
			continue
		}
		applied[c.Kind()] = true
		paths := c.Paths()
		for _, diff := range designer.Diff(d, next) {
			at := diff.Path
			if id, ok := strings.CutPrefix(diff.Path, "comments/"); ok {
				// A comment's changes name the element it is about: its thread lives there.
				at = commentTarget(d, next, id) + "/comments"
				diff.Path, diff.Field = at, ""
			}
			if diff.Field != "" && diff.Field != "order" {
				at += "/" + strings.ReplaceAll(strings.Split(diff.Field, "[")[0], ".", "/")
			}
			// A change Diff can only place at a list field (an operation's field shows as the
			// pattern's operations) is covered by a path inside that list.
			if !covered(at, paths) && (diff.Field == "" || !slices.ContainsFunc(paths, func(p designer.Path) bool { return strings.HasPrefix(string(p), at+"/") })) {
				t.Errorf("docs/changes.md:%d: %s changed %s (%s %s) outside its paths %q", ex.line, ex.kind, at, diff.Subject, diff.Change, paths)
			}
		}
		d, x = next, New(next, x)
		sameAsCold(t, ex.kind, x)
		if got, want := x.Capacity(), capacity.Compute(d, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("docs/changes.md:%d: %s: the capacity report taken over differs from one worked out afresh", ex.line, ex.kind)
		}
		warm(x)
	}
	var missing []string
	for _, k := range designer.ChangeKinds() {
		if !applied[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("no example of docs/changes.md applies for %d change kinds: %s", len(missing), strings.Join(missing, ", "))
	}
}

// covered reports whether one of paths names at or a part of the design that holds it.
func covered(at string, paths []designer.Path) bool {
	return slices.ContainsFunc(paths, func(p designer.Path) bool { return designer.Path(at).In(p) })
}

// commentTarget is the element the comment id is about, in either design.
func commentTarget(a, b designer.Design, id string) string {
	for _, d := range []designer.Design{a, b} {
		for _, cm := range d.Comments {
			if cm.ID == id {
				return cm.Target
			}
		}
	}
	return "comments/" + id
}
