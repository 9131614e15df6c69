package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// edit commits one change for apply, as the current participant, and keeps the request's view of
// the design current. A refused change comes back as a *designer.ValidationError; nothing is
// stored then.
//
// A field's form may carry base_revision, the revision the page showed when the person began
// editing it: if someone else has changed the same part of the design since, the store refuses
// the edit and it is answered with 409, which the page turns into the choice of keeping theirs or
// taking the other (app.js). "Someone else" is another browser tab (X-Dynaloom-Tab), or for a
// request without one, another display name.
func (s *Server) edit(c echo.Context, change designer.Change) error {
	base, err := baseRevision(c)
	if err != nil {
		return err
	}
	tab, err := editorTab(c)
	if err != nil {
		return err
	}
	_, err = s.commit(c, storage.Edit{Change: change, Tab: tab, Base: base})
	return err
}

// commit is where every change a request makes reaches the store, from a page (edit) or the API
// (apiCommit) alike. ed holds the change and its preconditions: IfRevision (the API's If-Match,
// refused with storage.ErrStale unless it names the newest revision) and Base with Tab (a page's
// conflict check, refused with a *storage.ConflictError); its Author is the request's. A refusal
// is returned as it is, for the one classifier (classify, or refusal for an answer shown in place)
// to word; nothing is stored then. A change a step lock held by another tab covers is refused
// (lock.go). A committed change leaves the request's design at the new revision, and the store's
// commit hook tells every participant.
func (s *Server) commit(c echo.Context, ed storage.Edit) (storage.Record, error) {
	d := designFrom(c)
	ed.Author = author(c)
	ed.Refuse = s.lockCheck(d.ID, ed.Tab, d.Record.Design)
	rec, err := s.store.ApplyEdit(c.Request().Context(), d.ID, ed)
	var ce *storage.ConflictError
	if errors.As(err, &ce) {
		// The page names who it conflicts with, and "keep mine" resends from the revision the
		// refusal was made at.
		h := c.Response().Header()
		h.Set("X-Dynaloom-Conflict-Author", url.QueryEscape(ce.Author))
		h.Set("X-Dynaloom-Conflict-Revision", strconv.FormatInt(ce.Head, 10))
	}
	if err != nil {
		return storage.Record{}, err
	}
	d.Record = rec
	s.followSections(d.ID, ed.Change, rec.Design)
	// The page learns the revision its own edit made, so that the event announcing it does not
	// make the page fetch itself again.
	c.Response().Header().Set("X-Dynaloom-Revision", strconv.FormatInt(rec.Revision, 10))
	return rec, nil
}

// A part builds the answer to an edit from the design as it now stands: the part of the step the
// change touched, found by the edited element's identity. r is the refusal of a refused change,
// to show on the field it came from, or nil when the change was saved.
type part func(d *designContext, r *refused) (templ.Component, error)

// savedPart is a part that has no place to show a refusal (a list after an add, move or delete).
func savedPart(build func(d *designContext) (templ.Component, error)) part {
	return func(d *designContext, r *refused) (templ.Component, error) {
		if r != nil {
			return nil, errNotShown
		}
		return build(d)
	}
}

// reload is the answer to a change that reshaped the step: instead of swapping in a part, the
// page fetches the step at this href again (HX-Location).
type reload string

// Render writes nothing: apply answers a reload with headers alone.
func (reload) Render(context.Context, io.Writer) error { return nil }

// onStep reports whether the page that sent request c shows the step at href, as far as it says
// (htmx names the page's URL in HX-Current-URL). Another step is a visit of its own: the page's
// event stream names the step it is on.
func onStep(c echo.Context, href string) bool {
	current := c.Request().Header.Get("HX-Current-URL")
	if current == "" {
		return true
	}
	at, err := url.Parse(current)
	to, err2 := url.Parse(href)
	return err != nil || err2 != nil || at.Path == to.Path
}

// stepLocation is the HX-Location that draws the step at href again in place of the workspace
// only: the element around it holds the page's event stream, with the tab the page added to its
// address, and swapping it would end the stream.
func stepLocation(href string) string {
	b, _ := json.Marshal(struct { // strings only: it cannot fail
		Path   string `json:"path"`
		Target string `json:"target"`
		Select string `json:"select"`
		Swap   string `json:"swap"`
	}{href, "#workspace", "#workspace", "outerHTML"})
	return string(b)
}

// wholePage is an answer that is a whole page, such as a refused plain form post shown in its
// form: it is sent as it is, without the side panel.
type wholePage struct{ templ.Component }

// apply is the one edit path. It commits change as the current participant (edit: the base
// revision, the tab, the conflict check), then answers with the part of the step the change
// touched and, out of band, the side panel. A refused change is classified once (refusal) and
// given to part to show on the field, answered with the classifier's status; any other error, or
// a refusal the part cannot show, goes to the error handler. A plain form post, without htmx, is
// sent back to the page back.
func (s *Server) apply(c echo.Context, back string, change designer.Change, build part) error {
	return s.answer(c, back, s.edit(c, change), build)
}

// answer is the second half of apply: the answer to a change committed (err is nil) or refused. A
// handler calls it alone for input refused before a change could be built from it, such as a
// generator or key list that does not parse, so that it is shown on its field the same way.
func (s *Server) answer(c echo.Context, back string, err error, build part) error {
	r, refused := refusal(err)
	if err != nil && !refused {
		return err
	}
	d := designFrom(c)
	main, perr := build(d, r)
	switch {
	case errors.Is(perr, errNotShown):
		return err
	case perr != nil:
		return perr
	}
	status := http.StatusOK
	if refused {
		status = r.Status
	}
	if p, ok := main.(wholePage); ok {
		return render(c, status, p.Component)
	}
	if href, ok := main.(reload); ok {
		back = string(href)
		if isHTMX(c) {
			if onStep(c, back) {
				c.Response().Header().Set("HX-Location", stepLocation(back))
			} else {
				c.Response().Header().Set("HX-Redirect", back)
			}
			return c.NoContent(http.StatusOK)
		}
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, back)
	}
	all := []templ.Component{main, asideAnswer(c, d, err == nil)}
	if err == nil {
		all = append(all, ownDiagram(c, d)...)
	}
	return render(c, status, templ.Join(all...))
}

// asideAnswer is the side panel an edit's answer carries out of band: whole, or only its revision
// when the edit was saved (saved), the page showed the revision before it (as its base revision
// says, when the form names one) and the panel reads the same at both revisions. A cell edit
// mostly changes no finding or question, and the panel would be a good part of its answer. A page
// that was further behind hears of the revisions between and draws its panel whole then.
func asideAnswer(c echo.Context, d *designContext, saved bool) templ.Component {
	now := asideModel(d)
	if !saved || d.set == nil {
		return templates.AsideView(now, true)
	}
	before, held := d.set.Held(d.ID, d.Record.Revision-1)
	if base, err := baseRevision(c); !held || err != nil || base != 0 && base != d.Record.Revision-1 {
		return templates.AsideView(now, true)
	}
	then := *d
	then.Record.Design, then.Record.Revision = before.Design(), d.Record.Revision-1
	was := asideModel(&then)
	was.Revision = now.Revision
	if !reflect.DeepEqual(was, now) {
		return templates.AsideView(now, true)
	}
	return templates.AsideRevisionOOB(now.Revision)
}
