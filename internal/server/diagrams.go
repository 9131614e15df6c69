package server

import (
	"bytes"
	"dynaloom/internal/designer"
	"dynaloom/web/templates"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// diagramDownload answers GET /d/{token}/diagrams/{kind}.svg: the diagram as a file of its own,
// without links.
func (s *Server) diagramDownload(c echo.Context) error {
	kind, ok := strings.CutSuffix(c.Param("file"), ".svg")
	sec, known := diagramSections[kind]
	if !ok || !known {
		return echo.ErrNotFound
	}
	d := designFrom(c)
	dr, err := d.derived().Diagram(kind)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	v := templates.Diagram{ID: sec.id, Title: sec.title + " of " + d.Record.Design.Name, Drawing: dr}
	if err := templates.DiagramSVG(v).Render(c.Request().Context(), &b); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+sec.file+`.svg"`)
	return c.Blob(http.StatusOK, "image/svg+xml", b.Bytes())
}

// moveDiagramNode answers POST /d/{token}/diagrams/move: a box dragged (or moved by the arrow keys)
// to a new centre (x, y) on diagram kind, saved as a change like any edit. The answer itself is
// empty: the diagram comes with it out of band (ownDiagram), redrawn around the box where it now
// stands. A refused position is shown by the page's error toast, and the diagram drawn again as
// the design holds it.
func (s *Server) moveDiagramNode(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	x, err := coordField("x", form.get("x"))
	if err != nil {
		return err
	}
	y, err := coordField("y", form.get("y"))
	if err != nil {
		return err
	}
	kind := form.get("diagram")
	return s.apply(c, diagramBack(c, kind), designer.MoveDiagramNode{Diagram: kind, Node: form.get("node"), X: x, Y: y},
		func(d *designContext, r *refused) (templ.Component, error) {
			if r != nil {
				return nil, errNotShown
			}
			return templ.NopComponent, nil
		})
}

// resetDiagramLayout answers POST /d/{token}/diagrams/reset: every position given to a box of
// diagram kind taken away, so that the layout places them all again. As for a move, the diagram
// comes back out of band, and a refusal (nothing placed by hand, since someone else reset it
// first) is shown by the page's error toast.
func (s *Server) resetDiagramLayout(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	kind := form.get("diagram")
	return s.apply(c, diagramBack(c, kind), designer.ResetDiagramLayout{Diagram: kind},
		func(d *designContext, r *refused) (templ.Component, error) {
			if r != nil {
				return nil, errNotShown
			}
			return templ.NopComponent, nil
		})
}

// coordField reads a coordinate, rounded to a tenth of a unit (what the SVG draws).
func coordField(name, raw string) (float64, error) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, badInput("%s: %q is not a number", name, raw)
	}
	return math.Round(f*10) / 10, nil
}

// diagramBack is the step that shows diagram kind, where a plain form post goes back to.
func diagramBack(c echo.Context, kind string) string {
	if kind == designer.ModelMap {
		return tablesBack(c)
	}
	return entitiesBack(c)
}
