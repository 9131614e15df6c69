package capacity

import (
	"testing"

	"dynaloom/internal/designer"
)

func TestPricesOf_designOverridesOnlyWhatItSets(t *testing.T) {
	rru, skew := 0.1425, 4.0
	p := PricesOf(designer.CapacitySettings{Region: "eu-west-1", ReadRequestPrice: &rru})
	if p.Region != "eu-west-1" {
		t.Errorf("region = %q", p.Region)
	}
	if p.ReadRequest.Dollars != 0.1425 || p.ReadRequest.Source != DesignSource || p.ReadRequest.Unit != "per million RRU" {
		t.Errorf("read request price = %+v, want the design's 0.1425 per million RRU", p.ReadRequest)
	}
	if p.WriteRequest != DefaultPrices.WriteRequest || p.Storage != DefaultPrices.Storage {
		t.Errorf("unset prices changed: %+v %+v", p.WriteRequest, p.Storage)
	}
	s := SettingsOf(designer.CapacitySettings{HotKeySkew: &skew})
	if s.TargetUtilization != 70 || s.TargetUtilizationFrom != FromDefault || s.HotKeySkew != 4 || s.HotKeySkewFrom != FromDesign {
		t.Errorf("settings = %+v", s)
	}
}

func TestDefaultPrices_sayWhereTheyComeFrom(t *testing.T) {
	for _, p := range []Price{DefaultPrices.ReadRequest, DefaultPrices.WriteRequest, DefaultPrices.ReadUnitHour, DefaultPrices.WriteUnitHour, DefaultPrices.Storage} {
		if p.Source == "" || p.AsOf == "" || p.Unit == "" || p.Dollars <= 0 {
			t.Errorf("price %+v lacks a figure, unit, source or date", p)
		}
	}
}
