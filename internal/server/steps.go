package server

import (
	"strings"

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
	shows []string
	// parts maps a changed path to the step's parts for the refresh of request c, which shows
	// revision since; nil when the step is always drawn whole.
	parts func(c echo.Context, since int64) stepParts
	// diagram is the kind of diagram the step draws, if any: an edit made on its page answers
	// with it too when the edit changed it (ownDiagram).
	diagram string
	// wholeLists: the step's part for a row added under a list is the whole of what it shows of
	// that list, so rows added need not redraw it (addsRows).
	wholeLists bool

	// edits are the design paths whose fields are edited on this step (a "*" segment matches any
	// one segment), for the agenda to file questions and findings under; the longest match wins.
	edits []string
	// slot is the step's place in an hour's workshop; nil for a step the agenda leaves out.
	slot *agendaSlot
}

// steps are the workspace's steps in the method's order. Only built steps are listed. It is set
// in init because the pages it names read it.
var steps []step

func init() {
	steps = []step{
		{
			id: "overview", label: "Overview", path: "", page: (*Server).overviewPage, past: true, live: true,
			shows: []string{"overview", "entities", "relationships"}, parts: always(overviewParts), wholeLists: true,
			edits: []string{"name", "overview"},
			slot: &agendaSlot{5, "Agree what the service does, for whom, and how busy it gets.", []string{
				"What does the service do, in one sentence?",
				"Who calls it, and how many requests a second at the busiest hour?",
			}},
		},
		{
			id: "entities", label: "Entities", path: "/entities", page: (*Server).entitiesPage, past: true, live: true,
			shows: []string{"entities", "relationships", "aggregates", "tables", "diagrams/" + designer.EntityDiagram},
			// The entity diagram shows the aggregate decisions and the key attributes the tables'
			// key templates name.
			parts:   withDiagram(designer.EntityDiagram, entityDiagramShows, []string{"aggregates", "tables", "diagrams"}, always(entityParts)),
			diagram: designer.EntityDiagram,
			edits:   []string{"entities", "relationships"},
			slot: &agendaSlot{8, "Name what the service keeps and how the things relate.", []string{
				"Which things does the service store, and what identifies each?",
				"For each relationship: how many on average, and at most?",
			}},
		},
		{
			id: "patterns", label: "Access patterns", path: "/patterns", page: (*Server).patternsPage, past: true, live: true,
			shows: []string{"access_patterns"}, parts: patternPageParts,
			edits: []string{"access_patterns"},
			slot: &agendaSlot{10, "List every read and write, with its rate and what it returns.", []string{
				"Which screen or job needs this, and how often at peak?",
				"Is every read matched by a write that puts the data there?",
				"How many items can it return, and must it see the latest write?",
			}},
		},
		{
			id: "aggregates", label: "Aggregates", path: "/aggregates", page: (*Server).aggregatesPage, past: true, live: true,
			shows: []string{"entities", "relationships", "aggregates", "consolidations", "considerations", "tables"},
			parts: always(aggregateParts), wholeLists: true,
			edits: []string{"aggregates", "consolidations", "considerations"},
			slot: &agendaSlot{8, "Decide what is stored together, from how it is read together.", []string{
				"When we read one, how often do we need the other too?",
				"Can the child exist without its parent? Is the parent's id always known?",
			}},
		},
		{
			id: "tables", label: "Tables & indexes", path: "/tables", page: (*Server).tablesPage, past: true, live: true,
			shows: []string{"entities", "access_patterns", "tables", "diagrams/" + designer.ModelMap},
			// The model map shows everything of the tables and the patterns' verdicts.
			parts:   withDiagram(designer.ModelMap, modelMapShows, []string{"diagrams"}, tableParts),
			diagram: designer.ModelMap,
			edits:   []string{"tables"},
			slot: &agendaSlot{10, "Shape tables, keys and indexes, and fill in sample items.", []string{
				"Which key spreads the load over many values?",
				"Does each index earn its writes, and does it project only what its patterns read?",
			}},
		},
		{
			id: "mapping", label: "Mapping", path: "/mapping", page: (*Server).mappingPage, past: true, live: true,
			shows: []string{"entities", "access_patterns", "tables"}, parts: mappingParts,
			edits: []string{"access_patterns/*/mapping"},
			slot: &agendaSlot{8, "Prove each pattern against the sample items.", []string{
				"Which operation serves this pattern, on which table or index?",
				"Does it return exactly what we expect, without a scan?",
			}},
		},
		{
			id: "capacity", label: "Capacity", path: "/capacity", page: (*Server).capacityPage, past: true, live: true,
			edits: []string{"capacity"},
			slot: &agendaSlot{6, "Read what the design costs a month and where a key runs hot at peak.", []string{
				"Which table or index costs the most, and is it reads, writes, index writes or storage?",
				"Does any key value come near 3,000 RCU or 1,000 WCU a second, and would sharding it spread the load?",
				"On demand or provisioned: which is cheaper at these rates?",
			}},
		},
		{
			id: "validation", label: "Validation", path: "/validation", page: (*Server).validationPage, past: true, live: true,
			slot: &agendaSlot{3, "Clear the errors and agree on the warnings left.", []string{
				"Which findings do we fix now, and which do we accept, and why?",
			}},
		},
		{
			id: "export", label: "Export", path: "/export", page: (*Server).exportPage, costly: true,
			slot: &agendaSlot{2, "Take the two documents away.", []string{
				"Where do the documents go, and who reviews them?",
			}},
		},
		{id: "history", label: "History", path: "/history", page: (*Server).historyPage},
	}
	agenda = agendaOf(steps)
}

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
func (st step) showsPath(path string) bool {
	if path == "name" {
		return true
	}
	for _, p := range st.shows {
		if under(path, p) || under(p, path) {
			return true
		}
	}
	return false
}

// under reports whether path is at or below prefix, by whole segments; every path is below ""
// (the whole design, as a design replaced names it).
func under(path, prefix string) bool {
	return prefix == "" || path == prefix || strings.HasPrefix(path, prefix+"/")
}

// stepOfPath is the step where the field at a finding or question path is edited: the step with
// the longest of its edits that the path is under, else validation, which lists every finding.
func stepOfPath(path string) string {
	best, at := "validation", 0
	for _, st := range steps {
		for _, e := range st.edits {
			if n := strings.Count(e, "/") + 1; n > at && underPattern(path, e) {
				best, at = st.id, n
			}
		}
	}
	return best
}

// underPattern is under with "*" in pattern matching any one segment of path.
func underPattern(path, pattern string) bool {
	segs := strings.Split(path, "/")
	for i, p := range strings.Split(pattern, "/") {
		if i >= len(segs) || p != "*" && p != segs[i] {
			return false
		}
	}
	return true
}

// stepPage is the handler of st's page.
func (s *Server) stepPage(st step) echo.HandlerFunc {
	return func(c echo.Context) error { return st.page(s, c) }
}

// stepMiddleware is what st's page passes through first: the live refresh, the costly limit.
func (s *Server) stepMiddleware(st step) []echo.MiddlewareFunc {
	var mw []echo.MiddlewareFunc
	if st.live {
		mw = append(mw, s.refreshParts(st))
	}
	if st.costly {
		mw = append(mw, s.limitCostly)
	}
	return mw
}
