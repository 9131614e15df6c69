package templates

import (
	"strconv"
	"strings"

	"dynaloom/internal/designer/diagram"
)

// Diagram is one of a design's two pictures, laid out (package diagram), with where each box and
// line leads.
type Diagram struct {
	// ID is the element id of the section the diagram is drawn in ("entity-diagram", "model-map");
	// the SVG's own ids are made from it.
	ID, Title, Intro string
	Drawing          diagram.Drawing
	// Links is, per node or edge id, the page the box or line opens; none in a downloaded SVG.
	Links map[string]string
	// SVGHref is where the SVG downloads from; empty offers no download.
	SVGHref, FileName string
	// Large draws it for a projector (Present mode).
	Large bool
	// Move is where a box dragged to a new place is posted (x, y: its centre); empty where the
	// page cannot edit.
	Move string
	// Reset is where the diagram's layout is reset (the positions people gave its boxes taken
	// away); set where the page can edit and a box drawn was placed by hand.
	Reset string
	// Connect is where a relationship drawn from one entity to another is posted (from, to,
	// kind); set on the entity diagram where the page can edit, which then draws a handle on
	// each entity box to draw from, and a button to add an entity.
	Connect string
	// Error says why the diagram could not be laid out.
	Error string
	OOB   bool
	// Open, when set, folds the diagram: a design so large that its picture alone would be most
	// of the page shows a link (to this address) that draws it.
	Open string
}

// svgNum writes a coordinate for an SVG attribute: one decimal at most.
func svgNum(f float64) string {
	return strconv.FormatFloat(float64(int64(f*10+copySign(0.5, f)))/10, 'f', -1, 64)
}

func copySign(h, f float64) float64 {
	if f < 0 {
		return -h
	}
	return h
}

func viewBox(d diagram.Drawing) string {
	return svgNum(d.MinX) + " " + svgNum(d.MinY) + " " + svgNum(d.Width) + " " + svgNum(d.Height)
}

// nodeClass is the classes of a box: its kind, and bad when it is flagged.
func nodeClass(n diagram.PlacedNode) string {
	c := "dg-node dg-" + n.Kind
	if n.Flag != "" {
		c += " dg-bad"
	}
	return c
}

func edgeClass(e diagram.PlacedEdge) string {
	c := "dg-edge dg-w" + strconv.Itoa(e.Weight)
	if e.Write {
		c += " dg-write"
	}
	if e.Flag != "" {
		c += " dg-bad"
	}
	return c
}

// Colours and widths as SVG presentation attributes, so that a downloaded SVG looks the same
// without the stylesheet (which may still restyle them on the page).
func nodeFill(n diagram.PlacedNode) string {
	switch {
	case n.Flag != "":
		return "#fdecea"
	case n.Kind == diagram.KindTable:
		return "#e6effb"
	}
	return "#ffffff"
}

func nodeStroke(n diagram.PlacedNode) string {
	switch {
	case n.Flag != "":
		return "#b42318"
	case n.Kind == diagram.KindPattern:
		return "#6b7687"
	case n.Kind == diagram.KindEntity:
		return "#1f3a5f"
	}
	return "#2460b8"
}

func edgeStroke(e diagram.PlacedEdge) string {
	if e.Flag != "" {
		return "#b42318"
	}
	return "#4a5668"
}

func edgeWidth(e diagram.PlacedEdge) string {
	return []string{"1.5", "1.5", "2.5", "4", "6"}[min(max(e.Weight, 0), 4)]
}

func edgeDash(e diagram.PlacedEdge) string {
	if e.Write {
		return "8 5"
	}
	return "none"
}

func arrowID(v Diagram, e diagram.PlacedEdge) string {
	if e.Flag != "" {
		return v.ID + "-arrow-bad"
	}
	return v.ID + "-arrow"
}

// nodeName is a box's accessible name: its title, its lines, and why it is flagged.
func nodeName(n diagram.PlacedNode) string {
	s := n.Title
	if n.Full != "" {
		s = n.Full
	}
	for _, l := range n.Lines {
		s += "; " + l.Text
	}
	if n.Flag != "" {
		s += "; " + n.Flag
	}
	return s
}

func lineFill(l diagram.Line) string {
	if l.Note {
		return "#4a5668"
	}
	return "#17212e"
}

func lineWeight(l diagram.Line) string {
	if l.Key {
		return "bold"
	}
	return "normal"
}

// groupMembers names the boxes of group id.
func groupMembers(d diagram.Drawing, id string) string {
	var names []string
	for _, n := range d.Nodes {
		if n.Group == id {
			names = append(names, n.Title)
		}
	}
	return strings.Join(names, ", ")
}

// shownTitle is a box's whole title, for the text alternative.
func shownTitle(n diagram.Node) string {
	if n.Full != "" {
		return n.Full
	}
	return n.Title
}
