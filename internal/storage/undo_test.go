package storage

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// Undo takes back the person's own newest change and keeps everyone else's, and refuses with an
// *UndoError, storing nothing, when a later change touched the same part or builds on it.
func TestUndo_takesBackOwnLastChangeOrRefuses(t *testing.T) {
	t.Parallel()
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

// An undo carries the whole design as it was before the undone change; history stores it by what
// it changed instead, a few hundred bytes for an undone cell edit of a large design. Later undos
// replay it, and every revision opens as acknowledged.
func TestUndo_isStoredByWhatItChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dynaloom.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := s.Create(ctx, tableWithItems(t, 200), "Ada")
	if err != nil {
		t.Fatal(err)
	}
	acked := map[int64]designer.Design{1: rec.Design}
	for _, ed := range []Edit{
		{Author: "Ada", Change: designer.SetItemCell{Table: "Orders", ID: "i1", Attribute: "status", Text: "A"}},
		{Author: "Bob", Change: designer.SetItemCell{Table: "Orders", ID: "i5", Attribute: "status", Text: "B"}},
	} {
		if rec, err = s.ApplyEdit(ctx, rec.ID, ed); err != nil {
			t.Fatal(err)
		}
		acked[rec.Revision] = rec.Design
	}
	for _, who := range []string{"Ada", "Bob"} {
		if rec, _, err = s.Undo(ctx, rec.ID, Edit{Author: who}); err != nil {
			t.Fatalf("%s's undo: %v", who, err)
		}
		acked[rec.Revision] = rec.Design
		var stored int
		if err := s.r.QueryRowContext(ctx, `SELECT `+rowBytes+` FROM revisions WHERE design_id = ? AND revision = ?`, rec.ID, rec.Revision).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored > 1024 {
			t.Errorf("%s's undo of one cell is stored in %d bytes", who, stored)
		}
	}
	for _, id := range []string{"i1", "i5"} {
		if it, _, _ := rec.Design.Tables[0].ItemByID(id); it.Item["status"].Type != "" {
			t.Errorf("after both undos item %s holds status %v", id, it.Item["status"])
		}
	}
	s.Close()
	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for rev, want := range acked {
		got, err := s.DesignAt(ctx, rec.ID, rev)
		if err != nil || string(mustJSON(t, got)) != string(mustJSON(t, want)) {
			t.Fatalf("revision %d does not open as acknowledged: %v", rev, err)
		}
	}
}
