package server

import (
	"net/url"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// maxDrawnElements is the most boxes and lines the Tables step draws its model map with before it
// is asked to: past it (some 50 tables and 500 patterns), the picture alone is more than half a
// megabyte, most of the page.
const maxDrawnElements = 600

// drawParam asks the Tables step to draw a folded model map; a page that asked keeps it drawn in
// its address, and so through a reload or a live refresh.
const drawParam = "map"

// foldDiagram folds the model map v of the page at address page when it is too large to draw
// unasked and the page did not ask for it. The entity diagram is always drawn.
func foldDiagram(v templates.Diagram, page *url.URL) templates.Diagram {
	if page == nil || v.Drawing.Kind != designer.ModelMap || len(v.Drawing.Nodes)+len(v.Drawing.Edges) <= maxDrawnElements {
		return v
	}
	q := page.Query()
	if q.Get(drawParam) == "drawn" {
		return v
	}
	q.Set(drawParam, "drawn")
	v.Open = page.Path + "?" + q.Encode() + "#" + v.ID
	return v
}
