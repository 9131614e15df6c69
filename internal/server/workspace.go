package server

import (
	"crypto/sha256"
	"dynaloom/internal/designer"
	"dynaloom/web/templates"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer/rules"
	"dynaloom/internal/storage"
)

// origin is the scheme and host the browser used, for links people copy.
func origin(c echo.Context) string { return c.Scheme() + "://" + c.Request().Host }

func stepHref(d *designContext, id string) string {
	for _, s := range steps {
		if s.id == id {
			return "/d/" + d.Token + s.path
		}
	}
	return "/d/" + d.Token
}

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

func findingView(d *designContext, f rules.Finding) templates.FindingView {
	return templates.FindingView{Code: f.Code, Severity: f.Severity, Message: f.Message, Href: anchorFor(d, f.Path)}
}

// anchorFor turns a finding or question path into a link to the step and the element at fault.
func anchorFor(d *designContext, path string) string {
	parts := strings.Split(path, "/")
	design := d.Record.Design
	switch parts[0] {
	case "overview":
		if len(parts) > 1 {
			return stepHref(d, "overview") + "#field-overview-" + parts[1]
		}
		return stepHref(d, "overview")
	case "name":
		return stepHref(d, "overview") + "#field-name"
	case "entities":
		if len(parts) > 1 {
			return stepHref(d, "entities") + "#" + entityElemID(parts[1])
		}
		return stepHref(d, "entities") + "#new-entity"
	case "relationships":
		if len(parts) > 1 {
			return stepHref(d, "entities") + "#" + elemID("rel", parts[1])
		}
		return stepHref(d, "entities") + "#relationships"
	case "access_patterns":
		if len(parts) > 2 && parts[2] == "mapping" {
			for _, p := range design.Patterns {
				if itoa(p.Number) == parts[1] {
					return stepHref(d, "mapping") + "?open=" + url.QueryEscape(p.ID) + "#" + mappingElemID(p, parts[3:])
				}
			}
		}
		if len(parts) > 1 {
			for _, p := range design.Patterns {
				if itoa(p.Number) == parts[1] {
					if len(parts) > 2 {
						return patternHref(d, p.ID) + "#" + patternCellID(p.ID, parts[2])
					}
					return patternHref(d, p.ID) + "#" + elemID("row", p.ID)
				}
			}
		}
		return stepHref(d, "patterns") + "#patterns"
	case "aggregates":
		if len(parts) > 2 {
			if _, ok := aggregateCell(d, designer.AggregateAnalysis{ID: parts[1]}, parts[2]); ok {
				return stepHref(d, "aggregates") + "#" + elemID("aggf", parts[1], parts[2])
			}
		}
		if len(parts) > 1 {
			return stepHref(d, "aggregates") + "#" + elemID("agg", parts[1])
		}
		return stepHref(d, "aggregates") + "#aggregate-list"
	case "consolidations":
		if len(parts) > 2 {
			if _, ok := consolidationCell(d, designer.ConsolidationReview{ID: parts[1]}, nil, parts[2]); ok {
				return stepHref(d, "aggregates") + "#" + elemID("consf", parts[1], parts[2])
			}
		}
		if len(parts) > 1 {
			return stepHref(d, "aggregates") + "#" + elemID("cons", parts[1])
		}
		return stepHref(d, "aggregates") + "#consolidation"
	case "considerations":
		if len(parts) > 1 {
			if f, ok := designer.FieldNamed(designer.ConsiderationFields, parts[1]); ok {
				return stepHref(d, "aggregates") + "#" + considerationField(d, f, "", "", false).ID
			}
		}
		return stepHref(d, "aggregates") + "#considerations"
	case "prose":
		if len(parts) > 1 {
			if _, ok := designer.FieldNamed(designer.ProseFields, parts[1]); ok {
				return stepHref(d, "validation") + "#" + proseElemID(parts[1])
			}
		}
		return stepHref(d, "validation") + "#data-model-prose"
	case "tables":
		if len(parts) < 2 {
			return stepHref(d, "tables") + "#new-table-name"
		}
		href := tablesHref(d, parts[1])
		switch {
		case len(parts) > 4 && parts[2] == "indexes" && slices.Contains(indexFields, parts[4]):
			return href + "#" + elemID("ixf", parts[1], parts[3], parts[4])
		case len(parts) > 3 && parts[2] == "indexes":
			return href + "#" + elemID("index", parts[1], parts[3])
		case len(parts) > 3 && parts[2] == "items":
			return itemHref(d, parts[1], parts[3])
		case len(parts) > 4 && parts[2] == "entity_types" && slices.ContainsFunc(designer.EntityTypeFields, func(f designer.Field[designer.EntityType]) bool { return f.Key == parts[4] }):
			return href + "#" + elemID("etf", parts[1], parts[3], parts[4])
		case len(parts) == 3:
			if _, ok := tableFieldNamed(parts[2]); ok {
				return href + "#" + elemID("tf", parts[1], parts[2])
			}
		}
		return href + "#" + elemID("table", parts[1])
	}
	return stepHref(d, "validation")
}

// mappingElemID is the id, in pattern p's open Mapping card, of what the rest of a path names
// after "mapping": its notes, an operation's field, an operation, else the card.
func mappingElemID(p designer.Pattern, rest []string) string {
	switch {
	case len(rest) == 1 && rest[0] == "notes":
		return elemID("mapnotes", p.ID)
	case len(rest) > 1 && rest[0] == "operations":
		i, err := strconv.Atoi(rest[1])
		if err != nil || i < 0 || i >= len(p.Mapping.Operations) {
			break
		}
		if len(rest) > 2 {
			if _, ok := designer.FieldNamed(designer.OperationFields, rest[2]); ok {
				return elemID("opf", p.ID, rest[1], rest[2])
			}
		}
		return elemID("op", p.ID, rest[1])
	}
	return elemID("map", p.ID)
}

// elemID builds an HTML id from parts. Parts that are not plain ASCII words are hashed, so user
// text never ends up in an id or a CSS selector.
func elemID(prefix string, parts ...string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, p := range parts {
		b.WriteByte('-')
		if plainWord(p) {
			b.WriteString(p)
		} else {
			sum := sha256.Sum256([]byte(p))
			b.WriteString("h" + hex.EncodeToString(sum[:5]))
		}
	}
	return b.String()
}

func plainWord(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func entityElemID(name string) string { return elemID("entity", name) }

func patternCellID(id, field string) string { return elemID("ap", id, field) }

// vals encodes extra form values for a cell's hx-vals.
func vals(kv ...string) string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// The workspace's two rails, the steps on the left and the live panel on the right, fold away to
// a narrow strip, so that a grid gets the width of the screen (a projector at 1280x720 showed 4 of
// the access-patterns grid's 14 columns). Each browser remembers its choice in a cookie of its own
// per rail, which the page's script sets when a rail's button is pressed; the server reads it, so
// a page is drawn folded from the start and a live refresh keeps it so.

// The rails, as named in their cookies and buttons (app.js).
const (
	railSteps = "steps"
	railAside = "aside"
)

// railFolded reports whether this browser folded the rail away.
func railFolded(c echo.Context, rail string) bool {
	ck, err := c.Cookie("dynaloom_fold_" + rail)
	return err == nil && ck.Value == "1"
}

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
