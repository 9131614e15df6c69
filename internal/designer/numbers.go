package designer

import (
	"math"
	"strconv"
	"strings"
)

// Bounds of the numbers a design holds (docs/changes.md, "Numbers"). Every number a person sets —
// a rate, a count, a size, a price, capacity units, a generator's bounds — is finite and at most
// MaxNumber in size: past it no figure means anything, and figures multiplied from such numbers
// could overflow to infinity, which no answer can carry.
const (
	MaxNumber     = 1e15
	MaxHotKeySkew = 1e6
)

// maxNumberText is MaxNumber as messages write it.
const maxNumberText = "1,000,000,000,000,000"

// GroupThousands writes v to at most two decimals with its thousands separated by commas
// ("1,792,000", "-1,234.57"), as the documents and the Capacity step write figures.
func GroupThousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}
