package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/live"
	"dynaloom/web/templates"
)

// The agenda walks the room through the method's steps in an hour: for each, what to settle, the
// questions a facilitator asks, the questions the rules raise about the design as it is now
// (the side panel's, by step) and its open findings. The facilitator time-boxes a step from it
// (timer.go).

// agendaStep is one step of the agenda, by its workspace step.
type agendaStep struct {
	step string
	agendaSlot
}

// agenda is the steps with a slot, in the method's order (set with steps).
var agenda []agendaStep

// agendaOf is the slots of the steps that have one, in order.
func agendaOf(steps []step) []agendaStep {
	var out []agendaStep
	for _, st := range steps {
		if st.slot != nil {
			out = append(out, agendaStep{st.id, *st.slot})
		}
	}
	return out
}

// agendaModel builds the agenda for the step the page shows.
func (s *Server) agendaModel(c echo.Context, current string) templates.Agenda {
	d := designFrom(c)
	x := d.derived()
	base := "/d/" + d.Token
	a := templates.Agenda{CanEdit: d.canEdit(), Action: base + "/timer", Current: current}
	questions := map[string][]templates.QuestionView{}
	for _, q := range x.Questions(0) {
		st := stepOfPath(q.Path)
		questions[st] = append(questions[st], templates.QuestionView{Text: q.Text, Href: anchorFor(d, q.Path)})
	}
	findings := map[string]int{}
	for _, f := range x.Findings() {
		findings[stepOfPath(f.Path)]++
	}
	now := time.Now()
	timer, set := s.hub.Timer(d.ID, now)
	timed := timer.Step
	if set {
		a.Timer = &templates.AgendaTimer{Step: timed, Label: stepLabel(timed), Left: clock(timer.Left), Running: timer.Running}
	}
	total := 0
	for i, st := range agenda {
		total += st.minutes
		v := templates.AgendaStep{
			ID: st.step, Number: i + 1, Label: stepLabel(st.step), Href: stepHref(d, st.step),
			Minutes: st.minutes, Aim: st.aim, Asks: st.asks, Current: st.step == current, Timed: set && st.step == timed,
			Findings: findings[st.step], FindingsHref: stepHref(d, "validation"),
		}
		qs := questions[st.step]
		if len(qs) > agendaQuestions {
			v.MoreQuestions = len(qs) - agendaQuestions
			qs = qs[:agendaQuestions]
		}
		v.Questions = qs
		a.Steps = append(a.Steps, v)
	}
	a.TotalMinutes = total
	for i, st := range a.Steps {
		if st.Timed && i+1 < len(a.Steps) {
			a.Next = &a.Steps[i+1]
		}
	}
	return a
}

// agendaQuestions is how many of the rules' questions the agenda lists under a step.
const agendaQuestions = 5

// clock words a duration as a countdown shows it: "12:00", "1:02:03", and "+1:12" once over.
func clock(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "+", -d
	}
	secs := int64((d + time.Second - 1) / time.Second)
	if sign != "" {
		secs = int64(d / time.Second)
	}
	h, m, sec := secs/3600, secs/60%60, secs%60
	if h > 0 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, h, m, sec)
	}
	return fmt.Sprintf("%s%d:%02d", sign, m, sec)
}

// agendaPage answers with the agenda's body, which the page fetches each time it opens it.
func (s *Server) agendaPage(c echo.Context) error {
	step := c.QueryParam("step")
	if !knownStep(step) {
		step = ""
	}
	return render(c, http.StatusOK, templates.AgendaBody(s.agendaModel(c, step)))
}

// maxTimerMinutes bounds a time box: three hours.
const maxTimerMinutes = 180

// saveTimer starts, pauses, resumes, lengthens or stops the room's timer, tells every page in
// the room, and answers with the agenda. Starting a step other than the one the page shows takes
// the facilitator there (and a room that follows them with it).
func (s *Server) saveTimer(c echo.Context) error {
	d := designFrom(c)
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	a := live.TimerAction{Do: form.get("action"), Step: form.get("step"), By: author(c)}
	from := form.get("from")
	if !knownStep(from) {
		from = ""
	}
	switch a.Do {
	case "start", "add":
		if a.Do == "start" && !agendaHas(a.Step) {
			return s.timerRefused(c, from, fmt.Sprintf("step: the agenda has no step %q", a.Step))
		}
		raw := strings.TrimSpace(form.get("minutes"))
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxTimerMinutes {
			return s.timerRefused(c, from, fmt.Sprintf("Minutes: give a whole number of minutes from 1 to %d; %q is not one.", maxTimerMinutes, raw))
		}
		a.Minutes = n
	}
	if err := s.hub.SetTimer(d.ID, a, time.Now()); err != nil {
		var r live.TimerRefused
		if errors.As(err, &r) {
			return s.timerRefused(c, from, string(r))
		}
		return err
	}
	s.log.Info("room timer", "design_id", d.ID, "action", a.Do, "step", a.Step)
	if a.Do == "start" && a.Step != from && isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", stepHref(d, a.Step))
		return c.NoContent(http.StatusOK)
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, orStep(from, a.Step)))
	}
	return render(c, http.StatusOK, templates.AgendaBody(s.agendaModel(c, from)))
}

// timerRefused shows why a timer action was refused in the agenda, and changes nothing.
func (s *Server) timerRefused(c echo.Context, from, message string) error {
	if !isHTMX(c) {
		return badInput("%s", message)
	}
	a := s.agendaModel(c, from)
	a.Error = message
	return render(c, http.StatusUnprocessableEntity, templates.AgendaBody(a))
}

func agendaHas(step string) bool {
	for _, st := range agenda {
		if st.step == step {
			return true
		}
	}
	return false
}

func orStep(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
