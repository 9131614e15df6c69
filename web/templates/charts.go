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

// LimitBar is one figure against its limit: Text says both as people read them.
type LimitBar struct {
	Name         string
	Value, Limit float64
	Text         string
}

// LimitRow is one thing measured (a table or an index) and its bars.
type LimitRow struct {
	Label string
	Bars  []LimitBar
}

// LimitBars draws each bar as its share of its own limit, so bars of different limits (3,000 RCU,
// 1,000 WCU) share one axis whose line at 100 % is every bar's limit. LimitLabel says what the
// line is.
type LimitBars struct {
	ID, Title, Desc string
	LimitLabel      string
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
	limitName   = 76  // room before a limit bar for its name
	limitText   = 250 // room after a limit bar for its figures
	limitBarH   = 26
	limitTop    = 30 // room above the rows for the limit line's label
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

type limitBarGeometry struct {
	Name, Y, TextY, Width, TextX, Text, Class, Title string
}

type limitRowGeometry struct {
	Label, LabelY string
	Bars          []limitBarGeometry
}

type limitGeometry struct {
	ViewBox, Height                  string
	LimitX, LineBottom, TrackX, Ends string
	Rows                             []limitRowGeometry
}

// geometry scales every bar as its share of its limit on one axis that reaches past the largest
// share and past the limit, so the line is always drawn.
func (c LimitBars) geometry() limitGeometry {
	track := float64(chartWidth - 2*chartPad - limitName - limitText)
	reach := 1.0
	for _, r := range c.Rows {
		for _, b := range r.Bars {
			if b.Limit > 0 {
				reach = max(reach, b.Value/b.Limit)
			}
		}
	}
	reach *= 1.1
	x0 := float64(chartPad + limitName)
	g := limitGeometry{TrackX: num(x0), LimitX: num(x0 + track/reach), Ends: num(x0 + track)}
	y := float64(limitTop)
	for _, r := range c.Rows {
		row := limitRowGeometry{Label: r.Label, LabelY: num(y + 19)}
		y += labelHeight
		for _, b := range r.Bars {
			share := 0.0
			if b.Limit > 0 {
				share = max(b.Value, 0) / b.Limit
			}
			w := track * share / reach
			bar := limitBarGeometry{
				Name: b.Name, Y: num(y), TextY: num(y + limitBarH/2 + 6), Width: num(w),
				TextX: num(x0 + max(w, track/reach) + 10), Text: b.Text, Class: "limit-bar", Title: b.Name + ": " + b.Text,
			}
			if share > 1 {
				bar.Class += " over"
			}
			row.Bars = append(row.Bars, bar)
			y += limitBarH + 6
		}
		y += rowGap - 6
		g.Rows = append(g.Rows, row)
	}
	g.LineBottom = num(y)
	height := int(math.Ceil(y))
	g.ViewBox, g.Height = "0 0 "+strconv.Itoa(chartWidth)+" "+strconv.Itoa(height), strconv.Itoa(height)
	return g
}
