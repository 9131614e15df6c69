package server

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// editLink finds an edit token in an answer: in a /d/ link of its headers or body, or in the API's
// edit_token field.
var editLink = regexp.MustCompile(`/d/([A-Z2-7]{26})|"edit_token":\s*"([A-Z2-7]{26})"`)

// Every answer that carries an edit link, whether in a page, a redirect or JSON, tells browsers
// and caches not to store it: whoever reads a stored copy could edit the design.
func TestNoStore_everyAnswerCarryingAnEditLinkIsNotStored(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	type answer struct {
		name string
		rec  *httptest.ResponseRecorder
	}
	var answers []answer
	walk := func(name string, rec *httptest.ResponseRecorder) *httptest.ResponseRecorder {
		answers = append(answers, answer{name, rec})
		return rec
	}

	created := walk("POST /designs, the redirect to the new design's edit link",
		a.request(http.MethodPost, "/designs", formType, strings.NewReader(form("name", "Orders"))))
	page := created.Header().Get("Location")
	walk("the created design's page, with its share dialog", a.request(http.MethodGet, page, "", nil))
	walk("POST /participant back to the design", a.request(http.MethodPost, "/participant", formType,
		strings.NewReader(form("name", "Sam", "next", page))))
	walk("POST /api/designs", a.request(http.MethodPost, "/api/designs", "application/json", strings.NewReader(`{"name": "Orders"}`)))

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "req.md")
	part.Write([]byte("# DynamoDB Modeling Session\n\n## Application Overview\n- **Domain**: Bookings\n"))
	mw.Close()
	walk("POST /import", a.request(http.MethodPost, "/import", mw.FormDataContentType(), &body))

	rotated := walk("POST share/rotate of the edit link", a.request(http.MethodPost, page+"/share/rotate", formType,
		strings.NewReader(form("which", "edit"))))
	page = rotated.Header().Get("Location")
	walk("POST share/rotate of the view link (htmx)", a.request(http.MethodPost, page+"/share/rotate", formType,
		strings.NewReader(form("which", "view")), "HX-Request", "true"))
	token := strings.TrimPrefix(page, "/d/")
	walk("POST /api/designs/{token}/tokens/rotate", a.request(http.MethodPost, "/api/designs/"+token+"/tokens/rotate",
		"application/json", strings.NewReader(`{"which": "edit"}`)))

	for _, ans := range answers {
		headers, _ := json.Marshal(ans.rec.Header())
		unescaped, _ := url.QueryUnescape(ans.rec.Body.String())
		if !editLink.Match(headers) && !editLink.MatchString(ans.rec.Body.String()) && !editLink.MatchString(unescaped) {
			t.Errorf("%s: %d, carries no edit link, so the walk misses what it should check", ans.name, ans.rec.Code)
			continue
		}
		if cc := ans.rec.Header().Get("Cache-Control"); !strings.Contains(cc, "no-store") {
			t.Errorf("%s: %d carries an edit link with Cache-Control %q, want no-store", ans.name, ans.rec.Code, cc)
		}
	}
}
