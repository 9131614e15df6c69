package live

import (
	"bufio"
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// streamWait bounds how long a test waits for something a stream should do at once.
const streamWait = 30 * time.Second

// Fan-out to one design's streams holds that design's lock only: while one room is busy (its
// lock held), a change to another design still reaches that design's stream.
func TestLive_busyDesignDoesNotHoldAnother(t *testing.T) {
	t.Parallel()
	h := New(0, nil)
	busy, leaveBusy, err := h.subscribe("busy", "192.0.2.1", storage.ViewAccess, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer leaveBusy()
	other, leaveOther, err := h.subscribe("other", "192.0.2.2", storage.EditAccess, nil)
	if err != nil {
		t.Fatal(err)
	}
	busy.room.mu.Lock()
	defer busy.room.mu.Unlock()
	done := make(chan struct{})
	go func() {
		h.Publish("other", storage.Revision{Revision: 2, Author: "Ada"})
		_, leave, err := h.subscribe("other", "192.0.2.3", storage.EditAccess, &Presence{Tab: "tab0000000000000001", Name: "Bo"})
		if err == nil {
			leave()
		}
		leaveOther()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(streamWait):
		t.Fatal("a change to one design waited for another design's fan-out")
	}
	if ev := <-other.events; ev.name != "change" || ev.id != 2 {
		t.Fatalf("the other design's stream got %+v", ev)
	}
}

// A change queued after one the stream had to drop is never written on its own: the client would
// apply revision 8 without ever hearing of 7. One reload covering both is written instead.
func TestLive_changeAfterADroppedOneIsAReload(t *testing.T) {
	t.Parallel()
	sub := &subscriber{events: make(chan *event, 4), reloadDue: make(chan struct{}, 1)}
	var out bytes.Buffer
	st := &Stream{sub: sub, w: bufio.NewWriter(&out), last: 6}
	sub.fallBehind(7) // revision 7 found the queue full
	sub.events <- changeEvent(storage.Revision{Revision: 8, Author: "Ada", Paths: []designer.Path{"name"}})
	st.change(<-sub.events)
	st.reload() // the pending signal: already answered, so nothing more is written
	st.w.Flush()
	got := out.String()
	if strings.Contains(got, "event: change") || strings.Count(got, "event: reload") != 1 || !strings.Contains(got, "id: 8\n") {
		t.Fatalf("the stream wrote %q, want one reload at revision 8 and no change", got)
	}
	if st.last != 8 {
		t.Fatalf("last written %d, want 8", st.last)
	}
}

// A stream the hub ended after queueing its "gone" event writes that event before it ends, also
// when its loop sees the end first (both are ready when the loop was held up for linkGoneGrace).
func TestLive_endedStreamSaysGoneFirst(t *testing.T) {
	t.Parallel()
	for range 50 {
		sub := &subscriber{events: make(chan *event, 4), gone: make(chan struct{})}
		var out bytes.Buffer
		client, server := net.Pipe()
		client.Close()
		st := &Stream{sub: sub, w: bufio.NewWriter(&out), conn: server}
		sub.events <- &event{name: "gone", data: []byte(linkGoneMessage)}
		sub.drop()
		st.run(nil, nil, time.Hour)
		if !strings.Contains(out.String(), "event: gone") {
			t.Fatalf("the ended stream wrote %q, want the gone event saying why", out.String())
		}
	}
}

// Once a stream has told its client to reload, the next change is written as a change, also when
// it is queued before the stream has taken the reload signal (already answered) off its channel:
// the run loop may take the signal first, and must not fold the change into a second reload.
func TestLive_changeAfterTheReloadIsAChange(t *testing.T) {
	t.Parallel()
	sub := &subscriber{events: make(chan *event, 4), reloadDue: make(chan struct{}, 1)}
	var out bytes.Buffer
	st := &Stream{sub: sub, w: bufio.NewWriter(&out), last: 6}
	sub.fallBehind(7)
	sub.events <- changeEvent(storage.Revision{Revision: 8, Author: "Ada", Paths: []designer.Path{"name"}})
	st.change(<-sub.events) // the reload, to 8
	sub.events <- changeEvent(storage.Revision{Revision: 9, Author: "Ada", Paths: []designer.Path{"name"}})
	<-sub.reloadDue
	st.reload()
	if len(sub.events) != 1 {
		t.Fatalf("the answered reload signal took the change of revision 9 off the queue")
	}
	st.change(<-sub.events)
	st.w.Flush()
	got := out.String()
	if strings.Count(got, "event: reload") != 1 || !strings.Contains(got, "id: 8\nevent: reload") || !strings.Contains(got, "id: 9\nevent: change") {
		t.Fatalf("the stream wrote %q, want a reload at revision 8, then the change of revision 9", got)
	}
}
