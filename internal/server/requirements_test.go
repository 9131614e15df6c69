package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// hx posts a form as htmx does.
func (a *testApp) hx(path string, values ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.request(http.MethodPost, path, formType, strings.NewReader(form(values...)), "HX-Request", "true")
}

func (a *testApp) design(token string) (designer.Design, int64) {
	a.t.Helper()
	rec := a.request(http.MethodGet, "/api/designs/"+token, "", nil)
	if rec.Code != http.StatusOK {
		a.t.Fatalf("get design: %d", rec.Code)
	}
	var body struct {
		Revision int64 `json:"revision"`
	}
	json.Unmarshal(rec.Body.Bytes(), &body)
	d, err := designer.ParseJSON(rec.Body.Bytes())
	if err != nil {
		a.t.Fatal(err)
	}
	return d, body.Revision
}

func TestPatterns_cellSaveAnswersWithItsCellAndTheLivePanel(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	base := "/d/" + c.EditToken
	add := a.hx(base + "/patterns/add")
	if add.Code != http.StatusOK || !strings.Contains(add.Body.String(), `data-number="1"`) {
		t.Fatalf("add: %d %s", add.Code, add.Body)
	}
	d, rev := a.design(c.EditToken)
	id := d.Patterns[0].ID

	rec := a.hx(base+"/patterns/field", "id", id, "field", "peak_rps", "value", "1,200")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `value="1200"`) {
		t.Fatalf("save: %d %s", rec.Code, body)
	}
	if strings.Contains(body, "<tr") || !strings.Contains(body, `id="aside" data-revision="`) || !strings.Contains(body, `data-testid="aside" hx-swap-oob="true"`) {
		t.Fatalf("answer is not the cell plus the live panel: %s", body)
	}
	if !strings.Contains(body, `data-code="REQ001"`) {
		t.Fatal("the live panel does not report the missing average RPS")
	}
	if _, now := a.design(c.EditToken); now != rev+1 {
		t.Fatalf("revision %d after one save, want %d", now, rev+1)
	}
}

func TestPatterns_badInputIsExplainedOnTheCellAndChangesNothing(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders", "access_patterns": [{"number": 1, "description": "Get order"}, {"number": 2, "description": "Put order"}]}`)
	base := "/d/" + c.EditToken
	d, rev := a.design(c.EditToken)
	tests := []struct{ field, value, want string }{
		{"peak_rps", "fast", `&#34;fast&#34; is not a number`},
		{"number", "1", "already used by pattern 1"},
		{"avg_rps", "-3", "avg_rps"},
		{"status", "maybe", "status"},
		{"entities", "Ordr", `no entity named &#34;Ordr&#34;`},
	}
	for _, tc := range tests {
		rec := a.hx(base+"/patterns/field", "id", d.Patterns[1].ID, "field", tc.field, "value", tc.value)
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, tc.want) || !strings.Contains(body, `data-testid="cell-error"`) {
			t.Fatalf("%s=%q: %d %s", tc.field, tc.value, rec.Code, body[:min(len(body), 600)])
		}
		// A select cannot show a value outside its options; text cells keep the refused text.
		if tc.field != "status" && !strings.Contains(body, `value="`+strings.ReplaceAll(tc.value, `"`, "&#34;")+`"`) {
			t.Fatalf("%s: the refused value is not kept in the cell for correction", tc.field)
		}
	}
	paste := a.hx(base+"/patterns/field", "id", d.Patterns[1].ID, "field", "description", "value", strings.Repeat("x", 10<<20))
	if paste.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("10 MB paste: %d", paste.Code)
	}
	if _, now := a.design(c.EditToken); now != rev {
		t.Fatalf("refused edits moved the revision from %d to %d", rev, now)
	}
}

func TestEntities_renameFollowsIntoPatternsAndViewTokensCannotEdit(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop"}`)
	base := "/d/" + c.EditToken
	for _, step := range [][]string{
		{"/entities/add", "name", "Order"},
		{"/attributes/add", "entity", "Order", "name", "order_id", "type", "S"},
		{"/patterns/add"},
	} {
		if rec := a.hx(base+step[0], step[1:]...); rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", step[0], rec.Code, rec.Body)
		}
	}
	d, _ := a.design(c.EditToken)
	if rec := a.hx(base+"/patterns/field", "id", d.Patterns[0].ID, "field", "entities", "value", "Order"); rec.Code != http.StatusOK {
		t.Fatalf("link pattern: %d %s", rec.Code, rec.Body)
	}
	rec := a.hx(base+"/entities/field", "entity", "Order", "field", "name", "value", "PurchaseOrder")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="entity-list"`) {
		t.Fatalf("rename: %d", rec.Code)
	}
	d, _ = a.design(c.EditToken)
	if d.Entities[0].Name != "PurchaseOrder" || d.Patterns[0].Entities[0] != "PurchaseOrder" || d.Entities[0].Attributes[0].Name != "order_id" {
		t.Fatalf("after rename: entities %+v, pattern entities %v", d.Entities, d.Patterns[0].Entities)
	}
	dup := a.hx(base+"/entities/add", "name", "PurchaseOrder")
	if dup.Code != http.StatusUnprocessableEntity || !strings.Contains(dup.Body.String(), "already an entity") {
		t.Fatalf("duplicate entity: %d %s", dup.Code, dup.Body)
	}
	for _, path := range []string{"/entities/add", "/patterns/add", "/patterns/field", "/aggregates/add", "/questions", "/considerations/hot_partitions"} {
		if rec := a.hx("/d/"+c.ViewToken+path, "name", "X", "value", "X"); rec.Code != http.StatusForbidden {
			t.Fatalf("view token %s: %d", path, rec.Code)
		}
	}
}

func TestQuestions_acceptingAGapAnswersTheQuestion(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop", "entities": [{"name": "Order", "attributes": []}],
		"access_patterns": [{"number": 1, "description": "Get order", "type": "read", "peak_rps": 5, "avg_rps": 1, "entities": ["Order"]}]}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/patterns", "", nil).Body.String()
	m := regexp.MustCompile(`name="question" value="([^"]+)">\s*<input type="hidden" name="action" value="accept"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no question offers to accept the missing write pattern")
	}
	rec := a.hx("/d/"+c.EditToken+"/questions", "question", m[1], "action", "accept")
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), m[1]) {
		t.Fatalf("answer: %d; the question is still there: %s", rec.Code, rec.Body)
	}
	d, _ := a.design(c.EditToken)
	if len(d.Entities[0].AcceptedGaps) != 1 {
		t.Fatalf("gap not accepted: %+v", d.Entities[0])
	}
}

func TestAPI_validationReportsFindingsAndTheChecklists(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop", "access_patterns": [{"number": 1, "description": "a"}, {"number": 1, "description": "b"}]}`)
	rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/validation", "", nil)
	var v struct {
		Revision   int64
		Findings   []struct{ Code, Severity, Message, Path string }
		Checklists struct {
			Requirements []struct {
				Item string
				OK   bool
			}
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || rec.Code != 200 {
		t.Fatalf("validation: %d %v", rec.Code, err)
	}
	codes := map[string]bool{}
	for _, f := range v.Findings {
		codes[f.Code] = true
		if f.Severity == "" || f.Message == "" || f.Path == "" {
			t.Fatalf("incomplete finding %+v", f)
		}
	}
	if v.Revision != 1 || !codes["REQ001"] || !codes["REQ002"] {
		t.Fatalf("findings = %+v", v.Findings)
	}
	if len(v.Checklists.Requirements) != 10 || v.Checklists.Requirements[0].OK {
		t.Fatalf("requirements checklist = %+v", v.Checklists.Requirements)
	}
}

func TestExportAndImportOfRequirementsMarkdown(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/export/requirements-md", "", nil)
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), `filename="dynamodb_requirement.md"`) ||
		!strings.HasPrefix(rec.Body.String(), "# DynamoDB Modeling Session") {
		t.Fatalf("export: %d %v %q", rec.Code, rec.Header(), rec.Body.String()[:min(rec.Body.Len(), 80)])
	}
	exported := rec.Body.Bytes()
	if rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/export/nope", "", nil); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown format: %d", rec.Code)
	}

	// The two documents together hold what each one's checklist reads (the identifying check
	// looks at the tables), so they are uploaded together and both come back byte for byte.
	model := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/export/data-model-md", "", nil).Body.Bytes()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "dynamodb_requirement.md")
	part.Write(exported)
	part, _ = mw.CreateFormFile("file", "dynamodb_data_model.md")
	part.Write(model)
	mw.Close()
	up := a.request(http.MethodPost, "/api/designs", mw.FormDataContentType(), &body)
	if up.Code != http.StatusCreated {
		t.Fatalf("import: %d %s", up.Code, up.Body)
	}
	var created createdDesign
	json.Unmarshal(up.Body.Bytes(), &created)
	again := a.request(http.MethodGet, "/api/designs/"+created.ViewToken+"/export/requirements-md", "", nil)
	if !bytes.Equal(again.Body.Bytes(), exported) {
		t.Fatal("export → import → export of the requirement document through the API is not byte-identical")
	}
	again = a.request(http.MethodGet, "/api/designs/"+created.ViewToken+"/export/data-model-md", "", nil)
	if !bytes.Equal(again.Body.Bytes(), model) {
		t.Fatal("export → import → export of the data model through the API is not byte-identical")
	}

	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/export", "", nil).Body.String()
	if !strings.Contains(page, "<table>") || !strings.Contains(page, `data-testid="preview"`) {
		t.Fatal("the export page has no rendered preview")
	}
}

func TestExportPreviewNeverCarriesMarkup(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "<script>alert(1)</script>", "overview": {"domain": "<img src=x onerror=alert(1)> [x](javascript:alert(1))"}}`)
	page := a.request(http.MethodGet, "/d/"+c.ViewToken+"/export", "", nil).Body.String()
	for _, bad := range []string{"<script>alert", "<img src=x", `href="javascript:`} {
		if strings.Contains(page, bad) {
			t.Fatalf("the preview carries %q", bad)
		}
	}
}

func TestImportPage_reportsWhatItMadeOfAFile(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	md := "# DynamoDB Modeling Session\n\n## Application Overview\n- **Domain**: Bookings\n\n## Access Patterns Analysis\n" +
		"| Pattern # | Description | RPS (Peak and Average) | Type | Attributes Needed | Key Requirements | Design Considerations | Status |\n" +
		"|---|---|---|---|---|---|---|---|\n| 1 | Get booking | 40 RPS | Read | booking_id | <20ms | PK lookup | ✅ |\n\n## Something Else\nfree text\n"
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "req.md")
	part.Write([]byte(md))
	mw.Close()
	rec := a.request(http.MethodPost, "/import", mw.FormDataContentType(), &body)
	page := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(page, `data-testid="import-report"`) || !strings.Contains(page, "0 tables, 1 access pattern.") ||
		!strings.Contains(page, `<span class="note-line">line 11</span></td><td class="note-text">section &#34;Something Else&#34; is not part of the template`) {
		t.Fatalf("import: %d %s", rec.Code, page)
	}
	if !regexp.MustCompile(`href="/d/[A-Za-z0-9]+"`).MatchString(page) {
		t.Fatal("the report does not link the new design")
	}
	body.Reset()
	mw = multipart.NewWriter(&body)
	part, _ = mw.CreateFormFile("file", "photo.png")
	part.Write([]byte("\x89PNG\x00\x00"))
	mw.Close()
	rec = a.request(http.MethodPost, "/import", mw.FormDataContentType(), &body)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "photo.png") {
		t.Fatalf("binary upload: %d", rec.Code)
	}
	// A document about DynamoDB from which no design can be read is refused, naming the file and why.
	body.Reset()
	mw = multipart.NewWriter(&body)
	part, _ = mw.CreateFormFile("file", "adr-12.md")
	part.Write([]byte("# ADR 12\n\nWe move to DynamoDB; the partition key, sort key and GSI come later.\n"))
	mw.Close()
	rec = a.request(http.MethodPost, "/import", mw.FormDataContentType(), &body)
	if page := rec.Body.String(); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(page, "adr-12.md") || !strings.Contains(page, "holds no design") {
		t.Fatalf("a document without a design: %d %s", rec.Code, page)
	}
}

// BenchmarkPatternCellEdit200 is one cell edit on a design with 200 patterns, handled the whole way:
// echo routing, token lookup, the change, validation, questions, rendering and the durable write.
func BenchmarkPatternCellEdit200(b *testing.B) {
	a := newTestApp(b)
	var pats []string
	for i := 1; i <= 200; i++ {
		pats = append(pats, fmt.Sprintf(`{"number": %d, "description": "pattern %d", "type": "read", "peak_rps": 10, "avg_rps": 2, "entities": ["E%d"]}`, i, i, i%20))
	}
	var ents []string
	for i := 0; i < 20; i++ {
		ents = append(ents, fmt.Sprintf(`{"name": "E%d", "attributes": [{"name": "id", "type": "S"}]}`, i))
	}
	c := a.createJSON(`{"name": "Big", "entities": [` + strings.Join(ents, ",") + `], "access_patterns": [` + strings.Join(pats, ",") + `]}`)
	d, _ := a.design(c.EditToken)
	id := d.Patterns[100].ID
	path := "/d/" + c.EditToken + "/patterns/field"
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		rec := a.hx(path, "id", id, "field", "peak_rps", "value", fmt.Sprint(100+i%50))
		if rec.Code != http.StatusOK {
			b.Fatalf("edit: %d", rec.Code)
		}
	}
}

// A relationship whose entity the design does not have (written by a script) still shows the name
// it holds, marked, instead of an empty choice.
func TestEntities_relationshipToAMissingEntityShowsItsName(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Library", "entities": [{"name": "Member", "attributes": []}],
		"relationships": [{"from": "Member", "to": "Ghost", "kind": "1:M"}]}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/entities", "", nil).Body.String()
	if !strings.Contains(page, `<option value="Ghost" selected>Ghost (no such entity)</option>`) {
		t.Fatal("the relationship's To select does not show Ghost")
	}
	if strings.Contains(page, `<option value="Member" selected>Member (no such entity)`) {
		t.Fatal("an entity the design has is marked as missing")
	}
}
