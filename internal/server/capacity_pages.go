package server

import (
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"dynaloom/web/templates"
)

// capacityPatternsPerPage is how many access patterns the Capacity step's per-pattern table
// shows at once: a design of hundreds of patterns pages through them, so the step stays well
// under a megabyte.
const capacityPatternsPerPage = 50

// capacityPageParam is the query parameter naming the page of the per-pattern table.
const capacityPageParam = "patterns_page"

// capacitySpot is where on the Capacity step a page is: its path and query.
type capacitySpot struct {
	path string
	q    url.Values
}

// capacitySpotOf is the spot of the request: the page's own address, or, for an edit sent from
// the step, the address of the page it was sent from (htmx names it in HX-Current-URL).
func capacitySpotOf(c echo.Context) capacitySpot {
	spot := capacitySpot{path: stepHref(designFrom(c), "capacity"), q: url.Values{}}
	if c.Request().Method == "GET" {
		spot.q = c.QueryParams()
	} else if u, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil && u.Path == spot.path {
		spot.q = u.Query()
	}
	return spot
}

// pagePatterns keeps the patterns of the page the spot asks for (past the end: the last) and
// returns the pager to the others.
func (s capacitySpot) pagePatterns(rows []templates.CapacityPatternRows) ([]templates.CapacityPatternRows, templates.Pager) {
	pages := max(1, (len(rows)+capacityPatternsPerPage-1)/capacityPatternsPerPage)
	at, _ := strconv.Atoi(s.q.Get(capacityPageParam))
	at = min(max(at, 1), pages)
	first := (at - 1) * capacityPatternsPerPage
	last := min(first+capacityPatternsPerPage, len(rows))
	p := templates.Pager{Target: "#capacity-patterns", Page: at, Pages: pages, First: first + 1, Last: last, Total: len(rows), Noun: "patterns"}
	href := func(n int) string {
		v := url.Values{}
		for k, vs := range s.q {
			v[k] = vs
		}
		v.Set(capacityPageParam, strconv.Itoa(n))
		return s.path + "?" + v.Encode()
	}
	if at > 1 {
		p.FirstHref, p.Prev = href(1), href(at-1)
	}
	if at < pages {
		p.Next, p.LastHref = href(at+1), href(pages)
	}
	return rows[first:last], p
}
