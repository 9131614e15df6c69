package storage

import (
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
)

// oldHistory is a design's history as the layout before migration 005 stored it.
type oldHistory struct {
	id   string
	from int64 // the oldest revision held; its row holds the document (snapshot = 1)
	want map[int64]designer.Design
	head int64
}

// oldChanges are the changes of the old histories: cell edits, rows added and removed, text, and
// whole-design replacements stored whole, as they were.
func oldChanges(t *testing.T, n int) []designer.Change {
	t.Helper()
	var out []designer.Change
	for i := range n {
		var c designer.Change
		switch i % 7 {
		case 0, 1, 2:
			c = designer.SetItemCell{Table: "Orders", ID: fmt.Sprintf("i%d", i%20+1), Attribute: "status", Text: fmt.Sprint("S", i)}
		case 3:
			c = designer.AddItem{Table: "Orders", Item: designer.Item{"pk": designer.Str(fmt.Sprint("NEW#", i))}}
		case 4:
			c = designer.SetOverviewField{Field: "notes", Value: strings.Repeat(fmt.Sprint(i), 30)}
		case 5:
			c = designer.SetName{Name: fmt.Sprint("Renamed ", i)}
		case 6:
			if i%3 == 0 {
				d := tableWithItems(t, 25)
				d.Name = fmt.Sprint("Replaced ", i)
				c = designer.ReplaceDesign{Design: d, Note: "Restored revision 2"}
			} else {
				c = designer.SetItemCell{Table: "Orders", ID: "i2", Attribute: "note", Text: ""}
			}
		}
		out = append(out, c)
	}
	return out
}

// writeOldHistory stores a design with revisions up to head in the old layout: the rows from
// revision from on, the first holding the whole document, designs.doc holding the newest.
func writeOldHistory(t *testing.T, db *sql.DB, name string, from, head int64) oldHistory {
	t.Helper()
	ctx := context.Background()
	h := oldHistory{id: newID(), from: from, head: head, want: map[int64]designer.Design{}}
	d := tableWithItems(t, 20)
	d.Name = name
	h.want[1] = d
	changes := oldChanges(t, int(head-1))
	for rev := int64(2); rev <= head; rev++ {
		var err error
		if d, err = changes[rev-2].Apply(d); err != nil {
			t.Fatalf("revision %d: %v", rev, err)
		}
		d = designer.Normalize(d)
		h.want[rev] = d
	}
	at := formatTime(time.Now())
	doc := func(d designer.Design) string {
		b, err := designer.MarshalCompactJSON(d)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO designs (id, name, revision, doc, sealed_view, created_at, updated_at, history_from, history_bytes) VALUES (?, ?, ?, ?, x'00', ?, ?, ?, ?)`,
		h.id, d.Name, head, doc(d), at, at, from, 0); err != nil {
		t.Fatal(err)
	}
	var historyBytes int
	for rev := from; rev <= head; rev++ {
		change, snapshot, kind := "", 0, createKind
		if rev == from {
			change, snapshot = doc(h.want[rev]), 1
		} else {
			c := changes[rev-2]
			b, err := designer.MarshalChange(c)
			if err != nil {
				t.Fatal(err)
			}
			change, kind = string(b), c.Kind()
		}
		historyBytes += len(change)
		if _, err := db.ExecContext(ctx, `INSERT INTO revisions (design_id, revision, author, at, kind, summary, change, paths, snapshot) VALUES (?, ?, 'ada', ?, ?, 'old', ?, '[""]', ?)`,
			h.id, rev, at, kind, change, snapshot); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, `UPDATE designs SET history_bytes = ? WHERE id = ?`, historyBytes, h.id); err != nil {
		t.Fatal(err)
	}
	return h
}

// A database written by the layout before migration 005 (the current document in designs.doc,
// revision 1 and compaction bases holding documents in change, whole-design changes stored
// whole) opens: every revision it held opens as it did, each from a snapshot at most
// SnapshotEvery revisions back, designs.doc is gone, and the designs take changes.
func TestMigration005_oldHistoriesOpenAsTheyDidFromSnapshots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", fileURI(path)+"?mode=rwc&_journal_mode=WAL&_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	all, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`); err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.version > 4 {
			break
		}
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO schema_migrations VALUES (?, ?, ?, ?)`, m.version, m.name, m.checksum, formatTime(time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	histories := []oldHistory{
		writeOldHistory(t, db, "Whole history", 1, 150),
		writeOldHistory(t, db, "Compacted", 40, 100),
		writeOldHistory(t, db, "Just created", 1, 1),
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	const every = 16
	s, err := OpenWith(ctx, path, Options{Limits: Limits{SnapshotEvery: every}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var docColumns int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('designs') WHERE name = 'doc'`).Scan(&docColumns); err != nil || docColumns != 0 {
		t.Fatalf("designs.doc is still there (%d, %v)", docColumns, err)
	}
	for _, h := range histories {
		for rev := int64(1); rev <= h.head; rev++ {
			got, err := s.DesignAt(ctx, h.id, rev)
			if rev < h.from {
				if !errors.Is(err, ErrNotFound) {
					t.Errorf("%s revision %d, compacted away: %v", h.want[1].Name, rev, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s revision %d: %v", h.want[1].Name, rev, err)
			}
			if string(mustJSON(t, got)) != string(mustJSON(t, h.want[rev])) {
				t.Fatalf("%s revision %d opens differently after the migration", h.want[1].Name, rev)
			}
			if back := replayLength(t, s, h.id, rev); back > every {
				t.Errorf("%s revision %d replays %d changes, want at most %d", h.want[1].Name, rev, back, every)
			}
		}
		rec, err := s.Load(ctx, h.id)
		if err != nil || rec.Revision != h.head || string(mustJSON(t, rec.Design)) != string(mustJSON(t, h.want[h.head])) {
			t.Fatalf("%s: Load after the migration: revision %d, %v", h.want[1].Name, rec.Revision, err)
		}
		var docBytes, historyBytes, counted int64
		if err := s.r.QueryRowContext(ctx, `SELECT doc_bytes, history_bytes, (SELECT SUM(`+rowBytes+`) FROM revisions WHERE design_id = id) FROM designs WHERE id = ?`, h.id).
			Scan(&docBytes, &historyBytes, &counted); err != nil {
			t.Fatal(err)
		}
		doc, _ := designer.MarshalCompactJSON(rec.Design)
		if docBytes != int64(len(doc)) || historyBytes != counted {
			t.Errorf("%s: doc_bytes %d for a document of %d, history_bytes %d for %d", h.want[1].Name, docBytes, len(doc), historyBytes, counted)
		}
		next, err := s.Apply(ctx, h.id, "ada", designer.SetName{Name: "After the migration"}, h.head)
		if err != nil || next.Revision != h.head+1 {
			t.Fatalf("%s: a change after the migration: %v", h.want[1].Name, err)
		}
		changes, err := s.Changes(ctx, h.id, max(h.from, h.head-20), h.head)
		if err != nil || len(changes) != int(h.head-max(h.from, h.head-20)) {
			t.Fatalf("%s: the changes of the last revisions: %d, %v", h.want[1].Name, len(changes), err)
		}
	}
}

// replayLength is how many changes opening revision rev of design id replays: how far back its
// newest snapshot is.
func replayLength(t *testing.T, s *Store, id string, rev int64) int64 {
	t.Helper()
	var base int64
	if err := s.r.QueryRowContext(context.Background(), `SELECT max(revision) FROM revisions WHERE design_id = ? AND revision <= ? AND (snapshot = 1 OR doc IS NOT NULL)`, id, rev).
		Scan(&base); err != nil {
		t.Fatal(err)
	}
	return rev - base
}

// testdata/schema4.db was written by the build before migration 005 (the store of commit
// e906ad0): a design edited 70 times under a history limit of 40 revisions, so compacted, with
// restores (whole-design changes stored whole), undos and deleted items among its changes, and a
// design of two revisions. schema4.want.json.gz holds what that build opened at every revision
// it still held. After the migration, every one of them opens the same.
func TestMigration005_aDatabaseOfTheOldBuildOpensTheSame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "schema4.db")
	copyTo(t, filepath.Join("testdata", "schema4.db"), path)
	f, err := os.Open(filepath.Join("testdata", "schema4.want.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var want []struct {
		ID   string                    `json:"id"`
		From int64                     `json:"history_from"`
		Head int64                     `json:"head"`
		Docs map[int64]json.RawMessage `json:"revisions"`
	}
	if err := json.NewDecoder(zr).Decode(&want); err != nil {
		t.Fatal(err)
	}
	s, err := OpenWith(ctx, path, Options{Limits: Limits{SnapshotEvery: 8}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opened := 0
	for _, w := range want {
		for rev := w.From; rev <= w.Head; rev++ {
			expected, err := decodeDesign(w.Docs[rev])
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.DesignAt(ctx, w.ID, rev)
			if err != nil || string(mustJSON(t, got)) != string(mustJSON(t, expected)) {
				t.Fatalf("design %s revision %d opens differently after the migration (%v)", w.ID, rev, err)
			}
			if back := replayLength(t, s, w.ID, rev); back >= 8 {
				t.Errorf("design %s revision %d replays %d changes", w.ID, rev, back)
			}
			opened++
		}
		if _, err := s.DesignAt(ctx, w.ID, w.From-1); w.From > 1 && !errors.Is(err, ErrNotFound) {
			t.Errorf("design %s revision %d, compacted away before the migration: %v", w.ID, w.From-1, err)
		}
		rec, err := s.Load(ctx, w.ID)
		if err != nil || rec.Revision != w.Head {
			t.Fatalf("design %s: Load gives revision %d, %v", w.ID, rec.Revision, err)
		}
		if _, _, err := s.Undo(ctx, w.ID, Edit{Author: "Ada"}); err != nil {
			var ue *UndoError
			if !errors.As(err, &ue) {
				t.Fatalf("design %s: undo after the migration: %v", w.ID, err)
			}
		}
	}
	if opened < 40 {
		t.Fatalf("the fixture held %d revisions", opened)
	}
	if problems, err := Check(ctx, path); err != nil || len(problems) > 0 {
		t.Fatalf("integrity check after the migration: %v %v", problems, err)
	}
}
