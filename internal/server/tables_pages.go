package server

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// The tables step shows one page of a table's items and of each index's entries, so that a
// table of thousands of items stays a light page. Where a person is — the table, the item page,
// the index paged past its first page — lives in the step's URL, so a link, a reload, the back
// button and a live refresh all show the same page.

const (
	// itemsPerPage bounds the rows of one page of the item grid. A partition is never cut across
	// pages unless it alone holds more items than a page.
	itemsPerPage = 50
	// indexRowsPerPage is how many entries a page of an index grid shows; the API lists them all.
	indexRowsPerPage = 50
)

// tablesSpot is where a person is on the tables step.
type tablesSpot struct {
	// path is the step's path: the tables step, or the same step of a past revision.
	path  string
	table string
	// page is the item grid's page, from 1; 0 when the URL names none.
	page int
	// index is the one index grid shown past its first page, at indexPage.
	index     string
	indexPage int
	// item asks for the page holding this item, and marks its row (links from findings).
	item string
	// goPK and goSK ask for the page holding the item with these key values ("go to item");
	// goAsked is set when the form was sent, even empty.
	goPK, goSK string
	goAsked    bool
}

// spotFrom reads a spot from the step's path and query. A page that is not a number is the first:
// paging is navigation, and a link that went stale should still open the step.
func spotFrom(path string, q url.Values) tablesSpot {
	s := tablesSpot{path: path, table: q.Get("table"), index: q.Get("index"), item: q.Get("item"), goPK: q.Get("go_pk"), goSK: q.Get("go_sk")}
	s.page, _ = strconv.Atoi(q.Get("page"))
	s.indexPage, _ = strconv.Atoi(q.Get("ipage"))
	s.goAsked = q.Has("go_pk")
	return s
}

// spotOf is the spot of the page an edit was made on: htmx names the page's URL in HX-Current-URL.
// A plain form post, or one from another step, starts at the table's first page.
func spotOf(c echo.Context, table string) tablesSpot {
	spot := tablesSpot{path: stepHref(designFrom(c), "tables"), table: table}
	if u, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil && u.Path == spot.path {
		if from := spotFrom(u.Path, u.Query()); from.table == table || from.table == "" {
			spot.page, spot.index, spot.indexPage = from.page, from.index, from.indexPage
		}
	}
	return spot
}

// href is the step's URL for the spot, with the item grid at page and the paged index at its page.
func (s tablesSpot) href(d *designContext, page int) string {
	q := url.Values{}
	q.Set("table", s.table)
	if page > 1 {
		q.Set("page", itoa(page))
	}
	if s.index != "" && s.indexPage > 1 {
		q.Set("index", s.index)
		q.Set("ipage", itoa(s.indexPage))
	}
	if d.Presenting {
		q.Set("present", "1")
	}
	return s.path + "?" + q.Encode()
}

// indexHref is the step's URL with index shown at page, the item grid where it is.
func (s tablesSpot) indexHref(d *designContext, index string, page int) string {
	s.index, s.indexPage = index, page
	return s.href(d, s.page)
}

// itemHref links to the page of the tables step that holds an item, its row marked.
func itemHref(d *designContext, table, id string) string {
	return tablesHref(d, table) + "&item=" + url.QueryEscape(id) + "#" + elemID("row", table, id)
}

// gridPages cuts a table's rows, in key order, into pages of at most itemsPerPage rows and
// returns the position of each page's first row. A partition starts a new page when it does not
// fit on the current one; one longer than a page fills pages of its own.
func gridPages(rows []designer.Row) []int {
	starts := []int{0}
	filled := 0
	for i := 0; i < len(rows); {
		end := i + 1
		if rows[i].Partition != "" {
			for end < len(rows) && rows[end].Partition == rows[i].Partition {
				end++
			}
		}
		n := end - i
		switch {
		case filled+n <= itemsPerPage:
			filled += n
		case n <= itemsPerPage:
			starts = append(starts, i)
			filled = n
		default:
			at := i
			if filled > 0 {
				starts = append(starts, i)
			}
			for at+itemsPerPage < end {
				at += itemsPerPage
				starts = append(starts, at)
			}
			filled = end - at
		}
		i = end
	}
	return starts
}

// pageHolding is the page (from 1) whose rows include position i.
func pageHolding(starts []int, i int) int {
	return sort.Search(len(starts), func(p int) bool { return starts[p] > i })
}

// clampPage keeps a page asked for within 1..pages.
func clampPage(page, pages int) int { return max(1, min(page, pages)) }

// pager builds the links of a paged list showing rows first..last (1-based) of total.
func pager(target, noun string, page, pages, first, last, total int, href func(page int) string) templates.Pager {
	p := templates.Pager{Target: target, Noun: noun, Page: page, Pages: pages, First: first, Last: last, Total: total}
	if page > 1 {
		p.FirstHref, p.Prev = href(1), href(page-1)
	}
	if page < pages {
		p.Next, p.LastHref = href(page+1), href(pages)
	}
	return p
}

// goTo finds the row the "go to item" form asks for: the item with the partition key value and,
// when one is given, the sort key value, or the partition's first item when the sort key is left
// empty. Not found, the error names the field to correct.
func goTo(t designer.Table, rows []designer.Row, pk, sk string) (int, string, error) {
	pk, sk = strings.TrimSpace(pk), strings.TrimSpace(sk)
	if pk == "" {
		return 0, "go_pk", fmt.Errorf("%s: give the partition key value of the item to go to", t.PartitionKey.Name)
	}
	inPartition := false
	for i, r := range rows {
		v, ok := r.Item[t.PartitionKey.Name]
		if !ok || designer.FormatCell(v) != pk {
			continue
		}
		inPartition = true
		if t.SortKey == nil || sk == "" {
			return i, "", nil
		}
		if v, ok := r.Item[t.SortKey.Name]; ok && designer.FormatCell(v) == sk {
			return i, "", nil
		}
	}
	if !inPartition {
		return 0, "go_pk", fmt.Errorf("%s: no item of %s has the partition key %q", t.PartitionKey.Name, t.Name, pk)
	}
	return 0, "go_sk", fmt.Errorf("%s: partition %q of %s has no item with the sort key %q", t.SortKey.Name, pk, t.Name, sk)
}
