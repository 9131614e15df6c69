package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// paidDesign is one table of orders with a sparse index of the unpaid ones: an order carries
// unpaid_since until it is paid. Order o1 of customer c1 is unpaid.
const paidDesign = `{"name": "Orders",
	"access_patterns": [{"number": 1, "description": "Mark an order paid", "type": "write", "peak_rps": 20, "avg_rps": 5}],
	"tables": [{"name": "Orders", "partition_key": {"name": "customer", "type": "S"}, "sort_key": {"name": "order_id", "type": "S"},
		"attributes": [{"name": "status", "type": "S"}, {"name": "unpaid_since", "type": "S"}],
		"gsis": [{"name": "UnpaidOrders", "partition_key": [{"name": "unpaid_since", "type": "S"}], "projection": {"type": "KEYS_ONLY"}, "sparse": true}],
		"items": [
			{"id": "i1", "item": {"customer": {"S": "c1"}, "order_id": {"S": "o1"}, "status": {"S": "PLACED"}, "unpaid_since": {"S": "2026-11-20"}}},
			{"id": "i2", "item": {"customer": {"S": "c1"}, "order_id": {"S": "o2"}, "status": {"S": "PAID"}}},
			{"id": "i3", "item": {"customer": {"S": "c2"}, "order_id": {"S": "o3"}, "status": {"S": "PLACED"}, "unpaid_since": {"S": "2026-11-24"}}}]}]}`

// A facilitator maps "mark an order paid" with the write builder: an UpdateItem whose key is given
// one field per key attribute (half a key is answered in the room's words, DynamoDB's message
// beneath), a SET of the status and a REMOVE of the sparse index's key built from the clause
// form, and a condition that the order exists. The result shows the order before and after,
// leaving the unpaid index, and 1 + 1 write units.
func TestBrowser_markAnOrderPaidWithTheWriteBuilder(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, paidDesign)
	const pid = "ap1"
	card := "#" + elemID("map", pid)
	field := func(name string) string { return "#" + elemID("opf", pid, "0", name) }
	key := func(name string) string { return "#" + elemID("opkey", pid, "0", name) }

	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken+"/mapping?open="+pid, "Ada")
	do(t, ada, "add an operation",
		chromedp.Click(chromedp.CSS(card+" [data-testid=add-operation]")),
		chromedp.WaitVisible(chromedp.CSS(field("op"))),
	)
	choose(t, ada, field("op"), "UpdateItem")
	choose(t, ada, field("table"), "Orders")
	waitUntil(t, ada, "the key fields", `!!document.querySelector("`+key("order_id")+`")`)
	if n := get(t, ada, "count read fields", chromedp.Evaluate[int](`["filter", "projection", "limit", "index"].filter(f => document.getElementById("opf-`+pid+`-0-" + f)).length + `+
		`document.querySelectorAll("input#opf-`+pid+`-0-key_condition, textarea#opf-`+pid+`-0-key_condition").length`)); n != 0 {
		t.Fatalf("an UpdateItem shows %d of the Query's fields", n)
	}

	typeOver(t, ada, key("customer"), "c1")
	waitUntil(t, ada, "the room's words for half a key",
		`(document.querySelector("`+card+` [data-testid=result-hint]") || {}).textContent === "This table's key is customer + order_id; give both."`+
			` && document.querySelectorAll(".htmx-request").length === 0`)
	if msg := textOf(t, ada, card+" [data-testid=result-error]"); !strings.Contains(msg, "DynamoDB says: ValidationException") {
		t.Fatalf("DynamoDB's own message is not beneath the hint: %q", msg)
	}
	typeOver(t, ada, key("order_id"), "o1")
	waitUntil(t, ada, "the update's result", `!!document.querySelector("`+card+` [data-testid=write-summary]")`)
	if kc := textOf(t, ada, card+" [data-testid=key-condition]"); kc != "Key condition: #customer = :customer AND #order_id = :order_id" {
		t.Fatalf("the key fields wrote %q", kc)
	}

	addClause := func(form, choice, attribute, value string) {
		t.Helper()
		f := card + " [data-testid=" + form + "]"
		do(t, ada, "add "+choice+" "+attribute+" to the "+form,
			chromedp.SetValue(chromedp.CSS(f+" [data-testid="+form+"-choice]"), choice),
			chromedp.SendKeys(chromedp.CSS(f+" [data-testid="+form+"-attribute]"), attribute),
			chromedp.SendKeys(chromedp.CSS(f+" [data-testid="+form+"-value]"), value),
			chromedp.Click(chromedp.CSS(f+" [data-testid="+form+"-add]")),
		)
		waitUntil(t, ada, "the clause to be saved", `document.querySelectorAll(".htmx-request").length === 0 && document.querySelector("`+f+` [data-testid=`+form+`-attribute]").value === ""`)
	}
	addClause("build-update", "SET", "status", "PAID")
	addClause("build-update", "REMOVE", "unpaid_since", "")
	addClause("build-condition", "attribute_exists", "customer", "")

	waitUntil(t, ada, "the update written out", `document.querySelector("`+field("update")+`").value === "SET #status = :status REMOVE #unpaid_since"`)
	if cond := get(t, ada, "read the condition", chromedp.Evaluate[string](`document.querySelector("`+field("condition")+`").value`)); cond != "attribute_exists(#customer)" {
		t.Fatalf("condition = %q", cond)
	}
	result := card + " [data-testid=result]"
	waitUntil(t, ada, "the order to leave the unpaid index",
		`[...document.querySelectorAll("`+result+` [data-testid=index-writes] li")].some(li => li.textContent.startsWith("UnpaidOrders: the item leaves the index (was at unpaid_since = 2026-11-20)"))`)
	summary := textOf(t, ada, result+" [data-testid=write-summary]")
	if !strings.Contains(summary, "write units: 1 (table) + 1 (1 index write) = 2") {
		t.Fatalf("write summary = %q, want 1 + 1 write units", summary)
	}
	if c := textOf(t, ada, result+" [data-testid=write-condition]"); !strings.Contains(c, "holds") {
		t.Fatalf("condition outcome = %q", c)
	}
	rows := get(t, ada, "read the item before and after", chromedp.Evaluate[string](
		`[...document.querySelectorAll("`+result+` [data-testid=write-attribute]")].map(r => r.dataset.attribute + ":" + r.dataset.change).join(" ")`))
	if rows != "customer: order_id: status:changed unpaid_since:removed" {
		t.Fatalf("item before and after = %q", rows)
	}

	// A condition that fails is said plainly, and nothing is written.
	addClause("build-condition", "<>", "status", "PLACED")
	waitUntil(t, ada, "the condition to fail", `!!document.querySelector("`+result+` [data-testid=write-condition][data-condition=fails]")`)
	if c := textOf(t, ada, result+" [data-testid=write-condition]"); !strings.Contains(c, "ConditionalCheckFailed") || !strings.Contains(c, "nothing is written") {
		t.Fatalf("failed condition reads %q", c)
	}
	if !strings.Contains(textOf(t, ada, result+" [data-testid=index-writes]"), "UnpaidOrders: no change") {
		t.Fatal("a failed condition still changes the unpaid index")
	}
	// A clause the builder cannot write is refused on its form, with what was typed kept.
	f := card + " [data-testid=build-update]"
	errs.expectFailedRequest(422, "/mapping/update")
	do(t, ada, "try to SET a key attribute",
		chromedp.SetValue(chromedp.CSS(f+" [data-testid=build-update-choice]"), "SET"),
		chromedp.SendKeys(chromedp.CSS(f+" [data-testid=build-update-attribute]"), "customer"),
		chromedp.SendKeys(chromedp.CSS(f+" [data-testid=build-update-value]"), "c9"),
		chromedp.Click(chromedp.CSS(f+" [data-testid=build-update-add]")),
	)
	waitUntil(t, ada, "the refusal on the form", `(document.querySelector("`+f+` [data-testid=build-update-error]") || {}).textContent === `+
		`"Not saved: customer is part of Orders's key: an update cannot change it; put the item under its new key and delete the old one instead."`+
		` && document.querySelector("`+f+` [data-testid=build-update-attribute]").value === "customer"`)
	if w := get(t, ada, "measure the page", chromedp.Evaluate[bool](`document.documentElement.scrollWidth <= window.innerWidth`)); !w {
		t.Fatal("the Mapping step scrolls sideways")
	}
	errs.check(t, "Ada")
}
