package templates

import (
	"math"
	"strconv"
)

// Charts are drawn on the server as SVG: the figures come in as numbers with the words people
// read beside them, and the geometry is worked out here, so the components only place what they
// are given. Colours and patterns are classes of app.css (the CSP allows no style attribute); a
// series' colour is told apart by a pattern and a label too, never by colour alone.

// ChartSeries is one kind of figure a stacked bar is made of (reads, writes…), in the order drawn.
// Short is the label written inside a segment wide enough for it.
type ChartSeries struct{ Label, Short string }

// StackedBarsRow is one bar: its label, a value per series (in the series' order), each value as
// people read it, and the total as people read it.
type StackedBarsRow struct {
	Label  string
	Values []float64
	Texts  []string
	Total  string
}

// StackedBars is a horizontal stacked bar chart. With Shares, every bar is its own whole, drawn
// full width: the chart shows what each bar is made of, not how the bars compare.
type StackedBars struct {
	ID, Title, Desc string
	Series          []ChartSeries
	Rows            []StackedBarsRow
	Shares          bool
	TestID          string
}

// LimitPart is one part of a bar against a limit: its share of the limit (1 is all of it) and
// the figure as people read it.
type LimitPart struct {
	Share float64
	Text  string
}

// LimitRow is one thing measured (a table or an index): its parts, in the order of the chart's
// series, and the whole as people read it.
type LimitRow struct {
	Label string
	Parts []LimitPart
	Text  string
}

// LimitBars draws each row as a bar of its parts' shares of one limit, against the limit's line:
// parts of different units that draw on one budget (a partition's 3,000 RCU or 1,000 WCU a
// second, or a mix) each count as their share of it. LimitLabel says what the line is.
type LimitBars struct {
	ID, Title, Desc string
	LimitLabel      string
	Series          []ChartSeries
	Rows            []LimitRow
	TestID          string
}

// The charts' drawing box, in SVG user units: about as wide as the step's column at 1280 pixels,
// so a unit is about a pixel there and the type is as big as the page's.
const (
	chartWidth  = 720
	chartPad    = 4
	labelHeight = 26
	barHeight   = 34
	rowGap      = 18
	totalWidth  = 150 // room at the end of a stacked bar for its total
	limitText   = 200 // room after a limit bar for its figure
	limitTop    = 30  // room above the rows for the limit line's label
)

// seriesClasses is how many colours the palette has (app.css .series-0 …); patterns repeat every
// chartPatterns series, from none.
const (
	seriesClasses = 8
	chartPatterns = 4
)

type chartSegment struct {
	X, Width, Class, Pattern, Title, Label, LabelX string
}

type stackedRowGeometry struct {
	Label, LabelY, BarY, TextY, Total, TotalX string
	Segments                                  []chartSegment
}

type stackedGeometry struct {
	ViewBox, Height string
	Rows            []stackedRowGeometry
}

func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// seriesClass is a series' colour class and, when it has one, the id of its pattern in the chart.
func seriesClass(chartID string, i int) (class, pattern string) {
	class = "series-" + strconv.Itoa(i%seriesClasses)
	if p := i % chartPatterns; p > 0 {
		pattern = "url(#" + chartID + "-pattern-" + strconv.Itoa(p) + ")"
	}
	return class, pattern
}

// fitsLabel reports whether a label of s fits inside a segment of width w (bold 15-unit type).
func fitsLabel(s string, w float64) bool { return s != "" && float64(len([]rune(s)))*9.5+12 <= w }

func (c StackedBars) geometry() stackedGeometry {
	track := float64(chartWidth - 2*chartPad - totalWidth)
	largest := 0.0
	for _, r := range c.Rows {
		largest = max(largest, sum(r.Values))
	}
	rowHeight := labelHeight + barHeight + rowGap
	g := stackedGeometry{}
	for i, r := range c.Rows {
		top := float64(i * rowHeight)
		whole := largest
		if c.Shares {
			whole = sum(r.Values)
		}
		row := stackedRowGeometry{
			Label: r.Label, LabelY: num(top + 19), BarY: num(top + labelHeight),
			TextY: num(top + labelHeight + barHeight/2 + 6), Total: r.Total,
		}
		x := float64(chartPad)
		for j, v := range r.Values {
			if v <= 0 || whole <= 0 || j >= len(c.Series) {
				continue
			}
			w := track * v / whole
			class, pattern := seriesClass(c.ID, j)
			seg := chartSegment{X: num(x), Width: num(w), Class: class, Pattern: pattern, Title: c.Series[j].Label}
			if j < len(r.Texts) {
				seg.Title += ": " + r.Texts[j]
			}
			if fitsLabel(c.Series[j].Short, w) {
				seg.Label, seg.LabelX = c.Series[j].Short, num(x+w/2)
			}
			row.Segments = append(row.Segments, seg)
			x += w
		}
		row.TotalX = num(x + 10)
		g.Rows = append(g.Rows, row)
	}
	height := max(len(c.Rows)*rowHeight-rowGap, barHeight)
	g.ViewBox, g.Height = "0 0 "+strconv.Itoa(chartWidth)+" "+strconv.Itoa(height), strconv.Itoa(height)
	return g
}

func sum(vs []float64) float64 {
	t := 0.0
	for _, v := range vs {
		t += max(v, 0)
	}
	return t
}

type limitRowGeometry struct {
	Label, LabelY, BarY, TextY, Text, TextX string
	Over                                    bool
	Segments                                []chartSegment
}

type limitGeometry struct {
	ViewBox, Height                  string
	LimitX, LineBottom, TrackX, Ends string
	Rows                             []limitRowGeometry
}

// geometry scales every bar on one axis that reaches past the longest bar and past the limit, so
// the line is always drawn.
func (c LimitBars) geometry() limitGeometry {
	track := float64(chartWidth - 2*chartPad - limitText)
	reach := 1.0
	for _, r := range c.Rows {
		reach = max(reach, r.share())
	}
	reach *= 1.1
	x0 := float64(chartPad)
	g := limitGeometry{TrackX: num(x0), LimitX: num(x0 + track/reach), Ends: num(x0 + track)}
	y := float64(limitTop)
	for _, r := range c.Rows {
		row := limitRowGeometry{Label: r.Label, LabelY: num(y + 19), Text: r.Text, Over: r.share() > 1}
		y += labelHeight
		row.BarY, row.TextY = num(y), num(y+barHeight/2+6)
		x := x0
		for j, p := range r.Parts {
			if p.Share <= 0 || j >= len(c.Series) {
				continue
			}
			w := track * p.Share / reach
			class, pattern := seriesClass(c.ID, j)
			seg := chartSegment{X: num(x), Width: num(w), Class: class, Pattern: pattern, Title: c.Series[j].Label + ": " + p.Text}
			if fitsLabel(c.Series[j].Short, w) {
				seg.Label, seg.LabelX = c.Series[j].Short, num(x+w/2)
			}
			row.Segments = append(row.Segments, seg)
			x += w
		}
		row.TextX = num(max(x, x0+track/reach) + 10)
		y += barHeight + rowGap
		g.Rows = append(g.Rows, row)
	}
	g.LineBottom = num(y - rowGap + 4)
	height := int(math.Ceil(y - rowGap + 6))
	g.ViewBox, g.Height = "0 0 "+strconv.Itoa(chartWidth)+" "+strconv.Itoa(height), strconv.Itoa(height)
	return g
}

// share is how much of the limit the row takes, its parts together.
func (r LimitRow) share() float64 {
	t := 0.0
	for _, p := range r.Parts {
		t += max(p.Share, 0)
	}
	return t
}

// maxTableSeries is the most series a chart's table of figures gives a column each. A chart of
// more (one series per access pattern) lists each row's figures that are not zero instead: a
// column per pattern would make the table rows × patterns cells, nearly all empty.
const maxTableSeries = 8

// listsFigures reports whether the chart's table lists each row's figures rather than giving
// each series a column.
func (c StackedBars) listsFigures() bool { return len(c.Series) > maxTableSeries }

// chartFigure is one figure of a row in a listed table: its series and its text.
type chartFigure struct{ Series, Text string }

// figures are the row's figures that are not zero, by series, in the series' order.
func (c StackedBars) figures(r StackedBarsRow) []chartFigure {
	var out []chartFigure
	for j, v := range r.Values {
		if v > 0 && j < len(c.Series) && j < len(r.Texts) {
			out = append(out, chartFigure{Series: c.Series[j].Label, Text: r.Texts[j]})
		}
	}
	return out
}
