package server

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// History: every stored change is a revision. People list them, open any revision read-only in
// the same steps they edit (a past revision is a design context with AtRevision set, so every step
// renders it without its edit controls), compare two revisions, restore one as the newest, and
// take back their own last change.

// historyPageSize is how many revisions the history step lists at a time.
const historyPageSize = 100

// pastStep is the step that shows a past revision at /history/:n<path>, by the last segment of
// the step's path.
func pastStep(name string) (step, bool) {
	for _, st := range steps {
		if st.past && strings.TrimPrefix(st.path, "/") == name {
			return st, true
		}
	}
	return step{}, false
}

// revisionNumber reads the :n of a history route: a revision of the design, or a 404 that says
// which revisions there are.
func revisionNumber(c echo.Context, latest int64) (int64, error) {
	raw := c.Param("n")
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 1 || n > latest {
		return 0, noRevision(raw, latest)
	}
	return n, nil
}

func noRevision(n string, latest int64) error {
	return &apiError{http.StatusNotFound, "not_found",
		fmt.Sprintf("This design has no revision %q; its revisions are 1 to %d.", n, latest)}
}

// revisionAt finds revision n in a history listed newest first.
func revisionAt(revs []storage.Revision, n int64) (storage.Revision, bool) {
	i := int(revs[0].Revision - n)
	if i < 0 || i >= len(revs) || revs[i].Revision != n {
		return storage.Revision{}, false
	}
	return revs[i], true
}

// historyTimes words a time for the history: absolute (UTC), machine-readable, and relative.
func historyTimes(t, now time.Time) (at, iso, rel string) {
	iso = t.UTC().Format(time.RFC3339)
	return t.UTC().Format("2 Jan 2006 15:04 MST"), iso, relativeTime(iso, now)
}

// canRestore reports whether the request came with the edit link, whatever the page shows.
func canRestore(d *designContext) bool { return d.Access == storage.EditAccess && !d.Presenting }

func restoreButton(d *designContext, n int64, target string) *templates.Button {
	num := strconv.FormatInt(n, 10)
	return &templates.Button{
		Label: "Restore revision " + num, Text: "Restore", Action: "/d/" + d.Token + "/history/" + num + "/restore",
		Target: target, TestID: "restore-revision",
		Confirm: "Restore revision " + num + "? Its content becomes the newest revision of the design; nothing in the history is lost.",
	}
}

// revisionRow is one revision as the history lists it; newest is the design's newest revision.
func revisionRow(d *designContext, r storage.Revision, newest int64, now time.Time) templates.RevisionRow {
	base := "/d/" + d.Token + "/history"
	num := strconv.FormatInt(r.Revision, 10)
	row := templates.RevisionRow{
		Number: r.Revision, Author: r.Author, Summary: r.Summary,
		ViewHref: base + "/" + num, Newest: r.Revision == newest,
	}
	row.At, row.AtISO, row.Ago = historyTimes(r.At, now)
	if r.Revision > 1 {
		row.DiffHref = base + "/diff?from=" + strconv.FormatInt(r.Revision-1, 10) + "&to=" + num
	}
	if canRestore(d) && !row.Newest {
		row.Restore = restoreButton(d, r.Revision, "#history")
	}
	return row
}

// historyList builds the history in working periods (a pause longer than gap starts a new one),
// each person's changes in a group. The newest group is open; the revisions of the groups are
// drawn with the page up to historyPageSize of them, and a group past that fetches its own when
// it is opened (historyGroupRows).
func historyList(c echo.Context, revs []storage.Revision, gap int) templates.HistoryList {
	d := designFrom(c)
	base := "/d/" + d.Token + "/history"
	now := time.Now()
	newest := revs[0].Revision
	l := templates.HistoryList{Total: newest, Gap: gap, GapChoices: gapChoices, Action: base}
	if !slices.Contains(gapChoices, gap) {
		l.GapChoices = append(slices.Clone(gapChoices), gap)
		slices.Sort(l.GapChoices)
	}
	budget := historyPageSize
	for _, p := range workingPeriods(revs, time.Duration(gap)*time.Minute) {
		first, last := p.revs[len(p.revs)-1], p.revs[0]
		pv := templates.WorkingPeriod{Span: timeSpan(first.At, last.At, true), Changes: len(p.revs)}
		pv.FromISO = first.At.UTC().Format(time.RFC3339)
		pv.ToISO = last.At.UTC().Format(time.RFC3339)
		var names []string
		for _, g := range p.people {
			names = append(names, g.author)
		}
		pv.People = wordList(names)
		for _, g := range p.people {
			gv := templates.RevisionGroup{
				ID:      elemID("grp", strconv.FormatInt(first.Revision, 10), g.author),
				Summary: groupSummary(d.Record.Design, g),
				Span:    timeSpan(g.revs[len(g.revs)-1].At, g.revs[0].At, false),
				Changes: len(g.revs),
				Open:    len(l.Periods) == 0 && len(pv.Groups) == 0,
			}
			href := groupRowsHref(base, g.author, first.Revision, last.Revision)
			shown := len(g.revs)
			switch {
			case shown <= budget:
			case gv.Open:
				shown = budget
			default:
				shown = 0
				gv.RowsHref = href
			}
			budget -= shown
			for _, r := range g.revs[:shown] {
				gv.Rows = append(gv.Rows, revisionRow(d, r, newest, now))
			}
			if shown > 0 && shown < len(g.revs) {
				gv.More = len(g.revs) - shown
				gv.MoreHref = href + "&before=" + strconv.FormatInt(g.revs[shown-1].Revision, 10)
			}
			pv.Groups = append(pv.Groups, gv)
		}
		l.Periods = append(l.Periods, pv)
	}
	if !d.canEdit() {
		return l
	}
	me := participantName(c)
	mine, ok := storage.LastChangeBy(revs, me)
	switch {
	case me == "":
		l.UndoHint = "Give your name to undo your own changes."
	case !ok:
		l.UndoHint = "You have made no change to undo yet."
	default:
		l.Undo = &templates.Button{Label: "Undo my last change", Action: base + "/undo", Target: "#history", TestID: "undo-mine"}
		l.UndoHint = fmt.Sprintf("Your last change: %s (revision %d).", mine.Summary, mine.Revision)
	}
	return l
}

// groupRowsHref is where the revisions of author's group from revision from to revision to are
// fetched.
func groupRowsHref(base, author string, from, to int64) string {
	q := url.Values{"author": {author}, "from": {strconv.FormatInt(from, 10)}, "to": {strconv.FormatInt(to, 10)}}
	return base + "/group?" + q.Encode()
}

// timeSpan words when a run of revisions began and ended: "25 Nov 2026, 14:02–14:55 UTC" with
// the day, "14:02–14:55" without.
func timeSpan(from, to time.Time, day bool) string {
	from, to = from.UTC(), to.UTC()
	span := from.Format("15:04")
	switch {
	case from.YearDay() != to.YearDay() || from.Year() != to.Year():
		span = from.Format("2 Jan 15:04") + "–" + to.Format("2 Jan 15:04")
		if day {
			return span + " UTC"
		}
		return span
	case to.Format("15:04") != span:
		span += "–" + to.Format("15:04")
	}
	if day {
		return from.Format("2 Jan 2006") + ", " + span + " UTC"
	}
	return span
}

// wordList joins names as a sentence does: "Ada", "Ada and Bo", "Ada, Bo and Cy".
func wordList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// historyGap reads the pause that starts a new working period: ?gap in minutes, on the page or
// on the page an htmx request came from; defaultGap when neither gives one.
func historyGap(c echo.Context) (int, error) {
	raw := c.QueryParam("gap")
	if raw == "" {
		if from, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil {
			raw = from.Query().Get("gap")
		}
	}
	if raw == "" {
		return defaultGap, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil || n < 1 || n > maxGap {
		return 0, badInput("gap: give the pause that starts a new working period in minutes, from 1 to %d; %q is not one", maxGap, raw)
	}
	return n, nil
}

// historyGroupRows answers with the revisions of one person's group (?author, from revision
// ?from to ?to), older than ?before when given, when the group is opened.
func (s *Server) historyGroupRows(c echo.Context) error {
	d := designFrom(c)
	latest := d.Record.Revision
	from, err := optionalRevision(c, "from", 1, latest)
	if err != nil {
		return err
	}
	to, err := optionalRevision(c, "to", latest, latest)
	if err != nil {
		return err
	}
	before, err := optionalRevision(c, "before", latest+1, latest+1)
	if err != nil {
		return err
	}
	author := c.QueryParam("author")
	revs, err := s.store.Revisions(c.Request().Context(), d.ID)
	if err != nil {
		return err
	}
	now := time.Now()
	var rows []templates.RevisionRow
	more, moreHref := 0, ""
	for _, r := range revs {
		if r.Revision < from || r.Revision > to || r.Revision >= before || r.Author != author {
			continue
		}
		if len(rows) == historyPageSize {
			if more == 0 {
				moreHref = groupRowsHref("/d/"+d.Token+"/history", author, from, to) + "&before=" + strconv.FormatInt(rows[len(rows)-1].Number, 10)
			}
			more++
			continue
		}
		rows = append(rows, revisionRow(d, r, revs[0].Revision, now))
	}
	return render(c, http.StatusOK, templates.HistoryRows(rows, more, moreHref))
}

func (s *Server) historyPage(c echo.Context) error {
	return s.renderHistory(c, http.StatusOK, "", "")
}

// renderHistory answers with the history: the list alone (with the live panel) for htmx, the whole
// step otherwise.
func (s *Server) renderHistory(c echo.Context, status int, notice, errMsg string) error {
	d := designFrom(c)
	revs, err := s.store.Revisions(c.Request().Context(), d.ID)
	if err != nil {
		return err
	}
	gap, err := historyGap(c)
	if err != nil {
		return err
	}
	l := historyList(c, revs, gap)
	l.Notice, l.Error = notice, errMsg
	if isHTMX(c) && c.Request().Method == http.MethodPost {
		return render(c, status, templ.Join(templates.HistoryListView(l), templates.AsideView(asideModel(d), true)))
	}
	w, err := s.workspaceModel(c, "history")
	if err != nil {
		return err
	}
	return render(c, status, templates.HistoryView(templates.History{Workspace: w, List: l}))
}

// revisionPage shows a past revision in one of the steps, read-only, under a banner.
func (s *Server) revisionPage(c echo.Context) error {
	d := designFrom(c)
	ctx := c.Request().Context()
	st, ok := pastStep(c.Param("step"))
	if !ok {
		return echo.ErrNotFound
	}
	n, err := revisionNumber(c, d.Record.Revision)
	if err != nil {
		return err
	}
	revs, err := s.store.Revisions(ctx, d.ID)
	if err != nil {
		return err
	}
	r, ok := revisionAt(revs, n)
	if !ok {
		return noRevision(c.Param("n"), d.Record.Revision)
	}
	design, err := s.store.DesignAt(ctx, d.ID, n)
	if err != nil {
		return err
	}
	num := strconv.FormatInt(n, 10)
	history := "/d/" + d.Token + "/history"
	banner := templates.PastRevision{
		Number: n, Of: d.Record.Revision, Author: r.Author, Summary: r.Summary,
		HistoryHref: history, CurrentHref: "/d/" + d.Token,
	}
	banner.At, banner.AtISO, banner.Ago = historyTimes(r.At, time.Now())
	if n < d.Record.Revision {
		banner.DiffHref = history + "/diff?from=" + num + "&to=" + strconv.FormatInt(d.Record.Revision, 10)
		if canRestore(d) {
			banner.Restore = restoreButton(d, n, "#restore-result")
			banner.Restore.Swap = "innerHTML"
		}
	}
	past := *d
	past.AtRevision = n
	past.Record = storage.Record{ID: d.ID, Revision: n, Design: design, CreatedAt: d.Record.CreatedAt, UpdatedAt: r.At}
	c.Set(designKey, &past)
	c.Set(pastKey, &pastView{banner: banner, base: history + "/" + num})
	return st.page(s, c)
}

// historyDiffPage compares two revisions: ?from (the one before ?to by default) and ?to (the
// newest by default).
func (s *Server) historyDiffPage(c echo.Context) error {
	d := designFrom(c)
	ctx := c.Request().Context()
	latest := d.Record.Revision
	to, err := optionalRevision(c, "to", latest, latest)
	if err != nil {
		return err
	}
	from, err := optionalRevision(c, "from", max(1, to-1), latest)
	if err != nil {
		return err
	}
	revs, err := s.store.Revisions(ctx, d.ID)
	if err != nil {
		return err
	}
	a, err := s.store.DesignAt(ctx, d.ID, from)
	if err != nil {
		return err
	}
	b, err := s.store.DesignAt(ctx, d.ID, to)
	if err != nil {
		return err
	}
	w, err := s.workspaceModel(c, "history")
	if err != nil {
		return err
	}
	base := "/d/" + d.Token + "/history"
	v := templates.HistoryDiff{
		Workspace: w, Latest: latest, Action: base + "/diff",
		From: revisionRef(revs, from, base), To: revisionRef(revs, to, base),
		Sections: diffSections(designer.Diff(a, b)),
	}
	return render(c, http.StatusOK, templates.HistoryDiffView(v))
}

// optionalRevision reads a revision number from the query, or def when it is not given.
func optionalRevision(c echo.Context, name string, def, latest int64) (int64, error) {
	raw := strings.TrimSpace(c.QueryParam(name))
	if raw == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0, badInput("%s: %q is not a revision number", name, raw)
	}
	if n < 1 || n > latest {
		return 0, noRevision(raw, latest)
	}
	return n, nil
}

func revisionRef(revs []storage.Revision, n int64, base string) templates.RevisionRef {
	r, _ := revisionAt(revs, n)
	ref := templates.RevisionRef{Number: n, Author: r.Author, Summary: r.Summary, Href: base + "/" + strconv.FormatInt(n, 10)}
	ref.At, ref.AtISO, _ = historyTimes(r.At, time.Now())
	return ref
}

// diffSections groups differences by section, then by subject, keeping their order.
func diffSections(diffs []designer.Difference) []templates.DiffSection {
	var out []templates.DiffSection
	for _, df := range diffs {
		if len(out) == 0 || out[len(out)-1].Title != df.Section {
			out = append(out, templates.DiffSection{Title: df.Section})
		}
		sec := &out[len(out)-1]
		n := len(sec.Subjects)
		if n == 0 || sec.Subjects[n-1].Title != df.Subject || sec.Subjects[n-1].Change != df.Change || df.Change != designer.DiffChanged {
			sec.Subjects = append(sec.Subjects, templates.DiffSubject{Title: df.Subject, Change: df.Change})
			n++
		}
		sub := &sec.Subjects[n-1]
		switch df.Change {
		case designer.DiffAdded:
			sub.Brief = df.New
		case designer.DiffRemoved:
			sub.Brief = df.Old
		default:
			name := df.Field
			if df.Section != "Sample items" {
				// An item's fields are its attribute names, shown as they are; others in words.
				name = designer.FieldWords(df.Field)
			}
			sub.Fields = append(sub.Fields, templates.DiffField{Name: name, Old: df.Old, New: df.New})
		}
	}
	return out
}

// restoreRevision makes a past revision's content the newest revision, from the history list or
// from the banner of a past revision.
func (s *Server) restoreRevision(c echo.Context) error {
	d := designFrom(c)
	n, err := revisionNumber(c, d.Record.Revision)
	if err != nil {
		return err
	}
	change, err := s.restoreChange(c, n)
	if err != nil {
		return err
	}
	if err := s.edit(c, change); err != nil {
		return s.historyRefusal(c, err)
	}
	notice := fmt.Sprintf("Restored revision %d as revision %d.", n, d.Record.Revision)
	if isHTMX(c) && c.Request().Header.Get("HX-Target") != "history" {
		c.Response().Header().Set("HX-Redirect", stepHref(d, "history"))
		return c.NoContent(http.StatusOK)
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, "history"))
	}
	return s.renderHistory(c, http.StatusOK, notice, "")
}

// restoreChange is the change that stores revision n's content as the next revision. It is
// committed like any other edit, with its preconditions: a page's base revision, the API's
// If-Match.
func (s *Server) restoreChange(c echo.Context, n int64) (designer.Change, error) {
	old, err := s.store.DesignAt(c.Request().Context(), designFrom(c).ID, n)
	if err != nil {
		return nil, err
	}
	return designer.ReplaceDesign{Design: old, Note: fmt.Sprintf("Restored revision %d", n)}, nil
}

// undoMine takes back the participant's own last change.
func (s *Server) undoMine(c echo.Context) error {
	d := designFrom(c)
	me := participantName(c)
	if me == "" {
		return badInput("name: give your name first; undo takes back the changes made under it")
	}
	tab, err := editorTab(c)
	if err != nil {
		return err
	}
	rec, undone, err := s.store.Undo(c.Request().Context(), d.ID, storage.Edit{Author: me, Tab: tab, Refuse: s.lockCheck(d.ID, tab, d.Record.Design)})
	if err != nil {
		return s.historyRefusal(c, err)
	}
	d.Record = rec
	s.followSections(d.ID, nil, rec.Design)
	// As for any edit (commit): the page learns the revision its own undo made, so the event
	// announcing it does not make the page fetch the step again, which would take the notice away.
	c.Response().Header().Set("X-Dynaloom-Revision", strconv.FormatInt(rec.Revision, 10))
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, "history"))
	}
	return s.renderHistory(c, http.StatusOK, fmt.Sprintf("Undid your change of revision %d: %s.", undone.Revision, undone.Summary), "")
}

// historyRefusal shows a refused undo or restore where it was asked for; other errors go to the
// error handler.
func (s *Server) historyRefusal(c echo.Context, err error) error {
	r, ok := refusal(err)
	if !ok {
		return err
	}
	if isHTMX(c) && c.Request().Header.Get("HX-Target") != "history" {
		return render(c, r.Status, templates.RestoreRefusal(r.Message))
	}
	return s.renderHistory(c, r.Status, "", r.Message)
}

// revisionJSON is one entry of GET /api/designs/{token}/revisions.
type revisionJSON struct {
	Revision int64     `json:"revision"`
	Author   string    `json:"author"`
	At       time.Time `json:"at"`
	Summary  string    `json:"summary"`
}

func (s *Server) apiRevisions(c echo.Context) error {
	revs, err := s.store.Revisions(c.Request().Context(), designFrom(c).ID)
	if err != nil {
		return err
	}
	out := make([]revisionJSON, len(revs))
	for i, r := range revs {
		out[i] = revisionJSON{Revision: r.Revision, Author: r.Author, At: r.At.UTC(), Summary: r.Summary}
	}
	return c.JSON(http.StatusOK, map[string]any{"revisions": out})
}

func (s *Server) apiRevision(c echo.Context) error {
	d := designFrom(c)
	n, err := revisionNumber(c, d.Record.Revision)
	if err != nil {
		return err
	}
	design, err := s.store.DesignAt(c.Request().Context(), d.ID, n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, designResponse{Design: design, Revision: n})
}

// apiRestoreRevision makes revision n's content the newest revision. If-Match is optional: given,
// the restore is refused (412) unless it names the current revision.
func (s *Server) apiRestoreRevision(c echo.Context) error {
	d := designFrom(c)
	n, err := revisionNumber(c, d.Record.Revision)
	if err != nil {
		return err
	}
	ifRevision, err := ifMatchRevision(c, false)
	if err != nil {
		return err
	}
	change, err := s.restoreChange(c, n)
	if err != nil {
		return err
	}
	rec, err := s.apiCommit(c, change, ifRevision)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, designResponse{Design: rec.Design, Revision: rec.Revision})
}
