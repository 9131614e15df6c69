package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/web/templates"
)

// The agenda walks the room through the method's steps in an hour: for each, what to settle, the
// questions a facilitator asks, the questions the rules raise about the design as it is now
// (the side panel's, by step) and its open findings. The facilitator time-boxes a step from it
// (timer.go).

// agendaStep is one step of the agenda: its workspace step, its minutes in an hour's workshop,
// what the room settles in it and the questions to ask.
type agendaStep struct {
	step    string
	minutes int
	aim     string
	asks    []string
}

var agenda = []agendaStep{
	{"overview", 5, "Agree what the service does, for whom, and how busy it gets.", []string{
		"What does the service do, in one sentence?",
		"Who calls it, and how many requests a second at the busiest hour?",
	}},
	{"entities", 8, "Name what the service keeps and how the things relate.", []string{
		"Which things does the service store, and what identifies each?",
		"For each relationship: how many on average, and at most?",
	}},
	{"patterns", 10, "List every read and write, with its rate and what it returns.", []string{
		"Which screen or job needs this, and how often at peak?",
		"Is every read matched by a write that puts the data there?",
		"How many items can it return, and must it see the latest write?",
	}},
	{"aggregates", 8, "Decide what is stored together, from how it is read together.", []string{
		"When we read one, how often do we need the other too?",
		"Can the child exist without its parent? Is the parent's id always known?",
	}},
	{"tables", 10, "Shape tables, keys and indexes, and fill in sample items.", []string{
		"Which key spreads the load over many values?",
		"Does each index earn its writes, and does it project only what its patterns read?",
	}},
	{"mapping", 8, "Prove each pattern against the sample items.", []string{
		"Which operation serves this pattern, on which table or index?",
		"Does it return exactly what we expect, without a scan?",
	}},
	{"capacity", 6, "Read what the design costs a month and where a key runs hot at peak.", []string{
		"Which table or index costs the most, and is it reads, writes, index writes or storage?",
		"Does any key value come near 3,000 RCU or 1,000 WCU a second, and would sharding it spread the load?",
		"On demand or provisioned: which is cheaper at these rates?",
	}},
	{"validation", 3, "Clear the errors and agree on the warnings left.", []string{
		"Which findings do we fix now, and which do we accept, and why?",
	}},
	{"export", 2, "Take the two documents away.", []string{
		"Where do the documents go, and who reviews them?",
	}},
}

// stepOfPath is the step where the field at a finding or question path is edited.
func stepOfPath(path string) string {
	first, rest, _ := strings.Cut(path, "/")
	switch first {
	case "name", "overview":
		return "overview"
	case "entities", "relationships":
		return "entities"
	case "access_patterns":
		if strings.Contains(rest, "/mapping") {
			return "mapping"
		}
		return "patterns"
	case "aggregates", "consolidations", "considerations":
		return "aggregates"
	case "tables":
		return "tables"
	case "capacity":
		return "capacity"
	}
	return "validation"
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
	timed, left, running, set := s.timers.state(d.ID, now)
	if set {
		a.Timer = &templates.AgendaTimer{Step: timed, Label: stepLabel(timed), Left: clock(left), Running: running}
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
	a := timerAction{do: form.get("action"), step: form.get("step"), by: author(c)}
	from := form.get("from")
	if !knownStep(from) {
		from = ""
	}
	switch a.do {
	case "start", "add":
		if a.do == "start" && !agendaHas(a.step) {
			return s.timerRefused(c, from, fmt.Sprintf("step: the agenda has no step %q", a.step))
		}
		raw := strings.TrimSpace(form.get("minutes"))
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxTimerMinutes {
			return s.timerRefused(c, from, fmt.Sprintf("Minutes: give a whole number of minutes from 1 to %d; %q is not one.", maxTimerMinutes, raw))
		}
		a.minutes = n
	}
	ev, err := s.timers.apply(d.ID, a, time.Now())
	if err != nil {
		var r *apiError
		if errors.As(err, &r) && r.Status == http.StatusBadRequest {
			return s.timerRefused(c, from, r.Message)
		}
		return err
	}
	s.hub.tellPages(d.ID, ev)
	s.log.Info("room timer", "design_id", d.ID, "action", a.do, "step", a.step)
	if a.do == "start" && a.step != from && isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", stepHref(d, a.step))
		return c.NoContent(http.StatusOK)
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, stepHref(d, orStep(from, a.step)))
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
