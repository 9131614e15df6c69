package designer

import "testing"

func TestLookup_firstMatchWithItsIndex(t *testing.T) {
	t.Parallel()
	tables := []Table{{Name: "A"}, {Name: "B"}, {Name: "B", TTLAttribute: "second"}}
	if got, i, ok := Lookup(tables, "B", nameOfTable); !ok || i != 1 || got.TTLAttribute != "" {
		t.Errorf("Lookup(B) = %+v, %d, %v; want the first B at 1", got, i, ok)
	}
	if got, i, ok := Lookup(tables, "C", nameOfTable); ok || i != -1 || got.Name != "" {
		t.Errorf("Lookup(C) = %+v, %d, %v; want nothing", got, i, ok)
	}
	d := Design{Patterns: []Pattern{{ID: "", Number: 3}}}
	if _, _, ok := d.PatternByID(""); ok {
		t.Error("an empty id found a pattern; an empty id names nothing")
	}
	if _, i, ok := d.PatternByNumber(3); !ok || i != 0 {
		t.Errorf("PatternByNumber(3) = %d, %v", i, ok)
	}
	tb := Table{GSIs: []Index{{Name: "G"}}, LSIs: []Index{{Name: "L"}}}
	if _, local, i, ok := tb.IndexByName("L"); !ok || !local || i != 0 {
		t.Errorf("IndexByName(L) = local %v, %d, %v", local, i, ok)
	}
	if _, local, i, ok := tb.IndexByName("X"); ok || local || i != -1 {
		t.Errorf("IndexByName(X) = local %v, %d, %v", local, i, ok)
	}
}
