package rules

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// ticked returns the checklist lines, by the start of their text, and whether each is ticked.
func ticked(items []ChecklistItem) map[string]bool {
	out := make(map[string]bool, len(items))
	for _, it := range items {
		out[it.Item] = it.OK
	}
	return out
}

func checklistLine(tb testing.TB, items []ChecklistItem, prefix string) bool {
	tb.Helper()
	for _, it := range items {
		if strings.HasPrefix(it.Item, prefix) {
			return it.OK
		}
	}
	tb.Fatalf("no checklist line starts with %q", prefix)
	return false
}

func TestBuildChecklists_seedLinesInOrder(t *testing.T) {
	t.Parallel()
	c := BuildChecklists(designer.Design{}, nil)
	if len(c.Requirements) != 10 || len(c.DataModel) != 11 {
		t.Fatalf("%d requirement and %d data-model lines, want the seed's 10 and 11", len(c.Requirements), len(c.DataModel))
	}
	if c.Requirements[0].Item != "Application domain and scale documented" ||
		c.Requirements[9].Item != "Design considerations captured (subject to final validation)" ||
		c.DataModel[3].Item != "Unnecessary GSIs are removed and solved with an identifying relationship" ||
		c.DataModel[10].Item != "Cross-referenced against `dynamodb_requirement.md` for accuracy" {
		t.Errorf("lines are not the seed's, in its order: %+v", c)
	}
	for _, it := range append(c.Requirements, c.DataModel...) {
		if it.OK {
			t.Errorf("empty design ticks %q: nothing was checked", it.Item)
		}
		if strings.Contains(it.Item, "✅") {
			t.Errorf("line %q keeps the seed's ✅", it.Item)
		}
	}
}

func TestBuildChecklists_example(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	c := BuildChecklists(d, Validate(d))
	for item, ok := range ticked(c.Requirements) {
		if !ok {
			t.Errorf("hr-employees requirement line not ticked: %q", item)
		}
	}
	for item, ok := range ticked(c.DataModel) {
		// Pattern 7 is at risk in the example, so that line alone stays open.
		if want := !strings.HasPrefix(item, "Every access pattern solved"); ok != want {
			t.Errorf("hr-employees data-model line %q ticked = %v, want %v", item, ok, want)
		}
	}
}

func TestBuildChecklists_ticksFollowFindingsAndContent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(d *designer.Design)
		model bool // the line is in the data-model list
		line  string
		want  bool
	}{
		{name: "RPS missing", edit: func(d *designer.Design) { d.Patterns[0].AvgRPS = nil }, line: "Every access pattern has", want: false},
		{name: "key needs missing", edit: func(d *designer.Design) { d.Patterns[3].Consistency = "" }, line: "Every access pattern has", want: false},
		{name: "read without write", edit: func(d *designer.Design) { d.Patterns[14].Type = designer.Read }, line: "Write pattern exists", want: false},
		{name: "read without write, accepted", edit: func(d *designer.Design) {
			d.Patterns[14].Type = designer.Read
			d.Entities[5].AcceptedGaps = []string{designer.GapNoWrite}
		}, line: "Write pattern exists", want: true},
		{name: "untyped pattern is unchecked", edit: func(d *designer.Design) { d.Patterns[0].Type = "" }, line: "Write pattern exists", want: false},
		{name: "justified deviation keeps the tick", edit: func(d *designer.Design) {
			d.Aggregates[2].Decision = designer.SeparateTables
		}, line: "Aggregate boundaries identified", want: true},
		{name: "unjustified deviation unticks", edit: func(d *designer.Design) {
			d.Aggregates[2].Decision, d.Aggregates[2].Justification = designer.SeparateTables, ""
		}, line: "Aggregate boundaries identified", want: false},
		{name: "undecided aggregate", edit: func(d *designer.Design) { d.Aggregates[0].Decision = "" }, line: "Aggregate boundaries identified", want: false},
		{name: "identifying check unanswered", edit: func(d *designer.Design) { d.Aggregates[1].Identifying.ParentIDKnown = nil },
			line: "Identifying relationships checked", want: false},
		{name: "consolidation against the rule", edit: func(d *designer.Design) {
			d.Consolidations[1].Decision, d.Consolidations[1].Justification = designer.Separate, ""
		}, line: "Consolidation framework applied", want: false},
		{name: "no scale", edit: func(d *designer.Design) { d.Overview.Scale = " " }, line: "Application domain and scale", want: false},
		{name: "no hot partition concerns", edit: func(d *designer.Design) { d.Considerations.HotPartitions = "" }, line: "Hot partition risks", want: false},
		{name: "every pattern solved", edit: func(d *designer.Design) { d.Patterns[6].Status = designer.StatusSolved }, model: true,
			line: "Every access pattern solved", want: true},
		{name: "solved without an operation", edit: func(d *designer.Design) {
			d.Patterns[6].Status = designer.StatusSolved
			d.Patterns[0].Mapping.Operations = nil
		}, model: true, line: "Every access pattern solved", want: false},
		{name: "a Scan", edit: func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Op = "Scan" }, model: true,
			line: "No Scans", want: false},
		{name: "an unused GSI", edit: func(d *designer.Design) {
			d.Tables[0].GSIs = append(d.Tables[0].GSIs, designer.Index{Name: "Unused"})
		}, model: true, line: "Unnecessary GSIs", want: false},
		{name: "a GSI named only in per-pattern attributes is used (MOD016)", edit: func(d *designer.Design) {
			d.Tables[0].GSIs = append(d.Tables[0].GSIs, designer.Index{Name: "ByHireDate",
				PartitionKey: []designer.KeyAttribute{{Name: "hire_date", Type: designer.S}}, Projection: designer.Projection{Type: designer.KeysOnly},
				PatternAttributes: []designer.PatternAttributes{{Pattern: 1, Attributes: []string{"hire_date"}}}})
		}, model: true, line: "Unnecessary GSIs", want: true},
		{name: "REQ007 unticks the GSI line", edit: func(d *designer.Design) {
			d.Tables[1].GSIs = []designer.Index{{Name: "ByEmployee"}}
			d.Patterns[7].Mapping.Operations[0].Index = "ByEmployee"
		}, model: true, line: "Unnecessary GSIs", want: false},
		{name: "an unjustified GSI", edit: func(d *designer.Design) { d.Tables[0].GSIs[0].ProjectionWhy = "" }, model: true,
			line: "All tables and GSIs documented", want: false},
		{name: "an operation on an unknown table", edit: func(d *designer.Design) { d.Patterns[0].Mapping.Operations[0].Table = "Nope" }, model: true,
			line: "Cross-referenced", want: false},
		{name: "an outside pattern without notes", edit: func(d *designer.Design) {
			d.Patterns[15].Mapping.Notes, d.Patterns[15].Considerations = "", ""
		}, model: true, line: "Integration patterns", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := designertest.HRDesign(t)
			tt.edit(&d)
			c := BuildChecklists(d, Validate(d))
			list := c.Requirements
			if tt.model {
				list = c.DataModel
			}
			if got := checklistLine(t, list, tt.line); got != tt.want {
				t.Errorf("%q ticked = %v, want %v (findings %q)", tt.line, got, tt.want, findingKeys(Validate(d)))
			}
		})
	}
}
