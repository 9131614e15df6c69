package designer_test

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// edits are whole designs derived from the HR example by edits of every shape a PUT can make:
// one field, a row inserted or removed in the middle of a list, an item's attribute whose name
// needs escaping in a JSON Pointer, a table renamed, everything at once.
func edits(t *testing.T) map[string]designer.Design {
	t.Helper()
	base := designertest.HRDesign(t)
	apply := func(changes ...designer.Change) designer.Design {
		d := base
		for _, c := range changes {
			var err error
			if d, err = c.Apply(d); err != nil {
				t.Fatalf("%T: %v", c, err)
			}
		}
		return designer.Normalize(d)
	}
	tb := base.Tables[0]
	item := tb.Items[len(tb.Items)/2]
	p := base.Patterns[len(base.Patterns)/2]
	return map[string]designer.Design{
		"one pattern field": apply(designer.SetPatternField{ID: p.ID, Field: "description", Value: "Changed <here> & there"}),
		"one cell":          apply(designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "status", Text: "SHIPPED"}),
		"odd attribute":     apply(designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "a/b~c", Text: "x"}),
		"item removed":      apply(designer.DeleteItems{Table: tb.Name, IDs: []string{item.ID}}),
		"item added":        apply(designer.AddItem{Table: tb.Name, After: tb.Items[0].ID}),
		"pattern removed":   apply(designer.DeletePattern{ID: p.ID}),
		"table renamed":     apply(designer.RenameTable{Table: tb.Name, To: "Renamed_table"}),
		"many": apply(designer.SetName{Name: "Other"}, designer.DeletePattern{ID: p.ID}, designer.DeleteItems{Table: tb.Name, IDs: []string{tb.Items[0].ID}},
			designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "note", Text: "12"}),
		"nothing": base,
	}
}

// A patch made from one design to another turns the first into exactly the second, and for a
// one-field edit it is a few hundred bytes, where the document is tens of thousands.
func TestNewPatch_turnsOneDesignIntoTheOther(t *testing.T) {
	t.Parallel()
	base := designertest.HRDesign(t)
	whole := len(designertest.MustMarshal(t, base))
	for name, want := range edits(t) {
		t.Run(name, func(t *testing.T) {
			patch, err := designer.NewPatch(base, want)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := designer.MarshalChange(patch)
			if err != nil {
				t.Fatal(err)
			}
			decoded, err := designer.UnmarshalChange(stored)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decoded.Apply(base)
			if err != nil {
				t.Fatalf("Apply: %v\n%s", err, stored)
			}
			if a, b := designertest.MustMarshal(t, got), designertest.MustMarshal(t, want); string(a) != string(b) {
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
	base := designertest.HRDesign(t)
	before := designertest.MustMarshal(t, base)
	for _, op := range []designer.PatchOp{
		{Op: "remove", Path: "/tables/99"},
		{Op: "replace", Path: "/no_such_member/x", Value: []byte(`1`)},
		{Op: "add", Path: "/name/x", Value: []byte(`1`)},
		{Op: "move", Path: "/name", Value: []byte(`"x"`)},
		{Op: "replace", Path: "/tables", Value: []byte(`"not a list"`)},
	} {
		if _, err := (designer.PatchDesign{Ops: []designer.PatchOp{op}}).Apply(base); err == nil {
			t.Errorf("%+v applied, want a refusal", op)
		}
	}
	if string(designertest.MustMarshal(t, base)) != string(before) {
		t.Errorf("a refused patch changed the design")
	}
}

// SizeChange, measuring only the parts a change touched, agrees with the length of the whole
// document to within a few bytes per path.
func TestSizeChange_followsTheDocumentLength(t *testing.T) {
	t.Parallel()
	base := designertest.HRDesign(t)
	tb := base.Tables[0]
	item := tb.Items[len(tb.Items)/2]
	p := base.Patterns[len(base.Patterns)/2]
	for _, c := range []designer.Change{
		designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "status", Text: "SHIPPED with a longer value"},
		designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "a/b~c", Text: "x"},
		designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "status", Text: ""},
		designer.SetItemCell{Table: tb.Name, ID: item.ID, Attribute: "note", Text: "say \"hi\" <b> & é\ttab"},
		designer.DeleteItems{Table: tb.Name, IDs: []string{item.ID, tb.Items[0].ID}},
		designer.AddItem{Table: tb.Name, After: tb.Items[0].ID},
		designer.SetPatternField{ID: p.ID, Field: "description", Value: "Changed <here> & there"},
		designer.DeletePattern{ID: p.ID},
		designer.RenameTable{Table: tb.Name, To: "Renamed_table"},
		designer.SetName{Name: "A much longer name for the design"},
		designer.SetOverviewField{Field: "notes", Value: strings.Repeat("note ", 40)},
		designer.ReplaceDesign{Design: designer.Design{Name: "Bare"}},
	} {
		after, err := c.Apply(base)
		if err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		after = designer.Normalize(after)
		want := len(mustCompact(t, after)) - len(mustCompact(t, base))
		got := designer.SizeChange(base, after, c.Paths())
		if diff := got - want; diff < -8*len(c.Paths()) || diff > 8*len(c.Paths()) {
			t.Errorf("%s: SizeChange = %d, the document grew by %d", c.Kind(), got, want)
		}
	}
}

func mustCompact(t *testing.T, d designer.Design) []byte {
	t.Helper()
	b, err := designer.MarshalCompactJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkPatchDesign_oneField applies the patch of a PUT that changed one item cell of a design
// of about 350 KB (200 mapped patterns, 1,000 items): what replaying such a revision costs when a
// revision is opened: in place (patch), the plain way through the whole document (plain), and the
// same edit as a typed change (typed), the anchor.
func BenchmarkPatchDesign_oneField(b *testing.B) {
	base := designertest.Large(designertest.Size{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200})
	tb := base.Tables[0]
	cell := designer.SetItemCell{Table: tb.Name, ID: tb.Items[len(tb.Items)/2].ID, Attribute: "note", Text: "changed"}
	next, err := cell.Apply(base)
	if err != nil {
		b.Fatal(err)
	}
	patch, err := designer.NewPatch(base, designer.Normalize(next))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("patch", func(b *testing.B) {
		for b.Loop() {
			if _, err := patch.Apply(base); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if _, err := designer.ApplyPatchPlainly(patch, base); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed", func(b *testing.B) {
		for b.Loop() {
			if _, err := cell.Apply(base); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Apply edits the Design in place where it can; the plain way edits the whole design-json. Both
// give the same design for every patch NewPatch makes, and every one is applied in place, including patches between unrelated random designs
// (every member added, removed or replaced somewhere), and neither writes into the design the
// patch is applied to, whose slices other revisions share.
func TestPatchDesign_inPlaceGivesWhatThePlainWayGives(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, from, to designer.Design) {
		t.Helper()
		patch, err := designer.NewPatch(from, to)
		if err != nil {
			t.Fatal(err)
		}
		before := designertest.MustMarshal(t, from)
		// Every patch NewPatch makes is applied in place: falling back would cost the whole
		// document again on every replay.
		got, err := designer.ApplyPatchInPlace(patch, from)
		if err != nil {
			t.Fatalf("not applied in place: %v", err)
		}
		plain, err := designer.ApplyPatchPlainly(patch, from)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := designertest.MustMarshal(t, got), designertest.MustMarshal(t, plain); string(a) != string(b) {
			t.Fatalf("in place and plain differ after %d edits", len(patch.Ops))
		}
		if a, b := designertest.MustMarshal(t, got), designertest.MustMarshal(t, to); string(a) != string(b) {
			t.Fatalf("patched design differs from the target")
		}
		if string(designertest.MustMarshal(t, from)) != string(before) {
			t.Fatalf("applying the patch changed the design it was applied to")
		}
	}
	base := designertest.HRDesign(t)
	for name, want := range edits(t) {
		t.Run(name, func(t *testing.T) { check(t, base, want) })
	}
	for seed := range uint64(40) {
		g := designertest.NewRandom(seed, 7)
		a, b := g.Design(int(seed%6)+1), g.Design(int(seed%4)+2)
		check(t, a, b)
		check(t, b, a)
	}
}
