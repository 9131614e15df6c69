package capacity

import (
	"encoding/json"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A revision stored before the numbers were bounded replays as it was accepted: a skew, rates,
// prices and counts of 1e308 give a report whose every figure is finite, so the capacity answer
// encodes (it answered 500, "json: unsupported value: +Inf", to everyone).
func TestNewDocument_numbersStoredBeforeTheirBoundsGiveFiniteFigures(t *testing.T) {
	d := designertest.HRDesign(t)
	huge := 1e308
	d.Capacity.HotKeySkew, d.Capacity.ReadRequestPrice, d.Capacity.StoragePrice = &huge, &huge, &huge
	for i := range d.Patterns {
		d.Patterns[i].PeakRPS, d.Patterns[i].AvgRPS = &huge, &huge
	}
	many := int64(9e18)
	for i := range d.Entities {
		d.Entities[i].Count = &many
	}
	doc := NewDocument(d, Compute(d, nil))
	if _, err := json.Marshal(doc); err != nil {
		t.Fatalf("the capacity document does not encode: %v", err)
	}
	if doc.Settings.HotKeySkew != designer.MaxHotKeySkew {
		t.Errorf("the skew used is %v, want it brought within its bound, %v", doc.Settings.HotKeySkew, designer.MaxHotKeySkew)
	}
}

// The change that let 1e308 in is refused naming the field.
func TestSetCapacityField_refusesASkewBeyondItsBound(t *testing.T) {
	_, err := designer.SetCapacityField{Field: "hot_key_skew", Value: "1e308"}.Apply(designertest.HRDesign(t))
	if err == nil || err.Error() != `capacity/hot_key_skew: "1e308" is not a factor from 1 to 1,000,000 (1 spreads the load evenly over the key's values)` {
		t.Fatalf("error = %v", err)
	}
}
