package live

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// The hub. Every stored change is published to the hub (the store's commit hook calls Publish), in
// revision order, and the hub fans it out to the design's open event streams (stream.go). Each stream
// has a buffered channel; a stream too slow to keep up falls behind: the changes it has queued are
// discarded and it writes one "reload" event naming the newest revision instead, after which its
// page draws its step whole. The stream stays open, so a slow reader never turns into a storm of
// reconnections. The hub also keeps who is here (presence) and who leads ("follow me").
//
// Each design's room has a lock of its own: the hub-wide lock only finds rooms and counts streams
// per client, so a crowded design never holds up another. Presence is not queued per change: the
// room keeps the current list and tells each stream that it changed, and a stream writes the list
// at most every PresenceEvery, so a room of hundreds costs each join a signal per stream rather
// than a rendered list per stream.

// event is one server-sent event.
type event struct {
	id   int64 // the revision a change event brings the design to; 0 for others
	name string
	data []byte
}

// ChangeData is the data of a change event (docs/contract.md "The HTTP API").
type ChangeData struct {
	Revision int64           `json:"revision"`
	Author   string          `json:"author"`
	Paths    []designer.Path `json:"paths"`
}

func changeEvent(rev storage.Revision) *event {
	paths := rev.Paths
	if paths == nil {
		paths = []designer.Path{}
	}
	data, _ := json.Marshal(ChangeData{rev.Revision, rev.Author, paths}) // cannot fail: strings and a number
	return &event{id: rev.Revision, name: "change", data: data}
}

// QueueLen is how many events a stream may queue before it falls behind.
const QueueLen = 64

// PresenceEvery is the least time between two presence updates written to one stream; changes in
// between are folded into the next one.
const PresenceEvery = 250 * time.Millisecond

// ErrTooManyStreams refuses a stream past the per-client limit.
var ErrTooManyStreams = errors.New("too many open event streams from one address")

// subscriber is one open event stream.
type subscriber struct {
	room   *room
	client string
	events chan *event   // shared by every stream that gets them: never modified
	gone   chan struct{} // closed when the hub ends the stream
	once   sync.Once
	// behind is the newest revision a change event could not be queued for; reloadDue holds a
	// signal while the stream has not yet told its client to reload.
	behind    atomic.Int64
	reloadDue chan struct{}
	// presenceDue holds a signal while the room's participants changed since the stream last
	// wrote them.
	presenceDue chan struct{}
	// expiry carries a new time at which a view link stops working (zero: never).
	expiry chan time.Time
	// presence is set for a page's stream: the participant it stands for.
	presence *Presence
	// access is the kind of link the stream was opened with.
	access storage.Access
	// ended is set, under the room's lock, when the link that opened the stream stops working:
	// from then on nothing of the design reaches it.
	ended bool
}

func (sub *subscriber) drop() { sub.once.Do(func() { close(sub.gone) }) }

// fallBehind records that the change event of revision rev found the stream's queue full.
func (sub *subscriber) fallBehind(rev int64) {
	for {
		old := sub.behind.Load()
		if old >= rev || sub.behind.CompareAndSwap(old, rev) {
			break
		}
	}
	select {
	case sub.reloadDue <- struct{}{}:
	default: // already due
	}
}

// people is the room's current participants, for the stream to write.
func (sub *subscriber) people() []Presence {
	sub.room.mu.Lock()
	defer sub.room.mu.Unlock()
	return sub.room.participants()
}

// Presence is one participant's tab, as the others see it.
type Presence struct {
	Tab string `json:"-"`
	// ID names the participant to the others for as long as their tab is here; unlike Tab, it
	// cannot be used to speak for them.
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Color  int    `json:"color"`
	Step   string `json:"step"`
	Focus  string `json:"focus,omitempty"`
	Leader bool   `json:"leader,omitempty"`
	Editor bool   `json:"editor"`
	// Watching marks the projector's tab (Present mode): it follows the room and sees who is here,
	// but is no participant, so no one sees it.
	Watching bool `json:"-"`
}

// LeadView is where the leader is, for the followers to show the same: the page (a step's path
// and its query, such as "/tables?table=Orders" or "/mapping?open=ap12", relative to the design's
// link), the element the leader works on (the open pattern card, the focused row) and the element
// at the top of the leader's window, which carries the scroll position across screens of other
// sizes. Empty fields are unknown, except Top on a page scrolled to its start.
type LeadView struct {
	Step  string `json:"step"`
	View  string `json:"view,omitempty"`
	Focus string `json:"focus,omitempty"`
	Top   string `json:"top,omitempty"`
}

// participantColors is how many distinct colours participants get (app.css .who-0 … .who-7).
const participantColors = 8

// room is the live state of one design. Its fields are guarded by mu, except refs, which the
// hub's lock guards.
type room struct {
	mu   sync.Mutex
	refs int

	subs map[*subscriber]struct{}
	// tabs counts each tab's open streams: a tab moving between steps opens its new stream
	// before the old one closes.
	tabs   map[string]*Presence
	counts map[string]int
	leader string // the tab the others follow, if any
	// view is where the leader last said it is; it is reset when the leader moves to another step.
	view   LeadView
	lastID int // the last Presence.ID given out
	// list is the participants in order, built when first asked for after a change.
	list []Presence
	// locks is the locked steps, by step, and left when each holder's tab that is away left
	// (lock.go).
	locks map[lockKey]Lock
	left  map[string]time.Time
}

// Hub fans events out to the streams of each design; it is the Room the server uses.
type Hub struct {
	mu        sync.Mutex
	rooms     map[string]*room
	perClient map[string]int // open streams per client address
	// maxPerClient bounds the streams one client address may hold open; 0 means no bound.
	maxPerClient int
	done         chan struct{} // closed on shutdown: every stream ends
	stop         sync.Once
	// timers holds each room's timer (timer.go); stepLabel names a step in a timer event.
	timers    timerBoard
	stepLabel func(step string) string
	// lockGrace is how long a lock outlives its holder's tab leaving the room (lock.go).
	lockGrace time.Duration
}

// New builds a hub that lets one client address hold at most maxPerClient streams (0: no bound)
// and names a step in timer events with stepLabel.
func New(maxPerClient int, stepLabel func(step string) string) *Hub {
	return &Hub{rooms: map[string]*room{}, perClient: map[string]int{}, maxPerClient: maxPerClient, done: make(chan struct{}), stepLabel: stepLabel, lockGrace: LockGrace}
}

var _ Room = (*Hub)(nil)

// Shutdown ends every stream, for the server's shutdown.
func (h *Hub) Shutdown() { h.stop.Do(func() { close(h.done) }) }

// enter finds or opens the room of design id and counts one more stream from client in it.
func (h *Hub) enter(id, client string) (*room, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.maxPerClient > 0 && h.perClient[client] >= h.maxPerClient {
		return nil, ErrTooManyStreams
	}
	h.perClient[client]++
	r := h.rooms[id]
	if r == nil {
		r = &room{subs: map[*subscriber]struct{}{}, tabs: map[string]*Presence{}, counts: map[string]int{}}
		h.rooms[id] = r
	}
	r.refs++
	return r, nil
}

// exit undoes enter, closing the room a moment after its last stream has gone.
func (h *Hub) exit(id, client string, r *room) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.perClient[client]--; h.perClient[client] <= 0 {
		delete(h.perClient, client)
	}
	if r.refs--; r.refs == 0 {
		// A page moving to another step closes its stream before its next page opens one; when
		// the facilitator and the projector follow her do so at once, the room is empty for that
		// moment, and who leads, and where, must outlive it.
		time.AfterFunc(roomGrace, func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if r.refs == 0 && h.rooms[id] == r {
				delete(h.rooms, id)
			}
		})
	}
}

// roomGrace is how long a room outlives its last stream.
const roomGrace = 30 * time.Second

// find returns the open room of design id, or nil.
func (h *Hub) find(id string) *room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rooms[id]
}

// subscribe opens a stream of design id for a client address. A page's stream passes its
// participant (with Tab set), which joins the room; an API stream passes nil. Call the returned
// function when the stream closes. Past the per-client bound it gives ErrTooManyStreams.
func (h *Hub) subscribe(id, client string, access storage.Access, p *Presence) (*subscriber, func(), error) {
	r, err := h.enter(id, client)
	if err != nil {
		return nil, nil, err
	}
	sub := &subscriber{room: r, client: client, events: make(chan *event, QueueLen), gone: make(chan struct{}),
		reloadDue: make(chan struct{}, 1), presenceDue: make(chan struct{}, 1), expiry: make(chan time.Time, 1), access: access}
	r.mu.Lock()
	r.subs[sub] = struct{}{}
	switch {
	case p != nil && p.Watching:
		// The projector gets the list once, like an API stream, and the leader's place at once:
		// it lands where the room is, not where its link pointed.
		sub.presence = p
		sub.presenceDue <- struct{}{}
		if lead := r.tabs[r.leader]; lead != nil {
			r.tellFollower(sub, lead)
		}
	case p != nil:
		if old, ok := r.tabs[p.Tab]; ok {
			p.ID, p.Color, p.Focus = old.ID, old.Color, old.Focus
		} else {
			r.lastID++
			p.ID, p.Color = r.lastID, r.freeColor()
		}
		p.Leader = r.leader == p.Tab
		r.tabs[p.Tab] = p
		delete(r.left, p.Tab)
		r.counts[p.Tab]++
		sub.presence = p
		r.presenceChanged()
		switch lead := r.tabs[r.leader]; {
		case p.Leader:
			if r.view.Step != p.Step {
				r.view = LeadView{Step: p.Step}
			}
			r.announceFollow(p)
		case lead != nil:
			// A follower that arrives, or arrives on the step it was moved to, is told where the
			// leader is, so it lands on the card and the scroll position.
			r.tellFollower(sub, lead)
		}
	default:
		// An API stream gets the current list once, like a page does.
		sub.presenceDue <- struct{}{}
	}
	r.mu.Unlock()
	return sub, func() {
		r.mu.Lock()
		delete(r.subs, sub)
		if p != nil && !p.Watching {
			r.counts[p.Tab]--
			if r.counts[p.Tab] == 0 {
				// A leader moving to another step closes this stream before (or after) its next
				// one opens, so its lead is kept for when it comes back.
				delete(r.counts, p.Tab)
				delete(r.tabs, p.Tab)
				h.holderLeft(r, p.Tab)
			}
			r.presenceChanged()
		}
		r.mu.Unlock()
		h.exit(id, client, r)
	}, nil
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

// Publish tells the design's streams of a stored change. It knows nothing of HTTP or of where the
// change was made: the store's commit hook calls it, and so will a message from another instance.
func (h *Hub) Publish(designID string, rev storage.Revision) {
	r := h.find(designID)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.send(changeEvent(rev), nil)
}

// send puts ev on the streams of r that want it. A full stream falls behind on a change event;
// other events (follow-me) are not worth a redraw and are left out. Callers hold r.mu.
func (r *room) send(ev *event, want func(*subscriber) bool) {
	for sub := range r.subs {
		if sub.ended || want != nil && !want(sub) {
			continue
		}
		select {
		case sub.events <- ev:
		default:
			if ev.name == "change" {
				sub.fallBehind(ev.id)
			}
		}
	}
}

// reloadEvent tells a stream's client that it fell behind: the change events up to revision were
// discarded, and it should read the design (or draw its step) again.
func reloadEvent(revision int64) *event {
	return &event{id: revision, name: "reload", data: []byte(`{"revision":` + strconv.FormatInt(revision, 10) + `}`)}
}

// presenceChanged tells every stream of the room that the participants changed. Callers hold r.mu.
func (r *room) presenceChanged() {
	r.list = nil
	for sub := range r.subs {
		if sub.ended {
			continue
		}
		select {
		case sub.presenceDue <- struct{}{}:
		default: // already due
		}
	}
}

// participants lists the room's tabs in a stable order: by name, then tab. The list is shared
// by every stream until the next change and must not be modified. Callers hold r.mu.
func (r *room) participants() []Presence {
	if r.list != nil {
		return r.list
	}
	out := make([]Presence, 0, len(r.tabs))
	for _, p := range r.tabs {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Tab < out[j].Tab
	})
	r.list = out
	return out
}

// announceFollow tells the followers where the leader is. Callers hold r.mu.
func (r *room) announceFollow(leader *Presence) {
	r.send(r.followEvent(leader), func(sub *subscriber) bool {
		return sub.presence != nil && sub.presence.Tab != leader.Tab
	})
}

// tellFollower tells one stream where the leader is. Callers hold r.mu.
func (r *room) tellFollower(sub *subscriber, leader *Presence) {
	select {
	case sub.events <- r.followEvent(leader):
	default: // a stream this far behind reloads anyway
	}
}

// followEvent is the leader's place as the followers read it. Callers hold r.mu.
func (r *room) followEvent(leader *Presence) *event {
	v := r.view
	if v.Step != leader.Step {
		v = LeadView{Step: leader.Step}
	}
	data, _ := json.Marshal(v) // cannot fail: strings
	return &event{name: "follow", data: data}
}

// withTab runs fn under the room's lock if tab is connected to design id, and reports whether
// it was.
func (h *Hub) withTab(id, tab string, fn func(r *room, p *Presence)) bool {
	r := h.find(id)
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.tabs[tab]
	if p == nil {
		return false
	}
	fn(r, p)
	return true
}

// Focus records what a tab is editing (an element id, or "" for nothing).
func (h *Hub) Focus(id, tab, focus string) bool {
	return h.withTab(id, tab, func(r *room, p *Presence) {
		if p.Focus != focus {
			p.Focus = focus
			r.presenceChanged()
		}
	})
}

// ShowView records where tab is when it leads, and tells the followers.
func (h *Hub) ShowView(id, tab string, v LeadView) bool {
	return h.withTab(id, tab, func(r *room, p *Presence) {
		if r.leader != tab {
			return
		}
		if v != r.view {
			r.view = v
			r.announceFollow(p)
		}
	})
}

// Lead makes tab the one the room follows, or stops it leading.
func (h *Hub) Lead(id, tab string, on bool) bool {
	return h.withTab(id, tab, func(r *room, p *Presence) { r.setLeader(tab, on) })
}

// setLeader makes tab the leader or stops it leading. Callers hold r.mu.
func (r *room) setLeader(tab string, on bool) {
	switch {
	case on:
		if r.leader != tab {
			r.view = LeadView{}
		}
		r.leader = tab
	case r.leader == tab:
		r.leader, r.view = "", LeadView{}
	}
	for t, p := range r.tabs {
		p.Leader = t == r.leader
	}
	r.presenceChanged()
	if on {
		r.announceFollow(r.tabs[tab])
	}
}

// CloseStreams ends the streams of design id opened with a link of the given kind: the link was
// replaced or stopped working, and a stream must not outlive the link that opened it.
//
// From this moment nothing of the design reaches those streams; each is told once (a "gone"
// event, which the page shows) and ended shortly after, which lets the page that replaced its own
// link move to the new one before its old stream fails.
func (h *Hub) CloseStreams(id string, access storage.Access) {
	r := h.find(id)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var ending []*subscriber
	for sub := range r.subs {
		if sub.access != access || sub.ended {
			continue
		}
		ending = append(ending, sub)
		select {
		case sub.events <- &event{name: "gone", data: []byte(linkGoneMessage)}:
		default:
			sub.drop()
		}
		sub.ended = true
	}
	time.AfterFunc(linkGoneGrace, func() {
		for _, sub := range ending {
			sub.drop()
		}
	})
}

// ViewExpiryChanged tells the view streams of design id when their link now stops working.
func (h *Hub) ViewExpiryChanged(id string, at time.Time) {
	r := h.find(id)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for sub := range r.subs {
		if sub.access != storage.ViewAccess || sub.ended {
			continue
		}
		select { // the newest time replaces one not yet read
		case <-sub.expiry:
		default:
		}
		sub.expiry <- at
	}
}

// linkGoneMessage is what a page shows when its link stops working under it.
const linkGoneMessage = "This link was replaced or has expired. Ask the facilitator for the new one."

// linkGoneGrace is how long a stream outlives the replacement of its link.
const linkGoneGrace = 2 * time.Second

// Connections counts the open streams.
func (h *Hub) Connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.perClient {
		n += c
	}
	return n
}

// KeepAlive is how often an idle stream gets a comment line, so proxies keep it open.
const KeepAlive = 15 * time.Second

// Behind is the newest revision some stream of design id found its queue full for, or 0 when
// none has fallen behind.
func (h *Hub) Behind(id string) int64 {
	r := h.find(id)
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for sub := range r.subs {
		n = max(n, sub.behind.Load())
	}
	return n
}
