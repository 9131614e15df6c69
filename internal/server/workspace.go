package server

import (
	"dynaloom/internal/designer"
	"dynaloom/web/templates"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/storage"
)

// origin is the scheme and host the browser used, for links people copy.
func origin(c echo.Context) string { return c.Scheme() + "://" + c.Request().Host }

// workspaceModel builds the frame every step shares.
func (s *Server) workspaceModel(c echo.Context, step string) (templates.Workspace, error) {
	d := designFrom(c)
	base := "/d/" + d.Token
	w := templates.Workspace{
		Page:        templates.Page{Title: d.Record.Design.Name + " · Dynaloom"},
		Name:        d.Record.Design.Name,
		Revision:    d.Record.Revision,
		CanEdit:     d.canEdit(),
		Base:        base,
		Link:        linkKind(d),
		DesignID:    d.ID,
		Here:        c.Request().URL.RequestURI(),
		Participant: participantName(c),
		Aside:       asideModel(d),
	}
	share, err := s.shareModel(c, d, step)
	if err != nil {
		return w, err
	}
	w.Share = share
	suffix := ""
	if d.Presenting {
		suffix = "?present=1"
	}
	locks := s.lockedSteps(d.ID)
	tab, _ := editorTab(c) // a refresh names it; a page the browser opens does not
	w.Lock = lockModel(d, step, tab, locks)
	for _, st := range steps {
		w.Steps = append(w.Steps, templates.Step{ID: st.id, Label: st.label, Href: base + st.path + suffix, Current: st.id == step})
		if st.id == step {
			// The projector shows the view link, never the edit link; leaving returns to this page.
			w.PresentHref = strings.TrimPrefix(share.ViewURL, origin(c)) + st.path + "?present=1"
			if d.Presenting {
				w.PresentHref = base + st.path
			}
		}
	}
	lockSteps(w.Steps, locks)
	w.Step, w.Presenting = step, d.Presenting
	w.StepsFolded = railFolded(c, railSteps)
	w.Events = base + "/events?step=" + url.QueryEscape(step) + "&rev=" + strconv.FormatInt(d.Record.Revision, 10)
	if d.Presenting {
		// The projector's stream follows the room without joining it.
		w.Events += "&present=1"
	}
	markPast(c, &w)
	return w, nil
}

// linkKind names the kind of link a page was opened with, whatever it shows (a past revision
// or the projector are read-only under an edit link too).
func linkKind(d *designContext) string {
	if d.Access == storage.EditAccess {
		return "edit"
	}
	return "view"
}

// asideFindings is how many findings the panel lists before linking to the validation step.
const asideFindings = 6

// asideModel computes the live panel: findings and questions are derived from the design once per
// revision (designContext.derived), never stored.
func asideModel(d *designContext) templates.Aside {
	design, x := d.Record.Design, d.derived()
	findings := x.Findings()
	a := templates.Aside{
		Summary:        designer.Summarize(design),
		Revision:       d.Record.Revision,
		CanEdit:        d.canEdit(),
		Folded:         d.AsideFolded,
		FindingsTotal:  len(findings),
		ValidationHref: stepHref(d, "validation"),
	}
	a.AllClear = allClear(a.Summary)
	for i, f := range findings {
		if i == asideFindings {
			break
		}
		a.Findings = append(a.Findings, findingView(d, f))
	}
	for _, q := range x.Questions(3) {
		qv := templates.QuestionView{Text: q.Text, Href: anchorFor(d, q.Path)}
		for _, act := range q.Actions {
			qv.Actions = append(qv.Actions, templates.ActionView{
				Label: act.Label, Action: "/d/" + d.Token + "/questions", Question: q.Key, Key: act.Key,
			})
		}
		a.Questions = append(a.Questions, qv)
	}
	return a
}

// The workspace's two rails, the steps on the left and the live panel on the right, fold away to
// a narrow strip, so that a grid gets the width of the screen (a projector at 1280x720 showed 4 of
// the access-patterns grid's 14 columns). Each browser remembers its choice in a cookie of its own
// per rail, which the page's script sets when a rail's button is pressed; the server reads it, so
// a page is drawn folded from the start and a live refresh keeps it so.

// Steps whose lists grow with the design (the access patterns, the Capacity step's per-pattern
// table) show them a page at a time, so that a design of hundreds of patterns stays well under a
// megabyte a page. The page is in the address, so a reload, a live refresh and follow-me keep it.

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

// markPast gives the frame of a step showing a past revision its banner, and points the steps at
// the same revision. workspaceModel calls it for every step.
func markPast(c echo.Context, w *templates.Workspace) {
	p, ok := c.Get(pastKey).(*pastView)
	if !ok {
		return
	}
	banner := p.banner
	w.Past = &banner
	w.Page.Title = "Revision " + strconv.FormatInt(banner.Number, 10) + " · " + w.Page.Title
	for i, st := range w.Steps {
		if st.Current {
			banner.CurrentHref = st.Href
		}
		if def, ok := stepByID(st.ID); ok && def.past {
			w.Steps[i].Href = p.base + def.path
		}
	}
}

// shareModel builds the Share popover for the design a request addresses, on the given step.
func (s *Server) shareModel(c echo.Context, d *designContext, step string) (templates.Share, error) {
	base := "/d/" + d.Token
	sh := templates.Share{ViewURL: origin(c) + base}
	if d.Access != storage.EditAccess {
		return sh, nil
	}
	ctx := c.Request().Context()
	view, err := s.store.ViewToken(ctx, d.ID, d.Token)
	if err != nil {
		return sh, err
	}
	expires, err := s.store.ViewExpiry(ctx, d.ID)
	if err != nil {
		return sh, err
	}
	sh.ViewURL = origin(c) + "/d/" + view
	if d.Presenting {
		// On a projector: the view link only, no controls.
		return sh, nil
	}
	sh.EditURL = origin(c) + base
	sh.Action = base + "/share"
	sh.Step = step
	for _, ch := range viewExpiryChoices {
		sh.ExpiryChoices = append(sh.ExpiryChoices, templates.Option{Value: ch.value, Label: ch.label})
	}
	switch {
	case expires.IsZero():
		sh.ViewExpiry = "The view link works until it is replaced."
		sh.Expiry = "never"
	case time.Now().Before(expires):
		sh.ViewExpiry = "The view link works until " + expires.UTC().Format(expiryLayout) + "."
		sh.Expiry, sh.ExpiryDate = "date", expires.UTC().Format(time.DateOnly)
	default:
		sh.ViewExpiry = "The view link stopped working on " + expires.UTC().Format(expiryLayout) +
			". Choose a new end, or “until replaced”, to open it again."
		sh.ViewExpired = true
		sh.Expiry = "date"
	}
	return sh, nil
}

const pastKey = "past_revision"

// pastView is what markPast needs to turn a step's frame into a past revision's.
type pastView struct {
	banner templates.PastRevision
	base   string // "/d/<token>/history/<n>"
}

// viewExpiryChoices are the expiry form's choices, as durations from now; "never" and "date" are
// handled apart.
var viewExpiryChoices = []struct {
	value, label string
	after        time.Duration
}{
	{"never", "Until replaced", 0},
	{"1d", "For 1 day", 24 * time.Hour},
	{"7d", "For 7 days", 7 * 24 * time.Hour},
	{"30d", "For 30 days", 30 * 24 * time.Hour},
	{"date", "Until a date…", 0},
}

// expiryLayout is how an expiry is shown: always in UTC, as the server cannot know the reader's
// time zone.
const expiryLayout = "Mon 2 Jan 2006, 15:04 UTC"
