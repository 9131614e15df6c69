package server

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/live"
)

// lockRoom is a design with Ada's and Bo's tabs in its room, each with its page's stream open.
type lockRoom struct {
	t          *testing.T
	a          *testApp
	url, token string
	ada, bo    *sseClient
}

const adaTab, boTab = "adaadaadaadaadaa", "bobobobobobobobo"

func newLockRoom(t *testing.T, opts Options) *lockRoom {
	t.Helper()
	a := newTestAppWith(t, opts)
	ts := httptest.NewServer(a.srv.Handler())
	t.Cleanup(func() {
		a.srv.hub.Shutdown()
		ts.Close()
	})
	created := a.createJSON(`{"example": "hr-employees"}`)
	r := &lockRoom{t: t, a: a, url: ts.URL, token: created.EditToken}
	r.ada = r.open("Ada", adaTab, "overview")
	r.bo = r.open("Bo", boTab, "overview")
	return r
}

// open opens the page stream of tab on step, as person, and reads the locks it starts with.
func (r *lockRoom) open(person, tab, step string) *sseClient {
	r.t.Helper()
	s := openStream(r.t, r.url+"/d/"+r.token+"/events?step="+step+"&tab="+tab, "Cookie", participantCookie+"="+person)
	s.nextNamed(r.t, "locks")
	return s
}

// post posts a page's form as person from tab, the way htmx does.
func (r *lockRoom) post(person, tab, path string, kv ...string) *httptest.ResponseRecorder {
	r.t.Helper()
	return r.a.request(http.MethodPost, "/d/"+r.token+path, formType, strings.NewReader(form(kv...)),
		"HX-Request", "true", "X-Dynaloom-Tab", tab, "Cookie", participantCookie+"="+url.QueryEscape(person))
}

// locks reads the next locks event of s.
func (r *lockRoom) locks(s *sseClient) []live.Lock {
	r.t.Helper()
	var got []live.Lock
	if err := json.Unmarshal([]byte(s.nextNamed(r.t, "locks").data), &got); err != nil {
		r.t.Fatal(err)
	}
	return got
}

func (r *lockRoom) revision() int64 {
	r.t.Helper()
	_, rev := r.a.design(r.token)
	return rev
}

const overviewLocked = "Overview is locked by Ada; ask Ada to unlock it"

// A step locked by Ada refuses every other edit of it, named, through every door — a page's field,
// the paste box, undo and the JSON change API, a whole-design PUT — and changes nothing; Ada
// edits on, and everyone edits the other steps and comments on the locked one.
func TestLock_refusesEveryDoorButTheHolders(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	// Bo's change of the overview before the lock, for his undo to take back.
	if rec := r.post("Bo", boTab, "/overview/scale", "value", "Bo's guess"); rec.Code != http.StatusOK {
		t.Fatalf("Bo's edit before the lock: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Ada", adaTab, "/lock", "step", "overview", "action", "take"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "You hold the lock on Overview") {
		t.Fatalf("Ada takes the lock: %d %s", rec.Code, rec.Body)
	}
	if got := r.locks(r.bo); len(got) != 1 || got[0].Step != "overview" || got[0].By != "Ada" {
		t.Fatalf("Bo's page is told the locks %+v, want Overview by Ada", got)
	}
	before := r.revision()

	if rec := r.post("Bo", boTab, "/overview/scale", "value", "Bo again"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), overviewLocked) {
		t.Errorf("Bo's field edit: %d %s, want 422 saying %q", rec.Code, rec.Body, overviewLocked)
	}
	if rec := r.post("Bo", boTab, "/name", "value", "Bo's name"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), overviewLocked) {
		t.Errorf("Bo's rename, an Overview field: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Bo", boTab, "/history/undo"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), overviewLocked) {
		t.Errorf("Bo's undo of his overview edit: %d %s, want 422 saying %q", rec.Code, rec.Body, overviewLocked)
	}
	api := r.a.postChange(r.token, `{"kind": "set_overview_field", "change": {"field": "scale", "value": "from a script"}}`)
	if code, message := decodeError(t, api); api.Code != http.StatusLocked || code != "locked" || message != overviewLocked+"." {
		t.Errorf("the API's change: %d %s %q, want 423 locked saying %q", api.Code, code, message, overviewLocked)
	}
	put := r.a.request(http.MethodPut, "/api/designs/"+r.token, echoJSON, strings.NewReader(`{"name": "Replaced"}`), "If-Match", etag(before))
	if put.Code != http.StatusLocked {
		t.Errorf("the API's whole-design PUT: %d %s, want 423", put.Code, put.Body)
	}
	if got := r.revision(); got != before {
		t.Fatalf("refused edits changed the design: revision %d, want %d", got, before)
	}

	if rec := r.post("Ada", adaTab, "/overview/scale", "value", "Ada's figure"); rec.Code != http.StatusOK {
		t.Errorf("Ada, who holds the lock, edits: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Bo", boTab, "/bulk/add", "step", "entities", "text", "Entity | Attribute\nClinic | clinic_id"); rec.Code != http.StatusOK {
		t.Errorf("Bo pastes entities, a step no one locked: %d %s", rec.Code, rec.Body)
	}

	// A lock of the Mapping step covers the mappings, which lie in the patterns, and not the
	// patterns' own fields.
	if rec := r.post("Ada", adaTab, "/lock", "step", "mapping", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the mapping: %d %s", rec.Code, rec.Body)
	}
	notes := r.a.postChange(r.token, `{"kind": "set_mapping_notes", "change": {"pattern": "ap1", "notes": "Query the table."}}`)
	if _, message := decodeError(t, notes); notes.Code != http.StatusLocked || message != "Mapping is locked by Ada; ask Ada to unlock it." {
		t.Errorf("a mapping's notes under a lock of the Mapping step: %d %q", notes.Code, message)
	}
	if rec := r.a.postChange(r.token, `{"kind": "set_pattern_field", "change": {"id": "ap1", "field": "peak_rps", "value": "5"}}`); rec.Code != http.StatusOK {
		t.Errorf("a pattern's peak under a lock of the Mapping step: %d %s", rec.Code, rec.Body)
	}

	// The paste box and comments under a lock of the step they belong to.
	if rec := r.post("Ada", adaTab, "/lock", "step", "patterns", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the access patterns: %d %s", rec.Code, rec.Body)
	}
	locked := "Access patterns is locked by Ada; ask Ada to unlock it"
	if rec := r.post("Bo", boTab, "/bulk/add", "step", "patterns", "text", "# | Description | Type\n17 | Find clinics | read"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), locked) {
		t.Errorf("Bo's paste of patterns: %d %s, want 422 saying %q", rec.Code, rec.Body, locked)
	}
	if rec := r.post("Bo", boTab, "/comments", "target", "access_patterns/ap1", "body", "Is this read hot?"); rec.Code != http.StatusOK {
		t.Errorf("Bo comments on a pattern of the locked step: %d %s", rec.Code, rec.Body)
	}
}

// A lock is Ada's until she unlocks it; Bo cannot take it from her without taking it over, and
// once he has, hers are the edits refused.
func TestLock_releaseAndTakeOver(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	if rec := r.post("Ada", adaTab, "/lock", "step", "tables", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada takes the lock: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct{ action, says string }{
		{"take", "Tables &amp; indexes is locked by Ada; take it over to lock it yourself"},
		{"release", "Tables &amp; indexes is locked by Ada, not by you; take it over first"},
	} {
		if rec := r.post("Bo", boTab, "/lock", "step", "tables", "action", tc.action); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tc.says) {
			t.Errorf("Bo's %s of Ada's lock: %d %s, want 422 saying %q", tc.action, rec.Code, rec.Body, tc.says)
		}
	}
	for _, bad := range [][]string{{"step", "history", "action", "take"}, {"step", "nosuch", "action", "take"}, {"step", "tables", "action", "steal"}} {
		if rec := r.post("Bo", boTab, "/lock", bad...); rec.Code != http.StatusBadRequest {
			t.Errorf("lock %v: %d, want 400", bad, rec.Code)
		}
	}
	if rec := r.post("Bo", boTab, "/lock", "step", "tables", "action", "takeover"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "You hold the lock on Tables") {
		t.Fatalf("Bo takes the lock over: %d %s", rec.Code, rec.Body)
	}
	if got := r.locks(r.ada); len(got) != 1 || got[0].By != "Ada" {
		t.Fatalf("Ada's page first heard %+v, want her own lock", got)
	}
	if got := r.locks(r.ada); len(got) != 1 || got[0].By != "Bo" {
		t.Fatalf("Ada's page is told %+v after the take-over, want Tables by Bo", got)
	}
	if rec := r.post("Ada", adaTab, "/tables/add", "name", "Clinics", "partition_key", "clinic_id"); rec.Code != http.StatusUnprocessableEntity && rec.Code != http.StatusLocked ||
		!strings.Contains(rec.Body.String(), "Tables &amp; indexes is locked by Bo") {
		t.Errorf("Ada adds a table under Bo's lock: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Bo", boTab, "/lock", "step", "tables", "action", "release"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `data-testid="lock-take"`) {
		t.Fatalf("Bo unlocks: %d %s", rec.Code, rec.Body)
	}
	if got := r.locks(r.ada); len(got) != 0 {
		t.Fatalf("after the unlock Ada's page is told %+v, want no lock", got)
	}
	if rec := r.post("Ada", adaTab, "/tables/add", "name", "Clinics", "partition_key", "clinic_id"); rec.Code != http.StatusOK {
		t.Errorf("Ada adds a table once it is unlocked: %d %s", rec.Code, rec.Body)
	}
}

// A room is never stuck locked by a closed tab: the lock outlives its holder's page changing
// step, and goes, for everyone to see, once the holder has been gone for the grace.
func TestLock_goesWhenTheHolderLeaves(t *testing.T) {
	t.Parallel()
	const grace = 500 * time.Millisecond
	r := newLockRoom(t, Options{LockGrace: grace})
	if rec := r.post("Ada", adaTab, "/lock", "step", "overview", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada takes the lock: %d %s", rec.Code, rec.Body)
	}
	r.locks(r.bo)
	// Ada's page moves to another step: its stream closes and the next one opens.
	r.ada.resp.Body.Close()
	r.ada = r.open("Ada", adaTab, "entities")
	time.Sleep(2 * grace)
	if rec := r.post("Bo", boTab, "/overview/scale", "value", "Bo's guess"); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("after Ada moved to another step, Bo's edit: %d, want the lock kept", rec.Code)
	}
	left := time.Now()
	r.ada.resp.Body.Close()
	if got := r.locks(r.bo); len(got) != 0 {
		t.Fatalf("after Ada left, Bo's page is told %+v, want no lock", got)
	}
	if waited := time.Since(left); waited < grace {
		t.Errorf("the lock went %s after Ada left, before the grace of %s", waited, grace)
	}
	if rec := r.post("Bo", boTab, "/overview/scale", "value", "Bo's guess"); rec.Code != http.StatusOK {
		t.Errorf("Bo edits once the lock has gone: %d %s", rec.Code, rec.Body)
	}
}

// The projector's page reads the lock back in Present mode: the rail it swaps in keeps every step's
// link on the projector, and it shows who holds the step without offering to take it.
func TestLock_theProjectorReadsTheLockInPresentMode(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	if rec := r.post("Ada", adaTab, "/lock", "step", "overview", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada takes the lock: %d %s", rec.Code, rec.Body)
	}
	page := r.a.request(http.MethodGet, "/d/"+r.token+"?present=1", "", nil)
	fetch := regexp.MustCompile(`data-fetch="([^"]+)"`).FindStringSubmatch(page.Body.String())
	if page.Code != http.StatusOK || fetch == nil {
		t.Fatalf("the projector's page: %d, lock bar %v", page.Code, fetch)
	}
	rec := r.a.request(http.MethodGet, html.UnescapeString(fetch[1]), "", nil, "HX-Request", "true")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, "Overview is locked by Ada") || strings.Contains(body, `data-testid="lock-takeover"`) {
		t.Fatalf("the projector's lock: %d %s", rec.Code, body)
	}
	if n := strings.Count(body, `?present=1"`); n != len(steps) {
		t.Errorf("the rail the projector reads back has %d links in Present mode, want all %d: %s", n, len(steps), body)
	}
}

const tableLocked = "Table Employee is locked by Ada; ask Ada to unlock it"

// A table Ada locks on its own refuses Bo's edits of it by name through every door — its field,
// undo, the change API (423) and a paste of an entity she locked — and changes nothing, while
// the table beside it, and the rest of the step, stay his to edit.
func TestLock_aSectionRefusesEveryDoorAndLeavesItsNeighboursOpen(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	if rec := r.post("Bo", boTab, "/tables/field", "table", "Employee", "field", "purpose", "value", "Bo's purpose"); rec.Code != http.StatusOK {
		t.Fatalf("Bo's edit before the lock: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Ada", adaTab, "/lock", "step", "tables", "section", "tables/Employee", "action", "take"); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Body.String(), `data-section-lock="tables/Employee"`) || !strings.Contains(rec.Body.String(), `data-testid="section-badge-tables"`) {
		t.Fatalf("Ada locks the table Employee: %d %s", rec.Code, rec.Body)
	}
	if got := r.locks(r.bo); len(got) != 1 || got[0].Step != "tables" || got[0].Section != "tables/Employee" || got[0].Label != "Table Employee" || got[0].By != "Ada" {
		t.Fatalf("Bo's page is told the locks %+v, want Table Employee by Ada", got)
	}
	before := r.revision()

	if rec := r.post("Bo", boTab, "/tables/field", "table", "Employee", "field", "purpose", "value", "Bo again"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tableLocked) {
		t.Errorf("Bo's edit of the locked table: %d %s, want 422 saying %q", rec.Code, rec.Body, tableLocked)
	}
	if rec := r.post("Bo", boTab, "/history/undo"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tableLocked) {
		t.Errorf("Bo's undo of his edit of the locked table: %d %s, want 422 saying %q", rec.Code, rec.Body, tableLocked)
	}
	api := r.a.postChange(r.token, `{"kind": "set_table_field", "change": {"table": "Employee", "field": "capacity_notes", "value": "from a script"}}`)
	if code, message := decodeError(t, api); api.Code != http.StatusLocked || code != "locked" || message != tableLocked+"." {
		t.Errorf("the API's change of the locked table: %d %s %q, want 423 locked saying %q", api.Code, code, message, tableLocked)
	}
	if got := r.revision(); got != before {
		t.Fatalf("refused edits changed the design: revision %d, want %d", got, before)
	}

	if rec := r.post("Bo", boTab, "/tables/field", "table", "SalaryHistory", "field", "purpose", "value", "Bo's neighbour"); rec.Code != http.StatusOK {
		t.Errorf("Bo edits the table beside the locked one: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Bo", boTab, "/tables/add", "name", "Clinics", "partition_key", "clinic_id"); rec.Code != http.StatusOK {
		t.Errorf("Bo adds a table on the step: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Ada", adaTab, "/tables/field", "table", "Employee", "field", "purpose", "value", "Ada's purpose"); rec.Code != http.StatusOK {
		t.Errorf("Ada edits the table she locked: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Bo", boTab, "/comments", "target", "tables/Employee", "body", "Is the key spread enough?"); rec.Code != http.StatusOK {
		t.Errorf("Bo comments on the locked table: %d %s", rec.Code, rec.Body)
	}

	// An entity's card: the paste box refuses a line for it, and takes a line for another.
	if rec := r.post("Ada", adaTab, "/lock", "step", "entities", "section", "entities/Employee", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the entity Employee: %d %s", rec.Code, rec.Body)
	}
	entityLocked := "Entity Employee is locked by Ada; ask Ada to unlock it"
	if rec := r.post("Bo", boTab, "/bulk/add", "step", "entities", "text", "Entity | Attribute\nEmployee | nickname"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), entityLocked) {
		t.Errorf("Bo's paste into the locked entity: %d %s, want 422 saying %q", rec.Code, rec.Body, entityLocked)
	}
	if rec := r.post("Bo", boTab, "/bulk/add", "step", "entities", "text", "Entity | Attribute\nClinic | clinic_id"); rec.Code != http.StatusOK {
		t.Errorf("Bo pastes another entity: %d %s", rec.Code, rec.Body)
	}

	// A pattern and an aggregate's card lock the same way.
	if rec := r.post("Ada", adaTab, "/lock", "step", "patterns", "section", "access_patterns/ap1", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks pattern 1: %d %s", rec.Code, rec.Body)
	}
	if rec := r.a.postChange(r.token, `{"kind": "set_pattern_field", "change": {"id": "ap1", "field": "peak_rps", "value": "5"}}`); rec.Code != http.StatusLocked || !strings.Contains(rec.Body.String(), "Pattern 1 is locked by Ada") {
		t.Errorf("a change of the locked pattern: %d %s", rec.Code, rec.Body)
	}
	if rec := r.a.postChange(r.token, `{"kind": "set_pattern_field", "change": {"id": "ap2", "field": "peak_rps", "value": "5"}}`); rec.Code != http.StatusOK {
		t.Errorf("a change of the pattern beside it: %d %s", rec.Code, rec.Body)
	}
	if rec := r.a.postChange(r.token, `{"kind": "set_mapping_notes", "change": {"pattern": "ap1", "notes": "Query the table."}}`); rec.Code != http.StatusOK {
		t.Errorf("the locked pattern's mapping, which is Mapping's: %d %s", rec.Code, rec.Body)
	}
	d, _ := r.a.design(r.token)
	agg := d.Aggregates[0]
	if rec := r.post("Ada", adaTab, "/lock", "step", "aggregates", "section", "aggregates/"+agg.ID, "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks an aggregate: %d %s", rec.Code, rec.Body)
	}
	aggLocked := "Aggregate " + agg.EntityA + " + " + agg.EntityB + " is locked by Ada"
	if rec := r.a.postChange(r.token, `{"kind": "delete_aggregate", "change": {"id": "`+agg.ID+`"}}`); rec.Code != http.StatusLocked || !strings.Contains(rec.Body.String(), aggLocked) {
		t.Errorf("deleting the locked aggregate: %d %s, want 423 saying %q", rec.Code, rec.Body, aggLocked)
	}

	for _, bad := range []struct{ kv []string }{
		{[]string{"step", "tables", "section", "tables/Nowhere", "action", "take"}},
		{[]string{"step", "tables", "section", "entities/Employee", "action", "take"}},
		{[]string{"step", "overview", "section", "overview/scale", "action", "take"}},
	} {
		if rec := r.post("Bo", boTab, "/lock", bad.kv...); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "section:") {
			t.Errorf("lock %v: %d %s, want 400 naming the section", bad.kv, rec.Code, rec.Body)
		}
	}
}

// A step's lock and its sections' locks: Bo cannot lock a section of a step Ada holds; Ada's
// lock of the step takes in her own section's; Bo's lock of a step in which Ada holds a section
// is refused until he takes it over, which takes the section too.
func TestLock_aSectionWithinAStep(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	take := func(person, tab, action string, kv ...string) *httptest.ResponseRecorder {
		return r.post(person, tab, "/lock", append([]string{"action", action}, kv...)...)
	}
	if rec := take("Ada", adaTab, "take", "step", "tables"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the step: %d %s", rec.Code, rec.Body)
	}
	for _, action := range []string{"take", "takeover"} {
		if rec := take("Bo", boTab, action, "step", "tables", "section", "tables/Employee"); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), "Tables &amp; indexes is locked by Ada, Table Employee with it; ask Ada to unlock it") {
			t.Errorf("Bo's %s of a table inside Ada's step: %d %s", action, rec.Code, rec.Body)
		}
	}
	if rec := take("Ada", adaTab, "release", "step", "tables"); rec.Code != http.StatusOK {
		t.Fatal(rec.Code)
	}
	if rec := take("Ada", adaTab, "take", "step", "tables", "section", "tables/Employee"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the table: %d %s", rec.Code, rec.Body)
	}
	if rec := take("Bo", boTab, "take", "step", "tables"); rec.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(rec.Body.String(), "Table Employee is locked by Ada; take the step over to lock it whole") {
		t.Errorf("Bo locks the step Ada holds a table of: %d %s", rec.Code, rec.Body)
	}
	if rec := take("Ada", adaTab, "take", "step", "tables"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the step around her table: %d %s", rec.Code, rec.Body)
	}
	if got := r.a.srv.hub.Locks(r.a.designID(r.token)); len(got) != 1 || got[0].Section != "" {
		t.Errorf("after Ada locked the step around her table the room holds %+v, want the step's lock alone", got)
	}
	take("Ada", adaTab, "release", "step", "tables")
	take("Ada", adaTab, "take", "step", "tables", "section", "tables/Employee")
	if rec := take("Bo", boTab, "takeover", "step", "tables"); rec.Code != http.StatusOK {
		t.Fatalf("Bo takes the step over: %d %s", rec.Code, rec.Body)
	}
	if got := r.a.srv.hub.Locks(r.a.designID(r.token)); len(got) != 1 || got[0].Section != "" || got[0].By != "Bo" {
		t.Errorf("after Bo took the step over the room holds %+v, want his step lock alone", got)
	}
}

// A table renamed by the holder of its lock stays locked under its new name; deleted, its lock
// goes.
func TestLock_aRenamedSectionStaysLocked(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	if rec := r.post("Ada", adaTab, "/lock", "step", "tables", "section", "tables/Employee", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the table: %d %s", rec.Code, rec.Body)
	}
	r.locks(r.bo)
	if rec := r.post("Bo", boTab, "/tables/field", "table", "Employee", "field", "name", "value", "Staff"); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tableLocked) {
		t.Errorf("Bo renames Ada's table: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Ada", adaTab, "/tables/field", "table", "Employee", "field", "name", "value", "Staff"); rec.Code != http.StatusOK {
		t.Fatalf("Ada renames her table: %d %s", rec.Code, rec.Body)
	}
	if got := r.locks(r.bo); len(got) != 1 || got[0].Section != "tables/Staff" || got[0].Label != "Table Staff" {
		t.Fatalf("after the rename Bo's page is told %+v, want Table Staff locked", got)
	}
	if rec := r.post("Bo", boTab, "/tables/field", "table", "Staff", "field", "purpose", "value", "Bo's"); rec.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(rec.Body.String(), "Table Staff is locked by Ada") {
		t.Errorf("Bo edits the renamed table: %d %s", rec.Code, rec.Body)
	}
	if rec := r.post("Ada", adaTab, "/tables/delete", "table", "Staff"); rec.Code != http.StatusOK {
		t.Fatalf("Ada deletes her table: %d %s", rec.Code, rec.Body)
	}
	if got := r.locks(r.bo); len(got) != 0 {
		t.Errorf("after the table went Bo's page is told %+v, want no lock", got)
	}
}

// A lock of Access patterns covers the patterns' own fields and not their mappings, which are
// Mapping's; a lock of Mapping, the other way round.
func TestLock_patternsAndMappingLockTheirOwnPaths(t *testing.T) {
	t.Parallel()
	r := newLockRoom(t, Options{})
	if rec := r.post("Ada", adaTab, "/lock", "step", "patterns", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the access patterns: %d %s", rec.Code, rec.Body)
	}
	for _, change := range []string{
		`{"kind": "set_mapping_notes", "change": {"pattern": "ap1", "notes": "Query the table."}}`,
		`{"kind": "add_operation", "change": {"pattern": "ap1", "op": "Query"}}`,
		`{"kind": "delete_operation", "change": {"pattern": "ap1", "index": 1}}`,
	} {
		if rec := r.a.postChange(r.token, change); rec.Code != http.StatusOK {
			t.Errorf("a Mapping edit %s under a lock of Access patterns: %d %s", change, rec.Code, rec.Body)
		}
	}
	if rec := r.a.postChange(r.token, `{"kind": "set_pattern_field", "change": {"id": "ap1", "field": "peak_rps", "value": "5"}}`); rec.Code != http.StatusLocked {
		t.Errorf("a pattern's peak under a lock of Access patterns: %d %s", rec.Code, rec.Body)
	}
	r.post("Ada", adaTab, "/lock", "step", "patterns", "action", "release")
	if rec := r.post("Ada", adaTab, "/lock", "step", "mapping", "action", "take"); rec.Code != http.StatusOK {
		t.Fatalf("Ada locks the mapping: %d %s", rec.Code, rec.Body)
	}
	if rec := r.a.postChange(r.token, `{"kind": "add_operation", "change": {"pattern": "ap1", "op": "Query"}}`); rec.Code != http.StatusLocked {
		t.Errorf("a Mapping edit under a lock of Mapping: %d %s", rec.Code, rec.Body)
	}
	if rec := r.a.postChange(r.token, `{"kind": "set_pattern_field", "change": {"id": "ap1", "field": "peak_rps", "value": "6"}}`); rec.Code != http.StatusOK {
		t.Errorf("a pattern's peak under a lock of Mapping: %d %s", rec.Code, rec.Body)
	}
}
