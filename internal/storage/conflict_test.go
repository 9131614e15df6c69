package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"dynaloom/internal/designer"
)

// Twenty editors change one field from the revision they all saw, at once: the check runs inside
// the write transaction, so exactly one is stored and every other one is refused as a conflict
// naming the one stored.
func TestApplyEdit_concurrentEditsOfOneFieldFromOneBase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	created, _, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
	if err != nil {
		t.Fatal(err)
	}
	const editors = 20
	errs := make([]error, editors)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range editors {
		wg.Go(func() {
			<-start
			_, errs[i] = s.ApplyEdit(ctx, created.ID, Edit{
				Author: "Sam", Tab: fmt.Sprintf("tab%02d", i), Base: created.Revision,
				Change: designer.SetOverviewField{Field: "scale", Value: fmt.Sprintf("value %d", i)},
			})
		})
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		var ce *ConflictError
		switch {
		case err == nil:
			if winner >= 0 {
				t.Errorf("edits %d and %d were both stored", winner, i)
			}
			winner = i
		case errors.As(err, &ce) && errors.Is(err, ErrConflict):
			if ce.Revision != 2 || ce.Head != 2 || ce.Author != "Sam" {
				t.Errorf("edit %d: conflict %+v, want revision 2 by Sam at head 2", i, *ce)
			}
		default:
			t.Errorf("edit %d: %v, want nil or a *ConflictError", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no edit was stored")
	}
	rec, err := s.Load(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("value %d", winner); rec.Revision != 2 || rec.Design.Overview.Scale != want {
		t.Fatalf("stored revision %d scale %q, want revision 2 and %q", rec.Revision, rec.Design.Overview.Scale, want)
	}
}

// Who counts as "someone else": a tab never conflicts with its own changes; two tabs conflict even
// under one display name; without tabs (the API, pages older than tab ids) the name decides; and a
// change of another part of the design is no conflict at all.
func TestApplyEdit_conflictsAreWithOtherEditorsOfTheSamePart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	scale := func(v string) designer.Change { return designer.SetOverviewField{Field: "scale", Value: v} }
	for _, tc := range []struct {
		name          string
		first, second Edit
		conflict      bool
	}{
		{"the same tab twice", Edit{Author: "Sam", Tab: "t1", Change: scale("a")}, Edit{Author: "Sam", Tab: "t1", Change: scale("b")}, false},
		{"two tabs, one name", Edit{Author: "Sam", Tab: "t1", Change: scale("a")}, Edit{Author: "Sam", Tab: "t2", Change: scale("b")}, true},
		{"the same name without tabs", Edit{Author: "Sam", Change: scale("a")}, Edit{Author: "Sam", Change: scale("b")}, false},
		{"two names without tabs", Edit{Author: "Sam", Change: scale("a")}, Edit{Author: "Kim", Change: scale("b")}, true},
		{"a tab after the same name without one", Edit{Author: "Sam", Change: scale("a")}, Edit{Author: "Sam", Tab: "t1", Change: scale("b")}, true},
		{"another field", Edit{Author: "Sam", Tab: "t1", Change: scale("a")}, Edit{Author: "Kim", Tab: "t2", Change: designer.SetOverviewField{Field: "domain", Value: "retail"}}, false},
		{"the whole design", Edit{Author: "Sam", Tab: "t1", Change: designer.ReplaceDesign{Design: newDesign(t, "Replaced")}}, Edit{Author: "Kim", Tab: "t2", Change: scale("b")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openTemp(t)
			created, _, err := s.Create(ctx, newDesign(t, "Orders"), "alice")
			if err != nil {
				t.Fatal(err)
			}
			tc.first.Base, tc.second.Base = created.Revision, created.Revision
			if _, err := s.ApplyEdit(ctx, created.ID, tc.first); err != nil {
				t.Fatalf("first edit: %v", err)
			}
			_, err = s.ApplyEdit(ctx, created.ID, tc.second)
			var ce *ConflictError
			switch {
			case tc.conflict && !errors.As(err, &ce):
				t.Fatalf("second edit: %v, want a conflict", err)
			case tc.conflict && (ce.Revision != 2 || ce.Author != tc.first.Author):
				t.Fatalf("conflict %+v, want revision 2 by %s", *ce, tc.first.Author)
			case !tc.conflict && err != nil:
				t.Fatalf("second edit: %v, want it stored", err)
			}
			// Made against the newest revision, the same edit is stored.
			if tc.conflict {
				tc.second.Base = ce.Head
				if _, err := s.ApplyEdit(ctx, created.ID, tc.second); err != nil {
					t.Fatalf("the second edit again from revision %d: %v", ce.Head, err)
				}
			}
		})
	}
}
