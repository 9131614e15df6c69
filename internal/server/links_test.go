package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// rotate posts to the API's rotate endpoint.
func (a *testApp) rotate(token, body string) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.request(http.MethodPost, "/api/designs/"+token+"/tokens/rotate", "application/json", strings.NewReader(body))
}

func decodeRotated(t *testing.T, rec *httptest.ResponseRecorder) map[string]string {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("rotate: %d %s", rec.Code, rec.Body)
	}
	var out map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("rotate answer is not a JSON object of strings: %v: %s", err, rec.Body)
	}
	return out
}

// status is the answer's status for a GET of path.
func (a *testApp) status(path string) int {
	a.t.Helper()
	return a.request(http.MethodGet, path, "", nil).Code
}

func TestAPI_rotateViewToken_oldLinkAnswers404AndTheNewOneViews(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	out := decodeRotated(t, a.rotate(c.EditToken, `{"which": "view"}`))
	if _, ok := out["edit_token"]; ok {
		t.Errorf("rotating the view link answered with an edit token: %v", out)
	}
	if _, ok := out["edit_url"]; ok {
		t.Errorf("rotating the view link answered with an edit URL: %v", out)
	}
	view := out["view_token"]
	if view == "" || view == c.ViewToken || out["view_url"] != "http://example.com/d/"+view {
		t.Fatalf("rotate answered %v; want a new view_token and its view_url", out)
	}

	for _, path := range []string{"/api/designs/" + c.ViewToken, "/d/" + c.ViewToken, "/d/" + c.ViewToken + "/patterns"} {
		if got := a.status(path); got != http.StatusNotFound {
			t.Errorf("GET %s with the old view token: %d, want 404", path, got)
		}
	}
	page := a.request(http.MethodGet, "/d/"+c.ViewToken, "", nil).Body.String()
	if !strings.Contains(page, `data-testid="error-page"`) {
		t.Error("the old view link does not show the error page")
	}
	if got := a.status("/api/designs/" + view); got != http.StatusOK {
		t.Errorf("GET with the new view token: %d", got)
	}
	viewPage := a.request(http.MethodGet, "/d/"+view, "", nil).Body.String()
	if !strings.Contains(viewPage, `data-testid="view-only-badge"`) || strings.Contains(viewPage, c.EditToken) {
		t.Error("the new view link does not open the design read-only without the edit token")
	}
	// The edit page now shows the new view link.
	if got := viewURLIn(t, a.request(http.MethodGet, "/d/"+c.EditToken, "", nil).Body.String()); got != "/d/"+view {
		t.Errorf("the Share popover shows the view link %q, want the new %q", got, "/d/"+view)
	}
}

func TestAPI_rotateEditToken_oldLinkAnswers404AndTheViewLinkStays(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	out := decodeRotated(t, a.rotate(c.EditToken, `{"which": "edit"}`))
	if _, ok := out["view_token"]; ok {
		t.Errorf("rotating the edit link answered with a view token: %v", out)
	}
	edit := out["edit_token"]
	if edit == "" || edit == c.EditToken || out["edit_url"] != "http://example.com/d/"+edit {
		t.Fatalf("rotate answered %v; want a new edit_token and its edit_url", out)
	}
	for _, path := range []string{"/api/designs/" + c.EditToken, "/d/" + c.EditToken} {
		if got := a.status(path); got != http.StatusNotFound {
			t.Errorf("GET %s with the old edit token: %d, want 404", path, got)
		}
	}
	if rec := a.request(http.MethodPut, "/api/designs/"+c.EditToken, "application/json", strings.NewReader(`{"name": "Stolen"}`), "If-Match", `"1"`); rec.Code != http.StatusNotFound {
		t.Errorf("PUT with the old edit token: %d, want 404", rec.Code)
	}
	if rec := a.request(http.MethodPut, "/api/designs/"+edit, "application/json", strings.NewReader(`{"name": "Orders v2"}`), "If-Match", `"1"`); rec.Code != http.StatusOK {
		t.Errorf("PUT with the new edit token: %d %s", rec.Code, rec.Body)
	}
	if got := a.status("/api/designs/" + c.ViewToken); got != http.StatusOK {
		t.Errorf("the view token stopped working when the edit token was replaced: %d", got)
	}
	// The view link is still known to the new edit link's page.
	if got := viewURLIn(t, a.request(http.MethodGet, "/d/"+edit, "", nil).Body.String()); got != "/d/"+c.ViewToken {
		t.Errorf("after replacing the edit link the Share popover shows the view link %q, want the unchanged %q", got, "/d/"+c.ViewToken)
	}
}

func TestAPI_rotateRefusals(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	rec := a.rotate(c.ViewToken, `{"which": "view"}`)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("rotate with the view token: %d, want 403", rec.Code)
	}
	if code, _ := decodeError(t, rec); code != "view_only" {
		t.Errorf("rotate with the view token: code %s, want view_only", code)
	}
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		mentions                string
	}{
		{"unknown which", "application/json", `{"which": "both"}`, 400, "which"},
		{"missing which", "application/json", `{}`, 400, "which"},
		{"which of the wrong type", "application/json", `{"which": 1}`, 400, "which"},
		{"unknown member", "application/json", `{"which": "view", "wich": "edit"}`, 400, "wich"},
		{"not JSON", "application/json", `which=view`, 400, "body"},
		{"form body", formType, `which=view`, 415, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.request(http.MethodPost, "/api/designs/"+c.EditToken+"/tokens/rotate", tc.contentType, strings.NewReader(tc.body))
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if _, msg := decodeError(t, rec); !strings.Contains(msg, tc.mentions) {
				t.Errorf("message %q does not mention %q", msg, tc.mentions)
			}
		})
	}
	// Nothing was replaced.
	for _, tok := range []string{c.EditToken, c.ViewToken} {
		if got := a.status("/api/designs/" + tok); got != http.StatusOK {
			t.Errorf("after refused rotations a token answers %d", got)
		}
	}
}

func TestAPI_viewLinkExpiry(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Orders"}`)
	put := func(token, body string) *httptest.ResponseRecorder {
		return a.request(http.MethodPut, "/api/designs/"+token+"/tokens/view/expiry", "application/json", strings.NewReader(body))
	}
	later := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339)
	rec := put(c.EditToken, `{"expires_at": "`+later+`"}`)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"view_expires_at":"`+later+`"`) {
		t.Fatalf("set expiry: %d %s", rec.Code, rec.Body)
	}
	if got := a.status("/d/" + c.ViewToken); got != http.StatusOK {
		t.Errorf("a view link expiring in two days answers %d", got)
	}

	for _, tc := range []struct{ token, body string }{
		{c.EditToken, `{"expires_at": "2001-01-01T00:00:00Z"}`},
		{c.EditToken, `{"expires_at": "next week"}`},
		{c.EditToken, `{}`},
	} {
		rec := put(tc.token, tc.body)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("expiry %s: %d, want 400", tc.body, rec.Code)
			continue
		}
		if _, msg := decodeError(t, rec); !strings.Contains(msg, "expires_at") {
			t.Errorf("expiry %s: message %q does not name expires_at", tc.body, msg)
		}
	}
	if rec := put(c.ViewToken, `{"expires_at": null}`); rec.Code != http.StatusForbidden {
		t.Errorf("expiry set with the view token: %d, want 403", rec.Code)
	}

	// Once the end has passed, the view link answers 404 like any unknown link; the edit link
	// never expires.
	if err := a.store.SetViewExpiry(t.Context(), c.ID, c.EditToken, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/d/" + c.ViewToken, "/api/designs/" + c.ViewToken} {
		if got := a.status(path); got != http.StatusNotFound {
			t.Errorf("GET %s after the view link expired: %d, want 404", path, got)
		}
	}
	editPage := a.request(http.MethodGet, "/d/"+c.EditToken, "", nil)
	if editPage.Code != http.StatusOK || !strings.Contains(editPage.Body.String(), "stopped working") {
		t.Errorf("the edit page does not say the view link expired: %d", editPage.Code)
	}
	if rec := put(c.EditToken, `{"expires_at": null}`); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"view_expires_at":null`) {
		t.Fatalf("clear expiry: %d %s", rec.Code, rec.Body)
	}
	if got := a.status("/d/" + c.ViewToken); got != http.StatusOK {
		t.Errorf("after choosing never the view link answers %d", got)
	}
}

var editLocation = regexp.MustCompile(`^/d/([A-Z2-7]{26})/patterns$`)

func TestSharePopover_replacesLinksAndSetsTheExpiry(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	edit := a.createFromHome("Payments")
	oldView := viewURLIn(t, a.request(http.MethodGet, edit, "", nil).Body.String())

	rec := a.hx(edit+"/share/rotate", "which", "view", "step", "patterns")
	if rec.Code != http.StatusOK {
		t.Fatalf("new view link: %d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	newView := viewURLIn(t, body)
	if newView == oldView || !strings.Contains(body, `data-testid="share-notice"`) {
		t.Fatalf("the answer does not show a new view link with a notice (old %s, shown %s)", oldView, newView)
	}
	if got := a.status(oldView); got != http.StatusNotFound {
		t.Errorf("the old view link answers %d, want 404", got)
	}
	if got := a.status(newView); got != http.StatusOK {
		t.Errorf("the new view link answers %d", got)
	}

	rec = a.hx(edit+"/share/expiry", "expires", "7d", "step", "patterns")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "works until") {
		t.Fatalf("7-day expiry: %d %s", rec.Code, rec.Body)
	}
	if at, err := a.store.ViewExpiry(t.Context(), a.designID(edit)); err != nil || at.Sub(time.Now()) < 6*24*time.Hour || at.Sub(time.Now()) > 7*24*time.Hour {
		t.Errorf("after choosing 7 days the view link expires at %v (%v)", at, err)
	}
	for _, tc := range []struct{ values []string }{
		{[]string{"expires", "date", "date", "2001-02-03"}},
		{[]string{"expires", "date", "date", "soon"}},
		{[]string{"expires", "forever"}},
	} {
		rec := a.hx(edit+"/share/expiry", tc.values...)
		field := tc.values[1]
		if field != "date" {
			field = "expires"
		}
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `data-testid="share-error"`) ||
			!strings.Contains(rec.Body.String(), field+":") {
			t.Errorf("expiry %v: %d, want 422 with a message naming %s: %s", tc.values, rec.Code, field, rec.Body)
		}
	}
	rec = a.hx(edit+"/share/expiry", "expires", "date", "date", time.Now().UTC().AddDate(0, 0, 3).Format(time.DateOnly))
	if rec.Code != http.StatusOK {
		t.Errorf("expiry on a date: %d %s", rec.Code, rec.Body)
	}

	rec = a.hx(edit+"/share/rotate", "which", "edit", "step", "patterns")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("new edit link: %d %s", rec.Code, rec.Body)
	}
	next := rec.Header().Get("HX-Redirect")
	if !editLocation.MatchString(next) || strings.HasPrefix(next, edit+"/") {
		t.Fatalf("after a new edit link htmx is sent to %q, want a new /d/<token>/patterns", next)
	}
	if got := a.status(edit); got != http.StatusNotFound {
		t.Errorf("the old edit link answers %d, want 404", got)
	}
	if got := a.status(next); got != http.StatusOK {
		t.Errorf("the new edit link answers %d", got)
	}

	// Without JavaScript the forms redirect.
	newEdit := strings.TrimSuffix(next, "/patterns")
	rec = a.request(http.MethodPost, newEdit+"/share/rotate", formType, strings.NewReader(form("which", "edit", "step", "tables")))
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.HasSuffix(loc, "/tables") || strings.HasPrefix(loc, newEdit+"/") {
		t.Fatalf("a new edit link without htmx: %d to %q", rec.Code, loc)
	}
}

func TestSharePopover_viewLinkCannotReplaceLinksAndShowsNoControls(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	edit := a.createFromHome("Payments")
	view := viewURLIn(t, a.request(http.MethodGet, edit, "", nil).Body.String())
	page := a.request(http.MethodGet, view, "", nil).Body.String()
	for _, control := range []string{"/share/rotate", "/share/expiry", `data-testid="rotate-view"`} {
		if strings.Contains(page, control) {
			t.Errorf("the view page offers %s", control)
		}
	}
	for _, path := range []string{"/share/rotate", "/share/expiry"} {
		if rec := a.hx(view+path, "which", "edit", "expires", "never"); rec.Code != http.StatusForbidden {
			t.Errorf("POST %s with the view link: %d, want 403", path, rec.Code)
		}
	}
	if rec := a.hx(edit+"/share/rotate", "which", "both"); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "which") {
		t.Errorf("which=both: %d", rec.Code)
	}
	if got := a.status(view); got != http.StatusOK {
		t.Errorf("refused requests replaced the view link: %d", got)
	}
}

// designID finds the design an edit path opens.
func (a *testApp) designID(edit string) string {
	a.t.Helper()
	id, _, err := a.store.Resolve(a.t.Context(), strings.TrimPrefix(edit, "/d/"))
	if err != nil {
		a.t.Fatal(err)
	}
	return id
}
