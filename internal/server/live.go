package server

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// Live collaboration. Every stored change is told to the hub by the store's commit hook, in
// revision order, and the hub fans it out to the design's open event streams (sse.go). Each stream
// has a buffered channel; a stream too slow to keep up is dropped, and its client reconnects with
// Last-Event-ID (or the revision its page shows) and catches up from the stored history, so
// dropping loses nothing. The hub also keeps who is here (presence) and who leads ("follow me").

// commit stores one change by author; the commit hook announces it. ifRevision is as for
// storage.Store.Apply.
func (s *Server) commit(ctx context.Context, id, author string, change designer.Change, ifRevision int64) (storage.Record, error) {
	return s.store.Apply(ctx, id, author, change, ifRevision)
}

// event is one server-sent event.
type event struct {
	id   int64 // the revision a change event brings the design to; 0 for others
	name string
	data []byte
	// people is a presence event's list, which each stream writes in its own form.
	people []presence
}

// changeData is the data of a change event (CONTRACT.md "Collaboration").
type changeData struct {
	Revision int64    `json:"revision"`
	Author   string   `json:"author"`
	Paths    []string `json:"paths"`
}

func changeEvent(rev storage.Revision) event {
	paths := rev.Paths
	if paths == nil {
		paths = []string{}
	}
	data, _ := json.Marshal(changeData{rev.Revision, rev.Author, paths}) // cannot fail: strings and a number
	return event{id: rev.Revision, name: "change", data: data}
}

// subscriberBuffer is how many events a stream may fall behind before it is dropped.
const subscriberBuffer = 64

// subscriber is one open event stream.
type subscriber struct {
	events chan event
	gone   chan struct{} // closed when the hub drops the stream for falling behind
	once   sync.Once
	// presence is set for a page's stream: the participant it stands for.
	presence *presence
	// access is the kind of link the stream was opened with.
	access storage.Access
}

func (sub *subscriber) drop() { sub.once.Do(func() { close(sub.gone) }) }

// presence is one participant's tab, as the others see it.
type presence struct {
	Tab    string `json:"-"`
	Name   string `json:"name"`
	Color  int    `json:"color"`
	Step   string `json:"step"`
	Focus  string `json:"focus,omitempty"`
	Leader bool   `json:"leader,omitempty"`
	Editor bool   `json:"editor"`
}

// participantColors is how many distinct colours participants get (app.css .who-0 … .who-7).
const participantColors = 8

// room is the live state of one design.
type room struct {
	subs map[*subscriber]struct{}
	// tabs counts each tab's open streams: a tab moving between steps opens its new stream
	// before the old one closes.
	tabs   map[string]*presence
	counts map[string]int
	leader string // the tab the others follow, if any
}

// hub fans events out to the streams of each design.
type hub struct {
	mu    sync.Mutex
	rooms map[string]*room
	done  chan struct{} // closed on shutdown: every stream ends
	stop  sync.Once
}

func newHub() *hub { return &hub{rooms: map[string]*room{}, done: make(chan struct{})} }

func (h *hub) shutdown() { h.stop.Do(func() { close(h.done) }) }

func (h *hub) room(id string) *room {
	r := h.rooms[id]
	if r == nil {
		r = &room{subs: map[*subscriber]struct{}{}, tabs: map[string]*presence{}, counts: map[string]int{}}
		h.rooms[id] = r
	}
	return r
}

// subscribe opens a stream of design id. A page's stream passes its participant (with Tab set),
// which joins the room; an API stream passes nil. Call the returned function when it closes.
func (h *hub) subscribe(id string, access storage.Access, p *presence) (*subscriber, func()) {
	sub := &subscriber{events: make(chan event, subscriberBuffer), gone: make(chan struct{}), access: access}
	h.mu.Lock()
	r := h.room(id)
	r.subs[sub] = struct{}{}
	if p != nil {
		if old, ok := r.tabs[p.Tab]; ok {
			p.Color, p.Focus = old.Color, old.Focus
		} else {
			p.Color = r.freeColor()
		}
		p.Leader = r.leader == p.Tab
		r.tabs[p.Tab] = p
		r.counts[p.Tab]++
		sub.presence = p
		h.announcePresence(id, r)
		if p.Leader {
			h.announceFollow(r, p)
		}
	}
	h.mu.Unlock()
	return sub, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		r := h.rooms[id]
		delete(r.subs, sub)
		if p != nil {
			r.counts[p.Tab]--
			if r.counts[p.Tab] == 0 {
				// A leader moving to another step closes this stream before (or after) its next
				// one opens, so its lead is kept for when it comes back.
				delete(r.counts, p.Tab)
				delete(r.tabs, p.Tab)
			}
			h.announcePresence(id, r)
		}
		if len(r.subs) == 0 {
			delete(h.rooms, id)
		}
	}
}

// freeColor is the first colour no one in the room has, or a shared one when all are taken.
func (r *room) freeColor() int {
	used := make([]bool, participantColors)
	for _, p := range r.tabs {
		used[p.Color] = true
	}
	for i, u := range used {
		if !u {
			return i
		}
	}
	return len(r.tabs) % participantColors
}

// publishChange is the store's commit hook.
func (h *hub) publishChange(rev storage.Revision, designID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[designID]; r != nil {
		h.send(r, changeEvent(rev), nil)
	}
}

// send puts ev on the streams of r that want it, dropping those that are full. Callers hold h.mu.
func (h *hub) send(r *room, ev event, want func(*subscriber) bool) {
	for sub := range r.subs {
		if want != nil && !want(sub) {
			continue
		}
		select {
		case sub.events <- ev:
		default:
			sub.drop()
		}
	}
}

// participants lists the room's tabs in a stable order: by name, then colour.
func (r *room) participants() []presence {
	out := make([]presence, 0, len(r.tabs))
	for _, p := range r.tabs {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Tab < out[j].Tab
	})
	return out
}

// presenceEvent is sent to every stream when the room's participants change; the stream writes it
// in its own form (JSON for the API, HTML for pages).
const presenceEventName = "presence"

func (h *hub) announcePresence(id string, r *room) {
	people := r.participants()
	data, _ := json.Marshal(presenceData{Participants: people}) // cannot fail: strings and numbers
	h.send(r, event{name: presenceEventName, data: data, people: people}, nil)
}

// presenceData is the data of an API presence event.
type presenceData struct {
	Participants []presence `json:"participants"`
}

// announceFollow tells the followers where the leader is.
func (h *hub) announceFollow(r *room, leader *presence) {
	h.send(r, event{name: "follow", data: []byte(leader.Step)}, func(sub *subscriber) bool {
		return sub.presence != nil && sub.presence.Tab != leader.Tab
	})
}

// focus records what a tab is editing (an element id, or "" for nothing).
func (h *hub) focus(id, tab, focus string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[id]
	if r == nil || r.tabs[tab] == nil {
		return false
	}
	if r.tabs[tab].Focus != focus {
		r.tabs[tab].Focus = focus
		h.announcePresence(id, r)
	}
	return true
}

// lead makes tab the one the room follows, or stops it leading.
func (h *hub) lead(id, tab string, on bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[id]
	if r == nil || r.tabs[tab] == nil {
		return false
	}
	switch {
	case on:
		r.leader = tab
	case r.leader == tab:
		r.leader = ""
	}
	for t, p := range r.tabs {
		p.Leader = t == r.leader
	}
	h.announcePresence(id, r)
	if on {
		h.announceFollow(r, r.tabs[tab])
	}
	return true
}

// closeStreams ends the streams of design id opened with a link of the given kind: the link was
// replaced, and a stream must not outlive the link that opened it.
//
// Each such stream is told at once (a "gone" event, which the page shows) and ended shortly after,
// which lets the page that replaced its own link move to the new one first.
func (h *hub) closeStreams(id string, access storage.Access) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[id]
	if r == nil {
		return
	}
	var ending []*subscriber
	for sub := range r.subs {
		if sub.access == access {
			ending = append(ending, sub)
		}
	}
	h.send(r, event{name: "gone", data: []byte("This link was replaced. Ask the facilitator for the new one.")}, func(sub *subscriber) bool {
		return sub.access == access
	})
	time.AfterFunc(linkGoneGrace, func() {
		for _, sub := range ending {
			sub.drop()
		}
	})
}

// linkGoneGrace is how long a stream outlives the replacement of its link.
const linkGoneGrace = 2 * time.Second

// connections counts the open streams, for tests and benchmarks.
func (h *hub) connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.rooms {
		n += len(r.subs)
	}
	return n
}

// keepAlive is how often an idle stream gets a comment line, so proxies keep it open.
const keepAlive = 15 * time.Second
