package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Tried as a new user would: Alice watches the Capacity step while Bob raises a pattern's peak RPS
// and then its average on the Access patterns step; Alice's figures, the hot-partition chart and
// the cost chart (its bars and its table of figures) move without a reload. Then Alice sets a price of
// her region and sees it used; a utilisation out of range is said on its field and moves nothing.
func TestBrowser_capacityFiguresMoveLiveAndPricesCanBeSet(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	alice, aliceErrs := newBrowser(t)
	created := createExample(t, base, "hr-employees")
	edit := base + "/d/" + created.EditToken
	openAndJoin(t, alice, edit+"/capacity", "Alice")
	do(t, alice, "see the figures", chromedp.WaitVisible(chromedp.CSS("[data-testid=capacity-totals]")))

	bob, _ := newIsolatedTab(t, alice)
	openAndJoin(t, bob, edit+"/patterns", "Bob")
	const rps = `document.querySelector("[data-testid=capacity-pattern] [data-testid=rps]").textContent.replace(/\s+/g, " ").trim()`
	if got := get(t, alice, "read pattern 1's rates", chromedp.Evaluate[string](rps)); !strings.HasPrefix(got, "30 / 12") {
		t.Fatalf("pattern 1's rates read %q, want 30 / 12", got)
	}

	chartsBefore := get(t, alice, "read the charts' Employee rows", chromedp.Evaluate[[]float64](chartEmployeeFigures))
	if len(chartsBefore) != 4 || chartsBefore[0] <= 0 || chartsBefore[1] <= 0 || chartsBefore[2] <= 0 || chartsBefore[3] <= 0 {
		t.Fatalf("the charts' Employee rows read %v, want its reads in dollars, the reads' share of its cost bar, and its busiest key's RCU/s, all above 0", chartsBefore)
	}

	typeOver(t, bob, "tr[data-number='1'] [id$='-peak_rps']", "3000")
	waitUntil(t, alice, "Bob's peak RPS to reach Alice's Capacity step", rps+`.startsWith("3,000 / 12")`)
	// Pattern 1 reads one employee by emp_no, as pattern 2 does: a hundred times its peak makes
	// the busiest emp_no value read many times as much a second.
	waitUntil(t, alice, "the hot-partition chart to redraw Employee's busiest key for Bob's peak", `(function(){var f=`+chartEmployeeFigures+`;return f.length===4&&f[2]>=10*`+jsNum(chartsBefore[2])+`})()`)
	// On demand, a month is billed for the average rate: Bob raises pattern 1's average a hundred
	// times too, and Employee's reads cost many times as much, taking most of its bar.
	typeOver(t, bob, "tr[data-number='1'] [id$='-avg_rps']", "1200")
	waitUntil(t, alice, "Bob's average RPS to reach Alice's Capacity step", rps+`.startsWith("3,000 / 1,200")`)
	waitUntil(t, alice, "the cost chart to redraw Employee's row for Bob's average", `(function(){var f=`+chartEmployeeFigures+`;return f.length===4&&f[0]>=10*`+
		jsNum(chartsBefore[0])+`&&f[1]>=`+jsNum(chartsBefore[1])+`+0.3})()`)

	typeOver(t, alice, "#capset-storage_price", "0.5")
	waitUntil(t, alice, "the price to be used", `document.querySelector("[data-testid=capacity-prices]").textContent.includes("$0.5 per GB-month")`)
	aliceErrs.expectFailedRequest(http.StatusUnprocessableEntity, "/capacity/setting")
	typeOver(t, alice, "#capset-target_utilization", "95")
	waitUntil(t, alice, "the refusal on the field", `(document.querySelector("#capset-target_utilization-cell [data-testid=cell-error]") || {}).textContent?.includes("20–90")`)
	if got := get(t, alice, "read the utilisation", chromedp.Evaluate[string](`document.querySelector("[data-testid=capacity-totals]").textContent`)); !strings.Contains(got, "70 %") {
		t.Errorf("a refused utilisation changed the figures: %q", got)
	}
}

// chartEmployeeFigures reads the Capacity step's charts for the Employee table: the reads' monthly
// cost in the cost chart's table of figures (its text alternative), the share of the reads in the
// width of the row's bar, and the busiest key value's RCU/s in the hot-partition chart's figures,
// then the row's whole bar width; empty when a row is missing.
const chartEmployeeFigures = `(function(){
	var num = function(s){ return parseFloat(String(s).replace(/[$,]/g, "")); };
	var row = function(chart){ return Array.from(document.querySelectorAll("#" + chart + " [data-testid=chart-data] tbody tr")).find(function(tr){ return tr.querySelector("th").textContent.trim() === "Employee"; }); };
	var bar = Array.from(document.querySelectorAll("#cost-chart [data-testid=chart-row]")).find(function(g){ return g.querySelector(".chart-label").textContent.trim() === "Employee"; });
	var cost = row("cost-chart"), hot = row("hot-chart");
	if (!cost || !hot || !bar) return [];
	var reads = 0, all = 0;
	bar.querySelectorAll("[data-testid=chart-segment] > rect:not(.chart-overlay)").forEach(function(r){
		var w = parseFloat(r.getAttribute("width")) || 0;
		all += w;
		if (r.classList.contains("series-0")) reads += w;
	});
	return [num(cost.querySelector("td").textContent), all > 0 ? reads / all : 0, num(hot.querySelector("td").textContent), all];
})()`

// jsNum writes a figure for a JavaScript condition.
func jsNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
