package live

import (
	"testing"
	"time"

	"dynaloom/internal/storage"
)

// A holder who leaves, comes back and leaves again keeps the lock for a whole grace after the
// last time they left: the first departure's countdown ended when they came back.
func TestLock_aHolderWhoCameBackKeepsTheLockForAWholeGrace(t *testing.T) {
	t.Parallel()
	const grace = time.Second
	h := New(0, func(step string) string { return "Overview" })
	h.SetLockGrace(grace)
	const ada = "adaadaadaadaadaa"
	join := func() func() {
		t.Helper()
		_, leave, err := h.subscribe("d1", "192.0.2.1", storage.EditAccess, &Presence{Tab: ada, Name: "Ada", Step: "overview"})
		if err != nil {
			t.Fatal(err)
		}
		return leave
	}
	_, stay, err := h.subscribe("d1", "192.0.2.2", storage.EditAccess, &Presence{Tab: "bobobobobobobobo", Name: "Bo", Step: "overview"})
	if err != nil {
		t.Fatal(err)
	}
	defer stay()
	leave := join()
	if err := h.TakeLock("d1", ada, Lock{Step: "overview"}, false); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	leave()
	time.Sleep(grace / 20)
	leave = join()
	time.Sleep(grace * 7 / 10)
	leave()
	// The first departure's grace ends now; the second's not before 1.7 graces from the start.
	time.Sleep(time.Until(start.Add(grace * 13 / 10)))
	if got := h.Locks("d1"); len(got) != 1 {
		t.Fatalf("%s after Ada first left, and %s after she left again, the locks are %+v; want hers kept",
			time.Since(start).Round(time.Millisecond), grace*6/10, got)
	}
	for deadline := time.Now().Add(streamWait); len(h.Locks("d1")) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the lock outlived its holder's leaving by far more than the grace")
		}
	}
}
