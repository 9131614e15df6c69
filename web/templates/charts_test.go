package templates

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"golang.org/x/net/html"
)

func renderNode(t *testing.T, c templ.Component) *html.Node {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	n, err := html.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// all finds the elements under n for which match holds, in document order.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && match(c) {
			out = append(out, c)
		}
		out = append(out, all(c, match)...)
	}
	return out
}

func byTestID(n *html.Node, id string) []*html.Node {
	return all(n, func(e *html.Node) bool { return attr(e, "data-testid") == id })
}

func tagged(n *html.Node, tag string) []*html.Node {
	return all(n, func(e *html.Node) bool { return e.Data == tag })
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return f
}

// segmentWidths is the width of each segment of each bar of a rendered chart.
func segmentWidths(t *testing.T, chart *html.Node) [][]float64 {
	var out [][]float64
	for _, row := range byTestID(chart, "chart-row") {
		var ws []float64
		for _, seg := range byTestID(row, "chart-segment") {
			ws = append(ws, number(t, attr(tagged(seg, "rect")[0], "width")))
		}
		out = append(out, ws)
	}
	return out
}

var costSeries = []ChartSeries{{"Reads", "reads"}, {"Writes", "writes"}, {"Index writes", "index"}, {"Storage", "storage"}}

func TestStackedBars_barsAreAsLongAsTheirTotalsAndSegmentsAsTheirShares(t *testing.T) {
	c := StackedBars{ID: "cost", Title: "Monthly cost", Desc: "Cost per table", Series: costSeries, Rows: []StackedBarsRow{
		{Label: "Orders", Values: []float64{30, 10, 0, 0}, Texts: []string{"$30.00", "$10.00", "$0.00", "$0.00"}, Total: "$40.00"},
		{Label: "Orders · GSI1", Values: []float64{5, 0, 10, 5}, Texts: []string{"$5.00", "$0.00", "$10.00", "$5.00"}, Total: "$20.00"},
	}}
	doc := renderNode(t, StackedBarsView(c))
	ws := segmentWidths(t, doc)
	track := float64(chartWidth - 2*chartPad - totalWidth)
	if len(ws) != 2 || len(ws[0]) != 2 || len(ws[1]) != 3 {
		t.Fatalf("segments per bar = %v, want 2 (no zero segment) and 3", ws)
	}
	if ws[0][0] != 421.5 || ws[0][1] != 140.5 || ws[0][0]+ws[0][1] != track {
		t.Errorf("the largest bar's segments = %v, want 421.5 and 140.5 (3:1 of the whole track %v)", ws[0], track)
	}
	if got := ws[1][0] + ws[1][1] + ws[1][2]; got < track/2-0.2 || got > track/2+0.2 {
		t.Errorf("a bar of half the largest total is %v long, want %v", got, track/2)
	}
	titles := tagged(byTestID(doc, "chart-segment")[1], "title")
	if len(titles) != 1 || text(titles[0]) != "Writes: $10.00" {
		t.Errorf("second segment's title = %v, want the series and its figure", titles)
	}
	if got := text(byTestID(doc, "chart-total")[1]); got != "$20.00" {
		t.Errorf("second total = %q", got)
	}
	// A segment too narrow for its label is drawn without it; the legend and the title say it.
	labels := all(doc, func(n *html.Node) bool { return attr(n, "class") == "chart-in-bar" })
	var words []string
	for _, l := range labels {
		words = append(words, text(l))
	}
	if strings.Join(words, ",") != "reads,writes,reads,index" {
		t.Errorf("labels inside bars = %v, want reads,writes,reads,index (the 70-unit storage segment is too narrow for its word)", words)
	}
}

func TestStackedBars_hasAnAccessibleNameAndTheFiguresAsATable(t *testing.T) {
	c := StackedBars{ID: "cost", Title: "Monthly cost by table", Desc: "Reads, writes, index writes and storage", Series: costSeries,
		Rows: []StackedBarsRow{{Label: "Orders", Values: []float64{1, 2, 3, 4}, Texts: []string{"$1", "$2", "$3", "$4"}, Total: "$10"}}}
	doc := renderNode(t, StackedBarsView(c))
	svg := byTestID(doc, "chart-svg")[0]
	if attr(svg, "role") != "img" {
		t.Errorf("role = %q", attr(svg, "role"))
	}
	for _, id := range strings.Fields(attr(svg, "aria-labelledby")) {
		named := all(doc, func(n *html.Node) bool { return attr(n, "id") == id })
		if len(named) != 1 || text(named[0]) == "" {
			t.Errorf("aria-labelledby names %q, which is not one element with words", id)
		}
	}
	if got := attr(svg, "aria-labelledby"); got != "cost-title cost-desc" {
		t.Errorf("aria-labelledby = %q", got)
	}
	table := byTestID(doc, "chart-data")[0]
	var cells []string
	for _, td := range tagged(table, "td") {
		cells = append(cells, text(td))
	}
	if strings.Join(cells, " ") != "$1 $2 $3 $4 $10" {
		t.Errorf("data table cells = %v", cells)
	}
	if got := len(tagged(tagged(table, "thead")[0], "th")); got != 6 {
		t.Errorf("data table has %d headings, want the row's and 4 series and the total", got)
	}
	// Series after the first carry a pattern of the chart's own, defined in it.
	for _, p := range []string{"cost-pattern-1", "cost-pattern-2", "cost-pattern-3"} {
		if len(all(doc, func(n *html.Node) bool { return n.Data == "pattern" && attr(n, "id") == p })) != 1 {
			t.Errorf("pattern %s is not defined once", p)
		}
	}
	overlays := all(svg, func(n *html.Node) bool { return attr(n, "class") == "chart-overlay" })
	if len(overlays) != 3 || attr(overlays[0], "fill") != "url(#cost-pattern-1)" {
		t.Errorf("overlays = %d, first fill %q", len(overlays), attr(overlays[0], "fill"))
	}
}

func TestStackedBars_sharesDrawEveryBarWhole(t *testing.T) {
	c := StackedBars{ID: "load", Series: []ChartSeries{{"#1", "#1"}, {"#2", "#2"}}, Shares: true, Rows: []StackedBarsRow{
		{Label: "Orders reads", Values: []float64{1, 3}, Total: "4 RCU/s"},
		{Label: "Orders writes", Values: []float64{100, 100}, Total: "200 WCU/s"},
		{Label: "Idle", Values: []float64{0, 0}, Total: "0"},
	}}
	ws := segmentWidths(t, renderNode(t, StackedBarsView(c)))
	track := float64(chartWidth - 2*chartPad - totalWidth)
	if len(ws) != 3 || ws[0][0] != 140.5 || ws[0][1] != 421.5 || ws[1][0] != track/2 || len(ws[2]) != 0 {
		t.Errorf("widths = %v, want 1:3 and 1:1 of the whole track and nothing for a bar of nothing", ws)
	}
}

func TestCharts_userTextIsTextNeverMarkup(t *testing.T) {
	evil := `<script>alert(1)</script>`
	var b bytes.Buffer
	_ = StackedBarsView(StackedBars{ID: "x", Title: evil, Series: []ChartSeries{{evil, evil}}, Rows: []StackedBarsRow{{Label: evil, Values: []float64{1}, Texts: []string{evil}, Total: evil}}}).Render(context.Background(), &b)
	_ = LimitBarsView(LimitBars{ID: "y", Title: evil, LimitLabel: evil, Series: []ChartSeries{{evil, evil}}, Rows: []LimitRow{{Label: evil, Parts: []LimitPart{{Share: 1, Text: evil}}, Text: evil}}}).Render(context.Background(), &b)
	if strings.Contains(b.String(), "<script") {
		t.Fatal("a label became markup")
	}
}

var hotSeries = []ChartSeries{{"Reads", "reads"}, {"Writes", "writes"}}

func hotKeys(rows ...LimitRow) LimitBars {
	return LimitBars{ID: "hot", Title: "Hottest key value", Desc: "d", LimitLabel: "limit per partition", Series: hotSeries, Rows: rows}
}

// limitBars is, per bar, the widths of its segments and whether it is marked over its limit, and
// where the limit line is.
func limitBars(t *testing.T, doc *html.Node) (widths [][]float64, over []bool, line float64) {
	for _, row := range byTestID(doc, "chart-row") {
		var ws []float64
		for _, seg := range byTestID(row, "chart-segment") {
			ws = append(ws, number(t, attr(tagged(seg, "rect")[0], "width")))
		}
		widths = append(widths, ws)
		over = append(over, strings.Contains(attr(row, "class"), "over"))
	}
	return widths, over, number(t, attr(byTestID(doc, "limit-line")[0], "x1"))
}

func near(a, b float64) bool { return a > b-0.15 && a < b+0.15 }

func TestLimitBars_partsAreTheirSharesOfOneLimit(t *testing.T) {
	doc := renderNode(t, LimitBarsView(hotKeys(
		LimitRow{Label: "Orders", Parts: []LimitPart{{Share: 0.5, Text: "1,500 RCU/s"}, {Share: 0.25, Text: "250 WCU/s"}}, Text: "75 %"},
		LimitRow{Label: "Orders · GSI1", Parts: []LimitPart{{Share: 0, Text: "0"}, {Share: 0.1, Text: "100 WCU/s"}}, Text: "10 %"},
	)))
	ws, over, line := limitBars(t, doc)
	track := float64(chartWidth - 2*chartPad - limitText)
	x0 := float64(chartPad)
	// Under the limit the axis reaches 110 % of it.
	if !near(line, x0+track/1.1) {
		t.Errorf("limit line at %v, want %v", line, x0+track/1.1)
	}
	full := line - x0
	if len(ws) != 2 || len(ws[0]) != 2 || len(ws[1]) != 1 ||
		!near(ws[0][0], full/2) || !near(ws[0][1], full/4) || !near(ws[1][0], full/10) {
		t.Errorf("widths = %v, want a half and a quarter of the limit's %v, then a tenth alone", ws, full)
	}
	if over[0] || over[1] {
		t.Errorf("a bar under its limit is marked over: %v", over)
	}
	if got := text(byTestID(doc, "chart-total")[0]); got != "75 %" {
		t.Errorf("first bar's figure = %q", got)
	}
	cells := tagged(byTestID(doc, "chart-data")[0], "td")
	if len(cells) != 6 || text(cells[0]) != "1,500 RCU/s" || text(cells[5]) != "10 %" {
		t.Errorf("data table cells = %d", len(cells))
	}
}

func TestLimitBars_aBarOverItsLimitReachesPastTheLineAndIsMarked(t *testing.T) {
	doc := renderNode(t, LimitBarsView(hotKeys(
		LimitRow{Label: "Events", Parts: []LimitPart{{Share: 0.1, Text: "300 RCU/s"}, {Share: 1.9, Text: "1,900 WCU/s"}}, Text: "200 %"},
		LimitRow{Label: "Quiet", Parts: []LimitPart{{Share: 0.5, Text: "1,500 RCU/s"}}, Text: "50 %"},
	)))
	ws, over, line := limitBars(t, doc)
	x0 := float64(chartPad)
	if !over[0] || over[1] {
		t.Errorf("over = %v, want only the first", over)
	}
	if bar := ws[0][0] + ws[0][1]; x0+bar <= line || !near(bar, 2*(line-x0)) {
		t.Errorf("the bar over its limit (%v) is not twice the limit's length (%v)", bar, line-x0)
	}
	if !near(ws[1][0], (line-x0)/2) {
		t.Errorf("the bar of half the limit (%v) is not half the limit's length (%v)", ws[1][0], line-x0)
	}
}
