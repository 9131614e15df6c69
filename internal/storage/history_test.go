package storage

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"dynaloom/internal/designer"
)

// The stored changes between two revisions, replayed onto the first, give the second.
func TestChanges_replayBetweenRevisions(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	rec, _, err := s.Create(ctx, newDesign(t, "Shop"), "Ada")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []designer.Change{
		designer.SetName{Name: "Shop 2"},
		designer.SetOverviewField{Field: "domain", Value: "Retail"},
		designer.AddEntity{Name: "Customer"},
	} {
		if _, err := s.Apply(ctx, rec.ID, "Ada", c, 0); err != nil {
			t.Fatal(err)
		}
	}
	changes, err := s.Changes(ctx, rec.ID, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 || changes[0].Kind() != "set_overview_field" || changes[1].Kind() != "add_entity" {
		t.Fatalf("changes after 2 up to 4: %v", changes)
	}
	d, err := s.DesignAt(ctx, rec.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if d, err = c.Apply(d); err != nil {
			t.Fatal(err)
		}
	}
	want, err := s.DesignAt(ctx, rec.ID, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustJSON(t, designer.Normalize(d)), mustJSON(t, want)) {
		t.Error("replaying the changes after revision 2 does not give revision 4")
	}
	if none, err := s.Changes(ctx, rec.ID, 4, 4); err != nil || len(none) != 0 {
		t.Errorf("changes after the newest: %v, %v", none, err)
	}
	for _, r := range [][2]int64{{0, 2}, {3, 2}, {2, 5}, {5, 9}} {
		if _, err := s.Changes(ctx, rec.ID, r[0], r[1]); !errors.Is(err, ErrNotFound) {
			t.Errorf("changes after %d up to %d: %v, want ErrNotFound", r[0], r[1], err)
		}
	}
}
