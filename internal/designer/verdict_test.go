package designer

import (
	"testing"
)

func TestVerdict_queryKeysMarkedInAnyOrderPass(t *testing.T) {
	// Pattern 9 reads TitleHistory newest first; the keys are marked oldest first.
	d, err := ClearExpected{Pattern: "ap9"}.Apply(hrDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, date := range []string{"1986-10-20", "1997-01-06"} {
		d, err = ToggleExpected{Pattern: "ap9", Key: Item{"emp_no": Num("10004"), "from_date": Str(date)}}.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
	}
	p, _, _ := d.PatternByID("ap9")
	op := p.Mapping.Operations[0]
	tbl, _, _ := d.TableByName(op.Table)
	if stated, pass := Verdict(tbl, op, RunOperation(d, op)); !stated || !pass {
		t.Errorf("verdict = stated %v, pass %v; want a pass", stated, pass)
	}
}
