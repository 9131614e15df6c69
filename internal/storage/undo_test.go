package storage

import (
	"context"
	"errors"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// Undo takes back the person's own newest change and keeps everyone else's, and refuses with an
// *UndoError, storing nothing, when a later change touched the same part or builds on it.
func TestUndo_takesBackOwnLastChangeOrRefuses(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	rec, _, err := s.Create(ctx, newDesign(t, "Shop"), "Ada")
	if err != nil {
		t.Fatal(err)
	}
	id := rec.ID
	apply := func(who string, c designer.Change) {
		t.Helper()
		if _, err := s.ApplyEdit(ctx, id, Edit{Change: c, Author: who}); err != nil {
			t.Fatalf("%s %s: %v", who, c.Kind(), err)
		}
	}
	refused := func(ed Edit, code, want string) {
		t.Helper()
		before, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.Undo(ctx, id, ed)
		var ue *UndoError
		if !errors.As(err, &ue) || ue.Code != code || !strings.Contains(ue.Message, want) {
			t.Fatalf("undo by %s: %v, want %s saying %q", ed.Author, err, code, want)
		}
		if after, err := s.Load(ctx, id); err != nil || after.Revision != before.Revision {
			t.Fatalf("a refused undo stored revision %d (was %d): %v", after.Revision, before.Revision, err)
		}
	}

	apply("Ada", designer.SetName{Name: "Shop 2"})                                     // 2
	apply("Bob", designer.SetOverviewField{Field: "domain", Value: "Retail"})          // 3
	got, undone, err := s.Undo(ctx, id, Edit{Author: "Ada", Tab: "tab-of-ada-000001"}) // 4
	if err != nil {
		t.Fatal(err)
	}
	if undone.Revision != 2 || got.Revision != 4 || got.Design.Name != "Shop" || got.Design.Overview.Domain != "Retail" {
		t.Fatalf("Ada's undo: undid %d, now revision %d, name %q, domain %q", undone.Revision, got.Revision, got.Design.Name, got.Design.Overview.Domain)
	}
	if revs, err := s.Revisions(ctx, id); err != nil || revs[0].Author != "Ada" || revs[0].Kind != (designer.UndoChange{}).Kind() {
		t.Fatalf("the undo's revision: %+v, %v", revs[0], err)
	}

	refused(Edit{Author: "Eve"}, "nothing_to_undo", "no change")

	apply("Carol", designer.SetOverviewField{Field: "notes", Value: "Carol's"}) // 5
	apply("Dan", designer.SetOverviewField{Field: "notes", Value: "Dan's"})     // 6
	refused(Edit{Author: "Carol"}, "undo_conflict", "Dan changed the same part")

	apply("Bob", designer.AddEntity{Name: "Order"})                                                // 7
	apply("Ada", designer.AddEntity{Name: "Customer"})                                             // 8
	apply("Bob", designer.AddRelationship{From: "Customer", To: "Order", RelationshipKind: "1:M"}) // 9
	refused(Edit{Author: "Ada"}, "undo_conflict", "revision 9")
}
