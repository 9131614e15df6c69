package derive

import (
	"reflect"
	"slices"
	"testing"

	"dynaloom/internal/designer"
)

// A table's key order is worked out once per revision and is designer.TableOrder's; a pattern's
// verdict is "pass" when its recorded expectation is met, "fail" when not or when the operation
// cannot run, and "" when it records none.
func TestDerived_tableOrderAndPatternVerdicts(t *testing.T) {
	d, err := designer.ParseJSON([]byte(`{"name": "Shop",
		"access_patterns": [
			{"number": 1, "description": "met", "mapping": {"operations": [{"op": "Query", "table": "Orders", "key_condition": "pk = :p",
				"values": {":p": {"S": "A"}}, "expected": [{"pk": {"S": "A"}, "sk": {"N": "1"}}, {"pk": {"S": "A"}, "sk": {"N": "2"}}]}]}},
			{"number": 2, "description": "missed", "mapping": {"operations": [{"op": "Query", "table": "Orders", "key_condition": "pk = :p",
				"values": {":p": {"S": "A"}}, "expected": [{"pk": {"S": "B"}, "sk": {"N": "3"}}]}]}},
			{"number": 3, "description": "no expectation", "mapping": {"operations": [{"op": "Query", "table": "Orders", "key_condition": "pk = :p",
				"values": {":p": {"S": "A"}}}]}},
			{"number": 4, "description": "cannot run", "mapping": {"operations": [{"op": "Query", "table": "Orders", "key_condition": "status = :p",
				"values": {":p": {"S": "A"}}, "expected": []}]}}],
		"tables": [{"name": "Orders", "partition_key": {"name": "pk", "type": "S"}, "sort_key": {"name": "sk", "type": "N"}, "items": [
			{"id": "i1", "item": {"pk": {"S": "B"}, "sk": {"N": "3"}}},
			{"id": "i2", "item": {"pk": {"S": "A"}, "sk": {"N": "2"}}},
			{"id": "i3", "item": {"pk": {"S": "A"}, "sk": {"N": "1"}}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	x := New(d, nil)
	rows := x.TableOrder(d.Tables[0])
	if want := designer.TableOrder(d.Tables[0]); !reflect.DeepEqual(rows, want) {
		t.Fatalf("order\n got %+v\nwant %+v", rows, want)
	}
	if again := x.TableOrder(d.Tables[0]); &again[0] != &rows[0] {
		t.Fatal("the order was worked out again for the same revision")
	}
	for i, want := range []string{"pass", "fail", "", "fail"} {
		if got := x.PatternVerdict(d.Patterns[i]); got != want {
			t.Errorf("pattern %q: verdict %q, want %q", d.Patterns[i].Description, got, want)
		}
	}
}

// Every pattern of every bundled example that records an expected result meets it: the gallery's
// Mapping steps show green verdicts only.
func TestDerived_examplesVerdictsPass(t *testing.T) {
	t.Parallel()
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		x := New(d, nil)
		passed := 0
		for _, p := range d.Patterns {
			stated := slices.ContainsFunc(p.Mapping.Operations, func(op designer.Operation) bool { return op.Expected != nil })
			got := x.PatternVerdict(p)
			switch {
			case stated && got != "pass":
				t.Errorf("%s pattern %d %q: verdict %q, want pass", ex.ID, p.Number, p.Description, got)
			case stated:
				passed++
			}
		}
		if passed == 0 {
			t.Errorf("%s: no pattern records an expected result", ex.ID)
		}
	}
}
