package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// tabID makes a tab id of the form app.js generates, distinct per n.
func tabID(n int) string { return fmt.Sprintf("%032x", n+1) }

// Twenty people save one field from the revision they all saw, at once. Exactly one save is
// acknowledged; every other one is refused with the conflict and its author, so no acknowledged
// edit is overwritten. It holds when they all chose the same display name, as long as each has
// its own tab.
func TestConflict_concurrentSaversOfOneFieldFromOneRevision(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		person func(i int) string
	}{
		{"different names", func(i int) string { return "Person " + strconv.Itoa(i) }},
		{"one name", func(int) string { return "Sam" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestAppWith(t, Options{WriteLimit: NoLimit})
			created := a.createJSON(`{"example": "hr-employees"}`)
			d, rev := a.design(created.EditToken)
			id := d.Patterns[0].ID
			const savers = 20
			codes := make([]int, savers)
			answers := make([]*httptest.ResponseRecorder, savers)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range savers {
				wg.Go(func() {
					req := httptest.NewRequest(http.MethodPost, "/d/"+created.EditToken+"/patterns/field",
						strings.NewReader(form("id", id, "field", "description", "value", "wording "+strconv.Itoa(i),
							"base_revision", strconv.FormatInt(rev, 10))))
					req.Header.Set("Content-Type", formType)
					req.Header.Set("HX-Request", "true")
					req.Header.Set("X-Dynaloom-Tab", tabID(i))
					req.Header.Set("Cookie", participantCookie+"="+url.QueryEscape(tc.person(i)))
					<-start
					rec := httptest.NewRecorder()
					a.srv.Handler().ServeHTTP(rec, req)
					codes[i], answers[i] = rec.Code, rec
				})
			}
			close(start)
			wg.Wait()

			winner, conflicts := -1, 0
			for i, code := range codes {
				switch code {
				case http.StatusOK:
					if winner >= 0 {
						t.Errorf("saves %d and %d were both acknowledged", winner, i)
					}
					winner = i
				case http.StatusConflict:
					conflicts++
					if answers[i].Header().Get("X-Dynaloom-Conflict-Author") == "" {
						t.Errorf("save %d: 409 without X-Dynaloom-Conflict-Author", i)
					}
					if body := answers[i].Body.String(); !strings.Contains(body, "changed this while you were editing it") {
						t.Errorf("save %d: 409 body does not offer the choice: %s", i, body)
					}
				default:
					t.Errorf("save %d: status %d %s", i, code, answers[i].Body)
				}
			}
			acknowledged := 0
			for _, code := range codes {
				if code == http.StatusOK {
					acknowledged++
				}
			}
			t.Logf("%d savers: %d acknowledged, %d refused with 409; %d acknowledged edits overwritten",
				savers, acknowledged, conflicts, max(acknowledged-1, 0))
			if winner < 0 || conflicts != savers-1 {
				t.Fatalf("want 1 acknowledged and %d conflicts, got %d and %d", savers-1, acknowledged, conflicts)
			}
			got, _ := a.design(created.EditToken)
			if want := "wording " + strconv.Itoa(winner); got.Patterns[0].Description != want {
				t.Fatalf("stored description %q, want the acknowledged %q", got.Patterns[0].Description, want)
			}
		})
	}
}

// After a conflict, "keep mine" resends the value with the revision the refusal named as its
// base; it is saved over the change the person was told about.
func TestConflict_keepMineAfterARefusalSaves(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(created.EditToken)
	id := d.Patterns[0].ID
	save := func(tab, value string, base int64) *httptest.ResponseRecorder {
		return a.request(http.MethodPost, "/d/"+created.EditToken+"/patterns/field", formType,
			strings.NewReader(form("id", id, "field", "description", "value", value, "base_revision", strconv.FormatInt(base, 10))),
			"HX-Request", "true", "X-Dynaloom-Tab", tab, "Cookie", participantCookie+"=Sam")
	}
	if rec := save(tabID(1), "first tab's", rev); rec.Code != http.StatusOK {
		t.Fatalf("first tab: %d %s", rec.Code, rec.Body)
	}
	if rec := save(tabID(1), "first tab again", rev); rec.Code != http.StatusOK {
		t.Fatalf("a tab over its own change: %d %s", rec.Code, rec.Body)
	}
	rec := save(tabID(2), "second tab's", rev)
	if rec.Code != http.StatusConflict {
		t.Fatalf("second tab of the same name over the first one's change: %d %s", rec.Code, rec.Body)
	}
	at, err := strconv.ParseInt(rec.Header().Get("X-Dynaloom-Conflict-Revision"), 10, 64)
	if err != nil || at <= rev {
		t.Fatalf("X-Dynaloom-Conflict-Revision %q: want the revision the refusal was made at", rec.Header().Get("X-Dynaloom-Conflict-Revision"))
	}
	if rec := save(tabID(2), "second tab's", at); rec.Code != http.StatusOK {
		t.Fatalf("keep mine: %d %s", rec.Code, rec.Body)
	}
	if got, _ := a.design(created.EditToken); got.Patterns[0].Description != "second tab's" {
		t.Fatalf("after keep mine the description is %q", got.Patterns[0].Description)
	}
}
