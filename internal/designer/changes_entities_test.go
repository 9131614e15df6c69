package designer

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// changeCase is one application of a change to the HR example: either it is refused for field, or
// it succeeds and check inspects the result.
type changeCase struct {
	name   string
	change Change
	field  string
	check  func(t *testing.T, before, after Design)
}

// runChangeCases applies each case to a fresh HR design and checks, besides the case's own
// expectations, that the design given to Apply is unchanged and that the result is a valid,
// already normalized design.
func runChangeCases(t *testing.T, cases []changeCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			d := hrDesign(t)
			before := mustMarshal(t, d)
			got, err := tt.change.Apply(d)
			assertUnchanged(t, before, d)
			if tt.field != "" {
				wantValidationError(t, err, tt.field)
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if err := Check(got); err != nil {
				t.Fatalf("Check after Apply: %v", err)
			}
			if !reflect.DeepEqual(Normalize(got), got) {
				t.Errorf("Apply left the design needing Normalize")
			}
			if tt.check != nil {
				tt.check(t, d, got)
			}
		})
	}
}

func entityNames(d Design) []string {
	var names []string
	for _, e := range d.Entities {
		names = append(names, e.Name)
	}
	return names
}

func attributeNames(e Entity) []string {
	var names []string
	for _, a := range e.Attributes {
		names = append(names, a.Name)
	}
	return names
}

func mustEntity(t *testing.T, d Design, name string) Entity {
	t.Helper()
	e, _, ok := d.EntityByName(name)
	if !ok {
		t.Fatalf("no entity %q in %v", name, entityNames(d))
	}
	return e
}

func TestAddEntity(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "adds at the end", change: AddEntity{Name: "  Office "}, check: func(t *testing.T, before, after Design) {
			if len(after.Entities) != len(before.Entities)+1 {
				t.Fatalf("entities = %d", len(after.Entities))
			}
			last := after.Entities[len(after.Entities)-1]
			if last.Name != "Office" || last.Attributes == nil || len(last.Attributes) != 0 {
				t.Errorf("added %+v", last)
			}
		}},
		{name: "names are case-sensitive", change: AddEntity{Name: "employee"}},
		{name: "duplicate", change: AddEntity{Name: "Employee"}, field: "name"},
		{name: "empty", change: AddEntity{Name: " "}, field: "name"},
		{name: "two lines", change: AddEntity{Name: "A\nB"}, field: "name"},
		{name: "too long", change: AddEntity{Name: strings.Repeat("x", MaxNameLen+1)}, field: "name"},
	})
	_, err := AddEntity{Name: "Employee"}.Apply(hrDesign(t))
	if err == nil || err.Error() != `name: there is already an entity named "Employee"` {
		t.Errorf("error = %v", err)
	}
}

func TestAddEntity_doesNotWriteIntoSharedBackingArray(t *testing.T) {
	t.Parallel()
	d := hrDesign(t)
	d.Entities = append(make([]Entity, 0, 20), d.Entities...)
	a, err := AddEntity{Name: "A"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	b, err := AddEntity{Name: "B"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if a.Entities[len(a.Entities)-1].Name != "A" || b.Entities[len(b.Entities)-1].Name != "B" {
		t.Errorf("two changes of one design overwrote each other")
	}
}

func TestRenameEntity(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "every reference follows", change: RenameEntity{Entity: "Employee", To: "Staff"}, check: func(t *testing.T, before, after Design) {
			if _, _, ok := after.EntityByName("Employee"); ok {
				t.Errorf("old name still there")
			}
			if i := slices.Index(entityNames(after), "Staff"); i != 0 {
				t.Errorf("renamed entity at %d, want it where it was", i)
			}
			// The HR example also has a table called Employee; that name is not a reference.
			out := strings.ReplaceAll(string(mustMarshal(t, after)), `"table": "Employee"`, "")
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
		{name: "relationships follow at either end", change: RenameEntity{Entity: "Department", To: "Dept"}, check: func(t *testing.T, _, after Design) {
			for _, r := range after.Relationships {
				if r.From == "Department" || r.To == "Department" {
					t.Errorf("relationship %s still names Department", r.ID)
				}
			}
		}},
		{name: "same name is a no-op", change: RenameEntity{Entity: "Employee", To: "Employee"}},
		{name: "case change", change: RenameEntity{Entity: "Employee", To: "EMPLOYEE"}},
		{name: "unknown entity", change: RenameEntity{Entity: "Employe", To: "Staff"}, field: "entity"},
		{name: "taken", change: RenameEntity{Entity: "Employee", To: "Department"}, field: "to"},
		{name: "empty", change: RenameEntity{Entity: "Employee", To: ""}, field: "to"},
	})
}

func TestRenameEntity_selfRelationship(t *testing.T) {
	t.Parallel()
	d := hrDesign(t)
	d.Relationships = append(slices.Clip(d.Relationships), Relationship{ID: "r99", From: "Employee", To: "Employee", Kind: OneToMany})
	got, err := RenameEntity{Entity: "Employee", To: "Person"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Relationships[len(got.Relationships)-1]; r.From != "Person" || r.To != "Person" {
		t.Errorf("self-relationship = %s → %s", r.From, r.To)
	}
}

func TestDeleteEntity_cascades(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "Employee", change: DeleteEntity{Entity: "Employee"}, check: func(t *testing.T, before, after Design) {
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
		{name: "unknown", change: DeleteEntity{Entity: "Ordr"}, field: "entity"},
	})
	_, err := DeleteEntity{Entity: "Ordr"}.Apply(hrDesign(t))
	if err == nil || !strings.Contains(err.Error(), `no entity named "Ordr"`) {
		t.Errorf("error = %v", err)
	}
}

func TestSetEntityDescription(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "sets", change: SetEntityDescription{Entity: "Department", Description: "A unit\nof the company  "}, check: func(t *testing.T, _, after Design) {
			if got := mustEntity(t, after, "Department").Description; got != "A unit\nof the company" {
				t.Errorf("description = %q", got)
			}
		}},
		{name: "clears", change: SetEntityDescription{Entity: "Department"}},
		{name: "unknown", change: SetEntityDescription{Entity: "Dept", Description: "x"}, field: "entity"},
		{name: "control character", change: SetEntityDescription{Entity: "Department", Description: "a\x00"}, field: "description"},
	})
}

func TestMoveEntity(t *testing.T) {
	t.Parallel()
	order := func(want ...string) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			if got := entityNames(after)[:len(want)]; !slices.Equal(got, want) {
				t.Errorf("order = %v, want it to start %v", entityNames(after), want)
			}
		}
	}
	runChangeCases(t, []changeCase{
		{name: "down", change: MoveEntity{Entity: "Employee", To: 2}, check: order("Department", "SalaryRecord", "Employee", "TitleRecord")},
		{name: "up", change: MoveEntity{Entity: "TitleRecord", To: 0}, check: order("TitleRecord", "Employee", "Department")},
		{name: "same place", change: MoveEntity{Entity: "Employee", To: 0}, check: order("Employee", "Department")},
		{name: "clamped low", change: MoveEntity{Entity: "Department", To: -4}, check: order("Department", "Employee")},
		{name: "clamped high", change: MoveEntity{Entity: "Employee", To: 99}, check: func(t *testing.T, _, after Design) {
			if names := entityNames(after); names[len(names)-1] != "Employee" {
				t.Errorf("order = %v", names)
			}
		}},
		{name: "unknown", change: MoveEntity{Entity: "X", To: 1}, field: "entity"},
	})
}

func TestSetEntityGap(t *testing.T) {
	t.Parallel()
	gaps := func(want ...string) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			if got := mustEntity(t, after, "Department").AcceptedGaps; !slices.Equal(got, want) {
				t.Errorf("gaps = %q, want %q", got, want)
			}
		}
	}
	runChangeCases(t, []changeCase{
		{name: "accept", change: SetEntityGap{Entity: "Department", Gap: GapNoWrite, Accepted: true}, check: gaps(GapNoWrite)},
		{name: "withdraw what is not there", change: SetEntityGap{Entity: "Department", Gap: GapNoRead}, check: gaps()},
		{name: "unknown gap", change: SetEntityGap{Entity: "Department", Gap: "no_use", Accepted: true}, field: "gap"},
		{name: "unknown entity", change: SetEntityGap{Entity: "Dept", Gap: GapNoRead, Accepted: true}, field: "entity"},
	})
	d := hrDesign(t)
	for _, c := range []SetEntityGap{
		{Entity: "Department", Gap: GapNoWrite, Accepted: true},
		{Entity: "Department", Gap: GapNoRead, Accepted: true},
		{Entity: "Department", Gap: GapNoWrite, Accepted: true},
	} {
		var err error
		if d, err = c.Apply(d); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustEntity(t, d, "Department").AcceptedGaps; !slices.Equal(got, []string{GapNoRead, GapNoWrite}) {
		t.Errorf("gaps = %q, want sorted and unique", got)
	}
	d, _ = SetEntityGap{Entity: "Department", Gap: GapNoRead}.Apply(d)
	d, _ = SetEntityGap{Entity: "Department", Gap: GapNoWrite}.Apply(d)
	if got := mustEntity(t, d, "Department").AcceptedGaps; got != nil {
		t.Errorf("gaps = %q, want nil once none is accepted", got)
	}
}

func TestAttributeChanges(t *testing.T) {
	t.Parallel()
	attrs := func(want ...string) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			if got := attributeNames(mustEntity(t, after, "TitleRecord")); !slices.Equal(got, want) {
				t.Errorf("attributes = %v, want %v", got, want)
			}
		}
	}
	last := func(want Attribute) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			e := mustEntity(t, after, "TitleRecord")
			if a := e.Attributes[len(e.Attributes)-1]; a != want {
				t.Errorf("added %+v, want %+v", a, want)
			}
		}
	}
	runChangeCases(t, []changeCase{
		{name: "add defaults to S", change: AddAttribute{Entity: "TitleRecord", Name: " grade "}, check: last(Attribute{Name: "grade", Type: S})},
		{name: "add with a type in lower case", change: AddAttribute{Entity: "TitleRecord", Name: "grade", Type: "n"}, check: last(Attribute{Name: "grade", Type: N})},
		{name: "add with a type by name", change: AddAttribute{Entity: "TitleRecord", Name: "tags", Type: "string set"}, check: last(Attribute{Name: "tags", Type: SS})},
		{name: "add duplicate", change: AddAttribute{Entity: "TitleRecord", Name: "title"}, field: "name"},
		{name: "add bad type", change: AddAttribute{Entity: "TitleRecord", Name: "x", Type: "DATE"}, field: "type"},
		{name: "add empty name", change: AddAttribute{Entity: "TitleRecord", Name: ""}, field: "name"},
		{name: "add to unknown", change: AddAttribute{Entity: "Title", Name: "x"}, field: "entity"},
		{name: "rename", change: RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: "job_title"}, check: attrs("emp_no", "from_date", "to_date", "job_title")},
		{name: "rename to itself", change: RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: "title"}, check: attrs("emp_no", "from_date", "to_date", "title")},
		{name: "rename to taken", change: RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: "from_date"}, field: "to"},
		{name: "rename to empty", change: RenameAttribute{Entity: "TitleRecord", Attribute: "title", To: " "}, field: "to"},
		{name: "rename unknown", change: RenameAttribute{Entity: "TitleRecord", Attribute: "salary", To: "x"}, field: "attribute"},
		{name: "set type", change: SetAttributeType{Entity: "TitleRecord", Attribute: "from_date", Type: N}, check: func(t *testing.T, _, after Design) {
			if a := mustEntity(t, after, "TitleRecord").Attributes[1]; a.Type != N {
				t.Errorf("type = %q", a.Type)
			}
		}},
		{name: "set type empty", change: SetAttributeType{Entity: "TitleRecord", Attribute: "from_date"}, field: "type"},
		{name: "set type bad", change: SetAttributeType{Entity: "TitleRecord", Attribute: "from_date", Type: "DATE"}, field: "type"},
		{name: "set type unknown attribute", change: SetAttributeType{Entity: "TitleRecord", Attribute: "x", Type: S}, field: "attribute"},
		{name: "delete", change: DeleteAttribute{Entity: "TitleRecord", Attribute: "to_date"}, check: attrs("emp_no", "from_date", "title")},
		{name: "delete unknown", change: DeleteAttribute{Entity: "TitleRecord", Attribute: "nope"}, field: "attribute"},
		{name: "move up", change: MoveAttribute{Entity: "TitleRecord", Attribute: "title", To: 0}, check: attrs("title", "emp_no", "from_date", "to_date")},
		{name: "move clamped", change: MoveAttribute{Entity: "TitleRecord", Attribute: "emp_no", To: 7}, check: attrs("from_date", "to_date", "title", "emp_no")},
		{name: "move unknown entity", change: MoveAttribute{Entity: "T", Attribute: "title", To: 0}, field: "entity"},
	})
}

func TestRelationshipChanges(t *testing.T) {
	t.Parallel()
	rel := func(check func(*testing.T, Relationship)) func(*testing.T, Design, Design) {
		return func(t *testing.T, _, after Design) {
			r, _, ok := after.RelationshipByID("r2")
			if !ok {
				t.Fatal("r2 is gone")
			}
			check(t, r)
		}
	}
	runChangeCases(t, []changeCase{
		{name: "add", change: AddRelationship{From: "Employee", To: "Department", RelationshipKind: "one-to-many"}, check: func(t *testing.T, _, after Design) {
			r := after.Relationships[len(after.Relationships)-1]
			if r.ID != "r7" || r.From != "Employee" || r.To != "Department" || r.Kind != OneToMany {
				t.Errorf("added %+v", r)
			}
		}},
		{name: "add M:N", change: AddRelationship{From: "Employee", To: "Department", RelationshipKind: "M:N"}, check: func(t *testing.T, _, after Design) {
			if r := after.Relationships[len(after.Relationships)-1]; r.Kind != ManyToMany {
				t.Errorf("kind = %q", r.Kind)
			}
		}},
		{name: "add unknown from", change: AddRelationship{From: "Emp", To: "Department", RelationshipKind: "1:M"}, field: "from"},
		{name: "add unknown to", change: AddRelationship{From: "Employee", To: "Dept", RelationshipKind: "1:M"}, field: "to"},
		{name: "add bad kind", change: AddRelationship{From: "Employee", To: "Department", RelationshipKind: "several"}, field: "kind"},
		{name: "set kind", change: SetRelationshipField{ID: "r2", Field: "kind", Value: "1:1"}, check: rel(func(t *testing.T, r Relationship) {
			if r.Kind != OneToOne {
				t.Errorf("kind = %q", r.Kind)
			}
		})},
		{name: "set max count", change: SetRelationshipField{ID: "r2", Field: "max_count", Value: "1,200"}, check: rel(func(t *testing.T, r Relationship) {
			if r.Max == nil || *r.Max != 1200 {
				t.Errorf("max = %v", r.Max)
			}
		})},
		{name: "clear avg count", change: SetRelationshipField{ID: "r2", Field: "avg_count", Value: ""}, check: rel(func(t *testing.T, r Relationship) {
			if r.Avg != nil {
				t.Errorf("avg = %v", *r.Avg)
			}
		})},
		{name: "set from", change: SetRelationshipField{ID: "r2", Field: "from", Value: "Department"}, check: rel(func(t *testing.T, r Relationship) {
			if r.From != "Department" {
				t.Errorf("from = %q", r.From)
			}
		})},
		{name: "set notes", change: SetRelationshipField{ID: "r2", Field: "notes", Value: "Grows yearly."}, check: rel(func(t *testing.T, r Relationship) {
			if r.Notes != "Grows yearly." {
				t.Errorf("notes = %q", r.Notes)
			}
		})},
		{name: "set unknown to", change: SetRelationshipField{ID: "r2", Field: "to", Value: "Ordr"}, field: "to"},
		{name: "set fractional count", change: SetRelationshipField{ID: "r2", Field: "avg_count", Value: "2.5"}, field: "avg_count"},
		{name: "set bad kind", change: SetRelationshipField{ID: "r2", Field: "kind", Value: "lots"}, field: "kind"},
		{name: "set unknown field", change: SetRelationshipField{ID: "r2", Field: "colour", Value: "red"}, field: "field"},
		{name: "set unknown id", change: SetRelationshipField{ID: "r42", Field: "notes"}, field: "id"},
		{name: "delete", change: DeleteRelationship{ID: "r2"}, check: func(t *testing.T, before, after Design) {
			if _, _, ok := after.RelationshipByID("r2"); ok || len(after.Relationships) != len(before.Relationships)-1 {
				t.Errorf("r2 not deleted")
			}
		}},
		{name: "delete unknown", change: DeleteRelationship{ID: "r42"}, field: "id"},
	})
}

func TestAddRelationship_idIsNotReused(t *testing.T) {
	t.Parallel()
	d := hrDesign(t)
	d, err := DeleteRelationship{ID: "r3"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	d, err = AddRelationship{From: "Employee", To: "Department"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Relationships[len(d.Relationships)-1].ID; got != "r7" {
		t.Errorf("new id = %q, want r7: the deleted r3 may still be named by comments", got)
	}
}
