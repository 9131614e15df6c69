package server

import (
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// revs lists revisions newest first from (minute, author, paths) oldest first, numbered from 2:
// none of them created the design.
func revs(t0 time.Time, entries ...struct {
	min    int
	author string
	paths  []designer.Path
}) []storage.Revision {
	out := make([]storage.Revision, len(entries))
	for i, e := range entries {
		out[len(entries)-1-i] = storage.Revision{Revision: int64(i + 2), Author: e.author, At: t0.Add(time.Duration(e.min) * time.Minute), Paths: e.paths}
	}
	return out
}

type entry = struct {
	min    int
	author string
	paths  []designer.Path
}

func TestWorkingPeriods_aPauseLongerThanTheGapStartsAPeriodAndEachPersonHasOneGroup(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	history := revs(t0,
		entry{0, "Ada", nil}, entry{3, "Bo", nil}, entry{5, "Ada", nil}, // a morning session
		entry{60, "Bo", nil}, entry{75, "Ada", nil}, entry{89, "Bo", nil}, // 55 minutes later, pauses under 15
		entry{104, "Cy", nil}, // 15 minutes later: not more than the gap
	)
	periods := workingPeriods(history, 15*time.Minute)
	if len(periods) != 2 {
		t.Fatalf("%d periods, want 2", len(periods))
	}
	type group struct {
		author string
		revs   []int64
	}
	want := [][]group{
		{{"Cy", []int64{8}}, {"Bo", []int64{7, 5}}, {"Ada", []int64{6}}},
		{{"Ada", []int64{4, 2}}, {"Bo", []int64{3}}},
	}
	for i, p := range periods {
		if len(p.people) != len(want[i]) {
			t.Fatalf("period %d has %d groups, want %v", i, len(p.people), want[i])
		}
		for j, g := range p.people {
			var nums []int64
			for _, r := range g.revs {
				nums = append(nums, r.Revision)
			}
			if g.author != want[i][j].author || len(nums) != len(want[i][j].revs) || nums[0] != want[i][j].revs[0] || nums[len(nums)-1] != want[i][j].revs[len(nums)-1] {
				t.Errorf("period %d group %d: %s %v, want %v", i, j, g.author, nums, want[i][j])
			}
		}
	}
	if got := workingPeriods(history, 10*time.Minute); len(got) != 5 {
		t.Errorf("with a 10-minute gap: %d periods, want 5", len(got))
	}
	if got := workingPeriods(history, 2*time.Hour); len(got) != 1 || len(got[0].revs) != 7 {
		t.Errorf("with a 2-hour gap: %d periods, want one of 7 revisions", len(got))
	}
}

func TestGroupSummary_namesPatternsByNumberInRangesAndTablesByName(t *testing.T) {
	t.Parallel()
	var d designer.Design
	for n := 1; n <= 12; n++ {
		d.Patterns = append(d.Patterns, designer.Pattern{ID: "ap" + string(rune('a'+n)), Number: n})
	}
	ap := func(n int) designer.Path { return designer.Path("access_patterns/ap" + string(rune('a'+n))) }
	t0 := time.Now()
	cases := []struct {
		entries []entry
		want    string
	}{
		{[]entry{
			{0, "Ada", []designer.Path{ap(3) + "/description"}}, {1, "Ada", []designer.Path{ap(4)}}, {1, "Ada", []designer.Path{ap(5)}},
			{2, "Ada", []designer.Path{ap(6) + "/peak_rps"}}, {2, "Ada", []designer.Path{ap(7)}}, {3, "Ada", []designer.Path{"tables/Orders/items/i1"}},
			{3, "Ada", []designer.Path{"tables/Orders/indexes/ByStatus"}}, {4, "Ada", []designer.Path{ap(3)}}, {4, "Ada", []designer.Path{ap(4)}},
			{5, "Ada", []designer.Path{ap(5)}}, {5, "Ada", []designer.Path{ap(6)}}, {6, "Ada", []designer.Path{ap(7)}},
		}, "Ada: 12 changes to patterns 3–7, table Orders"},
		{[]entry{{0, "Bo", []designer.Path{ap(1)}}, {0, "Bo", []designer.Path{ap(2)}}, {0, "Bo", []designer.Path{ap(9)}}}, "Bo: 3 changes to patterns 1, 2, 9"},
		{[]entry{{0, "Cy", []designer.Path{"entities/Order"}}}, "Cy: 1 change to entity Order"},
		{[]entry{{0, "Cy", []designer.Path{"access_patterns/gone"}}, {0, "Cy", []designer.Path{"access_patterns"}}, {0, "Cy", []designer.Path{ap(12) + "/comments"}}},
			"Cy: 3 changes to 1 deleted pattern, comments"},
		{[]entry{{0, "Di", []designer.Path{""}}, {0, "Di", []designer.Path{"overview/domain"}}, {0, "Di", []designer.Path{"tables/A"}},
			{0, "Di", []designer.Path{"tables/B"}}, {0, "Di", []designer.Path{"tables/C"}}, {0, "Di", []designer.Path{"tables/D"}}, {0, "Di", []designer.Path{"aggregates"}}},
			"Di: 7 changes to the whole design, the overview, aggregates, tables A, B, C and 1 more"},
		{[]entry{{0, "Fay", []designer.Path{"diagrams/entities/entity:Order"}}, {0, "Fay", []designer.Path{"diagrams/model_map/table:Orders"}},
			{0, "Fay", []designer.Path{"diagrams/model_map/index:Orders/ByStatus"}}}, "Fay: 3 changes to the entity diagram, the model map"},
		{[]entry{{0, "Someone", []designer.Path{""}}}, "Someone: created the design"},
		{[]entry{{0, "Someone", []designer.Path{""}}, {1, "Someone", []designer.Path{"name"}}}, "Someone: created the design, then 1 change to the name"},
		{[]entry{{0, "Eve", nil}, {1, "Eve", nil}}, "Eve: created the design, then 1 change"},
	}
	for _, c := range cases {
		h := revs(t0, c.entries...)
		if strings.Contains(c.want, "created") {
			h[len(h)-1].Revision = 1
		}
		g := personGroup{author: h[0].Author, revs: h}
		if got := groupSummary(d, g); got != c.want {
			t.Errorf("summary %q, want %q", got, c.want)
		}
	}
}

func TestHistory_groupsAndGapReadFromThePage(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	edit := "/d/" + created.EditToken
	page := a.request("GET", edit+"/history", "", nil).Body.String()
	for _, want := range []string{"Bob: 1 change to the overview", "Ada: 1 change to the name", `data-testid="gap-pick"`, `value="20" selected`} {
		if !strings.Contains(page, want) {
			t.Errorf("the history lacks %s", want)
		}
	}
	if n := strings.Count(page, `data-testid="period"`); n != 1 {
		t.Errorf("%d working periods for three revisions a moment apart, want 1", n)
	}
	for _, bad := range []string{"0", "x", "1441"} {
		rec := a.request("GET", edit+"/history?gap="+bad, "", nil)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), "gap") {
			t.Errorf("gap=%s: %d %s, want 400 naming gap", bad, rec.Code, rec.Body.String()[:min(200, rec.Body.Len())])
		}
	}
	rec := a.request("GET", edit+"/history/group?author=Ada&from=1&to=3", "", nil)
	if rec.Code != 200 || strings.Count(rec.Body.String(), `data-testid="revision-row"`) != 1 || !strings.Contains(rec.Body.String(), "Orders v2") {
		t.Errorf("Ada's group rows: %d %s", rec.Code, rec.Body)
	}
	if rec := a.request("GET", edit+"/history/group?author=Ada&from=first", "", nil); rec.Code != 400 || !strings.Contains(rec.Body.String(), "from") {
		t.Errorf("a bad from: %d, want 400 naming from", rec.Code)
	}
}
