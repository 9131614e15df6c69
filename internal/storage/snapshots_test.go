package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// Edits write the change and, every SnapshotEvery revisions, a snapshot: every revision opens as
// it was acknowledged, replaying at most SnapshotEvery changes, from a warm store and from a
// freshly opened one, and the design's size figure is its document's length.
func TestApplyEdit_snapshotsEveryNRevisionsAndEveryRevisionOpens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const every = 8
	path := filepath.Join(t.TempDir(), "dynaloom.db")
	s, err := OpenWith(ctx, path, Options{Limits: Limits{SnapshotEvery: every}})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := s.Create(ctx, tableWithItems(t, 30), "ada")
	if err != nil {
		t.Fatal(err)
	}
	acked := map[int64]designer.Design{1: rec.Design}
	for i, c := range oldChanges(t, 60) {
		if rec, err = s.ApplyEdit(ctx, rec.ID, Edit{Change: c, Author: "ada"}); err != nil {
			t.Fatalf("change %d (%s): %v", i, c.Kind(), err)
		}
		acked[rec.Revision] = rec.Design
		var docBytes int
		if err := s.r.QueryRowContext(ctx, `SELECT doc_bytes FROM designs WHERE id = ?`, rec.ID).Scan(&docBytes); err != nil {
			t.Fatal(err)
		}
		if doc, _ := designer.MarshalCompactJSON(rec.Design); docBytes < len(doc)-16 || docBytes > len(doc)+16 {
			t.Fatalf("after %s the size figure is %d for a document of %d", c.Kind(), docBytes, len(doc))
		}
	}
	check := func(s *Store, when string) {
		for rev, want := range acked {
			got, err := s.DesignAt(ctx, rec.ID, rev)
			if err != nil || string(mustJSON(t, got)) != string(mustJSON(t, want)) {
				t.Fatalf("%s: revision %d does not open as acknowledged: %v", when, rev, err)
			}
			if back := replayLength(t, s, rec.ID, rev); back >= every {
				t.Errorf("%s: revision %d replays %d changes, want fewer than %d", when, rev, back, every)
			}
		}
		now, err := s.Load(ctx, rec.ID)
		if err != nil || now.Revision != rec.Revision || string(mustJSON(t, now.Design)) != string(mustJSON(t, rec.Design)) {
			t.Fatalf("%s: Load gives revision %d, %v", when, now.Revision, err)
		}
	}
	check(s, "warm")
	s.Close()
	s, err = OpenWith(ctx, path, Options{Limits: Limits{SnapshotEvery: every}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(s, "reopened")
}

// A design past 64 KiB waits SnapshotEvery revisions per 64 KiB of its document between two
// snapshots, so that a snapshot, whose encoding grows with the document, costs each edit of a
// large design what it costs a small one's; a small design keeps SnapshotEvery. Every revision
// still opens as it was acknowledged.
func TestApplyEdit_largeDesignsWaitLongerBetweenSnapshots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const every = 4
	s := openWith(t, Options{Limits: Limits{SnapshotEvery: every}})
	for _, tc := range []struct {
		items   int
		stretch int64
	}{{10, 1}, {2600, 4}} {
		rec, _, err := s.Create(ctx, tableWithItems(t, tc.items), "ada")
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := designer.MarshalCompactJSON(rec.Design)
		want := every * tc.stretch
		if got := s.SnapshotInterval(int64(len(doc))); got != want {
			t.Fatalf("%d items (%d bytes): snapshots every %d revisions, want %d", tc.items, len(doc), got, want)
		}
		acked := map[int64]designer.Design{}
		var longest int64
		for i := range 3 * want {
			c := designer.SetItemCell{Table: "Orders", ID: fmt.Sprint("i", i%7+1), Attribute: "status", Text: fmt.Sprint("S", i)}
			if rec, err = s.ApplyEdit(ctx, rec.ID, Edit{Change: c, Author: "ada"}); err != nil {
				t.Fatal(err)
			}
			acked[rec.Revision] = rec.Design
			longest = max(longest, replayLength(t, s, rec.ID, rec.Revision))
		}
		if longest != want-1 {
			t.Errorf("%d items (%d bytes): the longest replay is %d changes, want %d (a snapshot every %d revisions)", tc.items, len(doc), longest, want-1, want)
		}
		for rev, d := range acked {
			if rev <= rec.Revision-want {
				continue // the revisions of one whole interval are enough
			}
			got, err := s.DesignAt(ctx, rec.ID, rev)
			if err != nil || string(mustJSON(t, got)) != string(mustJSON(t, d)) {
				t.Fatalf("%d items: revision %d does not open as acknowledged: %v", tc.items, rev, err)
			}
		}
	}
}

// The design size limit holds for designs that grow edit by edit, where the size is kept up to
// date from the parts each change touched rather than measured whole: the change that would take
// the document past the limit is refused, the one before it is stored.
func TestLimits_designSizeRefusesTheEditThatPassesIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const limit = 200 << 10
	s := openWith(t, Options{Limits: Limits{DesignBytes: limit, SnapshotEvery: 1000}})
	rec, _, err := s.Create(ctx, tableWithItems(t, 50), "ada")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("0123456789", 1500)
	for i := 1; ; i++ {
		c := designer.SetItemCell{Table: "Orders", ID: fmt.Sprint("i", i), Attribute: "note", Text: text}
		want, err := c.Apply(rec.Design)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := designer.MarshalCompactJSON(want)
		next, err := s.Apply(ctx, rec.ID, "ada", c, 0)
		if len(doc) <= limit {
			if err != nil {
				t.Fatalf("edit %d to %d bytes, within the limit of %d: %v", i, len(doc), limit, err)
			}
			rec = next
			continue
		}
		var le *LimitError
		if !errors.As(err, &le) || le.Flag != "--max-design-bytes" {
			t.Fatalf("edit %d to %d bytes, past the limit of %d: %v", i, len(doc), limit, err)
		}
		break
	}
	if now, err := s.Load(ctx, rec.ID); err != nil || now.Revision != rec.Revision {
		t.Fatalf("the refused edit was stored: revision %d, want %d (%v)", now.Revision, rec.Revision, err)
	}
}

// A whole-design change that changes little is stored as a patch of about the size of what it
// changed; one that changes everything is stored once, as a snapshot. Both open as they were
// acknowledged, and the history gives both back as whole-design changes.
func TestApplyEdit_wholeDesignIsStoredAsAPatchOrASnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openWith(t, Options{})
	rec, _, err := s.Create(ctx, tableWithItems(t, 200), "ada")
	if err != nil {
		t.Fatal(err)
	}
	oneField := rec.Design
	oneField.Overview.Notes = "One field changed"
	other := tableWithItems(t, 10)
	other.Name = "Something else"
	for _, tc := range []struct {
		name     string
		design   designer.Design
		snapshot bool
	}{
		{"one field", oneField, false},
		{"everything", other, true},
	} {
		before := rec.Revision
		if rec, err = s.ApplyEdit(ctx, rec.ID, Edit{Change: designer.ReplaceDesign{Design: tc.design, Note: "Put"}, Author: "ada"}); err != nil {
			t.Fatal(err)
		}
		var change, doc []byte
		if err := s.r.QueryRowContext(ctx, `SELECT change, doc FROM revisions WHERE design_id = ? AND revision = ?`, rec.ID, rec.Revision).Scan(&change, &doc); err != nil {
			t.Fatal(err)
		}
		whole, _ := designer.MarshalCompactJSON(tc.design)
		if (doc != nil) != tc.snapshot || len(change)+len(doc) > len(whole)/2 {
			t.Errorf("%s: stored %d bytes of change and %d of snapshot for a document of %d", tc.name, len(change), len(doc), len(whole))
		}
		got, err := s.DesignAt(ctx, rec.ID, rec.Revision)
		if err != nil || string(mustJSON(t, got)) != string(mustJSON(t, designer.Normalize(tc.design))) {
			t.Fatalf("%s: the stored revision opens differently: %v", tc.name, err)
		}
		changes, err := s.Changes(ctx, rec.ID, before, rec.Revision)
		if err != nil {
			t.Fatal(err)
		}
		replayed, err := changes[0].Apply(designer.Design{})
		if tc.snapshot && (err != nil || string(mustJSON(t, replayed)) != string(mustJSON(t, got))) {
			t.Errorf("%s: the history gives back %T, which does not make the design: %v", tc.name, changes[0], err)
		}
		revs, _ := s.Revisions(ctx, rec.ID)
		if revs[0].Kind != "replace_design" || revs[0].Summary != "Put" {
			t.Errorf("%s: history says %s, %q", tc.name, revs[0].Kind, revs[0].Summary)
		}
	}
}
