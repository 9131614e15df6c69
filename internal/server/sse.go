package server

import (
	"bufio"
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/web/templates"
)

// apiEvents is the API's event stream: change events as JSON, presence as JSON.
func (s *Server) apiEvents(c echo.Context) error {
	after, _ := strconv.ParseInt(c.Request().Header.Get("Last-Event-ID"), 10, 64)
	return s.stream(c, nil, after, func(w *bufio.Writer, ev event) { writeEvent(w, ev.id, ev.name, ev.data) })
}

// pageEvents is the stream a workspace page opens (htmx SSE extension). It joins the room as the
// tab named by ?tab on the step named by ?step; ?rev is the revision the page shows, so that a
// page reconnecting after a drop catches up. Presence is sent as HTML, for the page to swap in.
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
	p := &presence{Tab: tab, Name: name, Step: step, Editor: d.canEdit()}
	return s.stream(c, p, after, func(w *bufio.Writer, ev event) {
		if ev.name == presenceEventName {
			var buf bytes.Buffer
			if templates.PresenceList(presenceViews(ev.people, tab)).Render(c.Request().Context(), &buf) == nil {
				writeEvent(w, 0, ev.name, buf.Bytes())
			}
			return
		}
		writeEvent(w, ev.id, ev.name, ev.data)
	})
}

// stream serves one event stream until the client goes, the hub drops it, or the server stops.
// It subscribes before reading the history, so no change falls between the two.
func (s *Server) stream(c echo.Context, p *presence, after int64, write func(*bufio.Writer, event)) error {
	d := designFrom(c)
	ctx := c.Request().Context()
	sub, leave := s.hub.subscribe(d.ID, d.Access, p)
	defer leave()

	res := c.Response()
	h := res.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// The server's write timeout is for ordinary answers; a stream lives as long as the client.
	rc := http.NewResponseController(res.Writer)
	_ = rc.SetWriteDeadline(time.Time{})
	res.WriteHeader(http.StatusOK)
	w := bufio.NewWriter(res)
	flush := func() error {
		if err := w.Flush(); err != nil {
			return err
		}
		return rc.Flush()
	}
	// The retry hint keeps reconnections quick after a server restart.
	w.WriteString("retry: 1000\n\n")
	last := after
	if after > 0 {
		missed, err := s.store.RevisionsAfter(ctx, d.ID, after)
		if err != nil {
			return err
		}
		for _, rev := range missed {
			write(w, changeEvent(rev))
			last = rev.Revision
		}
	}
	if err := flush(); err != nil {
		return nil
	}
	tick := time.NewTicker(s.opts.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case ev := <-sub.events:
			if ev.name == "change" {
				if ev.id <= last {
					continue // already sent from the history
				}
				last = ev.id
			}
			write(w, ev)
			// Send what else is queued in the same write.
			for more := true; more; {
				select {
				case ev := <-sub.events:
					if ev.name == "change" {
						if ev.id <= last {
							continue
						}
						last = ev.id
					}
					write(w, ev)
				default:
					more = false
				}
			}
		case <-tick.C:
			w.WriteString(": keep-alive\n\n")
		case <-sub.gone:
			return nil
		case <-s.hub.done:
			return nil
		case <-ctx.Done():
			return nil
		}
		if err := flush(); err != nil {
			return nil
		}
	}
}

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

// presenceViews turns the room's participants into what the top bar shows; self is the viewing tab.
func presenceViews(ps []presence, self string) []templates.PresenceView {
	out := make([]templates.PresenceView, 0, len(ps))
	for _, p := range ps {
		out = append(out, templates.PresenceView{
			Name: p.Name, Initials: initials(p.Name), Color: p.Color, Step: stepLabel(p.Step),
			Focus: p.Focus, Leader: p.Leader, Self: p.Tab == self, Editor: p.Editor,
		})
	}
	return out
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
	get, err := postedForm(c)
	if err != nil {
		return err
	}
	focus := get("focus")
	if len(focus) > 200 {
		return badInput("focus: give an element id of at most 200 characters")
	}
	if !s.hub.focus(designFrom(c).ID, get("tab"), focus) {
		return badInput("tab: this tab is not connected to the design; reload the page")
	}
	return c.NoContent(http.StatusNoContent)
}

// saveLead starts or stops "follow me" for the facilitator's tab.
func (s *Server) saveLead(c echo.Context) error {
	get, err := postedForm(c)
	if err != nil {
		return err
	}
	if !s.hub.lead(designFrom(c).ID, get("tab"), get("on") == "true") {
		return badInput("tab: this tab is not connected to the design; reload the page")
	}
	return c.NoContent(http.StatusNoContent)
}
