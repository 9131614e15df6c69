package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/memory"
)

func openWith(t testing.TB, opts Options) *Store {
	t.Helper()
	s, err := OpenWith(context.Background(), filepath.Join(t.TempDir(), "dynaloom.db"), opts)
	if err != nil {
		t.Fatalf("OpenWith: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// tableWithItems is a design with one table of n sample items.
func tableWithItems(t testing.TB, n int) designer.Design {
	t.Helper()
	d := newDesign(t, "Items")
	d.Tables = []designer.Table{{Name: "Orders", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}}}
	for i := range n {
		d.Tables[0].Items = append(d.Tables[0].Items, designer.SampleItem{
			ID:   fmt.Sprintf("i%d", i+1),
			Item: designer.Item{"pk": designer.Str(fmt.Sprintf("ORDER#%06d", i)), "note": designer.Str(strings.Repeat("x", 40))},
		})
	}
	return designer.Normalize(d)
}

// A design past a limit is refused with the limit's name, at creation and by a change, and the
// refusal stores nothing.
func TestLimits_designSizeAndItemsPerTableAreRefusedWithTheirName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openWith(t, Options{Limits: Limits{DesignBytes: 20 << 10, ItemsPerTable: 100}})
	var le *LimitError
	if _, _, err := s.Create(ctx, tableWithItems(t, 101), "ada"); !errors.As(err, &le) || le.Flag != "--max-items-per-table" ||
		!strings.Contains(err.Error(), "Orders") || !strings.Contains(err.Error(), "101") {
		t.Fatalf("creating a table of 101 items under a limit of 100: %v", err)
	}
	rec, _, err := s.Create(ctx, tableWithItems(t, 100), "ada")
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("long notes ", 1500) // 16.5 KB, over the 20 KiB limit with the 100 items
	_, err = s.Apply(ctx, rec.ID, "ada", designer.SetOverviewField{Field: "notes", Value: big}, 0)
	if !errors.As(err, &le) || le.Flag != "--max-design-bytes" || !errors.Is(err, ErrLimit) {
		t.Fatalf("a change past the design size limit: %v", err)
	}
	now, err := s.Load(ctx, rec.ID)
	if err != nil || now.Revision != 1 || now.Design.Overview.Notes != "" {
		t.Fatalf("a refused change was stored: revision %d, %v", now.Revision, err)
	}
	revs, _ := s.Revisions(ctx, rec.ID)
	if len(revs) != 1 {
		t.Fatalf("history has %d rows after a refused change", len(revs))
	}
}

// The cache of current designs is bounded by their weight: many heavy designs push out the
// least recently used, and a light one used often stays.
func TestCache_boundedByBytesNotCount(t *testing.T) {
	t.Parallel()
	light, heavy := tableWithItems(t, 2), tableWithItems(t, 300)
	lightCost, heavyCost := memory.Size(&Record{Design: light}), memory.Size(&Record{Design: heavy})
	budget := lightCost + 4*heavyCost + heavyCost/2
	c := newRecordCache(memory.NewBudget(budget))
	c.put(Record{ID: "light", Revision: 1, Design: light}, 10)
	for i := range 50 {
		c.put(Record{ID: fmt.Sprint("heavy", i), Revision: 1, Design: heavy}, 300)
		if _, ok := c.get("light", 1); !ok {
			t.Fatalf("the light record used after every put was dropped at heavy %d", i)
		}
	}
	records, bytes := c.size()
	if bytes > budget || records != 5 {
		t.Fatalf("cache holds %d records, %d bytes; want 5 within %d", records, bytes, budget)
	}
	c.put(Record{ID: "huge", Revision: 1, Design: tableWithItems(t, 3000)}, 5000)
	if _, ok := c.get("huge", 1); ok {
		t.Fatal("a record larger than the whole budget was kept")
	}
	c.put(Record{ID: "light", Revision: 2, Design: light}, 10)
	c.put(Record{ID: "light", Revision: 1, Design: light}, 10)
	if _, ok := c.get("light", 2); !ok {
		t.Fatal("an older revision replaced a newer one")
	}
}

// A record is charged what decoding its design really took on the heap, within a quarter, and
// a later revision whose stored size moved little is charged that measure scaled by its size.
func TestCache_costIsTheDecodedDesign(t *testing.T) {
	for _, n := range []int{100, 1000, 4000} {
		doc, err := designer.MarshalCompactJSON(tableWithItems(t, n))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		const copies = 5
		keep := make([]designer.Design, copies)
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range keep {
			if keep[i], err = decodeDesign(doc); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perDesign := float64(after.HeapAlloc-before.HeapAlloc) / copies
		runtime.KeepAlive(keep)
		runtime.KeepAlive(doc)

		c := newRecordCache(memory.NewBudget(DefaultCacheBytes))
		c.put(Record{ID: "d", Revision: 1, Design: keep[0]}, len(doc))
		_, charged := c.size()
		ratio := float64(charged) / perDesign
		t.Logf("%d items: %d-byte document decodes to %.0f heap bytes; the cache charges %d (%.2f×)", n, len(doc), perDesign, charged, ratio)
		if ratio < 0.75 || ratio > 1.25 {
			t.Errorf("%d items: the cache charges %d bytes for a design that takes %.0f (%.2f×), want within 25%%", n, charged, perDesign, ratio)
		}
		c.put(Record{ID: "d", Revision: 2, Design: keep[1]}, len(doc)+len(doc)/10)
		if _, scaled := c.size(); scaled != charged*int64(len(doc)+len(doc)/10)/int64(len(doc)) {
			t.Errorf("%d items: a revision 10%% larger is charged %d, want %d scaled by its size", n, scaled, charged)
		}
	}
}

// Past the revision limit the oldest history is folded into a snapshot: the newest revisions
// still open and replay to the current design, older ones are gone, and the store reopens.
func TestCompaction_keepsTheNewestRevisionsAndFoldsTheRest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dynaloom.db")
	s, err := OpenWith(ctx, path, Options{Limits: Limits{Revisions: 20}})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := s.Create(ctx, newDesign(t, "Compact"), "ada")
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 60; i++ {
		if rec, err = s.Apply(ctx, rec.ID, "ada", designer.SetOverviewField{Field: "notes", Value: fmt.Sprint("revision ", i)}, 0); err != nil {
			t.Fatal(err)
		}
		s.WaitCompactions()
	}
	revs, err := s.Revisions(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) > 20 || revs[0].Revision != 60 {
		t.Fatalf("history holds %d revisions, newest %d; want at most 20, newest 60", len(revs), revs[0].Revision)
	}
	oldest := revs[len(revs)-1].Revision
	for rev := oldest; rev <= 60; rev++ {
		d, err := s.DesignAt(ctx, rec.ID, rev)
		if err != nil || d.Overview.Notes != fmt.Sprint("revision ", rev) {
			t.Fatalf("revision %d after compaction: %q, %v", rev, d.Overview.Notes, err)
		}
	}
	if _, err := s.DesignAt(ctx, rec.ID, oldest-1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a folded revision: %v, want ErrNotFound", err)
	}
	if _, err := s.Changes(ctx, rec.ID, oldest-1, 60); !errors.Is(err, ErrNotFound) {
		t.Fatalf("changes from a folded revision: %v, want ErrNotFound", err)
	}
	if ch, err := s.Changes(ctx, rec.ID, oldest, 60); err != nil || len(ch) != int(60-oldest) {
		t.Fatalf("changes from the snapshot on: %d, %v", len(ch), err)
	}
	// An edit made against a folded revision cannot be checked against what was folded: it is
	// refused as a conflict with the snapshot. One made against a kept revision is checked as usual.
	var ce *ConflictError
	if _, err := s.ApplyEdit(ctx, rec.ID, Edit{Change: designer.SetName{Name: "Old page"}, Author: "bo", Tab: "tab-of-bo", Base: oldest - 2}); !errors.As(err, &ce) || ce.Revision != oldest {
		t.Fatalf("an edit from a folded revision: %v", err)
	}
	if _, err := s.ApplyEdit(ctx, rec.ID, Edit{Change: designer.SetName{Name: "New page"}, Author: "bo", Tab: "tab-of-bo", Base: oldest}); err != nil {
		t.Fatalf("an edit from a kept revision of another part: %v", err)
	}
	s.Close()
	s, err = OpenWith(ctx, path, Options{Limits: Limits{Revisions: 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cur, err := s.Load(ctx, rec.ID)
	if err != nil || cur.Revision != 61 || cur.Design.Overview.Notes != "revision 60" || cur.Design.Name != "New page" {
		t.Fatalf("after reopening: %+v %v", cur.Revision, err)
	}
}

// Large changes are compacted by their bytes as well: the stored history stays within the
// history limit however many large changes come.
func TestCompaction_boundsTheHistoryBytes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const limit = 256 << 10
	s := openWith(t, Options{Limits: Limits{HistoryBytes: limit}})
	rec, _, err := s.Create(ctx, newDesign(t, "Big changes"), "ada")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		notes := fmt.Sprint(i, strings.Repeat(" eighteen kilobytes", 950))
		if rec, err = s.Apply(ctx, rec.ID, "ada", designer.SetOverviewField{Field: "notes", Value: notes}, 0); err != nil {
			t.Fatal(err)
		}
		s.WaitCompactions()
	}
	var stored, counted int64
	if err := s.r.QueryRowContext(ctx, `SELECT SUM(`+rowBytes+`) FROM revisions WHERE design_id = ?`, rec.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT history_bytes FROM designs WHERE id = ?`, rec.ID).Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if stored > limit || counted != stored {
		t.Fatalf("history holds %d bytes (counted %d), limit %d", stored, counted, limit)
	}
	if d, err := s.DesignAt(ctx, rec.ID, rec.Revision); err != nil || d.Overview.Notes != rec.Design.Overview.Notes {
		t.Fatalf("the newest revision after compaction: %v", err)
	}
}
