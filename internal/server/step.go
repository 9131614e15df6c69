// A step of the workspace as the registry in routes.go lists it, and the lookups on that list.

package server

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
)

// step is one step of the workspace: everything the routes, the nav, the past revisions, the
// agenda and the live refresh know of it.
type step struct {
	id, label string
	path      string // below the design's base; "" for the overview
	page      func(*Server, echo.Context) error

	// past: /history/:n<path> shows a past revision in this step.
	past bool
	// live: the page answers a refresh with its revision, and with only the parts changed when
	// parts finds them. costly: the page is rate limited as costly work (limitCostly).
	live, costly bool

	// shows is the allow list of design paths the step draws (a path under one of these, or above
	// one); a change elsewhere costs its page only the side panel. It is read only with parts: a
	// step without parts is drawn whole on any change.
	shows []designer.Path
	// parts maps a changed path to the step's parts for the refresh of request c, which shows
	// revision since; nil when the step is always drawn whole.
	parts func(c echo.Context, since int64) stepParts
	// diagram is the kind of diagram the step draws, if any: an edit made on its page answers
	// with it too when the edit changed it (ownDiagram).
	diagram string
	// wholeLists: the step's part for a row added under a list is the whole of what it shows of
	// that list, so rows added need not redraw it (addsRows).
	wholeLists bool

	// edits are the design paths whose fields are edited on this step (a "*" row matches any
	// row), for the agenda to file questions and findings under; the closest match wins.
	edits []string
	// slot is the step's place in an hour's workshop; nil for a step the agenda leaves out.
	slot *agendaSlot
}

// steps are the workspace's steps in the method's order. Only built steps are listed. The list
// is in routes.go, set in its init because the pages it names read it.
var steps []step

// stepByID is the step with id.
func stepByID(id string) (step, bool) {
	for _, st := range steps {
		if st.id == id {
			return st, true
		}
	}
	return step{}, false
}

// always is parts that do not depend on where the page is on its step.
func always(find stepParts) func(echo.Context, int64) stepParts {
	return func(echo.Context, int64) stepParts { return find }
}

// showsPath reports whether st draws anything of what path names: the name, which the top bar
// shows on every step, or a path under or above one of st.shows (a change to a whole list
// changes the rows of it shown).
func (st step) showsPath(path designer.Path) bool {
	if path == designer.PathName {
		return true
	}
	for _, p := range st.shows {
		if path.In(p) || p.In(path) {
			return true
		}
	}
	return false
}

// stepOfPath is the step where the field at a finding or question path is edited: the step with
// the closest of its edits that the path is under, else validation, which lists every finding.
func stepOfPath(path string) string {
	pp := designer.Path(path).Parts()
	best, at := "validation", 0
	for _, st := range steps {
		for _, e := range st.edits {
			if n := editMatch(pp, designer.Path(e).Parts()); n > at {
				best, at = st.id, n
			}
		}
	}
	return best
}

// editMatch is how closely a path lies under edit e, as parts: 0 when it does not, else 1 for
// its collection, and 1 more for each of the row (a "*" row matching any) and the member that e
// names too.
func editMatch(pp, e designer.PathParts) int {
	n := 1
	switch {
	case pp.Collection != e.Collection:
		return 0
	case e.Key == "":
	case e.Key == pp.Key || e.Key == "*" && pp.Key != "":
		n++
	default:
		return 0
	}
	switch {
	case e.Field == "":
	case e.Member() == pp.Member():
		n++
	default:
		return 0
	}
	return n
}

// agendaSlot is a step's place in the agenda: its minutes in an hour's workshop, what the room
// settles in it and the questions to ask.
type agendaSlot struct {
	minutes int
	aim     string
	asks    []string
}

// stepParts finds the parts of a step that show what path names. ok is false when the path is
// not a part the step draws on its own: the whole step is drawn then.
type stepParts func(d *designContext, path designer.Path) (parts []fragment, ok bool)

// fragment is one part of a step, by the id of the element it replaces.
type fragment struct {
	id   string
	part templ.Component
}

func stepLabel(id string) string {
	for _, st := range steps {
		if st.id == id {
			return st.label
		}
	}
	return ""
}
