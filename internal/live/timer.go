package live

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// The room's timer: the facilitator time-boxes a step of the agenda, and every page in the room
// shows the same countdown, the projector too. It is room state, like who leads: kept in memory
// for as long as the server runs, sent through the hub as a "timer" event to the pages'
// streams (never to the API's), and never part of the design or its history.

// roomTimer is one design's timer.
type roomTimer struct {
	step    string        // the agenda step it time-boxes
	length  time.Duration // as set, with any time added
	running bool
	ends    time.Time     // when it reaches zero, while running
	left    time.Duration // what is left, while paused
	by      string        // who last started, paused or resumed it
	touched time.Time
}

// remaining is the time left at now; negative once over.
func (t *roomTimer) remaining(now time.Time) time.Duration {
	if t.running {
		return t.ends.Sub(now)
	}
	return t.left
}

// timerData is the data of a timer event. A stopped timer is sent with Set false; a page works
// out the countdown from LeftMS when the event arrives.
type timerData struct {
	Seq     int64  `json:"seq"`
	Set     bool   `json:"set"`
	Step    string `json:"step,omitempty"`
	Label   string `json:"label,omitempty"`
	TotalS  int64  `json:"total_s,omitempty"`
	LeftMS  int64  `json:"left_ms"`
	Running bool   `json:"running"`
	By      string `json:"by,omitempty"`
}

// timerForget is how long a timer nobody touched is kept; a design opened the next day starts
// without one.
const timerForget = 12 * time.Hour

// timerBoard holds the timers of every design; its zero value is ready.
type timerBoard struct {
	mu     sync.Mutex
	timers map[string]*roomTimer
	seq    int64 // orders the events, so a page keeps the newest it has seen
}

// TimerAction is what the facilitator does to the timer.
type TimerAction struct {
	Do      string // "start", "pause", "resume", "add", "stop"
	Step    string
	Minutes int
	By      string
}

// TimerState is a room's timer as the agenda shows it.
type TimerState struct {
	Step    string
	Left    time.Duration
	Running bool
}

// TimerRefused is an action the timer cannot take; its text names the field, for the facilitator.
type TimerRefused string

func (e TimerRefused) Error() string { return string(e) }

// errNoTimer refuses an action that needs a timer when none is set.
const errNoTimer = TimerRefused("action: no timer is running; start one from the agenda first")

// apply changes design id's timer and returns the event that tells the room.
func (b *timerBoard) apply(id string, a TimerAction, now time.Time, label func(string) string) (*event, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timers == nil {
		b.timers = map[string]*roomTimer{}
	}
	for k, t := range b.timers {
		if now.Sub(t.touched) > timerForget {
			delete(b.timers, k)
		}
	}
	t := b.timers[id]
	if a.Do != "start" && t == nil {
		return nil, errNoTimer
	}
	switch a.Do {
	case "start":
		length := time.Duration(a.Minutes) * time.Minute
		t = &roomTimer{step: a.Step, length: length, running: true, ends: now.Add(length)}
		b.timers[id] = t
	case "pause":
		if t.running {
			t.left, t.running = t.ends.Sub(now), false
		}
	case "resume":
		if !t.running {
			t.ends, t.running = now.Add(t.left), true
		}
	case "add":
		add := time.Duration(a.Minutes) * time.Minute
		t.length += add
		t.ends = t.ends.Add(add)
		t.left += add
	case "stop":
		delete(b.timers, id)
		t = nil
	default:
		return nil, TimerRefused(fmt.Sprintf("action: %q is not something a timer does (start, pause, resume, add or stop)", a.Do))
	}
	if t != nil {
		t.by, t.touched = a.By, now
	}
	b.seq++
	return timerEvent(b.seq, t, now, label), nil
}

// current is the event that tells a page opening its stream how design id's timer stands.
func (b *timerBoard) current(id string, now time.Time, label func(string) string) *event {
	b.mu.Lock()
	defer b.mu.Unlock()
	return timerEvent(b.seq, b.timers[id], now, label)
}

// state is design id's timer as the agenda shows it: its step and what is left, or ok false.
func (b *timerBoard) state(id string, now time.Time) (step string, left time.Duration, running, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.timers[id]
	if t == nil {
		return "", 0, false, false
	}
	return t.step, t.remaining(now), t.running, true
}

func timerEvent(seq int64, t *roomTimer, now time.Time, label func(string) string) *event {
	d := timerData{Seq: seq}
	if t != nil {
		d.Set, d.Step, d.Label, d.Running, d.By = true, t.step, label(t.step), t.running, t.by
		d.TotalS = int64(t.length / time.Second)
		d.LeftMS = t.remaining(now).Milliseconds()
	}
	data, _ := json.Marshal(d) // cannot fail: strings, numbers and booleans
	return &event{name: "timer", data: data}
}

// SetTimer changes design id's timer and tells the room's pages.
func (h *Hub) SetTimer(id string, a TimerAction, now time.Time) error {
	ev, err := h.timers.apply(id, a, now, h.stepLabel)
	if err != nil {
		return err
	}
	h.tellPages(id, ev)
	return nil
}

// Timer is design id's timer, or ok false when none is set.
func (h *Hub) Timer(id string, now time.Time) (TimerState, bool) {
	step, left, running, ok := h.timers.state(id, now)
	return TimerState{step, left, running}, ok
}

// tellPages sends ev to the page streams of design id; the API's streams do not get it.
func (h *Hub) tellPages(id string, ev *event) {
	r := h.find(id)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.send(ev, func(sub *subscriber) bool { return sub.presence != nil })
}
