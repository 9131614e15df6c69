package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"dynaloom/internal/live"
	"dynaloom/internal/storage"
)

// chipList is a page's presence list as htmx leaves it: each element's id and markup.
type chipList []struct{ id, markup string }

func (l chipList) ids() []string {
	out := make([]string, len(l))
	for i, c := range l {
		out[i] = c.id
	}
	return out
}

func presenceNodes(t testing.TB, data string) []*html.Node {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(data), &html.Node{Type: html.ElementNode, Data: "ul", DataAtom: atom.Ul})
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(nodes, func(n *html.Node) bool { return n.Type != html.ElementNode })
}

func nodeAttr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// chip is an element's id and its markup without the out-of-band attribute.
func chip(t testing.TB, n *html.Node) struct{ id, markup string } {
	t.Helper()
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "hx-swap-oob" })
	var b bytes.Buffer
	if err := html.Render(&b, n); err != nil {
		t.Fatal(err)
	}
	return struct{ id, markup string }{nodeAttr(n, "id"), b.String()}
}

// apply does to the list what htmx does with one presence event of a page's stream.
func (l chipList) apply(t testing.TB, ev sseEvent) chipList {
	t.Helper()
	switch ev.name {
	case presenceEventName:
		var out chipList
		for _, n := range presenceNodes(t, ev.data) {
			out = append(out, chip(t, n))
		}
		return out
	case presenceDeltaEventName:
	default:
		t.Fatalf("not a presence event: %s", ev.name)
	}
	at := func(id string) int {
		i := slices.IndexFunc(l, func(c struct{ id, markup string }) bool { return c.id == id })
		if i < 0 {
			t.Fatalf("no element #%s on the page for %s", id, ev.data)
		}
		return i
	}
	for _, n := range presenceNodes(t, ev.data) {
		where := nodeAttr(n, "hx-swap-oob")
		switch {
		case where == "delete":
			l = slices.Delete(l, at(nodeAttr(n, "id")), at(nodeAttr(n, "id"))+1)
		case where == "true":
			l[at(nodeAttr(n, "id"))] = chip(t, n)
		case strings.HasPrefix(where, "beforebegin:#"):
			l = slices.Insert(l, at(strings.TrimPrefix(where, "beforebegin:#")), chip(t, n.FirstChild))
		case where == "beforeend:#presence":
			l = append(l, chip(t, n.FirstChild))
		default:
			t.Fatalf("unexpected out-of-band swap %q in %s", where, ev.data)
		}
	}
	return l
}

// roomStep is one thing that happens in a room: a tab joins, leaves, focuses a field or leads.
type roomStep struct {
	join, leave, focus, lead string
	editor                   bool
}

// Whatever happens in the room, the list a page builds from its stream's presence events is the
// list it would be sent whole: chips in order, the viewing tab, leader and editors kept past the
// cap, and the right count of the others. Past the first list, each event carries only what
// changed: a newcomer past the cap costs a few hundred bytes whatever the room.
func TestPresence_deltasKeepThePageListRight(t *testing.T) {
	t.Parallel()
	h := live.New(0, nil)
	tab := func(i int) string { return fmt.Sprintf("tab%016d", i) }
	var steps []roomStep
	// Viewers join in an order that puts later names first, then a few editors, then people come
	// and go, focus fields and take the lead.
	for i := range 20 {
		steps = append(steps, roomStep{join: tab((i * 7) % 20), editor: i%6 == 5})
	}
	steps = append(steps,
		roomStep{focus: tab(5)}, roomStep{lead: tab(19)}, roomStep{leave: tab(3)}, roomStep{leave: tab(19)},
		roomStep{join: tab(40), editor: true}, roomStep{focus: tab(40)}, roomStep{leave: tab(14)},
	)
	for i := 1; i <= 12; i++ {
		if gone := (i * 7) % 20; gone != 3 && gone != 14 && gone != 19 {
			steps = append(steps, roomStep{leave: tab(gone)})
		}
	}
	leaves := map[string]func(){}
	var self *live.Stream
	write := func() live.PresenceWriter { return pagePresence(t.Context(), tab(0)) }()
	var list chipList
	for n, st := range steps {
		switch {
		case st.join != "":
			i := 0
			fmt.Sscanf(st.join, "tab%d", &i)
			sub, err := h.Subscribe("d", "192.0.2.1", storage.ViewAccess,
				&live.Presence{Tab: st.join, Name: fmt.Sprintf("Person %02d", (20-i)%41), Step: "patterns", Editor: st.editor}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if st.join == tab(0) {
				self = sub
			}
			leaves[st.join] = sub.End
		case st.leave != "":
			leaves[st.leave]()
		case st.focus != "":
			h.Focus("d", st.focus, "ap-x-description")
		case st.lead != "":
			h.Lead("d", st.lead, true)
		}
		if self == nil {
			continue
		}
		people := self.People()
		var out bytes.Buffer
		w := bufio.NewWriter(&out)
		write(w, people)
		w.Flush()
		if out.Len() > 0 {
			ev, err := (&sseClient{r: bufio.NewReader(&out)}).next()
			if err != nil {
				t.Fatal(err)
			}
			list = list.apply(t, ev)
			if ev.name == presenceDeltaEventName && st.join != "" && len(people) > maxPresenceChips+1 && len(ev.data) > 700 {
				t.Errorf("step %d: a join in a room of %d wrote %d bytes: %s", n, len(people), len(ev.data), ev.data)
			}
		}
		var whole bytes.Buffer
		w = bufio.NewWriter(&whole)
		pagePresence(t.Context(), tab(0))(w, people)
		w.Flush()
		ev, err := (&sseClient{r: bufio.NewReader(&whole)}).next()
		if err != nil {
			t.Fatal(err)
		}
		want := chipList(nil).apply(t, ev)
		if !slices.Equal(list, want) {
			t.Fatalf("step %d %+v: the page shows %v, want %v\n%v\n%v", n, st, list.ids(), want.ids(), list, want)
		}
		views, more := presenceViews(people, tab(0))
		if len(views) > maxPresenceChips || len(views)+more != len(people) {
			t.Fatalf("step %d: %d chips and %d more for %d people", n, len(views), more, len(people))
		}
	}
	if len(list) == 0 {
		t.Fatal("the page never showed anyone")
	}
}

// The API stream names the participants when it opens, then who joined, moved and left.
func TestLive_apiPresenceSaysWhoJoinedMovedAndLeft(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	api := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	var first presenceData
	if err := json.Unmarshal([]byte(api.nextNamed(t, "presence").data), &first); err != nil || first.Participants == nil || len(first.Participants) != 0 {
		t.Fatalf("first presence: %+v %v", first, err)
	}
	const tab = "aaaaaaaaaaaaaaaa"
	page := openStream(t, url+"/d/"+created.EditToken+"/events?step=patterns&tab="+tab, "Cookie", participantCookie+"=Ada")
	next := func() presenceData {
		t.Helper()
		var d presenceData
		if err := json.Unmarshal([]byte(api.nextNamed(t, "presence").data), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	joined := next()
	if len(joined.Joined) != 1 || joined.Joined[0].Name != "Ada" || joined.Joined[0].ID == 0 || joined.Participants != nil || joined.Left != nil {
		t.Fatalf("join: %+v", joined)
	}
	a.request("POST", "/d/"+created.EditToken+"/presence", formType, strings.NewReader(form("tab", tab, "focus", "ap-x-description")))
	if moved := next(); len(moved.Moved) != 1 || moved.Moved[0].Focus != "ap-x-description" || moved.Moved[0].ID != joined.Joined[0].ID || moved.Joined != nil {
		t.Fatalf("focus: %+v", moved)
	}
	page.resp.Body.Close()
	deadline := time.Now().Add(streamWait)
	for {
		if left := next(); len(left.Left) == 1 && left.Left[0].ID == joined.Joined[0].ID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no left event")
		}
	}
}
