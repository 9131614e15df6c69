package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
)

// apiPostChange applies one typed change, sent in the envelope the history stores
// ({"kind": "set_item_cell", "change": {...}}; docs/changes.md lists every kind), so that a script
// edits one cell without sending the whole design. It is stored through the one edit path like a
// page's edit: If-Match, when given, must name the newest revision (412 otherwise); a change the
// design refuses is a 400 naming the field; the change is announced to every participant, under
// the request's author.
func (s *Server) apiPostChange(c echo.Context) error {
	ifRevision, err := ifMatchRevision(c, false)
	if err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	change, err := designer.ParseChange(body)
	if err != nil {
		return err
	}
	switch ch := change.(type) {
	case designer.AddComment:
		// A comment is the request's author's, written now, as from a page.
		ch.Author, ch.At = author(c), time.Now().UTC().Format(time.RFC3339)
		change = ch
	case designer.DeleteComment:
		if err := mayDeleteComment(c, ch.ID); err != nil {
			return err
		}
	}
	rec, err := s.apiCommit(c, change, ifRevision)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": rec.ID, "revision": rec.Revision})
}
