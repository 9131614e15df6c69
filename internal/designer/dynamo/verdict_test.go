package dynamo

import (
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestVerdict_queryKeysMarkedInAnyOrderPass(t *testing.T) {
	t.Parallel()
	// Pattern 9 reads TitleHistory newest first; the keys are marked oldest first.
	d, err := designer.ClearExpected{Pattern: "ap9"}.Apply(designertest.HRDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, date := range []string{"1986-10-20", "1997-01-06"} {
		d, err = designer.ToggleExpected{Pattern: "ap9", Key: designer.Item{"emp_no": designer.Num("10004"), "from_date": designer.Str(date)}}.Apply(d)
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
