package server

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// edit applies one change as the current participant and keeps the request's view of the design
// current. A refused change comes back as a *designer.ValidationError for the caller to show on
// the field; nothing is stored then.
//
// A field's form may carry base_revision, the revision the page showed when the person began
// editing it: if someone else has changed the same part of the design since, the store refuses
// the edit and it is answered with 409, which the page turns into the choice of keeping theirs or
// taking the other (app.js). "Someone else" is another browser tab (X-Dynaloom-Tab), or for a
// request without one, another display name.
func (s *Server) edit(c echo.Context, change designer.Change) error {
	d := designFrom(c)
	base, err := baseRevision(c)
	if err != nil {
		return err
	}
	tab, err := editorTab(c)
	if err != nil {
		return err
	}
	rec, err := s.store.ApplyEdit(c.Request().Context(), d.ID, storage.Edit{Change: change, Author: author(c), Tab: tab, Base: base})
	var ce *storage.ConflictError
	if errors.As(err, &ce) {
		// The page names who it conflicts with, and "keep mine" resends from the revision the
		// refusal was made at.
		h := c.Response().Header()
		h.Set("X-Dynaloom-Conflict-Author", url.QueryEscape(ce.Author))
		h.Set("X-Dynaloom-Conflict-Revision", strconv.FormatInt(ce.Head, 10))
	}
	if err != nil {
		return err
	}
	d.Record = rec
	// The page learns the revision its own edit made, so that the event announcing it does not
	// make the page fetch itself again.
	c.Response().Header().Set("X-Dynaloom-Revision", strconv.FormatInt(rec.Revision, 10))
	return nil
}

// baseRevision reads the optional base_revision of an edit's form; 0 means none was given.
func baseRevision(c echo.Context) (int64, error) {
	form, err := postedForm(c)
	if err != nil {
		return 0, err
	}
	raw := form.get("base_revision")
	if raw == "" {
		return 0, nil
	}
	base, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || base < 1 {
		return 0, badInput("base_revision: %q is not a revision number", raw)
	}
	return base, nil
}

// respond answers an edit: the changed fragment plus the live panel, swapped out of band. A
// request without htmx (a plain form post) is sent back to the step instead.
func respond(c echo.Context, status int, step string, main templ.Component) error {
	d := designFrom(c)
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, step))
	}
	return render(c, status, templ.Join(main, templates.AsideView(asideModel(d), true)))
}

// refusalText words a refused change for the field it is shown under.
func refusalText(ve *designer.ValidationError) string {
	return "Not saved: " + strings.TrimSuffix(ve.Message, ".") + "."
}

func itoa(n int) string { return strconv.Itoa(n) }

func formatFloat(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

func formatInt(n *int64) string {
	if n == nil {
		return ""
	}
	return strconv.FormatInt(*n, 10)
}

func formatTri(b *bool) string {
	switch {
	case b == nil:
		return ""
	case *b:
		return "yes"
	}
	return "no"
}

// formValues is a request's posted form. Every handler reads its input through postedForm, so a
// body over the limit is refused rather than read as empty values.
type formValues struct{ values url.Values }

// postedForm reads the posted form values, reporting a body over the limit.
func postedForm(c echo.Context) (formValues, error) {
	if err := c.Request().ParseForm(); err != nil {
		return formValues{}, err
	}
	return formValues{c.Request().PostForm}, nil
}

// get is the value posted as name, "" when there is none.
func (f formValues) get(name string) string { return f.values.Get(name) }

// int reads a whole number, such as the position of a row ("index") or where it moves to ("to").
func (f formValues) int(name string) (int, error) { return atoiField(name, f.get(name)) }

func optionLabel(opts []templates.Option, value string) string {
	for _, o := range opts {
		if o.Value == value {
			return o.Label
		}
	}
	return value
}

func atoiField(field, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, badInput("%s: %q is not a whole number", field, s)
	}
	return n, nil
}

// cellError is a refused value to show on one cell, by element id, instead of the stored one.
type cellError struct {
	cell, value, message string
}

// apply puts the refused value and its message on the cell it belongs to.
func (e *cellError) apply(c templates.Cell) templates.Cell {
	if e != nil && e.cell == c.ID {
		c.Value, c.Error = e.value, e.message
	}
	return c
}

// findCell finds a cell by element id.
func findCell(cells []templates.Cell, id string) (templates.Cell, bool) {
	for _, c := range cells {
		if id != "" && c.ID == id {
			return c, true
		}
	}
	return templates.Cell{}, false
}
