package designer_test

import (
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func entityNames(d designer.Design) []string {
	var names []string
	for _, e := range d.Entities {
		names = append(names, e.Name)
	}
	return names
}

func attributeNames(e designer.Entity) []string {
	var names []string
	for _, a := range e.Attributes {
		names = append(names, a.Name)
	}
	return names
}

func mustEntity(t *testing.T, d designer.Design, name string) designer.Entity {
	t.Helper()
	e, _, ok := d.EntityByName(name)
	if !ok {
		t.Fatalf("no entity %q in %v", name, entityNames(d))
	}
	return e
}

func TestAddEntity(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "adds at the end", Change: designer.AddEntity{Name: "  Office "}, Check: func(t *testing.T, before, after designer.Design) {
			if len(after.Entities) != len(before.Entities)+1 {
				t.Fatalf("entities = %d", len(after.Entities))
			}
			last := after.Entities[len(after.Entities)-1]
			if last.Name != "Office" || last.Attributes == nil || len(last.Attributes) != 0 {
				t.Errorf("added %+v", last)
			}
		}},
		{Name: "names are case-sensitive", Change: designer.AddEntity{Name: "employee"}},
		{Name: "duplicate", Change: designer.AddEntity{Name: "Employee"}, Field: "name"},
		{Name: "empty", Change: designer.AddEntity{Name: " "}, Field: "name"},
		{Name: "two lines", Change: designer.AddEntity{Name: "A\nB"}, Field: "name"},
		{Name: "too long", Change: designer.AddEntity{Name: strings.Repeat("x", designer.MaxNameLen+1)}, Field: "name"},
	})
	_, err := designer.AddEntity{Name: "Employee"}.Apply(designertest.HRDesign(t))
	if err == nil || err.Error() != `name: there is already an entity named "Employee"` {
		t.Errorf("error = %v", err)
	}
}

func TestAddEntity_doesNotWriteIntoSharedBackingArray(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d.Entities = append(make([]designer.Entity, 0, 20), d.Entities...)
	a, err := designer.AddEntity{Name: "A"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	b, err := designer.AddEntity{Name: "B"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if a.Entities[len(a.Entities)-1].Name != "A" || b.Entities[len(b.Entities)-1].Name != "B" {
		t.Errorf("two changes of one design overwrote each other")
	}
}

func TestRenameEntity(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "every reference follows", Change: designer.RenameEntity{Entity: "Employee", To: "Staff"}, Check: func(t *testing.T, before, after designer.Design) {
			if _, _, ok := after.EntityByName("Employee"); ok {
				t.Errorf("old name still there")
			}
			if i := slices.Index(entityNames(after), "Staff"); i != 0 {
				t.Errorf("renamed entity at %d, want it where it was", i)
			}
			// The HR example also has a table called Employee; that name is not a reference.
			out := strings.ReplaceAll(string(designertest.MustMarshal(t, after)), `"table": "Employee"`, "")
			if n := strings.Count(out, `"Employee"`); n != 1 {
				t.Errorf("%d references to the old name remain besides the table's name", n-1)
			}
			if after.Relationships[0].To != "Staff" || after.Relationships[1].From != "Staff" {
				t.Errorf("relationships: %+v", after.Relationships[:2])
			}
			if !slices.Contains(after.Patterns[0].Entities, "Staff") {
				t.Errorf("pattern entities: %v", after.Patterns[0].Entities)
			}
			if after.Aggregates[0].EntityA != "Staff" || after.Consolidations[0].Parent != "Staff" {
				t.Errorf("aggregate %q, consolidation %q", after.Aggregates[0].EntityA, after.Consolidations[0].Parent)
			}
			if after.Tables[0].EntityTypes[0].Entity != "Staff" {
				t.Errorf("SK taxonomy: %+v", after.Tables[0].EntityTypes[0])
			}
			// Rows without the entity are shared, not copied.
			if &after.Tables[1].EntityTypes[0] != &before.Tables[1].EntityTypes[0] {
				t.Errorf("an unrelated table's taxonomy was copied")
			}
		}},
		{Name: "relationships follow at either end", Change: designer.RenameEntity{Entity: "Department", To: "Dept"}, Check: func(t *testing.T, _, after designer.Design) {
			for _, r := range after.Relationships {
				if r.From == "Department" || r.To == "Department" {
					t.Errorf("relationship %s still names Department", r.ID)
				}
			}
		}},
		{Name: "same name is a no-op", Change: designer.RenameEntity{Entity: "Employee", To: "Employee"}},
		{Name: "case change", Change: designer.RenameEntity{Entity: "Employee", To: "EMPLOYEE"}},
		{Name: "unknown entity", Change: designer.RenameEntity{Entity: "Employe", To: "Staff"}, Field: "entity"},
		{Name: "taken", Change: designer.RenameEntity{Entity: "Employee", To: "Department"}, Field: "to"},
		{Name: "empty", Change: designer.RenameEntity{Entity: "Employee", To: ""}, Field: "to"},
	})
}

func TestRenameEntity_selfRelationship(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d.Relationships = append(slices.Clip(d.Relationships), designer.Relationship{ID: "r99", From: "Employee", To: "Employee", Kind: designer.OneToMany})
	got, err := designer.RenameEntity{Entity: "Employee", To: "Person"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Relationships[len(got.Relationships)-1]; r.From != "Person" || r.To != "Person" {
		t.Errorf("self-relationship = %s → %s", r.From, r.To)
	}
}

func TestDeleteEntity_cascades(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "Employee", Change: designer.DeleteEntity{Entity: "Employee"}, Check: func(t *testing.T, before, after designer.Design) {
			if slices.Contains(entityNames(after), "Employee") || len(after.Entities) != len(before.Entities)-1 {
				t.Errorf("entities = %v", entityNames(after))
			}
			for _, r := range after.Relationships {
				if r.From == "Employee" || r.To == "Employee" {
					t.Errorf("relationship %s kept", r.ID)
				}
			}
			if len(after.Relationships) != 1 || after.Relationships[0].ID != "r5" {
				t.Errorf("relationships = %+v, want only r5 (Department → DepartmentManager)", after.Relationships)
			}
			for _, p := range after.Patterns {
				if slices.Contains(p.Entities, "Employee") {
					t.Errorf("pattern %d still lists Employee", p.Number)
				}
			}
			if len(after.Patterns) != len(before.Patterns) {
				t.Errorf("patterns were deleted")
			}
			if len(after.Aggregates) != 1 || after.Aggregates[0].EntityA != "Department" {
				t.Errorf("aggregates = %+v", after.Aggregates)
			}
			if len(after.Consolidations) != 1 || after.Consolidations[0].Parent != "Department" {
				t.Errorf("consolidations = %+v", after.Consolidations)
			}
			if after.Tables[0].EntityTypes[0].Entity != "Employee" {
				t.Errorf("the SK taxonomy is the table's; it should keep its line")
			}
		}},
		{Name: "unknown", Change: designer.DeleteEntity{Entity: "Ordr"}, Field: "entity"},
	})
	_, err := designer.DeleteEntity{Entity: "Ordr"}.Apply(designertest.HRDesign(t))
	if err == nil || !strings.Contains(err.Error(), `no entity named "Ordr"`) {
		t.Errorf("error = %v", err)
	}
}

func TestSetEntityDescription(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "sets", Change: designer.SetEntityDescription{Entity: "Department", Description: "A unit\nof the company  "}, Check: func(t *testing.T, _, after designer.Design) {
			if got := mustEntity(t, after, "Department").Description; got != "A unit\nof the company" {
				t.Errorf("description = %q", got)
			}
		}},
		{Name: "clears", Change: designer.SetEntityDescription{Entity: "Department"}},
		{Name: "unknown", Change: designer.SetEntityDescription{Entity: "Dept", Description: "x"}, Field: "entity"},
		{Name: "control character", Change: designer.SetEntityDescription{Entity: "Department", Description: "a\x00"}, Field: "description"},
	})
}

func TestMoveEntity(t *testing.T) {
	t.Parallel()
	order := func(want ...string) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			if got := entityNames(after)[:len(want)]; !slices.Equal(got, want) {
				t.Errorf("order = %v, want it to start %v", entityNames(after), want)
			}
		}
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "down", Change: designer.MoveEntity{Entity: "Employee", To: 2}, Check: order("Department", "SalaryRecord", "Employee", "TitleRecord")},
		{Name: "up", Change: designer.MoveEntity{Entity: "TitleRecord", To: 0}, Check: order("TitleRecord", "Employee", "Department")},
		{Name: "same place", Change: designer.MoveEntity{Entity: "Employee", To: 0}, Check: order("Employee", "Department")},
		{Name: "clamped low", Change: designer.MoveEntity{Entity: "Department", To: -4}, Check: order("Department", "Employee")},
		{Name: "clamped high", Change: designer.MoveEntity{Entity: "Employee", To: 99}, Check: func(t *testing.T, _, after designer.Design) {
			if names := entityNames(after); names[len(names)-1] != "Employee" {
				t.Errorf("order = %v", names)
			}
		}},
		{Name: "unknown", Change: designer.MoveEntity{Entity: "X", To: 1}, Field: "entity"},
	})
}

func TestSetEntityGap(t *testing.T) {
	t.Parallel()
	gaps := func(want ...string) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			if got := mustEntity(t, after, "Department").AcceptedGaps; !slices.Equal(got, want) {
				t.Errorf("gaps = %q, want %q", got, want)
			}
		}
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "accept", Change: designer.SetEntityGap{Entity: "Department", Gap: designer.GapNoWrite, Accepted: true}, Check: gaps(designer.GapNoWrite)},
		{Name: "withdraw what is not there", Change: designer.SetEntityGap{Entity: "Department", Gap: designer.GapNoRead}, Check: gaps()},
		{Name: "unknown gap", Change: designer.SetEntityGap{Entity: "Department", Gap: "no_use", Accepted: true}, Field: "gap"},
		{Name: "unknown entity", Change: designer.SetEntityGap{Entity: "Dept", Gap: designer.GapNoRead, Accepted: true}, Field: "entity"},
	})
	d := designertest.HRDesign(t)
	for _, c := range []designer.SetEntityGap{
		{Entity: "Department", Gap: designer.GapNoWrite, Accepted: true},
		{Entity: "Department", Gap: designer.GapNoRead, Accepted: true},
		{Entity: "Department", Gap: designer.GapNoWrite, Accepted: true},
	} {
		var err error
		if d, err = c.Apply(d); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustEntity(t, d, "Department").AcceptedGaps; !slices.Equal(got, []string{designer.GapNoRead, designer.GapNoWrite}) {
		t.Errorf("gaps = %q, want sorted and unique", got)
	}
	d, _ = designer.SetEntityGap{Entity: "Department", Gap: designer.GapNoRead}.Apply(d)
	d, _ = designer.SetEntityGap{Entity: "Department", Gap: designer.GapNoWrite}.Apply(d)
	if got := mustEntity(t, d, "Department").AcceptedGaps; got != nil {
		t.Errorf("gaps = %q, want nil once none is accepted", got)
	}
}

func TestAttributeChanges(t *testing.T) {
	t.Parallel()
	attrs := func(want ...string) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			if got := attributeNames(mustEntity(t, after, "TitleRecord")); !slices.Equal(got, want) {
				t.Errorf("attributes = %v, want %v", got, want)
			}
		}
	}
	last := func(want designer.Attribute) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			e := mustEntity(t, after, "TitleRecord")
			if a := e.Attributes[len(e.Attributes)-1]; a != want {
				t.Errorf("added %+v, want %+v", a, want)
			}
		}
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "add defaults to S", Change: designer.AddAttribute{Entity: "TitleRecord", Name: " grade "}, Check: last(designer.Attribute{Name: "grade", Type: designer.S})},
		{Name: "add with a type in lower case", Change: designer.AddAttribute{Entity: "TitleRecord", Name: "grade", Type: "n"}, Check: last(designer.Attribute{Name: "grade", Type: designer.N})},
		{Name: "add with a type by name", Change: designer.AddAttribute{Entity: "TitleRecord", Name: "tags", Type: "string set"}, Check: last(designer.Attribute{Name: "tags", Type: designer.SS})},
		{Name: "add duplicate", Change: designer.AddAttribute{Entity: "TitleRecord", Name: "title"}, Field: "name"},
		{Name: "add bad type", Change: designer.AddAttribute{Entity: "TitleRecord", Name: "x", Type: "DATE"}, Field: "type"},
		{Name: "add empty name", Change: designer.AddAttribute{Entity: "TitleRecord", Name: ""}, Field: "name"},
		{Name: "add to unknown", Change: designer.AddAttribute{Entity: "Title", Name: "x"}, Field: "entity"},
		{Name: "rename", Change: designer.RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: "job_title"}, Check: attrs("emp_no", "from_date", "to_date", "job_title")},
		{Name: "rename to itself", Change: designer.RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: "title"}, Check: attrs("emp_no", "from_date", "to_date", "title")},
		{Name: "rename to taken", Change: designer.RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: "from_date"}, Field: "to"},
		{Name: "rename to empty", Change: designer.RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: " "}, Field: "to"},
		{Name: "rename unknown", Change: designer.RenameAttribute{Entity: "TitleRecord", Attribute: "salary", To: "x"}, Field: "attribute"},
		{Name: "set type", Change: designer.SetAttributeType{Entity: "TitleRecord", Attribute: "from_date", Type: designer.N}, Check: func(t *testing.T, _, after designer.Design) {
			if a := mustEntity(t, after, "TitleRecord").Attributes[1]; a.Type != designer.N {
				t.Errorf("type = %q", a.Type)
			}
		}},
		{Name: "set type empty", Change: designer.SetAttributeType{Entity: "TitleRecord", Attribute: "from_date"}, Field: "type"},
		{Name: "set type bad", Change: designer.SetAttributeType{Entity: "TitleRecord", Attribute: "from_date", Type: "DATE"}, Field: "type"},
		{Name: "set type unknown attribute", Change: designer.SetAttributeType{Entity: "TitleRecord", Attribute: "x", Type: designer.S}, Field: "attribute"},
		{Name: "delete", Change: designer.DeleteAttribute{Entity: "TitleRecord", Attribute: "to_date"}, Check: attrs("emp_no", "from_date", "title")},
		{Name: "delete unknown", Change: designer.DeleteAttribute{Entity: "TitleRecord", Attribute: "nope"}, Field: "attribute"},
		{Name: "move up", Change: designer.MoveAttribute{Entity: "TitleRecord", Attribute: "title", To: 0}, Check: attrs("title", "emp_no", "from_date", "to_date")},
		{Name: "move clamped", Change: designer.MoveAttribute{Entity: "TitleRecord", Attribute: "emp_no", To: 7}, Check: attrs("from_date", "to_date", "title", "emp_no")},
		{Name: "move unknown entity", Change: designer.MoveAttribute{Entity: "T", Attribute: "title", To: 0}, Field: "entity"},
	})
}

func TestRelationshipChanges(t *testing.T) {
	t.Parallel()
	rel := func(check func(*testing.T, designer.Relationship)) func(*testing.T, designer.Design, designer.Design) {
		return func(t *testing.T, _, after designer.Design) {
			r, _, ok := after.RelationshipByID("r2")
			if !ok {
				t.Fatal("r2 is gone")
			}
			check(t, r)
		}
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "add", Change: designer.AddRelationship{From: "Employee", To: "Department", RelationshipKind: "one-to-many"}, Check: func(t *testing.T, _, after designer.Design) {
			r := after.Relationships[len(after.Relationships)-1]
			if r.ID != "r7" || r.From != "Employee" || r.To != "Department" || r.Kind != designer.OneToMany {
				t.Errorf("added %+v", r)
			}
		}},
		{Name: "add M:N", Change: designer.AddRelationship{From: "Employee", To: "Department", RelationshipKind: "M:N"}, Check: func(t *testing.T, _, after designer.Design) {
			if r := after.Relationships[len(after.Relationships)-1]; r.Kind != designer.ManyToMany {
				t.Errorf("kind = %q", r.Kind)
			}
		}},
		{Name: "add unknown from", Change: designer.AddRelationship{From: "Emp", To: "Department", RelationshipKind: "1:M"}, Field: "from"},
		{Name: "add unknown to", Change: designer.AddRelationship{From: "Employee", To: "Dept", RelationshipKind: "1:M"}, Field: "to"},
		{Name: "add bad kind", Change: designer.AddRelationship{From: "Employee", To: "Department", RelationshipKind: "several"}, Field: "kind"},
		{Name: "set kind", Change: designer.SetRelationshipField{ID: "r2", Field: "kind", Value: "1:1"}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Kind != designer.OneToOne {
				t.Errorf("kind = %q", r.Kind)
			}
		})},
		{Name: "set max count", Change: designer.SetRelationshipField{ID: "r2", Field: "max_count", Value: "1,200"}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Max == nil || *r.Max != 1200 {
				t.Errorf("max = %v", r.Max)
			}
		})},
		{Name: "clear avg count", Change: designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: ""}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Avg != nil {
				t.Errorf("avg = %v", *r.Avg)
			}
		})},
		{Name: "set from", Change: designer.SetRelationshipField{ID: "r2", Field: "from", Value: "Department"}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.From != "Department" {
				t.Errorf("from = %q", r.From)
			}
		})},
		{Name: "set notes", Change: designer.SetRelationshipField{ID: "r2", Field: "notes", Value: "Grows yearly."}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Notes != "Grows yearly." {
				t.Errorf("notes = %q", r.Notes)
			}
		})},
		{Name: "set unknown to", Change: designer.SetRelationshipField{ID: "r2", Field: "to", Value: "Ordr"}, Field: "to"},
		{Name: "set fractional average", Change: designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: "1.6"}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Avg == nil || *r.Avg != 1.6 || r.AvgUnit != "" {
				t.Errorf("avg = %v %q", r.Avg, r.AvgUnit)
			}
		})},
		{Name: "set average with a unit", Change: designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: " 4 per year "}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Avg == nil || *r.Avg != 4 || r.AvgUnit != "per year" || designer.RelationshipField.AvgCount.Get(r) != "4 per year" {
				t.Errorf("avg = %v %q", r.Avg, r.AvgUnit)
			}
		})},
		{Name: "set max with a unit", Change: designer.SetRelationshipField{ID: "r2", Field: "max_count", Value: "1,200 orders"}, Check: rel(func(t *testing.T, r designer.Relationship) {
			if r.Max == nil || *r.Max != 1200 || r.MaxUnit != "orders" || designer.RelationshipField.MaxCount.Get(r) != "1200 orders" {
				t.Errorf("max = %v %q", r.Max, r.MaxUnit)
			}
		})},
		{Name: "set fractional max", Change: designer.SetRelationshipField{ID: "r2", Field: "max_count", Value: "2.5"}, Field: "max_count"},
		{Name: "set count without a number", Change: designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: "a few"}, Field: "avg_count"},
		{Name: "set negative count", Change: designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: "-2"}, Field: "avg_count"},
		{Name: "set unit with brackets", Change: designer.SetRelationshipField{ID: "r2", Field: "avg_count", Value: "4 (per year)"}, Field: "avg_count"},
		{Name: "set bad kind", Change: designer.SetRelationshipField{ID: "r2", Field: "kind", Value: "lots"}, Field: "kind"},
		{Name: "set unknown field", Change: designer.SetRelationshipField{ID: "r2", Field: "colour", Value: "red"}, Field: "field"},
		{Name: "set unknown id", Change: designer.SetRelationshipField{ID: "r42", Field: "notes"}, Field: "id"},
		{Name: "delete", Change: designer.DeleteRelationship{ID: "r2"}, Check: func(t *testing.T, before, after designer.Design) {
			if _, _, ok := after.RelationshipByID("r2"); ok || len(after.Relationships) != len(before.Relationships)-1 {
				t.Errorf("r2 not deleted")
			}
		}},
		{Name: "delete unknown", Change: designer.DeleteRelationship{ID: "r42"}, Field: "id"},
	})
}

func TestAddRelationship_idIsNotReused(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	d, err := designer.DeleteRelationship{ID: "r3"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = designer.AddRelationship{From: "Employee", To: "Department"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Relationships[len(d.Relationships)-1].ID; got != "r7" {
		t.Errorf("new id = %q, want r7: the deleted r3 may still be named by comments", got)
	}
}
