package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"dynaloom/internal/designer"
)

// Say it once: what the overview, a paste or an aggregate decision already says is added in one
// click, as one change that one undo takes back.

// designNow reads a design and its revision through the API, as a script would.
func designNow(t *testing.T, base, token string) (designer.Design, int64) {
	t.Helper()
	resp, err := http.Get(base + "/api/designs/" + token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	var rev struct{ Revision int64 }
	if err := json.Unmarshal(raw, &rev); err != nil {
		t.Fatal(err)
	}
	d, err := designer.ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return d, rev.Revision
}

// undoMine presses "Undo my last change" on the history page.
func undoMine(t *testing.T, ctx context.Context, base, token string, rev int64) {
	t.Helper()
	do(t, ctx, "undo on the history page",
		chromedp.Navigate(base+"/d/"+token+"/history"),
		chromedp.Click(chromedp.CSS("[data-testid=undo-mine]")),
	)
	waitUntil(t, ctx, "the undo's revision", fmt.Sprintf(`(document.querySelector("[data-testid=revision]") || {}).textContent === "%d"`, rev+1))
}

func TestBrowser_keyEntitiesBecomeEntitiesInOneClick(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop"}`)
	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken, "Ada")
	if got := textOf(t, ada, "[data-testid=key-entities-offer]"); !strings.Contains(got, "Write the key entities above") {
		t.Fatalf("with no list written the offer says %q", got)
	}
	typeOver(t, ada, "#field-overview-key_entities-input", "Customer (1:M) Orders, Order (1:M) OrderLines (with price), Product")
	waitUntil(t, ada, "the offer naming four entities", `document.querySelectorAll("[data-testid=offer-name]").length === 4`)
	names := get(t, ada, "read the offered names", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("[data-testid=offer-name]")).map(e => e.value)`))
	if strings.Join(names, ",") != "Customer,Order,OrderLine,Product" {
		t.Fatalf("offered %v", names)
	}
	_, before := designNow(t, base, created.EditToken)
	do(t, ada, "untick Product and add the rest",
		chromedp.Click(chromedp.CSS(`[data-testid=offer-name][value=Product]`)),
		chromedp.Click(chromedp.CSS("[data-testid=add-key-entities]")),
	)
	waitUntil(t, ada, "the offer left with Product", `document.querySelectorAll("[data-testid=offer-name]").length === 1 &&
		document.querySelector("[data-testid=add-key-entities]").textContent.trim() === "Add 1 entity"`)
	d, rev := designNow(t, base, created.EditToken)
	if rev != before+1 || len(d.Entities) != 3 || len(d.Relationships) != 2 || d.Relationships[1].From != "Order" || d.Relationships[1].To != "OrderLine" {
		t.Fatalf("revision %d (was %d), entities %v, relationships %v", rev, before, d.Entities, d.Relationships)
	}
	do(t, ada, "open the Entities step", chromedp.Navigate(base+"/d/"+created.EditToken+"/entities"))
	if n := get(t, ada, "count entity cards", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=entity]").length`)); n != 3 {
		t.Fatalf("the Entities step shows %d entities, want 3", n)
	}
	undoMine(t, ada, base, created.EditToken, rev)
	if d, _ := designNow(t, base, created.EditToken); len(d.Entities)+len(d.Relationships) != 0 {
		t.Fatalf("after one undo: %d entities, %d relationships", len(d.Entities), len(d.Relationships))
	}
	errs.check(t, "Ada's tab")
}

// bulkPasteText is 4 entities with 17 attributes, 3 relationships, and the 15 access patterns of a
// shop in the requirement template's columns, with one line that cannot be read.
func bulkPasteText() string {
	var sb strings.Builder
	sb.WriteString("Entity\tAttribute\tType\n")
	for _, row := range []string{"Customer\tcustomer_id\tS", "Customer\temail\tS", "Customer\tname\tS", "Customer\tcreated_at\tS",
		"Order\torder_id\tS", "Order\tcustomer_id\tS", "Order\tstatus\tS", "Order\ttotal\tN", "Order\tplaced_at\tS",
		"OrderLine\torder_id\tS", "OrderLine\tline_no\tN", "OrderLine\tproduct_id\tS", "OrderLine\tqty\tN",
		"Product\tproduct_id\tS", "Product\ttitle\tS", "Product\tprice\tN", "Product\tstock\tN"} {
		sb.WriteString(row + "\n")
	}
	sb.WriteString("\n| From | Kind | To | Average | Maximum |\n|---|---|---|---|---|\n")
	sb.WriteString("| Customer | 1:M | Order | 4 | 200 |\n| Order | 1:M | OrderLine | 3 | 50 |\n| Product | 1:M | OrderLine | 40 | 5000 |\n")
	sb.WriteString("\n| Pattern # | Description | RPS (Peak and Average) | Type | Entities | Status |\n|---|---|---|---|---|---|\n")
	for i := 1; i <= 15; i++ {
		typ := "Read"
		if i%3 == 0 {
			typ = "Write"
		}
		fmt.Fprintf(&sb, "| %d | Shop pattern %d | %d peak / %d avg | %s | Order, Customer | ⏳ |\n", i, i, i*20, i*5, typ)
	}
	sb.WriteString("| 16 | Count everything | lots | Read | Order | ⏳ |\n")
	return sb.String()
}

// A facilitator pastes a shop's entities, relationships and 15 access patterns on the Access
// patterns step: the preview names what it will add and the line it cannot read, one click adds
// it all as one revision, and one undo takes it all back. The test counts the actions.
func TestBrowser_bulkPasteFifteenPatternsWithAPreview(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop"}`)
	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken, "Ada")
	_, before := designNow(t, base, created.EditToken)

	actions := 0
	act := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		actions++
		do(t, ada, what, steps...)
	}
	act("open the Access patterns step", chromedp.Click(chromedp.CSS(`a[href$="/patterns"]`)), chromedp.WaitVisible(chromedp.CSS("[data-testid=patterns]")))
	act("open the paste box", chromedp.Click(chromedp.CSS("[data-testid=bulk-paste] summary")), chromedp.WaitVisible(chromedp.CSS("[data-testid=bulk-paste-text]")))
	act("click into the box", chromedp.Click(chromedp.CSS("[data-testid=bulk-paste-text]")))
	act("paste", chromedp.SetValue(chromedp.CSS("[data-testid=bulk-paste-text]"), bulkPasteText()))
	act("preview", chromedp.Click(chromedp.CSS("[data-testid=bulk-preview]")), chromedp.WaitVisible(chromedp.CSS("[data-testid=bulk-preview-result]")))

	preview := textOf(t, ada, "[data-testid=bulk-preview-result]")
	for _, want := range []string{"4 new entities", "Customer (new): customer_id (S), email (S), name (S), created_at (S)",
		"3 relationships", "Product 1:M OrderLine (average 40, maximum 5000)", "15 access patterns",
		"15. Shop pattern 15 — write, 300 peak RPS, 75 average RPS, Order, Customer",
		"Not read (1)", "Line 43: peak rps:", "| 16 | Count everything | lots |"} {
		if !strings.Contains(preview, want) {
			t.Errorf("the preview does not say %q:\n%s", want, preview)
		}
	}
	if _, rev := designNow(t, base, created.EditToken); rev != before {
		t.Fatalf("the preview changed the design: revision %d, was %d", rev, before)
	}

	act("add all of it", chromedp.Click(chromedp.CSS("[data-testid=bulk-add]")))
	waitUntil(t, ada, "15 pattern rows", `document.querySelectorAll("#patterns-body tr").length === 15`)
	t.Logf("actions to enter 15 access patterns (with 4 entities, 17 attributes and 3 relationships) by bulk paste: %d", actions)
	if actions > 6 {
		t.Errorf("%d actions, want at most 6", actions)
	}
	d, rev := designNow(t, base, created.EditToken)
	if rev != before+1 || len(d.Patterns) != 15 || len(d.Entities) != 4 || len(d.Relationships) != 3 {
		t.Fatalf("revision %d (was %d): %d patterns, %d entities, %d relationships", rev, before, len(d.Patterns), len(d.Entities), len(d.Relationships))
	}
	if p := d.Patterns[14]; p.Type != designer.Write || *p.PeakRPS != 300 || *p.AvgRPS != 75 || p.Status != designer.StatusOpen || len(p.Entities) != 2 {
		t.Errorf("pattern 15 = %+v", p)
	}

	undoMine(t, ada, base, created.EditToken, rev)
	if d, _ := designNow(t, base, created.EditToken); len(d.Patterns)+len(d.Entities)+len(d.Relationships) != 0 {
		t.Fatalf("after one undo: %d patterns, %d entities, %d relationships", len(d.Patterns), len(d.Entities), len(d.Relationships))
	}
	errs.check(t, "Ada's tab")
}

// A paste that reads nothing says why, in its box, and changes nothing; pasted text never becomes
// markup.
func TestBrowser_bulkPasteThatReadsNothingSaysWhy(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop"}`)
	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken+"/entities", "Ada")
	_, before := designNow(t, base, created.EditToken)
	do(t, ada, "paste a list with no header and preview it",
		chromedp.Click(chromedp.CSS("[data-testid=bulk-paste] summary")),
		chromedp.SetValue(chromedp.CSS("[data-testid=bulk-paste-text]"), "Customer <b>bold</b>\tOrder\n"),
		chromedp.Click(chromedp.CSS("[data-testid=bulk-preview]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=bulk-problem]")),
	)
	if got := textOf(t, ada, "[data-testid=bulk-problem]"); !strings.Contains(got, "Line 1: not a header row") || !strings.Contains(got, "<b>bold</b>") {
		t.Errorf("the problem reads %q", got)
	}
	if n := get(t, ada, "look for markup", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=bulk-paste] b").length`)); n != 0 {
		t.Errorf("the pasted text became markup")
	}
	if n := get(t, ada, "look for the add button", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=bulk-add]").length`)); n != 0 {
		t.Errorf("an add button is offered for a paste that adds nothing")
	}
	if _, rev := designNow(t, base, created.EditToken); rev != before {
		t.Fatalf("the paste changed the design: revision %d, was %d", rev, before)
	}
	errs.check(t, "Ada's tab")
}

// An item-collection decision shows the table it would add, with why, and one click adds it with
// its keys, SK taxonomy and the two entities' attributes; one undo takes it back.
func TestBrowser_anAggregateDecisionScaffoldsItsTable(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "entities": [
		{"name": "Customer", "attributes": [{"name": "customer_id", "type": "S"}, {"name": "email", "type": "S"}]},
		{"name": "Order", "attributes": [{"name": "order_id", "type": "S"}, {"name": "total", "type": "N"}]}],
		"aggregates": [{"entity_a": "Customer", "entity_b": "Order", "correlation_pct": 70}]}`)
	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken+"/aggregates", "Ada")
	if got := textOf(t, ada, "[data-testid=scaffold]"); !strings.Contains(got, "Choose a decision") {
		t.Fatalf("with no decision the card says %q", got)
	}
	choose(t, ada, "#aggf-ag1-decision", designer.ItemCollection)
	waitUntil(t, ada, "the scaffold offered", `!!document.querySelector("[data-testid=scaffold-summary]")`)
	do(t, ada, "open the scaffold", chromedp.Click(chromedp.CSS("[data-testid=scaffold-summary]")), chromedp.WaitVisible(chromedp.CSS("[data-testid=scaffold-add]")))
	shown := textOf(t, ada, "[data-testid=scaffold]")
	for _, want := range []string{"Table Customers (new), key customer_id (S) + sk (S)", "Entity type Order: PK {customer_id}, SK ORDER#{order_id}",
		"Attributes: customer_id (S), email (S), order_id (S), total (N)",
		"Table Customers: named for the aggregate, Customer + Order, in the plural", "SK PROFILE for the Customer item: the parent's own item in its collection"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the scaffold does not say %q:\n%s", want, shown)
		}
	}
	_, before := designNow(t, base, created.EditToken)
	do(t, ada, "add the table", chromedp.Click(chromedp.CSS("[data-testid=scaffold-add]")))
	waitForPath(t, ada, "the Tables step", "/tables")
	waitUntil(t, ada, "the new table's tab", `location.search === "?table=Customers"`)
	do(t, ada, "see the table", chromedp.WaitVisible(chromedp.CSS("[data-testid=table]")))
	d, rev := designNow(t, base, created.EditToken)
	if rev != before+1 || len(d.Tables) != 1 || len(d.Tables[0].EntityTypes) != 2 || len(d.Tables[0].Attributes) != 5 {
		t.Fatalf("revision %d (was %d): tables %+v", rev, before, d.Tables)
	}
	undoMine(t, ada, base, created.EditToken, rev)
	if d, _ := designNow(t, base, created.EditToken); len(d.Tables) != 0 {
		t.Fatalf("after one undo: %d tables", len(d.Tables))
	}
	errs.check(t, "Ada's tab")
}

// Adding a table attribute offers the entities' attributes: choosing one brings its type. Adding an
// entity type offers the entities.
func TestBrowser_tableAttributesAreOfferedFromTheEntities(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop", "entities": [
		{"name": "Order", "attributes": [{"name": "order_id", "type": "S"}, {"name": "total", "type": "N"}, {"name": "paid", "type": "BOOL"}]}],
		"tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}]}`)
	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken+"/tables", "Ada")
	waitUntil(t, ada, "the new-attribute input with its list", `(document.querySelector("[data-testid=new-table-attribute]") || {}).list != null`)
	offered := get(t, ada, "read the offered attributes", chromedp.Evaluate[[]string](
		`Array.from(document.querySelector("[data-testid=new-table-attribute]").list.options).map(o => o.value + " " + o.textContent)`))
	if strings.Join(offered, "|") != "total Order · N|paid Order · BOOL" {
		t.Fatalf("offered %q; want the entity's attributes the table does not declare, with their types", offered)
	}
	// Choosing from the list is, to the page, the input taking the option's value.
	do(t, ada, "choose total from the list",
		chromedp.Focus(chromedp.CSS("[data-testid=new-table-attribute]")),
		chromedp.Evaluate[chromedp.Void](`(() => { const i = document.querySelector("[data-testid=new-table-attribute]");
			i.value = "total"; i.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertReplacementText"})) })()`),
	)
	if typ := get(t, ada, "read the type", chromedp.Evaluate[string](`document.querySelector("[data-testid=new-table-attribute-type]").value`)); typ != "N" {
		t.Fatalf("choosing total set the type to %q, want N", typ)
	}
	do(t, ada, "add it", chromedp.Click(chromedp.CSS(`[data-testid=new-table-attribute] ~ button`)), chromedp.WaitVisible(chromedp.CSS(`input[value="total"]`)))
	waitUntil(t, ada, "paid alone offered after adding total",
		`Array.from((document.querySelector("[data-testid=new-table-attribute]") || {list: {options: []}}).list.options).map(o => o.value).join(" ") === "paid"`)
	d, _ := designNow(t, base, created.EditToken)
	if a, _, ok := d.Tables[0].AttributeByName("total"); !ok || a.Type != designer.N {
		t.Fatalf("table attributes %v, want total of type N", d.Tables[0].Attributes)
	}
	entities := get(t, ada, "read the offered entities", chromedp.Evaluate[[]string](
		`Array.from(document.querySelector("[data-testid=new-entity-type]").list.options).map(o => o.value)`))
	if strings.Join(entities, ",") != "Order" {
		t.Fatalf("entity types offered %v, want Order", entities)
	}

	// The rest of the entity's attributes, declared in one click.
	if got := textOf(t, ada, "[data-testid=declare-entity]"); got != "Order — paid (BOOL)" {
		t.Fatalf("the entity offered says %q, want what it adds", got)
	}
	_, before := designNow(t, base, created.EditToken)
	do(t, ada, "declare the rest of Order's attributes", chromedp.Click(chromedp.CSS("[data-testid=declare-entity-attributes]")),
		chromedp.WaitVisible(chromedp.CSS(`input[value="paid"]`)))
	d, rev := designNow(t, base, created.EditToken)
	if a, _, ok := d.Tables[0].AttributeByName("paid"); !ok || a.Type != designer.BOOL || rev != before+1 {
		t.Fatalf("revision %d (was %d), table attributes %v, want paid of type BOOL", rev, before, d.Tables[0].Attributes)
	}
	if n := get(t, ada, "look for the offer", chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=declare-entity]").length`)); n != 0 {
		t.Errorf("with every attribute declared, an entity is still offered")
	}
	errs.check(t, "Ada's tab")
}

// A live refresh of the step while someone has pasted rows leaves their box as it is: the text and
// its preview stay, though the step around it is drawn again.
func TestBrowser_aPasteSurvivesOthersEdits(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, `{"name": "Shop"}`)
	ada, errs := newBrowser(t)
	openAndJoin(t, ada, base+"/d/"+created.EditToken+"/entities", "Ada")
	text := "Entity\tAttribute\tType\nCustomer\tcustomer_id\tS\n"
	do(t, ada, "paste and preview",
		chromedp.Click(chromedp.CSS("[data-testid=bulk-paste] summary")),
		chromedp.SetValue(chromedp.CSS("[data-testid=bulk-paste-text]"), text),
		chromedp.Click(chromedp.CSS("[data-testid=bulk-preview]")),
		chromedp.WaitVisible(chromedp.CSS("[data-testid=bulk-preview-result]")),
	)
	resp, err := http.Post(base+"/api/designs/"+created.EditToken+"/changes", "application/json",
		strings.NewReader(`{"kind": "add_entity", "change": {"name": "Invoice"}}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("Bob's change: %v %v", resp, err)
	}
	resp.Body.Close()
	waitUntil(t, ada, "Bob's entity on Ada's page", `document.querySelectorAll("[data-testid=entity]").length === 1`)
	kept := get(t, ada, "read the box", chromedp.Evaluate[bool](`document.querySelector("[data-testid=bulk-paste]").open &&
		document.querySelector("[data-testid=bulk-paste-text]").value === `+jsString(text)+` && !!document.querySelector("[data-testid=bulk-preview-result]")`))
	if !kept {
		t.Fatalf("the refresh emptied Ada's paste box")
	}
	errs.check(t, "Ada's tab")
}
