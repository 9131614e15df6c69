package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A person who types in a cell and at once clicks a link to another table leaves the page while
// the cell's save is on its way: the browser drops the request it sent, and the server sees its
// context cancelled. The edit was read whole, so it is kept.
func TestEdit_keptWhenThePersonLeavesBeforeTheAnswer(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Clinic"}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/d/"+c.EditToken+"/overview/notes", strings.NewReader(form("value", "Typed, then left")))
	req.Header.Set("Content-Type", formType)
	req.Header.Set("HX-Request", "true")
	a.do(req.WithContext(ctx))
	if d, _ := a.design(c.ViewToken); d.Overview.Notes != "Typed, then left" {
		t.Errorf("overview notes are %q after the person left; want the text they typed", d.Overview.Notes)
	}
}
