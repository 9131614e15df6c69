// Step locks (docs/room.md): the facilitator locks a step so that only their tab edits it while
// the room reads. The room keeps who holds what (live); this file says what a lock covers, refuses
// the changes it covers from anyone else on the one edit path, and draws the lock.

package server

import (
	"errors"
	"net/http"

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

// lockCheck is the refusal commit and undo hand the store for design id and the editing tab: a
// change any of whose paths a lock held by another tab covers is refused, naming the step and
// its holder — the step the path is edited on first, when that is one of them. A change with
// no tab (the API) is never the holder's.
func (s *Server) lockCheck(id, tab string) func(designer.Change) error {
	return func(change designer.Change) error {
		locks := s.hub.Locks(id)
		if len(locks) == 0 {
			return nil
		}
		paths := change.Paths()
		var refused *lockedError
		for _, l := range locks {
			st, ok := stepByID(l.Step)
			if !ok || tab != "" && l.Tab == tab {
				continue
			}
			for _, p := range paths {
				switch {
				case !st.covers(p):
				case stepOfPath(string(p)) == st.id:
					return &lockedError{Step: st.label, By: l.By}
				case refused == nil:
					refused = &lockedError{Step: st.label, By: l.By}
				}
			}
		}
		if refused != nil {
			return refused
		}
		return nil
	}
}

// lockedSteps is who holds the lock of each locked step of design id.
func (s *Server) lockedSteps(id string) map[string]live.Lock {
	out := map[string]live.Lock{}
	for _, l := range s.hub.Locks(id) {
		out[l.Step] = l
	}
	return out
}

// lockModel is the lock of step as tab sees it. A page the browser opens names no tab: it is
// drawn as anyone's, and app.js reads the bar again with its tab.
func lockModel(d *designContext, step, tab string, locks map[string]live.Lock) templates.LockView {
	st, _ := stepByID(step)
	base := "/d/" + d.Token
	v := templates.LockView{Step: step, Label: st.label, Action: base + "/lock", Fetch: base + "/lock?step=" + step,
		Lockable: st.lockable() && d.AtRevision == 0, CanEdit: d.canEdit()}
	if d.Presenting {
		// The projector reads it back as a projector: read-only, its rail in Present mode.
		v.Fetch += "&present=1"
	}
	if l, ok := locks[step]; ok {
		v.By, v.Mine = l.By, tab != "" && l.Tab == tab
	}
	return v
}

// lockSteps marks the locked steps in the rail's list.
func lockSteps(list []templates.Step, locks map[string]live.Lock) {
	for i := range list {
		list[i].LockedBy = locks[list[i].ID].By
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
	step, action := form.get("step"), form.get("action")
	st, ok := stepByID(step)
	switch {
	case !ok:
		return badInput("step: there is no step %q", step)
	case !st.lockable():
		return badInput("step: %s edits nothing, so there is nothing to lock", st.label)
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
		err = s.hub.TakeLock(d.ID, tab, step, action == "takeover")
	case "release":
		err = s.hub.ReleaseLock(d.ID, tab, step)
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
	s.log.Info("step lock", "design_id", d.ID, "action", action, "step", step)
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, step))
	}
	return s.lockAnswer(c, http.StatusOK, step, tab, "")
}
