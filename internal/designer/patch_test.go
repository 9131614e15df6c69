package designer

import (
	"strings"
	"testing"
)

// edits are whole designs derived from the HR example by edits of every shape a PUT can make:
// one field, a row inserted or removed in the middle of a list, an item's attribute whose name
// needs escaping in a JSON Pointer, a table renamed, everything at once.
func edits(t *testing.T) map[string]Design {
	t.Helper()
	base := hrDesign(t)
	apply := func(changes ...Change) Design {
		d := base
		for _, c := range changes {
			var err error
			if d, err = c.Apply(d); err != nil {
				t.Fatalf("%T: %v", c, err)
			}
		}
		return Normalize(d)
	}
	tb := base.Tables[0]
	item := tb.Items[len(tb.Items)/2]
	p := base.Patterns[len(base.Patterns)/2]
	return map[string]Design{
		"one pattern field": apply(SetPatternField{ID: p.ID, Field: "description", Value: "Changed <here> & there"}),
		"one cell":          apply(SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "status", Text: "SHIPPED"}),
		"odd attribute":     apply(SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "a/b~c", Text: "x"}),
		"item removed":      apply(DeleteItems{Table: tb.Name, IDs: []string{item.ID}}),
		"item added":        apply(AddItem{Table: tb.Name, After: tb.Items[0].ID}),
		"pattern removed":   apply(DeletePattern{ID: p.ID}),
		"table renamed":     apply(RenameTable{Table: tb.Name, To: "Renamed_table"}),
		"many": apply(SetName{Name: "Other"}, DeletePattern{ID: p.ID}, DeleteItems{Table: tb.Name, IDs: []string{tb.Items[0].ID}},
			SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "note", Text: "12"}),
		"nothing": base,
	}
}

// A patch made from one design to another turns the first into exactly the second, and for a
// one-field edit it is a few hundred bytes, where the document is tens of thousands.
func TestNewPatch_turnsOneDesignIntoTheOther(t *testing.T) {
	t.Parallel()
	base := hrDesign(t)
	whole := len(mustMarshal(t, base))
	for name, want := range edits(t) {
		t.Run(name, func(t *testing.T) {
			patch, err := NewPatch(base, want)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := MarshalChange(patch)
			if err != nil {
				t.Fatal(err)
			}
			decoded, err := UnmarshalChange(stored)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decoded.Apply(base)
			if err != nil {
				t.Fatalf("Apply: %v\n%s", err, stored)
			}
			if a, b := mustMarshal(t, got), mustMarshal(t, want); string(a) != string(b) {
				t.Fatalf("patched design differs from the target")
			}
			if strings.HasPrefix(name, "one") && len(stored) > 600 {
				t.Errorf("patch of %s takes %d bytes (document %d): %s", name, len(stored), whole, stored)
			}
		})
	}
}

// A patch applied to a design it was not made from is refused when an edit finds no place, and
// leaves the design as it was.
func TestPatchDesign_refusesWhereItsEditsFindNoPlace(t *testing.T) {
	t.Parallel()
	base := hrDesign(t)
	before := mustMarshal(t, base)
	for _, op := range []PatchOp{
		{Op: "remove", Path: "/tables/99"},
		{Op: "replace", Path: "/no_such_member/x", Value: []byte(`1`)},
		{Op: "add", Path: "/name/x", Value: []byte(`1`)},
		{Op: "move", Path: "/name", Value: []byte(`"x"`)},
		{Op: "replace", Path: "/tables", Value: []byte(`"not a list"`)},
	} {
		if _, err := (PatchDesign{Ops: []PatchOp{op}}).Apply(base); err == nil {
			t.Errorf("%+v applied, want a refusal", op)
		}
	}
	if string(mustMarshal(t, base)) != string(before) {
		t.Errorf("a refused patch changed the design")
	}
}

// SizeChange, measuring only the parts a change touched, agrees with the length of the whole
// document to within a few bytes per path.
func TestSizeChange_followsTheDocumentLength(t *testing.T) {
	t.Parallel()
	base := hrDesign(t)
	tb := base.Tables[0]
	item := tb.Items[len(tb.Items)/2]
	p := base.Patterns[len(base.Patterns)/2]
	for _, c := range []Change{
		SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "status", Text: "SHIPPED with a longer value"},
		SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "a/b~c", Text: "x"},
		DeleteItems{Table: tb.Name, IDs: []string{item.ID, tb.Items[0].ID}},
		AddItem{Table: tb.Name, After: tb.Items[0].ID},
		SetPatternField{ID: p.ID, Field: "description", Value: "Changed <here> & there"},
		DeletePattern{ID: p.ID},
		RenameTable{Table: tb.Name, To: "Renamed_table"},
		SetName{Name: "A much longer name for the design"},
		SetOverviewField{Field: "notes", Value: strings.Repeat("note ", 40)},
		ReplaceDesign{Design: Design{Name: "Bare"}},
	} {
		after, err := c.Apply(base)
		if err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		after = Normalize(after)
		want := len(mustCompact(t, after)) - len(mustCompact(t, base))
		got := SizeChange(base, after, c.Paths())
		if diff := got - want; diff < -8*len(c.Paths()) || diff > 8*len(c.Paths()) {
			t.Errorf("%s: SizeChange = %d, the document grew by %d", c.Kind(), got, want)
		}
	}
}

func mustCompact(t *testing.T, d Design) []byte {
	t.Helper()
	b, err := MarshalCompactJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
