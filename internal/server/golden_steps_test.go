package server

import (
	"bytes"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the golden step pages in testdata")

// goldenTimes are the figures that differ per run: dates and times (as the history and the
// Workbench export write them), how long ago a revision was made, and the clock times a history
// group spans.
var goldenTimes = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)|\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?( UTC)?|\b\d{1,2} [A-Z][a-z]{2} \d{4},? \d\d:\d\d( UTC)?|\b\d+ (second|minute|hour)s? ago\b|\b[A-Z][a-z]{2} \d\d, \d{4}, \d\d:\d\d [AP]M\b|\bjust now\b|class="group-span">[^<]*`)

// normalGolden replaces what varies per run (the design's tokens and id, the times) with stable
// names.
func normalGolden(body string, created createdDesign) string {
	body = strings.NewReplacer(created.EditToken, "EDIT-TOKEN", created.ViewToken, "VIEW-TOKEN", created.ID, "DESIGN-ID").Replace(body)
	return goldenTimes.ReplaceAllStringFunc(body, func(t string) string {
		if strings.HasPrefix(t, "class=") {
			return `class="group-span">TIME`
		}
		return "TIME"
	})
}

// Every step of the HR example, with either link and as a past revision, renders as the golden
// pages in testdata/golden_steps: a refactoring of how steps are listed changes no byte a person
// sees. Run with -update-golden to rewrite them after a change meant to show.
func TestGolden_stepPagesOfTheHRExample(t *testing.T) {
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	pages := []struct{ name, path string }{
		{"overview", ""}, {"entities", "/entities"}, {"patterns", "/patterns"}, {"aggregates", "/aggregates"},
		{"tables", "/tables"}, {"mapping", "/mapping"}, {"capacity", "/capacity"}, {"validation", "/validation"},
		{"export", "/export"}, {"history", "/history"}, {"agenda", "/agenda?step=patterns"},
		{"past-overview", "/history/1"}, {"past-entities", "/history/1/entities"}, {"past-patterns", "/history/1/patterns"},
		{"past-aggregates", "/history/1/aggregates"}, {"past-tables", "/history/1/tables"},
		{"past-mapping", "/history/1/mapping"}, {"past-capacity", "/history/1/capacity"},
		{"past-validation", "/history/1/validation"},
	}
	for _, link := range []struct{ name, token string }{{"edit", created.EditToken}, {"view", created.ViewToken}} {
		for _, p := range pages {
			name := link.name + "-" + p.name
			rec := a.request(http.MethodGet, "/d/"+link.token+p.path, "", nil, "Cookie", participantCookie+"=Ada")
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status %d", name, rec.Code)
				continue
			}
			got := normalGolden(rec.Body.String(), created)
			file := filepath.Join("testdata", "golden_steps", name+".html")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%s: %v (run with -update-golden to write it)", name, err)
			}
			if !bytes.Equal(want, []byte(got)) {
				i := firstDiff(string(want), got)
				t.Errorf("%s differs from %s at byte %d: want %q, got %q", name, file, i, excerpt(string(want), i), excerpt(got, i))
			}
		}
	}
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// excerpt is the text of s around offset i.
func excerpt(s string, i int) string {
	return s[max(0, i-80):min(len(s), i+80)]
}
