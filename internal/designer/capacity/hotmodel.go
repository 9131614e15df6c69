package capacity

import (
	"math"

	"dynaloom/internal/designer"
)

// The hot-key model is how the team says a key's load spreads over its values, and so what its
// hottest value takes (docs/capacity.md, "Hot partitions"):
//
//	skew           min(1, skew ÷ N) of the load (hot_key_skew, the model of designs that set none)
//	uniform        1 ÷ N
//	top_key_share  max(share, 1 ÷ N); share alone when N is not known
//	zipf           1 ÷ H(N, s), H(N, s) = Σ_{k=1..N} k^-s
//
// N is the number of values the load spreads over.

// Defaults of the hot-key model's parameters, until the team states them.
const (
	// DefaultHotKeyShare is the percentage of a key's load its hottest value takes under
	// top_key_share when the team names no share.
	DefaultHotKeyShare = 10
	// DefaultHotKeyZipfS is zipf's exponent when the team names none: the classic Zipf law, where
	// the k-th busiest value takes 1/k of what the busiest does.
	DefaultHotKeyZipfS = 1
)

// HotModel is the hot-key model a report uses, with its parameters and where each came from.
type HotModel struct {
	// Name is designer.HotKeySkewModel, HotKeyUniform, HotKeyTopShare or HotKeyZipf.
	Name     string
	NameFrom string // FromDesign or FromDefault
	// Skew is the multiplier of the skew model (Settings.HotKeySkew).
	Skew     float64
	SkewFrom string
	// Share is the percentage the hottest value takes under top_key_share.
	Share     float64
	ShareFrom string
	// S is zipf's exponent.
	S     float64
	SFrom string
}

// hotModelOf is the model the design's settings declare, its defaults where they declare none.
func hotModelOf(c designer.CapacitySettings, skew float64, skewFrom string) HotModel {
	m := HotModel{Name: designer.HotKeySkewModel, NameFrom: FromDefault, Skew: skew, SkewFrom: skewFrom,
		Share: DefaultHotKeyShare, ShareFrom: FromDefault, S: DefaultHotKeyZipfS, SFrom: FromDefault}
	switch c.HotKeyModel {
	case designer.HotKeyUniform, designer.HotKeyTopShare, designer.HotKeyZipf, designer.HotKeySkewModel:
		m.Name, m.NameFrom = c.HotKeyModel, FromDesign
	}
	if c.HotKeyShare != nil {
		m.Share, m.ShareFrom = bounded(*c.HotKeyShare, 0, designer.MaxHotKeySharePc), FromDesign
	}
	if c.HotKeyZipfS != nil {
		m.S, m.SFrom = bounded(*c.HotKeyZipfS, 0, designer.MaxHotKeyZipfS), FromDesign
	}
	if m.Skew < 1 {
		m.Skew = 1
	}
	return m
}

// OnHottest is what the hottest of values values takes of units spread over them; 0 when values
// is not known (0), but for top_key_share, whose share needs no count.
func (m HotModel) OnHottest(units, values float64) float64 {
	switch m.Name {
	case designer.HotKeyUniform:
		if values >= 1 {
			return units / values
		}
	case designer.HotKeyTopShare:
		share := m.Share / 100
		if values > 0 {
			share = max(share, 1/max(values, 1))
		}
		return units * share
	case designer.HotKeyZipf:
		if values > 0 {
			return units / Harmonic(zipfN(values), m.S)
		}
		return 0
	default:
		if values >= m.Skew {
			return units * m.Skew / values
		}
	}
	if values > 0 {
		return units
	}
	return 0
}

// zipfN is the whole number of values zipf ranks: values rounded, at least 1.
func zipfN(values float64) float64 { return max(1, math.Round(values)) }

// Text names the model and its parameters, each with where it came from: "skew 2× (default)",
// "zipf, s = 1.2 (design)".
func (m HotModel) Text() string {
	switch m.Name {
	case designer.HotKeyUniform:
		return "uniform (" + m.NameFrom + "): every value takes its even share"
	case designer.HotKeyTopShare:
		return "top-key share (" + m.NameFrom + "): the hottest value takes " + Figure(m.Share) + " % of the load (" + m.ShareFrom + "), never less than its even share"
	case designer.HotKeyZipf:
		return "zipf (" + m.NameFrom + "), s = " + Figure(m.S) + " (" + m.SFrom + "): the hottest of N values takes 1/H(N, s) of the load"
	}
	return "skew " + Figure(m.Skew) + "× (" + m.SkewFrom + "): the hottest value takes " + Figure(m.Skew) + " times its even share"
}

// ShareText is how the hottest of values values comes to its load, for a finding: "× 2 (skew) ÷ 4
// values", "÷ H(4, 1) = 2.083 (zipf s = 1)"; "" when all of it is on one value or values is not
// known.
func (m HotModel) ShareText(values float64) string {
	vals := Figure(values) + " values"
	switch m.Name {
	case designer.HotKeyUniform:
		if values > 1 {
			return "÷ " + vals + " (uniform)"
		}
	case designer.HotKeyTopShare:
		if values <= 0 || m.Share/100 > 1/values {
			return "× " + Figure(m.Share) + " % (top-key share)"
		}
		if values > 1 {
			return "÷ " + vals + " (top-key share of " + Figure(m.Share) + " % is less than the even share)"
		}
	case designer.HotKeyZipf:
		if n := zipfN(values); values > 0 && n > 1 {
			return "÷ H(" + Figure(n) + ", " + Figure(m.S) + ") = " + Figure(Harmonic(n, m.S)) + " (zipf s = " + Figure(m.S) + " over " + vals + ")"
		}
	default:
		if values > m.Skew {
			return "× " + Figure(m.Skew) + " (skew) ÷ " + vals
		}
	}
	return ""
}

// harmonicExact is the N up to which Harmonic sums every term.
const harmonicExact = 1000

// harmonicHead is where Harmonic's Euler–Maclaurin tail starts: the terms below it are summed.
const harmonicHead = 32

// Harmonic is the generalised harmonic number H(n, s) = Σ_{k=1..n} k^-s of a whole n ≥ 1: summed
// term by term up to 1,000, else the first 31 terms summed and the rest by Euler–Maclaurin to
// the eighth derivative, so that its work does not grow with n (relative error under 1e-12).
func Harmonic(n, s float64) float64 {
	n = math.Floor(n)
	if n < 1 {
		return 0
	}
	if n <= harmonicExact {
		var sum float64
		for k := n; k >= 1; k-- { // the smallest terms first
			sum += math.Pow(k, -s)
		}
		return sum
	}
	var head float64
	for k := float64(harmonicHead - 1); k >= 1; k-- {
		head += math.Pow(k, -s)
	}
	return head + zetaTail(harmonicHead, n, s)
}

// zetaTail is Σ_{k=m..n} k^-s by Euler–Maclaurin: ∫_m^n x^-s dx + (f(m) + f(n))/2 +
// Σ_j B_2j/(2j)! (f^(2j-1)(n) − f^(2j-1)(m)), j = 1..4.
func zetaTail(m, n, s float64) float64 {
	var integral float64
	if l := math.Log(n / m); s == 1 {
		integral = l
	} else {
		// m^(1-s) (e^((1-s) ln(n/m)) − 1) / (1-s), without the cancellation near s = 1.
		integral = math.Pow(m, 1-s) * math.Expm1((1-s)*l) / (1 - s)
	}
	sum := integral + (math.Pow(m, -s)+math.Pow(n, -s))/2
	// f^(k)(x) = (-1)^k s(s+1)…(s+k-1) x^(-s-k); for odd k it is −rising(s, k) x^(-s-k).
	bernoulli := [...]float64{1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600}
	rising := s // s(s+1)…(s+k-1) for k = 1, 3, 5, 7
	for j, b := range bernoulli {
		k := float64(2*j + 1)
		if j > 0 {
			rising *= (s + k - 2) * (s + k - 1)
		}
		d := func(x float64) float64 { return -rising * math.Pow(x, -s-k) }
		sum += b * (d(n) - d(m))
	}
	return sum
}
