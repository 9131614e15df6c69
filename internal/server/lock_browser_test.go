package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Ada locks the Overview while Bo is typing in it: Bo sees the lock at once on the step in the
// rail and on the page, his fields turn read-only saying why, and the text he was typing is
// refused by name when he leaves the field. When Ada unlocks, the lock goes from Bo's page and
// his next edit saves. With DYNALOOM_SHOTS set to a folder, the step's top as Ada and Bo see it,
// free and locked, is saved there at 1280×720.
func TestBrowser_aLockedStepIsReadOnlyForTheRoomUntilItsHolderUnlocks(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ada, _ := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	edit := base + "/d/" + created.EditToken
	do(t, ada, "open Ada's window at 1280×720", chromedp.EmulateViewport(1280, 720))
	openAndJoin(t, ada, edit, "Ada")
	bo, boErrs := newIsolatedTab(t, ada)
	do(t, bo, "open Bo's window at 1280×720", chromedp.EmulateViewport(1280, 720))
	openAndJoin(t, bo, edit, "Bo")
	waitUntil(t, ada, "Ada to see Bo", `!!document.querySelector("[data-testid=presence-chip][data-name=Bo]")`)

	shot(t, ada, "lock-free")
	const scale = "#field-overview-scale-input"
	do(t, bo, "Bo starts typing the scale",
		chromedp.Focus(chromedp.CSS(scale)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`),
		chromedp.KeyEvent("About 300 people"),
	)
	do(t, ada, "Ada locks the Overview", chromedp.Click(chromedp.CSS("[data-testid=lock-take]")), chromedp.WaitVisible(chromedp.CSS("[data-testid=lock-mine]")))
	if got := textOf(t, ada, "[data-testid=lock-mine]"); !strings.Contains(got, "You hold the lock on Overview") {
		t.Fatalf("Ada's page says %q, want that she holds the lock", got)
	}

	waitUntil(t, bo, "the lock to reach Bo's page, in the rail and on the step",
		`!!document.querySelector("[data-testid=lock-badge-overview]") && !!document.querySelector("[data-testid=lock-held]")`)
	if got := textOf(t, bo, "[data-testid=lock-held]"); !strings.Contains(got, "Overview is locked by Ada") {
		t.Errorf("Bo's page says %q, want who holds the lock", got)
	}
	if got := textOf(t, bo, "[data-testid=lock-badge-overview]"); !strings.Contains(got, "Ada") {
		t.Errorf("the Overview's badge in Bo's rail says %q, want Ada", got)
	}
	waitUntil(t, bo, "Bo's fields to turn read-only, saying why",
		`(f => f.readOnly && f.title === "Overview is locked by Ada; ask Ada to unlock it.")(document.querySelector("#field-overview-notes-input"))`)
	if wide := get(t, bo, "measure Bo's page", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > innerWidth`)); wide {
		t.Errorf("Bo's locked page scrolls sideways at 1280×720")
	}
	shot(t, bo, "lock-held")
	shot(t, ada, "lock-mine")

	// What Bo had typed is refused by name when he leaves the field, and not saved.
	boErrs.expectFailedRequest(http.StatusUnprocessableEntity, "/overview/scale")
	do(t, bo, "Bo leaves the field", chromedp.Focus(chromedp.CSS(scale)), chromedp.KeyEvent(kb.Tab),
		chromedp.WaitVisible(chromedp.CSS("#field-overview-scale [data-testid=field-error]")))
	if got := textOf(t, bo, "#field-overview-scale [data-testid=field-error]"); got != "Not saved: Overview is locked by Ada; ask Ada to unlock it." {
		t.Errorf("Bo's field says %q, want the lock's refusal", got)
	}
	if d, _ := designNow(t, base, created.EditToken); d.Overview.Scale == "About 300 people" {
		t.Fatal("Bo's text was saved under Ada's lock")
	}

	do(t, ada, "Ada unlocks", chromedp.Click(chromedp.CSS("[data-testid=lock-release]")), chromedp.WaitVisible(chromedp.CSS("[data-testid=lock-take]")))
	waitUntil(t, bo, "the lock to go from Bo's page",
		`!document.querySelector("[data-testid=lock-badge-overview]") && !document.querySelector("[data-testid=lock-held]") && !document.querySelector("#field-overview-notes-input").readOnly`)
	typeOver(t, bo, "#field-overview-notes-input", "Bo was here")
	waitUntil(t, bo, "Bo's edit to save", `!document.querySelector("#field-overview-notes [data-testid=field-error]") && document.querySelector("#field-overview-notes-input").defaultValue === "Bo was here"`)
}

// shot saves the top of the tab's page as name.png in DYNALOOM_SHOTS, when that is set.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DYNALOOM_SHOTS")
	if dir == "" {
		return
	}
	do(t, ctx, "scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png := get(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.WriteFile(filepath.Join(dir, name+"-1280x720.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Ada locks the table Employee alone: Bo sees the badge on that table and in the rail, and its
// fields turn read-only saying why, while the table SalaryHistory stays his to edit. With
// DYNALOOM_SHOTS set, Bo's Tables step with the table locked is saved at 1280×720 and 1920×1080.
func TestBrowser_aLockedTableIsReadOnlyAndItsNeighbourIsNot(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	ada, _ := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	tables := base + "/d/" + created.EditToken + "/tables"
	do(t, ada, "open Ada's window at 1280×720", chromedp.EmulateViewport(1280, 720))
	openAndJoin(t, ada, tables, "Ada")
	bo, _ := newIsolatedTab(t, ada)
	do(t, bo, "open Bo's window at 1280×720", chromedp.EmulateViewport(1280, 720))
	openAndJoin(t, bo, tables, "Bo")

	const employee = `[data-section="tables/Employee"]`
	do(t, ada, "Ada locks the table Employee",
		chromedp.Click(chromedp.CSS(employee+" [data-testid=section-lock-take]")),
		chromedp.WaitVisible(chromedp.CSS(employee+" [data-testid=section-lock-release]")))
	waitUntil(t, bo, "the lock to reach Bo's table and rail",
		`!!document.querySelector('`+employee+` [data-testid=section-lock-held]') && !!document.querySelector("[data-testid=section-badge-tables]")`)
	if got := textOf(t, bo, employee+" [data-testid=section-lock-held]"); got != "Ada" {
		t.Errorf("the badge on Bo's table says %q, want Ada", got)
	}
	waitUntil(t, bo, "Bo's fields of the table to turn read-only, saying why",
		`(f => f.readOnly && f.title === "Table Employee is locked by Ada; ask Ada to unlock it.")(document.querySelector("#tf-Employee-purpose"))`)
	if open := get(t, bo, "read the step's lock button", chromedp.Evaluate[bool](`!!document.querySelector("[data-testid=lock-take]") && !document.querySelector("[data-testid=lock-held]")`)); !open {
		t.Errorf("Bo's lock bar says the whole step is locked, want only the table")
	}
	for _, size := range [][2]int64{{1280, 720}, {1920, 1080}} {
		do(t, bo, "size Bo's window", chromedp.EmulateViewport(size[0], size[1]))
		if wide := get(t, bo, "measure Bo's page", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > innerWidth`)); wide {
			t.Errorf("Bo's Tables step with a table locked scrolls sideways at %d×%d", size[0], size[1])
		}
		shotAt(t, bo, "section-lock-held", size, employee)
	}

	do(t, bo, "Bo opens the table SalaryHistory", chromedp.Click(chromedp.CSS("[data-testid=table-tab-t-SalaryHistory]")),
		chromedp.WaitVisible(chromedp.CSS(`[data-section="tables/SalaryHistory"]`)))
	waitUntil(t, bo, "SalaryHistory to show no lock and offer one",
		`!document.querySelector("[data-testid=section-lock-held]") && !!document.querySelector('[data-section="tables/SalaryHistory"] [data-testid=section-lock-take]')`)
	do(t, bo, "Bo opens the table's notes", chromedp.Click(chromedp.CSS(`[data-section="tables/SalaryHistory"] details.notes summary`)))
	typeOver(t, bo, "#tf-SalaryHistory-purpose", "Bo was here")
	waitUntil(t, bo, "Bo's edit of SalaryHistory to save",
		`!document.querySelector("#tf-SalaryHistory-purpose-cell [data-testid=field-error]") && document.querySelector("#tf-SalaryHistory-purpose").defaultValue === "Bo was here"`)
}

// shotAt saves the tab's page, scrolled to the element at css, as name-WxH.png in
// DYNALOOM_SHOTS, when that is set.
func shotAt(t *testing.T, ctx context.Context, name string, size [2]int64, css string) {
	t.Helper()
	dir := os.Getenv("DYNALOOM_SHOTS")
	if dir == "" {
		return
	}
	do(t, ctx, "scroll to "+css, chromedp.Evaluate[chromedp.Void](`document.querySelector('`+css+`').scrollIntoView({block: "start", behavior: "instant"})`))
	png := get(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%dx%d.png", name, size[0], size[1])), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
