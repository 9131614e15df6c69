package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Tried as a new user would: Alice watches the Capacity step while Bob raises a pattern's peak RPS
// on the Access patterns step; Alice's figures move without a reload. Then Alice sets a price of
// her region and sees it used; a utilisation out of range is said on its field and moves nothing.
func TestBrowser_capacityFiguresMoveLiveAndPricesCanBeSet(t *testing.T) {
	base := startBrowserApp(t)
	alice, aliceErrs := newBrowser(t)
	resp, err := http.Post(base+"/api/designs", "application/json", strings.NewReader(`{"example": "hr-employees"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created createdDesign
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	edit := base + "/d/" + created.EditToken
	openAndJoin(t, alice, edit+"/capacity", "Alice")
	do(t, alice, "see the figures", chromedp.WaitVisible(chromedp.CSS("[data-testid=capacity-totals]")))

	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/patterns", "Bob")
	const rps = `document.querySelector("[data-testid=capacity-pattern] [data-testid=rps]").textContent.replace(/\s+/g, " ").trim()`
	if got := get(t, alice, "read pattern 1's rates", chromedp.Evaluate[string](rps)); !strings.HasPrefix(got, "30 / 12") {
		t.Fatalf("pattern 1's rates read %q, want 30 / 12", got)
	}

	typeOver(t, bob, "tr[data-number='1'] [id$='-peak_rps']", "3000")
	waitUntil(t, alice, "Bob's peak RPS to reach Alice's Capacity step", rps+`.startsWith("3,000 / 12")`)

	typeOver(t, alice, "#capset-storage_price", "0.5")
	waitUntil(t, alice, "the price to be used", `document.querySelector("[data-testid=capacity-prices]").textContent.includes("$0.5 per GB-month")`)
	aliceErrs.expectFailedRequest(http.StatusUnprocessableEntity, "/capacity/setting")
	typeOver(t, alice, "#capset-target_utilization", "95")
	waitUntil(t, alice, "the refusal on the field", `(document.querySelector("#capset-target_utilization-cell [data-testid=cell-error]") || {}).textContent?.includes("20–90")`)
	if got := get(t, alice, "read the utilisation", chromedp.Evaluate[string](`document.querySelector("[data-testid=capacity-totals]").textContent`)); !strings.Contains(got, "70 %") {
		t.Errorf("a refused utilisation changed the figures: %q", got)
	}
}
