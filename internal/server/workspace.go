package server

import (
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// origin is the scheme and host the browser used, for links people copy.
func origin(c echo.Context) string { return c.Scheme() + "://" + c.Request().Host }

// workspaceModel builds the frame every step shares.
func (s *Server) workspaceModel(c echo.Context, step string) (templates.Workspace, error) {
	d := designFrom(c)
	base := "/d/" + d.Token
	w := templates.Workspace{
		Page:        templates.Page{Title: d.Record.Design.Name + " · Dynaloom"},
		Name:        d.Record.Design.Name,
		Revision:    d.Record.Revision,
		CanEdit:     d.canEdit(),
		Base:        base,
		Participant: participantName(c),
		Summary:     designer.Summarize(d.Record.Design),
	}
	viewToken := d.Token
	if d.Access == storage.EditAccess {
		w.EditURL = origin(c) + base
		vt, err := s.store.ViewToken(c.Request().Context(), d.ID, d.Token)
		if err != nil {
			return w, err
		}
		viewToken = vt
	}
	w.ViewURL = origin(c) + "/d/" + viewToken
	for _, st := range []struct{ id, label, path string }{
		{"overview", "Overview", ""},
	} {
		w.Steps = append(w.Steps, templates.Step{ID: st.id, Label: st.label, Href: base + st.path, Current: st.id == step})
	}
	return w, nil
}
