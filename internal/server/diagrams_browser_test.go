package server

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
)

// The entity diagram shows on the Entities step; clicking a box opens its card; an entity added
// in another browser appears in it; the model map's pattern box opens the pattern's Mapping card;
// each diagram downloads as a PNG drawn from its SVG under the page's CSP.
func TestBrowser_diagramsShowOpenTheirElementAndRedrawLive(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	token := createExample(t, base, "hr-employees").EditToken
	edit := base + "/d/" + token
	alice, aliceErrs := newBrowser(t)
	do(t, alice, "a window as wide as a laptop's", chromedp.EmulateViewport(1280, 800))
	openAndJoin(t, alice, edit+"/entities", "Alice")
	do(t, alice, "see the entity diagram", chromedp.WaitVisible(chromedp.CSS(`[data-testid=entity-diagram] [data-node="entity:Employee"]`)))
	if n := get(t, alice, "count boxes", chromedp.Evaluate[int](`document.querySelectorAll("#entity-diagram [data-node]").length`)); n != 6 {
		t.Fatalf("the entity diagram has %d boxes, want HR's 6 entities", n)
	}
	// Legible: the type is drawn at 80 % of its size or more, however narrow the column.
	if scale := get(t, alice, "measure the scale", chromedp.Evaluate[float64](`(function(){var s=document.querySelector("#entity-diagram svg");return s.getBoundingClientRect().width/s.viewBox.baseVal.width})()`)); scale < 0.79 {
		t.Errorf("the entity diagram is drawn at %.2f of its size; its type is too small to read", scale)
	}
	do(t, alice, "click the Department box", chromedp.Click(chromedp.CSS(`#entity-diagram [data-node="entity:Department"]`)))
	waitUntil(t, alice, "the Department card to be opened", `location.hash === "#entity-Department" && (function(){var r=document.getElementById("entity-Department").getBoundingClientRect();return r.top < innerHeight && r.bottom > 0})()`)

	bob, bobErrs := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/entities", "Bob")
	do(t, bob, "add an entity",
		chromedp.SendKeys(chromedp.CSS("[data-testid=new-entity-name]"), "Badge"),
		chromedp.Click(chromedp.CSS("[data-testid=add-entity]")),
		chromedp.WaitVisible(chromedp.CSS(`#entity-diagram [data-node="entity:Badge"]`)),
	)
	waitUntil(t, alice, "Bob's entity to appear in Alice's diagram", `!!document.querySelector('#entity-diagram [data-node="entity:Badge"]')`)

	do(t, alice, "open the Tables step", chromedp.Navigate(edit+"/tables"), chromedp.WaitVisible(chromedp.CSS(`#model-map [data-node="table:Employee"]`)))
	first := get(t, alice, "read pattern 1's box", chromedp.Evaluate[string](`document.querySelector('#model-map [data-node^="pattern:"]').dataset.node`))
	id := strings.TrimPrefix(first, "pattern:")
	do(t, alice, "click pattern 1's box", chromedp.Click(chromedp.CSS(`#model-map [data-node="`+first+`"]`)))
	do(t, alice, "see pattern 1's Mapping card", chromedp.WaitVisible(chromedp.CSS("#map-"+id)))
	if loc := get(t, alice, "read the address", chromedp.Location()); !strings.Contains(loc, "/mapping?open="+id) {
		t.Errorf("pattern 1's box led to %s, not its Mapping card opened", loc)
	}

	do(t, alice, "back to the Tables step", chromedp.Navigate(edit+"/tables"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=model-map-png]`)))
	do(t, alice, "download the model map as PNG", chromedp.Click(chromedp.CSS(`[data-testid=model-map-png]`)))
	waitUntil(t, alice, "the PNG to be made", `document.querySelector("[data-testid=model-map-png]").dataset.pngDone === "1"`)
	aliceErrs.check(t, "Alice's tab")
	bobErrs.check(t, "Bob's tab")
}

// createImported creates a design from the pair of format/testdata/pairs named name, through the
// API of the server at base.
func createImported(t *testing.T, base, name string) createdDesign {
	t.Helper()
	var files []format.File
	for _, doc := range []string{"dynamodb_requirement.md", "dynamodb_data_model.md"} {
		data, err := os.ReadFile(filepath.Join("..", "designer", "format", "testdata", "pairs", name+"-"+doc))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, format.File{Name: doc, Data: data})
	}
	d, _, err := format.Import(files)
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(base+"/api/designs", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var created createdDesign
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create the %s pair: %d %v", name, resp.StatusCode, err)
	}
	return created
}

// labelsOutside lists each text of the page's diagrams, as the browser draws it in its font, that
// leaves the frame, or its box (a box's title and lines, an edge's label), or that is cut short
// with no title giving it whole.
const labelsOutside = `(() => {
	const out = [], inside = (b, r) => b.x >= r.x - 0.5 && b.y >= r.y - 0.5 && b.x + b.width <= r.x + r.width + 0.5 && b.y + b.height <= r.y + r.height + 0.5;
	for (const svg of document.querySelectorAll('.diagram-svg')) {
		const frame = svg.viewBox.baseVal;
		for (const t of svg.querySelectorAll('text')) {
			const b = t.getBBox(), text = t.textContent.trim();
			if (!inside(b, frame)) out.push('"' + text + '" leaves the frame');
			const own = t.parentNode.querySelector(':scope > rect');
			if (own && !inside({x: b.x, y: own.getBBox().y, width: b.width, height: 0}, own.getBBox())) out.push('"' + text + '" is wider than its box');
			const tip = t.querySelector(':scope > title') || (t.getAttribute('font-weight') === 'bold' && t.parentNode.querySelector(':scope > title'));
			if (text.endsWith('…') && !tip) out.push('"' + text + '" is cut with no title');
		}
	}
	return out;
})()`

// TestBrowser_diagramScreenshots draws both diagrams of every example at 1400×900 and 1024×768,
// checking that the page never scrolls sideways; with DYNALOOM_SHOTS set to a folder it saves
// each screenshot there, to be looked at.
func TestBrowser_diagramScreenshots(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	dir := os.Getenv("DYNALOOM_SHOTS")
	if dir == "" {
		t.Log("DYNALOOM_SHOTS is not set: the pages are checked, no screenshot is saved")
	}
	ctx, errs := newBrowser(t)
	joined := false
	// The examples, and the vet clinic pair imported: its relationship labels run long.
	designs := map[string]string{"vetclinic": base + "/d/" + createImported(t, base, "vetclinic").EditToken}
	for _, ex := range designer.Examples() {
		designs[ex.ID] = base + "/d/" + createExample(t, base, ex.ID).EditToken
	}
	for _, id := range slices.Sorted(maps.Keys(designs)) {
		edit := designs[id]
		for _, step := range []string{"entities", "tables"} {
			for _, size := range [][2]int64{{1400, 900}, {1024, 768}} {
				url := edit + "/" + step
				do(t, ctx, "size the window", chromedp.EmulateViewport(size[0], size[1]))
				if !joined {
					openAndJoin(t, ctx, url, "Ada")
					joined = true
				}
				do(t, ctx, "open "+id+" "+step, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(".diagram-svg")))
				if wide := get(t, ctx, "measure the page", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > innerWidth`)); wide {
					t.Errorf("%s %s at %dx%d scrolls the page sideways", id, step, size[0], size[1])
				}
				for _, bad := range get(t, ctx, "measure the labels", chromedp.Evaluate[[]string](labelsOutside)) {
					t.Errorf("%s %s at %dx%d: %s", id, step, size[0], size[1], bad)
				}
				if dir == "" {
					continue
				}
				do(t, ctx, "scroll to the diagram", chromedp.Evaluate[chromedp.Void](`document.querySelector(".diagram").scrollIntoView()`))
				png := get(t, ctx, "screenshot", chromedp.CaptureScreenshot())
				name := id + "-" + step + "-" + strconv.FormatInt(size[0], 10) + "x" + strconv.FormatInt(size[1], 10) + ".png"
				if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	errs.check(t, "the tab")
}
