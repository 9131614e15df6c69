package server

import (
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

	"dynaloom/internal/live"
	"dynaloom/internal/storage"
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
	p := &live.Presence{Tab: tab, Name: name, Step: step, Editor: d.canEdit(), Watching: d.Presenting}
	// The stream may outlive the request (takeOver): what it renders must not stop when the
	// request's context ends.
	return s.stream(c, p, after, pagePresence(context.WithoutCancel(c.Request().Context()), tab))
}

// stream serves one event stream until the client goes, the room drops it, or the server stops.
// It subscribes before reading the history, so no change falls between the two.
func (s *Server) stream(c echo.Context, p *live.Presence, after int64, writePresence live.PresenceWriter) error {
	d := designFrom(c)
	ctx := c.Request().Context()
	// A view link may stop working at a set time; its streams end then too.
	var expires time.Time
	if d.Access == storage.ViewAccess {
		at, err := s.store.ViewExpiry(ctx, d.ID)
		if err != nil {
			return err
		}
		expires = at
	}
	st, err := s.hub.Subscribe(d.ID, s.clientAddr(c.Request()), d.Access, p, writePresence)
	if errors.Is(err, live.ErrTooManyStreams) {
		return &apiError{http.StatusTooManyRequests, "too_many_streams", fmt.Sprintf(
			"Your address already has %d live connections open to this server, the most it allows (--max-streams-per-client). Close some tabs and reload.", s.opts.MaxStreamsPerClient)}
	}
	if err != nil {
		return err
	}
	st.ExpireAt(expires)
	handedOff := false
	defer func() {
		if !handedOff {
			st.End()
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
		gone = st.TakeConn(conn, s.conns.forget)
	} else {
		// The server's write timeout is for ordinary answers; a stream lives as long as the client.
		rc := http.NewResponseController(res.Writer)
		_ = rc.SetWriteDeadline(time.Time{})
		res.WriteHeader(http.StatusOK)
		st.UseResponse(res, rc)
	}
	if err := st.Begin(after, missed); err != nil {
		return nil
	}
	if !st.OnConn() {
		st.Run(gone, s.opts.KeepAlive)
		return nil
	}
	handedOff = true
	go func() {
		defer st.End()
		st.Run(gone, s.opts.KeepAlive)
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
	_ = conn.SetWriteDeadline(time.Now().Add(live.StreamStall))
	if _, err := conn.Write(head.Bytes()); err != nil {
		conn.Close()
		return nil
	}
	res.Status, res.Committed = http.StatusOK, true
	return conn
}

func knownStep(id string) bool {
	for _, st := range steps {
		if st.id == id {
			return true
		}
	}
	return false
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
	if !s.hub.Focus(designFrom(c).ID, form.get("tab"), focus) {
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
	if !s.hub.Lead(designFrom(c).ID, form.get("tab"), form.get("on") == "true") {
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
	v := live.LeadView{View: form.get("view"), Focus: form.get("focus"), Top: form.get("top")}
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
	if !s.hub.ShowView(designFrom(c).ID, form.get("tab"), v) {
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
