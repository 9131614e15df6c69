package capacity

import "testing"

func TestKeyStatus_followsTheThresholdsOfCAP001AndCAP002(t *testing.T) {
	read := func(values, onHottest float64) KeyShare {
		return KeyShare{Values: values, Units: onHottest, OnHottest: onHottest, PeakRPS: onHottest}
	}
	for _, c := range []struct {
		name string
		k    KeyLoad
		want string
	}{
		{"idle", KeyLoad{}, StatusOK},
		{"loaded, values not counted", KeyLoad{Shares: []KeyShare{{PeakRPS: 5, Units: 5}}}, StatusUnknown},
		{"a third of a partition over many values", KeyLoad{RCU: 1000, Shares: []KeyShare{read(40000, 1000)}}, StatusOK},
		{"half a partition", KeyLoad{RCU: 900, WCU: 200, Shares: []KeyShare{read(40000, 900)}}, StatusWarn},
		{"over the reads", KeyLoad{RCU: 3001, Shares: []KeyShare{read(40000, 3001)}}, StatusOver},
		{"reads and writes together over", KeyLoad{RCU: 2400, WCU: 300}, StatusOver},
		{"few values, a tenth of a partition", KeyLoad{RCU: 300, Shares: []KeyShare{read(3, 300)}}, StatusWarn},
		{"few values, little load", KeyLoad{RCU: 30, Shares: []KeyShare{read(3, 30)}}, StatusOK},
		{"few values of a key that grows with time", KeyLoad{WCU: 150, Shares: []KeyShare{{Values: 3, Units: 150, OnHottest: 150, Write: true, Increasing: true}}}, StatusOK},
	} {
		if got := KeyStatus(c.k); got != c.want {
			t.Errorf("%s: %s, want %s (share %v)", c.name, got, c.want, c.k.Share())
		}
	}
}
