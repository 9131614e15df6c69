package server

import (
	"math"
	"strconv"
	"strings"

	"dynaloom/internal/designer/capacity"
)

// How the capacity step writes its figures: quantities, dollars, percentages, throughput, bytes.

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// quantity writes a figure as people read it: digits grouped by thousands, at most two decimals,
// and two significant digits under 1, so that 0.0035 RCU is not shown as 0.
func quantity(f float64) string {
	switch {
	case f == 0 || math.IsNaN(f) || math.IsInf(f, 0):
		return "0"
	case math.Abs(f) < 1:
		return strconv.FormatFloat(roundSignificant(f, 2), 'f', -1, 64)
	case math.Abs(f) >= 1000:
		return groupThousands(strconv.FormatFloat(math.Round(f), 'f', 0, 64))
	}
	return groupThousands(strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64))
}

func roundSignificant(f float64, digits int) float64 {
	scale := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(f))))
	return math.Round(f*scale) / scale
}

// groupThousands puts commas between the thousands of a number's whole part.
func groupThousands(s string) string {
	whole, frac, hasFrac := strings.Cut(s, ".")
	sign := ""
	if strings.HasPrefix(whole, "-") {
		sign, whole = "-", whole[1:]
	}
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := sign + b.String()
	if hasFrac {
		out += "." + frac
	}
	return out
}

// dollars writes a monthly cost: cents, or two significant digits under a cent.
func dollars(f float64) string {
	if f != 0 && math.Abs(f) < 0.01 {
		return "$" + quantity(f)
	}
	return "$" + groupThousands(strconv.FormatFloat(f, 'f', 2, 64))
}

func percent(f float64) string { return quantity(f*100) + " %" }

func throughput(t capacity.Throughput) string {
	return quantity(t.RCU) + " RCU/s · " + quantity(t.WCU) + " WCU/s"
}

func averageLoad(t capacity.Throughput) string {
	return "average " + quantity(t.RCU) + " · " + quantity(t.WCU)
}

func bytesText(b float64) string {
	return groupThousands(strconv.FormatFloat(math.Round(b), 'f', 0, 64)) + " B"
}

// gigabytes is a size in binary gigabytes in the unit that reads best ("1.14 GB", "234 KB").
func gigabytes(gb float64) string { return capacity.Bytes(gb * capacity.GB) }

func storageText(s capacity.Storage) string {
	return quantity(s.Items) + " × (" + bytesText(s.AvgItemBytes) + " + 100 B)"
}
