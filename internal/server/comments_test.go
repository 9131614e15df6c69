package server

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// commentsApp is a test server with the HR example, and its edit and view paths.
func commentsApp(t *testing.T) (a *testApp, edit, view string) {
	t.Helper()
	a = newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	return a, "/d/" + c.EditToken, "/d/" + c.ViewToken
}

// postAs posts a form as the named participant, the way htmx does.
func (a *testApp) postAs(name, path string, values ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	return a.request(http.MethodPost, path, formType, strings.NewReader(form(values...)),
		"HX-Request", "true", "Cookie", participantCookie+"="+url.QueryEscape(name))
}

func (a *testApp) getAs(name, path string) string {
	a.t.Helper()
	rec := a.request(http.MethodGet, path, "", nil, "Cookie", participantCookie+"="+url.QueryEscape(name))
	if rec.Code != http.StatusOK {
		a.t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// badgeCount reads the count of the comment button of target on a page; -1 when there is none.
func badgeCount(t *testing.T, page, target string) int {
	t.Helper()
	re := regexp.MustCompile(`<button[^>]*data-testid="comment-badge"[^>]*data-target="` + regexp.QuoteMeta(html.EscapeString(target)) + `"[^>]*data-count="(\d+)"`)
	m := re.FindStringSubmatch(page)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func revisionOf(t *testing.T, a *testApp, view string) int64 {
	t.Helper()
	var got struct {
		Revision int64 `json:"revision"`
	}
	rec := a.request(http.MethodGet, "/api/designs/"+strings.TrimPrefix(view, "/d/"), "", nil)
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	return got.Revision
}

const ap4 = "access_patterns/ap4"

func TestComments_addShowsInTheThreadAndTheCount(t *testing.T) {
	t.Parallel()
	a, edit, view := commentsApp(t)
	if n := badgeCount(t, a.getAs("Ada", edit+"/patterns"), ap4); n != 0 {
		t.Fatalf("pattern 4's comment button shows %d before any comment", n)
	}
	rec := a.postAs("Ada", edit+"/comments", "target", ap4, "body", "Is 500 RPS the peak or the average?")
	if rec.Code != http.StatusOK {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	answer := rec.Body.String()
	if !strings.Contains(answer, `data-testid="comment-body">Is 500 RPS the peak or the average?<`) || !strings.Contains(answer, ">Ada<") {
		t.Errorf("the answer's thread lacks the comment and its author:\n%s", answer)
	}
	if !regexp.MustCompile(`data-testid="comment-badge"[^>]*data-count="1"[^>]*hx-swap-oob="true"`).MatchString(answer) {
		t.Errorf("the answer does not update the pattern's comment button to 1")
	}

	if n := badgeCount(t, a.getAs("Ada", edit+"/patterns"), ap4); n != 1 {
		t.Errorf("after a comment, pattern 4's button shows %d, want 1", n)
	}
	if n := badgeCount(t, a.getAs("Bo", view+"/patterns"), "access_patterns/ap5"); n != 0 {
		t.Errorf("pattern 5's button shows %d, want 0", n)
	}

	// The view link reads the thread but gets no forms.
	panel := a.getAs("Bo", view+"/comments?target="+url.QueryEscape(ap4))
	if !strings.Contains(panel, "Is 500 RPS the peak or the average?") {
		t.Errorf("the view link's thread lacks the comment")
	}
	if strings.Contains(panel, "<form") || strings.Contains(panel, "<textarea") {
		t.Errorf("the view link's thread has forms:\n%s", panel)
	}
	if !strings.Contains(a.getAs("Ada", edit+"/comments?target="+url.QueryEscape(ap4)), `data-testid="comment-new"`) {
		t.Errorf("the edit link's thread has no form for a new comment")
	}
}

func TestComments_replyResolveAndDelete(t *testing.T) {
	t.Parallel()
	a, edit, _ := commentsApp(t)
	a.postAs("Ada", edit+"/comments", "target", ap4, "body", "Peak or average?")
	rec := a.postAs("Bo", edit+"/comments", "target", ap4, "parent_id", "cm1", "body", "The peak, at month end.")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "The peak, at month end.") {
		t.Fatalf("reply: %d %s", rec.Code, rec.Body)
	}
	if n := badgeCount(t, a.getAs("Ada", edit+"/patterns"), ap4); n != 2 {
		t.Errorf("with a reply, the button shows %d, want 2", n)
	}

	// Only the author deletes, and a thread with replies is resolved, not deleted.
	if rec := a.postAs("Ada", edit+"/comments/delete", "target", ap4, "id", "cm2"); rec.Code != http.StatusForbidden {
		t.Errorf("Ada deleting Bo's reply: %d, want 403", rec.Code)
	}
	if rec := a.postAs("Ada", edit+"/comments/delete", "target", ap4, "id", "cm1"); rec.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(rec.Body.String(), "has replies") {
		t.Errorf("deleting a root with replies: %d, want 422 saying it has replies", rec.Code)
	}
	panel := a.getAs("Ada", edit+"/comments?target="+url.QueryEscape(ap4))
	if strings.Count(panel, `data-testid="comment-delete"`) != 0 {
		t.Errorf("Ada is offered a delete button on a root with replies or on Bo's reply")
	}
	if strings.Count(a.getAs("Bo", edit+"/comments?target="+url.QueryEscape(ap4)), `data-testid="comment-delete"`) != 1 {
		t.Errorf("Bo is not offered exactly one delete button, for his reply")
	}

	rec = a.postAs("Ada", edit+"/comments/resolve", "target", ap4, "id", "cm1", "resolved", "true")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `data-resolved="true"`) {
		t.Fatalf("resolve: %d %s", rec.Code, rec.Body)
	}
	if n := badgeCount(t, a.getAs("Ada", edit+"/patterns"), ap4); n != 0 {
		t.Errorf("after resolving, the button shows %d, want 0", n)
	}
	if rec := a.postAs("Bo", edit+"/comments/delete", "target", ap4, "id", "cm2"); rec.Code != http.StatusOK {
		t.Errorf("Bo deleting his reply: %d %s", rec.Code, rec.Body)
	}
	panel = a.getAs("Ada", edit+"/comments?target="+url.QueryEscape(ap4))
	if strings.Contains(panel, "month end") || !strings.Contains(panel, "Peak or average?") {
		t.Errorf("after the delete, the thread is wrong:\n%s", panel)
	}
}

func TestComments_onTablesIndexesAndItemsAreCounted(t *testing.T) {
	t.Parallel()
	a, edit, _ := commentsApp(t)
	for _, target := range []string{"tables/TitleHistory", "tables/Employee/indexes/EmployeesByTitle", "tables/TitleHistory/items/t10001a"} {
		if rec := a.postAs("Ada", edit+"/comments", "target", target, "body", "Check this."); rec.Code != http.StatusOK {
			t.Fatalf("comment on %s: %d %s", target, rec.Code, rec.Body)
		}
	}
	titles := a.getAs("Ada", edit+"/tables?table=TitleHistory")
	if n := badgeCount(t, titles, "tables/TitleHistory"); n != 1 {
		t.Errorf("table button shows %d, want 1", n)
	}
	if n := badgeCount(t, titles, "tables/TitleHistory/items/t10001a"); n != 1 {
		t.Errorf("item button shows %d, want 1", n)
	}
	if n := badgeCount(t, titles, "tables/TitleHistory/items/t10001b"); n != 0 {
		t.Errorf("another item's button shows %d, want 0", n)
	}
	if n := badgeCount(t, a.getAs("Ada", edit+"/tables?table=Employee"), "tables/Employee/indexes/EmployeesByTitle"); n != 1 {
		t.Errorf("index button shows %d, want 1", n)
	}
}

func TestComments_viewLinkCannotChangeThem(t *testing.T) {
	t.Parallel()
	a, edit, view := commentsApp(t)
	a.postAs("Ada", edit+"/comments", "target", ap4, "body", "Mine")
	before := revisionOf(t, a, view)
	for _, post := range []struct{ path, values string }{
		{"/comments", form("target", ap4, "body", "Hacked")},
		{"/comments", form("target", ap4, "parent_id", "cm1", "body", "Hacked")},
		{"/comments/resolve", form("target", ap4, "id", "cm1", "resolved", "true")},
		{"/comments/delete", form("target", ap4, "id", "cm1")},
	} {
		rec := a.request(http.MethodPost, view+post.path, formType, strings.NewReader(post.values), "HX-Request", "true", "Cookie", participantCookie+"=Ada")
		if rec.Code != http.StatusForbidden {
			t.Errorf("view link POST %s: %d, want 403", post.path, rec.Code)
		}
	}
	if after := revisionOf(t, a, view); after != before {
		t.Errorf("revision went from %d to %d after refused posts", before, after)
	}
}

func TestComments_bodyIsEscapedNeverMarkup(t *testing.T) {
	t.Parallel()
	a, edit, view := commentsApp(t)
	attack := `<script>alert("x")</script><img src=x onerror=alert(1)>`
	rec := a.postAs(`Eve <b>`, edit+"/comments", "target", ap4, "body", attack)
	if rec.Code != http.StatusOK {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	for name, page := range map[string]string{
		"answer": rec.Body.String(),
		"panel":  a.getAs("Bo", view+"/comments?target="+url.QueryEscape(ap4)),
	} {
		if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") || strings.Contains(page, "<b>") {
			t.Errorf("%s renders the comment as markup", name)
		}
		if !strings.Contains(page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") || !strings.Contains(page, "Eve &lt;b&gt;") {
			t.Errorf("%s does not show the comment and author as text:\n%s", name, page)
		}
	}
}

func TestComments_badInputIsExplainedAndChangesNothing(t *testing.T) {
	t.Parallel()
	a, edit, view := commentsApp(t)
	before := revisionOf(t, a, view)
	rec := a.postAs("Ada", edit+"/comments", "target", ap4, "body", "   ")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "body: must not be empty") {
		t.Errorf("empty body with htmx: %d %s", rec.Code, rec.Body)
	}
	long := strings.Repeat("x", 4001)
	rec = a.postAs("Ada", edit+"/comments", "target", ap4, "body", long)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), ">"+long+"</textarea>") {
		t.Errorf("an over-long comment is not kept in the box for correcting: %d", rec.Code)
	}
	// Without htmx, the error page names the field.
	plain := a.request(http.MethodPost, edit+"/comments", formType, strings.NewReader(form("target", "tables/Nope", "body", "x")))
	if plain.Code != http.StatusBadRequest || !strings.Contains(plain.Body.String(), "target: no table named") {
		t.Errorf("unknown target without htmx: %d %s", plain.Code, plain.Body)
	}
	if rec := a.request(http.MethodGet, view+"/comments?target=entities/Employee", "", nil); rec.Code != http.StatusBadRequest ||
		!strings.Contains(rec.Body.String(), "target: is") {
		t.Errorf("thread of something that takes no comments: %d", rec.Code)
	}
	rec = a.postAs("Ada", edit+"/comments", "target", ap4, "parent_id", "cm7", "body", "Reply")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "parent_id: no comment") {
		t.Errorf("reply to no comment: %d %s", rec.Code, rec.Body)
	}
	if rec := a.postAs("Ada", edit+"/comments/resolve", "target", ap4, "id", "cm1", "resolved", "maybe"); rec.Code != http.StatusBadRequest {
		t.Errorf("resolved=maybe: %d, want 400", rec.Code)
	}
	if after := revisionOf(t, a, view); after != before {
		t.Errorf("refused comments changed the revision from %d to %d", before, after)
	}
}

func TestComments_plainFormPostGoesBackToTheElement(t *testing.T) {
	t.Parallel()
	a, edit, _ := commentsApp(t)
	rec := a.request(http.MethodPost, edit+"/comments", formType, strings.NewReader(form("target", ap4, "body", "Without JavaScript")),
		"Cookie", participantCookie+"=Ada")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != edit+"/patterns#row-ap4" {
		t.Errorf("plain post: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
}

func TestRelativeTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	for at, want := range map[string]string{
		"2025-03-10T11:59:30Z": "just now",
		"2025-03-10T11:59:00Z": "1 minute ago",
		"2025-03-10T11:15:00Z": "45 minutes ago",
		"2025-03-10T09:00:00Z": "3 hours ago",
		"2025-03-09T12:00:00Z": "1 day ago",
		"2025-02-20T08:00:00Z": "20 Feb 2025",
		"not a time":           "not a time",
	} {
		if got := relativeTime(at, now); got != want {
			t.Errorf("relativeTime(%s) = %q, want %q", at, got, want)
		}
	}
}
