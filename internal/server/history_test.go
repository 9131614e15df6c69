package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// as posts a form as htmx does, as the named participant.
func (a *testApp) as(who, path string, values ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.request(http.MethodPost, path, formType, strings.NewReader(form(values...)),
		"HX-Request", "true", "Cookie", participantCookie+"="+who)
}

type revisionEntry struct {
	Revision int64     `json:"revision"`
	Author   string    `json:"author"`
	At       time.Time `json:"at"`
	Summary  string    `json:"summary"`
}

func (a *testApp) revisions(token string) []revisionEntry {
	a.t.Helper()
	rec := a.request(http.MethodGet, "/api/designs/"+token+"/revisions", "", nil)
	if rec.Code != http.StatusOK {
		a.t.Fatalf("revisions: %d %s", rec.Code, rec.Body)
	}
	var body struct {
		Revisions []revisionEntry `json:"revisions"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		a.t.Fatalf("revisions: %v: %s", err, rec.Body)
	}
	return body.Revisions
}

// designAtAPI reads revision n through the API.
func (a *testApp) designAtAPI(token string, n int64) designer.Design {
	a.t.Helper()
	rec := a.request(http.MethodGet, "/api/designs/"+token+"/revisions/"+strconv.FormatInt(n, 10), "", nil)
	if rec.Code != http.StatusOK {
		a.t.Fatalf("revision %d: %d %s", n, rec.Code, rec.Body)
	}
	d, err := designer.ParseJSON(rec.Body.Bytes())
	if err != nil {
		a.t.Fatalf("revision %d is not design-json: %v", n, err)
	}
	return d
}

func sameDesign(t *testing.T, what string, got, want designer.Design) {
	t.Helper()
	g, err := designer.MarshalJSON(designer.Normalize(got))
	if err != nil {
		t.Fatal(err)
	}
	w, err := designer.MarshalJSON(designer.Normalize(want))
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Errorf("%s: designs differ: %v", what, designer.Diff(want, got))
	}
}

// threeRevisions makes a design with a rename by Ada (revision 2) and a domain by Bob (revision 3).
func threeRevisions(t *testing.T, a *testApp) createdDesign {
	t.Helper()
	created := a.createJSON(`{"name": "Orders"}`)
	base := "/d/" + created.EditToken
	if rec := a.as("Ada", base+"/name", "name", "Orders v2"); rec.Code != http.StatusOK {
		t.Fatalf("rename: %d %s", rec.Code, rec.Body)
	}
	if rec := a.as("Bob", base+"/overview/domain", "value", "Retail"); rec.Code != http.StatusOK {
		t.Fatalf("domain: %d %s", rec.Code, rec.Body)
	}
	return created
}

func TestAPI_revisionsListEveryChangeNewestFirst(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	before := time.Now().Add(-time.Second)
	created := threeRevisions(t, a)
	revs := a.revisions(created.ViewToken)
	if len(revs) != 3 {
		t.Fatalf("%d revisions, want 3: %+v", len(revs), revs)
	}
	want := []struct {
		rev     int64
		author  string
		summary string
	}{
		{3, "Bob", "Edited the overview's domain"},
		{2, "Ada", `Renamed the design to "Orders v2"`},
		{1, "Someone", "Created the design"},
	}
	for i, w := range want {
		r := revs[i]
		if r.Revision != w.rev || r.Author != w.author || r.Summary != w.summary {
			t.Errorf("entry %d = %+v, want revision %d by %s: %q", i, r, w.rev, w.author, w.summary)
		}
		if r.At.Before(before) || r.At.After(time.Now().Add(time.Second)) {
			t.Errorf("entry %d at %v, not the time of the change", i, r.At)
		}
	}
}

func TestAPI_revisionNIsTheDesignAsItWas(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	for _, tc := range []struct {
		n            int64
		name, domain string
	}{{1, "Orders", ""}, {2, "Orders v2", ""}, {3, "Orders v2", "Retail"}} {
		d := a.designAtAPI(created.ViewToken, tc.n)
		if d.Name != tc.name || d.Overview.Domain != tc.domain {
			t.Errorf("revision %d: name %q, domain %q; want %q, %q", tc.n, d.Name, d.Overview.Domain, tc.name, tc.domain)
		}
	}
	for _, n := range []string{"0", "4", "99", "two", "-1"} {
		rec := a.request(http.MethodGet, "/api/designs/"+created.EditToken+"/revisions/"+n, "", nil)
		if rec.Code != http.StatusNotFound {
			t.Errorf("revision %q: %d, want 404", n, rec.Code)
			continue
		}
		if code, msg := decodeError(t, rec); code != "not_found" || !strings.Contains(msg, "1 to 3") {
			t.Errorf("revision %q: error %s %q, want not_found naming the revisions there are", n, code, msg)
		}
	}
}

func TestAPI_restoreMakesANewRevisionWithTheOldContentAndKeepsHistory(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	rec := a.request(http.MethodPost, "/api/designs/"+created.EditToken+"/revisions/1/restore", "", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("restore: %d %s", rec.Code, rec.Body)
	}
	var body struct {
		Revision int64  `json:"revision"`
		Name     string `json:"name"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Revision != 4 || body.Name != "Orders" || rec.Header().Get("ETag") != `"4"` {
		t.Fatalf("restore answered revision %d, name %q, ETag %s; want the new revision 4 named Orders", body.Revision, body.Name, rec.Header().Get("ETag"))
	}
	current, rev := a.design(created.EditToken)
	if rev != 4 {
		t.Fatalf("current revision %d, want 4", rev)
	}
	sameDesign(t, "current after restoring 1", current, a.designAtAPI(created.EditToken, 1))
	revs := a.revisions(created.EditToken)
	if len(revs) != 4 || revs[0].Summary != "Restored revision 1" {
		t.Fatalf("history after restore: %+v", revs)
	}
	// History is kept: the revisions the restore went back over are still there as they were.
	if d := a.designAtAPI(created.EditToken, 3); d.Name != "Orders v2" || d.Overview.Domain != "Retail" {
		t.Errorf("revision 3 after the restore: %q, %q", d.Name, d.Overview.Domain)
	}
	// And the restore itself can be restored over.
	if rec := a.request(http.MethodPost, "/api/designs/"+created.EditToken+"/revisions/3/restore", "", nil); rec.Code != http.StatusOK {
		t.Fatalf("restore 3: %d %s", rec.Code, rec.Body)
	}
	if d, rev := a.design(created.EditToken); rev != 5 || d.Overview.Domain != "Retail" {
		t.Errorf("after restoring 3: revision %d, domain %q", rev, d.Overview.Domain)
	}
}

func TestAPI_restoreRefusals(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	for _, tc := range []struct {
		name, token, n string
		headers        []string
		status         int
		code           string
	}{
		{"view token", created.ViewToken, "1", nil, http.StatusForbidden, "view_only"},
		{"unknown revision", created.EditToken, "9", nil, http.StatusNotFound, "not_found"},
		{"not a number", created.EditToken, "first", nil, http.StatusNotFound, "not_found"},
		{"stale If-Match", created.EditToken, "1", []string{"If-Match", `"2"`}, http.StatusPreconditionFailed, "stale_revision"},
		{"bad If-Match", created.EditToken, "1", []string{"If-Match", "soon"}, http.StatusBadRequest, "invalid_input"},
		{"unknown token", "AAAAAAAAAAAAAAAAAAAAAAAAAA", "1", nil, http.StatusNotFound, "not_found"},
	} {
		rec := a.request(http.MethodPost, "/api/designs/"+tc.token+"/revisions/"+tc.n+"/restore", "", nil, tc.headers...)
		if rec.Code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body, tc.status)
			continue
		}
		if code, _ := decodeError(t, rec); code != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, code, tc.code)
		}
	}
	if _, rev := a.design(created.EditToken); rev != 3 {
		t.Fatalf("a refused restore changed the design: revision %d", rev)
	}
	rec := a.request(http.MethodPost, "/api/designs/"+created.EditToken+"/revisions/2/restore", "", nil, "If-Match", `"3"`)
	if rec.Code != http.StatusOK {
		t.Fatalf("restore with a current If-Match: %d %s", rec.Code, rec.Body)
	}
}

// Undo takes back exactly the participant's own last change, even with someone else's change after
// it, and refuses when someone has changed the same part since.
func TestHistory_undoMyLastChange(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	base := "/d/" + created.EditToken

	rec := a.as("Ada", base+"/history/undo")
	if rec.Code != http.StatusOK {
		t.Fatalf("Ada's undo: %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(rec.Body.String(), "Undid your change of revision 2") {
		t.Errorf("the answer does not say what was undone: %s", rec.Body)
	}
	// The page takes the revision as its own, as after any edit: without it the event of the
	// undo refreshes the step, and the notice just shown is gone.
	if got := rec.Header().Get("X-Dynaloom-Revision"); got != "4" {
		t.Errorf("the undo's answer names revision %q, want 4, the one it made", got)
	}
	d, rev := a.design(created.EditToken)
	if rev != 4 || d.Name != "Orders" || d.Overview.Domain != "Retail" {
		t.Fatalf("after Ada's undo: revision %d, name %q, domain %q; want 4, the name back, Bob's domain kept", rev, d.Name, d.Overview.Domain)
	}
	if got := a.revisions(created.EditToken)[0]; got.Author != "Ada" || got.Summary != `Undid revision 2: Renamed the design to "Orders v2"` {
		t.Errorf("history line of the undo: %+v", got)
	}

	// Bob's last change is revision 3; nobody touched the domain since, so it can go.
	if rec := a.as("Bob", base+"/history/undo"); rec.Code != http.StatusOK {
		t.Fatalf("Bob's undo: %d %s", rec.Code, rec.Body)
	}
	if d, rev := a.design(created.EditToken); rev != 5 || d.Overview.Domain != "" || d.Name != "Orders" {
		t.Fatalf("after Bob's undo: revision %d, name %q, domain %q", rev, d.Name, d.Overview.Domain)
	}

	// Carol writes the notes, Dan writes over them: Carol's undo must not throw Dan's text away.
	a.as("Carol", base+"/overview/notes", "value", "Carol's notes")
	a.as("Dan", base+"/overview/notes", "value", "Dan's notes")
	rec = a.as("Carol", base+"/history/undo")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Dan changed the same part") {
		t.Fatalf("Carol's undo over Dan's change: %d %s", rec.Code, rec.Body)
	}
	if d, rev := a.design(created.EditToken); rev != 7 || d.Overview.Notes != "Dan's notes" {
		t.Fatalf("a refused undo changed the design: revision %d, notes %q", rev, d.Overview.Notes)
	}

	if rec := a.as("Eve", base+"/history/undo"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "no change") {
		t.Fatalf("undo by someone without changes: %d %s", rec.Code, rec.Body)
	}
	if rec := a.request(http.MethodPost, "/d/"+created.ViewToken+"/history/undo", formType, nil, "Cookie", participantCookie+"=Dan"); rec.Code != http.StatusForbidden {
		t.Fatalf("undo with the view link: %d", rec.Code)
	}
}

// An undo is refused when a later change no longer applies without the undone one, even where
// their paths do not meet: a relationship names the entity the undo would take away.
func TestHistory_undoRefusedWhenALaterChangeDependsOnIt(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Shop"}`)
	base := "/d/" + created.EditToken
	for _, step := range []struct {
		who, path string
		values    []string
	}{
		{"Bob", "/entities/add", []string{"name", "Order"}},
		{"Ada", "/entities/add", []string{"name", "Customer"}},
		{"Bob", "/relationships/add", []string{"from", "Customer", "to", "Order", "kind", "1:M"}},
	} {
		if rec := a.as(step.who, base+step.path, step.values...); rec.Code >= 400 {
			t.Fatalf("%s %s: %d %s", step.who, step.path, rec.Code, rec.Body)
		}
	}
	if d, rev := a.design(created.EditToken); rev != 4 || len(d.Relationships) != 1 {
		t.Fatalf("setup: revision %d, %d relationships", rev, len(d.Relationships))
	}
	rec := a.as("Ada", base+"/history/undo")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "revision 4") || !strings.Contains(rec.Body.String(), "depends on it") {
		t.Fatalf("undo of an entity Bob's relationship names: %d %s", rec.Code, rec.Body)
	}
	if d, rev := a.design(created.EditToken); rev != 4 || len(d.Entities) != 2 {
		t.Fatalf("a refused undo changed the design: revision %d, %d entities", rev, len(d.Entities))
	}
}

func TestHistory_pagesListViewAndCompareRevisions(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	edit, view := "/d/"+created.EditToken, "/d/"+created.ViewToken
	cookie := []string{"Cookie", participantCookie + "=Ada"}

	rec := a.request(http.MethodGet, edit+"/history", "", nil, cookie...)
	if rec.Code != http.StatusOK {
		t.Fatalf("history: %d %s", rec.Code, rec.Body)
	}
	page := rec.Body.String()
	if n := strings.Count(page, `data-testid="revision-row"`); n != 3 {
		t.Errorf("history lists %d revisions, want 3", n)
	}
	for _, want := range []string{"Edited the overview&#39;s domain", "Bob", `data-testid="undo-mine"`, `/history/2/restore`, `href="` + edit + `/history/diff?from=1&amp;to=2"`} {
		if !strings.Contains(page, want) {
			t.Errorf("history page lacks %s", want)
		}
	}
	if strings.Contains(page, "/history/3/restore") {
		t.Error("the newest revision offers a restore of itself")
	}
	viewPage := a.request(http.MethodGet, view+"/history", "", nil).Body.String()
	if strings.Contains(viewPage, "/restore") || strings.Contains(viewPage, "undo-mine") || strings.Contains(viewPage, created.EditToken) {
		t.Error("the view link's history offers restore or undo, or shows the edit token")
	}

	// A past revision renders in the steps, read-only, under its banner.
	rec = a.request(http.MethodGet, edit+"/history/2", "", nil, cookie...)
	if rec.Code != http.StatusOK {
		t.Fatalf("revision 2: %d %s", rec.Code, rec.Body)
	}
	page = rec.Body.String()
	for _, want := range []string{`data-testid="past-banner"`, "Revision 2 of 3", "by Ada", "read-only", "Orders v2", edit + "/history/2/patterns", "/history/2/restore"} {
		if !strings.Contains(page, want) {
			t.Errorf("revision 2 page lacks %s", want)
		}
	}
	if strings.Contains(page, "Retail") || strings.Contains(page, `hx-post="`+edit+`/name"`) || strings.Contains(page, `id="field-name-input"`) {
		t.Error("revision 2 shows a later value or an edit control")
	}
	for _, step := range []string{"entities", "patterns", "aggregates", "tables", "mapping", "validation"} {
		if rec := a.request(http.MethodGet, view+"/history/1/"+step, "", nil); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Revision 1 of 3") {
			t.Errorf("revision 1, step %s: %d", step, rec.Code)
		}
	}
	for _, path := range []string{"/history/4", "/history/0", "/history/x", "/history/1/export", "/history/1/nowhere"} {
		if rec := a.request(http.MethodGet, edit+path, "", nil); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, rec.Code)
		}
	}

	rec = a.request(http.MethodGet, view+"/history/diff?from=1&to=3", "", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("diff: %d %s", rec.Code, rec.Body)
	}
	page = rec.Body.String()
	for _, want := range []string{"Changes from revision 1 to 3", "Design name", "Orders v2", "domain", "Retail"} {
		if !strings.Contains(page, want) {
			t.Errorf("diff page lacks %q", want)
		}
	}
	if rec := a.request(http.MethodGet, view+"/history/diff?from=first", "", nil); rec.Code != http.StatusBadRequest {
		t.Errorf("diff from=first: %d, want 400", rec.Code)
	}
	if rec := a.request(http.MethodGet, view+"/history/diff?from=1&to=9", "", nil); rec.Code != http.StatusNotFound {
		t.Errorf("diff to=9: %d, want 404", rec.Code)
	}
}

func TestHistory_restoreFromThePage(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	edit := "/d/" + created.EditToken
	rec := a.request(http.MethodPost, edit+"/history/1/restore", formType, nil, "HX-Request", "true", "HX-Target", "history", "Cookie", participantCookie+"=Ada")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Restored revision 1 as revision 4") {
		t.Fatalf("restore from the list: %d %s", rec.Code, rec.Body)
	}
	if d, rev := a.design(created.EditToken); rev != 4 || d.Name != "Orders" {
		t.Fatalf("after restore: revision %d, name %q", rev, d.Name)
	}
	// From a past revision's banner the page goes to the history.
	rec = a.request(http.MethodPost, edit+"/history/3/restore", formType, nil, "HX-Request", "true", "HX-Target", "restore-result")
	if rec.Code != http.StatusOK || rec.Header().Get("HX-Redirect") != edit+"/history" {
		t.Fatalf("restore from the banner: %d, HX-Redirect %q", rec.Code, rec.Header().Get("HX-Redirect"))
	}
	if rec := a.request(http.MethodPost, "/d/"+created.ViewToken+"/history/1/restore", formType, nil); rec.Code != http.StatusForbidden {
		t.Fatalf("restore with the view link: %d", rec.Code)
	}
}

// A restore is an edit like any other: made from a page that showed revision 2, it is refused
// over Bob's later change (revision 3), since restoring replaces every part of the design, and
// nothing changes; made from the newest revision it is stored.
func TestHistory_restoreFromAStalePageIsAConflict(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := threeRevisions(t, a)
	restore := "/d/" + created.EditToken + "/history/1/restore"
	rec := a.request(http.MethodPost, restore, formType, strings.NewReader("base_revision=2"),
		"HX-Request", "true", "HX-Target", "history", "Cookie", participantCookie+"=Carol")
	if rec.Code != http.StatusConflict || rec.Header().Get("X-Dynaloom-Conflict-Author") != "Bob" {
		t.Fatalf("restore from revision 2 over Bob's revision 3: %d, conflict author %q, want 409 naming Bob",
			rec.Code, rec.Header().Get("X-Dynaloom-Conflict-Author"))
	}
	if d, rev := a.design(created.EditToken); rev != 3 || d.Overview.Domain != "Retail" {
		t.Fatalf("a refused restore changed the design: revision %d, domain %q", rev, d.Overview.Domain)
	}
	rec = a.request(http.MethodPost, restore, formType, strings.NewReader("base_revision=3"),
		"HX-Request", "true", "HX-Target", "history", "Cookie", participantCookie+"=Carol")
	if rec.Code != http.StatusOK || rec.Header().Get("X-Dynaloom-Revision") != "4" {
		t.Fatalf("restore from the newest revision: %d, X-Dynaloom-Revision %q", rec.Code, rec.Header().Get("X-Dynaloom-Revision"))
	}
	if revs := a.revisions(created.EditToken); revs[0].Author != "Carol" || revs[0].Summary != "Restored revision 1" {
		t.Fatalf("newest revision after the restore: %+v", revs[0])
	}
}

// Twenty writers change one design at once for ten seconds. Every change acknowledged to a writer
// must be in the history under its own revision, with its author and history line, the revisions
// must follow one another without a gap, and replaying the history must give the stored design.
// The history is not compacted here (a fast machine passes the 5,000 revisions at which the oldest
// would be folded into a snapshot); compaction has tests of its own in storage.
func TestCommit_twentyWritersForTenSecondsKeepEveryChange(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipped under -short: 20 writers commit to one design for 10 seconds")
	}
	const writers = 20
	store, err := storage.OpenWith(t.Context(), filepath.Join(t.TempDir(), "contended.db"),
		storage.Options{Limits: storage.Limits{Revisions: -1, HistoryBytes: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	a := &testApp{t: t, srv: New(store, slog.New(slog.DiscardHandler), Options{}), store: store}
	ctx := context.Background()
	start := designer.Design{Name: "Contended"}
	for i := range writers {
		start.Patterns = append(start.Patterns, designer.Pattern{Number: i + 1, Description: "untouched", Type: designer.Read})
	}
	rec, _, err := a.store.Create(ctx, start, "setup")
	if err != nil {
		t.Fatal(err)
	}
	start = rec.Design

	type ack struct {
		rev             int64
		author, summary string
		notes           string // the notes this change wrote, if it wrote them
	}
	var (
		mu    sync.Mutex
		acks  []ack
		lastP = make([]string, writers) // each writer's last acknowledged description of its pattern
	)
	deadline := time.Now().Add(10 * time.Second)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := fmt.Sprintf("writer %02d", w)
			var prev int64
			for i := 0; time.Now().Before(deadline); i++ {
				var change designer.Change
				var notes string
				if i%3 == 2 {
					notes = fmt.Sprintf("%s, change %d", who, i)
					change = designer.SetOverviewField{Field: "notes", Value: notes}
				} else {
					change = designer.SetPatternField{ID: start.Patterns[w].ID, Field: "description", Value: fmt.Sprintf("%s, change %d", who, i)}
				}
				got, err := a.srv.store.Apply(ctx, rec.ID, who, change, 0)
				if err != nil {
					t.Errorf("%s: change %d refused: %v", who, i, err)
					return
				}
				if got.Revision <= prev {
					t.Errorf("%s: change %d acknowledged as revision %d after its change at %d", who, i, got.Revision, prev)
				}
				prev = got.Revision
				mu.Lock()
				acks = append(acks, ack{got.Revision, who, designer.Describe(change, start), notes})
				if sp, ok := change.(designer.SetPatternField); ok {
					lastP[w] = sp.Value
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d changes acknowledged in 10 s by %d writers", len(acks), writers)
	if len(acks) < writers {
		t.Fatalf("only %d changes acknowledged", len(acks))
	}

	revs, err := a.store.Revisions(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(revs)) != revs[0].Revision || len(revs) != len(acks)+1 {
		t.Fatalf("history holds %d revisions up to %d; want revisions 1 to %d, one per acknowledged change", len(revs), revs[0].Revision, len(acks)+1)
	}
	for i, r := range revs {
		if want := int64(len(revs) - i); r.Revision != want {
			t.Fatalf("history entry %d is revision %d, want %d: revisions are not contiguous", i, r.Revision, want)
		}
	}
	latestNotes, latestNotesRev := "", int64(0)
	for _, k := range acks {
		r, ok := revisionAt(revs, k.rev)
		if !ok || r.Author != k.author || r.Summary != k.summary {
			t.Fatalf("acknowledged revision %d by %s (%q) is in the history as %+v", k.rev, k.author, k.summary, r)
		}
		if k.notes != "" && k.rev > latestNotesRev {
			latestNotes, latestNotesRev = k.notes, k.rev
		}
	}

	current, err := a.store.Load(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := a.store.DesignAt(ctx, rec.ID, current.Revision)
	if err != nil {
		t.Fatal(err)
	}
	sameDesign(t, "replayed history against the stored design", replayed, current.Design)
	for w, want := range lastP {
		if got := current.Design.Patterns[w].Description; want != "" && got != want {
			t.Errorf("pattern %d reads %q, want its writer's last acknowledged %q", w+1, got, want)
		}
	}
	if current.Design.Overview.Notes != latestNotes {
		t.Errorf("notes read %q, want the newest acknowledged %q", current.Design.Overview.Notes, latestNotes)
	}
}

// Undo and restore record the tab they came from, like any edit: the same tab saving the field it
// just undid, from the revision it showed before, is not in conflict with itself.
func TestUndo_recordsTheTabSoItDoesNotConflictWithItsOwnTab(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	base := "/d/" + created.EditToken
	d, rev := a.design(created.EditToken)
	const tab = "undotab000000000001"
	save := func(value string, baseRev int64) *httptest.ResponseRecorder {
		return a.request(http.MethodPost, base+"/patterns/field", formType,
			strings.NewReader(form("id", d.Patterns[0].ID, "field", "description", "value", value, "base_revision", strconv.FormatInt(baseRev, 10))),
			"HX-Request", "true", "Cookie", participantCookie+"=Sam", "X-Dynaloom-Tab", tab)
	}
	if rec := save("first try", rev); rec.Code != http.StatusOK {
		t.Fatalf("save: %d %s", rec.Code, rec.Body)
	}
	if rec := a.request(http.MethodPost, base+"/history/undo", formType, nil,
		"HX-Request", "true", "Cookie", participantCookie+"=Sam", "X-Dynaloom-Tab", tab); rec.Code != http.StatusOK {
		t.Fatalf("undo: %d %s", rec.Code, rec.Body)
	}
	if rec := save("second try", rev+1); rec.Code != http.StatusOK {
		t.Fatalf("saving again from the same tab after its own undo: %d %s", rec.Code, rec.Body)
	}
	// Another tab of someone with the same name is someone else.
	other := a.request(http.MethodPost, base+"/patterns/field", formType,
		strings.NewReader(form("id", d.Patterns[0].ID, "field", "description", "value", "other tab", "base_revision", strconv.FormatInt(rev+1, 10))),
		"HX-Request", "true", "Cookie", participantCookie+"=Sam", "X-Dynaloom-Tab", "undotab000000000002")
	if other.Code != http.StatusConflict {
		t.Fatalf("another tab over the undo and the save: %d", other.Code)
	}
}
