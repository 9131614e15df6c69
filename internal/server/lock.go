// Step locks (docs/room.md): the facilitator locks a step, or a section of one (a table, an
// entity's or aggregate's card, a pattern), so that only their tab edits it while the room reads.
// The room keeps who holds what (live); this file says what a lock covers, refuses the changes it
// covers from anyone else on the one edit path, and draws the lock.

package server

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/live"
	"dynaloom/web/templates"
)

// lockable reports whether st can be locked: it edits a part of the design.
func (st step) lockable() bool { return len(st.edits) > 0 }

// covers reports whether a lock on st covers a change of what path names: a field its page
// edits (stepOfPath), its diagram, a row that holds such a field (a pattern, for the Mapping
// step: deleting it deletes its mapping) or the whole design. Comments are never covered: the
// room reads, and says what it thinks, while a step is locked.
func (st step) covers(path designer.Path) bool {
	pp := path.Parts()
	switch {
	case pp.Comments:
		return false
	case pp.Collection == "":
		return true
	case pp.Collection == designer.PathDiagrams:
		return st.diagram != "" && (pp.Key == "" || pp.Key == st.diagram)
	case stepOfPath(string(path)) == st.id:
		return true
	}
	for _, e := range st.edits {
		if holds(pp, designer.Path(e).Parts()) {
			return true
		}
	}
	return false
}

// holds reports whether the row pp names holds the fields of edit e (a "*" row matching any).
func holds(pp, e designer.PathParts) bool {
	row := pp.Key != "" && pp.Sub == "" && pp.Field == ""
	return row && pp.Collection == e.Collection && (e.Key == "*" || e.Key == pp.Key) && e.Field != ""
}

// sectionKind is a kind of section a step's page draws as one part, which can be locked apart
// from the rest of its step: the rows of one collection, each named noun and its key (Label).
type sectionKind struct {
	step, collection string
	label            func(d designer.Design, key string) (string, bool)
}

// sectionKinds are the sections that can be locked: a table on its step (its keys, attributes,
// indexes, items and notes), an entity's card, a pattern of Access patterns and an aggregate's
// card.
var sectionKinds = []sectionKind{
	{"tables", designer.PathTables, func(d designer.Design, key string) (string, bool) {
		t, _, ok := d.TableByName(key)
		return "Table " + t.Name, ok
	}},
	{"entities", designer.PathEntities, func(d designer.Design, key string) (string, bool) {
		e, _, ok := d.EntityByName(key)
		return "Entity " + e.Name, ok
	}},
	{"patterns", designer.PathPatterns, func(d designer.Design, key string) (string, bool) {
		p, _, ok := d.PatternByID(key)
		if p.Number > 0 {
			return "Pattern " + strconv.Itoa(p.Number), ok
		}
		return "Pattern " + p.ID, ok
	}},
	{"aggregates", designer.PathAggregates, func(d designer.Design, key string) (string, bool) {
		a, _, ok := d.AggregateByID(key)
		return "Aggregate " + a.EntityA + " + " + a.EntityB, ok
	}},
}

// sectionLabel names the section at path of step in d ("Table Orders"), or says which part of
// the path is wrong.
func sectionLabel(d designer.Design, step, path string) (string, error) {
	i := slices.IndexFunc(sectionKinds, func(k sectionKind) bool { return k.step == step })
	if i < 0 {
		return "", badInput("section: %s has no sections to lock on their own; lock the step", stepLabelOf(step))
	}
	k, pp := sectionKinds[i], designer.Path(path).Parts(d)
	if pp.Collection != k.collection || pp.Key == "" || pp.Sub != "" || pp.Field != "" || pp.Comments {
		return "", badInput("section: %q is not a part of %s that can be locked", path, stepLabelOf(step))
	}
	label, ok := k.label(d, pp.Key)
	if !ok {
		return "", badInput("section: the design has nothing at %q to lock", path)
	}
	return label, nil
}

// stepLabelOf is the label of the step with id.
func stepLabelOf(id string) string {
	st, _ := stepByID(id)
	return st.label
}

// inSection reports whether path names a part of section (a row of the design), or a whole
// list or design that holds it; known tells where names with a slash end.
func inSection(path, section designer.Path, known designer.Design) bool {
	pp, sp := path.Parts(known), section.Parts(known)
	return pp.Collection == "" || pp.Collection == sp.Collection && (pp.Key == "" || pp.Key == sp.Key)
}

// lockCovers reports whether lock l covers a change of what path names: its step covers it and,
// for a section's lock, it lies in the section.
func lockCovers(l live.Lock, path designer.Path, known designer.Design) bool {
	st, ok := stepByID(l.Step)
	return ok && st.covers(path) && (l.Section == "" || inSection(path, designer.Path(l.Section), known))
}

// lockCheck is the refusal commit and undo hand the store for design id and the editing tab: a
// change any of whose paths a lock held by another tab covers is refused, naming the step or
// section and its holder — one of the step the path is edited on first, when that is one of
// them. A change with no tab (the API) is never the holder's. known is the design as the
// request found it, for the names in the paths.
func (s *Server) lockCheck(id, tab string, known designer.Design) func(designer.Change) error {
	return func(change designer.Change) error {
		locks := s.hub.Locks(id)
		if len(locks) == 0 {
			return nil
		}
		paths := change.Paths()
		var refused *lockedError
		for _, l := range locks {
			if tab != "" && l.Tab == tab {
				continue
			}
			for _, p := range paths {
				switch {
				case !lockCovers(l, p, known):
				case stepOfPath(string(p)) == l.Step:
					return &lockedError{What: l.Label, By: l.By}
				case refused == nil:
					refused = &lockedError{What: l.Label, By: l.By}
				}
			}
		}
		if refused != nil {
			return refused
		}
		return nil
	}
}

// followSections keeps the section locks of design id on their sections once a change is
// stored: a renamed table or entity keeps its lock under its new name, a section deleted loses
// its lock, and every label names the section as the design now does (a pattern renumbered).
// change is nil for an undo, which renames nothing it can follow.
func (s *Server) followSections(id string, change designer.Change, now designer.Design) {
	var from, to designer.Path
	switch c := change.(type) {
	case designer.RenameTable:
		from, to = designer.TablePath(c.Table), designer.TablePath(c.To)
	case designer.RenameEntity:
		from, to = designer.EntityPath(c.Entity, ""), designer.EntityPath(c.To, "")
	}
	s.hub.MoveSections(id, func(l live.Lock) (live.Lock, bool) {
		if from != "" && designer.Path(l.Section) == from {
			l.Section = string(to)
		}
		label, err := sectionLabel(now, l.Step, l.Section)
		l.Label = label
		return l, err == nil
	})
}

// lockedSteps is the locks of design id: the steps and sections locked, with who holds each.
func (s *Server) lockedSteps(id string) []live.Lock { return s.hub.Locks(id) }

// stepLock is the lock of the whole of step among locks, if any.
func stepLock(locks []live.Lock, step string) (live.Lock, bool) {
	i := slices.IndexFunc(locks, func(l live.Lock) bool { return l.Step == step && l.Section == "" })
	if i < 0 {
		return live.Lock{}, false
	}
	return locks[i], true
}

// lockModel is the lock of step as tab sees it, with the locks of its sections. A page the
// browser opens names no tab: it is drawn as anyone's, and app.js reads the bar again with its
// tab.
func lockModel(d *designContext, step, tab string, locks []live.Lock) templates.LockView {
	st, _ := stepByID(step)
	base := "/d/" + d.Token
	v := templates.LockView{Step: step, Label: st.label, Action: base + "/lock", Fetch: base + "/lock?step=" + step,
		Lockable: st.lockable() && d.AtRevision == 0, CanEdit: d.canEdit()}
	if d.Presenting {
		// The projector reads it back as a projector: read-only, its rail in Present mode.
		v.Fetch += "&present=1"
	}
	if l, ok := stepLock(locks, step); ok {
		v.By, v.Mine = l.By, tab != "" && l.Tab == tab
	}
	for _, l := range locks {
		if l.Step == step && l.Section != "" {
			mine := tab != "" && l.Tab == tab
			v.Sections = append(v.Sections, templates.SectionLock{Section: l.Section, Label: l.Label, By: l.By, Mine: mine})
			if !mine && v.SectionsHeld == "" {
				v.SectionsHeld = l.By + " holds the lock on " + l.Label
			}
		}
	}
	return v
}

// lockSteps marks the locked steps in the rail's list, and the steps with a section locked.
func lockSteps(list []templates.Step, locks []live.Lock) {
	for i := range list {
		var held []string
		for _, l := range locks {
			switch {
			case l.Step != list[i].ID:
			case l.Section == "":
				list[i].LockedBy = l.By
			default:
				held = append(held, l.Label+" is locked by "+l.By)
				if !slices.Contains(list[i].SectionsBy, l.By) {
					list[i].SectionsBy = append(list[i].SectionsBy, l.By)
				}
			}
		}
		list[i].SectionsLocked = strings.Join(held, "; ")
	}
}

// lockAnswer draws the lock of step for tab, with the rail's list of steps.
func (s *Server) lockAnswer(c echo.Context, status int, step, tab, refused string) error {
	d := designFrom(c)
	locks := s.lockedSteps(d.ID)
	v := lockModel(d, step, tab, locks)
	v.Error = refused
	suffix := ""
	if d.Presenting {
		suffix = "?present=1"
	}
	var list []templates.Step
	for _, st := range steps {
		list = append(list, templates.Step{ID: st.id, Label: st.label, Href: stepHref(d, st.id) + suffix, Current: st.id == step})
	}
	lockSteps(list, locks)
	return render(c, status, templates.LockAnswer(v, list))
}

// lockPage answers with the lock of the step in ?step as the requesting tab sees it; a page reads
// it when the room's locks change.
func (s *Server) lockPage(c echo.Context) error {
	step := c.QueryParam("step")
	if !knownStep(step) {
		return badInput("step: there is no step %q", step)
	}
	tab, err := editorTab(c)
	if err != nil {
		return err
	}
	return s.lockAnswer(c, http.StatusOK, step, tab, "")
}

// saveLock takes, releases or takes over the lock of a step for the posting tab, tells the room,
// and answers with the lock as the tab now sees it.
func (s *Server) saveLock(c echo.Context) error {
	d := designFrom(c)
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	step, section, action := form.get("step"), form.get("section"), form.get("action")
	st, ok := stepByID(step)
	switch {
	case !ok:
		return badInput("step: there is no step %q", step)
	case !st.lockable():
		return badInput("step: %s edits nothing, so there is nothing to lock", st.label)
	}
	want := live.Lock{Step: step, Section: section}
	if section != "" && action != "release" {
		if want.Label, err = sectionLabel(d.Record.Design, step, section); err != nil {
			return err
		}
	}
	tab, err := editorTab(c)
	if err != nil {
		return err
	}
	if tab == "" {
		tab = form.get("tab")
	}
	switch action {
	case "take", "takeover":
		err = s.hub.TakeLock(d.ID, tab, want, action == "takeover")
	case "release":
		err = s.hub.ReleaseLock(d.ID, tab, step, section)
	default:
		return badInput("action: %q is not something a lock does (take, release or takeover)", action)
	}
	var r live.LockRefused
	switch {
	case errors.As(err, &r) && isHTMX(c):
		return s.lockAnswer(c, http.StatusUnprocessableEntity, step, tab, string(r))
	case errors.As(err, &r):
		return badInput("%s", string(r))
	case err != nil:
		return err
	}
	s.log.Info("step lock", "design_id", d.ID, "action", action, "step", step, "section", section != "")
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, step))
	}
	return s.lockAnswer(c, http.StatusOK, step, tab, "")
}
