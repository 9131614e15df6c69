package derive

import (
	"maps"
	"reflect"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/rules"
)

// sameAsCold fails unless every part of x is what a Derived made from nothing gives for the same
// design: findings, questions, checklists, every index's view, and every mapped operation's result
// and verdict through x's Cache.
func sameAsCold(t *testing.T, step string, x *Derived) {
	t.Helper()
	d := x.Design()
	cold := New(d, nil)
	if got, want := x.Findings(), rules.Validate(d); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: findings\n got %v\nwant %v", step, got, want)
	}
	if got, want := x.Findings(), cold.Findings(); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: findings differ from a cold Derived's", step)
	}
	for _, limit := range []int{3, 0} {
		if got, want := x.Questions(limit), cold.Questions(limit); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: questions (limit %d)\n got %v\nwant %v", step, limit, got, want)
		}
	}
	if got, want := x.Checklists(), rules.BuildChecklists(d, rules.Validate(d)); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: checklists\n got %v\nwant %v", step, got, want)
	}
	for _, tb := range d.Tables {
		if got, want := x.TableOrder(tb), designer.TableOrder(tb); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: key order of %s\n got %+v\nwant %+v", step, tb.Name, got, want)
		}
		for _, ix := range tb.GSIs {
			if got, want := x.IndexView(tb, ix, false), dynamo.IndexItems(tb, ix, false); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: view of GSI %s on %s\n got %+v\nwant %+v", step, ix.Name, tb.Name, got, want)
			}
		}
		for _, ix := range tb.LSIs {
			if got, want := x.IndexView(tb, ix, true), dynamo.IndexItems(tb, ix, true); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: view of LSI %s on %s\n got %+v\nwant %+v", step, ix.Name, tb.Name, got, want)
			}
		}
	}
	for _, p := range d.Patterns {
		if got, want := x.PatternVerdict(p), cold.PatternVerdict(p); got != want {
			t.Fatalf("%s: pattern %d's verdict is %q, want %q", step, p.Number, got, want)
		}
		for i, op := range p.Mapping.Operations {
			got, want := x.Cache().RunOperation(d, op), dynamo.RunOperation(d, op)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: pattern %d operation %d\n got %+v\nwant %+v", step, p.Number, i, got, want)
			}
			tb, _, ok := d.TableByName(op.Table)
			if !ok {
				continue
			}
			gs, gp := dynamo.Verdict(tb, op, got)
			ws, wp := dynamo.Verdict(tb, op, want)
			if gs != ws || gp != wp {
				t.Fatalf("%s: pattern %d operation %d: verdict %v %v, want %v %v", step, p.Number, i, gs, gp, ws, wp)
			}
		}
	}
}

// warm asks x for every part, as the pages of a revision do before the next edit.
func warm(x *Derived) {
	x.Findings()
	x.Questions(3)
	x.Checklists()
	for _, p := range x.Design().Patterns {
		x.PatternVerdict(p)
	}
	for _, tb := range x.Design().Tables {
		x.TableOrder(tb)
		for _, ix := range tb.GSIs {
			x.IndexView(tb, ix, false)
		}
	}
}

// A Derived made from the previous revision's is the one made from nothing, part for part, after
// each of a run of changes of many kinds to the HR example: item cells that are and are not index
// keys, items added, duplicated, pasted and deleted, patterns, operations and expected results,
// indexes added, reprojected, renamed and deleted, key schemas, attribute types, tables added,
// renamed and deleted. Each revision is made from its predecessor's, whose parts have all been
// asked for (by the comparison), so that everything that can be taken over is.
func TestDerived_fromThePreviousRevisionEqualsOneFromNothing(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	pattern := func(n int) string { return designertest.Pattern(t, d, n).ID }
	item := func(table string, i int) string {
		tb, _, _ := d.TableByName(table)
		return tb.Items[i].ID
	}
	steps := []func() designer.Change{
		func() designer.Change {
			return designer.SetItemCell{Table: "Employee", ID: item("Employee", 0), Attribute: "current_title", Text: "Chief"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Employee", ID: item("Employee", 2), Attribute: "current_title", Text: "Senior Engineer"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Employee", ID: item("Employee", 1), Attribute: "last_name", Text: "Zed"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Employee", ID: item("Employee", 4), Attribute: "last_name", Text: "null"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Employee", ID: item("Employee", 1), Attribute: "first_name", Text: "Ann"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Employee", ID: item("Employee", 0), Attribute: "dept_no", Text: ""}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Department", ID: item("Department", 0), Attribute: "dept_name", Text: "R&D"}
		},
		func() designer.Change {
			return designer.SetPatternField{ID: pattern(3), Field: "description", Value: "Members of a department"}
		},
		func() designer.Change {
			return designer.SetOperationField{Pattern: pattern(7), Index: 0, Field: "limit", Value: "1"}
		},
		func() designer.Change {
			return designer.ToggleExpected{Pattern: pattern(3), Index: 0, Key: designer.Item{"emp_no": designer.Num("10004"), "record_key": designer.Str("PROFILE")}}
		},
		func() designer.Change {
			return designer.AddItem{Table: "TitleHistory", Item: designer.Item{"emp_no": designer.Num("10001"), "from_date": designer.Str("2030-01-01"), "title": designer.Str("Fellow")}}
		},
		func() designer.Change { return designer.DuplicateItem{Table: "Employee", ID: item("Employee", 2)} },
		func() designer.Change {
			return designer.PasteItems{Table: "SalaryHistory", Text: "emp_no\tfrom_date\tsalary\n10001\t2031-01-01\t99000\n"}
		},
		func() designer.Change {
			return designer.DeleteItems{Table: "Employee", IDs: []string{item("Employee", 3)}}
		},
		func() designer.Change {
			return designer.SetIndexProjection{Table: "Employee", Index: "EmployeesByDepartment", Type: designer.All}
		},
		func() designer.Change {
			return designer.AddIndex{Table: "Department", Name: "ByName", PartitionKey: []designer.KeyAttribute{{Name: "dept_name", Type: designer.S}}}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Department", ID: item("Department", 1), Attribute: "dept_name", Text: "Ops"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "Department", ID: item("Department", 2), Attribute: "dept_name", Text: ""}
		},
		func() designer.Change {
			return designer.RenameIndex{Table: "Department", Index: "ByName", To: "ByDeptName"}
		},
		func() designer.Change { return designer.DeleteIndex{Table: "Department", Index: "ByDeptName"} },
		func() designer.Change {
			return designer.SetIndexKey{Table: "Employee", Index: "EmployeesByTitle", PartitionKey: []designer.KeyAttribute{{Name: "current_title", Type: designer.S}},
				SortKey: []designer.KeyAttribute{{Name: "last_name", Type: designer.S}}}
		},
		func() designer.Change {
			return designer.SetTableAttributeType{Table: "Department", Attribute: "headcount", Type: designer.S}
		},
		func() designer.Change { return designer.AddOperation{Pattern: pattern(4), Op: "Scan"} },
		func() designer.Change {
			return designer.SetOperationField{Pattern: pattern(4), Index: 1, Field: "table", Value: "TitleHistory"}
		},
		func() designer.Change {
			return designer.SetOperationField{Pattern: pattern(4), Index: 1, Field: "filter", Value: "nick = :t"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "TitleHistory", ID: item("TitleHistory", 0), Attribute: "nick", Text: "Bo"}
		},
		// The only item with the filter's attribute changes it, then loses it.
		func() designer.Change {
			return designer.SetItemCell{Table: "TitleHistory", ID: item("TitleHistory", 0), Attribute: "nick", Text: "Bob"}
		},
		func() designer.Change {
			return designer.SetItemCell{Table: "TitleHistory", ID: item("TitleHistory", 0), Attribute: "nick", Text: ""}
		},
		func() designer.Change { return designer.RenameTable{Table: "SalaryHistory", To: "Salaries"} },
		func() designer.Change { return designer.AddPattern{Type: designer.Read, Description: "Everything"} },
		func() designer.Change { return designer.DeletePattern{ID: pattern(2)} },
		func() designer.Change { return designer.AddTable{Name: "Audit", PartitionKey: "event_id"} },
		func() designer.Change {
			return designer.SetTableKey{Table: "Employee", Which: "sort", Name: "hire_date", Type: "S"}
		},
		func() designer.Change { return designer.DeleteTable{Table: "TitleHistory"} },
		func() designer.Change {
			return designer.SetEntityDescription{Entity: "Employee", Description: "A person on the payroll"}
		},
	}
	x := New(d, nil)
	warm(x)
	sameAsCold(t, "first revision", x)
	for i, step := range steps {
		c := step()
		next, err := c.Apply(d)
		if err != nil {
			t.Fatalf("step %d, %s: %v", i+1, c.Kind(), err)
		}
		d, x = next, New(next, x)
		sameAsCold(t, c.Kind(), x)
	}
}

// The same on a design of the load test's shape, where most patterns read a partition an edit
// does not touch: item cells that are GSI keys, projected attributes and neither, in partitions
// read and not read, one of them twice in a row, and a table key.
func TestDerived_afterItemEditsOfALargeDesignEqualsOneFromNothing(t *testing.T) {
	t.Parallel()
	d := designertest.Large(designertest.Size{Tables: 2, Items: 120, GSIs: 8, Patterns: 30})
	// Every third pattern expects an item, which the edits below move in and out of its reads.
	for i := range d.Patterns {
		if ops := d.Patterns[i].Mapping.Operations; i%3 == 0 && len(ops) > 0 {
			tb, _, _ := d.TableByName(ops[0].Table)
			ops[0].Expected = &[]designer.Item{designer.TableKey(tb, tb.Items[(i*7)%len(tb.Items)].Item)}
		}
	}
	x := New(d, nil)
	sameAsCold(t, "first revision", x)
	stated := 0
	for _, p := range d.Patterns {
		if x.PatternVerdict(p) != "" {
			stated++
		}
	}
	if stated == 0 {
		t.Fatal("no pattern has a verdict: the edits below test none")
	}
	tb := d.Tables[0]
	for _, c := range []designer.SetItemCell{
		{Table: tb.Name, ID: tb.Items[15].ID, Attribute: "note", Text: "null"},
		{Table: tb.Name, ID: tb.Items[15].ID, Attribute: "note", Text: "edited"},
		{Table: tb.Name, ID: tb.Items[13].ID, Attribute: "status", Text: "OPEN"},
		{Table: tb.Name, ID: tb.Items[12].ID, Attribute: "total", Text: "-5"},
		{Table: tb.Name, ID: tb.Items[44].ID, Attribute: "order_id", Text: "o00011"},
		{Table: tb.Name, ID: tb.Items[45].ID, Attribute: "created_at", Text: ""},
		{Table: tb.Name, ID: tb.Items[46].ID, Attribute: "tenant_id", Text: "tenant-001"},
		// Sort keys: moved to a key of its own, to another item's (hiding it), and back.
		{Table: tb.Name, ID: tb.Items[47].ID, Attribute: "record_key", Text: "ORDER#2025-01-01#zzz"},
		{Table: tb.Name, ID: tb.Items[48].ID, Attribute: "record_key", Text: designer.FormatCell(tb.Items[49].Item["record_key"])},
		{Table: tb.Name, ID: tb.Items[48].ID, Attribute: "record_key", Text: "ORDER#2025-01-02#own"},
		// A tenant's profile, which the sparse indexes leave out and MOD017 names by its key.
		{Table: tb.Name, ID: tb.Items[0].ID, Attribute: "record_key", Text: "PROFILE#moved"},
		{Table: tb.Name, ID: tb.Items[21].ID, Attribute: "tenant_id", Text: designer.FormatCell(tb.Items[55].Item["tenant_id"])},
		{Table: d.Tables[1].Name, ID: d.Tables[1].Items[3].ID, Attribute: "note", Text: "other table"},
	} {
		next, err := c.Apply(d)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		d, x = next, New(next, x)
		sameAsCold(t, c.Attribute+" of "+c.ID, x)
	}
	// Runs of items added and deleted, in partitions read and not read: an item some pattern
	// expects deleted, a duplicate that gives two items one key and its deletion, a paste, a
	// generation and an item added next to one expected.
	tb = d.Tables[0]
	near := maps.Clone(tb.Items[7].Item)
	near["record_key"] = designer.Str(tb.Items[7].Item["record_key"].S + "~")
	for _, c := range []func() designer.Change{
		func() designer.Change {
			return designer.DeleteItems{Table: tb.Name, IDs: []string{d.Tables[0].Items[21].ID}}
		},
		func() designer.Change { return designer.DuplicateItem{Table: tb.Name, ID: d.Tables[0].Items[14].ID} },
		func() designer.Change {
			return designer.DeleteItems{Table: tb.Name, IDs: []string{d.Tables[0].Items[15].ID}}
		},
		func() designer.Change {
			return designer.AddItem{Table: tb.Name, Item: near, After: d.Tables[0].Items[7].ID}
		},
		func() designer.Change {
			return designer.PasteItems{Table: tb.Name, After: d.Tables[0].Items[30].ID, Text: "tenant_id\trecord_key\ntenant-002\tPASTED#1\n"}
		},
		func() designer.Change {
			return designer.GenerateSampleItems{Table: d.Tables[1].Name, Count: 4, Seed: 3}
		},
		func() designer.Change {
			return designer.DeleteItems{Table: tb.Name, IDs: []string{d.Tables[0].Items[2].ID, d.Tables[0].Items[9].ID}}
		},
	} {
		e := c()
		next, err := e.Apply(d)
		if err != nil {
			t.Fatalf("%s: %v", e.Summary(), err)
		}
		d, x = next, New(next, x)
		sameAsCold(t, e.Summary(), x)
	}
}
