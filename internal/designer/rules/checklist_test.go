package rules

import (
	"slices"
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

// fillChange is the change a person makes by writing in the text field at path, or false when the
// path names no text field of the data model's write-up, a table or an index.
func fillChange(path, text string) (designer.Change, bool) {
	parts := strings.Split(path, "/")
	switch {
	case len(parts) == 2 && parts[0] == "prose":
		return designer.SetProse{Field: parts[1], Value: text}, true
	case len(parts) == 3 && parts[0] == "tables":
		return designer.SetTableField{Table: parts[1], Field: parts[2], Value: text}, true
	case len(parts) == 5 && parts[0] == "tables" && parts[2] == "indexes":
		return designer.SetIndexField{Table: parts[1], Index: parts[3], Field: parts[4], Value: text}, true
	}
	return nil, false
}

// With every narrative section and justification blank, each unticked line names the field that
// ticks it: writing in the fields the lines name, one at a time, ticks them all but the line the
// example leaves open (pattern 7 is at risk), and every line ticked has no path.
func TestBuildChecklists_theFieldNamedTicksTheLine(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d.Prose = designer.Prose{}
	for i := range d.Tables {
		tb := &d.Tables[i]
		tb.Purpose, tb.PartitionKeyWhy, tb.SortKeyWhy, tb.AggregateBoundary, tb.Capacity = "", "", "", "", ""
		for j := range tb.GSIs {
			ix := &tb.GSIs[j]
			ix.Purpose, ix.PartitionKeyWhy, ix.SortKeyWhy, ix.ProjectionWhy = "", "", "", ""
		}
	}
	var filled []string
	for range 100 {
		c := Checklist(d)
		i := slices.IndexFunc(c.DataModel, func(it ChecklistItem) bool {
			return !it.OK && !strings.HasPrefix(it.Item, "Every access pattern solved")
		})
		for _, it := range append(c.Requirements, c.DataModel...) {
			if it.OK == (it.Path != "") {
				t.Fatalf("line %q: ok %v with path %q", it.Item, it.OK, it.Path)
			}
		}
		if i < 0 {
			break
		}
		change, ok := fillChange(c.DataModel[i].Path, "Written by the team.")
		if !ok {
			t.Fatalf("line %q points at %q, which is not a field to write in", c.DataModel[i].Item, c.DataModel[i].Path)
		}
		next, err := change.Apply(d)
		if err != nil {
			t.Fatalf("filling %s for %q: %v", c.DataModel[i].Path, c.DataModel[i].Item, err)
		}
		d = next
		filled = append(filled, c.DataModel[i].Path)
	}
	for _, it := range Checklist(d).DataModel {
		if want := !strings.HasPrefix(it.Item, "Every access pattern solved"); it.OK != want {
			t.Errorf("after filling %q, %q ticked = %v", filled, it.Item, it.OK)
		}
	}
	for _, want := range []string{"prose/design_philosophy", "prose/trade_offs", "tables/Employee/indexes/EmployeesByTitle/partition_key_justification"} {
		if !slices.Contains(filled, want) {
			t.Errorf("the walk never asked for %s: %q", want, filled)
		}
	}
}
