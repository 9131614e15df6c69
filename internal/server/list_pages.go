package server

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// Steps whose lists grow with the design (the access patterns, the Capacity step's per-pattern
// table) show them a page at a time, so that a design of hundreds of patterns stays well under a
// megabyte a page. The page is in the address, so a reload, a live refresh and follow-me keep it.

// patternsPerPage is how many access patterns a paged list shows at once.
const patternsPerPage = 50

// capacityPageParam names the page of the Capacity step's per-pattern table; patternsPageParam
// the page of the access-patterns step.
const (
	capacityPageParam = "patterns_page"
	patternsPageParam = "page"
)

// listSpot is where a page is on a step that pages a list: the step's path and the page's query.
type listSpot struct {
	path string
	q    url.Values
}

// listSpotOf is the spot of the request on step: the page's own address, or, for an edit sent
// from the step, the address of the page it was sent from (htmx names it in HX-Current-URL).
func listSpotOf(c echo.Context, step string) listSpot {
	spot := listSpot{path: stepHref(designFrom(c), step), q: url.Values{}}
	if c.Request().Method == "GET" {
		spot.q = c.QueryParams()
	} else if u, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil && u.Path == spot.path {
		spot.q = u.Query()
	}
	return spot
}

// page is the range [first, last) of n rows that the page named by param shows (past the end:
// the last page), with the pager to the others.
func (s listSpot) page(param string, n int, target, noun string) (first, last int, p templates.Pager) {
	pages := max(1, (n+patternsPerPage-1)/patternsPerPage)
	at, _ := strconv.Atoi(s.q.Get(param))
	at = min(max(at, 1), pages)
	first = (at - 1) * patternsPerPage
	last = min(first+patternsPerPage, n)
	p = templates.Pager{Target: target, Page: at, Pages: pages, First: first + 1, Last: last, Total: n, Noun: noun}
	if at > 1 {
		p.FirstHref, p.Prev = s.href(param, 1), s.href(param, at-1)
	}
	if at < pages {
		p.Next, p.LastHref = s.href(param, at+1), s.href(param, pages)
	}
	return first, last, p
}

// href is the address of page n, keeping the rest of the query.
func (s listSpot) href(param string, n int) string {
	v := url.Values{}
	for k, vs := range s.q {
		v[k] = vs
	}
	v.Set(param, strconv.Itoa(n))
	return s.path + "?" + v.Encode()
}

// patternHref is the address of the access-patterns page that holds pattern id.
func patternHref(d *designContext, id string) string {
	at := slices.IndexFunc(d.Record.Design.Patterns, func(p designer.Pattern) bool { return p.ID == id })
	if at < patternsPerPage {
		return stepHref(d, "patterns")
	}
	return stepHref(d, "patterns") + "?" + patternsPageParam + "=" + strconv.Itoa(at/patternsPerPage+1)
}
