package server

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// Alice is typing a table's new name when Bob changes the table's partition-key type: her page
// draws the table's form again around her field, and she keeps the field, its focus and what she
// typed, and finishes the name.
func TestBrowser_typingSurvivesARedrawOfItsForm(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}]}`)
	page := base + "/d/" + created.EditToken + "/tables?table=Orders"
	alice, _ := newBrowser(t)
	openAndJoin(t, alice, page, "Alice")
	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, page, "Bob")
	name := "#" + elemID("tf", "Orders", "name")
	do(t, alice, "start typing a new name", chromedp.Focus(chromedp.CSS(name)), chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`), chromedp.KeyEvent("Purch"))
	before := currentRevision(t, base, created.EditToken)
	// Bob changes the partition key's type: Alice's page redraws the table form around her field.
	do(t, bob, "change the key type", chromedp.SetValue(chromedp.CSS("#"+elemID("tf", "Orders", "pk_type")), "N"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#`+elemID("tf", "Orders", "pk_type")+`").dispatchEvent(new Event("change", {bubbles: true}))`))
	waitUntil(t, alice, "Alice's page to catch up past "+before, `document.documentElement.dataset.shownRevision !== "`+before+`" && !document.querySelector(".htmx-request")`)
	waitUntil(t, alice, "Alice's form to show the number type", `document.querySelector("#`+elemID("tf", "Orders", "pk_type")+` option[selected]").value === "N"`)
	do(t, alice, "finish typing", chromedp.KeyEvent("ases"))
	got := get(t, alice, "read the field", chromedp.Evaluate[string](`(document.activeElement && document.activeElement.id) + "=" + document.querySelector("`+name+`").value`))
	if got != elemID("tf", "Orders", "name")+"=Purchases" {
		t.Errorf("after Bob's change Alice's field reads %q", got)
	}
}
