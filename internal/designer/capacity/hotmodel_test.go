package capacity

import (
	"math"
	"testing"

	"dynaloom/internal/designer"
)

func TestHarmonic_smallNSumsEveryTerm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, s, want float64 }{
		{1, 1.5, 1},
		{4, 1, 1 + 1.0/2 + 1.0/3 + 1.0/4}, // 25/12
		{3, 2, 1 + 1.0/4 + 1.0/9},         // 49/36
		{5, 0, 5},
		{2, 0.5, 1 + 1/math.Sqrt2},
	} {
		if got := Harmonic(c.n, c.s); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("H(%v, %v) = %v, want %v", c.n, c.s, got, c.want)
		}
	}
}

// Past 1,000 terms Harmonic sums the first 31 and takes the rest by Euler–Maclaurin: within 1e-12
// of the term-by-term sum.
func TestHarmonic_largeNIsTheBruteForceSum(t *testing.T) {
	t.Parallel()
	brute := func(n, s float64) float64 {
		var sum, comp float64 // Kahan, the smallest terms first
		for k := n; k >= 1; k-- {
			y := math.Pow(k, -s) - comp
			t := sum + y
			comp = (t - sum) - y
			sum = t
		}
		return sum
	}
	for _, n := range []float64{1001, 3000, 123_457, 1_000_000} {
		for _, s := range []float64{0, 0.3, 0.5, 0.999, 1, 1.001, 1.1, 2, 3.5, 10} {
			got, want := Harmonic(n, s), brute(n, s)
			if math.Abs(got-want) > 1e-12*want {
				t.Errorf("H(%v, %v) = %.17g, brute force %.17g (relative error %.2g)", n, s, got, want, math.Abs(got-want)/want)
			}
		}
	}
}

// For n far past any brute force the sum meets its known limits: H(n, 2) → π²/6, and
// H(n, 1) = ln n + γ + 1/(2n) − ….
func TestHarmonic_hugeNMeetsItsLimits(t *testing.T) {
	t.Parallel()
	const gamma = 0.57721566490153286
	if got, want := Harmonic(1e12, 2), math.Pi*math.Pi/6-1e-12; math.Abs(got-want) > 1e-12 {
		t.Errorf("H(1e12, 2) = %.17g, want π²/6 − 1/n = %.17g", got, want)
	}
	if got, want := Harmonic(1e15, 1), math.Log(1e15)+gamma; math.Abs(got-want) > 1e-12*want {
		t.Errorf("H(1e15, 1) = %.17g, want ln n + γ = %.17g", got, want)
	}
}

// hotKeysUnder is HotKeys of the shop under m, by index ("" for the table's key).
func hotKeysUnder(t *testing.T, m HotModel) map[string]KeyLoad {
	d, r := shopWithLoads()
	r.Settings.Hot = m
	loads := map[string]KeyLoad{}
	for _, k := range HotKeys(d, r) {
		if k.Model != m {
			t.Errorf("%s: model %+v, want %+v", k.Path(), k.Model, m)
		}
		loads[k.Index] = k
	}
	return loads
}

func nearly(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// The shop's loads (shopWithLoads): on the table's key #1 reads 600 RCU/s over 3,000 values, #2
// 500 RCU/s on one value, #4 writes 300 WCU/s over 3,000; on ByStatus #3 reads 500 RCU/s and #4
// writes 300 WCU/s, over 4 values.
func TestHotKeys_underEachModel(t *testing.T) {
	t.Parallel()
	h4 := 25.0 / 12 // H(4, 1)
	for _, c := range []struct {
		name                   string
		m                      HotModel
		tableRCU, tableWCU     float64
		byStatusRCU, byStatWCU float64
	}{
		// 600/3,000 + 500 = 500.2; 300/3,000 = 0.1; 500/4, 300/4.
		{"uniform", HotModel{Name: designer.HotKeyUniform}, 500.2, 0.1, 125, 75},
		// 600 × 5 % + 500 (one value: all of it) = 530; 300 × 5 % = 15; 500 × 25 % (the even share of 4
		// is more than 5 %) = 125; 300 × 25 % = 75.
		{"top-key share of 5 %", HotModel{Name: designer.HotKeyTopShare, Share: 5}, 530, 15, 125, 75},
		// 600 × 40 % + 500 = 740; 300 × 40 % = 120; 500 × 40 % = 200; 300 × 40 % = 120.
		{"top-key share of 40 %", HotModel{Name: designer.HotKeyTopShare, Share: 40}, 740, 120, 200, 120},
		// 600 / H(3,000, 1) + 500; 300 / H(3,000, 1); 500 / (25/12) = 240; 300 / (25/12) = 144.
		{"zipf s = 1", HotModel{Name: designer.HotKeyZipf, S: 1}, 600/Harmonic(3000, 1) + 500, 300 / Harmonic(3000, 1), 240, 144},
		// H(4, 2) = 1 + 1/4 + 1/9 + 1/16 = 205/144: 500 × 144/205, 300 × 144/205.
		{"zipf s = 2", HotModel{Name: designer.HotKeyZipf, S: 2}, 600/Harmonic(3000, 2) + 500, 300 / Harmonic(3000, 2), 500 * 144.0 / 205, 300 * 144.0 / 205},
		// The multiplier, as designs that set no model have it: 600 × 3/3,000 + 500; 300 × 3/3,000;
		// 500 × 3/4; 300 × 3/4.
		{"skew 3", HotModel{Name: designer.HotKeySkewModel, Skew: 3}, 500.6, 0.3, 375, 225},
	} {
		loads := hotKeysUnder(t, c.m)
		table, byStatus := loads[""], loads["ByStatus"]
		if !nearly(table.RCU, c.tableRCU) || !nearly(table.WCU, c.tableWCU) {
			t.Errorf("%s: the table's key takes %v RCU/s and %v WCU/s, want %v and %v", c.name, table.RCU, table.WCU, c.tableRCU, c.tableWCU)
		}
		if !nearly(byStatus.RCU, c.byStatusRCU) || !nearly(byStatus.WCU, c.byStatWCU) {
			t.Errorf("%s: ByStatus takes %v RCU/s and %v WCU/s, want %v and %v", c.name, byStatus.RCU, byStatus.WCU, c.byStatusRCU, c.byStatWCU)
		}
	}
	if h := Harmonic(4, 1); !nearly(h, h4) {
		t.Errorf("H(4, 1) = %v", h)
	}
	// 3,000 is past the terms summed one by one: H(3,000, 1) = ln 3,000 + γ + 1/6,000 − … = 8.5837….
	if h := Harmonic(3000, 1); math.Abs(h-8.58374988) > 1e-8 {
		t.Errorf("H(3000, 1) = %v, want 8.58374988", h)
	}
}

// A top-key share needs no count: on a key whose values are not known the hottest still takes
// the share, where the other models can say nothing.
func TestHotModel_topKeyShareOfAKeyNotCounted(t *testing.T) {
	t.Parallel()
	if got := (HotModel{Name: designer.HotKeyTopShare, Share: 5}).OnHottest(1000, 0); got != 50 {
		t.Errorf("5 %% of 1,000 on a key not counted = %v, want 50", got)
	}
	for _, m := range []HotModel{{Name: designer.HotKeyUniform}, {Name: designer.HotKeyZipf, S: 1}, {Name: designer.HotKeySkewModel, Skew: 2}} {
		if got := m.OnHottest(1000, 0); got != 0 {
			t.Errorf("%s on a key not counted = %v, want 0 (not known)", m.Name, got)
		}
	}
}

// A design that sets only hot_key_skew, as every revision stored before the models did, gets the
// figures it had: the multiplier, the same to the last bit as Settings that name the skew alone.
func TestSettingsOf_aSkewAloneKeepsTheMultiplier(t *testing.T) {
	t.Parallel()
	three := 3.0
	s := SettingsOf(designer.CapacitySettings{HotKeySkew: &three})
	if s.Hot.Name != designer.HotKeySkewModel || s.Hot.NameFrom != FromDefault || s.Hot.Skew != 3 || s.Hot.SkewFrom != FromDesign {
		t.Fatalf("model of a skew alone: %+v", s.Hot)
	}
	d, r := shopWithLoads()
	r.Settings = s
	byNew := HotKeys(d, r)
	r.Settings = Settings{HotKeySkew: 3}
	byOld := HotKeys(d, r)
	for i, k := range byNew {
		if k.RCU != byOld[i].RCU || k.WCU != byOld[i].WCU || k.Skew != 3 {
			t.Errorf("%s: %v RCU/s %v WCU/s, the skew alone gives %v and %v", k.Path(), k.RCU, k.WCU, byOld[i].RCU, byOld[i].WCU)
		}
	}
	// ByStatus: 500 × 3/4 = 375 RCU/s, 300 × 3/4 = 225 WCU/s.
	if k := byNew[1]; k.Index != "ByStatus" || k.RCU != 375 || k.WCU != 225 {
		t.Errorf("ByStatus under a skew of 3: %+v", k)
	}
	if got := s.Hot.Text(); got != "skew 3× (design): the hottest value takes 3 times its even share" {
		t.Errorf("Text = %q", got)
	}
}

func TestSettingsOf_declaredModels(t *testing.T) {
	t.Parallel()
	share, s := 5.0, 1.2
	zipf := SettingsOf(designer.CapacitySettings{HotKeyModel: designer.HotKeyZipf, HotKeyZipfS: &s}).Hot
	if zipf.Name != designer.HotKeyZipf || zipf.S != 1.2 || zipf.SFrom != FromDesign || zipf.Skew != DefaultHotKeySkew {
		t.Errorf("zipf: %+v", zipf)
	}
	if got := zipf.Text(); got != "zipf (design), s = 1.2 (design): the hottest of N values takes 1/H(N, s) of the load" {
		t.Errorf("zipf Text = %q", got)
	}
	top := SettingsOf(designer.CapacitySettings{HotKeyModel: designer.HotKeyTopShare}).Hot
	if top.Share != DefaultHotKeyShare || top.ShareFrom != FromDefault {
		t.Errorf("top-key share without a share: %+v", top)
	}
	top = SettingsOf(designer.CapacitySettings{HotKeyModel: designer.HotKeyTopShare, HotKeyShare: &share}).Hot
	if top.Share != 5 || top.ShareFrom != FromDesign {
		t.Errorf("top-key share of 5 %%: %+v", top)
	}
}
