// Package live is the live room of each design: its open event streams, who is here (presence),
// who leads and where ("follow me"), the workshop timer, the locked steps, the bound on streams
// per client, and the writer of a text/event-stream. It knows the store's types but nothing of
// the HTTP handlers: internal/server reads requests and renders pages, and asks the room through
// Room.
//
// Publishing is independent of HTTP: a stored change reaches the room by Publish, called by the
// store's commit hook. A change made on another server instance will arrive the same way, as
// one more caller of Publish.
package live

import (
	"time"

	"dynaloom/internal/storage"
)

// Room is what the server asks of the live room; Hub is its implementation.
type Room interface {
	// Publish tells the design's streams of a stored change.
	Publish(designID string, rev storage.Revision)
	// Subscribe opens a stream of the design (stream.go).
	Subscribe(designID, client string, access storage.Access, p *Presence, presence PresenceWriter) (*Stream, error)
	// Focus, Lead and ShowView change a connected tab's presence and lead; false when the tab is
	// not connected to the design.
	Focus(designID, tab, focus string) bool
	Lead(designID, tab string, on bool) bool
	ShowView(designID, tab string, v LeadView) bool
	// SetTimer changes the room's timer and tells its pages; Timer is how it stands.
	SetTimer(designID string, a TimerAction, now time.Time) error
	Timer(designID string, now time.Time) (TimerState, bool)
	// TakeLock and ReleaseLock lock a step or a section of one for a connected tab and unlock
	// it; MoveSections follows the sections' renames and deletions; Locks is what is locked
	// (lock.go).
	TakeLock(designID, tab string, want Lock, over bool) error
	ReleaseLock(designID, tab, step, section string) error
	MoveSections(designID string, move func(Lock) (Lock, bool))
	Locks(designID string) []Lock
	// CloseStreams and ViewExpiryChanged follow the design's links being replaced or expiring.
	CloseStreams(designID string, access storage.Access)
	ViewExpiryChanged(designID string, at time.Time)
	// Connections counts the open streams; Shutdown ends them all.
	Connections() int
	Shutdown()
}
