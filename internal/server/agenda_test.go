package server

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// agendaDesign has an entity no pattern uses and a pattern without its rates: questions for the
// Entities and the Access patterns steps.
const agendaDesign = `{"name": "Orders", "entities": [{"name": "Order"}, {"name": "Customer"}],
	"access_patterns": [{"number": 1, "description": "Get an order", "entities": ["Order"]}]}`

// agendaStepHTML is the part of an agenda body about one step.
func agendaStepHTML(t *testing.T, body, step string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<li class="agenda-step[^"]*" data-testid="agenda-step" data-step="` + step + `">.*?</li>\s*(<li class="agenda-step|</ol>)`).FindString(body)
	if m == "" {
		t.Fatalf("the agenda has no step %s: %s", step, body)
	}
	return m
}

func TestAgenda_walksTheStepsWithTheQuestionsTheDesignRaises(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(agendaDesign)
	rec := a.request(http.MethodGet, "/d/"+created.ViewToken+"/agenda?step=entities", "", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("agenda: %d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if n := strings.Count(body, `data-testid="agenda-step"`); n != len(agenda) {
		t.Errorf("the agenda has %d steps, want %d", n, len(agenda))
	}
	if !strings.Contains(body, "The method in 60 minutes") {
		t.Error("the agenda does not add up to an hour")
	}
	entities, patterns := agendaStepHTML(t, body, "entities"), agendaStepHTML(t, body, "patterns")
	if !strings.Contains(entities, "is-current") || strings.Contains(patterns, "is-current") {
		t.Error("the agenda does not mark the step the page shows")
	}
	if !strings.Contains(entities, "Customer") {
		t.Errorf("the Entities step lacks the question about Customer, which no pattern uses: %s", entities)
	}
	if !strings.Contains(patterns, "data-testid=\"agenda-question\"") || !strings.Contains(patterns, "Get an order") {
		t.Errorf("the Access patterns step lacks the question about pattern 1's rates: %s", patterns)
	}
	if strings.Contains(body, "agenda-start") || strings.Contains(body, created.EditToken) {
		t.Error("the view link's agenda offers the timer's controls")
	}
}

func TestTimer_theFacilitatorStartsPausesAndStopsIt(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(agendaDesign)
	edit := "/d/" + created.EditToken
	timer := func(values ...string) *httptest.ResponseRecorder { return a.as("Ada", edit+"/timer", values...) }
	for _, bad := range [][]string{
		{"action", "start", "step", "patterns", "minutes", "twelve"},
		{"action", "start", "step", "patterns", "minutes", "0"},
		{"action", "start", "step", "patterns", "minutes", "181"},
		{"action", "start", "step", "nowhere", "minutes", "5"},
		{"action", "pause"},
		{"action", "explode"},
	} {
		rec := timer(bad...)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `data-testid="timer-error"`) {
			t.Errorf("%v: %d, want 422 with the reason in the agenda", bad, rec.Code)
		}
	}
	if _, set := a.srv.hub.Timer(created.ID, time.Now()); set {
		t.Fatal("a refused action set a timer")
	}
	if rec := a.request(http.MethodPost, "/d/"+created.ViewToken+"/timer", formType, strings.NewReader("action=start&step=patterns&minutes=5")); rec.Code != http.StatusForbidden {
		t.Errorf("the view link started a timer: %d", rec.Code)
	}

	rec := timer("action", "start", "step", "patterns", "minutes", "12", "from", "entities")
	if rec.Code != http.StatusOK || rec.Header().Get("HX-Redirect") != edit+"/patterns" {
		t.Fatalf("start from another step: %d, HX-Redirect %q", rec.Code, rec.Header().Get("HX-Redirect"))
	}
	body := a.request(http.MethodGet, edit+"/agenda?step=patterns", "", nil).Body.String()
	if !regexp.MustCompile(`<strong>Access patterns</strong>: 1[12]:\d\d left.`).MatchString(body) || !strings.Contains(agendaStepHTML(t, body, "patterns"), "is-timed") {
		t.Errorf("after the start the agenda shows: %s", body)
	}
	if !strings.Contains(body, `data-testid="timer-next">Next: Aggregates, 8 min`) || !strings.Contains(body, `name="step" value="aggregates"`) {
		t.Errorf("the agenda does not offer the next step, Aggregates: %s", body)
	}
	rec = timer("action", "pause", "from", "patterns")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "paused with") || !strings.Contains(rec.Body.String(), `data-testid="timer-resume"`) {
		t.Errorf("pause: %d %s", rec.Code, rec.Body)
	}
	was, _ := a.srv.hub.Timer(created.ID, time.Now())
	before := was.Left
	timer("action", "add", "minutes", "5", "from", "patterns")
	if now, _ := a.srv.hub.Timer(created.ID, time.Now().Add(time.Minute)); now.Left != before+5*time.Minute || now.Running {
		t.Errorf("+5 min on a paused timer: %v left, was %v (running %v)", now.Left, before, now.Running)
	}
	timer("action", "stop", "from", "patterns")
	if _, set := a.srv.hub.Timer(created.ID, time.Now()); set {
		t.Error("the timer is still set after stop")
	}
}

func TestClock_wordsACountdown(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		12 * time.Minute:                          "12:00",
		11*time.Minute + 59*time.Second + 1:       "12:00",
		59 * time.Second:                          "0:59",
		-72 * time.Second:                         "+1:12",
		time.Hour + 2*time.Minute + 3*time.Second: "1:02:03",
	} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

// Every step of the method the workspace has is a slot of the agenda, in the workspace's order,
// with its minutes, its aim and the facilitator's questions; the slots still add up to an hour.
// Capacity, after Mapping, has its own.
func TestAgenda_hasASlotForEveryStepOfTheMethodInOrder(t *testing.T) {
	t.Parallel()
	var method []string
	for _, st := range steps {
		if st.id != "history" {
			method = append(method, st.id)
		}
	}
	var slots []string
	total := 0
	for _, st := range agenda {
		slots = append(slots, st.step)
		total += st.minutes
		if st.minutes < 2 || st.aim == "" || len(st.asks) == 0 {
			t.Errorf("the %s slot has %d minutes, aim %q and %d questions; want at least 2 minutes, an aim and a question", st.step, st.minutes, st.aim, len(st.asks))
		}
	}
	if strings.Join(slots, " ") != strings.Join(method, " ") {
		t.Errorf("the agenda's slots are %v, want the method's steps %v", slots, method)
	}
	if total != 60 {
		t.Errorf("the slots add up to %d minutes, want 60", total)
	}
	if got := stepOfPath("capacity/hot_key_skew"); got != "capacity" {
		t.Errorf("a capacity setting is edited on step %q, want capacity", got)
	}

	a := newTestApp(t)
	created := a.createJSON(agendaDesign)
	body := a.request(http.MethodGet, "/d/"+created.EditToken+"/agenda?step=capacity", "", nil).Body.String()
	capacity := agendaStepHTML(t, body, "capacity")
	for _, want := range []string{"Capacity", "6 min", "3,000 RCU", "is-current", `name="step" value="capacity"`} {
		if !strings.Contains(capacity, want) {
			t.Errorf("the agenda's Capacity step lacks %q: %s", want, capacity)
		}
	}
	if !strings.Contains(agendaStepHTML(t, body, "mapping"), "Mapping") || strings.Index(body, `data-step="mapping"`) > strings.Index(body, `data-step="capacity"`) {
		t.Error("the agenda does not put Capacity after Mapping")
	}
}
