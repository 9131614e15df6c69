package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer/capacity"
)

type capacityResponse struct {
	Revision int64 `json:"revision"`
	capacity.Document
}

// apiCapacity answers GET /api/designs/{token}/capacity: the revision's capacity report, in the
// shape docs/capacity.md "API and CLI" documents.
func (s *Server) apiCapacity(c echo.Context) error {
	d := designFrom(c)
	x := d.derived()
	return c.JSON(http.StatusOK, capacityResponse{Revision: d.Record.Revision, Document: capacity.NewDocument(x.Design(), x.Capacity())})
}
