package live

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"dynaloom/internal/storage"
)

// PresenceWriter writes the room's participants on a stream, in the stream's own form (JSON for
// the API, HTML for pages); it may write nothing when nothing it shows changed.
type PresenceWriter func(w *bufio.Writer, people []Presence)

// Stream is one event stream once it is open. It lives on the heap, and the loop that serves it
// (Run) is a small function of its own: an idle stream parks with a shallow stack.
//
// A handler subscribes, gives the stream where to write (TakeConn or UseResponse), writes its
// beginning (Begin), then runs it until it ends, and calls End.
type Stream struct {
	sub   *subscriber
	leave func() // leaves the room
	stop  <-chan struct{}
	w     *bufio.Writer
	// The stream writes on conn when it took the connection over (release then uncounts it from
	// the server's connection bounds once closed), and otherwise through rc.
	conn          net.Conn
	release       func(net.Conn)
	rc            *http.ResponseController
	writePresence PresenceWriter
	last          int64 // the newest revision written
	expires       *time.Timer
	expired       <-chan time.Time
	presenceAt    time.Time
	presenceLater <-chan time.Time
	timer         func() *event // the room's timer as it stands, for a page's stream
	locks         func() *event // the room's locked steps, for a page's stream
}

// Subscribe opens a stream of design id for a client address; after is the newest revision the
// client has. A page's stream passes its participant (with Tab set), which joins the room; an API
// stream passes nil. Past the per-client bound it gives ErrTooManyStreams.
func (h *Hub) Subscribe(id, client string, access storage.Access, p *Presence, presence PresenceWriter) (*Stream, error) {
	sub, leave, err := h.subscribe(id, client, access, p)
	if err != nil {
		return nil, err
	}
	st := &Stream{sub: sub, leave: leave, stop: h.done, writePresence: presence}
	if p != nil {
		st.timer = func() *event { return h.timers.current(id, time.Now(), h.stepLabel) }
		st.locks = func() *event { return h.currentLocks(id) }
	}
	return st, nil
}

// People is the room's current participants.
func (st *Stream) People() []Presence { return st.sub.people() }

// TakeConn makes the stream write on conn, a connection taken over from the HTTP server, and
// answers a channel closed when the client closes it. release is called once conn is closed.
func (st *Stream) TakeConn(conn net.Conn, release func(net.Conn)) <-chan struct{} {
	st.conn, st.release = conn, release
	st.w = bufio.NewWriterSize(conn, streamBuffer)
	return watchClose(conn)
}

// UseResponse makes the stream write on an HTTP answer whose head is written; rc flushes it.
func (st *Stream) UseResponse(w io.Writer, rc *http.ResponseController) {
	// Events are flushed as they come; a small buffer keeps an idle stream small (writes larger
	// than it go straight through).
	st.rc, st.w = rc, bufio.NewWriterSize(w, streamBuffer)
}

// OnConn reports whether the stream writes on a connection of its own (TakeConn).
func (st *Stream) OnConn() bool { return st.conn != nil }

// Begin writes the start of the stream: the retry hint, the room's timer and locks for a page, and the
// changes the client missed since revision after (missed, oldest first), or one reload when they
// are more than a queue holds. An error means the client is gone.
func (st *Stream) Begin(after int64, missed []storage.Revision) error {
	st.last = after
	// The retry hint keeps reconnections quick after a server restart.
	st.w.WriteString("retry: 1000\n\n")
	if st.timer != nil {
		// The room's timer as it stands; a change from now on comes as an event.
		st.write(st.timer())
	}
	if st.locks != nil {
		st.write(st.locks())
	}
	switch {
	case len(missed) > QueueLen:
		// As far behind as a stream that fell behind: one reload says so.
		st.last = missed[len(missed)-1].Revision
		st.write(reloadEvent(st.last))
	default:
		for _, rev := range missed {
			st.write(changeEvent(rev))
			st.last = rev.Revision
		}
	}
	return st.flush()
}

// watchClose reads conn until the client closes it (a stream's client sends nothing), and then
// closes the channel it returns.
func watchClose(conn net.Conn) <-chan struct{} {
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		var buf [64]byte
		for {
			if _, err := conn.Read(buf[:]); err != nil {
				return
			}
		}
	}()
	return gone
}

// ExpireAt ends the stream at the time given (zero: never).
func (st *Stream) ExpireAt(at time.Time) {
	if st.expires != nil {
		st.expires.Stop()
		st.expires, st.expired = nil, nil
	}
	if !at.IsZero() {
		st.expires = time.NewTimer(time.Until(at))
		st.expired = st.expires.C
	}
}

// End leaves the room and lets go of what the stream holds.
func (st *Stream) End() {
	st.ExpireAt(time.Time{})
	st.leave()
	if st.conn != nil {
		st.conn.Close()
		st.release(st.conn)
	}
}

func (st *Stream) write(ev *event) { WriteEvent(st.w, ev.id, ev.name, ev.data) }

// flush sends what is buffered. A reader that takes nothing for StreamStall is gone, or frozen:
// the stream ends, and a client that comes back resumes from the last event it read.
func (st *Stream) flush() error {
	if st.conn != nil {
		_ = st.conn.SetWriteDeadline(time.Now().Add(StreamStall))
		return st.w.Flush()
	}
	_ = st.rc.SetWriteDeadline(time.Now().Add(StreamStall))
	if err := st.w.Flush(); err != nil {
		return err
	}
	return st.rc.Flush()
}

// Run serves the stream until the client goes (gone), the hub drops it, or the hub shuts down.
func (st *Stream) Run(gone <-chan struct{}, keepAlive time.Duration) {
	st.run(gone, st.stop, keepAlive)
}

func (st *Stream) run(gone, stop <-chan struct{}, keepAlive time.Duration) {
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	sub := st.sub
	for {
		select {
		case ev := <-sub.events:
			st.change(ev)
		case <-sub.reloadDue:
			st.reload()
		case <-sub.presenceDue:
			if wait := PresenceEvery - time.Since(st.presenceAt); wait > 0 {
				if st.presenceLater == nil {
					st.presenceLater = time.After(wait)
				}
				continue
			}
			st.presence()
		case <-st.presenceLater:
			st.presenceLater = nil
			st.presence()
		case <-tick.C:
			st.w.WriteString(": keep-alive\n\n")
		case at := <-sub.expiry:
			st.ExpireAt(at)
			continue
		case <-st.expired:
			WriteEvent(st.w, 0, "gone", []byte(linkGoneMessage))
			st.flush()
			return
		case <-sub.gone:
			st.sayGone()
			return
		case <-stop:
			return
		case <-gone:
			return
		}
		if err := st.flush(); err != nil {
			return
		}
	}
}

// change writes the event ev and whatever else is queued behind it, leaving out change events
// already sent from the history. A change event that follows one the stream dropped (its queue
// was full) is not written: the client would apply it without the one it never heard of, so it
// is told to reload instead.
func (st *Stream) change(ev *event) {
	for {
		if ev.name == "change" && st.sub.behind.Load() > st.last {
			st.reloadFrom(ev.id)
			return
		}
		if ev.name != "change" || ev.id > st.last {
			if ev.name == "change" {
				st.last = ev.id
			}
			st.write(ev)
		}
		select {
		case ev = <-st.sub.events:
		default:
			return
		}
	}
}

// reload tells the client to reload after the stream fell behind. The queued change events are
// older than the reload; anything else queued still goes. A signal already answered (change met
// the drop first and wrote the reload) does nothing: the changes queued since then dropped none,
// and must come as changes, not be folded into another reload.
func (st *Stream) reload() {
	if st.sub.behind.Load() <= st.last {
		return
	}
	st.reloadFrom(0)
}

// reloadFrom is reload once a change event of revision at least rev was taken from the queue.
func (st *Stream) reloadFrom(rev int64) {
	rev = max(rev, st.sub.behind.Load())
	for more := true; more; {
		select {
		case ev := <-st.sub.events:
			if ev.name == "change" {
				rev = max(rev, ev.id)
			} else {
				st.write(ev)
			}
		default:
			more = false
		}
	}
	if rev > st.last {
		st.last = rev
		st.write(reloadEvent(rev))
	}
}

// sayGone writes the "gone" event the hub queued before it ended the stream, which says why: the
// run loop may see the end first when both are ready (a loop held up for the linkGoneGrace the
// hub waits), and the page would then never be told.
func (st *Stream) sayGone() {
	for {
		select {
		case ev := <-st.sub.events:
			if ev.name == "gone" {
				st.write(ev)
				st.flush()
				return
			}
		default:
			return
		}
	}
}

func (st *Stream) presence() {
	st.writePresence(st.w, st.sub.people())
	st.presenceAt = time.Now()
}

// StreamStall is how long a stream's write may wait for its reader.
const StreamStall = time.Minute

// streamBuffer is the write buffer of a stream: most events are a few hundred bytes.
const streamBuffer = 512

// WriteEvent writes one event in the text/event-stream format; data may span lines.
func WriteEvent(w *bufio.Writer, id int64, name string, data []byte) {
	if id > 0 {
		w.WriteString("id: ")
		w.WriteString(strconv.FormatInt(id, 10))
		w.WriteByte('\n')
	}
	w.WriteString("event: ")
	w.WriteString(name)
	w.WriteByte('\n')
	for line := range strings.SplitSeq(string(data), "\n") {
		w.WriteString("data: ")
		w.WriteString(strings.TrimSuffix(line, "\r"))
		w.WriteByte('\n')
	}
	w.WriteByte('\n')
}
