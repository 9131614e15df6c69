package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// apiEvents is the API's event stream: change events as JSON, presence as JSON (the participants,
// then who joined, left or moved).
func (s *Server) apiEvents(c echo.Context) error {
	after, _ := strconv.ParseInt(c.Request().Header.Get("Last-Event-ID"), 10, 64)
	return s.stream(c, nil, after, apiPresence())
}

// pageEvents is the stream a workspace page opens (htmx SSE extension). It joins the room as the
// tab named by ?tab on the step named by ?step; ?rev is the revision the page shows, so that a
// page reconnecting after a drop catches up. Presence is sent as HTML: the list when the stream
// opens, then what changed in it (presence.go).
func (s *Server) pageEvents(c echo.Context) error {
	d := designFrom(c)
	tab := c.QueryParam("tab")
	if !validTab(tab) {
		return badInput("tab: give the id of the browser tab (16 to 64 letters and digits)")
	}
	step := c.QueryParam("step")
	if !knownStep(step) {
		return badInput("step: there is no step %q", step)
	}
	after, _ := strconv.ParseInt(c.QueryParam("rev"), 10, 64)
	if id := c.Request().Header.Get("Last-Event-ID"); id != "" {
		after, _ = strconv.ParseInt(id, 10, 64)
	}
	name := participantName(c)
	if name == "" {
		name = "Guest"
	}
	p := &presence{Tab: tab, Name: name, Step: step, Editor: d.canEdit(), Watching: d.Presenting}
	// The stream may outlive the request (takeOver): what it renders must not stop when the
	// request's context ends.
	return s.stream(c, p, after, pagePresence(context.WithoutCancel(c.Request().Context()), tab))
}

// stream serves one event stream until the client goes, the hub drops it, or the server stops.
// It subscribes before reading the history, so no change falls between the two.
func (s *Server) stream(c echo.Context, p *presence, after int64, writePresence func(*bufio.Writer, []presence)) error {
	d := designFrom(c)
	ctx := c.Request().Context()
	st := &liveStream{writePresence: writePresence, last: after}
	// A view link may stop working at a set time; its streams end then too.
	if d.Access == storage.ViewAccess {
		at, err := s.store.ViewExpiry(ctx, d.ID)
		if err != nil {
			return err
		}
		st.expireAt(at)
		defer func() {
			if st.leave == nil {
				st.expireAt(time.Time{}) // not subscribed: nothing else to end
			}
		}()
	}
	sub, leave, err := s.hub.subscribe(d.ID, s.clientAddr(c.Request()), d.Access, p)
	if errors.Is(err, errTooManyStreams) {
		return &apiError{http.StatusTooManyRequests, "too_many_streams", fmt.Sprintf(
			"Your address already has %d live connections open to this server, the most it allows (--max-streams-per-client). Close some tabs and reload.", s.opts.MaxStreamsPerClient)}
	}
	if err != nil {
		return err
	}
	st.sub, st.leave = sub, leave
	handedOff := false
	defer func() {
		if !handedOff {
			st.end()
		}
	}()
	var missed []storage.Revision
	if after > 0 {
		if missed, err = s.store.RevisionsAfter(ctx, d.ID, after); err != nil {
			return err
		}
	}

	res := c.Response()
	h := res.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// Over HTTP/1.x the stream takes the connection over (see takeOver); elsewhere (HTTP/2, a
	// test's recorder) it is served within the request.
	gone := ctx.Done()
	if conn := takeOver(res, c.Request()); conn != nil {
		st.conn, st.release = conn, s.conns.forget
		gone = watchClose(conn)
		st.w = bufio.NewWriterSize(conn, streamBuffer)
	} else {
		// The server's write timeout is for ordinary answers; a stream lives as long as the client.
		st.rc = http.NewResponseController(res.Writer)
		_ = st.rc.SetWriteDeadline(time.Time{})
		res.WriteHeader(http.StatusOK)
		// Events are flushed as they come; a small buffer keeps an idle stream small (writes
		// larger than it go straight through).
		st.w = bufio.NewWriterSize(res, streamBuffer)
	}
	// The retry hint keeps reconnections quick after a server restart.
	st.w.WriteString("retry: 1000\n\n")
	if p != nil {
		// The room's timer as it stands; a change from now on comes as an event.
		st.write(s.timers.current(d.ID, time.Now()))
	}
	switch {
	case len(missed) > subscriberBuffer:
		// As far behind as a stream that fell behind: one reload says so.
		st.last = missed[len(missed)-1].Revision
		st.write(reloadEvent(st.last))
	default:
		for _, rev := range missed {
			st.write(changeEvent(rev))
			st.last = rev.Revision
		}
	}
	if err := st.flush(); err != nil {
		return nil
	}
	if st.conn == nil {
		st.run(gone, s.hub.done, s.opts.KeepAlive)
		return nil
	}
	handedOff = true
	go func() {
		defer st.end()
		st.run(gone, s.hub.done, s.opts.KeepAlive)
	}()
	return nil
}

// takeOver takes the connection of an HTTP/1.x request over from the HTTP server and writes the
// head of a stream's answer on it: the status, the headers set so far, and Connection: close, as
// the stream's body ends when the connection does. An idle stream then costs a goroutine with a
// shallow stack and a 512-byte buffer, not the server's goroutine with the whole middleware chain
// on its stack and its 4 KB read and write buffers (issue 14: 500 idle streams at most 40 KB each).
// It answers nil where the connection cannot be taken (HTTP/2, a test's recorder), or the head
// could not be written; the stream is then served within the request.
func takeOver(res *echo.Response, req *http.Request) net.Conn {
	if req.ProtoMajor != 1 {
		return nil
	}
	conn, _, err := http.NewResponseController(res.Writer).Hijack()
	if err != nil {
		return nil
	}
	// The server's deadlines are for ordinary requests; the stream sets its own per write.
	_ = conn.SetDeadline(time.Time{})
	res.Header().Set("Connection", "close")
	var head bytes.Buffer
	fmt.Fprintf(&head, "HTTP/1.%d 200 OK\r\n", req.ProtoMinor)
	_ = res.Header().Write(&head)
	head.WriteString("\r\n")
	_ = conn.SetWriteDeadline(time.Now().Add(streamStall))
	if _, err := conn.Write(head.Bytes()); err != nil {
		conn.Close()
		return nil
	}
	res.Status, res.Committed = http.StatusOK, true
	return conn
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

// liveStream is the state of one event stream once it is open. It lives on the heap, and the loop
// that serves it (run) is a small function of its own: an idle stream parks with a shallow stack.
type liveStream struct {
	sub   *subscriber
	leave func() // leaves the room
	w     *bufio.Writer
	// The stream writes on conn when it took the connection over (release then uncounts it from
	// the server's connection bounds once closed), and otherwise through rc.
	conn          net.Conn
	release       func(net.Conn)
	rc            *http.ResponseController
	writePresence func(*bufio.Writer, []presence)
	last          int64 // the newest revision written
	expires       *time.Timer
	expired       <-chan time.Time
	presenceAt    time.Time
	presenceLater <-chan time.Time
}

// expireAt ends the stream at the time given (zero: never).
func (st *liveStream) expireAt(at time.Time) {
	if st.expires != nil {
		st.expires.Stop()
		st.expires, st.expired = nil, nil
	}
	if !at.IsZero() {
		st.expires = time.NewTimer(time.Until(at))
		st.expired = st.expires.C
	}
}

// end leaves the room and lets go of what the stream holds.
func (st *liveStream) end() {
	st.expireAt(time.Time{})
	st.leave()
	if st.conn != nil {
		st.conn.Close()
		st.release(st.conn)
	}
}

func (st *liveStream) write(ev *event) { writeEvent(st.w, ev.id, ev.name, ev.data) }

// flush sends what is buffered. A reader that takes nothing for streamStall is gone, or frozen:
// the stream ends, and a client that comes back resumes from the last event it read.
func (st *liveStream) flush() error {
	if st.conn != nil {
		_ = st.conn.SetWriteDeadline(time.Now().Add(streamStall))
		return st.w.Flush()
	}
	_ = st.rc.SetWriteDeadline(time.Now().Add(streamStall))
	if err := st.w.Flush(); err != nil {
		return err
	}
	return st.rc.Flush()
}

// run serves the stream until the client goes (gone), the hub drops it, or the server stops
// (stop).
func (st *liveStream) run(gone, stop <-chan struct{}, keepAlive time.Duration) {
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
			if wait := presenceEvery - time.Since(st.presenceAt); wait > 0 {
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
			st.expireAt(at)
			continue
		case <-st.expired:
			writeEvent(st.w, 0, "gone", []byte(linkGoneMessage))
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
func (st *liveStream) change(ev *event) {
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
func (st *liveStream) reload() {
	if st.sub.behind.Load() <= st.last {
		return
	}
	st.reloadFrom(0)
}

// reloadFrom is reload once a change event of revision at least rev was taken from the queue.
func (st *liveStream) reloadFrom(rev int64) {
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
func (st *liveStream) sayGone() {
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

func (st *liveStream) presence() {
	st.writePresence(st.w, st.sub.people())
	st.presenceAt = time.Now()
}

// streamStall is how long a stream's write may wait for its reader.
const streamStall = time.Minute

// streamBuffer is the write buffer of a stream: most events are a few hundred bytes.
const streamBuffer = 512

// writeEvent writes one event in the text/event-stream format; data may span lines.
func writeEvent(w *bufio.Writer, id int64, name string, data []byte) {
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

func validTab(tab string) bool {
	if len(tab) < 16 || len(tab) > 64 {
		return false
	}
	for _, r := range tab {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

func knownStep(id string) bool {
	for _, st := range steps {
		if st.id == id {
			return true
		}
	}
	return false
}

// maxPresenceChips is how many participants the top bar shows by name; the rest are counted.
// A review audience of hundreds on the view link would otherwise cost every stream a list of
// hundreds on every join.
const maxPresenceChips = 12

// presenceViews turns the room's participants into what the top bar shows; self is the viewing
// tab. Past maxPresenceChips it keeps the viewing tab, the leader and the editors (whose focus the
// page outlines) before viewers, in the room's order, and counts the others in more.
func presenceViews(ps []presence, self string) (views []templates.PresenceView, more int) {
	keep := make([]bool, len(ps))
	room := maxPresenceChips
	for pass := 0; pass < 3 && room > 0; pass++ {
		for i, p := range ps {
			if keep[i] || room == 0 {
				continue
			}
			if pass == 0 && (p.Tab == self || p.Leader) || pass == 1 && p.Editor || pass == 2 {
				keep[i] = true
				room--
			}
		}
	}
	views = make([]templates.PresenceView, 0, min(len(ps), maxPresenceChips))
	for i, p := range ps {
		if !keep[i] {
			more++
			continue
		}
		views = append(views, templates.PresenceView{
			ID: chipID(p), Name: p.Name, Initials: initials(p.Name), Color: p.Color, Step: stepLabel(p.Step),
			Focus: p.Focus, Leader: p.Leader, Self: p.Tab == self, Editor: p.Editor,
		})
	}
	return views, more
}

func initials(name string) string {
	var b strings.Builder
	for _, f := range strings.Fields(name) {
		for _, r := range f {
			b.WriteRune(r)
			break
		}
		if b.Len() >= 2 {
			break
		}
	}
	return strings.ToUpper(b.String())
}

func stepLabel(id string) string {
	for _, st := range steps {
		if st.id == id {
			return st.label
		}
	}
	return ""
}

// savePresence records which field a participant's tab is editing, for the others to see.
func (s *Server) savePresence(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	focus := form.get("focus")
	if len(focus) > 200 {
		return badInput("focus: give an element id of at most 200 characters")
	}
	if !s.hub.focus(designFrom(c).ID, form.get("tab"), focus) {
		return badInput("tab: this tab is not connected to the design; reload the page")
	}
	return c.NoContent(http.StatusNoContent)
}

// saveLead starts or stops "follow me" for the facilitator's tab.
func (s *Server) saveLead(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	if !s.hub.lead(designFrom(c).ID, form.get("tab"), form.get("on") == "true") {
		return badInput("tab: this tab is not connected to the design; reload the page")
	}
	return c.NoContent(http.StatusNoContent)
}

// saveView records where the leading tab is — the page, the element it works on and the one at the
// top of its window — and tells the followers. A tab that does not lead is not told apart: its
// view is simply not kept.
func (s *Server) saveView(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	v := leadView{View: form.get("view"), Focus: form.get("focus"), Top: form.get("top")}
	step, ok := viewStep(v.View)
	if !ok {
		return badInput("view: give a step's path with its query, such as /mapping?open=ap1 (at most %d characters)", maxViewLen)
	}
	v.Step = step
	if !elementID(v.Focus) {
		return badInput("focus: give an element id of at most 200 letters, digits, '-' and '_'")
	}
	if !elementID(v.Top) {
		return badInput("top: give an element id of at most 200 letters, digits, '-' and '_'")
	}
	if !s.hub.showView(designFrom(c).ID, form.get("tab"), v) {
		return badInput("tab: this tab is not connected to the design; reload the page")
	}
	return c.NoContent(http.StatusNoContent)
}

// maxViewLen bounds a leader's page address: a step, a table, a grid page and the open cards.
const maxViewLen = 1000

// viewStep is the step a page address relative to the design's link shows ("" is the overview),
// and whether the address is one: a step's path and a query, nothing else.
func viewStep(view string) (string, bool) {
	if len(view) > maxViewLen {
		return "", false
	}
	path, query, _ := strings.Cut(view, "?")
	if _, err := url.ParseQuery(query); err != nil {
		return "", false
	}
	for _, st := range steps {
		if st.path == path {
			return st.id, true
		}
	}
	return "", false
}

// elementID reports whether id can be an element id the pages give ("" for none).
func elementID(id string) bool {
	if len(id) > 200 {
		return false
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
