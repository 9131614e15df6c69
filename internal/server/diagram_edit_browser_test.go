package server

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// entityBoxX reads where the entity diagram draws node's box (its left edge, in the diagram's
// units); NaN when it is not drawn.
const entityBoxX = `(function(id){var n=document.querySelector('#entity-diagram [data-node="'+id+'"] > rect');return n?parseFloat(n.getAttribute("x")):NaN})`

// Alice drags the Department box of the entity diagram to the right: a ghost follows her pointer,
// the drop saves the box where she left it, and Bob's diagram, open in another browser, draws it
// there within a second. A click on a box still opens it.
func TestDiagramEdit_dragMovesTheBoxForEveryone(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	edit := base + "/d/" + createExample(t, base, "hr-employees").EditToken
	alice, aliceErrs := newBrowser(t)
	do(t, alice, "a window as wide as a laptop's", chromedp.EmulateViewport(1400, 900))
	openAndJoin(t, alice, edit+"/entities", "Alice")
	bob, bobErrs := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/entities", "Bob")
	const node = "entity:Department"
	do(t, alice, "see the Department box", chromedp.WaitVisible(chromedp.CSS(`#entity-diagram [data-node="`+node+`"]`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#entity-diagram [data-node="`+node+`"]').scrollIntoView({block: "center"})`))
	if hint := textOf(t, alice, "[data-testid=entity-diagram-hint]"); hint == "" {
		t.Fatal("the entity diagram says nothing of how to move its boxes")
	}
	before := get(t, alice, "read the box", chromedp.Evaluate[float64](entityBoxX+`("`+node+`")`))
	at := get(t, alice, "find the box on the screen", chromedp.Evaluate[[]float64](`(function(){var r=document.querySelector('#entity-diagram [data-node="`+node+`"] > rect').getBoundingClientRect();var s=document.querySelector("#entity-diagram svg");return [r.left+r.width/2, r.top+12, s.getBoundingClientRect().width/s.viewBox.baseVal.width]})()`))
	x, y, scale := at[0], at[1], at[2]
	const moved = 160.0 // screen pixels
	do(t, alice, "press on the box", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	for i := 1; i <= 4; i++ {
		do(t, alice, "drag", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x+moved*float64(i)/4, y, chromedp.ButtonLeft))
	}
	if ghosts := get(t, alice, "look for the ghost", chromedp.Evaluate[int](`document.querySelectorAll("#entity-diagram .dg-ghost").length`)); ghosts != 1 {
		t.Errorf("while dragging there are %d ghosts of the box, want 1", ghosts)
	}
	do(t, alice, "drop the box", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x+moved, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	want := before + math.Round(moved/scale)
	waitUntil(t, alice, "Alice's diagram to draw the box where she dropped it", `Math.abs(`+entityBoxX+`("`+node+`") - `+strconv.FormatFloat(want, 'f', 1, 64)+`) <= 1.5 && !document.querySelector("#entity-diagram .dg-ghost")`)
	if loc := get(t, alice, "read the address", chromedp.Location()); loc != edit+"/entities" {
		t.Errorf("the drag opened %s; a drag must not open the box", loc)
	}
	waitUntil(t, bob, "Bob's diagram to draw the box where Alice dropped it", `Math.abs(`+entityBoxX+`("`+node+`") - `+strconv.FormatFloat(want, 'f', 1, 64)+`) <= 1.5`)
	aliceErrs.check(t, "Alice's tab")
	bobErrs.check(t, "Bob's tab")
}

// A box moved by the keyboard: focused, the arrow keys move it (Shift for bigger steps), the moves
// are saved as one change, the box keeps the focus, Enter opens it, and Undo puts it back.
func TestDiagramEdit_keyboardMoveAndUndo(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	edit := base + "/d/" + createExample(t, base, "hr-employees").EditToken
	ctx, errs := newBrowser(t)
	do(t, ctx, "a small window", chromedp.EmulateViewport(1024, 768))
	openAndJoin(t, ctx, edit+"/entities", "Ada")
	const node = "entity:Employee"
	do(t, ctx, "focus the Employee box", chromedp.WaitVisible(chromedp.CSS(`#entity-diagram [data-node="`+node+`"]`)),
		chromedp.Focus(chromedp.CSS(`#entity-diagram [data-node="`+node+`"]`)))
	before := get(t, ctx, "read the box", chromedp.Evaluate[float64](entityBoxX+`("`+node+`")`))
	// The three presses are dispatched in one go, as a person's quick presses arrive: sent one by
	// one through the DevTools protocol on a loaded machine they can come more than the page's
	// 400 ms apart, and then are rightly saved as two changes, of which Undo takes back the last.
	// Real key presses reach the same handler in the model map's test (Shift+ArrowRight) and below
	// (Enter).
	do(t, ctx, "move it right twice and down once with Shift", chromedp.Evaluate[chromedp.Void](`(function(){
		var box = document.activeElement;
		[["ArrowRight", false], ["ArrowRight", false], ["ArrowDown", true]].forEach(function(k){
			box.dispatchEvent(new KeyboardEvent("keydown", {key: k[0], shiftKey: k[1], bubbles: true, cancelable: true}));
		});
	})()`))
	want := strconv.FormatFloat(before+20, 'f', 1, 64)
	waitUntil(t, ctx, "the box to be saved 20 units to the right, still focused",
		`Math.abs(`+entityBoxX+`("`+node+`") - `+want+`) <= 0.2 && !document.querySelector('#entity-diagram [data-node="`+node+`"]').hasAttribute("transform") && document.activeElement && document.activeElement.dataset.node === "`+node+`"`)
	do(t, ctx, "open it with Enter", chromedp.KeyEvent(kb.Enter))
	waitUntil(t, ctx, "the Employee card to be opened", `location.hash === "#entity-Employee"`)

	do(t, ctx, "open the history", chromedp.Navigate(edit+"/history"), chromedp.WaitVisible(chromedp.CSS("[data-testid=undo-mine]")))
	if got := textOf(t, ctx, "#history"); !strings.Contains(got, "Moved") {
		t.Errorf("the history does not list the move: %q", got)
	}
	do(t, ctx, "undo the move", chromedp.Click(chromedp.CSS("[data-testid=undo-mine]")))
	waitUntil(t, ctx, "the undo to be answered", `!!document.querySelector("[data-testid=history-notice], [data-testid=history-error]")`)
	if e := get(t, ctx, "read the refusal", chromedp.Evaluate[string](`(document.querySelector("[data-testid=history-error]")||{}).textContent||""`)); e != "" {
		t.Errorf("the undo was refused: %s", e)
	}
	do(t, ctx, "back to the entities", chromedp.Navigate(edit+"/entities"), chromedp.WaitVisible(chromedp.CSS(`#entity-diagram [data-node="`+node+`"]`)))
	if after := get(t, ctx, "read the box", chromedp.Evaluate[float64](entityBoxX+`("`+node+`")`)); math.Abs(after-before) > 0.2 {
		t.Errorf("after Undo the box is at x=%.1f, want %.1f where the layout put it", after, before)
	}
	errs.check(t, "the tab")
}

// relationshipRows reads the Entities list's relationships as "from kind to" lines.
const relationshipRows = `Array.from(document.querySelectorAll("#relationships tr[data-testid=relationship]")).map(function(tr){return Array.from(tr.querySelectorAll("td")).slice(0,3).map(function(td){var f=td.querySelector("select,input");return f?f.value:td.textContent.trim()}).join(" ")})`

// From the entity diagram: Add entity goes to the new entity's name; a relationship drawn by
// dragging from Employee's handle to the new entity appears in the Entities list, one to many,
// with its row opened; the keyboard's Connect… draws another.
func TestDiagramEdit_addAnEntityAndDrawARelationship(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	edit := base + "/d/" + createExample(t, base, "hr-employees").EditToken
	ctx, errs := newBrowser(t)
	do(t, ctx, "a window", chromedp.EmulateViewport(1400, 900))
	openAndJoin(t, ctx, edit+"/entities", "Ada")
	do(t, ctx, "add an entity from the diagram",
		chromedp.Click(chromedp.CSS("[data-testid=entity-diagram-add-entity]")))
	waitUntil(t, ctx, "the new entity's name to be focused", `document.activeElement && document.activeElement.id === "new-entity"`)
	do(t, ctx, "name it", chromedp.KeyEvent("Badge"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#entity-diagram [data-node="entity:Badge"]`)))

	do(t, ctx, "bring the diagram into view", chromedp.Evaluate[chromedp.Void](`document.querySelector("#entity-diagram svg").scrollIntoView({block: "center"})`))
	at := get(t, ctx, "find the handle and the target", chromedp.Evaluate[[]float64](`(function(){var h=document.querySelector('#entity-diagram [data-connect-from="Employee"]').getBoundingClientRect();var b=document.querySelector('#entity-diagram [data-node="entity:Badge"] > rect').getBoundingClientRect();return [h.left+h.width/2,h.top+h.height/2,b.left+b.width/2,b.top+b.height/2]})()`))
	do(t, ctx, "press on Employee's handle", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, at[0], at[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		do(t, ctx, "draw", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0]+(at[2]-at[0])*f, at[1]+(at[3]-at[1])*f, chromedp.ButtonLeft))
	}
	if n := get(t, ctx, "look for the line", chromedp.Evaluate[int](`document.querySelectorAll("#entity-diagram .dg-drawing").length`)); n != 1 {
		t.Errorf("while drawing there are %d lines following the pointer, want 1", n)
	}
	do(t, ctx, "drop on Badge", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, at[2], at[3], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	waitUntil(t, ctx, "the relationship to be listed, its row opened", `(`+relationshipRows+`).indexOf("Employee 1:M Badge") >= 0 && !!(document.activeElement && document.activeElement.closest("#relationships tr"))`)
	waitUntil(t, ctx, "the diagram to draw it", `!!document.querySelector('#entity-diagram [data-edge][aria-label*="Employee to Badge"]')`)
	if loc := get(t, ctx, "read the address", chromedp.Location()); loc != edit+"/entities" {
		t.Errorf("drawing the relationship opened %s", loc)
	}

	do(t, ctx, "Connect… Department to Badge by keyboard",
		chromedp.Focus(chromedp.CSS(`#entity-diagram [data-node="entity:Department"]`)),
		chromedp.KeyEvent("c"))
	if s := textOf(t, ctx, "[data-testid=connect-status]"); !strings.Contains(s, "Connect Department to") {
		t.Errorf("Connect… says %q", s)
	}
	do(t, ctx, "choose Badge", chromedp.Focus(chromedp.CSS(`#entity-diagram [data-node="entity:Badge"]`)), chromedp.KeyEvent(kb.Enter))
	waitUntil(t, ctx, "the second relationship to be listed", `(`+relationshipRows+`).indexOf("Department 1:M Badge") >= 0`)
	errs.check(t, "the tab")
}

// mapBoxX reads where the model map draws node's box (its left edge, in the diagram's units); NaN
// when it is not drawn.
const mapBoxX = `(function(id){var n=document.querySelector('#model-map [data-node="'+id+'"] > rect');return n?parseFloat(n.getAttribute("x")):NaN})`

// boxAtJS is a condition: the box of node on the diagram whose x reader is boxX has its left edge
// at x (within a tenth of a unit, what the SVG writes).
func boxAtJS(boxX, node string, x float64) string {
	return `Math.abs(` + boxX + `("` + node + `") - ` + strconv.FormatFloat(x, 'f', 1, 64) + `) <= 0.2`
}

// Alice moves the Department table on the model map by the keyboard; Reset layout appears, and
// pressed by the keyboard it lays the map out again: the box goes back where the layout put it,
// for Alice and for Bob in another browser, and the button goes.
func TestDiagramEdit_resetLayoutRedrawsForEveryone(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	edit := base + "/d/" + createExample(t, base, "hr-employees").EditToken
	alice, aliceErrs := newBrowser(t)
	do(t, alice, "a window as wide as a laptop's", chromedp.EmulateViewport(1400, 900))
	openAndJoin(t, alice, edit+"/tables", "Alice")
	bob, bobErrs := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/tables", "Bob")
	const node = "table:Department"
	const reset = "[data-testid=model-map-reset]"
	do(t, alice, "focus the Department box", chromedp.WaitVisible(chromedp.CSS(`#model-map [data-node="`+node+`"]`)),
		chromedp.Focus(chromedp.CSS(`#model-map [data-node="`+node+`"]`)))
	laidOut := get(t, alice, "read the box", chromedp.Evaluate[float64](mapBoxX+`("`+node+`")`))
	if n := get(t, alice, "look for Reset layout", chromedp.Evaluate[int](`document.querySelectorAll("`+reset+`").length`)); n != 0 {
		t.Errorf("a model map nobody arranged offers Reset layout")
	}
	do(t, alice, "move it 100 units right", chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(chromedp.ModifierShift)),
		chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(chromedp.ModifierShift)))
	waitUntil(t, alice, "Alice's map to draw the box moved, with Reset layout", boxAtJS(mapBoxX, node, laidOut+100)+` && !!document.querySelector("`+reset+`")`)
	waitUntil(t, bob, "Bob's map to draw the box moved", boxAtJS(mapBoxX, node, laidOut+100))

	do(t, alice, "press Reset layout by the keyboard", chromedp.Focus(chromedp.CSS(reset)), chromedp.KeyEvent(kb.Enter))
	waitUntil(t, alice, "Alice's map to be laid out again, without Reset layout", boxAtJS(mapBoxX, node, laidOut)+` && !document.querySelector("`+reset+`")`)
	waitUntil(t, bob, "Bob's map to be laid out again", boxAtJS(mapBoxX, node, laidOut)+` && !document.querySelector("`+reset+`")`)
	if loc := get(t, alice, "read the address", chromedp.Location()); loc != edit+"/tables" {
		t.Errorf("Reset layout left the page for %s", loc)
	}
	aliceErrs.check(t, "Alice's tab")
	bobErrs.check(t, "Bob's tab")
}

// Alice drags the Department table on the model map of the Tables step: a ghost follows her
// pointer, the drop saves the box where she left it, and Bob's model map, open in another browser,
// draws it there; the drag does not open the table.
func TestDiagramEdit_dragATableOnTheModelMapMovesItForEveryone(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	edit := base + "/d/" + createExample(t, base, "hr-employees").EditToken
	alice, aliceErrs := newBrowser(t)
	do(t, alice, "a window as wide as a laptop's", chromedp.EmulateViewport(1400, 900))
	openAndJoin(t, alice, edit+"/tables", "Alice")
	bob, bobErrs := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/tables", "Bob")
	const node = "table:Department"
	do(t, alice, "see the Department table", chromedp.WaitVisible(chromedp.CSS(`#model-map [data-node="`+node+`"]`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#model-map [data-node="`+node+`"]').scrollIntoView({block: "center", inline: "center"})`))
	before := get(t, alice, "read the box", chromedp.Evaluate[float64](mapBoxX+`("`+node+`")`))
	if bobs := get(t, bob, "read Bob's box", chromedp.Evaluate[float64](mapBoxX+`("`+node+`")`)); math.Abs(bobs-before) > 0.2 {
		t.Fatalf("before the drag Bob's box is at x=%.1f, Alice's at %.1f", bobs, before)
	}
	// The box's title line, well inside its left half: the map is wide, and the drag goes left,
	// where the pattern boxes leave room, so the pointer stays on the screen.
	at := get(t, alice, "find the box on the screen", chromedp.Evaluate[[]float64](`(function(){var r=document.querySelector('#model-map [data-node="`+node+`"] > rect').getBoundingClientRect();var s=document.querySelector("#model-map svg");return [r.left+Math.min(40, r.width/3), r.top+12, s.getBoundingClientRect().width/s.viewBox.baseVal.width]})()`))
	x, y, scale := at[0], at[1], at[2]
	const moved = -120.0 // screen pixels
	if x+moved < 10 {
		t.Fatalf("the box is at %.0f px on the screen, too near the edge to drag it %.0f px", x, moved)
	}
	do(t, alice, "press on the box", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	for i := 1; i <= 4; i++ {
		do(t, alice, "drag", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x+moved*float64(i)/4, y, chromedp.ButtonLeft))
	}
	if ghosts := get(t, alice, "look for the ghost", chromedp.Evaluate[int](`document.querySelectorAll("#model-map .dg-ghost").length`)); ghosts != 1 {
		t.Errorf("while dragging there are %d ghosts of the box, want 1", ghosts)
	}
	do(t, alice, "drop the box", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x+moved, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	want := before + math.Round(moved/scale)
	waitUntil(t, alice, "Alice's map to draw the box where she dropped it", `Math.abs(`+mapBoxX+`("`+node+`") - `+strconv.FormatFloat(want, 'f', 1, 64)+`) <= 1.5 && !document.querySelector("#model-map .dg-ghost")`)
	if loc := get(t, alice, "read the address", chromedp.Location()); loc != edit+"/tables" {
		t.Errorf("the drag opened %s; a drag must not open the table", loc)
	}
	waitUntil(t, bob, "Bob's map to draw the box where Alice dropped it", `Math.abs(`+mapBoxX+`("`+node+`") - `+strconv.FormatFloat(want, 'f', 1, 64)+`) <= 1.5`)
	aliceErrs.check(t, "Alice's tab")
	bobErrs.check(t, "Bob's tab")
}
