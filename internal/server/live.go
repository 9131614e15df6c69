package server

import (
	"context"
	"encoding/json"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// Live collaboration: every accepted change is committed through Server.commit, which stores it
// and then tells everyone connected to the design (hub.publish). Connections receive events on a
// buffered channel; a connection too slow to keep up is dropped, and its client reconnects with
// Last-Event-ID and catches up from the stored history, so nothing is lost by dropping it.

// commit stores one change by author and announces it to the design's participants. ifRevision
// is as for storage.Store.Apply.
func (s *Server) commit(ctx context.Context, id, author string, change designer.Change, ifRevision int64) (storage.Record, error) {
	rec, err := s.store.Apply(ctx, id, author, change, ifRevision)
	if err != nil {
		return rec, err
	}
	s.hub.publish(id, changeEvent(rec.Revision, author, change.Paths()))
	return rec, nil
}

// event is one server-sent event.
type event struct {
	id   int64 // the revision a change event brings the design to; 0 for others
	name string
	data []byte
}

// changeData is the data of a change event (CONTRACT.md "Collaboration").
type changeData struct {
	Revision int64    `json:"revision"`
	Author   string   `json:"author"`
	Paths    []string `json:"paths"`
}

func changeEvent(revision int64, author string, paths []string) event {
	if paths == nil {
		paths = []string{}
	}
	data, _ := json.Marshal(changeData{revision, author, paths}) // cannot fail: strings and a number
	return event{id: revision, name: "change", data: data}
}

// subscriberBuffer is how many events a connection may fall behind before it is dropped.
const subscriberBuffer = 256

// subscriber is one open event stream.
type subscriber struct {
	events chan event
	// gone is closed when the hub drops the subscriber for falling behind.
	gone chan struct{}
	once sync.Once
}

func (sub *subscriber) drop() { sub.once.Do(func() { close(sub.gone) }) }

// hub fans events out to the connections of each design.
type hub struct {
	mu    sync.Mutex
	rooms map[string]map[*subscriber]struct{}
}

func newHub() *hub { return &hub{rooms: map[string]map[*subscriber]struct{}{}} }

// subscribe registers a connection to design id; call the returned function when it closes.
func (h *hub) subscribe(id string) (*subscriber, func()) {
	sub := &subscriber{events: make(chan event, subscriberBuffer), gone: make(chan struct{})}
	h.mu.Lock()
	room := h.rooms[id]
	if room == nil {
		room = map[*subscriber]struct{}{}
		h.rooms[id] = room
	}
	room[sub] = struct{}{}
	h.mu.Unlock()
	return sub, func() {
		h.mu.Lock()
		delete(h.rooms[id], sub)
		if len(h.rooms[id]) == 0 {
			delete(h.rooms, id)
		}
		h.mu.Unlock()
	}
}

// publish sends ev to every connection of design id without waiting for any of them.
func (h *hub) publish(id string, ev event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.rooms[id] {
		select {
		case sub.events <- ev:
		default:
			sub.drop()
		}
	}
}
