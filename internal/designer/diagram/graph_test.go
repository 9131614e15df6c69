package diagram_test

import (
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/diagram"
)

func lines(n diagram.Node) []string {
	var out []string
	for _, l := range n.Lines {
		out = append(out, strings.TrimSpace(l.Text))
	}
	return out
}

func node(t *testing.T, g diagram.Graph, id string) diagram.Node {
	t.Helper()
	n, ok := g.NodeByID(id)
	if !ok {
		t.Fatalf("no node %q in the %s graph", id, g.Kind)
	}
	return n
}

func TestEntities_hr(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	g := diagram.Entities(d)
	if len(g.Nodes) != len(d.Entities) {
		t.Fatalf("%d nodes for %d entities", len(g.Nodes), len(d.Entities))
	}
	emp := node(t, g, "entity:Employee")
	if emp.Title != "Employee" || emp.Path != "entities/Employee" {
		t.Errorf("Employee node = %+v", emp)
	}
	// Its key attribute is the one its key templates name; the rest are counted.
	if got := lines(emp); len(got) != 2 || got[0] != "emp_no N" || !emp.Lines[0].Key || !strings.HasSuffix(got[1], "more attributes") {
		t.Errorf("Employee lines = %q", got)
	}
	assign := node(t, g, "entity:DepartmentAssignment")
	if got := lines(assign); !slices.Contains(got, "assigned_dept_no S") || !slices.Contains(got, "from_date S") {
		t.Errorf("DepartmentAssignment lines = %q, want its SK template's attributes", got)
	}
	// Relationships are lines with their kind and counts; every one of the design is drawn.
	if len(g.Edges) != len(d.Relationships) {
		t.Fatalf("%d edges for %d relationships", len(g.Edges), len(d.Relationships))
	}
	var deptEmp diagram.Edge
	for _, e := range g.Edges {
		if e.From == "entity:Department" && e.To == "entity:Employee" {
			deptEmp = e
		}
	}
	if !strings.HasPrefix(deptEmp.Label, "1:M avg ") || !strings.Contains(deptEmp.Label, " max ") || !strings.HasPrefix(deptEmp.Path, "relationships/") {
		t.Errorf("Department → Employee edge = %+v", deptEmp)
	}
	// The two item-collection decisions are two groups; the separate-table ones are none.
	if len(g.Groups) != 2 {
		t.Fatalf("groups = %+v, want 2", g.Groups)
	}
	if emp.Group == "" || emp.Group != assign.Group || node(t, g, "entity:SalaryRecord").Group != "" {
		t.Errorf("groups: Employee %q, DepartmentAssignment %q, SalaryRecord %q", emp.Group, assign.Group, node(t, g, "entity:SalaryRecord").Group)
	}
	if dept := node(t, g, "entity:Department"); dept.Group == emp.Group || dept.Group != node(t, g, "entity:DepartmentManager").Group {
		t.Errorf("Department's group %q, Employee's %q", dept.Group, emp.Group)
	}
}

func TestEntities_aggregatesSharingAnEntityAreOneGroup(t *testing.T) {
	t.Parallel()
	d := designer.Normalize(designer.Design{
		Entities: []designer.Entity{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}},
		Aggregates: []designer.AggregateAnalysis{
			{EntityA: "A", EntityB: "B", Decision: designer.SingleItem},
			{EntityA: "C", EntityB: "B", Decision: designer.ItemCollection},
			{EntityA: "C", EntityB: "D", Decision: designer.SeparateTables},
			{EntityA: "A", EntityB: "Gone", Decision: designer.ItemCollection},
		},
	})
	g := diagram.Entities(d)
	a, b, c, dd := node(t, g, "entity:A"), node(t, g, "entity:B"), node(t, g, "entity:C"), node(t, g, "entity:D")
	if len(g.Groups) != 1 || a.Group == "" || a.Group != b.Group || b.Group != c.Group || dd.Group != "" {
		t.Errorf("groups %+v: A %q B %q C %q D %q", g.Groups, a.Group, b.Group, c.Group, dd.Group)
	}
	if !strings.Contains(g.Groups[0].Title, "single item and item collection") {
		t.Errorf("group title = %q", g.Groups[0].Title)
	}
}

func TestModelMap_hr(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	p3 := designertest.Pattern(t, d, 3)
	g := diagram.ModelMap(d, diagram.Marks{p3.ID: "MAP009: returns other items than expected"})
	employee := node(t, g, "table:Employee")
	got := lines(employee)
	for _, want := range []string{"PK emp_no SK record_key", "Employee", "PK = <emp_no>", "SK = PROFILE", "DepartmentAssignment", "SK = DEPT#<from_date>#<assigned_dept_no>"} {
		if !slices.Contains(got, want) {
			t.Errorf("table Employee lines %q lack %q", got, want)
		}
	}
	byDept := node(t, g, "index:Employee/EmployeesByDepartment")
	if byDept.Title != "GSI EmployeesByDepartment" || byDept.Group != employee.Group || byDept.Path != "tables/Employee/indexes/EmployeesByDepartment" {
		t.Errorf("index node = %+v (table's group %q)", byDept, employee.Group)
	}
	if got := lines(byDept); got[0] != "PK dept_no SK emp_no" || !strings.HasPrefix(got[1], "projects INCLUDE first_name") || !slices.Contains(got, "sparse") {
		t.Errorf("index lines = %q", got)
	}
	// Pattern 3 is marked, and so is its line; its line goes to the index its Query uses.
	n3 := node(t, g, diagram.PatternNodeID(p3.ID))
	if n3.Flag == "" || !strings.HasPrefix(n3.Title, "#3 ") || n3.Path != "access_patterns/3/mapping" {
		t.Errorf("pattern 3 node = %+v", n3)
	}
	for _, e := range g.Edges {
		if e.From != n3.ID {
			if e.Flag != "" {
				t.Errorf("edge %s is marked: %q", e.ID, e.Flag)
			}
			continue
		}
		if e.To != "index:Employee/EmployeesByDepartment" || e.Flag == "" || e.Write {
			t.Errorf("pattern 3's edge = %+v", e)
		}
	}
	// Writes are dashed, reads solid; the thickness follows the peak RPS.
	for _, p := range d.Patterns {
		for _, e := range g.Edges {
			if e.From != diagram.PatternNodeID(p.ID) {
				continue
			}
			if e.Write != (p.Type == designer.Write) && len(p.Mapping.Operations) == 1 {
				t.Errorf("pattern %d (%s): edge write = %v", p.Number, p.Type, e.Write)
			}
			if want := weightFor(*p.PeakRPS); e.Weight != want {
				t.Errorf("pattern %d at %v RPS: weight %d, want %d", p.Number, *p.PeakRPS, e.Weight, want)
			}
		}
	}
	unmapped := node(t, g, diagram.PatternNodeID(designertest.Pattern(t, d, 16).ID))
	if !slices.Contains(lines(unmapped), "not mapped") {
		t.Errorf("pattern 16 lines = %q", lines(unmapped))
	}
}

func weightFor(rps float64) int {
	switch {
	case rps < 10:
		return 1
	case rps < 100:
		return 2
	case rps < 1000:
		return 3
	}
	return 4
}

func TestModelMap_longTextIsCut(t *testing.T) {
	t.Parallel()
	d := designer.Normalize(designer.Design{
		Patterns: []designer.Pattern{{Number: 1, Type: designer.Read, Description: strings.Repeat("very long words ", 20)}},
	})
	n := diagram.ModelMap(d, nil).Nodes[0]
	if r := []rune(n.Title); len(r) > 44 || r[len(r)-1] != '…' {
		t.Errorf("title %q (%d characters)", n.Title, len(r))
	}
}

func TestModelMap_aCutTitleKeepsItsWholeText(t *testing.T) {
	t.Parallel()
	long := "List every order of a customer placed in the last thirty days, newest first"
	d := designer.Normalize(designer.Design{Patterns: []designer.Pattern{
		{Number: 1, Type: designer.Read, Description: long}, {Number: 2, Type: designer.Read, Description: "Short"},
	}})
	g := diagram.ModelMap(d, nil)
	if n := g.Nodes[0]; n.Full != "#1 "+long || !strings.HasSuffix(n.Title, "…") {
		t.Errorf("long title: %q, whole %q", n.Title, n.Full)
	}
	if n := g.Nodes[1]; n.Full != "" || n.Title != "#2 Short" {
		t.Errorf("short title: %q, whole %q", n.Title, n.Full)
	}
}

// Every box the two diagrams draw of the gallery's designs can be moved: the move change knows the
// diagrams' node ids, and refuses only boxes they do not draw.
func TestGraphs_everyBoxTheyDrawCanBeMoved(t *testing.T) {
	t.Parallel()
	for name, d := range designertest.Examples(t) {
		for kind, g := range map[string]diagram.Graph{designer.EntityDiagram: diagram.Entities(d), designer.ModelMap: diagram.ModelMap(d, nil)} {
			if len(g.Nodes) == 0 {
				t.Errorf("%s: the %s draws no box", name, kind)
			}
			for _, n := range g.Nodes {
				if err := designer.CheckChange(designer.MoveDiagramNode{Diagram: kind, Node: n.ID, X: 10, Y: 20}, d); err != nil {
					t.Errorf("%s: moving %s on the %s: %v", name, n.ID, kind, err)
				}
			}
		}
	}
}
