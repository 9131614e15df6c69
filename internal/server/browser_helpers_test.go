package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The bounds are generous: CI runs the race detector on a machine shared with other work, where a
// test that takes 20 s alone can take minutes. Only a failing test waits them out.
const (
	// browserTestTimeout bounds a whole browser test, so a hung browser never hangs the suite.
	browserTestTimeout = 3 * time.Minute
	// stepTimeout bounds one step, so a missing element fails with the step's name, not the test's deadline.
	stepTimeout = 30 * time.Second
	// lookTimeout bounds one look at a tab that may be loading another page (a poll in the page
	// ends with it), so that the look is asked again on the page it lands on.
	lookTimeout = 3 * time.Second
)

// chromiumPath finds the browser. CI must have it; elsewhere the test says why it skips.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped under -short, the quick tier; go test without -short (as CI does) runs it")
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI requires Chromium for browser tests: apt-get install chromium")
	}
	t.Skip("browser test skipped: Chromium is not installed (no chromium on PATH, no /usr/bin/chromium); apt-get install chromium to run it")
	return ""
}

// startBrowserApp serves a fresh database on a real port, as the browser needs one.
func startBrowserApp(t *testing.T) string {
	t.Helper()
	app := newTestApp(t)
	ts := httptest.NewServer(app.srv.Handler())
	// Event streams stay open until the hub ends them; Close waits for every connection.
	t.Cleanup(func() {
		app.srv.hub.Shutdown()
		ts.Close()
	})
	return ts.URL
}

// createExample creates a design from the example id through the API of the server at base.
func createExample(t *testing.T, base, id string) createdDesign {
	t.Helper()
	resp, err := http.Post(base+"/api/designs", "application/json", strings.NewReader(`{"example": "`+id+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var created createdDesign
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create the example %s: %d %v", id, resp.StatusCode, err)
	}
	return created
}

// newBrowser opens a tab for one test in the package's shared Chromium, in a browser context of its
// own (no cookies, no storage, no permissions shared with other tests), and returns it with the
// tab's error log.
func newBrowser(t *testing.T) (context.Context, *pageErrors) {
	t.Helper()
	return newBrowserWithin(t, browserTestTimeout)
}

// newBrowserWithin is newBrowser for a test that walks further than most: the tab lives for
// limit, not browserTestTimeout.
func newBrowserWithin(t *testing.T, limit time.Duration) (context.Context, *pageErrors) {
	t.Helper()
	browser := sharedChromium(t)
	errs := &pageErrors{}
	tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext(), chromedp.WithListener(errs.listen))
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("open a tab in the shared Chromium: %v", err)
	}
	// The tab ends with the test or at limit, whichever comes first; the browser goes on.
	ctx, cancel := context.WithTimeout(tab, limit)
	stop := context.AfterFunc(t.Context(), cancel)
	t.Cleanup(func() { stop(); cancel() })
	t.Cleanup(func() { errs.check(t, "first tab") })
	return ctx, errs
}

// chromium is the one browser the package's browser tests share: starting Chromium for each of
// some sixty tests cost more CPU than most of the tests themselves. It is started on first use,
// started again if it died, and closed by TestMain.
var chromium struct {
	mu      sync.Mutex
	ctx     context.Context
	profile string
	stop    func()
}

func sharedChromium(t *testing.T) context.Context {
	t.Helper()
	execPath := chromiumPath(t)
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx
	}
	closeChromiumLocked()
	profile, err := os.MkdirTemp("", "dynaloom-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(browser); err != nil {
		cancelBrowser()
		cancelAlloc()
		os.RemoveAll(profile)
		t.Fatalf("start Chromium (%s): %v", execPath, err)
	}
	chromium.ctx, chromium.profile = browser, profile
	chromium.stop = func() { cancelBrowser(); cancelAlloc() }
	return browser
}

// closeChromiumLocked ends the shared browser, if any, and removes its profile. Chromium's child
// processes can still write to the profile for a moment after it exits, so removal is retried.
func closeChromiumLocked() {
	if chromium.stop == nil {
		return
	}
	chromium.stop()
	for range 50 {
		if err := os.RemoveAll(chromium.profile); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	chromium.ctx, chromium.profile, chromium.stop = nil, "", nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.mu.Lock()
	closeChromiumLocked()
	chromium.mu.Unlock()
	os.Exit(code)
}

// grantClipboard lets origin read and write the clipboard in the tab's browser context, as a person
// who allows it would: headless Chromium asks nobody.
func grantClipboard(t *testing.T, ctx context.Context, origin string) {
	t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission:       &browser.PermissionDescriptor{Name: name},
			Setting:          browser.PermissionSettingGranted,
			Origin:           origin,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID,
		})
		if err != nil {
			t.Fatalf("grant %s: %v", name, err)
		}
	}
}

// newIsolatedTab opens a tab in a new browser context: no cookies, no storage, like another person.
func newIsolatedTab(t *testing.T, browser context.Context) (context.Context, *pageErrors) {
	t.Helper()
	errs := &pageErrors{}
	tab, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext(), chromedp.WithListener(errs.listen))
	t.Cleanup(cancel)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("open a tab in a new browser context: %v", err)
	}
	t.Cleanup(func() { errs.check(t, "isolated tab") })
	return tab, errs
}

// pageErrors records what a page reports as an error: uncaught exceptions, console.error and
// browser log errors, which include Content-Security-Policy violations.
type pageErrors struct {
	mu       sync.Mutex
	errs     []string
	expected []expectedFailure
}

type expectedFailure struct {
	status int
	path   string
}

// expectFailedRequest accepts the browser's "Failed to load resource" line for a request the test
// makes fail on purpose; any other failed request is still an error.
func (p *pageErrors) expectFailedRequest(status int, path string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = append(p.expected, expectedFailure{status, path})
}

// listen runs in chromedp's event loop: it must be quick and run no command.
func (p *pageErrors) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = "uncaught exception: " + d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		msg += fmt.Sprintf(" at %s:%d", d.URL, d.LineNumber+1)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Description != "" {
				parts = append(parts, a.Description)
			} else {
				parts = append(parts, string(a.Value))
			}
		}
		msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
	case *log.EventEntryAdded:
		e := ev.Entry
		if e.Level != log.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("browser log (%s): %s %s", e.Source, e.Text, e.URL)
		p.mu.Lock()
		defer p.mu.Unlock()
		if e.Source == log.EntrySourceNetwork && p.isExpected(e.Text, e.URL) {
			return
		}
		p.errs = append(p.errs, msg)
		return
	default:
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, msg)
}

func (p *pageErrors) isExpected(text, url string) bool {
	for _, e := range p.expected {
		if strings.Contains(text, fmt.Sprintf("status of %d", e.status)) && strings.HasSuffix(url, e.path) {
			return true
		}
	}
	return false
}

func (p *pageErrors) check(t *testing.T, tab string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errs {
		t.Errorf("%s reported an error: %s", tab, e)
	}
}

// do runs steps with a step deadline and fails the test on the first error.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// get runs one action that returns a value, with a step deadline.
func get[T any](t *testing.T, ctx context.Context, what string, action chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

func textOf(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	return strings.TrimSpace(get(t, ctx, "read the text of "+css, chromedp.Text(chromedp.CSS(css))))
}

// waitUntil waits for a JavaScript condition, for states no element query can express.
func waitUntil(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	get(t, ctx, "wait for "+what, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(stepTimeout)))
}

// typeOver replaces an input's text the way a person does (select all, delete, type) and then
// tabs away, so the browser fires the change event that htmx saves on.
func typeOver(t *testing.T, ctx context.Context, css, text string) {
	t.Helper()
	do(t, ctx, "type into "+css,
		chromedp.Focus(chromedp.CSS(css)),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent(text+kb.Tab),
	)
}

// openAndJoin opens a page of a design as someone new and answers the name prompt, then waits for
// the page the prompt returns to: the participant shown and no prompt left.
func openAndJoin(t *testing.T, ctx context.Context, url, person string) {
	t.Helper()
	do(t, ctx, "open "+url+" and join as "+person,
		chromedp.Navigate(url),
		chromedp.SendKeys(chromedp.CSS("[data-testid=participant-name]"), person),
		chromedp.Click(chromedp.CSS("[data-testid=participant-save]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")),
		chromedp.WaitNotPresent(chromedp.CSS("[data-testid=name-prompt]")),
	)
}

var editPath = regexp.MustCompile(`^/d/([A-Za-z0-9_-]{22,})$`)

// createDesign goes through the home page and the name prompt, as a facilitator does, and
// returns the edit URL and its token.
func createDesign(t *testing.T, ctx context.Context, base, design, person string) (editURL, token string) {
	t.Helper()
	do(t, ctx, "create a design from the home page",
		chromedp.Navigate(base+"/"),
		chromedp.SendKeys(chromedp.CSS("[data-testid=new-design-name]"), design),
		chromedp.Click(chromedp.CSS("[data-testid=create-design]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=name-prompt]")),
	)
	editURL = get(t, ctx, "read the workspace URL", chromedp.Location())
	m := editPath.FindStringSubmatch(strings.TrimPrefix(editURL, base))
	if m == nil {
		t.Fatalf("after creating, the browser is at %q, not a workspace /d/<token>", editURL)
	}
	do(t, ctx, "answer the name prompt",
		chromedp.SendKeys(chromedp.CSS("[data-testid=participant-name]"), person),
		chromedp.Click(chromedp.CSS("[data-testid=participant-save]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=participant]")),
		chromedp.WaitNotPresent(chromedp.CSS("[data-testid=name-prompt]")),
	)
	if got := textOf(t, ctx, "[data-testid=participant]"); !strings.Contains(got, person) {
		t.Fatalf("top bar shows %q, want the participant %q", got, person)
	}
	if got := textOf(t, ctx, "[data-testid=design-title]"); got != design {
		t.Fatalf("top bar title is %q, want %q", got, design)
	}
	return editURL, m[1]
}

// openShareDialog opens the share popover and waits until the browser shows it.
func openShareDialog(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, "open the share dialog",
		chromedp.Click(chromedp.CSS("[data-testid=share-button]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=share-dialog]")),
	)
	waitUntil(t, ctx, "the share popover to be open",
		`document.querySelector("[data-testid=share-dialog]").matches(":popover-open")`)
}
