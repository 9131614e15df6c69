package server

import (
	"dynaloom/internal/live"

	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The projector (a view link in Present mode) follows the room without joining it: no one sees it
// as a participant, and it is told where the leader is — the page, the card, the scroll position —
// when the leader moves and at once when it connects.
func TestLive_projectorFollowsTheLeaderWithoutJoining(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	const ada, projector = "aaaaaaaaaaaaaaaa", "pppppppppppppppp"
	leader := openStream(t, url+"/d/"+created.EditToken+"/events?step=mapping&rev=1&tab="+ada, "Cookie", participantCookie+"=Ada")
	leader.nextNamed(t, "presence")
	screen := openStream(t, url+"/d/"+created.ViewToken+"/events?step=overview&rev=1&present=1&tab="+projector)
	if ev := screen.nextNamed(t, "presence"); !strings.Contains(ev.data, `data-name="Ada"`) || strings.Count(ev.data, "<li") != 1 {
		t.Fatalf("the projector should see Ada and no chip of its own: %s", ev.data)
	}
	var present presenceData
	api := openStream(t, url+"/api/designs/"+created.ViewToken+"/events")
	if err := json.Unmarshal([]byte(api.nextNamed(t, "presence").data), &present); err != nil {
		t.Fatal(err)
	}
	if len(present.Participants) != 1 || present.Participants[0].Name != "Ada" {
		t.Fatalf("participants with the projector open: %+v, want Ada alone (no Guest)", present.Participants)
	}

	post := func(path string, kv ...string) int {
		t.Helper()
		return a.request(http.MethodPost, "/d/"+created.EditToken+path, formType, strings.NewReader(form(kv...))).Code
	}
	if code := post("/lead", "tab", ada, "on", "true"); code != http.StatusNoContent {
		t.Fatalf("lead: %d", code)
	}
	follow := func(s *sseClient) live.LeadView {
		t.Helper()
		var v live.LeadView
		if err := json.Unmarshal([]byte(s.nextNamed(t, "follow").data), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := follow(screen); v != (live.LeadView{Step: "mapping"}) {
		t.Fatalf("on lead the projector is told %+v, want the mapping step", v)
	}
	want := live.LeadView{Step: "mapping", View: "/mapping?open=ap12", Focus: "map-ap12", Top: "map-ap11"}
	if code := post("/view", "tab", ada, "view", want.View, "focus", want.Focus, "top", want.Top); code != http.StatusNoContent {
		t.Fatalf("view: %d", code)
	}
	if v := follow(screen); v != want {
		t.Fatalf("the projector is told %+v, want %+v", v, want)
	}
	// A projector that connects (or reconnects after following to the step) lands there at once.
	again := openStream(t, url+"/d/"+created.ViewToken+"/events?step=mapping&rev=1&present=1&tab="+projector)
	if v := follow(again); v != want {
		t.Fatalf("a projector connecting is told %+v, want %+v", v, want)
	}

	for _, bad := range [][]string{
		{"view", "/nosuch"}, {"view", "https://elsewhere.example/mapping"}, {"view", "/mapping?open=%zz"},
		{"view", "/mapping", "focus", `x"><b>`}, {"view", "/mapping", "top", strings.Repeat("x", 201)},
	} {
		if code := post("/view", append([]string{"tab", ada}, bad...)...); code != http.StatusBadRequest {
			t.Errorf("view %q: %d, want 400", bad, code)
		}
	}
	if code := post("/view", "tab", projector, "view", "/tables"); code != http.StatusBadRequest {
		t.Errorf("the projector's tab is no participant, yet its view answered %d", code)
	}
	if code := a.request(http.MethodPost, "/d/"+created.ViewToken+"/view", formType, strings.NewReader(form("tab", ada, "view", "/tables"))).Code; code != http.StatusForbidden {
		t.Errorf("a view link leading: %d, want 403", code)
	}
}

// The lead outlives the moment its room is empty: the facilitator alone with a projector moves to
// another step, both pages close their streams before they open the next ones, and the room still
// follows her afterwards.
func TestLive_theLeadOutlivesAnEmptyRoom(t *testing.T) {
	t.Parallel()
	a, url := startLiveServer(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	const ada, projector = "aaaaaaaaaaaaaaaa", "pppppppppppppppp"
	first := openStream(t, url+"/d/"+created.EditToken+"/events?step=patterns&tab="+ada, "Cookie", participantCookie+"=Ada")
	first.nextNamed(t, "presence")
	if code := a.request(http.MethodPost, "/d/"+created.EditToken+"/lead", formType, strings.NewReader(form("tab", ada, "on", "true"))).Code; code != http.StatusNoContent {
		t.Fatalf("lead: %d", code)
	}
	first.resp.Body.Close()
	for deadline := time.Now().Add(streamWait); a.srv.hub.Connections() > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the stream never closed")
		}
	}
	openStream(t, url+"/d/"+created.EditToken+"/events?step=tables&tab="+ada, "Cookie", participantCookie+"=Ada")
	screen := openStream(t, url+"/d/"+created.ViewToken+"/events?step=patterns&present=1&tab="+projector)
	var v live.LeadView
	if err := json.Unmarshal([]byte(screen.nextNamed(t, "follow").data), &v); err != nil || v.Step != "tables" {
		t.Fatalf("after an empty moment the projector is told %+v (%v), want Ada's tables step", v, err)
	}
}
