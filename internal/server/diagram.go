// The diagrams as the pages draw them: the model of each page's SVG, and the diagram an edit's
// answer carries when the edit redrew it.

package server

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/designer/diagram"
	"dynaloom/web/templates"
	"net/url"
	"path"
	"reflect"
	"slices"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// diagramModel is diagram kind of the page's design, laid out for its revision, with every box
// and line linked to the element it stands for.
func diagramModel(d *designContext, kind string, oob bool) templates.Diagram {
	sec := diagramSections[kind]
	v := templates.Diagram{
		ID: sec.id, Title: sec.title, Intro: sec.intro, OOB: oob, Large: d.Presenting,
		SVGHref: "/d/" + d.Token + "/diagrams/" + kind + ".svg", FileName: sec.file,
	}
	dr, err := d.derived().Diagram(kind)
	if err != nil {
		v.Error = "The diagram could not be laid out: " + err.Error()
		return v
	}
	v.Drawing = dr
	if d.canEdit() {
		v.Move = "/d/" + d.Token + "/diagrams/move"
		if slices.ContainsFunc(dr.Nodes, func(n diagram.PlacedNode) bool { return n.Pinned }) {
			v.Reset = "/d/" + d.Token + "/diagrams/reset"
		}
		if kind == designer.EntityDiagram {
			v.Connect = "/d/" + d.Token + "/relationships/add"
		}
	}
	v.Links = make(map[string]string, len(dr.Nodes)+len(dr.Edges))
	for _, n := range dr.Nodes {
		v.Links[n.ID] = anchorFor(d, n.Path)
	}
	for _, e := range dr.Edges {
		if e.Path != "" {
			v.Links[e.ID] = anchorFor(d, e.Path)
		}
	}
	return v
}

// diagramPart is diagram kind of the page's design as a part, out of band, when it differs from
// the one the page drew at revision since (or that one is no longer held): a change that leaves
// the picture as it was (a description, a sample item that turns no verdict) sends nothing of it.
func diagramPart(d *designContext, kind string, since int64, page *url.URL) ([]fragment, bool) {
	if d.set != nil {
		if then, ok := d.set.Held(d.ID, since); ok {
			was, errWas := then.Diagram(kind)
			now, errNow := d.derived().Diagram(kind)
			if errWas == nil && errNow == nil && reflect.DeepEqual(was, now) {
				return nil, true
			}
		}
	}
	v := foldDiagram(diagramModel(d, kind, true), page)
	return []fragment{{v.ID, templates.DiagramSection(v)}}, true
}

// withDiagram adds to what find makes of a path the step's diagram of kind, when the path may
// change it (affects) and it did: a path under alone is the diagram alone, as the step shows
// nothing else of it.
func withDiagram(kind string, affects func(designer.PathParts) bool, alone []designer.Path, find func(c echo.Context, since int64) stepParts) func(echo.Context, int64) stepParts {
	return func(c echo.Context, since int64) stepParts {
		parts := find(c, since)
		return func(d *designContext, path designer.Path) ([]fragment, bool) {
			var out []fragment
			if !slices.ContainsFunc(alone, path.In) {
				var ok bool
				if out, ok = parts(d, path); !ok {
					return nil, false
				}
			}
			if !affects(path.Parts(d.Record.Design)) {
				return out, true
			}
			more, _ := diagramPart(d, kind, since, c.Request().URL)
			return append(out, more...), true
		}
	}
}

// entityDiagramShows reports whether a change at path may change the entity diagram: an entity,
// a relationship, an aggregate decision, where it is placed, or a table's key templates (which
// name the entities' key attributes).
func entityDiagramShows(pp designer.PathParts) bool {
	switch pp.Collection {
	case designer.PathEntities, designer.PathRelationships, designer.PathAggregates:
		return true
	case designer.PathDiagrams:
		return pp.Key == designer.EntityDiagram
	case designer.PathTables:
		return pp.Key != "" && !pp.Comments && (pp.Sub == "" && pp.Field == "" || pp.Sub == designer.SubEntityTypes || pp.Member() == designer.SubEntityTypes)
	}
	return false
}

// modelMapShows reports whether a change at path may change the model map: anything of a table
// but its notes and its indexes' notes (a sample item may turn a verdict), a pattern, or where a
// box is placed.
func modelMapShows(pp designer.PathParts) bool {
	switch pp.Collection {
	case designer.PathDiagrams:
		return pp.Key == designer.ModelMap
	case designer.PathPatterns:
		return true
	case designer.PathTables:
		switch pp.Sub {
		case "":
			f, ok := designer.FieldNamed(designer.TableFields, pp.Field)
			return !ok || !f.Prose
		case designer.SubIndexes:
			f, ok := designer.FieldNamed(designer.IndexFields, pp.Field)
			return !ok || !f.Prose
		}
		return true
	}
	return false
}

// ownDiagram is, for the answer to an edit made on a page of a step with a diagram (htmx names the
// page in HX-Current-URL), that diagram out of band when the edit changed it: the editor sees the
// picture change as the others do.
func ownDiagram(c echo.Context, d *designContext) []templ.Component {
	at, err := url.Parse(c.Request().Header.Get("HX-Current-URL"))
	if err != nil {
		return nil
	}
	i := slices.IndexFunc(steps, func(st step) bool { return st.diagram != "" && st.path == "/"+path.Base(at.Path) })
	if i < 0 {
		return nil
	}
	parts, _ := diagramPart(d, steps[i].diagram, d.Record.Revision-1, at)
	out := make([]templ.Component, len(parts))
	for i, p := range parts {
		out[i] = p.part
	}
	return out
}

// modelMapThumbnail is the model map of design d as a picture without links, for a gallery card
// (issue 18): the Tables step's drawing, which scales to its box by its viewBox. id names its SVG's
// own ids (its arrowheads), unique on the page.
func modelMapThumbnail(d designer.Design, id string) (templ.Component, error) {
	dr, err := derive.New(d, nil).Diagram(designer.ModelMap)
	if err != nil {
		return nil, err
	}
	return templates.DiagramSVG(templates.Diagram{ID: id, Title: "Model map of " + d.Name, Drawing: dr}), nil
}

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

// The diagrams' sections: element ids, titles and file names, by kind.
var diagramSections = map[string]struct{ id, title, intro, file string }{
	designer.EntityDiagram: {"entity-diagram", "Entity diagram",
		"Entities with their key attributes and relationships with their counts; aggregates kept together are grouped. Click a box or a line to open it.",
		"entity-diagram"},
	designer.ModelMap: {"model-map", "Model map",
		"Each table with the entity types of its item collections and its indexes, and the line from every access pattern to what serves it: dashed for writes, thicker with peak RPS, red where a verdict fails or a finding points at it.",
		"model-map"},
}

// maxDrawnElements is the most boxes and lines the Tables step draws its model map with before it
// is asked to: past it (some 50 tables and 500 patterns), the picture alone is more than half a
// megabyte, most of the page.
const maxDrawnElements = 600

// drawParam asks the Tables step to draw a folded model map; a page that asked keeps it drawn in
// its address, and so through a reload or a live refresh.
const drawParam = "map"
