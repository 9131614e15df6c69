package server

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/live"
)

// postChange posts one change envelope to the change API.
func (a *testApp) postChange(token, body string, headers ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.request(http.MethodPost, "/api/designs/"+token+"/changes", echoJSON, strings.NewReader(body), headers...)
}

const echoJSON = "application/json"

// docExample is one section of docs/changes.md: a kind and its example envelope.
type docExample struct {
	kind, example string
	line          int
}

// changesDoc reads the examples of docs/changes.md in document order: each "### `kind`" heading
// with the first json block under it.
func changesDoc(t *testing.T) []docExample {
	t.Helper()
	raw, err := os.ReadFile("../../docs/changes.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	var block *strings.Builder // the fenced block being read, or nil
	taken := false             // whether the section's first block was read
	for i, line := range strings.Split(string(raw), "\n") {
		switch {
		case block != nil && line == "```":
			if n := len(out); n > 0 && !taken {
				out[n-1].example, taken = block.String(), true
			}
			block = nil
		case block != nil:
			block.WriteString(line + "\n")
		case strings.HasPrefix(line, "### "):
			out = append(out, docExample{kind: strings.Trim(strings.TrimPrefix(line, "### "), "` "), line: i + 1})
			taken = false
		case strings.HasPrefix(line, "```"):
			block = &strings.Builder{}
			if line != "```json" {
				// A section whose first block is not JSON has no example.
				taken = true
			}
		}
	}
	return out
}

// Every registered kind of change has a section of docs/changes.md with a JSON example of that
// kind, and the document names no kind that does not exist.
func TestChangesDoc_everyKindHasASectionWithAnExample(t *testing.T) {
	t.Parallel()
	doc := changesDoc(t)
	seen := map[string]bool{}
	for _, ex := range doc {
		if seen[ex.kind] {
			t.Errorf("docs/changes.md:%d: a second section for %s", ex.line, ex.kind)
		}
		seen[ex.kind] = true
		var env struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal([]byte(ex.example), &env); err != nil || env.Kind != ex.kind {
			t.Errorf("docs/changes.md:%d: section %s: the first block is not a JSON example of that kind (%v): %q", ex.line, ex.kind, err, ex.example)
		}
	}
	for _, k := range designer.ChangeKinds() {
		if !seen[k] {
			t.Errorf("docs/changes.md has no section for the change kind %s", k)
		}
		delete(seen, k)
	}
	for k := range seen {
		t.Errorf("docs/changes.md documents %s, which is not a kind of change", k)
	}
}

// Every example of docs/changes.md, posted in document order through the API to a design made
// from the HR example, is accepted and makes exactly one revision: the document cannot rot.
func TestChangesDoc_everyExampleIsAcceptedInOrder(t *testing.T) {
	t.Parallel()
	// Seventy changes in a row are more than one address may make in a short time.
	a := newTestAppWith(t, Options{WriteLimit: NoLimit})
	created := a.createJSON(`{"example": "hr-employees"}`)
	_, rev := a.design(created.EditToken)
	for _, ex := range changesDoc(t) {
		rec := a.postChange(created.EditToken, ex.example, "Cookie", participantCookie+"=Ada")
		if rec.Code != http.StatusOK {
			t.Fatalf("docs/changes.md:%d: the %s example was refused: %d %s", ex.line, ex.kind, rec.Code, rec.Body)
		}
		rev++
		if got := rec.Header().Get("ETag"); got != etag(rev) {
			t.Fatalf("docs/changes.md:%d: the %s example answered ETag %s, want %s", ex.line, ex.kind, got, etag(rev))
		}
	}
	if _, got := a.design(created.EditToken); got != rev {
		t.Fatalf("the design is at revision %d after the examples, want %d", got, rev)
	}
}

// itemText reads one attribute of a sample item of the design as the API gives it.
func (a *testApp) itemText(token, table, id, attr string) string {
	a.t.Helper()
	d, _ := a.design(token)
	t, _, ok := d.TableByName(table)
	if !ok {
		a.t.Fatalf("no table %s", table)
	}
	it, _, ok := t.ItemByID(id)
	if !ok {
		a.t.Fatalf("no item %s in %s", id, table)
	}
	v, ok := it.Item[attr]
	if !ok {
		return ""
	}
	return designer.FormatCell(v)
}

const retitle = `{"kind": "set_item_cell", "change": {"table": "Employee", "id": "e10001", "attribute": "current_title", "text": "%s"}}`

// A script changes one cell: the answer names the new revision (body and ETag), the history
// names the request's author, and If-Match guards against a revision that is no longer the newest.
func TestAPI_changeEditsOneCellAndAnswersTheNewRevision(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	_, rev := a.design(created.EditToken)
	rec := a.postChange(created.EditToken, fmt.Sprintf(retitle, "Staff Engineer"), "Cookie", participantCookie+"=Ada")
	if rec.Code != http.StatusOK {
		t.Fatalf("change: %d %s", rec.Code, rec.Body)
	}
	var body struct {
		ID       string `json:"id"`
		Revision int64  `json:"revision"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Revision != rev+1 || body.ID != created.ID || rec.Header().Get("ETag") != etag(rev+1) {
		t.Fatalf("answer %+v, ETag %s; want revision %d of %s", body, rec.Header().Get("ETag"), rev+1, created.ID)
	}
	if got := a.itemText(created.EditToken, "Employee", "e10001", "current_title"); got != "Staff Engineer" {
		t.Fatalf("the cell reads %q after the change", got)
	}
	if revs := a.revisions(created.EditToken); revs[0].Author != "Ada" || !strings.Contains(revs[0].Summary, "current_title") {
		t.Fatalf("newest history entry %+v, want Ada's change of current_title", revs[0])
	}

	// If-Match: the newest revision goes through; an older one is refused and changes nothing.
	if rec := a.postChange(created.EditToken, fmt.Sprintf(retitle, "Principal Engineer"), "If-Match", etag(rev+1)); rec.Code != http.StatusOK {
		t.Fatalf("change with the current If-Match: %d %s", rec.Code, rec.Body)
	}
	rec = a.postChange(created.EditToken, fmt.Sprintf(retitle, "Lost update"), "If-Match", etag(rev+1))
	if rec.Code != http.StatusPreconditionFailed {
		t.Fatalf("change with a stale If-Match: %d %s, want 412", rec.Code, rec.Body)
	}
	if code, _ := decodeError(t, rec); code != "stale_revision" {
		t.Errorf("stale If-Match: code %q", code)
	}
	if got := a.itemText(created.EditToken, "Employee", "e10001", "current_title"); got != "Principal Engineer" {
		t.Fatalf("a refused change changed the cell to %q", got)
	}
	if _, now := a.design(created.EditToken); now != rev+2 {
		t.Fatalf("revision %d after a refused change, want %d", now, rev+2)
	}
}

// What a script gets wrong is refused with the status the API gives it everywhere, a message
// naming the member or field at fault, and no change to the design.
func TestAPI_changeRefusals(t *testing.T) {
	t.Parallel()
	a := newTestAppWith(t, Options{BodyLimit: 4 << 10, WriteLimit: NoLimit})
	created := a.createJSON(`{"name": "Orders", "tables": [{"name": "Orders", "partition_key": {"name": "id", "type": "S"},
		"items": [{"id": "i7", "item": {"id": {"S": "o-7"}, "status": {"S": "NEW"}}}]}]}`)
	if rec := a.postChange(created.EditToken, `{"kind": "set_overview_field", "change": {"field": "domain", "value": "Retail"}}`); rec.Code != http.StatusOK {
		t.Fatalf("first change: %d %s", rec.Code, rec.Body)
	}
	_, rev := a.design(created.EditToken)
	cell := `{"kind": "set_item_cell", "change": {"table": "Orders", "id": "i7", "attribute": "status", "text": "SHIPPED"}}`
	for _, tc := range []struct {
		name, token, body string
		headers           []string
		status            int
		code, field       string
	}{
		{"view token", created.ViewToken, cell, nil, http.StatusForbidden, "view_only", ""},
		{"unknown kind", created.EditToken, `{"kind": "set_colour", "change": {}}`, nil, http.StatusBadRequest, "invalid_input", "kind:"},
		{"no kind", created.EditToken, `{"change": {"name": "x"}}`, nil, http.StatusBadRequest, "invalid_input", "kind:"},
		{"no change", created.EditToken, `{"kind": "set_name"}`, nil, http.StatusBadRequest, "invalid_input", "change:"},
		{"not JSON", created.EditToken, `kind=set_name`, nil, http.StatusBadRequest, "invalid_input", "body:"},
		{"misspelt member", created.EditToken, `{"kind": "set_item_cell", "change": {"table": "Orders", "id": "i7", "attribute": "status", "txt": "SHIPPED"}}`,
			nil, http.StatusBadRequest, "invalid_input", "change/txt:"},
		{"wrong type", created.EditToken, `{"kind": "set_item_cell", "change": {"table": "Orders", "id": "i7", "attribute": "status", "text": 5}}`,
			nil, http.StatusBadRequest, "invalid_input", "change/text:"},
		{"refused by the design", created.EditToken, `{"kind": "set_item_cell", "change": {"table": "Invoices", "id": "i7", "attribute": "status", "text": "X"}}`,
			nil, http.StatusBadRequest, "invalid_input", "table:"},
		{"empty name", created.EditToken, `{"kind": "set_name", "change": {"name": " "}}`, nil, http.StatusBadRequest, "invalid_input", "name:"},
		{"bad If-Match", created.EditToken, cell, []string{"If-Match", "soon"}, http.StatusBadRequest, "invalid_input", "If-Match:"},
		{"stale If-Match", created.EditToken, cell, []string{"If-Match", etag(rev - 1)}, http.StatusPreconditionFailed, "stale_revision", ""},
		{"body over the limit", created.EditToken, `{"kind": "set_name", "change": {"name": "` + strings.Repeat("x", 5<<10) + `"}}`,
			nil, http.StatusRequestEntityTooLarge, "body_too_large", ""},
		{"unknown token", "AAAAAAAAAAAAAAAAAAAAAAAAAA", cell, nil, http.StatusNotFound, "not_found", ""},
	} {
		rec := a.postChange(tc.token, tc.body, tc.headers...)
		if rec.Code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body, tc.status)
			continue
		}
		code, msg := decodeError(t, rec)
		if code != tc.code || !strings.HasPrefix(msg, tc.field) {
			t.Errorf("%s: %s %q, want %s naming %q", tc.name, code, msg, tc.code, tc.field)
		}
	}
	if d, now := a.design(created.EditToken); now != rev || a.itemText(created.EditToken, "Orders", "i7", "status") != "NEW" || d.Name != "Orders" {
		t.Fatalf("refused changes changed the design: revision %d (want %d)", now, rev)
	}
}

// A comment sent through the API is the request's author's, written now, whatever the envelope
// says; and only its author may delete it, as on the page.
func TestAPI_changeCommentsAreTheRequestsAuthors(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	forged := `{"kind": "add_comment", "change": {"target": "tables/Employee", "body": "Keep PROFILE rows?", "author": "The CEO", "at": "2001-01-01T00:00:00Z"}}`
	if rec := a.postChange(created.EditToken, forged, "Cookie", participantCookie+"=Ada"); rec.Code != http.StatusOK {
		t.Fatalf("comment: %d %s", rec.Code, rec.Body)
	}
	d, _ := a.design(created.EditToken)
	cm := d.Comments[len(d.Comments)-1]
	if cm.Author != "Ada" || strings.HasPrefix(cm.At, "2001") {
		t.Fatalf("the comment is by %q at %s, want Ada now", cm.Author, cm.At)
	}
	del := `{"kind": "delete_comment", "change": {"id": "` + cm.ID + `", "target": "tables/Employee"}}`
	rec := a.postChange(created.EditToken, del, "Cookie", participantCookie+"=Bob")
	if rec.Code != http.StatusForbidden {
		t.Fatalf("Bob deleting Ada's comment: %d %s, want 403", rec.Code, rec.Body)
	}
	if rec := a.postChange(created.EditToken, del, "Cookie", participantCookie+"=Ada"); rec.Code != http.StatusOK {
		t.Fatalf("Ada deleting her comment: %d %s", rec.Code, rec.Body)
	}
}

// A change made through the API reaches everyone who has the design open, like an edit on a page.
func TestAPI_changeIsAnnouncedLive(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	stream := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	_, rev := a.design(created.EditToken)
	if rec := a.postChange(created.EditToken, fmt.Sprintf(retitle, "Staff Engineer"), "Cookie", participantCookie+"=Ada"); rec.Code != http.StatusOK {
		t.Fatalf("change: %d %s", rec.Code, rec.Body)
	}
	ev := stream.nextNamed(t, "change")
	var data live.ChangeData
	if err := json.Unmarshal([]byte(ev.data), &data); err != nil {
		t.Fatal(err)
	}
	if data.Revision != rev+1 || data.Author != "Ada" || len(data.Paths) != 1 || !strings.Contains(string(data.Paths[0]), "e10001") {
		t.Fatalf("change event %+v, want revision %d by Ada on item e10001", data, rev+1)
	}
}

// BenchmarkChangeAPI_cellEdit is one set_item_cell posted to the change API over HTTP (loopback):
// routing, the body, the change, the durable commit and the JSON answer. Compare it with
// BenchmarkSQLiteCommit_oneRow, a bare commit of one row on the same driver and settings, run in
// the same go test -bench: the ratio is what the edit path costs above the write it cannot avoid.
// Its cpu-ms/op counts the HTTP client's share too, as the client runs in the same process; the
// load test (test/load) measures the server's alone.
func BenchmarkChangeAPI_cellEdit(b *testing.B) {
	for _, bc := range []struct {
		name, design, table, id, attr string
	}{
		{"hr", `{"example": "hr-employees"}`, "Employee", "e10001", "current_title"},
		{"1000x5", string(designertest.MustMarshal(b, designertest.Large(designertest.Size{Tables: 1, Items: 1000, GSIs: 5}))), "Table00", "i500", "status"},
		{"200patterns", string(designertest.MustMarshal(b, designertest.Large(designertest.Size{Tables: 4, Items: 1000, GSIs: 8, Patterns: 200}))), "Table01", "i2", "note"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			a := newTestApp(b)
			ts := httptest.NewServer(a.srv.Handler())
			b.Cleanup(ts.Close)
			created := a.createJSON(bc.design)
			url := ts.URL + "/api/designs/" + created.EditToken + "/changes"
			client := ts.Client()
			var cpu cpuMeter
			cpu.begin()
			defer func() { cpu.end(); cpu.report(b) }()
			for i := 0; b.Loop(); i++ {
				body := fmt.Sprintf(`{"kind": "set_item_cell", "change": {"table": %q, "id": %q, "attribute": %q, "text": "S%d"}}`, bc.table, bc.id, bc.attr, i%9)
				resp, err := client.Post(url, echoJSON, strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("change: %d", resp.StatusCode)
				}
			}
		})
	}
}

// BenchmarkSQLiteCommit_oneRow is the anchor of BenchmarkChangeAPI_cellEdit: one row, the size of
// a stored cell change, inserted and committed in WAL mode with synchronous=FULL, by the driver
// and settings the store uses, in a fresh database in a temporary directory.
func BenchmarkSQLiteCommit_oneRow(b *testing.B) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(b.TempDir(), "anchor.db")+"?mode=rwc&_journal_mode=WAL&_synchronous=FULL&_txlock=immediate&_busy_timeout=5000")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE revisions (revision INTEGER PRIMARY KEY, change TEXT NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	row := fmt.Sprintf(retitle, "Staff Engineer")
	var cpu cpuMeter
	cpu.begin()
	defer func() { cpu.end(); cpu.report(b) }()
	for i := 0; b.Loop(); i++ {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO revisions (revision, change) VALUES (?, ?)`, i+1, row); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}
