package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/live"
	"dynaloom/web/templates"
)

// Presence on a stream. A stream writes the room's participants once, when it opens; from then on
// it writes only what changed since it last wrote: who joined, who left, who moved (another step,
// another field, the lead). The stream keeps what it last wrote to compare against, so a join in a
// room of hundreds costs each stream a few hundred bytes, not the room.

// presenceEventName is the event that carries the room's participants whole; each stream writes
// them in its own form (JSON for the API, HTML for pages).
const presenceEventName = "presence"

// presenceDeltaEventName is the page's event for what changed in the list it shows.
const presenceDeltaEventName = "presence-delta"

// presenceData is the data of an API presence event: the participants when the stream opens, and
// after that who joined, left or moved since the last one.
type presenceData struct {
	Participants []live.Presence `json:"participants,omitzero"`
	Joined       []live.Presence `json:"joined,omitempty"`
	Left         []live.Presence `json:"left,omitempty"`
	Moved        []live.Presence `json:"moved,omitempty"`
}

// apiPresence writes an API stream's presence: the list, then changes to it.
func apiPresence() live.PresenceWriter {
	var seen []live.Presence // as last written
	started := false
	return func(w *bufio.Writer, people []live.Presence) {
		var data presenceData
		if !started {
			data.Participants = people
			if data.Participants == nil {
				data.Participants = []live.Presence{}
			}
			started = true
		} else {
			for _, p := range people {
				i := slices.IndexFunc(seen, func(q live.Presence) bool { return q.ID == p.ID })
				switch {
				case i < 0:
					data.Joined = append(data.Joined, p)
				case seen[i] != p:
					data.Moved = append(data.Moved, p)
				}
			}
			for _, q := range seen {
				if !slices.ContainsFunc(people, func(p live.Presence) bool { return p.ID == q.ID }) {
					data.Left = append(data.Left, q)
				}
			}
			if data.Joined == nil && data.Left == nil && data.Moved == nil {
				return
			}
		}
		seen = people
		out, _ := json.Marshal(data) // cannot fail: strings, numbers and booleans
		live.WriteEvent(w, 0, presenceEventName, out)
	}
}

// pagePresence writes a page's presence as HTML for the tab self: the capped list of chips, then
// the chips that changed, out of band (PresenceChanges).
func pagePresence(ctx context.Context, self string) live.PresenceWriter {
	var (
		shown   []templates.PresenceView
		more    int
		started bool
	)
	return func(w *bufio.Writer, people []live.Presence) {
		views, n := presenceViews(people, self)
		var buf bytes.Buffer
		name := presenceEventName
		delta, ok := presenceDelta(shown, more, views, n)
		switch {
		case !started || !ok:
			if templates.PresenceList(views, n).Render(ctx, &buf) != nil {
				return
			}
			started = true
		case delta.Gone == nil && delta.Chips == nil && delta.MoreWhere == "":
			return
		default:
			if templates.PresenceChanges(delta).Render(ctx, &buf) != nil {
				return
			}
			name = presenceDeltaEventName
		}
		shown, more = views, n
		live.WriteEvent(w, 0, name, buf.Bytes())
	}
}

// presenceDelta is what turns the chips shown (and the count of others) into next. It is not ok
// when the chips kept would change order, which only a rename can do: the list is written whole.
func presenceDelta(shown []templates.PresenceView, more int, next []templates.PresenceView, nextMore int) (templates.PresenceDelta, bool) {
	var d templates.PresenceDelta
	was := make(map[string]templates.PresenceView, len(shown))
	for _, v := range shown {
		was[v.ID] = v
	}
	is := make(map[string]bool, len(next))
	var kept []string
	for _, v := range next {
		is[v.ID] = true
		if _, ok := was[v.ID]; ok {
			kept = append(kept, v.ID)
		}
	}
	i := 0
	for _, v := range shown {
		if !is[v.ID] {
			d.Gone = append(d.Gone, v.ID)
			continue
		}
		if kept[i] != v.ID {
			return d, false
		}
		i++
	}
	if more > 0 && nextMore == 0 {
		d.Gone = append(d.Gone, templates.PresenceMoreID)
	}
	for i, v := range next {
		if old, ok := was[v.ID]; ok {
			if old != v {
				d.Chips = append(d.Chips, templates.PresenceChange{View: v, Where: "true"})
			}
			continue
		}
		// A new chip goes before the next one the page has, or at the end of the chips.
		where := ""
		for _, after := range next[i+1:] {
			if _, ok := was[after.ID]; ok {
				where = "beforebegin:#" + after.ID
				break
			}
		}
		if where == "" {
			where = "beforeend:#presence"
			if more > 0 && nextMore > 0 {
				where = "beforebegin:#" + templates.PresenceMoreID
			}
		}
		d.Chips = append(d.Chips, templates.PresenceChange{View: v, Where: where})
	}
	switch {
	case nextMore > 0 && more == 0:
		d.More, d.MoreWhere = nextMore, "beforeend:#presence"
	case nextMore > 0 && nextMore != more:
		d.More, d.MoreWhere = nextMore, "true"
	}
	return d, true
}

// chipID is the element id of a participant's chip.
func chipID(p live.Presence) string { return "chip-" + strconv.Itoa(p.ID) }

func (s *Server) setParticipant(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	name, ok := cleanParticipant(form.get("name"))
	if !ok {
		return badInput("name: give a name of 1 to %d characters", maxParticipantLen)
	}
	c.SetCookie(&http.Cookie{
		Name:     participantCookie,
		Value:    url.QueryEscape(name),
		Path:     "/",
		MaxAge:   365 * 24 * 3600,
		HttpOnly: true,
		Secure:   c.IsTLS(),
		SameSite: http.SameSiteLaxMode,
	})
	next := form.get("next")
	// next is usually a design page, whose link may be the edit link.
	c.Response().Header().Set("Cache-Control", "no-store")
	// Only a design page of this server, with its query (a diff's revisions): never an open redirect.
	if !strings.HasPrefix(next, "/d/") || strings.ContainsAny(next, "\\#") || strings.Contains(next, "//") {
		next = "/"
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// maxPresenceChips is how many participants the top bar shows by name; the rest are counted.
// A review audience of hundreds on the view link would otherwise cost every stream a list of
// hundreds on every join.
const maxPresenceChips = 12

// presenceViews turns the room's participants into what the top bar shows; self is the viewing
// tab. Past maxPresenceChips it keeps the viewing tab, the leader and the editors (whose focus the
// page outlines) before viewers, in the room's order, and counts the others in more.
func presenceViews(ps []live.Presence, self string) (views []templates.PresenceView, more int) {
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
